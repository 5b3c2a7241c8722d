//! Where promoted units can have been promoted, and what the pawns that promoted paid in captures
//! (seed 000's promotion-square inferences; CQLi's "promoting this many pawns would require too
//! many captures").
//!
//! A promoted unit appeared on a promotion square and reached its square by steps of its own kind
//! through squares that are not static (see [`crate::statics`]); so it was promoted on a square of
//! its region. Seed 000's rules all follow from that: no promotion on a square where a unit never
//! moved or whose squares a pawn promotes from all hold enemy pawns that never moved (the square is
//! not a usable promotion square), and a bishop promoted on d1 behind white pawns on c2 and e2 that
//! never moved cannot have left d1 (d1 is in no other bishop's region). The corner rule (b2, b3 and
//! c2: a bishop promoted on b1 stays on b1 or a2) follows with the pawn timing of the statics: from
//! b1 a bishop reaches a2 only after a2xb3, and then b3 is blocked for good, so the squares a unit
//! promoted on b1 can ever reach, flooded forward with that timing, are b1 and a2.
//!
//! The pawn that promoted started on a file that no pawn on the board started on, and walked to the
//! promotion square through squares that are not static, capturing once per file changed: the
//! cheapest such walk is a small dynamic programme over ranks. Pawns on the board and promoted
//! units are then assigned together to distinct start files at the least total cost, which is a
//! lower bound of the captures the side's pawns made.
//!
//! Promoted units are the units proven promoted, one per such unit, with the promotion squares of
//! its region, and for each kind with more units than originals, as many demands as the excess,
//! each allowed the promotion squares of all those units' regions together (which of them were
//! promoted is not known, so the union is taken: a lower bound all the same).

use std::cell::RefCell;

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Board, Color, File, Rank, Square};

use crate::text::{color_adj, color_name, plural, squares_text};
use crate::{
    class::classes,
    geometry::{promotion_squares, region_cut, timed_forward, TimedList},
    pawns::{plain_cost, FILES_IN},
    statics::Statics,
    types::{Reason, ReasonCode},
};

/// "Unreachable" in the tables.
pub(crate) const NONE: u32 = u32::MAX;

/// Largest region around a promotion square searched for walls of pawn timing.
const PEN: usize = 16;

/// One promoted unit to account for: the units it may be, and the promotion squares it may have
/// been promoted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Demand {
    /// The units of which this one promoted unit is one.
    pub units: Bitboard,
    /// The promotion squares it can have come from.
    pub squares: Bitboard,
}

/// The promotion squares of `color` the unit on `sq` can have been promoted on (`promo`: the
/// usable promotion squares). For a unit proven promoted, those the statics found with the pawn
/// timing; otherwise those of its region, flooded with the moves of pawns of known history cut (no
/// unit ever moved between their two squares), less those from which a single such pawn walls a
/// unit in (the corner b1 behind b2, c2 and a pawn on b3 from a2: the unit never got out of its
/// small region).
pub(crate) fn origins_of(
    board: &Board,
    statics: &Statics,
    promo: Bitboard,
    sq: Square,
) -> Bitboard {
    let found = statics.promoted_from.0[usize::from(sq)];
    if found.any() {
        return found;
    }
    let Some(role) = board.role_at(sq) else {
        return Bitboard::EMPTY;
    };
    let plain = region_cut(
        role,
        sq,
        !statics.fixed,
        Bitboard::EMPTY,
        64,
        &statics.timed,
    ) & promo;
    plain
        .into_iter()
        .filter(|&q| {
            statics.timed.iter().all(|t| {
                timed_forward(role, q, statics.fixed, t, PEN).is_none_or(|pen| pen.contains(sq))
            })
        })
        .collect()
}

/// The promoted units of `color` with the promotion squares each can have come from.
pub(crate) fn demands(pos: &RetroPosition, statics: &Statics, color: Color) -> Vec<Demand> {
    let board = pos.board();
    let promo = promotion_squares(color, statics.fixed);
    let origin = |sq: Square| origins_of(board, statics, promo, sq);
    let mut out = Vec::new();
    for class in classes(pos, color) {
        let forced = class.units & statics.promoted;
        for sq in forced {
            out.push(Demand {
                units: Bitboard::from_square(sq),
                squares: origin(sq),
            });
        }
        let free = class.units & !forced;
        let available = (class.originals & !*statics.stuck_missing.get(color)).count();
        let excess = free.count().saturating_sub(available);
        if excess > 0 {
            let squares = free
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | origin(sq));
            for _ in 0..excess {
                out.push(Demand {
                    units: free,
                    squares,
                });
            }
        }
    }
    out
}

/// The pawn steps that the one-step histories of `cuts` rule out, per arrival square: bit 0 the
/// straight step, bit 1 the capture from the file to the left, bit 2 from the right. Built once so
/// that the walk of [`promotion_costs`] looks a step up instead of scanning the list at every
/// square (this walk is the hottest part of the analysis inside a search).
#[derive(Clone, PartialEq, Eq)]
struct CutSteps([u8; 64]);

impl CutSteps {
    fn new(color: Color, cuts: &TimedList) -> CutSteps {
        let up: i32 = if color.is_white() { 1 } else { -1 };
        let mut steps = [0u8; 64];
        for t in cuts.iter() {
            for (a, b) in [(t.from, t.to), (t.to, t.from)] {
                if i32::from(b.rank() as u8) - i32::from(a.rank() as u8) != up {
                    continue;
                }
                let bit = match i32::from(a.file() as u8) - i32::from(b.file() as u8) {
                    0 => 1,
                    -1 => 2,
                    1 => 4,
                    _ => continue,
                };
                steps[usize::from(b)] |= bit;
            }
        }
        CutSteps(steps)
    }

    /// Whether the step from file `from_file` on the rank below onto `to` is ruled out.
    fn cut(&self, from_file: usize, to: Square) -> bool {
        let bit = match from_file as i32 - to.file() as i32 {
            0 => 1,
            -1 => 2,
            _ => 4,
        };
        self.0[usize::from(to)] & bit != 0
    }
}

/// The fewest captures a pawn of `color` from file `start` makes to stand on each square (indexed
/// by square; the last rank holds the promotion squares), walking from its start square through
/// squares that are not in `fixed` and never along a step that `cuts` rules out ([`NO_WALK`] where
/// it cannot).
fn walk_costs(color: Color, start: u32, fixed: Bitboard, cuts: &CutSteps) -> [u8; 64] {
    walk_costs_landing(color, start, fixed, cuts, Bitboard::FULL)
}

/// [`walk_costs`] with every capture landing on `landing`: a capture takes a unit of the other
/// side that stood on its square, so where the other side's missing units can never have stood,
/// no capture of the walk landed.
fn walk_costs_landing(
    color: Color,
    start: u32,
    fixed: Bitboard,
    cuts: &CutSteps,
    landing: Bitboard,
) -> [u8; 64] {
    let mut out = [NO_WALK; 64];
    let up: i32 = if color.is_white() { 1 } else { -1 };
    let second = color.relative_rank(Rank::Second) as i32;
    let at = |f: usize, k: i32| {
        Square::from_coords(File::new(f as u32), Rank::new((second + up * k) as u32))
    };
    out[usize::from(at(start as usize, 0))] = 0;
    for k in 1..=6 {
        for f in 0..8usize {
            let to = at(f, k);
            if fixed.contains(to) {
                continue;
            }
            let below = |g: usize| out[usize::from(at(g, k - 1))];
            let mut best = if cuts.cut(f, to) { NO_WALK } else { below(f) };
            for g in [f.wrapping_sub(1), f + 1] {
                if g < 8 && landing.contains(to) && !cuts.cut(g, to) {
                    best = best.min(below(g).saturating_add(1));
                }
            }
            out[usize::from(to)] = best;
        }
    }
    out
}

/// "Cannot walk there" in [`walk_costs`] (no walk needs more than six captures).
pub(crate) const NO_WALK: u8 = u8::MAX;

/// The fewest captures of a walk to the promotion square of each file (see [`walk_costs`]).
fn promotion_costs(color: Color, start: u32, fixed: Bitboard, cuts: &CutSteps) -> [u32; 8] {
    let all = walk_costs(color, start, fixed, cuts);
    let last = color.relative_rank(Rank::Eighth);
    let mut out = [NONE; 8];
    for (f, slot) in out.iter_mut().enumerate() {
        let c = all[usize::from(Square::from_coords(File::new(f as u32), last))];
        if c != NO_WALK {
            *slot = u32::from(c);
        }
    }
    out
}

/// [`walk_costs`] from every start file, indexed by start file ([`NO_WALK`] where it cannot walk).
pub(crate) type Walks = [[u8; 64]; 8];

/// Recent [`Walks`] by what they depend on. Inside a search most positions share their units that
/// never moved and their pawns' one-step histories with the position before, so the walks repeat.
/// Owned by an `Analyzer`, lent to the rules of one analysis; its slots are made on first use.
#[derive(Default)]
pub(crate) struct WalkCache {
    slots: RefCell<Vec<WalkSlot>>,
}

/// A [`WalkCache`] slot: what the walks depend on (the colour, the static squares, the squares
/// where their captures may land, the pawns of known history), and the walks.
type WalkSlot = Option<(Color, Bitboard, Bitboard, CutSteps, Walks)>;

/// Slots of the [`WalkCache`] (a power of two).
const WALK_SLOTS: usize = 1 << 8;

/// The walks of `color`'s pawns from every start file, their captures landing on `landing`, from
/// `cache` when it has them.
fn walks(
    color: Color,
    fixed: Bitboard,
    landing: Bitboard,
    cuts: &CutSteps,
    cache: &WalkCache,
) -> Walks {
    let compute = || all_walks(color, fixed, cuts, landing);
    let hash = cuts
        .0
        .iter()
        .fold(
            u64::from(fixed) ^ color as u64 ^ u64::from(landing).rotate_left(1),
            |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3),
        )
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let index = (hash >> 56) as usize % WALK_SLOTS;
    let Ok(mut slots) = cache.slots.try_borrow_mut() else {
        return compute();
    };
    if slots.is_empty() {
        *slots = vec![None; WALK_SLOTS];
    }
    match slots.get(index) {
        Some(Some((c, f, l, k, walks)))
            if *c == color && *f == fixed && *l == landing && k == cuts =>
        {
            *walks
        }
        _ => {
            let walks = compute();
            if let Some(slot) = slots.get_mut(index) {
                *slot = Some((color, fixed, landing, cuts.clone(), walks));
            }
            walks
        }
    }
}

/// The walks of `color`'s pawns from every start file around the static squares of `statics`,
/// never along the move of a pawn of known history (see [`walk_costs`]).
pub(crate) fn walls_walks(color: Color, statics: &Statics, cache: &WalkCache) -> Walks {
    walks(
        color,
        statics.fixed,
        Bitboard::FULL,
        &CutSteps::new(color, &statics.timed),
        cache,
    )
}

/// [`walls_walks`] with the squares of `extra` closed as well: squares no pawn of `color` can
/// have moved on from (next to a king that never moved, which a pawn there checks), or, for a
/// question about time, squares it can only have passed after some move.
pub(crate) fn walls_walks_around(
    color: Color,
    statics: &Statics,
    extra: Bitboard,
    cache: &WalkCache,
) -> Walks {
    walks(
        color,
        statics.fixed | extra,
        Bitboard::FULL,
        &CutSteps::new(color, &statics.timed),
        cache,
    )
}

/// [`walls_walks`] with every capture landing on `landing` (see [`walk_costs_landing`]): for the
/// analyses that know where the other side's missing units can have died.
pub(crate) fn landing_walks(
    color: Color,
    statics: &Statics,
    landing: Bitboard,
    cache: &WalkCache,
) -> Walks {
    walks(
        color,
        statics.fixed,
        landing,
        &CutSteps::new(color, &statics.timed),
        cache,
    )
}

/// [`walk_costs_landing`] from every start file.
fn all_walks(color: Color, fixed: Bitboard, cuts: &CutSteps, landing: Bitboard) -> Walks {
    let mut by_start = [[NO_WALK; 64]; 8];
    for (start, costs) in by_start.iter_mut().enumerate() {
        *costs = walk_costs_landing(color, start as u32, fixed, cuts, landing);
    }
    by_start
}

/// The fewest captures the pawn of `color` on `sq` made if it started on file `start` ([`NONE`] if
/// it cannot have): its file distance, and at least the captures of its walk around the walls of
/// `by_start` ([`walls_walks`]); a pawn of known history came from its one origin.
pub(crate) fn walked_cost(
    color: Color,
    sq: Square,
    start: usize,
    statics: &Statics,
    by_start: &Walks,
) -> u32 {
    let plain = plain_cost(color, sq, start as i32).map_or(NONE, u32::from);
    if plain == NONE || statics.fixed.contains(sq) {
        return plain;
    }
    if let Some(t) = statics.timed.iter().find(|t| t.to == sq) {
        return if t.from.file() as usize == start {
            plain
        } else {
            NONE
        };
    }
    match by_start[start][usize::from(sq)] {
        NO_WALK => NONE,
        c => u32::from(c).max(plain),
    }
}

// Long by design: a small assignment solved by dynamic programming over start files: the cost
// table and its fill belong together.
/// The fewest captures of `color`'s pawns when the pawns on the board and the promoted units of
/// `demands` are given distinct start files; `None` if no assignment exists.
///
/// With `timed_walks`, each pawn on the board is charged the walk of [`walk_costs`] to its square
/// instead of its file distance: a pawn of known history came from its one origin, and any other
/// pawn walked rank by rank, never between the two squares of a pawn of known history of either
/// colour. No pawn ever stepped between those squares: the pawn of known history stood on one of
/// them until its move and on the other after it, and was never captured (it is on the board), so
/// a step from its old square to its new one would land on it and a step the other way would start
/// before its move and end after it, with the pawn's move landing on the walker in between.
pub(crate) fn min_captures(
    color: Color,
    pawns: Bitboard,
    demands: &[Demand],
    statics: &Statics,
    timed_walks: bool,
    cache: &WalkCache,
) -> Option<u32> {
    let list: Vec<Square> = pawns.into_iter().collect();
    if list.len() + demands.len() > 8 {
        return None;
    }
    // Cost of each demand from each start file; the walk from each start is shared by all demands.
    let by_start = if demands.is_empty() && !timed_walks {
        [[NO_WALK; 64]; 8]
    } else {
        walls_walks(color, statics, cache)
    };
    let table: Vec<[u32; 8]> = demands
        .iter()
        .map(|d| {
            let mut row = [NONE; 8];
            for (costs, slot) in by_start.iter().zip(row.iter_mut()) {
                *slot = d
                    .squares
                    .into_iter()
                    .map(|q| costs[usize::from(q)])
                    .filter(|&c| c != NO_WALK)
                    .min()
                    .map_or(NONE, u32::from);
            }
            row
        })
        .collect();
    let pawn_cost = |sq: Square, start: usize| -> u32 {
        if timed_walks {
            walked_cost(color, sq, start, statics, &by_start)
        } else {
            plain_cost(color, sq, start as i32).map_or(NONE, u32::from)
        }
    };
    let items = list.len() + demands.len();
    let mut dp = [NONE; 256];
    dp[0] = 0;
    for mask in 0..256usize {
        let so_far = dp[mask];
        let k = usize::from(FILES_IN[mask]);
        if so_far == NONE || k >= items {
            continue;
        }
        for start in 0..8usize {
            let bit = 1 << start;
            if mask & bit != 0 {
                continue;
            }
            let c = match list.get(k) {
                Some(&sq) => pawn_cost(sq, start),
                None => table
                    .get(k - list.len())
                    .and_then(|row| row.get(start))
                    .copied()
                    .unwrap_or(NONE),
            };
            if c == NONE {
                continue;
            }
            let next = &mut dp[mask | bit];
            *next = (*next).min(so_far + c);
        }
    }
    dp.iter()
        .enumerate()
        .filter(|&(m, _)| usize::from(FILES_IN[m]) == items)
        .map(|(_, &c)| c)
        .min()
        .filter(|&c| c != NONE)
}

/// The clause of a reason's message that says what the promotions cost: `found`, the fewest
/// captures that let the pawns on the board and the promoted ones reach their squares, or `None`
/// where no pawn can have walked to a square it promotes on.
pub(crate) fn captures_needed_text(found: Option<u32>) -> String {
    match found {
        Some(c) => format!(
            "the pawns on the board and the pawns that promoted need at least {c} capture{} to \
             reach those squares",
            crate::text::plural(c)
        ),
        None => "no pawn can have walked to a square it promotes on".into(),
    }
}

/// One clause per demand for a reason's message, and the squares the clauses name.
pub(crate) fn describe_demands(demands: &[Demand]) -> (Vec<String>, Bitboard) {
    let mut squares = Bitboard::EMPTY;
    let parts = demands
        .iter()
        .map(|d| {
            squares |= d.units | d.squares;
            if d.squares.is_empty() {
                format!(
                    "one of {} has no promotion square it can have come from",
                    squares_text(d.units)
                )
            } else {
                format!(
                    "one of {} can only have been promoted on {}",
                    squares_text(d.units),
                    squares_text(d.squares)
                )
            }
        })
        .collect();
    (parts, squares)
}

/// The fewest captures a pawn of `color` from file `start` makes to reach any promotion square,
/// walking through squares that are not in `fixed`; `None` if it cannot.
pub(crate) fn cheapest_promotion(color: Color, start: u32, fixed: Bitboard) -> Option<u32> {
    let no_cuts = CutSteps([0; 64]);
    promotion_costs(color, start, fixed, &no_cuts)
        .into_iter()
        .filter(|&c| c != NONE)
        .min()
}

/// The [`ReasonCode::PromotionsNeedCaptures`] reason: the promoted units of `demands` need `found`
/// pawn captures (`None`: no pawn can have reached their promotion squares at all), more than the
/// `missing` units of the other side less the `by_pieces` captured by pieces allow.
pub(crate) fn reason(
    color: Color,
    demands: &[Demand],
    found: Option<u32>,
    by_pieces: u32,
    missing: u32,
) -> Reason {
    let (parts, squares) = describe_demands(demands);
    let need = match found {
        Some(c) => format!(
            "the pawns on the board and the pawns that promoted need at least {c} capture{} to \
             reach their squares around the units that never moved",
            plural(c)
        ),
        None => "no pawn can have walked to those squares around the units that never moved".into(),
    };
    Reason::new(
        ReasonCode::PromotionsNeedCaptures,
        format!(
            "{} has promoted units ({}); {need}, but {}",
            color_name(color),
            parts.join("; "),
            missing_only(color.other(), missing, by_pieces)
        ),
        squares,
    )
}

/// The [`ReasonCode::NoPromotionSquare`] reason of `color`, if a kind of unit has more units that
/// cannot have been promoted than originals.
///
/// Proof: a unit of a kind is an original (one per home square not proven empty for ever) or was
/// promoted on a square of [`origins_of`] (every square a promoted unit visited after its promotion
/// is in the region flooded from its square, and its promotion square too). A unit whose origins
/// are empty is an original, so there cannot be more of them than originals. The white rooks on
/// d4, e4 and e5 behind black pawns on a7, c7, e7, f7 and h7 that never moved and on b6, d6 and g6
/// that came from b7, d7 and g7 in one move: a rook promoted on the eighth rank never leaves it
/// (only b7, d7 and g7 open below it, each a dead end), so all three are originals, one too many.
pub(crate) fn no_promotion_square(
    pos: &RetroPosition,
    statics: &Statics,
    color: Color,
) -> Option<Reason> {
    let board = pos.board();
    let promo = promotion_squares(color, statics.fixed);
    for class in classes(pos, color) {
        let free = class.units & !statics.promoted;
        let available = (class.originals & !*statics.stuck_missing.get(color)).count();
        if free.count() <= available {
            continue;
        }
        let stuck: Bitboard = free
            .into_iter()
            .filter(|&sq| origins_of(board, statics, promo, sq).is_empty())
            .collect();
        if stuck.count() <= available {
            continue;
        }
        let timed: Vec<String> = statics
            .timed
            .iter()
            .map(|t| format!("{} from {}", t.to, t.from))
            .collect();
        let mut squares = stuck;
        let walls = if timed.is_empty() {
            "units that never moved wall them off".to_string()
        } else {
            for t in statics.timed.iter() {
                squares = squares.with(t.to).with(t.from);
            }
            format!(
                "units that never moved and pawns that made one move from a known square ({}: no \
                 unit ever passed between its two squares) wall them off",
                timed.join(", ")
            )
        };
        return Some(Reason::new(
            ReasonCode::NoPromotionSquare,
            format!(
                "{} has {} {} (on {}) for {available} original{}, so some were promoted, but none \
                 of those on {} can have come from a promotion square: {walls}, so a unit promoted \
                 there never reached them",
                color_name(color),
                class.units.count(),
                class.name,
                squares_text(class.units),
                plural(available),
                squares_text(stuck),
            ),
            squares,
        ));
    }
    None
}

/// The [`ReasonCode::PawnWalksNeedCaptures`] reason: `color`'s pawns (and those that promoted) need
/// `found` captures (`None`: no walk at all) once no pawn may step between the two squares of a
/// pawn of `timed`, more than the `missing` units of the other side less the `by_pieces` captured
/// by pieces allow. `blocked` are the pawns standing on squares such a pawn left.
pub(crate) fn walk_reason(
    color: Color,
    blocked: Bitboard,
    timed: &TimedList,
    found: Option<u32>,
    by_pieces: u32,
    missing: u32,
) -> Reason {
    let mut squares = blocked;
    let mut moves = Vec::new();
    for t in timed
        .iter()
        .filter(|t| t.color != color && blocked.contains(t.from))
    {
        squares = squares.with(t.from).with(t.to);
        moves.push(format!("{} came from {} in one move", t.to, t.from));
    }
    let several = blocked.more_than_one();
    let need = match found {
        Some(c) => format!("at least {c} capture{}", plural(c)),
        None => "more captures than any walk allows".into(),
    };
    Reason::new(
        ReasonCode::PawnWalksNeedCaptures,
        format!(
            "the {} {} on {} {} where {} until {} only move ({}), so {} arrived after it \
             and not from the square that pawn moved to, but by a capture; with the other pawns \
             {} pawns need {need}, but {}",
            color_adj(color),
            if several { "pawns" } else { "pawn" },
            squares_text(blocked),
            if several { "stand" } else { "stands" },
            if several {
                format!("{} pawns stood", color_adj(color.other()))
            } else {
                format!("a {} pawn stood", color_adj(color.other()))
            },
            if several { "their" } else { "its" },
            moves.join(", "),
            if several { "they" } else { "it" },
            color_adj(color),
            missing_only(color.other(), missing, by_pieces)
        ),
        squares,
    )
}

/// "Black is missing only 2 units and pieces captured 1 of them", for the reasons that compare
/// captures with the units `them` misses.
pub(crate) fn missing_only(them: Color, missing: u32, by_pieces: u32) -> String {
    if missing == 0 {
        return format!("{} is missing no unit", color_name(them));
    }
    format!(
        "{} is missing only {missing} unit{}{}",
        color_name(them),
        plural(missing),
        if by_pieces > 0 {
            format!(" and pieces captured {by_pieces} of them")
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod landing_tests {
    use super::*;

    #[test]
    fn a_walk_captures_only_onto_its_landings() {
        let cuts = CutSteps::new(Color::White, &TimedList::default());
        let h = File::H as u32;
        let free = walk_costs(Color::White, h, Bitboard::EMPTY, &cuts);
        let light = walk_costs_landing(
            Color::White,
            h,
            Bitboard::EMPTY,
            &cuts,
            Bitboard::LIGHT_SQUARES,
        );
        // From the h-file, g3 is a capture away; with captures only onto light squares it is
        // out of reach (the pawn never stands on g3), g4 is not.
        assert_eq!(free[usize::from(Square::G3)], 1);
        assert_eq!(light[usize::from(Square::G3)], NO_WALK);
        assert_eq!(light[usize::from(Square::G4)], 1);
        // Steps need no landing: the h-file is walked for free either way.
        assert_eq!(light[usize::from(Square::H8)], 0);
        // A promotion on g8 needs its last capture onto a light square: h7xg8.
        assert_eq!(light[usize::from(Square::G8)], 1);
        assert_eq!(light[usize::from(Square::F8)], 2);
    }
}
