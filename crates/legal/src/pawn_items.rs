//! The pawns one side must account for ([`Item`]): where each ended and what it cost from each
//! start file, and the memo that keeps them for one position. The data only; the accounting
//! computes them (`accounting::items`), the deductions bundle carries the memo.

use std::cell::OnceCell;

use shakmaty::{Bitboard, ByColor, Color, Square};

/// Where a pawn of the account ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// On the board, on this square.
    Board(Square),
    /// Promoted to one of `units`, on one of the promotion squares `squares`.
    Promoted {
        /// The units of which its unit is one.
        units: Bitboard,
        /// The promotion squares its unit can have come from.
        squares: Bitboard,
    },
}

/// What a pawn costs if it started on one file.
///
/// Invariant: `base <= leave`, and `leave >= 1` (leaving a file is a capture). A pawn that paid
/// `base == 0` never left its start file (a walk without a capture stays on its file), and ended on
/// it; a pawn that left its start file at some moment paid at least `leave`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cost {
    /// The fewest captures ([`NONE`](crate::promotion::NONE) if it cannot have started on the file).
    pub base: u32,
    /// The fewest captures if it left its start file at some moment ([`NONE`](crate::promotion::NONE) if it cannot).
    pub leave: u32,
}

/// A pawn to account for, with its cost from each start file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    /// Where it ended.
    pub place: Place,
    /// Its cost from each start file, indexed by file.
    pub costs: [Cost; 8],
}

impl Item {
    /// How far up the board the pawn went, for deciding whether two pawns of a file passed each
    /// other: its rank on the board, or past every rank for a pawn that promoted (8 for White, -1
    /// for Black).
    pub(crate) fn height(&self, color: Color) -> i8 {
        match self.place {
            Place::Board(sq) => sq.rank() as i8,
            Place::Promoted { .. } if color.is_white() => 8,
            Place::Promoted { .. } => -1,
        }
    }
}

/// The items of each side for one position, each computed when a rule first asks: the
/// accounting, the matching and the ledger all ask, and their walks cost a fifth of a node's
/// analysis.
#[derive(Debug, Default)]
pub(crate) struct ItemsMemo(pub(crate) ByColor<OnceCell<Option<Vec<Item>>>>);
