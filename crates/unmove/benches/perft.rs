//! Retro perft and shakmaty's forward perft on the same positions (`cargo bench -p retrace-unmove`).

mod common;

use std::{hint::black_box, time::Duration};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use retrace_unmove::{retro_perft, shakmaty};

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Each iteration takes 10-400 ms: few samples keep the whole run to a couple of minutes.
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for p in common::POSITIONS {
        let retro = p.retro();
        let quiet = p.retro_quiet();
        let forward = p.forward();
        group.bench_with_input(
            BenchmarkId::new("retro", p.name),
            &p.retro_depth,
            |b, &d| {
                b.iter(|| retro_perft(black_box(&retro), d));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("retro-no-uncaptures", p.name),
            &p.quiet_depth,
            |b, &d| {
                b.iter(|| retro_perft(black_box(&quiet), d));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("forward", p.name),
            &p.forward_depth,
            |b, &d| {
                b.iter(|| shakmaty::perft(black_box(&forward), d));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
