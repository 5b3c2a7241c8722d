//! Histories that repeat a position prove nothing (issue 17): `prove` and the existence searches
//! count only repetition-free lines, and never lose the history of a legal position for it.

use retrace_search::{prove, solve, Cut, LegalPruner, NoPruning, Proof, Pruner, SolveParams, Try};
use retrace_testkit::{positions_along, random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// `fen` without uncaptures, so that only the units on the board move.
fn sealed(fen: &str) -> RetroPosition {
    let mut pos = RetroPosition::from_fen(fen).expect("a valid position");
    for color in Color::ALL {
        pos.set_uncaptures_allowed(color, false);
    }
    pos
}

/// Whether `line` from `pos` meets a position twice (the position itself included).
fn repeats(pos: &RetroPosition, line: &[retrace_unmove::Retraction]) -> bool {
    let mut seen = vec![pos.clone()];
    let mut at = pos.clone();
    for &r in line {
        at.retract_in_place(r);
        if seen.contains(&at) {
            return true;
        }
        seen.push(at.clone());
    }
    false
}

/// Each king shuffles between two corner squares behind its pawns and bishop; nothing else can
/// be retracted (no uncaptures). Only 8 states exist (two squares per king, two sides to move),
/// so every line longer than 7 plies repeats: the position has a 10-ply line, but no history.
const SEALED: &str = "5b1k/4pppp/8/8/8/8/4PPPP/5B1K w - - 0 1";

/// The near miss for the search alone: without the pawn on h7 the black king leaves its corner
/// through h7, and long repetition-free lines exist. (The position is illegal all the same, as
/// White's corner is a cage, which the closure proves; the legal near miss is in
/// [`the_open_near_miss_keeps_a_repetition_free_history`].)
const ONE_EXIT: &str = "5b1k/4ppp1/8/8/8/8/4PPPP/5B1K w - - 0 1";

#[test]
fn a_sealed_shuffle_has_no_history_and_says_it_repeats() {
    let pos = sealed(SEALED);
    match prove(&pos, 10, &NoPruning, None) {
        Proof::NoHistory {
            tries,
            longest,
            complete,
            closure: None,
        } => {
            assert!(complete);
            assert!(!tries.is_empty());
            assert!(
                tries.iter().all(|t: &Try| t.repeats && t.survived <= 7),
                "{tries:?}"
            );
            let best = tries.iter().map(|t| t.survived).max().unwrap_or(0);
            assert_eq!(longest.len(), best as usize);
            assert!(best >= 3, "{tries:?}");
            assert!(!repeats(&pos, &longest), "{longest:?}");
        }
        other => panic!("a shuffle is no history: {other:?}"),
    }
    // Extra plies of `solve` are existence searches too: no last move survives 10 more plies.
    let params = SolveParams {
        depth: 1,
        extra: 10,
        ..SolveParams::default()
    };
    assert_eq!(solve(&pos, params, &NoPruning).count, 0);
}

#[test]
fn a_near_miss_with_one_exit_keeps_a_repetition_free_history() {
    let pos = sealed(ONE_EXIT);
    match prove(&pos, 20, &NoPruning, None) {
        Proof::History(line) => {
            assert_eq!(line.len(), 20);
            assert!(!repeats(&pos, &line), "{line:?}");
        }
        other => panic!("expected a history, got {other:?}"),
    }
}

/// Soundness: positions of random games keep a repetition-free history, and the line shown
/// repeats nothing.
#[test]
fn positions_of_random_games_keep_repetition_free_histories() {
    let pruner = LegalPruner::new();
    let mut checked = 0;
    for seed in 0..40u64 {
        let game = random_game(seed, 60);
        // Early positions too, whose histories must go back beyond the initial array.
        for (i, p) in game.positions.iter().enumerate().skip(1).step_by(9) {
            let pos = retro_position(p);
            match prove(&pos, 8, &pruner, None) {
                Proof::History(line) => assert!(!repeats(&pos, &line), "seed {seed} ply {i}"),
                other => {
                    panic!("seed {seed} ply {i}: a legal position lost its history: {other:?}")
                }
            }
            checked += 1;
        }
        for pos in positions_along(seed, 60) {
            assert!(
                matches!(prove(&pos, 12, &pruner, None), Proof::History(_)),
                "seed {seed}"
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

/// Proves illegal, by its costlier verdict, every position where the white king left h1.
struct CagedOffH1;

impl retrace_search::Pruner for CagedOffH1 {
    fn is_illegal(&self, _: &RetroPosition) -> bool {
        false
    }

    fn deep_reason(&self, pos: &RetroPosition) -> Option<retrace_legal::Reason> {
        let off = pos.board().king_of(Color::White) != Some(shakmaty::Square::H1);
        off.then(|| {
            retrace_legal::Reason::new(
                retrace_legal::ReasonCode::Cage,
                "test".into(),
                shakmaty::Bitboard::EMPTY,
            )
        })
    }
}

/// `prove` tells the last moves that end in a cage at once from those that live on.
#[test]
fn prove_tells_the_last_moves_that_end_in_a_cage() {
    let pos = sealed(SEALED);
    let Proof::NoHistory { tries, .. } = prove(&pos, 10, &CagedOffH1, None) else {
        panic!("no history");
    };
    // Black retracts first (Kg8-h8 lives on), then White's Kg1-h1 is caged at once.
    assert!(
        tries.iter().all(|t| !t.caged && t.survived >= 1),
        "{tries:?}"
    );
    let white = sealed("5b1k/4pppp/8/8/8/8/4PPPP/5B1K b - - 0 1");
    let Proof::NoHistory { tries, .. } = prove(&white, 10, &CagedOffH1, None) else {
        panic!("no history");
    };
    assert!(
        !tries.is_empty() && tries.iter().all(|t| t.caged && t.survived == 0),
        "{tries:?}"
    );
}

/// The analysis off, the closure on: what `prove` does with a position only the closure settles.
struct ClosureOnly;

impl retrace_search::Pruner for ClosureOnly {
    fn is_illegal(&self, _: &RetroPosition) -> bool {
        false
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        _: Option<u64>,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Option<retrace_legal::Reason> {
        let store = retrace_cage::CageStore::new();
        retrace_cage::closure(pos, &store, retrace_search::PROVE_CLOSURE_NODES, cancel)
            .closed
            .map(|c| c.reason())
    }
}

/// The sealed shuffle has 40-ply lines only by repeating; the closure proves at once that every
/// line goes round, with its own reason, and every last move is cut by it.
#[test]
fn prove_calls_a_sealed_shuffle_closed() {
    for pos in [
        sealed(SEALED),
        RetroPosition::from_fen(SEALED).expect("FEN"),
    ] {
        match prove(&pos, 40, &ClosureOnly, None) {
            Proof::NoHistory {
                tries,
                longest,
                complete: true,
                closure: Some(reason),
            } => {
                assert_eq!(reason.code, retrace_legal::ReasonCode::Closure);
                assert!(
                    reason.message.starts_with("no history: every line"),
                    "{reason}"
                );
                assert!(longest.is_empty());
                assert!(!tries.is_empty());
                assert!(
                    tries
                        .iter()
                        .all(|t| t.cut == Cut::Closure && t.survived == 0),
                    "{tries:?}"
                );
            }
            other => panic!("a sealed shuffle is closed: {other:?}"),
        }
    }
}

/// Hwa's rook: the analysis finds nothing, and `prove` with the legal pruner answers by closure.
#[test]
fn prove_with_the_legal_pruner_answers_by_closure() {
    let pos = RetroPosition::from_fen("4k3/8/8/8/8/6P1/4PPrP/7K w - - 0 1").expect("FEN");
    assert!(!LegalPruner::new().is_illegal(&pos));
    let Proof::NoHistory {
        closure: Some(reason),
        ..
    } = prove(&pos, 20, &LegalPruner::new(), None)
    else {
        panic!("closed");
    };
    assert_eq!(reason.code, retrace_legal::ReasonCode::Closure);
    // The closure off, the cage attempt still cuts every last move.
    let off = LegalPruner::new().with_closure(None);
    let Proof::NoHistory { closure, tries, .. } = prove(&pos, 20, &off, None) else {
        panic!("no history");
    };
    assert_eq!(closure, None);
    assert!(tries.iter().all(|t| t.cut != Cut::Closure), "{tries:?}");
}

/// The near miss, legal: each king leaves its corner through the g-file. No closure, and a
/// repetition-free history 20 plies deep.
#[test]
fn the_open_near_miss_keeps_a_repetition_free_history() {
    let pos = RetroPosition::from_fen("5b1k/4pp1p/8/8/8/8/4PP1P/5B1K w - - 0 1").expect("FEN");
    match prove(&pos, 20, &LegalPruner::new(), None) {
        Proof::History(line) => {
            assert_eq!(line.len(), 20);
            assert!(!repeats(&pos, &line), "{line:?}");
        }
        other => panic!("expected a history, got {other:?}"),
    }
}

/// The closure alone, asked of the candidates `solve` is about to accept as well (the analysis
/// and the cage attempt prove nothing): what a deep verdict on a candidate adds.
struct CandidateClosure;

impl retrace_search::Pruner for CandidateClosure {
    fn is_illegal(&self, _: &RetroPosition) -> bool {
        false
    }

    fn has_deep(&self) -> bool {
        true
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        max_nodes: Option<u64>,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Option<retrace_legal::Reason> {
        ClosureOnly.closure_reason(pos, max_nodes, cancel)
    }
}

/// `solve` asks the closure of each candidate it is about to accept. The trigger: White's pawn
/// just reached g3, with no uncaptures; Black's g-pawn is gone, so its king roams. The last move
/// g2-g3 leads to a position with repetition-free lines far longer than the three extra plies
/// (the black king walks while the white king shuffles between g1 and h1), but in which White's
/// units can never have been released: the closure cuts it with its reason. The king and bishop
/// moves stay (the white king left through g2). The near miss: the same search without deep
/// verdicts keeps g2-g3.
#[test]
fn solve_asks_the_closure_of_each_candidate() {
    let last = |s: &retrace_search::Solutions| -> Vec<String> {
        s.lines.iter().map(|l| l[0].to_string()).collect()
    };
    let g2g3 = "g2-g3".to_string();
    let pos = sealed("5b1k/4pp1p/8/8/8/6P1/4PP1P/5B1K b - - 0 1");
    let without = solve(&pos, SolveParams::default(), &NoPruning);
    assert!(last(&without).contains(&g2g3), "{:?}", last(&without));
    let closed = solve(&pos, SolveParams::default(), &CandidateClosure);
    assert!(!last(&closed).contains(&g2g3), "{:?}", last(&closed));
    assert!(
        last(&closed).iter().any(|m| m.starts_with('K')),
        "{:?}",
        last(&closed)
    );
    let refuted = closed
        .refuted
        .iter()
        .find(|r| r.line[0].to_string() == g2g3)
        .expect("g2-g3 refuted");
    assert_eq!(refuted.reason.code, retrace_legal::ReasonCode::Closure);
}
