//! [`solve`]: every line of N retractions after which E more exist.

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use retrace_legal::Reason;
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::ByColor;

use crate::{
    engine::{with_policy, Search},
    facts::LostRights,
    GameFacts, Progress, Pruner, SearchOptions,
};

/// Takes each solution as [`solve`] finds it; false stops the search.
pub type SolutionSink<'a> = dyn FnMut(&[Retraction]) -> bool + 'a;

/// The parameters of [`solve`].
pub struct SolveParams<'a> {
    /// Plies to retract (N).
    pub depth: u32,
    /// Further plies that must still be retractable after the N (E, by default 3).
    pub extra: u32,
    /// Stop after this many solutions (the result is then marked incomplete).
    pub max_solutions: Option<usize>,
    /// The sides whose uncaptures are forbidden.
    pub no_uncapture: ByColor<bool>,
    /// Stop after visiting this many nodes (the result is then marked incomplete).
    pub max_nodes: Option<u64>,
    /// Facts about the game beyond its board (clocks, exact FEN fields), if the user asserts them.
    pub facts: GameFacts,
    /// Set from outside to stop the search; it then returns what it found, marked incomplete.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called every few thousand nodes.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// Keep only the first this many lines in [`Solutions::lines`] (the rest are counted, not
    /// kept): memory then stays bounded however many solutions there are.
    pub keep: Option<usize>,
    /// Called with each solution as it is found, so a caller can stream them; returning false
    /// stops the search (the result is then marked incomplete).
    pub on_solution: Option<&'a mut SolutionSink<'a>>,
    /// What the search may leave out, for benchmarks (everything is on by default).
    pub options: SearchOptions,
}

impl Default for SolveParams<'_> {
    fn default() -> Self {
        SolveParams {
            depth: 1,
            extra: DEFAULT_EXTRA,
            max_solutions: None,
            no_uncapture: ByColor::default(),
            max_nodes: None,
            facts: GameFacts::default(),
            cancel: None,
            progress: None,
            keep: None,
            on_solution: None,
            options: SearchOptions::default(),
        }
    }
}

/// The extra depth a solution must survive unless told otherwise.
pub const DEFAULT_EXTRA: u32 = 3;

/// A candidate line that died on a costlier verdict (a cage): the retractions from the position up
/// to and including the one that reached the illegal position, and why it is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The retractions from the position, the last one reaching the illegal position.
    pub line: Vec<Retraction>,
    /// Why that position is illegal.
    pub reason: Reason,
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// Each solution lists N retractions, last move first, in the order of the generator (only
    /// the first [`SolveParams::keep`] of them, if that is set).
    pub lines: Vec<Vec<Retraction>>,
    /// How many solutions were found, kept or not.
    pub count: u64,
    /// Every last move (first retraction) of a solution found, kept or not, with how many
    /// solutions start with it, in the order each was first found: the answer to "what was the
    /// last move?" whatever [`SolveParams::keep`] dropped.
    pub by_last_move: Vec<(Retraction, u64)>,
    /// Candidates that died in a cage (the first few): a line that reached a caged position, or
    /// whose every history of the extra plies did.
    pub refuted: Vec<Refutation>,
    /// False when `max_solutions`, `max_nodes` or cancellation cut the search short.
    pub complete: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

/// Counts one more solution whose last move (first retraction) is `last` in `by_last` (see
/// [`Solutions::by_last_move`]): a solution's last move is one of the root's retractions, which
/// are few, so a scan does.
pub fn tally_last_move(by_last: &mut Vec<(Retraction, u64)>, last: Retraction) {
    match by_last.iter_mut().find(|(r, _)| *r == last) {
        Some((_, n)) => *n += 1,
        None => by_last.push((last, 1)),
    }
}

/// Finds every sequence of `params.depth` retractions from `pos` after which `params.extra` more
/// retractions exist, every position on the way accepted by `pruner`.
///
/// ```
/// use retrace_search::{line_notation, solve, LegalPruner, SolveParams};
/// use retrace_unmove::RetroPosition;
///
/// // The black king on h8 is in check from the knight on f7, which can only have come from the
/// // squares a knight reaches f7 from; the last move was that knight's.
/// let pos = RetroPosition::from_fen("7k/5N2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
/// let found = solve(&pos, SolveParams::default(), &LegalPruner::new());
/// assert!(found.complete);
/// for line in &found.lines {
///     assert!(line_notation(&pos, line)[0].starts_with('N'));
/// }
/// assert!(found.count > 0);
/// ```
pub fn solve<P: Pruner>(pos: &RetroPosition, params: SolveParams<'_>, pruner: &P) -> Solutions {
    let mut root = with_policy(pos, params.no_uncapture);
    let lost = if params.facts.exact_castling {
        LostRights::of(&root)
    } else {
        LostRights::default()
    };
    pruner.mark_facts(&mut root);
    let mut search = Search::new(pruner, params);
    // A lost right whose king and rook never moved leaves no history at all.
    if !pruner.is_illegal(&root) && !lost.stranded(&root) {
        search.collect(&root, 0, lost);
    }
    search.into_solutions()
}
