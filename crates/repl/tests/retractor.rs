//! `retrace retractor` as scripts drive it: the tree in text and JSON, the verdicts, bad input.

mod common;

use std::process::Output;

use serde_json::Value;

const KRYSTUFEK: &str = "4b1Q1/3kp3/B2bN2K/8/1N6/8/8/8 b - - 0 1";

fn retrace(args: &[&str]) -> Output {
    common::run(args, b"")
}

fn retractor(fen: &str, kind: &str, n: &str, goal: &str, json: bool) -> Output {
    let mut args = vec![
        "retractor",
        fen,
        "--kind",
        kind,
        "--retract",
        n,
        "--then",
        goal,
    ];
    if json {
        args.push("--json");
    }
    retrace(&args)
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

#[test]
fn the_published_retractor_is_solved_as_a_tree() {
    let out = retractor(KRYSTUFEK, "proca", "1", "#1", true);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["verdict"], "solved");
    assert_eq!(v["complete"], true);
    let keys = v["keys"].as_array().expect("keys");
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["move"], "f7xBg8=Q");
    assert_eq!(keys[0]["by"], "white");
    assert_eq!(keys[0]["then"][0]["move"], "f7-f8=N#");
    assert_eq!(keys[0]["then"][0]["stage"], "forward");
    let tries = v["tries"].as_array().expect("tries");
    assert!(tries.iter().any(|t| t["move"] == "f7xQg8=Q"));

    let text = retractor(KRYSTUFEK, "proca", "1", "#1", false);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("solved"), "{text}");
    assert!(
        text.contains("W retracts f7xBg8=Q") && text.contains("W plays f7-f8=N#"),
        "{text}"
    );
}

#[test]
fn hoeg_lets_black_refute_with_the_uncapture_and_says_no_solution() {
    let v = json(&retractor(KRYSTUFEK, "hoeg", "1", "#1", true));
    assert_eq!(v["verdict"], "no_solution");
    assert_eq!(v["keys"].as_array().map(Vec::len), Some(0));
    let first = &v["tries"][0];
    assert_eq!(first["move"], "f7~g8=Q");
    assert_eq!(first["refutation"], "Black uncaptures: f7xNg8=Q");
}

#[test]
fn a_spent_node_budget_gives_no_verdict() {
    let out = retrace(&[
        "retractor",
        KRYSTUFEK,
        "--kind",
        "proca",
        "--retract",
        "2",
        "--then",
        "#2",
        "--max-nodes",
        "100",
        "--json",
    ]);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(v["complete"], false);
}

#[test]
fn bad_retractor_input_is_one_line_and_exit_status_two() {
    for (fen, kind, n, goal) in [
        (KRYSTUFEK, "defensive", "1", "#1"),
        (KRYSTUFEK, "proca", "0", "#1"),
        (KRYSTUFEK, "proca", "1", "h#1"),
        (KRYSTUFEK, "proca", "1", "#9"),
        (
            "4b1Q1/3kp3/B2bN2K/8/1N6/8/8/8 w - - 0 1",
            "proca",
            "1",
            "#1",
        ),
        ("not a fen", "proca", "1", "#1"),
    ] {
        let out = retractor(fen, kind, n, goal, true);
        assert_eq!(out.status.code(), Some(2), "{kind} {n} {goal} {fen}");
        assert!(json(&out)["error"].is_string());
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}

/// Runs REPL commands from a script file.
fn repl(name: &str, script: &str) -> Output {
    let path = std::env::temp_dir().join(format!(
        "retrace-retractor-{name}-{}.txt",
        std::process::id()
    ));
    std::fs::write(&path, script).expect("write the script");
    let out = retrace(&["repl", "--script", path.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_file(&path);
    out
}

#[test]
fn the_repl_solves_a_retractor_and_steps_into_its_key() {
    let out = repl(
        "good",
        &format!("fen {KRYSTUFEK}\nretractor proca 1 #1\nstep 1\nhistory\nhelp retractor\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("W retracts f7xBg8=Q"), "{text}");
    assert!(
        text.contains("retracted (last move first): f7xBg8=Q"),
        "{text}"
    );
    assert!(text.contains("retractor proca|hoeg|help N"), "{text}");
    let bad = repl(
        "bad",
        "retractor\nretractor proca 1\nretractor bogus 1 #1\nretractor proca 1 #0\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).lines().count(),
        4,
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
