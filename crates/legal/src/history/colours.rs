//! CQLi's "missing bishop but all captures on squares of the other colour" (seed 002).
//!
//! A bishop stands only on squares of its colour, so it was captured on one. Suppose a side `V`
//! misses its original bishop of colour `K` (no bishop of `V` on a `K` square can be it: none is
//! there, or those there are proven promoted). The other side `S` captured it. Suppose further that
//! the captures `S` must have made already use up all of `V`'s missing units: the captures of `S`'s
//! pawns in every cheapest assignment of pawns to start files, plus the originals of `V` that pieces
//! captured in pens where no pawn can capture. Then `S` made exactly those captures and no others
//! (each missing unit was captured once). If in every such assignment each pawn that changed files
//! did so by captures only (it advanced exactly as many ranks as files: all its moves were captures,
//! all landing on squares of its present square's colour) and those squares are not of colour `K`,
//! and no promoted bishop needed a capture, then none of `S`'s captures took the bishop: no game
//! reaches the position. The captures of the pens' originals took those originals, not the bishop
//! (unless the bishop is one of them, and then the rule does not apply).
//!
//! The check runs a dynamic programme over start files with a flag for "some capture may have been
//! on a `K` square or at an unknown square"; any assignment within the budget with the flag set, or
//! leaving captures to spare, makes the rule give up.

use shakmaty::{Bitboard, Color, Role};

use super::Known;
use crate::{
    checks::color_name,
    pawns::{advance, capturing_pawns, light_promotion_files, plain_cost},
    statics::homes,
    types::{squares_text, Reason, ReasonCode},
};

/// "Unreachable" in the tables.
const INF: u32 = u32::MAX;

/// For the pawns of `color`: per set of used start files, the cheapest assignment with every capture
/// on a square not in `avoid` and of known square (`[0]`), and the cheapest with some other capture
/// (`[1]`).
fn flagged_table(color: Color, pawns: Bitboard, avoid: Bitboard) -> [[u32; 256]; 2] {
    let list: Vec<_> = pawns.into_iter().collect();
    let mut dp = [[INF; 256]; 2];
    dp[0][0] = 0;
    for mask in 0..256usize {
        for flag in 0..2 {
            let so_far = dp[flag][mask];
            if so_far == INF {
                continue;
            }
            let Some(&sq) = list.get(mask.count_ones() as usize) else {
                continue;
            };
            for start in 0..8i32 {
                let bit = 1usize << start;
                if mask & bit != 0 {
                    continue;
                }
                let Some(c) = plain_cost(color, sq, start) else {
                    continue;
                };
                let c = u32::from(c);
                let good = c == 0 || (advance(color, sq) == c as i32 && !avoid.contains(sq));
                let f = if good { flag } else { 1 };
                let next = &mut dp[f][mask | bit];
                *next = (*next).min(so_far + c);
            }
        }
    }
    dp
}

/// Appends a [`ReasonCode::BishopCaptureColour`] reason for every missing bishop that no capture
/// can have taken.
pub(crate) fn bishop_colours(known: &Known<'_>, out: &mut Vec<Reason>) {
    let board = known.pos.board();
    for victim in Color::ALL {
        let taker = victim.other();
        let pawns = board.by_piece(taker.pawn());
        if pawns.count() > 8 {
            continue;
        }
        let missing = known.missing(victim);
        let by_pieces = known.by_pieces(taker);
        // The rule needs the captures the counting rules found to use up the missing units.
        if u32::from(known.captures.get(taker).total) != missing {
            continue;
        }
        for (colour, name) in [
            (Bitboard::LIGHT_SQUARES, "light"),
            (Bitboard::DARK_SQUARES, "dark"),
        ] {
            let home = homes(victim, Role::Bishop) & colour;
            if (home & *known.statics.captured_at_home.get(victim)).any() {
                continue;
            }
            let bishops = board.by_piece(victim.bishop()) & colour & !known.statics.promoted;
            if bishops.any() {
                continue;
            }
            if !all_captures_avoid(known, taker, pawns, colour, missing, by_pieces) {
                continue;
            }
            let movers = capturing_pawns(taker, pawns);
            let mut squares = Bitboard::EMPTY;
            for &(sq, from) in &movers {
                // A pawn that advanced as far as it changed files captured on every move, on the
                // squares of the diagonal from its start square to its present square.
                let step = if sq.file() > from { 1 } else { -1 };
                let mut file = from as i32;
                let back = advance(taker, sq);
                for k in 1..=back {
                    file += step;
                    let rank = taker.relative_rank(shakmaty::Rank::Second) as i32
                        + if taker.is_white() { k } else { -k };
                    squares.add(shakmaty::Square::from_coords(
                        shakmaty::File::new(file as u32),
                        shakmaty::Rank::new(rank as u32),
                    ));
                }
            }
            let other = if name == "light" { "dark" } else { "light" };
            out.push(Reason::new(
                ReasonCode::BishopCaptureColour,
                format!(
                    "{} is missing its {name}-squared bishop (from {}), but every capture {} made \
                     was on a {other} square ({}): its pawn structure needs those captures, and {} \
                     misses only {missing} unit{}",
                    color_name(victim),
                    squares_text(home),
                    color_name(taker),
                    squares_text(squares),
                    color_name(victim),
                    if missing == 1 { "" } else { "s" }
                ),
                squares | home,
            ));
        }
    }
}

/// Whether every history of `taker` within the budget makes only pawn captures on squares outside
/// `avoid`, of known squares, using up all `missing` units with the captures pieces made.
fn all_captures_avoid(
    known: &Known<'_>,
    taker: Color,
    pawns: Bitboard,
    avoid: Bitboard,
    missing: u32,
    by_pieces: u32,
) -> bool {
    let dp = flagged_table(taker, pawns, avoid);
    let p = known.promoted.get(taker);
    let light = light_promotion_files(taker);
    let n = pawns.count() as u32;
    let mut good = false;
    for (flag, table) in dp.iter().enumerate() {
        for (mask, &cost) in table.iter().enumerate() {
            if cost == INF || (mask as u32).count_ones() != n {
                continue;
            }
            let free = !(mask as u8);
            let a = (free & light).count_ones();
            let b = (free & !light).count_ones();
            let extra = p.light_bishops.saturating_sub(a) + p.dark_bishops.saturating_sub(b);
            let total = cost + extra + by_pieces;
            if total > missing {
                continue;
            }
            if flag == 1 || extra > 0 || total < missing {
                return false;
            }
            good = true;
        }
    }
    good
}
