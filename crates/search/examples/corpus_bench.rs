//! The public half of Retractor 2's suite, judged three times in one run: with the search's cage
//! attempt off (the baseline: the analysis and the user's cages only), on, and on without the
//! root's facts about units travelling (issue 11). Prints, for each, the problems decided, the
//! time and the search nodes, and for the runs with the attempt the number of attempts and their
//! time per attempted position (median, p99, max).
//!
//! Run: `cargo run --release -p retrace-search --example corpus_bench`

#[path = "../tests/support/retractor.rs"]
mod retractor;

use std::time::{Duration, Instant};

use retrace_cage::CageStore;
use retractor::{corpus, Judge};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn main() {
    let problems = corpus();
    let mut baseline = None;
    let attempt = Some(retrace_search::SEARCH_CAGE_LIMITS);
    for (name, finding, facts) in [
        ("without the cage attempt", None, true),
        ("with the cage attempt", attempt, true),
        (
            "with the cage attempt, facts not travelling",
            attempt,
            false,
        ),
    ] {
        // A fresh store each run, so that nothing learnt in one run helps the other.
        let store = CageStore::new();
        let judge = Judge {
            finding,
            facts,
            ..Judge::new(&store)
        };
        let start = Instant::now();
        let decided = problems.iter().filter(|p| judge.decides(p)).count();
        let elapsed = start.elapsed();
        let ratio = baseline.map_or(1.0, |b: Duration| elapsed.as_secs_f64() / b.as_secs_f64());
        baseline.get_or_insert(elapsed);
        println!(
            "{name}: decided {decided}/{}, {:.2} s ({ratio:.2}x the baseline), {} search nodes",
            problems.len(),
            elapsed.as_secs_f64(),
            judge.nodes.borrow()
        );
        let mut attempts = judge.attempts.borrow().clone();
        attempts.sort();
        if !attempts.is_empty() {
            let total: Duration = attempts.iter().sum();
            println!(
                "  {} cage attempts, {:.2} s in all; per attempted position: median {:?}, p99 {:?}, max {:?}",
                attempts.len(),
                total.as_secs_f64(),
                percentile(&attempts, 0.5),
                percentile(&attempts, 0.99),
                attempts.last().copied().unwrap_or_default()
            );
        }
    }
}
