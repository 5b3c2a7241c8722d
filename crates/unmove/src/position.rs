//! The retro position: a board plus everything retro play must remember about the past.

use shakmaty::{
    fen::Fen, Bitboard, Board, ByColor, CastlingSide, Color, EnPassantMode, Move, Piece, Rank,
    Role, Square,
};

use crate::{
    error::{ColorName, SetupError},
    role_name, zobrist, Retraction,
};

/// A position seen from the past: who made the last move, and what retro play has learnt.
///
/// Invariants (kept by every constructor and by [`RetroPosition::retract`]):
/// - each side has exactly one king, and no pawn stands on rank 1 or 8;
/// - `frozen` and `promoted` are subsets of the occupied squares;
/// - a forced double step names a pawn of the retracting side on its fourth rank whose two squares
///   behind are empty;
/// - `key` is the Zobrist hash of all of the above.
#[derive(Clone, Debug)]
pub struct RetroPosition {
    board: Board,
    retracting: Color,
    frozen: Bitboard,
    promoted: Bitboard,
    forced_double_step: Option<Square>,
    uncaptures: ByColor<bool>,
    key: u64,
}

impl PartialEq for RetroPosition {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
            && self.board == other.board
            && self.retracting == other.retracting
            && self.frozen == other.frozen
            && self.promoted == other.promoted
            && self.forced_double_step == other.forced_double_step
            && self.uncaptures == other.uncaptures
    }
}

impl Eq for RetroPosition {}

impl std::hash::Hash for RetroPosition {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

/// The start squares of the king and rook that castle on `side`: (king, rook).
#[must_use]
pub fn castling_squares(color: Color, side: CastlingSide) -> (Square, Square) {
    let rank = color.backrank();
    let rook_file = match side {
        CastlingSide::KingSide => shakmaty::File::H,
        CastlingSide::QueenSide => shakmaty::File::A,
    };
    (
        Square::from_coords(shakmaty::File::E, rank),
        Square::from_coords(rook_file, rank),
    )
}

impl RetroPosition {
    /// Sets up a position from a full FEN (or as many fields as are given, at least two).
    ///
    /// The side *not* to move made the last move. Castling rights freeze the king and rook they
    /// name; an en passant square forces the first retraction to be the double step that made it.
    ///
    /// ```
    /// use retrace_unmove::{shakmaty::Color, RetroPosition, SetupError};
    ///
    /// // White to move, so Black made the last move and retracts first.
    /// let pos = RetroPosition::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert_eq!(pos.retracting(), Color::Black);
    /// assert!(!pos.retractions().is_empty());
    ///
    /// // Bad input is an error, never a panic.
    /// assert!(matches!(
    ///     RetroPosition::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
    ///     Err(SetupError::KingCount { .. })
    /// ));
    /// # Ok::<(), SetupError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<RetroPosition, SetupError> {
        Self::parse(fen, None)
    }

    /// Sets up a position from a board field alone and the side that made the last move.
    pub fn from_board_fen(board: &str, retracting: Color) -> Result<RetroPosition, SetupError> {
        Self::parse(board, Some(retracting))
    }

    /// Sets up a position the way the command line takes it: a full FEN, or a board field alone
    /// with the retracting side. If both a full FEN and `retract` are given they must agree.
    pub fn parse(text: &str, retract: Option<Color>) -> Result<RetroPosition, SetupError> {
        // shakmaty also takes '_' between fields (as FENs in URLs have it); count fields alike.
        let text = text.trim().replace('_', " ");
        let text = text.as_str();
        let fields = text.split_ascii_whitespace().count();
        if fields == 0 {
            return Err(SetupError::Fen("empty".into()));
        }
        if fields > 6 {
            return Err(SetupError::Fen(crate::error::TOO_MANY_FIELDS.into()));
        }
        let known = known_fields(text);
        let fen = Fen::from_ascii(known.as_bytes()).map_err(|e| {
            let board = text.split_ascii_whitespace().next().unwrap_or_default();
            let pointed = match e {
                shakmaty::fen::ParseFenError::InvalidBoard => {
                    crate::error::board_field_error(board)
                }
                _ => None,
            };
            SetupError::Fen(pointed.unwrap_or_else(|| crate::error::fen_error_text(&e).into()))
        })?;
        let setup = fen.as_setup();
        if setup.pockets.is_some() {
            return Err(SetupError::Fen(
                "the board field has text after its 8 ranks".into(),
            ));
        }
        if setup.remaining_checks.is_some() {
            return Err(SetupError::Fen(crate::error::TOO_MANY_FIELDS.into()));
        }
        if setup.promoted.any() {
            return Err(SetupError::Fen(
                "'~' after a piece marks nothing in a chess FEN: mark promoted pieces apart \
                 (--promoted, or mark promoted in the REPL)"
                    .into(),
            ));
        }
        let retracting = if fields == 1 {
            retract.ok_or(SetupError::MissingRetractingSide)?
        } else {
            let retracting = setup.turn.other();
            if retract.is_some_and(|r| r != retracting) {
                return Err(SetupError::RetractConflict {
                    to_move: ColorName(setup.turn),
                });
            }
            retracting
        };
        let mut pos = Self::from_board(setup.board.clone(), retracting)?;
        let castling_field = text.split_ascii_whitespace().nth(2).unwrap_or("-");
        pos.apply_castling_rights(setup.castling_rights, castling_field)?;
        if let Some(ep) = setup.ep_square {
            pos.apply_ep_square(ep)?;
        }
        Ok(pos)
    }

    /// Sets up a position from a board and the side that made the last move, with nothing frozen,
    /// nothing marked and uncaptures allowed for both sides.
    pub fn from_board(board: Board, retracting: Color) -> Result<RetroPosition, SetupError> {
        for color in Color::ALL {
            let count = (board.kings() & board.by_color(color)).count();
            if count != 1 {
                return Err(SetupError::KingCount {
                    color: ColorName(color),
                    count,
                });
            }
        }
        let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if let Some(sq) = (board.pawns() & back_ranks).first() {
            return Err(SetupError::PawnOnBackRank(sq));
        }
        let mut pos = RetroPosition {
            board,
            retracting,
            frozen: Bitboard::EMPTY,
            promoted: Bitboard::EMPTY,
            forced_double_step: None,
            uncaptures: ByColor {
                white: true,
                black: true,
            },
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Freezes the king and rook of each castling right; `field` is the castling field as
    /// written, to name a right in an error as the user wrote it.
    fn apply_castling_rights(&mut self, rooks: Bitboard, field: &str) -> Result<(), SetupError> {
        for rook in rooks {
            let color = if rook.rank() == Rank::First {
                Color::White
            } else {
                Color::Black
            };
            let side = match rook.file() {
                shakmaty::File::A => Some(CastlingSide::QueenSide),
                shakmaty::File::H => Some(CastlingSide::KingSide),
                _ => None,
            };
            // shakmaty reads `K` and `Q` as the outermost rook on that side of the king, so a
            // `K` with the rook on g1 arrives as a g1 right: name it `K` as written, not `G`.
            let written = |c: char| {
                field.contains(if color.is_white() {
                    c.to_ascii_uppercase()
                } else {
                    c
                })
            };
            let named = side.or(if rook.file() > shakmaty::File::E && written('k') {
                Some(CastlingSide::KingSide)
            } else if rook.file() < shakmaty::File::E && written('q') {
                Some(CastlingSide::QueenSide)
            } else {
                None
            });
            let (king, home) = castling_squares(color, named.unwrap_or(CastlingSide::KingSide));
            let right = match named {
                Some(CastlingSide::KingSide) => 'k',
                Some(CastlingSide::QueenSide) => 'q',
                None => rook.file().char(),
            };
            let right = if color.is_white() {
                right.to_ascii_uppercase()
            } else {
                right
            };
            if named.is_none() {
                return Err(SetupError::CastlingFile {
                    right,
                    file: rook.file().char(),
                });
            }
            let err = SetupError::CastlingRight {
                right,
                color: ColorName(color),
                king,
                rook: home,
            };
            if side.is_none()
                || self.board.piece_at(rook) != Some(color.rook())
                || self.board.piece_at(king) != Some(color.king())
            {
                return Err(err);
            }
            self.freeze(king);
            self.freeze(rook);
        }
        Ok(())
    }

    fn apply_ep_square(&mut self, ep: Square) -> Result<(), SetupError> {
        // The side that just moved (the retracting side) pushed a pawn two squares past `ep`.
        let mover = self.retracting;
        let err = SetupError::EnPassantSquare(ep);
        if ep.rank() != mover.relative_rank(Rank::Third) {
            return Err(err);
        }
        let pawn = ep.offset(pawn_forward(mover)).ok_or(err.clone())?;
        let start = ep.offset(-pawn_forward(mover)).ok_or(err.clone())?;
        if self.board.piece_at(pawn) != Some(mover.pawn())
            || self.board.occupied().contains(ep)
            || self.board.occupied().contains(start)
        {
            return Err(err);
        }
        self.set_forced_double_step(Some(pawn));
        Ok(())
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side that made the last move and retracts next.
    #[must_use]
    pub fn retracting(&self) -> Color {
        self.retracting
    }

    /// The side to move in this position (the one that does not retract next).
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.retracting.other()
    }

    /// Units that have never moved: from castling rights, user marks and uncastling.
    #[must_use]
    pub fn frozen(&self) -> Bitboard {
        self.frozen
    }

    /// Units marked as promoted.
    #[must_use]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// The pawn of the retracting side that must retract its double step next, if any.
    #[must_use]
    pub fn forced_double_step(&self) -> Option<Square> {
        self.forced_double_step
    }

    /// Whether `color` may uncapture when it retracts.
    #[must_use]
    pub fn uncaptures_allowed(&self, color: Color) -> bool {
        *self.uncaptures.get(color)
    }

    /// The Zobrist key of the whole retro state.
    #[must_use]
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// Allows or forbids uncaptures for `color`'s retractions.
    pub fn set_uncaptures_allowed(&mut self, color: Color, allowed: bool) {
        if self.uncaptures_allowed(color) != allowed {
            *self.uncaptures.get_mut(color) = allowed;
            self.key ^= zobrist::no_uncapture(color);
        }
    }

    /// Marks the unit on `square` as never having moved, from here back to the start of the game:
    /// none of its retractions is generated any more.
    ///
    /// This is the generator's mark, used by castling rights, cages and the search to pin units;
    /// it accepts a unit marked promoted (such a unit can never take back its promotion, so every
    /// line through it dies, which is what the two marks together mean, and the oracle test
    /// exercises that). A person's "this unit never moved" goes through
    /// [`RetroPosition::mark_never_moved`], which refuses a promoted unit or one off its home.
    pub fn mark_frozen(&mut self, square: Square) -> Result<(), SetupError> {
        if !self.board.occupied().contains(square) {
            return Err(SetupError::Mark {
                square,
                mark: "frozen",
                why: "the square is empty",
            });
        }
        if self.forced_double_step == Some(square) {
            return Err(SetupError::Mark {
                square,
                mark: "frozen",
                why: "that pawn must retract its double step",
            });
        }
        self.freeze(square);
        Ok(())
    }

    /// Marks the unit on `square` as never having moved in the whole game, as a person means
    /// it: besides what [`RetroPosition::mark_frozen`] checks, the unit must stand on its own
    /// square of the initial array (a unit that never moved is still there), and a unit marked
    /// promoted has moved. The search's own uses of frozen units (castling rights, cages, tests
    /// that pin a unit for a few plies) go through `mark_frozen`.
    pub fn mark_never_moved(&mut self, square: Square) -> Result<(), SetupError> {
        if let Some(unit) = self.board.piece_at(square) {
            let home = Board::default().piece_at(square);
            if home != Some(unit) {
                let spell = |p: Piece| format!("a {} {}", ColorName(p.color), role_name(p.role));
                return Err(SetupError::NotHome {
                    square,
                    unit: spell(unit),
                    home: home.map_or_else(|| "no unit".to_owned(), spell),
                });
            }
            if self.promoted.contains(square) {
                return Err(SetupError::Mark {
                    square,
                    mark: "frozen",
                    why: "it is marked promoted, so it has moved",
                });
            }
        }
        self.mark_frozen(square)
    }

    /// Marks the unit on `square` as a promoted piece.
    pub fn mark_promoted(&mut self, square: Square) -> Result<(), SetupError> {
        match self.board.role_at(square) {
            None => Err(SetupError::Mark {
                square,
                mark: "promoted",
                why: "the square is empty",
            }),
            Some(Role::Pawn | Role::King) => Err(SetupError::Mark {
                square,
                mark: "promoted",
                why: "only a queen, rook, bishop or knight can be promoted",
            }),
            Some(_) => {
                if !self.promoted.contains(square) {
                    self.promoted.add(square);
                    self.key ^= zobrist::promoted(square);
                }
                Ok(())
            }
        }
    }

    fn freeze(&mut self, square: Square) {
        if !self.frozen.contains(square) {
            self.frozen.add(square);
            self.key ^= zobrist::frozen(square);
        }
    }

    fn set_forced_double_step(&mut self, pawn: Option<Square>) {
        if let Some(old) = self.forced_double_step {
            self.key ^= zobrist::forced_double_step(old.file());
        }
        if let Some(new) = pawn {
            self.key ^= zobrist::forced_double_step(new.file());
        }
        self.forced_double_step = pawn;
    }

    fn compute_key(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in &self.board {
            key ^= zobrist::piece(sq, piece);
        }
        if self.retracting.is_white() {
            key ^= zobrist::white_retracts();
        }
        for sq in self.frozen {
            key ^= zobrist::frozen(sq);
        }
        for sq in self.promoted {
            key ^= zobrist::promoted(sq);
        }
        if let Some(sq) = self.forced_double_step {
            key ^= zobrist::forced_double_step(sq.file());
        }
        for color in Color::ALL {
            if !self.uncaptures_allowed(color) {
                key ^= zobrist::no_uncapture(color);
            }
        }
        key
    }

    /// The key recomputed from scratch (for tests of the incremental update).
    #[doc(hidden)]
    #[must_use]
    pub fn zobrist_from_scratch(&self) -> u64 {
        self.compute_key()
    }

    /// Castling rights this position implies: a king and rook that never moved, on their start
    /// squares. Given as the rook squares, as shakmaty's `Setup` wants them.
    #[must_use]
    pub fn castling_rights(&self) -> Bitboard {
        let mut rights = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let (king, rook) = castling_squares(color, side);
                if self.frozen.contains(king)
                    && self.frozen.contains(rook)
                    && self.board.piece_at(king) == Some(color.king())
                    && self.board.piece_at(rook) == Some(color.rook())
                {
                    rights.add(rook);
                }
            }
        }
        rights
    }

    /// The en passant square this position implies, if the last move is a forced double step.
    #[must_use]
    pub fn ep_square(&self) -> Option<Square> {
        self.forced_double_step
            .and_then(|pawn| pawn.offset(-pawn_forward(self.retracting)))
    }

    /// The position as a shakmaty setup: side to move, castling rights and en passant square as
    /// this position implies them.
    #[must_use]
    pub fn to_setup(&self) -> shakmaty::Setup {
        let mut setup = shakmaty::Setup::empty();
        setup.board = self.board.clone();
        setup.turn = self.to_move();
        setup.castling_rights = self.castling_rights();
        setup.ep_square = self.ep_square();
        setup
    }

    /// The position as a FEN (half-move clock 0, move number 1).
    #[must_use]
    pub fn fen(&self) -> String {
        match Fen::try_from_setup(self.to_setup()) {
            Ok(fen) => fen.to_string(),
            Err(lossy) => lossy.ignore().to_string(),
        }
    }

    /// Whether the king of the side to move is attacked (the last move gave check).
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.attacked_king(self.to_move()).any()
    }

    /// Units of the other side attacking `color`'s king.
    #[must_use]
    pub fn attacked_king(&self, color: Color) -> Bitboard {
        let king = self.king_of(color);
        self.board
            .attacks_to(king, color.other(), self.board.occupied())
    }

    /// The square of the king of `color` (a retro position always has exactly one).
    #[inline]
    #[must_use]
    pub fn king_of(&self, color: Color) -> Square {
        // Invariant: exactly one king per side.
        match (self.board.kings() & self.board.by_color(color)).first() {
            Some(sq) => sq,
            None => unreachable!("a retro position always has both kings"),
        }
    }

    /// The predecessor reached by taking back `retraction`.
    ///
    /// `retraction` must be one of [`RetroPosition::retractions`]; anything else gives an
    /// unspecified (but memory-safe) position.
    #[must_use]
    pub fn retract(&self, retraction: Retraction) -> RetroPosition {
        let mut pos = self.clone();
        pos.retract_in_place(retraction);
        pos
    }

    /// Takes back `retraction` in place (see [`RetroPosition::retract`]).
    pub fn retract_in_place(&mut self, retraction: Retraction) {
        let us = self.retracting;
        let them = us.other();
        self.set_forced_double_step(None);
        match retraction.forward() {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let now = Piece {
                    color: us,
                    role: promotion.unwrap_or(role),
                };
                self.remove(to, now);
                self.put(from, Piece { color: us, role });
                if self.promoted.contains(to) {
                    self.promoted.discard(to);
                    self.key ^= zobrist::promoted(to);
                    if promotion.is_none() {
                        self.promoted.add(from);
                        self.key ^= zobrist::promoted(from);
                    }
                }
                if let Some(captured) = capture {
                    self.put(
                        to,
                        Piece {
                            color: them,
                            role: captured,
                        },
                    );
                }
            }
            Move::EnPassant { from, to } => {
                self.remove(to, us.pawn());
                self.put(from, us.pawn());
                let victim = Square::from_coords(to.file(), from.rank());
                self.put(victim, them.pawn());
                self.set_forced_double_step(Some(victim));
            }
            Move::Castle { king, rook } => {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                self.remove(side.king_to(us), us.king());
                self.remove(side.rook_to(us), us.rook());
                self.put(king, us.king());
                self.put(rook, us.rook());
                self.freeze(king);
                self.freeze(rook);
            }
            Move::Put { .. } => unreachable!("a retraction is never a drop"),
        }
        self.retracting = them;
        self.key ^= zobrist::white_retracts();
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board.set_piece_at(sq, piece);
        self.key ^= zobrist::piece(sq, piece);
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board.discard_piece_at(sq);
        self.key ^= zobrist::piece(sq, piece);
    }
}

/// The FEN with unknown fields (`?`, as retro tools write castling, en passant and clocks they do
/// not know) replaced by the values that assert nothing: no castling right, no en passant square,
/// clocks 0 and 1.
fn known_fields(text: &str) -> String {
    text.split_ascii_whitespace()
        .enumerate()
        .map(|(i, field)| match (i, field) {
            (2 | 3, "?") => "-",
            (4, "?") => "0",
            (5, "?") => "1",
            _ => field,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The clocks and fields of a FEN as facts about the game, `None` where the FEN leaves them out or
/// writes `?`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FenFacts {
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: Option<u32>,
    /// The move number (1 in the initial array).
    pub fullmove: Option<u32>,
    /// Whether the castling field is given (not `?`), so an absent right may be read as lost.
    pub castling_known: bool,
    /// Whether the en passant field is given (not `?`), so `-` may be read as "no en passant
    /// capture was possible".
    pub ep_known: bool,
}

impl FenFacts {
    /// Reads the facts of a FEN's text (the board is not checked here).
    #[must_use]
    pub fn parse(text: &str) -> FenFacts {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u32>().ok());
        FenFacts {
            halfmove_clock: number(4),
            fullmove: number(5).filter(|&n| n > 0),
            castling_known: fields.get(2).is_some_and(|f| *f != "?"),
            ep_known: fields.get(3).is_some_and(|f| *f != "?"),
        }
    }

    /// Plies played since the initial array, from the move number and the side to move. In `u64`
    /// because any `u32` move number has that many plies: `2 * (n - 1) + 1` overflows `u32` for
    /// move numbers from 2^31 + 1 on, which once made a huge move number a small one.
    #[must_use]
    pub fn plies_since_start(&self, to_move: Color) -> Option<u64> {
        self.fullmove
            .map(|n| 2 * (u64::from(n) - 1) + u64::from(to_move.is_black()))
    }
}

impl std::fmt::Display for RetroPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Square offset of one pawn step forward for `color` (`8` for White, `-8` for Black); a step back
/// is its negation.
#[inline]
#[must_use]
pub const fn pawn_forward(color: Color) -> i32 {
    match color {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// The shakmaty `EnPassantMode` our FENs follow: the square is written whenever the last move was
/// a double step we know of, capture possible or not.
pub const EP_MODE: EnPassantMode = EnPassantMode::Always;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underscores_separate_fields_as_spaces_do() {
        // Found by fuzzing: '_' was counted as part of one field, dropping the side to move.
        let spaced = RetroPosition::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1", None).expect("sets up");
        let underscored =
            RetroPosition::parse("4k3/8/8/8/8/8/8/4K3_w_-_-_0_1", None).expect("sets up");
        assert_eq!(spaced, underscored);
        assert_eq!(
            RetroPosition::parse("4k3/8/8/8/8/8/8/4K3_w_-_-_0_1", Some(Color::White)),
            Err(SetupError::RetractConflict {
                to_move: ColorName(Color::White)
            })
        );
    }

    #[test]
    fn unknown_fields_assert_nothing() {
        let pos = RetroPosition::parse("4k3/8/8/8/8/8/8/4K2R w ? ? ? ?", None).expect("sets up");
        assert!(pos.frozen().is_empty() && pos.forced_double_step().is_none());
        let facts = FenFacts::parse("4k3/8/8/8/8/8/8/4K2R b ? ? 7 12");
        assert_eq!(facts.halfmove_clock, Some(7));
        assert_eq!(facts.plies_since_start(Color::Black), Some(23));
        assert!(!facts.castling_known && !facts.ep_known);
        assert_eq!(
            FenFacts::parse("4k3/8/8/8/8/8/8/4K2R w K -").halfmove_clock,
            None
        );
        assert!(FenFacts::parse("4k3/8/8/8/8/8/8/4K2R w K -").castling_known);
    }

    #[test]
    fn huge_move_numbers_do_not_wrap() {
        let facts = FenFacts::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 2147483650");
        assert_eq!(facts.plies_since_start(Color::White), Some(4_294_967_298));
        let facts = FenFacts::parse("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295");
        assert_eq!(
            facts.plies_since_start(Color::Black),
            Some(2 * u64::from(u32::MAX) - 1)
        );
    }
}
