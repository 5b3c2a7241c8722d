//! Cages of retro positions (after Theodore Hwa, "Cages in Retrograde Analysis"): define, verify,
//! keep, use.
//!
//! This crate is the search half of legality: where [`retrace_legal`] looks at one position
//! statically, a cage is proven by a search of retractions within a node budget. It sits between
//! `retrace-legal`, whose rules and geometry it uses, and `retrace-search`, which prunes on the
//! cages a store keeps ([`is_illegal_with_cages`]).
//!
//! A *cage* is a set of units that no game can ever have released: every position containing them
//! (whatever stands on the other squares) is illegal. A [`Cage`] is a claim, read from one line of
//! a cage file ([`Cage::parse_line`], printed back by `Display`); [`verify`] searches retractions
//! of both sides, legal in some extension of the position, and proves the claim or returns a line
//! that escapes; a [`CageStore`] keeps proven cages only, exports and imports them, and lets the
//! analysis report [`retrace_legal::ReasonCode::Cage`] for any position containing one
//! ([`analyze_with_cages`]).
//!
//! The search is Hwa's algorithm with two sound additions (see `search.rs` for the proof): checks
//! along lines known to be empty at the moment of a move (a pinned unit cannot have left its line;
//! a unit shielding the enemy king arrived by a capture), and capture counting (a side's pawn
//! structure plus its uncaptures may not exceed what the opponent's missing units, or the cage's
//! own `captures=` bounds, allow).
//!
//! Which side retracts first does not matter for a cage: both sides retract freely from the root,
//! which has no side to move. If a king of the cage stands in an unblockable check, the checking
//! unit must retract first (its side made the last move); two kings in such checks, or one king in
//! two, make the cage illegal outright.
//!
//! [`find_cage`] makes the claims itself: it tries the small clusters of touching units of a
//! position as cages within a node budget, for checking one position without any user claim
//! ([`analyze_thoroughly`]).
//!
//! [`closure`] verifies the whole position as a cage: when every line of retractions from it
//! only goes round in a finite set, the position has no history
//! ([`retrace_legal::ReasonCode::Closure`]).

#![warn(missing_docs)]

// The files, each importing only those listed before it (no import circle): the outcome and
// settings of a verification; the claim format; claims carved out of a position; the node
// generator; the memo of what verifications learnt; the verifier; the store; the relaxed
// closure; the exact prefix; the closure; the cage attempt; the analysis with cages.
mod analysis;
mod auto;
mod carve;
mod closure;
mod exact;
mod failure;
mod format;
mod generator;
mod memo;
mod options;
mod relaxed;
mod search;
mod store;
#[cfg(test)]
mod tests;

pub use analysis::{analyze_thoroughly, analyze_with_cages, is_illegal_with_cages};
pub use auto::{find_cage, AutoLimits, CageFinder, CageSearch, FoundCage};
pub use carve::clusters;
pub use closure::{closure, closure_without_tempo, CHECK_CLOSURE_NODES};
pub use failure::{Escape, Failure};
pub use format::{default_zone, Cage, CageError, DEFAULT_DEPTH, MAX_DEPTH};
pub use options::{VerifyOptions, DEFAULT_MAX_BYTES};
pub use relaxed::{relaxed_closure, Closed, ClosureSearch, Tempo};
pub use search::{Proven, Verification, CANCEL_POLL};
pub use store::{verify, verify_cancellable, verify_with, CageStore, LoadBudget};
