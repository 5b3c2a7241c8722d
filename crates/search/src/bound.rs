//! The proof-game distance bound: how many moves each side must have made, at least, to bring its
//! units from the initial array to a position.
//!
//! Each unit on the board needs at least the moves of the shortest path of its kind from a start
//! square to its square, and units move one at a time, so the paths add up. Pawns started on
//! distinct files, each change of file a capture ([`retrace_legal::pawn_moves_needed`]). The paths avoid the
//! permanent squares ([`retrace_legal::permanent_squares`]): a pawn on its start square, or an
//! original walled in by them, stood there throughout the game, so no unit ever passed, entered or
//! captured there. A unit that no start square of its kind reaches (or more units of a kind than
//! start squares) is a promoted pawn, which made at least [`PROMOTION_MOVES`] moves as a pawn.
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
//! relax the bound, so it stays a lower bound for any game, castled or not.

use retrace_legal::pawn;
use retrace_unmove::RetroPosition;

use crate::capture_moves::PawnCaptures;
use shakmaty::{attacks, Bitboard, ByColor, CastlingSide, Color, File, Rank, Role, Square};

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

/// For each start of [`STARTS`], the fewest moves its unit needs to each square.
type Maps = [[u8; 64]; 8];

/// The fewest moves of a unit of `role` from `sources` (each with the moves already spent) to
/// every square, never standing on or passing through `walls`.
fn shortest_paths(role: Role, sources: &[(Square, u8)], walls: Bitboard) -> [u8; 64] {
    let mut dist = [FAR; 64];
    let mut seen = Bitboard::EMPTY;
    let mut frontier = Bitboard::EMPTY;
    let mut step = 0u8;
    loop {
        for &(sq, cost) in sources {
            if cost == step && !seen.contains(sq) {
                frontier.add(sq);
            }
        }
        for sq in frontier {
            dist[sq.to_usize()] = step;
        }
        seen |= frontier;
        if frontier.is_empty() && sources.iter().all(|&(_, cost)| cost <= step) {
            return dist;
        }
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::King => attacks::king_attacks(sq),
                _ => attacks::attacks(sq, role.of(Color::White), walls),
            };
        }
        frontier = next & !walls & !seen;
        step += 1;
    }
}

/// The maps of `color` around the permanent squares `walls`.
fn maps(color: Color, walls: Bitboard) -> Maps {
    let rank = color.backrank();
    STARTS.map(|(role, file)| {
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
        sources.retain(|&(sq, cost)| cost == 0 && sq == home || !walls.contains(sq));
        shortest_paths(role, &sources, walls)
    })
}

/// A cache slot: the permanent squares and the maps of both sides around them.
type Slot = Option<(Bitboard, Box<ByColor<Maps>>)>;

/// Slots of the cache of maps (a power of two).
const SLOTS: usize = 1 << 9;

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

/// The fewest moves the units of `role` on `squares` need, when each start square of the kind
/// supplies at most one of them and the others are promoted.
fn role_moves(maps: &Maps, role: Role, squares: Bitboard) -> u32 {
    // The common cases first (this runs for every role of both sides at every node).
    let Some(first) = squares.first() else {
        return 0;
    };
    let starts = starts_of(maps, role);
    if !squares.more_than_one() {
        let nearest = starts
            .iter()
            .map(|start| start[first.to_usize()])
            .min()
            .unwrap_or(FAR);
        return match (role, nearest) {
            (Role::King, moves) => u32::from(moves),
            (_, moves) => u32::from(moves).min(PROMOTION_MOVES),
        };
    }
    let promoted = if role == Role::King {
        // A king is never promoted: one its start cannot reach is unreachable.
        u32::from(FAR)
    } else {
        PROMOTION_MOVES
    };
    // What sending the unit on `sq` from a start saves over promoting it.
    let saving =
        |start: &[u8; 64], sq: Square| promoted - u32::from(start[sq.to_usize()]).min(promoted);
    let mut best_saving = 0;
    for a in squares {
        for (i, first) in starts.iter().enumerate() {
            let from_first = saving(first, a);
            best_saving = best_saving.max(from_first);
            for second in &starts[i + 1..] {
                for b in squares.without(a) {
                    best_saving = best_saving.max(from_first + saving(second, b));
                }
            }
        }
    }
    promoted * squares.count() as u32 - best_saving
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
            maps.iter()
                .map(|map| u32::from(map[h.to_usize()]))
                .fold(PROMOTION_MOVES, u32::min)
        })
        .max()
        .unwrap_or(0)
}

/// Slots of the cache of pawn moves, per side (a power of two).
const PAWN_SLOTS: usize = 1 << 10;

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

/// Slots of the cache of capture-square terms (a power of two).
const CAPTURE_SLOTS: usize = 1 << 10;

/// A capture-square term with its key: the capturing side, its pawns, the permanent squares, and
/// what of the victim is missing (any unit, a pawn).
type CaptureSlot = ((Color, Bitboard, Bitboard, bool, bool), u32);

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
    maps: Vec<Slot>,
    /// The moves of the pawns of each side by their captures, White's slots first.
    pawns: Vec<Option<(Bitboard, PawnCaptures)>>,
    captures: Vec<Option<CaptureSlot>>,
}

impl Bound {
    /// The bound, with or without the capture-square term (on in use; off only to measure it).
    pub(crate) fn new(capture_squares: bool) -> Bound {
        Bound {
            capture_squares,
            capture_moves: true,
            maps: Vec::new(),
            pawns: Vec::new(),
            captures: Vec::new(),
        }
    }

    /// The bound without the captures counted as moves ([`crate::capture_moves`]), to measure it.
    #[cfg(test)]
    pub(crate) fn without_capture_moves(mut self) -> Bound {
        self.capture_moves = false;
        self
    }

    /// A lower bound on the moves each side made to bring its units from the initial array to
    /// `pos` (see the module's documentation).
    #[must_use]
    pub(crate) fn moves_needed(&mut self, pos: &RetroPosition) -> ByColor<u32> {
        let board = pos.board();
        let (walls, home_captures) = retrace_legal::permanent_squares_and_home_captures(pos);
        let slot = slot_of(u64::from(walls), SLOTS);
        let hit = matches!(&slots(&mut self.maps, SLOTS)[slot], Some((key, _)) if *key == walls);
        if !hit {
            self.maps[slot] = Some((walls, Box::new(ByColor::new_with(|c| maps(c, walls)))));
        }
        let Some((_, maps)) = self.maps[slot].take() else {
            unreachable!("the slot was just filled")
        };
        let needed = ByColor::new_with(|color| {
            let ours = board.by_color(color);
            let pieces: u32 = PIECES
                .into_iter()
                .map(|role| role_moves(maps.get(color), role, ours & board.by_role(role)))
                .fold(0u32, u32::saturating_add);
            let table = self.pawn_captures(color, ours & board.pawns());
            let pawns = table.fewest().unwrap_or(u32::from(FAR));
            let captured = if self.capture_squares {
                let missing = (ours.count() < 16, (ours & board.pawns()).count() < 8);
                let enemy_pawns = board.by_color(color.other()) & board.pawns();
                self.captured_units_moves(
                    color.other(),
                    enemy_pawns,
                    walls,
                    maps.get(color),
                    missing,
                )
            } else {
                0
            };
            let mut rest = pieces.saturating_add(captured);
            if self.capture_moves {
                let homes = *home_captures.get(color.other());
                rest = rest.max(home_capture_moves(maps.get(color), homes));
            }
            let missing = 16u32.saturating_sub(board.by_color(color.other()).count() as u32);
            let moves = match table.moves_with(rest, missing) {
                Some(moves) if self.capture_moves => moves,
                _ => pawns.saturating_add(rest),
            };
            moves.max(missing)
        });
        self.maps[slot] = Some((walls, maps));
        needed
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
        walls: Bitboard,
        victim_maps: &Maps,
        missing: (bool, bool),
    ) -> u32 {
        if pawn::on_distinct_files(pawns) {
            return 0;
        }
        let key = (capturer, pawns, walls, missing.0, missing.1);
        let slot = slot_of(
            u64::from(pawns) ^ u64::from(walls).rotate_left(17),
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
    use shakmaty::{Move, Position};

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
        let (mut checked, mut tightened) = (0, 0);
        let (mut with, mut without) = (Bound::new(true), Bound::new(false));
        let (mut raised, mut plain) = (0, Bound::new(true).without_capture_moves());
        let mut at_home = 0;
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
                let walls = retrace_legal::permanent_squares(&retro);
                walled += usize::from((walls & !pos.board().pawns()).any());
                tightened += usize::from(bound != without.moves_needed(&retro));
                raised += usize::from(bound != plain.moves_needed(&retro));
                let (_, homes) = retrace_legal::permanent_squares_and_home_captures(&retro);
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
        // So do the captures the pawns did not make.
        eprintln!(
            "{checked} positions: capture squares raised {tightened}, captures as moves \
             {raised}; {at_home} with an original taken at home"
        );
        assert!(at_home > 100, "only {at_home} originals taken at home");
        assert!(
            raised > 1_000,
            "the captures as moves raised the bound only {raised} times"
        );
        assert!(checked > 100_000);
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
        let mut positions = 0;
        let mut owned = Bound::new(true);
        for line in text.lines().filter(|l| l.contains("\"proof_game\"")) {
            let problem: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let answer = problem["answer"].as_str().expect("answer");
            let game = replay_score(answer);
            for (ply, pos) in game.positions.iter().enumerate().skip(1) {
                let ply = ply as u32;
                let bound = owned.moves_needed(&retro_position(pos));
                assert!(
                    bound.white <= ply.div_ceil(2) && bound.black <= ply / 2,
                    "{} after {ply} plies: {bound:?}",
                    problem["id"]
                );
                positions += 1;
            }
        }
        assert!(positions > 1_000, "only {positions} positions");
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
        let maps = maps(Color::White, Bitboard::EMPTY);
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
        let king = &maps(Color::White, Bitboard::EMPTY)[7];
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

    #[test]
    fn pawns_at_home_wall_the_paths() {
        // 1.e3 d6 2.Qh5 Bg4 3.Qxd1 (the queen's capture aside): the c8 bishop reached g4 in one
        // move, over d7, which the d-pawn left.
        let open = needed("rn1qkbnr/ppp1pppp/3p4/8/6b1/4P3/PPPP1PPP/RNB1KBNR w - -");
        assert_eq!(open.black, 2);
        // With e7 and g7 at home the f8 bishop never left: a dark-squared bishop on g5 is a
        // promoted pawn, five moves at least.
        let walled = needed("rn1qk1nr/pppppppp/8/6b1/8/8/PPPPPPPP/RNBQKBNR w - -");
        assert_eq!(walled.black, PROMOTION_MOVES);
        // The near miss: with the g-pawn on g6 the bishop goes f8-h6-g5, two moves, and the
        // pawn's one.
        let near = needed("rn1qk1nr/pppppp1p/6p1/6b1/8/8/PPPPPPPP/RNBQKBNR w - -");
        assert_eq!(near.black, 3);
        // The a1 rook with its pawn at home never leaves the first rank, whose every exit is a
        // pawn at home: a white rook on b5 is promoted. With a2 gone it is one move to a5.
        let rook = needed("rnbqkbnr/pppppppp/8/R7/8/8/1PPPPPPP/1N2KBNR w - -");
        assert_eq!(rook.white, 1);
        let blocked = needed("rnbqkbnr/pppppppp/8/1R6/8/8/PPPPPPPP/1N2KBNR w - -");
        assert_eq!(blocked.white, PROMOTION_MOVES);
    }
}
