//! The analysis with cages: the static analysis of `retrace-legal` plus the cages of a store
//! ([`analyze_with_cages`], [`is_illegal_with_cages`]), and for checking one position, plus the
//! cage attempt and the closure ([`analyze_thoroughly`]).

use retrace_legal::{Analysis, Analyzer};
use retrace_unmove::RetroPosition;

use super::auto::{find_cage, AutoLimits};
use super::closure::{closure, CHECK_CLOSURE_NODES};
use super::store::CageStore;

/// [`retrace_legal::analyze`] plus one [`retrace_legal::ReasonCode::Cage`] reason for every cage of `store` that `pos`
/// contains (see [`CageStore::contained`]).
#[must_use]
pub fn analyze_with_cages(pos: &RetroPosition, store: &CageStore) -> Analysis {
    let mut analysis = retrace_legal::analyze(pos);
    analysis.reasons.extend(store.reasons(pos));
    analysis
}

/// Whether [`analyze_with_cages`] finds `pos` illegal, asked with `analyzer` (and its caches, so
/// that a search asking at every node keeps one): [`Analyzer::is_illegal`], or a cage of `store`
/// that `pos` contains.
#[must_use]
pub fn is_illegal_with_cages(
    analyzer: &mut Analyzer,
    pos: &RetroPosition,
    store: &CageStore,
) -> bool {
    analyzer.is_illegal(pos) || (!store.is_empty() && !store.reasons(pos).is_empty())
}

/// The analysis for checking one position: [`analyze_with_cages`] and, when that finds no
/// contradiction, [`find_cage`] with the default [`AutoLimits`], then a node learnt earlier in
/// the process ([`CageStore::learnt_reason`]), then the position's
/// [`closure`] within [`CHECK_CLOSURE_NODES`].
///
/// Slower than [`retrace_legal::analyze`] by up to the cage budgets, so meant for a position a user asks
/// about, not for every node of a search.
#[must_use]
pub fn analyze_thoroughly(pos: &RetroPosition, store: &CageStore) -> Analysis {
    let mut analysis = analyze_with_cages(pos, store);
    if analysis.reasons.is_empty() {
        if let Some(found) = find_cage(pos, &AutoLimits::default(), store).found {
            analysis.reasons.push(found.reason());
        } else if let Some(learnt) = store.learnt_reason(pos) {
            analysis.reasons.push(learnt);
        } else if let Some(closed) = closure(pos, store, CHECK_CLOSURE_NODES, None).closed {
            analysis.reasons.push(closed.reason());
        }
    }
    analysis
}
