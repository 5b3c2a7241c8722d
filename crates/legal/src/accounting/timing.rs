//! When the captures of [`super::matching`] were made, relative to the single steps of pawns of
//! known history, and where their victims can have stood by then (issue 11, item 4: "when relative
//! to the pawn moves around it").
//!
//! # The facts
//!
//! A pawn `t` of known history (see [`crate::geometry::Timed`], in the games of one branch of the
//! victim's pawns with several one-step origins) stood on `t.from` from the start until one move
//! `T`, and on `t.to` from `T` until now.
//!
//! *Landing on `t.to`.* Let a pawn `Q` of the taker, on the board now on a square other than
//! `t.to` (so `Q` is not `t`), have stood on `t.to` at some moment `x`. Then `x < T`: from `T` on,
//! `t.to` holds `t`, and `Q` can only have come there by capturing `t`, which is on the board. And
//! `Q` left `t.to` before `T`: at `T` the square was empty (a step) or held the unit `t` took (a
//! capture), and `Q` was not taken. So every move of `Q` up to the one that left `t.to` came
//! before `T`.
//!
//! *Landing on `t.from`.* If `Q` stood on `t.from` at a moment `x`, then `x > T`: before `T` the
//! square holds `t`, and `Q` can only have come by capturing it (not en passant, which lands on an
//! empty square). So every move of `Q` from the one that reached `t.from` on came after `T`.
//!
//! *Where `Q` stood.* Fix the start file of `Q`; its crossings (see [`super::matching`]) are the
//! last entries into the files between its start file and its file now, in the order of the game
//! (after the last entry into a file, `Q`'s next change of file goes on towards its file now, or
//! it would enter that file again; so it enters the next file later). A crossing with a single
//! landing square `s` stood on `s`. After the last entry into a file at `s`, `Q` walked straight
//! up to a square `d` and left by a capture landing one rank above `d`, at or below the rank of
//! the next crossing: when every landing square of the next crossing is one rank above `s`, `Q`
//! left `s` by that crossing. After its last crossing, `Q` walked straight up its file to where it
//! stands, through every square from the highest landing square of that crossing up.
//!
//! *The last file.* Walking up its last file from its last landing square, `Q` stood on every
//! square up to where it stands (after a capture no double step is left). A step whose two squares
//! both lie on that walk is a straight one, its squares next to each other: `Q` met either
//! `t.from` first (after `T`, then `t.to` before `T`) or stepped from `t.to` (left before `T`)
//! onto `t.from` (reached after `T`), and neither can be. Such landing squares are dropped; none
//! left means `Q` did not start on that file.
//!
//! So, for one pawn `Q` of the board: a crossing landing only on `t.to` and every crossing before
//! it came before `T`, and so did the next one if it left `t.to`; if `Q` passed `t.to` after its
//! last crossing, all its crossings came before `T`; a crossing landing only on `t.from` and every
//! crossing after it came after `T`. A crossing both before and after `T` means that `Q` did not
//! start on that file in this branch. A pawn that promoted is one too (it was a pawn until it
//! promoted, and is not `t`), but for its last file, which may be one of several: its crossings
//! are the first ones towards every promotion square it can have used, and a single landing
//! square for all of them is where it stood.
//!
//! *The victims of the early captures.* A capture made before `T` took a unit whose whole life
//! was before `T`: every square it stood on was reached through squares that were not occupied
//! for good by then. Those are the static squares, `t.from` (it holds `t` until `T`), never along
//! the move of another pawn of known history (as [`crate::geometry::step`]), and the home squares
//! of the victim's originals that cannot have left them before `T`: an original whose every first
//! step ([`crate::geometry::steps`]) leads onto such a square stood on its home until `T` unless a
//! capture took it there, which no capture of the taker can have done when none of its captures
//! (in the account at hand) can land on that home square. (By induction on the order in which the
//! homes are added, each was occupied until `T`.) The region of a missing original before `T` is
//! the flood from its home through the other squares; a capture before several moves uses the
//! intersection.

use shakmaty::{Bitboard, Color, Square};

use crate::geometry::{flood_until, home_role, steps, Timed, TimedList, Until};

/// A set of pawn moves, as bits of their indices in a list of [`Timed`] pawns (at most 16).
pub(super) type Moves = u16;

/// For each crossing of a pawn of `color` now on `end` (`None` for a pawn that promoted) whose
/// crossings land on `land` (in order): the moves of `timed` it came before (see the module
/// documentation); `None` if some crossing came both before and after one of them, so the pawn
/// cannot have started on that file.
pub(super) fn crossing_order(
    color: Color,
    end: Option<Square>,
    land: &[Bitboard],
    timed: &[Timed],
) -> Option<[Moves; 7]> {
    let mut before: [Moves; 7] = [0; 7];
    let mut after: [Moves; 7] = [0; 7];
    let n = land.len().min(7);
    let up = |sq: Square| color.relative_rank(sq.rank()) as u32;
    let top = |b: Bitboard| b.into_iter().map(up).max();
    // The last crossing lands only where the walk up from it keeps the order of every step.
    let mut land: [Bitboard; 7] = std::array::from_fn(|k| land.get(k).copied().unwrap_or_default());
    if let (Some(end), true) = (end, n > 0) {
        let last = &mut land[n - 1];
        let kept: Bitboard = last
            .into_iter()
            .filter(|&s| walk_keeps_order(color, s, end, timed))
            .collect();
        if last.any() && kept.is_empty() {
            return None;
        }
        *last = kept;
    }
    for (i, t) in timed.iter().enumerate().take(16) {
        if end == Some(t.to) {
            continue;
        }
        let bit: Moves = 1 << i;
        for k in 0..n {
            let Some(s) = land[k].single_square() else {
                continue;
            };
            if s == t.to {
                // Left by the next crossing if it lands one rank up.
                let left = land
                    .get(k + 1)
                    .and_then(|&next| top(next))
                    .is_some_and(|r| r <= up(s) + 1);
                let last = if left && k + 1 < n { k + 1 } else { k };
                before[..=last].iter_mut().for_each(|m| *m |= bit);
            }
            if s == t.from {
                after[k..n].iter_mut().for_each(|m| *m |= bit);
            }
        }
        // Passed after the last crossing, on the way up its file.
        if let Some(end) = end.filter(|e| n > 0 && t.to.file() == e.file()) {
            let passed = top(land[n - 1]).is_some_and(|r| r <= up(t.to)) && up(t.to) < up(end);
            if passed {
                before[..n].iter_mut().for_each(|m| *m |= bit);
            }
        }
    }
    before
        .iter()
        .zip(after)
        .all(|(b, a)| b & a == 0)
        .then_some(before)
}

/// Whether a pawn of `color` that walked straight up from `s` to `end` (standing on every square
/// between: after a capture no double step is left) can have done so around the steps of `timed`.
/// It stood on `t.from` only after `t`'s step and left `t.to` before it; both squares of a step on
/// its walk are next to each other (a straight step), so it either met `t.from` first or stepped
/// from `t.to` straight onto `t.from`, and neither can be.
fn walk_keeps_order(color: Color, s: Square, end: Square, timed: &[Timed]) -> bool {
    let up = |sq: Square| color.relative_rank(sq.rank()) as u32;
    let on_walk = |sq: Square| sq.file() == end.file() && up(s) <= up(sq) && up(sq) <= up(end);
    timed
        .iter()
        .all(|t| t.to == end || !(on_walk(t.to) && on_walk(t.from)))
}

/// The squares occupied from the start until the move `t` of `victim`'s game at least: the static
/// squares `fixed`, `t.from`, and the homes of `victim`'s originals that cannot have left them by
/// then, when no capture of the other side can land on them (`capturable`).
pub(super) fn walls_before(
    victim: Color,
    fixed: Bitboard,
    t: Timed,
    capturable: Bitboard,
) -> Bitboard {
    let mut walls = fixed.with(t.from);
    loop {
        let mut grew = false;
        for h in Bitboard::from_rank(victim.backrank()) & !walls & !capturable {
            let Some(role) = home_role(victim, h) else {
                continue;
            };
            if steps(role, h).is_subset(walls) {
                walls.add(h);
                grew = true;
            }
        }
        if !grew {
            return walls;
        }
    }
}

/// The squares an original of `victim` of the role of its `homes` can have stood on before a
/// move whose `walls` (from [`walls_before`]) stood until then, never along the move of a pawn of
/// `cuts`.
pub(super) fn region_before(
    victim: Color,
    homes: Bitboard,
    walls: Bitboard,
    cuts: &TimedList,
) -> Bitboard {
    homes
        .into_iter()
        .filter_map(|h| {
            let role = home_role(victim, h)?;
            let seed = Bitboard::from_square(h);
            Some(flood_until(role, seed, !walls, cuts, Until::Closed).unwrap_or(seed))
        })
        .fold(Bitboard::EMPTY, |acc, r| acc | r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(color: Color, from: Square, to: Square) -> Timed {
        Timed { color, from, to }
    }

    #[test]
    fn captures_through_a_square_a_pawn_later_stepped_onto_came_first() {
        // White's h-pawn on c7 by g3, f4, e5, d6, c7; Black's d7-d6 and c7-c6.
        let land =
            [Square::G3, Square::F4, Square::E5, Square::D6, Square::C7].map(Bitboard::from_square);
        let moves = [
            timed(Color::Black, Square::D7, Square::D6),
            timed(Color::Black, Square::C7, Square::C6),
        ];
        let order = crossing_order(Color::White, Some(Square::C7), &land, &moves).expect("order");
        // All five before d7-d6 (d6xc7 left d6), none before c7-c6 (c7 was landed on after it).
        assert_eq!(order[..5], [0b01; 5]);
        // With c7xd6 and d7xc6 instead, the capture on c7 was before c7xd6 (it left d6) and
        // after it (it landed on c7): no such game.
        let moves = [
            timed(Color::Black, Square::C7, Square::D6),
            timed(Color::Black, Square::D7, Square::C6),
        ];
        assert_eq!(
            crossing_order(Color::White, Some(Square::C7), &land, &moves),
            None
        );
        // A pawn that promoted after the same crossings: the same order, but for its last file.
        let d6 = [timed(Color::Black, Square::D7, Square::D6)];
        let order = crossing_order(Color::White, None, &land, &d6).expect("order");
        assert_eq!(order[..5], [0b01; 5]);
        assert_eq!(crossing_order(Color::White, None, &land, &moves), None);
        // A pawn that landed on d5 and then went up to d7 passed d6 after its last crossing.
        let land = [Bitboard::from_square(Square::D5)];
        let moves = [timed(Color::Black, Square::E7, Square::D6)];
        let order = crossing_order(Color::White, Some(Square::D7), &land, &moves).expect("order");
        assert_eq!(order[0], 1);
        // Landing on d4 or d5, it passed d6 only on its way to d7, not to d6 itself.
        let land = [Bitboard::from_square(Square::D4).with(Square::D5)];
        assert_eq!(
            crossing_order(Color::White, Some(Square::D7), &land, &moves).expect("order")[0],
            1
        );
        let moves = [timed(Color::White, Square::D2, Square::D3)];
        assert_eq!(
            crossing_order(Color::Black, Some(Square::D3), &land, &moves).expect("order")[0],
            0
        );
    }

    #[test]
    fn a_walk_up_the_last_file_keeps_the_order_of_the_steps_on_it() {
        // A white pawn on c7 from the f-file entered the c-file on c5, c6 or c7. Black's c-pawn
        // stepped c7-c6: entering below c7, the pawn stood on c6 before that step and on c7
        // after it, moving from one to the other; so it landed on c7, after the step.
        let land = [
            Bitboard::from_square(Square::E3)
                .with(Square::E4)
                .with(Square::E5),
            Bitboard::from_square(Square::D4)
                .with(Square::D5)
                .with(Square::D6),
            Bitboard::from_square(Square::C5)
                .with(Square::C6)
                .with(Square::C7),
        ];
        let c6 = timed(Color::Black, Square::C7, Square::C6);
        assert!(walk_keeps_order(
            Color::White,
            Square::C7,
            Square::C7,
            &[c6]
        ));
        assert!(!walk_keeps_order(
            Color::White,
            Square::C6,
            Square::C7,
            &[c6]
        ));
        assert!(!walk_keeps_order(
            Color::White,
            Square::C5,
            Square::C7,
            &[c6]
        ));
        assert_eq!(
            crossing_order(Color::White, Some(Square::C7), &land, &[c6]),
            Some([0; 7])
        );
        // With d7-d6 as well and the pawn on c6 from d7 instead, nothing is ordered.
        let d6 = timed(Color::Black, Square::D7, Square::C6);
        assert!(walk_keeps_order(
            Color::White,
            Square::C5,
            Square::C7,
            &[d6]
        ));
        // On its own file: a white pawn on d7 that entered the d-file below d6, where a black
        // pawn stepped straight from d7, cannot be.
        let land = [Bitboard::from_square(Square::D4).with(Square::D5)];
        let d7 = timed(Color::Black, Square::D7, Square::D6);
        assert_eq!(
            crossing_order(Color::White, Some(Square::D7), &land, &[d7]),
            None
        );
    }

    #[test]
    fn homes_stay_shut_until_the_move_that_opens_them() {
        // b7 never moved; until d7-d6 the bishop on c8 cannot leave, so the a8 rook only has b8.
        let fixed = Bitboard::from_square(Square::A7).with(Square::B7);
        let t = timed(Color::Black, Square::D7, Square::D6);
        let walls = walls_before(Color::Black, fixed, t, Bitboard::EMPTY);
        assert!(walls.contains(Square::C8));
        let region = region_before(
            Color::Black,
            Bitboard::from_square(Square::A8),
            walls,
            &TimedList::default(),
        );
        assert_eq!(region, Bitboard::from_square(Square::A8).with(Square::B8));
        // If a capture can land on c8, the bishop may have died there first.
        let walls = walls_before(Color::Black, fixed, t, Bitboard::from_square(Square::C8));
        assert!(!walls.contains(Square::C8));
    }
}
