//! Times `retrace_legal::analyze` per position: on every position of random legal games, on the
//! positions of `positions/*.toml`, and on those of the corpora (`positions/corpora/*.jsonl`).
//! Prints the median, mean and 99th percentile microseconds per analysis (issue 11 asks for a median
//! under 20 us on random-game positions and under 200 us on corpus positions), each set three times
//! in one run: without the global accounting of both sides' pawns (the baseline), with it, with it
//! and the matching of missing units with captures, and with the matching's timing too (the order
//! of captures against pawns' single steps), and last the history ledger off and on, alternating,
//! twice.
//!
//! Run: `cargo run --release -p retrace-legal --example analyze_bench [GAMES]`

use std::time::Instant;

use retrace_legal::{Analyzer, AnalyzerOptions};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// Which rules [`time_all`] runs beyond the baseline.
#[derive(Clone, Copy)]
struct Rules {
    /// The global accounting of both sides' pawns.
    accounting: bool,
    /// The matching of missing units with captures.
    matching: bool,
    /// The matching's order of captures against pawns' single steps.
    timing: bool,
    /// The matching's accounts of the victim's pawns (which pawns are missing).
    pawn_accounts: bool,
    /// The history ledger (captures all spoken for by pawns, matched with the pawns that died on
    /// their files).
    ledger: bool,
}

/// Times each position `reps` times and returns the per-analysis times in microseconds, with the
/// rules `rules` on.
fn time_all(positions: &[RetroPosition], reps: usize, rules: Rules) -> Vec<f64> {
    let mut analyzer = Analyzer::with_options(AnalyzerOptions {
        accounting: rules.accounting,
        matching: rules.matching,
        timing: rules.timing,
        pawn_accounts: rules.pawn_accounts,
        ledger: rules.ledger,
    });
    let mut times = Vec::with_capacity(positions.len());
    for pos in positions {
        let start = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(analyzer.analyze(std::hint::black_box(pos)));
        }
        times.push(start.elapsed().as_secs_f64() * 1e6 / reps as f64);
    }
    times
}

/// Prints the figures of `times`; returns the median.
fn report(label: &str, times: Vec<f64>) -> f64 {
    report_p99(label, times).0
}

/// Prints the figures of `times`; returns the median and the 99th percentile.
fn report_p99(label: &str, mut times: Vec<f64>) -> (f64, f64) {
    if times.is_empty() {
        println!("{label}: no positions");
        return (0.0, 0.0);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
    println!(
        "{label}: {} positions, median {median:.2} us, mean {mean:.2} us, p99 {p99:.2} us",
        times.len()
    );
    (median, p99)
}

/// Times `positions` without the global accounting (the baseline), with it, with the matching too,
/// and with the matching's timing, and prints all four and the ratios of the medians.
fn compare(label: &str, positions: &[RetroPosition], reps: usize) {
    let rules = |accounting, matching, timing| Rules {
        accounting,
        matching,
        timing,
        pawn_accounts: matching,
        ledger: false,
    };
    let base = report(
        &format!("{label}, accounting off"),
        time_all(positions, reps, rules(false, false, false)),
    );
    let with = report(
        &format!("{label}, accounting on"),
        time_all(positions, reps, rules(true, false, false)),
    );
    let matched = report(
        &format!("{label}, accounting and matching on"),
        time_all(positions, reps, rules(true, true, false)),
    );
    let timed = report(
        &format!("{label}, accounting and timed matching on"),
        time_all(positions, reps, rules(true, true, true)),
    );
    let (unaccounted, p99_unaccounted) = report_p99(
        &format!("{label}, timed matching without the victim's pawn accounts"),
        time_all(
            positions,
            reps,
            Rules {
                pawn_accounts: false,
                ..rules(true, true, true)
            },
        ),
    );
    let (again, p99_timed) = report_p99(
        &format!("{label}, timed matching with them (again)"),
        time_all(positions, reps, rules(true, true, true)),
    );
    // The ledger off and on, alternating, after everything else is on.
    let full = Rules {
        ledger: true,
        ..rules(true, true, true)
    };
    let (no_ledger, p99_no_ledger) = report_p99(
        &format!("{label}, everything, ledger off"),
        time_all(positions, reps, rules(true, true, true)),
    );
    let (ledger, p99_ledger) = report_p99(
        &format!("{label}, everything, ledger on"),
        time_all(positions, reps, full),
    );
    let (no_ledger2, p99_no_ledger2) = report_p99(
        &format!("{label}, everything, ledger off (again)"),
        time_all(positions, reps, rules(true, true, true)),
    );
    let (ledger2, p99_ledger2) = report_p99(
        &format!("{label}, everything, ledger on (again)"),
        time_all(positions, reps, full),
    );
    println!(
        "{label}: the ledger: median {:.2}x and {:.2}x, p99 {:.2}x and {:.2}x (on / off, twice)",
        ledger / no_ledger,
        ledger2 / no_ledger2,
        p99_ledger / p99_no_ledger,
        p99_ledger2 / p99_no_ledger2
    );
    println!(
        "{label}: median with / without accounting {:.2}x, with matching too {:.2}x, timed {:.2}x; \
         the victim's pawn accounts: median {:.2}x, p99 {:.2}x",
        with / base,
        matched / base,
        timed / base,
        again / unaccounted,
        p99_timed / p99_unaccounted
    );
}

/// The FENs of `positions/*.toml`, read line by line (`fen = "..."`, `retract = "w"|"b"`), so that the
/// example needs no TOML parser.
fn toml_positions() -> Vec<RetroPosition> {
    let mut out = Vec::new();
    for name in ["illegal.toml", "legal.toml"] {
        let path = format!("{}/../../positions/{name}", env!("CARGO_MANIFEST_DIR"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let mut fen: Option<String> = None;
        let mut retract = None;
        let mut flush = |fen: &mut Option<String>, retract: &mut Option<Color>| {
            if let Some(f) = fen.take() {
                if let Ok(pos) = RetroPosition::parse(&f, retract.take()) {
                    out.push(pos);
                }
            }
        };
        for line in text.lines() {
            let line = line.trim();
            if line == "[[position]]" {
                flush(&mut fen, &mut retract);
            } else if let Some(v) = line.strip_prefix("fen = ") {
                fen = Some(v.trim_matches('"').to_owned());
            } else if let Some(v) = line.strip_prefix("retract = ") {
                retract = match v.trim_matches('"') {
                    "w" => Some(Color::White),
                    "b" => Some(Color::Black),
                    _ => None,
                };
            }
        }
        flush(&mut fen, &mut retract);
    }
    out
}

/// The positions of `positions/corpora/*.jsonl` that set up: FENs, boards with a side to move, and
/// Retractor 2's boards for each side that retracts.
fn corpus_positions() -> Vec<RetroPosition> {
    let mut out = Vec::new();
    for name in [
        "published-problems.jsonl",
        "sherlock-legality.jsonl",
        "chass-problems.jsonl",
        "retractor-problems.jsonl",
    ] {
        let path = format!(
            "{}/../../positions/corpora/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        for line in text.lines() {
            let Ok(p) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let mut setups: Vec<(String, Option<Color>)> = Vec::new();
            if let Some(fen) = p["fen"].as_str() {
                setups.push((fen.to_owned(), None));
            } else if let Some(board) = p["board"].as_str() {
                match (p["side_to_move"].as_str(), p["retract"].as_str()) {
                    (Some(side), _) => setups.push((format!("{board} {side} - -"), None)),
                    (None, Some("w")) => setups.push((board.to_owned(), Some(Color::White))),
                    (None, Some("b")) => setups.push((board.to_owned(), Some(Color::Black))),
                    (None, Some(_)) => {
                        setups.push((board.to_owned(), Some(Color::White)));
                        setups.push((board.to_owned(), Some(Color::Black)));
                    }
                    (None, None) => {}
                }
            }
            for (fen, retract) in setups {
                if let Ok(pos) = RetroPosition::parse(&fen, retract) {
                    out.push(pos);
                }
            }
        }
    }
    out
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let mut positions = Vec::new();
    for seed in 0..games {
        let game = random_game(seed, 40 + (seed as usize * 37) % 260);
        positions.extend(game.positions.iter().map(retro_position));
    }
    compare("random games", &positions, 3);
    compare("positions/*.toml", &toml_positions(), 50);
    compare("corpora", &corpus_positions(), 50);
}
