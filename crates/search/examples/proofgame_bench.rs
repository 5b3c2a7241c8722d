//! The proof-game search on every published proof game of
//! positions/corpora/published-problems.jsonl: how many are found, and how many confirmed unique
//! (a complete search with one game), by length, with the time per problem.
//!
//! `cargo run --release -p retrace-search --example proofgame_bench -- [SECONDS] [MAX_PLIES]
//! [NODES]`: SECONDS is the budget per problem (5 by default); MAX_PLIES leaves out longer
//! problems; NODES adds a node budget per problem, which, unlike time, does not depend on the
//! machine's load (give a large SECONDS with it).
//!
//! Each problem is searched twice in the same run, with the distance bound's capture-square term
//! off (the baseline) and on, so the two can be compared as ratios.

#[path = "../tests/support/published.rs"]
mod published;

use std::time::{Duration, Instant};

/// The length classes reported: up to 16 plies, 17 to 24, 25 and more.
const CLASSES: [(&str, u32, u32); 3] = [("<=16", 0, 16), ("17-24", 17, 24), ("25+", 25, u32::MAX)];

/// The bounds compared: without the capture-square term (baseline), then with it.
const BOUNDS: [(&str, bool); 2] = [
    ("without capture squares", false),
    ("with capture squares", true),
];

#[derive(Default)]
struct Tally {
    problems: usize,
    found: usize,
    unique: usize,
    published_found: usize,
    impossible: usize,
    nodes: u64,
    seconds: f64,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let budget: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let max_plies: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(u32::MAX);
    let max_nodes: Option<u64> = args.next().and_then(|a| a.parse().ok());
    let mut tallies: Vec<Vec<Tally>> = BOUNDS
        .iter()
        .map(|_| CLASSES.iter().map(|_| Tally::default()).collect())
        .collect();
    let start = Instant::now();
    for problem in published::load()
        .into_iter()
        .filter(|p| p.plies <= max_plies)
    {
        let class = CLASSES
            .iter()
            .position(|&(_, lo, hi)| (lo..=hi).contains(&problem.plies))
            .unwrap_or(0);
        for (b, &(name, on)) in BOUNDS.iter().enumerate() {
            let t = Instant::now();
            // Two games are enough to tell unique from not.
            let found = published::search_with(
                &problem.pos,
                problem.plies,
                Some(2),
                max_nodes,
                Some(Duration::from_secs_f64(budget)),
                retrace_search::SearchOptions {
                    capture_squares: on,
                },
            );
            let seconds = t.elapsed().as_secs_f64();
            let published_found = found
                .games
                .iter()
                .any(|line| published::is_game(&problem.pos, line, &problem.game));
            let unique = found.games.len() == 1 && found.complete;
            let tally = &mut tallies[b][class];
            tally.problems += 1;
            tally.found += usize::from(!found.games.is_empty());
            tally.unique += usize::from(unique);
            tally.published_found += usize::from(published_found);
            tally.impossible += usize::from(found.impossible());
            tally.nodes += found.nodes;
            tally.seconds += seconds;
            println!(
                "{:<34} {:>3} plies  {:>5} {:<9} {:>12} nodes {:>8.2} s  {name}{}",
                problem.id,
                problem.plies,
                if found.games.is_empty() { "-" } else { "found" },
                if unique {
                    "unique"
                } else if found.complete && found.games.len() > 1 {
                    "several"
                } else {
                    ""
                },
                found.nodes,
                seconds,
                if found.impossible() {
                    "  CALLED IMPOSSIBLE"
                } else if problem.unique && found.complete && found.games.len() > 1 {
                    "  NOT UNIQUE, THE SOURCE SAYS UNIQUE"
                } else {
                    ""
                }
            );
        }
    }
    let nodes = max_nodes.map_or(String::new(), |n| format!(" and {n} nodes"));
    println!(
        "\nbudget {budget} s{nodes} a problem; total {:.1} s",
        start.elapsed().as_secs_f64()
    );
    for ((name, _), tallies) in BOUNDS.iter().zip(&tallies) {
        println!("\n{name}");
        println!(
            "plies   problems  found  unique  published-found  impossible  mean s       nodes"
        );
        for ((class, _, _), t) in CLASSES.iter().zip(tallies) {
            println!(
                "{class:<7} {:>8} {:>6} {:>7} {:>16} {:>11} {:>7.2} {:>11}",
                t.problems,
                t.found,
                t.unique,
                t.published_found,
                t.impossible,
                t.seconds / t.problems.max(1) as f64,
                t.nodes
            );
        }
    }
    println!("\nwith / without, per class: time and nodes");
    for (c, (class, _, _)) in CLASSES.iter().enumerate() {
        let (off, on) = (&tallies[0][c], &tallies[1][c]);
        println!(
            "{class:<7} time {:.2}  nodes {:.2}",
            on.seconds / off.seconds.max(1e-9),
            on.nodes as f64 / off.nodes.max(1) as f64
        );
    }
}
