//! Pawn columns: the stretch of its file that a pawn which never captured stood on throughout
//! the game, which no rook or queen ever slid across (part of the proof-game bound's paths).
//!
//! # The argument
//!
//! A pawn on the board that made no capture (its side captured nothing, its opponent having all
//! sixteen units on the board, or no assignment of its side's pawns to start files within the
//! units the opponent misses gives it one: [`crate::capture_moves::straight`]) went straight up
//! its file: from its start square to where it stands, it
//! stood on one square of that stretch (its column) at every moment of the game, and it was
//! never captured (it is on the board). A move that passes over or lands on every square of the
//! column that its mover does not stand on would pass over or take that pawn, which no move
//! does. Only a slide along the file covers two squares of a file, so a rook's or queen's slide
//! along the file from at or beyond one end of a column of two squares or more to at or beyond
//! the other never happened. (A column of one square is a pawn at home, already a permanent
//! square.) The shortest paths around the permanent squares that leave out those slides are
//! still at most the moves of any game.

use shakmaty::{Bitboard, ByColor, Color, Rank, Square};

/// The pawns on the board of each side that captured nothing, whose columns block the slides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Columns(ByColor<Bitboard>);

impl Columns {
    /// The columns of the pawns on `straight` of each side, each of which made no capture
    /// ([`crate::capture_moves::straight`]).
    #[must_use]
    pub(crate) fn new(straight: ByColor<Bitboard>) -> Columns {
        Columns(straight)
    }

    /// A 64-bit digest for a cache key (with the exact value kept beside it).
    #[must_use]
    pub(crate) fn digest(self) -> u64 {
        u64::from(self.0.white).rotate_left(23) ^ u64::from(self.0.black).rotate_left(41)
    }

    /// For each square, the squares of its file that a slide from it may neither reach nor pass:
    /// the far end of each column of two squares or more whose near end is at or beyond it (see
    /// the [module](self) documentation).
    #[must_use]
    pub(crate) fn blocks(self) -> [Bitboard; 64] {
        let mut blocks = [Bitboard::EMPTY; 64];
        for color in Color::ALL {
            let start = color.relative_rank(Rank::Second);
            for pawn in *self.0.get(color) {
                if pawn.rank() == start {
                    continue;
                }
                let (low, high) = (pawn.rank().min(start), pawn.rank().max(start));
                let file = pawn.file();
                for sq in Bitboard::from_file(file) {
                    let rank = sq.rank();
                    if rank <= low {
                        blocks[sq.to_usize()].add(Square::from_coords(file, high));
                    } else if rank >= high {
                        blocks[sq.to_usize()].add(Square::from_coords(file, low));
                    }
                }
            }
        }
        blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{attacks, Board, Role};

    /// The columns of the board `fen`, of the pawns that made no capture.
    fn columns_of(fen: &str) -> Columns {
        let board: Board = fen.parse().expect("board");
        Columns::new(ByColor::new_with(|color| {
            let missing = 16 - board.by_color(color.other()).count() as u32;
            crate::capture_moves::straight(color, board.by_color(color) & board.pawns(), missing)
        }))
    }

    #[test]
    fn a_slide_across_a_column_is_blocked_from_either_end() {
        // 1.f3: Black has all its units, so White captured nothing; the f-pawn stood on f2 or f3.
        let first = columns_of("rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR");
        let blocks = first.blocks();
        assert_eq!(
            blocks[Square::F1.to_usize()],
            Bitboard::from_square(Square::F3)
        );
        assert_eq!(
            blocks[Square::F2.to_usize()],
            Bitboard::from_square(Square::F3)
        );
        assert_eq!(
            blocks[Square::F5.to_usize()],
            Bitboard::from_square(Square::F2)
        );
        assert_eq!(blocks[Square::E1.to_usize()], Bitboard::EMPTY);
        // A rook on f1 reaches f2 and the first rank, never f3 or beyond.
        let sq = Square::F1;
        let reach = attacks::attacks(sq, Role::Rook.of(Color::White), blocks[sq.to_usize()])
            & !blocks[sq.to_usize()];
        assert!(reach.contains(Square::F2) && !reach.contains(Square::F3));
        assert!(!reach.contains(Square::F8));
        // The colour swap: Black's f-pawn on f6.
        let swapped = columns_of("rnbqkbnr/ppppp1pp/5p2/8/8/8/PPPPPPPP/RNBQKBNR");
        assert_eq!(
            swapped.blocks()[Square::F8.to_usize()],
            Bitboard::from_square(Square::F6)
        );
        // With a black unit gone White captured once, but not with the f3 pawn: its neighbours
        // are at home, so it came from f2 and took nothing.
        let once = columns_of("rnbqkbn1/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR");
        assert_eq!(once, first);
        let swapped_once = columns_of("rnbqkbnr/ppppp1pp/5p2/8/8/8/PPPPPPPP/RNBQKBN1");
        assert_eq!(
            swapped_once.blocks()[Square::F8.to_usize()],
            Bitboard::from_square(Square::F6)
        );
        // The near miss: with g2 gone too the f3 pawn may have come from g2 with the capture.
        let near = columns_of("rnbqkbn1/pppppppp/8/8/8/5P2/PPPPP2P/RNBQKBNR");
        assert!(near.blocks().iter().all(|b| b.is_empty()));
    }
}
