//! The proof-game distance bound: how many moves each side must have made, at least, to bring its
//! units from the initial array to a position.
//!
//! Each unit on the board needs at least the moves of the shortest path of its kind from a start
//! square to its square, and units move one at a time, so the paths add up. Pawns started on
//! distinct files, each change of file a capture ([`retrace_legal::pawn_moves_needed`]). The
//! paths avoid the permanent squares ([`retrace_legal::permanent_squares`]): a pawn on its start
//! square, or an original walled in by them, stood there throughout the game, so no unit ever
//! passed, entered or captured there. Nor did a unit ever get past a pawn that made no capture
//! by moving along its file: the pawn stayed on it, so that takes leaving the file and coming back
//! ([`crate::columns`]). A unit that no start square of its kind reaches (or more units of a kind
//! than start squares) is a promoted pawn, which made at least [`PROMOTION_MOVES`] moves as a
//! pawn, and then, as a piece, at least the moves of the shortest path of its kind from a
//! promotion square to its square (the promotion squares are those no unit stood on throughout
//! the game).
//! Every missing enemy unit was captured by a move of the side, which may be one of those moves;
//! those its pawns on the board did not make were made by its other units, in moves of theirs
//! that may be the ones counted for them, on top of the pawns' moves ([`crate::capture_moves`]).
//!
//! Where the missing units were captured adds to their own side's count: a pawn on the board that
//! changed files captured on the files between, at ranks its advance allows, and what it took
//! stood there, so it had moved there ([`captured_units_moves`]).
//!
//! Castling is the one move that moves two units: it is counted once, as a king move (the king
//! may start from c1 or g1 at the cost of one move), and a rook on d1 or f1 counts as home. Both
//! relax the bound, so it stays a lower bound for any game, castled or not. Neither is granted
//! on a side where a square from the king's start to the rook's is permanent ([`may_castle`]).

use retrace_legal::pawn;
use retrace_unmove::RetroPosition;
use shakmaty::{
    attacks, Bitboard, Board, ByColor, CastlingSide, Color, File, Piece, Rank, Role, Square,
};

use crate::capture_moves::PawnCaptures;
use crate::columns::{Columns, Lanes, LANES};

/// The moves of a promoted unit at least: a pawn needs five to reach the last rank (a double step
/// and four single steps or captures), the promotion being the fifth.
const PROMOTION_MOVES: u32 = 5;

/// The roles of the pieces, each with its start squares in [`STARTS`].
const PIECES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// "Unreachable" in a distance map.
const FAR: u8 = u8::MAX;

/// The start squares of the pieces of one side, each with its shortest-path map: two knights, two
/// bishops, two rooks, the queen, the king.
const STARTS: [(Role, File); 8] = [
    (Role::Knight, File::B),
    (Role::Knight, File::G),
    (Role::Bishop, File::C),
    (Role::Bishop, File::F),
    (Role::Rook, File::A),
    (Role::Rook, File::H),
    (Role::Queen, File::D),
    (Role::King, File::E),
];

/// The roles a pawn promotes to, each with its map from the promotion squares after the maps of
/// [`STARTS`].
const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// For each start of [`STARTS`], the fewest moves its unit needs to each square; then, for each
/// role of [`PROMOTIONS`], the fewest moves a unit of that role promoted on the last rank needs
/// from its promotion square (the pawn's own moves not counted).
type Maps = [[u8; 64]; STARTS.len() + PROMOTIONS.len()];

/// The fewest moves of a unit of `role` from `sources` (each with the moves already spent) to
/// every square, never standing on or passing through `walls`, and keeping its lane on every
/// move along a file the pawn columns divide ([`Lanes`]): to stand there now (`end`, in the lane
/// of the square), and to stand there at some moment (`any`, in any lane).
fn shortest_paths(role: Role, sources: &[(Square, u8)], walls: Bitboard, lanes: &Lanes) -> Paths {
    // A knight or bishop never moves along a file: every lane is open to it.
    let lanes = if matches!(role, Role::Knight | Role::Bishop) {
        &Lanes::OPEN
    } else {
        lanes
    };
    let mut dist = [[FAR; 64]; LANES];
    let mut seen = [Bitboard::EMPTY; LANES];
    let mut frontier = [Bitboard::EMPTY; LANES];
    let mut step = 0u8;
    loop {
        for &(sq, cost) in sources {
            if cost == step {
                for (lane, within) in frontier.iter_mut().zip(lanes.within) {
                    if within.contains(sq) {
                        lane.add(sq);
                    }
                }
            }
        }
        let mut done = true;
        for ((frontier, seen), dist) in frontier.iter_mut().zip(&mut seen).zip(&mut dist) {
            *frontier &= !*seen;
            for sq in *frontier {
                dist[sq.to_usize()] = step;
            }
            *seen |= *frontier;
            done &= frontier.is_empty();
        }
        if done && sources.iter().all(|&(_, cost)| cost <= step) {
            break;
        }
        let mut next = [Bitboard::EMPTY; LANES];
        // The squares reached by a move that is not along a divided file, in any lane.
        let mut across = Bitboard::EMPTY;
        for (lane, &squares) in frontier.iter().enumerate() {
            for sq in squares {
                let reach = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::King => attacks::king_attacks(sq),
                    _ => attacks::attacks(sq, role.of(Color::White), walls),
                };
                if lanes.open.contains(sq) {
                    across |= reach;
                } else {
                    // A move along a divided file keeps the lane; any other enters any lane
                    // its square allows.
                    let along = reach & Bitboard::from_file(sq.file());
                    next[lane] |= along & lanes.within[lane];
                    across |= reach & !along;
                }
            }
        }
        for (next, within) in next.iter_mut().zip(lanes.within) {
            *next |= across & within;
        }
        for ((frontier, next), seen) in frontier.iter_mut().zip(next).zip(seen) {
            *frontier = next & !walls & !seen;
        }
        step += 1;
    }
    // Off the divided files every square is in lane 0.
    let mut paths = Paths {
        end: dist[0],
        any: dist[0],
    };
    for sq in !lanes.open {
        let i = sq.to_usize();
        let mut any = FAR;
        for (dist, end) in dist.iter().zip(lanes.end) {
            any = any.min(dist[i]);
            if end.contains(sq) {
                paths.end[i] = dist[i];
            }
        }
        paths.any[i] = any;
    }
    paths
}

/// A unit's fewest moves to each square (see [`shortest_paths`]).
struct Paths {
    /// To stand there now.
    end: [u8; 64],
    /// To stand there at some moment of the game.
    any: [u8; 64],
}

/// A side's maps (see [`Maps`]), of the paths to where its units stand now and to where they
/// stood at some moment (where the captured ones were taken: in any lane, see [`Lanes`]).
#[derive(Clone, Debug)]
struct SideMaps {
    /// To where the units stand now.
    end: Maps,
    /// To where a unit stood at some moment.
    any: Maps,
}

impl SideMaps {
    /// The maps with `paths` at `index`.
    fn set(&mut self, index: usize, paths: &Paths) {
        self.end[index] = paths.end;
        self.any[index] = paths.any;
    }
}

/// The maps of `color` around the permanent squares `walls` and the columns' `lanes`.
fn maps(color: Color, walls: Bitboard, lanes: &Lanes, promotion: Bitboard) -> SideMaps {
    let mut all = SideMaps {
        end: [[FAR; 64]; STARTS.len() + PROMOTIONS.len()],
        any: [[FAR; 64]; STARTS.len() + PROMOTIONS.len()],
    };
    for (index, paths) in start_maps(color, walls, lanes).iter().enumerate() {
        all.set(index, paths);
    }
    // A pawn promotes on a square of the last rank where no unit stood throughout the game, and
    // on a file a pawn of the side can have reached it by ([`promotion_squares`]).
    let open = promotion & !walls;
    let mut sources = [(Square::A1, 0); 8];
    for (source, sq) in sources.iter_mut().zip(open) {
        *source = (sq, 0);
    }
    let sources = &sources[..open.count()];
    for (index, role) in PROMOTIONS.into_iter().enumerate() {
        all.set(
            STARTS.len() + index,
            &shortest_paths(role, sources, walls, lanes),
        );
    }
    all
}

/// The squares `attacker` attacks throughout every game, for the permanent squares `walls`: a
/// unit on a permanent square of its side's start squares is the original that never moved, and it
/// attacks at least the squares next to it on its lines (a slider's further squares may be
/// shielded at times). No king of the other side ever stood on one of them.
fn attacked_throughout(attacker: Color, walls: Bitboard) -> Bitboard {
    let back = attacker.backrank();
    let mut attacked = Bitboard::EMPTY;
    for sq in walls & Bitboard::from_rank(attacker.relative_rank(Rank::Second)) {
        attacked |= attacks::pawn_attacks(attacker, sq);
    }
    for (role, file) in STARTS {
        let home = Square::from_coords(file, back);
        if walls.contains(home) {
            attacked |= attacks::attacks(home, role.of(attacker), Bitboard::FULL);
        }
    }
    attacked
}

/// The paths of the starts of [`STARTS`] of `color` around the permanent squares `walls` and the
/// columns' `lanes`.
fn start_maps(color: Color, walls: Bitboard, lanes: &Lanes) -> [Paths; STARTS.len()] {
    let rank = color.backrank();
    // A king never stands where an enemy unit that never moved attacks.
    let king_walls = walls | attacked_throughout(color.other(), walls);
    STARTS.map(|(role, file)| {
        let walls = if role == Role::King {
            king_walls
        } else {
            walls
        };
        let home = Square::from_coords(file, rank);
        // A castled rook stands on d1 or f1 at no cost of its own; a castled king on c1 or g1
        // after one move (see the module's note on castling).
        let castled = |side: CastlingSide| match role {
            Role::Rook => Some((Square::from_coords(side.rook_to_file(), rank), 0)),
            Role::King => Some((Square::from_coords(side.king_to_file(), rank), 1)),
            _ => None,
        };
        let side = if file == File::A {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        let mut sources = vec![(home, 0)];
        match role {
            Role::Rook => sources.extend(castled(side)),
            Role::King => {
                sources.extend(castled(CastlingSide::KingSide));
                sources.extend(castled(CastlingSide::QueenSide));
            }
            _ => {}
        }
        sources.retain(|&(sq, cost)| {
            cost == 0 && sq == home
                || [CastlingSide::KingSide, CastlingSide::QueenSide]
                    .into_iter()
                    .any(|side| castled(side) == Some((sq, cost)) && may_castle(color, side, walls))
        });
        shortest_paths(role, &sources, walls, lanes)
    })
}

/// Whether `color` may have castled on `side` in a game whose permanent squares are `walls`:
/// castling moves the king and the rook, so neither stood on its start square throughout, and
/// it needs the squares between them empty, so no unit stood on one of those throughout either.
/// None of the squares from the king's start to the rook's is then permanent.
fn may_castle(color: Color, side: CastlingSide, walls: Bitboard) -> bool {
    let rank = color.backrank();
    let rook = if side == CastlingSide::KingSide {
        File::H
    } else {
        File::A
    };
    let king = File::E;
    let (low, high) = (rook.min(king), rook.max(king));
    let span = Bitboard::from_rank(rank)
        .into_iter()
        .filter(|sq| (low..=high).contains(&sq.file()))
        .collect::<Bitboard>();
    (walls & span).is_empty()
}

/// A cache slot: the permanent squares and the columns, and the maps of both sides around them.
type Slot = Option<(Obstacles, Box<ByColor<SideMaps>>)>;

/// What stands in the way of every path throughout the game: the permanent squares and the pawn
/// columns ([`Columns`]); and where each side's pawns can have promoted
/// ([`promotion_squares`]). The maps depend on nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Obstacles {
    walls: Bitboard,
    columns: Columns,
    promotion: ByColor<Bitboard>,
}

impl Obstacles {
    /// The same with `sq` one more permanent square.
    fn with(self, sq: Square) -> Obstacles {
        Obstacles {
            walls: self.walls.with(sq),
            ..self
        }
    }

    /// A 64-bit digest for a cache slot.
    fn digest(self) -> u64 {
        u64::from(self.walls)
            ^ self.columns.digest()
            ^ u64::from(self.promotion.white).rotate_left(8)
            ^ u64::from(self.promotion.black).rotate_right(8)
    }

    /// The maps of both sides around them.
    fn maps(self) -> ByColor<SideMaps> {
        let lanes = self.columns.lanes();
        ByColor::new_with(|c| maps(c, self.walls, &lanes, *self.promotion.get(c)))
    }
}

/// The squares of the last rank where a pawn of `color` can have promoted in a game that reaches
/// `board`: all of them, unless the side captured nothing (the other side has its sixteen units);
/// `blockers` are the other side's pawns that made no capture ([`Columns`]).
///
/// **Why.** A pawn leaves its file only by capturing. A side that captured nothing kept every
/// pawn on its start file, so each file held one pawn of the side at most all game, and a pawn
/// that promoted did so on its own file, which has no pawn of the side since (no other pawn could
/// enter it). Nor does that file hold an enemy pawn that made no capture: that pawn stayed on the
/// file all game, and two pawns of one file never pass each other while both stay on it. So such
/// a side promoted only on the files where it has no pawn now and the other side has no pawn that
/// never left its file, and its promoted units start their paths there: the knight on f6 of
/// pg-P1068371, promoted by a pawn of a side that took nothing, came from a8 (the b7 pawn never
/// moved), three moves at least, not from e8 or g8, nor from b8 in two.
fn promotion_squares(color: Color, board: &Board, blockers: Bitboard) -> Bitboard {
    let last = Bitboard::from_rank(color.other().backrank());
    if board.by_color(color.other()).count() < 16 {
        return last;
    }
    let pawns = (board.by_color(color) & board.pawns()) | blockers;
    last.into_iter()
        .filter(|sq| (pawns & Bitboard::from_file(sq.file())).is_empty())
        .collect()
}

/// Slots of the cache of maps (a power of two), for the permanent squares of the positions;
/// as many again for those with one piece at home more ([`Bound::within`]), so that these never
/// push the positions' own out. A slot's maps take about 3 KB (both sides, to where the units
/// stand and to where they stood), made on first use: at most 50 MB a search, and a proof game's
/// walls change often enough (the obstacles' walled squares too) that 2,048 slots rebuilt maps
/// for a quarter of its time.
const SLOTS: usize = 1 << 13;

/// The slot of a 64-bit key in a cache of `slots` slots (a power of two).
fn slot_of(key: u64, slots: usize) -> usize {
    // The high bits of a multiplicative hash are its best mixed.
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - slots.trailing_zeros())) as usize
}

/// The slots of a cache, allocated on first use: a search that never asks the bound pays nothing.
fn slots<T: Clone>(cache: &mut Vec<Option<T>>, len: usize) -> &mut [Option<T>] {
    if cache.is_empty() {
        cache.resize(len, None);
    }
    cache
}

/// The maps of the start squares of `role` (in the order of [`STARTS`]).
fn starts_of(maps: &Maps, role: Role) -> &[[u8; 64]] {
    match role {
        Role::Pawn => &[],
        Role::Knight => &maps[0..2],
        Role::Bishop => &maps[2..4],
        Role::Rook => &maps[4..6],
        Role::Queen => &maps[6..7],
        Role::King => &maps[7..8],
    }
}

/// The fewest moves a promoted unit of `role` made to each square, as a pawn and then as a piece
/// from its promotion square; `None` for a king, never promoted.
fn promoted_map(maps: &Maps, role: Role) -> Option<&[u8; 64]> {
    let index = match role {
        Role::Knight => 0,
        Role::Bishop => 1,
        Role::Rook => 2,
        Role::Queen => 3,
        Role::Pawn | Role::King => return None,
    };
    debug_assert_eq!(PROMOTIONS[index], role);
    Some(&maps[STARTS.len() + index])
}

/// The fewest moves the units of `role` on `squares` need, when each start square of the kind
/// supplies at most one of them and the others are promoted, and the unit on `forbidden.1`, if
/// any, did not come from the start numbered `forbidden.0` among those of its kind.
fn role_moves(
    maps: &Maps,
    role: Role,
    squares: Bitboard,
    forbidden: Option<(usize, Square)>,
) -> u32 {
    role_moves_with(maps, role, squares, forbidden, 2)
}

/// [`role_moves`] with at most `originals` of the units coming from start squares (the others
/// promoted).
fn role_moves_with(
    maps: &Maps,
    role: Role,
    squares: Bitboard,
    forbidden: Option<(usize, Square)>,
    originals: usize,
) -> u32 {
    let starts = starts_of(maps, role);
    let from_promotion = promoted_map(maps, role);
    // A promoted unit's moves on `sq`: far beyond any game where none can stand (a king).
    let promoted = |sq: Square| {
        from_promotion.map_or(u32::from(FAR), |map| {
            PROMOTION_MOVES + u32::from(map[sq.to_usize()])
        })
    };
    // The common cases first (this runs for every kind of both sides at every node).
    let Some(first) = squares.first() else {
        return 0;
    };
    if !squares.more_than_one() {
        let nearest = (0..starts.len())
            .filter(|&i| originals > 0 && forbidden != Some((i, first)))
            .map(|i| u32::from(starts[i][first.to_usize()]))
            .min()
            .unwrap_or(u32::MAX);
        return nearest.min(promoted(first));
    }
    // What sending the unit on `sq` from the start numbered `i` saves over promoting it.
    let saving = |i: usize, sq: Square| {
        if forbidden == Some((i, sq)) {
            return 0;
        }
        let promoted = promoted(sq);
        promoted - u32::from(starts[i][sq.to_usize()]).min(promoted)
    };
    let mut best_saving = 0;
    for a in squares.into_iter().filter(|_| originals > 0) {
        for i in 0..starts.len() {
            let from_first = saving(i, a);
            best_saving = best_saving.max(from_first);
            for j in (i + 1..starts.len()).filter(|_| originals > 1) {
                for b in squares.without(a) {
                    best_saving = best_saving.max(from_first + saving(j, b));
                }
            }
        }
    }
    squares.into_iter().map(promoted).sum::<u32>() - best_saving
}

/// The fewest moves `color`'s pieces other than the king on `board` need, for each number `q`
/// of them at least that are promoted units (entry `q`): the least over the ways of spreading
/// the promotions over the kinds.
fn pieces_promoted(maps: &Maps, color: Color, board: &Board) -> [u32; 9] {
    let ours = board.by_color(color);
    // For each kind, the moves with at most `o` originals, for every `o` up to its starts.
    let costs = PROMOTIONS.map(|role| {
        let squares = ours & board.by_role(role);
        let most = starts_of(maps, role).len().min(squares.count());
        let mut by_originals = [u32::from(FAR); 3];
        for (o, cost) in by_originals.iter_mut().enumerate().take(most + 1) {
            *cost = role_moves_with(maps, role, squares, None, o);
        }
        (squares.count(), most, by_originals)
    });
    // By kinds in turn: the least moves for each count of promotions so far (eight or more in
    // the last entry).
    let mut least = [u32::MAX; 9];
    least[0] = 0;
    for (units, most, by_originals) in costs {
        let mut next = [u32::MAX; 9];
        for (so_far, &moves) in least.iter().enumerate().filter(|(_, &m)| m != u32::MAX) {
            for (originals, &cost) in by_originals.iter().enumerate().take(most + 1) {
                let count = (so_far + units - originals).min(8);
                next[count] = next[count].min(moves.saturating_add(cost));
            }
        }
        least = next;
    }
    // At least `q` promotions: the least over the counts from `q` up.
    for q in (0..8).rev() {
        least[q] = least[q].min(least[q + 1]);
    }
    least
}

/// How many promotions `victim` made at least, from where the other side's pawns captured, when
/// `victim` captured nothing (every unit of the other side is on the board).
///
/// Then `victim`'s pawns never left their files: those on the board stand on their start files,
/// and a missing one stayed on its own, one with no pawn of `victim` now, until it was captured
/// or promoted. A pawn of the other side that started on file `g` and stands on file `e` made a
/// capture landing on each file from `g` (excluded) to `e`, whatever else it took, and what it
/// took stood there: on a file where no pawn of `victim` is missing, a piece (an original or a
/// promoted one). If in every assignment of the other side's pawns to start files at least `k`
/// of those landings are on such files, at least `k` of `victim`'s pieces were captured; with
/// the `p` pieces other than the king on the board, `victim` had `p + k` pieces at least, of
/// which seven originals: `k + p - 7` promotions at least.
fn forced_promotions(victim: Color, board: &Board, landings: &mut Vec<Option<LandingSlot>>) -> u32 {
    let enemy = board.by_color(victim.other());
    if enemy.count() < 16 {
        return 0;
    }
    let ours = board.by_color(victim);
    let pieces = (ours & !board.pawns() & !board.kings()).count() as u32;
    let takers = enemy & board.pawns();
    // Each landing is a capture by one of the pawns: too few to reach the count, nothing to ask;
    // and pawns on distinct files may each have stayed on its own, with no landing at all.
    // A landing took a unit of `victim`: no more of them than it misses.
    let lost = 16u32.saturating_sub(ours.count() as u32);
    if pieces + lost.min(takers.count() as u32) <= 7 || pawn::on_distinct_files(takers) {
        return 0;
    }
    let pawns = ours & board.pawns();
    let key = (victim, pawns, takers);
    let slot = slot_of(
        u64::from(pawns) ^ u64::from(takers).rotate_left(29),
        LANDING_SLOTS,
    );
    let cache = slots(landings, LANDING_SLOTS);
    let landed = match cache[slot] {
        Some((k, landed)) if k == key => landed,
        _ => {
            let landed = piece_landings(victim, pawns, takers);
            cache[slot] = Some((key, landed));
            landed
        }
    };
    (landed.min(lost) + pieces).saturating_sub(7)
}

/// Slots of the cache of [`piece_landings`] (a power of two).
const LANDING_SLOTS: usize = 1 << 10;

/// A cache slot of [`piece_landings`]: the victim, its pawns and the other side's, and the count.
type LandingSlot = ((Color, Bitboard, Bitboard), u32);

/// The fewest captures of the other side's pawns on `takers` that landed on files where no pawn
/// of `victim` is missing (its pawns on `pawns` standing on their start files), over every
/// assignment of those pawns to start files (see [`forced_promotions`]).
fn piece_landings(victim: Color, pawns: Bitboard, takers: Bitboard) -> u32 {
    let files_with_pawns = pawns
        .into_iter()
        .fold(0u8, |m, sq| m | 1 << sq.file() as u8);
    let missing_files = !files_with_pawns;
    retrace_legal::min_pawn_assignment(takers, |sq, start| {
        let file = sq.file() as i32;
        let d = (file - start).abs();
        if d > pawn::advance(victim.other(), sq) {
            return None;
        }
        let step = (file - start).signum();
        Some(
            (1..=d)
                .filter(|i| missing_files & 1 << (start + i * step) == 0)
                .count() as u8,
        )
    })
    .unwrap_or(0)
}

/// The moves one unit of a side made, at least, to capture the enemy originals that never moved
/// from `homes` (see [`retrace_legal::permanent_squares_and_home_captures`]): each was taken on
/// its home square, on the side's promotion rank, by a move onto it, of an original piece from
/// its start along the shortest paths of `maps` (around the permanent squares, which never
/// moved), or of a pawn that promoted there or before ([`PROMOTION_MOVES`] at least). Those are
/// moves of the side's units other than its pawns on the board (a pawn on the board never
/// stood on its promotion rank), which its other terms count together, so the bound takes the
/// larger, never the sum.
fn home_capture_moves(maps: &Maps, homes: Bitboard) -> u32 {
    homes
        .into_iter()
        .map(|h| {
            maps[..STARTS.len()]
                .iter()
                .map(|map| u32::from(map[h.to_usize()]))
                .fold(PROMOTION_MOVES, u32::min)
        })
        .max()
        .unwrap_or(0)
}

/// Slots of the cache of pawn moves, per side (a power of two).
const PAWN_SLOTS: usize = 1 << 12;

/// The fewest moves a possibly missing unit of `victim` made to stand on each square (and be
/// captured there), `FAR` where none can: an original piece from its start square along the
/// shortest paths of `maps` (the king is never captured), and, when `pawns_missing`, a pawn down
/// its own file (`w` ranks in `w - 1` moves with the double step). Every original piece is a
/// candidate, whichever is really missing, which only lowers the costs. A pawn that promoted and
/// was captured later made five moves at least, more than a pawn's walk to any square where a
/// pawn captures (its own ranks 2 to 6: at most three moves), so the pawn's cost covers it. An en
/// passant capture takes a pawn on the rank before the capture square, reached in as many moves
/// (a double step or a single one), so the cost of the capture square holds for it too.
fn capture_costs(maps: &Maps, victim: Color, pawns_missing: bool) -> [u8; 64] {
    let mut costs = [FAR; 64];
    for map in &maps[..7] {
        for (cost, &moves) in costs.iter_mut().zip(map) {
            *cost = (*cost).min(moves);
        }
    }
    if pawns_missing {
        for sq in Square::ALL {
            let walked = pawn::advance(victim, sq);
            if walked >= 0 {
                let moves = pawn::walk_moves(walked, 0) as u8;
                let cost = &mut costs[sq.to_usize()];
                *cost = (*cost).min(moves);
            }
        }
    }
    costs
}

/// What the units that the pawn of `capturer` on `sq` captured cost their side, at least, if it
/// started on file `start` (`None` if it cannot have, or if no missing unit can stand where it
/// captured): it changed `d` files by `d` captures, the i-th onto the i-th file from `start`, after
/// at least `i` ranks of advance and with the `d - i` further captures still to come, each taking
/// a different unit whose moves to that square `costs` bounds.
fn pawn_capture_cost(capturer: Color, sq: Square, start: i32, costs: &[u8; 64]) -> Option<u8> {
    let file = sq.file() as i32;
    let d = (file - start).abs();
    let advance = pawn::advance(capturer, sq);
    if d > advance {
        return None;
    }
    let step = (file - start).signum();
    let mut total = 0u32;
    for i in 1..=d {
        let on = File::new((start + i * step) as u32);
        let cheapest = (i..=advance - (d - i))
            .map(|a| {
                let rank = capturer.relative_rank(Rank::new(a as u32 + 1));
                costs[Square::from_coords(on, rank).to_usize()]
            })
            .min()
            .unwrap_or(FAR);
        if cheapest == FAR {
            return None;
        }
        total += u32::from(cheapest);
    }
    // min_pawn_assignment wants small costs; a smaller one is still a lower bound.
    Some(total.min(30) as u8)
}

/// What a side needs, at least, in parts: its pieces' paths, the moves of its units that the
/// other side's pawns captured, the least of both when it must have promoted ([`forced_promotions`];
/// 0 if not), the moves of a unit that took an original at its home ([`home_capture_moves`]), its
/// pawns' moves by their captures, and its captures (each a move, which may be one of those).
#[derive(Clone, Copy, Debug)]
struct Needed {
    pieces: u32,
    captured: u32,
    promoted: u32,
    at_home: u32,
    table: PawnCaptures,
    capture_moves: bool,
    captures: u32,
}

impl Needed {
    /// The moves the side made at least, with `extra` moves of its pieces besides their paths
    /// (which may be its captures, and the moves of the unit that took an original at home).
    fn total(self, extra: u32) -> u32 {
        let rest = self
            .pieces
            .saturating_add(self.captured)
            .max(self.promoted)
            .saturating_add(extra)
            .max(self.at_home);
        let pawns = self.table.fewest().unwrap_or(u32::from(FAR));
        let moves = match self.table.moves_with(rest, self.captures) {
            Some(moves) if self.capture_moves => moves,
            _ => pawns.saturating_add(rest),
        };
        moves.max(self.captures)
    }

    /// The same with the pieces' paths `pieces` (at least those counted: a wall or a pairing
    /// forbidden only lengthens them, so the other terms still hold).
    fn with_pieces(self, pieces: u32) -> Needed {
        Needed { pieces, ..self }
    }
}

/// The fewest moves a unit of `role` needs from `from` to `to` on an empty board, a lower bound
/// on its moves between them around any walls.
pub(crate) fn fewest_moves(role: Role, from: Square, to: Square) -> u32 {
    if from == to {
        return 0;
    }
    let (files, ranks) = (
        from.file().distance(to.file()),
        from.rank().distance(to.rank()),
    );
    match role {
        Role::King => files.max(ranks),
        Role::Rook => 1 + u32::from(files != 0 && ranks != 0),
        Role::Queen => 1 + u32::from(files != 0 && ranks != 0 && files != ranks),
        Role::Bishop if files % 2 != ranks % 2 => u32::MAX,
        Role::Bishop => 1 + u32::from(files != ranks),
        // A knight covers at most two files and two ranks, three in all, a move.
        Role::Knight => files
            .max(ranks)
            .div_ceil(2)
            .max((files + ranks).div_ceil(3)),
        Role::Pawn => 0,
    }
}

/// Whether walling `home` (its unit `unit` never moved) can lengthen a path the bound counts:
/// some shortest path of a map of a piece on the board from where it may have started to where
/// it stands leads through `home`, or for the other side's king, through a square that `unit`
/// attacks. If not, the bound with the wall is the bound without it.
fn crosses_a_path(maps: &ByColor<SideMaps>, board: &Board, home: Square, unit: Piece) -> bool {
    let attacked = attacks::attacks(home, unit, Bitboard::FULL);
    board.occupied().without(home).into_iter().any(|to| {
        let Some(piece) = board.piece_at(to) else {
            return false;
        };
        if piece.role == Role::Pawn {
            return false;
        }
        let squares = if piece.role == Role::King && piece.color != unit.color {
            attacked.with(home)
        } else {
            Bitboard::from_square(home)
        };
        let maps = maps.get(piece.color);
        let ends = starts_of(&maps.end, piece.role)
            .iter()
            .chain(promoted_map(&maps.end, piece.role));
        let anys = starts_of(&maps.any, piece.role)
            .iter()
            .chain(promoted_map(&maps.any, piece.role));
        ends.zip(anys).any(|(end, any)| {
            squares
                .into_iter()
                .any(|sq| leads_through(any, end, piece.role, sq, to))
        })
    })
}

/// Whether a shortest path of a unit of `role` to stand on `to` now (its map `end`) can lead
/// through `sq` (its map `any`: the unit passed there at some moment).
fn leads_through(any: &[u8; 64], end: &[u8; 64], role: Role, sq: Square, to: Square) -> bool {
    let (at, there) = (any[sq.to_usize()], end[to.to_usize()]);
    there != FAR
        && at != FAR
        && u32::from(at).saturating_add(fewest_moves(role, sq, to)) <= u32::from(there)
}

/// The fewest moves `color`'s pieces on `board` need along `maps` ([`role_moves`] for each
/// kind).
fn pieces_moves(maps: &Maps, color: Color, board: &Board) -> u32 {
    let ours = board.by_color(color);
    PIECES
        .into_iter()
        .map(|role| role_moves(maps, role, ours & board.by_role(role), None))
        .fold(0u32, u32::saturating_add)
}

/// Slots of the cache of the pawns that made no capture (a power of two).
const STRAIGHT_SLOTS: usize = 1 << 11;

/// A slot of the cache of the pawns that made no capture: the side, its pawns and the units the
/// other side misses, and those pawns.
type StraightSlot = ((Color, Bitboard, u32), Bitboard);

/// Slots of the cache of capture-square terms (a power of two).
const CAPTURE_SLOTS: usize = 1 << 10;

/// A capture-square term with its key: the capturing side, its pawns, the permanent squares, and
/// what of the victim is missing (any unit, a pawn).
type CaptureSlot = ((Color, Bitboard, Obstacles, bool, bool), u32);

/// The proof-game distance bound with its caches: the maps for the permanent squares seen lately,
/// the moves of the pawn structures and the capture-square terms. They change far less often than
/// positions in a search, so the search that owns the bound keeps it for its whole tree; each
/// cache is a direct-mapped table of fixed size (a miss only recomputes), allocated on first use.
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    /// Whether the bound counts where the captured units were taken ([`Bound::captured_units_moves`]).
    capture_squares: bool,
    /// Whether the captures the pawns on the board did not make are counted as moves of the rest
    /// ([`crate::capture_moves`]).
    capture_moves: bool,
    /// Whether the paths go around the pawn columns ([`Columns`]).
    columns: bool,
    /// Whether [`Bound::within`] weighs the capture detours ([`crate::detours`]).
    detours: bool,
    /// Whether a side that captured nothing promotes only on its files without a pawn
    /// ([`promotion_squares`]).
    promotion_files: bool,
    maps: Vec<Slot>,
    /// The moves of the pawns of each side by their captures, White's slots first.
    pawns: Vec<Option<(Bitboard, PawnCaptures)>>,
    captures: Vec<Option<CaptureSlot>>,
    /// The captures landed where only pieces stood ([`forced_promotions`]), per side.
    landings: Vec<Option<LandingSlot>>,
    /// The pawns that made no capture, by side, pawns and captures made
    /// ([`crate::capture_moves::straight`]).
    straight: Vec<Option<StraightSlot>>,
    /// The permanent squares of recent positions, by what they read of a position (which changes
    /// far less often than the position along a search).
    permanent: retrace_legal::FixedCache,
    /// The pieces' paths ([`pieces_moves`]) by side, the squares of its pieces of each kind and
    /// the obstacles: along a search most moves leave a side's pieces where they were.
    pieces: Vec<Option<PiecesSlot>>,
}

/// Slots of the cache of the pieces' paths (a power of two).
const PIECES_SLOTS: usize = 1 << 12;

/// A slot of the cache of the pieces' paths: the side, the squares of its knights, bishops, rooks,
/// queens and king, and the obstacles; and the moves.
type PiecesSlot = ((Color, [Bitboard; 5], Obstacles), u32);

impl Bound {
    /// The bound, with or without the capture-square term (on in use; off only to measure it).
    pub(crate) fn new(capture_squares: bool) -> Bound {
        Bound {
            capture_squares,
            capture_moves: true,
            columns: true,
            detours: true,
            promotion_files: true,
            maps: Vec::new(),
            pawns: Vec::new(),
            captures: Vec::new(),
            landings: Vec::new(),
            straight: Vec::new(),
            permanent: retrace_legal::FixedCache::default(),
            pieces: Vec::new(),
        }
    }

    /// The bound without the captures counted as moves ([`crate::capture_moves`]), to measure it.
    #[cfg(test)]
    pub(crate) fn without_capture_moves(mut self) -> Bound {
        self.capture_moves = false;
        self
    }

    /// The bound without the capture detours ([`crate::detours`]), to measure them.
    #[cfg(test)]
    pub(crate) fn without_detours(mut self) -> Bound {
        self.detours = false;
        self
    }

    /// The bound without the pawn columns ([`Columns`]), to measure them.
    #[cfg(test)]
    pub(crate) fn without_columns(mut self) -> Bound {
        self.columns = false;
        self
    }

    /// The bound with every promotion square open to both sides ([`promotion_squares`]), to
    /// measure the term.
    #[cfg(test)]
    pub(crate) fn without_promotion_files(mut self) -> Bound {
        self.promotion_files = false;
        self
    }

    /// A lower bound on the moves each side made to bring its units from the initial array to
    /// `pos` (see the module's documentation). The search asks [`Bound::within`], which adds
    /// the obstacles at home where they can matter.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn moves_needed(&mut self, pos: &RetroPosition) -> ByColor<u32> {
        let (obstacles, homes) = self.obstacles(pos);
        ByColor::new_with(|color| {
            self.needed(pos, obstacles, *homes.get(color.other()), color)
                .total(0)
        })
    }

    /// Whether each side can have brought its units from the initial array to `pos` within
    /// `budget` moves: [`Bound::moves_needed`], and where a side has less than two moves to
    /// spare, its pieces standing on their start squares as obstacles.
    ///
    /// # Obstacles at home
    ///
    /// Let `O` be the original unit of a side that starts on `s`, and stand on `s` now, with
    /// `s` not among the permanent squares. One of three holds:
    /// 1. `O` never moved: then `s` was occupied by it throughout, no unit of either side
    ///    passed, entered or captured on `s`, and the bound computed with `s` as one more
    ///    permanent square holds for both sides;
    /// 2. `O` moved and stands on `s` again: it left and came back, two moves the bound does not
    ///    count for it (it counts `O` at home for nothing), one for a rook, which may have left
    ///    by castling, a king's move in the count;
    /// 3. `O` moved and another unit of its kind stands on `s`: no unit on the board came from
    ///    `s` to where it stands but `O`, which is elsewhere or was captured, so the bound with the
    ///    unit on `s` not from `s` holds (its promotion or the other start of its kind).
    ///
    /// So the side needs at least the least of the three, whichever case the game took.
    #[must_use]
    pub(crate) fn within(&mut self, pos: &RetroPosition, budget: ByColor<u32>) -> bool {
        // A side never has more than sixteen units, nor more than eight pawns: the search meets
        // such boards (a capture retracted from a side with all its units) before the pruner.
        let board = pos.board();
        if Color::ALL.into_iter().any(|color| {
            let ours = board.by_color(color);
            ours.count() > 16 || (ours & board.pawns()).count() > 8
        }) {
            return false;
        }
        let (obstacles, homes) = self.obstacles(pos);
        let walls = obstacles.walls;
        let needed = ByColor::new_with(|color| {
            self.needed(pos, obstacles, *homes.get(color.other()), color)
        });
        if Color::ALL
            .into_iter()
            .any(|color| needed.get(color).total(0) > *budget.get(color))
        {
            return false;
        }
        if !Color::ALL
            .into_iter()
            .all(|color| self.detour_fits(board, obstacles, &needed, budget, color))
        {
            return false;
        }
        Color::ALL.into_iter().all(|color| {
            let (ours, budget_left) = (*needed.get(color), *budget.get(color));
            if ours.total(2) <= budget_left {
                return true;
            }
            let rank = color.backrank();
            STARTS.iter().enumerate().all(|(index, &(role, file))| {
                let home = Square::from_coords(file, rank);
                if walls.contains(home) || board.piece_at(home) != Some(role.of(color)) {
                    return true;
                }
                // (The captures the side made may be moves of that trip: it is added to the moves
                // of the paths, not to the captures.)
                let back = if role == Role::Rook { 1 } else { 2 };
                if ours.total(back) <= budget_left {
                    return true;
                }
                // Another unit of its kind stands there: only the pieces' paths change.
                let of_kind = index - STARTS.iter().position(|&(r, _)| r == role).unwrap_or(0);
                let maps = self.maps_for(obstacles, 0);
                // Only the paths of its kind change.
                let kind = board.by_color(color) & board.by_role(role);
                let swapped = ours.pieces - role_moves(&maps.get(color).end, role, kind, None)
                    + role_moves(&maps.get(color).end, role, kind, Some((of_kind, home)));
                let on_a_path = crosses_a_path(&maps, board, home, role.of(color));
                self.put_back(obstacles, 0, maps);
                if ours.with_pieces(swapped).total(0) <= budget_left || !on_a_path {
                    return true;
                }
                // The unit never moved: a wall for both sides' paths. (The rest of the bound,
                // the pawns and the captured units, stays as it was without the wall: it can
                // only grow with one.)
                let walled = obstacles.with(home);
                let maps = self.maps_for(walled, 1);
                let fits = Color::ALL.into_iter().all(|c| {
                    let pieces = pieces_moves(&maps.get(c).end, c, board);
                    needed.get(c).with_pieces(pieces).total(0) <= *budget.get(c)
                });
                self.put_back(walled, 1, maps);
                fits
            })
        })
    }

    /// The obstacles of `pos`, with the home squares where originals were taken: its permanent
    /// squares and, unless the columns are off, the columns of its pawns that made no capture
    /// (from the cache of [`crate::capture_moves::straight`]).
    fn obstacles(&mut self, pos: &RetroPosition) -> (Obstacles, ByColor<Bitboard>) {
        let (walls, homes) =
            retrace_legal::permanent_squares_and_home_captures(pos, Some(&mut self.permanent));
        let board = pos.board();
        let columns = if self.columns {
            let cache = slots(&mut self.straight, STRAIGHT_SLOTS);
            Columns::new(ByColor::new_with(|color| {
                let pawns = board.by_color(color) & board.pawns();
                let captures = 16u32.saturating_sub(board.by_color(color.other()).count() as u32);
                if captures == 0 {
                    return pawns;
                }
                let key = (color, pawns, captures);
                let slot = slot_of(
                    u64::from(pawns) ^ u64::from(captures) << 1 ^ u64::from(color.is_white()),
                    STRAIGHT_SLOTS,
                );
                match cache[slot] {
                    Some((k, straight)) if k == key => straight,
                    _ => {
                        let straight = crate::capture_moves::straight(color, pawns, captures);
                        cache[slot] = Some((key, straight));
                        straight
                    }
                }
            }))
        } else {
            Columns::default()
        };
        let promotion = ByColor::new_with(|color| {
            if self.promotion_files {
                promotion_squares(color, board, columns.pawns(color.other()))
            } else {
                Bitboard::from_rank(color.other().backrank())
            }
        });
        (
            Obstacles {
                walls,
                columns,
                promotion,
            },
            homes,
        )
    }

    /// Whether `capturer`'s pieces can have made the captures of the other side's pawns confined
    /// to their files within its budget ([`crate::detours`]), when all its captures were made by
    /// its pieces, all originals: its sixteen units on the board, eight pawns, and its pawns took
    /// nothing. (Its paths are the pieces' part of `needed`; the trip is added to them, so the
    /// captures counted as moves may be moves of the trip.)
    fn detour_fits(
        &mut self,
        board: &Board,
        obstacles: Obstacles,
        needed: &ByColor<Needed>,
        budget: ByColor<u32>,
        capturer: Color,
    ) -> bool {
        let ours = board.by_color(capturer);
        let victims = board.by_color(capturer.other()).count();
        let ours_needed = *needed.get(capturer);
        if !self.detours
            || !self.capture_moves
            || ours.count() != 16
            || (ours & board.pawns()).count() != 8
            || victims == 16
            || !ours_needed.table.took_none(16 - victims as u32)
        {
            return true;
        }
        let spare = budget
            .get(capturer.other())
            .saturating_sub(needed.get(capturer.other()).total(0));
        let maps = self.maps_for(obstacles, 0);
        let paths = maps.get(capturer);
        let starts: [crate::detours::Start<'_>; STARTS.len()] =
            std::array::from_fn(|i| crate::detours::Start {
                role: STARTS[i].0,
                any: &paths.any[i],
                end: &paths.end[i],
            });
        let detour =
            crate::detours::capture_detour(capturer, board, obstacles.walls, &starts, spare);
        self.put_back(obstacles, 0, maps);
        detour.is_some_and(|detour| {
            ours_needed
                .with_pieces(ours_needed.pieces.saturating_add(detour))
                .total(0)
                <= *budget.get(capturer)
        })
    }

    /// The maps around the obstacles `key`, from the cache's `region` (0 for the
    /// positions' own, 1 for those with a piece at home walled) or made (give them back with
    /// [`Bound::put_back`]).
    fn maps_for(&mut self, key: Obstacles, region: usize) -> Box<ByColor<SideMaps>> {
        let slot = region * SLOTS + slot_of(key.digest(), SLOTS);
        match slots(&mut self.maps, 2 * SLOTS)[slot].take() {
            Some((k, maps)) if k == key => maps,
            _ => Box::new(key.maps()),
        }
    }

    /// Keeps `maps`, the maps around `key`, in the cache's `region`.
    fn put_back(&mut self, key: Obstacles, region: usize, maps: Box<ByColor<SideMaps>>) {
        self.maps[region * SLOTS + slot_of(key.digest(), SLOTS)] = Some((key, maps));
    }

    /// The bound of `color` around the `obstacles`, in its parts, `homes` the
    /// home squares where originals of the other side were taken.
    fn needed(
        &mut self,
        pos: &RetroPosition,
        obstacles: Obstacles,
        homes: Bitboard,
        color: Color,
    ) -> Needed {
        let board = pos.board();
        let maps = self.maps_for(obstacles, 0);
        let ours = board.by_color(color);
        let units = PIECES.map(|role| ours & board.by_role(role));
        let key = (color, units, obstacles);
        let slot = slot_of(
            units
                .iter()
                .fold(obstacles.digest() ^ u64::from(color.is_white()), |h, &b| {
                    h.rotate_left(13) ^ u64::from(b)
                }),
            PIECES_SLOTS,
        );
        let cache = slots(&mut self.pieces, PIECES_SLOTS);
        let pieces = match cache[slot] {
            Some((k, moves)) if k == key => moves,
            _ => {
                let moves = pieces_moves(&maps.get(color).end, color, board);
                cache[slot] = Some((key, moves));
                moves
            }
        };
        let table = self.pawn_captures(color, ours & board.pawns());
        let captured = if self.capture_squares {
            let missing = (ours.count() < 16, (ours & board.pawns()).count() < 8);
            let enemy_pawns = board.by_color(color.other()) & board.pawns();
            self.captured_units_moves(
                color.other(),
                enemy_pawns,
                obstacles,
                &maps.get(color).any,
                missing,
            )
        } else {
            0
        };
        let at_home = if self.capture_moves {
            home_capture_moves(&maps.get(color).end, homes)
        } else {
            0
        };
        let promotions = forced_promotions(color, board, &mut self.landings);
        let mut promoted = 0;
        if promotions > 0 {
            // Each promotion's unit is on the board (its path from a promotion square counted
            // with the pieces) or was captured since, after five moves as a pawn at least: the
            // captured units' moves are then at least those, as well as `captured`.
            let king = role_moves(&maps.get(color).end, Role::King, ours & board.kings(), None);
            let least = pieces_promoted(&maps.get(color).end, color, board);
            promoted = (0..=promotions.min(8))
                .map(|gone| {
                    least[(promotions - gone) as usize]
                        .saturating_add(king)
                        .saturating_add(captured.max(PROMOTION_MOVES * gone))
                })
                .min()
                .unwrap_or(0);
        }
        self.put_back(obstacles, 0, maps);
        Needed {
            pieces,
            captured,
            promoted,
            at_home,
            table,
            capture_moves: self.capture_moves,
            captures: 16u32.saturating_sub(board.by_color(color.other()).count() as u32),
        }
    }

    /// The fewest moves `color`'s pawns on `pawns` made by the captures they made
    /// ([`PawnCaptures`]; with none required, [`retrace_legal::pawn_moves_needed`]).
    fn pawn_captures(&mut self, color: Color, pawns: Bitboard) -> PawnCaptures {
        let slot =
            slot_of(u64::from(pawns), PAWN_SLOTS) + if color.is_white() { 0 } else { PAWN_SLOTS };
        let cache = slots(&mut self.pawns, 2 * PAWN_SLOTS);
        match cache[slot] {
            Some((key, table)) if key == pawns => table,
            _ => {
                let table = PawnCaptures::new(color, pawns);
                cache[slot] = Some((pawns, table));
                table
            }
        }
    }

    /// The moves the units of `capturer`'s enemy that `capturer`'s pawns on `pawns` captured made
    /// before being captured, at least, over every assignment of the pawns to start files
    /// ([`retrace_legal::min_pawn_assignment`]); `victim_maps` are the enemy's shortest paths
    /// around the permanent squares. Zero when no two pawns share a file (each may have come
    /// straight), far beyond any game when no assignment leaves a missing unit for each capture.
    ///
    /// A lower bound: each capture took a distinct unit that is not on the board, so its moves
    /// are counted nowhere else, and it had moved to the capture square, at least as many moves
    /// as the cheapest candidate's there.
    fn captured_units_moves(
        &mut self,
        capturer: Color,
        pawns: Bitboard,
        obstacles: Obstacles,
        victim_maps: &Maps,
        missing: (bool, bool),
    ) -> u32 {
        if pawn::on_distinct_files(pawns) {
            return 0;
        }
        let key = (capturer, pawns, obstacles, missing.0, missing.1);
        let slot = slot_of(
            u64::from(pawns) ^ obstacles.digest().rotate_left(17),
            CAPTURE_SLOTS,
        );
        let cache = slots(&mut self.captures, CAPTURE_SLOTS);
        match cache[slot] {
            Some((k, moves)) if k == key => moves,
            _ => {
                let moves = if missing.0 {
                    let costs = capture_costs(victim_maps, capturer.other(), missing.1);
                    retrace_legal::min_pawn_assignment(pawns, |sq, start| {
                        pawn_capture_cost(capturer, sq, start, &costs)
                    })
                    .unwrap_or(u32::from(FAR))
                } else {
                    // Nothing to capture: the pawn structure that needs captures is impossible.
                    u32::from(FAR)
                };
                cache[slot] = Some((key, moves));
                moves
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrace_testkit::{random_game, replay_score, retro_position};
    use shakmaty::{Chess, Move, Position};

    /// The maps of `color` around `walls` alone, with no pawn column and every promotion square.
    fn open_maps(color: Color, walls: Bitboard) -> Maps {
        let last = Bitboard::from_rank(color.other().backrank());
        maps(color, walls, &Columns::default().lanes(), last).end
    }

    fn needed(fen: &str) -> ByColor<u32> {
        moves_needed(&RetroPosition::from_fen(fen).expect("FEN"))
    }

    /// The bound with its capture-square term, from a fresh cache.
    fn moves_needed(pos: &RetroPosition) -> ByColor<u32> {
        Bound::new(true).moves_needed(pos)
    }

    /// The bound without the capture-square term.
    fn moves_needed_with(pos: &RetroPosition, capture_squares: bool) -> ByColor<u32> {
        Bound::new(capture_squares).moves_needed(pos)
    }

    /// The bound holds in real games: after `n` plies White has made `ceil(n/2)` moves and Black
    /// `floor(n/2)`, and neither may need more. The games are biased toward castling, promotions
    /// and en passant, the moves that bend the simple count; their positions keep the castling
    /// rights they hold, which freeze king and rook (permanent squares).
    #[test]
    fn moves_needed_never_exceeds_the_moves_played() {
        let (mut castled, mut promoted, mut walled) = (0, 0, 0);
        let (mut checked, mut tightened, mut obstacles) = (0, 0, 0);
        let (mut with, mut without) = (Bound::new(true), Bound::new(false));
        let (mut raised, mut plain) = (0, Bound::new(true).without_capture_moves());
        let mut at_home = 0;
        let (mut columned, mut open) = (0, Bound::new(true).without_columns());
        for seed in 0..4_000 {
            let game = random_game(seed, 80);
            castled += game
                .moves
                .iter()
                .filter(|m| matches!(m, Move::Castle { .. }))
                .count();
            promoted += game.moves.iter().filter(|m| m.is_promotion()).count();
            for (ply, pos) in game.positions.iter().enumerate() {
                let ply = ply as u32;
                let retro = retro_position(pos);
                let bound = with.moves_needed(&retro);
                let (white, black) = (ply.div_ceil(2), ply / 2);
                assert!(
                    bound.white <= white && bound.black <= black,
                    "seed {seed}, ply {ply}: {} needs {bound:?} moves, {white} and {black} played",
                    retro.fen()
                );
                let played = ByColor { white, black };
                assert!(
                    with.within(&retro, played),
                    "seed {seed}, ply {ply}: {} out of reach with the obstacles at home",
                    retro.fen()
                );
                // The obstacles at home raise the bound where the bound alone is met exactly.
                obstacles += usize::from(!with.within(&retro, bound));
                let walls = retrace_legal::permanent_squares(&retro);
                walled += usize::from((walls & !pos.board().pawns()).any());
                tightened += usize::from(bound != without.moves_needed(&retro));
                raised += usize::from(bound != plain.moves_needed(&retro));
                columned += usize::from(bound != open.moves_needed(&retro));
                let (_, homes) = retrace_legal::permanent_squares_and_home_captures(&retro, None);
                at_home += usize::from(homes.white.any() || homes.black.any());
                checked += 1;
            }
        }
        assert!(castled > 1_000, "the games castled only {castled} times");
        assert!(promoted > 1_000, "the games promoted only {promoted} times");
        assert!(walled > 1_000, "only {walled} positions had walled pieces");
        // Where the captured units were taken raises the bound often enough to be tested here.
        assert!(
            tightened > 1_000,
            "the capture squares raised the bound only {tightened} times"
        );
        assert!(
            obstacles > 1_000,
            "the obstacles at home raised the bound only {obstacles} times"
        );
        // So do the captures the pawns did not make.
        eprintln!(
            "{checked} positions: capture squares raised {tightened}, captures as moves \
             {raised}, pawn columns {columned}; {at_home} with an original taken at home"
        );
        assert!(at_home > 100, "only {at_home} originals taken at home");
        assert!(
            raised > 1_000,
            "the captures as moves raised the bound only {raised} times"
        );
        assert!(checked > 100_000);
        // (The pawn columns need a side that captured nothing: they are tested on quiet games.)
        assert!(columned > 0, "the pawn columns never raised the bound");
    }

    /// Games with few captures and many rook, queen and king moves, where the pawn columns
    /// ([`Columns`]) stand in the way of the units moving along their files: along each, the
    /// bound with them never exceeds the moves played, and they raise it often. (King moves
    /// favoured found a detour counted against the wrong lane's path, see
    /// `a_capture_detour_is_counted_against_the_path_the_bound_counts`.)
    #[test]
    fn the_pawn_columns_hold_along_quiet_games() {
        let weight = |pos: &Chess, m: Move| match m {
            _ if m.is_capture() => 1,
            Move::Normal {
                role: Role::Rook | Role::Queen | Role::King,
                ..
            } => 20,
            Move::Normal {
                role: Role::Pawn, ..
            } => 10 + 10 * u32::from(pos.turn().relative_rank(m.to().rank()) > Rank::Fourth),
            _ => 4,
        };
        let (mut with, mut open) = (Bound::new(true), Bound::new(true).without_columns());
        let mut direct = Bound::new(true).without_detours();
        let (mut checked, mut columned, mut detoured) = (0, 0, 0);
        for seed in 0..1_500 {
            let game = retrace_testkit::random_game_with(seed, 70, weight);
            let mut seen = Vec::new();
            holds_along(
                &mut with,
                &game,
                0,
                &format!("seed {seed}"),
                |retro, bound| {
                    columned += usize::from(bound != open.moves_needed(retro));
                    seen.push((retro.clone(), bound));
                    checked += 1;
                },
            );
            // The capture detours: where they, and they alone, put a position out of reach at
            // its own bound.
            for (retro, bound) in seen {
                detoured +=
                    usize::from(direct.within(&retro, bound) && !with.within(&retro, bound));
            }
        }
        eprintln!(
            "{checked} positions, the pawn columns raised the bound in {columned}, the capture \
             detours cut {detoured}"
        );
        assert!(
            detoured > 100,
            "the capture detours cut only {detoured} times"
        );
        assert!(
            columned > 1_000,
            "the columns raised the bound only {columned} times"
        );
    }

    /// Asserts that along `game`, from ply `first` on, `bound` never exceeds the moves played and
    /// [`Bound::within`] holds at them; `each` sees every position with its bound.
    fn holds_along(
        bound: &mut Bound,
        game: &retrace_testkit::Game,
        first: usize,
        label: &str,
        mut each: impl FnMut(&RetroPosition, ByColor<u32>),
    ) {
        for (ply, pos) in game.positions.iter().enumerate().skip(first) {
            let ply = ply as u32;
            let retro = retro_position(pos);
            let needed = bound.moves_needed(&retro);
            let played = ByColor {
                white: ply.div_ceil(2),
                black: ply / 2,
            };
            assert!(
                needed.white <= played.white && needed.black <= played.black,
                "{label} after {ply} plies: {} needs {needed:?}",
                retro.fen()
            );
            assert!(
                bound.within(&retro, played),
                "{label} after {ply} plies: {} out of reach with the obstacles at home",
                retro.fen()
            );
            each(&retro, needed);
        }
    }

    /// The published proof games of the corpus are games rich in what bends the count (promoted
    /// units back home, long king walks, castling): along each, the bound never exceeds the
    /// moves played.
    #[test]
    fn moves_needed_holds_along_the_published_proof_games() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../positions/corpora/published-problems.jsonl"
        );
        let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
        let (mut positions, mut promoted_on_files) = (0, 0);
        let mut owned = Bound::new(true);
        let mut anywhere = Bound::new(true).without_promotion_files();
        for line in text.lines().filter(|l| l.contains("\"proof_game\"")) {
            let problem: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let answer = problem["answer"].as_str().expect("answer");
            let game = replay_score(answer);
            let id = problem["id"].to_string();
            holds_along(&mut owned, &game, 1, &id, |retro, bound| {
                positions += 1;
                promoted_on_files += usize::from(bound != anywhere.moves_needed(retro));
            });
        }
        assert!(positions > 1_000, "only {positions} positions");
        // Eight published games promote with no capture of the promoting side (nine of their
        // positions need more with the term).
        assert!(
            promoted_on_files >= 5,
            "the promotion files raised {promoted_on_files} bounds"
        );
    }

    /// The black queen reached b3 below the b5 pawn by a5 and a4, where it took the a-pawn: three
    /// moves, as its path to b3 counts (d8-b6-b3 slides past the pawn's column); its capture on
    /// the a-file is a square of its way, no detour. Counting the trip against its way to b3 in
    /// any lane (two moves, with the pawn still on b2) made a detour of one, and the game's
    /// position out of reach (a random quiet game found it).
    #[test]
    fn a_capture_detour_is_counted_against_the_path_the_bound_counts() {
        let game = replay_score(
            "1.f4 g5 2.Kf2 c6 3.Qe1 e5 4.f5 Bc5 5.Kg3 Qa5 6.b4 Kd8 7.a4 Qxa4 8.b5 g4 9.Qf2 Qb3",
        );
        let mut bound = Bound::new(true);
        holds_along(&mut bound, &game, 0, "the queen's trip", |_, _| {});
        let last = retro_position(game.positions.last().expect("a position"));
        assert_eq!(bound.moves_needed(&last), ByColor { white: 8, black: 9 });
        // Black's moves are all needed: one fewer and the position is out of reach.
        assert!(!bound.within(&last, ByColor { white: 9, black: 8 }));
    }

    /// The c3 pawn came from b2, the only free start file (a2, c2 and d2 are at home), so it
    /// captured on c3, and what it took was Black's one missing unit, the queen (all eight black
    /// pawns are on the board: no promoted unit either). The queen stood on c3 first: from d8,
    /// with c7 and d7 at home, it leaves only through e7, and no square it reaches in one move
    /// (e7, f6, g5, h4) only f6 sees c3, so two moves (d8-f6-c3, as in 1.Nf3
    /// e6 2.Ng1 Qf6 3.Nf3 Qc3), and the e-pawn made one: Black made three moves at least. Without
    /// the term the bound saw only the pawn's move.
    #[test]
    fn a_capture_by_a_pawn_costs_the_captured_unit_its_way_there() {
        let fen = "rnb1kbnr/pppp1ppp/4p3/8/8/2P5/P1PPPPPP/RNBQKBNR b - -";
        assert_eq!(needed(fen).black, 3);
        assert_eq!(
            moves_needed_with(&RetroPosition::from_fen(fen).expect("FEN"), false).black,
            1
        );
        // The near miss: with b2 at home and c2 gone, the c3 pawn came straight and took nothing.
        let straight = needed("rnb1kbnr/pppp1ppp/4p3/8/8/2P5/PP1PPPPP/RNBQKBNR b - -");
        assert_eq!(straight.black, 1);
    }

    /// Black's g-pawn advanced four ranks on its file (f7 and h7 at home), in three moves with no
    /// capture or with two; White misses one unit, so the pawn took none and a black piece made
    /// the capture: four moves, where lending the pawn two captures counted three.
    #[test]
    fn the_pawns_take_no_more_units_than_are_missing() {
        let fen = "rnbqkbnr/pppppp1p/8/8/8/6p1/PPPPPPP1/RNBQKBNR w KQkq -";
        assert_eq!(needed(fen).black, 4);
        // The colour swap: White's four.
        let swapped =
            retrace_testkit::swapped_board("rnbqkbnr/pppppp1p/8/8/8/6p1/PPPPPPP1/RNBQKBNR");
        assert_eq!(needed(&format!("{swapped} b - -")).white, 4);
        // The near miss: with two white units gone the pawn may have taken both.
        assert_eq!(
            needed("rnbqkbnr/pppppp1p/8/8/8/6p1/PPPPPP2/RNBQKBNR w KQkq -").black,
            3
        );
    }

    /// After 1.h4 g6 2.h5 Bg7 3.h6 Bxh6 4.Nf3 Bf8 5.Ng1 Black has all its units and its g6 pawn
    /// took nothing, so a piece took White's h-pawn, which never passed h7 (at home): on h2 to
    /// h6, off every black piece's path. The f8 bishop's trip f8-g7xh6-g7-f8... is two moves at
    /// least (f8xh6 and back), with the pawn's move three, where the capture counted as a move
    /// made two. With no white move to spare the pawn never left h2, three bishop moves away
    /// (f8-g7-e5xh2) and two back: six.
    #[test]
    fn a_pawn_confined_to_its_file_cost_its_capturer_a_detour() {
        let board = "rnbqkbnr/pppppp1p/6p1/8/8/8/PPPPPPP1/RNBQKBNR";
        let budget = |white, black| ByColor { white, black };
        let pos = RetroPosition::from_fen(&format!("{board} b - -")).expect("FEN");
        let mut bound = Bound::new(true);
        assert_eq!(bound.moves_needed(&pos).black, 2);
        assert!(!bound.within(&pos, budget(5, 2)));
        assert!(bound.within(&pos, budget(5, 3)));
        assert!(!bound.within(&pos, budget(0, 5)));
        assert!(bound.within(&pos, budget(0, 6)));
        // The colour swap.
        let swapped = retrace_testkit::swapped_board(board);
        let pos = RetroPosition::from_fen(&format!("{swapped} w - -")).expect("FEN");
        assert!(!bound.within(&pos, budget(2, 5)));
        assert!(bound.within(&pos, budget(3, 5)));
        assert!(!bound.within(&pos, budget(5, 0)));
        // The near miss: with Black's h-pawn gone from h7 White's may have promoted and been
        // taken anywhere: the pawn's move and the capture.
        let near = RetroPosition::from_fen("rnbqkbnr/ppppppp1/7p/8/8/8/PPPPPPP1/RNBQKBNR b - -")
            .expect("FEN");
        assert!(bound.within(&near, budget(5, 2)));
    }

    /// Nothing was captured, so the h4 and h5 pawns went straight up and down their file, and
    /// the h1 rook on h8 got past both only by leaving the h-file: h1-h3 (the white pawn
    /// already on h4), along the third rank, up to the sixth (g7 never moved), to h6 and h8.
    /// Five moves and the pawn's double step, where sliding past the pawns counted three (h1-h3,
    /// h3-h6 with the white pawn on h2 and the black one on h7, h6-h8).
    #[test]
    fn a_rook_gets_past_the_pawns_of_its_file_only_by_leaving_it() {
        let board = "rnbqkbrR/ppppppp1/5n2/7p/7P/8/PPPPPPP1/RNBQKBN1";
        assert_eq!(needed(&format!("{board} w - -")).white, 6);
        // The colour swap: the h8 rook on h1 past the h5 and h4 pawns.
        let swapped = retrace_testkit::swapped_board(board);
        assert_eq!(needed(&format!("{swapped} b - -")).black, 6);
        // The near miss: the rook on h3 stayed below both pawns, one move.
        let near = "rnbqkbr1/ppppppp1/5n2/7p/7P/7R/PPPPPPP1/RNBQKBN1 w - -";
        assert_eq!(needed(near).white, 2);
    }

    /// `color`'s bound in `fen`, with and without the captures counted as moves.
    fn with_capture_moves(fen: &str, color: Color) -> (u32, u32) {
        let pos = RetroPosition::from_fen(fen).expect("FEN");
        let plain = Bound::new(true).without_capture_moves().moves_needed(&pos);
        (*moves_needed(&pos).get(color), *plain.get(color))
    }

    /// Black misses three units (its queen, which may have left through e8 with no castling
    /// right to freeze the king, and its knights) and White's one pawn that moved, on e3, took
    /// none of them (it advanced one rank on its file): the pieces made the three captures, three
    /// moves besides the pawn's (as in 1.e3, then Nf3 and two more captures by pieces that come
    /// back): four. The pieces' paths alone cost one (Nf3), which the bound without the term
    /// added to the pawn's move, or it counted the three captures alone.
    #[test]
    fn captures_the_pawns_did_not_make_are_moves_of_the_pieces() {
        let fen = "r1b1kb1r/pppppppp/8/8/8/4PN2/PPPP1PPP/RNBQKB1R b - -";
        assert_eq!(with_capture_moves(fen, Color::White), (4, 3));
        // The colours swapped: Black's four.
        let swapped = needed("rnbqkb1r/pppp1ppp/4pn2/8/8/8/PPPPPPPP/R1B1KB1R w - -");
        assert_eq!(swapped.black, 4);
        // The near miss: a pawn on e4 may have come e2xd3xe4 with two of the captures, in the
        // two moves that the double step and one capture by a piece also take: three.
        assert_eq!(
            needed("r1b1kb1r/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b - -").white,
            3
        );
    }

    /// Black's c8 bishop is gone and b7 and d7 never moved: it never moved either, so it was
    /// taken on c8, by a white unit that went there: a knight in four moves (b1-c3-b5-d6xc8),
    /// or a pawn that promoted (five), or a queen or rook along the eighth rank (more). White's
    /// other units are home and its one pawn move took nothing: five moves at least, where the
    /// bound without the home capture counted the pawn's move and the capture alone.
    #[test]
    fn an_original_that_never_moved_was_taken_at_home() {
        let fen = "rn1qkbnr/pppp1ppp/4p3/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq -";
        assert_eq!(with_capture_moves(fen, Color::White), (5, 1));
        for (other, color, bound) in [
            // The colours swapped: Black's five.
            (
                "rnbqkbnr/pppp1ppp/4p3/8/8/4P3/PPPP1PPP/RN1QKBNR b KQkq -",
                Color::Black,
                5,
            ),
            // The near miss: with d7 on d6 the bishop may have left and died anywhere: the
            // pawn's move and the capture.
            (
                "rn1qkbnr/ppp2ppp/3pp3/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq -",
                Color::White,
                2,
            ),
        ] {
            assert_eq!(*needed(other).get(color), bound, "{other}");
        }
    }

    #[test]
    fn the_maps_of_a_role_are_those_of_its_starts() {
        let maps = open_maps(Color::White, Bitboard::EMPTY);
        for role in PIECES {
            let homes: Vec<Square> = STARTS
                .iter()
                .filter(|(r, _)| *r == role)
                .map(|&(_, file)| Square::from_coords(file, shakmaty::Rank::First))
                .collect();
            let starts = starts_of(&maps, role);
            assert_eq!(starts.len(), homes.len(), "{role:?}");
            for (map, home) in starts.iter().zip(homes) {
                assert_eq!(map[home.to_usize()], 0, "{role:?} {home}");
            }
        }
    }

    #[test]
    fn castling_counts_as_one_king_move_and_no_rook_move() {
        // 1.d4 e5 2.Qd3 Ba3 3.b4 Bxc1 4.Qc4 Bh6 5.Nd2 g5 6.O-O-O Bf8 (G. Gruber, 1984): six
        // White moves, two of which bring king and rook to c1 and d1 at once.
        let bound = needed("rnbqkbnr/pppp1p1p/8/4p1p1/1PQP4/8/P1PNPPPP/2KR1BNR w - -");
        assert_eq!(bound.white, 6);
        // Castling saves the king one move at most, and only towards c1 or g1.
        let king = &open_maps(Color::White, Bitboard::EMPTY)[7];
        for (sq, moves) in [
            (Square::C1, 1),
            (Square::G1, 1),
            (Square::D1, 1),
            (Square::B1, 2),
            (Square::H1, 2),
            (Square::E3, 2),
        ] {
            assert_eq!(king[sq.to_usize()], moves, "{sq}");
        }
    }

    /// With e2 and g2 at home the f1 bishop never moved: f1 is permanent, so White never castled
    /// short, and its king walked e1-f2-g3-h2 (three moves, with f3 and h3 five), where the
    /// castled king's g1 at one move made it two.
    #[test]
    fn no_castling_across_a_permanent_square() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/5P1P/PPPPP1PK/RNBQ1BNR w - -";
        assert_eq!(needed(fen).white, 5);
        assert!(!may_castle(
            Color::White,
            CastlingSide::KingSide,
            retrace_legal::permanent_squares(&RetroPosition::from_fen(fen).expect("FEN"))
        ));
        // The colour swap: Black's five.
        let swapped =
            retrace_testkit::swapped_board("rnbqkbnr/pppppppp/8/8/8/5P1P/PPPPP1PK/RNBQ1BNR");
        assert_eq!(needed(&format!("{swapped} b - -")).black, 5);
        // The near miss: with e2 on e3 the bishop may have left, and the king castled and went
        // g1-h2: two moves, where walking takes three (with three pawn moves, five).
        assert_eq!(
            needed("rnbqkbnr/pppppppp/8/8/8/4PP1P/PPPP2PK/RNBQ1BNR w - -").white,
            5
        );
        // Queenside: after 1.e3 the c1 bishop, between b2 and d2 at home, never moved; the f1
        // bishop may have left by e2.
        let walls = retrace_legal::permanent_squares(
            &RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - -")
                .expect("FEN"),
        );
        assert!(!may_castle(Color::White, CastlingSide::QueenSide, walls));
        assert!(may_castle(Color::White, CastlingSide::KingSide, walls));
    }

    /// Black has all its units, so White captured nothing and its d-pawn stood on d2 or d3 all
    /// game: the queen never slid from d1 to d5. With c2 and e2 at home it left by d2 and went
    /// round: d1-d2-g5-d5, three moves (with d3, four), where the open file made it one.
    #[test]
    fn no_slide_across_a_pawn_column() {
        let fen = "rnbqkbnr/pppppppp/8/3Q4/8/3P4/PPP1PPPP/RNB1KBNR b - -";
        assert_eq!(needed(fen).white, 4);
        let open = Bound::new(true)
            .without_columns()
            .moves_needed(&RetroPosition::from_fen(fen).expect("FEN"));
        assert_eq!(open.white, 2);
        // The colour swap: Black's four.
        let swapped =
            retrace_testkit::swapped_board("rnbqkbnr/pppppppp/8/3Q4/8/3P4/PPP1PPPP/RNB1KBNR");
        assert_eq!(needed(&format!("{swapped} w - -")).black, 4);
        // With Black's g8 knight gone White captured once, but the d3 pawn, between c2 and e2
        // at home, came from d2 and took nothing: the same four.
        assert_eq!(
            needed("rnbqkb1r/pppppppp/8/3Q4/8/3P4/PPP1PPPP/RNB1KBNR b - -").white,
            4
        );
        // The near miss: with c2 gone too the d3 pawn may have come c2xd3 and the queen slid
        // over an empty d2: the queen's move, the pawn's, the capture one of them.
        assert_eq!(
            needed("rnbqkb1r/pppppppp/8/3Q4/8/3P4/PP2PPPP/RNB1KBNR b - -").white,
            2
        );
    }

    /// Seventeen white units (a capture retracted from a side with all its units, as the search
    /// meets before the pruner) or nine pawns: no game. The colour swap alike; the near miss,
    /// sixteen units, is in reach.
    #[test]
    fn no_side_has_more_than_sixteen_units_or_eight_pawns() {
        let mut bound = Bound::new(true);
        let plenty = ByColor {
            white: 40,
            black: 40,
        };
        let within = |bound: &mut Bound, fen: &str| {
            bound.within(&RetroPosition::from_fen(fen).expect("FEN"), plenty)
        };
        assert!(!within(
            &mut bound,
            "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR b - -"
        ));
        assert!(!within(
            &mut bound,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKB1R b - -"
        ));
        assert!(!within(
            &mut bound,
            "rnbqkbnr/pppppppp/8/4n3/8/8/PPPPPPPP/RNBQKBNR w - -"
        ));
        assert!(within(
            &mut bound,
            "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKB1R b - -"
        ));
    }

    #[test]
    fn a_king_never_stands_where_units_that_never_moved_attack() {
        // With Black's a- to d-pawns at home, a6 to e6 are attacked throughout: the white king
        // crosses the sixth rank at f6 at the earliest, e1-e5-f6-e7-d8-c8-b8, nine moves where
        // an open board takes seven.
        let squares = |list: &[Square]| list.iter().copied().collect::<Bitboard>();
        let walls = squares(&[Square::A7, Square::B7, Square::C7, Square::D7]);
        let king = &open_maps(Color::White, walls)[7];
        assert_eq!(king[Square::B8.to_usize()], 9);
        assert_eq!(
            open_maps(Color::White, Bitboard::EMPTY)[7][Square::B8.to_usize()],
            7
        );
        // The near miss: with the d-pawn gone, e6 is open and d7 too: e1-e6-d7-c8-b8, eight.
        let walls = squares(&[Square::A7, Square::B7, Square::C7]);
        assert_eq!(open_maps(Color::White, walls)[7][Square::B8.to_usize()], 8);
        // A black king that never moved keeps the white king off the squares around e8.
        let walls = squares(&[Square::E8]);
        let king = &open_maps(Color::White, walls)[7];
        assert_eq!(king[Square::E7.to_usize()], FAR);
        assert_eq!(king[Square::E6.to_usize()], 5);
        // The colour swap: White's pawns at home keep the black king off the third rank.
        let walls = squares(&[Square::A2, Square::B2, Square::C2, Square::D2]);
        assert_eq!(open_maps(Color::Black, walls)[7][Square::B1.to_usize()], 9);
        let walls = squares(&[Square::A2, Square::B2, Square::C2]);
        assert_eq!(open_maps(Color::Black, walls)[7][Square::B1.to_usize()], 8);
    }

    #[test]
    fn a_piece_taken_where_no_pawn_stood_was_promoted_or_replaced() {
        // After 1.e4 e6 2.Bc4 Bd6 3.Bd5 Bf4 4.e5 exd5 5.e6 d6 6.e7 Kd7 7.e8=B+ Ke7 8.Bb5 Kf8
        // 9.Bf1: White captured nothing, so its missing e-pawn never left the e-file, and
        // Black's e7xd5 took a piece: White's seven pieces at home are one promoted unit among
        // eight. Either one of them is promoted (five moves as a pawn and two as a bishop,
        // e8-b5-f1, with two for the unit taken on d5) or the promoted one was taken (five).
        let board = |fen: &str| RetroPosition::from_fen(fen).expect("FEN");
        let game = board("rnbq1knr/ppp2ppp/3p4/3p4/5b2/8/PPPP1PPP/RNBQKBNR b - -");
        assert_eq!(
            forced_promotions(Color::White, game.board(), &mut Vec::new()),
            1
        );
        assert_eq!(moves_needed(&game).white, PROMOTION_MOVES);
        assert_eq!(moves_needed_with(&game, false).white, PROMOTION_MOVES);
        // The near miss: Black's capture d7xe6 landed on the e-file, where the e-pawn can have
        // died.
        let near = board("rnbq1knr/ppp2ppp/4p3/4p3/5b2/8/PPPP1PPP/RNBQKBNR b - -");
        assert_eq!(
            forced_promotions(Color::White, near.board(), &mut Vec::new()),
            0
        );
        // The colour swap: the same for Black.
        let swapped = |fen: &str| {
            let field = fen.split(' ').next().expect("board");
            board(&format!("{} w - -", retrace_testkit::swapped_board(field)))
        };
        let game = swapped("rnbq1knr/ppp2ppp/3p4/3p4/5b2/8/PPPP1PPP/RNBQKBNR");
        assert_eq!(
            forced_promotions(Color::Black, game.board(), &mut Vec::new()),
            1
        );
        assert_eq!(moves_needed(&game).black, PROMOTION_MOVES);
        let near = swapped("rnbq1knr/ppp2ppp/4p3/4p3/5b2/8/PPPP1PPP/RNBQKBNR");
        assert_eq!(
            forced_promotions(Color::Black, near.board(), &mut Vec::new()),
            0
        );
    }

    #[test]
    fn a_piece_at_home_in_the_way_left_and_came_back() {
        // The a1 rook reached b3 by b1 (a2 never moved), the knight standing on b1 now: it left
        // and came back (two moves), or it never moved and the rook is a promoted one, or the
        // knight on b1 is the g1 one: at least five moves, where the paths alone count three.
        let pos = RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/1P6/1R6/P1PPPPPP/1NBQKBNR w - -")
            .expect("FEN");
        let mut bound = Bound::new(true);
        assert_eq!(bound.moves_needed(&pos).white, 3);
        assert!(!bound.within(&pos, ByColor { white: 4, black: 0 }));
        assert!(bound.within(&pos, ByColor { white: 5, black: 0 }));
        // The near miss: with the knight away from b1 the paths are the whole count.
        let away = RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/1P6/1RN5/P1PPPPPP/2BQKBNR w - -")
            .expect("FEN");
        assert_eq!(bound.moves_needed(&away).white, 4);
        assert!(bound.within(&away, ByColor { white: 4, black: 0 }));
        // The colour swap: the same for Black.
        let swapped = |board: &str| {
            let fen = format!("{} b - -", retrace_testkit::swapped_board(board));
            RetroPosition::from_fen(&fen).expect("FEN")
        };
        let pos = swapped("rnbqkbnr/pppppppp/8/8/1P6/1R6/P1PPPPPP/1NBQKBNR");
        assert_eq!(bound.moves_needed(&pos).black, 3);
        assert!(!bound.within(&pos, ByColor { white: 0, black: 4 }));
        assert!(bound.within(&pos, ByColor { white: 0, black: 5 }));
        let away = swapped("rnbqkbnr/pppppppp/8/8/1P6/1RN5/P1PPPPPP/2BQKBNR");
        assert!(bound.within(&away, ByColor { white: 0, black: 4 }));
    }

    #[test]
    fn pawns_at_home_wall_the_paths() {
        // 1.e3 d6 2.Qh5 Bg4 3.Qxd1 (the queen's capture aside): the c8 bishop reached g4 in one
        // move, over d7, which the d-pawn left.
        let open = needed("rn1qkbnr/ppp1pppp/3p4/8/6b1/4P3/PPPP1PPP/RNB1KBNR w - -");
        assert_eq!(open.black, 2);
        // With e7 and g7 at home the f8 bishop never left: a dark-squared bishop on g5 is a
        // promoted pawn. With White's army at home it cannot have left its promotion square:
        // the dark squares of the first rank are walled (a1, c1, e1) or shut in by f2 and h2
        // (g1). So no game reaches it.
        let walled = needed("rn1qk1nr/pppppppp/8/6b1/8/8/PPPPPPPP/RNBQKBNR w - -");
        assert!(walled.black >= u32::from(FAR), "{walled:?}");
        // With h2 gone the bishop promoted on g1 walks g1-h2-f4-g5: five moves as a pawn, three
        // as a bishop.
        let promoted = needed("rn1qk1nr/pppppppp/8/6b1/8/8/PPPPPPP1/RNBQKBNR w - -");
        assert_eq!(promoted.black, PROMOTION_MOVES + 3);
        // The colour swap: a white bishop promoted on g8 walks g8-h7-f5-g4.
        let board = retrace_testkit::swapped_board("rn1qk1nr/pppppppp/8/6b1/8/8/PPPPPPP1/RNBQKBNR");
        assert_eq!(needed(&format!("{board} b - -")).white, PROMOTION_MOVES + 3);
        // The near miss: with the g-pawn on g6 the bishop goes f8-h6-g5, two moves, and the
        // pawn's one.
        let near = needed("rn1qk1nr/pppppp1p/6p1/6b1/8/8/PPPPPPPP/RNBQKBNR w - -");
        assert_eq!(near.black, 3);
        // The a1 rook with its pawn at home never leaves the first rank, whose every exit is a
        // pawn at home: a white rook on b5 is promoted. With a2 gone it is one move to a5.
        let rook = needed("rnbqkbnr/pppppppp/8/R7/8/8/1PPPPPPP/1N2KBNR w - -");
        assert_eq!(rook.white, 1);
        // Nor can a rook promoted on the eighth rank have left it, behind Black's pawns at home.
        let blocked = needed("rnbqkbnr/pppppppp/8/1R6/8/8/PPPPPPPP/1N2KBNR w - -");
        assert!(blocked.white >= u32::from(FAR), "{blocked:?}");
        // With h7 gone, a rook promoted on h8 reaches b5 by h5 in two moves.
        let open = needed("rnbqkbnr/ppppppp1/8/1R6/8/8/PPPPPPPP/1N2KBNR w - -");
        assert_eq!(open.white, PROMOTION_MOVES + 2);
    }

    /// pg-P1068371's last position: Black has its sixteen units, so White captured nothing and
    /// promoted only on the a- and b-files, where it has no pawn, and not on b8 past the b7 pawn,
    /// which never moved; its third knight, on f6, came from a8 (three moves at least), not from
    /// b8 (two) nor from e8 or g8 (one).
    #[test]
    fn a_side_that_captured_nothing_promotes_on_its_files_without_a_pawn() {
        let board = "1rb3nr/1ppnpp1p/q1qp1N2/2b3pR/BQ2PP2/K2Pk3/1BPN2PP/6NR";
        let both = |fen: &str| {
            let pos = RetroPosition::from_fen(fen).expect("FEN");
            (
                Bound::new(true).moves_needed(&pos),
                Bound::new(true)
                    .without_promotion_files()
                    .moves_needed(&pos),
            )
        };
        let (with, without) = both(&format!("{board} b - -"));
        assert_eq!(with.white, without.white + 2);
        assert_eq!(with.black, without.black);
        // The colour swap: Black's knight on f3.
        let swapped = retrace_testkit::swapped_board(board);
        let (with, without) = both(&format!("{swapped} w - -"));
        assert_eq!(with.black, without.black + 2);
        // The near miss: with the h7 pawn gone White may have captured, and promoted anywhere.
        let (with, without) = both("1rb3nr/1ppnpp2/q1qp1N2/2b3pR/BQ2PP2/K2Pk3/1BPN2PP/6NR b - -");
        assert_eq!(with.white, without.white);
        assert_eq!(
            promotion_squares(
                Color::White,
                &board.parse().expect("board"),
                Bitboard::from(Square::B7)
            ),
            Bitboard::from(Square::A8)
        );
    }
}
