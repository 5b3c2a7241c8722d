//! The pawn structure of one side as an assignment problem, with a cache.
//!
//! Every pawn on the board started on its second rank on some file `g` and can only have advanced;
//! each change of file is a capture and also an advance, so a pawn on file `f` that has advanced `w`
//! ranks started on a file `g` with `|f - g| <= w`, at a cost of `|f - g|` captures. The pawns of a
//! side started on distinct files, so the minimum number of captures is a min-cost assignment of
//! pawns to start files. Eight files allow an exact dynamic programme over the subsets of used files
//! (256 states), which is cheap and, since it depends only on the pawns of one side, cached.
//!
//! The files left unused are the start files of the pawns that left the board; promoted bishops
//! need one of them, and a bishop promoted on a square of the wrong colour for its start file costs
//! a further capture. So the result keeps, for each count of unused files of each promotion colour,
//! the cheapest assignment.

use shakmaty::{Bitboard, Color, File, Square};

/// "No assignment" in the cost tables.
pub(crate) const INF: u8 = u8::MAX;

/// Files (as a bit mask) whose last-rank square for `color` is light.
pub(crate) const fn light_promotion_files(color: Color) -> u8 {
    match color {
        // a8, c8, e8, g8 are light.
        Color::White => 0b0101_0101,
        // b1, d1, f1, h1 are light.
        Color::Black => 0b1010_1010,
    }
}

/// The pawn structure of one side, reduced to what the rest of the analysis needs.
///
/// Invariant: `best[a][b]` is the minimum number of captures by the pawns on the board over all
/// assignments leaving `a` unused start files whose promotion square is light and `b` whose
/// promotion square is dark, or `INF` (`u8::MAX`) when no assignment leaves that pattern; all
/// entries are `INF` exactly when the structure is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnCost {
    best: [[u8; 5]; 5],
}

impl PawnCost {
    /// Computes the table for the pawns `pawns` of `color` (at most 8 of them; more is impossible).
    #[must_use]
    pub fn compute(color: Color, pawns: Bitboard) -> PawnCost {
        Self::compute_by(color, pawns, |sq, start| plain_cost(color, sq, start))
    }

    /// The table for pawns each of which must have left its file at some moment if it is in
    /// `displaced`: such a pawn on its start file made at least two captures (out and back).
    #[must_use]
    pub(crate) fn compute_displaced(
        color: Color,
        pawns: Bitboard,
        displaced: Bitboard,
    ) -> PawnCost {
        Self::compute_by(color, pawns, |sq, start| {
            if displaced.contains(sq) && start == sq.file() as i32 {
                (advance(color, sq) >= 2).then_some(2)
            } else {
                plain_cost(color, sq, start)
            }
        })
    }

    /// The table with the cost of each pawn and start file given by `cost` (see
    /// [`plain_cost`]).
    fn compute_by(
        color: Color,
        pawns: Bitboard,
        cost: impl Fn(Square, i32) -> Option<u8>,
    ) -> PawnCost {
        let mut out = PawnCost {
            best: [[INF; 5]; 5],
        };
        let Some(dp) = assignment_table_by(pawns, cost) else {
            return out;
        };
        let n = pawns.count() as u32;
        let light = light_promotion_files(color);
        for (mask, &cost) in dp.iter().enumerate() {
            if cost == INF || u32::from(FILES_IN[mask]) != n {
                continue;
            }
            let free = !(mask as u8);
            let a = (free & light).count_ones() as usize;
            let b = (free & !light).count_ones() as usize;
            if let Some(cell) = out.best.get_mut(a).and_then(|row| row.get_mut(b)) {
                *cell = (*cell).min(cost);
            }
        }
        out
    }

    /// Whether some assignment of the pawns to start files exists.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn feasible(&self) -> bool {
        self.best.iter().flatten().any(|&c| c != INF)
    }

    /// Minimum captures by pawns (on the board and promoted) when `light` promoted bishops stand on
    /// light squares and `dark` on dark ones: each needs an unused start file, and one whose
    /// promotion square has the wrong colour costs one capture more. `None` if impossible.
    #[must_use]
    pub fn min_captures(&self, light: u32, dark: u32) -> Option<u32> {
        let mut best: Option<u32> = None;
        for (a, row) in self.best.iter().enumerate() {
            for (b, &cost) in row.iter().enumerate() {
                if cost == INF {
                    continue;
                }
                let extra = light.saturating_sub(a as u32) + dark.saturating_sub(b as u32);
                let total = u32::from(cost) + extra;
                best = Some(best.map_or(total, |x| x.min(total)));
            }
        }
        best
    }
}

/// How many ranks the pawn of `color` on `sq` has advanced from its second rank.
#[must_use]
pub fn advance(color: Color, sq: Square) -> i32 {
    color.relative_rank(sq.rank()) as i32 - 1
}

/// The fewest moves of a pawn that advanced `w` ranks and changed `d` files (`d <= w`): `d`
/// captures and `w - d` pushes, one of which may be the double step.
#[must_use]
pub fn walk_moves(w: i32, d: i32) -> i32 {
    w - i32::from(w - d >= 2)
}

/// Whether no two of the pawns on `pawns` share a file (then each may have come straight).
#[must_use]
pub fn on_distinct_files(pawns: Bitboard) -> bool {
    // The ranks folded onto one: its files are the files used, as many as the pawns exactly
    // when no two pawns share one. (A search asks this at every node: no loop over the pawns.)
    let mut files = u64::from(pawns);
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    (files & 0xff).count_ones() == pawns.count() as u32
}

/// `dp[mask]`: minimum captures assigning the first `popcount(mask)` pawns (in square order) to the
/// start files in `mask`. `None` for more than 8 pawns.
fn assignment_table(color: Color, pawns: Bitboard) -> Option<[u8; 256]> {
    assignment_table_by(pawns, |sq, start| plain_cost(color, sq, start))
}

/// The captures the pawn of `color` on `sq` made if it started on file `start`, at least: one per
/// file it changed, if it advanced that far (`None` if it cannot have started there).
pub(crate) fn plain_cost(color: Color, sq: Square, start: i32) -> Option<u8> {
    let d = (sq.file() as i32 - start).abs();
    (d <= advance(color, sq)).then_some(d as u8)
}

/// [`assignment_table`] with the cost of each pawn and start file given by `cost`.
fn assignment_table_by(
    pawns: Bitboard,
    cost: impl Fn(Square, i32) -> Option<u8>,
) -> Option<[u8; 256]> {
    if pawns.count() > 8 {
        return None;
    }
    let list: Vec<Square> = pawns.into_iter().collect();
    assignment_table_of(list.len(), |k, start| cost(list[k], start))
}

/// The number of files in each set of start files (a popcount table: the assignments read it for
/// all 256 sets, and generic x86-64 code has no popcount instruction).
pub(crate) const FILES_IN: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = (mask as u32).count_ones() as u8;
        mask += 1;
    }
    table
};

/// `dp[mask]`: the least total `cost(k, start)` assigning the first `popcount(mask)` of `n` units
/// (indices `k`) to the start files in `mask` ([`INF`] where none fits); `None` for more than 8.
pub(crate) fn assignment_table_of(
    n: usize,
    cost: impl Fn(usize, i32) -> Option<u8>,
) -> Option<[u8; 256]> {
    if n > 8 {
        return None;
    }
    // Each cost asked once (the fill below reads each up to 128 times).
    let mut costs = [[None; 8]; 8];
    for (k, row) in costs.iter_mut().enumerate().take(n) {
        for (start, slot) in (0..8i32).zip(row.iter_mut()) {
            *slot = cost(k, start);
        }
    }
    let mut dp = [INF; 256];
    dp[0] = 0;
    for mask in 0..256usize {
        let so_far = dp[mask];
        let k = usize::from(FILES_IN[mask]);
        if so_far == INF || k >= n {
            continue;
        }
        for (start, c) in costs[k].iter().enumerate() {
            let bit = 1usize << start;
            let Some(c) = c.filter(|_| mask & bit == 0) else {
                continue;
            };
            let next = &mut dp[mask | bit];
            *next = (*next).min(so_far.saturating_add(c));
        }
    }
    Some(dp)
}

/// The fewest moves the pawns `pawns` of `color` made, or `None` if no assignment to start files
/// exists. A pawn that advanced `w` ranks and changed `d` files made `d` captures and `w - d`
/// pushes, one of which may be the double step: `w - 1` moves when `w - d >= 2`, else `w`. That
/// cost grows with `d`, so when no two pawns share a file each starting on its own file is best;
/// otherwise the assignment decides.
#[must_use]
pub fn pawn_moves_needed(color: Color, pawns: Bitboard) -> Option<u32> {
    let moves = |sq: Square, start: i32| {
        let d = (sq.file() as i32 - start).abs();
        let w = advance(color, sq);
        (d <= w).then(|| walk_moves(w, d) as u8)
    };
    if on_distinct_files(pawns) {
        return Some(
            pawns
                .into_iter()
                .filter_map(|sq| moves(sq, sq.file() as i32))
                .map(u32::from)
                .sum(),
        );
    }
    min_pawn_assignment(pawns, moves)
}

/// The least total `cost` over the assignments of the pawns on `pawns` to distinct start files,
/// where `cost(sq, start)` is what the pawn on `sq` costs if it started on file `start` (0 to 7),
/// `None` if it cannot have. `None` if no assignment exists. A total of `u8::MAX` or more counts as
/// impossible, so each cost must stay below 31 (eight pawns).
#[must_use]
pub fn min_pawn_assignment(
    pawns: Bitboard,
    cost: impl Fn(Square, i32) -> Option<u8>,
) -> Option<u32> {
    let dp = assignment_table_by(pawns, cost)?;
    let n = pawns.count() as u32;
    dp.iter()
        .enumerate()
        .filter(|&(mask, &cost)| cost != INF && u32::from(FILES_IN[mask]) == n)
        .map(|(_, &cost)| u32::from(cost))
        .min()
}

/// The pawns of an assignment of minimum cost that changed file, with the files they came from.
/// Empty if the structure is impossible. Used only to word messages, so it is not cached.
#[must_use]
pub(crate) fn capturing_pawns(color: Color, pawns: Bitboard) -> Vec<(Square, File)> {
    let Some(dp) = assignment_table(color, pawns) else {
        return Vec::new();
    };
    let list: Vec<Square> = pawns.into_iter().collect();
    let n = list.len() as u32;
    let Some(mut mask) = (0..256usize)
        .filter(|m| (*m as u32).count_ones() == n && dp[*m] != INF)
        .min_by_key(|m| dp[*m])
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Walk back: the last pawn took some file of `mask` consistent with the table.
    for (i, &sq) in list.iter().enumerate().rev() {
        let file = sq.file() as i32;
        let reach = advance(color, sq);
        let found = (0..8i32).find(|&g| {
            let bit = 1usize << g;
            let d = (file - g).abs();
            mask & bit != 0
                && d <= reach
                && dp[mask & !bit] != INF
                && dp[mask & !bit].saturating_add(d as u8) == dp[mask]
                && (mask & !bit).count_ones() as usize == i
        });
        let Some(g) = found else { return Vec::new() };
        if g != file {
            out.push((sq, File::new(g as u32)));
        }
        mask &= !(1usize << g);
    }
    out.reverse();
    out
}

/// A smallest group of pawns that cannot all have distinct start files (Hall's condition fails on
/// a run of files), or empty if the structure is possible. Used to word messages.
#[must_use]
pub(crate) fn impossible_group(color: Color, pawns: Bitboard) -> Bitboard {
    let mut best = Bitboard::EMPTY;
    for lo in 0..8i32 {
        for hi in lo..8i32 {
            let inside: Bitboard = pawns
                .into_iter()
                .filter(|&sq| {
                    let f = sq.file() as i32;
                    let w = advance(color, sq);
                    (f - w).max(0) >= lo && (f + w).min(7) <= hi
                })
                .collect();
            if inside.count() as i32 > hi - lo + 1
                && (best.is_empty() || inside.count() < best.count())
            {
                best = inside;
            }
        }
    }
    best
}

/// A direct-mapped cache of [`PawnCost`] per side, keyed by the pawns of that side.
pub(crate) struct PawnCache {
    slots: Vec<Option<(Bitboard, PawnCost)>>,
}

/// Slots per colour (a power of two).
const SLOTS: usize = 1 << 12;

impl PawnCache {
    /// An empty cache.
    #[must_use]
    pub(crate) fn new() -> PawnCache {
        PawnCache {
            slots: vec![None; 2 * SLOTS],
        }
    }

    /// The cost table of `color`'s pawns `pawns`, computed on a miss.
    pub(crate) fn get(&mut self, color: Color, pawns: Bitboard) -> PawnCost {
        let hash = (u64::from(pawns).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize;
        let index = hash % SLOTS + if color.is_white() { 0 } else { SLOTS };
        match self.slots.get(index) {
            Some(Some((key, cost))) if *key == pawns => *cost,
            _ => {
                let cost = PawnCost::compute(color, pawns);
                if let Some(slot) = self.slots.get_mut(index) {
                    *slot = Some((pawns, cost));
                }
                cost
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Rank;

    fn bb(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn distinct_files_are_told_by_the_folded_ranks_as_by_counting() {
        // Sets of up to 16 squares drawn by a fixed xorshift, and the edge cases.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut sets = vec![
            Bitboard::EMPTY,
            Bitboard::FULL,
            Bitboard::from_rank(Rank::Second),
        ];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            sets.push(Bitboard(x & x.rotate_left(17) & x.rotate_left(31)));
        }
        for pawns in sets {
            let mut count = [0u32; 8];
            for sq in pawns {
                count[sq.file() as usize] += 1;
            }
            assert_eq!(
                on_distinct_files(pawns),
                count.iter().all(|&n| n <= 1),
                "{pawns:?}"
            );
        }
        use Square::*;
        assert!(on_distinct_files(bb(&[A2, B7, H4])));
        assert!(!on_distinct_files(bb(&[A2, A7])));
    }

    #[test]
    fn pawn_moves_count_double_steps_and_captures() {
        use Square::*;
        let white = |squares: &[Square]| pawn_moves_needed(Color::White, bb(squares));
        assert_eq!(white(&[A2, B3, C4, D5]), Some(1 + 1 + 2));
        // Doubled on e4 and e5: e5 came from d2 or f2 (a capture, a double step and a push),
        // e4 from e2 (a double step).
        assert_eq!(white(&[E4, E5]), Some(2 + 1));
        // Doubled on e3 and e4: e3 came by a capture, e4 by the double step.
        assert_eq!(white(&[E3, E4]), Some(1 + 1));
        // a3, a4 and b4 need three start files among a to c (a4 or b4 from the c-file): the one
        // that captured cannot have used the double step, one move more than on its own file.
        assert_eq!(white(&[A3, A4, B4]), Some(1 + 1 + 2));
        // a7 from the c-file still has the double step: two captures and three pushes.
        assert_eq!(white(&[A3, A4, A7]), Some(1 + 1 + 4));
        assert_eq!(pawn_moves_needed(Color::Black, bb(&[E5, E4])), Some(1 + 2));
        // a3 and a4 with b2 and c2 at home: no start file is left for a4.
        assert_eq!(white(&[A3, A4, B2, C2]), None);
    }

    #[test]
    fn initial_pawns_cost_nothing() {
        let cost = PawnCost::compute(Color::White, Bitboard::from_rank(shakmaty::Rank::Second));
        assert_eq!(cost.min_captures(0, 0), Some(0));
        // No unused file, so no promoted bishop can be placed at all.
        assert_eq!(cost.best[0][0], 0);
    }

    #[test]
    fn doubled_pawns_need_a_capture() {
        let cost = PawnCost::compute(Color::White, bb(&[Square::C2, Square::C3]));
        assert_eq!(cost.min_captures(0, 0), Some(1));
        let black = PawnCost::compute(Color::Black, bb(&[Square::C7, Square::C6, Square::C5]));
        // c7 never moved; c6 and c5 came from b7 and d7.
        assert_eq!(black.min_captures(0, 0), Some(2));
    }

    #[test]
    fn impossible_structures() {
        // Troitzky's g2, h2, h3 (and d3): h3 cannot come from f, g or h as g2 and h2 hold them.
        let pawns = bb(&[Square::G2, Square::H2, Square::D3, Square::H3]);
        let cost = PawnCost::compute(Color::White, pawns);
        assert!(!cost.feasible());
        assert_eq!(
            impossible_group(Color::White, pawns),
            bb(&[Square::G2, Square::H2, Square::H3])
        );
        assert!(PawnCost::compute(Color::White, bb(&[Square::G2, Square::H3])).feasible());
        assert!(impossible_group(Color::White, bb(&[Square::G2, Square::H3])).is_empty());
    }

    #[test]
    fn promoted_bishop_on_wrong_colour_costs_a_capture() {
        // White pawns on a..g: only the h-pawn is gone, and h8 is dark.
        let pawns = Bitboard::from_rank(shakmaty::Rank::Second).without(Square::H2);
        let cost = PawnCost::compute(Color::White, pawns);
        assert_eq!(cost.min_captures(0, 1), Some(0));
        assert_eq!(cost.min_captures(1, 0), Some(1));
    }

    #[test]
    fn capturing_pawns_are_named() {
        let got = capturing_pawns(Color::White, bb(&[Square::C2, Square::C3]));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, Square::C3);
        assert_ne!(got[0].1, File::C);
    }

    #[test]
    fn cache_returns_what_it_computed() {
        let mut cache = PawnCache::new();
        let pawns = bb(&[Square::A2, Square::A3]);
        let first = cache.get(Color::White, pawns);
        assert_eq!(first, cache.get(Color::White, pawns));
        assert_eq!(first, PawnCost::compute(Color::White, pawns));
        assert_ne!(cache.get(Color::Black, bb(&[Square::A7])), first);
    }
}
