//! Cancellation and progress reach every phase of a proof-game search, the building of the forward
//! layers included.

use std::sync::{
    atomic::{AtomicBool, Ordering},
    Arc,
};

use retrace_search::{proof_games, LegalPruner, Phase, ProofGameParams};
use retrace_unmove::RetroPosition;

/// G. Gruber 1984, 6 moves: long enough for the forward layers.
const GRUBER: &str = "rnbqkbnr/pppp1p1p/8/4p1p1/1PQP4/8/P1PNPPPP/2KR1BNR w - -";

#[test]
fn a_cancel_during_the_forward_layers_stops_the_search_and_says_nothing_of_impossibility() {
    let pos = RetroPosition::from_fen(GRUBER).expect("FEN");
    let cancel = Arc::new(AtomicBool::new(false));
    let mut layer_reports = 0;
    let mut progress = |p: retrace_search::Progress| {
        if matches!(p.phase, Phase::ForwardLayers { .. }) {
            layer_reports += 1;
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let params = ProofGameParams {
        plies: 12,
        cancel: Some(Arc::clone(&cancel)),
        progress: Some(&mut progress),
        ..ProofGameParams::default()
    };
    let found = proof_games(&pos, params, &LegalPruner::new());
    assert!(layer_reports > 0, "the forward layers reported no progress");
    assert!(!found.complete && !found.impossible());
    assert!(found.games.is_empty(), "stopped before any game was found");

    // Uninterrupted, the layers are built and the game found; the progress says so.
    let mut phases = Vec::new();
    let mut progress = |p: retrace_search::Progress| phases.push(p.phase);
    let params = ProofGameParams {
        plies: 12,
        progress: Some(&mut progress),
        ..ProofGameParams::default()
    };
    let found = proof_games(&pos, params, &LegalPruner::new());
    assert_eq!((found.games.len(), found.unique()), (1, Some(true)));
    assert!(phases
        .iter()
        .any(|p| matches!(p, Phase::ForwardLayers { .. })));
    assert!(phases.contains(&Phase::Retracting));
}
