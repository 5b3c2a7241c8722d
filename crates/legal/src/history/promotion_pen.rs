//! A pen too small for the promoted units shut in it (Sherlock L35: two black bishops on a2 and
//! b1 behind white pawns on b2, c2 and b3).
//!
//! # The argument
//!
//! Let `G` be promoted units of one colour `C` now on the board, and for each `u` of `G` let
//! `pen(u)` be the squares connected to its square by steps of its kind through squares that are
//! not static, never between the two squares of a pawn with a known one-step history (no unit ever
//! moved between them: see [`region_cut`]). Every square `u` ever visited is in `pen(u)`, its
//! promotion square too, so that is one of the promotion squares `Q(u)` of the pen. Let `P` be the
//! union of the pens and `O` the squares a pawn of `C` can have promoted from onto a square of
//! some `Q(u)` (straight or capturing, not static).
//!
//! Each unit of `G` was promoted on a square of its `Q(u)` and has stayed in `P` ever since (it is
//! on the board, so it was never captured). Take the moment the last of them, `v`, was promoted:
//! the other `|G| - 1` stood in `P`, neither on the promotion square `q` (empty, or holding the
//! enemy unit taken) nor on the square `o` the pawn came from (the pawn stood there). If `O` lies
//! in `P`, then `o` is a square of `P` other than `q`, and `|G| - 1 <= |P| - 2`; otherwise
//! `|G| - 1 <= |P| - 1`. More units than that cannot be there.
//!
//! For L35: the white pawn on b3 came from a2 (b2 and c2 never moved), so a black bishop can enter
//! or leave the corner only by a promotion on b1, which needs a pawn on a2, and the pen is a2 and
//! b1: when the second bishop was promoted, the first had no square left.

use retrace_unmove::pawn_forward;
use shakmaty::{attacks, Bitboard, Color, Role, Square};

use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_adj, plural, squares_text};
use crate::{
    geometry::{dilate, promotion_squares, region_cut},
    types::{Reason, ReasonCode},
};

/// Largest pen (in squares) looked at.
const LIMIT: usize = 12;

/// The squares a pawn of `color` promotes from onto `q` (straight or capturing), not static.
fn origins(color: Color, q: Square, fixed: Bitboard) -> Bitboard {
    let back = -pawn_forward(color);
    let straight = q
        .offset(back)
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    (straight | attacks::pawn_attacks(color.other(), q)) & !fixed
}

/// One crowded pen: the units, the pen, the promotion squares and the squares pawns came from.
struct Crowded {
    units: Bitboard,
    pen: Bitboard,
    squares: Bitboard,
    from: Bitboard,
}

/// Appends a [`ReasonCode::CrowdedPromotionPen`] reason for each colour with a crowded pen.
pub(crate) fn crowded_pens(known: &Known<'_>, out: &mut Reasons) {
    let board = known.pos.board();
    let statics = known.statics;
    for color in Color::ALL {
        let units = statics.promoted & board.by_color(color) & !board.pawns() & !board.kings();
        if !units.more_than_one() {
            continue;
        }
        if let Some(found) = crowded(known, color, units) {
            out.add_built(ReasonCode::CrowdedPromotionPen, || {
                reason(known, color, &found)
            });
        }
    }
}

/// A crowded pen of `color`'s promoted `units`, if any.
fn crowded(known: &Known<'_>, color: Color, units: Bitboard) -> Option<Crowded> {
    let board = known.pos.board();
    let statics = known.statics;
    let fixed = statics.fixed;
    let promo = promotion_squares(color, fixed);
    // For each unit: its pen and the promotion squares in it (small pens only).
    let pens: Vec<(Square, Bitboard, Bitboard)> = units
        .into_iter()
        .filter_map(|sq| {
            let role = board.role_at(sq)?;
            let pen = region_cut(role, sq, !fixed, Bitboard::EMPTY, 64, &statics.timed);
            let squares = pen & promo;
            (pen.count() <= LIMIT && squares.any()).then_some((sq, pen, squares))
        })
        .collect();
    for &(_, pen, _) in &pens {
        let group: Vec<_> = pens.iter().filter(|(_, p, _)| p.is_subset(pen)).collect();
        let members: Bitboard = group.iter().map(|(sq, _, _)| *sq).collect();
        let squares = group
            .iter()
            .fold(Bitboard::EMPTY, |acc, (_, _, q)| acc | *q);
        let from = squares
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, q| acc | origins(color, q, fixed));
        let room = pen.count() - usize::from(from.is_subset(pen));
        if members.count() > room {
            return Some(Crowded {
                units: members,
                pen,
                squares,
                from,
            });
        }
    }
    None
}

/// The reason for the crowded pen `c` of `color`.
fn reason(known: &Known<'_>, color: Color, c: &Crowded) -> Reason {
    let near = c.pen | dilate(Role::Queen, c.pen);
    let cuts: Vec<String> = known
        .statics
        .timed
        .iter()
        .filter(|t| near.contains(t.from) && near.contains(t.to))
        .map(|t| {
            format!(
                "the {} pawn on {} came from {} in one move",
                color_adj(t.color),
                t.to,
                t.from
            )
        })
        .collect();
    let timing = if cuts.is_empty() {
        String::new()
    } else {
        format!(
            " ({}, so no unit ever moved between those squares)",
            cuts.join("; ")
        )
    };
    let inside = c.from.is_subset(c.pen);
    let left = c.pen.count() - 1 - usize::from(inside);
    let from = if inside {
        format!("from {}, also in that pen", squares_text(c.from))
    } else {
        format!("from {}", squares_text(c.from))
    };
    let others = c.units.count() - 1;
    Reason::new(
        ReasonCode::CrowdedPromotionPen,
        format!(
            "the {} units on {} are promoted and can never have left {} after their promotion on \
             {}{timing}; every promotion there came {from}, so when the last of them was promoted \
             the other {others} had only {left} square{} of the pen left (not the promotion \
             square{})",
            color_adj(color),
            squares_text(c.units),
            squares_text(c.pen),
            squares_text(c.squares),
            plural(left),
            if inside { " nor the pawn's" } else { "" },
        ),
        c.units | c.pen | c.from,
    )
}
