//! Castling and en passant rights ([`retrace_search::rights`]): the published problems of
//! positions/rights.toml answered as their composers answer them (and their colour swaps), and
//! no right that a real history keeps called impossible, nor an en passant capture proven that
//! was not the last move, on the published proof games and on random games.
//!
//! `RIGHTS_GAMES=N` sets the number of random games of the soundness test (each gives its
//! positions; 2000 games give about 100,000 positions).

use std::time::Instant;

use retrace_search::rights::{
    rights, CastlingRight, EpVerdict, RightSet, RightVerdict, Rights, RightsParams,
};
use retrace_testkit::{move_squares, published_proof_games, random_game, random_game_with, Game};
use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position, Role, Square};

#[derive(Debug, serde::Deserialize)]
struct Problem {
    id: String,
    fen: String,
    #[serde(default)]
    frozen: Vec<String>,
    #[serde(default)]
    promoted: Vec<String>,
    #[serde(default)]
    castling_impossible: Vec<String>,
    #[serde(default)]
    castling_possible: Vec<String>,
    /// When given, exactly the sets proven exclusive.
    #[serde(default)]
    exclusive: Option<Vec<String>>,
    #[serde(default)]
    en_passant_proven: Option<String>,
    #[serde(default)]
    en_passant_not_proven: Option<String>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
struct File {
    position: Vec<Problem>,
}

fn problems() -> Vec<Problem> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../positions/rights.toml");
    let text = std::fs::read_to_string(path).expect("positions/rights.toml");
    toml::from_str::<File>(&text)
        .expect("rights.toml parses")
        .position
}

/// The position of a problem, the given frozen units marked.
fn setup(fen: &str, frozen: &[String]) -> RetroPosition {
    setup_marked(fen, frozen, &[])
}

/// The position of a problem, the given frozen and promoted units marked.
fn setup_marked(fen: &str, frozen: &[String], promoted: &[String]) -> RetroPosition {
    let mut pos = RetroPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for sq in frozen {
        let sq: Square = sq.parse().expect("a square");
        pos.mark_never_moved(sq).expect("a unit at home");
    }
    for sq in promoted {
        let sq: Square = sq.parse().expect("a square");
        pos.mark_promoted(sq).expect("a piece");
    }
    pos
}

/// The colour swap of a FEN (board mirrored top to bottom, colours and side to move swapped),
/// with its frozen squares.
fn swap(fen: &str, frozen: &[String]) -> (String, Vec<String>) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = retrace_testkit::swapped_board(fields[0]);
    let side = if fields[1] == "w" { "b" } else { "w" };
    let frozen = frozen
        .iter()
        .map(|s| {
            let sq: Square = s.parse().expect("a square");
            sq.flip_vertical().to_string()
        })
        .collect();
    (format!("{board} {side} - -"), frozen)
}

fn verdict(answer: &Rights, letter: &str) -> Option<bool> {
    answer
        .castling
        .iter()
        .find(|(r, _)| r.letter().to_string() == letter)
        .map(|(_, v)| matches!(v, RightVerdict::Impossible(_)))
}

/// The misses of one problem (empty when the answer is the composer's).
fn judge(
    id: &str,
    answer: &Rights,
    impossible: &[String],
    possible: &[String],
    exclusive: Option<&[String]>,
    ep: Option<&str>,
) -> Vec<String> {
    let mut misses = Vec::new();
    for letter in impossible {
        if verdict(answer, letter) != Some(true) {
            misses.push(format!("{id}: {letter} not proven impossible"));
        }
    }
    for letter in possible {
        if verdict(answer, letter) != Some(false) {
            misses.push(format!("{id}: {letter} should be possible"));
        }
    }
    if let Some(exclusive) = exclusive {
        let mut found: Vec<String> = answer.exclusive.iter().map(|e| e.castling.fen()).collect();
        found.sort();
        let mut expected = exclusive.to_vec();
        expected.sort();
        if found != expected {
            misses.push(format!("{id}: exclusive {found:?}, expected {expected:?}"));
        }
    }
    if let Some(ep) = ep {
        let proven = answer
            .en_passant
            .iter()
            .any(|(s, v)| s.to_string() == ep && matches!(v, EpVerdict::Proven(_)));
        if !proven {
            misses.push(format!("{id}: e.p. {ep} not proven"));
        }
    }
    misses
}

#[test]
fn the_published_rights_problems_are_answered_as_their_composers_answer_them() {
    let params = RightsParams::default();
    let mut unexpected = Vec::new();
    for p in problems() {
        let ep_swapped = p.en_passant_proven.as_deref().map(|s| {
            let sq: Square = s.parse().expect("a square");
            sq.flip_vertical().to_string()
        });
        let (swapped_fen, swapped_frozen) = swap(&p.fen, &p.frozen);
        let (_, swapped_promoted) = swap(&p.fen, &p.promoted);
        let cases = [
            (p.fen.clone(), p.frozen.clone(), p.promoted.clone(), false),
            (swapped_fen, swapped_frozen, swapped_promoted, true),
        ];
        for (fen, frozen, promoted, swapped) in cases {
            let letters = |v: &[String]| -> Vec<String> {
                v.iter()
                    .map(|l| {
                        if swapped {
                            retrace_testkit::swapped_castling(l)
                        } else {
                            l.clone()
                        }
                    })
                    .collect()
            };
            let start = Instant::now();
            let answer = rights(&setup_marked(&fen, &frozen, &promoted), &params, None);
            let id = format!("{}{}", p.id, if swapped { " (colour swap)" } else { "" });
            println!("{id}: {:.2?}", start.elapsed());
            let ep = if swapped {
                ep_swapped.as_deref()
            } else {
                p.en_passant_proven.as_deref()
            };
            let misses = judge(
                &id,
                &answer,
                &letters(&p.castling_impossible),
                &letters(&p.castling_possible),
                p.exclusive.as_deref().map(letters).as_deref(),
                ep,
            );
            if let Some(ep) = &p.en_passant_not_proven {
                let ep = if swapped {
                    ep.parse::<Square>()
                        .expect("a square")
                        .flip_vertical()
                        .to_string()
                } else {
                    ep.clone()
                };
                let listed = answer.en_passant.iter().find(|(s, _)| s.to_string() == ep);
                assert!(
                    matches!(listed, Some((_, EpVerdict::NotProven))),
                    "{id}: e.p. {ep} must be on the board and not proven: {listed:?}"
                );
            }
            // Never the opposite of the composer's answer, solved or not.
            for letter in letters(&p.castling_possible) {
                assert_ne!(
                    verdict(&answer, &letter),
                    Some(true),
                    "{id}: {letter} called impossible"
                );
            }
            let unproven = p.status.as_deref() == Some("unproven");
            if unproven == misses.is_empty() {
                unexpected.push(if unproven {
                    format!("{id}: now solved, fill in its answer and drop status")
                } else {
                    misses.join("; ")
                });
            }
        }
    }
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}

/// The castling rights `history` keeps at its end: king and rook squares no move touched.
fn kept_rights(game: &Game, plies: usize) -> RightSet {
    let mut touched = Bitboard::EMPTY;
    for (i, m) in game.moves[..plies].iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        touched |= move_squares(m, color);
    }
    CastlingRight::ALL
        .into_iter()
        .filter(|r| (r.squares() & touched).is_empty())
        .fold(RightSet::EMPTY, RightSet::with)
}

/// The square a last double step passed, if the last move was one.
fn double_step(game: &Game, plies: usize) -> Option<Square> {
    let m = game.moves[..plies].last()?;
    match *m {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } if from.rank().distance(to.rank()) == 2 => Some(Square::from_coords(
            from.file(),
            if to > from {
                shakmaty::Rank::Third
            } else {
                shakmaty::Rank::Sixth
            },
        )),
        _ => None,
    }
}

/// The false claims of an answer about the position after `plies` plies of `game`.
fn false_claims(answer: &Rights, kept: RightSet, last_double: Option<Square>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (right, v) in &answer.castling {
        if kept.contains(*right) && matches!(v, RightVerdict::Impossible(_)) {
            wrong.push(format!(
                "{} kept but called impossible: {v:?}",
                right.letter()
            ));
        }
    }
    for e in &answer.exclusive {
        let ep_holds = e.en_passant.is_none() || e.en_passant == last_double;
        if e.castling.is_subset(kept) && ep_holds {
            wrong.push(format!(
                "{} kept but called exclusive: {:?}",
                e.castling.fen(),
                e.reason
            ));
        }
    }
    for (sq, v) in &answer.en_passant {
        if matches!(v, EpVerdict::Proven(_)) && last_double != Some(*sq) {
            wrong.push(format!(
                "e.p. {sq} proven, last move was not its double step"
            ));
        }
    }
    for s in &answer.sets {
        if s.castling.is_subset(kept) && s.en_passant.is_some() && s.en_passant != last_double {
            wrong.push(format!("e.p. proven given {}: {}", s.castling.fen(), s.why));
        }
    }
    wrong
}

/// The position after `plies` plies of `game`, without castling rights or e.p. square.
fn bare(game: &Game, plies: usize) -> RetroPosition {
    let pos = &game.positions[plies];
    let fen = format!(
        "{} {} - -",
        pos.board().board_fen(),
        if pos.turn().is_white() { "w" } else { "b" }
    );
    RetroPosition::from_fen(&fen).expect("a reachable position sets up")
}

/// Every position of every published proof game: no right its history keeps is called
/// impossible.
#[test]
fn no_right_a_published_game_keeps_is_called_impossible() {
    let params = RightsParams {
        depth: 4,
        max_nodes: 20_000,
        ..RightsParams::default()
    };
    let games = published_proof_games();
    assert!(games.len() >= 60, "{} games", games.len());
    let mut positions = 0;
    let mut wrong = Vec::new();
    let mut kept_total = 0;
    for (id, game) in &games {
        for plies in 1..=game.moves.len() {
            let kept = kept_rights(game, plies);
            let answer = rights(&bare(game, plies), &params, None);
            positions += 1;
            kept_total += kept.len();
            for w in false_claims(&answer, kept, double_step(game, plies)) {
                wrong.push(format!("{id} after {plies} plies: {w}"));
            }
        }
    }
    println!("{positions} positions, {kept_total} rights kept");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Random games (biased toward castling, en passant, promotions and captures): no right the
/// true history keeps is called impossible, no e.p. capture proven unless the last move was its
/// double step; and the rights proven impossible are counted, to show the test has teeth.
#[test]
fn no_right_a_random_game_keeps_is_called_impossible() {
    let games: u64 = std::env::var("RIGHTS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    let params = RightsParams {
        depth: 3,
        max_nodes: 5_000,
        ..RightsParams::default()
    };
    let mut positions = 0u64;
    let mut present = 0u64;
    let mut impossible = 0u64;
    let mut proven = 0u64;
    let mut candidates = 0u64;
    let mut wrong = Vec::new();
    let start = Instant::now();
    for seed in 0..games {
        let game = random_game(0x7269_6768_7473 ^ seed, 120);
        for plies in 1..=game.moves.len() {
            let kept = kept_rights(&game, plies);
            let answer = rights(&bare(&game, plies), &params, None);
            positions += 1;
            present += answer.castling.len() as u64;
            candidates += answer.en_passant.len() as u64;
            impossible += answer
                .castling
                .iter()
                .filter(|(_, v)| matches!(v, RightVerdict::Impossible(_)))
                .count() as u64;
            proven += answer
                .en_passant
                .iter()
                .filter(|(_, v)| matches!(v, EpVerdict::Proven(_)))
                .count() as u64;
            for w in false_claims(&answer, kept, double_step(&game, plies)) {
                let fen = game.positions[plies].board().board_fen().to_string();
                wrong.push(format!("seed {seed} ply {plies} ({fen}): {w}"));
            }
        }
    }
    println!(
        "{games} games, {positions} positions in {:.1?}: {present} rights on the board, \
         {impossible} proven impossible, {candidates} e.p. captures on the board, {proven} \
         proven, {} false claims",
        start.elapsed(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(present > 0, "no position had a castling right on the board");
}

/// Games whose kings and rooks almost never move (and whose other units capture and promote
/// eagerly) keep their castling rights deep into the game, with much material gone: every
/// right they keep, and every set of them, must stand.
#[test]
fn games_that_keep_their_rights_keep_them_in_the_answer() {
    let games: u64 = std::env::var("RIGHTS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .map_or(12, |n: u64| n / 4);
    let weight = |_: &Chess, m: Move| match m {
        Move::Castle { .. } => 1,
        Move::Normal {
            role: Role::King | Role::Rook,
            ..
        } => 1,
        Move::Normal {
            promotion: Some(_), ..
        } => 200,
        Move::Normal {
            capture: Some(_), ..
        } => 60,
        Move::EnPassant { .. } => 400,
        Move::Normal {
            role: Role::Pawn, ..
        } => 20,
        _ => 10,
    };
    let params = RightsParams {
        depth: 3,
        max_nodes: 5_000,
        ..RightsParams::default()
    };
    let mut kept_total = 0u64;
    let mut positions = 0u64;
    let mut wrong = Vec::new();
    for seed in 0..games {
        let game = random_game_with(0x6b65_6570 ^ seed, 100, weight);
        for plies in 1..=game.moves.len() {
            let kept = kept_rights(&game, plies);
            if kept.is_empty() {
                continue;
            }
            let answer = rights(&bare(&game, plies), &params, None);
            positions += 1;
            kept_total += u64::from(kept.len());
            for w in false_claims(&answer, kept, double_step(&game, plies)) {
                let fen = game.positions[plies].board().board_fen().to_string();
                wrong.push(format!("seed {seed} ply {plies} ({fen}): {w}"));
            }
            if !answer.sets.iter().any(|s| s.castling == kept) {
                wrong.push(format!(
                    "seed {seed} ply {plies}: the kept set {} is not listed",
                    kept.fen()
                ));
            }
        }
    }
    println!(
        "{games} games, {positions} positions, {kept_total} rights kept, {} false claims",
        wrong.len()
    );
    assert!(kept_total > 0);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A right whose king and rook are not at home is not asked about; the sets of the rights on the
/// board are listed, each jointly possible, with their supersets left out once a part is
/// impossible.
#[test]
fn only_the_rights_on_the_board_are_asked_about() {
    let white_only = setup("4k3/8/8/8/8/8/8/R3K2R b - -", &[]);
    let answer = rights(&white_only, &RightsParams::default(), None);
    let letters: Vec<char> = answer.castling.iter().map(|(r, _)| r.letter()).collect();
    assert_eq!(letters, ['K', 'Q']);
    assert!(CastlingRight::new(Color::White, CastlingSide::KingSide).is_present(&white_only));
    let sets: Vec<String> = answer.sets.iter().map(|s| s.castling.fen()).collect();
    // White moved last, with the king or a rook: not both castlings stand.
    assert_eq!(sets, ["-", "K", "Q"]);
    let exclusive: Vec<String> = answer.exclusive.iter().map(|e| e.castling.fen()).collect();
    assert_eq!(exclusive, ["KQ"]);
    assert!(answer.complete);
}

/// With the node budget spent, the searches are skipped: the answer says it is incomplete, and
/// keeps what the static analysis proves.
#[test]
fn a_spent_budget_makes_the_answer_incomplete_never_wrong() {
    let pos = setup("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - -", &[]);
    let params = RightsParams {
        total_nodes: 0,
        ..RightsParams::default()
    };
    let answer = rights(&pos, &params, None);
    assert!(!answer.complete);
    assert_eq!(answer.sets.len(), 12);
    let exclusive: Vec<String> = answer.exclusive.iter().map(|e| e.castling.fen()).collect();
    assert_eq!(exclusive, ["kq"]);
    assert!(rights(&pos, &RightsParams::default(), None).complete);
}

/// Kryštufek's no. 36 (positions/rights.toml, krystufek-100ks-036) as transcribed: a game of 27
/// moves reaches its diagram with Ke8 and Rh1 never moved, as the stipulation gives, and with
/// White's O-O right kept (Ke1 never moved either). Black's c- and d-pawns cross (d7xc6, then
/// c7xd6 after the a8-rook has left by d8 and d4), so no black rook needs promoting, and White's
/// h-pawn takes a knight on g5 and the c8-bishop on h7 and promotes on h8 while Rh8 waits on
/// h6. So "White may not castle" does not hold of this diagram, and the answer must never say it.
#[test]
fn a_game_keeps_white_castling_in_krystufek_36() {
    let game = retrace_testkit::replay_score(
        "1. a4 Nf6 2. a5 Ne4 3. h4 Ng5 4. hxg5 h5 5. e4 Rh6 6. Nf3 f5 7. Nd4 Na6 8. Nxf5 Nb4 \
         9. Nd4 a6 10. Nc6 dxc6 11. Ra3 Bf5 12. Rd3 Bh7 13. g6 Qd6 14. gxh7 Qe6 15. h8=B Na2 \
         16. Qf3 Rd8 17. Qf5 Rd4 18. Be2 Ra4 19. Rd6 cxd6 20. c4 g6 21. Qe5 Bg7 22. Qc5 Bc3 \
         23. Bg7 Nxc1 24. Bf6 Na2 25. Qb6 Nb4 26. Qc7 Qd7 27. Bd3 Rh8",
    );
    let plies = game.moves.len();
    let mut pos = bare(&game, plies);
    assert_eq!(
        pos.board().board_fen().to_string(),
        "4k2r/1pQqp3/p1pp1Bp1/P6p/rnP1P3/2bB4/1P1P1PP1/1N2K2R"
    );
    for sq in [Square::E8, Square::H1] {
        pos.mark_never_moved(sq).expect("a unit at home");
    }
    let kept = kept_rights(&game, plies);
    assert!(kept.contains(CastlingRight::new(Color::White, CastlingSide::KingSide)));
    let answer = rights(&pos, &RightsParams::default(), None);
    let wrong = false_claims(&answer, kept, double_step(&game, plies));
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Troitzky's selfmate (positions/rights.toml, troitzky-1913-magyar) as transcribed: a game of 57
/// moves reaches its diagram with b6-b5, a single step, as Black's last move, so the e.p. capture
/// cxb6 is not proven there and the answer must never prove it. The game ends as the histories
/// Retrace finds: White's king shuttles between a3 and a4 under the checks of the knight, the
/// rook and the bishop on d1, and takes the knight on a3 (White's one capture).
#[test]
fn a_game_ends_with_b6_b5_in_troitzky_1913() {
    let game = retrace_testkit::replay_score(
        "1. d4 d5 2. c4 c6 3. c5 Nd7 4. Bf4 a6 5. Bb8 Ngf6 6. Ba7 Nh5 7. Qd2 Ng3 8. Qf4 Nxf1 \
         9. Nf3 Ne3 10. Kd2 Nf6 11. Kc3 Bf5 12. Kb4 Rg8 13. Ka3 Qb6 14. Nh4 Bh3 15. Ng6 Nf1 \
         16. Nh8 g6 17. Nc3 Nd2 18. Ne4 Rc8 19. Qb8 Nb3 20. Qa8 Kd7 21. Rhg1 Ke6 22. Rh1 Kf5 \
         23. Rhg1 Nh5 24. Rh1 Bg7 25. Rac1 Rgd8 26. Rc4 Rd6 27. Rhg1 Ke6 28. Rh1 Kd7 \
         29. Rhg1 Kd8 30. Rh1 Re6 31. Rhg1 dxc4 32. Nf6 Qc7 33. Nd7 Qf4 34. Nf8 Qc1 35. d5 Nf4 \
         36. d6 Bf5 37. Rd1 Nh5 38. Rd5 cxd5 39. d7 Kc7 40. Ka4 Rd8 41. Ka3 Bc2 42. Ka4 Bd1 \
         43. Ka3 Rb6 44. Ka4 Rb5 45. Ka3 Be5 46. Ka4 Bd6 47. Ka3 Nf4 48. Ka4 Nd3 49. Ka3 Nb4 \
         50. Ka4 Nc6 51. Ka3 b6 52. Ka4 Na1+ 53. Ka3 Nc2+ 54. Ka4 Na3+ 55. Kxa3 Rb3+ 56. Ka4 Rb4+ \
         57. Ka3 b5",
    );
    let plies = game.moves.len();
    let pos = bare(&game, plies);
    assert_eq!(
        pos.board().board_fen().to_string(),
        "Q2r1N1N/B1kPpp1p/p1nb2p1/1pPp4/1rp5/K7/PP2PPPP/2qb4"
    );
    assert_eq!(double_step(&game, plies), None, "the last move is b6-b5");
    let answer = rights(&pos, &RightsParams::default(), None);
    let wrong = false_claims(&answer, kept_rights(&game, plies), None);
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(answer
        .en_passant
        .iter()
        .all(|(_, v)| matches!(v, EpVerdict::NotProven)));
}

/// The tempo near miss (positions/rights.toml, c-rights-tempo-near-miss; the rule in
/// crates/legal/src/history/tempo.rs): a game reaches it with both of Black's castlings kept, so
/// `kq` must stand; its first 39 plies end on the rule's other near miss (the bishop on g2),
/// which keeps them too. The trigger, one black pawn step shorter, is called exclusive.
#[test]
fn a_game_keeps_both_black_castlings_in_the_tempo_near_miss() {
    let game = retrace_testkit::replay_score(
        "1. Nf3 Nf6 2. Ng5 Ne4 3. Nc3 Nxg5 4. Nd5 Ne4 5. Nf4 Nc3 6. Ne6 Nxd1 7. Ng5 Nc6 \
         8. Ne4 Nd4 9. Nc5 Nb3 10. Rg1 Nxc5 11. Rh1 Nb3 12. Rg1 Nxa1 13. Rh1 Ne3 14. Rg1 Nf5 \
         15. Rh1 Ng3 16. b3 Nxh1 17. Bb2 Ng3 18. Bd4 Nh1 19. g3 f6 20. Bg2 f5 21. Be4",
    );
    let kq = RightSet::EMPTY
        .with(CastlingRight::new(Color::Black, CastlingSide::KingSide))
        .with(CastlingRight::new(Color::Black, CastlingSide::QueenSide));
    for (plies, board) in [
        (
            game.moves.len(),
            "r1bqkb1r/ppppp1pp/8/5p2/3BB3/1P4P1/P1PPPP1P/n3K2n",
        ),
        (39, "r1bqkb1r/ppppp1pp/5p2/8/3B4/1P4P1/P1PPPPBP/n3K2n"),
    ] {
        let pos = bare(&game, plies);
        assert_eq!(pos.board().board_fen().to_string(), board);
        let kept = kept_rights(&game, plies);
        assert!(kq.is_subset(kept));
        let answer = rights(&pos, &RightsParams::default(), None);
        let wrong = false_claims(&answer, kept, double_step(&game, plies));
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(answer.sets.iter().any(|s| s.castling == kq));
    }
    let trigger = setup(
        "r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n b - -",
        &[],
    );
    let answer = rights(&trigger, &RightsParams::default(), None);
    assert!(answer
        .exclusive
        .iter()
        .any(|e| e.castling == kq && e.reason.code == "tempo"));
}
