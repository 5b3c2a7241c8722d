//! A pawn that can only have promoted, after every capture of the other side, and no unit on the
//! board that can be its promotion (Sherlock L24: "the promoted white knight cannot have possibly
//! left a8").
//!
//! # The argument
//!
//! Let `O` be a side whose captures are all known in time and place: each of `O`'s pawns on its
//! third rank that arrived there by a capture from a single possible square (a pawn of known
//! history, [`Timed`], moving diagonally) made one capture, at its move, on its present square;
//! if the other side `C` misses exactly as many units as there are such pawns (and no more), those
//! were all of `O`'s captures.
//!
//! Let `f` be a file on which no pawn of `C` on the board can have started within `C`'s capture
//! budget (the units `O` misses, less the originals of `O` captured at home by pieces): the pawn of
//! `f` left the board. It can have made at most `spare` captures (the budget less what the pawns on
//! the board need). It was not captured: `O` captured only on the squares of those pawns, and the
//! pawn of `f` cannot stand on any of them with `spare` captures. So it promoted, on a promotion
//! square it reaches with `spare` captures through squares that are not static. If every such path
//! passes the start square of each capturing pawn (occupied by that pawn until its capture), it
//! promoted after all of `O`'s captures, so its unit was never captured: it stands on the board,
//! and it moved only after those captures, when the squares of the capturing pawns were occupied.
//! If no unit of `C` on the board (other than units that never moved) can have come from such a
//! promotion square that way, no game reaches the position.
//!
//! For L24: Black's only capture is a7xb6 (b7 and c7 never moved); White misses one unit; no white
//! pawn can have come from the a-file, so the a-pawn, with no capture to spare, walked up the a-file
//! past a7 after a7xb6 and promoted on a8; from a8, with b6 and c7 occupied and b7 static, a knight
//! or a bishop can never move and a rook or queen reaches only the a-file and b8, where no white
//! unit stands.

use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, plural, squares_text};
use crate::{
    geometry::{bounded_flood, promotion_squares, Timed},
    pawns::{plain_cost, PawnCost},
    types::{Reason, ReasonCode},
};

/// "Unreachable" in the tables.
const NONE: u32 = u32::MAX;

/// The fewest captures a pawn of `color` from file `start` needs to stand on each square (through
/// squares not in `walls`, ranks two to eight), [`NONE`] where it cannot.
fn reach(color: Color, start: u32, walls: Bitboard) -> [u32; 64] {
    let mut out = [NONE; 64];
    let up: i32 = if color.is_white() { 1 } else { -1 };
    let second = color.relative_rank(Rank::Second) as i32;
    let at =
        |f: u32, k: i32| Square::from_coords(File::new(f), Rank::new((second + up * k) as u32));
    if walls.contains(at(start, 0)) {
        return out;
    }
    out[at(start, 0) as usize] = 0;
    for k in 1..=6 {
        for f in 0..8u32 {
            let to = at(f, k);
            if walls.contains(to) {
                continue;
            }
            let mut best = out[at(f, k - 1) as usize];
            for g in [f.wrapping_sub(1), f + 1] {
                if g < 8 {
                    best = best.min(out[at(g, k - 1) as usize].saturating_add(1));
                }
            }
            out[to as usize] = best;
        }
    }
    out
}

/// Appends a [`ReasonCode::MissingPromotedUnit`] reason if a forced promotion left no unit.
pub(crate) fn forced_promotions(known: &Known<'_>, out: &mut Reasons) {
    for c in Color::ALL {
        if let Some(reason) = side(known, c) {
            out.push(reason);
            return;
        }
    }
}

// Long by design: the proof of the module doc step by step for one side (the opponent's captures,
// the squares after each, the pawn that cannot have been captured, the paths to the promotion
// squares); the comments inside mark the steps.
/// The reason for side `c` (whose pawn promoted), if any.
fn side(known: &Known<'_>, c: Color) -> Option<Reason> {
    let board = known.pos.board();
    let statics = known.statics;
    let o = c.other();
    let pawns = board.by_piece(c.pawn());
    if pawns.count() >= 8 {
        return None;
    }
    // O's captures: the diagonal moves of its pawns of known history, and nothing else.
    let captures: Vec<Timed> = statics
        .timed
        .iter()
        .filter(|t| t.color == o && t.from.file() != t.to.file())
        .collect();
    if captures.is_empty() || known.missing(c) != captures.len() as u32 || known.by_pieces(o) > 0 {
        return None;
    }
    let budget = known.missing(o).checked_sub(known.by_pieces(c))?;
    let needed = PawnCost::compute(c, pawns).min_captures(0, 0)?;
    let spare = budget.checked_sub(needed)?;
    let fixed = statics.fixed;
    let promo = promotion_squares(c, fixed);
    let taken: Bitboard = captures.iter().map(|t| t.to).collect();
    let starts: Bitboard = captures.iter().map(|t| t.from).collect();
    // After every capture: the capturing pawns stand on their squares.
    let after = !fixed & !taken;
    for f in 0..8u32 {
        let certain = pawns
            .into_iter()
            .all(|sq| plain_cost(c, sq, f as i32).is_none_or(|cost| u32::from(cost) > budget));
        if !certain {
            continue;
        }
        let costs = reach(c, f, fixed);
        let within = |sq: Square| costs[sq as usize] <= spare;
        // The pawn of `f` cannot have been captured: it never stood where O captured.
        if taken.into_iter().any(within) {
            continue;
        }
        let squares: Bitboard = promo.into_iter().filter(|&q| within(q)).collect();
        // Every path to a promotion square passes the start square of every capturing pawn.
        let late = captures.iter().all(|t| {
            let avoiding = reach(c, f, fixed.with(t.from));
            squares.into_iter().all(|q| avoiding[q as usize] > spare)
        });
        if !late {
            continue;
        }
        let mut candidates = Bitboard::EMPTY;
        for q in squares {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                let units = board.by_piece(role.of(c)) & !fixed;
                if units.is_empty() {
                    continue;
                }
                match bounded_flood(role, Bitboard::from_square(q), after, 64) {
                    Some(region) => candidates |= units & region,
                    None => return None,
                }
            }
        }
        if candidates.is_empty() {
            let file = File::new(f);
            let head = format!(
                "{} captured only with the pawns on {} (each came from {} in one capture) and {} \
                 misses exactly that many units; the {} pawn of the {} file, which no pawn on the \
                 board can be, never stood on those squares with the {spare} capture{} it can have \
                 made",
                color_name(o),
                squares_text(taken),
                squares_text(starts),
                color_name(c),
                color_adj(c),
                file.char(),
                plural(spare),
            );
            // With no promotion square in reach the pawn can neither have been captured nor
            // have promoted: the timing and the units on the board do not come into it.
            let tail = if squares.is_empty() {
                "nor can it have reached a promotion square, so it can neither have been captured \
                 nor have promoted"
                    .to_string()
            } else {
                format!(
                    "so it promoted, on {}, and only after those captures (its way passes {}); so \
                     its unit was never captured, yet no {} unit on the board can have come from \
                     {} once {} {} occupied",
                    squares_text(squares),
                    squares_text(starts),
                    color_adj(c),
                    squares_text(squares),
                    squares_text(taken),
                    if taken.more_than_one() { "were" } else { "was" }
                )
            };
            return Some(Reason::new(
                ReasonCode::MissingPromotedUnit,
                format!("{head}, {tail}"),
                taken | starts | squares,
            ));
        }
    }
    None
}
