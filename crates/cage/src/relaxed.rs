//! The relaxed closure: the whole position, less the units that can walk away, verified as a
//! cage in the verifier's relaxed semantics ([`relaxed`]), and what a closure proves
//! ([`Closed`], [`ClosureSearch`], [`Tempo`]). `closure.rs` says why it is a proof and adds the
//! exact prefix of `exact.rs`, which hands lines back to [`relaxed`] after an uncapture.

use std::sync::atomic::AtomicBool;

use retrace_legal::{
    text::{color_name, plural, squares_text},
    Reason, ReasonCode,
};
use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color};

use super::carve::{peel, retreat, whole_claim, Peeled};
use super::options::VerifyOptions;
use super::search::verify_deepest;
use super::store::CageStore;

/// The side whose tempo the tempo search counted (for the message): it has no piece free to move
/// back, so until the other side uncaptures one of its units it retracts at most `steps` pawn
/// moves (the ranks its pawns advanced, and six for each piece on its last rank that may take its
/// promotion back) and the moves of pieces those moves free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tempo {
    /// The bounded side (of two, the one with fewer steps).
    pub side: Color,
    /// The ranks its pawns advanced from their second rank, in all, and six per piece on its
    /// last rank (the promotion and the five ranks back).
    pub steps: u32,
}

/// A closure [`crate::closure`] proved: every line of retractions from the position dies or repeats.
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

/// What [`crate::closure`] did.
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
/// ([`crate::carve::retreat`]) counts the positions of the units alone, each reachable as far as that estimate
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

/// [`crate::closure`] without the exact prefix: the cage verifier's relaxed semantics alone. For
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

/// The closure by the cage verifier alone (relaxed semantics, see the module documentation of `closure.rs`),
/// and, when its claim was searched (not skipped as dissolving or too large), whether that claim
/// was the whole position.
pub(crate) fn relaxed(
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
    let (verification, plies) = verify_deepest(&cage, store.known(), &options, cancel);
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
