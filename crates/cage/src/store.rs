//! The cage store: proven cages only, their file format, and their use by the analysis; and the
//! verification of a claim with what a store knows ([`verify`]).
//!
//! A store keeps a cage only against the verifier's [`Proven`] token ([`CageStore::insert`]), so
//! it holds proven cages only. It owns the memo of what verifications through it learnt, and
//! hands its cages and that memo to the verifier explicitly; the verifier never sees the store.

use std::sync::atomic::{AtomicBool, Ordering};

use std::fmt;

use retrace_legal::{
    text::{color_name, squares_text},
    Reason, ReasonCode,
};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

use super::carve::claim;
use super::failure::Failure;
use super::format::{Cage, CageError};
use super::generator::Generator;
use super::memo::Memo;
use super::options::VerifyOptions;
use super::search::{verify_deepest, Known, Proven, Verification};

/// The limits of [`CageStore::load_within`].
#[derive(Clone, Copy, Debug)]
pub struct LoadBudget<'a> {
    /// Nodes each claim's verification may expand.
    pub per_cage: u64,
    /// Nodes all verifications of a load may expand together.
    pub total: u64,
    /// Set from outside to stop the load; the claims not yet proven are refused.
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for LoadBudget<'_> {
    /// The default verification budget for each claim ([`VerifyOptions::default`]) and ten times
    /// that for a whole file: a file of hard claims is refused in seconds, line by line.
    fn default() -> Self {
        let per_cage = VerifyOptions::default().max_nodes;
        LoadBudget {
            per_cage,
            total: per_cage * 10,
            cancel: None,
        }
    }
}

/// Proven cages, exported and imported as a cage file; the analysis uses them through
/// [`crate::analyze_with_cages`] or [`CageStore::reasons`].
///
/// Every cage in a store was proven by the verifier: [`CageStore::insert`] takes only its
/// [`Proven`] token, and [`CageStore::prove`] and [`CageStore::load`] verify each claim and keep
/// the proven ones. The store also owns a memo of verification results and of the nodes of
/// successful searches, which later verifications through it close branches on; it is only ever
/// filled by successful proofs (or, for results, by failures that are reused only while the store
/// is unchanged). A clone has the same cages and an empty memo.
pub struct CageStore {
    cages: Vec<Cage>,
    memo: Memo,
}

impl Default for CageStore {
    fn default() -> Self {
        CageStore::new()
    }
}

impl Clone for CageStore {
    /// The cages; the clone starts with an empty memo.
    fn clone(&self) -> Self {
        CageStore {
            cages: self.cages.clone(),
            memo: Memo::default(),
        }
    }
}

impl fmt::Debug for CageStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CageStore")
            .field("cages", &self.cages)
            .finish_non_exhaustive()
    }
}

impl CageStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> CageStore {
        CageStore {
            cages: Vec::new(),
            memo: Memo::default(),
        }
    }

    /// What a verification through this store may close nodes on: its cages and its memo.
    pub(crate) fn known(&self) -> Known<'_> {
        Known {
            cages: &self.cages,
            memo: &self.memo,
        }
    }

    /// The proven cages, in the order they were added.
    #[must_use]
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The number of cages.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cages.len()
    }

    /// Whether the store has no cage.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }

    /// Keeps the cage `proven` proves; `false` when the store already had it.
    pub fn insert(&mut self, proven: Proven) -> bool {
        if self.cages.contains(proven.cage()) {
            return false;
        }
        self.cages.push(proven.into_cage());
        true
    }

    /// Verifies `cage` with the cages already stored and keeps it if it is proven (a cage already
    /// in the store is not added twice). Refuses a malformed or unproven claim. A claim this store
    /// proved before is not searched again: its verification is the first one, nodes and all.
    pub fn prove(&mut self, cage: Cage) -> Result<Verification, CageError> {
        self.prove_with(cage, &VerifyOptions::default())
    }

    /// [`CageStore::prove`] with the verification's options (its node budget).
    pub fn prove_with(
        &mut self,
        cage: Cage,
        options: &VerifyOptions,
    ) -> Result<Verification, CageError> {
        self.prove_cancellable(cage, options, None)
    }

    /// [`CageStore::prove_with`] that gives up with [`Failure::Cancelled`] soon after `cancel` is
    /// set.
    pub fn prove_cancellable(
        &mut self,
        cage: Cage,
        options: &VerifyOptions,
        cancel: Option<&AtomicBool>,
    ) -> Result<Verification, CageError> {
        cage.validate()?;
        let v = verify_cancellable(&cage, self, options, cancel);
        if let Err(escape) = &v.outcome {
            return Err(CageError::NotVerified {
                failure: escape.failure.clone(),
                escape: escape.line.clone(),
            });
        }
        if let Some(proof) = v.proof() {
            self.insert(proof.clone());
        }
        Ok(v)
    }

    /// A [`ReasonCode::Cage`] reason if `pos` contains a learnt node: a node that an earlier
    /// verification through this store proved to have no realization (every node of a successful
    /// verification, and every proven reduced node or pen core).
    ///
    /// Sound for the same reason as a cage of the store: a game reaching `pos` realizes the claim
    /// of all of `pos`'s units (every unit on its square, the frozen marks `pos` holds on home
    /// squares, each side's captures bounded by the units the opponent is missing, and a unit
    /// giving an unblockable check as the pending one: it made the last move, as in the claims
    /// of [`crate::find_cage`]), and so it would realize the learnt node that claim contains.
    /// Cheap: only the entries keyed by the units of `pos` are looked at.
    #[must_use]
    pub fn learnt_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        // Most positions hold no learnt node's units at all: they are answered before a node
        // (and its pawn costs) is built.
        if !self.memo.may_cover(pos.board()) {
            return None;
        }
        let cage = claim(pos, pos.board().occupied())?;
        // A claim illegal outright is left to the analysis, which words it better.
        let root = Generator::new(cage.zone, false, true).root(&cage)?;
        let (squares, frozen) = self.memo.covering(&root)?;
        let mut message = format!(
            "the units on {} cannot have got there: an earlier proof in this session showed that \
             every line of retractions from them dies or repeats, whatever else stands on the board",
            squares_text(squares)
        );
        if frozen.any() {
            message.push_str(&format!(
                " (with the units on {} never having moved)",
                squares_text(frozen)
            ));
        }
        Some(Reason::new(ReasonCode::Cage, message, squares))
    }

    /// Reads a cage file (one cage per line; blank lines and `#` comments ignored) and verifies
    /// every cage, keeping the proven ones. Returns the store and, for every other line, its number
    /// (from 1) and why it was refused. A cage may rely on cages anywhere in the file: refused
    /// claims are retried while others keep getting proven.
    #[must_use]
    pub fn load(text: &str) -> (CageStore, Vec<(usize, CageError)>) {
        CageStore::load_within(text, &LoadBudget::default())
    }

    /// [`CageStore::load`] within `budget`: every claim gets at most `budget.per_cage` nodes, all
    /// together at most `budget.total` (a claim left when it is spent is refused with
    /// [`Failure::NodeLimit`]), and a set cancel flag refuses the rest with
    /// [`Failure::Cancelled`]. Every refused line is reported, not only the first.
    #[must_use]
    pub fn load_within(
        text: &str,
        budget: &LoadBudget<'_>,
    ) -> (CageStore, Vec<(usize, CageError)>) {
        let mut store = CageStore::new();
        let mut errors = Vec::new();
        let mut waiting = Vec::new();
        for (i, line) in text.lines().enumerate() {
            match Cage::parse_line(line) {
                Ok(cage) => waiting.push((i + 1, cage)),
                Err(CageError::Empty) => {}
                Err(e) => errors.push((i + 1, e)),
            }
        }
        let mut spent = 0u64;
        loop {
            let before = store.len();
            let mut refused = Vec::new();
            for (n, cage) in waiting {
                let left = budget.total.saturating_sub(spent);
                let cancelled = budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
                if left == 0 || cancelled {
                    let failure = if cancelled {
                        Failure::Cancelled
                    } else {
                        Failure::NodeLimit(budget.total)
                    };
                    let e = CageError::NotVerified {
                        failure,
                        escape: Vec::new(),
                    };
                    refused.push((n, cage, e));
                    continue;
                }
                let options = VerifyOptions {
                    max_nodes: budget.per_cage.min(left),
                    ..VerifyOptions::default()
                };
                match store.prove_cancellable(cage.clone(), &options, budget.cancel) {
                    Ok(v) => spent += v.nodes,
                    Err(e) => {
                        if let CageError::NotVerified {
                            failure: Failure::NodeLimit(n),
                            ..
                        } = &e
                        {
                            spent += n;
                        }
                        refused.push((n, cage, e));
                    }
                }
            }
            if store.len() == before || refused.is_empty() {
                errors.extend(refused.into_iter().map(|(n, _, e)| (n, e)));
                break;
            }
            waiting = refused.into_iter().map(|(n, c, _)| (n, c)).collect();
        }
        errors.sort_by_key(|(n, _)| *n);
        (store, errors)
    }

    /// The cages as a cage file, one per line after a comment, that [`CageStore::load`] reads back.
    #[must_use]
    pub fn export(&self) -> String {
        let mut out = String::from(
            "# Retrace cages: one verified cage per line (board, zone=, frozen=, depth=, captures=)\n",
        );
        for cage in &self.cages {
            out.push_str(&cage.to_string());
            out.push('\n');
        }
        out
    }

    /// The stored cages that `pos` contains: their units stand on the same squares with the same
    /// colours and roles (whatever else stands on the board is an extension of the cage), their
    /// frozen units are frozen in `pos`, and the units missing from `pos` allow no more captures
    /// than the cage's bounds.
    #[must_use]
    pub fn contained(&self, pos: &RetroPosition) -> Vec<&Cage> {
        let board = pos.board();
        self.cages
            .iter()
            .filter(|cage| {
                cage.units_within(board, pos.frozen())
                    && Color::ALL.into_iter().all(|c| match *cage.captures.get(c) {
                        None => true,
                        Some(bound) => {
                            let missing = 16usize.saturating_sub(board.by_color(c.other()).count());
                            missing <= usize::from(bound)
                        }
                    })
            })
            .collect()
    }

    /// One [`ReasonCode::Cage`] reason per stored cage that `pos` contains.
    #[must_use]
    pub fn reasons(&self, pos: &RetroPosition) -> Vec<Reason> {
        self.contained(pos)
            .into_iter()
            .map(|cage| {
                let squares = cage.board.occupied();
                let mut message = format!(
                    "the units on {} form a verified cage: no game can have released them, \
                     whatever else stands on the board",
                    squares_text(squares)
                );
                for c in Color::ALL {
                    if let Some(bound) = *cage.captures.get(c) {
                        message.push_str(&format!(
                            "; {} can have made at most {bound} capture{} here",
                            color_name(c),
                            if bound == 1 { "" } else { "s" }
                        ));
                    }
                }
                if cage.frozen.any() {
                    message.push_str(&format!(
                        "; the units on {} never moved",
                        squares_text(cage.frozen)
                    ));
                }
                Reason::new(ReasonCode::Cage, message, squares)
            })
            .collect()
    }
}

/// Verifies `cage` with the default options, using the proven cages of `store` (and what
/// earlier verifications through `store` learnt).
#[must_use]
pub fn verify(cage: &Cage, store: &CageStore) -> Verification {
    verify_with(cage, store, &VerifyOptions::default())
}

/// Verifies `cage` (see `search.rs` for the algorithm) with `options`, using what `store` knows.
#[must_use]
pub fn verify_with(cage: &Cage, store: &CageStore, options: &VerifyOptions) -> Verification {
    verify_cancellable(cage, store, options, None)
}

/// [`verify_with`] that stops with [`Failure::Cancelled`] soon after `cancel` is set (it is looked
/// at every [`crate::CANCEL_POLL`] nodes).
#[must_use]
pub fn verify_cancellable(
    cage: &Cage,
    store: &CageStore,
    options: &VerifyOptions,
    cancel: Option<&AtomicBool>,
) -> Verification {
    verify_deepest(cage, store.known(), options, cancel).0
}
