//! What uncaptures cost the solver: the same "last N moves" searches on positions from random games
//! with uncaptures allowed and forbidden, with nodes, time, solutions and nodes per second.
//! `cargo run --release -p retrace-search --example uncapture_bench [games] [max-depth]`

use std::time::Instant;

use retrace_search::{solve, LegalPruner, SolveParams};
use retrace_testkit::positions_along;
use retrace_unmove::RetroPosition;
use shakmaty::ByColor;

/// Totals over a set of searches.
#[derive(Default)]
struct Totals {
    nodes: u64,
    seconds: f64,
    solutions: usize,
    complete: usize,
}

fn run(positions: &[RetroPosition], depth: u32, uncaptures: bool) -> Totals {
    let pruner = LegalPruner::new();
    let mut totals = Totals::default();
    let start = Instant::now();
    for pos in positions {
        let found = solve(
            pos,
            SolveParams {
                depth,
                no_uncapture: ByColor::new_with(|_| !uncaptures),
                max_nodes: Some(5_000_000),
                ..SolveParams::default()
            },
            &pruner,
        );
        totals.nodes += found.nodes;
        totals.solutions += found.lines.len();
        totals.complete += usize::from(found.complete);
    }
    totals.seconds = start.elapsed().as_secs_f64();
    totals
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let max_depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let positions: Vec<RetroPosition> = (0..games)
        .flat_map(|seed| positions_along(seed, 120))
        .collect();
    println!(
        "{} positions from {games} random games, extra depth 3",
        positions.len()
    );
    println!("depth  uncaptures  solutions      nodes      ms   nodes/s  µs/solution  complete");
    for depth in 1..=max_depth {
        for uncaptures in [false, true] {
            let t = run(&positions, depth, uncaptures);
            println!(
                "{depth:>5}  {:>10}  {:>9}  {:>9}  {:>6.0}  {:>8.0}  {:>11.1}  {}/{}",
                if uncaptures { "allowed" } else { "forbidden" },
                t.solutions,
                t.nodes,
                t.seconds * 1e3,
                t.nodes as f64 / t.seconds,
                t.seconds * 1e6 / t.solutions.max(1) as f64,
                t.complete,
                positions.len()
            );
        }
    }
}
