//! The retraction game: minimax over the retractions of both sides, with the forward goal at the
//! leaves, a transposition table, and the legality analysis on every retracted position.

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

use super::{
    budget::Budget, choice::choices, goal::ForwardGoal, kind::RetractorKind, outcome::Outcome,
    rights::forward_start,
};
use crate::{table::Table, Pruner};

pub(crate) struct Game<'p, 'a, P: Pruner> {
    pub pruner: &'p P,
    pub kind: RetractorKind,
    pub goal: ForwardGoal,
    pub budget: Budget<'a>,
    /// Values of positions, keyed on the retro state and the White retractions left (0: the
    /// forward goal from a position White is to move in).
    table: Table<Outcome>,
}

impl<'p, 'a, P: Pruner> Game<'p, 'a, P> {
    pub(crate) fn new(
        pruner: &'p P,
        kind: RetractorKind,
        goal: ForwardGoal,
        budget: Budget<'a>,
    ) -> Self {
        Game {
            pruner,
            kind,
            goal,
            budget,
            table: Table::new(),
        }
    }

    /// The value of `pos` (already accepted by the pruner), whose retracting side retracts next,
    /// White having `left` retractions still to make (at least 1).
    pub(crate) fn node(&mut self, pos: &RetroPosition, left: u32) -> Outcome {
        let key = pos.zobrist();
        if let Some(known) = self.table.get(key, left) {
            return known;
        }
        let side = pos.retracting();
        let mover = self.kind.mover(side);
        let mut retractions = pos.retractions();
        let mut best = Outcome::Illegal;
        for group in choices(&mut retractions, self.kind.groups_uncaptures()) {
            let value = self.group(pos, group, left);
            if self.budget.stopped {
                return best;
            }
            best = mover.better(best, value);
            if mover.is_best(best) {
                break;
            }
        }
        self.table.insert(key, left, best);
        best
    }

    /// The value of one choice of the retracting side: its retractions differ only in the
    /// uncapture, which the uncapturer of this kind picks.
    pub(crate) fn group(
        &mut self,
        pos: &RetroPosition,
        group: &[Retraction],
        left: u32,
    ) -> Outcome {
        let picker = self.kind.uncapturer(pos.retracting());
        let mut value = Outcome::Illegal;
        for &r in group {
            value = picker.better(value, self.child(pos, r, left));
            if self.budget.stopped || picker.is_best(value) {
                break;
            }
        }
        value
    }

    /// The value of the position `r` leads to: illegal if the analysis refutes it, otherwise the
    /// rest of the retractions, or the forward goal after White's last one.
    pub(crate) fn child(&mut self, pos: &RetroPosition, r: Retraction, left: u32) -> Outcome {
        if !self.budget.visit(left) {
            return Outcome::Illegal;
        }
        let child = pos.retract(r);
        if self.pruner.is_illegal(&child) {
            return Outcome::Illegal;
        }
        let left = left_after(pos, left);
        if left == 0 {
            self.forward(&child)
        } else {
            self.node(&child, left)
        }
    }

    /// Whether White, to move in `pos`, forces the goal (illegal if shakmaty refuses `pos`).
    pub(crate) fn forward(&mut self, pos: &RetroPosition) -> Outcome {
        let key = pos.zobrist();
        if let Some(known) = self.table.get(key, 0) {
            return known;
        }
        let value = match forward_start(pos, self.pruner) {
            None => Outcome::Illegal,
            Some(chess) if self.goal.holds(&chess, &mut self.budget) => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
        if !self.budget.stopped {
            self.table.insert(key, 0, value);
        }
        value
    }
}

/// White's retractions left after one by the retracting side of `pos`.
pub(crate) fn left_after(pos: &RetroPosition, left: u32) -> u32 {
    if pos.retracting() == Color::White {
        left - 1
    } else {
        left
    }
}
