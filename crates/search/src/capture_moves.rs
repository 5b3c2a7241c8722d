//! Captures are moves: the part of the proof-game bound that adds the captures a side's pawns on
//! the board did not make to the moves those pawns made.
//!
//! # The argument
//!
//! Split the moves side `S` made into the moves of its pawns on the board and the rest (the moves
//! of its pieces, of its promoted units, and of its units that are gone). Every unit the other
//! side misses was captured by a move of `S`, each by its own move, so if the pawns on the board
//! made `k` captures, the rest holds at least `c - k` captures, `c` the units the other side
//! misses. The rest also holds at least `A` moves, what the bound charges it otherwise (the
//! pieces' paths and the moves of `S`'s units captured by pawns, counted in its own terms), so
//! the rest made at least `max(A, c - k)` moves.
//!
//! A pawn on the board that advanced `w` ranks and ends `d` files from its start file made `k`
//! captures with `d <= k <= w` and `k = d (mod 2)` (each capture changes its file by one), and at
//! least `w - 1` moves if `w - k >= 2` (one push may be the double step), else `w`
//! ([`retrace_legal::pawn::walk_moves`] with `k` for `d`). Each capture took a distinct unit of
//! the other side, which is not on the board: together the pawns made `k <= c` captures.
//!
//! So `S` made at least the least, over the assignments of its pawns to distinct start files and
//! their captures with `k <= c`, of `pawn moves + max(A, c - k)`; [`PawnCaptures`] holds for each
//! `k` the fewest pawn moves with exactly `k` captures, from which [`PawnCaptures::moves_with`]
//! takes that least. It never lowers the bound it replaces: pawn moves are at least the pawn
//! captures and at least the fewest pawn moves, so each sum is at least `max(pawns + A, c)`.
//!
//! Without the cap `k <= c` the pawns could lend the count captures of units that are on the
//! board: a pawn that advanced four ranks on its file made three moves with no capture or with
//! two, and with one enemy unit missing the two are not to be had (see the tests).

use retrace_legal::pawn;
use shakmaty::{Bitboard, Color, Square};

/// The most captures counted (a side captures at most fifteen units).
const MAX_CAPTURES: usize = 16;

/// "No assignment" in the table.
const NONE: u8 = u8::MAX;

/// For each number of captures `k` (up to [`MAX_CAPTURES`], which stands for that many or more),
/// the fewest moves of one side's pawns on the board when together they made exactly `k` captures
/// ([`NONE`] where they cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PawnCaptures {
    exact: [u8; MAX_CAPTURES + 1],
    /// The least entry of `exact`, asked at every node.
    fewest: u8,
}

impl PawnCaptures {
    /// The table of `color`'s pawns on `pawns` (see the [module](self) documentation); every entry
    /// [`NONE`] if no assignment to distinct start files exists.
    #[must_use]
    pub(crate) fn new(color: Color, pawns: Bitboard) -> PawnCaptures {
        let list: Vec<_> = pawns.into_iter().collect();
        PawnCaptures::from(exact_table(color, &list, None))
    }

    /// The table of the exact counts `exact`.
    fn from(exact: [u8; MAX_CAPTURES + 1]) -> PawnCaptures {
        let fewest = exact.iter().copied().min().unwrap_or(NONE);
        PawnCaptures { exact, fewest }
    }

    /// The fewest moves of the pawns (with no capture required): the pawn term of the bound.
    #[must_use]
    pub(crate) fn fewest(&self) -> Option<u32> {
        (self.fewest != NONE).then_some(u32::from(self.fewest))
    }

    /// Whether in every assignment with at most `captures` captures the pawns made none: then
    /// the side's captures were all made by its other units.
    #[must_use]
    pub(crate) fn took_none(&self, captures: u32) -> bool {
        let last = usize::try_from(captures)
            .unwrap_or(MAX_CAPTURES)
            .min(MAX_CAPTURES);
        self.exact[1..=last].iter().all(|&moves| moves == NONE)
    }

    /// The least of `pawn moves + max(rest, captures - k)` over the pawns' capture counts
    /// `k <= captures` (see the [module](self) documentation): a lower bound on the side's moves
    /// when its other units made at least `rest` moves and it made `captures` captures. `None` if
    /// no assignment exists with at most `captures` captures (then no game reaches the pawns).
    #[must_use]
    pub(crate) fn moves_with(&self, rest: u32, captures: u32) -> Option<u32> {
        let last = usize::try_from(captures)
            .unwrap_or(MAX_CAPTURES)
            .min(MAX_CAPTURES);
        self.exact[..=last]
            .iter()
            .enumerate()
            .filter(|&(_, &moves)| moves != NONE)
            .map(|(k, &moves)| {
                u32::from(moves).saturating_add(rest.max(captures.saturating_sub(k as u32)))
            })
            .min()
    }
}

/// For each number of captures `k`, the fewest moves of `color`'s pawns on `list` with exactly
/// `k` captures, over their assignments to distinct start files (see [`PawnCaptures`]); with
/// `forced`, only those where the pawn numbered `forced` made a capture at least.
fn exact_table(color: Color, list: &[Square], forced: Option<usize>) -> [u8; MAX_CAPTURES + 1] {
    let mut out = [NONE; MAX_CAPTURES + 1];
    if list.len() > 8 {
        return out;
    }
    // dp[mask][k]: the fewest moves of the first popcount(mask) pawns on the start files of
    // `mask` with exactly k captures (k capped at MAX_CAPTURES).
    let mut dp = vec![[NONE; MAX_CAPTURES + 1]; 256];
    dp[0][0] = 0;
    for mask in 0..256usize {
        let i = mask.count_ones() as usize;
        let Some(&sq) = list.get(i) else {
            continue;
        };
        // Most masks no assignment of the first pawns reaches.
        if dp[mask].iter().all(|&moves| moves == NONE) {
            continue;
        }
        let w = pawn::advance(color, sq);
        for start in 0..8i32 {
            let bit = 1usize << start;
            let d = (sq.file() as i32 - start).abs();
            if mask & bit != 0 || d > w {
                continue;
            }
            for (moves, captures) in options(w, d) {
                if forced == Some(i) && captures == 0 {
                    continue;
                }
                let moves = moves as u8;
                for k in 0..=MAX_CAPTURES {
                    let so_far = dp[mask][k];
                    if so_far == NONE {
                        continue;
                    }
                    let to = (k + captures).min(MAX_CAPTURES);
                    let next = &mut dp[mask | bit][to];
                    *next = (*next).min(so_far.saturating_add(moves).min(NONE - 1));
                }
            }
        }
    }
    for (mask, row) in dp.iter().enumerate() {
        if mask.count_ones() as usize != list.len() {
            continue;
        }
        for (best, &moves) in out.iter_mut().zip(row) {
            *best = (*best).min(moves);
        }
    }
    out
}

/// The pawns of `color` on `pawns` that made no capture in any assignment to distinct start
/// files with at most `captures` captures in all (the units the other side misses): each went
/// straight up its file from its start square. With none missing, all of them.
#[must_use]
pub(crate) fn straight(color: Color, pawns: Bitboard, captures: u32) -> Bitboard {
    if captures == 0 {
        return pawns;
    }
    let list: Vec<_> = pawns.into_iter().collect();
    let last = usize::try_from(captures)
        .unwrap_or(MAX_CAPTURES)
        .min(MAX_CAPTURES);
    let most = i32::try_from(captures).unwrap_or(i32::MAX);
    // The start files held by pawns that never moved.
    let held = list
        .iter()
        .filter(|&&sq| pawn::advance(color, sq) == 0)
        .fold(0u8, |held, sq| held | 1 << sq.file() as u8);
    list.iter()
        .enumerate()
        .filter(|&(i, &sq)| {
            // A capture by this pawn: two at least on its own file, or from a start file within
            // its advance and the units missing that no pawn at home holds. Without one it made
            // none; with one, the assignments tell.
            let w = pawn::advance(color, sq);
            let file = sq.file() as i32;
            let capture = w >= 2 && most >= 2
                || (1..=w.min(most)).any(|d| {
                    [file - d, file + d]
                        .into_iter()
                        .any(|g| (0..8).contains(&g) && held & 1 << g == 0)
                });
            !capture
                || exact_table(color, &list, Some(i))[1..=last]
                    .iter()
                    .all(|&moves| moves == NONE)
        })
        .map(|(_, &sq)| sq)
        .collect()
}

/// The (moves, captures) a pawn that advanced `w` ranks and ends `d` files from its start file
/// (`d <= w`) may have made: every count `k` of the parity of `d` from `d` to `w`, with
/// [`pawn::walk_moves`] moves.
fn options(w: i32, d: i32) -> impl Iterator<Item = (i32, usize)> {
    (d..=w)
        .step_by(2)
        .map(move |k| (pawn::walk_moves(w, k), k as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn a_pawn_trades_a_push_for_two_captures() {
        // e2-e4: one move, no capture; e2xd3xe4: two moves, two captures.
        let table = PawnCaptures::new(Color::White, Bitboard::from_square(Square::E4));
        assert_eq!(table.fewest(), Some(1));
        assert_eq!(table.exact[..4], [1, 2, 2, NONE]);
        // Three units captured, the pieces' paths cost two: the pawn's move and the three
        // captures (the rest), or two pawn moves and one capture by the rest: four either way.
        assert_eq!(table.moves_with(2, 3), Some(4));
        // With nothing captured, the pawn's move and the pieces' paths.
        assert_eq!(table.moves_with(2, 0), Some(3));
        // The counts past `captures` are not to be had: the least over the others.
        for rest in 0..6u32 {
            for captures in 0..17u32 {
                let every = table
                    .exact
                    .iter()
                    .enumerate()
                    .filter(|&(k, &m)| m != NONE && k as u32 <= captures)
                    .map(|(k, &m)| u32::from(m) + rest.max(captures - k as u32))
                    .min();
                assert_eq!(table.moves_with(rest, captures), every, "{rest} {captures}");
            }
        }
    }

    /// A pawn that advanced four ranks and stands on its file (f7 and h7 at home: no other start
    /// file is one capture away) made three moves with no capture or with two (g7-g5-g4-g3,
    /// g7xf6xg5-g4-g3...); with one enemy unit missing it took none, and the one capture was a
    /// move of another unit: four moves. Counting the two captures for the pawn gave three. The
    /// colour swap is the same table for White; the near miss, two units missing, lets the pawn
    /// take both in its three moves.
    #[test]
    fn the_pawns_take_no_more_units_than_are_missing() {
        // Its neighbours at home leave it only its own file and those two beyond.
        for (color, squares) in [
            (Color::Black, [Square::F7, Square::G3, Square::H7]),
            (Color::White, [Square::F2, Square::G6, Square::H2]),
        ] {
            let table = PawnCaptures::new(color, squares.into_iter().collect());
            assert_eq!(table.exact[..5], [3, NONE, 3, 4, 4], "{color:?}");
            assert_eq!(table.moves_with(0, 1), Some(4), "{color:?}");
            assert_eq!(table.moves_with(0, 2), Some(3), "{color:?}");
        }
        // Two pawns on one file need a capture each... with none missing, no assignment.
        let doubled = Bitboard::from_square(Square::E4) | Square::E3;
        assert_eq!(
            PawnCaptures::new(Color::White, doubled).moves_with(0, 0),
            None
        );
    }

    #[test]
    fn the_table_agrees_with_the_fewest_pawn_moves() {
        for (color, squares) in [
            (Color::White, [Square::C3, Square::C4, Square::D5]),
            (Color::Black, [Square::A6, Square::B5, Square::B4]),
        ] {
            let pawns = squares.into_iter().collect::<Bitboard>();
            let table = PawnCaptures::new(color, pawns);
            assert_eq!(
                table.fewest(),
                retrace_legal::pawn_moves_needed(color, pawns),
                "{color:?}"
            );
        }
        // Nine pawns have no assignment.
        let nine = Bitboard::from_rank(shakmaty::Rank::Second) | Square::E4;
        assert_eq!(PawnCaptures::new(Color::White, nine).fewest(), None);
    }

    /// With no capture required the table is the pawn term it replaces, on the pawn structures of
    /// random games (captures and promotions reshape them often).
    #[test]
    fn the_fewest_moves_are_those_of_the_pawn_term() {
        let mut structures = 0;
        for seed in 0..300 {
            for pos in retrace_testkit::random_game(seed, 120)
                .positions
                .iter()
                .step_by(7)
            {
                use shakmaty::Position;
                for color in Color::ALL {
                    let pawns = pos.board().by_piece(color.pawn());
                    assert_eq!(
                        PawnCaptures::new(color, pawns).fewest(),
                        retrace_legal::pawn_moves_needed(color, pawns),
                        "{color:?} {pawns:?}"
                    );
                    structures += 1;
                }
            }
        }
        assert!(structures > 3_000, "only {structures}");
    }

    #[test]
    fn options_keep_the_parity_of_the_file_change() {
        // Four ranks, same file: 0 or 2 captures at three moves, 4 at four.
        assert_eq!(options(4, 0).collect::<Vec<_>>(), [(3, 0), (3, 2), (4, 4)]);
        // Three ranks, one file over: 1 capture at two moves, 3 at three.
        assert_eq!(options(3, 1).collect::<Vec<_>>(), [(2, 1), (3, 3)]);
        // One rank straight: one move, no capture.
        assert_eq!(options(1, 0).collect::<Vec<_>>(), [(1, 0)]);
    }
}
