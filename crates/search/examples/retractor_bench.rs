//! Nodes and time of the retractor solver for N = 1..4 White retractions and mate in M = 1..2, on
//! constructed positions of tests/retractors/positions.toml, each run under a node budget (a run
//! that spends it is reported as stopped, with no verdict). Times are also given as ratios to the
//! N = 1, #1 run of the same position in this run.
//! `cargo run --release -p retrace-search --example retractor_bench [-- NODE_BUDGET]`

use retrace_search::{
    retractor::Outcome, solve_retractor, ForwardGoal, LegalPruner, RetractorKind, RetractorParams,
};
use retrace_unmove::RetroPosition;
use serde::Deserialize;

#[derive(Deserialize)]
struct Constructed {
    id: String,
    fen: String,
    kind: String,
    retract: u32,
}

#[derive(Deserialize)]
struct File {
    retractor: Vec<Constructed>,
}

/// The positions timed: one of each special case, in the kind they were built for.
const IDS: [&str; 5] = [
    "uncapture-choice-proca",
    "ep-self-block",
    "promotion-proca",
    "uncastling-hoeg",
    "ep-forward-hoeg",
];

fn main() {
    let budget: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000_000);
    let file: File = toml::from_str(include_str!("../tests/retractors/positions.toml"))
        .expect("positions.toml parses");
    println!("node budget {budget} per run");
    println!(
        "{:<24} {:>5} {:>2} {:>2} {:>12} {:>10} {:>9}  verdict",
        "position", "kind", "N", "M", "nodes", "ms", "x(N1,#1)"
    );
    for c in file
        .retractor
        .iter()
        .filter(|c| IDS.contains(&c.id.as_str()) && c.retract == 1)
    {
        let pos = RetroPosition::from_fen(&c.fen).expect("fen");
        let kind: RetractorKind = c.kind.parse().expect("kind");
        let mut base = None;
        for n in 1..=4 {
            for m in 1..=2 {
                let params = RetractorParams {
                    max_nodes: Some(budget),
                    ..RetractorParams::new(kind, n, ForwardGoal::Mate(m))
                };
                let s = solve_retractor(&pos, params, &LegalPruner::new()).expect("sets up");
                let ms = s.elapsed.as_secs_f64() * 1e3;
                let base_ms = *base.get_or_insert(ms.max(1e-3));
                let verdict = match (s.complete, s.outcome) {
                    (false, _) => "stopped".to_owned(),
                    (true, Outcome::Win) => format!("{} key(s)", s.solutions),
                    (true, Outcome::Loss) => "no solution".to_owned(),
                    (true, Outcome::Illegal) => "illegal".to_owned(),
                };
                println!(
                    "{:<24} {:>5} {n:>2} {m:>2} {:>12} {ms:>10.1} {:>9.0}  {verdict}",
                    c.id,
                    kind.name(),
                    s.nodes,
                    ms / base_ms
                );
            }
        }
    }
}
