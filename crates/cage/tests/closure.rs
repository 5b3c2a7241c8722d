//! Closure as a proof of illegality (issue 17): the whole position verified as a cage proves a
//! sealed shuffle illegal with its own reason, leaves a near miss with exits alone, and never
//! fires on a position of a random legal game.
//!
//! Run with `--release`: the soundness test then checks 100,000 random-game positions (a debug
//! build 5,000).

use retrace_cage::analyze_thoroughly;
use retrace_cage::{
    closure, find_cage, relaxed_closure, AutoLimits, CageStore, CHECK_CLOSURE_NODES,
};
use retrace_legal::{analyze, ReasonCode, Verdict};
use retrace_testkit::{pos, random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color, Square};

/// Random-game positions the soundness test asks the closure of.
const POSITIONS: usize = if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};

/// The closure's budget in the soundness test: four times `check`'s and `prove`'s. Positions
/// whose closure is sure to be larger are not tried at all, and those tried close or escape in a
/// few nodes, so 100,000 positions take about a second.
const SOUNDNESS_NODES: u64 = 4 * CHECK_CLOSURE_NODES;

/// `fen` without uncaptures for either side.
fn sealed(fen: &str) -> RetroPosition {
    let mut p = pos(fen);
    for color in Color::ALL {
        p.set_uncaptures_allowed(color, false);
    }
    p
}

/// Each king shuffles between two corner squares behind its pawns and bishop (the position of
/// `crates/search/tests/repetition.rs`). The verifier's node rules now close it at its root
/// (neither king can have walked from its home square past the bishop that never moved), so the
/// closure proves it in no node; `cage/exact.rs` tests a shuffle that only repetition closes.
const SEALED: &str = "5b1k/4pppp/8/8/8/8/4PPPP/5B1K w - - 0 1";

/// The near miss: both g-pawns gone, each king leaves its corner through the g-file. Legal.
const OPEN: &str = "5b1k/4pp1p/8/8/8/8/4PP1P/5B1K w - - 0 1";

/// Hwa's rook (sherlock-L44): the analysis alone finds nothing; the lone black king walks away.
const HWA_ROOK: &str = "4k3/8/8/8/8/6P1/4PPrP/7K w - -";

#[test]
fn a_sealed_shuffle_is_closed_with_its_own_reason() {
    for p in [sealed(SEALED), pos(SEALED)] {
        let found = closure(&p, &CageStore::new(), 1_000, None);
        let closed = found.closed.expect("every line of the shuffle repeats");
        assert_eq!(closed.units, p.board().occupied());
        assert!(closed.whole);
        assert!(
            closed.nodes <= 100 && closed.nodes == found.nodes,
            "{closed:?}"
        );
        let reason = closed.reason();
        assert_eq!(reason.code, ReasonCode::Closure);
        assert_eq!(reason.code.as_str(), "closure");
        let k = closed.plies.expect("searched, not cached");
        assert!(k <= 8, "{closed:?}");
        assert!(
            reason
                .message
                .starts_with("no history: every line of retractions repeats a position or dies"),
            "{reason}"
        );
        // Asked again through one store, the closure is known: the same verdict, worded alike.
        let store = CageStore::new();
        let first = closure(&p, &store, 1_000, None).closed.expect("closed");
        let again = closure(&p, &store, 1_000, None)
            .closed
            .expect("still closed");
        for closed in [first, again] {
            assert!(
                closed
                    .reason()
                    .message
                    .starts_with("no history: every line of retractions repeats a position"),
                "{}",
                closed.reason()
            );
        }
    }
}

#[test]
fn the_near_miss_with_exits_is_not_closed() {
    let p = pos(OPEN);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let found = closure(&p, &CageStore::new(), 20_000, None);
    assert_eq!(found.closed, None);
    assert_eq!(
        analyze_thoroughly(&p, &CageStore::new()).verdict(),
        Verdict::NoContradiction
    );
}

#[test]
fn a_closure_the_analysis_misses_leaves_the_free_king_out() {
    let p = pos(HWA_ROOK);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let closed = closure(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None)
        .closed
        .expect("the rook's corner closes; the king on e8 walks away");
    assert!(!closed.whole);
    assert_eq!(
        closed.units,
        p.board().occupied() & !Bitboard::from_square(Square::E8)
    );
    let reason = closed.reason();
    assert_eq!(reason.code, ReasonCode::Closure);
    assert!(
        reason
            .message
            .starts_with("no history: every line of retractions of the units on h1, e2"),
        "{reason}"
    );
    assert_eq!(reason.squares.len(), 6);
}

/// A black king with no last move unless White moves first (built for the exact prefix of
/// `cage/exact.rs`). Illegal: Black made the last move, and only the king g2 can have made it
/// (Black has nothing else), from f1, f3 or g3 (every other square around it is White's), with or
/// without a capture on g2. From f1 it would have stood next to the white king. On f3 it would
/// have stood, Black to move, in check from the pawn e2 and the knight g1 at once; on g3 from the
/// pawns f2 and h2 at once. A double check by a pawn on its second rank is impossible: the pawn
/// never moved, so its check stood before White's last move, with White to move. So Black has
/// no last move.
///
/// What the rest misses: the analysis looks one retraction back only when there are at most 8
/// (here 12: two squares, each plain or with five kinds of victim), and the relaxed closure lets
/// White retract first (its king walks off e1, and the black king out through f1), as a cage
/// verification must.
const NO_LAST_MOVE: &str = "8/8/8/8/8/7P/4PPkP/4K1NR w - -";

/// The near miss: the white king on d1 leaves f1 free, so Black's last move can be Kf1-g2
/// (White's before it, say, Kc2-d1). Legal.
const LAST_MOVE_FROM_F1: &str = "8/8/8/8/8/7P/4PPkP/3K2NR w - -";

#[test]
fn the_exact_prefix_proves_a_king_without_a_last_move() {
    let p = pos(NO_LAST_MOVE);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    assert!(p.retractions().len() > 8);
    assert!(find_cage(&p, &AutoLimits::default(), &CageStore::new())
        .found
        .is_none());
    assert_eq!(
        relaxed_closure(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None).closed,
        None
    );
    let store = CageStore::new();
    let closed = closure(&p, &store, CHECK_CLOSURE_NODES, None)
        .closed
        .expect("every last move of Black is refuted");
    assert!(closed.exact && closed.whole, "{closed:?}");
    assert_eq!(closed.units, p.board().occupied());
    let reason = closed.reason();
    let exactly = "the sides alternating and every check counted";
    assert!(
        reason.code == ReasonCode::Closure && reason.message.contains(exactly),
        "{reason}"
    );
    // Nothing was learnt as a cage: the store proves nothing about the position by itself.
    assert!(store.reasons(&p).is_empty());
    // `check` says so.
    assert!(analyze_thoroughly(&p, &CageStore::new()).has(ReasonCode::Closure));
}

#[test]
fn the_exact_prefix_leaves_the_near_miss_alone() {
    let p = pos(LAST_MOVE_FROM_F1);
    assert_eq!(
        closure(&p, &CageStore::new(), 4 * CHECK_CLOSURE_NODES, None).closed,
        None
    );
    assert_eq!(
        analyze_thoroughly(&p, &CageStore::new()).verdict(),
        Verdict::NoContradiction
    );
}

/// A black king that can only have come through a check along an open line (built for the exact
/// prefix). Illegal: Black's last move was made by its king (its only unit), from g1, g3 or f3
/// (f1, h1, f2, h2 and h3 are White's), capturing on g2 or not. On g1 it would have stood in
/// check from the rook h1 next to it, which cannot have just given it (h2 is White's pawn, g1
/// the king's square), and on g3 in check from the pawns f2 and h2 at once. On f3 it would have
/// stood in check from the bishop d1 through e2, a check Hwa's rules do not count (a unit may
/// stand on e2 in an extension). White's move before must have given it: not by the bishop, which
/// can only have come along the line (checking already, with White to move) or from c2, where
/// White's pawn never moved; not by a unit leaving e2, since none of White's units can have been
/// there (a knight on f1 or g2 cannot have come from e2, and a unit on g2 only through f2); not by
/// a unit taken on g2 either, which would check f3 itself (queen, bishop, pawn) beside the
/// bishop, a double check that no move to g2 uncovers, or not at all (knight, rook).
const THROUGH_A_LINE_CHECK: &str = "K7/8/8/8/8/7P/2P2PkP/3B1N1R w - -";

/// The near miss: without the pawn c2, White's Bc2-d1+ gave the check, and Black's last move was
/// Kf3-g2. Legal.
const LINE_CHECK_GIVEN: &str = "K7/8/8/8/8/7P/5PkP/3B1N1R w - -";

#[test]
fn the_exact_prefix_counts_a_check_along_an_open_line() {
    let p = pos(THROUGH_A_LINE_CHECK);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    assert_eq!(
        relaxed_closure(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None).closed,
        None
    );
    let closed = closure(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None)
        .closed
        .expect("every last move of the black king is refuted");
    assert!(closed.exact, "{closed:?}");
    // The king's step from f3 dies only by the bishop's check along d1-e2-f3.
    assert_eq!(analyze(&before(&p, "Kf3-g2")).verdict(), Verdict::Illegal);

    let near = pos(LINE_CHECK_GIVEN);
    assert_eq!(
        closure(&near, &CageStore::new(), 4 * CHECK_CLOSURE_NODES, None).closed,
        None
    );
    assert_eq!(
        analyze(&before(&near, "Kf3-g2")).verdict(),
        Verdict::NoContradiction
    );
}

/// The position before the last move `last` of `p` (one of its retractions).
fn before(p: &RetroPosition, last: &str) -> RetroPosition {
    let r = p
        .retractions()
        .into_iter()
        .find(|&r| p.notation(r) == last)
        .unwrap_or_else(|| panic!("{last} is no retraction of {}", p.fen()));
    p.retract(r)
}

#[test]
fn a_position_whose_units_all_walk_away_is_not_tried() {
    let p = pos("4k3/8/8/3q4/8/2N5/8/4K3 w - -");
    assert_eq!(closure(&p, &CageStore::new(), 10_000, None).nodes, 0);
}

/// Soundness: the closure never proves a position of a random legal game illegal.
#[test]
fn closure_never_fires_on_random_games() {
    let store = CageStore::new();
    let (mut positions, mut tried, mut seed) = (0, 0, 0u64);
    while positions < POSITIONS {
        let plies = 40 + (seed as usize * 37) % 260;
        for chess in &random_game(seed, plies).positions {
            let p = retro_position(chess);
            let found = closure(&p, &store, SOUNDNESS_NODES, None);
            assert_eq!(found.closed, None, "false closure: {}", p.fen());
            positions += 1;
            tried += usize::from(found.nodes > 0);
        }
        seed += 1;
    }
    // The closure must have been exercised, not skipped.
    eprintln!("{tried} of {positions} tried");
    assert!(tried > positions / 10, "{tried} of {positions} tried");
}
