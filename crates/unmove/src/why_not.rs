//! Why a retraction is not legal in a position: the first rule it breaks, in words.
//!
//! Only used to explain a refusal to a person (never on the generator's path): the generator
//! decides what is legal, this module names the simplest rule the wanted retraction breaks,
//! checked in the order a reader would (the unit, its geometry, the square it came from) and
//! falling back to the rules about the position before the move.

use shakmaty::{attacks, Bitboard, Color, Move, Piece, Rank, Role, Square};

use crate::{ColorName, Retraction, RetroPosition};

/// The rule `r` breaks in `pos` (for a retraction that is not among `pos.retractions()`).
pub(crate) fn why_not(pos: &RetroPosition, r: Retraction) -> String {
    let color = pos.retracting();
    let board = pos.board();
    match r.forward() {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let stands = promotion.unwrap_or(role);
            if let Some(reason) = unit_on(
                pos,
                to,
                Piece {
                    color,
                    role: stands,
                },
            ) {
                return reason;
            }
            if board.occupied().contains(from) {
                return format!("{from} is occupied, so no unit can have come from there");
            }
            if role == Role::Pawn {
                if let Some(reason) = pawn_geometry(color, from, to, r.uncaptured().is_some()) {
                    return reason;
                }
                if promotion.is_some() && to.rank() != color.fold_wb(Rank::Eighth, Rank::First) {
                    return format!("a pawn promotes only on the last rank, not on {to}");
                }
            } else {
                let piece = Piece { color, role };
                if !attacks::attacks(from, piece, Bitboard::EMPTY).contains(to) {
                    return format!("a {} cannot move from {from} to {to}", role_name(role));
                }
                let others = board.occupied().without(to);
                if !attacks::attacks(from, piece, others).contains(to) {
                    return format!("the way from {from} to {to} is blocked");
                }
            }
            // The position before: the unit back on `from`, the uncaptured unit on `to`.
            let mut before = board.clone();
            before.discard_piece_at(to);
            before.set_piece_at(from, Piece { color, role });
            if let Some(captured) = r.uncaptured() {
                before.set_piece_at(
                    to,
                    Piece {
                        color: !color,
                        role: captured,
                    },
                );
            }
            if let Some(king) = before.king_of(!color) {
                if before.attacks_to(king, color, before.occupied()).any() {
                    return format!(
                        "before it the {} king on {king} would stand in check with {} to move",
                        ColorName(!color),
                        ColorName(color)
                    );
                }
            }
        }
        Move::EnPassant { to, .. } => {
            if let Some(reason) = unit_on(
                pos,
                to,
                Piece {
                    color,
                    role: Role::Pawn,
                },
            ) {
                return reason;
            }
        }
        Move::Castle { .. } => {
            let king = Piece {
                color,
                role: Role::King,
            };
            if let Some(reason) = unit_on(pos, r.current_square(), king) {
                return reason;
            }
        }
        Move::Put { .. } => return "a drop is not a chess move".into(),
    }
    "the position before it is impossible (a unit marked as never having moved or as promoted, \
     a king left in check, an uncapture no game allows, or an en passant or castling right)"
        .into()
}

/// Why `piece` does not stand on `square`, if it does not.
fn unit_on(pos: &RetroPosition, square: Square, piece: Piece) -> Option<String> {
    match pos.board().piece_at(square) {
        Some(found) if found == piece => None,
        Some(found) if found.color == piece.color => Some(format!(
            "the unit on {square} is a {}, not a {}",
            role_name(found.role),
            role_name(piece.role)
        )),
        _ => Some(format!(
            "there is no {} unit on {square} to take back",
            ColorName(piece.color)
        )),
    }
}

/// Why a pawn of `color` cannot go from `from` to `to` (capturing or not), if it cannot.
fn pawn_geometry(color: Color, from: Square, to: Square, capture: bool) -> Option<String> {
    let steps = i32::from(to.rank()) - i32::from(from.rank());
    let forward = if color.is_white() { steps } else { -steps };
    let sideways = (i32::from(to.file()) - i32::from(from.file())).abs();
    let fits = if capture {
        forward == 1 && sideways == 1
    } else {
        sideways == 0
            && (forward == 1
                || (forward == 2 && from.rank() == color.fold_wb(Rank::Second, Rank::Seventh)))
    };
    (!fits).then(|| {
        format!(
            "a {} pawn cannot {} from {from} to {to}",
            ColorName(color),
            if capture { "capture" } else { "move" }
        )
    })
}

/// The lower-case name of a role, for messages.
#[must_use]
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
