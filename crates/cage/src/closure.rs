//! Closure as a proof of illegality: the whole position verified as a cage (issue 17).
//!
//! A position whose every line of retractions only goes round in a finite set, never reaching the
//! initial array nor freeing a unit, has no history: every game would have to cycle forever.
//! [`closure`] asks exactly that of the cage verifier ([`super::search`]), with the claim made of
//! the units of the position that cannot simply walk away (every unit, less those that the
//! peeling of [`super::find_cage`] takes away; all of them when nothing peels): its search *is*
//! the closure (the set of nodes reachable by retraction, each expanded once, a node met again
//! closing its branch), its escapes are the exits (a unit retracted out of the zone is dropped,
//! and a node with every unit home or none left fails), its budget is the node cap, and what it
//! proves is learnt by the store like any cage. Nothing here searches: this file only makes the
//! claim and words the verdict.
//!
//! Unlike [`super::find_cage`], the claim is not cut into clusters nor capped in units: it is the
//! whole position less its free units, so units far apart that hold each other (a check along a
//! line, a pending unit) are seen together, and a crowd of any size is tried.
//!
//! # Why a verified closure proves the position illegal (hand proof)
//! Let `P` be the position and `G` a legal game ending in `P`; we show that `G` *realizes* the
//! root of the verification (in the sense of `search.rs`), which the verification proves
//! impossible.
//! - The claim holds units of `P` on their squares (all of them, or those peeling left), so the
//!   position after `G` (which is `P`) contains the tracked units. Nothing else is asked of the
//!   squares: an untracked unit may stand anywhere, so every real predecessor of `P` is covered
//!   whatever units its uncaptures restored, and whatever the units left out of the claim did.
//! - Frozen units are those `P` itself marks as never moved (castling rights, the user's marks),
//!   kept only where they stand on their home square, as a cage claim must: in `G` they never
//!   moved, by the meaning of those marks.
//! - The capture allowances: every capture removes one enemy unit and nothing ever adds one, so
//!   in `G` each side made exactly as many captures as the opponent has units missing in `P`
//!   (this is the bound of `carve.rs`'s claims). When the position forbids a side's
//!   uncaptures (`--no-uncapture`, an assertion about the history being searched), that side
//!   made none, and its bound is 0.
//! - The side to move, the en passant square and the clocks are not used: the verifier lets both
//!   sides retract freely (a line in which one side retracts twice in a row stands for a real one
//!   in which an untracked unit moved in between), which only adds lines to search.
//!
//! Then every move of `G`, walked backwards, is explored: the verifier's generator keeps every
//! retraction of a tracked unit that is possible in *some* extension (every plain retraction, every
//! uncapture of an untracked victim while the side's allowance lasts, en passant, promotions and
//! uncastling), and drops only those that no extension allows (a king left in check, an
//! unblockable check, a count of captures over the allowance). A move of an untracked unit leaves
//! the tracked ones alone. So the prefix of `G` before its last move of a tracked unit realizes a
//! child of the root, and so on down to a node that the search closed: by a repetition (a shorter
//! realization would exist, contradicting minimality), by a rule no realization meets, or by a
//! proven cage of the store. The search fails instead of closing when a node has every unit home
//! (the initial array, or what is left of it) or no unit left, when a node needs expanding beyond
//! the depth limit, or when the node cap runs out; none of those proves anything, and the
//! position is then left open. Hence a verified closure leaves `G` nowhere to come from: `P` is
//! illegal.
//!
//! # The exact prefix
//! When the claim's verification fails, [`super::exact`] searches the real retractions of the
//! position itself (its side retracting first, the sides alternating, every check counted) until
//! each line's first uncapture, where it hands the line back to the verifier; a success proves
//! the position illegal just as well (its own hand proof is in `exact.rs`), and is reported with
//! the same reason. It proves what the relaxed semantics gives away: a side that has no last
//! move unless the other side moves first, a king that could only have come through a check
//! along an open line.
//!
//! # Cost
//! A closure is as large as the freedom of its units, so the units that can walk away are left
//! out of the claim, a position whose units all walk away is not tried at all, and neither is one
//! whose claim is sure to have more nodes than the budget (see `too_large` in `relaxed.rs`): these are
//! heuristics that only choose the claim or save time (a smaller claim proven proves the position
//! just as well; not trying proves nothing and is always sound). The node cap bounds the rest.
//! Meant for `prove` and for `check` once the cheaper rules are silent ([`CHECK_CLOSURE_NODES`]),
//! never for every node of a search.

use std::sync::atomic::AtomicBool;

use retrace_unmove::RetroPosition;

use super::exact::{exact_prefix, tempo_prefix, tempo_side};
use super::relaxed::{relaxed, Closed, ClosureSearch, Tempo};
use super::store::CageStore;

/// Nodes the closure may expand in [`crate::analyze_thoroughly`] (`check`), after the cheaper
/// rules and the cage attempt found nothing: a small budget (a failing closure costs about 13
/// microseconds a node), and positions whose closure is sure to be larger are not tried (`prove`
/// gives it more).
pub const CHECK_CLOSURE_NODES: u64 = 5_000;

/// How deep the exact prefix may go when the claim of the relaxed verification was peeled (some
/// units can walk away): 0, so every last move of the position itself must close at once (by the
/// analysis, or by the relaxed closure after an uncapture). Walking units make a deeper exact
/// search a long one on legal positions: on the positions of the random games of the soundness
/// test, a limit of 1 looked at about 100 times as many positions as 0 (the closure as a whole
/// took five times as long), and it proved one corpus position more. A claim that is the whole position gets the exact prefix to any depth within the
/// budget.
const PEELED_PLIES: u32 = 0;

/// Tries to prove `pos` illegal by closure (see the module documentation), expanding at most
/// `max_nodes` nodes, closing branches on the cages of `store` and leaving what it proves there;
/// stops soon after `cancel` is set.
///
/// The relaxed verification of the claim comes first; when it fails, the exact prefix of
/// `cage/exact.rs` gets the nodes left (the real retractions from the position itself, its side
/// to retract first and every check counted, until each line's first uncapture; it learns
/// nothing into `store`), to depth 0 when the claim was peeled (some units can walk away).
///
/// Then, where some side of the position has no piece free to move back, the tempo search of
/// `cage/exact.rs` gets `TEMPO_FACTOR` (20) times the budget (less what was spent).
#[must_use]
pub fn closure(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> ClosureSearch {
    closure_with(pos, store, max_nodes, true, cancel)
}

/// [`closure`] without the tempo search: the relaxed closure and the exact prefix only. For
/// comparison (what the tempo search adds, in benchmarks).
#[must_use]
pub fn closure_without_tempo(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> ClosureSearch {
    closure_with(pos, store, max_nodes, false, cancel)
}

/// [`closure`], with the tempo search or not.
fn closure_with(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    tempo: bool,
    cancel: Option<&AtomicBool>,
) -> ClosureSearch {
    let (relaxed, tried) = relaxed(pos, store, max_nodes, cancel);
    if relaxed.closed.is_some() {
        return relaxed;
    }
    let mut nodes = relaxed.nodes;
    if let Some(whole) = tried {
        let max_plies = if whole { u32::MAX } else { PEELED_PLIES };
        let exact = exact_prefix(
            pos,
            store,
            max_nodes.saturating_sub(nodes),
            max_plies,
            cancel,
        );
        nodes += exact.nodes;
        if exact.proven {
            return ClosureSearch {
                closed: Some(Closed::exact(pos, nodes, exact.plies, None)),
                nodes,
                tempo: false,
            };
        }
    }
    if let Some(side) = tempo.then(|| tempo_side(pos)).flatten() {
        let left = max_nodes.saturating_mul(TEMPO_FACTOR).saturating_sub(nodes);
        let search = tempo_prefix(pos, store, left, cancel);
        nodes += search.nodes;
        return ClosureSearch {
            closed: search
                .proven
                .then(|| Closed::exact(pos, nodes, search.plies, Some(side))),
            nodes,
            tempo: true,
        };
    }
    ClosureSearch {
        closed: None,
        nodes,
        tempo: false,
    }
}

/// How many times the closure's node budget the tempo search of `cage/exact.rs` gets. It runs
/// only on positions where a side has no piece free to move back (rare in games), after the
/// relaxed closure and the exact prefix failed, and its nodes are the generator's and the
/// analysis's, not the verifier's: Sherlock's L51, the position it was made for, takes about
/// 53,000 (under 0.1 s).
const TEMPO_FACTOR: u64 = 20;

impl Closed {
    /// A proof of the exact prefix (with `tempo`, of its tempo search) of the whole position.
    fn exact(pos: &RetroPosition, nodes: u64, plies: u32, tempo: Option<Tempo>) -> Closed {
        Closed {
            units: pos.board().occupied(),
            whole: true,
            nodes,
            plies: Some(plies),
            exact: true,
            tempo,
        }
    }
}
