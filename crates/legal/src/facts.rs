//! Facts about single units: which units a position proves promoted, and which never moved, each
//! with its reason, so that a search can mark them on its root and carry them with the units
//! through every retraction (issue 11, "identity that travels").
//!
//! # Why a fact may travel
//!
//! Every fact here holds for the unit in *every* game that reaches the position `P` it was deduced
//! from. A search retracts from `P`: a predecessor `Q` reached by a line of retractions is legal
//! only if some game reaches `Q`, and every game reaching `Q` goes on with the retracted moves,
//! which are legal moves, to `P`. So every game reaching `Q` is the beginning of a game reaching
//! `P`, and the fact holds in it for the same unit, wherever retraction has put it:
//! - a unit that never moved in a game reaching `P` had not moved by any earlier moment of that
//!   game, so in `Q` it still stands on its square and has never moved (the generator never
//!   retracts a unit marked so);
//! - a unit that was promoted in a game reaching `P` was, at the moment of `Q`, either already
//!   the promoted unit (its mark moves with it: [`RetroPosition::retract`] carries it along the
//!   unit's moves), or still the pawn that promotes later (the retraction of the promotion drops
//!   the mark, and the pawn is a pawn). A unit marked promoted in `Q` is counted as promoted there
//!   whatever `Q`'s own walls show: by kind and bishop colour with the others, and with the pawn
//!   walk and captures its promotion needs (from the promotion squares its region holds).
//!
//! So a search may mark the facts of its root and let the marks travel; a node is then asked
//! whether some game reaches it *in which the marked facts hold*, and every game that continues to
//! the root is such a game. No solution is lost.
//!
//! # Which facts
//!
//! - *Never moved*: a pawn on its second rank; an original frozen on its home square (castling
//!   rights, a user's mark); an original on its home square whose every first step is a square of
//!   a unit that never moved; the units of a closed back-rank segment that is full and in place
//!   (see [`crate::statics`]).
//! - *Promoted*: a unit marked promoted; a unit whose region (the squares its kind reaches by steps
//!   through squares that are not static, never across the move of a pawn with a known one-step
//!   history) holds none of its kind's home squares not held by a unit that never moved, while it
//!   holds a usable promotion square. A unit beyond the originals of its kind whose identity is
//!   forced is such a unit: the homes of the originals that never moved are static, so no other
//!   unit's region holds them. Units of a kind beyond its originals whose identity is *not*
//!   forced (three rooks that all reach a home) are counted by [`crate::analyze`] at every node
//!   and are no fact about one unit.

use std::fmt;

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color, Rank, Role, Square};

use crate::statics::{analyze_statics, fixed_and_stuck};

/// What a [`UnitFact`] says of its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactKind {
    /// The unit is a promoted piece.
    Promoted,
    /// The unit has stood on its square since the initial array and never moved.
    NeverMoved,
}

/// Why a [`UnitFact`] holds: one variant per argument, each with a stable snake_case code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactReason {
    /// A pawn on its second rank: a pawn that moved never comes back to it.
    PawnAtHome,
    /// Marked on the position (castling rights, a user's mark, a search's root).
    Marked,
    /// An original on its home square whose every first step is a square of a unit that never
    /// moved.
    Walled,
    /// An original in a closed back-rank segment that is full and in place: only a knight can
    /// enter or leave such a segment, so nothing in it moved.
    ClosedSegment,
    /// Walls of units that never moved (and pawns of known one-step history) shut every path from
    /// the home squares of its kind, while a promotion square is open to it.
    NoPathFromHome,
}

impl FactReason {
    /// The stable code (`pawn_at_home`, `marked`, `walled`, `closed_segment`,
    /// `no_path_from_home`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FactReason::PawnAtHome => "pawn_at_home",
            FactReason::Marked => "marked",
            FactReason::Walled => "walled",
            FactReason::ClosedSegment => "closed_segment",
            FactReason::NoPathFromHome => "no_path_from_home",
        }
    }
}

impl fmt::Display for FactReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One fact about the unit on one square, true in every game that reaches the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitFact {
    /// The unit's square.
    pub square: Square,
    /// What is known of it.
    pub kind: FactKind,
    /// Why.
    pub reason: FactReason,
    /// For a unit promoted by [`FactReason::NoPathFromHome`]: the promotion squares it can have
    /// come from. Empty otherwise.
    pub from: Bitboard,
}

impl fmt::Display for UnitFact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FactKind::Promoted => "promoted",
            FactKind::NeverMoved => "never moved",
        };
        write!(f, "{} {what} ({})", self.square, self.reason)?;
        if self.from.any() {
            write!(f, " from {}", crate::text::squares_text(self.from))?;
        }
        Ok(())
    }
}

/// The facts about units that a position proves (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitFacts {
    facts: Vec<UnitFact>,
    promoted: Bitboard,
    never_moved: Bitboard,
}

impl UnitFacts {
    /// The facts, in square order, never-moved facts first.
    pub fn iter(&self) -> impl Iterator<Item = &UnitFact> {
        self.facts.iter()
    }

    /// The squares of the units proven promoted.
    #[must_use]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// The squares of the units proven never to have moved.
    #[must_use]
    pub fn never_moved(&self) -> Bitboard {
        self.never_moved
    }

    /// Marks the facts on `pos`, which must be the position they were deduced from (or one with
    /// the same board): every promoted unit, and the units that never moved other than pawns
    /// (which never retract from their second rank anyway), kings, and rooks on their corner
    /// squares (a never-moved mark on a king and a rook at home is read as a castling right, which
    /// the position's own FEN does not state). The facts left out are deduced again from the board
    /// at every node, so leaving them out loses nothing. Returns the squares newly marked.
    pub fn mark(&self, pos: &mut RetroPosition) -> Bitboard {
        let mut marked = Bitboard::EMPTY;
        let board = pos.board().clone();
        let corners = Bitboard::CORNERS;
        for fact in &self.facts {
            let sq = fact.square;
            let Some(role) = board.role_at(sq) else {
                continue;
            };
            let done = match fact.kind {
                FactKind::Promoted => !pos.promoted().contains(sq) && pos.mark_promoted(sq).is_ok(),
                FactKind::NeverMoved => {
                    let skip = matches!(role, Role::Pawn | Role::King)
                        || (role == Role::Rook && corners.contains(sq));
                    !skip && !pos.frozen().contains(sq) && pos.mark_frozen(sq).is_ok()
                }
            };
            if done {
                marked.add(sq);
            }
        }
        marked
    }
}

/// The units `pos` proves promoted and those it proves never moved, each with its reason.
///
/// ```
/// use retrace_legal::{unit_facts, FactKind, FactReason};
/// use retrace_unmove::RetroPosition;
/// use shakmaty::Square;
///
/// // The white rook on a8 is shut in behind black pawns on a7 and b7 and a bishop on c8 behind
/// // b7 and d7: no white rook can have come from a1 or h1, so it was promoted on b8 (a pawn
/// // reaches b8 from c7; a7 and b7 hold pawns that never moved).
/// let pos = RetroPosition::from_fen("R1b1k3/pp1p4/8/8/8/8/8/4K3 b - - 0 1").unwrap();
/// let facts = unit_facts(&pos);
/// let rook = facts.iter().find(|f| f.square == Square::A8).unwrap();
/// assert_eq!((rook.kind, rook.reason), (FactKind::Promoted, FactReason::NoPathFromHome));
/// assert_eq!(rook.from, Square::B8.into());
/// assert!(facts.never_moved().contains(Square::C8));
/// ```
#[must_use]
pub fn unit_facts(pos: &RetroPosition) -> UnitFacts {
    let board = pos.board();
    let statics = analyze_statics(pos, None);
    let (walled, _) = fixed_and_stuck(pos, None);
    let second = (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Second))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Seventh));
    let never_moved = statics.never_moved.into_iter().map(|square| {
        let reason = if second.contains(square) {
            FactReason::PawnAtHome
        } else if pos.frozen().contains(square) {
            FactReason::Marked
        } else if walled.contains(square) {
            FactReason::Walled
        } else {
            FactReason::ClosedSegment
        };
        (square, FactKind::NeverMoved, reason, Bitboard::EMPTY)
    });
    let promoted = statics.promoted.into_iter().map(|square| {
        let from = statics.promoted_from.0[usize::from(square)];
        let reason = if from.any() {
            FactReason::NoPathFromHome
        } else {
            FactReason::Marked
        };
        (square, FactKind::Promoted, reason, from)
    });
    UnitFacts {
        facts: never_moved
            .chain(promoted)
            .map(|(square, kind, reason, from)| UnitFact {
                square,
                kind,
                reason,
                from,
            })
            .collect(),
        promoted: statics.promoted,
        never_moved: statics.never_moved,
    }
}
