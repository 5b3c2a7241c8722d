//! Robustness on arbitrary boards: any position [`RetroPosition::from_fen`] accepts (more than 16
//! units a side, nine queens, pawns on every rank from the second to the seventh, kings in check
//! or side by side, castling rights, en passant squares, marks) goes through every entry point of
//! the analysis without a panic, within its budgets, and an illegal verdict always says why.
//!
//! Two thousand cases keep the test under a second in release; `PROPTEST_CASES=20000` hunts longer.

use proptest::prelude::*;
use retrace_legal::cage::{closure, find_cage, AutoLimits, CageStore};
use retrace_legal::{
    analyze, analyze_thoroughly, unit_facts, Analysis, Analyzer, ReasonCode, Verdict,
};
use retrace_testkit::{arbitrary_position, pos, well_formed_message};
use retrace_unmove::RetroPosition;
use shakmaty::Square;

/// Small budgets for the cage attempt and the closure: the cases are about robustness, not depth.
const LIMITS: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 300,
    total_nodes: 1_000,
};
const CLOSURE_NODES: u64 = 1_000;

/// An illegal verdict must come with reasons, each with a message that names what it found.
#[track_caller]
fn explained(what: &str, pos: &RetroPosition, analysis: &Analysis) {
    if analysis.verdict() == Verdict::Illegal {
        for reason in &analysis.reasons {
            assert!(
                well_formed_message(&reason.message),
                "{what} of {}: reason {:?} whose message is not one well-formed line: {:?}",
                pos.fen(),
                reason.code,
                reason.message
            );
        }
    } else {
        assert!(analysis.reasons.is_empty());
    }
}

/// Every entry point of the analysis on `pos`.
fn exercise(pos: &RetroPosition) {
    let mut analyzer = Analyzer::new();
    let analysis = analyzer.analyze(pos);
    explained("analyze", pos, &analysis);
    assert_eq!(
        analyzer.is_illegal(pos),
        analysis.verdict() == Verdict::Illegal,
        "is_illegal disagrees with analyze on {}",
        pos.fen()
    );
    let facts = unit_facts(pos);
    let mut marked = pos.clone();
    facts.mark(&mut marked);
    explained(
        "analyze after unit_facts",
        &marked,
        &analyzer.analyze(&marked),
    );
    let store = CageStore::new();
    let _ = find_cage(pos, &LIMITS, &store);
    let _ = closure(pos, &store, CLOSURE_NODES, None);
    let _ = closure(&marked, &store, CLOSURE_NODES, None);
    explained(
        "analyze_thoroughly",
        pos,
        &analyze_thoroughly(pos, &CageStore::new()),
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_positions_never_panic(case in arbitrary_position()) {
        exercise(&case.pos);
    }
}

/// A board crowded with far more than 16 units a side sets up and is analysed.
#[test]
fn crowded_board() {
    exercise(&pos(
        "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQkQQQQ/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqKqqq w - - 0 1",
    ));
    let mut p =
        pos("rnbqkbnr/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    p.mark_promoted(Square::D1).unwrap();
    exercise(&p);
}

/// The message of the `code` reason the analysis gives for `fen`, which must have one; every
/// entry point is run on the position too.
#[track_caller]
fn message_of(fen: &str, code: ReasonCode) -> String {
    let p = pos(fen);
    exercise(&p);
    let analysis = analyze(&p);
    match analysis.reasons.iter().find(|r| r.code == code) {
        Some(reason) => reason.message.clone(),
        None => panic!("{fen}: no {code:?} reason in {:?}", analysis.reasons),
    }
}

/// Found by the test above: a pawn on its third rank with no origin (a2 and b2 hold pawns that
/// never moved) was taken as a pawn that made one step from nowhere, and that wall in time proved
/// the knight on its home square b1 unreachable, with a message naming no squares ("came from
/// in one move"). The position is illegal by its pawn structure alone, which must say so.
#[test]
fn pawn_without_origin_walls_nothing() {
    let p = pos("4k3/8/8/8/8/P7/PP6/1N2K3 w - - 0 1");
    let analysis = analyze(&p);
    assert!(
        analysis.has(ReasonCode::ImpossiblePawnStructure),
        "{:?}",
        analysis.reasons
    );
    assert!(
        !analysis.has(ReasonCode::UnreachableSquare),
        "{:?}",
        analysis.reasons
    );
    exercise(&p);
}

/// Found by the test above: a pawn that can neither have been captured nor have promoted (the
/// white a-pawn: a7 and b7 never moved, and White's one capture gets it no further) was said to
/// have "promoted, on no square at all", and no unit to "have come from " (no squares). The
/// verdict stands; the message must say plainly why.
#[test]
fn missing_promoted_unit_without_promotion_square() {
    let message = message_of(
        "rnb1kbnr/ppp1pppp/4p3/2R5/8/8/1PPP1PPP/RNBQKBNR b KQkq - 0 1",
        ReasonCode::MissingPromotedUnit,
    );
    assert!(
        message.ends_with("so it can neither have been captured nor have promoted"),
        "{message}"
    );
}

/// Found by the test above: Black misses no unit, yet its dark-squared bishop is gone (the two
/// queens on a4 and h1 are promoted, so no bishop of the f8 colour can be it); the reason said
/// every capture of White was "on a light square ()" with no square. The verdict stands (a unit
/// never captured is on the board); the message must say why without an empty list.
#[test]
fn missing_bishop_with_no_capture() {
    let message = message_of(
        "rnbqk2r/pppppp1p/8/6p1/q7/3B4/3PPP1P/RNBQK1Nq w Qk g6 0 1",
        ReasonCode::BishopCaptureColour,
    );
    assert!(
        message.ends_with("misses no unit, so none was ever captured"),
        "{message}"
    );
}
