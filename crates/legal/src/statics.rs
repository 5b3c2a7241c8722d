//! Units that never moved, and what they wall in.
//!
//! A *static* square holds the same unit now as in the initial array, and that unit never moved: a
//! pawn on its second rank (a pawn can stand there only if it never moved), a unit frozen on its home
//! square (castling rights, user marks), and, by a least fixpoint, a piece on its home square whose
//! every first step leads onto a static square (a bishop on c1 behind pawns on b2 and d2). Static
//! squares were occupied at every moment of the game, so no unit ever passed through them, landed on
//! them or left them.
//!
//! Every other piece reached its square by single steps of its own kind through non-static squares,
//! from its home square or from a promotion square (a promotion square is usable only when it and one
//! square a pawn can promote from are not static). A flood fill through non-static squares therefore
//! proves a unit promoted (no home square reachable), or its square unreachable (neither).
//!
//! Three refinements sharpen the flood fill:
//! - *Closed back-rank segments.* A run of non-static back-rank squares whose neighbours on the
//!   back rank and the second rank are all static can be left or entered only by a knight's jump.
//!   If it holds no original knight and is now full of units other than knights, it was full at
//!   every moment (no unit can come in but a knight capturing an original, and the originals never
//!   leave), so nothing in it ever moved: a king and queen swapped behind their bishops and pawns
//!   are illegal (CQLi's "King and Queen are swapped"), and in place they are static. If one
//!   original of such a segment is missing, it was captured at home by a knight before anything in
//!   the segment moved.
//! - *Permanent attacks.* A king can never stand on a square attacked by a static enemy unit (a
//!   pawn on its second rank, or a static piece's adjacent squares): it would have moved into
//!   check. Kings flood through the other squares only (CQLi's "no legal path" for a king).
//! - *Pawn timing.* A pawn that advanced one rank from a unique square stood on that square from
//!   the start until one move T and on its present square from T on. A unit's path is therefore a
//!   path avoiding the first square up to T and then a path avoiding the second (Bláthy's rook
//!   behind h7-h6). Each such pawn is used alone, the others counted as open, which
//!   over-approximates the paths and so stays sound.

use retrace_unmove::{pawn_forward, role_name, RetroPosition};
use shakmaty::{attacks, Bitboard, Board, ByColor, ByRole, Color, File, Piece, Rank, Role, Square};

use crate::geometry::{
    dilate, flood_until, home_role, homes, permanently_attacked, promotion_squares, region_cut,
    steps, timed_back, timed_forward, Timed, TimedList, Until, NO_CUTS,
};
use crate::memo::{hash_words, DirectMap};
use crate::reasons::Reasons;
use crate::text::{color_adj, squares_or, squares_text};
use crate::types::ReasonCode;

/// What the static analysis found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Statics {
    /// Squares whose unit stood there from the start and never moved.
    pub never_moved: Bitboard,
    /// Pieces that cannot leave a pen of at most [`CAGE_LIMIT`] squares.
    pub caged: Bitboard,
    /// Pieces proven promoted (cannot have come from their home square, or marked so).
    pub promoted: Bitboard,
    /// Home squares of original pieces proven gone (captured), per colour: originals that could
    /// never move and are not at home, and originals missing from the pen they could never leave.
    pub stuck_missing: ByColor<Bitboard>,
    /// The squares of `stuck_missing` whose original was captured inside a pen where no enemy pawn
    /// can ever have captured: a piece made each of those captures. One square per capture.
    pub captured_at_home: ByColor<Bitboard>,
    /// For each square of `promoted` found by the flood (not only marked): the promotion squares
    /// its unit can have come from, with the pawn timing applied. Empty for other squares.
    pub promoted_from: SquareSets,
    /// For each rook, bishop or knight not on a static square: the squares it can ever have
    /// visited as far as [`PEN_REGION`] squares, exactly as [`pen_region`] gives them, made with
    /// the rest of its walls (and kept with them). Empty for other squares.
    pub pen_regions: SquareSets,
    /// Pieces that can have come neither from home nor from a promotion.
    pub unreachable: Bitboard,
    /// Why each unit of `unreachable` is unreachable, in square order.
    pub unreachable_why: Vec<(Square, Wall)>,
    /// Static squares (occupied at every moment of the game): the walls of every flood fill.
    pub fixed: Bitboard,
    /// The pawns with a known one-step history (see [`timed_pawns`]).
    pub timed: TimedList,
    /// Home squares of originals proven captured there without ever having moved, per colour.
    pub died_at_home: ByColor<Bitboard>,
    /// Closed back-rank segments whose units contradict the fact that nothing in them moved.
    pub rearranged: Vec<Rearranged>,
}

/// A set of squares per square of the board.
#[derive(Clone, Debug)]
pub(crate) struct SquareSets(pub [Bitboard; 64]);

impl Default for SquareSets {
    fn default() -> Self {
        SquareSets([Bitboard::EMPTY; 64])
    }
}

/// What walls a unit in (see [`Statics::unreachable_why`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wall {
    /// Static units alone.
    Static,
    /// Static units and the squares static enemy units attack (kings only).
    Attacks,
    /// Static units and the moves of pawns that made one step from a known square.
    Cuts,
    /// Static units and the one-step pawn now on the square given, whose two squares were blocked
    /// one before and one after its move.
    Timing(Square),
}

/// A closed back-rank segment that cannot look the way it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rearranged {
    /// The colour whose back rank holds the segment.
    pub color: Color,
    /// The squares of the segment.
    pub segment: Bitboard,
    /// The units that contradict: intruders (units that can never have entered), in a full
    /// segment the units not on their initial squares, or two units in the wrong order.
    pub wrong: Bitboard,
    /// What contradicts.
    pub kind: Rearrangement,
}

/// How a closed back-rank segment contradicts (see [`Rearranged`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rearrangement {
    /// Units that can never have entered.
    Intruders,
    /// A full segment whose units are not on their initial squares.
    Moved,
    /// Two units in the other order than their initial squares, which only castling can swap.
    Order,
}

/// The largest region (in squares) whose paths are refined by pawn timing; larger regions are left
/// as they are, which is sound (a larger region only allows more).
const TIMING_LIMIT: usize = 16;

/// Squares no king of the other colour than `by` can ever have stood on: those
/// [`permanently_attacked`] by the static units of `by`, and the squares `by`'s pawns of known
/// history reached by a capture. Such a pawn attacked its square from its start square until its
/// move and has stood on it since (the pawn on b6 that came from c7: a white king is never on b6).
pub(crate) fn always_guarded(
    board: &Board,
    fixed: Bitboard,
    timed: &TimedList,
    by: Color,
) -> Bitboard {
    let captured_onto: Bitboard = timed
        .iter()
        .filter(|t| t.color == by && t.from.file() != t.to.file())
        .map(|t| t.to)
        .collect();
    permanently_attacked(board, fixed, by) | captured_onto
}

/// For a pawn on its third rank: its colour and the squares of its second rank it can have come
/// from (straight or by a capture, not from a static square). One of them is its history.
///
/// `None` for a pawn with no origin at all (every square it can have come from static): the
/// position is then illegal, which the pawn structure says ([`ReasonCode::ImpossiblePawnStructure`]),
/// and a wall in time built on such a pawn would prove anything, such as a knight on its home
/// square unreachable (in `4k3/8/8/8/8/P7/PP6/1N2K3 w`).
///
/// [`ReasonCode::ImpossiblePawnStructure`]: crate::ReasonCode::ImpossiblePawnStructure
pub(crate) fn one_step_origins(
    board: &Board,
    fixed: Bitboard,
    to: Square,
) -> Option<(Color, Bitboard)> {
    let Piece { color, role } = board.piece_at(to)?;
    if role != Role::Pawn || color.relative_rank(to.rank()) != Rank::Third {
        return None;
    }
    let back = -pawn_forward(color);
    let straight = to
        .offset(back)
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    let origins = (straight | attacks::pawn_attacks(color.other(), to)) & !fixed;
    origins.any().then_some((color, origins))
}

/// Every pawn with a known one-step history: a pawn on its third rank with exactly one square it
/// can have come from. A pawn on its third rank advanced once, from its second rank: straight or by
/// a capture; a static square of the second rank holds a pawn that never moved, so it is not the
/// origin.
///
/// Each square of a second rank is the start square of exactly one pawn, and no pawn ever returns
/// to it, so two pawns on their third rank never came from the same square: once a pawn's origin is
/// known, it is no other pawn's. Repeating that until nothing changes is sound (the a-pawn on a6
/// came from a7, b7 never moved, so the pawn on b6 came from c7).
fn timed_pawns(board: &Board, fixed: Bitboard) -> TimedList {
    let third = third_rank_pawns(board);
    let mut candidates: [(Square, Color, Bitboard); 16] =
        [(Square::A1, Color::White, Bitboard::EMPTY); 16];
    let mut n = 0;
    for to in third {
        if let (Some((color, origins)), Some(slot)) =
            (one_step_origins(board, fixed, to), candidates.get_mut(n))
        {
            *slot = (to, color, origins);
            n += 1;
        }
    }
    let candidates = &mut candidates[..n];
    let mut claimed = Bitboard::EMPTY;
    loop {
        let mut grew = false;
        for (_, _, origins) in candidates.iter_mut() {
            if origins.more_than_one() {
                let left = *origins & !claimed;
                if left != *origins && left.any() {
                    *origins = left;
                }
            }
            if let Some(from) = origins.single_square() {
                grew |= !claimed.contains(from);
                claimed.add(from);
            }
        }
        if !grew {
            break;
        }
    }
    let mut out = TimedList::default();
    for &(to, color, origins) in candidates.iter() {
        if let Some(from) = origins.single_square() {
            out.push(Timed { color, from, to });
        }
    }
    out
}

/// The squares occupied by the same unit throughout every game that reaches `pos` (pawns on their
/// start squares, frozen originals, and originals whose every first step is such a square), and,
/// for each side, the home squares whose original was walled in the same way but is gone (it was
/// captured at home).
/// With `cache`, the fixpoint is looked up there first and kept there.
#[must_use]
pub(crate) fn fixed_and_stuck(
    pos: &RetroPosition,
    cache: Option<&mut FixedCache>,
) -> (Bitboard, ByColor<Bitboard>) {
    let board = pos.board();
    let mut fixed = (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Second))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Seventh));
    // Originals standing on their home squares: with the fixed pawns and the frozen ones among
    // them, all the fixpoint below reads of the position.
    // Each role on the home squares of its kind, of the colour whose back rank holds them
    // (pawns have no home squares here).
    let on_homes = Role::ALL.iter().fold(Bitboard::EMPTY, |acc, &role| {
        acc | board.by_role(role) & (homes(Color::White, role) | homes(Color::Black, role))
    });
    let at_home = on_homes
        & ((board.white() & Bitboard::from_rank(Rank::First))
            | (board.black() & Bitboard::from_rank(Rank::Eighth)));
    fixed |= pos.frozen() & at_home;
    let Some(cache) = cache else {
        return fixpoint(fixed, at_home);
    };
    let hash = hash_words(&[u64::from(fixed), u64::from(at_home)]);
    *cache
        .slots
        .get_or_make(hash, (fixed, at_home), || fixpoint(fixed, at_home))
}

/// Recent results of the fixpoint of the permanent squares
/// ([`permanent_squares_and_home_captures`]), by what it reads of a position (the squares
/// known fixed and the originals at home), which change far less often than positions in a
/// search. Owned by an `Analyzer` (or a search); its slots are made on first use.
#[derive(Clone, Debug, Default)]
pub struct FixedCache {
    slots: DirectMap<(Bitboard, Bitboard), (Bitboard, ByColor<Bitboard>), 10>,
}

/// The least fixpoint of [`fixed_and_stuck`] from the squares known fixed and the originals
/// standing at home.
fn fixpoint(mut fixed: Bitboard, at_home: Bitboard) -> (Bitboard, ByColor<Bitboard>) {
    // Least fixpoint: an original whose every first step is static never moved.
    let mut stuck = ByColor::<Bitboard>::default();
    loop {
        let mut grew = false;
        for color in Color::ALL {
            for sq in Bitboard::from_rank(color.backrank()) & !fixed & !*stuck.get(color) {
                let Some(role) = home_role(color, sq) else {
                    continue;
                };
                if !steps(role, sq).is_subset(fixed) {
                    continue;
                }
                grew = true;
                if at_home.contains(sq) {
                    fixed.add(sq);
                } else {
                    stuck.get_mut(color).add(sq);
                }
            }
        }
        if !grew {
            break;
        }
    }
    (fixed, stuck)
}

/// The squares a unit stood on throughout every game that reaches `pos`: pawns on their start
/// squares, frozen originals, and the originals walled in by them (see `fixed_and_stuck`). No
/// unit ever entered or left them, so they are walls for every move of the game.
#[must_use]
pub fn permanent_squares(pos: &RetroPosition) -> Bitboard {
    fixed_and_stuck(pos, None).0
}

/// [`permanent_squares`], and for each side the home squares of its originals that were walled
/// in the same way (every first step a permanent square) but are gone: each never moved, so it
/// was captured on its home square, by a move of the other side onto it. With `cache` (owned by
/// a search that asks this of many positions), the fixpoint is looked up there first.
#[must_use]
pub fn permanent_squares_and_home_captures(
    pos: &RetroPosition,
    cache: Option<&mut FixedCache>,
) -> (Bitboard, ByColor<Bitboard>) {
    fixed_and_stuck(pos, cache)
}

/// The largest pen (in squares) whose units are reported in [`crate::Analysis::caged`].
pub const CAGE_LIMIT: u32 = 8;

/// Runs the static analysis of `pos`, with `memo` when given (see [`StaticsMemo`]).
#[must_use]
pub(crate) fn analyze_statics(pos: &RetroPosition, memo: Option<&mut StaticsMemo>) -> Statics {
    let board = pos.board();
    let (cache, memo) = match memo {
        Some(m) => {
            // A memo's first analysis is made without its tables: an analyser made for one
            // position then never fills them.
            let warm = std::mem::replace(&mut m.warm, true);
            (
                Some(&mut m.fixed),
                warm.then_some((&mut m.frames, &mut m.units)),
            )
        }
        None => (None, None),
    };
    let (mut fixed, stuck) = fixed_and_stuck(pos, cache);
    let mut out = Statics::default();
    for color in Color::ALL {
        *out.stuck_missing.get_mut(color) = *stuck.get(color);
        *out.died_at_home.get_mut(color) = *stuck.get(color);
        segments(board, color, &mut fixed, &mut out);
    }
    out.never_moved = fixed & board.occupied();
    out.fixed = fixed;
    let key = FrameKey {
        fixed,
        white: fixed & board.white(),
        third: third_rank_pawns(board),
    };
    let frame_hash = key.hash();
    let mut fresh;
    let (frame, units) = match memo {
        Some((frames, units)) => (
            frames.get_or_make(frame_hash, key, || Frame::new(board, fixed)),
            Some(units),
        ),
        None => {
            fresh = Frame::new(board, fixed);
            (&mut fresh, None)
        }
    };
    out.timed = frame.timed;
    for color in Color::ALL {
        pens(board, color, fixed, frame, &mut out);
    }
    let mut units = units;
    for sq in board.occupied() & !board.pawns() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let make = || unit_fate(board, fixed, &frame.promo, &frame.timed, sq, piece);
        let fate = match units.as_deref_mut() {
            Some(units) => {
                let hash = frame_hash ^ (usize::from(sq) as u64) << 8 ^ piece_index(piece);
                *units.get_or_make(hash, (key, sq, piece), make)
            }
            None => make(),
        };
        fate.apply(sq, &mut out);
    }
    out.promoted |= pos.promoted() & board.occupied() & !board.pawns() & !board.kings();
    out
}

/// The pawns on their third rank (white on the third, black on the sixth): with the static
/// squares, all that the pawns of known history ([`timed_pawns`]) and the pawn timing of
/// [`unit_fate`] read of the pawns.
fn third_rank_pawns(board: &Board) -> Bitboard {
    (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Third))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Sixth))
}

/// A number for `piece`, different for each colour and role.
fn piece_index(piece: Piece) -> u64 {
    piece.color as u64 * 8 + piece.role as u64
}

/// What the parts of the analysis kept in a [`StaticsMemo`] read of a position: the static
/// squares, which of them hold white units, and the pawns on their third rank. The units on
/// static squares are pawns on their second rank and originals at home, so with their colours
/// the static squares say which unit stands on each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameKey {
    /// The static squares (after the closed back-rank segments).
    fixed: Bitboard,
    /// The static squares holding white units.
    white: Bitboard,
    /// The pawns on their third rank (see [`third_rank_pawns`]).
    third: Bitboard,
}

impl FrameKey {
    fn hash(&self) -> u64 {
        hash_words(&[
            u64::from(self.fixed),
            u64::from(self.white),
            u64::from(self.third),
        ])
    }
}

/// What follows from a [`FrameKey`] alone: the pawns of known history, the usable promotion
/// squares, and the pens of the originals, each made when first asked.
#[derive(Clone, Debug)]
struct Frame {
    timed: TimedList,
    promo: ByColor<Bitboard>,
    /// [`pen_of`] each home square of the back ranks (white's first), once asked.
    pens: [Option<Option<Bitboard>>; 16],
}

impl Frame {
    /// The frame of `board` with the static squares `fixed`.
    fn new(board: &Board, fixed: Bitboard) -> Frame {
        Frame {
            timed: timed_pawns(board, fixed),
            promo: ByColor::new_with(|c| promotion_squares(c, fixed)),
            pens: [None; 16],
        }
    }

    /// [`pen_of`] the original of `role` on `home` (a back-rank square), made once per frame.
    fn pen(&mut self, role: Role, home: Square, fixed: Bitboard) -> Option<Bitboard> {
        let index = home.file() as usize + if home.rank() == Rank::First { 0 } else { 8 };
        let timed = &self.timed;
        match self.pens.get_mut(index) {
            Some(slot) => *slot.get_or_insert_with(|| pen_of(role, home, fixed, timed)),
            None => pen_of(role, home, fixed, timed),
        }
    }
}

/// The parts of the static analysis that repeat from one position of a search to the next, by
/// what they read: the fixpoint of the static squares ([`FixedCache`]); per [`FrameKey`], the
/// pawns of known history, the promotion squares and the pens; and per [`FrameKey`] and unit
/// (its square, colour and kind), what [`unit_fate`] finds of it. Consecutive positions of a
/// search differ by one move, which leaves the static squares and most units where they were.
/// Owned by an `Analyzer`; each table has a fixed size and is made on first use, the frames and
/// units only from the memo's second analysis on.
#[derive(Clone, Debug, Default)]
pub(crate) struct StaticsMemo {
    fixed: FixedCache,
    frames: DirectMap<FrameKey, Frame, 6>,
    units: DirectMap<(FrameKey, Square, Piece), UnitFate, 11>,
    /// Whether an analysis was made with the memo.
    warm: bool,
}

/// What the walls say of one unit other than a pawn (see [`unit_fate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UnitFate {
    /// It cannot leave a pen of at most [`CAGE_LIMIT`] squares.
    caged: bool,
    /// [`pen_region`] of the unit for a rook, bishop or knight not on a static square; empty
    /// otherwise.
    pen_region: Bitboard,
    /// Whether it can have come from home.
    origin: Origin,
}

/// Where a unit can have come from, as far as the walls tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// From its home square (or the walls do not tell).
    Home,
    /// From none of the promotion squares given, not from home: it was promoted.
    Promoted(Bitboard),
    /// From nowhere, as the wall given shows.
    Unreachable(Wall),
}

impl UnitFate {
    /// Records the fate of the unit on `sq` in `out`.
    fn apply(self, sq: Square, out: &mut Statics) {
        if self.caged {
            out.caged.add(sq);
        }
        out.pen_regions.0[usize::from(sq)] = self.pen_region;
        match self.origin {
            Origin::Home => {}
            Origin::Promoted(from) => {
                out.promoted.add(sq);
                out.promoted_from.0[usize::from(sq)] = from;
            }
            Origin::Unreachable(wall) => {
                out.unreachable.add(sq);
                out.unreachable_why.push((sq, wall));
            }
        }
    }
}

// Long by design: the flood with the pawns' moves cut, the flood without them to name the walls,
// and the promotion squares, in the order the doc says, each needing the regions before.
/// What the walls say of the unit `piece` (not a pawn) on `sq`: whether it is caged, and, when
/// neither its home nor a promotion square can have reached it, that it is unreachable (with the
/// wall that shows it) or promoted (with the promotion squares it can have come from). Reads the
/// board only through the pawns on their third rank and the units on `fixed`.
fn unit_fate(
    board: &Board,
    fixed: Bitboard,
    promo: &ByColor<Bitboard>,
    timed: &TimedList,
    sq: Square,
    Piece { color, role }: Piece,
) -> UnitFate {
    let open = !fixed;
    if fixed.contains(sq) {
        return UnitFate {
            caged: (steps(role, sq) & open).is_empty(),
            pen_region: Bitboard::EMPTY,
            origin: Origin::Home,
        };
    }
    let home = homes(color, role) & open;
    let promotion = if role == Role::King {
        Bitboard::EMPTY
    } else {
        *promo.get(color)
    };
    // Flood with the moves of the pawns of known history cut; only when that fails, flood
    // without them to tell which walls did it.
    let seen = region_cut(role, sq, open, home, TIMING_LIMIT, timed);
    let caged = seen.count() <= CAGE_LIMIT as usize;
    let pen_region = match role {
        // A region this small is whole (the flood stops early only beyond `TIMING_LIMIT`).
        Role::Rook | Role::Bishop | Role::Knight if seen.count() <= TIMING_LIMIT => seen,
        Role::Rook | Role::Bishop | Role::Knight => pen_region(role, sq, fixed, timed),
        _ => Bitboard::EMPTY,
    };
    let mut wall = Wall::Static;
    let mut walls = fixed;
    let mut home_ok = (seen & home).any();
    if !home_ok && timed.iter().next().is_some() {
        let plain = region_cut(role, sq, open, home, TIMING_LIMIT, &NO_CUTS);
        if (plain & home).any() || (plain & promotion & !seen).any() {
            wall = Wall::Cuts;
        }
    }
    let mut seen = seen;
    if role == Role::King && home_ok {
        walls |= always_guarded(board, fixed, timed, color.other());
        seen = region_cut(role, sq, !walls, home, TIMING_LIMIT, timed);
        home_ok = (seen & home).any();
        if !home_ok {
            wall = Wall::Attacks;
        }
    }
    // When the home square is not reached the region is complete, and so is this set.
    let mut promo_ok = seen & promotion;
    if home_ok || promo_ok.any() {
        let king = (role == Role::King).then_some(color);
        let timing = pawn_timing(
            board,
            fixed,
            walls,
            sq,
            role,
            king,
            home,
            &mut home_ok,
            &mut promo_ok,
        );
        if let Some(to) = timing {
            wall = Wall::Timing(to);
        }
    }
    let origin = if home_ok {
        Origin::Home
    } else if promo_ok.is_empty() {
        Origin::Unreachable(wall)
    } else {
        Origin::Promoted(promo_ok)
    };
    UnitFate {
        caged,
        pen_region,
        origin,
    }
}

/// The largest region [`pen_region`] gives whole, in squares.
pub(crate) const PEN_REGION: usize = 24;

/// The squares the unit of `role` on `sq` can ever have visited (through squares not in `fixed`,
/// never along the move of a pawn of `timed`), if they are at most [`PEN_REGION`]; else a part
/// of them larger than that.
pub(crate) fn pen_region(role: Role, sq: Square, fixed: Bitboard, timed: &TimedList) -> Bitboard {
    region_cut(role, sq, !fixed, Bitboard::FULL, PEN_REGION, timed)
}

/// Sharpens `home_ok` and `promo_ok` for the unit `role` on `sq` with the pawns that made one step
/// within two steps of it and can have shut it in; a pawn with several possible origins is tried
/// with each, since the unit's history is one of them. Returns the square of the pawn that rules
/// out every origin, if one does.
#[allow(clippy::too_many_arguments)]
fn pawn_timing(
    board: &Board,
    fixed: Bitboard,
    walls: Bitboard,
    sq: Square,
    role: Role,
    king: Option<Color>,
    home: Bitboard,
    home_ok: &mut bool,
    promo_ok: &mut Bitboard,
) -> Option<Square> {
    let first = dilate(role, Bitboard::from_square(sq));
    let near = first | dilate(role, first & !walls);
    for to in third_rank_pawns(board) {
        let Some((pawn, starts)) = one_step_origins(board, fixed, to) else {
            continue;
        };
        if !near.contains(to) && (near & starts).is_empty() {
            continue;
        }
        let targets = if *home_ok { home } else { Bitboard::EMPTY } | *promo_ok;
        let mut origins = Some(Bitboard::EMPTY);
        for from in starts {
            let t = Timed {
                color: pawn,
                from,
                to,
            };
            let found = timed_back(role, sq, walls, t, king, TIMING_LIMIT, targets);
            origins = origins.zip(found).map(|(acc, o)| acc | o);
        }
        let Some(origins) = origins else {
            continue;
        };
        *home_ok &= (origins & home).any();
        *promo_ok &= origins;
        if !*home_ok && promo_ok.is_empty() {
            return Some(to);
        }
    }
    None
}

// Long by design: the proof above, applied to one segment of the back rank at a time; its steps
// share the segment's counts by role.
/// Closed back-rank segments of `color` (see the module documentation): makes full segments that
/// are in place static (adding them to `fixed`), records the contradictions, and records an
/// original missing from an otherwise full segment as captured at home.
///
/// Proof for a segment `C` (a maximal run of non-static back-rank squares whose neighbours on the
/// second rank are all static, so every square next to `C` is static). At the start `C` is full of
/// `color`'s originals. A unit other than a knight moves by steps (a slider passes every square in
/// between, castling too), so it can neither enter nor leave `C`; a promotion in `C` would need a
/// pawn on a static second-rank square. With no original knight in `C`, the first event touching
/// `C` is a knight capturing an original on its home square (the king is never captured), since
/// before it `C` is full and nothing in it can move. So the units of `C` other than knights are
/// always originals of `C`, and their number never grows. If now there are as many as squares, none
/// was ever captured, `C` was always full and nothing in it moved. If now there is one fewer, exactly
/// one original was captured, and it was the first event: on its home square, by a knight.
fn segments(board: &Board, color: Color, fixed: &mut Bitboard, out: &mut Statics) {
    let back = color.backrank();
    let second = color.relative_rank(Rank::Second);
    let at = |file: u32, rank: Rank| Square::from_coords(File::new(file), rank);
    let mut file = 0u32;
    while file < 8 {
        if fixed.contains(at(file, back)) {
            file += 1;
            continue;
        }
        let lo = file;
        let mut hi = file;
        while hi < 7 && !fixed.contains(at(hi + 1, back)) {
            hi += 1;
        }
        file = hi + 1;
        let closed =
            (lo.saturating_sub(1)..=(hi + 1).min(7)).all(|f| fixed.contains(at(f, second)));
        if !closed {
            continue;
        }
        let segment: Bitboard = (lo..=hi).map(|f| at(f, back)).collect();
        if let Some(wrong) = out_of_order(board, color, segment) {
            out.rearranged.push(Rearranged {
                color,
                segment,
                wrong,
                kind: Rearrangement::Order,
            });
            continue;
        }
        // Originals still to be matched, by role.
        let mut left = ByRole::<u8>::default();
        let mut knights = false;
        for sq in segment {
            if let Some(role) = home_role(color, sq) {
                knights |= role == Role::Knight;
                left[role] += 1;
            }
        }
        if knights {
            continue;
        }
        let mut intruders = Bitboard::EMPTY;
        let mut present = 0;
        for sq in segment & board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            if piece.role == Role::Knight {
                continue;
            }
            let slot = &mut left[piece.role];
            if piece.color != color || *slot == 0 {
                intruders.add(sq);
            } else {
                *slot -= 1;
                present += 1;
            }
        }
        if intruders.any() {
            out.rearranged.push(Rearranged {
                color,
                segment,
                wrong: intruders,
                kind: Rearrangement::Intruders,
            });
            continue;
        }
        let n = segment.count();
        if present == n {
            let wrong: Bitboard = segment
                .into_iter()
                .filter(|&sq| {
                    board.piece_at(sq).map(|p| (p.color, Some(p.role)))
                        != Some((color, home_role(color, sq)))
                })
                .collect();
            if wrong.any() {
                out.rearranged.push(Rearranged {
                    color,
                    segment,
                    wrong,
                    kind: Rearrangement::Moved,
                });
            } else {
                *fixed |= segment;
            }
        } else if present + 1 == n {
            let Some(missing) = left.find(|&c| c == 1) else {
                continue;
            };
            let homes_of: Bitboard = segment
                .into_iter()
                .filter(|&sq| home_role(color, sq) == Some(missing))
                .collect();
            if let Some(sq) = homes_of.single_square() {
                out.died_at_home.get_mut(color).add(sq);
                out.stuck_missing.get_mut(color).add(sq);
                // The capture was made by a knight: a piece.
                out.captured_at_home.get_mut(color).add(sq);
            }
        }
    }
}

/// Two units of `color` other than knights in the closed back-rank segment `segment` standing in
/// the other order than their initial squares, if any (and if it is not the king and a rook after
/// castling).
///
/// Proof: no unit but a knight enters or leaves the segment (see [`segments`]), so its units other
/// than knights are originals of the segment. They move along one rank, and a unit cannot pass
/// another on a rank: a step or a slide needs the squares between empty. Only castling moves a unit
/// past another (the rook over the king, once in a game). Captures only remove units. So any two of
/// them stand in the order of their initial squares, but for the king and one rook. Originals are
/// told apart by their role; a role with two originals in the segment (rooks, bishops) makes the
/// rule give up.
fn out_of_order(board: &Board, color: Color, segment: Bitboard) -> Option<Bitboard> {
    let mut seen = [0u8; 7];
    for sq in segment {
        if let Some(role) = home_role(color, sq) {
            seen[role as usize] += 1;
        }
    }
    // The units of the segment with the home square of their role.
    let units: Vec<(Square, Square, Role)> = (segment & board.by_color(color) & !board.knights())
        .into_iter()
        .filter_map(|sq| {
            let role = board.role_at(sq)?;
            let home = segment
                .into_iter()
                .find(|&h| home_role(color, h) == Some(role))?;
            Some((sq, home, role))
        })
        .collect();
    if units.iter().any(|&(_, _, role)| seen[role as usize] != 1) {
        return None;
    }
    let mut castled = 0;
    let mut wrong = None;
    for (i, &(a, ha, ra)) in units.iter().enumerate() {
        for &(b, hb, rb) in &units[i + 1..] {
            if (a.file() < b.file()) == (ha.file() < hb.file()) {
                continue;
            }
            let roles = [ra, rb];
            if roles.contains(&Role::King) && roles.contains(&Role::Rook) {
                castled += 1;
                if castled == 1 {
                    continue;
                }
            }
            wrong = Some(Bitboard::from_square(a).with(b));
        }
    }
    wrong
}

/// Largest pen searched for originals captured by pieces; larger regions are given up.
const PEN_LIMIT: usize = 16;

/// The squares an original of `role` from `home` can ever have visited, if they are at most
/// [`PEN_LIMIT`]: through non-static squares, and failing that with each pawn of known history
/// timed in turn (the intersection of the pens found, each of which holds every visited square).
fn pen_of(role: Role, home: Square, fixed: Bitboard, timed: &TimedList) -> Option<Bitboard> {
    let home_only = Bitboard::from_square(home);
    let seen = match flood_until(role, home_only, !fixed, timed, Until::Exceeds(PEN_LIMIT)) {
        Ok(pen) => return Some(pen),
        Err(reached) => reached,
    };
    let mut pen: Option<Bitboard> = None;
    let near = seen | dilate(role, seen);
    for t in timed.iter() {
        if !near.contains(t.from) && !near.contains(t.to) {
            continue;
        }
        if let Some(visited) = timed_forward(role, home, fixed, t, PEN_LIMIT) {
            pen = Some(pen.map_or(visited, |p| p & visited));
        }
    }
    pen
}

/// The squares a pawn of `by` can have landed on with a capture, at some moment of the game.
///
/// With all eight pawns of `by` on the board, no pawn of `by` ever left it, so every capture by a
/// pawn was made by one of them on its way to its square: a pawn that never moved made none, a pawn
/// of known history made at most one, on its square, and any other pawn only on squares it can have
/// walked through: `k` ranks behind it, files at most `k` away (not its second rank).
/// With fewer pawns the others may have been anywhere, and every square is returned.
pub(crate) fn pawn_landings(
    board: &Board,
    fixed: Bitboard,
    timed: &TimedList,
    by: Color,
) -> Bitboard {
    let pawns = board.by_piece(by.pawn());
    if pawns.count() < 8 {
        return Bitboard::FULL;
    }
    let mut out = Bitboard::EMPTY;
    for sq in pawns & !fixed {
        if let Some(t) = timed.iter().find(|t| t.to == sq) {
            if t.from.file() != t.to.file() {
                out.add(sq);
            }
            continue;
        }
        let advanced = crate::pawns::advance(by, sq);
        for back in 0..advanced {
            let Some(behind) = sq.offset(-pawn_forward(by) * back) else {
                continue;
            };
            for file in File::ALL {
                if (file as i32 - behind.file() as i32).abs() <= back {
                    out.add(Square::from_coords(file, behind.rank()));
                }
            }
        }
    }
    out
}

/// Pens of `color`'s originals: the squares each original can ever have visited, through non-static
/// squares. If a pen holds fewer units of the kind than originals start in it, the others were
/// captured inside it; if no enemy pawn can ever capture on a square of the pen, pieces made those
/// captures. Kings are never captured and are left out.
fn pens(board: &Board, color: Color, fixed: Bitboard, frame: &mut Frame, out: &mut Statics) {
    let open = !fixed;
    let landings = pawn_landings(board, fixed, &out.timed, color.other());
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        let mut done = Bitboard::EMPTY;
        for home in homes(color, role) & open {
            if done.contains(home) {
                continue;
            }
            let Some(seen) = frame.pen(role, home, fixed) else {
                continue;
            };
            let starts = homes(color, role) & seen;
            done |= starts;
            let units = board.by_piece(Piece { color, role }) & seen;
            let missing = starts.count().saturating_sub(units.count());
            // Name the empty or foreign home squares first.
            let mut gone = Bitboard::EMPTY;
            for sq in (starts & !units).into_iter().chain(starts & units) {
                if gone.count() < missing {
                    gone.add(sq);
                }
            }
            out.stuck_missing.get_mut(color).add(gone);
            let pawn_reach = (seen & landings)
                .into_iter()
                .any(|q| !attacks::pawn_attacks(color, q).is_subset(fixed));
            if !pawn_reach {
                out.captured_at_home.get_mut(color).add(gone);
            }
        }
    }
}

/// One [`ReasonCode::UnreachableSquare`] or [`ReasonCode::KingNoPath`] reason per unreachable
/// unit, and one [`ReasonCode::ClosedRegionRearranged`] per contradictory closed segment.
pub(crate) fn unreachable_reasons(pos: &RetroPosition, statics: &Statics, out: &mut Reasons) {
    let board = pos.board();
    for &(sq, wall) in &statics.unreachable_why {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        if let Some((code, message, squares)) = unreachable_reason(board, statics, sq, piece, wall)
        {
            out.add(code, squares, || message);
        }
    }
    for r in &statics.rearranged {
        out.add(
            ReasonCode::ClosedRegionRearranged,
            r.segment | r.wrong,
            || rearranged_message(r),
        );
    }
}

/// The code, message and squares of a reason.
type ReasonParts = (ReasonCode, String, Bitboard);

// Long by design: one sentence per kind of wall (static units, timed pawns, guarded squares), each
// with its own squares; only text.
/// Why `piece` on `sq` cannot have arrived there, as `wall` found it; `None` if the timing wall
/// cannot be put into words after all.
fn unreachable_reason(
    board: &Board,
    statics: &Statics,
    sq: Square,
    Piece { color, role }: Piece,
    wall: Wall,
) -> Option<ReasonParts> {
    let seen = region_cut(role, sq, !statics.fixed, Bitboard::EMPTY, 64, &NO_CUTS);
    let walls = dilate(role, seen) & statics.never_moved;
    let home = homes(color, role);
    let what = if role == Role::King {
        format!("from its home square {}", squares_text(home))
    } else {
        format!("from {} or from a promotion square", squares_text(home))
    };
    let unit = format!("the {} {} on {sq}", color_adj(color), role_name(role));
    Some(match wall {
        Wall::Static => (
            ReasonCode::UnreachableSquare,
            format!(
                "{unit} cannot have arrived there {what}: units that never moved (on {}) wall \
                 it in",
                squares_text(walls)
            ),
            walls.with(sq),
        ),
        Wall::Attacks => king_no_path(board, statics, sq, color, &unit, &what),
        Wall::Cuts => {
            let pawns: Bitboard = statics.timed.iter().map(|t| t.to).collect();
            let starts: Bitboard = statics.timed.iter().map(|t| t.from).collect();
            (
                ReasonCode::UnreachableSquare,
                format!(
                    "{unit} cannot have arrived there {what}: units that never moved (on {}) \
                     and the pawns on {} wall it in (each came from a single square, {}, in \
                     one move, so no unit ever passed between its two squares)",
                    squares_text(walls),
                    squares_text(pawns),
                    squares_text(starts)
                ),
                walls | pawns | starts | Bitboard::from_square(sq),
            )
        }
        Wall::Timing(to) => {
            let (pawn_color, starts) = one_step_origins(board, statics.fixed, to)?;
            let code = if role == Role::King {
                ReasonCode::KingNoPath
            } else {
                ReasonCode::UnreachableSquare
            };
            (
                code,
                format!(
                    "{unit} cannot have arrived there {what}: the {} pawn on {to} came from \
                     {} in one move, so {} was blocked until that move and {to} after it \
                     (and each attacked by the pawn while it stood there), and with the \
                     units that never moved that shuts every path, whichever square it came \
                     from",
                    color_adj(pawn_color),
                    squares_or(starts),
                    squares_or(starts),
                ),
                starts.with(sq).with(to),
            )
        }
    })
}

/// The king of `color` on `sq` has no way out past the squares the other side's units that never
/// moved attack at every moment.
fn king_no_path(
    board: &Board,
    statics: &Statics,
    sq: Square,
    color: Color,
    unit: &str,
    what: &str,
) -> ReasonParts {
    let by = always_guarded(board, statics.fixed, &statics.timed, color.other());
    let near = region_cut(
        Role::King,
        sq,
        !statics.fixed & !by,
        Bitboard::EMPTY,
        64,
        &statics.timed,
    );
    let guarded = dilate(Role::King, near) & by & !statics.fixed;
    let guards: Bitboard = (statics.fixed & board.by_color(color.other()))
        .into_iter()
        .filter(|&g| {
            board
                .piece_at(g)
                .is_some_and(|p| (attacks::attacks(g, p, Bitboard::FULL) & guarded).any())
        })
        .collect();
    let captors: Vec<Timed> = statics
        .timed
        .iter()
        .filter(|t| t.color != color && t.from.file() != t.to.file() && guarded.contains(t.to))
        .collect();
    let mut squares = guarded | guards | Bitboard::from_square(sq);
    let mut captured = String::new();
    if !captors.is_empty() {
        let list: Vec<String> = captors
            .iter()
            .map(|t| {
                squares.add(t.from);
                format!("{} from {}", t.to, t.from)
            })
            .collect();
        captured = format!(
            ", or that {} pawns reached by a capture in their only move ({}): \
             attacked from their start square before it, occupied after it",
            color_adj(color.other()),
            list.join(", ")
        );
    }
    (
        ReasonCode::KingNoPath,
        format!(
            "{unit} has no path {what}: every way out passes {}, which {} units that \
             never moved (on {}) attack at every moment{captured}, or squares walled \
             by them",
            squares_text(guarded),
            color_adj(color.other()),
            squares_text(guards)
        ),
        squares,
    )
}

/// The sentence for a closed region whose units are not the ones that start there.
fn rearranged_message(r: &Rearranged) -> String {
    if r.kind == Rearrangement::Order {
        format!(
            "no unit but a knight can enter or leave {} (their neighbours never moved), and \
             along a rank no unit passes another (castling only swaps king and rook), yet the \
             units on {} stand in the other order than the squares they started on",
            squares_text(r.segment),
            squares_text(r.wrong)
        )
    } else if r.kind == Rearrangement::Intruders {
        format!(
            "no unit but a knight can enter or leave {} (their neighbours never moved), so only \
             the {} originals of those squares can stand there, but {} cannot be one of them",
            squares_text(r.segment),
            color_adj(r.color),
            squares_text(r.wrong)
        )
    } else {
        format!(
            "{} {} full of {} units that can never have left or entered (their neighbours \
             never moved, and only a knight capturing there could have come in), so nothing on \
             them ever moved, yet the units on {} are not the ones that start there",
            squares_text(r.segment),
            if r.segment.more_than_one() {
                "are"
            } else {
                "is"
            },
            color_adj(r.color),
            squares_text(r.wrong)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_board as board;

    fn fixed_pawns(b: &Board) -> Bitboard {
        (b.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Second))
            | (b.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Seventh))
    }

    /// The pen regions the statics keep for each rook, bishop and knight are the floods the
    /// crowded-pen rule would make, on the positions of random games and the corpora.
    #[test]
    fn kept_pen_regions_are_the_floods() {
        let games = if cfg!(debug_assertions) { 20 } else { 300 };
        let mut positions: Vec<RetroPosition> = (0..games)
            .flat_map(|seed| retrace_testkit::random_game(seed, 120).positions)
            .map(|chess| retrace_testkit::retro_position(&chess))
            .collect();
        positions.extend(
            retrace_testkit::legal_corpus_positions()
                .into_iter()
                .map(|(_, pos)| pos),
        );
        let (mut kept, mut small) = (0, 0);
        for pos in &positions {
            let statics = analyze_statics(pos, None);
            let board = pos.board();
            for sq in board.occupied() & !statics.fixed {
                let Some(role) = board.role_at(sq) else {
                    continue;
                };
                let region = statics.pen_regions.0[usize::from(sq)];
                if !matches!(role, Role::Rook | Role::Bishop | Role::Knight) {
                    assert!(region.is_empty());
                    continue;
                }
                let flood = pen_region(role, sq, statics.fixed, &statics.timed);
                assert_eq!(region, flood, "{} {sq}", pos.fen());
                kept += 1;
                small += usize::from(flood.count() <= PEN_REGION);
            }
        }
        assert!(kept > 1000 && small > 100, "{kept} regions, {small} small");
    }

    #[test]
    fn an_origin_known_for_one_pawn_is_no_other_pawns() {
        // a6 can only come from a7 (b7 never moved), so b6 came from c7, not a7.
        let b = board("2k5/Kp1pp2p/pp5p/8/8/8/8/8 w - - 0 1");
        let timed = timed_pawns(&b, fixed_pawns(&b));
        let from = |to: Square| timed.iter().find(|t| t.to == to).map(|t| t.from);
        assert_eq!(from(Square::A6), Some(Square::A7));
        assert_eq!(from(Square::B6), Some(Square::C7));
        assert_eq!(from(Square::H6), Some(Square::G7));
        // With the a-pawn elsewhere, b6 may have come from a7 or c7: unknown.
        let b = board("2k5/Kp1pp2p/1p5p/p7/8/8/8/8 w - - 0 1");
        let timed = timed_pawns(&b, fixed_pawns(&b));
        assert!(timed.iter().all(|t| t.to != Square::B6));
    }

    #[test]
    fn pawn_captures_land_only_behind_the_pawns_on_the_board() {
        // All eight black pawns on the board: a7..g7 never moved, g6 took on g6 from h7.
        let b = board("rnbqkbnr/ppppppp1/6p1/8/8/8/8/4K3 w - - 0 1");
        let fixed = fixed_pawns(&b);
        let timed = timed_pawns(&b, fixed);
        let landings = pawn_landings(&b, fixed, &timed, Color::Black);
        assert_eq!(landings, Bitboard::from_square(Square::G6));
        // A black pawn on d4 (three ranks down) can have captured on d4, c5, e5 or b6..f6 only.
        let b = board("rnbqkbnr/ppp1pppp/8/8/3p4/8/8/4K3 w - - 0 1");
        let landings = pawn_landings(&b, fixed_pawns(&b), &TimedList::default(), Color::Black);
        assert!(landings.contains(Square::D4) && landings.contains(Square::B6));
        assert!(!landings.contains(Square::A6) && !landings.contains(Square::D3));
        assert!(!landings.contains(Square::C4) && !landings.contains(Square::D7));
        // Seven black pawns: the eighth may have captured anywhere before it left the board.
        let b = board("rnbqkbnr/ppp1pppp/8/8/8/8/8/4K3 w - - 0 1");
        let landings = pawn_landings(&b, fixed_pawns(&b), &TimedList::default(), Color::Black);
        assert_eq!(landings, Bitboard::FULL);
    }

    #[test]
    fn a_king_never_stands_where_an_enemy_pawn_captured_in_its_only_move() {
        let b = board("2k5/Kp1pp2p/pp5p/8/8/8/8/8 w - - 0 1");
        let fixed = fixed_pawns(&b);
        let timed = timed_pawns(&b, fixed);
        let guarded = always_guarded(&b, fixed, &timed, Color::Black);
        // b6 and h6 (captures from c7 and g7), and what b7, d7, e7 and h7 attack.
        for sq in [Square::B6, Square::H6, Square::A6, Square::C6, Square::G6] {
            assert!(guarded.contains(sq), "{sq}");
        }
        // a6 came straight from a7: it is guarded by b7 only, and a5 by nothing.
        assert!(!guarded.contains(Square::A5));
    }
}
