//! Capture detours: a pawn that could only have been captured on its own file, by a piece of the
//! other side, cost that piece the way to the capture square and back to its path (part of the
//! proof-game bound, asked by [`crate::bound::Bound::within`]).
//!
//! # The argument
//!
//! Let side `S` have all sixteen units on the board, eight pawns among them, and let its pawns
//! have made no capture in any assignment to start files that takes at most the `c` units the
//! other side `V` misses ([`crate::capture_moves::PawnCaptures::took_none`]). Then every unit
//! `V` misses was taken by a move of one of `S`'s pieces on the board, each an original (no pawn
//! of `S` promoted). `V` captured nothing (`S` has all its units), so its pawns never left their
//! files: a pawn of `V` missing from a file stood only on that file, from its start square up to
//! the first permanent square ahead of it (no unit ever entered that one). If that square comes
//! before the last rank, the pawn never promoted, so it was captured, on a square `s` of that
//! stretch, after `V` spent at least [`retrace_legal::pawn::walk_moves`] moves on it, moves
//! that no other part of `V`'s bound counts (its pawns on the board, its pieces, and its units
//! taken by `S`'s pawns, which took none).
//!
//! The piece of `S` that took it, starting on `st` and standing on `q` now, made at least
//! `d(st, s) + d(s, q)` moves, `d` the shortest paths around the permanent squares (at least
//! the moves on an empty board from `s` to `q`), where the bound counts `d(st, q)` for it: at
//! least the least of `d(st, s) + d(s, q) - d(st, q)` over the pieces, their possible starts
//! and the squares `s` where `V` can have brought its pawn within the moves it has to spare, on
//! top of the pieces' paths. One trip may take several pawns, so the bound adds the largest of
//! these detours, not their sum. If no piece reaches any such square, no game reaches the
//! position.

use retrace_legal::pawn;
use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

/// "Unreachable" in a distance map (as in the bound's maps).
const FAR: u8 = u8::MAX;

/// The paths of a start square of the capturer's pieces: of its unit's role, the fewest moves to
/// stand on each square at some moment (`any`, where it captured) and to stand there now (`end`,
/// what the bound counts for it); they differ where the pawn columns' lanes tell them apart.
#[derive(Clone, Copy)]
pub(crate) struct Start<'a> {
    pub(crate) role: Role,
    pub(crate) any: &'a [u8; 64],
    pub(crate) end: &'a [u8; 64],
}

/// The stretch of file `file` that a pawn of `victim` missing from it stood on, when it can
/// only have been captured there: from its start square to the square before the first of
/// `walls` ahead of it. `None` if no wall stands in its way to the last rank (it may have
/// promoted) or its start square is a wall.
fn confined_stretch(victim: Color, file: File, walls: Bitboard) -> Option<Bitboard> {
    let mut stretch = Bitboard::EMPTY;
    for advance in 1..8u32 {
        let sq = Square::from_coords(file, victim.relative_rank(Rank::new(advance)));
        if walls.contains(sq) {
            return (advance > 1).then_some(stretch);
        }
        stretch.add(sq);
    }
    None
}

/// The least extra moves of `capturer`'s pieces for the captures of the confined pawns of the
/// other side (see the [module](self) documentation), or `None` if no game reaches `board`.
/// `starts` are the capturer's paths by role, one for each start square of the role, around
/// `walls`; `victim_spare` the moves the victim's side has beyond its own bound. The caller
/// checks the conditions on the capturer (all sixteen units, eight pawns, no pawn capture).
pub(crate) fn capture_detour(
    capturer: Color,
    board: &Board,
    walls: Bitboard,
    starts: &[Start<'_>],
    victim_spare: u32,
) -> Option<u32> {
    let victim = capturer.other();
    let victim_pawns = board.by_color(victim) & board.pawns();
    if !pawn::on_distinct_files(victim_pawns) {
        return Some(0);
    }
    let mut detour = 0;
    for file in File::ALL {
        if (victim_pawns & Bitboard::from_file(file)).any() {
            continue;
        }
        let Some(stretch) = confined_stretch(victim, file, walls) else {
            continue;
        };
        // The squares where the victim's side can have brought the pawn in its spare moves.
        let squares = stretch
            .into_iter()
            .filter(|&s| {
                let walked = pawn::walk_moves(pawn::advance(victim, s), 0);
                u32::try_from(walked).is_ok_and(|w| w <= victim_spare)
            })
            .collect::<Bitboard>();
        let least = ROLES
            .into_iter()
            .map(|role| kind_detour(role, board.by_piece(role.of(capturer)), starts, squares))
            .min()
            .unwrap_or(u32::MAX);
        if least == u32::MAX {
            return None;
        }
        detour = detour.max(least);
    }
    Some(detour)
}

/// The roles of the pieces.
const ROLES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The least extra moves, over the paths the bound counts for them, of the units of `role` on
/// `units` when one of them went to a square of `squares` on its way: over each pairing of the
/// units with the start squares of `starts` of their role, the pairing's cost above the
/// cheapest pairing's and the trip's above the path's. `u32::MAX` if none can; 0 (nothing
/// known) if there are more units than start squares.
fn kind_detour(role: Role, units: Bitboard, starts: &[Start<'_>], squares: Bitboard) -> u32 {
    let mut maps = [None; 2];
    let mut count = 0;
    for start in starts.iter().filter(|start| start.role == role) {
        if let Some(slot) = maps.get_mut(count) {
            *slot = Some(*start);
            count += 1;
        }
    }
    let mut list = [Square::A1; 2];
    for (slot, sq) in list.iter_mut().zip(units) {
        *slot = sq;
    }
    let n = units.count();
    if n > count || units.is_empty() {
        return if units.is_empty() { u32::MAX } else { 0 };
    }
    let maps = maps.map(|start| {
        start.unwrap_or(Start {
            role,
            any: &[FAR; 64],
            end: &[FAR; 64],
        })
    });
    // The pairings: unit i from the start `order[i]`.
    let pairings: &[[usize; 2]] = if count == 2 && n == 2 {
        &[[0, 1], [1, 0]]
    } else if count == 2 {
        &[[0, 0], [1, 0]]
    } else {
        &[[0, 0]]
    };
    let cost = |order: &[usize; 2]| {
        (0..n)
            .map(|i| u32::from(maps[order[i]].end[list[i].to_usize()]))
            .try_fold(0u32, |sum, moves| {
                (moves != u32::from(FAR)).then_some(sum + moves)
            })
    };
    let Some(cheapest) = pairings.iter().filter_map(cost).min() else {
        return u32::MAX;
    };
    let mut least = u32::MAX;
    for order in pairings {
        let Some(above) = cost(order).map(|c| c - cheapest) else {
            continue;
        };
        for (i, &q) in list.iter().enumerate().take(n) {
            let start = maps[order[i]];
            for s in squares {
                let to_s = start.any[s.to_usize()];
                if to_s == FAR {
                    continue;
                }
                let trip = u32::from(to_s).saturating_add(crate::bound::fewest_moves(role, s, q));
                least = least.min(above + trip.saturating_sub(u32::from(start.end[q.to_usize()])));
            }
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pawn_behind_a_wall_stays_on_its_stretch() {
        // White's h-pawn with h7 at home: h2 to h6.
        let walls = Bitboard::from_square(Square::H7);
        let stretch = confined_stretch(Color::White, File::H, walls).expect("confined");
        assert_eq!(stretch.count(), 5);
        assert!(stretch.contains(Square::H2) && stretch.contains(Square::H6));
        // The colour swap: Black's h-pawn with h2 at home, h7 to h3.
        let walls = Bitboard::from_square(Square::H2);
        let stretch = confined_stretch(Color::Black, File::H, walls).expect("confined");
        assert!(stretch.contains(Square::H7) && stretch.contains(Square::H3));
        assert!(!stretch.contains(Square::H2));
        // The near miss: with the file open the pawn may have promoted.
        assert_eq!(
            confined_stretch(Color::White, File::H, Bitboard::EMPTY),
            None
        );
    }
}
