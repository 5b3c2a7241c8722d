//! The parity of the number of moves played (CQLi's "inconsistent colour symmetry", Sherlock's
//! parity tests).
//!
//! # The invariant
//!
//! Let `L` be the number of units on light squares. A move *flips* when the squares its units leave
//! and reach differ in colour an odd number of times: a knight move, an orthogonal king step, an
//! orthogonal rook or queen move of odd length, a pawn's single step, and queenside castling (the
//! king moves two squares, the rook three) flip; a bishop move, any diagonal move, an orthogonal
//! move of even length, a pawn's double step or capture, and kingside castling do not (call them
//! *even* moves). A move changes `L` by its flip, and a capture also removes the captured unit from
//! its square (for en passant the captured pawn's square). So over a game of `n` moves from the
//! initial array (where `L = 16`):
//!
//! `n ≡ L_now + C + E (mod 2)`,
//!
//! where `C` counts the captures of units standing on light squares and `E` the even moves. White
//! is to move exactly when `n` is even. So if `C + E` is known modulo 2 for every game that can
//! reach the position, the side to move is known.
//!
//! # When `C + E` is known
//!
//! The rule proves that every possible game has the same `C + E` modulo 2, and gives up otherwise:
//! - *Pieces.* For every original piece that may have moved (not static, not proven captured at
//!   home without moving) the squares it can ever have occupied are flooded from its home square,
//!   through non-static squares, in phases separated by the moves of the pawns with a known
//!   one-step history (in every order of those moves), kings also avoiding squares attacked at
//!   every moment. If in some phase it could make an even move (a diagonal step of a king or queen,
//!   any bishop move, a rook or queen move of two squares), or kingside castling is possible, the
//!   rule gives up. So pieces make only flipping moves. Promoted units (possible only when pawns
//!   are missing) make the rule give up unless no missing pawn can have promoted.
//! - *Pawns.* Every assignment of the pawns on the board to start files within the capture
//!   budget is enumerated (the budget: the units the other side is missing, less the originals of
//!   the other side proven captured on their home squares, which pieces took), and for every pawn
//!   missing from the board every square it can have been captured on. A pawn's path is known when
//!   it did not move, made one single step, or made only captures (it advanced exactly as many
//!   ranks as it changed files; a capture landing on the sixth rank could be en passant and is not
//!   accepted); any assignment or fate within the budget that needs another path (a double step may
//!   or may not have been played, or the capture squares are not fixed), or a promotion, makes the
//!   rule give up. The captures of a known path are even moves on known squares.
//! - *Captures.* The units a side `V` misses were captured by the other side `S`: the originals
//!   proven captured at home (by pieces: the square is known), then one unit per capture of `S`'s
//!   pawns, and the rest, `Y`, by `S`'s pieces. If `Y = 0`, the captured units stood on the squares
//!   of `S`'s pawn captures, whatever unit was taken where. If `Y > 0`, the rule needs the square
//!   colour of every missing unit of `V`: a bishop's colour, a missing pawn's capture square (fixed
//!   by its fate), or the home square; a missing knight, rook or queen makes it give up.
//!   A missing pawn's capture square must be the square of a capture of `S`'s pawns when `Y = 0`.
//!
//! Every branch (assignments and fates) that passes these necessary conditions gives a value of
//! `C + E`; if all give the same value and it contradicts the side to move, no game reaches the
//! position. Branches that are impossible for other reasons only make the rule more cautious.

use shakmaty::{Bitboard, Board, ByColor, Color, File, Piece, Rank, Role, Square};

use super::locked::locked;
use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::color_name;
use crate::{
    geometry::{dilate, flood, homes, permanently_attacked, Timed},
    pawns::{advance, plain_cost},
    promotion,
    types::ReasonCode,
};

/// Most pawns with a known history whose orders are enumerated for one piece.
const MAX_TIMED: usize = 4;
/// Most branches (assignments and fates) examined before giving up.
const MAX_BRANCHES: usize = 20_000;

/// Squares of `a` with a square of `b` right next to them on the `east` side (one file up).
fn east(b: Bitboard) -> Bitboard {
    Bitboard((u64::from(b) & !0x8080_8080_8080_8080) << 1)
}

/// Squares one file down.
fn west(b: Bitboard) -> Bitboard {
    Bitboard((u64::from(b) & !0x0101_0101_0101_0101) >> 1)
}

/// Whether a unit of `role` that can stand on the squares of `region`, with `open` the squares it can
/// move onto, can make an even move (see the module documentation).
fn even_move(role: Role, region: Bitboard, open: Bitboard) -> bool {
    let to = region & open;
    let diagonal = || (region & dilate(Role::Bishop, to)).any();
    let two_straight = || {
        let n = |b: Bitboard| b.shift(8);
        let s = |b: Bitboard| b.shift(-8);
        // A unit on `a` with the next two squares of a line open can move two squares.
        (region & west(to) & west(west(to))).any()
            || (region & east(to) & east(east(to))).any()
            || (region & s(to) & s(s(to))).any()
            || (region & n(to) & n(n(to))).any()
    };
    match role {
        Role::Pawn | Role::Knight => false,
        Role::Bishop | Role::King => diagonal(),
        Role::Rook => two_straight(),
        Role::Queen => diagonal() || two_straight(),
    }
}

/// Whether the original of `role` and `color` starting on `home` can ever make an even move.
fn piece_can_make_even_move(
    known: &Known<'_>,
    color: Color,
    role: Role,
    home: Square,
    attacked: Bitboard,
) -> bool {
    let statics = known.statics;
    let fixed = statics.fixed;
    let king = role == Role::King;
    let base = !fixed & if king { !attacked } else { Bitboard::FULL };
    let plain = flood(role, Bitboard::from_square(home), base);
    if !even_move(role, plain, base) {
        return false;
    }
    // Pawns with a known history whose squares the piece can reach or wall it in.
    let near = plain | dilate(role, plain);
    let timed: Vec<Timed> = statics
        .timed
        .iter()
        .filter(|t| near.contains(t.from) || near.contains(t.to))
        .collect();
    if timed.is_empty() || timed.len() > MAX_TIMED {
        return true;
    }
    let mut order: Vec<usize> = (0..timed.len()).collect();
    loop {
        let board = known.pos.board();
        if phases_allow_even_move(role, color, home, base, &timed, &order, board, fixed) {
            return true;
        }
        if !next_permutation(&mut order) {
            return false;
        }
    }
}

/// Whether, with the pawns of `timed` moving in `order`, a piece can make an even move in some phase.
///
/// After each pawn's move, the units of `board` locked on their squares from then on (see
/// [`super::locked`]: their steps are static squares of `fixed` or squares the pawns moved to) are
/// walls too, and the piece (of another kind) was not on their squares at that move.
#[allow(clippy::too_many_arguments)]
fn phases_allow_even_move(
    role: Role,
    color: Color,
    home: Square,
    base: Bitboard,
    timed: &[Timed],
    order: &[usize],
    board: &Board,
    fixed: Bitboard,
) -> bool {
    let mut moved = [false; MAX_TIMED];
    let open = |moved: &[bool; MAX_TIMED]| {
        let mut open = base;
        for (i, t) in timed.iter().enumerate() {
            let (stand, other) = if moved[i] {
                (t.to, t.from)
            } else {
                (t.from, t.to)
            };
            let _ = other;
            open = open.without(stand);
            if role == Role::King && t.color != color {
                open &= !shakmaty::attacks::pawn_attacks(t.color, stand);
            }
        }
        open
    };
    let mut region = flood(role, Bitboard::from_square(home), open(&moved));
    if even_move(role, region, open(&moved)) {
        return true;
    }
    let mut blocked = fixed;
    let mine = board.by_piece(Piece { color, role });
    for &i in order {
        moved[i] = true;
        blocked.add(timed[i].to);
        let walls = locked(board, blocked);
        let now = open(&moved) & !walls;
        let seeds = region.without(timed[i].to) & !(walls & !mine);
        region = flood(role, seeds, now);
        if even_move(role, region, now) {
            return true;
        }
    }
    false
}

/// The next permutation in lexicographic order; `false` after the last.
fn next_permutation(v: &mut [usize]) -> bool {
    let n = v.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = n - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Whether kingside castling of `color` can have been played.
fn kingside_castling_possible(known: &Known<'_>, color: Color, attacked: Bitboard) -> bool {
    let rank = color.backrank();
    let at = |f: File| Square::from_coords(f, rank);
    let statics = known.statics;
    let (king, f1, g1, rook) = (at(File::E), at(File::F), at(File::G), at(File::H));
    // A king or rook that never moved never castled; the squares between must have been empty and
    // not attacked.
    let never = statics.fixed | *statics.died_at_home.get(color);
    !(never.contains(king)
        || never.contains(rook)
        || statics.fixed.contains(f1)
        || statics.fixed.contains(g1)
        || (attacked & Bitboard::from_square(king).with(f1).with(g1)).any())
}

/// Checks the parity of the position (see the module documentation).
pub(crate) fn parity(known: &Known<'_>, out: &mut Reasons) {
    let pos = known.pos;
    let board = pos.board();
    let statics = known.statics;
    if pos.promoted().any()
        || statics.promoted.any()
        || known.promoted.white.total + known.promoted.black.total > 0
        || pos.forced_double_step().is_some()
        || Color::ALL
            .into_iter()
            .any(|c| board.by_piece(c.pawn()).count() > 8)
    {
        return;
    }
    // Pieces: every original that may have moved makes flipping moves only.
    let never = statics.fixed | statics.died_at_home.white | statics.died_at_home.black;
    for color in Color::ALL {
        let attacked = permanently_attacked(board, statics.fixed, color.other());
        for role in [Role::Bishop, Role::Queen, Role::Rook, Role::King] {
            for home in homes(color, role) & !never {
                if piece_can_make_even_move(known, color, role, home, attacked) {
                    return;
                }
            }
        }
        if kingside_castling_possible(known, color, attacked) {
            return;
        }
    }
    let Some(value) = pawn_branches(known) else {
        return;
    };
    let light_now = (board.occupied() & Bitboard::LIGHT_SQUARES).count() as u32;
    let moves = (light_now + value) % 2;
    let to_move = if moves == 0 {
        Color::White
    } else {
        Color::Black
    };
    if to_move == pos.to_move() {
        return;
    }
    out.add(ReasonCode::ImpossibleParity, Bitboard::EMPTY, || {
        format!(
            "{} is to move, but every game reaching this position has an {} number of moves, so \
             {} would be to move: no unit that can have moved can have made a move keeping the \
             colour of its square (a bishop move, a diagonal king or queen step, a rook or queen \
             move of two squares, kingside castling, a pawn's double step), the pawns' captures \
             and the captured units' squares are known up to their colours, and {light_now} units \
             stand on light squares",
            color_name(pos.to_move()),
            if moves == 0 { "even" } else { "odd" },
            color_name(to_move),
        )
    });
}

/// A pawn's path: where it ended, the captures it made (even moves) and their landing
/// squares, and whether the path is the only kind that leads there.
#[derive(Clone, Copy, Debug)]
struct Path {
    captures: u32,
    squares: Bitboard,
    end: Square,
    known: bool,
}

/// The path of a pawn of `color` from file `start` to `end` with the fewest captures, and whether it
/// is the only kind of path there (see the module documentation). `None` if no path leads there.
fn path(color: Color, start: u32, end: Square, fixed: Bitboard) -> Option<Path> {
    let c = u32::from(plain_cost(color, end, start as i32)?);
    let adv = advance(color, end);
    let mut out = Path {
        captures: c,
        squares: Bitboard::EMPTY,
        end,
        // No move, or one single step; otherwise decided below.
        known: adv <= 1 && c == 0,
    };
    if c == 0 || adv != c as i32 {
        // Straight paths of two ranks or more may or may not contain a double step; paths with
        // straight moves and captures have capture squares that depend on the order.
        out.known |= adv == 0;
        return Some(out);
    }
    // Captures only: the diagonal from the start square to `end`, every square a landing square.
    out.known = true;
    let step: i32 = if end.file() as u32 > start { 1 } else { -1 };
    let second = color.relative_rank(Rank::Second) as i32;
    let up: i32 = if color.is_white() { 1 } else { -1 };
    for k in 1..=adv {
        let sq = Square::from_coords(
            File::new((start as i32 + step * k) as u32),
            Rank::new((second + up * k) as u32),
        );
        if fixed.contains(sq) {
            // A unit that never moved stands there: no capture ever landed on it.
            return None;
        }
        // A capture landing on the sixth rank may have been en passant (the captured pawn stood
        // on the square behind, of the other colour).
        if color.relative_rank(sq.rank()) == Rank::Sixth {
            out.known = false;
        }
        out.squares.add(sq);
    }
    Some(out)
}

/// An assignment of the pawns on the board to start files, with their paths.
#[derive(Clone, Debug, Default)]
struct Assignment {
    paths: Vec<Path>,
    used: u8,
    captures: u32,
}

/// Every assignment of `color`'s pawns on the board to start files within `budget` captures, or
/// `None` if there are too many or one within the budget needs a path of unknown kind.
fn assignments(
    color: Color,
    pawns: Bitboard,
    budget: u32,
    fixed: Bitboard,
) -> Option<Vec<Assignment>> {
    let list: Vec<Square> = pawns.into_iter().collect();
    let mut out = Vec::new();
    let mut current = Assignment::default();
    if extend(color, &list, budget, fixed, &mut current, &mut out) {
        Some(out)
    } else {
        None
    }
}

/// Extends `current` by the remaining pawns of `list`; `false` to give up.
fn extend(
    color: Color,
    list: &[Square],
    budget: u32,
    fixed: Bitboard,
    current: &mut Assignment,
    out: &mut Vec<Assignment>,
) -> bool {
    let Some((&sq, rest)) = list.split_first() else {
        if current.paths.iter().any(|p| !p.known) {
            return false;
        }
        out.push(current.clone());
        return out.len() <= MAX_BRANCHES;
    };
    for start in 0..8u32 {
        if current.used & 1 << start != 0 {
            continue;
        }
        let Some(p) = path(color, start, sq, fixed) else {
            continue;
        };
        if current.captures + p.captures > budget {
            continue;
        }
        current.paths.push(p);
        current.used |= 1 << start;
        current.captures += p.captures;
        let go_on = extend(color, rest, budget, fixed, current, out);
        current.captures -= p.captures;
        current.used &= !(1 << start);
        current.paths.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// What became of a pawn that left the board.
#[derive(Clone, Copy, Debug)]
enum Fate {
    /// Captured on `path.end` after `path`.
    Captured(Path),
    /// Promoted, after at least this many captures.
    Promoted(u32),
}

impl Fate {
    fn captures(self) -> u32 {
        match self {
            Fate::Captured(p) => p.captures,
            Fate::Promoted(c) => c,
        }
    }
}

/// The fates of a pawn of `color` that left the board from file `start`, within `budget` captures:
/// captured on a square after a path (of known kind or not), or promoted.
fn fates(color: Color, start: u32, budget: u32, fixed: Bitboard) -> Vec<Fate> {
    let mut out = Vec::new();
    let ends = !fixed
        & !Bitboard::from_rank(color.backrank())
        & !Bitboard::from_rank(color.relative_rank(Rank::Eighth));
    for end in ends {
        if let Some(p) = path(color, start, end, fixed) {
            if p.captures <= budget {
                out.push(Fate::Captured(p));
            }
        }
    }
    if let Some(c) = promotion::cheapest_promotion(color, start, fixed) {
        if c <= budget {
            out.push(Fate::Promoted(c));
        }
    }
    out
}

/// The originals of one side missing from the board by kind, less those proven captured at home.
struct MissingPieces {
    knights: u32,
    rooks: u32,
    queens: u32,
    /// Bishops of the light squares (the parity argument needs no other bishops).
    light_bishops: u32,
}

/// The originals of `color` missing from the board by kind, less those proven captured at home
/// (`dead`). Valid when no unit of `color` is promoted.
fn missing_pieces(known: &Known<'_>, color: Color, dead: Bitboard) -> MissingPieces {
    let board = known.pos.board();
    let count = |role: Role, squares: Bitboard| -> u32 {
        let originals = (homes(color, role) & squares).count() as u32;
        let on_board = (board.by_piece(Piece { color, role }) & squares).count() as u32;
        let died = (homes(color, role) & squares & dead).count() as u32;
        originals.saturating_sub(on_board).saturating_sub(died)
    };
    MissingPieces {
        knights: count(Role::Knight, Bitboard::FULL),
        rooks: count(Role::Rook, Bitboard::FULL),
        queens: count(Role::Queen, Bitboard::FULL),
        light_bishops: count(Role::Bishop, Bitboard::LIGHT_SQUARES),
    }
}

/// One side's part of a branch.
struct Side<'a> {
    color: Color,
    assignment: &'a Assignment,
    fates: Vec<Fate>,
}

impl Side<'_> {
    fn pawn_captures(&self) -> u32 {
        self.assignment.captures + self.fates.iter().map(|f| f.captures()).sum::<u32>()
    }

    /// Pawn captures on squares that are not known (paths of unknown kind, promotions).
    fn unknown_captures(&self) -> u32 {
        self.fates
            .iter()
            .map(|f| match f {
                Fate::Captured(p) if p.known => 0,
                _ => f.captures(),
            })
            .sum()
    }

    /// Whether some pawn of the side took a path of unknown kind or promoted.
    fn unknown(&self) -> bool {
        self.fates.iter().any(|f| match f {
            Fate::Captured(p) => !p.known,
            Fate::Promoted(_) => true,
        })
    }

    /// Landing squares of the pawn captures, with multiplicity (those of known paths).
    fn capture_squares(&self) -> Vec<Square> {
        let paths = self
            .assignment
            .paths
            .iter()
            .copied()
            .chain(self.fates.iter().filter_map(|f| match f {
                Fate::Captured(p) => Some(*p),
                Fate::Promoted(_) => None,
            }));
        paths.flat_map(|p| p.squares.into_iter()).collect()
    }
}

/// What one branch of pawn histories says about `C + E` modulo 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BranchValue {
    /// No game follows the branch.
    Impossible,
    /// The branch is possible but its value is not known.
    Unknown,
    /// The branch is possible and `C + E` is this modulo 2.
    Parity(u32),
}

/// The value of `C + E` modulo 2 in one branch.
fn branch_value(
    known: &Known<'_>,
    sides: &ByColor<Side<'_>>,
    budgets: ByColor<u32>,
    dead: ByColor<Bitboard>,
) -> BranchValue {
    let mut spare = ByColor::<u32>::default();
    for color in Color::ALL {
        let side = sides.get(color);
        let Some(y) = budgets.get(color).checked_sub(side.pawn_captures()) else {
            return BranchValue::Impossible;
        };
        *spare.get_mut(color) = y;
    }
    // Every pawn that was captured was captured by a pawn of the other side on its square, or by a
    // piece of the other side.
    for color in Color::ALL {
        let taker = sides.get(!color);
        let mut squares = taker.capture_squares();
        let mut unmatched = 0;
        for fate in &sides.get(color).fates {
            if let Fate::Captured(p) = fate {
                if let Some(k) = squares.iter().position(|&s| s == p.end) {
                    squares.swap_remove(k);
                } else {
                    unmatched += 1;
                }
            }
        }
        // Captures on unknown squares may have taken any of them.
        if unmatched > spare.get(!color) + taker.unknown_captures() {
            return BranchValue::Impossible;
        }
    }
    // The branch is possible: its value must be known.
    if sides.iter().any(|s| s.unknown()) {
        return BranchValue::Unknown;
    }
    let mut value = 0u32;
    for color in Color::ALL {
        let victim = sides.get(color);
        let taker = sides.get(!color);
        let light = |sq: Square| u32::from(sq.is_light());
        value += dead.get(color).into_iter().map(light).sum::<u32>();
        if *spare.get(!color) == 0 {
            value += taker.capture_squares().into_iter().map(light).sum::<u32>();
        } else {
            let m = missing_pieces(known, victim.color, *dead.get(color));
            if m.knights + m.rooks + m.queens > 0 {
                return BranchValue::Unknown;
            }
            value += m.light_bishops;
            for fate in &victim.fates {
                if let Fate::Captured(p) = fate {
                    value += light(p.end);
                }
            }
        }
        value += taker.pawn_captures();
    }
    BranchValue::Parity(value % 2)
}

/// `C + E` modulo 2 if every branch of pawn histories that passes the checks gives the same value:
/// each pair of assignments of the pawns on the board (one a side), with each choice of fates for
/// the pawns that left it.
fn pawn_branches(known: &Known<'_>) -> Option<u32> {
    let fixed = known.statics.fixed;
    let dead = dead_by_pieces(known);
    let budgets = pawn_capture_budgets(known, dead)?;
    let board = known.pos.board();
    let assigned =
        ByColor::new_with(|c| assignments(c, board.by_piece(c.pawn()), *budgets.get(c), fixed));
    let (white, black) = (assigned.white?, assigned.black?);
    let mut value: Option<u32> = None;
    let mut branches = 0usize;
    for aw in &white {
        for ab in &black {
            let assigned = ByColor {
                white: aw,
                black: ab,
            };
            let Some(options) = fate_options(assigned, budgets, fixed)? else {
                continue;
            };
            let combos: usize = options.iter().map(|(_, f)| f.len()).product();
            branches += combos.max(1);
            if branches > MAX_BRANCHES {
                return None;
            }
            let mut pick = vec![0usize; options.len()];
            loop {
                let mut sides = assigned.zip_color().map(|(color, assignment)| Side {
                    color,
                    assignment,
                    fates: Vec::new(),
                });
                for (k, (color, f)) in options.iter().enumerate() {
                    sides.get_mut(*color).fates.push(f[pick[k]]);
                }
                agree(&mut value, branch_value(known, &sides, budgets, dead))?;
                if !next_pick(&mut pick, &options) {
                    break;
                }
            }
        }
    }
    value
}

/// Originals captured at home without moving, where no pawn can ever have captured (so pieces took
/// them), by colour.
fn dead_by_pieces(known: &Known<'_>) -> ByColor<Bitboard> {
    let statics = known.statics;
    ByColor::new_with(|c| {
        statics
            .died_at_home
            .get(c)
            .into_iter()
            .filter(|&h| shakmaty::attacks::pawn_attacks(c, h).is_subset(statics.fixed))
            .collect::<Bitboard>()
    })
}

/// Units each side captured with pawns at most: the other side's missing units, less those that
/// pieces took (a pawn capture there would be a promotion from a static square); `None` when the
/// count is already negative.
fn pawn_capture_budgets(known: &Known<'_>, dead: ByColor<Bitboard>) -> Option<ByColor<u32>> {
    Some(ByColor {
        white: known
            .missing(Color::Black)
            .checked_sub(dead.black.count() as u32)?,
        black: known
            .missing(Color::White)
            .checked_sub(dead.white.count() as u32)?,
    })
}

/// The fates each pawn that left the board may have had: a list per pawn, with its colour.
type FateOptions = Vec<(Color, Vec<Fate>)>;

/// The [`FateOptions`] of the pawns that left the board, under
/// the assignments of the pawns on the board; `Some(None)` when some pawn can have had none (no
/// game follows these assignments), `None` when the rule gives up.
fn fate_options(
    assigned: ByColor<&Assignment>,
    budgets: ByColor<u32>,
    fixed: Bitboard,
) -> Option<Option<FateOptions>> {
    let mut options = Vec::new();
    let mut stranded = false;
    for color in Color::ALL {
        let a = assigned.get(color);
        let left = budgets.get(color).checked_sub(a.captures)?;
        for start in 0..8u32 {
            if a.used & 1 << start == 0 {
                let f = fates(color, start, left, fixed);
                if f.is_empty() {
                    // This pawn cannot have left the board: the assignment is impossible.
                    stranded = true;
                    break;
                }
                options.push((color, f));
            }
        }
    }
    Some((!stranded).then_some(options))
}

/// Adds a branch's value to the common `value` of the branches so far: `None` (the rule gives up)
/// when the branch's value is unknown or differs.
fn agree(value: &mut Option<u32>, branch: BranchValue) -> Option<()> {
    match (branch, *value) {
        (BranchValue::Unknown, _) => None,
        (BranchValue::Impossible, _) => Some(()),
        (BranchValue::Parity(v), None) => {
            *value = Some(v);
            Some(())
        }
        (BranchValue::Parity(v), Some(old)) => (old == v).then_some(()),
    }
}

/// The next choice of one fate per pawn (`pick[k]` indexes the fates of `options[k]`), counting
/// with the first pawn's choice fastest; `false` once every choice was made.
fn next_pick(pick: &mut [usize], options: &FateOptions) -> bool {
    for (k, choice) in pick.iter_mut().enumerate() {
        *choice += 1;
        if *choice < options[k].1.len() {
            return true;
        }
        *choice = 0;
    }
    false
}
