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
//!   side that left no unit ([`ReasonCode::MissingPromotedUnit`]), promotions past a king or
//!   rook that castling rights freeze ([`ReasonCode::PromotionsNeedCaptures`]), and rooks or
//!   queens that can only have been promoted beside a king that never moved, checking it with
//!   no answer ([`ReasonCode::PromotionCheckedFrozenKing`]);
//! - failing those, the pawns of both sides accounted for together, promoted units as pawns on
//!   their promotion squares, with the captures that pawns of both colours that passed each
//!   other on a file need ([`ReasonCode::CapturesUnaccounted`]), and the missing units of each
//!   side matched with the other side's captures, each where the unit can have died and the
//!   capture can have landed, and by then, for a capture made before a pawn's single step
//!   ([`ReasonCode::CaptureUnmatched`]);
//! - failing all those, when few retractions exist, the positions one retraction back, and two
//!   after a forced last move ([`ReasonCode::PredecessorsIllegal`]).
//!
//! [`unit_facts`] hands the deductions about single units (the units proven promoted, those that
//! never moved, each with its [`FactReason`]) to a search, which marks them on its root so that
//! they travel with the units through every retraction.
//!
//! Cages ([`ReasonCode::Cage`]) are not part of [`analyze`], which the search calls at every node:
//! [`analyze_with_cages`] adds the user's verified cages, and [`analyze_thoroughly`], for checking
//! one position, also tries the position's small clusters of touching units as cages within a node
//! budget ([`find_cage`]).

#![warn(missing_docs)]

mod accounting;
pub mod cage;
mod checks;
mod facts;
mod history;
mod lookahead;
mod material;
mod pawns;
mod promotion;
mod reasons;
mod statics;
pub mod text;
mod types;

use std::cell::RefCell;

use reasons::Reasons;
use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, ByColor, Color};

pub use cage::{
    analyze_thoroughly, analyze_with_cages, find_cage, Cage, CageError, CageStore, Verification,
};
pub use facts::{unit_facts, FactKind, FactReason, UnitFact, UnitFacts};
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
    /// Whether the matching of missing units with captures ([`ReasonCode::CaptureUnmatched`])
    /// runs (on by default).
    matching: bool,
    /// Whether that matching orders the captures against the single steps of pawns of known
    /// history (on by default).
    timing: bool,
    /// Whether that matching places the victim's missing pawns by each account of its pawns on
    /// the board (on by default).
    pawn_accounts: bool,
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
            matching: true,
            timing: true,
            pawn_accounts: true,
        }
    }

    /// Turns the global accounting of both sides' pawns ([`ReasonCode::CapturesUnaccounted`]) on
    /// or off; it is on by default. Off, the analysis is weaker, never wrong: for benchmarks that
    /// measure what the accounting costs.
    pub fn set_accounting(&mut self, on: bool) {
        self.accounting = on;
    }

    /// Turns the matching of missing units with captures ([`ReasonCode::CaptureUnmatched`]) on or
    /// off; it is on by default. Off, the analysis is weaker, never wrong: for benchmarks.
    pub fn set_matching(&mut self, on: bool) {
        self.matching = on;
    }

    /// Turns the timing of that matching (which captures came before the single step of a pawn
    /// of known history, and where their victims can have been by then) on or off; it is on by
    /// default. Off, the analysis is weaker, never wrong: for benchmarks.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Turns on or off the matching's accounts of the victim's pawns (each set of start files its
    /// pawns on the board can leave, which says which pawns are missing and how far they can have
    /// strayed); on by default. Off, the missing pawns may have started on any free start file:
    /// weaker, never wrong; for benchmarks.
    pub fn set_pawn_accounts(&mut self, on: bool) {
        self.pawn_accounts = on;
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

    /// Whether [`Analyzer::analyze`] finds `pos` illegal, answered as a search needs it: the
    /// rules stop at the first reason, and no reason's text is made.
    #[must_use]
    pub fn is_illegal(&mut self, pos: &RetroPosition) -> bool {
        self.is_illegal_here(pos) || lookahead::predecessors_illegal(self, pos)
    }

    /// [`Analyzer::analyze`] without looking at the positions one retraction back.
    pub(crate) fn analyze_here(&mut self, pos: &RetroPosition) -> Analysis {
        let mut reasons = Reasons::explaining();
        let mut analysis = self.rules(pos, &mut reasons);
        analysis.reasons = reasons.into_vec();
        analysis
    }

    /// [`Analyzer::is_illegal`] without looking at the positions one retraction back.
    pub(crate) fn is_illegal_here(&mut self, pos: &RetroPosition) -> bool {
        let mut reasons = Reasons::verdict_only();
        let _ = self.rules(pos, &mut reasons);
        !reasons.is_empty()
    }

    /// Runs the rules on `pos` in order, each adding its reasons to `out`, and returns the
    /// deductions (with no reasons: they are in `out`). When `out` wants only the verdict, the
    /// rules stop at the first reason, and the deductions not made by then stay at their defaults.
    pub(crate) fn rules(&mut self, pos: &RetroPosition, out: &mut Reasons) -> Analysis {
        let mut analysis = Analysis {
            reasons: Vec::new(),
            captures: ByColor::default(),
            promoted: ByColor::default(),
            never_moved: Bitboard::EMPTY,
            caged: Bitboard::EMPTY,
        };
        if !checks::check_reasons(pos, out) {
            checks::retro_stalemate(pos, out);
        }
        if out.settled() {
            return analysis;
        }
        let statics = statics::analyze_statics(pos);
        (analysis.never_moved, analysis.caged) = (statics.never_moved, statics.caged);
        statics::unreachable_reasons(pos, &statics, out);
        let mut promoted_units = ByColor::<material::Promoted>::default();
        for color in Color::ALL {
            if out.settled() {
                return analysis;
            }
            let promoted = material::promoted(pos, &statics, color);
            material::count_reasons(pos, color, &statics, &promoted, out);
            *analysis.promoted.get_mut(color) = promoted.total.min(255) as u8;
            *analysis.captures.get_mut(color) =
                material::captures(pos, &statics, color, &promoted, &mut self.pawns, out);
            *promoted_units.get_mut(color) = promoted;
        }
        if out.settled() {
            return analysis;
        }
        let known = history::Known {
            pos,
            statics: &statics,
            promoted: &promoted_units,
            captures: &analysis.captures,
        };
        history::reasons(&known, out);
        if out.is_empty() && self.accounting {
            accounting::global_accounting(&known, out);
        }
        if out.is_empty() && self.matching {
            accounting::unmatched_captures(&known, self.timing, self.pawn_accounts, out);
        }
        analysis
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

/// Whether [`analyze`] finds `pos` illegal, with this thread's [`Analyzer`]: the answer a search
/// asks at every node, made without the explanation (see [`Analyzer::is_illegal`]).
///
/// ```
/// use retrace_legal::{analyze, is_illegal};
/// use retrace_unmove::RetroPosition;
///
/// let pos = RetroPosition::from_fen("8/8/8/8/8/8/8/Kk6 w - - 0 1").unwrap();
/// assert!(is_illegal(&pos) && !analyze(&pos).reasons.is_empty());
/// ```
#[must_use]
pub fn is_illegal(pos: &RetroPosition) -> bool {
    ANALYZER.with(|a| match a.try_borrow_mut() {
        Ok(mut analyzer) => analyzer.is_illegal(pos),
        Err(_) => Analyzer::new().is_illegal(pos),
    })
}

/// Whether [`analyze_with_cages`] finds `pos` illegal: [`is_illegal`], or a cage of `store` that
/// `pos` contains.
#[must_use]
pub fn is_illegal_with_cages(pos: &RetroPosition, store: &CageStore) -> bool {
    is_illegal(pos) || (!store.is_empty() && !store.reasons(pos).is_empty())
}
