//! Running the real `retrace` binary from the integration tests.

// Each test file uses its own part of this module.
#![allow(dead_code)]

pub mod pty;

use std::{
    ffi::OsStr,
    io::Write,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

/// Runs the binary with `args` and `stdin` (written from a thread, so a large input cannot
/// deadlock against a full output pipe; a binary that stops reading early is not a failure).
pub fn run<A: AsRef<OsStr>>(args: &[A], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("the binary finishes");
    let _ = writer.join();
    out
}

/// Runs `args` on `stdin`, sends SIGINT after `delay`, and gives the output and how long the
/// process took to end after the signal.
pub fn interrupt_after(args: &[&str], stdin: Stdio, delay: Duration) -> (Output, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    std::thread::sleep(delay);
    let sent = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "the process was still running");
    let out = child.wait_with_output().expect("the binary finishes");
    (out, sent.elapsed())
}

/// Whether a run failed as bad input does: exit status 2, and on stderr either the program's one
/// line (`retrace: ...`) or clap's own full rendering of a command-line error (`error: ...`, the
/// usage, a "did you mean"), which the contract leaves to clap.
pub fn is_bad_input(out: &Output) -> bool {
    let err = String::from_utf8_lossy(&out.stderr);
    out.status.code() == Some(2)
        && if err.starts_with("error: ") {
            err.contains("For more information, try '--help'.")
        } else {
            err.lines().count() == 1 && err.starts_with("retrace: ")
        }
}

/// The output with every timing written `<ms>`: the number before ` ms` in text, and the value
/// of `"elapsed_ms"` in JSON.
pub fn mask_timings(text: &str) -> String {
    let is_number = |c: char| c.is_ascii_digit() || c == '.';
    let mut masked = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let text_ms = rest.find(" ms").map(|at| {
            let start = rest[..at].trim_end_matches(is_number).len();
            (start, at)
        });
        let json_ms = rest.find("\"elapsed_ms\":").map(|at| {
            let start = at + "\"elapsed_ms\":".len();
            let tail = &rest[start..];
            let len = tail.len()
                - tail
                    .trim_start_matches(|c: char| is_number(c) || "eE+-".contains(c))
                    .len();
            (start, start + len)
        });
        let next = match (text_ms, json_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some((start, end)) = next else {
            masked.push_str(rest);
            return masked;
        };
        masked.push_str(&rest[..start]);
        let value = &rest[start..end];
        if value.is_empty() {
            masked.push_str(&rest[start..end + 1]);
            rest = &rest[end + 1..];
        } else {
            masked.push_str(if rest[end..].starts_with(" ms") {
                "<ms>"
            } else {
                "\"<ms>\""
            });
            rest = &rest[end..];
        }
    }
}
