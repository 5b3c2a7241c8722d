//! Type-ahead at the terminal: lines typed while a long command runs are run after it, in order.

mod common;

use std::{thread, time::Duration};

use common::pty::{history_file, quit, start, type_keys};

/// A solve that runs about a second in release and then stops by itself (node limit).
const LONG_SOLVE: &str = "solve 8 nodes 100000";
const KIWIPETE: &str = "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// While the solve runs the terminal is in cooked mode, so the lines typed wait in its input
/// queue and reach the line editor together when the next prompt starts: each must still run.
#[test]
fn lines_typed_while_a_command_runs_are_not_lost() {
    let history = history_file("typeahead");
    let mut s = start(&history);
    s.send_line(KIWIPETE).expect("send");
    s.exp_string("Black retracts [0]> ").expect("prompt");
    s.send_line(LONG_SOLVE).expect("send");
    // Typed while the search runs (it prints its progress on stderr meanwhile).
    thread::sleep(Duration::from_millis(300));
    type_keys(&mut s, "h4-h3\r");
    type_keys(&mut s, "history\r");
    type_keys(&mut s, "undo\r");
    s.exp_string("the search was cut short")
        .expect("the long solve ended");
    s.exp_string("retracted h4-h3")
        .expect("the first line typed ahead ran");
    s.exp_string("retracted (last move first): h4-h3")
        .expect("the second line typed ahead ran");
    s.exp_string("Black retracts [0]> ")
        .expect("the third line typed ahead ran (undo)");
    quit(s, &history);
}

/// Lines typed faster than the prompt comes back, at the prompt itself (raw mode), run too.
#[test]
fn lines_typed_at_once_at_the_prompt_all_run() {
    let history = history_file("burst");
    let mut s = start(&history);
    type_keys(
        &mut s,
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - - 0 1\rKa2-a1\rhistory\r",
    );
    s.exp_string("White retracts: 10 legal retractions")
        .expect("the first line set the position up");
    s.exp_string("retracted Ka2-a1")
        .expect("the second line ran");
    s.exp_string("retracted (last move first): Ka2-a1")
        .expect("the third line ran");
    quit(s, &history);
}
