//! Units locked on their squares from some moment on.
//!
//! Suppose every square of `blocked` is occupied at every moment from a time `T` until the end of
//! the game (static squares are occupied throughout; the square a pawn of known history moved to is
//! occupied from its move on). A piece `U` now on a square `s` whose every neighbour it could have
//! stepped from or to is in `blocked` has stood on `s` at every moment from `T` on:
//! - it cannot have left `s` after `T`: a knight lands on a knight step of `s`, a king or a slider
//!   passes the adjacent square of its line, and castling moves king and rook to or over adjacent
//!   squares, all occupied;
//! - no unit can have arrived on `s` after `T`, for the same reason (a promotion on `s` comes from
//!   the squares a pawn promotes from, which must be blocked too), and no unit was captured there
//!   after `T` (its captor would have arrived);
//! - so `U`, on `s` at the end, arrived before `T` and never moved since.
//!
//! The squares of such units are then occupied from `T` on as well, so the rule is applied again
//! until nothing changes. Pawns are left out (they arrive from behind, not from their steps).

use retrace_unmove::pawn_forward;
use shakmaty::{attacks, Bitboard, Board, ByColor, Piece, Rank};

use crate::geometry::steps;

/// The squares of the units of `board` locked from the moment every square of `blocked` is
/// occupied until the end of the game (see the module documentation).
#[must_use]
pub(crate) fn locked(board: &Board, blocked: Bitboard) -> Bitboard {
    locked_unless_promoting(board, blocked, ByColor::new_with(|_| true))
}

/// [`locked`], where a side that `can_promote` says can never promote (it has all eight pawns on
/// the board, say) brings no unit onto its last rank by a promotion, so a unit there needs only
/// its steps blocked.
#[must_use]
pub(crate) fn locked_unless_promoting(
    board: &Board,
    blocked: Bitboard,
    can_promote: ByColor<bool>,
) -> Bitboard {
    let mut walls = blocked;
    let mut out = Bitboard::EMPTY;
    loop {
        let mut grew = false;
        for sq in board.occupied() & !board.pawns() & !walls {
            let Some(Piece { color, role }) = board.piece_at(sq) else {
                continue;
            };
            let mut entries = steps(role, sq);
            if *can_promote.get(color) && sq.rank() == color.relative_rank(Rank::Eighth) {
                let back = -pawn_forward(color);
                entries |= sq
                    .offset(back)
                    .map_or(Bitboard::EMPTY, Bitboard::from_square);
                entries |= attacks::pawn_attacks(color.other(), sq);
            }
            if entries.is_subset(walls) {
                walls.add(sq);
                out.add(sq);
                grew = true;
            }
        }
        if !grew {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_board as board;
    use shakmaty::Square;

    #[test]
    fn knight_behind_a_pawn_that_moved_once_and_the_rook_beside_it() {
        // Sherlock L22: g6 came from h7, so from that move on g6 is occupied; f7 and g7 never
        // move. The knight on h8 (steps f7 and g6) is locked, then the rook on g8 (f8, g7, h8).
        let b = board("rnbqkbrn/ppppppp1/6p1/8/8/8/PPPPPPPP/RNBQKB1R b - - 0 1");
        let fixed = Bitboard::from_rank(Rank::Second)
            | (Bitboard::from_rank(Rank::Seventh) & b.occupied())
            | Bitboard::from_square(Square::F8);
        let got = locked(&b, fixed.with(Square::G6));
        assert!(got.contains(Square::H8) && got.contains(Square::G8));
        // Before the pawn moved (h7 occupied, g6 not) the knight can still leave by g6, and the
        // rook then by h8; the bishop of c8 is locked by b7 and d7 all the same.
        let before = locked(&b, fixed.with(Square::H7));
        assert!(!before.contains(Square::H8) && !before.contains(Square::G8));
        assert!(before.contains(Square::C8));
    }
}
