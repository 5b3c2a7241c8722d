//! More units of a kind shut in a pen than originals of that kind start in it (issue 11: "a
//! back-rank pen holds at most the rooks that started in it").
//!
//! # The argument
//!
//! Every square a unit ever visited is in the region flooded from its square by steps of its kind
//! through squares that are not static, never between the two squares of a pawn of known history
//! (see [`crate::geometry::region_cut`]). A unit of a kind is an original of that kind, which
//! started on a home square of its region, or was promoted on a square of [`origins_of`]. So the
//! units that cannot have been promoted are originals, of distinct home squares in their regions
//! (two units are never one original), and no original proven captured can be one of them. For any
//! set `S` of home squares, the units whose regions hold no other home square than those of `S`
//! number at most `|S|` (Hall's condition). White rooks on a1 and b1 behind pawns on a2, b2, c2
//! and d2 and a bishop on c1 that never moved: both regions are a1 and b1, whose only rook home is
//! a1, so two rooks cannot be there.
//!
//! Regions larger than [`REGION`] squares are taken to hold every home square and a promotion
//! square (the unit is left out), which only allows more and so stays sound.

use shakmaty::{Bitboard, Color, Square};

use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_adj, squares_text};
use crate::{
    class::classes,
    geometry::promotion_squares,
    promotion::origins_of,
    statics::{pen_region, PEN_REGION},
    types::{Reason, ReasonCode},
};

/// Largest region looked at, in squares.
const REGION: usize = PEN_REGION;

/// Appends a [`ReasonCode::CrowdedHomePen`] reason for each side with a crowded pen of originals.
pub(crate) fn crowded_home_pens(known: &Known<'_>, out: &mut Reasons) {
    for color in Color::ALL {
        if let Some(reason) = side(known, color) {
            out.push(reason);
        }
    }
}

/// The reason for `color`, if one of its kinds has more penned originals than homes.
fn side(known: &Known<'_>, color: Color) -> Option<Reason> {
    let board = known.pos.board();
    let statics = known.statics;
    let mut promo = None;
    for class in classes(known.pos, color) {
        let free = class.units & !statics.promoted & !statics.unreachable;
        if !free.more_than_one() {
            continue;
        }
        let homes = class.originals & !*statics.stuck_missing.get(color);
        // The units that must be originals, with the home squares their regions hold.
        let mut penned: Vec<(Square, Bitboard)> = Vec::new();
        for sq in free {
            let Some(role) = board.role_at(sq) else {
                continue;
            };
            // Kept by the statics for most units (the same flood), else made here.
            let kept = statics.pen_regions.0[usize::from(sq)];
            let seen = if kept.any() {
                kept
            } else {
                pen_region(role, sq, statics.fixed, &statics.timed)
            };
            if seen.count() > REGION {
                continue;
            }
            let promo = *promo.get_or_insert_with(|| promotion_squares(color, statics.fixed));
            if (seen & promo).any() && origins_of(board, statics, promo, sq).any() {
                continue;
            }
            penned.push((sq, seen & homes));
        }
        if penned.len() < 2 {
            continue;
        }
        // Hall's condition over the subsets of the (at most two) home squares.
        let reached = penned.iter().fold(Bitboard::EMPTY, |acc, (_, h)| acc | *h);
        let list: Vec<Square> = reached.into_iter().collect();
        for subset in 0..(1u32 << list.len()) {
            let allowed: Bitboard = list
                .iter()
                .enumerate()
                .filter(|(i, _)| subset & (1 << i) != 0)
                .map(|(_, &h)| h)
                .collect();
            let units: Bitboard = penned
                .iter()
                .filter(|(_, h)| h.is_subset(allowed))
                .map(|&(sq, _)| sq)
                .collect();
            if units.count() > allowed.count() && allowed.any() {
                return Some(reason(color, class.name, units, allowed));
            }
        }
    }
    None
}

/// The reason: `units` of `color` (of kind `name`) can only be the originals of `homes`.
fn reason(color: Color, name: &str, units: Bitboard, homes: Bitboard) -> Reason {
    Reason::new(
        ReasonCode::CrowdedHomePen,
        format!(
            "the {} {name} on {} can never have left the pen walled by units that never moved \
             and pawns that moved once, and no promotion square opens into it, so each is an \
             original, but the only {} that can have been in it started on {}",
            color_adj(color),
            squares_text(units),
            if homes.more_than_one() {
                "originals"
            } else {
                "original"
            },
            squares_text(homes)
        ),
        units | homes,
    )
}
