//! Where a side's captures can have landed, with its promotions and the other side's pawn timing:
//! the sharper test behind [`super::colours`] (Smullyan's "Mystery of the Missing Piece").
//!
//! # The question
//!
//! A side `S` (the taker) made exactly as many captures as the other side `V` (the victim) misses
//! units. Can one of them have landed on a square of `avoid` (the colour of a missing bishop of
//! `V`)? If in every game that fits the capture budget none can, the bishop was never captured.
//!
//! # The model (a lower bound on every game)
//!
//! Each pawn of `S` on the board and each pawn of `S` that promoted to a unit on the board (one per
//! [`Demand`]) started on its own file. A pawn on the board that advanced as many ranks as it
//! changed files captured on every move, on the diagonal to its square (all of that square's
//! colour); any other pawn on the board may have captured anywhere (its captures count as landing on
//! `avoid`). A promoting pawn walked rank by rank through squares that are not static to one of its
//! demand's promotion squares, never between the two squares of a pawn with a known one-step
//! history ([`Timed`]: that pawn stood on one square until its move and on the other after it, so no
//! pawn ever walked between them); its path is tracked square by square, so the colour of every
//! capture it made is known. A capture on the sixth rank may have been en passant, but its victim
//! is a pawn, never the bishop, so only the landing square matters for the question.
//!
//! The pawns of `V` on their third rank with several possible origins give branches: each came
//! from exactly one origin, and that origin makes it a pawn with a known history. A branch in which
//! `V`'s pawns on the board need more captures than `S` misses units (less the originals of `S`
//! proven captured at home by pieces of `V`) is no game at all.
//!
//! In every remaining branch a dynamic programme over start files and a flag ("some capture may
//! have landed on `avoid`") gives the fewest captures of the modelled pawns; the captures of pieces
//! proven by the pens are added. The answer is yes (the bishop can have been captured) unless in
//! every branch every assignment within the budget has the flag clear and uses the budget exactly:
//! then `S` made no capture beyond the modelled pawn captures and the pens' captures, and none of
//! them landed on `avoid`.

use shakmaty::{Bitboard, Color, File, Rank, Square};

use crate::known::Known;
use crate::{
    geometry::Timed,
    pawns::{advance, plain_cost},
    promotion::{demands, Demand},
    statics::one_step_origins,
};

/// "Unreachable" in the tables.
const INF: u32 = u32::MAX;

/// Most pawns of the victim with several possible origins that are branched on.
const MAX_AMBIGUOUS: usize = 3;

/// Whether every game within the capture budget has all of `taker`'s captures outside `avoid`
/// and no capture to spare (see the module documentation). `missing` is the number of units the
/// victim misses, `by_pieces` the captures of the taker's pieces proven by the pens.
pub(crate) fn captures_avoid(
    known: &Known<'_>,
    taker: Color,
    avoid: Bitboard,
    missing: u32,
    by_pieces: u32,
) -> bool {
    let board = known.pos.board();
    let pawns = board.by_piece(taker.pawn());
    let wanted = demands(known.pos, known.statics, taker);
    if pawns.count() + wanted.len() > 8 {
        return false;
    }
    let mut good = false;
    for cuts in branches(known, taker.other()) {
        match branch_avoids(
            known, taker, pawns, &wanted, &cuts, avoid, missing, by_pieces,
        ) {
            Some(true) => good = true,
            Some(false) => return false,
            None => {}
        }
    }
    good
}

/// The pawn histories of `victim` to branch on: for each choice of origin of its pawns on their
/// third rank with several origins (within its capture budget), the list of pawns with a known
/// one-step history. Empty when there are too many such pawns to branch on.
pub(crate) fn branches(known: &Known<'_>, victim: Color) -> Vec<Vec<Timed>> {
    let board = known.pos.board();
    let statics = known.statics;
    let base: Vec<Timed> = statics.timed.iter().collect();
    let third =
        board.by_piece(victim.pawn()) & Bitboard::from_rank(victim.relative_rank(Rank::Third));
    let ambiguous: Vec<(Square, Bitboard)> = third
        .into_iter()
        .filter_map(|to| {
            let (_, origins) = one_step_origins(board, statics.fixed, to)?;
            origins.more_than_one().then_some((to, origins))
        })
        .collect();
    if ambiguous.is_empty() {
        return vec![base];
    }
    if ambiguous.len() > MAX_AMBIGUOUS {
        return Vec::new();
    }
    let budget = known
        .missing(victim.other())
        .saturating_sub(known.by_pieces(victim));
    let pawns = board.by_piece(victim.pawn());
    let mut out = Vec::new();
    let mut choice: Vec<Square> = Vec::with_capacity(ambiguous.len());
    choose(&ambiguous, &mut choice, &mut |picked: &[Square]| {
        let forced = |sq: Square, start: i32| -> Option<u8> {
            match ambiguous.iter().position(|&(to, _)| to == sq) {
                Some(i) => (picked[i].file() as i32 == start)
                    .then(|| (sq.file() as i32 - start).unsigned_abs() as u8),
                None => plain_cost(victim, sq, start),
            }
        };
        if assignment_cost(pawns, forced).is_some_and(|c| c <= budget) {
            let mut cuts = base.clone();
            cuts.extend(ambiguous.iter().zip(picked).map(|(&(to, _), &from)| Timed {
                color: victim,
                from,
                to,
            }));
            out.push(cuts);
        }
    });
    out
}

/// Calls `f` with every choice of one origin per entry of `options`.
fn choose(options: &[(Square, Bitboard)], picked: &mut Vec<Square>, f: &mut impl FnMut(&[Square])) {
    let Some(&(_, origins)) = options.get(picked.len()) else {
        f(picked);
        return;
    };
    for from in origins {
        picked.push(from);
        choose(options, picked, f);
        picked.pop();
    }
}

/// The fewest captures assigning the pawns `pawns` to distinct start files at the costs `cost`
/// (`None` for "cannot"); `None` if no assignment exists.
fn assignment_cost(pawns: Bitboard, cost: impl Fn(Square, i32) -> Option<u8>) -> Option<u32> {
    let list: Vec<Square> = pawns.into_iter().collect();
    let mut dp = [INF; 256];
    dp[0] = 0;
    for mask in 0..256usize {
        let so_far = dp[mask];
        let Some(&sq) = list.get(mask.count_ones() as usize) else {
            continue;
        };
        if so_far == INF {
            continue;
        }
        for start in 0..8i32 {
            let bit = 1usize << start;
            if mask & bit == 0 {
                if let Some(c) = cost(sq, start) {
                    let next = &mut dp[mask | bit];
                    *next = (*next).min(so_far + u32::from(c));
                }
            }
        }
    }
    dp.iter()
        .enumerate()
        .filter(|(m, _)| m.count_ones() as usize == list.len())
        .map(|(_, &c)| c)
        .min()
        .filter(|&c| c != INF)
}

/// The fewest captures of a pawn of `color` from file `start` to each promotion square (by file):
/// `[0]` with no capture landing on `avoid`, `[1]` with some. It walks through squares that are not
/// in `fixed`, never between the two squares of a pawn of `cuts`.
fn flagged_promotion(
    color: Color,
    start: u32,
    fixed: Bitboard,
    cuts: &[Timed],
    avoid: Bitboard,
) -> [[u32; 8]; 2] {
    let mut cost = [[INF; 8]; 2];
    cost[0][start as usize] = 0;
    let up: i32 = if color.is_white() { 1 } else { -1 };
    let second = color.relative_rank(Rank::Second) as i32;
    let at = |f: usize, r: i32| Square::from_coords(File::new(f as u32), Rank::new(r as u32));
    let cut = |a: Square, b: Square| {
        cuts.iter()
            .any(|t| (t.from == a && t.to == b) || (t.from == b && t.to == a))
    };
    for k in 1..=6 {
        let rank = second + up * k;
        let below = second + up * (k - 1);
        let mut next = [[INF; 8]; 2];
        for f in 0..8usize {
            let to = at(f, rank);
            if fixed.contains(to) {
                continue;
            }
            for flag in 0..2 {
                // Straight on: no capture.
                if !cut(at(f, below), to) {
                    next[flag][f] = next[flag][f].min(cost[flag][f]);
                }
                // A capture from the next file.
                let landed = if avoid.contains(to) { 1 } else { flag };
                for g in [f.wrapping_sub(1), f + 1] {
                    if g < 8 && cost[flag][g] != INF && !cut(at(g, below), to) {
                        next[landed][f] = next[landed][f].min(cost[flag][g] + 1);
                    }
                }
            }
        }
        cost = next;
    }
    cost
}

// Long by design: it fills the cost table (items by start file, with and without the avoided
// squares) and solves the assignment over it; the table means nothing apart from that solve.
/// In one branch (the known one-step histories `cuts`): `Some(true)` if every assignment within the
/// budget keeps clear of `avoid` and uses the budget exactly, `Some(false)` if one does not, `None`
/// if no assignment fits the budget at all.
#[allow(clippy::too_many_arguments)]
fn branch_avoids(
    known: &Known<'_>,
    taker: Color,
    pawns: Bitboard,
    wanted: &[Demand],
    cuts: &[Timed],
    avoid: Bitboard,
    missing: u32,
    by_pieces: u32,
) -> Option<bool> {
    let fixed = known.statics.fixed;
    let list: Vec<Square> = pawns.into_iter().collect();
    // Cost of each item (pawn on the board, then demand) from each start file, per flag.
    let mut table: Vec<[[u32; 8]; 2]> = Vec::with_capacity(list.len() + wanted.len());
    for &sq in &list {
        let mut row = [[INF; 8]; 2];
        for start in 0..8i32 {
            let Some(c) = plain_cost(taker, sq, start) else {
                continue;
            };
            let c = u32::from(c);
            // Captures only: every landing square on the diagonal, of `sq`'s colour.
            let known_path = c == 0 || (advance(taker, sq) == c as i32 && !avoid.contains(sq));
            if let Some(slot) = row[usize::from(!known_path)].get_mut(start as usize) {
                *slot = c;
            }
        }
        table.push(row);
    }
    let paths: Vec<[[u32; 8]; 2]> = (0..8)
        .map(|start| {
            // Reduced to the demand's squares below; here per promotion file.
            flagged_promotion(taker, start, fixed, cuts, avoid)
        })
        .collect();
    for d in wanted {
        let mut row = [[INF; 8]; 2];
        for (start, by_file) in paths.iter().enumerate() {
            for flag in 0..2 {
                row[flag][start] = d
                    .squares
                    .into_iter()
                    .map(|q| by_file[flag][q.file() as usize])
                    .min()
                    .unwrap_or(INF);
            }
        }
        table.push(row);
    }
    let mut dp = [[INF; 256]; 2];
    dp[0][0] = 0;
    for mask in 0..256usize {
        let Some(row) = table.get(mask.count_ones() as usize) else {
            continue;
        };
        for flag in 0..2 {
            let so_far = dp[flag][mask];
            if so_far == INF {
                continue;
            }
            for start in 0..8usize {
                let bit = 1usize << start;
                if mask & bit != 0 {
                    continue;
                }
                for (item_flag, costs) in row.iter().enumerate() {
                    let c = costs[start];
                    if c == INF {
                        continue;
                    }
                    let next = &mut dp[flag.max(item_flag)][mask | bit];
                    *next = (*next).min(so_far + c);
                }
            }
        }
    }
    let items = table.len() as u32;
    let mut fits = false;
    for (flag, row) in dp.iter().enumerate() {
        for (mask, &cost) in row.iter().enumerate() {
            if cost == INF || (mask as u32).count_ones() != items {
                continue;
            }
            let total = cost + by_pieces;
            if total > missing {
                continue;
            }
            if flag == 1 || total < missing {
                return Some(false);
            }
            fits = true;
        }
    }
    fits.then_some(true)
}
