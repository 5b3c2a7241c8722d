//! Facts about the game beyond the board: clocks and exact FEN fields.
//!
//! Retrace's rules assume nothing a FEN does not state. Some problems (and some peers' test suites)
//! read more into a FEN: the move number counts the plies played since the initial array, the
//! halfmove clock counts plies since the last capture or pawn move, a missing castling right was
//! lost, and `-` for en passant means no en passant capture was possible. [`GameFacts`] holds those
//! readings when the user asks for them, and the search enforces them.

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    Board, CastlingMode, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square,
};

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
