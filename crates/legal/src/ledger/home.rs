//! A pawn that died at home never moved, and its square was held all game (issue 25, item 2:
//! which unit died where, and when).
//!
//! # The argument
//!
//! In a combination of the ledger, the victim `V`'s pawns that died as pawns were each taken by
//! its own capture of the taker `T`, on a file of its reach; `T`'s captures map one to one onto
//! its slots ([`super::slots_of`]), and a dead pawn is taken by a capture of a slot whose files
//! meet its reach. A pawn of `T`'s account that changed as many files as it advanced ranks
//! captured on every move, once onto each file between, its capture onto the `k`-th file landing
//! between the ranks [`add_crossings`] gives; its last one lands where it stands.
//!
//! Let `V`'s pawn from file `g` have died as a pawn with no capture to spare (it never left `g`),
//! and be the only dead pawn whose reach holds `g`. Let one slot alone be the file `g`'s exactly,
//! the last capture of such a pawn of `T`, which stands on `V`'s home square `h` of that file now
//! (so that capture landed on `h` alone). If the dead pawns cannot be matched with the slots
//! without that one, every game takes one of them by that capture, and only the pawn from `g`
//! can be taken on `g`: it was taken on `h`, so it never moved (a pawn never comes back), and
//! `T`'s pawn, which took it there, has stood on `h` since. So `h` was held from the first move
//! to the last, like the square of a unit that never moved.
//!
//! When `V` promoted nothing in the combination (no promoted unit in its account, and every pawn
//! outside it died as a pawn), each of its pieces on the board is an original, and reached its
//! square from a home of its kind (a bishop's of its colour) through squares that were not held
//! all game. One that cannot, with those squares walled, is no game of the combination.

use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use super::Assignment;
use crate::accounting::add_crossings;
use crate::accounting::items::{Item, Place};
use crate::geometry::{homes, region_cut};
use crate::known::Known;

/// A piece of the victim that no home of its kind reaches past the squares held all game.
#[derive(Clone, Copy, Debug)]
pub(super) struct ShutOut {
    /// The victim's home squares where its pawns died without moving, held all game.
    pub(super) walls: Bitboard,
    /// Where the piece stands.
    pub(super) piece: Square,
    /// What it is.
    pub(super) role: Role,
}

/// The taker's pawns of one combination: its items, their start files, and its slots
/// ([`super::slots_of`], with its dead pawns' captures, see [`super::strays`]).
pub(super) struct Walks<'a> {
    pub(super) color: Color,
    pub(super) items: &'a [Item],
    pub(super) asg: &'a Assignment,
    pub(super) charges: &'a [u32],
    pub(super) slots: &'a [u8],
}

/// The first piece of `victim` shut out of its square by the home squares of its pawns `dead`
/// (start file's bit and files each, see [`super::died_as_pawns`]) that died there (see the module
/// documentation), when `victim` promoted nothing; `None` if none is.
pub(super) fn shut_out(
    known: &Known<'_>,
    victim: Color,
    dead: &[(u8, u8)],
    taker: &Walks<'_>,
) -> Option<ShutOut> {
    let second = victim.relative_rank(Rank::Second);
    let mut walls = Bitboard::EMPTY;
    for &(start, files) in dead {
        let g = start.trailing_zeros();
        let others = dead.iter().filter(|d| d.1 & start != 0).count();
        let home = Square::from_coords(File::new(g), second);
        if files == start && others == 1 && held(dead, g, home, taker) {
            walls.add(home);
        }
    }
    if walls.is_empty() {
        return None;
    }
    super::count_walled();
    let board = known.pos.board();
    let open = !(known.statics.fixed | walls);
    for sq in board.by_color(victim) & !board.pawns() {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let mut kind = homes(victim, role);
        if role == Role::Bishop {
            kind &= if Bitboard::LIGHT_SQUARES.contains(sq) {
                Bitboard::LIGHT_SQUARES
            } else {
                Bitboard::DARK_SQUARES
            };
        }
        let reached = kind.into_iter().any(|h| {
            region_cut(role, h, open, Bitboard::EMPTY, 64, &known.statics.timed).contains(sq)
        });
        if !reached {
            return Some(ShutOut {
                walls,
                piece: sq,
                role,
            });
        }
    }
    None
}

/// Whether the dead pawn from file `g` was taken on `home`: one slot alone is the file `g`'s
/// exactly, the last capture of a pawn of `walks` that captured on every move and stands on
/// `home`, and `dead` cannot be matched with the slots without it.
fn held(dead: &[(u8, u8)], g: u32, home: Square, walks: &Walks<'_>) -> bool {
    let file = 1u8 << g;
    let mut only = walks.slots.iter().enumerate().filter(|(_, &m)| m == file);
    let (Some((at, _)), None) = (only.next(), only.next()) else {
        return false;
    };
    let last = walks.items.iter().enumerate().any(|(i, item)| {
        let s = usize::from(walks.asg.files[i]);
        let c = walks.charges[i];
        let n = (home.file() as usize).abs_diff(s);
        item.place == Place::Board(home)
            && n > 0
            && c as usize == n
            && walks.color.relative_rank(home.rank()) as usize == n + 1
            && {
                let mut land = [Bitboard::EMPTY; 7];
                add_crossings(walks.color, s, home, n, &mut land);
                land.get(n - 1) == Some(&Bitboard::from_square(home))
            }
    });
    if !last {
        return false;
    }
    let mut rest = walks.slots.to_vec();
    rest.remove(at);
    !super::matches(dead, &rest)
}
