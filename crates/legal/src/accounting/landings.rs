//! Where a capture can have landed: on a square where a unit of the other side that is missing
//! now once stood, since each capture took one. When the other side has its eight pawns on the
//! board it promoted nothing, so its missing units are originals of the kinds it has fewer of
//! than homes, each within the region of a home of its kind (a bishop on its colour); pawn walks
//! whose captures land only there cost at least as much as the walks of the game. So a side that
//! lost only a light bishop never let a pawn of the other side promote, or change files, by a
//! capture on a dark square.

use shakmaty::{Bitboard, Color, Role};

use crate::geometry::{homes, region_cut};
use crate::known::Known;
use crate::promotion::{landing_walks, walls_walks, Walks};

/// The kinds of pieces whose originals can be missing and a pawn promotes to, bishops by the
/// colour of their squares.
pub(crate) const KINDS: [(Role, Bitboard); 5] = [
    (Role::Queen, Bitboard::FULL),
    (Role::Rook, Bitboard::FULL),
    (Role::Knight, Bitboard::FULL),
    (Role::Bishop, Bitboard::LIGHT_SQUARES),
    (Role::Bishop, Bitboard::DARK_SQUARES),
];

/// The squares where a capture of `color` can have landed: each took a unit of the other side
/// that stood there and is missing now. When the other side has its eight pawns on the board it
/// promoted nothing, so its missing units are originals of the kinds it has fewer of than homes
/// (bishops by colour), each within the region of a home of its kind that does not still hold
/// the unit that never moved from it; otherwise, or where those regions cover every square that is
/// not static, every square ([`Bitboard::FULL`]).
pub(crate) fn capture_landings(known: &Known<'_>, color: Color) -> Bitboard {
    let other = color.other();
    let board = known.pos.board();
    if board.by_piece(other.pawn()).count() < 8 {
        return Bitboard::FULL;
    }
    let statics = known.statics;
    let mut out = Bitboard::EMPTY;
    for (role, colour) in KINDS {
        let home = homes(other, role) & colour;
        if (board.by_piece(role.of(other)) & colour).count() >= home.count() {
            continue;
        }
        for h in home & !statics.never_moved {
            out |= region_cut(role, h, !statics.fixed, Bitboard::EMPTY, 64, &statics.timed);
        }
    }
    // Where those regions cover every square a capture can land on, they bound nothing.
    if (!statics.fixed).is_subset(out) {
        return Bitboard::FULL;
    }
    out
}

/// The walks of `color`'s pawns around the walls ([`walls_walks`]), their captures landing only
/// where [`capture_landings`] allows.
pub(crate) fn promotion_walks(known: &Known<'_>, color: Color) -> Walks {
    let landing = capture_landings(known, color);
    if landing == Bitboard::FULL {
        walls_walks(color, known.statics, known.walks)
    } else {
        landing_walks(color, known.statics, landing, known.walks)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;
    use crate::known::with_known;
    use crate::pawns::PawnCache;

    /// [`capture_landings`] of `color` in `fen`.
    fn landings(fen: &str, color: Color) -> Bitboard {
        let pos = retrace_unmove::RetroPosition::from_fen(fen).expect("fen");
        with_known(&pos, &mut PawnCache::new(), |known| {
            capture_landings(known, color)
        })
    }

    #[test]
    fn a_lost_bishop_bounds_the_captures_to_its_colour() {
        // Black misses its c8 bishop alone, with its eight pawns on the board: White's one
        // capture landed on a light square the bishop reached through d7.
        let fen = "rn1qkbnr/ppp1pppp/3p4/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let white = landings(fen, Color::White);
        assert!(white.is_subset(Bitboard::LIGHT_SQUARES), "{white:?}");
        assert!(white.contains(Square::G4) && white.contains(Square::C8));
        // Black's captures: White misses nothing, so none landed anywhere.
        assert_eq!(landings(fen, Color::Black), Bitboard::EMPTY);
    }

    #[test]
    fn a_lost_knight_or_pawn_bounds_nothing() {
        // A knight reaches every square that is not static.
        let fen = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(landings(fen, Color::White), Bitboard::FULL);
        // A side missing a pawn may have promoted it, and its pawns die where they walk.
        let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(landings(fen, Color::White), Bitboard::FULL);
    }
}
