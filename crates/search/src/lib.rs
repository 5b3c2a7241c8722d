//! Retraction search: what were the last N moves, and is there a history at all?
//!
//! [`solve`] retracts N plies from a position and keeps the lines after which `extra` further
//! retractions still exist, every position on the way passing a [`Pruner`] (the static legality
//! analysis, in the binary). [`prove`] looks for one history of a given length, and when there is
//! none tells how deep each last move survived. [`to_pgn`] turns a solution into a forward game that
//! shakmaty has replayed.

#![warn(missing_docs)]

mod bound;
mod budget;
mod engine;
mod facts;
mod forward;
mod pgn;
mod proofgame;
pub mod retractor;
pub mod rights;
mod table;

use std::{
    sync::{atomic::AtomicBool, Arc, LazyLock},
    time::Duration,
};

use retrace_legal::{
    cage::{closure, AutoLimits},
    find_cage, CageStore, Reason,
};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::ByColor;

#[doc(hidden)]
pub use bound::set_capture_squares;
use engine::{with_policy, Search};
pub use facts::GameFacts;
use facts::LostRights;
pub use pgn::{game_score, to_pgn, to_pgn_tagged, PgnError};
pub use proofgame::{proof_games, side_to_move_after, ProofGameParams, ProofGames};
pub use retractor::{
    solve_retractor, ForwardGoal, RetractorError, RetractorKind, RetractorParams, RetractorSolution,
};

/// Decides that a position cannot occur in a game, so no line may pass through it.
///
/// Implementations must be sound: a position that some legal game reaches is never rejected,
/// or the search loses histories.
pub trait Pruner {
    /// Whether `pos` is proven illegal; asked at every node, so it must be cheap.
    fn is_illegal(&self, pos: &RetroPosition) -> bool;

    /// A costlier proof that `pos` is illegal (the automatic cage attempt), with its reason. The
    /// search asks it only of positions on a line it is about to accept: the positions of a
    /// candidate solution and those of the line that shows its extra plies. Just as sound as
    /// [`Pruner::is_illegal`]; by default it proves nothing.
    fn deep_reason(&self, _pos: &RetroPosition) -> Option<Reason> {
        None
    }

    /// Whether [`Pruner::deep_reason`] can prove anything at all (else the search does not ask).
    fn has_deep(&self) -> bool {
        false
    }

    /// The costliest proof that `pos` is illegal: its closure, every line of retractions from it
    /// repeating or dying in a finite set ([`retrace_legal::cage::closure`]), within at most
    /// `max_nodes` nodes (the asking search's budget left, if it has one) and stopping soon after
    /// `cancel` is set. [`prove`] asks it of the position and of the last move it would report;
    /// just as sound as [`Pruner::is_illegal`]; by default it proves nothing.
    fn closure_reason(
        &self,
        _pos: &RetroPosition,
        _max_nodes: Option<u64>,
        _cancel: Option<&AtomicBool>,
    ) -> Option<Reason> {
        None
    }

    /// Marks on `pos`, the root of a search, facts about its units that hold in every game
    /// reaching it (units proven promoted, units that never moved), so that the marks travel
    /// with the units through every retraction and each node is judged with them (see
    /// [`retrace_legal::unit_facts`] for why that loses no history). Just as sound as
    /// [`Pruner::is_illegal`]; by default it marks nothing.
    ///
    /// The facts travel as the position's own marks rather than as a value passed beside it: a
    /// [`RetroPosition`] already carries both kinds, moves a promoted mark with its unit and drops
    /// it when the unit is unpromoted, never retracts a frozen unit, and keys both in its Zobrist
    /// key, so the transposition tables and every rule of the analysis see them with
    /// [`Pruner::is_illegal`] unchanged.
    fn mark_facts(&self, _pos: &mut RetroPosition) {}
}

/// Prunes nothing: the search then relies on retractions alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPruning;

impl Pruner for NoPruning {
    fn is_illegal(&self, _: &RetroPosition) -> bool {
        false
    }
}

/// Limits of the cage attempt on the positions of candidate lines: a tenth of the budget a user's
/// `check` spends, since a search asks it of many positions; the cages of published problems
/// verify in a few hundred nodes at most.
pub const SEARCH_CAGE_LIMITS: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 2_500,
    total_nodes: 5_000,
    capture_charges: true,
};

/// Nodes the closure of a position may expand when [`prove`] asks it ([`LegalPruner`]'s
/// default): `check`'s budget, so that `check --prove` finds the verdict of `check`'s own closure
/// in the store's cache; positions whose closure is sure to be larger are not tried. The last
/// move [`prove`] would report gets a quarter of it. (At 20,000 nodes, `prove 20` on the public
/// retractor suite took 1.5 times as long as without the closure, and closed nothing more.)
pub const PROVE_CLOSURE_NODES: u64 = retrace_legal::cage::CHECK_CLOSURE_NODES;

/// The store of a pruner given none: empty, but it keeps what the cage attempts learn for the
/// whole process.
static NO_CAGES: LazyLock<CageStore> = LazyLock::new(CageStore::new);

/// Prunes with the static legality analysis of `retrace-legal` and the verified cages of a store,
/// and tries the positions of candidate lines as cages ([`find_cage`]) as its costlier verdict.
#[derive(Clone, Copy, Debug)]
pub struct LegalPruner<'c> {
    cages: &'c CageStore,
    /// Limits of the cage attempt; `None` turns it off.
    finding: Option<AutoLimits>,
    /// Nodes of the closure attempt; `None` turns it off.
    closure: Option<u64>,
    /// Whether the root's facts about units are marked on it ([`Pruner::mark_facts`]).
    facts: bool,
}

impl Default for LegalPruner<'static> {
    fn default() -> Self {
        LegalPruner::new()
    }
}

impl<'c> LegalPruner<'c> {
    /// The analysis, and the cage attempt with [`SEARCH_CAGE_LIMITS`].
    #[must_use]
    pub fn new() -> LegalPruner<'static> {
        LegalPruner::with_cages(&NO_CAGES)
    }

    /// The analysis, the cages of `store` (every one verified when it was stored), and the cage
    /// attempt, which closes its branches on those cages too and leaves what it proves in `store`.
    #[must_use]
    pub fn with_cages(store: &'c CageStore) -> LegalPruner<'c> {
        LegalPruner {
            cages: store,
            finding: Some(SEARCH_CAGE_LIMITS),
            closure: Some(PROVE_CLOSURE_NODES),
            facts: true,
        }
    }

    /// The same pruner with other limits for the cage attempt, or none (`None`).
    #[must_use]
    pub fn with_cage_finding(self, limits: Option<AutoLimits>) -> LegalPruner<'c> {
        LegalPruner {
            finding: limits,
            ..self
        }
    }

    /// The same pruner with the root's facts about units marked on it or not (they are by
    /// default): off, the search is weaker, never wrong; for benchmarks and comparisons.
    #[must_use]
    pub fn with_unit_facts(self, on: bool) -> LegalPruner<'c> {
        LegalPruner { facts: on, ..self }
    }

    /// The same pruner with another node cap for the closure attempt, or none (`None`).
    #[must_use]
    pub fn with_closure(self, max_nodes: Option<u64>) -> LegalPruner<'c> {
        LegalPruner {
            closure: max_nodes,
            ..self
        }
    }
}

impl Pruner for LegalPruner<'_> {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        retrace_legal::is_illegal_with_cages(pos, self.cages)
    }

    fn has_deep(&self) -> bool {
        self.finding.is_some()
    }

    fn deep_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        let limits = self.finding.as_ref()?;
        // Then a node some earlier proof learnt, anywhere in the position (the clusters the cage
        // attempt tries may cut it apart): a cage found names its units better.
        find_cage(pos, limits, self.cages)
            .found
            .map(|f| f.reason())
            .or_else(|| self.cages.learnt_reason(pos))
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        max_nodes: Option<u64>,
        cancel: Option<&AtomicBool>,
    ) -> Option<Reason> {
        let own = self.closure?;
        let max_nodes = max_nodes.map_or(own, |m| m.min(own));
        closure(pos, self.cages, max_nodes, cancel)
            .closed
            .map(|c| c.reason())
    }

    fn mark_facts(&self, pos: &mut RetroPosition) {
        if self.facts {
            retrace_legal::unit_facts(pos).mark(pos);
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
    /// Nodes visited so far.
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: usize,
    /// The ply the search is at (0 = the position itself).
    pub ply: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// What the search is doing.
    pub phase: Phase,
}

/// The phases of a search, as [`Progress`] reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Retracting.
    Retracting,
    /// Playing forward (a retractor's forward goal after the retractions).
    Forward,
    /// Building the positions a proof game's first plies reach (once per process), with how many
    /// positions were expanded so far.
    ForwardLayers {
        /// Positions expanded so far.
        positions: u64,
    },
}

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
    if !pruner.is_illegal(&root) {
        search.collect(&root, 0, lost);
    }
    Solutions {
        lines: search.lines,
        count: search.count,
        refuted: search.refuted,
        complete: !search.budget.stopped,
        nodes: search.budget.nodes,
        elapsed: search.budget.start.elapsed(),
    }
}

/// The outcome of [`prove`]. Only lines that repeat no position (the position itself included)
/// count as histories: a history that repeats a position can be cut short, so depth reached by
/// shuffling proves nothing, and a legal position always has repetition-free histories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A repetition-free history of the requested length, last move first.
    History(Vec<Retraction>),
    /// No repetition-free history is that long: the position is illegal (or needs a longer
    /// look).
    NoHistory {
        /// Each last move tried, with how long its longest repetition-free line lasted.
        tries: Vec<Try>,
        /// The longest repetition-free line found, last move first (empty when every last move
        /// leads to an illegal position, or when the closure answered).
        longest: Vec<Retraction>,
        /// False when the node budget or cancellation cut the search short.
        complete: bool,
        /// The proof that every line of retractions from the position repeats or dies in a
        /// finite set ([`Pruner::closure_reason`]), when that answered before any search.
        closure: Option<Reason>,
    },
}

/// A last move tried by [`prove`] that did not lead to a history of the requested length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Try {
    /// The last move tried.
    pub retraction: Retraction,
    /// The plies of its longest repetition-free line (1 = the move itself and nothing before
    /// it; 0 = the move leads to an illegal position).
    pub survived: u32,
    /// Whether some line one ply longer was cut because it repeated a position: the move's lines
    /// go on only by repeating, where they do not die.
    pub repeats: bool,
    /// Whether the move leads at once to a position the costlier verdict (the cage attempt)
    /// proves illegal, rather than the analysis.
    pub caged: bool,
    /// What cut the move's lines short.
    pub cut: Cut,
}

/// What cut the lines of a last move that [`prove`] tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cut {
    /// The move leads at once to a position the analysis proves illegal.
    Illegal,
    /// The move leads at once to a position in a cage ([`Pruner::deep_reason`]).
    Cage,
    /// The move leads into a closure: every line of retractions from the position it leads to
    /// repeats or dies in a finite set ([`Pruner::closure_reason`]).
    Closure,
    /// The search: every line of the move died or repeated within [`Try::survived`] plies.
    Depth,
}

impl Cut {
    /// A stable lowercase name (for JSON): `illegal`, `cage`, `closure` or `depth`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Cut::Illegal => "illegal",
            Cut::Cage => "cage",
            Cut::Closure => "closure",
            Cut::Depth => "depth",
        }
    }
}

/// Looks for a history `max_depth` plies deep, or shows that every history dies earlier.
///
/// ```
/// use retrace_search::{prove, LegalPruner, Proof};
/// use retrace_unmove::RetroPosition;
///
/// // After 1. e4 a history of two plies exists (the pawn's double step, and a move before it).
/// let pos =
///     RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1").unwrap();
/// assert!(matches!(prove(&pos, 2, &LegalPruner::new(), None), Proof::History(_)));
/// ```
pub fn prove<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
) -> Proof {
    prove_within(pos, max_depth, pruner, cancel, None)
}

/// As [`prove`], giving up (with an incomplete answer) after visiting `max_nodes` nodes.
pub fn prove_within<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
) -> Proof {
    let params = SolveParams {
        depth: 0,
        extra: 0,
        cancel,
        max_nodes,
        ..SolveParams::default()
    };
    prove_in(pos, max_depth, &mut Search::new(pruner, params))
}

/// As [`prove_within`], with the nodes visited; `repetition_free: false` counts every line as a
/// history, as the search did before issue 17 (unsound as evidence: for benchmarks and
/// comparisons only).
pub fn prove_measured<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    max_nodes: Option<u64>,
    repetition_free: bool,
) -> (Proof, u64) {
    let params = SolveParams {
        depth: 0,
        extra: 0,
        max_nodes,
        ..SolveParams::default()
    };
    let mut search = Search::new(pruner, params);
    if !repetition_free {
        search.repetitions = None;
    }
    let proof = prove_in(pos, max_depth, &mut search);
    (proof, search.budget.nodes)
}

/// [`prove_within`] with a search set up.
fn prove_in<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    search: &mut Search<'_, '_, P>,
) -> Proof {
    let pruner = search.pruner;
    if max_depth == 0 || pruner.is_illegal(pos) {
        return if max_depth == 0 && !pruner.is_illegal(pos) {
            Proof::History(Vec::new())
        } else {
            Proof::NoHistory {
                tries: Vec::new(),
                longest: Vec::new(),
                complete: true,
                closure: None,
            }
        };
    }
    // A closed position has long lines that only go round: no search can tell them from a
    // history, the closure can.
    if let Some(reason) =
        pruner.closure_reason(pos, search.budget.left(), search.budget.cancel_flag())
    {
        let tries = pos
            .retractions()
            .into_iter()
            .map(|r| {
                let illegal = pruner.is_illegal(&pos.retract(r));
                Try {
                    retraction: r,
                    survived: 0,
                    repeats: false,
                    caged: false,
                    // The position it leads to is a node of the closure, proven with it.
                    cut: if illegal { Cut::Illegal } else { Cut::Closure },
                }
            })
            .collect();
        return Proof::NoHistory {
            tries,
            longest: Vec::new(),
            complete: true,
            closure: Some(reason),
        };
    }
    // The root's facts about units travel down every line (the closure above was asked of the
    // position as given, so that it finds `check`'s verdict in the store's cache).
    let mut root = pos.clone();
    pruner.mark_facts(&mut root);
    let pos = &root;
    // The position itself is the root of every line: no line may come back to it.
    search.enter(pos, LostRights::default(), 1);
    let mut tries = Vec::new();
    let mut best: Option<(Retraction, RetroPosition, u32)> = None;
    for r in pos.retractions() {
        let child = pos.retract(r);
        let illegal = pruner.is_illegal(&child);
        if illegal || pruner.deep_reason(&child).is_some() {
            tries.push(Try {
                retraction: r,
                survived: 0,
                repeats: false,
                caged: !illegal,
                cut: if illegal { Cut::Illegal } else { Cut::Cage },
            });
            continue;
        }
        // The longest survival of this move, found by deepening until the line dies.
        let mut survived = 1;
        let mut repeats = false;
        while survived < max_depth {
            search.clear_repeats();
            let deeper = search.has_checked_history(&child, survived, 2);
            repeats = search.repeated();
            if !deeper {
                break;
            }
            survived += 1;
        }
        if survived == max_depth && search.has_checked_history(&child, max_depth - 1, 2) {
            // The line is repetition-free, but a closed position's lines go round without
            // repeating for as long as the closure is large: only a move out of every closure
            // is evidence.
            let quarter = PROVE_CLOSURE_NODES / 4;
            let left = search.budget.left().map_or(quarter, |l| l.min(quarter));
            if pruner
                .closure_reason(&child, Some(left), search.budget.cancel_flag())
                .is_some()
            {
                tries.push(Try {
                    retraction: r,
                    survived: 0,
                    repeats,
                    caged: false,
                    cut: Cut::Closure,
                });
                continue;
            }
            let mut line = vec![r];
            line.extend(search.witness(&child, max_depth - 1, 2));
            return Proof::History(line);
        }
        tries.push(Try {
            retraction: r,
            survived,
            repeats,
            caged: false,
            cut: Cut::Depth,
        });
        if best.as_ref().is_none_or(|b| b.2 < survived) {
            best = Some((r, child, survived));
        }
        if search.budget.stopped {
            break;
        }
    }
    let longest = best
        .map(|(r, child, survived)| {
            let mut line = vec![r];
            line.extend(search.witness(&child, survived - 1, 2));
            line
        })
        .unwrap_or_default();
    Proof::NoHistory {
        tries,
        longest,
        complete: !search.budget.stopped,
        closure: None,
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
