//! Retro perft against shakmaty's forward perft on the bench positions, printed as a Markdown
//! table. Run in release: `cargo run --release -p retrace-unmove --example perft_table`.
//!
//! With `--calibrate` it prints the time of every depth up to ~100 ms instead, to choose the depths
//! in `benches/common/mod.rs`.

#[path = "../benches/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use retrace_unmove::retro_perft;

/// Runs per measurement; the best one is kept, as the least disturbed by the rest of the machine.
const RUNS: usize = 10;

fn best_of(mut perft: impl FnMut() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut leaves = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        leaves = std::hint::black_box(perft());
        best = best.min(start.elapsed());
    }
    (leaves, best)
}

/// Leaves per second, in millions.
fn mrate(leaves: u64, time: Duration) -> f64 {
    leaves as f64 / time.as_secs_f64() / 1e6
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

fn calibrate() {
    for p in common::POSITIONS {
        let (retro, quiet, forward) = (p.retro(), p.retro_quiet(), p.forward());
        let kinds: [(&str, &dyn Fn(u32) -> u64); 3] = [
            ("retro", &|d| retro_perft(&retro, d)),
            ("retro, no uncaptures", &|d| retro_perft(&quiet, d)),
            ("forward", &|d| retrace_unmove::shakmaty::perft(&forward, d)),
        ];
        for (kind, perft) in kinds {
            for depth in 1..=12 {
                let start = Instant::now();
                let leaves = perft(depth);
                let time = start.elapsed();
                println!(
                    "{} / {kind}: depth {depth}: {leaves} leaves, {:.1} ms",
                    p.name,
                    ms(time)
                );
                if time > Duration::from_millis(100) {
                    break;
                }
            }
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "--calibrate") {
        calibrate();
        return;
    }
    println!(
        "| position | depth (retro / fwd) | retro leaves | retro leaves/s | forward leaves | \
         forward leaves/s | ratio |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for p in common::POSITIONS {
        let forward = p.forward();
        let fd = p.forward_depth;
        let (fwd_leaves, fwd_time) = best_of(|| retrace_unmove::shakmaty::perft(&forward, fd));
        let fwd_rate = mrate(fwd_leaves, fwd_time);
        let rows = [
            ("", p.retro(), p.retro_depth),
            (", no uncaptures", p.retro_quiet(), p.quiet_depth),
        ];
        for (label, pos, depth) in rows {
            let (leaves, time) = best_of(|| retro_perft(&pos, depth));
            let rate = mrate(leaves, time);
            println!(
                "| {}{label} | {depth} / {fd} | {leaves} ({:.1} ms) | {rate:.1} M | {fwd_leaves} ({:.1} ms) | \
                 {fwd_rate:.1} M | {:.2} |",
                p.name,
                ms(time),
                ms(fwd_time),
                rate / fwd_rate,
            );
        }
    }
    println!();
    println!("Best of {RUNS} runs; ratio = retro leaves/s / forward leaves/s.");
}
