//! Retractors: White retracts N moves, Black retracting in between, then White plays a forward
//! stipulation (mate, stalemate or selfmate in M).
//!
//! [`solve_retractor`] plays the retraction phase as a game between the two sides (Proca and Høeg
//! defensive retractors) or as a joint search (help retractors), every retracted position
//! checked by a [`Pruner`] (the legality analysis in the binary), and the forward goal searched
//! exhaustively with shakmaty at the leaves. The rules are written out in `docs/retractors.md`.
//!
//! Values are cached per retro state and remaining retractions, so transpositions are solved
//! once; the node budget and the cancel flag stop the search as in [`crate::solve`], and a stopped
//! search never claims that there is no solution.

mod choice;
mod game;
mod goal;
mod kind;
mod outcome;
mod rights;
mod tree;

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use retrace_unmove::RetroPosition;
use shakmaty::Color;
use thiserror::Error;

pub use goal::{ForwardGoal, MAX_FORWARD_MOVES};
pub use kind::RetractorKind;
pub use outcome::Outcome;
pub use tree::{Play, Stage, Try};

use crate::budget::Budget;
use crate::{Progress, Pruner};
use game::Game;
use tree::TreeBuilder;

/// The most White retractions a retractor may ask for.
pub const MAX_RETRACTIONS: u32 = 8;

/// Plays the solution tree may hold before it is cut (and marked truncated).
pub const MAX_TREE_PLAYS: usize = 4000;

/// A retractor stipulation that cannot be read or set up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RetractorError {
    /// The kind is not one of proca, hoeg, help (the text given).
    #[error("'{0}' is not a retractor kind: use proca, hoeg or help")]
    Kind(String),
    /// The forward goal cannot be read (the text given).
    #[error("'{0}' is not a forward goal: use #M, =M or s#M with M from 1 to {MAX_FORWARD_MOVES}")]
    Goal(String),
    /// The number of White retractions is out of range (the number given).
    #[error("the number of White retractions must be from 1 to {MAX_RETRACTIONS}, not {0}")]
    Retractions(u32),
    /// The position has White to move, so Black would retract first.
    #[error("White retracts first in a retractor: give a position with Black to move")]
    BlackRetracts,
}

/// The parameters of [`solve_retractor`].
pub struct RetractorParams<'a> {
    /// Who chooses the uncaptures and whether Black defends (Proca, Høeg) or helps.
    pub kind: RetractorKind,
    /// White retractions (N); Black retracts N - 1 times in between.
    pub retractions: u32,
    /// The forward stipulation after White's last retraction, White to move.
    pub goal: ForwardGoal,
    /// Stop after this many nodes (retractions and forward moves tried).
    pub max_nodes: Option<u64>,
    /// Set from outside to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called every few thousand nodes.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
}

impl RetractorParams<'_> {
    /// Parameters with no budget, no cancel flag and no progress.
    #[must_use]
    pub fn new(
        kind: RetractorKind,
        retractions: u32,
        goal: ForwardGoal,
    ) -> RetractorParams<'static> {
        RetractorParams {
            kind,
            retractions,
            goal,
            max_nodes: None,
            cancel: None,
            progress: None,
        }
    }
}

/// What [`solve_retractor`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetractorSolution {
    /// The value of the problem: `Win` when it has a solution, `Illegal` when the position
    /// itself (or every White retraction from it) is illegal.
    pub outcome: Outcome,
    /// Every key (White retraction that wins) with its tree. In a help retractor, every winning
    /// line as a tree.
    pub keys: Vec<Play>,
    /// White's failing retractions at the root with their refutations (defensive kinds).
    pub tries: Vec<Try>,
    /// Help retractors: the number of distinct winning retraction sequences (a lower bound when
    /// the tree is truncated). Defensive kinds: the number of keys.
    pub solutions: usize,
    /// False when the node budget or cancellation stopped the search: then nothing is claimed.
    pub complete: bool,
    /// True when the tree was cut at [`MAX_TREE_PLAYS`] plays (the verdict is still exact).
    pub truncated: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl RetractorSolution {
    /// Whether the search was complete and found more than one solution.
    #[must_use]
    pub fn is_cooked(&self) -> bool {
        self.complete && self.solutions > 1
    }

    /// Whether the search was complete and found no solution.
    #[must_use]
    pub fn has_no_solution(&self) -> bool {
        self.complete && self.outcome != Outcome::Win
    }
}

/// Solves the retractor `params` from `pos` (Black to move: White retracts first).
pub fn solve_retractor<P: Pruner>(
    pos: &RetroPosition,
    params: RetractorParams<'_>,
    pruner: &P,
) -> Result<RetractorSolution, RetractorError> {
    if !(1..=MAX_RETRACTIONS).contains(&params.retractions) {
        return Err(RetractorError::Retractions(params.retractions));
    }
    if pos.retracting() != Color::White {
        return Err(RetractorError::BlackRetracts);
    }
    // The position's facts about units travel down every retraction (see `Pruner::mark_facts`).
    let mut root = pos.clone();
    pruner.mark_facts(&mut root);
    let pos = &root;
    let budget = Budget::new(params.max_nodes, params.cancel, params.progress);
    let mut game = Game::new(pruner, params.kind, params.goal, budget);
    let left = params.retractions;
    let outcome = if pruner.is_illegal(pos) {
        Outcome::Illegal
    } else {
        game.node(pos, left)
    };
    let (keys, tries, truncated) = if outcome == Outcome::Illegal || game.budget.stopped {
        (Vec::new(), Vec::new(), false)
    } else {
        let mut builder = TreeBuilder {
            game: &mut game,
            room: MAX_TREE_PLAYS,
            truncated: false,
        };
        let keys = builder.plays(pos, left, true);
        let tries = if params.kind == RetractorKind::Help {
            Vec::new()
        } else {
            builder.tries(pos, left)
        };
        let truncated = builder.truncated;
        (keys, tries, truncated)
    };
    let solutions = if params.kind == RetractorKind::Help {
        count_lines(&keys)
    } else {
        keys.len()
    };
    Ok(RetractorSolution {
        outcome,
        keys,
        tries,
        solutions,
        complete: !game.budget.stopped,
        truncated,
        nodes: game.budget.nodes,
        elapsed: game.budget.start.elapsed(),
    })
}

/// The number of distinct retraction sequences in a help tree: paths from the root to the start
/// of the forward play.
fn count_lines(plays: &[Play]) -> usize {
    plays
        .iter()
        .map(|p| {
            if p.next.iter().all(|n| n.stage == Stage::Forward) {
                1
            } else {
                count_lines(&p.next)
            }
        })
        .sum()
}
