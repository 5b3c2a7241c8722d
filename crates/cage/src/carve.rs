//! Claims carved out of a position: its clusters of touching units ([`clusters`]), the units
//! of a cluster that can walk away ([`retreat`], [`peel`]), and the claim of a set of units with
//! the facts the position gives ([`claim`], [`whole_claim`]). Heuristic choices of what to try;
//! the proofs are the verifier's.
//!
//! # Clusters
//! A cluster is a connected component of the occupied squares, two squares being connected when
//! they are a king's move apart. This is the grouping the verifier's default zone (the units and
//! every square a king's move from one) suggests: the zone of a cluster holds no unit of any other
//! cluster, so the cluster is exactly the set of units the verification of its zone would see.
//! Cages live in such knots of touching units (a walled-in unit touches its walls, a king shut in
//! touches its jailers); a cage that is only part of a larger cluster is tried as the whole
//! cluster, which is also a cage (every extension of the cluster extends the cage) but may take
//! more nodes to verify, or more units than the cap.
//!

use retrace_legal::geometry::bounded_flood;
use retrace_unmove::RetroPosition;
use shakmaty::{attacks, Bitboard, Board, ByColor, Color, File, Rank, Role, Square};

use super::format::{default_zone, Cage, DEFAULT_DEPTH, INITIAL, MAX_DEPTH};

/// The clusters of `board`: the connected components of its occupied squares under king moves,
/// smallest first (then by lowest square).
#[must_use]
pub fn clusters(board: &Board) -> Vec<Bitboard> {
    let mut left = board.occupied();
    let mut out = Vec::new();
    while let Some(start) = left.first() {
        let mut cluster = Bitboard::from_square(start);
        let mut frontier = cluster;
        while frontier.any() {
            let around = frontier
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq));
            frontier = around & left & !cluster;
            cluster |= frontier;
        }
        left &= !cluster;
        out.push(cluster);
    }
    out.sort_by_key(|c| (c.count(), c.first()));
    out
}

/// The squares a unit of `piece` on `from` could retract to, over any number of its own
/// retractions, if every other unit of `board` stood still: a pawn goes back down its file or
/// diagonally (an uncapture) until its second rank, a king never onto a square an enemy unit of
/// `board` attacks, other units along their lines. A heuristic for [`peel`], not a proof.
pub(crate) fn retreat(board: &Board, from: Square) -> Bitboard {
    retreat_among(board, from, board.occupied())
}

/// [`retreat`], with only the units on `attackers` keeping a king off the squares they attack.
fn retreat_among(board: &Board, from: Square, attackers: Bitboard) -> Bitboard {
    let Some(piece) = board.piece_at(from) else {
        return Bitboard::EMPTY;
    };
    let occupied = board.occupied() & !Bitboard::from_square(from);
    // Before its move the unit's side was to move: it gave no check from there (the squares from
    // which it would attack the enemy king are those a unit of its kind on the king's square
    // attacks, with a pawn's direction reversed), and a king stood in no check.
    let enemy_king = (board.kings() & board.by_color(piece.color.other())).first();
    let checking = enemy_king.map_or(Bitboard::EMPTY, |k| {
        let mirror = if piece.role == Role::Pawn {
            piece.role.of(piece.color.other())
        } else {
            piece
        };
        attacks::attacks(k, mirror, occupied)
    });
    // The squares an enemy unit attacks, the king gone from its own (one look per enemy unit
    // rather than one per empty square).
    let attacked = if piece.role == Role::King {
        (board.by_color(piece.color.other()) & attackers)
            .into_iter()
            .filter_map(|sq| {
                board
                    .piece_at(sq)
                    .map(|p| attacks::attacks(sq, p, occupied))
            })
            .fold(Bitboard::EMPTY, |all, a| all | a)
    } else {
        Bitboard::EMPTY
    };
    let open = !occupied & !checking & !attacked;
    match piece.role {
        Role::Pawn => {
            let back = |b: Bitboard| match piece.color {
                Color::White => b.shift(-8),
                Color::Black => b.shift(8),
            };
            let above_home = !Bitboard::from_rank(piece.color.relative_rank(Rank::First));
            let mut seen = Bitboard::from_square(from);
            let mut frontier = seen;
            while frontier.any() {
                let straight = back(frontier);
                let b = u64::from(straight);
                let sideways = Bitboard(
                    (b & !u64::from(Bitboard::from_file(File::H))) << 1
                        | (b & !u64::from(Bitboard::from_file(File::A))) >> 1,
                );
                let next = (straight | sideways) & open & above_home & !seen;
                seen |= next;
                frontier = next;
            }
            seen
        }
        role => bounded_flood(role, Bitboard::from_square(from), open, 64).unwrap_or(open),
    }
}

/// Whether the units of `cage` can be settled one after the other, each walking alone (as
/// [`retreat`] sees it, the others standing still) out of the claim's zone or onto a home square
/// of its kind, where it then stands in the others' way: the shape of the lines along which a
/// claim that is no cage lets its units go home or away ([`crate::Failure::AllHome`],
/// [`crate::Failure::BoardEmpty`]). A unit already on a home square of its kind is settled. A
/// settled pawn stands on its second rank for good (no retraction moves it) and keeps attacking;
/// a settled piece may step off its home square and back, so it blocks but no longer keeps a
/// king off the squares it attacks. A heuristic for which claims are worth a verification (a
/// unit that cannot be settled so is what a cage shuts in), never a proof: a claim that settles
/// is not tried, which only gives up a cage the verifier might have proven.
#[must_use]
pub(crate) fn settles(cage: &Cage) -> bool {
    let mut board = cage.board.clone();
    let mut left = board.occupied() & !cage.frozen;
    loop {
        let before = left;
        for sq in left {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let homes = INITIAL.by_piece(piece);
            if homes.contains(sq) {
                left.discard(sq);
                continue;
            }
            let reach = retreat_among(&board, sq, left | board.pawns());
            if (reach & !cage.zone).any() {
                board.discard_piece_at(sq);
                left.discard(sq);
            } else if let Some(home) = (reach & homes).first() {
                board.discard_piece_at(sq);
                board.set_piece_at(home, piece);
                left.discard(sq);
            }
        }
        if left.is_empty() {
            return true;
        }
        if left == before {
            return false;
        }
    }
}

/// What peeling a cluster leaves (see [`peel`]).
pub(crate) enum Peeled {
    /// No unit could walk away: the cluster is its own core.
    Whole,
    /// Some units walked away; the rest, split into clusters again.
    Cores(Vec<Bitboard>),
    /// Every unit could walk away on its own, one after the other: no cage is to be expected.
    Dissolved,
}

/// Peels `cluster` of `board`: takes away every unit that could retract out of the cluster's
/// zone on its own (see [`retreat`]), again and again as the zone shrinks, and splits what stays
/// into clusters again. A cage hidden in a crowd is usually such a core: units that can walk away
/// are not what holds it, and the verification of the smaller claim is far cheaper (a smaller set
/// caged proves every larger one caged). A heuristic choice of claims, never a proof.
pub(crate) fn peel(board: &Board, cluster: Bitboard) -> Peeled {
    let mut units = cluster;
    loop {
        let mut claim = Board::empty();
        for sq in units {
            if let Some(piece) = board.piece_at(sq) {
                claim.set_piece_at(sq, piece);
            }
        }
        let zone = default_zone(&claim);
        let leaving: Bitboard = units
            .into_iter()
            .filter(|&sq| (retreat(&claim, sq) & !zone).any())
            .collect();
        if leaving.is_empty() {
            break;
        }
        units &= !leaving;
    }
    if units == cluster {
        return Peeled::Whole;
    }
    if units.count() < 2 {
        return Peeled::Dissolved;
    }
    let mut rest = Board::empty();
    for sq in units {
        if let Some(piece) = board.piece_at(sq) {
            rest.set_piece_at(sq, piece);
        }
    }
    Peeled::Cores(clusters(&rest))
}

/// The claim for `cluster` of `pos`: its units, their frozen marks, and capture bounds from the
/// units each side is missing. `None` if the claim is malformed (a verifier would refuse it).
pub(crate) fn claim(pos: &RetroPosition, cluster: Bitboard) -> Option<Cage> {
    let whole = pos.board();
    let mut board = Board::empty();
    for sq in cluster {
        board.set_piece_at(sq, whole.piece_at(sq)?);
    }
    // A frozen mark on a unit away from its home square makes the position illegal anyway; the
    // claim keeps only the marks a cage accepts.
    let frozen = (pos.frozen() & cluster)
        .into_iter()
        .filter(|&sq| INITIAL.piece_at(sq) == board.piece_at(sq))
        .collect();
    // Every capture removes one unit of the opponent, and nothing adds any: a side made exactly
    // as many captures as the opponent is missing units.
    let captures = ByColor::new_with(|c: Color| {
        let missing = 16usize.saturating_sub(whole.by_color(c.other()).count());
        u8::try_from(missing).ok().filter(|&n| n <= 15)
    });
    let cage = Cage {
        zone: default_zone(&board),
        board,
        frozen,
        depth: DEFAULT_DEPTH,
        captures,
    };
    cage.validate().ok().map(|()| cage)
}

/// The claim of the closure of `units` of `pos`: [`claim`], with no captures for a side whose
/// uncaptures the position forbids, and the largest depth.
pub(crate) fn whole_claim(pos: &RetroPosition, units: Bitboard) -> Option<Cage> {
    let mut cage = claim(pos, units)?;
    for color in Color::ALL {
        if !pos.uncaptures_allowed(color) {
            *cage.captures.get_mut(color) = Some(0);
        }
    }
    cage.depth = MAX_DEPTH;
    Some(cage)
}
