#![no_main]

//! The REPL's command parser and session: any lines, run in order on one session. Nothing may
//! panic, every error is one line, and the session always stands on a position whose own FEN sets
//! up again (no impossible board, whatever `undo`, `retract`, `solve` and `step` did before).

use std::sync::{atomic::AtomicBool, Arc};

use libfuzzer_sys::fuzz_target;
use retrace_repl::{
    board::Style,
    session::{Hooks, Session},
};
use retrace_unmove::RetroPosition;

/// Lines the target does not run: file access, and searches deeper than a fuzzer can afford.
fn skipped(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("export" | "cage" | "proofgame") => true,
        Some("solve" | "prove") => !words.next().is_some_and(|n| n.len() == 1 && n <= "2"),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut session = Session::new(Style::Plain);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut quiet = |_: retrace_search::Progress| {};
    for line in text.lines().take(32).filter(|l| !skipped(l)) {
        let mut hooks = Hooks {
            cancel: Arc::clone(&cancel),
            progress: &mut quiet,
        };
        if let Err(err) = session.execute(line, &mut hooks) {
            let err = err.to_string();
            assert!(!err.contains('\n'), "a one-line error: {err:?}");
        }
        let fen = session.position().fen();
        assert!(
            RetroPosition::from_fen(&fen).is_ok(),
            "{fen} after {line:?}"
        );
    }
});
