//! What issue 24 found lost or wrong, each pinned: sessions that end with an end record, files
//! written whole, batches that keep their answers on Ctrl-C whatever `--jobs`, a cap on `--jobs`,
//! and the messages that were wrong or empty.

mod common;

use std::{process::Stdio, time::Duration};

use serde_json::Value;

const KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Knights and kings: deep solves that take a while per line.
const KNIGHTS: &str = "4k3/8/8/3n4/8/3N4/8/4K3 w - - 0 1";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("retrace-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

/// A session file ends with `end`; one cut short (without it) or with marks before its `fen`
/// record is refused, and nothing changes.
#[test]
fn a_session_cut_short_or_out_of_order_is_refused() {
    let dir = temp_dir("session-end");
    let file = dir.join("s.txt");
    let out = common::run(
        &["repl"],
        format!("fen {KINGS}\nretract 1\nsave {}\n", file.display()).as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&file).expect("saved");
    assert!(saved.ends_with("\nend\n"), "{saved}");
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, saved.trim_end_matches("end\n")).expect("written");
    let early_mark = dir.join("mark.txt");
    std::fs::write(
        &early_mark,
        format!("retrace-session 1\nfrozen e1\nfen {KINGS}\nend\n"),
    )
    .expect("written");
    let after_end = dir.join("after.txt");
    std::fs::write(&after_end, format!("{saved}at 0\n")).expect("written");
    let out = common::run(
        &["repl"],
        format!(
            "load {}\nload {}\nload {}\nload {}\n",
            cut.display(),
            early_mark.display(),
            after_end.display(),
            file.display()
        )
        .as_bytes(),
    );
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].contains("cut short; nothing was loaded"), "{err}");
    assert!(lines[1].contains("before the 'fen' record"), "{err}");
    assert!(lines[2].contains("a record after 'end'"), "{err}");
    assert!(text(&out.stdout).contains("loaded the session from"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `save` never writes what `load` refuses: a session over the 1 MiB `load` reads is not written
/// (and the old file stays).
#[test]
fn save_refuses_a_session_load_would_refuse() {
    let dir = temp_dir("session-size");
    let file = dir.join("s.txt");
    std::fs::write(&file, "old\n").expect("written");
    // Shuffles back and forth: 80,000 retractions, 15 bytes each in the session (pasted 8,000
    // a line, as a line holds at most 64 KiB).
    let paste = format!("paste {}\n", "Kg8-h8 Kb1-a1 Kh8-g8 Ka1-b1 ".repeat(2_000));
    let script = format!(
        "fen 7k/8/8/8/8/8/8/K7 w - -\n{}save {}\n",
        paste.repeat(10),
        file.display()
    );
    let out = common::run(&["repl"], script.as_bytes());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("more than load reads"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "old\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--pgn -` writes the games to standard output, after the answer, and makes no file `-`.
#[test]
fn pgn_dash_is_standard_output() {
    let dir = temp_dir("pgn-dash");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrace"))
        .args(["proofgame", INITIAL, "--plies", "0", "--pgn", "-"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("1 proof game"), "{stdout}");
    assert!(
        stdout.contains("[Event \"Retrace proof game\"]"),
        "{stdout}"
    );
    assert!(!dir.join("-").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during a batch on two jobs prints every answer finished, in input order, and says
/// after which line it stopped (it used to drop every answer in flight).
#[test]
fn ctrl_c_keeps_the_answers_of_a_batch_on_two_jobs() {
    let dir = temp_dir("batch-jobs");
    let input = dir.join("lines.txt");
    std::fs::write(&input, format!("{KNIGHTS}\n").repeat(5_000)).expect("written");
    for jobs in ["1", "2"] {
        let stdin = std::fs::File::open(&input).expect("opens");
        let args = [
            "solve",
            "-",
            "--depth",
            "3",
            "--max-nodes",
            "3000",
            "--json",
            "--jobs",
            jobs,
        ];
        let (out, latency) =
            common::interrupt_after(&args, Stdio::from(stdin), Duration::from_millis(1500));
        assert_eq!(out.status.code(), Some(130), "--jobs {jobs}");
        assert!(
            latency < Duration::from_secs(1),
            "--jobs {jobs}: {latency:?}"
        );
        let stdout = text(&out.stdout);
        let answered = stdout.lines().count();
        assert!(answered > 0, "--jobs {jobs}: no answer kept");
        for line in stdout.lines() {
            let doc: Value = serde_json::from_str(line).expect("one JSON document a line");
            assert!(doc["solutions"].is_array(), "{line}");
        }
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("interrupted after line {answered}:")),
            "--jobs {jobs}, {answered} answers: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--jobs` past 8 per core is refused with the limit (65535 used to hang starting threads).
#[test]
fn jobs_are_capped() {
    let out = common::run(&["list", "-", "--jobs", "65535"], b"");
    assert!(common::is_bad_input(&out), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("per core"),
        "{}",
        text(&out.stderr)
    );
    let out = common::run(
        &["list", "-", "--jobs", "1", "--json"],
        format!("{KINGS}\n").as_bytes(),
    );
    assert!(out.status.success());
}

/// The messages issue 24 found wrong or empty.
#[test]
fn messages_say_what_is_wrong() {
    let err = |args: &[&str]| {
        let out = common::run(args, b"");
        assert!(
            common::is_bad_input(&out),
            "{args:?}: {}",
            text(&out.stderr)
        );
        text(&out.stderr)
    };
    // A castling right written as a file letter is not asked for a rook on h1.
    let e = err(&["check", "4k3/8/8/8/8/8/8/R3K3 w B - 0 1"]);
    assert!(e.contains("names the rook on the b-file"), "{e}");
    // FEN errors speak of chess FENs, not of pockets or variants.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +3+3",
        "4k3/8/8/8/8/8/8/4K3 w - - +3+3 0 1",
        "4k3/8/8/8/8/8/8/3N~K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
    ] {
        let e = err(&["check", fen]).to_lowercase();
        assert!(
            !e.contains("pocket") && !e.contains("variant"),
            "{fen}: {e}"
        );
        assert!(!e.contains("in fen"), "{fen}: {e}");
    }
    // A unit cannot be both original and promoted.
    let e = err(&[
        "list",
        "4k3/8/8/8/8/8/8/1N2K3 w - -",
        "--frozen",
        "b1",
        "--promoted",
        "b1",
    ]);
    assert!(e.contains("cannot mark b1 as promoted"), "{e}");
    // --max 0 is refused, not answered with one solution.
    let e = err(&["solve", KINGS, "--depth", "1", "--max", "0"]);
    assert!(e.contains("from 1 on"), "{e}");
    // The initial array as a claim: what escapes is said, not an empty line.
    let out = common::run(
        &[
            "cage",
            "verify",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        ],
        b"",
    );
    let answer = text(&out.stdout);
    assert!(!answer.trim_end().ends_with(':'), "{answer}");
    assert!(answer.contains("the claim itself escapes"), "{answer}");
    // A solution of no retraction is said, not printed empty.
    let out = common::run(
        &[
            "solve",
            INITIAL,
            "--depth",
            "0",
            "--game-clocks",
            "--exact-fen",
        ],
        b"",
    );
    let answer = text(&out.stdout);
    assert!(answer.contains("1. (no retraction"), "{answer}");
    assert!(!answer.contains("by last move"), "{answer}");
}

/// In the REPL: `step 0`, a byte order mark at the start of a script, `max 0` and both marks on
/// one unit.
#[test]
fn repl_messages_say_what_is_wrong() {
    let script = format!(
        "\u{feff}fen {KINGS}\nsolve 1 max 0\nsolve 1\nstep 0\nfen 4k3/8/8/8/8/8/8/1N2K3 w - -\n\
         mark frozen b1\nmark promoted b1\n"
    );
    let out = common::run(&["repl"], script.as_bytes());
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("error: line 2: max '0'"), "{err}");
    assert!(
        lines[1].starts_with("error: line 4: there is no solution number 0"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("error: line 7: cannot mark b1 as promoted"),
        "{err}"
    );
}
