//! Times the solver on every problem of positions/problems.toml: median and total time, nodes per
//! second, and how many it solves exactly; with the root's facts about units not travelling and
//! travelling (issue 11), alternated in one run, the fastest of each, the second as a ratio of the
//! first.
//! `cargo run --release -p retrace-search --example solve_bench`

#[path = "../tests/support/problems.rs"]
mod problems;

use std::time::Instant;

/// Rounds of each setting, alternated, so that warm caches favour neither; the fastest counts.
const ROUNDS: usize = 5;

/// One setting's fastest round: nodes, problems solved exactly, and each problem's time (ms).
type Round<'a> = (u64, usize, Vec<(f64, &'a str)>);

fn main() {
    let problems = problems::load();
    let settings = [("facts not travelling", false), ("facts travelling", true)];
    let mut best = [f64::INFINITY; 2];
    let mut results: [Round<'_>; 2] = Default::default();
    for _ in 0..ROUNDS {
        for (i, &(_, facts)) in settings.iter().enumerate() {
            let mut times = Vec::with_capacity(problems.len());
            let (mut nodes, mut exact) = (0u64, 0usize);
            let start = Instant::now();
            for problem in &problems {
                let t = Instant::now();
                let outcome = problems::judge_with(problem, facts);
                times.push((t.elapsed().as_secs_f64() * 1e3, problem.id.as_str()));
                nodes += outcome.nodes;
                exact += usize::from(outcome.exact);
            }
            let total = start.elapsed().as_secs_f64();
            if total < best[i] {
                best[i] = total;
                times.sort_by(|a, b| a.0.total_cmp(&b.0));
                results[i] = (nodes, exact, times);
            }
        }
    }
    for (i, (name, _)) in settings.iter().enumerate() {
        let (nodes, exact, times) = &results[i];
        let total = best[i];
        let median = times.get(times.len() / 2).map_or(0.0, |t| t.0);
        println!(
            "{name}: problems: {}  exactly solved: {exact}",
            problems.len()
        );
        println!(
            "median {median:.2} ms  total {:.1} ms ({:.2}x the first)  nodes {nodes}  nodes/s {:.0}",
            total * 1e3,
            total / best[0],
            *nodes as f64 / total
        );
        println!("slowest:");
        for (ms, id) in times.iter().rev().take(5) {
            println!("  {ms:>9.2} ms  {id}");
        }
    }
}
