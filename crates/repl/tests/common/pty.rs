//! Driving the real `retrace` binary on a pseudo-terminal (rexpect).

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use rexpect::{reader::Options, session::spawn_with_options, session::PtySession};

/// How long one expectation may wait.
pub const TIMEOUT_MS: u64 = 20_000;

/// A fresh history file for one test.
pub fn history_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrace-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("history")
}

/// Spawns `command` on a pty, plain (no colour), with the ANSI escapes stripped from its output.
pub fn spawn(mut command: Command) -> PtySession {
    command.env("TERM", "xterm").env("NO_COLOR", "1");
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    spawn_with_options(command, options).expect("the binary starts on a pty")
}

/// Starts the REPL with its own history file and waits for the first prompt.
pub fn start(history: &PathBuf) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retrace"));
    command.env("RETRACE_HISTORY", history);
    let mut session = spawn(command);
    session.exp_string("Type help").expect("the greeting");
    session
        .exp_string("Black retracts [0]> ")
        .expect("the first prompt");
    session
}

/// Types `keys` without Enter; rexpect buffers until a newline otherwise.
pub fn type_keys(s: &mut PtySession, keys: &str) {
    s.send(keys).expect("send");
    s.flush().expect("flush");
}

/// Quits the REPL, checks that it ends, and removes the test's history file.
pub fn quit(mut s: PtySession, history: &Path) {
    s.send_line("quit").expect("quit");
    s.exp_eof().expect("the REPL ends");
    if let Some(dir) = history.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
