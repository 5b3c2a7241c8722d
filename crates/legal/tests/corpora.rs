//! Never a false "illegal" on the legal positions of the corpora (positions/corpora, a copy of the
//! shared corpora): every proof-game position and every other published problem that states a side
//! to move, Sherlock's positions marked legal, Chass's problems (each has solutions), and
//! Retractor 2's problems for the side that retracts (both sides for `both`).

use retrace_legal::{analyze, Verdict};
use retrace_testkit::legal_corpus_positions;

#[test]
fn no_legal_corpus_position_is_called_illegal() {
    let positions = legal_corpus_positions();
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
