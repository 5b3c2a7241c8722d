//! Regressions from hostile use (issue 13): each test is an input that once panicked, lost
//! output, grew without bound or answered wrongly.

use std::{
    ffi::OsStr,
    io::Write,
    os::unix::ffi::OsStrExt,
    process::{Command, Output, Stdio},
};

fn retrace_bytes(args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    // The binary may stop reading early (a size cap): a closed pipe is not a failure here.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("the binary finishes")
}

fn retrace(args: &[&str], stdin: &str) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    retrace_bytes(&args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 2 with exactly one line on stderr.
fn assert_one_line_error(out: &Output) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one error line: {err:?}");
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
