//! The proof-game search on every published proof game of
//! positions/corpora/published-problems.jsonl, each problem in a fresh process as a user runs it:
//! how many are found, how many proven unique (a complete search with one game), and the CPU per
//! problem, by length in buckets of 8 plies, for one build or several side by side.
//!
//! `cargo run --release -p retrace-search --example proofgame_bench -- [--cap SECONDS]
//! [--min-plies N] [--max-plies N] [--nodes N] [--build SPEC]... [--baseline RETRACE]`
//!
//! - `--cap`: the CPU seconds each problem may take (1 by default): a process still searching then
//!   is interrupted, and what it found so far counts.
//! - `--min-plies` and `--max-plies`: leave out shorter and longer problems; `--nodes` adds a
//!   node budget per problem.
//! - `--build SPEC` (repeatable; `self` by default): what searches. `self` is this example's own
//!   search (a fresh process of this binary per problem); `self-no-capture-squares` the same
//!   without the distance bound's capture-square term; anything else is the path of a `retrace`
//!   binary, run as `retrace proofgame FEN --plies N --max 2 --json`, so the binary of an older
//!   commit serves as a baseline. `--baseline RETRACE` adds one such build.
//!
//! The builds take turns problem by problem, so that a load on the machine falls on each alike.
//! CPU is the child's user and system time (`getrusage`), which a loaded machine inflates less
//! than wall time. A problem one build finds and a later build misses is flagged `MISSED`.

#[path = "support/cpu.rs"]
mod cpu;
#[path = "../tests/support/published.rs"]
mod published;

use cpu::children_cpu;

use std::{
    io::Write as _,
    process::{Command, Stdio},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use retrace_search::{proof_games, LegalPruner, ProofGameParams};
use serde_json::{json, Value};

/// Games asked for: two tell unique from not.
const MAX_GAMES: usize = 2;

/// The width of a length bucket, in plies.
const BUCKET: u32 = 8;

/// What one build did on one problem.
#[derive(Clone, Debug, Default)]
struct Run {
    found: bool,
    unique: bool,
    published: bool,
    complete: bool,
    nodes: u64,
    cpu: f64,
}

/// Runs `build` on problem `index` in a fresh process, interrupting it after `cap` CPU seconds.
fn run(
    build: &str,
    problem: &published::Published,
    index: usize,
    cap: f64,
    nodes: Option<u64>,
) -> Run {
    let mut command = match build {
        "self" | "self-no-capture-squares" => {
            let mut c = Command::new(std::env::current_exe().expect("the bench's own path"));
            c.args(["--child", &index.to_string(), build]);
            c
        }
        retrace => {
            let mut c = Command::new(retrace);
            c.args(["proofgame", &problem.pos.fen(), "--plies"])
                .arg(problem.plies.to_string())
                .args(["--max", &MAX_GAMES.to_string(), "--json"]);
            c
        }
    };
    if let Some(n) = nodes {
        command.args(["--max-nodes", &n.to_string()]);
    }
    let before = children_cpu();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {build}: {e}"));
    let pid = child.id();
    let mut interrupted = false;
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if !interrupted && running_cpu(pid) >= cap {
            // SIGINT: the search stops and prints what it found.
            // SAFETY: `kill` only sends a signal to our own child, which has not been reaped.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGINT);
            }
            interrupted = true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let output = child.wait_with_output().expect("output");
    let cpu = children_cpu() - before;
    let text = String::from_utf8_lossy(&output.stdout);
    let answer: Value = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or(Value::Null);
    let games: Vec<&str> = answer["solutions"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let complete = answer["complete"].as_bool().unwrap_or(false) && !interrupted;
    Run {
        found: !games.is_empty(),
        unique: complete && games.len() == 1,
        published: games.iter().any(|g| published::moves_of(g) == problem.game),
        complete,
        nodes: answer["nodes"].as_u64().unwrap_or(0),
        cpu,
    }
}

/// The CPU seconds of a running process, from `/proc` (in clock ticks, 10 ms; 0 if unreadable).
fn running_cpu(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // The fields after the command name, which may hold spaces, in parentheses.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
    (ticks(11) + ticks(12)) / 100.0
}

/// The child: searches problem `index` in this fresh process and prints the answer as
/// `retrace proofgame --json` does.
fn child(index: usize, build: &str, nodes: Option<u64>) {
    let problem = &published::load()[index];
    let options = retrace_search::SearchOptions {
        capture_squares: build != "self-no-capture-squares",
    };
    // SIGINT sets the search's cancel flag (through a flag a signal handler may touch, watched
    // by a thread), so that an interrupted child prints what it found, as `retrace` does.
    let cancel = Arc::new(AtomicBool::new(false));
    let handler = on_sigint as extern "C" fn(libc::c_int);
    // SAFETY: the handler only stores into an atomic.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
    let watched = Arc::clone(&cancel);
    std::thread::spawn(move || loop {
        if SIGINT.load(Ordering::Relaxed) {
            watched.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    });
    let params = ProofGameParams {
        plies: problem.plies,
        max_solutions: Some(MAX_GAMES),
        max_nodes: nodes,
        cancel: Some(cancel),
        options,
        ..ProofGameParams::default()
    };
    let found = proof_games(&problem.pos, params, &LegalPruner::new());
    let solutions: Vec<String> = found
        .games
        .iter()
        .map(|line| retrace_search::game_score(&problem.pos, line).expect("a game replays"))
        .collect();
    println!(
        "{}",
        json!({"solutions": solutions, "complete": found.complete, "nodes": found.nodes})
    );
}

/// Set by the child's SIGINT handler.
static SIGINT: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    SIGINT.store(true, Ordering::Relaxed);
}

/// What one build did over one bucket.
#[derive(Default)]
struct Tally {
    problems: usize,
    found: usize,
    unique: usize,
    published: usize,
    cpu: Vec<f64>,
}

impl Tally {
    fn add(&mut self, run: &Run) {
        self.problems += 1;
        self.found += usize::from(run.found);
        self.unique += usize::from(run.unique);
        self.published += usize::from(run.published);
        self.cpu.push(run.cpu);
    }

    fn median(&self) -> f64 {
        let mut cpu = self.cpu.clone();
        cpu.sort_by(f64::total_cmp);
        cpu.get(cpu.len() / 2).copied().unwrap_or(0.0)
    }

    fn mean(&self) -> f64 {
        self.cpu.iter().sum::<f64>() / self.cpu.len().max(1) as f64
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let nodes: Option<u64> = value("--max-nodes")
        .or_else(|| value("--nodes"))
        .and_then(|n| n.parse().ok());
    if let Some(index) = value("--child") {
        let build = args.get(2).map_or("self", String::as_str);
        child(index.parse().expect("a problem index"), build, nodes);
        return;
    }
    let cap: f64 = value("--cap").and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let max_plies: u32 = value("--max-plies")
        .and_then(|a| a.parse().ok())
        .unwrap_or(u32::MAX);
    let min_plies: u32 = value("--min-plies")
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let mut builds: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|(_, a)| *a == "--build" || *a == "--baseline")
        .filter_map(|(i, _)| args.get(i + 1).cloned())
        .collect();
    if builds.is_empty() || !args.iter().any(|a| a == "--build") {
        builds.insert(0, "self".to_owned());
    }
    let problems = published::load();
    let buckets = problems
        .iter()
        .map(|p| p.plies.div_ceil(BUCKET))
        .max()
        .unwrap_or(0) as usize
        + 1;
    let mut tallies: Vec<Vec<Tally>> = builds
        .iter()
        .map(|_| (0..buckets).map(|_| Tally::default()).collect())
        .collect();
    let start = Instant::now();
    println!("cap {cap} CPU s a problem; builds: {}", builds.join(", "));
    for (index, problem) in problems.iter().enumerate() {
        if problem.plies > max_plies || problem.plies < min_plies {
            continue;
        }
        let bucket = problem.plies.max(1).div_ceil(BUCKET) as usize;
        let runs: Vec<Run> = builds
            .iter()
            .map(|b| run(b, problem, index, cap, nodes))
            .collect();
        let mut line = format!("{:<34} {:>3} plies", problem.id, problem.plies);
        for (b, r) in runs.iter().enumerate() {
            line += &format!(
                " | {:<5} {:<7} {:>10} nodes {:>8.3} s",
                if r.found { "found" } else { "-" },
                if r.unique {
                    "unique"
                } else if r.complete && r.found {
                    "several"
                } else if r.complete {
                    "NONE"
                } else {
                    ""
                },
                r.nodes,
                r.cpu
            );
            tallies[b][bucket].add(r);
        }
        if runs.iter().skip(1).any(|r| r.found) && !runs[0].found {
            line += "  MISSED";
        }
        if runs.iter().any(|r| r.complete && !r.found) {
            line += "  CALLED IMPOSSIBLE";
        }
        if problem.unique && runs.iter().any(|r| r.complete && !r.unique && r.found) {
            line += "  NOT UNIQUE, THE SOURCE SAYS UNIQUE";
        }
        println!("{line}");
        std::io::stdout().flush().ok();
    }
    println!("\ntotal {:.1} s", start.elapsed().as_secs_f64());
    for (build, tallies) in builds.iter().zip(&tallies) {
        println!("\n{build}");
        println!("plies   problems  found  unique  published-found  mean CPU s  median CPU s");
        for (b, t) in tallies.iter().enumerate().filter(|(_, t)| t.problems > 0) {
            let (lo, hi) = ((b as u32 - 1) * BUCKET + 1, b as u32 * BUCKET);
            println!(
                "{:<7} {:>8} {:>6} {:>7} {:>16} {:>11.3} {:>13.3}",
                format!("{lo}-{hi}"),
                t.problems,
                t.found,
                t.unique,
                t.published,
                t.mean(),
                t.median()
            );
        }
    }
}
