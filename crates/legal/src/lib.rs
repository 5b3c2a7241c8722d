//! Static legality analysis of retro positions, with explained verdicts.
//!
//! [`analyze`] looks at one [`RetroPosition`] without searching and either proves it illegal, giving
//! one [`Reason`] per contradiction found (a stable code, a sentence naming the squares, the
//! squares), or finds no contradiction. On the way it deduces lower bounds other parts of Retrace
//! use: captures made by each side, promoted units, units that never moved, units shut in a cage.
//!
//! The analysis is *sound*: it never calls a reachable position illegal. Every rule here is a proof
//! that holds for every game; where a sharper rule would need a guess, the rule is left out.
//!
//! The rules, in the order they run:
//! - checks ([`ReasonCode::KingsAdjacent`], [`ReasonCode::RetractingKingInCheck`],
//!   [`ReasonCode::TooManyCheckers`], [`ReasonCode::ImpossibleDoubleCheck`],
//!   [`ReasonCode::ImpossiblePawnCheck`]) and, failing those, [`ReasonCode::NoRetraction`];
//! - units that never moved and the squares they wall off ([`ReasonCode::UnreachableSquare`]);
//! - counting ([`ReasonCode::TooManyUnits`], [`ReasonCode::TooManyPawns`],
//!   [`ReasonCode::TooManyPromotions`]);
//! - the pawn structure as an assignment to start files ([`ReasonCode::ImpossiblePawnStructure`],
//!   [`ReasonCode::TooManyCaptures`]), sharpened by the walls in time that pawns of known history
//!   make ([`ReasonCode::PawnWalksNeedCaptures`]), and kinds whose units no promotion square can
//!   have reached ([`ReasonCode::NoPromotionSquare`]);
//! - the order of events ([`ReasonCode::TrappedRook`], [`ReasonCode::PawnsCrossed`],
//!   [`ReasonCode::BishopCaptureColour`]), the parity of the number of moves
//!   ([`ReasonCode::ImpossibleParity`]), pens too small for their promoted units
//!   ([`ReasonCode::CrowdedPromotionPen`]) or holding more originals than start in them
//!   ([`ReasonCode::CrowdedHomePen`]), promotions forced after every capture of the other
//!   side that left no unit ([`ReasonCode::MissingPromotedUnit`]), and promotions past a king or
//!   rook that castling rights freeze ([`ReasonCode::PromotionsNeedCaptures`]);
//! - failing those, the pawns of both sides accounted for together, promoted units as pawns on
//!   their promotion squares, with the captures that pawns of both colours that passed each
//!   other on a file need ([`ReasonCode::CapturesUnaccounted`]);
//! - failing all those, when few retractions exist, the positions one retraction back, and two
//!   after a forced last move ([`ReasonCode::PredecessorsIllegal`]).
//!
//! Cages ([`ReasonCode::Cage`]) are not part of [`analyze`], which the search calls at every node:
//! [`analyze_with_cages`] adds the user's verified cages, and [`analyze_thoroughly`], for checking
//! one position, also tries the position's small clusters of touching units as cages within a node
//! budget ([`find_cage`]).

#![warn(missing_docs)]

mod accounting;
pub mod cage;
mod checks;
mod history;
mod lookahead;
mod material;
mod pawns;
mod promotion;
mod statics;
pub mod text;
mod types;

use std::cell::RefCell;

use retrace_unmove::RetroPosition;
use shakmaty::{ByColor, Color};

pub use cage::{
    analyze_thoroughly, analyze_with_cages, find_cage, Cage, CageError, CageStore, Verification,
};
pub use pawns::{min_pawn_assignment, pawn_moves_needed};
/// Pawn arithmetic shared with the proof-game bound: a pawn's advance, its fewest moves, and
/// whether a structure may have come straight.
pub mod pawn {
    pub use crate::pawns::{advance, on_distinct_files, walk_moves};
}
pub use statics::permanent_squares;
pub use types::{Analysis, Captures, Reason, ReasonCode, Verdict};

/// The largest pen (in squares) whose units are reported in [`Analysis::caged`].
pub const CAGE_LIMIT: u32 = 8;

/// An analyser with its own cache of pawn-structure results.
///
/// The pawn part of the analysis depends only on the pawns of each side, which change far less often
/// than the rest of a position in a search; keeping one `Analyzer` per thread reuses that work.
pub struct Analyzer {
    pawns: pawns::PawnCache,
    /// Whether the global accounting ([`ReasonCode::CapturesUnaccounted`]) runs (on by default).
    accounting: bool,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new()
    }
}

impl Analyzer {
    /// An analyser with an empty cache.
    #[must_use]
    pub fn new() -> Analyzer {
        Analyzer {
            pawns: pawns::PawnCache::new(),
            accounting: true,
        }
    }

    /// Turns the global accounting of both sides' pawns ([`ReasonCode::CapturesUnaccounted`]) on
    /// or off; it is on by default. Off, the analysis is weaker, never wrong: for benchmarks that
    /// measure what the accounting costs.
    pub fn set_accounting(&mut self, on: bool) {
        self.accounting = on;
    }

    /// Analyses `pos` statically: the verdict with its reasons, and the deductions.
    #[must_use]
    pub fn analyze(&mut self, pos: &RetroPosition) -> Analysis {
        let mut analysis = self.analyze_here(pos);
        if analysis.reasons.is_empty() {
            lookahead::predecessors(self, pos, &mut analysis.reasons);
        }
        analysis
    }

    /// [`Analyzer::analyze`] without looking at the positions one retraction back.
    pub(crate) fn analyze_here(&mut self, pos: &RetroPosition) -> Analysis {
        let mut reasons = Vec::new();
        if !checks::check_reasons(pos, &mut reasons) {
            checks::retro_stalemate(pos, &mut reasons);
        }
        let statics = statics::analyze_statics(pos);
        statics::unreachable_reasons(pos, &statics, &mut reasons);
        let mut promoted = ByColor::<u8>::default();
        let mut captures = ByColor::<Captures>::default();
        let mut promoted_units = ByColor::<material::Promoted>::default();
        for color in Color::ALL {
            let (p, why) = material::promoted(pos, &statics, color);
            material::count_reasons(pos, color, &p, &why, &mut reasons);
            *promoted.get_mut(color) = p.total.min(255) as u8;
            *captures.get_mut(color) =
                material::captures(pos, &statics, color, &p, &mut self.pawns, &mut reasons);
            *promoted_units.get_mut(color) = p;
        }
        let known = history::Known {
            pos,
            statics: &statics,
            promoted: &promoted_units,
            captures: &captures,
        };
        history::reasons(&known, &mut reasons);
        if reasons.is_empty() && self.accounting {
            accounting::global_accounting(&known, &mut reasons);
        }
        Analysis {
            reasons,
            captures,
            promoted,
            never_moved: statics.never_moved,
            caged: statics.caged,
        }
    }
}

/// The board of `fen` (a legal position), for unit tests.
#[cfg(test)]
pub(crate) fn test_board(fen: &str) -> shakmaty::Board {
    use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
    let fen: Fen = fen.parse().expect("fen");
    let pos: Chess = fen.into_position(CastlingMode::Standard).expect("position");
    pos.board().clone()
}

thread_local! {
    static ANALYZER: RefCell<Analyzer> = RefCell::new(Analyzer::new());
}

/// Analyses `pos` statically with this thread's [`Analyzer`] (and so its pawn cache).
///
/// ```
/// use retrace_legal::{analyze, ReasonCode, Verdict};
/// use retrace_unmove::RetroPosition;
///
/// // The kings stand side by side: no last move can have left them so.
/// let pos = RetroPosition::from_fen("8/8/8/8/8/8/8/Kk6 w - - 0 1").unwrap();
/// let analysis = analyze(&pos);
/// assert_eq!(analysis.verdict(), Verdict::Illegal);
/// assert!(analysis.has(ReasonCode::KingsAdjacent));
///
/// // The initial array after 1. e4: no contradiction.
/// let pos =
///     RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
///         .unwrap();
/// assert_eq!(analyze(&pos).verdict(), Verdict::NoContradiction);
/// ```
#[must_use]
pub fn analyze(pos: &RetroPosition) -> Analysis {
    ANALYZER.with(|a| match a.try_borrow_mut() {
        Ok(mut analyzer) => analyzer.analyze(pos),
        // Only reachable if `analyze` were called from inside itself; a fresh analyser is correct.
        Err(_) => Analyzer::new().analyze(pos),
    })
}
