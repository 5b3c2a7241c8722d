//! Hostile input, generated from a fixed seed: thousands of malformed FENs, command lines, batch
//! lines and REPL lines, against the contract (issue 13). Every run must end with exit status 0,
//! 2 or 130, every error must be one line, a batch must answer every line in order, nothing may
//! panic, and each run must end in bounded time.
//!
//! Few processes are spawned: a batch or a script carries hundreds of inputs each.

mod common;

use std::{
    ffi::OsString,
    os::unix::ffi::OsStringExt,
    process::Output,
    time::{Duration, Instant},
};

use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use retrace_testkit::positions_along;
use serde_json::Value;

/// Longest a single process may take: every search below is bounded by nodes or depth.
const MAX_RUN: Duration = Duration::from_secs(30);

fn run(args: &[OsString], stdin: &[u8]) -> Output {
    let start = Instant::now();
    let out = common::run(args, stdin);
    assert!(
        start.elapsed() < MAX_RUN,
        "{args:?} took {:?}",
        start.elapsed()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 2 | 130)),
        "{args:?} exited with {:?}: {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    out
}

/// The generator, from `seed` or from `RETRACE_HOSTILE_SEED` when set (to try other inputs by hand:
/// CI keeps the fixed seeds).
fn rng(seed: u64) -> SmallRng {
    let seed = std::env::var("RETRACE_HOSTILE_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(seed, |s| s ^ seed);
    SmallRng::seed_from_u64(seed)
}

/// Real positions from biased random games, as FENs.
fn seed_fens() -> Vec<String> {
    let mut fens: Vec<String> = (0..12)
        .flat_map(|seed| positions_along(seed, 120))
        .map(|pos| pos.fen())
        .collect();
    fens.extend(
        [
            "4k3/8/8/8/8/8/8/4K3 w - -",
            "8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        ]
        .map(String::from),
    );
    fens
}

const PIECES: &[u8] = b"KQRBNPkqrbnp12345678/ -wb?x+=#0123456789_\t\r";
const ODD: &[&str] = &[
    "\u{0}",
    "\u{1b}[2J",
    "\u{202e}",
    "\u{2654}",
    "\u{ff11}",
    "9",
    "/8",
    " 0 4294967295",
    " 99999999999999999999 2147483650",
    " w w w w w w w",
    " - - - - -",
    "KQkqKQkq",
    "?",
];

/// `text` with one to three random mutations; may be empty, long (up to 100 KiB: the kernel
/// refuses a single argument beyond 128 KiB), or not UTF-8.
fn mutate(rng: &mut SmallRng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..=3) {
        let at = rng.gen_range(0..=bytes.len());
        match rng.gen_range(0..11) {
            0 => bytes.insert(at, rng.gen()),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            2 if at < bytes.len() => bytes[at] = *PIECES.choose(rng).expect("pieces"),
            3 => bytes.truncate(at),
            4 => {
                let odd = ODD.choose(rng).expect("odd");
                bytes.splice(at..at, odd.bytes());
            }
            5 => bytes.clear(),
            6 => bytes = bytes.repeat(rng.gen_range(2..300)),
            7 => bytes.extend_from_slice(b"   "),
            8 => {
                bytes.splice(at..at, [0xff, 0xfe, 0xc3]);
            }
            _ => {}
        }
    }
    // Past the 64 KiB a line may have, but well short of the 16 MiB that ends the input.
    bytes.truncate(100 * 1024);
    bytes
}

/// A batch line: a FEN, good or mutated, never with a newline in it.
fn batch_line(rng: &mut SmallRng, fens: &[String]) -> Vec<u8> {
    let fen = fens.choose(rng).expect("fens");
    let mut line = if rng.gen_bool(0.3) {
        fen.as_bytes().to_vec()
    } else {
        mutate(rng, fen)
    };
    line.retain(|&b| b != b'\n');
    line
}

/// The batch subcommands, each bounded so that any real position answers quickly.
const BATCHES: &[&[&str]] = &[
    &["check", "-", "--json"],
    &["list", "-", "--json"],
    &["perft", "-", "1", "--json"],
    &[
        "solve",
        "-",
        "--depth",
        "2",
        "--max",
        "5",
        "--max-nodes",
        "3000",
        "--json",
    ],
    &[
        "cage",
        "verify",
        "-",
        "--depth",
        "2",
        "--max-nodes",
        "2000",
        "--json",
    ],
    &["check", "-", "--prove", "2", "--json"],
    &[
        "proofgame",
        "-",
        "--plies",
        "4",
        "--max-nodes",
        "3000",
        "--json",
    ],
];

#[test]
fn batches_answer_every_line_in_order() {
    let mut rng = rng(13);
    let fens = seed_fens();
    let mut tried = 0;
    for args in BATCHES {
        let lines: Vec<Vec<u8>> = (0..600).map(|_| batch_line(&mut rng, &fens)).collect();
        // Every line ends with a newline, so that an empty last line is a line too.
        let stdin: Vec<u8> = lines
            .iter()
            .flat_map(|l| [&l[..], b"\n"].concat())
            .collect();
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let out = run(&args, &stdin);
        let stdout = String::from_utf8(out.stdout).expect("JSON output is UTF-8");
        let answers: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {e}: {l}")))
            .collect();
        assert_eq!(answers.len(), lines.len(), "{args:?}: one answer per line");
        // The error lines on stdout and on stderr name the same input lines, in order.
        let on_stdout: Vec<usize> = (1..=answers.len())
            .filter(|&k| answers[k - 1].get("error").is_some())
            .collect();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let on_stderr: Vec<usize> = stderr
            .lines()
            .map(|l| {
                let rest = l
                    .strip_prefix("retrace: line ")
                    .unwrap_or_else(|| panic!("{l}"));
                let (k, _) = rest.split_once(':').unwrap_or_else(|| panic!("{l}"));
                k.parse().unwrap_or_else(|_| panic!("{l}"))
            })
            .collect();
        assert_eq!(on_stdout, on_stderr, "{args:?}");
        assert!(
            stderr.lines().all(|l| l.len() < 400),
            "{args:?}: short errors"
        );
        let expected = if on_stdout.is_empty() { 0 } else { 2 };
        assert_eq!(out.status.code(), Some(expected), "{args:?}");
        tried += lines.len();
    }
    eprintln!("{tried} batch lines");
}

const COMMANDS: &[&str] = &[
    "fen",
    "board",
    "pieces",
    "show",
    "flip",
    "list",
    "retract",
    "paste",
    "undo",
    "redo",
    "start",
    "back",
    "history",
    "check",
    "solve",
    "prove",
    "solutions",
    "step",
    "mark",
    "export",
    "cage",
    "help",
    "continue",
    "",
    "#",
];

/// A REPL line: a command with arguments drawn from FENs, numbers and noise.
fn repl_line(rng: &mut SmallRng, fens: &[String]) -> Vec<u8> {
    let command = *COMMANDS.choose(rng).expect("commands");
    let fen = fens.choose(rng).expect("fens");
    let number = [
        "1",
        "2",
        "3",
        "0",
        "26",
        "999",
        "-1",
        "18446744073709551616",
    ]
    .choose(rng)
    .expect("numbers")
    .to_string();
    let args = match command {
        "fen" => fen.clone(),
        "board" => format!("{} w", fen.split(' ').next().unwrap_or("")),
        "pieces" => "white Kh1 Qf8 e2 black Kf6 retract w".to_owned(),
        // Searches kept small: the point is the parser and the session, not the search.
        "solve" => format!("{} max 3", rng.gen_range(0..=2)),
        "prove" => rng.gen_range(0..=2).to_string(),
        "proofgame" => [
            "1",
            "1.5",
            "2",
            "plies 3",
            "0",
            "x",
            "shortest longest 1.5",
            "shortest x",
        ]
        .choose(rng)
        .expect("length")
        .to_string(),
        "cage" => [
            "verify all depth 2",
            "list",
            "forget 1",
            "verify a1 zone a1,b2 depth 1",
        ]
        .choose(rng)
        .expect("cage")
        .to_string(),
        // Only to standard output: a fuzzed file name must not write files.
        "export" => ["fen", "pgn"].choose(rng).expect("export").to_string(),
        "mark" => format!("frozen {}", ["e1", "a8", "z9"].choose(rng).expect("square")),
        "help" => COMMANDS.choose(rng).expect("commands").to_string(),
        _ => number,
    };
    let line = format!("{command} {args}");
    let mut bytes = if rng.gen_bool(0.5) {
        line.into_bytes()
    } else {
        mutate(rng, &line)
    };
    bytes.retain(|&b| b != b'\n');
    // A mutation must not turn a line into a file write or a quit.
    let text = String::from_utf8_lossy(&bytes);
    let first = text.split_whitespace().next().unwrap_or("");
    if first == "export" && text.split_whitespace().count() > 2
        || matches!(first, "quit" | "exit")
        || (first == "cage" && text.contains("export"))
        || (first == "cage" && text.contains("import"))
        || (first == "proofgame" && text.contains("pgn"))
    {
        return b"show".to_vec();
    }
    bytes
}

#[test]
fn scripts_report_each_bad_line_on_one_line() {
    let mut rng = rng(1300);
    let fens = seed_fens();
    let mut tried = 0;
    for _ in 0..5 {
        let lines: Vec<Vec<u8>> = (0..500).map(|_| repl_line(&mut rng, &fens)).collect();
        let out = run(&[OsString::from("repl")], &lines.join(&b'\n'));
        assert_eq!(out.status.code(), Some(0));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut last = 0;
        for l in stderr.lines() {
            let rest = l
                .strip_prefix("error: line ")
                .unwrap_or_else(|| panic!("{l}"));
            let (k, _) = rest.split_once(':').unwrap_or_else(|| panic!("{l}"));
            let k: usize = k.parse().unwrap_or_else(|_| panic!("{l}"));
            assert!(k > last && k <= lines.len(), "error lines in order: {l}");
            last = k;
            assert!(l.len() < 400, "a short error: {l}");
        }
        tried += lines.len();
    }
    eprintln!("{tried} REPL lines");
}

/// A random command line over every subcommand, with good, bad and hostile values.
fn command_line(rng: &mut SmallRng, fens: &[String]) -> Vec<OsString> {
    let fen = fens.choose(rng).expect("fens");
    let hostile = |rng: &mut SmallRng| {
        let mut bytes = mutate(rng, fen);
        bytes.retain(|&b| b != 0);
        OsString::from_vec(bytes)
    };
    let mut args: Vec<OsString> = match rng.gen_range(0..9) {
        0 => vec!["check".into()],
        1 => vec!["list".into()],
        2 => ["perft", "--max-nodes", "20000"]
            .map(OsString::from)
            .to_vec(),
        3 => vec!["solve".into(), "--max-nodes".into(), "3000".into()],
        4 => ["cage", "verify", "--depth", "2", "--max-nodes", "2000"]
            .map(OsString::from)
            .to_vec(),
        5 => vec!["repl".into(), "--script".into(), hostile(rng)],
        6 => ["proofgame", "--moves", "2", "--max-nodes", "3000"]
            .map(OsString::from)
            .to_vec(),
        7 => {
            let kind = ["proca", "hoeg", "help", "x"].choose(rng).expect("kind");
            let goal = ["#1", "=1", "s#1", "#0", "mate"].choose(rng).expect("goal");
            [
                "retractor",
                "--kind",
                kind,
                "--retract",
                "1",
                "--then",
                goal,
            ]
            .map(OsString::from)
            .into_iter()
            .chain(["--max-nodes", "3000"].map(OsString::from))
            .collect()
        }
        _ => vec![hostile(rng)],
    };
    args.push(if rng.gen_bool(0.5) {
        fen.into()
    } else {
        hostile(rng)
    });
    let options: &[&[&str]] = &[
        &["--json"],
        &["--jsonl"],
        &["--retract", "w"],
        &["--retract", "x"],
        &["--frozen", "e1,a8"],
        &["--frozen", "z9,,"],
        &["--promoted", "d8"],
        &["--moves", "1.5"],
        &["--plies", "3"],
        &["--plies", "x"],
        &["--kind", "proca"],
        &["--then", "#1"],
        &["--depth", "1"],
        &["--depth", "2"],
        &["--depth", "65"],
        &["--depth", "-1"],
        &["--extra", "99"],
        &["--max", "2"],
        &["--max", "0"],
        &["--no-uncapture", "both"],
        &["--no-uncapture", "nobody"],
        &["--exact-fen"],
        &["--game-clocks"],
        &["--prove", "2"],
        &["--prove", "x"],
        &["--zone", "a1,h8"],
        &["--cages", "/dev/null"],
        &["--cages", "/nonexistent"],
        &["--max-nodes", "10"],
        &["--strict"],
        &["1"],
        &["2"],
        &["13"],
        &["--"],
        &["-"],
        &["--help-me"],
    ];
    for _ in 0..rng.gen_range(0..4) {
        args.extend(
            options
                .choose(rng)
                .expect("options")
                .iter()
                .map(OsString::from),
        );
    }
    if rng.gen_bool(0.2) {
        args.push(hostile(rng));
    }
    args
}

#[test]
fn command_lines_end_in_0_2_or_130_with_one_error_line() {
    let mut rng = rng(130);
    let fens = seed_fens();
    let runs = 400;
    for _ in 0..runs {
        let args = command_line(&mut rng, &fens);
        // Standard input is a valid FEN, for the batch forms.
        let out = run(&args, b"4k3/8/8/8/8/8/8/4K3 w - -\n");
        if out.status.code() == Some(2) && !args.iter().any(|a| a == "-") {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(common::is_bad_input(&out), "{args:?}: {err}");
        }
    }
    eprintln!("{runs} command lines");
}

/// Runs the binary with `args`, its standard output going to `stdout` and its standard error to
/// `stderr` (files or devices), and gives its status and what it wrote where it could be read.
fn run_into(
    args: &[&str],
    stdout: std::process::Stdio,
    stderr: std::process::Stdio,
) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("the binary runs")
}

fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

const KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A full disk under the answer: one line on stderr and exit 1, never a panic and never exit 0,
/// for answers, errors, JSON, help and version alike.
#[test]
fn a_full_disk_is_one_line_and_exit_1() {
    use std::process::Stdio;
    let cases: &[&[&str]] = &[
        &["check", KINGS, "--json"],
        &["check", KINGS],
        &["list", KINGS, "--json"],
        &["cage", "verify", "8/8/8/8/8/8/PPkPP3/KR1b4", "--json"],
        &[
            "retractor",
            "3k4/8/8/8/8/8/8/3K4 b - -",
            "--kind",
            "proca",
            "--retract",
            "1",
            "--then",
            "#1",
            "--json",
        ],
        &["check", "not a fen", "--json"],
        &["check", "--bogus", "--json"],
        &["--help"],
        &["--version"],
        &["completions", "bash"],
    ];
    for args in cases {
        let out = run_into(args, dev_full().into(), Stdio::piped());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
    // A batch and a script too.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(["list", "-", "--json", "--jobs", "2"])
        .stdin(Stdio::piped())
        .stdout(dev_full())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = std::io::Write::write_all(&mut stdin, format!("{KINGS}\n").repeat(50).as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("it ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Standard error on a full disk: the error cannot be told, but nothing panics and the status
/// still says what happened.
#[test]
fn a_full_stderr_never_panics() {
    use std::process::Stdio;
    let out = run_into(&["check", "bad"], Stdio::null(), dev_full().into());
    assert_eq!(out.status.code(), Some(2));
    let out = run_into(&["check", "--bogus"], Stdio::null(), dev_full().into());
    assert_eq!(out.status.code(), Some(2));
    let out = run_into(
        &["check", KINGS, "--json"],
        dev_full().into(),
        dev_full().into(),
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A reader that went away (`| head`, or here a pipe closed before anything was written): the
/// run ends quietly with status 141, as a shell reports a program ended by SIGPIPE.
#[test]
fn a_closed_pipe_ends_quietly_with_141() {
    use std::process::Stdio;
    let cases: &[&[&str]] = &[
        &["check", KINGS, "--json"],
        &["check", "not a fen", "--json"],
        &["list", KINGS],
        &["--help"],
        &["solve", KINGS, "--depth", "2", "--jsonl"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = run_into(args, writer.into(), Stdio::piped());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

/// A save or an export killed in the middle (here by a file size limit of one block, whose
/// signal ends the process as it writes) leaves the old file whole.
#[test]
fn a_kill_during_a_save_leaves_the_old_file_whole() {
    let dir = std::env::temp_dir().join(format!("retrace-kill-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    // A long line of retractions: its session and its PGN are far over one block.
    let long_line = format!("fen {KINGS}\n{}", "retract 1\n".repeat(80));
    let targets = [
        ("session.txt", "save"),
        ("game.pgn", "export pgn"),
        ("starts.fen", "export solutions fen"),
    ];
    for (name, command) in targets {
        let file = dir.join(name);
        // The old file, saved in full by the same command on a short line.
        let old = common::run(
            &["repl"],
            format!("fen {KINGS}\nsolve 1 max 2\n{command} {}\n", file.display()).as_bytes(),
        );
        assert!(
            old.status.success(),
            "{}",
            String::from_utf8_lossy(&old.stderr)
        );
        let old_text = std::fs::read_to_string(&file).expect("the old file");
        let script = dir.join("script.txt");
        std::fs::write(
            &script,
            format!(
                "{long_line}solve 2 nodes 20000\n{command} {}\n",
                file.display()
            ),
        )
        .expect("the script");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -f 1; exec '{}' repl --script '{}' > /dev/null",
                env!("CARGO_BIN_EXE_retrace"),
                script.display()
            ))
            .output()
            .expect("sh runs");
        assert!(
            !out.status.success(),
            "{command}: the limit stops the write"
        );
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            old_text,
            "{command}"
        );
    }
    // The session saved in full loads.
    let session = dir.join("session.txt");
    let out = common::run(
        &["repl"],
        format!("load {}\n", session.display()).as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every kind of file write to a full disk fails with one line and leaves the session going; the
/// script then ends with exit status 1 (with --strict too, at the first: a write that fails is
/// not bad input).
#[test]
fn writes_to_a_full_disk_fail_with_one_line_and_exit_1() {
    let script = format!(
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\nsolve 2\nsave /dev/full\nexport fen /dev/full\n\
         export pgn /dev/full\nexport solutions pgn /dev/full\ncage export /dev/full\n\
         fen {INITIAL}\nproofgame 0 pgn /dev/full\nsolutions\n"
    );
    for strict in [false, true] {
        let mut args = vec!["repl"];
        if strict {
            args.push("--strict");
        }
        let out = common::run(&args, script.as_bytes());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "strict {strict}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let failed = err.matches("cannot write /dev/full").count();
        assert_eq!(failed, if strict { 1 } else { 6 }, "{err}");
        if !strict {
            // The game found is kept though its file could not be written.
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("\n1 solution\n"), "{text}");
        }
    }
    let out = run_into(
        &[
            "proofgame",
            INITIAL,
            "--plies",
            "0",
            "--pgn",
            "/dev/full",
            "--json",
        ],
        std::process::Stdio::piped(),
        std::process::Stdio::piped(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let docs = String::from_utf8_lossy(&out.stdout);
    assert_eq!(docs.lines().count(), 1, "one JSON document: {docs}");
}
