//! Cages found without a claim: [`find_cage`] splits a position into clusters of units (see
//! `carve.rs`) and tries each small one as a cage, within a node budget.
//!
//! # Soundness
//! Only a verified cluster is reported: [`crate::verify_with`] proves that no game has a position
//! containing the cluster's units, so the position, which contains them, is illegal. A cluster
//! whose verification escapes, reaches the depth limit or runs out of nodes proves nothing and is
//! forgotten. The claim made for a cluster uses only facts of the position: its units that the
//! position marks as never moved (castling rights, user marks) stay frozen, and each side's
//! captures are bounded by the units the opponent is missing, which is exactly the number of
//! captures that side made.
//!
//! # Cost
//! [`AutoLimits`] caps the units of a cluster tried and the nodes spent on one cluster and on all
//! of them, so the attempt has a fixed worst case. Each claim is first given a flat search of a
//! few dozen nodes (no sub-searches of parts of nodes): a claim that is no cage almost always
//! shows a line home or away within them, for a tenth of the full verification's cost. A search
//! that asks of many positions (the pruner, for the positions of lines it is about to accept)
//! keeps a [`CageFinder`], which verifies each claim once: positions that differ only outside a
//! cluster share its verdict. It is never asked at every node.

use std::{collections::HashMap, sync::atomic::AtomicBool};

use retrace_unmove::RetroPosition;
use shakmaty::Color;

use super::carve::{claim, clusters, peel, settles, Peeled};
use super::failure::Failure;
use super::format::Cage;
use super::generator::PawnCosts;
use super::options::VerifyOptions;
use super::search::verify_flat;
use super::store::{verify_cancellable, verify_with, CageStore};
use retrace_legal::{
    text::{color_name, squares_text},
    Reason, ReasonCode,
};

/// Limits of [`find_cage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AutoLimits {
    /// The most units a cluster may have to be tried (larger clusters are skipped).
    pub max_units: usize,
    /// Nodes one cluster's verification may expand.
    pub cluster_nodes: u64,
    /// Nodes all verifications together may expand.
    pub total_nodes: u64,
    /// Whether the verifications apply the capture charges
    /// ([`VerifyOptions::capture_charges`]); off only to measure them.
    pub capture_charges: bool,
    /// Whether a claim whose units all walk home or out of its zone one by one is passed over
    /// without a verification (a heuristic that spares most claims of open positions their
    /// probe, see [`CageSearch::settled`]); off so that every claim is verified, as the
    /// soundness tests want.
    pub settle: bool,
}

impl Default for AutoLimits {
    /// At most 12 units a cluster (Darvall's cage has 12), 5,000 nodes a cluster and 20,000 in
    /// all. The published cages verify in at most a few hundred nodes as clusters. A node costs
    /// 2 to 12 microseconds (the most when a search runs out of budget), so the attempt takes a
    /// quarter of a second at worst, and under a millisecond on most positions.
    fn default() -> Self {
        AutoLimits {
            max_units: 12,
            cluster_nodes: 5_000,
            total_nodes: 20_000,
            capture_charges: true,
            settle: true,
        }
    }
}

/// How many more units a peeled core may have than a cluster (see [`peel`]): a core is what is
/// left of a larger crowd, so it may be larger than the clusters worth trying whole.
const CORE_EXTRA_UNITS: usize = 8;

/// Nodes of the flat search that looks for a line out of a claim before its verification (see
/// [`CageFinder::find`]).
const PROBE_NODES: u64 = 64;

/// A cluster of a position proven to be a cage by [`find_cage`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundCage {
    /// The claim that was verified: the cluster's units with their facts (frozen units, capture
    /// bounds).
    pub cage: Cage,
    /// Nodes its verification expanded.
    pub nodes: u64,
}

impl FoundCage {
    /// The [`ReasonCode::Cage`] reason for a position containing this cage.
    #[must_use]
    pub fn reason(&self) -> Reason {
        let squares = self.cage.board.occupied();
        let mut message = format!(
            "the units on {} form a cage, found automatically (verified in {} node{}): no game \
             can have released them, whatever else stands on the board",
            squares_text(squares),
            self.nodes,
            if self.nodes == 1 { "" } else { "s" }
        );
        let bounds: Vec<String> = Color::ALL
            .into_iter()
            .filter_map(|c| {
                self.cage
                    .captures
                    .get(c)
                    .map(|n| format!("{n} by {}", color_name(c)))
            })
            .collect();
        if !bounds.is_empty() {
            message.push_str(&format!(
                ", with no more captures than the missing units allow ({})",
                bounds.join(", ")
            ));
        }
        if self.cage.frozen.any() {
            message.push_str(&format!(
                ", given that the units on {} never moved",
                squares_text(self.cage.frozen)
            ));
        }
        Reason::new(ReasonCode::Cage, message, squares)
    }
}

/// What [`find_cage`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageSearch {
    /// The first cluster verified as a cage, if any.
    pub found: Option<FoundCage>,
    /// Claims whose verification was started (not those settled by an earlier one of the same
    /// [`CageFinder`]).
    pub tried: usize,
    /// Claims passed over because their units walk home or away one by one
    /// ([`AutoLimits::settle`]).
    pub settled: usize,
    /// Nodes expanded by all verifications.
    pub nodes: u64,
}

/// Tries the clusters of `pos` (see the module documentation) as cages, smallest first, within
/// `limits`, closing branches on the cages of `store` too; stops at the first one verified.
///
/// Sound: a cage is reported only when verified, so `found` proves `pos` illegal. Incomplete by
/// design: clusters over the cap, cages that are a strict part of a cluster too large to verify
/// in the budget, and illegality that is not a cage are all missed.
///
/// A search that asks of many positions keeps a [`CageFinder`] instead, which does not verify
/// the same claim twice.
#[must_use]
pub fn find_cage(pos: &RetroPosition, limits: &AutoLimits, store: &CageStore) -> CageSearch {
    CageFinder::new().find(pos, limits, store)
}

/// What became of a claim a [`CageFinder`] verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    /// Verified, in this many nodes.
    Proven(u64),
    /// Not proven whatever the budget: a line escaped (the board emptied, every unit got home),
    /// the depth limit was reached, or the claim is malformed.
    Failed,
    /// The budget it was given (in nodes) ran out.
    OutOfNodes(u64),
}

/// [`find_cage`] for a search that asks of many positions: it remembers what became of each
/// claim it verified, so that positions which differ only outside a cluster (the same units on
/// the same squares, with the same frozen units and capture bounds) share one verification.
///
/// A claim is the whole input of its verification but for what the store has learnt since, which
/// only closes more branches: a claim that failed is not tried again with a budget no larger
/// (a retry might now succeed, so skipping it loses power, never soundness), and a claim proven
/// is reported again as proven, with the nodes of its verification. The memory is bounded: past
/// [`CageFinder::MAX_CLAIMS`] claims it starts afresh.
#[derive(Clone, Debug, Default)]
pub struct CageFinder {
    tried: HashMap<Cage, Tried>,
    /// The pawn costs every probe's generator borrows.
    costs: PawnCosts,
}

impl CageFinder {
    /// The most claims remembered before the finder forgets them all (a few hundred bytes
    /// each).
    pub const MAX_CLAIMS: usize = 1 << 15;

    /// A finder that remembers nothing yet.
    #[must_use]
    pub fn new() -> CageFinder {
        CageFinder::default()
    }

    /// Remembers what became of `cage`, forgetting everything first when full.
    fn remember(&mut self, cage: Cage, tried: Tried) {
        if self.tried.len() >= CageFinder::MAX_CLAIMS {
            self.tried.clear();
        }
        self.tried.insert(cage, tried);
    }

    /// [`find_cage`], skipping the claims already settled (see the type's documentation).
    #[must_use]
    pub fn find(
        &mut self,
        pos: &RetroPosition,
        limits: &AutoLimits,
        store: &CageStore,
    ) -> CageSearch {
        self.find_cancellable(pos, limits, store, None)
    }

    /// [`CageFinder::find`] that stops, with no cage found, soon after `cancel` is set (each
    /// verification looks at it every [`crate::CANCEL_POLL`] nodes).
    #[must_use]
    pub fn find_cancellable(
        &mut self,
        pos: &RetroPosition,
        limits: &AutoLimits,
        store: &CageStore,
        cancel: Option<&AtomicBool>,
    ) -> CageSearch {
        let mut search = CageSearch {
            found: None,
            tried: 0,
            settled: 0,
            nodes: 0,
        };
        for cluster in clusters(pos.board()) {
            let units = cluster.count();
            // A lone unit always gets away (it steps out of its zone, or a pawn steps home).
            if units < 2 {
                continue;
            }
            // The peeled cores first: smaller, and far cheaper to verify when one is the cage.
            // A cluster that dissolves entirely is not tried. A cluster from which nothing peels
            // is its own core, and gets the larger cap of cores.
            let core_cap = limits.max_units + CORE_EXTRA_UNITS;
            let (cores, cap) = match peel(pos.board(), cluster) {
                Peeled::Dissolved => continue,
                Peeled::Whole => (Vec::new(), core_cap),
                Peeled::Cores(cores) => (cores, limits.max_units),
            };
            let cores = cores
                .into_iter()
                .filter(|c| c.count() >= 2 && c.count() <= core_cap);
            let whole = (units <= cap).then_some(cluster);
            for candidate in cores.chain(whole) {
                let budget = limits
                    .cluster_nodes
                    .min(limits.total_nodes.saturating_sub(search.nodes));
                if budget == 0 {
                    return search;
                }
                let Some(cage) = claim(pos, candidate) else {
                    continue;
                };
                match self.tried.get(&cage) {
                    Some(&Tried::Proven(nodes)) => {
                        search.found = Some(FoundCage { cage, nodes });
                        return search;
                    }
                    Some(Tried::Failed) => continue,
                    Some(&Tried::OutOfNodes(given)) if given >= budget => continue,
                    _ => {}
                }
                // A claim whose units all walk home or away one by one seldom holds a cage.
                if limits.settle && settles(&cage) {
                    search.settled += 1;
                    self.remember(cage, Tried::Failed);
                    continue;
                }
                let mut options = VerifyOptions {
                    max_nodes: PROBE_NODES.min(budget),
                    hwa_only: false,
                    capture_charges: limits.capture_charges,
                    ..VerifyOptions::default()
                };
                // A claim that is no cage usually lets its units walk home or away along the
                // first lines the guided search tries: the flat search finds such a line without
                // the sub-searches that prove parts of nodes dead, at a fraction of the cost.
                let (probed, result) =
                    verify_flat(&cage, store.known(), &options, &mut self.costs, cancel);
                search.tried += 1;
                search.nodes += probed;
                if result == Err(Failure::Cancelled) {
                    return search;
                }
                if matches!(result, Err(Failure::AllHome | Failure::BoardEmpty)) {
                    self.remember(cage, Tried::Failed);
                    continue;
                }
                // A probe that used the whole budget leaves nothing to verify with. Otherwise the
                // verification gets the claim's whole budget (its results are remembered by
                // claim and budget, see `verify_with`), and the probe's few nodes count in the
                // total only.
                if probed >= budget {
                    self.remember(cage, Tried::OutOfNodes(budget));
                    continue;
                }
                options.max_nodes = budget;
                let v = verify_cancellable(&cage, store, &options, cancel);
                search.nodes += v.nodes;
                let tried = match v.failure() {
                    None => Tried::Proven(v.nodes),
                    Some(Failure::NodeLimit(_)) => Tried::OutOfNodes(budget),
                    Some(Failure::Cancelled) => return search,
                    Some(_) => Tried::Failed,
                };
                if v.verified() {
                    debug_assert_no_escape(&cage);
                    self.remember(cage.clone(), tried);
                    search.found = Some(FoundCage {
                        cage,
                        nodes: v.nodes,
                    });
                    return search;
                }
                self.remember(cage, tried);
            }
        }
        search
    }
}

/// In debug builds, verifies a cage the finder proved (with what the store had learnt) again from
/// scratch, and panics if that finds a line that escapes: a proof with learnt facts that a fresh
/// search refutes would mean the learning is unsound. Running out of nodes proves nothing either way.
fn debug_assert_no_escape(cage: &Cage) {
    if cfg!(debug_assertions) {
        let fresh = verify_with(cage, &CageStore::new(), &VerifyOptions::default());
        assert!(
            fresh.verified()
                || matches!(
                    fresh.failure(),
                    Some(Failure::NodeLimit(_) | Failure::DepthLimit(_))
                ),
            "a cage proven with learnt facts escapes from scratch: {cage} ({:?})",
            fresh.failure()
        );
    }
}
