//! `retrace rights`: the JSON of the CLI contract, the FEN's own rights ignored, batch mode, and
//! the REPL command.

mod common;

use serde_json::{json, Value};

fn rights(args: &[&str], stdin: &str) -> (Value, std::process::Output) {
    let mut all = vec!["rights"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = common::run(&all, stdin.as_bytes());
    let first = out.stdout.split(|&b| b == b'\n').next().unwrap_or_default();
    let value = serde_json::from_slice(first).unwrap_or(Value::Null);
    (value, out)
}

#[test]
fn rights_json_has_the_contract_fields() {
    // Black's only units are the king, the rooks and pawns at home, and Black moved last: each
    // castling stands alone, not both (the other rook moved last).
    let (v, out) = rights(&["r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq -"], "");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        v["castling"],
        json!({"K": "possible", "Q": "possible", "k": "possible", "q": "possible"})
    );
    let sets: Vec<&str> = v["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|s| s["castling"].as_str().expect("castling"))
        .collect();
    assert!(sets.contains(&"KQk") && sets.contains(&"KQq") && !sets.contains(&"KQkq"));
    let exclusive = v["exclusive"].as_array().expect("exclusive");
    assert_eq!(exclusive.len(), 1, "{v}");
    assert_eq!(exclusive[0]["castling"], "kq");
    assert_eq!(exclusive[0]["en_passant"], "-");
    assert_eq!(exclusive[0]["reason"]["code"], "no_retraction");
    assert_eq!(v["complete"], true);
    for set in v["sets"].as_array().expect("sets") {
        assert_eq!(set["en_passant"], "-");
        assert!(set["why"].is_string());
    }
}

#[test]
fn rights_proves_an_en_passant_capture_and_ignores_the_fen_fields() {
    // Amelung 1897: Black's last move was g7-g5; the FEN's e.p. field says nothing either way.
    for fen in [
        "7R/7p/5P1k/4PKpP/8/8/8/8 w - -",
        "7R/7p/5P1k/4PKpP/8/8/8/8 w - g6",
    ] {
        let (v, out) = rights(&[fen], "");
        assert!(out.status.success(), "{out:?}");
        assert_eq!(v["en_passant"], json!({"g6": "proven"}), "{fen}");
        assert_eq!(v["sets"][0]["en_passant"], "g6");
    }
    // Loyd 1859: Black may not castle.
    let (v, _) = rights(&["r3k3/p1p5/Q3K3/8/8/8/8/8 w q -"], "");
    assert_eq!(v["castling"], json!({"q": "impossible"}));
}

#[test]
fn rights_batch_answers_line_by_line() {
    let input = "r3k3/p1p5/Q3K3/8/8/8/8/8 w - -\nnot a fen\nr3k3/p7/Q1p1K3/8/8/8/8/8 w - -\n";
    let out = common::run(&["rights", "-", "--json"], input.as_bytes());
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON document a line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["castling"]["q"], "impossible");
    assert!(lines[1]["error"].is_string());
    assert_eq!(lines[2]["castling"]["q"], "possible");
}

#[test]
fn the_repl_answers_rights_for_the_board_set_up() {
    let script = "fen r3k3/p1p5/Q3K3/8/8/8/8/8 w q -\nrights\n";
    let out = common::run(&["repl"], script.as_bytes());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("q: impossible (no_retraction"), "{text}");
}
