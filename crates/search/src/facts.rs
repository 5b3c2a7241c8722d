//! Facts about the game beyond the board: clocks and exact FEN fields.
//!
//! Retrace's rules assume nothing a FEN does not state. Some problems (and some peers' test suites)
//! read more into a FEN: the move number counts the plies played since the initial array, the
//! halfmove clock counts plies since the last capture or pawn move, a missing castling right was
//! lost, and `-` for en passant means no en passant capture was possible. [`GameFacts`] holds those
//! readings when the user asks for them, and the search enforces them.

use retrace_legal::{
    geometry::steps,
    permanent_squares,
    text::{color_name, join_and},
    unit_facts, FactReason, Reason, ReasonCode, UnitFacts,
};
use retrace_unmove::{castling_squares, Retraction, RetroPosition};
use shakmaty::{
    Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square,
};

use crate::Pruner;

/// What the game is known to satisfy besides its board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Plies played since the initial array: every solution must lead back to it in exactly that
    /// many plies (the extra depth is then ignored).
    pub plies_since_start: Option<u32>,
    /// Plies since the last capture or pawn move: the last that many moves were neither, and the
    /// one before them (if the game is that long) was one.
    pub halfmove_clock: Option<u32>,
    /// Castling rights the position does not have were lost: the king or rook has moved.
    pub exact_castling: bool,
    /// No en passant square means no en passant capture was possible after the last move.
    pub exact_en_passant: bool,
}

/// Whether a move resets the halfmove clock.
#[must_use]
pub fn is_zeroing(r: Retraction) -> bool {
    r.uncaptured().is_some() || r.forward().role() == Role::Pawn
}

/// Castling rights that were lost while king and rook still stand at home: the king or that rook
/// must still move in the retraction line. One bit per right: White king side, White queen side,
/// Black king side, Black queen side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LostRights(u8);

const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

impl LostRights {
    /// The rights `pos` lacks although its king and rook stand on their start squares.
    #[must_use]
    pub fn of(pos: &RetroPosition) -> LostRights {
        let held = pos.castling_rights();
        let board = pos.board();
        let mut bits = 0;
        for (i, &(color, side)) in RIGHTS.iter().enumerate() {
            let (king, rook) = retrace_unmove::castling_squares(color, side);
            if board.piece_at(king) == Some(color.king())
                && board.piece_at(rook) == Some(color.rook())
                && !held.contains(rook)
            {
                bits |= 1 << i;
            }
        }
        LostRights(bits)
    }

    /// The rights still unexplained after `r` is retracted (a move of the king or of the rook on
    /// its start square explains the loss).
    #[must_use]
    pub fn after(self, pos: &RetroPosition, r: Retraction) -> LostRights {
        if self.0 == 0 {
            return self;
        }
        let color = pos.retracting();
        let moved = r.current_square();
        let mut bits = self.0;
        for (i, &(c, side)) in RIGHTS.iter().enumerate() {
            let (_, rook) = retrace_unmove::castling_squares(c, side);
            if c == color
                && (r.forward().role() == Role::King
                    || moved == rook
                    || r.castling_side().is_some())
            {
                bits &= !(1 << i);
            }
        }
        LostRights(bits)
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights of the set, as a colour and a side each.
    fn iter(self) -> impl Iterator<Item = (Color, CastlingSide)> {
        RIGHTS
            .into_iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, right)| right)
    }

    /// Whether a right of the set can no longer be explained in any history of `pos`: its king
    /// and its rook (both still at home, since neither moved on the line that kept the right in
    /// the set) stand on [`permanent_squares`], so neither ever moved, and the right was never
    /// lost. Cheap enough for every node of a search that carries lost rights (the fixpoint of
    /// the walls, no allocation); [`fact_reasons`] asks the fuller [`unit_facts`] at the root.
    #[must_use]
    pub fn stranded(self, pos: &RetroPosition) -> bool {
        if self.0 == 0 {
            return false;
        }
        let never = permanent_squares(pos);
        self.iter().any(|(color, side)| {
            let (king, rook) = castling_squares(color, side);
            never.contains(king) && never.contains(rook)
        })
    }

    /// A key to mix into transposition-table keys.
    #[must_use]
    pub fn key(self) -> u64 {
        u64::from(self.0).wrapping_mul(0xd6e8_feb8_6659_fd93)
    }
}

/// Whether retracting the double step `r` from `pos` would leave a position in which the side to
/// move could capture en passant (so a FEN with `-` for en passant rules it out).
#[must_use]
pub fn allows_en_passant(pos: &RetroPosition, r: Retraction) -> bool {
    let Move::Normal {
        role: Role::Pawn,
        from,
        to,
        ..
    } = r.forward()
    else {
        return false;
    };
    if from.rank().distance(to.rank()) != 2 {
        return false;
    }
    let passed = Square::from_coords(
        to.file(),
        if to.rank() == Rank::Fourth {
            Rank::Third
        } else {
            Rank::Sixth
        },
    );
    let mut setup = pos.to_setup();
    setup.ep_square = Some(passed);
    let chess: Result<Chess, _> = setup.position(CastlingMode::Standard);
    let chess = match chess {
        Ok(c) => c,
        Err(err) => match err.ignore_impossible_check() {
            Ok(c) => c,
            Err(err) => match err.ignore_too_much_material() {
                Ok(c) => c,
                Err(_) => return false,
            },
        },
    };
    chess.legal_moves().iter().any(|m| m.is_en_passant())
}

/// Whether `pos` is the initial array with White to move.
#[must_use]
pub fn is_initial(pos: &RetroPosition) -> bool {
    pos.retracting() == Color::Black && *pos.board() == Board::new()
}

/// The reasons `pos` is illegal once its FEN's fields are read as `facts` says (`--exact-fen`),
/// beyond what the analysis finds on the position itself. Two rules, each sound by the hand proof
/// in the documentation of its function in this module (`lost_right_unmoved`, `en_passant_field`).
#[must_use]
pub fn fact_reasons<P: Pruner>(pos: &RetroPosition, facts: GameFacts, pruner: &P) -> Vec<Reason> {
    let mut reasons = Vec::new();
    let lost = if facts.exact_castling {
        LostRights::of(pos)
    } else {
        LostRights::default()
    };
    if !lost.is_empty() {
        reasons.extend(lost_right_unmoved(pos, lost));
    }
    if facts.exact_en_passant {
        reasons.extend(en_passant_field(pos, lost, pruner));
    }
    reasons
}

/// A lost castling right whose king and rook both never moved (`lost_right_unmoved`).
///
/// *Proof.* The right is lost (the FEN, read exactly, lacks it while its king and rook stand at
/// home), so at some moment the king or that rook moved: a right goes only when the king moves,
/// when the rook moves, or when the rook is captured on its square (and the rook there now then
/// came later, by a move). But [`unit_facts`] proves both units on their squares since the
/// initial array, never moved: a pawn on its second rank never moves back to it, a marked unit
/// never moved by the stipulation (or by a right the FEN keeps), and a walled unit's every first
/// step is a square of such a unit, which was occupied at every moment. No game has both.
///
/// *Trigger:* `r1bqkbnr/pppp1ppp/2n1p3/8/8/8/PPPPPPPP/RNBQKBNR w Qkq -` with the knight on g1
/// marked as never moved: O-O-O freezes the king, and the rook on h1 is walled in by the knight
/// and h2. Its colour swap is `rnbqkbnr/pppppppp/8/8/8/2N1P3/PPPP1PPP/R1BQKBNR b KQq -` with g8
/// marked. *Near miss:* the same without the mark (the knight may have gone out and back, the
/// rook with it: Ng1-f3, Rh1-g1, Rg1-h1, Nf3-g1).
fn lost_right_unmoved(pos: &RetroPosition, lost: LostRights) -> Vec<Reason> {
    let mut reasons = Vec::new();
    let mut facts = None;
    for (color, side) in lost.iter() {
        let (king, rook) = castling_squares(color, side);
        let facts = facts.get_or_insert_with(|| unit_facts(pos));
        let never = facts.never_moved();
        if !(never.contains(king) && never.contains(rook)) {
            continue;
        }
        let (letter, name) = match side {
            CastlingSide::KingSide => ('K', "king-side"),
            CastlingSide::QueenSide => ('Q', "queen-side"),
        };
        let letter = if color.is_white() {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        let message = format!(
            "{} has lost the right to castle {name} (the FEN, read exactly, lacks {letter}), so \
             the king on {king} or the rook on {rook} has moved; but the king {} and the rook {}",
            color_name(color),
            why_unmoved(pos, facts, king),
            why_unmoved(pos, facts, rook),
        );
        reasons.push(Reason::new(
            ReasonCode::LostRightUnmoved,
            message,
            Bitboard::from_square(king).with(rook),
        ));
    }
    reasons
}

/// Why the unit on `sq` never moved, as a composer says it: "never moved (White keeps O-O-O)",
/// "is walled in by Ng1 and h2, which never moved".
fn why_unmoved(pos: &RetroPosition, facts: &UnitFacts, sq: Square) -> String {
    let reason = facts.iter().find(|f| f.square == sq).map(|f| f.reason);
    let board = pos.board();
    match reason {
        Some(FactReason::Walled) => {
            let role = board.role_at(sq).unwrap_or(Role::King);
            let walls: Vec<String> = (steps(role, sq) & board.occupied())
                .into_iter()
                .filter_map(|s| {
                    let wall = board.role_at(s)?;
                    Some(if wall == Role::Pawn {
                        s.to_string()
                    } else {
                        format!("{}{s}", wall.upper_char())
                    })
                })
                .collect();
            format!("is walled in by {}, which never moved", join_and(&walls))
        }
        Some(FactReason::ClosedSegment) => {
            "stands in a closed segment of its back rank that nothing but a knight can enter or \
             leave, full and in place, so nothing in it moved"
                .to_owned()
        }
        _ => {
            // A frozen king or rook at home is a right the FEN keeps, or a user's mark.
            let kept = RIGHTS.into_iter().find(|&(color, side)| {
                let (king, rook) = castling_squares(color, side);
                (king == sq || rook == sq) && pos.castling_rights().contains(rook)
            });
            match kept {
                Some((color, side)) => format!(
                    "never moved ({} keeps {})",
                    color_name(color),
                    match side {
                        CastlingSide::KingSide => "O-O",
                        CastlingSide::QueenSide => "O-O-O",
                    }
                ),
                None => "never moved (marked so)".to_owned(),
            }
        }
    }
}

/// The en passant field `-`, read exactly, ruling out every last move (`en_passant_field`).
///
/// *Proof.* `-` says no en passant capture was legal in the position. After a double step the
/// side to move may capture it en passant exactly when [`allows_en_passant`] says so (the move
/// generator's own test, pins and checks included), so the last move was none of those double
/// steps. The other last moves each lead to a position the analysis proves illegal (or that
/// leaves a lost castling right its king and rook can no longer explain, see
/// [`LostRights::stranded`]), so none of them was played either; and a position that is not the
/// initial array had a last move.
///
/// *Trigger:* Amelung 1897, `7R/7p/5P1k/4PKpP/8/8/8/8 w - -` read exactly: the last move can only
/// have been g7-g5 (the black king cannot have come from g7, g6 or h5), which allows h5xg6 e.p.
/// Its colour swap is `8/8/8/8/4pkPp/5p1K/7P/7r b - -`. *Near miss:* the same without the pawn on
/// f6, where Kg7-h6 may have been the last move.
fn en_passant_field<P: Pruner>(
    pos: &RetroPosition,
    lost: LostRights,
    pruner: &P,
) -> Option<Reason> {
    if pos.forced_double_step().is_some() || is_initial(pos) {
        return None;
    }
    let all = pos.retractions();
    let (denied, others): (Vec<Retraction>, Vec<Retraction>) =
        all.iter().partition(|&&r| allows_en_passant(pos, r));
    if denied.is_empty() {
        return None;
    }
    let possible = others.iter().any(|&r| {
        let child = pos.retract(r);
        !pruner.is_illegal(&child) && !lost.after(pos, r).stranded(&child)
    });
    if possible {
        return None;
    }
    let names: Vec<String> = denied.iter().map(ToString::to_string).collect();
    let rest = if others.is_empty() {
        "and no other last move exists".to_owned()
    } else {
        let others: Vec<String> = others.iter().map(ToString::to_string).collect();
        format!(
            "and every other last move ({}) leads to a position proven illegal",
            join_and(&others)
        )
    };
    let message =
        format!(
        "the FEN, read exactly, says no en passant capture was legal, so {}'s last move was not \
         {} ({} have allowed one), {rest}",
        color_name(pos.retracting()),
        join_and(&names).replace(" and ", " or "),
        if names.len() == 1 { "it would" } else { "each would" },
    );
    let squares: Bitboard = denied.iter().map(|r| r.current_square()).collect();
    Some(Reason::new(ReasonCode::EnPassantField, message, squares))
}
