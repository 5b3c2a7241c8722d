//! Times the whole-position closure ([`closure`], `check`'s budget) against the cage verifier
//! alone ([`relaxed_closure`]) in one run, on the positions of random legal games and of the
//! corpora: what the exact prefix (issue 10, `cage/exact.rs`) costs, how often it runs, and what
//! it proves (on random games anything proven would be a soundness bug).
//!
//! Run: `cargo run --release -p retrace-legal --example closure_bench [GAMES]`

use std::time::Instant;

use retrace_legal::cage::{closure, relaxed_closure, CageStore, CHECK_CLOSURE_NODES};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// Total time (seconds), positions the exact prefix ran on, and proofs, of one way.
#[derive(Default)]
struct Figures {
    seconds: f64,
    nodes: u64,
    proven: Vec<String>,
}

fn run(positions: &[(String, RetroPosition)], exact: bool) -> Figures {
    let mut figures = Figures::default();
    for (label, pos) in positions {
        // A fresh store each time: no cached result helps either way.
        let store = CageStore::new();
        let start = Instant::now();
        let found = if exact {
            closure(std::hint::black_box(pos), &store, CHECK_CLOSURE_NODES, None)
        } else {
            relaxed_closure(std::hint::black_box(pos), &store, CHECK_CLOSURE_NODES, None)
        };
        figures.seconds += start.elapsed().as_secs_f64();
        figures.nodes += found.nodes;
        if let Some(closed) = found.closed {
            if closed.exact {
                figures
                    .proven
                    .push(format!("{label} {} {:?}", pos.fen(), closed.plies));
            }
        }
    }
    figures
}

fn corpus() -> Vec<(String, RetroPosition)> {
    let dir = format!("{}/../../../shared/corpora", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for file in [
        "sherlock-legality.jsonl",
        "published-problems.jsonl",
        "chass-problems.jsonl",
        "retractor-problems.jsonl",
    ] {
        let Ok(text) = std::fs::read_to_string(format!("{dir}/{file}")) else {
            eprintln!("cannot read {dir}/{file}");
            continue;
        };
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let id = v["id"].as_str().unwrap_or("?").to_owned();
            let mut add = |fen: &str, side: Option<Color>, label: String| {
                if let Ok(p) = RetroPosition::parse(fen, side) {
                    out.push((label, p));
                }
            };
            if let Some(fen) = v["fen"].as_str() {
                add(fen, None, id);
            } else if let Some(board) = v["board"].as_str() {
                for side in Color::ALL {
                    add(board, Some(side), format!("{id} ({side:?} retracts)"));
                }
            }
        }
    }
    out
}

fn main() {
    let arg = std::env::args().nth(1);
    let games: u64 = arg.as_deref().map_or(Ok(300), str::parse).unwrap_or(300);
    // The random games of the closure's soundness test.
    let random: Vec<(String, RetroPosition)> = (0..games)
        .flat_map(|seed| {
            let game = random_game(seed, 40 + (seed as usize * 37) % 260);
            let label = format!("game {seed}");
            game.positions
                .iter()
                .map(|chess| (label.clone(), retro_position(chess)))
                .collect::<Vec<_>>()
        })
        .collect();
    for (what, positions) in [("random games", random), ("corpora", corpus())] {
        // Each way twice, alternating, so that neither gets a warmer machine.
        let mut best = [f64::MAX; 2];
        let mut figures = Vec::new();
        for _ in 0..2 {
            for (i, exact) in [false, true].into_iter().enumerate() {
                let f = run(&positions, exact);
                best[i] = best[i].min(f.seconds);
                figures.push(f);
            }
        }
        let (relaxed, exact) = (&figures[0], &figures[1]);
        println!(
            "{what}: {} positions; relaxed alone {:.3} s ({} nodes), with the exact prefix \
             {:.3} s ({} nodes): x{:.2}; proven by the exact prefix only: {}",
            positions.len(),
            best[0],
            relaxed.nodes,
            best[1],
            exact.nodes,
            best[1] / best[0],
            exact.proven.len()
        );
        for p in &exact.proven {
            println!("  {p}");
        }
    }
}
