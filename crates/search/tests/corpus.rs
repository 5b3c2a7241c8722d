//! Chass's problem tests (positions/corpora/chass-problems.jsonl) as regression tests.

use retrace_search::{solve, GameFacts, LegalPruner, SolveParams};
use retrace_unmove::{FenFacts, RetroPosition};
use serde_json::Value;

fn corpus() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/chass-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

/// The facts Chass reads into a FEN (see positions/corpora/README.md).
fn chass_facts(fen: &str, pos: &RetroPosition, depth: u32) -> GameFacts {
    let read = FenFacts::parse(fen);
    let plies = read.plies_since_start(pos.to_move());
    GameFacts {
        plies_since_start: plies.filter(|&p| p == u64::from(depth)).map(|_| depth),
        halfmove_clock: read.halfmove_clock,
        exact_castling: read.castling_known,
        exact_en_passant: read.ep_known,
    }
}

/// Proof games that need a larger node budget than the rest (chass-23, eleven plies with four
/// captures: about 8.3 million nodes, a few seconds in a release build).
const LONG: [&str; 1] = ["chass-23"];

#[test]
fn chass_problems_have_the_expected_number_of_solutions() {
    let mut wrong = Vec::new();
    let problems = corpus();
    assert_eq!(problems.len(), 23);
    // One pruner for the whole corpus: its cage store keeps what the cage attempts learn.
    let pruner = LegalPruner::new();
    for problem in &problems {
        let id = problem["id"].as_str().expect("id");
        let fen = problem["fen"].as_str().expect("fen");
        let depth = problem["depth"].as_u64().expect("depth") as u32;
        let extra = problem["extra_depth"].as_u64().expect("extra") as u32;
        let expected = problem["expected_solutions"].as_u64().expect("count") as usize;
        if cfg!(debug_assertions) && LONG.contains(&id) {
            // Millions of nodes with the generator's self-checks on: release builds only.
            continue;
        }
        let pos = RetroPosition::parse(fen, None).expect("the FEN sets up");
        let facts = chass_facts(fen, &pos, depth);
        let max_nodes = Some(if LONG.contains(&id) {
            20_000_000
        } else {
            2_000_000
        });
        let params = SolveParams {
            depth,
            extra,
            facts,
            max_nodes,
            ..SolveParams::default()
        };
        let found = solve(&pos, params, &pruner);
        if !found.complete {
            wrong.push(format!("{id}: incomplete after {} nodes", found.nodes));
        } else if found.lines.len() != expected {
            wrong.push(format!(
                "{id}: {} solutions, expected {expected}",
                found.lines.len()
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
