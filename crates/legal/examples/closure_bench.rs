//! Times the whole-position closure ([`closure`], `check`'s budget) against the cage verifier
//! alone ([`relaxed_closure`]) and against the closure without its tempo search
//! ([`closure_without_tempo`]) in one run, on the positions of random legal games and of the
//! corpora: what the exact prefix (issue 10, `cage/exact.rs`) and its tempo search (issue 11)
//! cost, how often they run, and what they prove (on random games anything proven would be a
//! soundness bug).
//!
//! Run: `cargo run --release -p retrace-legal --example closure_bench [GAMES]`

use std::time::Instant;

use retrace_legal::cage::{
    closure, closure_without_tempo, relaxed_closure, CageStore, CHECK_CLOSURE_NODES,
};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// Total time (seconds), nodes, positions the tempo search ran on, and proofs of the exact
/// prefix (with the tempo search's marked), of one way.
#[derive(Default)]
struct Figures {
    seconds: f64,
    nodes: u64,
    tempo: u64,
    proven: Vec<String>,
}

/// The three ways timed: the relaxed closure, the closure without the tempo search, the closure.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Relaxed,
    Exact,
    Tempo,
}

fn run(positions: &[(String, RetroPosition)], way: Way) -> Figures {
    let mut figures = Figures::default();
    for (label, pos) in positions {
        // A fresh store each time: no cached result helps either way.
        let store = CageStore::new();
        let start = Instant::now();
        let pos = std::hint::black_box(pos);
        let found = match way {
            Way::Relaxed => relaxed_closure(pos, &store, CHECK_CLOSURE_NODES, None),
            Way::Exact => closure_without_tempo(pos, &store, CHECK_CLOSURE_NODES, None),
            Way::Tempo => closure(pos, &store, CHECK_CLOSURE_NODES, None),
        };
        figures.seconds += start.elapsed().as_secs_f64();
        figures.nodes += found.nodes;
        figures.tempo += u64::from(found.tempo);
        if let Some(closed) = found.closed {
            if closed.exact {
                let by = if closed.tempo.is_some() {
                    " (tempo)"
                } else {
                    ""
                };
                figures
                    .proven
                    .push(format!("{label} {} {:?}{by}", pos.fen(), closed.plies));
            }
        }
    }
    figures
}

fn corpus() -> Vec<(String, RetroPosition)> {
    let dir = format!("{}/../../positions/corpora", env!("CARGO_MANIFEST_DIR"));
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
        // Each way twice, in turn, so that none gets a warmer machine.
        let ways = [Way::Relaxed, Way::Exact, Way::Tempo];
        let mut best = [f64::MAX; 3];
        let mut figures: Vec<Figures> = Vec::new();
        for round in 0..2 {
            for (i, &way) in ways.iter().enumerate() {
                let f = run(&positions, way);
                best[i] = best[i].min(f.seconds);
                if round == 0 {
                    figures.push(f);
                }
            }
        }
        let [relaxed, exact, tempo] = [&figures[0], &figures[1], &figures[2]];
        println!(
            "{what}: {} positions; relaxed alone {:.3} s ({} nodes), with the exact prefix \
             {:.3} s ({} nodes): x{:.2}; with its tempo search {:.3} s ({} nodes, tried on {} \
             positions): x{:.2} the exact prefix's; proven by the exact prefix: {}, with the tempo \
             search: {}",
            positions.len(),
            best[0],
            relaxed.nodes,
            best[1],
            exact.nodes,
            best[1] / best[0],
            best[2],
            tempo.nodes,
            tempo.tempo,
            best[2] / best[1],
            exact.proven.len(),
            tempo.proven.len()
        );
        for p in tempo.proven.iter().filter(|p| p.ends_with("(tempo)")) {
            println!("  {p}");
        }
    }
}
