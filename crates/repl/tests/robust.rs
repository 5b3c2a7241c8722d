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
