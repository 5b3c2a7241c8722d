//! `prove 20` and `prove 40` on the positions of Retractor 2's public suite (each retracting side),
//! in one run: counting every line as a history without the closure (the baseline, as before
//! issue 17), only repetition-free lines without the closure, and repetition-free lines with the
//! closure (as `prove` runs now). Prints, for each, the positions with a history, those the
//! closure proved illegal, the time, the nodes of the retraction search and those of the closure.
//!
//! Run: `cargo run --release -p retrace-search --features bench --example prove_bench`

#[path = "../tests/support/retractor.rs"]
mod retractor;

use std::{cell::Cell, sync::atomic::AtomicBool, time::Instant};

use retrace_cage::{closure, CageStore};
use retrace_legal::Reason;
use retrace_search::{prove_measured, LegalPruner, Proof, Pruner, PROVE_CLOSURE_NODES};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// [`LegalPruner`] with its closure counted: the same closure with the same budget and store,
/// and the nodes it expanded added up.
struct Counted<'c> {
    pruner: LegalPruner<'c>,
    store: &'c CageStore,
    closure: bool,
    nodes: Cell<u64>,
}

impl Pruner for Counted<'_> {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        self.pruner.is_illegal(pos)
    }

    fn deep_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        self.pruner.deep_reason(pos)
    }

    fn has_deep(&self) -> bool {
        self.pruner.has_deep()
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        max_nodes: Option<u64>,
        cancel: Option<&AtomicBool>,
    ) -> Option<Reason> {
        if !self.closure {
            return None;
        }
        let max_nodes = max_nodes.map_or(PROVE_CLOSURE_NODES, |m| m.min(PROVE_CLOSURE_NODES));
        let found = closure(pos, self.store, max_nodes, cancel);
        self.nodes.set(self.nodes.get() + found.nodes);
        found.closed.map(|c| c.reason())
    }
}

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
        for (name, repetition_free, with_closure) in [
            ("every line", false, false),
            ("repetition-free", true, false),
            ("repetition-free + closure", true, true),
        ] {
            // A fresh store each run, so that the cages one run learns do not help the other.
            let store = CageStore::new();
            let pruner = Counted {
                pruner: LegalPruner::with_cages(&store).with_closure(None),
                store: &store,
                closure: with_closure,
                nodes: Cell::new(0),
            };
            let start = Instant::now();
            let (mut histories, mut closed, mut stopped, mut nodes) = (0, 0, 0, 0);
            for pos in &positions {
                let (proof, n) =
                    prove_measured(pos, depth, &pruner, Some(MAX_NODES), repetition_free);
                nodes += n;
                match proof {
                    Proof::History(_) => histories += 1,
                    Proof::NoHistory {
                        complete: false, ..
                    } => stopped += 1,
                    Proof::NoHistory {
                        closure: Some(_), ..
                    } => closed += 1,
                    Proof::NoHistory { .. } => {}
                }
            }
            let elapsed = start.elapsed().as_secs_f64();
            let ratio = elapsed / *baseline.get_or_insert(elapsed);
            println!(
                "prove {depth}, {name}: {histories}/{} with a history, {closed} closed, \
                 {stopped} stopped, {elapsed:.2} s ({ratio:.2}x), {nodes} nodes, {} closure \
                 nodes",
                positions.len(),
                pruner.nodes.get()
            );
        }
    }
}
