//! The interactive retractor on a real pseudo-terminal: completion, Ctrl-C, history.

use std::{path::PathBuf, process::Command, thread, time::Duration};

use rexpect::{reader::Options, session::spawn_with_options, session::PtySession};

const TIMEOUT_MS: u64 = 20_000;

/// A fresh history file for one test.
fn history_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrace-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("history")
}

fn start(history: &PathBuf) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retrace"));
    command
        .env("RETRACE_HISTORY", history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    let mut session = spawn_with_options(command, options).expect("the REPL starts on a pty");
    session.exp_string("Type help").expect("the greeting");
    session
        .exp_string("Black retracts [0]> ")
        .expect("the first prompt");
    session
}

/// Types `keys` without Enter; rexpect buffers until a newline otherwise.
fn type_keys(s: &mut PtySession, keys: &str) {
    s.send(keys).expect("send");
    s.flush().expect("flush");
}

const BRANDIS: &str = "board 8/8/8/8/8/1P6/1PkPP3/KR1b4 w";

#[test]
fn tab_completes_commands_and_legal_retractions() {
    let history = history_file("complete");
    let mut s = start(&history);
    s.send_line(BRANDIS).expect("send");
    s.exp_string("White retracts [0]> ")
        .expect("prompt after set-up");
    // The only retraction starting Ka2- is Ka2-a1.
    type_keys(&mut s, "retract Ka2-");
    type_keys(&mut s, "\t");
    type_keys(&mut s, "\r");
    s.exp_string("retracted Ka2-a1")
        .expect("completion filled in the move");
    s.exp_string("Black retracts [1]> ").expect("prompt");
    // A command name completes too.
    type_keys(&mut s, "und\t\r");
    s.exp_string("White retracts [0]> ").expect("undo ran");
    s.send_line("quit").expect("quit");
    s.exp_eof().expect("the REPL ends");
}

#[test]
fn ctrl_c_interrupts_a_long_solve_and_the_session_goes_on() {
    let history = history_file("interrupt");
    let mut s = start(&history);
    s.send_line("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .expect("send");
    s.exp_string("Black retracts [0]> ").expect("prompt");
    s.send_line("solve 8").expect("send");
    thread::sleep(Duration::from_millis(700));
    s.send_control('c').expect("Ctrl-C");
    s.exp_string("interrupted").expect("the search noticed");
    s.exp_string("the search was cut short")
        .expect("the answer says it is incomplete");
    s.exp_string("Black retracts [0]> ")
        .expect("the session goes on");
    s.send_line("list").expect("send");
    s.exp_string("legal retractions")
        .expect("commands still work");
    // Ctrl-C at the prompt only cancels the line.
    type_keys(&mut s, "retract something");
    s.send_control('c').expect("Ctrl-C");
    s.exp_string("^C").expect("line cancelled");
    s.send_line("quit").expect("quit");
    s.exp_eof().expect("the REPL ends");
}

#[test]
fn history_is_kept_between_sessions() {
    let history = history_file("history");
    let mut s = start(&history);
    s.send_line(BRANDIS).expect("send");
    s.exp_string("White retracts [0]> ").expect("prompt");
    s.send_control('d').expect("Ctrl-D leaves");
    s.exp_eof().expect("the REPL ends");
    let saved = std::fs::read_to_string(&history).expect("the history file was written");
    assert!(saved.contains(BRANDIS), "{saved}");
    // Up-arrow in a new session brings the command back.
    let mut s = start(&history);
    type_keys(&mut s, "\x1b[A");
    type_keys(&mut s, "\r");
    s.exp_string("White retracts [0]> ")
        .expect("the recalled command set the position up");
    s.send_line("quit").expect("quit");
    s.exp_eof().expect("the REPL ends");
    let _ = std::fs::remove_dir_all(history.parent().expect("dir"));
}

/// A paste of several lines (bracketed by the terminal) runs one command per line, in order.
#[test]
fn a_multi_line_paste_runs_one_command_per_line() {
    let history = history_file("paste");
    let mut s = start(&history);
    type_keys(
        &mut s,
        "\x1b[200~fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - - 0 1\nKa2-a1\nlist\x1b[201~\r",
    );
    s.exp_string("White retracts: 10 legal retractions")
        .expect("the first line set up the position");
    s.exp_string("retracted Ka2-a1")
        .expect("the second line was a bare move");
    s.exp_string("Black retracts: 18 legal retractions")
        .expect("the third line listed");
    s.exp_string("Black retracts [1]> ")
        .expect("one prompt after the paste");
    s.send_line("quit").expect("quit");
    s.exp_eof().expect("the REPL ends");
}
