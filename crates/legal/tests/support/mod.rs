//! Helpers shared by the integration tests of retrace-legal.

use retrace_legal::{analyze, Analysis, ReasonCode, Verdict};
use retrace_unmove::RetroPosition;

/// Sets up `fen` (full FEN) for retro play; a test position that does not set up is a test bug.
pub fn pos(fen: &str) -> RetroPosition {
    match RetroPosition::from_fen(fen) {
        Ok(p) => p,
        Err(e) => panic!("test position {fen} does not set up: {e}"),
    }
}

/// Analyses `fen` and asserts that it is illegal with (at least) `code`; returns the analysis.
pub fn assert_illegal(fen: &str, code: ReasonCode) -> Analysis {
    let a = analyze(&pos(fen));
    assert_eq!(
        a.verdict(),
        Verdict::Illegal,
        "{fen} should be illegal ({code})"
    );
    assert!(
        a.has(code),
        "{fen} should be illegal with {code}, got {:?}",
        a.reasons.iter().map(|r| r.code).collect::<Vec<_>>()
    );
    for r in &a.reasons {
        assert!(!r.message.is_empty(), "{fen}: empty message for {}", r.code);
        for sq in &r.squares {
            assert!(
                r.message.contains(&sq.to_string()),
                "{fen}: message '{}' does not name {sq}",
                r.message
            );
        }
    }
    a
}

/// Analyses `fen` and asserts that no contradiction is found; returns the analysis.
pub fn assert_legal(fen: &str) -> Analysis {
    let a = analyze(&pos(fen));
    assert_eq!(
        a.verdict(),
        Verdict::NoContradiction,
        "{fen} is legal, got {:?}",
        a.reasons
    );
    a
}

/// The board and side to move (the first two FEN fields) after the moves of `san` (standard
/// notation, separated by spaces) from the initial array: a test's game, so an illegal move panics.
#[allow(dead_code)] // Not every test file plays a game.
pub fn play(san: &str) -> String {
    use shakmaty::{fen::Fen, san::San, Chess, EnPassantMode, Position};
    let mut pos = Chess::default();
    for word in san.split_whitespace() {
        let m = word
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .unwrap_or_else(|| {
                panic!(
                    "{word} is not a legal move in {}",
                    Fen::from_position(&pos, EnPassantMode::Legal)
                )
            });
        pos.play_unchecked(m);
    }
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}
