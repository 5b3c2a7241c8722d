//! Robustness of the search on arbitrary boards that [`RetroPosition::from_fen`] accepts (see
//! `retrace_testkit::arbitrary_position`): solving a few plies and proving a short history stop
//! within their node caps, without a panic, and every line they return is made of legal
//! retractions.
//!
//! The search is costlier than the analysis, so fewer cases than `crates/legal/tests/arbitrary.rs`
//! run (200 in release, a few seconds; 20 in a debug build); `PROPTEST_CASES=5000` hunts longer.

use proptest::prelude::*;
use retrace_cage::AutoLimits;
use retrace_search::{prove_within, solve, LegalPruner, Proof, SolveParams};
use retrace_testkit::{arbitrary_position, well_formed_message};
use retrace_unmove::{Retraction, RetroPosition};

/// Node caps small enough for a few milliseconds a case.
const NODES: u64 = 2_000;
const LIMITS: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 200,
    total_nodes: 500,
    capture_charges: true,
    settle: false,
};

/// Whether `line` is a sequence of legal retractions from `pos`.
fn replays(pos: &RetroPosition, line: &[Retraction]) -> bool {
    let mut here = pos.clone();
    line.iter().all(|r| {
        let legal = here.retractions().contains(r);
        here = here.retract(*r);
        legal
    })
}

/// Solving and proving on `pos`.
fn exercise(pos: &RetroPosition, depth: u32) {
    let pruner = LegalPruner::new()
        .with_cage_finding(Some(LIMITS))
        .with_closure(Some(NODES));
    let params = SolveParams {
        depth,
        extra: 1,
        max_nodes: Some(NODES),
        ..SolveParams::default()
    };
    let found = solve(pos, params, &pruner);
    assert!(
        found.nodes <= NODES + 1,
        "{} nodes on {}",
        found.nodes,
        pos.fen()
    );
    for refuted in &found.refuted {
        assert!(
            well_formed_message(&refuted.reason.message),
            "{}: {:?}",
            pos.fen(),
            refuted.reason.message
        );
    }
    for line in &found.lines {
        assert_eq!(line.len(), depth as usize, "{}", pos.fen());
        assert!(
            replays(pos, line),
            "a line of {} does not replay",
            pos.fen()
        );
    }
    match prove_within(pos, depth + 1, &pruner, None, Some(NODES)) {
        Proof::History(line) => assert!(replays(pos, &line), "{}", pos.fen()),
        Proof::NoHistory {
            longest, closure, ..
        } => {
            assert!(replays(pos, &longest), "{}", pos.fen());
            if let Some(reason) = closure {
                assert!(
                    well_formed_message(&reason.message),
                    "{}: {:?}",
                    pos.fen(),
                    reason.message
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 20 } else { 200 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_positions_search_without_panic(case in arbitrary_position(), depth in 1u32..=2) {
        exercise(&case.pos, depth);
    }
}
