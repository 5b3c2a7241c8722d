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

/// The kinds of pieces whose originals can be missing, bishops by the colour of their squares.
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
        landing_walks(color, known.statics, landing)
    }
}
