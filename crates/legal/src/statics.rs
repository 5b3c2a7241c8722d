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

use retrace_unmove::RetroPosition;
use shakmaty::{attacks, Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};

use crate::{
    types::{squares_text, Reason, ReasonCode},
    CAGE_LIMIT,
};

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
    /// Pieces that can have come neither from home nor from a promotion.
    pub unreachable: Bitboard,
}

/// The role whose original stands on `sq` in the initial array, for `color`'s back rank.
fn home_role(color: Color, sq: Square) -> Option<Role> {
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
    let files: &[File] = match role {
        Role::Pawn => &[],
        Role::Knight => &[File::B, File::G],
        Role::Bishop => &[File::C, File::F],
        Role::Rook => &[File::A, File::H],
        Role::Queen => &[File::D],
        Role::King => &[File::E],
    };
    files
        .iter()
        .map(|&f| Square::from_coords(f, color.backrank()))
        .collect()
}

/// Squares one step of `role` away from `sq` (for sliders: the adjacent squares on their lines).
fn steps(role: Role, sq: Square) -> Bitboard {
    match role {
        Role::Pawn => Bitboard::EMPTY,
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, Bitboard::FULL),
        Role::Rook => attacks::rook_attacks(sq, Bitboard::FULL),
        Role::Queen | Role::King => attacks::king_attacks(sq),
    }
}

/// One step of `role` from every square of `from`.
fn dilate(role: Role, from: Bitboard) -> Bitboard {
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
        Role::Knight => from
            .into_iter()
            .fold(0, |acc, sq| acc | u64::from(attacks::knight_attacks(sq))),
    })
}

/// Promotion squares of `color` a pawn can ever have promoted on, given the static squares.
fn promotion_squares(color: Color, fixed: Bitboard) -> Bitboard {
    let last = Bitboard::from_rank(color.relative_rank(Rank::Eighth));
    (last & !fixed)
        .into_iter()
        .filter(|&p| {
            let back = if color.is_white() { -8 } else { 8 };
            let straight = p
                .offset(back)
                .map_or(Bitboard::EMPTY, Bitboard::from_square);
            let origins = straight | attacks::pawn_attacks(color.other(), p);
            (origins & !fixed).any()
        })
        .collect()
}

/// The squares a unit of `role` on `from` can have visited, moving by steps through `open` squares.
/// Stops early once the region meets `target` and exceeds `limit` squares: then the caller learns
/// only that much (a target is reachable, the region is larger than `limit`).
fn region(role: Role, from: Square, open: Bitboard, target: Bitboard, limit: usize) -> Bitboard {
    let mut seen = Bitboard::from_square(from);
    let mut frontier = seen;
    loop {
        let next = dilate(role, frontier) & open & !seen;
        if next.is_empty() {
            return seen;
        }
        seen |= next;
        frontier = next;
        if (seen & target).any() && seen.count() > limit {
            return seen;
        }
    }
}

/// Runs the static analysis of `pos`.
#[must_use]
pub(crate) fn analyze_statics(pos: &RetroPosition) -> Statics {
    let board = pos.board();
    let mut fixed = (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Second))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Seventh));
    for sq in pos.frozen() {
        if let Some(piece) = board.piece_at(sq) {
            if home_role(piece.color, sq) == Some(piece.role) {
                fixed.add(sq);
            }
        }
    }
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
                if board.piece_at(sq) == Some(Piece { color, role }) {
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
    let mut out = Statics {
        never_moved: fixed & board.occupied(),
        ..Statics::default()
    };
    for color in Color::ALL {
        *out.stuck_missing.get_mut(color) = *stuck.get(color);
        pens(board, color, fixed, &mut out);
    }
    let open = !fixed;
    let promo = ByColor::new_with(|c| promotion_squares(c, fixed));
    let limit = CAGE_LIMIT as usize;
    for sq in board.occupied() & !board.pawns() {
        let Some(Piece { color, role }) = board.piece_at(sq) else {
            continue;
        };
        if fixed.contains(sq) {
            if (steps(role, sq) & open).is_empty() {
                out.caged.add(sq);
            }
            continue;
        }
        let home = homes(color, role) & open;
        let promotion = if role == Role::King {
            Bitboard::EMPTY
        } else {
            *promo.get(color)
        };
        let seen = region(role, sq, open, home, limit);
        if seen.count() <= limit {
            out.caged.add(sq);
        }
        if (seen & home).is_empty() {
            if (seen & promotion).is_empty() {
                out.unreachable.add(sq);
            } else {
                out.promoted.add(sq);
            }
        }
    }
    out.promoted |= pos.promoted() & board.occupied() & !board.pawns() & !board.kings();
    out
}

/// Largest pen searched for originals captured by pieces; larger regions are given up.
const PEN_LIMIT: usize = 16;

/// Pens of `color`'s originals: the squares each original can ever have visited, through non-static
/// squares. If a pen holds fewer units of the kind than originals start in it, the others were
/// captured inside it; if no enemy pawn can ever capture on a square of the pen, pieces made those
/// captures. Kings are never captured and are left out.
fn pens(board: &shakmaty::Board, color: Color, fixed: Bitboard, out: &mut Statics) {
    let open = !fixed;
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        let mut done = Bitboard::EMPTY;
        for home in homes(color, role) & open {
            if done.contains(home) {
                continue;
            }
            let mut seen = Bitboard::from_square(home);
            let mut frontier = seen;
            let mut pawn_reach = false;
            while frontier.any() && seen.count() <= PEN_LIMIT && !pawn_reach {
                pawn_reach = frontier
                    .into_iter()
                    .any(|q| !attacks::pawn_attacks(color, q).is_subset(fixed));
                frontier = dilate(role, frontier) & open & !seen;
                seen |= frontier;
            }
            let starts = homes(color, role) & seen;
            done |= starts;
            if pawn_reach || frontier.any() {
                continue;
            }
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
            out.captured_at_home.get_mut(color).add(gone);
        }
    }
}

/// One [`ReasonCode::UnreachableSquare`] reason per unreachable unit.
pub(crate) fn unreachable_reasons(pos: &RetroPosition, statics: &Statics, out: &mut Vec<Reason>) {
    let board = pos.board();
    for sq in statics.unreachable {
        let Some(Piece { color, role }) = board.piece_at(sq) else {
            continue;
        };
        let seen = region(role, sq, !statics.never_moved, Bitboard::EMPTY, 64);
        let walls = dilate(role, seen) & statics.never_moved;
        let home = homes(color, role);
        let what = if role == Role::King {
            format!("from its home square {}", squares_text(home))
        } else {
            format!("from {} or from a promotion square", squares_text(home))
        };
        out.push(Reason::new(
            ReasonCode::UnreachableSquare,
            format!(
                "the {} {} on {sq} cannot have arrived there {what}: units that never moved (on {}) \
                 wall it in",
                crate::checks::color_adj(color),
                role_name(role),
                squares_text(walls)
            ),
            walls.with(sq),
        ));
    }
}

/// Lower-case role name for messages.
pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
