//! What each family of the global rules decides on the public half of Retractor 2's suite: the
//! judge runs once with every rule on, then once with each family switched off in the verdict
//! at every node, and prints the problems each switch loses, with the time of each run.
//!
//! Each comparison runs twice: with the costlier verdicts (the cage attempt and the candidates'
//! closures) off, so that a problem lost is one whose refutations need that family at the nodes
//! of the search, and with them on as a user runs it (a cage or a closure can then stand in for a
//! rule switched off; the cages and closures themselves keep every rule).
//!
//! Run: `cargo run --release -p retrace-search --example family_bench`

#[path = "../tests/support/retractor.rs"]
mod retractor;

use std::time::Instant;

use retrace_cage::CageStore;
use retrace_legal::AnalyzerOptions;
use retractor::{corpus, Judge, Problem};

/// The problems `options` decides, with the costlier verdicts or without, and the seconds it
/// took.
fn decided(problems: &[Problem], options: AnalyzerOptions, deep: bool) -> (Vec<String>, f64) {
    // A fresh store each run, so that nothing learnt in one run helps another.
    let store = CageStore::new();
    let full = Judge::new(&store);
    let judge = Judge {
        finding: full.finding.filter(|_| deep),
        closure: full.closure.filter(|_| deep),
        analysis: options,
        ..full
    };
    let start = Instant::now();
    let ids = problems
        .iter()
        .filter(|p| judge.decides(p))
        .map(|p| p.id.clone())
        .collect();
    (ids, start.elapsed().as_secs_f64())
}

fn main() {
    let problems = corpus();
    for deep in [false, true] {
        println!(
            "{}",
            if deep {
                "With the cage attempt and the candidates' closures:"
            } else {
                "Without the cage attempt and the candidates' closures:"
            }
        );
        compare(&problems, deep);
    }
}

/// Prints what each family decides, with the costlier verdicts or without.
fn compare(problems: &[Problem], deep: bool) {
    let all = AnalyzerOptions::default();
    let (every, seconds) = decided(problems, all, deep);
    println!(
        "  every rule on: {}/{} decided in {seconds:.2} s",
        every.len(),
        problems.len()
    );
    let families: [(&str, AnalyzerOptions); 5] = [
        (
            "the pawn accounting (captures_unaccounted)",
            AnalyzerOptions {
                accounting: false,
                ..all
            },
        ),
        (
            "the capture matching (capture_unmatched), with its timing and accounts",
            AnalyzerOptions {
                matching: false,
                ..all
            },
        ),
        (
            "the matching's timing (captures before a pawn's step)",
            AnalyzerOptions {
                timing: false,
                ..all
            },
        ),
        (
            "the matching's accounts of the victim's pawns",
            AnalyzerOptions {
                pawn_accounts: false,
                ..all
            },
        ),
        (
            "the history ledger (ledger_unmatched)",
            AnalyzerOptions {
                ledger: false,
                ..all
            },
        ),
    ];
    for (name, options) in families {
        let (kept, seconds) = decided(problems, options, deep);
        let lost: Vec<&str> = every
            .iter()
            .filter(|id| !kept.contains(id))
            .map(String::as_str)
            .collect();
        let gained = kept.iter().filter(|id| !every.contains(id)).count();
        println!(
            "  without {name}: {}/{} in {seconds:.2} s; lost {}: {}{}",
            kept.len(),
            problems.len(),
            lost.len(),
            if lost.is_empty() {
                "-".to_string()
            } else {
                lost.join(", ")
            },
            if gained > 0 {
                format!(" (and {gained} decided only without it)")
            } else {
                String::new()
            }
        );
    }
}
