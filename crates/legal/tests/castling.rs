//! Units that castling rights freeze, combined with promotions, captures and forced last moves
//! (Sherlock L05, L06 and L08; Smullyan's "Two Bagatelles", Sherlock X15 to X18): each rule with
//! positions that trigger it and near misses that are legal.

mod support;

use retrace_legal::ReasonCode::*;
use support::{assert_illegal, assert_legal};

#[test]
fn a_frozen_king_checks_every_pawn_that_would_promote_next_to_it() {
    // Sherlock L08: three white rooks need a promotion, but with 0-0-0 still possible for Black,
    // Ke8 never moved, and every promotion square open to White is reached from d7 or f7.
    let a = assert_illegal(
        "r3k3/ppp1p1pp/8/8/8/8/8/R1R1K2R b q -",
        PromotionsNeedCaptures,
    );
    assert!(a.reasons[0].message.contains("never moved"));
    // Without the right the king may have stepped aside while a pawn went through d7 (L09).
    assert_legal("r3k3/ppp1p1pp/8/8/8/8/8/R1R1K2R b - -");
    // With the right but only two white rooks, nothing was promoted.
    assert_legal("r3k3/ppp1p1pp/8/8/8/8/8/R3K2R b q -");
}

#[test]
fn pawns_that_made_no_capture_came_straight() {
    // Sherlock L05: Black has all its units, so g3 came from g2; Rh1 never moved (0-0 possible),
    // so the promoted bishop on d5 came from f1 by g2, three file changes for two white units.
    assert_illegal(
        "rnbqkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w K -",
        PromotionsNeedCaptures,
    );
    // L06: Black's one missing unit, Bc8, was captured at home by a knight.
    assert_illegal(
        "rn1qkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w K -",
        PromotionsNeedCaptures,
    );
    // Without the right the pawn promotes on h1 after one capture (L07).
    assert_legal("rnbqkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w - -");
    assert_legal("rn1qkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w - -");
    // With the right but Rh8 missing, h2xg3 may have taken it and freed the g-file.
    assert_legal("rnbqkbn1/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w K -");
}

#[test]
fn a_forced_last_move_looks_two_retractions_back() {
    // Smullyan's "Two Bagatelles": a2-a3 was White's last move; Black's move before it must have
    // captured the unit White moved before, and only Rh8 can have done that (on h8).
    for rights in ["k", "kq"] {
        let fen = format!("r1b1k2r/p1p1p1pp/1p3p2/8/8/P7/1PPPPPPP/2BQKB2 b {rights} -");
        assert_illegal(&fen, PredecessorsIllegal);
    }
    for rights in ["-", "q"] {
        assert_legal(&format!(
            "r1b1k2r/p1p1p1pp/1p3p2/8/8/P7/1PPPPPPP/2BQKB2 b {rights} -"
        ));
    }
}
