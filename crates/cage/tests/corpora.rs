//! Never a false "illegal" from the closure on the legal positions of the corpora
//! (`positions/corpora`, see [`legal_corpus_positions`]).

use retrace_cage::{closure, CageStore, CHECK_CLOSURE_NODES};
use retrace_testkit::legal_corpus_positions;

/// The closure (the whole position verified as a cage, issue 17) proves no legal corpus position
/// illegal, with four times the budget `check` and `prove` give it.
#[test]
fn no_legal_corpus_position_is_closed() {
    let store = CageStore::new();
    let wrong: Vec<String> = legal_corpus_positions()
        .iter()
        .filter_map(|(id, pos)| {
            let found = closure(pos, &store, CLOSURE_NODES, None);
            found
                .closed
                .map(|c| format!("{id} {}: {}", pos.fen(), c.reason()))
        })
        .collect();
    assert!(wrong.is_empty(), "false closure:\n{}", wrong.join("\n"));
}

/// Four times `check`'s and `prove`'s closure budget
/// ([`CHECK_CLOSURE_NODES`]).
const CLOSURE_NODES: u64 = 4 * CHECK_CLOSURE_NODES;
