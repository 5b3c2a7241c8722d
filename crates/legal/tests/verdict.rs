//! The search's question, answered the lean way: [`is_illegal`] (the rules stop at the first
//! reason and make no text) must agree with [`analyze`] (every reason, with its text) on every
//! position, legal or not. Checked on Sherlock's positions, legal and illegal, on the positions of
//! biased random games, and on every position one retraction before them: thousands of those
//! are illegal, by many kinds of rule, and some only by the look one retraction back.

use retrace_legal::{analyze, is_illegal};
use retrace_testkit::positions_along;
use retrace_unmove::RetroPosition;
use serde_json::Value;

/// Both answers on `pos`; returns whether it is illegal.
fn agree(pos: &RetroPosition, what: &str) -> bool {
    let illegal = !analyze(pos).reasons.is_empty();
    assert_eq!(
        is_illegal(pos),
        illegal,
        "{what}: {} ({})",
        pos.fen(),
        if illegal {
            "analyze: illegal"
        } else {
            "analyze: no contradiction"
        }
    );
    illegal
}

#[test]
fn the_verdict_alone_agrees_with_the_analysis() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/sherlock-legality.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the Sherlock corpus");
    let mut illegal = 0;
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: Value = serde_json::from_str(line).expect("JSON");
        let fen = p["fen"].as_str().expect("a FEN");
        if let Ok(pos) = RetroPosition::parse(fen, None) {
            checked += 1;
            illegal += usize::from(agree(&pos, "Sherlock"));
        }
    }
    assert!(
        checked > 20 && illegal > 5,
        "{checked} checked, {illegal} illegal"
    );

    let (mut before, mut illegal_before) = (0usize, 0usize);
    for seed in 0..150 {
        for pos in positions_along(seed, 120) {
            agree(&pos, "a game position");
            for r in pos.retractions() {
                before += 1;
                illegal_before += usize::from(agree(&pos.retract(r), "a predecessor"));
            }
        }
    }
    // About 3 in 100 (some 2,000 positions) are illegal: enough to show every kind of rule.
    assert!(
        illegal_before > 1_000,
        "only {illegal_before} of {before} predecessors illegal: the check proves little"
    );
}
