//! The result types of the analysis: verdict, reasons and deductions.

use std::fmt;

use shakmaty::{Bitboard, ByColor, Square};

/// Whether the analysis found a contradiction.
///
/// The analysis is one-sided: [`Verdict::Illegal`] is a proof (each reason is one), while
/// [`Verdict::NoContradiction`] only says that none of the rules applied found one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// At least one reason proves that no game reaches the position.
    Illegal,
    /// No rule found a contradiction (the position may still be illegal).
    NoContradiction,
}

impl Verdict {
    /// The stable name used in JSON (`illegal`, `no_contradiction`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Illegal => "illegal",
            Verdict::NoContradiction => "no_contradiction",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Declares [`ReasonCode`] from one list of `Variant = "code",` entries, so that the enum,
/// [`ReasonCode::ALL`] and [`ReasonCode::as_str`] cannot drift apart.
macro_rules! reason_codes {
    ($($(#[$doc:meta])* $variant:ident = $code:literal,)*) => {
        /// Why a position is illegal: one variant per rule, each with a stable snake_case code.
        ///
        /// The codes are part of the `check` JSON contract: never rename one, only add new ones.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ReasonCode {
            $($(#[$doc])* $variant,)*
        }

        impl ReasonCode {
            /// Every code, in a fixed order (for tests and documentation).
            pub const ALL: [ReasonCode; <[&str]>::len(&[$($code),*])] =
                [$(ReasonCode::$variant),*];

            /// The stable snake_case code.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ReasonCode::$variant => $code,)*
                }
            }
        }
    };
}

reason_codes! {
    /// The king of the side that made the last move is attacked (it moved into or stayed in check).
    RetractingKingInCheck = "retracting_king_in_check",
    /// The two kings stand next to each other (a special case of the above, named for clarity).
    KingsAdjacent = "kings_adjacent",
    /// Three or more units check the king of the side to move; one move makes at most two checks.
    TooManyCheckers = "too_many_checkers",
    /// A double check that no last move (discovery, promotion, en passant) can have made.
    ImpossibleDoubleCheck = "impossible_double_check",
    /// A pawn gives check but every square it could have come from is occupied.
    ImpossiblePawnCheck = "impossible_pawn_check",
    /// No legal retraction exists and the position is not the initial array.
    NoRetraction = "no_retraction",
    /// A side has more than 16 units.
    TooManyUnits = "too_many_units",
    /// A side has more than 8 pawns.
    TooManyPawns = "too_many_pawns",
    /// A side has more promoted units than pawns missing from the board.
    TooManyPromotions = "too_many_promotions",
    /// No assignment of the pawns of a side to their start files fits pawn moves at all.
    ImpossiblePawnStructure = "impossible_pawn_structure",
    /// A side must have made more captures than the opponent has units missing.
    TooManyCaptures = "too_many_captures",
    /// A unit stands where it cannot have arrived: walls of units that never moved shut every
    /// path from its home square and from every promotion square.
    UnreachableSquare = "unreachable_square",
    /// The position contains a verified user cage: units no game can ever have released.
    Cage = "cage",
    /// The number of moves played must have the other parity than the side to move says: every
    /// move that can have been played changes the colour of the squares occupied in a known way.
    ImpossibleParity = "impossible_parity",
    /// A closed back-rank segment (only knights can enter or leave it) holds units that cannot be
    /// there: intruders, or originals rearranged although nothing in the segment can have moved.
    ClosedRegionRearranged = "closed_region_rearranged",
    /// A king stands where it cannot have walked: every path from its home square crosses squares
    /// enemy units attacked at every moment, or blocked at the wrong time.
    KingNoPath = "king_no_path",
    /// A white and a black pawn on one file have passed each other, which needs captures that the
    /// missing units cannot account for.
    PawnsCrossed = "pawns_crossed",
    /// A side misses an original bishop, but every capture the opponent made was on squares of the
    /// other colour.
    BishopCaptureColour = "bishop_capture_colour",
    /// A rook on its second rank behind its own pawn and before a bishop walled in by two pawns
    /// cannot have arrived there (CQLi's "impossibly trapped rook").
    TrappedRook = "trapped_rook",
    /// The promoted units need pawns that reached promotion squares around static pawns, and those
    /// paths need more captures than the missing units allow.
    PromotionsNeedCaptures = "promotions_need_captures",
    /// Every legal retraction leads to a position proven illegal: no last move can have been
    /// played.
    PredecessorsIllegal = "predecessors_illegal",
    /// Promoted units shut in a pen that every promotion into it must enter from inside it: when
    /// the last of them was promoted, the others had too few squares left.
    CrowdedPromotionPen = "crowded_promotion_pen",
    /// A missing pawn that no capture can have taken promoted after every capture of the other
    /// side, so its unit is on the board, yet no unit can have come from its promotion square.
    MissingPromotedUnit = "missing_promoted_unit",
    /// A kind has more units than originals, but more of its units than originals can have come
    /// from no promotion square: every promotion square lies in a pen, walled in time by units that
    /// never moved and pawns that moved once, that a unit promoted there never left.
    NoPromotionSquare = "no_promotion_square",
    /// The pawns on the board (and those that promoted) must have walked around units that never
    /// moved and past pawns of known history, which needs more captures than the other side's
    /// missing units allow.
    PawnWalksNeedCaptures = "pawn_walks_need_captures",
    /// More units of a kind stand in a pen (walled in time) than originals of that kind start in
    /// it, and none of them can have been promoted into it.
    CrowdedHomePen = "crowded_home_pen",
    /// Every line of retractions from the position, with every uncapture the missing units allow,
    /// repeats a position or dies within a finite set: no history leads back to the initial array
    /// (the whole board verified as a cage, see `retrace_cage::closure`).
    Closure = "closure",
    /// No account of both sides' pawns (on the board and those that promoted) to start files fits
    /// the units each side is missing, once the pawns of both colours that passed each other on a
    /// file are charged the captures that let one of them by.
    CapturesUnaccounted = "captures_unaccounted",
    /// The units a side misses cannot each be given their own capture by the other side: some of
    /// them can only have died where fewer captures can have landed (the crossings of the other
    /// side's pawns, in every account of their start files, and its pieces' reach), by Hall's
    /// theorem.
    CaptureUnmatched = "capture_unmatched",
    /// A side's pawns need all but a few of the captures it made (their walks, and the pawns of
    /// both colours that passed each other on a file), so those landed on files their walks
    /// reach; but pawns of the other side that can neither have promoted nor left their files
    /// died there, more of them than those captures and the few others can have taken (the
    /// history ledger, issue 25).
    LedgerUnmatched = "ledger_unmatched",
    /// Neither side has a capture to spare beyond those its pawns' walks need, so a white and a
    /// black pawn of one file that no account of the pawns uses never left it and could not
    /// pass each other: one of them died on it as a pawn, where no capture of the other side
    /// can have landed (the history ledger, issue 25).
    LedgerLockedFile = "ledger_locked_file",
    /// A promoted rook or queen on the board cannot have been promoted beside a king that never
    /// moved (it would have checked it with no answer), and the promotion squares left need more
    /// captures than the missing units allow.
    PromotionCheckedFrozenKing = "promotion_checked_frozen_king",
    /// A side whose pieces never moved or were shut in after a pawn's step could only move pawns
    /// since, too few moves for the moves the other side's units needed after that step.
    Tempo = "tempo",
    /// The FEN, read exactly (`--exact-fen`), lacks a castling right whose king and rook stand at
    /// home, so one of them moved; but both never moved (walled in at home, or frozen).
    LostRightUnmoved = "lost_right_unmoved",
    /// The FEN, read exactly (`--exact-fen`), says no en passant capture was legal (`-`), which
    /// rules out the last move: each is a double step that would have allowed one, or leads to a
    /// position proven illegal.
    EnPassantField = "en_passant_field",
    /// Every line of retractions from the position dies, or repeats a position, within a few
    /// plies: no history that deep exists, so no game reaches it (a search's look a few plies
    /// past a candidate's extra depth, for the retro-stalemates just beyond it, issue 25).
    NoHistory = "no_history",
    /// In every account of both sides' pawns that fits the counts, a gate was shut for good (a
    /// pawn on its third rank on its own file came in one step, so no unit ever passed between
    /// the two squares): the originals it pens in leave more promoted units on the board than the
    /// other side's pawns can have promoted, or a promoted pawn's walk needs captures where no
    /// missing unit of the other side can have stood (the history ledger, issue 25).
    LedgerGate = "ledger_gate",
}

impl ReasonCode {
    /// The code named by `text`, if any (the inverse of [`ReasonCode::as_str`]).
    #[must_use]
    pub fn from_code(text: &str) -> Option<ReasonCode> {
        ReasonCode::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for ReasonCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One proof of illegality: a code, a sentence naming the squares, and the squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// Which rule found the contradiction.
    pub code: ReasonCode,
    /// A one-line explanation for people; it names the squares of `squares`.
    pub message: String,
    /// The squares the explanation is about, in the order the message names them.
    pub squares: Vec<Square>,
}

impl Reason {
    /// A reason whose squares are those of `squares`, in square order.
    #[must_use]
    pub fn new(code: ReasonCode, message: String, squares: Bitboard) -> Reason {
        Reason {
            code,
            message,
            squares: squares.into_iter().collect(),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// Lower bounds on the captures one side has made.
///
/// Invariant: `by_pawns <= total` (captures by pawns are among all captures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Captures {
    /// At least this many captures were made by pawns of the side (file changes of its pawns,
    /// on the board or promoted).
    pub by_pawns: u8,
    /// At least this many captures were made by the side in all.
    pub total: u8,
}

/// The result of [`crate::analyze`]: a verdict with its reasons, and what was deduced on the way.
///
/// Invariant: the verdict is [`Verdict::Illegal`] exactly when `reasons` is not empty. The
/// deductions are lower bounds (captures, promotions) and sets of squares proven to have a
/// property; for an illegal position they are whatever was deduced before or beside the reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The proofs of illegality found; empty when there is no contradiction.
    pub reasons: Vec<Reason>,
    /// Minimum captures MADE by each side.
    pub captures: ByColor<Captures>,
    /// Minimum number of promoted units on the board, per side.
    pub promoted: ByColor<u8>,
    /// Occupied squares whose unit has stood there since the initial array and never moved.
    pub never_moved: Bitboard,
    /// Units (other than pawns) shut in a small region by units that never moved: they cannot
    /// leave a pen of at most [`crate::CAGE_LIMIT`] squares.
    pub caged: Bitboard,
}

impl Analysis {
    /// Illegal if any reason was found, otherwise no contradiction.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        if self.reasons.is_empty() {
            Verdict::NoContradiction
        } else {
            Verdict::Illegal
        }
    }

    /// Whether a reason with `code` was found.
    #[must_use]
    pub fn has(&self, code: ReasonCode) -> bool {
        self.reasons.iter().any(|r| r.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::squares_text;

    /// The codes are a contract (the `check` JSON): they are listed here in full, in order, as
    /// they stood before `ReasonCode` was generated, so a change to one fails this test.
    #[test]
    fn codes_are_the_contract() {
        let codes: Vec<&str> = ReasonCode::ALL.iter().map(|c| c.as_str()).collect();
        let contract = [
            "retracting_king_in_check",
            "kings_adjacent",
            "too_many_checkers",
            "impossible_double_check",
            "impossible_pawn_check",
            "no_retraction",
            "too_many_units",
            "too_many_pawns",
            "too_many_promotions",
            "impossible_pawn_structure",
            "too_many_captures",
            "unreachable_square",
            "cage",
            "impossible_parity",
            "closed_region_rearranged",
            "king_no_path",
            "pawns_crossed",
            "bishop_capture_colour",
            "trapped_rook",
            "promotions_need_captures",
            "predecessors_illegal",
            "crowded_promotion_pen",
            "missing_promoted_unit",
            "no_promotion_square",
            "pawn_walks_need_captures",
            "crowded_home_pen",
            "closure",
            "captures_unaccounted",
            "capture_unmatched",
            "ledger_unmatched",
            "ledger_locked_file",
            "promotion_checked_frozen_king",
            "tempo",
            "lost_right_unmoved",
            "en_passant_field",
            "no_history",
            "ledger_gate",
        ];
        assert_eq!(codes, contract);
    }

    #[test]
    fn codes_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in ReasonCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(
                s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{s}"
            );
            assert_eq!(ReasonCode::from_code(s), Some(code));
        }
        assert_eq!(ReasonCode::from_code("no_such_code"), None);
    }

    #[test]
    fn verdict_follows_reasons() {
        let mut a = Analysis {
            reasons: Vec::new(),
            captures: ByColor::default(),
            promoted: ByColor::default(),
            never_moved: Bitboard::EMPTY,
            caged: Bitboard::EMPTY,
        };
        assert_eq!(a.verdict(), Verdict::NoContradiction);
        assert_eq!(a.verdict().as_str(), "no_contradiction");
        a.reasons.push(Reason::new(
            ReasonCode::TooManyPawns,
            "nine".into(),
            Bitboard::from_square(Square::A2),
        ));
        assert_eq!(a.verdict(), Verdict::Illegal);
        assert!(a.has(ReasonCode::TooManyPawns));
        assert!(!a.has(ReasonCode::TooManyUnits));
        assert_eq!(a.reasons[0].squares, vec![Square::A2]);
    }

    #[test]
    fn squares_are_listed_in_words() {
        assert_eq!(squares_text(Bitboard::EMPTY), "");
        assert_eq!(squares_text(Bitboard::from_square(Square::E4)), "e4");
        let three = Bitboard::from_square(Square::A1)
            .with(Square::B2)
            .with(Square::H8);
        assert_eq!(squares_text(three), "a1, b2 and h8");
    }
}
