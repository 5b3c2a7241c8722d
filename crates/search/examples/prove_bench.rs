//! `prove 20` and `prove 40` on the positions of Retractor 2's public suite (each retracting side),
//! counting every line as a history (the baseline, as before issue 17) and only repetition-free
//! lines, in one run. Prints, for each, the positions with a history, the time and the nodes.
//!
//! Run: `cargo run --release -p retrace-search --example prove_bench`

#[path = "../tests/support/retractor.rs"]
mod retractor;

use std::time::Instant;

use retrace_legal::CageStore;
use retrace_search::{prove_measured, LegalPruner, Proof};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// Nodes a single `prove` may visit, so that no position dominates the run.
const MAX_NODES: u64 = 200_000;

fn main() {
    let mut positions = Vec::new();
    for p in retractor::corpus() {
        let sides: &[Color] = match p.retract.as_str() {
            "w" => &[Color::White],
            "b" => &[Color::Black],
            _ => &[Color::White, Color::Black],
        };
        for &side in sides {
            if let Ok(pos) = RetroPosition::parse(&p.board, Some(side)) {
                positions.push(pos);
            }
        }
    }
    for depth in [20, 40] {
        let mut baseline = None;
        for (name, repetition_free) in [("every line", false), ("repetition-free", true)] {
            // A fresh store each run, so that the cages one run learns do not help the other.
            let store = CageStore::new();
            let pruner = LegalPruner::with_cages(&store);
            let start = Instant::now();
            let (mut histories, mut stopped, mut nodes) = (0, 0, 0);
            for pos in &positions {
                let (proof, n) =
                    prove_measured(pos, depth, &pruner, Some(MAX_NODES), repetition_free);
                nodes += n;
                match proof {
                    Proof::History(_) => histories += 1,
                    Proof::NoHistory {
                        complete: false, ..
                    } => stopped += 1,
                    Proof::NoHistory { .. } => {}
                }
            }
            let elapsed = start.elapsed().as_secs_f64();
            let ratio = elapsed / *baseline.get_or_insert(elapsed);
            println!(
                "prove {depth}, {name}: {histories}/{} with a history, {stopped} stopped, \
                 {elapsed:.2} s ({ratio:.2}x), {nodes} nodes",
                positions.len()
            );
        }
    }
}
