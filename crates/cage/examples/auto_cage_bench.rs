//! Times the automatic cage attempt ([`find_cage`] with the default limits) on every position of
//! `positions/*.toml` and on the positions of random legal games, and prints the median, 99th
//! percentile and maximum time and nodes, the clusters tried, and the positions proven illegal.
//! The attempt runs on every position, whatever the plain analysis says, so the figures are its
//! own worst case; on random games any cage found would be a soundness bug. Positions that take
//! more than a few thousand nodes are listed.
//!
//! Every set is run twice in the same process, position by position, with the verifier's capture
//! charges on (the default) and off, and the ratios of their total time and nodes are printed.
//!
//! Run: `cargo run --release -p retrace-cage --example auto_cage_bench [GAMES]`

use std::time::Instant;

use retrace_cage::{find_cage, AutoLimits, CageStore};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// Times (microseconds), nodes and clusters tried, per position.
#[derive(Default)]
struct Figures {
    micros: Vec<f64>,
    nodes: Vec<u64>,
    tried: Vec<usize>,
    found: Vec<String>,
    slow: Vec<String>,
}

/// Positions whose attempt expands more nodes than this are listed.
const SLOW_NODES: u64 = 2_000;

impl Figures {
    fn run(&mut self, label: &str, pos: &RetroPosition, limits: &AutoLimits) {
        // A fresh store each time: no cached result or proof helps.
        let store = CageStore::new();
        let start = Instant::now();
        let search = find_cage(std::hint::black_box(pos), limits, &store);
        self.micros.push(start.elapsed().as_secs_f64() * 1e6);
        self.nodes.push(search.nodes);
        self.tried.push(search.tried);
        if search.nodes > SLOW_NODES {
            self.slow
                .push(format!("{label} {} ({} nodes)", pos.fen(), search.nodes));
        }
        if search.found.is_some() {
            self.found.push(label.to_owned());
        }
    }

    fn print(&mut self, what: &str) {
        self.micros.sort_by(f64::total_cmp);
        self.nodes.sort_unstable();
        self.tried.sort_unstable();
        let at = |n: usize, q: f64| ((n as f64 - 1.0) * q).round() as usize;
        let n = self.micros.len();
        if n == 0 {
            return;
        }
        println!(
            "{what}: {n} positions; time us median {:.1} p99 {:.1} max {:.1}; nodes median {} \
             p99 {} max {}; clusters tried max {}; proven illegal {}",
            self.micros[at(n, 0.5)],
            self.micros[at(n, 0.99)],
            self.micros[n - 1],
            self.nodes[at(n, 0.5)],
            self.nodes[at(n, 0.99)],
            self.nodes[n - 1],
            self.tried[n - 1],
            self.found.len()
        );
        if !self.found.is_empty() {
            println!("  proven: {}", self.found.join(" "));
        }
        for slow in &self.slow {
            println!("  over {SLOW_NODES} nodes: {slow}");
        }
    }
}

/// The default limits, and the same without the capture charges.
const OFF: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 5_000,
    total_nodes: 20_000,
    capture_charges: false,
    settle: true,
};

/// Figures with the capture charges on and off, run position by position.
#[derive(Default)]
struct Pair {
    on: Figures,
    off: Figures,
}

impl Pair {
    /// Runs both, in alternating order (the first run of a position warms the caches).
    fn run(&mut self, label: &str, pos: &RetroPosition) {
        if self.on.micros.len().is_multiple_of(2) {
            self.on.run(label, pos, &AutoLimits::default());
            self.off.run(label, pos, &OFF);
        } else {
            self.off.run(label, pos, &OFF);
            self.on.run(label, pos, &AutoLimits::default());
        }
    }

    fn print(&mut self, what: &str) {
        let total = |f: &Figures| {
            (
                f.micros.iter().sum::<f64>(),
                f.nodes.iter().sum::<u64>() as f64,
            )
        };
        let ((t_on, n_on), (t_off, n_off)) = (total(&self.on), total(&self.off));
        self.on.print(&format!("{what}, charges on"));
        self.off.print(&format!("{what}, charges off"));
        println!(
            "  on/off: time {:.3}, nodes {:.3}",
            t_on / t_off.max(f64::MIN_POSITIVE),
            n_on / n_off.max(1.0)
        );
    }
}

fn parse(fen: &str, retract: Option<&str>) -> Option<RetroPosition> {
    let retract = match retract {
        Some("w") => Some(Color::White),
        Some("b") => Some(Color::Black),
        _ => None,
    };
    RetroPosition::parse(fen, retract).ok()
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    for file in ["illegal", "legal", "problems", "cages"] {
        let path = format!("{}/../../positions/{file}.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let value: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut figures = Pair::default();
        for tables in value.values().filter_map(toml::Value::as_array) {
            for table in tables {
                let (Some(fen), Some(id)) = (
                    table.get("fen").and_then(toml::Value::as_str),
                    table.get("id").and_then(toml::Value::as_str),
                ) else {
                    continue;
                };
                let retract = table.get("retract").and_then(toml::Value::as_str);
                if let Some(pos) = parse(fen, retract) {
                    figures.run(id, &pos);
                }
            }
        }
        figures.print(&format!("positions/{file}.toml"));
    }
    let mut figures = Pair::default();
    for seed in 0..games {
        let game = random_game(seed, 300);
        for (ply, chess) in game.positions.iter().enumerate().skip(1) {
            figures.run(&format!("game {seed} ply {ply}"), &retro_position(chess));
        }
    }
    figures.print(&format!("random games ({games})"));
}
