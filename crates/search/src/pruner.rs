//! What the searches ask of the legality analysis: [`Pruner`], and [`LegalPruner`], the analysis of
//! `retrace-legal` with its cages.

use std::{
    cell::RefCell,
    fmt,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_cage::{closure, AutoLimits, CageFinder, CageStore};
use retrace_legal::{Analyzer, AnalyzerOptions, Reason};
use retrace_unmove::RetroPosition;

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
    /// repeating or dying in a finite set ([`retrace_cage::closure`]), within at most
    /// `max_nodes` nodes (the asking search's budget left, if it has one) and stopping soon after
    /// `cancel` is set. [`prove`](fn@crate::prove) asks it of the position and of the last move it would report;
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
    settle: true,
};

/// Nodes the closure of a position may expand when [`prove`](fn@crate::prove) asks it ([`LegalPruner`]'s
/// default): `check`'s budget, so that `check --prove` finds the verdict of `check`'s own closure
/// in the store's cache; positions whose closure is sure to be larger are not tried. The last
/// move [`prove`](fn@crate::prove) would report gets a quarter of it. (At 20,000 nodes, `prove 20` on the public
/// retractor suite took 1.5 times as long as without the closure, and closed nothing more.)
pub const PROVE_CLOSURE_NODES: u64 = retrace_cage::CHECK_CLOSURE_NODES;

/// The store a pruner reads and teaches: its own, or one its caller owns and shares.
#[derive(Clone, Debug)]
enum Cages<'c> {
    /// The pruner's own store, empty at first: what its cage attempts learn stays with it.
    Own(Arc<CageStore>),
    /// The caller's store.
    Borrowed(&'c CageStore),
}

impl Cages<'_> {
    fn store(&self) -> &CageStore {
        match self {
            Cages::Own(store) => store,
            Cages::Borrowed(store) => store,
        }
    }
}

/// Prunes with the static legality analysis of `retrace-legal` and the verified cages of a store,
/// and tries the positions of candidate lines as cages ([`retrace_cage::find_cage`]) as its costlier verdict.
///
/// What the cage attempts learn goes into the pruner's store, the caller's ([`LegalPruner::with_cages`])
/// or its own ([`LegalPruner::new`], shared by its clones): no store outlives its owner, so a search
/// answers the same whatever ran before it. The analyser whose caches the verdict at every node
/// reuses is the pruner's own too (a clone starts with empty caches, which only cost time).
pub struct LegalPruner<'c> {
    cages: Cages<'c>,
    /// The analyser of [`Pruner::is_illegal`], its caches kept from node to node.
    analyzer: RefCell<Analyzer>,
    /// The rules that analyser runs (every one by default).
    analysis: AnalyzerOptions,
    /// The cage attempt of [`Pruner::deep_reason`], which verifies each claim once.
    finder: RefCell<CageFinder>,
    /// Stops a cage attempt in progress soon after it is set (the asking search's cancel flag).
    cancel: Option<Arc<AtomicBool>>,
    /// Limits of the cage attempt; `None` turns it off.
    finding: Option<AutoLimits>,
    /// Nodes of the closure attempt; `None` turns it off.
    closure: Option<u64>,
    /// Whether the root's facts about units are marked on it ([`Pruner::mark_facts`]).
    facts: bool,
}

impl Clone for LegalPruner<'_> {
    fn clone(&self) -> Self {
        LegalPruner {
            cages: self.cages.clone(),
            analyzer: RefCell::new(Analyzer::with_options(self.analysis)),
            analysis: self.analysis,
            finder: RefCell::new(CageFinder::new()),
            cancel: self.cancel.clone(),
            finding: self.finding,
            closure: self.closure,
            facts: self.facts,
        }
    }
}

impl fmt::Debug for LegalPruner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LegalPruner")
            .field("cages", &self.cages)
            .field("finding", &self.finding)
            .field("closure", &self.closure)
            .field("facts", &self.facts)
            .field("analysis", &self.analysis)
            .finish_non_exhaustive()
    }
}

impl Default for LegalPruner<'static> {
    fn default() -> Self {
        LegalPruner::new()
    }
}

impl<'c> LegalPruner<'c> {
    /// The analysis, and the cage attempt with [`SEARCH_CAGE_LIMITS`], with a store of its own
    /// (empty at first) for what the attempts learn.
    #[must_use]
    pub fn new() -> LegalPruner<'static> {
        LegalPruner::with(Cages::Own(Arc::new(CageStore::new())))
    }

    /// The analysis, the cages of `store` (every one verified when it was stored), and the cage
    /// attempt, which closes its branches on those cages too and leaves what it proves in `store`.
    #[must_use]
    pub fn with_cages(store: &'c CageStore) -> LegalPruner<'c> {
        LegalPruner::with(Cages::Borrowed(store))
    }

    fn with(cages: Cages<'c>) -> LegalPruner<'c> {
        LegalPruner {
            cages,
            analyzer: RefCell::new(Analyzer::new()),
            analysis: AnalyzerOptions::default(),
            finder: RefCell::new(CageFinder::new()),
            cancel: None,
            finding: Some(SEARCH_CAGE_LIMITS),
            closure: Some(PROVE_CLOSURE_NODES),
            facts: true,
        }
    }

    /// The same pruner with its cage attempts stopped soon after `cancel` is set, so that Ctrl-C
    /// is not kept waiting by one (a stopped attempt proves nothing, which loses nothing).
    #[must_use]
    pub fn with_cancel(self, cancel: Arc<AtomicBool>) -> LegalPruner<'c> {
        LegalPruner {
            cancel: Some(cancel),
            ..self
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

    /// The same pruner with only the rules of `analysis` in its verdict at every node (the cage
    /// attempt and the closure keep every rule): weaker, never wrong; for benchmarks that measure
    /// what a family of rules decides.
    #[must_use]
    pub fn with_analysis(self, analysis: AnalyzerOptions) -> LegalPruner<'c> {
        LegalPruner {
            analyzer: RefCell::new(Analyzer::with_options(analysis)),
            analysis,
            ..self
        }
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
        let store = self.cages.store();
        match self.analyzer.try_borrow_mut() {
            Ok(mut analyzer) => retrace_cage::is_illegal_with_cages(&mut analyzer, pos, store),
            // Asked again while answering (no rule does): a fresh analyser gives the same answer.
            Err(_) => retrace_cage::is_illegal_with_cages(
                &mut Analyzer::with_options(self.analysis),
                pos,
                store,
            ),
        }
    }

    fn has_deep(&self) -> bool {
        self.finding.is_some()
    }

    fn deep_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        let limits = self.finding.as_ref()?;
        // Then a node some earlier proof learnt, anywhere in the position (the clusters the cage
        // attempt tries may cut it apart): a cage found names its units better.
        let store = self.cages.store();
        let cancel = self.cancel.as_deref();
        let search = match self.finder.try_borrow_mut() {
            Ok(mut finder) => finder.find_cancellable(pos, limits, store, cancel),
            Err(_) => CageFinder::new().find_cancellable(pos, limits, store, cancel),
        };
        search
            .found
            .map(|f| f.reason())
            .or_else(|| self.cages.store().learnt_reason(pos))
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        max_nodes: Option<u64>,
        cancel: Option<&AtomicBool>,
    ) -> Option<Reason> {
        let own = self.closure?;
        let max_nodes = max_nodes.map_or(own, |m| m.min(own));
        closure(pos, self.cages.store(), max_nodes, cancel)
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
