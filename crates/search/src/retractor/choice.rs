//! The choices of a retracting side: single retractions, or (Høeg) retractions of one geometry
//! whose uncapture the opponent picks.

use retrace_unmove::Retraction;
use shakmaty::{Move, Role, Square};

/// What the retracting side itself decides in a Høeg retractor: which unit went from where to
/// where, and what it promoted to. Whether and what it captured is the opponent's choice; an en
/// passant capture is one of those choices (a pawn uncaptured beside the arrival square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Geometry {
    Move {
        from: Square,
        to: Square,
        role: Role,
        promotion: Option<Role>,
    },
    Castle {
        king: Square,
        rook: Square,
    },
}

impl Geometry {
    pub(crate) fn of(r: Retraction) -> Geometry {
        match r.forward() {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => Geometry::Move {
                from,
                to,
                role,
                promotion,
            },
            Move::EnPassant { from, to } => Geometry::Move {
                from,
                to,
                role: Role::Pawn,
                promotion: None,
            },
            Move::Castle { king, rook } => Geometry::Castle { king, rook },
            Move::Put { .. } => unreachable!("a retraction is never a drop"),
        }
    }

    /// The geometry in notation, the uncapture left open: `Bc4~d5`, `f7~g8=Q`.
    pub(crate) fn notation(self, example: Retraction) -> String {
        match self {
            Geometry::Move {
                from,
                to,
                role,
                promotion,
            } => {
                let letter = if role == Role::Pawn {
                    String::new()
                } else {
                    role.upper_char().to_string()
                };
                let promoted = promotion.map_or(String::new(), |p| format!("={}", p.upper_char()));
                format!("{letter}{from}~{to}{promoted}")
            }
            Geometry::Castle { .. } => example.to_string(),
        }
    }
}

/// The retractions of a position split into choices: each retraction alone, or (when
/// `by_geometry`) the retractions of each geometry together. Ordered and grouped in `retractions`
/// itself, which is sorted in place.
pub(crate) fn choices(retractions: &mut [Retraction], by_geometry: bool) -> Vec<&[Retraction]> {
    if by_geometry {
        retractions.sort_by_key(|&r| Geometry::of(r));
        retractions
            .chunk_by(|&a, &b| Geometry::of(a) == Geometry::of(b))
            .collect()
    } else {
        retractions.chunks(1).collect()
    }
}
