//! Late promotions: a missing pawn whose every promotion walk passes the start square of a pawn of
//! the other side that left it by a known move can only have promoted after that move, so neither
//! it nor the unit it promoted to can have been taken on that pawn's square (Hazebrouck 1968).
//!
//! # The argument
//!
//! Let a pawn of the victim `V` start on file `g` and be missing, and let `spare` bound the
//! captures it made (as in the accounts of [`super::matching`]). Its game ended in one of three
//! ways:
//! 1. it died as a pawn, on the pawn region of `g` within `spare` captures;
//! 2. it promoted and the promoted unit was captured;
//! 3. it promoted and the promoted unit is on the board, so an original of that kind (a bishop of
//!    the same square colour) is gone instead: it died somewhere in its home's region.
//!
//! *Walls.* Its walk to a promotion square never stood on a static square, nor moved on from a
//! square where a pawn of `V` checks the other king when that king never moved (the check cannot
//! be blocked and the king cannot move: the pawn was taken at once, see
//! [`crate::history::checking_squares`]). Let `t` be the move of a pawn of the taker `S` of known
//! history: it stood on its start square `t.from` from the start of the game until `t`, and on
//! `t.to` from `t` to now (it is on the board there, and a pawn never comes back to a square). If
//! no walk from `g` within `spare` captures avoids `t.from`, then in cases 2 and 3 the pawn
//! passed `t.from` after `t`, so it promoted after `t`: from then on `t.to` held `S`'s pawn. So
//! in case 2 the promoted unit was captured anywhere but on `t.to`.
//!
//! *The promoted unit on the board.* In case 3 the promoted unit went from its promotion square
//! (one the walks reach within `spare`) to its square now, after `t`: never through `t.to`, nor a
//! static square, and a knight never through a square from which it checks `S`'s king that never
//! moved (taken at once, as the pawn above; a knight there now is checking now, so the last
//! square of its route may be one). When no unit of `V` of a kind can have come so, the case 3 of
//! that kind is impossible; otherwise the region of the kind's original homes is added (an
//! original that died anywhere it can have stood, `t.to` included: before `t`).
//!
//! So the missing pawn died on the union of: its pawn region, every square but the `t.to`
//! above, and the regions of the originals of the kinds case 3 allows. When that union misses
//! `t.to` and `t` was a capture (its pawn changed files, landing exactly on `t.to`), the
//! matching cannot give that capture to the pawn.
//!
//! Hazebrouck, Europe Echecs 1968 (`1N2k2r/ppppp1b1/5p2/5P2/4n2p/1P6/PP1BP1PP/1n2K2R b Kk -`):
//! with both O-O rights, the black queen, a8-rook and c8-bishop died in their pen (a8 to d8, which
//! only knights enter), so White's four captures are three by pieces and c2xb3. Black's missing
//! pawn can reach b3 as a pawn only with more captures than Black has to spare; promoting, it
//! passes c2 (a2, b2, e2, g2 and h2 never moved, d2 and f2 check Ke1, which never moved), so it
//! promoted after c2xb3; a knight promoted on c1 has nowhere to go (a2 and e2 hold pawns that
//! never moved, b3 White's pawn, d3 checks Ke1), no other black unit can be its promoted unit and
//! an original that died on b3, so nothing of Black's died on b3: the two castlings exclude each
//! other.

use std::cell::RefCell;

use shakmaty::{attacks, Bitboard, Color, File, Rank, Role, Square};

use super::landings::KINDS;
use crate::geometry::{flood, homes, region_cut, TimedList};
use crate::history::checking_squares;
use crate::known::Known;
use crate::promotion::{walls_walks_around, Walks, NO_WALK};

/// Where a missing pawn that may have promoted only late can have died (see the
/// [module](self) documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Late {
    /// The squares where it, or the unit it promoted to, or an original it stands for, can have
    /// been captured.
    pub region: Bitboard,
    /// The squares of the other side's pawns whose moves its promotion came after.
    pub after: Bitboard,
}

/// Whether a promotion of `victim` can come late at all: the other side has a pawn of known
/// history on the board (the only moves [`late`] orders promotions after).
#[must_use]
pub(super) fn possible(known: &Known<'_>, victim: Color) -> bool {
    let taker = victim.other();
    let board = known.pos.board();
    known
        .statics
        .timed
        .iter()
        .any(|t| t.color == taker && board.piece_at(t.to) == Some(taker.pawn()))
}

/// The walls of `victim`'s promotion walks beyond the static squares: the squares next to the
/// other side's king that never moved, from which a pawn of `victim` checks it.
#[must_use]
pub(super) fn check_walls(known: &Known<'_>, victim: Color) -> Bitboard {
    checking_squares(known, victim).0
}

/// Whether a pawn of `color` whose walks from its start file are `from` can reach a promotion
/// square with at most `spare` captures.
#[must_use]
pub(super) fn promotes_within(color: Color, from: &[u8; 64], spare: u32) -> bool {
    !promotion_reach(color, from, spare).is_empty()
}

/// The promotion squares a pawn of `color` whose walks from its start file are `from` reaches with
/// at most `spare` captures.
#[must_use]
pub(super) fn promotion_reach(color: Color, from: &[u8; 64], spare: u32) -> Bitboard {
    Bitboard::from_rank(color.relative_rank(Rank::Eighth))
        .into_iter()
        .filter(|&q| {
            let w = from[usize::from(q)];
            w != NO_WALK && u32::from(w) <= spare
        })
        .collect()
}

/// For a missing pawn of `victim` from file `g` whose walks around the walls and `walls` are
/// `walks`, with `spare` captures and the pawn region `pawn_region`: where it can have died, if
/// every promotion it can have made came after a move of a pawn of the other side of known
/// history; `None` if some promotion needs no such move.
///
/// All but the last step (which of the victim's units on the board can be promoted ones) depends
/// on the pawns and the units that never moved alone, so it is kept in the analyser's
/// [`LateMemo`] and made once per such structure.
#[must_use]
pub(super) fn late(
    known: &Known<'_>,
    victim: Color,
    g: File,
    spare: u32,
    walls: Bitboard,
    walks: &Walks,
    pawn_region: Bitboard,
) -> Option<Late> {
    let squares = promotion_reach(victim, &walks[g as usize], spare);
    let key = LateKey {
        victim,
        file: g,
        spare,
        walls,
        squares,
        fixed: known.statics.fixed,
        timed: known.statics.timed,
        pawns: known.pos.board().by_piece(victim.other().pawn()),
        king: checking_squares(known, victim).1,
    };
    let parts = known.late.get(&key, || LateParts::new(known, &key));
    if parts.after.is_empty() {
        return None;
    }
    let board = known.pos.board();
    let mut stand_ins = Bitboard::EMPTY;
    for ((role, colour), (reach, homes)) in KINDS.into_iter().zip(parts.kinds) {
        let units = board.by_piece(role.of(victim)) & colour & !known.statics.never_moved;
        if (reach & units).any() {
            stand_ins |= homes;
        }
    }
    let region = pawn_region | (!known.statics.fixed & !parts.after) | stand_ins;
    Some(Late {
        region,
        after: parts.after,
    })
}

/// What [`late`] reads of a position besides the victim's units on the board.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct LateKey {
    victim: Color,
    file: File,
    spare: u32,
    walls: Bitboard,
    /// The promotion squares the walks reach within `spare`.
    squares: Bitboard,
    fixed: Bitboard,
    timed: TimedList,
    /// The other side's pawns.
    pawns: Bitboard,
    /// The other side's king if it never moved.
    king: Option<Square>,
}

impl LateKey {
    /// A hash of the key for the memo's slots.
    fn hash(&self) -> u64 {
        let words = [
            self.victim as u64 ^ (self.file as u64) << 1 ^ u64::from(self.spare) << 4,
            u64::from(self.walls),
            u64::from(self.squares),
            u64::from(self.fixed),
            u64::from(self.pawns),
            self.king.map_or(64, u64::from),
        ];
        let timed = self
            .timed
            .iter()
            .map(|t| t.color as u64 ^ u64::from(t.from) << 1 ^ u64::from(t.to) << 8);
        words
            .into_iter()
            .chain(timed)
            .fold(0xcbf2_9ce4_8422_2325, |h, w| {
                (h ^ w).wrapping_mul(0x0100_0000_01b3)
            })
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// What [`late`] makes of a [`LateKey`]: the squares of the other side's pawns the promotions
/// came after, and for each of [`KINDS`] the squares a unit promoted after them can have reached
/// (empty if none) with the region of the originals of the kind.
#[derive(Clone, Copy)]
pub(crate) struct LateParts {
    after: Bitboard,
    kinds: [(Bitboard, Bitboard); KINDS.len()],
}

impl LateParts {
    /// The parts of `key`, made afresh (see the [module](self) documentation).
    fn new(known: &Known<'_>, key: &LateKey) -> LateParts {
        let (victim, taker) = (key.victim, key.victim.other());
        let statics = known.statics;
        let mut after = Bitboard::EMPTY;
        for t in key.timed.iter() {
            if t.color != taker || !key.pawns.contains(t.to) {
                continue;
            }
            let without = walls_walks_around(victim, statics, key.walls.with(t.from), known.walks);
            if !promotes_within(victim, &without[key.file as usize], key.spare) {
                after.add(t.to);
            }
        }
        let mut kinds = [(Bitboard::EMPTY, Bitboard::EMPTY); KINDS.len()];
        if after.is_empty() {
            return LateParts { after, kinds };
        }
        let open = !key.fixed & !after;
        for ((role, colour), (reach, region)) in KINDS.into_iter().zip(kinds.iter_mut()) {
            let seeds = key.squares & colour & open;
            if seeds.is_empty() {
                continue;
            }
            *reach = reached(role, seeds, open, key.king);
            for h in homes(victim, role) & colour {
                *region |= region_cut(role, h, !key.fixed, Bitboard::EMPTY, 64, &key.timed);
            }
        }
        LateParts { after, kinds }
    }
}

/// The analyser's memo of [`LateParts`] by [`LateKey`]: inside a search most positions share
/// their pawns and the units that never moved with the position before, so the walks and floods
/// of [`late`] repeat. Owned by an `Analyzer`, lent to the rules of one analysis; its slots are
/// made on first use, and a slot holds the latest key that hashed to it.
#[derive(Default)]
pub(crate) struct LateMemo {
    slots: RefCell<Vec<Option<(LateKey, LateParts)>>>,
}

/// Slots of the [`LateMemo`] (a power of two).
const LATE_SLOTS: usize = 1 << 8;

impl LateMemo {
    /// The parts of `key`, from the memo when it has them, else made by `make` and kept.
    fn get(&self, key: &LateKey, make: impl FnOnce() -> LateParts) -> LateParts {
        let index = (key.hash() >> 56) as usize % LATE_SLOTS;
        let Ok(mut slots) = self.slots.try_borrow_mut() else {
            return make();
        };
        if slots.is_empty() {
            *slots = vec![None; LATE_SLOTS];
        }
        if let Some(Some((k, parts))) = slots.get(index) {
            if k == key {
                return *parts;
            }
        }
        let parts = make();
        if let Some(slot) = slots.get_mut(index) {
            *slot = Some((*key, parts));
        }
        parts
    }
}

/// Whether a unit of `victim` of `role` promoted on one of `squares` after the moves of the pawns
/// on `after` can have reached a square of `units`: never through a static square nor one of
/// `after` (held by the other side's pawns since), and a knight never on from a square where it
/// checks the other side's king that never moved.
#[cfg(test)]
#[must_use]
pub(super) fn promoted_reaches(
    known: &Known<'_>,
    victim: Color,
    squares: Bitboard,
    after: Bitboard,
    role: Role,
    units: Bitboard,
) -> bool {
    let open = !known.statics.fixed & !after;
    let seeds = squares & open;
    if seeds.is_empty() || units.is_empty() {
        return false;
    }
    reaches(role, seeds, open, checking_squares(known, victim).1, units)
}

/// Whether a unit of `role` from `seeds` moving through `open` reaches a square of `units`; a
/// knight never moves on from a square where it checks `king` (a king that never moved), but may
/// end there.
#[cfg(test)]
fn reaches(
    role: Role,
    seeds: Bitboard,
    open: Bitboard,
    king: Option<Square>,
    units: Bitboard,
) -> bool {
    (reached(role, seeds, open, king) & units).any()
}

/// The squares a unit of `role` from `seeds` moving through `open` reaches, as [`reaches`] tells.
fn reached(role: Role, seeds: Bitboard, open: Bitboard, king: Option<Square>) -> Bitboard {
    let checks = match (role, king) {
        (Role::Knight, Some(k)) => attacks::knight_attacks(k),
        _ => Bitboard::EMPTY,
    };
    let region = flood(role, seeds, open & !checks);
    let last = region
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, s| acc | attacks::knight_attacks(s))
        & open
        & checks;
    region | last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knight_on_c1_beside_a_frozen_king_reaches_nothing() {
        // a2 and e2 closed, b3 held by a pawn that moved, d3 checks the king on e1.
        let open = !(Bitboard::from_square(Square::A2) | Square::E2 | Square::B3 | Square::E1);
        let seeds = Bitboard::from_square(Square::C1);
        let units = Bitboard::from_square(Square::B1) | Square::E4;
        assert!(!reaches(Role::Knight, seeds, open, Some(Square::E1), units));
        // Without the king, d3 leads on to b4, c5, e5...
        assert!(reaches(Role::Knight, seeds, open, None, units));
    }

    #[test]
    fn a_knight_may_end_on_a_checking_square() {
        let open = !(Bitboard::from_square(Square::A2) | Square::E2 | Square::B3 | Square::E1);
        let seeds = Bitboard::from_square(Square::C1);
        let units = Bitboard::from_square(Square::D3);
        assert!(reaches(Role::Knight, seeds, open, Some(Square::E1), units));
    }
}
