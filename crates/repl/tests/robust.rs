//! Regressions from hostile use (issue 13): each test is an input that once panicked, lost
//! output, grew without bound or answered wrongly.

mod common;

use std::{
    ffi::OsStr,
    io::Write,
    os::unix::ffi::OsStrExt,
    process::{Command, Output, Stdio},
};

use common::interrupt_after;

fn retrace_bytes(args: &[&OsStr], stdin: &[u8]) -> Output {
    common::run(args, stdin)
}

fn retrace(args: &[&str], stdin: &str) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    retrace_bytes(&args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 2 with exactly one line on stderr, or clap's full rendering of a command-line error.
fn assert_one_line_error(out: &Output) {
    let err = text(&out.stderr);
    assert!(common::is_bad_input(out), "stderr: {err}");
}

#[test]
fn an_argument_that_is_not_utf8_is_bad_input_not_a_panic() {
    let out = retrace_bytes(&[OsStr::new("check"), OsStr::from_bytes(b"\xff")], b"");
    assert_one_line_error(&out);
    let out = retrace_bytes(
        &[
            OsStr::new("solve"),
            OsStr::new("4k3/8/8/8/8/8/8/4K3 w - -"),
            OsStr::new("--depth"),
            OsStr::from_bytes(b"1\xfe"),
        ],
        b"",
    );
    assert_one_line_error(&out);
}

#[test]
fn a_script_whose_name_is_not_utf8_runs() {
    let dir = std::env::temp_dir().join(format!("retrace-robust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let name = dir.join(OsStr::from_bytes(b"script-\xff.txt"));
    std::fs::write(&name, "fen 4k3/8/8/8/8/8/8/4K3 w - -\n").expect("script written");
    let out = retrace_bytes(
        &[OsStr::new("repl"), OsStr::new("--script"), name.as_os_str()],
        b"",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("FEN 4k3/8/8/8/8/8/8/4K3 w - -"));
}

/// Each command's output, in order: `check` (errors) and `show`s of the step taken.
fn repl_script(script: &str) -> Output {
    retrace(&["repl"], script)
}

#[test]
fn solutions_after_undo_and_another_retraction_are_forgotten() {
    let out = repl_script(
        "fen 4k3/8/8/8/8/8/8/4K3 w - -\nretract 1\nretract 1\nretract 1\nsolve 1 max 2\n\
         undo\nundo\nundo\nretract 2\nsolutions\nstep 1\n",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // Both commands refer to a solve whose position is no longer on the line.
    assert_eq!(err.matches("no solve yet on this line").count(), 2, "{err}");
}

#[test]
fn step_after_a_different_line_never_adds_units() {
    // The solve stands at step 1; after undo and another retraction that step is a different
    // position, so stepping into the old solutions must not replay them from there.
    let out = repl_script(
        "fen 4k3/8/8/8/8/8/8/1N2K3 b - -\nretract 1\nsolve 2 max 30\nundo\nretract 2\nstep 1\n",
    );
    let err = text(&out.stderr);
    assert!(err.contains("no solve yet on this line"), "{err}");
    // Solutions still stand while the line through their position is kept.
    let out = repl_script(
        "fen 4k3/8/8/8/8/8/8/1N2K3 b - -\nretract 1\nsolve 2 max 3\nundo\nredo\nstep 1\n",
    );
    assert_eq!(text(&out.stderr), "");
    assert!(text(&out.stdout).contains("solution 1"));
}

const KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - -";

#[test]
fn a_batch_line_that_is_not_utf8_is_one_error_and_the_batch_goes_on() {
    let input = format!("{KINGS}\n\u{0}\n").replace('\u{0}', "8/8/8/8/8/8/8/8 w \u{fffd}");
    let mut bytes = input.into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend_from_slice(format!("{KINGS}\n").as_bytes());
    let out = retrace_bytes(
        &[OsStr::new("check"), OsStr::new("-"), OsStr::new("--json")],
        &bytes,
    );
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 4, "one answer per input line: {lines:?}");
    assert!(lines[1]["error"].is_string() && lines[2]["error"].is_string());
    assert_eq!(lines[3]["verdict"], "no_contradiction");
    let err = text(&out.stderr);
    assert!(err.contains("line 3: the line is not UTF-8 text"), "{err}");
}

#[test]
fn a_script_line_that_is_not_utf8_is_one_error_and_the_script_goes_on() {
    let out = retrace_bytes(
        &[OsStr::new("repl")],
        b"fen 4k3/8/8/8/8/8/8/4K3 w - -\n\xff\nfen 4k3/8/8/8/8/8/8/3K4 w - -\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "error: line 2: the line is not UTF-8 text\n"
    );
    assert!(text(&out.stdout).contains("FEN 4k3/8/8/8/8/8/8/3K4 w - -"));
    let strict = retrace_bytes(
        &[OsStr::new("repl"), OsStr::new("--strict")],
        b"\xff\nshow\n",
    );
    assert_one_line_error(&strict);
    assert_eq!(text(&strict.stdout), "");
}

#[test]
fn endless_input_is_refused_with_bounded_memory() {
    for args in [
        &["check", "-"][..],
        &["repl", "--script", "/dev/zero"],
        &["solve", KINGS, "--depth", "1", "--cages", "/dev/zero"],
        &["repl"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_retrace"))
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .output()
            .expect("runs");
        assert_one_line_error(&out);
    }
}

#[test]
fn a_script_that_is_a_directory_is_bad_input() {
    let out = retrace(&["repl", "--script", "/"], "");
    assert_one_line_error(&out);
}

#[test]
fn blank_batch_lines_keep_output_line_k_for_input_line_k() {
    let out = retrace(
        &["list", "-", "--json"],
        &format!("{KINGS}\n\n   \n{KINGS}\n"),
    );
    let answers: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("utf8")
        .lines()
        .collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert!(answers[1].contains("\"error\"") && answers[2].contains("\"error\""));
    assert_eq!(answers[0], answers[3]);
}

#[test]
fn batch_errors_do_not_echo_raw_input() {
    let huge = "x".repeat(1 << 20);
    let out = retrace(&["check", "-"], &format!("bad\r\u{1b}[2J\n{huge}\n"));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 2, "one line per bad input line");
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "{err:?}");
    assert!(err.len() < 1000, "{} bytes of errors", err.len());
}

fn solve_json(args: &[&str]) -> serde_json::Value {
    let out = retrace(args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn huge_clocks_are_read_exactly() {
    // 2147483650 moves are 4294967298 plies: far more than 2, so no proof game is asked for and
    // the answer is the plain one (the u32 once wrapped to 0 plies: "0 solutions, complete").
    let huge = "4k3/8/8/8/8/8/8/4K3 w - - ? 2147483650";
    let plain = solve_json(&["solve", KINGS, "--depth", "2", "--json"]);
    let clocks = solve_json(&["solve", huge, "--depth", "2", "--game-clocks", "--json"]);
    assert_eq!(clocks["complete"], true);
    assert!(!plain["solutions"].as_array().expect("array").is_empty());
    assert_same_solutions(&clocks, &plain);
    // The largest halfmove clock: every retraction is quiet, so no uncapture.
    let quiet = "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 2147483650";
    let clocks = solve_json(&["solve", quiet, "--depth", "2", "--game-clocks", "--json"]);
    let no_uncapture = solve_json(&[
        "solve",
        KINGS,
        "--depth",
        "2",
        "--no-uncapture",
        "both",
        "--json",
    ]);
    assert_same_solutions(&clocks, &no_uncapture);
}

fn assert_same_solutions(a: &serde_json::Value, b: &serde_json::Value) {
    let count = |v: &serde_json::Value| v["solutions"].as_array().map_or(0, Vec::len);
    assert!(
        a["solutions"] == b["solutions"],
        "{} solutions against {}",
        count(a),
        count(b)
    );
}

#[test]
fn solve_keeps_the_first_solutions_and_counts_the_rest() {
    let all = solve_json(&["solve", KINGS, "--depth", "2", "--json"]);
    let count = all["count"].as_u64().expect("count");
    assert!(count > 1000, "{count} solutions: enough to cut");
    assert_eq!(all["solutions"].as_array().map(Vec::len), Some(1000));
    assert_eq!(all["complete"], true);
    let out = retrace(&["solve", KINGS, "--depth", "2", "--jsonl"], "");
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let (summary, streamed) = lines.split_last().expect("a summary line");
    assert_eq!(streamed.len() as u64, count, "every solution streamed");
    assert_eq!(summary["count"], count);
    assert_eq!(summary["complete"], true);
    for (kept, line) in all["solutions"]
        .as_array()
        .expect("array")
        .iter()
        .zip(streamed)
    {
        assert_eq!(&line["solution"], kept, "the same order");
    }
}

/// Generous against a loaded machine; the report measures the real latency.
const PROMPT: std::time::Duration = std::time::Duration::from_secs(2);

#[test]
fn ctrl_c_stops_a_streamed_solve_with_its_partial_answer() {
    let delay = std::time::Duration::from_millis(400);
    let args = ["solve", KINGS, "--depth", "6", "--jsonl"];
    let (out, latency) = interrupt_after(&args, Stdio::null(), delay);
    assert_eq!(out.status.code(), Some(130));
    assert!(latency < PROMPT, "{latency:?}");
    let stdout = text(&out.stdout);
    let summary: serde_json::Value =
        serde_json::from_str(stdout.lines().last().expect("a summary")).expect("JSON");
    assert_eq!(summary["complete"], false);
    assert_eq!(
        summary["count"].as_u64(),
        Some(stdout.lines().count() as u64 - 1)
    );
}

const KNIGHTS: &str = "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2";

#[test]
fn perft_keeps_to_its_node_budget() {
    let out = retrace(
        &["perft", KNIGHTS, "5", "--max-nodes", "1000", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["complete"], false);
    assert!(doc["expanded"].as_u64().is_some_and(|n| n <= 1001), "{doc}");
    let small = retrace(
        &["perft", KNIGHTS, "2", "--max-nodes", "1000", "--json"],
        "",
    );
    let doc: serde_json::Value = serde_json::from_slice(&small.stdout).expect("JSON");
    assert_eq!(doc["complete"], true);
}

#[test]
fn ctrl_c_stops_perft_with_its_partial_count() {
    let delay = std::time::Duration::from_millis(300);
    let (out, latency) = interrupt_after(&["perft", KNIGHTS, "9", "--json"], Stdio::null(), delay);
    assert_eq!(out.status.code(), Some(130));
    assert!(latency < PROMPT, "{latency:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["complete"], false);
}

#[test]
fn ctrl_c_stops_a_batch_after_a_whole_line() {
    let dir = std::env::temp_dir().join(format!("retrace-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("many.txt");
    std::fs::write(&input, format!("{KNIGHTS}\n").repeat(200_000)).expect("written");
    let stdin = std::fs::File::open(&input).expect("opens");
    let delay = std::time::Duration::from_millis(300);
    let (out, latency) = interrupt_after(&["list", "-", "--json"], stdin.into(), delay);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(130));
    assert!(latency < PROMPT, "{latency:?}");
    let answered = text(&out.stdout).lines().count();
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("interrupted after line {answered}:")),
        "{answered} answers: {err}"
    );
}

#[test]
fn ctrl_c_ends_a_script_after_the_command_it_stops() {
    let dir = std::env::temp_dir().join(format!("retrace-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("long.txt");
    std::fs::write(&script, format!("fen {KINGS}\nsolve 7\nshow\n")).expect("written");
    let args = ["repl", "--script", script.to_str().expect("utf8")];
    let delay = std::time::Duration::from_millis(400);
    let (out, latency) = interrupt_after(&args, Stdio::null(), delay);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(130));
    assert!(latency < PROMPT, "{latency:?}");
    assert!(text(&out.stdout).contains("the search was cut short"));
    assert!(text(&out.stderr).contains("interrupted at line 2"));
}

#[test]
fn ctrl_c_ends_work_that_does_not_look_at_it() {
    // A batch blocked reading a pipe that stays open never polls the interrupt flag: the grace
    // period ends it.
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    writer
        .write_all(format!("{KINGS}\n").as_bytes())
        .expect("written");
    let delay = std::time::Duration::from_millis(300);
    let (out, latency) = interrupt_after(&["check", "-", "--json"], reader.into(), delay);
    drop(writer);
    assert_eq!(out.status.code(), Some(130));
    assert!(latency < PROMPT, "{latency:?}");
    assert_eq!(text(&out.stdout).lines().count(), 1, "the line answered");
    assert!(text(&out.stderr).contains("interrupted"));
}

#[test]
fn the_repl_solve_takes_a_node_budget() {
    let out = repl_script(&format!(
        "fen {KINGS}\nsolve 3 nodes 100\nsolve 3 nodes x\n"
    ));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("so far: the search was cut short"),
        "{stdout}"
    );
    assert_eq!(
        text(&out.stderr),
        "error: line 3: nodes 'x' is not a number\n"
    );
}

#[test]
fn prove_takes_a_node_budget_and_then_claims_nothing() {
    let fen = "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2";
    let out = retrace(
        &["check", fen, "--prove", "6", "--max-nodes", "1", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["verdict"], "no_contradiction");
    assert_eq!(doc["retraction"]["complete"], false);
    let out = repl_script(&format!("fen {fen}\nprove 6 nodes 1\nprove 6 nodes\n"));
    assert!(text(&out.stdout).contains("the search was stopped"));
    assert!(text(&out.stderr).starts_with("error: line 3: usage: prove N [nodes K]"));
}
