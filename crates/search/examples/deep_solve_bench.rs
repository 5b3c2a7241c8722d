//! What the automatic cage attempt costs a deep solve: `retrace solve FEN --depth D --max-nodes N`
//! with the attempt and with `--no-auto-cages`, for one build or several side by side, each run in
//! a fresh process, and the ratio of the two CPU times per build (the target is at most 2).
//!
//! `cargo run --release -p retrace-search --example deep_solve_bench -- [--fen FEN] [--depth D]
//! [--nodes N] [--runs K] RETRACE...`
//!
//! - `RETRACE...`: the `retrace` binaries to compare (the binary of an older commit serves as a
//!   baseline); `target/release/retrace` when none is given.
//! - `--fen`, `--depth`, `--nodes`: the solve (by default the open corner of Brandis's problem,
//!   `8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -`, 7 plies deep within 1,000,000 nodes, where most
//!   candidate lines are accepted and so asked of the cage attempt).
//! - `--runs`: runs per build and mode, the least CPU kept (3 by default).
//!
//! The builds and modes take turns, so that a load on the machine falls on each alike. CPU is the
//! child's user and system time (`getrusage`), which a loaded machine inflates less than wall
//! time. The solution counts are printed too: the attempt may only remove solutions.

#[path = "support/cpu.rs"]
mod cpu;

use std::process::{Command, Stdio};

use cpu::children_cpu;

/// One solve by `retrace`: its CPU seconds and the solution count it printed.
fn run(retrace: &str, fen: &str, depth: u32, nodes: u64, cages: bool) -> (f64, u64) {
    let mut command = Command::new(retrace);
    command.args(["solve", fen, "--depth", &depth.to_string(), "--json"]);
    command.args(["--max-nodes", &nodes.to_string()]);
    if !cages {
        command.arg("--no-auto-cages");
    }
    let before = children_cpu();
    let output = command
        .stderr(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {retrace}: {e}"));
    let cpu = children_cpu() - before;
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    (cpu, answer["count"].as_u64().unwrap_or(0))
}

fn main() {
    let mut fen = "8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -".to_owned();
    let (mut depth, mut nodes, mut runs) = (7u32, 1_000_000u64, 3usize);
    let mut builds = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--fen" => fen = value(),
            "--depth" => depth = value().parse().expect("a depth"),
            "--nodes" => nodes = value().parse().expect("a node count"),
            "--runs" => runs = value().parse().expect("a run count"),
            _ => builds.push(arg),
        }
    }
    if builds.is_empty() {
        builds.push("target/release/retrace".to_owned());
    }
    println!("solve {fen} --depth {depth} --max-nodes {nodes}, least CPU of {runs} runs");
    let mut best = vec![[(f64::INFINITY, 0u64); 2]; builds.len()];
    for _ in 0..runs {
        for (b, build) in builds.iter().enumerate() {
            for (mode, cages) in [(0, true), (1, false)] {
                let (cpu, count) = run(build, &fen, depth, nodes, cages);
                if cpu < best[b][mode].0 {
                    best[b][mode] = (cpu, count);
                }
            }
        }
    }
    for (build, [with, without]) in builds.iter().zip(&best) {
        println!(
            "{build}: with cages {:.2} s ({} solutions), without {:.2} s ({} solutions): {:.2}x",
            with.0,
            with.1,
            without.0,
            without.1,
            with.0 / without.0
        );
    }
}
