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

use shakmaty::{attacks, Bitboard, Color, File, Rank, Role, Square};

use super::landings::KINDS;
use crate::geometry::{flood, homes, region_cut};
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
    let taker = victim.other();
    let board = known.pos.board();
    let statics = known.statics;
    let mut after = Bitboard::EMPTY;
    for t in statics.timed.iter() {
        if t.color != taker || board.piece_at(t.to) != Some(taker.pawn()) {
            continue;
        }
        let without = walls_walks_around(victim, statics, walls.with(t.from), known.walks);
        if !promotes_within(victim, &without[g as usize], spare) {
            after.add(t.to);
        }
    }
    if after.is_empty() {
        return None;
    }
    let open = !statics.fixed;
    let squares = promotion_reach(victim, &walks[g as usize], spare);
    let region = pawn_region | (open & !after) | stand_ins(known, victim, squares, after);
    Some(Late { region, after })
}

/// The regions of the originals of `victim` that a unit promoted on `squares` after the moves of
/// the pawns on `after` can stand for: of each kind (bishops by square colour) whose units on the
/// board, not known to be originals, such a unit can have reached.
fn stand_ins(known: &Known<'_>, victim: Color, squares: Bitboard, after: Bitboard) -> Bitboard {
    let board = known.pos.board();
    let statics = known.statics;
    let mut out = Bitboard::EMPTY;
    for (role, colour) in KINDS {
        let units = board.by_piece(role.of(victim)) & colour & !statics.never_moved;
        if !promoted_reaches(known, victim, squares & colour, after, role, units) {
            continue;
        }
        for h in homes(victim, role) & colour {
            out |= region_cut(role, h, !statics.fixed, Bitboard::EMPTY, 64, &statics.timed);
        }
    }
    out
}

/// Whether a unit of `victim` of `role` promoted on one of `squares` after the moves of the pawns
/// on `after` can have reached a square of `units`: never through a static square nor one of
/// `after` (held by the other side's pawns since), and a knight never on from a square where it
/// checks the other side's king that never moved.
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
fn reaches(
    role: Role,
    seeds: Bitboard,
    open: Bitboard,
    king: Option<Square>,
    units: Bitboard,
) -> bool {
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
    ((region | last) & units).any()
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
