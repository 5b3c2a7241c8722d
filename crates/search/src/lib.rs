//! Retraction search: what were the last N moves, and is there a history at all?
//!
//! [`solve`] retracts N plies from a position and keeps the lines after which `extra` further
//! retractions still exist, every position on the way passing a [`Pruner`] (the static legality
//! analysis, in the binary). [`prove`] looks for one history of a given length, and when there is
//! none tells how deep each last move survived. [`to_pgn`] turns a solution into a forward game that
//! shakmaty has replayed.

mod bound;
mod engine;
mod facts;
mod forward;
mod pgn;
mod proofgame;
mod table;

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use retrace_legal::CageStore;
use retrace_unmove::{Retraction, RetroPosition};

use engine::{with_policy, Search};
pub use facts::GameFacts;
use facts::LostRights;
pub use pgn::{game_score, to_pgn, to_pgn_tagged, PgnError};
pub use proofgame::{proof_games, side_to_move_after, ProofGameParams, ProofGames};

/// Decides that a position cannot occur in a game, so no line may pass through it.
///
/// Implementations must be sound: a position that some legal game reaches is never rejected,
/// or the search loses histories.
pub trait Pruner {
    fn is_illegal(&self, pos: &RetroPosition) -> bool;
}

/// Prunes nothing: the search then relies on retractions alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPruning;

impl Pruner for NoPruning {
    fn is_illegal(&self, _: &RetroPosition) -> bool {
        false
    }
}

/// Prunes with the static legality analysis of `retrace-legal`, and with verified user cages.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalPruner<'c> {
    cages: Option<&'c CageStore>,
}

impl<'c> LegalPruner<'c> {
    /// The analysis alone.
    #[must_use]
    pub fn new() -> LegalPruner<'static> {
        LegalPruner { cages: None }
    }

    /// The analysis, and the cages of `store` (every one verified when it was stored).
    #[must_use]
    pub fn with_cages(store: &'c CageStore) -> LegalPruner<'c> {
        LegalPruner {
            cages: Some(store).filter(|s| !s.is_empty()),
        }
    }
}

impl Pruner for LegalPruner<'_> {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        match self.cages {
            None => !retrace_legal::analyze(pos).reasons.is_empty(),
            Some(store) => !retrace_legal::analyze_with_cages(pos, store)
                .reasons
                .is_empty(),
        }
    }
}

impl<F: Fn(&RetroPosition) -> bool> Pruner for F {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        self(pos)
    }
}

/// What a search reports while it runs.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub solutions: usize,
    /// The ply the search is at (0 = the position itself).
    pub ply: u32,
    pub elapsed: Duration,
    /// What the search is doing.
    pub phase: Phase,
}

/// The phases of a search, as [`Progress`] reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Retracting.
    Retracting,
    /// Building the positions a proof game's first plies reach (once per process), with how many
    /// positions were expanded so far.
    ForwardLayers { positions: u64 },
}

/// The parameters of [`solve`].
pub struct SolveParams<'a> {
    /// Plies to retract (N).
    pub depth: u32,
    /// Further plies that must still be retractable after the N (E, by default 3).
    pub extra: u32,
    /// Stop after this many solutions (the result is then marked incomplete).
    pub max_solutions: Option<usize>,
    /// Forbid uncaptures to White, to Black, or both.
    pub no_uncapture: [bool; 2],
    /// Stop after visiting this many nodes (the result is then marked incomplete).
    pub max_nodes: Option<u64>,
    /// Facts about the game beyond its board (clocks, exact FEN fields), if the user asserts them.
    pub facts: GameFacts,
    /// Set from outside to stop the search; it then returns what it found, marked incomplete.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called every few thousand nodes.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
}

impl Default for SolveParams<'_> {
    fn default() -> Self {
        SolveParams {
            depth: 1,
            extra: DEFAULT_EXTRA,
            max_solutions: None,
            no_uncapture: [false; 2],
            max_nodes: None,
            facts: GameFacts::default(),
            cancel: None,
            progress: None,
        }
    }
}

/// The extra depth a solution must survive unless told otherwise.
pub const DEFAULT_EXTRA: u32 = 3;

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// Each solution lists N retractions, last move first, in the order of the generator.
    pub lines: Vec<Vec<Retraction>>,
    /// False when `max_solutions`, `max_nodes` or cancellation cut the search short.
    pub complete: bool,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Finds every sequence of `params.depth` retractions from `pos` after which `params.extra` more
/// retractions exist, every position on the way accepted by `pruner`.
pub fn solve<P: Pruner>(pos: &RetroPosition, params: SolveParams<'_>, pruner: &P) -> Solutions {
    let root = with_policy(pos, params.no_uncapture);
    let lost = if params.facts.exact_castling {
        LostRights::of(&root)
    } else {
        LostRights::default()
    };
    let mut search = Search::new(pruner, params);
    if !pruner.is_illegal(&root) {
        search.collect(&root, 0, lost);
    }
    Solutions {
        lines: search.lines,
        complete: !search.stopped,
        nodes: search.nodes,
        elapsed: search.start.elapsed(),
    }
}

/// The outcome of [`prove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A history of the requested length, last move first.
    History(Vec<Retraction>),
    /// No history is that long: the position is illegal (or needs a longer look). Each last move
    /// tried comes with the number of plies the longest line starting with it survived (1 = the
    /// move itself, and nothing before it).
    NoHistory {
        tries: Vec<(Retraction, u32)>,
        complete: bool,
    },
}

/// Looks for a history `max_depth` plies deep, or shows that every history dies earlier.
pub fn prove<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
) -> Proof {
    let params = SolveParams {
        depth: 0,
        extra: 0,
        cancel,
        ..SolveParams::default()
    };
    let mut search = Search::new(pruner, params);
    if max_depth == 0 || pruner.is_illegal(pos) {
        return if max_depth == 0 && !pruner.is_illegal(pos) {
            Proof::History(Vec::new())
        } else {
            Proof::NoHistory {
                tries: Vec::new(),
                complete: true,
            }
        };
    }
    let mut tries = Vec::new();
    for r in pos.retractions() {
        let child = pos.retract(r);
        if pruner.is_illegal(&child) {
            tries.push((r, 0));
            continue;
        }
        // The longest survival of this move, found by deepening until the line dies.
        let mut survived = 1;
        while survived < max_depth && search.has_history(&child, survived, 2) {
            survived += 1;
        }
        if survived == max_depth && search.has_history(&child, max_depth - 1, 2) {
            let mut line = vec![r];
            line.extend(search.witness(&child, max_depth - 1));
            return Proof::History(line);
        }
        tries.push((r, survived));
        if search.stopped {
            break;
        }
    }
    Proof::NoHistory {
        tries,
        complete: !search.stopped,
    }
}

/// The notation of each move of `line` (last move first), each with its check mark.
#[must_use]
pub fn line_notation(pos: &RetroPosition, line: &[Retraction]) -> Vec<String> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&r| {
            let text = pos.notation(r);
            pos.retract_in_place(r);
            text
        })
        .collect()
}
