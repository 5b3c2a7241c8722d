//! The analyser's memos change no answer: one [`Analyzer`] kept across many positions, as a
//! search keeps it, gives each position the same analysis (reasons with their messages and
//! squares, captures, promoted units, units that never moved, caged units) and the same
//! `is_illegal` as a fresh analyser. The positions come in the order a search meets them: the
//! positions of random games one after the other, each followed by the positions one retraction
//! before it (many of them illegal), with and without the marks `unit_facts` puts on them; then
//! every corpus position and the positions one retraction before it.

use retrace_legal::{unit_facts, Analysis, Analyzer, ReasonCode, Verdict};
use retrace_testkit::{legal_corpus_positions, random_game, retro_position};
use retrace_unmove::RetroPosition;

/// What the test saw, to show that it met the memos' interesting cases.
#[derive(Default)]
struct Seen {
    positions: u64,
    illegal: u64,
    promoted: u64,
    caged: u64,
    unreachable: u64,
}

/// Asserts that `kept` analyses `pos` as a fresh analyser does, and counts what it found.
fn same(kept: &mut Analyzer, pos: &RetroPosition, seen: &mut Seen) {
    let fresh: Analysis = Analyzer::new().analyze(pos);
    let again = kept.analyze(pos);
    assert_eq!(again, fresh, "{}", pos.fen());
    assert_eq!(
        kept.is_illegal(pos),
        fresh.verdict() == Verdict::Illegal,
        "{}",
        pos.fen()
    );
    seen.positions += 1;
    seen.illegal += u64::from(fresh.verdict() == Verdict::Illegal);
    seen.promoted += u64::from(fresh.promoted.into_iter().any(|n| n > 0));
    seen.caged += u64::from(fresh.caged.any());
    seen.unreachable += u64::from(fresh.has(ReasonCode::UnreachableSquare));
}

/// `pos`, then `pos` with the marks of its unit facts, then the positions one retraction before
/// it (at most `limit`).
fn around(kept: &mut Analyzer, pos: &RetroPosition, limit: usize, seen: &mut Seen) {
    same(kept, pos, seen);
    let mut marked = pos.clone();
    unit_facts(pos).mark(&mut marked);
    same(kept, &marked, seen);
    for r in pos.retractions().into_iter().take(limit) {
        same(kept, &pos.retract(r), seen);
    }
}

#[test]
fn a_kept_analyser_answers_as_a_fresh_one_on_random_games() {
    let games = if cfg!(debug_assertions) { 6 } else { 150 };
    let mut kept = Analyzer::new();
    let mut seen = Seen::default();
    for seed in 0..games {
        let game = random_game(seed, 160);
        for chess in game.positions.iter().step_by(2) {
            around(&mut kept, &retro_position(chess), 12, &mut seen);
        }
    }
    eprintln!(
        "{} positions: {} illegal, {} with promoted units, {} with caged units, {} unreachable",
        seen.positions, seen.illegal, seen.promoted, seen.caged, seen.unreachable
    );
    if !cfg!(debug_assertions) {
        assert!(seen.illegal > 1000 && seen.caged > 1000, "too few cases");
    }
}

#[test]
fn a_kept_analyser_answers_as_a_fresh_one_on_every_corpus_position() {
    let mut kept = Analyzer::new();
    let mut seen = Seen::default();
    let positions = legal_corpus_positions();
    assert!(positions.len() > 300, "{} positions", positions.len());
    let limit = if cfg!(debug_assertions) { 2 } else { 40 };
    for (_, pos) in &positions {
        around(&mut kept, pos, limit, &mut seen);
    }
    eprintln!(
        "{} positions: {} illegal, {} with promoted units, {} with caged units, {} unreachable",
        seen.positions, seen.illegal, seen.promoted, seen.caged, seen.unreachable
    );
    if !cfg!(debug_assertions) {
        assert!(
            seen.illegal > 100 && seen.promoted > 100 && seen.unreachable > 10,
            "too few cases"
        );
    }
}
