//! The reasons that need more than counting: closed back-rank segments, kings that cannot walk
//! past permanently attacked squares, pawns whose one-step history shuts a unit in, trapped rooks,
//! pawns passing each other on a file, missing bishops against the colour of the capture squares,
//! move parity, and promotions that need captures. Each with a position that triggers it and a
//! near miss that is legal.

mod support;

use retrace_legal::ReasonCode::*;
use shakmaty::Square;
use support::{assert_illegal, assert_legal};

#[test]
fn king_and_queen_swapped() {
    // CQLi's "King and Queen are swapped": c8, f8 and b7-g7 never moved, so d8 and e8 are a
    // segment only a knight can enter; it is full, so nothing in it moved.
    let a = assert_illegal(
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        ClosedRegionRearranged,
    );
    assert!(a
        .reasons
        .iter()
        .any(|r| r.squares == vec![Square::D8, Square::E8]));
    // With e7-e6 played the king and queen can swap through e7.
    assert_legal("rnbkqbnr/pppp1ppp/4p3/8/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 1");
    // In place they never moved, castling rights or not.
    let b = assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert!(b.never_moved.contains(Square::D8) && b.never_moved.contains(Square::E8));
}

#[test]
fn queen_captured_at_home_counts_as_a_capture_by_a_piece() {
    // Black's queen is gone from the closed segment d8-e8: a white knight took it on d8 before
    // anything there moved. With the b-pawn's capture on a3 that makes two white captures, but
    // Black misses only the queen.
    let a = assert_illegal(
        "rnb1kbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w - - 0 1",
        TooManyCaptures,
    );
    assert_eq!(a.captures.white.total, 2);
    // Black's e-pawn on e6 opens the segment: the queen may have left and been taken on a3.
    let b = assert_legal("rnb1kbnr/pppp1ppp/4p3/8/8/P7/P1PPPPPP/RNBQKBNR w - - 0 1");
    assert_eq!(b.captures.white.total, 1);
}

#[test]
fn king_with_no_path() {
    // Sherlock L39: b2, c2, d2, f2 and g2 never moved and attack every third-rank square the black
    // king could cross (a3, e3 and h3 hold pawns but are attacked as well).
    let a = assert_illegal("8/8/8/8/8/P3P2P/1PPP1PP1/2k2K2 w - - 0 1", KingNoPath);
    assert!(a.reasons.iter().any(|r| r.message.contains("c1")));
    // With the c-pawn on c3, b3 and d3 are no longer attacked by a pawn that never moved.
    assert_legal("8/8/8/8/8/P1P1P2P/1P1P1PP1/2k2K2 w - - 0 1");
    // Sherlock L40: the white king on h8 could only have come through h7, past g6 and h6, which
    // f7 and g7 have attacked from the start.
    assert_illegal("3k1b1K/4ppp1/7p/8/8/8/8/8 w - - 0 1", KingNoPath);
    assert_legal("3k1b1K/4pp2/6pp/8/8/8/8/8 w - - 0 1");
    // Sherlock L41: the white king never moved (castling right), so f1 and f2 were always
    // attacked; g3 came from f2 or from h2, and either way g3 was attacked (from f2 or h2) until
    // the pawn stood on it: the black king never got to h1.
    assert_illegal("8/8/8/8/8/6P1/6P1/R3K2k w Q - 0 1", KingNoPath);
    // Without the castling right the black king came in by f1 or f2 while the white king was away.
    assert_legal("8/8/8/8/8/6P1/6P1/R3K2k w - - 0 1");
}

#[test]
fn pawn_timing_shuts_units_in() {
    // Theodore Hwa's cage (Sherlock L42): g6 came from h7 (g7 and f7 never moved), so the bishop on
    // g8 could reach h7 only after h7-g6 and then could never get further.
    assert_illegal("4k1b1/5pp1/6p1/8/8/8/8/4K3 b - - 0 1", UnreachableSquare);
    // With h7-h6 instead the bishop leaves through h7 and g6.
    assert_legal("4k1b1/5pp1/7p/8/8/8/8/4K3 b - - 0 1");
    // After the idea of Bláthy's problem (seed 002): f8 never moved (e7, g7), h6 came from h7, so
    // the rook of h8 never left h8, g8 and h7, and is gone; the rooks on c8 and d8 need a
    // promotion, but Black misses no pawn.
    let a = assert_illegal(
        "2rrkb2/ppppp1p1/5p1p/8/8/8/8/4K3 w - - 0 1",
        TooManyPromotions,
    );
    assert!(a.reasons.iter().any(|r| r.squares.contains(&Square::C8)));
    // The same with the second rook on d4: it is not the h8 rook either.
    assert_illegal(
        "r3kb2/ppppp1p1/5p1p/8/3r4/8/8/4K3 w - - 0 1",
        TooManyPromotions,
    );
    // With the h-pawn on h5 the rook of h8 got out through h7 and h6 once the pawn was past.
    // (With the rooks on c8 and d8 that would not do: the back rank a8-e8 is closed to rooks.)
    assert_legal("r3kb2/ppppp1p1/5p2/7p/3r4/8/8/4K3 w - - 0 1");
}

#[test]
fn trapped_rook() {
    // Sherlock L34, CQLi's "impossibly trapped rook": e3 came from e2 (d2 and f2 never moved), so
    // the rook came to e2 from e1 after it; the bishop on e1 can then only have arrived from d2 or
    // f2, or by a promotion from e2.
    assert_illegal("4k3/8/8/8/8/4P3/1K1PRP2/4b3 b - - 0 1", TrappedRook);
    // Without the pawn on f2 the bishop came in through f2.
    assert_legal("4k3/8/8/8/8/4P3/1K1PR3/4b3 b - - 0 1");
    // With the pawn on d3 instead of d2 it came in through d2.
    assert_legal("4k3/8/8/8/8/3PP3/1K2RP2/4b3 b - - 0 1");
}

#[test]
fn pawns_crossed() {
    // Sherlock L30: nothing is missing, yet the white d-pawn stands above the black one.
    assert_illegal(
        "rnbqkbnr/ppp2ppp/4p3/3P4/3p4/4P3/PPP2PPP/RNBQKBNR b - - 0 1",
        PawnsCrossed,
    );
    // With one white knight missing, Black can make one capture, but passing needs two: d4 and e6
    // swap files (two captures) or d4 leaves the d-file and comes back (two).
    assert_illegal(
        "rnbqkbnr/ppp2ppp/4p3/3P4/3p4/4P3/PPP2PPP/RNBQKB1R b - - 0 1",
        PawnsCrossed,
    );
    // With both white knights missing it fits: e7-e5, d7xe6, d2-d4-d5 and e5xd4.
    assert_legal("rnbqkbnr/ppp2ppp/4p3/3P4/3p4/4P3/PPP2PPP/R1BQKB1R b - - 0 1");
    // Sherlock L21: the white a-pawn on a3 stands above the black one on a2. Black misses only the
    // bishop of f8, which never left f8, so White's pawns captured nothing; White misses a rook and
    // the bishop of f1, which never left f1, so Black's pawns captured once at most, and the black
    // a-pawn needs two captures to leave the a-file and come back.
    assert_illegal(
        "r1bqk2r/1pppp1p1/8/5pN1/2Q4p/PP5n/pBPPPPPP/N3K1nR w Kkq - 0 1",
        PawnsCrossed,
    );
}

#[test]
fn bishop_capture_colour() {
    // CQLi's example (seed 002), rebuilt: Black misses its light-squared bishop and the h-pawn;
    // White's two captures were c3 (from d2) and g3 (from f2), both on dark squares.
    let a = assert_illegal(
        "rn1qkbnr/p1ppppp1/1p6/8/8/2P3P1/PPP1P1PP/RNBQKBNR w - - 0 1",
        BishopCaptureColour,
    );
    assert!(a.reasons.iter().any(|r| r.squares.contains(&Square::C3)
        && r.squares.contains(&Square::G3)
        && r.squares.contains(&Square::C8)));
    // The near misses miss the b8 knight instead of the h-pawn: with the h-pawn missing they are
    // illegal too, since c3 can have taken neither the light bishop nor the h-pawn (which never
    // left the h-file, h2 never moved) and Black made no capture.
    // With f3 (straight from f2) instead of g3 White's pawns made one capture (d2xc3, of the
    // knight): the other, a piece's, may have taken the bishop anywhere.
    assert_legal("r2qkbnr/p1pppppp/1p6/8/8/2P2P2/PPP1P1PP/RNBQKBNR w - - 0 1");
    assert_illegal(
        "rn1qkbnr/p1ppppp1/1p6/8/8/2P2P2/PPP1P1PP/RNBQKBNR w - - 0 1",
        CaptureUnmatched,
    );
    // With g4 instead of g3 the g-pawn may have captured on g4 (f2-f3xg4), a light square.
    assert_legal("r2qkbnr/p1pppppp/1p6/8/6P1/2P5/PPP1P1PP/RNBQKBNR w - - 0 1");
    assert_illegal(
        "rn1qkbnr/p1ppppp1/1p6/8/6P1/2P5/PPP1P1PP/RNBQKBNR w - - 0 1",
        CaptureUnmatched,
    );
}

#[test]
fn promotions_need_captures() {
    // After CQLi's example (seed 002): the dark bishop on e7 is promoted (c1 never left, b2 and d2);
    // f7, g7 and h7 never moved, so the dark promotion squares left are b8, d8 and f8, and every
    // free white file needs a capture to reach one; with b3's capture that is two, but Black misses
    // one unit.
    let a = assert_illegal(
        "k7/4Bppp/rnbqrn2/ppppp3/8/1P6/1P1P4/2B1K3 w - - 0 1",
        PromotionsNeedCaptures,
    );
    assert!(a.reasons.iter().any(|r| r.squares.contains(&Square::D8)));
    // With Black missing four units there are captures enough (f2-f6, f6xe7, e7xd8=B and a2xb3).
    let b = assert_legal("k7/4Bppp/3qrn2/ppppp3/8/1P6/1P1P4/2B1K3 w - - 0 1");
    assert_eq!(b.captures.white.by_pawns, 2);
}

#[test]
fn promotion_squares_of_seed_000() {
    // The corner rule: b2 and c2 never moved and b3 came from a2, so a black bishop promoted on b1
    // (the only light promotion square left: d1, f1 and h1 are walled by pawns that never moved)
    // never got beyond a2. Of the light bishops on e4 and g6 one is promoted, from nowhere.
    assert_illegal(
        "k7/8/6b1/8/4b3/1P6/1PPPPPPP/4K3 w - - 0 1",
        PromotionsNeedCaptures,
    );
    // On a2 it can be the promoted one.
    assert_legal("k7/8/8/8/8/1P6/bPPPPPPP/4K3 w - - 0 1");
    // The d1 rule: c2 and e2 never moved, so a black bishop promoted on d1 never left it (and one
    // promoted on f1, between e2 and g2, never left f1; b1 and h1 are walled off). Of the light
    // bishops on e4 and g6 one is promoted, from nowhere.
    assert_illegal(
        "k7/8/6b1/8/4b3/8/PPP1P1PP/4K3 w - - 0 1",
        PromotionsNeedCaptures,
    );
    // On d1 it can be the promoted one.
    assert_legal("k7/8/6b1/8/8/8/PPP1P1PP/3bK3 w - - 0 1");
}

#[test]
fn escaped_rook() {
    // CQLi's "impossible escaped rook": every white pawn is on its second rank or one step up from
    // its own file (the only square it can have come from), so no unit ever crossed from the first
    // two ranks to the third: the rook on d5 is promoted, but no white pawn is missing.
    assert_illegal(
        "4k3/8/8/3R4/8/P1P1P1P1/1P1P1P1P/4K2R w - - 0 1",
        TooManyPromotions,
    );
    // With the a-pawn on a4 the rook of a1 got out by a2 and a3.
    assert_legal("4k3/8/8/3R4/P7/2P1P1P1/1P1P1P1P/4K2R w - - 0 1");
    // A black rook on a1 behind the same wall is promoted: a black pawn took on a2 from b3 first.
    assert_legal("4k3/8/8/8/8/P1P1P1P1/1P1P1P1P/r3K3 w - - 0 1");
}

#[test]
fn predecessors_illegal() {
    // Smullyan's "Mystery of the Missing Piece" (Sherlock's example) with a white pawn on h4: the
    // check from d7 can only have been uncovered by c7xd8=R, and before it White had nine pawns.
    assert_illegal(
        "2nR3K/pk1Rp1p1/p2p4/P1p5/1Pp4P/2PP2P1/4P2P/n7 b - - 0 1",
        PredecessorsIllegal,
    );
    // With a white bishop on h4 (the solution) the position before c7xd8=R is fine.
    assert_legal("2nR3K/pk1Rp1p1/p2p4/P1p5/1Pp4B/2PP2P1/4P2P/n7 b - - 0 1");
    // Sherlock's README example: the en passant square says d2-d4 was the last move, and before
    // it White would have been to move after an odd number of moves (the knights' and the two
    // capturing pawns' moves fix the parity).
    assert_illegal(
        "r1bqkb1r/ppppp1pp/8/8/2pP4/8/1PP1PPPP/R1BQKB1R b KQkq d3 0 1",
        PredecessorsIllegal,
    );
    assert_legal("r1bqkb1r/ppppp1pp/8/8/2pP4/8/1PP1PPPP/R1BQKB1R b KQkq - 0 1");
}

#[test]
fn units_pass_each_other_only_by_castling() {
    // Sherlock L37: b2-h2 and c1 never moved, so d1-h1 is closed to all but knights, and on one
    // rank no unit passes another: castling swaps the king and the h-rook, but the queen (from d1)
    // cannot have got past the rook (from h1).
    assert_illegal(
        "3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB2RQK w - - 0 1",
        ClosedRegionRearranged,
    );
    // Sherlock L38: queen, rook and king in an order castling gives.
    assert_legal("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB1QR1K w - - 0 1");
    // Sherlock L36: the queen (from d1) stands right of the king.
    assert_illegal(
        "2b4r/p2p1pp1/2p1r2p/1p2q1k1/P1Nnp3/8/1PPPPPPP/R1B1KQ1R w - - 0 1",
        ClosedRegionRearranged,
    );
    // With the e-pawn gone from e2 the queen went round by e2.
    assert_legal("2b4r/p2p1pp1/2p1r2p/1p2q1k1/P1Nnp3/4P3/1PPP1PPP/R1B1KQ1R w - - 0 1");
}
