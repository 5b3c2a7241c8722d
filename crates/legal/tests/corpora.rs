//! Never a false "illegal" on the legal positions of the corpora (positions/corpora, a copy of the
//! shared corpora): every proof-game position and every other published problem that states a side
//! to move, Sherlock's positions marked legal, Chass's problems (each has solutions), and
//! Retractor 2's problems for the side that retracts (both sides for `both`).

use retrace_legal::{analyze, Verdict};
use retrace_unmove::RetroPosition;
use serde_json::Value;
use shakmaty::Color;

fn corpus(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/../../positions/corpora/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

/// Every legal position of the corpora: (id, position).
fn legal_positions() -> Vec<(String, RetroPosition)> {
    let mut out = Vec::new();
    for p in corpus("published-problems.jsonl") {
        let stipulation = text(&p, "stipulation");
        // `other` positions may be incomplete on purpose, `illegal` ones are not legal.
        let Some(side) = p["side_to_move"].as_str() else {
            continue;
        };
        if stipulation == "other" || stipulation == "illegal" {
            continue;
        }
        // Kniffel problems print an incomplete diagram on purpose (a unit fell off the board);
        // their notes say so, and the diagram as printed is illegal.
        if p["notes"]
            .as_str()
            .is_some_and(|n| n.contains("incomplete"))
        {
            continue;
        }
        let fen = format!("{} {side} - -", text(&p, "board"));
        // A few problems leave a unit out of the diagram (the answer says where it stands); only
        // the proof games must all set up.
        match RetroPosition::parse(&fen, None) {
            Ok(pos) => out.push((text(&p, "id").to_owned(), pos)),
            Err(e) => assert!(stipulation != "proof_game", "{fen}: {e}"),
        }
    }
    for p in corpus("sherlock-legality.jsonl") {
        if p["expected"] == "Legal" {
            out.push((text(&p, "id").to_owned(), setup(text(&p, "fen"), None)));
        }
    }
    for p in corpus("chass-problems.jsonl") {
        out.push((text(&p, "id").to_owned(), setup(text(&p, "fen"), None)));
    }
    for p in corpus("retractor-problems.jsonl") {
        let sides: &[Color] = match text(&p, "retract") {
            "w" => &[Color::White],
            "b" => &[Color::Black],
            _ => &[Color::White, Color::Black],
        };
        for &side in sides {
            let pos = setup(text(&p, "board"), Some(side));
            out.push((format!("{} ({side:?} retracts)", text(&p, "id")), pos));
        }
    }
    out
}

fn setup(fen: &str, retract: Option<Color>) -> RetroPosition {
    RetroPosition::parse(fen, retract).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn no_legal_corpus_position_is_called_illegal() {
    let positions = legal_positions();
    assert!(positions.len() > 300, "{} positions", positions.len());
    let wrong: Vec<String> = positions
        .iter()
        .filter_map(|(id, pos)| {
            let a = analyze(pos);
            (a.verdict() == Verdict::Illegal)
                .then(|| format!("{id} {}: {:?}", pos.fen(), a.reasons))
        })
        .collect();
    assert!(wrong.is_empty(), "false illegal:\n{}", wrong.join("\n"));
}

/// The closure (the whole position verified as a cage, issue 17) proves no legal corpus position
/// illegal, with four times the budget `check` and `prove` give it.
#[test]
fn no_legal_corpus_position_is_closed() {
    let store = retrace_legal::CageStore::new();
    let wrong: Vec<String> = legal_positions()
        .iter()
        .filter_map(|(id, pos)| {
            let found = retrace_legal::cage::closure(pos, &store, CLOSURE_NODES, None);
            found
                .closed
                .map(|c| format!("{id} {}: {}", pos.fen(), c.reason()))
        })
        .collect();
    assert!(wrong.is_empty(), "false closure:\n{}", wrong.join("\n"));
}

/// Four times `check`'s and `prove`'s closure budget
/// ([`retrace_legal::cage::CHECK_CLOSURE_NODES`]).
const CLOSURE_NODES: u64 = 4 * retrace_legal::cage::CHECK_CLOSURE_NODES;
