//! The interactive retractor on a real pseudo-terminal: completion, Ctrl-C, history.

mod common;

use std::{thread, time::Duration};

use common::pty::{history_file, quit, start, type_keys};

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
    quit(s, &history);
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
    quit(s, &history);
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
    quit(s, &history);
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
    quit(s, &history);
}

/// What a file or the user typed reaches the terminal with its control characters escaped: a
/// session file's bad record cannot clear the screen.
#[test]
fn control_characters_from_files_and_input_are_escaped() {
    let history = history_file("escape");
    let file = history.parent().expect("a dir").join("bad-session.txt");
    std::fs::create_dir_all(file.parent().expect("a dir")).expect("the dir");
    std::fs::write(
        &file,
        "retrace-session 1\nfen 4k3/8/8/8/8/8/8/4K3 w - -\n\x1b[2Jbogus x\nend\n",
    )
    .expect("written");
    let mut s = start(&history);
    s.send_line(&format!("load {}", file.display()))
        .expect("send");
    s.exp_string("unexpected record '\\u{1b}[2Jbogus'")
        .expect("the record escaped");
    s.exp_string("Black retracts [0]> ").expect("prompt");
    type_keys(&mut s, "\x16\x07bell\r");
    s.exp_string("unknown command '\\u{7}bell'")
        .expect("the typed control escaped");
    quit(s, &history);
}

/// The progress of a long search is redrawn a few times a second, not at every thousand nodes.
#[test]
fn progress_is_drawn_a_few_times_a_second() {
    let history = history_file("progress");
    let mut s = start(&history);
    s.send_line("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .expect("send");
    s.exp_string("Black retracts [0]> ").expect("prompt");
    s.send_line("solve 8").expect("send");
    thread::sleep(Duration::from_millis(1500));
    s.send_control('c').expect("Ctrl-C");
    let drawn = s.exp_string("interrupted").expect("the search noticed");
    let updates = drawn.matches("nodes, ply").count();
    assert!((1..=10).contains(&updates), "{updates} updates in 1.5 s");
    s.exp_string("Black retracts [0]> ").expect("prompt");
    quit(s, &history);
}
