//! Tempo: a side shut in by its own walls has too few moves to spare for the moves the other side
//! still had to make (the composers' "tempo" argument, issue 27; the tempo family of issue 25).
//!
//! # The argument
//!
//! Call `S` the side whose moves are counted and `O` the other. Take a set `D` of pawns with a
//! known one-step history (see [`crate::statics`]: a pawn on its third rank that can only have come
//! from one square), of either colour, and let `T` be the moment the last of their steps was played
//! (`T` is the start of the game when `D` is empty). From `T` on, every square a pawn of `D` moved
//! to is occupied (the pawn never moved again: it is on its third rank), and so is every static
//! square; the units of the board locked by those squares (see [`super::locked`]) stood still
//! from `T` on (a side with all eight pawns on the board never promoted, so a unit on the rank it
//! would promote on needs only its own steps blocked).
//!
//! *What `S` can have played after `T`.* Suppose every piece of `S` on the board is static or
//! locked (so none moved after `T`: no castling either), and every unit `S` is missing died by `T`:
//! each was an original proven captured at home without ever moving, or was taken by one of the
//! captures among the steps of `D`'s pawns of `O` (each of those took a unit of `S`, on a square
//! that is no home of `S`, so they are different units). Then `S` moved only its pawns on the board
//! after `T`, and a pawn advances a rank with every move: at most `k` moves, the ranks its pawns
//! advanced, leaving out the pawns of `D` (their one step came by `T`).
//!
//! *What `O` needed after `T`.* Say the step of the pawn of `D` from `f` to `t` came last. Until
//! `T` the square `f` was occupied, and so were the static squares: a unit of `O` on the board
//! was at `T` in the region flooded through other squares from where it can have started (the
//! home squares of its kind, and the squares castling takes a king or rook to; the promotion
//! squares of `O` if `O` can have promoted), or was promoted after `T` on such a promotion
//! square. After `T` it moved through squares that are neither
//! static nor squares of `D`'s pawns nor locked (all occupied from `T` on by units that are still
//! there), so it made at least as many moves after `T` as its kind needs to come from that region
//! to its square through those walls. Distinct units make distinct moves (castling is counted once:
//! its squares are starting points of the king and rook), so `O` made at least the sum, `n`. When
//! `D` is empty, `O`'s pawns on the board also made at least as many moves as the ranks they
//! advanced, less one for a double step.
//!
//! *The contradiction.* The moves after `T` alternate. If `T` was a move of `S` (for the empty `D`:
//! if `S` is Black, whose "move" the start of the game follows), `O` made at most `k`, or `k + 1`
//! when `S` is to move; if it was a move of `O` (for the empty `D`: `S` is White), `O` made at most
//! `k`, or `k - 1` when `O` is to move (then `S` moved last, after `T`). If for every choice of
//! the last step of `D` `n` exceeds that bound, no game reaches the position.
//!
//! Example (`r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n b kq -`): with Black's castling
//! rights Ke8, Ra8 and Rh8 never moved, and neither did Bc8, Qd8 and Bf8 behind their pawns; the
//! knights on a1 and h1 are shut in once b3 and g3 (from b2 and g2: a2, c2, f2 and h2 never moved)
//! are played. After the later of those two steps Black had one move, f7-f6, and Black is to move,
//! so White made at most one. If b2-b3 came last, Bc1 stood on c1 until then and needed two moves
//! to d4 (by b2); if g2-g3 came last, Bf1 needed two to e4 (by g2). Without either right the other
//! rook had moves to spare; with the f-pawn on f5 Black had two moves, and the position is legal.

use shakmaty::{attacks, Bitboard, ByColor, Color, Piece, Role, Square};

use super::locked::locked_unless_promoting;
use crate::geometry::{flood, homes, promotion_squares, steps as steps_of, Timed};
use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_name, join_and};
use crate::types::{Reason, ReasonCode};

/// Most pawns with a known history whose subsets are all tried (beyond, only the set of all).
const MAX_STEPS: usize = 6;

/// A proof found for one side: the set of steps, the moves left, and each last step's shortfall.
struct Short {
    /// The side whose moves are counted.
    side: Color,
    /// The steps of `D`.
    steps: Vec<Timed>,
    /// The most moves `S` can have made after `T`.
    spare: u32,
    /// For each possible last step (`None`: the start of the game): the most moves `O` can have
    /// made after it, the moves it needed, and the units that needed them.
    cases: Vec<Case>,
}

/// One choice of the last step of `D`.
struct Case {
    last: Option<Timed>,
    bound: i64,
    need: u32,
    units: Vec<(Square, u32)>,
}

/// Appends a [`ReasonCode::Tempo`] reason for each side that had too few moves to spare.
pub(crate) fn tempo(known: &Known<'_>, out: &mut Reasons) {
    for side in Color::ALL {
        if !gate(known, side) {
            continue;
        }
        if let Some(short) = prove(known, side) {
            out.add_built(ReasonCode::Tempo, || reason(known, &short));
        }
    }
}

/// The units locked once every square of `blocked` is occupied; a side with all eight pawns on the
/// board never promotes, so nothing arrives on its last rank by a promotion.
fn shut_in(known: &Known<'_>, blocked: Bitboard) -> Bitboard {
    let board = known.pos.board();
    let can_promote = ByColor::new_with(|c| board.by_piece(c.pawn()).count() < 8);
    locked_unless_promoting(board, blocked, can_promote)
}

/// The steps of the pawns with a known history, in square order.
fn steps(known: &Known<'_>) -> Vec<Timed> {
    known.statics.timed.iter().collect()
}

/// The squares the pawns of `set` moved to.
fn landings(set: &[Timed]) -> Bitboard {
    set.iter().map(|t| t.to).collect()
}

/// How many of `set` are captures by pawns of `by`.
fn captures_by(set: &[Timed], by: Color) -> u32 {
    set.iter()
        .filter(|t| t.color == by && t.from.file() != t.to.file())
        .count() as u32
}

/// The cheap test: with every pawn of known history moved, are all pieces of `side` static or
/// locked, and did all its missing units die by then? (Locking only grows with more walls, so
/// when this fails every smaller set fails too.)
fn gate(known: &Known<'_>, side: Color) -> bool {
    let board = known.pos.board();
    let fixed = known.statics.fixed;
    let timed = known.statics.timed;
    let died = known.statics.died_at_home.get(side).count() as u32;
    let captures = timed
        .iter()
        .filter(|t| t.color != side && t.from.file() != t.to.file())
        .count() as u32;
    if known.missing(side) > died + captures {
        return false;
    }
    let pieces = board.by_color(side) & !board.pawns() & !fixed;
    // A locked unit has every square it steps to occupied now: most positions end here.
    let occupied = board.occupied();
    let boxed = pieces.into_iter().all(|sq| {
        board
            .role_at(sq)
            .is_some_and(|role| steps_of(role, sq).is_subset(occupied))
    });
    if !boxed {
        return false;
    }
    let walls = fixed | timed.iter().map(|t| t.to).collect::<Bitboard>();
    (pieces & !shut_in(known, walls)).is_empty()
}

/// Tries every set `D` of steps; the first that proves the position illegal.
fn prove(known: &Known<'_>, side: Color) -> Option<Short> {
    let all = steps(known);
    let sets: Vec<Vec<Timed>> = if all.len() <= MAX_STEPS {
        (0u32..1 << all.len())
            .map(|mask| {
                all.iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, &t)| t)
                    .collect()
            })
            .collect()
    } else {
        vec![Vec::new(), all]
    };
    sets.into_iter().find_map(|set| try_set(known, side, set))
}

/// The proof with the steps of `set`, if it holds for every choice of the last of them.
fn try_set(known: &Known<'_>, side: Color, set: Vec<Timed>) -> Option<Short> {
    let board = known.pos.board();
    let fixed = known.statics.fixed;
    let blocked = fixed | landings(&set);
    let shut = shut_in(known, blocked);
    let pieces = board.by_color(side) & !board.pawns();
    if !(pieces & !fixed & !shut).is_empty() {
        return None;
    }
    let died = known.statics.died_at_home.get(side).count() as u32;
    if known.missing(side) > died + captures_by(&set, side.other()) {
        return None;
    }
    let spare: u32 = (board.by_piece(side.pawn()) & !fixed & !blocked)
        .into_iter()
        .map(|p| advance(side, p))
        .sum();
    let walls_after = blocked | shut;
    let lasts: Vec<Option<Timed>> = if set.is_empty() {
        vec![None]
    } else {
        set.iter().copied().map(Some).collect()
    };
    let mut cases = Vec::with_capacity(lasts.len());
    for last in lasts {
        let before = last.map(|t| fixed.with(t.from));
        let (need, units) = needed(known, side.other(), before, walls_after);
        // The colour of the move at `T`; the start of the game follows a "move" of Black.
        let mover = last.map_or(Color::Black, |t| t.color);
        let k = i64::from(spare);
        let to_move = known.pos.to_move();
        let bound = if mover == side {
            k + i64::from(to_move == side)
        } else {
            k - i64::from(to_move != side)
        };
        if i64::from(need) <= bound {
            return None;
        }
        cases.push(Case {
            last,
            bound,
            need,
            units,
        });
    }
    Some(Short {
        side,
        steps: set,
        spare,
        cases,
    })
}

/// The ranks a pawn of `color` on `sq` advanced.
fn advance(color: Color, sq: Square) -> u32 {
    (color.relative_rank(sq.rank()) as u32).saturating_sub(1)
}

/// The least number of moves the units of `them` made after `T`, with the units that needed some:
/// `before` are the squares occupied throughout until `T` (`None`: `T` is the start of the game),
/// `walls` those occupied from `T` on.
fn needed(
    known: &Known<'_>,
    them: Color,
    before: Option<Bitboard>,
    walls: Bitboard,
) -> (u32, Vec<(Square, u32)>) {
    let board = known.pos.board();
    let fixed = known.statics.fixed;
    let may_promote = board.by_piece(them.pawn()).count() < 8;
    let promotion = promotion_squares(them, fixed);
    let mut total = 0;
    let mut units = Vec::new();
    for sq in board.by_color(them) & !walls {
        let Some(Piece { role, .. }) = board.piece_at(sq) else {
            continue;
        };
        let moves = if role == Role::Pawn {
            if before.is_some() {
                0
            } else {
                let a = advance(them, sq);
                a - u32::from(a >= 2)
            }
        } else {
            let mut seeds = homes(them, role) | castled(them, role);
            if may_promote && role != Role::King {
                seeds |= promotion;
            }
            let region = match before {
                Some(occupied) => flood(role, seeds, !occupied) | seeds,
                None => seeds,
            };
            distance(role, region & !walls, sq, walls).unwrap_or(0)
        };
        if moves > 0 {
            total += moves;
            units.push((sq, moves));
        }
    }
    (total, units)
}

/// The squares castling takes a king (`c` and `g`) or rook (`d` and `f`) of `color` to.
fn castled(color: Color, role: Role) -> Bitboard {
    let files = match role {
        Role::King => [shakmaty::File::C, shakmaty::File::G],
        Role::Rook => [shakmaty::File::D, shakmaty::File::F],
        _ => return Bitboard::EMPTY,
    };
    files
        .into_iter()
        .map(|f| Square::from_coords(f, color.backrank()))
        .collect()
}

/// The fewest moves of a unit of `role` from a square of `from` to `to`, never onto or across a
/// square of `walls`; `None` if it cannot get there.
fn distance(role: Role, from: Bitboard, to: Square, walls: Bitboard) -> Option<u32> {
    let piece = Piece {
        color: Color::White,
        role,
    };
    let mut seen = from;
    let mut frontier = from;
    let mut d = 0;
    loop {
        if seen.contains(to) {
            return Some(d);
        }
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= attacks::attacks(sq, piece, walls);
        }
        next &= !walls & !seen;
        if next.is_empty() {
            return None;
        }
        seen |= next;
        frontier = next;
        d += 1;
    }
}

/// The sentence, as a composer writes it: what shut the side in, its moves to spare, and in each
/// case (each step that may have come last) the moves the other side needed since.
fn reason(known: &Known<'_>, short: &Short) -> Reason {
    let board = known.pos.board();
    let side = short.side;
    let them = side.other();
    let step_text = |t: &Timed| {
        let sep = if t.from.file() == t.to.file() {
            '-'
        } else {
            'x'
        };
        format!("{}{sep}{}", t.from, t.to)
    };
    let mut squares = board.by_color(side) & !board.pawns();
    let list: Vec<String> = short.steps.iter().map(step_text).collect();
    squares |= landings(&short.steps);
    let (once, after) = match list.len() {
        0 => (String::new(), "since the start".to_owned()),
        1 => (format!(" once {} was played", list[0]), "since".to_owned()),
        _ => (
            format!(" once {} were played", join_and(&list)),
            "after the last of them".to_owned(),
        ),
    };
    let moves = |n: i64| format!("{n} move{}", if n == 1 { "" } else { "s" });
    let cases: Vec<String> = short
        .cases
        .iter()
        .map(|c| {
            let mut names = Vec::with_capacity(c.units.len());
            for &(sq, n) in &c.units {
                squares.add(sq);
                let role = board.role_at(sq).map_or("unit", retrace_unmove::role_name);
                names.push((format!("the {role} on {sq}"), n));
            }
            let head = match c.last {
                Some(t) if short.cases.len() > 1 => format!("if {} came last, ", step_text(&t)),
                _ => String::new(),
            };
            if c.bound < 0 {
                // `O` is to move, so `S` moved last, after `T`, with no move to spare.
                return format!(
                    "{head}{} is to move, so {} moved last, after that, with no move left",
                    color_name(them),
                    color_name(side)
                );
            }
            let needed = match names.as_slice() {
                [] => "it needed more".to_owned(),
                [(name, n)] => format!("{name} needed {}", moves(i64::from(*n))),
                _ => {
                    let each: Vec<String> = names
                        .iter()
                        .map(|(name, n)| format!("{name} {}", moves(i64::from(*n))))
                        .collect();
                    format!(
                        "its units needed {} ({})",
                        moves(i64::from(c.need)),
                        join_and(&each)
                    )
                }
            };
            format!(
                "{head}{} made at most {} since, but {needed}",
                color_name(them),
                moves(c.bound.max(0)),
            )
        })
        .collect();
    Reason::new(
        ReasonCode::Tempo,
        format!(
            "{}'s pieces never moved or were shut in{once}, and its missing units died by then, \
             so {after} {} moved only pawns, {} at most, and the moves alternate: {}",
            color_name(side),
            color_name(side),
            moves(i64::from(short.spare)),
            cases.join("; ")
        ),
        squares,
    )
}

#[cfg(test)]
mod tests {
    use crate::{analyze, ReasonCode};
    use retrace_unmove::RetroPosition;

    fn fires(fen: &str) -> bool {
        let pos = RetroPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        analyze(&pos).has(ReasonCode::Tempo)
    }

    /// The example of the module: with both of Black's castling rights, Black has one move to
    /// spare after White's last pawn step, and White needs two.
    const TRIGGER: &str = "r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n b kq -";

    #[test]
    fn black_shut_in_by_its_rights_has_too_few_moves() {
        assert!(fires(TRIGGER));
        // White to move: Black moved last, after White's last step, so White made no move since.
        assert!(fires(
            "r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n w kq -"
        ));
    }

    #[test]
    fn the_colour_swap_fires_too() {
        assert!(fires(
            "N3k2N/p1pppp1p/1p4p1/3bb3/8/5P2/PPPPP1PP/R1BQKB1R w KQ -"
        ));
    }

    #[test]
    fn near_misses_do_not_fire() {
        // The f-pawn on f5: two Black moves, as many as White needs (legal).
        assert!(!fires(
            "r1bqkb1r/ppppp1pp/8/5p2/3BB3/1P4P1/P1PPPP1P/n3K2n b kq -"
        ));
        // Only one right: the other rook moves to and fro.
        assert!(!fires(
            "r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n b k -"
        ));
        // The light bishop one move from f1 (on g2): White needs one move if g2-g3 came last.
        assert!(!fires(
            "r1bqkb1r/ppppp1pp/5p2/8/3B4/1P4P1/P1PPPPBP/n3K2n b kq -"
        ));
    }
}
