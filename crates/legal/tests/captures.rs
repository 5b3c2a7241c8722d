//! Where captures landed: the missing bishop whose colour no capture can have had, with the
//! captures of promoting pawns followed square by square (Smullyan's "Mystery of the Missing
//! Piece"). Each rule has a position that triggers it and a near miss reached by a real game.

mod support;

use retrace_legal::ReasonCode::*;
use shakmaty::{fen::Fen, san::San, Chess, EnPassantMode, Position};
use support::{assert_illegal, assert_legal};

/// Plays `moves` (SAN) from the initial array, checking that no position on the way is called
/// illegal, and returns the FEN reached.
fn play(moves: &[&str]) -> String {
    let mut chess = Chess::default();
    for san in moves {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&chess).ok())
            .unwrap_or_else(|| panic!("{san} is not legal"));
        chess.play_unchecked(m);
        assert_legal(&Fen::from_position(&chess, EnPassantMode::Legal).to_string());
    }
    Fen::from_position(&chess, EnPassantMode::Legal).to_string()
}

#[test]
fn promoting_pawn_captured_on_the_wrong_colour() {
    // The black h-pawn promoted (three black knights) with the one capture White's missing unit
    // allows. h2 never moved, so it left the h-file by that capture, onto the g-file, and walked
    // down to g1; g3 came from g2 in one move (f2 and h2 never moved), so no pawn walked between
    // g3 and g2: the capture landed on g2, a light square, and the dark bishop of c1 is missing.
    assert_illegal(
        "rnbqkbnr/ppppppp1/8/6n1/8/1P4P1/P1PPPP1P/RN1QKBNR w - - 0 8",
        BishopCaptureColour,
    );
    // Near miss: the same board with the light bishop missing, reached by a game (h3xg2 took it).
    let fen = play(&[
        "g3", "h5", "Bg2", "h4", "Nf3", "h3", "b3", "hxg2", "Bb2", "g1=N", "Bc1", "Nh3", "Ng1",
        "Ng5",
    ]);
    assert_eq!(
        fen,
        "rnbqkbnr/ppppppp1/8/6n1/8/1P4P1/P1PPPP1P/RNBQK1NR w KQkq - 4 8"
    );
}

#[test]
fn the_other_sides_pawn_timing_is_branched() {
    // Smullyan's board one move before the check (Sherlock L48): the black bishop on d8 is
    // promoted (f8 never left its square behind e7 and g7). Black's pawns need four captures, all on
    // light squares (a6, e6, d5, c4), and the h-pawn one more to promote; White misses five units,
    // so that capture took the dark bishop of c1. It left the h-file (h2 never moved) onto the
    // g-file; if g3 came from g2, no pawn walked between them and the capture was on g2 (light);
    // if g3 came from f2, White's pawns need five captures and the f8 bishop a sixth, but Black
    // misses only five units.
    assert_illegal(
        "2nb3K/pkPRp1p1/p2p4/P1p5/1Pp4Q/2PP2P1/4P2P/n7 w - -",
        BishopCaptureColour,
    );
    // With a white bishop on h4 nothing is missing from White's dark squares (Smullyan's answer).
    assert_legal("2nR3K/pk1Rp1p1/p2p4/P1p5/1Pp4B/2PP2P1/4P2P/n7 b - -");
    // The same board with a knight on h4: the last move c7xd8=R+ (the only one that can have
    // discovered the check of d7) leaves the position above, or one with a promoted knight on d8.
    assert_illegal(
        "2nR3K/pk1Rp1p1/p2p4/P1p5/1Pp4N/2PP2P1/4P2P/n7 b - -",
        PredecessorsIllegal,
    );
}

#[test]
fn crowded_promotion_pen() {
    // Sherlock L35: b3 came from a2 (b2 and c2 never moved), so the black bishops on a2 and b1 were
    // promoted on b1 by pawns from a2 and never left those two squares: the second promotion found
    // the first bishop on a2 or b1, both needed.
    assert_illegal("4k3/8/8/8/8/1P6/bPP5/1b2K3 b - -", CrowdedPromotionPen);
    // Near miss: one bishop promoted there, reached by a game.
    let fen = play(&[
        "Nf3", "a5", "Ng1", "a4", "Nf3", "a3", "Ng1", "Nc6", "Nf3", "Na5", "Ng1", "Nb3", "axb3",
        "a2", "Nf3", "axb1=B", "Ng1", "Ba2",
    ]);
    assert_eq!(
        fen,
        "r1bqkbnr/1ppppppp/8/8/8/1P6/bPPPPPPP/R1BQKBNR w KQkq - 2 10"
    );
}

#[test]
fn missing_promoted_unit() {
    // Sherlock L24: Black's only capture is a7xb6 and White misses one unit, so the white a-pawn
    // was never captured: it promoted on a8 after a7xb6, and from a8, with b6 occupied and b7 and
    // c7 static, no white unit on the board can have come.
    assert_illegal(
        "1nbqkbnr/1ppppppp/1p6/3rN3/8/8/1PPPPPPP/R1BQKBNR b Q -",
        MissingPromotedUnit,
    );
    // Near miss: the promoted knight still on a8, reached by a game (the b1 knight was taken on b6).
    let fen = play(&[
        "Nc3", "Nf6", "Na4", "Ng8", "Nb6", "axb6", "Nf3", "Ra5", "Ng1", "Rd5", "a4", "Nf6", "a5",
        "Ng8", "a6", "Nf6", "a7", "Ng8", "a8=N",
    ]);
    assert_eq!(
        fen,
        "Nnbqkbnr/1ppppppp/1p6/3r4/8/8/1PPPPPPP/R1BQKBNR b KQk - 0 10"
    );
}
