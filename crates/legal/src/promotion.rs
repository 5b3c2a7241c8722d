//! Where promoted units can have been promoted, and what the pawns that promoted paid in captures
//! (seed 000's promotion-square inferences; CQLi's "promoting this many pawns would require too
//! many captures").
//!
//! A promoted unit appeared on a promotion square and reached its square by steps of its own kind
//! through squares that are not static (see [`crate::statics`]); so it was promoted on a square of
//! its region. Seed 000's rules all follow from that: no promotion on a square where a unit never
//! moved or whose squares a pawn promotes from all hold enemy pawns that never moved (the square is
//! not a usable promotion square), and a bishop promoted on d1 behind white pawns on c2 and e2 that
//! never moved cannot have left d1 (d1 is in no other bishop's region). The corner rule (b2, b3 and
//! c2: a bishop promoted on b1 stays on b1 or a2) follows with the pawn timing of the statics: from
//! b1 a bishop reaches a2 only after a2xb3, and then b3 is blocked for good, so the squares a unit
//! promoted on b1 can ever reach, flooded forward with that timing, are b1 and a2.
//!
//! The pawn that promoted started on a file that no pawn on the board started on, and walked to the
//! promotion square through squares that are not static, capturing once per file changed: the
//! cheapest such walk is a small dynamic programme over ranks. Pawns on the board and promoted
//! units are then assigned together to distinct start files at the least total cost, which is a
//! lower bound of the captures the side's pawns made.
//!
//! Promoted units are the units proven promoted, one per such unit, with the promotion squares of
//! its region, and for each kind with more units than originals, as many demands as the excess,
//! each allowed the promotion squares of all those units' regions together (which of them were
//! promoted is not known, so the union is taken: a lower bound all the same).

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color, File, Rank, Square};

use crate::{
    checks::color_name,
    material::classes,
    pawns::plain_cost,
    statics::{promotion_squares, region, timed_forward, Statics, TimedList},
    types::{squares_text, Reason, ReasonCode},
};

/// "Unreachable" in the tables.
const NONE: u32 = u32::MAX;

/// Largest region around a promotion square searched for walls of pawn timing.
const PEN: usize = 16;

/// One promoted unit to account for: the units it may be, and the promotion squares it may have
/// been promoted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Demand {
    /// The units of which this one promoted unit is one.
    pub units: Bitboard,
    /// The promotion squares it can have come from.
    pub squares: Bitboard,
}

/// The promoted units of `color` with the promotion squares each can have come from.
pub(crate) fn demands(pos: &RetroPosition, statics: &Statics, color: Color) -> Vec<Demand> {
    let board = pos.board();
    let promo = promotion_squares(color, statics.fixed);
    let origin = |sq: Square| -> Bitboard {
        let Some(role) = board.role_at(sq) else {
            return Bitboard::EMPTY;
        };
        let plain = region(role, sq, !statics.fixed, Bitboard::EMPTY, 64) & promo;
        // A promotion square from which a pawn with a known history walls a unit in (the corner
        // b1 behind b2, c2 and a pawn on b3 from a2): the unit never got out of its small region.
        plain
            .into_iter()
            .filter(|&q| {
                statics.timed.iter().all(|t| {
                    timed_forward(role, q, statics.fixed, t, PEN).is_none_or(|pen| pen.contains(sq))
                })
            })
            .collect()
    };
    let mut out = Vec::new();
    for class in classes(pos, color) {
        let forced = class.units & statics.promoted;
        for sq in forced {
            out.push(Demand {
                units: Bitboard::from_square(sq),
                squares: origin(sq),
            });
        }
        let free = class.units & !forced;
        let available = (class.originals & !*statics.stuck_missing.get(color)).count();
        let excess = free.count().saturating_sub(available);
        if excess > 0 {
            let squares = free
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | origin(sq));
            for _ in 0..excess {
                out.push(Demand {
                    units: free,
                    squares,
                });
            }
        }
    }
    out
}

/// The fewest captures a pawn of `color` from file `start` makes to reach each promotion square
/// (indexed by file), walking through squares that are not in `fixed` and never along the move of
/// a pawn of `cuts` ([`NONE`] if it cannot).
pub(crate) fn promotion_costs(
    color: Color,
    start: u32,
    fixed: Bitboard,
    cuts: &TimedList,
) -> [u32; 8] {
    let mut cost = [NONE; 8];
    cost[start as usize] = 0;
    let up: i32 = if color.is_white() { 1 } else { -1 };
    let second = color.relative_rank(Rank::Second) as i32;
    for k in 1..=6 {
        let rank = Rank::new((second + up * k) as u32);
        let below = Rank::new((second + up * (k - 1)) as u32);
        let at = |f: usize, r: Rank| Square::from_coords(File::new(f as u32), r);
        let cut = |a: Square, b: Square| {
            cuts.iter()
                .any(|t| (t.from == a && t.to == b) || (t.from == b && t.to == a))
        };
        let mut next = [NONE; 8];
        for (f, slot) in next.iter_mut().enumerate() {
            let to = at(f, rank);
            if fixed.contains(to) {
                continue;
            }
            let mut best = if cut(at(f, below), to) { NONE } else { cost[f] };
            for g in [f.wrapping_sub(1), f + 1] {
                if let Some(&c) = cost.get(g) {
                    if !cut(at(g, below), to) {
                        best = best.min(c.saturating_add(1));
                    }
                }
            }
            *slot = best;
        }
        cost = next;
    }
    cost
}

/// The fewest captures of `color`'s pawns when the pawns on the board and the promoted units of
/// `demands` are given distinct start files; `None` if no assignment exists.
pub(crate) fn min_captures(
    color: Color,
    pawns: Bitboard,
    demands: &[Demand],
    statics: &Statics,
) -> Option<u32> {
    let list: Vec<Square> = pawns.into_iter().collect();
    if list.len() + demands.len() > 8 {
        return None;
    }
    // Cost of each demand from each start file.
    let table: Vec<[u32; 8]> = demands
        .iter()
        .map(|d| {
            let mut row = [NONE; 8];
            for (start, slot) in row.iter_mut().enumerate() {
                let costs = promotion_costs(color, start as u32, statics.fixed, &statics.timed);
                *slot = d
                    .squares
                    .into_iter()
                    .map(|q| costs[q.file() as usize])
                    .min()
                    .unwrap_or(NONE);
            }
            row
        })
        .collect();
    let items = list.len() + demands.len();
    let mut dp = [NONE; 256];
    dp[0] = 0;
    for mask in 0..256usize {
        let so_far = dp[mask];
        let k = mask.count_ones() as usize;
        if so_far == NONE || k >= items {
            continue;
        }
        for start in 0..8usize {
            let bit = 1 << start;
            if mask & bit != 0 {
                continue;
            }
            let c = match list.get(k) {
                Some(&sq) => plain_cost(color, sq, start as i32).map_or(NONE, u32::from),
                None => table
                    .get(k - list.len())
                    .and_then(|row| row.get(start))
                    .copied()
                    .unwrap_or(NONE),
            };
            if c == NONE {
                continue;
            }
            let next = &mut dp[mask | bit];
            *next = (*next).min(so_far + c);
        }
    }
    dp.iter()
        .enumerate()
        .filter(|(m, _)| m.count_ones() as usize == items)
        .map(|(_, &c)| c)
        .min()
        .filter(|&c| c != NONE)
}

/// The [`ReasonCode::PromotionsNeedCaptures`] reason: the promoted units of `demands` need `found`
/// pawn captures (`None`: no pawn can have reached their promotion squares at all), more than the
/// `missing` units of the other side less the `by_pieces` captured by pieces allow.
pub(crate) fn reason(
    color: Color,
    demands: &[Demand],
    found: Option<u32>,
    by_pieces: u32,
    missing: u32,
) -> Reason {
    let mut squares = Bitboard::EMPTY;
    let parts: Vec<String> = demands
        .iter()
        .map(|d| {
            squares |= d.units | d.squares;
            if d.squares.is_empty() {
                format!(
                    "one of {} has no promotion square it can have come from",
                    squares_text(d.units)
                )
            } else {
                format!(
                    "one of {} can only have been promoted on {}",
                    squares_text(d.units),
                    squares_text(d.squares)
                )
            }
        })
        .collect();
    let need = match found {
        Some(c) => format!(
            "the pawns on the board and the pawns that promoted need at least {c} capture{} to \
             reach their squares around the units that never moved",
            if c == 1 { "" } else { "s" }
        ),
        None => "no pawn can have walked to those squares around the units that never moved".into(),
    };
    Reason::new(
        ReasonCode::PromotionsNeedCaptures,
        format!(
            "{} has promoted units ({}); {need}, but {} is missing only {missing} unit{}{}",
            color_name(color),
            parts.join("; "),
            color_name(color.other()),
            if missing == 1 { "" } else { "s" },
            if by_pieces > 0 {
                format!(" and pieces captured {by_pieces} of them")
            } else {
                String::new()
            }
        ),
        squares,
    )
}
