//! The public half of Retractor 2's solver suite (positions/corpora/retractor-problems.jsonl),
//! judged exactly as the corpora README says (the same rules as the judge script beside the
//! corpus): a problem counts only when `check` finds no contradiction, `solve` is complete and
//! gives one solution, and that solution is the answer (the moves, or their types). The floors
//! below are the numbers reached: a regression fails the test, an improvement should raise them.
//!
//! Release builds judge every problem twice (without and with the hint cages), about two seconds;
//! debug builds judge a sample and assert no floor.

#[path = "support/retractor.rs"]
mod retractor;

use retrace_cage::CageStore;
use retractor::{canon, corpus, of_type, parse, Judge, Problem};

/// Problems decided without the hint cages (the automatic cage attempt on).
const FLOOR: usize = 157;
/// Problems decided with the hint cages.
const FLOOR_WITH_CAGES: usize = 157;

/// The problems of the corpus this build judges: all in release, every twelfth in debug.
fn judged(problems: &[Problem]) -> impl Iterator<Item = &Problem> {
    let step = if cfg!(debug_assertions) { 12 } else { 1 };
    problems.iter().step_by(step)
}

#[test]
fn the_judge_reads_moves_as_the_corpus_means_them() {
    let m = parse("f7xNe8=R+").expect("parses");
    assert!(of_type(Some(&m), "PxN=R"));
    assert!(!of_type(Some(&m), "PxB=R") && !of_type(Some(&m), "RxN"));
    assert!(of_type(parse("Kh2-h1").as_ref(), "K-"));
    assert!(of_type(parse("e2-e4").as_ref(), "P--"));
    assert!(!of_type(parse("e3-e4").as_ref(), "P--"));
    assert!(of_type(parse("d5xe6ep+").as_ref(), "ep"));
    assert!(of_type(parse("0-0-0").as_ref(), "O-O-O"));
    assert!(of_type(parse("h2xg3").as_ref(), "Px?") || parse("h2xg3").is_some());
    assert_eq!(parse("h2xq3"), None);
    assert_eq!(canon("e5xf6e.p.#"), "e5xf6ep+");
}

#[test]
fn the_public_corpus_is_decided_at_least_as_often_as_before() {
    let problems = corpus();
    assert_eq!(problems.len(), 173);
    let empty = CageStore::new();
    let plain = Judge::new(&empty);
    let mut decided = 0;
    let mut with_cages = 0;
    let mut refused = Vec::new();
    for p in judged(&problems) {
        if plain.decides(p) {
            decided += 1;
        }
        let (store, errors) = CageStore::load(&p.hint_cages.join("\n"));
        refused.extend(
            errors
                .iter()
                .map(|(line, e)| format!("{} cage {line}: {e}", p.id)),
        );
        if Judge::new(&store).decides(p) {
            with_cages += 1;
        }
    }
    eprintln!("decided {decided}/173 without hint cages, {with_cages}/173 with them");
    for r in &refused {
        eprintln!("hint cage not verified: {r}");
    }
    if cfg!(debug_assertions) {
        return;
    }
    // Every hint cage verifies within the default budget.
    assert!(refused.is_empty(), "{refused:#?}");
    assert!(decided >= FLOOR, "decided {decided}, floor {FLOOR}");
    assert!(
        with_cages >= FLOOR_WITH_CAGES,
        "decided {with_cages} with hint cages, floor {FLOOR_WITH_CAGES}"
    );
}
