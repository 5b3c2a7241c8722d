//! Robustness of the cage searches on arbitrary boards: any position
//! [`retrace_unmove::RetroPosition::from_fen`] accepts (more than 16 units a side, nine queens,
//! pawns on every rank from the second to the seventh, kings in check or side by side, castling
//! rights, en passant squares, marks) goes through the cage attempt, the closure and
//! [`analyze_thoroughly`] without a panic, within their budgets, and an illegal verdict always
//! says why in one well-formed line.
//!
//! Two thousand cases (200 in a debug build); `PROPTEST_CASES=20000` hunts longer.

use proptest::prelude::*;
use retrace_cage::{analyze_thoroughly, closure, find_cage, AutoLimits, CageStore};
use retrace_legal::{unit_facts, Verdict};
use retrace_testkit::{arbitrary_position, well_formed_message};
use retrace_unmove::RetroPosition;

/// Small budgets for the cage attempt and the closure: the cases are about robustness, not depth.
const LIMITS: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 300,
    total_nodes: 1_000,
    capture_charges: true,
    settle: false,
};
const CLOSURE_NODES: u64 = 1_000;

/// Every cage entry point on `pos` and on `pos` with its unit facts marked.
fn exercise(pos: &RetroPosition) {
    let mut marked = pos.clone();
    unit_facts(pos).mark(&mut marked);
    let store = CageStore::new();
    let _ = find_cage(pos, &LIMITS, &store);
    let _ = closure(pos, &store, CLOSURE_NODES, None);
    let _ = closure(&marked, &store, CLOSURE_NODES, None);
    let analysis = analyze_thoroughly(pos, &CageStore::new());
    if analysis.verdict() == Verdict::Illegal {
        for reason in &analysis.reasons {
            assert!(
                well_formed_message(&reason.message),
                "analyze_thoroughly of {}: reason {:?} whose message is not one well-formed \
                 line: {:?}",
                pos.fen(),
                reason.code,
                reason.message
            );
        }
    } else {
        assert!(analysis.reasons.is_empty());
    }
}

proptest! {
    #![proptest_config(retrace_testkit::arbitrary_config())]

    #[test]
    fn arbitrary_positions_never_panic(case in arbitrary_position()) {
        exercise(&case.pos);
    }
}
