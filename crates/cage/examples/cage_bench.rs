//! Times cage verification over `positions/cages.toml`: each cage is verified `REPS` times with a
//! fresh store (so no cached result or proof is reused), and the median and maximum times are
//! printed, per cage and over all cages.
//!
//! Run: `cargo run --release -p retrace-cage --example cage_bench [REPS]`

use std::time::Instant;

use retrace_cage::{verify, Cage, CageStore};
use serde::Deserialize;

#[derive(Deserialize)]
struct Entry {
    id: String,
    cage: String,
}

#[derive(Deserialize)]
struct File {
    cage: Vec<Entry>,
}

fn median(sorted: &[f64]) -> f64 {
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50)
        .max(1);
    let path = format!("{}/../../positions/cages.toml", env!("CARGO_MANIFEST_DIR"));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let file: File = match toml::from_str(&text) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path} is not valid: {e}");
            std::process::exit(2);
        }
    };
    let mut all = Vec::new();
    println!(
        "{:<24} {:>8} {:>7} {:>12} {:>12}",
        "cage", "verified", "nodes", "median us", "max us"
    );
    for entry in &file.cage {
        let cage = match Cage::parse_line(&entry.cage) {
            Ok(cage) => cage,
            Err(e) => {
                eprintln!("{}: {e}", entry.id);
                continue;
            }
        };
        let mut times = Vec::with_capacity(reps);
        let mut last = None;
        for _ in 0..reps {
            let store = CageStore::new();
            let start = Instant::now();
            let v = verify(std::hint::black_box(&cage), &store);
            times.push(start.elapsed().as_secs_f64() * 1e6);
            last = Some(v);
        }
        times.sort_by(f64::total_cmp);
        let Some(v) = last else { continue };
        println!(
            "{:<24} {:>8} {:>7} {:>12.1} {:>12.1}",
            entry.id,
            v.verified(),
            v.nodes,
            median(&times),
            times.last().copied().unwrap_or(0.0)
        );
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    println!(
        "all {} verifications of {} cages: median {:.1} us, max {:.1} us",
        all.len(),
        file.cage.len(),
        median(&all),
        all.last().copied().unwrap_or(0.0)
    );
}
