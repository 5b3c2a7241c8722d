//! Times the solver on every problem of positions/problems.toml: median and total time, nodes per
//! second, and how many it solves exactly. `cargo run --release -p retrace-search --example solve_bench`

#[path = "../tests/support/problems.rs"]
mod problems;

use std::time::Instant;

fn main() {
    let problems = problems::load();
    let mut times = Vec::with_capacity(problems.len());
    let (mut nodes, mut exact) = (0u64, 0usize);
    let start = Instant::now();
    for problem in &problems {
        let t = Instant::now();
        let outcome = problems::judge(problem);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        times.push((ms, problem.id.as_str()));
        nodes += outcome.nodes;
        exact += usize::from(outcome.exact);
    }
    let total = start.elapsed().as_secs_f64();
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = times.get(times.len() / 2).map_or(0.0, |t| t.0);
    println!("problems: {}  exactly solved: {exact}", problems.len());
    println!(
        "median {median:.2} ms  total {:.1} ms  nodes {nodes}  nodes/s {:.0}",
        total * 1e3,
        nodes as f64 / total
    );
    println!("slowest:");
    for (ms, id) in times.iter().rev().take(5) {
        println!("  {ms:>9.2} ms  {id}");
    }
}
