//! Check contradictions: each reason with a position that triggers it and a near miss that is legal.
//! Figures of seed 001 ("The Curious Case of the Illegal Double Check") are rebuilt from its text.

mod support;

use retrace_legal::ReasonCode::*;
use support::{assert_illegal, assert_legal};

#[test]
fn kings_adjacent() {
    assert_illegal("8/8/8/3kK3/8/8/8/8 w - - 0 1", KingsAdjacent);
    assert_legal("8/8/8/2k1K3/8/8/8/8 w - - 0 1");
}

#[test]
fn retracting_king_in_check() {
    // Black moved last but its king on a8 stands in the rook's line.
    assert_illegal("k7/8/8/8/8/8/8/R3K3 w - - 0 1", RetractingKingInCheck);
    // The same board with Black to move: White's rook came from b1, c1 or d1.
    assert_legal("k7/8/8/8/8/8/8/R3K3 b - - 0 1");
    // Seed 001, figure 11 (FEN given in the text): both kings in check.
    assert_illegal("3r4/8/1k5R/1n6/3K4/8/8/8 w - - 0 1", RetractingKingInCheck);
}

#[test]
fn too_many_checkers() {
    assert_illegal("4r2k/8/8/8/1b6/3n4/8/4K3 w - - 0 1", TooManyCheckers);
    // Without the knight: Be7-b4 opened the rook's file, a legal double check.
    assert_legal("4r2k/8/8/8/1b6/8/8/4K3 w - - 0 1");
}

#[test]
fn double_check_by_knight_and_bishop() {
    // Seed 001 figure 2 type: the knight on g2 cannot have come from the bishop's diagonal.
    assert_illegal("7k/8/8/b7/8/8/6n1/4K3 w - - 0 1", ImpossibleDoubleCheck);
    // Near miss: Nd2-f3 uncovers the bishop.
    assert_legal("7k/8/8/b7/8/5n2/8/4K3 w - - 0 1");
}

#[test]
fn double_check_two_knights_or_pawns() {
    // Two short-range checkers never discover each other.
    assert_illegal("7k/8/8/8/8/3n1n2/8/4K3 w - - 0 1", ImpossibleDoubleCheck);
    assert_illegal("7k/8/8/8/8/8/3p1p2/4K3 w - - 0 1", ImpossibleDoubleCheck);
}

#[test]
fn double_check_queen_and_rook() {
    // Seed 001 figure 5 type: the queen could only have left d6, where it already checked.
    assert_illegal("3r4/8/q7/8/8/3K4/8/7k w - - 0 1", ImpossibleDoubleCheck);
    // The rook on d5 instead: Rb5-d5 opened the queen's diagonal.
    assert_legal("8/8/q7/3r4/8/3K4/8/7k w - - 0 1");
}

#[test]
fn double_check_by_en_passant() {
    // Seed 001 figures 9-10: c2-c4 blocked the queen, d4xc3 e.p. opened both lines.
    assert_legal("3r4/8/q7/8/8/2pK4/8/7k w - - 0 1");
    // A unit on c2 rules out the double step, so no en passant capture happened.
    assert_illegal("3r4/8/q7/8/8/2pK4/2N5/7k w - - 0 1", ImpossibleDoubleCheck);
}

#[test]
fn double_check_by_promotion() {
    // Seed 001 figure 7: c2-c1=N shielded the rook on the second rank and checks from c1.
    assert_legal("7k/8/8/8/8/8/r3K3/2n5 w - - 0 1");
    // The knight on g1 instead (as the article says): no promotion explains it.
    assert_illegal("7k/8/8/8/8/8/r3K3/6n1 w - - 0 1", ImpossibleDoubleCheck);
    // Seed 001 figure 8: e2xd1=R uncovered the rook on e8, two rooks check.
    assert_legal("4r2k/8/8/8/8/8/8/3rK3 w - - 0 1");
    // Rooks on a1 and e8: neither can have shielded the other.
    assert_illegal("4r2k/8/8/8/8/8/8/r3K3 w - - 0 1", ImpossibleDoubleCheck);
}

#[test]
fn pawn_check_without_origin() {
    // The pawn on d6 checks e7, but d5, c5 and e5 are all occupied.
    assert_illegal("8/4k3/3P4/2ppB3/8/8/8/4K3 b - - 0 1", ImpossiblePawnCheck);
    // Without the bishop: e5xd6.
    assert_legal("8/4k3/3P4/2pp4/8/8/8/4K3 b - - 0 1");
    // A pawn on its second rank never moved, so its check is impossible.
    assert_illegal("8/8/8/8/8/3k4/4P3/K7 b - - 0 1", ImpossiblePawnCheck);
    assert_legal("8/8/8/8/3k4/4P3/8/K7 b - - 0 1");
}

#[test]
fn no_retraction() {
    // The rook on h1 checks a1 but cannot have arrived: h2 and g2 are blocked, and from the first
    // rank it would already have checked.
    assert_illegal("7k/8/8/8/8/8/6Pp/K6r w - - 0 1", NoRetraction);
    // Without the white pawn: g2xh1=R+.
    assert_legal("7k/8/8/8/8/8/7p/K6r w - - 0 1");
    // The en passant square forces e2-e4 as the last move, but with the pawn back on e2 the black
    // king on d3 would have been in check with White to move.
    assert_illegal("8/8/8/8/4P3/3k4/8/4K3 b - e3 0 1", NoRetraction);
    // Without the en passant square the last move may have been e3-e4.
    assert_legal("8/8/8/8/4P3/3k4/8/4K3 b - - 0 1");
}

#[test]
fn initial_array_is_legal_both_sides_to_move() {
    assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}
