//! The retraction game: minimax over the retractions of both sides, with the forward goal at the
//! leaves, a transposition table, and the legality analysis on every retracted position.

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

use super::{
    choice::choices, goal::ForwardGoal, kind::RetractorKind, outcome::Outcome,
    rights::forward_start,
};
use crate::{
    budget::Budget,
    table::{NodeKey, Table},
    Phase, Pruner,
};

pub(crate) struct Game<'p, 'a, P: Pruner> {
    pub pruner: &'p P,
    pub kind: RetractorKind,
    pub goal: ForwardGoal,
    pub budget: Budget<'a>,
    /// Values of positions, keyed on the retro state and the White retractions left (0: the
    /// forward goal from a position White is to move in).
    table: Table<Outcome>,
    /// Per remaining depth and side, the choice that last cut a node off (killer heuristic):
    /// a defence that refutes one White try often refutes its siblings. Only the order changes.
    killers: Vec<Option<Retraction>>,
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
            killers: Vec::new(),
        }
    }

    /// The value of `pos` (already accepted by the pruner), whose retracting side retracts next,
    /// White having `left` retractions still to make (at least 1).
    pub(crate) fn node(&mut self, pos: &RetroPosition, left: u32) -> Outcome {
        let key = NodeKey::of(pos, 0);
        if let Some(known) = self.table.get(key, left) {
            return known;
        }
        let side = pos.retracting();
        if left == 1 && side == Color::White && !self.kind.groups_uncaptures() {
            let value = self.last_white_retraction(pos);
            if !self.budget.stopped {
                self.table.insert(key, left, value);
            }
            return value;
        }
        let mover = self.kind.mover(side);
        let mut retractions = pos.retractions();
        let mut groups = choices(&mut retractions, self.kind.groups_uncaptures());
        let slot = killer_slot(left, side);
        if self.killers.len() <= slot {
            self.killers.resize(slot + 1, None);
        }
        if let Some(killer) = self.killers[slot] {
            if let Some(i) = groups.iter().position(|g| g.contains(&killer)) {
                groups[..=i].rotate_right(1);
            }
        }
        let mut best = Outcome::Illegal;
        for group in groups {
            let value = self.group(pos, group, left);
            if self.budget.stopped {
                return best;
            }
            best = mover.better(best, value);
            if mover.is_best(best) {
                self.killers[slot] = Some(group[0]);
                break;
            }
        }
        self.table.insert(key, left, best);
        best
    }

    /// The value of `pos` when White's retraction from it is the last and White picks it whole
    /// (Proca, help): the same as [`Game::node`], but the forward goal, usually far cheaper than
    /// the legality analysis, is asked first, and the analysis only as far as the answer needs
    /// it: on winning retractions until one is legal, then on the others until one is legal.
    fn last_white_retraction(&mut self, pos: &RetroPosition) -> Outcome {
        let mut losing = Vec::new();
        for r in pos.retractions() {
            if !self.budget.visit(1) {
                return Outcome::Illegal;
            }
            let child = pos.retract(r);
            match self.forward(&child) {
                Outcome::Win if !self.pruner.is_illegal(&child) => return Outcome::Win,
                Outcome::Loss => losing.push(child),
                _ => {}
            }
            if self.budget.stopped {
                return Outcome::Illegal;
            }
        }
        if losing.iter().any(|child| !self.pruner.is_illegal(child)) {
            Outcome::Loss
        } else {
            Outcome::Illegal
        }
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
        let key = NodeKey::of(pos, 0);
        if let Some(known) = self.table.get(key, 0) {
            return known;
        }
        let value = match forward_start(pos, self.pruner) {
            None => Outcome::Illegal,
            Some(chess) => {
                let before = self.budget.set_phase(Phase::Forward);
                let holds = self.goal.holds(&chess, &mut self.budget);
                self.budget.set_phase(before);
                if holds {
                    Outcome::Win
                } else {
                    Outcome::Loss
                }
            }
        };
        if !self.budget.stopped {
            self.table.insert(key, 0, value);
        }
        value
    }
}

/// The killer slot of a node: its remaining White retractions and its retracting side.
fn killer_slot(left: u32, side: Color) -> usize {
    left as usize * 2 + usize::from(side == Color::White)
}

/// White's retractions left after one by the retracting side of `pos`.
pub(crate) fn left_after(pos: &RetroPosition, left: u32) -> u32 {
    if pos.retracting() == Color::White {
        left - 1
    } else {
        left
    }
}
