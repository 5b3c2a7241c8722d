//! CQLi's "impossibly trapped rook" (seed 002).
//!
//! A rook (of either colour) on the second rank of a side `C`, with a pawn of `C` right in front of
//! it on the third rank, a bishop (of either colour) right behind it on the first rank, and pawns of
//! `C` on the second-rank squares diagonally next to the bishop. Proof that no game reaches it, with
//! the files called `f` and `f±1` and `C` White:
//! - The pawns on `f±1`2 are on their second rank, so they never moved: those squares were occupied
//!   at every moment.
//! - The pawn on `f`3 advanced once, from `f`2 or from `f±1`2; the latter are taken by pawns that
//!   never moved, so it came from `f`2: `f`2 was occupied by it until that move T, and `f`3 from T
//!   on.
//! - The rook stands on `f`2, so it arrived there after T. A rook enters `f`2 from `f`3 (occupied
//!   since T), along the second rank (through the static `f±1`2) or from `f`1: it came from `f`1.
//! - The bishop stands on `f`1 now, so it arrived after the rook left `f`1 (or had to stand there
//!   throughout, but the rook was there). A bishop enters `f`1 only from `f±1`2 (static), and a
//!   promotion on `f`1 needs an enemy pawn on `f`2 (where the rook has stood since) or on `f±1`2
//!   (static). So the bishop cannot have arrived.

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use crate::reasons::Reasons;
use crate::text::{color_adj, squares_text};
use crate::types::ReasonCode;

/// Appends a [`ReasonCode::TrappedRook`] reason for every trapped rook of `pos`.
pub(crate) fn trapped_rooks(pos: &RetroPosition, out: &mut Reasons) {
    let board = pos.board();
    for color in Color::ALL {
        let first = color.backrank();
        let second = color.relative_rank(Rank::Second);
        let third = color.relative_rank(Rank::Third);
        let pawns = board.by_piece(color.pawn());
        for file in File::ALL {
            let rook = Square::from_coords(file, second);
            let pawn = Square::from_coords(file, third);
            let bishop = Square::from_coords(file, first);
            if board.role_at(rook) != Some(Role::Rook)
                || !pawns.contains(pawn)
                || board.role_at(bishop) != Some(Role::Bishop)
            {
                continue;
            }
            let sides: Bitboard = [-1, 1]
                .into_iter()
                .filter_map(|d| file.offset(d))
                .map(|f| Square::from_coords(f, second))
                .collect();
            if !sides.is_subset(pawns) {
                continue;
            }
            let rook_color = board.color_at(rook).map_or("", color_adj);
            let bishop_color = board.color_at(bishop).map_or("", color_adj);
            out.add(ReasonCode::TrappedRook, sides.with(rook).with(pawn).with(bishop), || format!(
                    "the {rook_color} rook on {rook} cannot have arrived: the {} pawn on {pawn} \
                     came from {rook} ({} never moved), so the rook came later, from {bishop}; the \
                     {bishop_color} bishop on {bishop} then arrived after it, but {bishop} can only \
                     be entered from {}, where pawns have always stood, or by a promotion from \
                     {rook}, where the rook stands",
                    color_adj(color),
                    squares_text(sides),
                    squares_text(sides),
                ));
        }
    }
}
