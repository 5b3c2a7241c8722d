//! Bad input never panics: every defect of a FEN, a mark or a move in notation comes back as an
//! `Err` whose message fits on one line, so a front end can print it and carry on.

use proptest::prelude::*;
use retrace_unmove::{NotationError, Retraction, RetroPosition, SetupError};
use shakmaty::{Color, Square};

fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains('\n') && !message.contains('\r')
}

#[track_caller]
fn setup_err(fen: &str, retract: Option<Color>) -> SetupError {
    match RetroPosition::parse(fen, retract) {
        Ok(pos) => panic!("{fen:?} (retract {retract:?}) accepted as {}", pos.fen()),
        Err(e) => {
            assert!(
                one_line(&e.to_string()),
                "{fen:?}: message {:?}",
                e.to_string()
            );
            e
        }
    }
}

#[track_caller]
fn notation_err(pos: &RetroPosition, text: &str) -> NotationError {
    match pos.parse_retraction(text) {
        Ok(r) => panic!("{text:?} accepted as {r} in {}", pos.fen()),
        Err(e) => {
            assert!(
                one_line(&e.to_string()),
                "{text:?}: message {:?}",
                e.to_string()
            );
            e
        }
    }
}

#[test]
fn malformed_fens() {
    for fen in [
        "",
        "   ",
        "garbage",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x y",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w XYZ - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1",
        "4k3/8/8/8/8/8/8/4K3~ w - - 0 1",
    ] {
        setup_err(fen, None);
    }
}

#[test]
fn wrong_number_of_kings() {
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/8 b - - 0 1",
        "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
        "k3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert!(
            matches!(setup_err(fen, None), SetupError::KingCount { .. }),
            "{fen}"
        );
    }
}

#[test]
fn pawns_on_back_ranks() {
    for fen in [
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/p3K3 b - - 0 1",
        "4k2p/8/8/8/8/8/8/4K3",
    ] {
        let retract = if fen.contains(' ') {
            None
        } else {
            Some(Color::White)
        };
        assert!(
            matches!(setup_err(fen, retract), SetupError::PawnOnBackRank(_)),
            "{fen}"
        );
    }
}

#[test]
fn castling_rights_without_their_units() {
    for fen in [
        // No rook on h1; king not on e1; 'q' with the rook on h8; a file-letter right on c1.
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/8/3K3R w K - 0 1",
        "4k2r/8/8/8/8/8/8/4K3 w q - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w C - 0 1",
        "4k3/8/8/8/8/8/8/r3K2R w Q - 0 1",
    ] {
        setup_err(fen, None);
    }
}

/// A right written `K` or `Q` whose rook is not in the corner is named as written (shakmaty reads
/// it as the outermost rook on that side, so it arrived as a right on g1 and the error said `G`);
/// a right written as a file letter keeps its letter, and is told that only the corner rooks
/// castle (it was asked for a rook on h1).
#[test]
fn castling_rights_named_as_written() {
    for (fen, message) in [
        (
            "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
            "castling right K needs a white king on e1 and rook on h1",
        ),
        (
            "4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1",
            "castling right Q needs a white king on e1 and rook on a1",
        ),
        (
            "4k1r1/8/8/8/8/8/8/4K3 w k - 0 1",
            "castling right k needs a black king on e8 and rook on h8",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w C - 0 1",
            "castling right C names the rook on the c-file: in chess only K, Q, k and q (or A, \
             H, a and h) are rights",
        ),
        (
            "1r2k3/8/8/8/8/8/8/4K3 w b - 0 1",
            "castling right b names the rook on the b-file: in chess only K, Q, k and q (or A, \
             H, a and h) are rights",
        ),
    ] {
        assert_eq!(setup_err(fen, None).to_string(), message, "{fen}");
    }
}

#[test]
fn en_passant_squares_that_do_not_fit() {
    for fen in [
        // Wrong rank for the side that moved; no pawn; pawn of the wrong colour; square or start
        // square occupied.
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4p3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - e9 0 1",
        "4k3/8/8/4p3/8/8/8/4K3 w - e7 0 1",
    ] {
        setup_err(fen, None);
    }
}

#[test]
fn retracting_side_conflicts_or_missing() {
    let full = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert!(matches!(
        setup_err(full, Some(Color::White)),
        SetupError::RetractConflict { .. }
    ));
    let pos = RetroPosition::parse(full, Some(Color::Black)).expect("agreeing side");
    assert_eq!(pos.retracting(), Color::Black);
    assert!(matches!(
        setup_err("4k3/8/8/8/8/8/8/4K3", None),
        SetupError::MissingRetractingSide
    ));
}

#[test]
fn bad_marks() {
    let mut pos =
        RetroPosition::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
            .unwrap();
    for (result, what) in [
        (
            pos.clone().mark_frozen(Square::E4),
            "frozen on an empty square",
        ),
        (
            pos.clone().mark_frozen(Square::D5),
            "frozen on the pawn that must retract its double step",
        ),
        (
            pos.clone().mark_promoted(Square::E4),
            "promoted on an empty square",
        ),
        (pos.clone().mark_promoted(Square::E5), "promoted pawn"),
        (pos.clone().mark_promoted(Square::E1), "promoted king"),
    ] {
        let e = result.expect_err(what);
        assert!(one_line(&e.to_string()), "{what}: {e}");
    }
    let key = pos.zobrist();
    assert!(pos.mark_frozen(Square::H3).is_err());
    assert_eq!(
        pos.zobrist(),
        key,
        "a refused mark must not change the position"
    );
}

#[test]
fn garbage_notation() {
    let pos =
        RetroPosition::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    for text in [
        "",
        "   ",
        "+",
        "xyz",
        "Nb8",
        "Nb8-",
        "Nb8-c",
        "Ni8-c6",
        "Nb8xc6",
        "Nb8xKc6",
        "Nb8-b8",
        "Zb8-c6",
        "Pe7-e5",
        "e7-e5=K",
        "e7-e5=P",
        "e7-e5=",
        "Nb8-c6=Q",
        "Nb8-c6 and more",
        "Bb8xNc6ep",
        "e7xNd6ep",
        "0-0-0-0",
        "O-O-O-O",
        "e7–e5",
        "ñ",
        "Nb8-c6\nNg8-f6",
        "e7-\re5",
        "Nb8-\u{2028}c6",
    ] {
        let e = notation_err(&pos, text);
        assert!(matches!(e, NotationError::Syntax { .. }), "{text:?}: {e}");
    }
    // Well formed, but not a retraction here.
    for text in [
        "Nc6-b8", "f7-f5", "Ng8-f6", "Nc6xPb8", "0-0", "0-0-0", "d7xe6ep", "e2-e4",
    ] {
        let e = notation_err(&pos, text);
        assert!(matches!(e, NotationError::NotLegal { .. }), "{text:?}: {e}");
    }
    assert!(pos.parse_retraction("Nb8-c6").is_ok());
}

#[test]
fn castling_notation_for_the_wrong_position() {
    // The white king stands on g1 but the rook is not on f1; the black king never castled.
    let pos = RetroPosition::from_fen("r3k2r/8/8/8/8/8/8/R5KR b kq - 0 1").unwrap();
    for text in ["0-0", "O-O", "0-0-0", "O-O-O+"] {
        assert!(
            matches!(notation_err(&pos, text), NotationError::NotLegal { .. }),
            "{text}"
        );
    }
    // Castled-looking, but the king would have crossed f1, attacked by the black rook.
    for fen in [
        "4kr2/8/8/8/8/8/8/5RK1 b - - 0 1",
        "4k3/5r2/8/8/8/8/8/R4RK1 b - - 0 1",
    ] {
        let pos = RetroPosition::from_fen(fen).unwrap();
        assert!(
            matches!(notation_err(&pos, "0-0"), NotationError::NotLegal { .. }),
            "{fen}"
        );
    }
    // The same without the attacker: now it reads.
    let pos = RetroPosition::from_fen("4k3/8/8/8/8/8/8/R4RK1 b - - 0 1").unwrap();
    assert!(pos.parse_retraction("0-0").is_ok());
}

/// Strings that look like FENs, so the search gets past the first field often.
fn fen_like() -> impl Strategy<Value = String> {
    (
        "[1-8pnbrqkPNBRQK/]{1,40}",
        "[wb ]{0,2}",
        "(-|[KQkqA-Ha-hX]{1,5})",
        "(-|[a-h][1-8]|[a-z0-9]{1,3})",
        "( [0-9]{1,3}){0,3}",
    )
        .prop_map(|(board, turn, castling, ep, rest)| {
            format!("{board} {turn} {castling} {ep}{rest}")
        })
}

/// A real FEN with a few characters replaced.
fn mutated_fen() -> impl Strategy<Value = String> {
    let base = "r3k2r/pPp1pppp/8/3pP3/8/8/PPPP1PPP/R3K2R w KQkq d6 0 3";
    proptest::collection::vec((0..base.len(), "[ -~]"), 1..4).prop_map(move |edits| {
        let mut bytes = base.as_bytes().to_vec();
        for (at, with) in edits {
            bytes[at] = with.as_bytes()[0];
        }
        String::from_utf8(bytes).expect("ASCII")
    })
}

/// Whatever is accepted must be usable: its retractions list and its FEN reads back.
fn exercise(text: &str, retract: Option<Color>) -> Result<(), TestCaseError> {
    match RetroPosition::parse(text, retract) {
        Err(e) => prop_assert!(one_line(&e.to_string()), "{text:?}: {e}"),
        Ok(pos) => {
            let retractions = pos.retractions();
            prop_assert_eq!(pos.count_retractions(), retractions.len() as u64);
            let again = RetroPosition::from_fen(&pos.fen());
            prop_assert!(
                again.is_ok(),
                "{} from {:?} does not read back",
                pos.fen(),
                text
            );
            for r in retractions {
                prop_assert_eq!(pos.parse_retraction(&pos.notation(r)), Ok(r));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_as_fen(text in prop_oneof![any::<String>(), "[\\x00-\\x7f]{0,24}"], white in any::<bool>(), give_side in any::<bool>()) {
        let retract = give_side.then_some(if white { Color::White } else { Color::Black });
        exercise(&text, retract)?;
    }

    #[test]
    fn fen_like_text(text in fen_like(), white in any::<bool>(), give_side in any::<bool>()) {
        let retract = give_side.then_some(if white { Color::White } else { Color::Black });
        exercise(&text, retract)?;
    }

    #[test]
    fn mutated_fens(text in mutated_fen()) {
        exercise(&text, None)?;
    }

    // `any::<String>()` draws no control characters, so ASCII with controls is drawn as well.
    #[test]
    fn arbitrary_text_as_notation(text in prop_oneof![any::<String>(), "[\\x00-\\x7f]{0,12}"], white in any::<bool>()) {
        let color = if white { Color::White } else { Color::Black };
        if let Err(e) = Retraction::parse(&text, color) {
            prop_assert!(one_line(&e.to_string()), "{:?}: {}", text, e);
        }
        let pos = RetroPosition::from_fen("r3k2r/pPp1pppp/8/3pP3/8/8/PPPP1PPP/R3K2R b KQkq - 0 3").unwrap();
        if let Err(e) = pos.parse_retraction(&text) {
            prop_assert!(one_line(&e.to_string()), "{:?}: {}", text, e);
        }
    }

    #[test]
    fn notation_like_text(text in "[KQRBNP]?[a-i][0-9][-x:]?[KQRBNP]?[a-i][0-9](=[KQRBNP]?)?(ep|e\\.p\\.)?[+#]?", white in any::<bool>()) {
        let color = if white { Color::White } else { Color::Black };
        match Retraction::parse(&text, color) {
            Err(e) => prop_assert!(one_line(&e.to_string()), "{:?}: {}", text, e),
            // What parses prints back to something that parses to the same retraction.
            Ok(r) => prop_assert_eq!(Retraction::parse(&r.to_string(), color), Ok(r)),
        }
    }
}

/// A move written short (SAN: one square, as in `Ka1`, `e4` or `Nxf3`) is told that a retraction
/// names both squares; a typo in long notation keeps the message that points at it.
#[test]
fn short_notation_gets_a_hint_of_retro_notation() {
    for text in ["Ka1", "e4", "Nxf3", "exd5", "Qh5+"] {
        let message = Retraction::parse(text, Color::White)
            .expect_err(text)
            .to_string();
        assert!(message.contains("names both squares"), "{text}: {message}");
    }
    let message = Retraction::parse("Kb2a1", Color::White)
        .expect_err("no separator")
        .to_string();
    assert!(
        message.contains("expected '-' or 'x' after the first square"),
        "{message}"
    );
    assert!(Retraction::parse("Kb2-a1", Color::White).is_ok());
}
