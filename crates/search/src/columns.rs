//! Pawn columns: the stretch of its file that a pawn which never captured stood on throughout
//! the game, which no unit moving along that file ever got past (part of the proof-game bound's
//! paths).
//!
//! # The argument
//!
//! A pawn on the board that made no capture (its side captured nothing, its opponent having all
//! sixteen units on the board, or no assignment of its side's pawns to start files within the
//! units the opponent misses gives it one: [`crate::capture_moves::straight`]) went straight up
//! its file: from its start square to where it stands, it stood on one square of that stretch
//! (its column) at every moment of the game, and it was never captured (it is on the board).
//!
//! Take another unit `U` standing on that file, above or below the pawn. While `U` stays on the
//! file it stays on the same side of the pawn: a move of `U` along the file neither passes over
//! the pawn's square nor lands on it (that would take the pawn), and a move of the pawn (a step
//! or a double step up its file, never a capture) neither passes over `U`'s square nor lands on
//! it. So `U` changes sides only by leaving the file and coming back, and a rook, queen or king
//! that must get from one end of a column to the other on the file pays that detour (pg-P1080429:
//! the h1 rook reaches h8 past the h4 and h5 pawns by h3-g3-g6-h6, not by h3-h6-h8).
//!
//! A white and a black pawn of one file that both made no capture never passed each other (a
//! pawn that passes another leaves its file), so the white one stands below the black one
//! throughout. On a file with columns, a unit is thus in one of at most three *lanes*: below
//! both pawns, between them, above both. Where it stands says which lanes it can be in: below a
//! white pawn that stands on rank 2 to `w` means a rank under `w`, above it a rank over 2 (and
//! the same for a black pawn on rank `b` to 7). The bound's paths keep a unit's lane on every move
//! along such a file, let it enter any lane its square allows when it comes from another file, and
//! end in the lane of where it stands now (the pawns stand on their column's ends then): each
//! move of a game keeps those rules, so the paths are still at most the moves of any game.

use shakmaty::{Bitboard, ByColor, Color, Rank, Square};

/// The pawns on the board of each side that captured nothing, whose columns divide their files
/// into lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Columns(ByColor<Bitboard>);

impl Columns {
    /// The columns of the pawns on `straight` of each side, each of which made no capture
    /// ([`crate::capture_moves::straight`]).
    #[must_use]
    pub(crate) fn new(straight: ByColor<Bitboard>) -> Columns {
        Columns(straight)
    }

    /// The pawns of `color` that made no capture.
    #[must_use]
    pub(crate) fn pawns(self, color: Color) -> Bitboard {
        *self.0.get(color)
    }

    /// A 64-bit digest for a cache key (with the exact value kept beside it).
    #[must_use]
    pub(crate) fn digest(self) -> u64 {
        u64::from(self.0.white).rotate_left(23) ^ u64::from(self.0.black).rotate_left(41)
    }

    /// The lanes of the files the columns divide (see the [module](self) documentation).
    #[must_use]
    pub(crate) fn lanes(self) -> Lanes {
        let mut lanes = Lanes::OPEN;
        // A pawn at home is a column of one square, already a permanent square that no path
        // crosses: it divides nothing more.
        let column = |color: Color, file| {
            let home = Bitboard::from_rank(color.relative_rank(Rank::Second));
            (*self.0.get(color) & Bitboard::from_file(file) & !home)
                .first()
                .map(Square::rank)
        };
        for file in shakmaty::File::ALL {
            let (white, black) = (column(Color::White, file), column(Color::Black, file));
            if white.is_none() && black.is_none() {
                continue;
            }
            let squares = Bitboard::from_file(file);
            lanes.open &= !squares;
            for lane in &mut lanes.within {
                *lane &= !squares;
            }
            for lane in &mut lanes.end {
                *lane &= !squares;
            }
            for sq in squares {
                let rank = sq.rank();
                // Above the white pawn (bit 0), above the black one (bit 1).
                for (index, lane) in lanes.within.iter_mut().enumerate() {
                    let (above_white, above_black) = (index & 1 != 0, index & 2 != 0);
                    let fits_white = match white {
                        None => !above_white,
                        Some(_) if above_white => rank > Rank::Second,
                        Some(w) => rank < w,
                    };
                    let fits_black = match black {
                        None => !above_black,
                        Some(b) if above_black => rank > b,
                        Some(_) => rank < Rank::Seventh,
                    };
                    // Never above the black pawn and below the white one.
                    let ordered = !(above_black && !above_white && white.is_some());
                    if fits_white && fits_black && ordered {
                        lane.add(sq);
                    }
                }
                let above_white = white.is_some_and(|w| rank > w);
                let above_black = black.is_some_and(|b| rank > b);
                lanes.end[usize::from(above_white) | usize::from(above_black) << 1].add(sq);
            }
        }
        lanes
    }
}

/// The most lanes of a file: below, between and above two pawns, numbered by two bits (above the
/// white pawn, above the black one), one number left unused.
pub(crate) const LANES: usize = 4;

/// Where units may stand in each lane of the files the columns divide ([`Columns::lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lanes {
    /// The squares of the files with no column: one lane, numbered 0.
    pub(crate) open: Bitboard,
    /// For each lane, the squares a unit may stand on in it (the open files in lane 0).
    pub(crate) within: [Bitboard; LANES],
    /// For each lane, the squares where a unit standing there now is in it.
    pub(crate) end: [Bitboard; LANES],
}

impl Lanes {
    /// No file divided: every square in lane 0.
    pub(crate) const OPEN: Lanes = Lanes {
        open: Bitboard::FULL,
        within: [
            Bitboard::FULL,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
        ],
        end: [
            Bitboard::FULL,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
        ],
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Board, File};

    /// The columns of the board `fen`, of the pawns that made no capture.
    fn columns_of(fen: &str) -> Columns {
        let board: Board = fen.parse().expect("board");
        Columns::new(ByColor::new_with(|color| {
            let missing = 16 - board.by_color(color.other()).count() as u32;
            crate::capture_moves::straight(color, board.by_color(color) & board.pawns(), missing)
        }))
    }

    /// The ranks (1 to 8) of `file` in `squares`.
    fn ranks(squares: Bitboard, file: File) -> Vec<u32> {
        (squares & Bitboard::from_file(file))
            .into_iter()
            .map(|sq| u32::from(sq.rank()) + 1)
            .collect()
    }

    #[test]
    fn a_column_divides_its_file_into_lanes() {
        // 1.f3: Black has all its units, so White captured nothing; the f-pawn stood on f2 or f3.
        let lanes = columns_of("rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR").lanes();
        // Below it: under f3; above it: over f2 (the f7 pawn at home is a permanent square, no
        // column).
        assert_eq!(ranks(lanes.within[0], File::F), [1, 2]);
        assert_eq!(ranks(lanes.within[1], File::F), [3, 4, 5, 6, 7, 8]);
        assert!(ranks(lanes.within[2] | lanes.within[3], File::F).is_empty());
        assert_eq!(ranks(lanes.end[0], File::F), [1, 2, 3]);
        assert_eq!(ranks(lanes.end[1], File::F), [4, 5, 6, 7, 8]);
        assert!(!lanes.open.contains(Square::F5) && lanes.open.contains(Square::E5));
        // The colour swap: Black's f-pawn on f6.
        let swapped = columns_of("rnbqkbnr/ppppp1pp/5p2/8/8/8/PPPPPPPP/RNBQKBNR").lanes();
        assert_eq!(ranks(swapped.within[0], File::F), [1, 2, 3, 4, 5, 6]);
        assert_eq!(ranks(swapped.within[2], File::F), [7, 8]);
        // With a black unit gone White captured once, but not with the f3 pawn: its neighbours
        // are at home, so it came from f2 and took nothing.
        let once = columns_of("rnbqkbn1/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR");
        assert_eq!(once.lanes(), lanes);
        // The near miss: with g2 gone too the f3 pawn may have come from g2 with the capture.
        let near = columns_of("rnbqkbn1/pppppppp/8/8/8/5P2/PPPPP2P/RNBQKBNR").lanes();
        assert_eq!(near.open, Bitboard::FULL);
    }

    /// A white pawn on h4 and a black one on h5, neither of which captured: below both on h1 to
    /// h3, between them on h3 to h6, above both on h6 to h8 (the pawns move within their
    /// columns); never above the black one and below the white one.
    #[test]
    fn two_columns_make_three_lanes() {
        let lanes = columns_of("rnbqkbnr/ppppppp1/8/7p/7P/8/PPPPPPP1/RNBQKBNR").lanes();
        assert_eq!(ranks(lanes.within[0], File::H), [1, 2, 3]);
        assert_eq!(ranks(lanes.within[1], File::H), [3, 4, 5, 6]);
        assert!(ranks(lanes.within[2], File::H).is_empty());
        assert_eq!(ranks(lanes.within[3], File::H), [6, 7, 8]);
        assert_eq!(ranks(lanes.end[0], File::H), [1, 2, 3, 4]);
        assert_eq!(ranks(lanes.end[3], File::H), [6, 7, 8]);
    }
}
