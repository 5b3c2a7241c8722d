//! The classes of pieces for counting originals and promoted units: a role, and for bishops the
//! square colour (a bishop never changes it, so light- and dark-squared ones are counted apart).

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color, Role};

use crate::geometry::homes;

/// A kind of piece for counting originals: a role, and for bishops the square colour.
pub(crate) struct Class {
    pub units: Bitboard,
    pub originals: Bitboard,
    pub name: &'static str,
}

/// The classes of `color`'s pieces that can be promoted units.
pub(crate) fn classes(pos: &RetroPosition, color: Color) -> [Class; 5] {
    let board = pos.board();
    let mine = |role: Role| board.by_piece(role.of(color));
    let bishops = homes(color, Role::Bishop);
    [
        Class {
            units: mine(Role::Queen),
            originals: homes(color, Role::Queen),
            name: "queens",
        },
        Class {
            units: mine(Role::Rook),
            originals: homes(color, Role::Rook),
            name: "rooks",
        },
        Class {
            units: mine(Role::Knight),
            originals: homes(color, Role::Knight),
            name: "knights",
        },
        Class {
            units: mine(Role::Bishop) & Bitboard::LIGHT_SQUARES,
            originals: bishops & Bitboard::LIGHT_SQUARES,
            name: "light-squared bishops",
        },
        Class {
            units: mine(Role::Bishop) & Bitboard::DARK_SQUARES,
            originals: bishops & Bitboard::DARK_SQUARES,
            name: "dark-squared bishops",
        },
    ]
}
