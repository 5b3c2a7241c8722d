//! Counting, pawn-structure and wall reasons: each with a position that triggers it and a near
//! miss that is legal. Deductions (captures, promoted units, units that never moved) are checked on
//! the same positions.

mod support;

use retrace_legal::ReasonCode::*;
use shakmaty::{Bitboard, Square};
use support::{assert_illegal, assert_legal};

#[test]
fn too_many_units() {
    assert_illegal(
        "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        TooManyUnits,
    );
    // Black to move (1.Na3): with White to move the parity would be wrong.
    assert_legal("rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 0 1");
}

#[test]
fn too_many_pawns() {
    assert_illegal("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", TooManyPawns);
    assert_legal("4k3/8/8/8/P7/8/1PPPPPPP/4K3 w - - 0 1");
}

#[test]
fn too_many_promotions_by_count() {
    // Three queens need two promotions; only the h-pawn is missing.
    let a = assert_illegal("4k3/8/8/8/8/QQQ5/PPPPPPP1/4K3 w - - 0 1", TooManyPromotions);
    assert_eq!(a.promoted.white, 2);
    let b = assert_legal("4k3/8/8/8/8/QQ6/PPPPPPP1/4K3 w - - 0 1");
    assert_eq!(b.promoted.white, 1);
    assert_eq!(b.promoted.black, 0);
}

#[test]
fn too_many_promotions_by_trapped_bishop() {
    // After Neishtadt's idea (seed 002): b2 and d2 never moved, so the dark bishop on h6 is not
    // the one from c1; it is promoted, but no white pawn is missing.
    let a = assert_illegal("4k3/8/7B/8/8/8/PPPPPPPP/4K3 w - - 0 1", TooManyPromotions);
    assert!(a.reasons.iter().any(|r| r.squares.contains(&Square::H6)));
    // The d-pawn on d3: the bishop left c1 through d2.
    let b = assert_legal("4k3/8/7B/8/8/3P4/PPP1PPPP/4K3 w - - 0 1");
    assert_eq!(b.promoted.white, 0);
    // The bishop of f1 never left it (e2, g2) and is gone: a black piece captured it there.
    assert_eq!(b.captures.black.total, 1);
    assert_eq!(b.captures.black.by_pawns, 0);
}

#[test]
fn impossible_pawn_structure() {
    // Troitzky's pawn triangle g2, h2, h3 (seed 002): no file is left for h3.
    let a = assert_illegal("4k3/8/8/8/8/7P/6PP/4K3 w - - 0 1", ImpossiblePawnStructure);
    let r = a.reasons.iter().find(|r| r.code == ImpossiblePawnStructure);
    assert_eq!(
        r.map(|r| r.squares.clone()),
        Some(vec![Square::G2, Square::H2, Square::H3])
    );
    assert_legal("4k3/8/8/8/8/7P/6P1/4K3 w - - 0 1");
}

#[test]
fn too_many_captures_by_pawns() {
    // a3 came from b2 by a capture, but Black has all sixteen units.
    let a = assert_illegal(
        "rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1",
        TooManyCaptures,
    );
    assert_eq!(a.captures.white.by_pawns, 1);
    let b = assert_legal("r1bqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(b.captures.white.by_pawns, 1);
    assert_eq!(b.captures.white.total, 1);
}

#[test]
fn too_many_captures_with_trapped_bishop() {
    // After Bondarenko's idea (seed 002): the only black unit missing is the bishop of f8, which
    // never left f8 (e7, g7), so a white piece captured it there; but a3 came from b2 by a capture
    // too, and Black is missing one unit only.
    let a = assert_illegal(
        "rnbqk1nr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1",
        TooManyCaptures,
    );
    assert_eq!(a.captures.white.total, 2);
    // With e7-e6 played the bishop could leave f8 and be the unit taken on a3.
    assert_legal("rnbqk1nr/pppp1ppp/4p3/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn promoted_bishop_colour_costs_captures() {
    // Two light-squared bishops: one is promoted. Only the f-pawn is missing from its file (e3 may
    // have come from e2 or f2), and f8 is dark: whichever pawn promoted on a light square changed
    // file once.
    let a = assert_legal("4k3/8/8/8/8/1B1BP3/PPPP2PP/4K3 w - - 0 1");
    assert_eq!(a.promoted.white, 1);
    assert_eq!(a.captures.white.by_pawns, 1);
    // With all sixteen black units on the board that capture cannot have happened.
    assert_illegal(
        "rnbqkbnr/pppppppp/8/8/8/1B1BP3/PPPP2PP/4K3 w kq - 0 1",
        TooManyCaptures,
    );
    // Dark-squared bishops on c3 and e3 instead: b2 and d2 never moved, so neither left c1; both
    // are promoted, and one missing pawn is not enough.
    assert_illegal(
        "4k3/8/8/8/8/2B1B3/PPPPPPP1/4K3 w - - 0 1",
        TooManyPromotions,
    );
}

#[test]
fn unreachable_square() {
    // CQLi "impossibly trapped bishop": b1 is reachable only through a2 and c2.
    assert_illegal("4k3/8/8/8/8/8/P1P5/1B2K3 w - - 0 1", UnreachableSquare);
    assert_legal("4k3/8/8/8/8/2P5/P7/1B2K3 w - - 0 1");
    // Sherlock's h8 bishop behind g7: Black promotes on the first rank, not on h8.
    assert_illegal("7b/6p1/3k4/8/8/2K5/8/8 w - - 0 1", UnreachableSquare);
    assert_legal("7b/8/3k4/8/8/2K5/8/8 w - - 0 1");
}

#[test]
fn never_moved_and_caged() {
    let a = assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let pawns =
        Bitboard::from_rank(shakmaty::Rank::Second) | Bitboard::from_rank(shakmaty::Rank::Seventh);
    // Pawns, castling kings and rooks, and the four bishops behind their pawns.
    for sq in [Square::E1, Square::A1, Square::H8, Square::C1, Square::F8] {
        assert!(a.never_moved.contains(sq), "{sq}");
    }
    assert!(pawns.is_subset(a.never_moved));
    assert!(!a.never_moved.contains(Square::B1));
    assert!(a.caged.contains(Square::C1) && a.caged.contains(Square::F8));
    // With the king frozen by castling rights and c1 walled, the queen never had a square to go to.
    assert!(a.never_moved.contains(Square::D1) && a.caged.contains(Square::D1));
    // Knights jump out: neither never-moved nor caged.
    assert!(!a.caged.contains(Square::G1) && !a.never_moved.contains(Square::G1));
    let b = assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    // Without castling rights the king and queen only block each other: d1 and e1 form a closed
    // segment (c1, f1 and the second rank never moved) that only a knight could enter, by capturing
    // there; both are still there, so nothing in it ever moved.
    assert!(b.never_moved.contains(Square::E1) && b.never_moved.contains(Square::D1));
    assert!(b.never_moved.contains(Square::F1));
}

#[test]
fn originals_captured_in_their_pens() {
    // Sherlock L33: every white pawn is on its second rank, so the white queen and rooks never got
    // off the first rank and black pieces captured all three there; Black's pawns made a capture
    // too (f6 and f5 share the f-file), one more than White is missing.
    let a = assert_illegal(
        "rn2kb2/pp5p/2bppp2/2p2p2/2Nq4/5N2/PPPPPPPP/2B1KB2 b - - 0 1",
        TooManyCaptures,
    );
    assert_eq!(a.captures.black.total, 4);
    // Near miss: with the b-pawn on b3 a rook could leave through b2 and be taken by a pawn.
    let b = assert_legal("rn2kb2/pp5p/2bppp2/2p2p2/2Nq4/1P3N2/P1PPPPPP/2B1KB2 b - - 0 1");
    assert!(b.captures.black.total < 4);
}
