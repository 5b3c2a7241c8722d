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
//!   (this is the bound of [`super::auto`]'s claims). When the position forbids a side's
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
//! whose claim is sure to have more nodes than the budget (see [`too_large`]): these are
//! heuristics that only choose the claim or save time (a smaller claim proven proves the position
//! just as well; not trying proves nothing and is always sound). The node cap bounds the rest.
//! Meant for `prove` and for `check` once the cheaper rules are silent ([`CHECK_CLOSURE_NODES`]),
//! never for every node of a search.

use std::sync::atomic::AtomicBool;

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color};

use super::auto::{claim, peel, retreat, Peeled};
pub use super::exact::Tempo;
use super::exact::{exact_prefix, tempo_prefix, tempo_side};
use super::format::{Cage, MAX_DEPTH};
use super::search::{verify_deepest, VerifyOptions};
use super::store::CageStore;
use retrace_legal::{
    text::{color_name, plural, squares_text},
    Reason, ReasonCode,
};

/// Nodes the closure may expand in [`super::analyze_thoroughly`] (`check`), after the cheaper
/// rules and the cage attempt found nothing: a small budget (a failing closure costs about 13
/// microseconds a node), and positions whose closure is sure to be larger are not tried (`prove`
/// gives it more).
pub const CHECK_CLOSURE_NODES: u64 = 5_000;

/// A closure [`closure`] proved: every line of retractions from the position dies or repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closed {
    /// The units of the claim: those of the position that peeling left.
    pub units: Bitboard,
    /// Whether the claim holds every unit of the position (nothing peeled away).
    pub whole: bool,
    /// Nodes (positions of the tracked units) the verification expanded.
    pub nodes: u64,
    /// The longest line of retractions before every line had died or repeated (`None` when the
    /// proof came from the store's cache).
    pub plies: Option<u32>,
    /// Whether the proof is the exact prefix's (`cage/exact.rs`): every check counted, the
    /// sides alternating, until each line's first uncapture (and one ply past it where the
    /// relaxed closure of the uncapture's child failed). It tracks every unit of the
    /// position, so `units` is all of them and `whole` is true.
    pub exact: bool,
    /// When the proof is the exact prefix's tempo search (`cage/exact.rs`), the side it counted:
    /// the search is the exact prefix, its lines followed through the uncaptures after which a
    /// side still has no piece free to move back, so that side's pawns count the moves the other
    /// side has left.
    pub tempo: Option<Tempo>,
}

impl Closed {
    /// The [`ReasonCode::Closure`] reason: "no history: every line of retractions repeats a
    /// position or dies within K plies (N positions)", naming the units when some were left out.
    #[must_use]
    pub fn reason(&self) -> Reason {
        let within = self
            .plies
            .filter(|&k| k > 0)
            .map(|k| format!(" within {k} {}", if k == 1 { "ply" } else { "plies" }))
            .unwrap_or_default();
        let (of, squares) = if self.whole {
            (String::new(), Bitboard::EMPTY)
        } else {
            (
                format!(" of the units on {}", squares_text(self.units)),
                self.units,
            )
        };
        let message = if self.nodes == 0 {
            // The root closed at once: a cage proven earlier in the process, or the verifier's
            // node rules (a king walled out of its home's reach).
            format!(
                "no history: every line of retractions{of} repeats a position or dies, as an \
                 earlier proof or the units' own walls show (uncaptures included), so no game \
                 reaches this one"
            )
        } else {
            let how = if let Some(t) = self.tempo {
                let (side, other) = (color_name(t.side), color_name(t.side.other()));
                format!(
                    ", the sides alternating and every check counted: {side} has no piece free \
                     to move back, so until {other} uncaptures one {side} retracts only pawn \
                     steps (at most {}) and {other} one move between two of them",
                    t.steps
                )
            } else if self.exact {
                ", the sides alternating and every check counted up to each line's first \
                 uncapture, and a ply past it where needed"
                    .to_owned()
            } else {
                String::new()
            };
            format!(
                "no history: every line of retractions{of} repeats a position or dies{within} ({} \
                 position{}, uncaptures included{how}), so no game reaches this one",
                self.nodes,
                plural(self.nodes)
            )
        };
        Reason::new(ReasonCode::Closure, message, squares)
    }
}

/// What [`closure`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClosureSearch {
    /// The proof, if the closure was finite and without an exit within the budget.
    pub closed: Option<Closed>,
    /// Nodes expanded (0 when the position was not tried).
    pub nodes: u64,
    /// Whether the tempo search of `cage/exact.rs` was tried (some side is bounded).
    pub tempo: bool,
}

/// Whether the closure of the `units` of `board` is sure to be larger than `max_nodes`: the
/// product over those units of the squares each could retract to if the others stood still
/// ([`retreat`]) counts the positions of the units alone, each reachable as far as that estimate
/// goes, before any uncapture adds more. A closure cannot be proven without expanding every one of its nodes, so
/// such a position is not tried: on an ordinary legal position the verification would only spend
/// its whole budget on the way back to the initial array (a unit that walks out of the zone is
/// dropped and proves at most a cage of the rest, the cage attempt's business). A heuristic that
/// only saves time; not trying proves nothing and is always sound.
fn too_large(board: &shakmaty::Board, units: Bitboard, max_nodes: u64) -> bool {
    let mut product: u64 = 1;
    for sq in units {
        product = product.saturating_mul(u64::from(retreat(board, sq).count().max(1) as u32));
        if product > max_nodes {
            return true;
        }
    }
    false
}

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

/// [`closure`] without the exact prefix: the cage verifier's relaxed semantics alone. For
/// comparison (what the exact prefix adds, in tests and benchmarks).
#[must_use]
pub fn relaxed_closure(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> ClosureSearch {
    relaxed(pos, store, max_nodes, cancel).0
}

/// The claim of the closure of `units` of `pos`: [`claim`], with no captures for a side whose
/// uncaptures the position forbids, and the largest depth.
pub(super) fn whole_claim(pos: &RetroPosition, units: Bitboard) -> Option<Cage> {
    let mut cage = claim(pos, units)?;
    for color in Color::ALL {
        if !pos.uncaptures_allowed(color) {
            *cage.captures.get_mut(color) = Some(0);
        }
    }
    cage.depth = MAX_DEPTH;
    Some(cage)
}

/// The closure by the cage verifier alone (relaxed semantics, see the module documentation),
/// and, when its claim was searched (not skipped as dissolving or too large), whether that claim
/// was the whole position.
pub(super) fn relaxed(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> (ClosureSearch, Option<bool>) {
    let none = ClosureSearch {
        closed: None,
        nodes: 0,
        tempo: false,
    };
    if max_nodes == 0 {
        return (none, None);
    }
    let all = pos.board().occupied();
    let units = match peel(pos.board(), all) {
        Peeled::Dissolved => return (none, None),
        Peeled::Whole => all,
        Peeled::Cores(cores) => cores.into_iter().fold(Bitboard::EMPTY, |all, c| all | c),
    };
    if too_large(pos.board(), units, max_nodes) {
        return (none, None);
    }
    let Some(cage) = whole_claim(pos, units) else {
        return (none, None);
    };
    let options = VerifyOptions {
        max_nodes,
        ..VerifyOptions::default()
    };
    let (verification, plies) = verify_deepest(&cage, store, &options, cancel);
    let search = ClosureSearch {
        closed: verification.verified().then_some(Closed {
            units,
            whole: units == all,
            nodes: verification.nodes,
            plies,
            exact: false,
            tempo: None,
        }),
        nodes: verification.nodes,
        tempo: false,
    };
    (search, Some(units == all))
}
