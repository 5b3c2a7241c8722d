//! Doors a pawn closed (issue 11, item 4: "when relative to the pawn moves around it"): the units
//! that stand behind a pawn that arrived before a move `T` of [`super::timing`] came in before it,
//! and an original they pushed out of a pen that only opens at `T` was captured in that pen,
//! before `T`.
//!
//! # The argument
//!
//! Let a pawn `Q` of the taker stand on `e`, where the last capture of its walk landed (a crossing
//! of [`super::matching`] with the single landing square `e`), and let [`super::timing`] order
//! that capture before the move `T` of a pawn of known history: `Q` arrived on `e` at a moment
//! `P < T` and stood there ever since.
//!
//! *Who came in before `P`.* Call a unit `U` (not a pawn) on `u` *early* if it stood on `u` since
//! some moment before `P`. Every move that brought `U` onto `u` started on, or passed through, one
//! of the squares of [`entries`]: a step of its kind next to `u` (a slider's line, a knight's jump,
//! a castling king or rook passes the square next to where it lands), and for a piece on its last
//! rank the three squares below, from which a pawn promoted onto `u`. If each of them is static (a
//! unit that never moved held it the whole game), is `e`, or holds an early unit `V`, then `U`
//! arrived before `P`: a move from or through `e` was made while `e` was empty or held `U`, so
//! before `P`; one from or through `V`'s square was made while `V` was not there yet (`V` has
//! stood there since it arrived; with castling both arrive at once), so no later than `V`'s
//! arrival. By induction over the order in which [`early`] adds them, every early unit arrived
//! before `P`.
//!
//! *Who it pushed out.* Let an early `U` stand on `u`, which is no home square of its colour and
//! kind (so a move brought it there), and let exactly one entry `w` of `u` not be static: `U`'s
//! last move onto `u`, made at a moment `A < P < T`, came from or through `w`. Let `O` be an
//! original of the victim, of another kind than `U` if `U` is the victim's, whose squares before
//! `T` ([`super::timing::region_before`], the region of the victims of early captures) lie within
//! `u` and `w`. Just before `A`, `O` was not on `w` (`U` stood there or passed through) nor on `u`
//! (empty, or holding a unit `U` took, which may be `O` itself). A unit alive before `T` stands in
//! that region, so `O` was dead by `A`, or `U` took it at `A`: in every case `O` was captured
//! before `T`, on a square of that region. The matching then gives the missing original from
//! `O`'s home only a capture that can have landed there.
//!
//! The facts hold for the account of the taker's pawns and the branch of pawn histories at hand,
//! like the rest of the timing.

use shakmaty::{attacks, Bitboard, Board, Color, Rank, Role, Square};

use super::timing::region_before;
use crate::geometry::{home_role, steps, TimedList};

/// An original of the victim proven captured before a move, inside its region before that move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Displaced {
    /// The original's home square.
    pub home: Square,
    /// Its kind.
    pub role: Role,
    /// The squares where it was captured (its region before the move).
    pub region: Bitboard,
    /// Where the unit that pushed it out stands.
    pub by: Square,
}

/// The squares a move of a `color` `role` onto `sq` started on or passed through next to `sq`:
/// its steps, and for a piece on its last rank the squares a pawn promoted onto `sq` from.
fn entries(color: Color, role: Role, sq: Square) -> Bitboard {
    let mut out = steps(role, sq);
    if role != Role::King && sq.rank() == color.relative_rank(Rank::Eighth) {
        out |= attacks::king_attacks(sq) & Bitboard::from_rank(color.relative_rank(Rank::Seventh));
    }
    out
}

/// The squares of the units (not pawns) that stood there since before a pawn arrived on `door`
/// for good (see the module documentation), `door` included; `fixed` are the static squares.
#[must_use]
pub(super) fn early(board: &Board, fixed: Bitboard, door: Square) -> Bitboard {
    let mut early = Bitboard::from_square(door);
    let units = board.occupied() & !board.pawns() & !fixed;
    loop {
        let mut grew = false;
        for sq in units & !early {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            if entries(piece.color, piece.role, sq).is_subset(fixed | early) {
                early.add(sq);
                grew = true;
            }
        }
        if !grew {
            return early;
        }
    }
}

/// The originals of `victim` that the early units (`early`, from [`early`]) pushed out of their
/// regions before a move whose walls are `walls` (from [`super::timing::walls_before`]), never
/// along the moves of `cuts`.
pub(super) fn displaced(
    board: &Board,
    fixed: Bitboard,
    early: Bitboard,
    victim: Color,
    walls: Bitboard,
    cuts: &TimedList,
) -> Vec<Displaced> {
    let mut out = Vec::new();
    for u in early & !board.pawns() {
        let Some(unit) = board.piece_at(u) else {
            continue;
        };
        if home_role(unit.color, u) == Some(unit.role) {
            continue;
        }
        let Some(w) = (entries(unit.color, unit.role, u) & !fixed).single_square() else {
            continue;
        };
        let room = Bitboard::from_square(u).with(w);
        for home in Bitboard::from_rank(victim.backrank()) & !fixed {
            let Some(role) = home_role(victim, home).filter(|&r| r != Role::King) else {
                continue;
            };
            if unit.color == victim && unit.role == role {
                continue;
            }
            let region = region_before(victim, Bitboard::from_square(home), walls, cuts);
            if region.is_subset(room) && !out.iter().any(|d: &Displaced| d.home == home) {
                out.push(Displaced {
                    home,
                    role,
                    region,
                    by: u,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Timed;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().expect("fen").into_setup().board
    }

    #[test]
    fn units_behind_a_door_came_in_before_it_closed() {
        // The bishop on b8 came by c7, where the pawn now stands; the king on a8 by b8.
        let b = board("kB3b2/ppP1p1p1/2pp4/8/8/2PP2P1/PPp1P1P1/Kb3B2");
        let fixed = Bitboard::from_iter([
            Square::A7,
            Square::B7,
            Square::E7,
            Square::G7,
            Square::F8,
            Square::A2,
            Square::B2,
            Square::E2,
            Square::G2,
            Square::F1,
        ]);
        let e = early(&b, fixed, Square::C7);
        assert!(e.contains(Square::B8) && e.contains(Square::A8));
        // The black bishop on b1 came by c2, whose pawn's arrival is not known.
        assert!(!e.contains(Square::B1));
        // Before d7-d6 the c8 bishop stayed home, so the a8 rook had a8 and b8 only: the king
        // that passed b8 to a8 before then found it gone, captured there.
        let t = Timed {
            color: Color::Black,
            from: Square::D7,
            to: Square::D6,
        };
        let walls = super::super::timing::walls_before(Color::Black, fixed, t, Bitboard::EMPTY);
        let out = displaced(&b, fixed, e, Color::Black, walls, &TimedList::default());
        assert_eq!(
            out,
            [Displaced {
                home: Square::A8,
                role: Role::Rook,
                region: Bitboard::from_square(Square::A8).with(Square::B8),
                by: Square::A8,
            }]
        );
        // With a capture landing on c8, the bishop may have died at home: the rook had more room.
        let walls = super::super::timing::walls_before(
            Color::Black,
            fixed,
            t,
            Bitboard::from_square(Square::C8),
        );
        assert!(displaced(&b, fixed, e, Color::Black, walls, &TimedList::default()).is_empty());
    }
}
