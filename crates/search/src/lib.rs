//! Retraction search: what were the last N moves, and is there a history at all?
//!
//! [`solve`] retracts N plies from a position and keeps the lines after which `extra` further
//! retractions still exist, every position on the way passing a [`Pruner`] (the static legality
//! analysis, in the binary). [`prove`] looks for one history of a given length, and when there is
//! none tells how deep each last move survived. [`to_pgn`] turns a solution into a forward game that
//! shakmaty has replayed.

mod pgn;
mod table;

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

pub use pgn::{to_pgn, PgnError};
use table::Table;

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

/// Prunes with the static legality analysis of `retrace-legal`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalPruner;

impl Pruner for LegalPruner {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        !retrace_legal::analyze(pos).reasons.is_empty()
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
            cancel: None,
            progress: None,
        }
    }
}

/// The extra depth a solution must survive unless told otherwise.
pub const DEFAULT_EXTRA: u32 = 3;

/// How often (in nodes) the search looks at the cancel flag and reports progress: often enough to
/// stop well within 100 ms, rarely enough to cost nothing.
const POLL_INTERVAL: u64 = 1 << 10;

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

/// Applies the uncapture policy of `params` to a position.
fn with_policy(pos: &RetroPosition, no_uncapture: [bool; 2]) -> RetroPosition {
    let mut pos = pos.clone();
    for color in Color::ALL {
        if no_uncapture[color as usize] {
            pos.set_uncaptures_allowed(color, false);
        }
    }
    pos
}

struct Search<'p, 'a, P: Pruner> {
    pruner: &'p P,
    params: SolveParams<'a>,
    start: Instant,
    nodes: u64,
    stopped: bool,
    lines: Vec<Vec<Retraction>>,
    line: Vec<Retraction>,
    /// Positions known to have (or not to have) a history of some length.
    history: Table,
    /// Positions known to lead to no solution in the given remaining depth.
    dead: Table,
}

impl<P: Pruner> Search<'_, '_, P> {
    /// Counts a node; checks for cancellation and reports progress now and then.
    fn visit(&mut self, ply: u32) -> bool {
        self.nodes += 1;
        if self.params.max_nodes.is_some_and(|max| self.nodes > max) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if self
                .params
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
            let report = Progress {
                nodes: self.nodes,
                solutions: self.lines.len(),
                ply,
                elapsed: self.start.elapsed(),
            };
            if let Some(progress) = self.params.progress.as_mut() {
                progress(report);
            }
        }
        !self.stopped
    }

    /// Whether `pos` (already accepted by the pruner) has a history `plies` deep.
    fn has_history(&mut self, pos: &RetroPosition, plies: u32) -> bool {
        if plies == 0 {
            return true;
        }
        if let Some(known) = self.history.get(pos.zobrist(), plies) {
            return known;
        }
        let mut found = false;
        for r in pos.retractions() {
            if !self.visit(0) {
                return false;
            }
            let child = pos.retract(r);
            if !self.pruner.is_illegal(&child) && self.has_history(&child, plies - 1) {
                found = true;
                break;
            }
        }
        if !self.stopped {
            self.history.insert(pos.zobrist(), plies, found);
        }
        found
    }

    /// Collects the solutions below `pos`, `remaining` plies from the full depth. Returns whether
    /// any was found.
    fn collect(&mut self, pos: &RetroPosition, ply: u32) -> bool {
        let remaining = self.params.depth - ply;
        if remaining == 0 {
            let extra = self.params.extra;
            if self.has_history(pos, extra) && !self.stopped {
                self.lines.push(self.line.clone());
                if self
                    .params
                    .max_solutions
                    .is_some_and(|max| self.lines.len() >= max)
                {
                    self.stopped = true;
                }
                return true;
            }
            return false;
        }
        if self.dead.get(pos.zobrist(), remaining) == Some(false) {
            return false;
        }
        let mut found = false;
        for r in pos.retractions() {
            if !self.visit(ply) {
                return found;
            }
            let child = pos.retract(r);
            if self.pruner.is_illegal(&child) {
                continue;
            }
            self.line.push(r);
            found |= self.collect(&child, ply + 1);
            self.line.pop();
            if self.stopped {
                return found;
            }
        }
        if !found {
            self.dead.insert(pos.zobrist(), remaining, false);
        }
        found
    }
}

/// Finds every sequence of `params.depth` retractions from `pos` after which `params.extra` more
/// retractions exist, every position on the way accepted by `pruner`.
pub fn solve<P: Pruner>(pos: &RetroPosition, params: SolveParams<'_>, pruner: &P) -> Solutions {
    let root = with_policy(pos, params.no_uncapture);
    let mut search = Search {
        pruner,
        params,
        start: Instant::now(),
        nodes: 0,
        stopped: false,
        lines: Vec::new(),
        line: Vec::new(),
        history: Table::new(),
        dead: Table::new(),
    };
    if !pruner.is_illegal(&root) {
        search.collect(&root, 0);
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
    let mut search = Search {
        pruner,
        params,
        start: Instant::now(),
        nodes: 0,
        stopped: false,
        lines: Vec::new(),
        line: Vec::new(),
        history: Table::new(),
        dead: Table::new(),
    };
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
        while survived < max_depth && search.has_history(&child, survived) {
            survived += 1;
        }
        if survived == max_depth && search.has_history(&child, max_depth - 1) {
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

impl<P: Pruner> Search<'_, '_, P> {
    /// A line `plies` deep below `pos`, which must have one.
    fn witness(&mut self, pos: &RetroPosition, plies: u32) -> Vec<Retraction> {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        for left in (0..plies).rev() {
            let next = pos.retractions().into_iter().find(|&r| {
                let child = pos.retract(r);
                !self.pruner.is_illegal(&child) && self.has_history(&child, left)
            });
            match next {
                Some(r) => {
                    pos = pos.retract(r);
                    line.push(r);
                }
                None => break,
            }
        }
        line
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
