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
//!   no answer ([`ReasonCode::PromotionCheckedFrozenKing`]), and sides shut in by their own
//!   walls after a pawn's step with too few moves to spare ([`ReasonCode::Tempo`]);
//! - failing those, the pawns of both sides accounted for together, promoted units as pawns on
//!   their promotion squares, with the captures that pawns of both colours that passed each
//!   other on a file need ([`ReasonCode::CapturesUnaccounted`]), and the missing units of each
//!   side matched with the other side's captures, each where the unit can have died and the
//!   capture can have landed, and by then, for a capture made before a pawn's single step
//!   ([`ReasonCode::CaptureUnmatched`]), and, where a side's pawns need all but a few of the
//!   captures it made, the other side's pawns that died on their files matched with the files
//!   those captures can have landed on ([`ReasonCode::LedgerUnmatched`]), and the white and black
//!   pawns of a file no account uses, which got by each other only if one left it or died on it,
//!   given the captures that takes ([`ReasonCode::LedgerLockedFile`]), and, in each account of
//!   both sides' pawns, the gates that pawns on their third rank on their own files shut for
//!   good: the originals they pen in force promotions, and a promoted pawn's captures each took a
//!   unit that can have stood there ([`ReasonCode::LedgerGate`]);
//! - failing all those, when few retractions exist, the positions one retraction back, and two
//!   after a forced last move ([`ReasonCode::PredecessorsIllegal`]).
//!
//! [`unit_facts`] hands the deductions about single units (the units proven promoted, those that
//! never moved, each with its [`FactReason`]) to a search, which marks them on its root so that
//! they travel with the units through every retraction.
//!
//! Nothing here searches or takes a budget: cages ([`ReasonCode::Cage`]) and the closure
//! ([`ReasonCode::Closure`]), which are proven by searches of retractions, live in the crate
//! `retrace-cage` above this one, which uses the rules ([`Analyzer::is_illegal_here`]) and the
//! geometry ([`geometry`]) exported here.

#![warn(missing_docs)]

mod accounting;
mod checks;
mod class;
mod facts;
pub mod geometry;
mod history;
mod known;
mod ledger;
mod lookahead;
mod material;
mod memo;
mod pawn_items;
mod pawns;
mod promotion;
mod reasons;
mod statics;
pub mod text;
mod types;

use reasons::Reasons;
use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, ByColor, Color};

pub use facts::{unit_facts, FactKind, FactReason, UnitFact, UnitFacts};
pub use pawns::{min_pawn_assignment, pawn_moves_needed};
/// Pawn arithmetic shared with the proof-game bound: a pawn's advance, its fewest moves, and
/// whether a structure may have come straight.
pub mod pawn {
    pub use crate::pawns::{advance, on_distinct_files, walk_moves, PawnCost};
}

pub use statics::{permanent_squares, permanent_squares_and_home_captures, FixedCache, CAGE_LIMIT};
pub use types::{Analysis, Captures, Reason, ReasonCode, Verdict};

/// Which of the costlier rules an [`Analyzer`] runs; all of them by default. Off, a rule leaves
/// the analysis weaker, never wrong: the switches are for benchmarks that measure what a rule
/// costs and proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnalyzerOptions {
    /// The global accounting of both sides' pawns ([`ReasonCode::CapturesUnaccounted`]).
    pub accounting: bool,
    /// The matching of missing units with captures ([`ReasonCode::CaptureUnmatched`]).
    pub matching: bool,
    /// The timing of that matching: which captures came before the single step of a pawn of
    /// known history, and where their victims can have been by then.
    pub timing: bool,
    /// The matching's accounts of the victim's pawns (each set of start files its pawns on the
    /// board can leave, which says which pawns are missing and how far they can have strayed);
    /// off, the missing pawns may have started on any free start file.
    pub pawn_accounts: bool,
    /// The history ledger ([`ReasonCode::LedgerUnmatched`], [`ReasonCode::LedgerLockedFile`],
    /// [`ReasonCode::LedgerGate`]).
    pub ledger: bool,
}

impl Default for AnalyzerOptions {
    /// Every rule on.
    fn default() -> Self {
        AnalyzerOptions {
            accounting: true,
            matching: true,
            timing: true,
            pawn_accounts: true,
            ledger: true,
        }
    }
}

/// An analyser with its own caches: pawn-structure results, the fixpoint of the units that never
/// moved, the originals' pens and what the walls say of each unit, and pawns' walks to the
/// promotion squares.
///
/// Those parts of the analysis depend on the pawns and the units at home, which change far less
/// often than the rest of a position in a search; keeping one `Analyzer` per search reuses that
/// work. The caches are the analyser's own and only speed it up: the same position gets the same
/// analysis whatever was analysed before.
pub struct Analyzer {
    pawns: pawns::PawnCache,
    /// The fixpoint of the units that never moved, the pens and each unit's walls, by what they
    /// read of a position.
    statics: statics::StaticsMemo,
    /// Pawns' walks to the promotion squares, by the walls and pawn moves they go round.
    walks: promotion::WalkCache,
    /// The late promotions' walks and floods, by the pawns and units that never moved they read.
    late: accounting::LateMemo,
    /// The capture matching's crossings and their order, by the pawns they read.
    orders: accounting::OrdersMemo,
    options: AnalyzerOptions,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new()
    }
}

impl Analyzer {
    /// An analyser with an empty cache, running every rule.
    #[must_use]
    pub fn new() -> Analyzer {
        Analyzer::with_options(AnalyzerOptions::default())
    }

    /// An analyser with an empty cache, running the rules `options` leaves on.
    #[must_use]
    pub fn with_options(options: AnalyzerOptions) -> Analyzer {
        Analyzer {
            pawns: pawns::PawnCache::new(),
            statics: statics::StaticsMemo::default(),
            walks: promotion::WalkCache::default(),
            late: accounting::LateMemo::default(),
            orders: accounting::OrdersMemo::default(),
            options,
        }
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

    /// [`Analyzer::is_illegal`] without looking at the positions one retraction back: the rules
    /// on `pos` alone, for a search that makes its own predecessors.
    #[must_use]
    pub fn is_illegal_here(&mut self, pos: &RetroPosition) -> bool {
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
        let statics = statics::analyze_statics(pos, Some(&mut self.statics));
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
            *analysis.captures.get_mut(color) = material::captures(
                pos,
                &statics,
                color,
                &promoted,
                &mut self.pawns,
                &self.walks,
                out,
            );
            *promoted_units.get_mut(color) = promoted;
        }
        if out.settled() {
            return analysis;
        }
        let known = known::Known {
            pos,
            statics: &statics,
            promoted: &promoted_units,
            captures: &analysis.captures,
            walks: &self.walks,
            items: &Default::default(),
            late: &self.late,
            orders: &self.orders,
        };
        history::reasons(&known, out);
        let options = self.options;
        if out.is_empty() && options.accounting {
            accounting::global_accounting(&known, out);
        }
        if out.is_empty() && options.matching {
            accounting::unmatched_captures(&known, options.timing, options.pawn_accounts, out);
        }
        if out.is_empty() && options.ledger {
            ledger::ledger(&known, out);
        }
        analysis
    }
}

impl lookahead::Rules for Analyzer {
    fn rules(&mut self, pos: &RetroPosition, out: &mut Reasons) -> Analysis {
        Analyzer::rules(self, pos, out)
    }

    fn analyze_here(&mut self, pos: &RetroPosition) -> Analysis {
        Analyzer::analyze_here(self, pos)
    }

    fn is_illegal_here(&mut self, pos: &RetroPosition) -> bool {
        Analyzer::is_illegal_here(self, pos)
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

/// Analyses `pos` statically with an [`Analyzer`] of its own: for one position; a caller that
/// analyses many keeps an `Analyzer` and reuses its caches.
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
    Analyzer::new().analyze(pos)
}

/// Whether [`analyze`] finds `pos` illegal, with an [`Analyzer`] of its own and without the
/// explanation: for one position; a search, which asks at every node, keeps an `Analyzer` and
/// asks [`Analyzer::is_illegal`], reusing its caches.
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
    Analyzer::new().is_illegal(pos)
}
