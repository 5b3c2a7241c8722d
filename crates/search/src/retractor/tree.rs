//! The solution as a tree, read off the solved game: White's retraction, each Black defence,
//! White's reply, and then the forward play; with the tries and their refutations at the root.

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Chess, Color, Move, Position};

use super::{
    choice::{choices, Geometry},
    game::{left_after, Game},
    goal::ForwardGoal,
    kind::{Pick, RetractorKind},
    outcome::Outcome,
    rights::forward_start,
};
use crate::Pruner;

/// Which phase a move of the tree belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A retraction, chosen by the side that retracts it (in Høeg: its geometry only, written
    /// with `~`, when the opponent has a choice of uncaptures).
    Retraction,
    /// Høeg: the uncapture the opponent chose for the retraction above it (`by` is the
    /// chooser; the text is the whole retraction).
    Uncapture,
    /// A move of the forward play.
    Forward,
}

/// One move of the solution tree and what follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The side that chose this move.
    pub by: Color,
    /// Whether the move is a retraction or forward play.
    pub stage: Stage,
    /// The move in retro notation (forward moves in the same long algebraic, `#` for mate).
    pub text: String,
    /// Further winning choices that White had here and the tree does not show.
    pub duals: usize,
    /// The replies (every defence where the opponent chooses, one winning move where White does).
    pub next: Vec<Play>,
}

/// A White retraction at the root that fails, and what defeats it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try {
    /// The White retraction, in retro notation.
    pub text: String,
    /// Black's refuting retraction or uncapture choice; `None` when no forward solution follows
    /// the retraction at all.
    pub refutation: Option<String>,
    /// Whether the try comes close: some uncapture the opponent could have chosen wins, or the
    /// refutation is a Black retraction (rather than no forward solution at all).
    pub close: bool,
}

/// Reads the tree off a solved game, with a cap on its size.
pub(crate) struct TreeBuilder<'g, 'p, 'a, P: Pruner> {
    pub game: &'g mut Game<'p, 'a, P>,
    /// Plays that may still be added.
    pub room: usize,
    pub truncated: bool,
}

impl<P: Pruner> TreeBuilder<'_, '_, '_, P> {
    fn take_room(&mut self) -> bool {
        if self.room == 0 {
            self.truncated = true;
            return false;
        }
        self.room -= 1;
        true
    }

    fn kind(&self) -> RetractorKind {
        self.game.kind
    }

    /// The winning (or, for the defence, every legal) choices at `pos`, which White wins.
    /// With `all`, every winning choice of White is shown (the keys at the root; every line in a
    /// help retractor).
    pub(crate) fn plays(&mut self, pos: &RetroPosition, left: u32, all: bool) -> Vec<Play> {
        let side = pos.retracting();
        let mover = self.kind().mover(side);
        let all = all || self.kind() == RetractorKind::Help;
        let mut retractions = pos.retractions();
        let mut out = Vec::new();
        for group in choices(&mut retractions, self.kind().groups_uncaptures()) {
            let value = self.game.group(pos, group, left);
            let shown = match mover {
                Pick::Max => value == Outcome::Win,
                Pick::Min => value != Outcome::Illegal,
            };
            if !shown {
                continue;
            }
            if mover == Pick::Max && !all && !out.is_empty() {
                if let Some(last) = out.last_mut() {
                    let last: &mut Play = last;
                    last.duals += 1;
                }
                continue;
            }
            if let Some(play) = self.group_play(pos, group, left) {
                out.push(play);
            }
        }
        out
    }

    /// The play for one choice: the retraction itself, or (Høeg, several legal uncaptures) its
    /// geometry followed by the opponent's uncapture choices.
    fn group_play(&mut self, pos: &RetroPosition, group: &[Retraction], left: u32) -> Option<Play> {
        let side = pos.retracting();
        let legal: Vec<Retraction> = group
            .iter()
            .copied()
            .filter(|&r| self.game.child(pos, r, left) != Outcome::Illegal)
            .collect();
        if !self.take_room() {
            return None;
        }
        if let [r] = legal[..] {
            return Some(Play {
                by: side,
                stage: Stage::Retraction,
                text: pos.notation(r),
                duals: 0,
                next: self.after(pos, r, left),
            });
        }
        let picker = self.kind().uncapturer(side);
        let mut next: Vec<Play> = Vec::new();
        for r in legal.iter().copied() {
            let value = self.game.child(pos, r, left);
            if picker == Pick::Max && (value != Outcome::Win || !next.is_empty()) {
                if value == Outcome::Win {
                    if let Some(first) = next.first_mut() {
                        first.duals += 1;
                    }
                }
                continue;
            }
            if !self.take_room() {
                break;
            }
            next.push(Play {
                by: side.other(),
                stage: Stage::Uncapture,
                text: pos.notation(r),
                duals: 0,
                next: self.after(pos, r, left),
            });
        }
        Some(Play {
            by: side,
            stage: Stage::Retraction,
            text: Geometry::of(group[0]).notation(group[0]),
            duals: 0,
            next,
        })
    }

    /// What follows the retraction `r` at `pos`: the next retractions, or the forward play.
    fn after(&mut self, pos: &RetroPosition, r: Retraction, left: u32) -> Vec<Play> {
        let child = pos.retract(r);
        match left_after(pos, left) {
            0 => match forward_start(&child, self.game.pruner) {
                Some(chess) => self.forward(&chess, self.game.goal),
                None => Vec::new(),
            },
            left => self.plays(&child, left, false),
        }
    }

    /// White's first winning forward move in `pos` (the others counted as duals), then every
    /// Black reply with White's continuation.
    fn forward(&mut self, pos: &Chess, goal: ForwardGoal) -> Vec<Play> {
        let winning = goal.winning_moves(pos, &mut self.game.budget, false);
        let Some(&first) = winning.first() else {
            return Vec::new();
        };
        if !self.take_room() {
            return Vec::new();
        }
        let mut after = pos.clone();
        after.play_unchecked(first);
        let mut next = Vec::new();
        for (reply, rest) in goal.replies(&after) {
            if !self.take_room() {
                break;
            }
            let mut then = after.clone();
            then.play_unchecked(reply);
            let follow = rest.map_or_else(Vec::new, |g| self.forward(&then, g));
            next.push(Play {
                by: Color::Black,
                stage: Stage::Forward,
                text: forward_notation(reply, &then),
                duals: 0,
                next: follow,
            });
        }
        Some(Play {
            by: Color::White,
            stage: Stage::Forward,
            text: forward_notation(first, &after),
            duals: winning.len() - 1,
            next,
        })
        .into_iter()
        .collect()
    }

    /// White's failing choices at the root, each with what refutes it.
    pub(crate) fn tries(&mut self, pos: &RetroPosition, left: u32) -> Vec<Try> {
        let mut retractions = pos.retractions();
        let mut out = Vec::new();
        let groups_uncaptures = self.kind().groups_uncaptures();
        for group in choices(&mut retractions, groups_uncaptures) {
            if self.game.group(pos, group, left) != Outcome::Loss {
                continue;
            }
            // The variant the uncapturer picks to defeat White (the only one outside Høeg).
            let Some(&losing) = group
                .iter()
                .find(|&&r| self.game.child(pos, r, left) == Outcome::Loss)
            else {
                continue;
            };
            let legal = group
                .iter()
                .filter(|&&r| self.game.child(pos, r, left) != Outcome::Illegal)
                .count();
            let (text, chosen) = if groups_uncaptures && legal > 1 {
                let geometry = Geometry::of(losing).notation(losing);
                (
                    geometry,
                    Some(format!("Black uncaptures: {}", pos.notation(losing))),
                )
            } else {
                (pos.notation(losing), None)
            };
            let wins_sometimes = group
                .iter()
                .any(|&r| self.game.child(pos, r, left) == Outcome::Win);
            let defence = self.defence(pos, losing, left);
            let close = wins_sometimes || defence.is_some();
            let refutation = match (chosen, defence) {
                (Some(c), Some(d)) => Some(format!("{c}, then {d}")),
                (c, d) => c.or(d),
            };
            out.push(Try {
                text,
                refutation,
                close,
            });
        }
        // The close tries first, each part in the generator's order.
        out.sort_by_key(|t| !t.close);
        out
    }

    /// Black's retraction that defeats White after `r`, if Black retracts next.
    fn defence(&mut self, pos: &RetroPosition, r: Retraction, left: u32) -> Option<String> {
        let left = left_after(pos, left);
        if left == 0 {
            return None;
        }
        let child = pos.retract(r);
        let mut retractions = child.retractions();
        for group in choices(&mut retractions, self.kind().groups_uncaptures()) {
            if self.game.group(&child, group, left) == Outcome::Loss {
                let first = group[0];
                return Some(if group.len() > 1 {
                    Geometry::of(first).notation(first)
                } else {
                    child.notation(first)
                });
            }
        }
        None
    }
}

/// A forward move in the project's long algebraic notation, `+` or `#` from the position after.
fn forward_notation(m: Move, after: &Chess) -> String {
    let mut text = Retraction::from_forward(m).map_or_else(|| m.to_string(), |r| r.to_string());
    if after.is_checkmate() {
        text.push('#');
    } else if after.is_check() {
        text.push('+');
    }
    text
}
