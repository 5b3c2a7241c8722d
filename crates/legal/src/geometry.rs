//! Geometry of the board for the rules: home squares, the steps of each kind of unit, and the
//! floods that make regions (the squares a unit can reach through open squares, never across the
//! move of a pawn of known history). Nothing here knows a rule of legality; the rules, and the
//! cage verifier above this crate, are built on it.

use retrace_unmove::pawn_forward;
use shakmaty::{attacks, Bitboard, Board, Color, File, Rank, Role, Square};

/// The role whose original stands on `sq` in the initial array, for `color`'s back rank.
pub fn home_role(color: Color, sq: Square) -> Option<Role> {
    if sq.rank() != color.backrank() {
        return None;
    }
    Some(match sq.file() {
        File::A | File::H => Role::Rook,
        File::B | File::G => Role::Knight,
        File::C | File::F => Role::Bishop,
        File::D => Role::Queen,
        _ => Role::King,
    })
}

/// Home squares of `color`'s originals of `role` (empty for pawns, which are handled elsewhere).
pub(crate) fn homes(color: Color, role: Role) -> Bitboard {
    // The files as a mask of the first rank (bit 0 is the a-file), moved to the back rank.
    let files: u64 = match role {
        Role::Pawn => 0,
        Role::Knight => 0b0100_0010,
        Role::Bishop => 0b0010_0100,
        Role::Rook => 0b1000_0001,
        Role::Queen => 0b0000_1000,
        Role::King => 0b0001_0000,
    };
    Bitboard(files << (8 * color.backrank() as u32))
}

/// Squares one step of `role` away from `sq` (for sliders: the adjacent squares on their lines).
pub fn steps(role: Role, sq: Square) -> Bitboard {
    match role {
        Role::Pawn => Bitboard::EMPTY,
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, Bitboard::FULL),
        Role::Rook => attacks::rook_attacks(sq, Bitboard::FULL),
        Role::Queen | Role::King => attacks::king_attacks(sq),
    }
}

/// One step of `role` from every square of `from`.
pub(crate) fn dilate(role: Role, from: Bitboard) -> Bitboard {
    let b = u64::from(from);
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    let east = |x: u64| (x & not_h) << 1;
    let west = |x: u64| (x & not_a) >> 1;
    let orth = |x: u64| east(x) | west(x) | x << 8 | x >> 8;
    let diag = |x: u64| {
        let ew = east(x) | west(x);
        ew << 8 | ew >> 8
    };
    Bitboard(match role {
        Role::Pawn => 0,
        Role::Rook => orth(b),
        Role::Bishop => diag(b),
        Role::Queen | Role::King => orth(b) | diag(b),
        Role::Knight => {
            let not_ab = not_a & !0x0202_0202_0202_0202u64;
            let not_gh = not_h & !0x4040_4040_4040_4040u64;
            let one = (b & not_h) << 1 | (b & not_a) >> 1;
            let two = (b & not_gh) << 2 | (b & not_ab) >> 2;
            one << 16 | one >> 16 | two << 8 | two >> 8
        }
    })
}

/// Promotion squares of `color` a pawn can ever have promoted on, given the static squares.
pub(crate) fn promotion_squares(color: Color, fixed: Bitboard) -> Bitboard {
    let last = Bitboard::from_rank(color.relative_rank(Rank::Eighth));
    (last & !fixed)
        .into_iter()
        .filter(|&p| {
            let back = -pawn_forward(color);
            let straight = p
                .offset(back)
                .map_or(Bitboard::EMPTY, Bitboard::from_square);
            let origins = straight | attacks::pawn_attacks(color.other(), p);
            (origins & !fixed).any()
        })
        .collect()
}

/// One step of `role` from `frontier` into `open`, never along the move of a pawn of `cuts`: such a
/// pawn stood on its start square until its one move and on its present square after it, so no
/// unit ever moved between the two squares (nor slid over both).
pub(crate) fn step(role: Role, frontier: Bitboard, open: Bitboard, cuts: &TimedList) -> Bitboard {
    let mut next = dilate(role, frontier) & open;
    for t in cuts.iter() {
        for (a, b) in [(t.from, t.to), (t.to, t.from)] {
            if frontier.contains(a)
                && next.contains(b)
                && !dilate(role, frontier.without(a)).contains(b)
            {
                next.discard(b);
            }
        }
    }
    next
}

/// The squares a unit of `role` on `from` can have visited, moving by steps through `open` squares
/// and never crossing the move of a pawn of `cuts` (see [`step`]). Stops early once the region
/// meets `target` and exceeds `limit` squares: then the caller learns only that much (a target is
/// reachable, the region is larger than `limit`).
pub(crate) fn region_cut(
    role: Role,
    from: Square,
    open: Bitboard,
    target: Bitboard,
    limit: usize,
    cuts: &TimedList,
) -> Bitboard {
    let seeds = Bitboard::from_square(from);
    flood_until(
        role,
        seeds,
        open,
        cuts,
        Until::MeetsBeyond { target, limit },
    )
    .unwrap_or(seeds)
}

/// Squares attacked at every moment of the game by the static units of `by` (in `fixed`): the
/// squares a pawn on its second rank attacks, and the squares next to a static piece on its lines.
/// A king of the other colour can never have stood on one of them.
pub(crate) fn permanently_attacked(board: &Board, fixed: Bitboard, by: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in fixed & board.by_color(by) {
        if let Some(piece) = board.piece_at(sq) {
            // With every square occupied a slider attacks exactly its adjacent squares, which no
            // blocker can ever shield.
            out |= attacks::attacks(sq, piece, Bitboard::FULL);
        }
    }
    out
}

/// A pawn with a known one-step history: it stood on `from` from the start until one move T and
/// has stood on `to` from T until now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timed {
    /// The pawn's colour.
    pub color: Color,
    /// Its start square (on its second rank).
    pub from: Square,
    /// Its present square (on its third rank).
    pub to: Square,
}

/// The pawns with a known one-step history, without allocating (at most 16 pawns qualify).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TimedList {
    items: [Option<Timed>; 16],
}

impl TimedList {
    /// The pawns, in square order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Timed> + '_ {
        self.items.iter().map_while(|t| *t)
    }

    /// Adds `t` unless a pawn on its square is listed already or the list is full; returns
    /// whether it was added.
    pub(crate) fn push(&mut self, t: Timed) -> bool {
        if self.iter().any(|u| u.to == t.to) {
            return false;
        }
        match self.items.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => {
                *slot = Some(t);
                true
            }
            None => false,
        }
    }
}

/// The squares of `targets` a unit of `role` now on `x` can have stood on at the moment `t` was
/// played or earlier (`None` if more than `limit` squares are open to it after that move), given that `walls` were occupied throughout, `t.from` up to that move and `t.to` after
/// it. For a king of the other colour than the pawn (`king` is its colour), the pawn's attacks close
/// squares too: those of `t.from` before the move, those of `t.to` after it.
///
/// The unit's path after the move runs through squares open after it, from a square `y` where it
/// stood at the move: `y` is neither `t.from` (the pawn stood there) nor `t.to` (the pawn moved
/// there). For a king `y` may be attacked from `t.to` (the pawn's move gave check), so it is any
/// square next to that path. Before the move the path runs through squares open before it.
pub(crate) fn timed_back(
    role: Role,
    x: Square,
    walls: Bitboard,
    t: Timed,
    king: Option<Color>,
    limit: usize,
    targets: Bitboard,
) -> Option<Bitboard> {
    let (att0, att1) = match king {
        Some(k) if k != t.color => (
            attacks::pawn_attacks(t.color, t.from),
            attacks::pawn_attacks(t.color, t.to),
        ),
        _ => (Bitboard::EMPTY, Bitboard::EMPTY),
    };
    let open0 = !walls & !Bitboard::from_square(t.from) & !att0;
    let open1 = !walls & !Bitboard::from_square(t.to) & !att1;
    let after = bounded_flood(role, Bitboard::from_square(x), open1, limit)?;
    let at_move = if king.is_some() {
        after | dilate(Role::King, after)
    } else {
        after
    } & open0
        & !Bitboard::from_square(t.to);
    let reached = flood_until(role, at_move, open0, &NO_CUTS, Until::Covers(targets));
    Some(reached.unwrap_or(at_move) & targets)
}

/// The squares an original of `role` starting on `home` can ever have visited, given that `walls`
/// were occupied throughout, `t.from` up to the pawn's move and `t.to` after it, if they are at
/// most `limit`. The mirror image of [`timed_back`] for pieces other than kings.
pub(crate) fn timed_forward(
    role: Role,
    home: Square,
    walls: Bitboard,
    t: Timed,
    limit: usize,
) -> Option<Bitboard> {
    let open0 = !walls & !Bitboard::from_square(t.from);
    let open1 = !walls & !Bitboard::from_square(t.to);
    let before = bounded_flood(role, Bitboard::from_square(home), open0, limit)?;
    let after = bounded_flood(role, before & !Bitboard::from_square(t.to), open1, limit)?;
    Some(before | after).filter(|b| b.count() <= limit)
}

/// No pawn move to respect: a flood through squares open the whole time.
pub(crate) const NO_CUTS: TimedList = TimedList { items: [None; 16] };

/// Where a flood may stop before its closure.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Until {
    /// Never: the whole closure.
    Closed,
    /// Given up (`None`) as soon as the squares reached exceed this many.
    Exceeds(usize),
    /// Stopped once the squares reached meet `target` and exceed `limit`.
    MeetsBeyond {
        /// Squares the caller wants to know reachable.
        target: Bitboard,
        /// How many squares are enough once a target is reached.
        limit: usize,
    },
    /// Stopped once every square of these is reached.
    Covers(Bitboard),
}

/// The flood fill, the one loop every region of the analysis is made by: the squares reached from
/// `seeds` by steps of `role` into `open` squares, never along the move of a pawn of `cuts` (see
/// [`step`]), stopped as `until` says: `Err` with the squares reached so far only when
/// [`Until::Exceeds`] gives up.
pub(crate) fn flood_until(
    role: Role,
    seeds: Bitboard,
    open: Bitboard,
    cuts: &TimedList,
    until: Until,
) -> Result<Bitboard, Bitboard> {
    let mut seen = seeds;
    let mut frontier = seeds;
    loop {
        match until {
            Until::Exceeds(limit) if seen.count() > limit => return Err(seen),
            Until::MeetsBeyond { target, limit }
                if (seen & target).any() && seen.count() > limit =>
            {
                return Ok(seen)
            }
            Until::Covers(targets) if targets.is_subset(seen) => return Ok(seen),
            _ => {}
        }
        let next = step(role, frontier, open, cuts) & !seen;
        if next.is_empty() {
            return Ok(seen);
        }
        seen |= next;
        frontier = next;
    }
}

/// The closure of `seeds` under steps of `role` into `open` squares.
pub fn flood(role: Role, seeds: Bitboard, open: Bitboard) -> Bitboard {
    flood_until(role, seeds, open, &NO_CUTS, Until::Closed).unwrap_or(seeds)
}

/// [`flood`], given up (`None`) as soon as it exceeds `limit` squares.
pub fn bounded_flood(
    role: Role,
    seeds: Bitboard,
    open: Bitboard,
    limit: usize,
) -> Option<Bitboard> {
    flood_until(role, seeds, open, &NO_CUTS, Until::Exceeds(limit)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_squares_are_the_back_rank_squares_of_their_role() {
        for color in Color::ALL {
            for role in Role::ALL {
                let expected: Bitboard = Bitboard::FULL
                    .into_iter()
                    .filter(|&sq| role != Role::Pawn && home_role(color, sq) == Some(role))
                    .collect();
                assert_eq!(homes(color, role), expected, "{color:?} {role:?}");
            }
        }
        assert_eq!(
            homes(Color::Black, Role::Knight),
            Bitboard::from_square(Square::B8).with(Square::G8)
        );
    }
}
