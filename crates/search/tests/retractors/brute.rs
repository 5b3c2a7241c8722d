//! An independent brute force for retractors: every White and Black retraction, every forward
//! move, checked by shakmaty, with no table, no cut-offs and its own grouping of Høeg choices.
//! Only for small N and M; the solver must agree with it exactly.

use std::collections::BTreeMap;

use retrace_search::{LegalPruner, Pruner, RetractorKind};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    CastlingMode, Chess, Color, FromSetup, Move, Position, PositionError, Rank, Role, Square,
};

/// `Some(true)`: White wins; `Some(false)`: the defence holds; `None`: no legal choice.
pub type Value = Option<bool>;

fn legal(pos: &RetroPosition) -> bool {
    !LegalPruner::new().is_illegal(pos)
}

/// The one-move forward goals the brute force knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneMove {
    Mate,
    Stalemate,
    Selfmate,
}

fn played(pos: &Chess, m: Move) -> Chess {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after
}

/// Whether White, to move, reaches `goal` in one move: every legal move played and looked at
/// (for a selfmate, every Black answer too).
fn in_one(pos: &Chess, goal: OneMove) -> bool {
    pos.legal_moves().iter().any(|&m| {
        let after = played(pos, m);
        match goal {
            OneMove::Mate => after.is_checkmate(),
            OneMove::Stalemate => after.is_stalemate(),
            OneMove::Selfmate => {
                let replies = after.legal_moves();
                !replies.is_empty() && replies.iter().all(|&r| played(&after, r).is_checkmate())
            }
        }
    })
}

/// Black's last move in `pos` if every legal Black retraction is the same pawn double step.
fn proven_double_step(pos: &RetroPosition) -> Option<Square> {
    let mut only = None;
    for r in pos.retractions() {
        if !legal(&pos.retract(r)) {
            continue;
        }
        match r.forward() {
            Move::Normal {
                role: Role::Pawn,
                from,
                to,
                capture: None,
                ..
            } if from.rank() == Rank::Seventh && to.rank() == Rank::Fifth => {
                if only.is_some_and(|o| o != to) {
                    return None;
                }
                only = Some(to);
            }
            _ => return None,
        }
    }
    only
}

/// The forward position with the rights the history proves (the rules of docs/retractors.md).
fn forward(pos: &RetroPosition) -> Option<Chess> {
    let mut setup = pos.to_setup();
    if setup.ep_square.is_none() {
        let beside_white_pawn = |sq: Square| {
            [-1, 1].into_iter().any(|d| {
                sq.offset(d).is_some_and(|s| {
                    s.rank() == sq.rank() && pos.board().piece_at(s) == Some(Color::White.pawn())
                })
            })
        };
        if pos
            .board()
            .pawns()
            .into_iter()
            .any(|sq| sq.rank() == Rank::Fifth && beside_white_pawn(sq))
        {
            setup.ep_square = proven_double_step(pos).and_then(|sq| sq.offset(8));
        }
    }
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

/// Combines values for a chooser who wants White to win (`want`) or to fail (`!want`): a legal
/// choice is taken over an illegal one, and the wanted result over the other.
fn pick(values: impl IntoIterator<Item = Value>, want: bool) -> Value {
    let values: Vec<bool> = values.into_iter().flatten().collect();
    if values.is_empty() {
        None
    } else {
        Some(if values.contains(&want) { want } else { !want })
    }
}

/// The value of a retractor with `left` White retractions to make from `pos` (White or Black
/// retracting next), then mate in one.
pub fn value(pos: &RetroPosition, left: u32, kind: RetractorKind) -> Value {
    value_of(pos, left, kind, OneMove::Mate)
}

/// The value of a retractor with `left` White retractions, then `goal` in one move.
pub fn value_of(pos: &RetroPosition, left: u32, kind: RetractorKind, goal: OneMove) -> Value {
    let side = pos.retracting();
    let mover_wants_win = kind == RetractorKind::Help || side == Color::White;
    let uncapturer_wants_win = match kind {
        RetractorKind::Hoeg => !mover_wants_win,
        _ => mover_wants_win,
    };
    let child_value = |r: Retraction| -> Value {
        let child = pos.retract(r);
        if !legal(&child) {
            return None;
        }
        let left = if side == Color::White { left - 1 } else { left };
        if left == 0 {
            forward(&child).map(|c| in_one(&c, goal))
        } else {
            value_of(&child, left, kind, goal)
        }
    };
    // Høeg: the retractions that differ only in what they uncapture are one choice.
    let mut choices: BTreeMap<String, Vec<Retraction>> = BTreeMap::new();
    for r in pos.retractions() {
        let key = match (kind, r.forward()) {
            (
                RetractorKind::Hoeg,
                Move::Normal {
                    role,
                    from,
                    to,
                    promotion,
                    ..
                },
            ) => format!("{role:?}{from}{to}{promotion:?}"),
            (RetractorKind::Hoeg, Move::EnPassant { from, to }) => {
                format!("{:?}{from}{to}{:?}", Role::Pawn, None::<Role>)
            }
            _ => r.to_string(),
        };
        choices.entry(key).or_default().push(r);
    }
    pick(
        choices.into_values().map(|group| {
            pick(
                group.into_iter().map(child_value).collect::<Vec<_>>(),
                uncapturer_wants_win,
            )
        }),
        mover_wants_win,
    )
}
