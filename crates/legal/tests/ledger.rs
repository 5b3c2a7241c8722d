//! The history ledger (issue 25): who captured whom and on which file, when one side's pawns need
//! every capture it made, and the pawns of both colours that passed each other on a file.
//!
//! The triggers are the positions one retraction back from wrong last moves of published
//! "last move of each side" problems (Retractor 2's suite); each near miss is the position one
//! retraction back from the published answer, which the composers' solutions prove legal, so it
//! must stay free of contradiction. Every position is also checked with its colours swapped.

mod support;

use retrace_legal::ReasonCode::{self, *};
use support::{assert_illegal, assert_legal};

/// `fen` with the board turned upside down and the colours swapped, Black to move for White.
fn swapped(fen: &str) -> String {
    let mut fields = fen.split(' ');
    let board: Vec<String> = fields
        .next()
        .unwrap_or_default()
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let turn = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{} {turn} - -", board.join("/"))
}

/// Asserts `fen` and its colour swap illegal with `code`; returns the first's message.
fn illegal_both_ways(fen: &str, code: ReasonCode) -> String {
    assert_illegal(&swapped(fen), code);
    assert_illegal(fen, code)
        .reasons
        .iter()
        .find(|r| r.code == code)
        .map(|r| r.message.clone())
        .unwrap_or_default()
}

/// Asserts `fen` and its colour swap free of contradiction.
fn legal_both_ways(fen: &str) {
    assert_legal(fen);
    assert_legal(&swapped(fen));
}

/// A pawn whose only step off its file was its promotion capture never let a pawn of the other
/// colour by on that file. The black pawn on h2 stayed on the h-file, and White's promoted
/// knight or queen came from the h-pawn (the e-pawn promoted too): to pass h2, one of them left
/// the h-file before the black pawn stood on h2, which costs White two captures (g7 never moved;
/// h7xg8 comes too late) with one to spend, or Black two more, six in all with four to spend.
/// (Taken back from r2-D-135, Black's wrong last move h2xNg1=Q.)
#[test]
fn a_promotion_capture_lets_no_pawn_by() {
    illegal_both_ways(
        "4nQrQ/2pp1ppK/2pp4/8/8/PP6/b1PPkPPp/nN1brqNN b - -",
        CapturesUnaccounted,
    );
    // The near miss: the published last move h2xBg1=Q taken back. White has one promoted unit
    // (the e-pawn's), so the black h-pawn passed no white pawn.
    legal_both_ways("4nQrQ/2pp1ppK/2pp4/8/8/PP6/b1PPkPPp/nN1brqBN b - -");
    // And the problem itself, either side to move.
    legal_both_ways("4nQrQ/2pp1ppK/2pp4/8/8/PP6/b1PPkPP1/nN1brqqN b - -");
    legal_both_ways("4nQrQ/2pp1ppK/2pp4/8/8/PP6/b1PPkPP1/nN1brqqN w - -");
}

