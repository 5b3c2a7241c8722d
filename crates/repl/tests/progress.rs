//! The progress bar of a batch: drawn on stderr when stderr is a terminal, never otherwise.

mod common;

use std::path::{Path, PathBuf};

use common::pty::spawn;

/// A long batch: published positions, repeated to a few thousand lines.
fn long_batch(name: &str) -> PathBuf {
    let fens = [
        "8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -",
        "8/8/3r4/4K3/8/4kqpb/8/8 b - -",
        "r1b1kb1r/pppppppp/2N5/5n2/6N1/2n5/PPPPPPPP/1RBK1B1R w - -",
        "k1K5/8/8/8/8/8/7P/6B1 w - -",
    ];
    let text: String = fens
        .iter()
        .cycle()
        .take(3000)
        .map(|f| format!("{f}\n"))
        .collect();
    let file = std::env::temp_dir().join(format!("retrace-progress-{name}-{}", std::process::id()));
    std::fs::write(&file, text).expect("the batch is written");
    file
}

/// Runs `retrace check - --json < INPUT` on a pty through the shell, with `redirect` appended.
fn batch_on_pty(input: &Path, redirect: &str) -> String {
    let mut command = std::process::Command::new("sh");
    command.arg("-c").arg(format!(
        "exec '{}' check - --json --jobs 2 < '{}' {redirect}",
        env!("CARGO_BIN_EXE_retrace"),
        input.display()
    ));
    let mut s = spawn(command);
    s.exp_eof().expect("the batch ends")
}

#[test]
fn a_batch_shows_its_progress_on_a_terminal() {
    let input = long_batch("shown");
    let out = batch_on_pty(&input, "");
    let _ = std::fs::remove_file(&input);
    assert!(out.contains("lines answered"), "no progress bar drawn");
    assert_eq!(
        out.matches(r#""verdict":"#).count(),
        3000,
        "every line was answered"
    );
}

#[test]
fn a_batch_draws_nothing_when_stderr_is_not_a_terminal() {
    let input = long_batch("hidden");
    let err = input.with_extension("err");
    let out = batch_on_pty(&input, &format!("2> '{}'", err.display()));
    let stderr = std::fs::read_to_string(&err).expect("stderr was written to the file");
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&err);
    assert!(stderr.is_empty(), "stderr got: {stderr}");
    assert!(!out.contains("lines answered"), "a bar on stdout: {out}");
    assert_eq!(out.matches(r#""verdict":"#).count(), 3000);
}
