//! What verifications learnt, kept for later ones: their results, the nodes of successful
//! searches (each has no realization), and those nodes indexed for matching by containment.
//!
//! A [`Memo`] has one owner, passed to every verification explicitly: the [`crate::CageStore`]
//! whose cages the verifications closed nodes on (a clone of a store starts with an empty memo).
//! Nothing here is shared between owners, so a verification's node count depends only on its
//! claim, its options and what went before through the same owner.

use std::sync::{Mutex, MutexGuard};

use rustc_hash::FxHashMap as HashMap;
use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Role};

use super::failure::Escape;
use super::generator::{covers, Node, State};
use super::options::VerifyOptions;

/// Nodes of successful searches kept for later verifications.
const PROVEN_LIMIT: usize = 200_000;

/// Learnt nodes kept (nodes of successful searches, matched by containment).
const LEARNT_LIMIT: usize = 100_000;

/// Verification results kept (a cage line and options each).
const RESULT_LIMIT: usize = 10_000;

/// A verification's result as the memo keeps it: the nodes it expanded and its outcome.
pub(crate) type Outcome = (u64, Result<(), Escape>);

/// What verifications through one owner learnt (see the module documentation). Every update is a
/// single insert under the lock, so a panic elsewhere cannot leave it inconsistent.
#[derive(Default)]
pub(crate) struct Memo {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Result, and the owner's cage count and [`Inner::known`] when it was computed: a negative
    /// result is reused only while neither has grown.
    results: std::collections::HashMap<(String, VerifyOptions), (Outcome, usize, usize)>,
    proven: HashMap<Node, Vec<ByColor<u8>>>,
    proven_count: usize,
    /// Nodes of successful verifications (their roots, reduced nodes, pen cores, and the nodes
    /// their searches expanded): each has no realization, so neither has any node or position
    /// that contains it (see [`learnt_covers`]).
    learnt: Learnt,
}

impl Inner {
    /// How much the memo knows: grows with every node it keeps, so that a failure is reused
    /// only while nothing was learnt since (a failing verification learns too, from the reduced
    /// nodes and pen cores it proved).
    fn known(&self) -> usize {
        self.proven_count + self.learnt.entries.len()
    }
}

impl Memo {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether an earlier successful search expanded `state`'s node with allowances at least
    /// `state`'s.
    pub(crate) fn proves(&self, state: &State) -> bool {
        self.lock()
            .proven
            .get(&state.node)
            .is_some_and(|seen| seen.iter().any(|r| covers(r, &state.rem)))
    }

    /// Whether a learnt node (see [`Memo::learn`]) is contained in the node `state`. Cheap
    /// enough to ask at every node of a search: only the entries keyed by a unit of `state` are
    /// looked at (see [`Learnt`]).
    pub(crate) fn proves_by_containment(&self, state: &State) -> bool {
        self.lock().learnt.contained_in(state)
    }

    /// The units and frozen units of a learnt node contained in `state`, if any.
    pub(crate) fn covering(&self, state: &State) -> Option<(Bitboard, Bitboard)> {
        let inner = self.lock();
        let entry = inner.learnt.covering(state)?;
        Some((entry.node.board.occupied(), entry.node.frozen))
    }

    /// Whether some learnt node's units all stand on `board` (same squares, colours and roles): a
    /// node with those units can be covered ([`Memo::covering`]) only then. A cheap look before
    /// a node is built to ask.
    pub(crate) fn may_cover(&self, board: &Board) -> bool {
        self.lock().learnt.on_board(board)
    }

    /// Keeps a node with no realization (the root of a successful verification, a proven reduced
    /// node or pen core) for matching by containment in later searches and at the roots of later
    /// verifications (the claims of the automatic cage attempt in a search among them).
    pub(crate) fn learn(&self, root: &State) {
        self.lock().learnt.insert(root);
    }

    /// [`Memo::learn`] for every node of a successful search.
    pub(crate) fn learn_all(&self, nodes: &HashMap<Node, Vec<ByColor<u8>>>) {
        let mut inner = self.lock();
        for (node, rems) in nodes {
            for &rem in rems {
                inner.learnt.insert(&State {
                    node: node.clone(),
                    rem,
                });
            }
        }
    }

    /// Keeps the nodes of a successful search (each has no realization).
    pub(crate) fn remember_proven(&self, nodes: HashMap<Node, Vec<ByColor<u8>>>) {
        let mut inner = self.lock();
        for (node, rems) in nodes {
            if inner.proven_count >= PROVEN_LIMIT {
                break;
            }
            inner.proven_count += rems.len();
            inner.proven.entry(node).or_default().extend(rems);
        }
    }

    /// The result kept for `key` when the owner held `cages` cages: a proof always, a failure
    /// only while neither the cages nor what the memo knows have grown since.
    pub(crate) fn cached_result(
        &self,
        key: &(String, VerifyOptions),
        cages: usize,
    ) -> Option<Outcome> {
        let inner = self.lock();
        let (outcome, then_cages, then_known) = inner.results.get(key)?;
        (outcome.1.is_ok() || (*then_cages == cages && *then_known == inner.known()))
            .then(|| outcome.clone())
    }

    /// Keeps the result of `key`, computed when the owner held `cages` cages.
    pub(crate) fn cache_result(
        &self,
        key: (String, VerifyOptions),
        outcome: Outcome,
        cages: usize,
    ) {
        let mut inner = self.lock();
        if inner.results.len() >= RESULT_LIMIT {
            inner.results.clear();
        }
        let known = inner.known();
        inner.results.insert(key, (outcome, cages, known));
    }
}

/// Nodes with no realization, indexed for matching by containment: each entry is filed under one
/// of its units (its *key*), the one fewest entries held when it was filed, so that a query scans
/// only the entries keyed by a unit it holds. Units every node shares (the walls of a pen, the
/// frozen units) seldom key an entry; the units that move do, and most entries are skipped
/// without a look.
struct Learnt {
    entries: Vec<State>,
    /// Per unit (piece and square): the entries keyed by it.
    keyed: ByRole<ByColor<[Vec<u32>; 64]>>,
    /// Per unit: how many entries hold it.
    held: ByRole<ByColor<[u32; 64]>>,
}

impl Default for Learnt {
    fn default() -> Self {
        Learnt {
            entries: Vec::new(),
            keyed: ByRole::new_with(|_| ByColor::new_with(|_| std::array::from_fn(|_| Vec::new()))),
            held: ByRole::new_with(|_| ByColor::new_with(|_| [0; 64])),
        }
    }
}

impl Learnt {
    /// Whether an entry is contained in `state` (see [`learnt_covers`]).
    fn contained_in(&self, state: &State) -> bool {
        self.covering(state).is_some()
    }

    /// An entry contained in `state`, if any (see [`learnt_covers`]).
    fn covering(&self, state: &State) -> Option<&State> {
        let node = &state.node;
        let board = &node.board;
        board.occupied().into_iter().find_map(|sq| {
            let piece = board.piece_at(sq)?;
            self.keyed[piece][usize::from(sq)]
                .iter()
                .map(|&i| &self.entries[i as usize])
                .find(|entry| learnt_covers(entry, board, node.frozen, node.pending, &state.rem))
        })
    }

    /// Whether an entry's units all stand on `board` (the part of [`learnt_covers`] that needs
    /// no node).
    fn on_board(&self, board: &Board) -> bool {
        board.occupied().into_iter().any(|sq| {
            board.piece_at(sq).is_some_and(|piece| {
                self.keyed[piece][usize::from(sq)]
                    .iter()
                    .any(|&i| units_on(&self.entries[i as usize].node.board, board))
            })
        })
    }

    /// Files `state` (a node with no realization) unless an entry already covers it or the index
    /// is full.
    fn insert(&mut self, state: &State) {
        if self.entries.len() >= LEARNT_LIMIT || self.contained_in(state) {
            return;
        }
        let board = &state.node.board;
        let units = || {
            board
                .occupied()
                .into_iter()
                .filter_map(|sq| board.piece_at(sq).map(|piece| (piece, usize::from(sq))))
        };
        let Some((piece, sq)) = units().min_by_key(|&(piece, sq)| self.held[piece][sq]) else {
            return;
        };
        for (piece, sq) in units() {
            self.held[piece][sq] += 1;
        }
        self.keyed[piece][sq].push(self.entries.len() as u32);
        self.entries.push(state.clone());
    }
}

/// Whether the units of `units` all stand on `board`: same squares, colours and roles.
fn units_on(units: &Board, board: &Board) -> bool {
    units.occupied().is_subset(board.occupied())
        && Color::ALL
            .into_iter()
            .all(|c| units.by_color(c).is_subset(board.by_color(c)))
        && Role::ALL
            .into_iter()
            .all(|r| units.by_role(r).is_subset(board.by_role(r)))
}

/// Whether every realization of a node with units `board`, frozen units `frozen`, pending unit
/// `pending` and allowances `rem` realizes the learnt node `l`, which has none: `l`'s units stand
/// on `board` (same squares, colours and roles), its frozen units are frozen, its pending unit (if
/// any) is the pending one, and `rem` allows no more captures than `l`'s allowances.
fn learnt_covers(
    l: &State,
    board: &Board,
    frozen: Bitboard,
    pending: Option<shakmaty::Square>,
    rem: &ByColor<u8>,
) -> bool {
    units_on(&l.node.board, board)
        && l.node.frozen.is_subset(frozen)
        && (l.node.pending.is_none() || l.node.pending == pending)
        && covers(&l.rem, rem)
}
