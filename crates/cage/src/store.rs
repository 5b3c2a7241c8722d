//! The cage store: verified cages only, their file format, and their use by the analysis.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard};

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Role};

use super::format::{Cage, CageError};
use super::search::{
    covers, verify_cancellable, Generator, Node, State, Verification, VerifyOptions,
};
use retrace_legal::{
    text::{color_name, squares_text},
    Analysis, Reason, ReasonCode,
};

/// Nodes of successful searches kept for later verifications.
const PROVEN_LIMIT: usize = 200_000;

/// Learnt nodes kept (nodes of successful searches, matched by containment).
const LEARNT_LIMIT: usize = 100_000;

/// Verification results kept (a cage line and options each).
const RESULT_LIMIT: usize = 10_000;

/// Claims proven in this process, kept so that no store verifies a cage twice.
const PROVEN_CLAIMS_LIMIT: usize = 10_000;

/// The cage lines proven in this process by any store (a proof holds whatever store made it:
/// other cages and learnt nodes only ever help a proof, never make one).
static PROVEN_CLAIMS: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Whether `line` was proven earlier in this process.
fn proven_before(line: &str) -> bool {
    let claims = PROVEN_CLAIMS.lock().unwrap_or_else(|e| e.into_inner());
    claims.as_ref().is_some_and(|set| set.contains(line))
}

/// Remembers that `line` is proven.
fn remember_claim(line: String) {
    let mut claims = PROVEN_CLAIMS.lock().unwrap_or_else(|e| e.into_inner());
    let set = claims.get_or_insert_with(HashSet::new);
    if set.len() < PROVEN_CLAIMS_LIMIT {
        set.insert(line);
    }
}

/// What verifications through a store learnt: results, and nodes proven to have no realization.
#[derive(Default)]
struct Cache {
    /// Result, and the store's cage count and [`Cache::known`] when it was computed: a negative
    /// result is reused only while neither has grown.
    results: std::collections::HashMap<(String, VerifyOptions), (Verification, usize, usize)>,
    proven: HashMap<Node, Vec<ByColor<u8>>>,
    proven_count: usize,
    /// Nodes of successful verifications (their roots, reduced nodes, pen cores, and the nodes
    /// their searches expanded): each has no realization, so neither has any node or position
    /// that contains it (see [`learnt_covers`]).
    learnt: Learnt,
}

impl Cache {
    /// How much the cache knows: grows with every node it keeps, so that a failure is reused
    /// only while nothing was learnt since (a failing verification learns too, from the reduced
    /// nodes and pen cores it proved).
    fn known(&self) -> usize {
        self.proven_count + self.learnt.entries.len()
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
    l.node.board.occupied().is_subset(board.occupied())
        && Color::ALL
            .into_iter()
            .all(|c| l.node.board.by_color(c).is_subset(board.by_color(c)))
        && Role::ALL
            .into_iter()
            .all(|r| l.node.board.by_role(r).is_subset(board.by_role(r)))
        && l.node.frozen.is_subset(frozen)
        && (l.node.pending.is_none() || l.node.pending == pending)
        && covers(&l.rem, rem)
}

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

/// Verified cages, exported and imported as a cage file; the analysis uses them through
/// [`analyze_with_cages`] or [`CageStore::reasons`].
///
/// Every cage in a store has been verified by this store: [`CageStore::insert`] and
/// [`CageStore::load`] verify each claim and refuse the ones not proven. The store also caches
/// verification results and the nodes of successful searches, which later verifications close
/// branches on; both are only ever filled by successful proofs (or, for results, by failures that
/// are reused only while the store is unchanged).
pub struct CageStore {
    cages: Vec<Cage>,
    cache: Mutex<Cache>,
}

impl Default for CageStore {
    fn default() -> Self {
        CageStore::new()
    }
}

impl Clone for CageStore {
    /// The cages; the clone starts with an empty cache.
    fn clone(&self) -> Self {
        CageStore {
            cages: self.cages.clone(),
            cache: Mutex::default(),
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

/// Whether the units of `cage` stand on `board` (same squares, colours and roles) and its frozen
/// units are among `frozen`.
fn units_contained(cage: &Cage, board: &Board, frozen: Bitboard) -> bool {
    Color::ALL
        .into_iter()
        .all(|c| cage.board.by_color(c).is_subset(board.by_color(c)))
        && Role::ALL
            .into_iter()
            .all(|r| cage.board.by_role(r).is_subset(board.by_role(r)))
        && cage.frozen.is_subset(frozen)
}

impl CageStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> CageStore {
        CageStore {
            cages: Vec::new(),
            cache: Mutex::default(),
        }
    }

    fn cache(&self) -> MutexGuard<'_, Cache> {
        // A panic elsewhere cannot leave the cache inconsistent: every update is a single insert.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The verified cages, in the order they were added.
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

    /// Verifies `cage` with the cages already stored and keeps it if it is proven (a cage already
    /// in the store is not added twice). Refuses a malformed or unproven claim. A claim proven
    /// earlier in this process (by any store) is not verified again: its verification says 0 nodes.
    pub fn insert(&mut self, cage: Cage) -> Result<Verification, CageError> {
        self.insert_with(cage, &VerifyOptions::default())
    }

    /// [`CageStore::insert`] with the verification's options (its node budget).
    pub fn insert_with(
        &mut self,
        cage: Cage,
        options: &VerifyOptions,
    ) -> Result<Verification, CageError> {
        self.insert_cancellable(cage, options, None)
    }

    /// [`CageStore::insert_with`] that gives up with [`super::Failure::Cancelled`] soon after
    /// `cancel` is set.
    pub fn insert_cancellable(
        &mut self,
        cage: Cage,
        options: &VerifyOptions,
        cancel: Option<&AtomicBool>,
    ) -> Result<Verification, CageError> {
        cage.validate()?;
        let line = cage.to_string();
        let v = if proven_before(&line) {
            Verification::proven(0)
        } else {
            verify_cancellable(&cage, self, options, cancel)
        };
        match &v.outcome {
            Ok(()) => remember_claim(line),
            Err(escape) => {
                return Err(CageError::NotVerified {
                    failure: escape.failure.clone(),
                    escape: escape.line.clone(),
                })
            }
        }
        if !self.cages.contains(&cage) {
            self.cages.push(cage);
        }
        Ok(v)
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
    /// [`super::Failure::NodeLimit`]), and a set cancel flag refuses the rest with
    /// [`super::Failure::Cancelled`]. Every refused line is reported, not only the first.
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
                        super::Failure::Cancelled
                    } else {
                        super::Failure::NodeLimit(budget.total)
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
                match store.insert_cancellable(cage.clone(), &options, budget.cancel) {
                    Ok(v) => spent += v.nodes,
                    Err(e) => {
                        if let CageError::NotVerified {
                            failure: super::Failure::NodeLimit(n),
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
                units_contained(cage, board, pos.frozen())
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

    /// Whether a stored cage or an earlier proof closes the search node `state`.
    pub(crate) fn proves(&self, state: &State, use_proven: bool) -> bool {
        let node = &state.node;
        let caged = self.cages.iter().any(|cage| {
            units_contained(cage, &node.board, node.frozen)
                && Color::ALL.into_iter().all(|c| match *cage.captures.get(c) {
                    None => true,
                    Some(bound) => *state.rem.get(c) <= bound,
                })
        });
        if caged || !use_proven {
            return caged;
        }
        let cache = self.cache();
        cache
            .proven
            .get(node)
            .is_some_and(|seen| seen.iter().any(|r| covers(r, &state.rem)))
    }

    /// Whether a learnt node (see [`CageStore::learn`]) is contained in the node `state`. Cheap
    /// enough to ask at every node of a search: only the entries keyed by a unit of `state` are
    /// looked at (see [`Learnt`]).
    pub(crate) fn proves_by_containment(&self, state: &State) -> bool {
        self.cache().learnt.contained_in(state)
    }

    /// A [`ReasonCode::Cage`] reason if `pos` contains a learnt node: a node that an earlier
    /// verification through this store proved to have no realization (every node of a successful
    /// verification, and every proven reduced node or pen core).
    ///
    /// Sound for the same reason as a cage of the store: a game reaching `pos` realizes the claim
    /// of all of `pos`'s units (every unit on its square, the frozen marks `pos` holds on home
    /// squares, each side's captures bounded by the units the opponent is missing, and a unit
    /// giving an unblockable check as the pending one: it made the last move, as in the claims
    /// of [`super::find_cage`]), and so it would realize the learnt node that claim contains.
    /// Cheap: only the entries keyed by the units of `pos` are looked at.
    #[must_use]
    pub fn learnt_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        let cage = super::auto::claim(pos, pos.board().occupied())?;
        // A claim illegal outright is left to the analysis, which words it better.
        let root = Generator::new(cage.zone, false, true).root(&cage)?;
        let cache = self.cache();
        let entry = cache.learnt.covering(&root)?;
        let squares = entry.node.board.occupied();
        let mut message = format!(
            "the units on {} cannot have got there: an earlier proof in this session showed that \
             every line of retractions from them dies or repeats, whatever else stands on the board",
            squares_text(squares)
        );
        if entry.node.frozen.any() {
            message.push_str(&format!(
                " (with the units on {} never having moved)",
                squares_text(entry.node.frozen)
            ));
        }
        Some(Reason::new(ReasonCode::Cage, message, squares))
    }

    /// Keeps a node with no realization (the root of a successful verification, a proven reduced
    /// node or pen core) for matching by containment in later searches and at the roots of later
    /// verifications (the claims of the automatic cage attempt in a search among them).
    pub(crate) fn learn(&self, root: &State) {
        self.cache().learnt.insert(root);
    }

    /// [`CageStore::learn`] for every node of a successful search.
    pub(crate) fn learn_all(&self, nodes: &HashMap<Node, Vec<ByColor<u8>>>) {
        let mut cache = self.cache();
        for (node, rems) in nodes {
            for &rem in rems {
                cache.learnt.insert(&State {
                    node: node.clone(),
                    rem,
                });
            }
        }
    }

    /// Keeps the nodes of a successful search (each has no realization).
    pub(crate) fn remember_proven(&self, nodes: HashMap<Node, Vec<ByColor<u8>>>) {
        let mut cache = self.cache();
        for (node, rems) in nodes {
            if cache.proven_count >= PROVEN_LIMIT {
                break;
            }
            cache.proven_count += rems.len();
            cache.proven.entry(node).or_default().extend(rems);
        }
    }

    pub(crate) fn cached_result(&self, key: &(String, VerifyOptions)) -> Option<Verification> {
        let cache = self.cache();
        let (v, cages, known) = cache.results.get(key)?;
        (v.verified() || (*cages == self.cages.len() && *known == cache.known())).then(|| v.clone())
    }

    pub(crate) fn cache_result(&self, key: (String, VerifyOptions), v: &Verification) {
        let mut cache = self.cache();
        if cache.results.len() >= RESULT_LIMIT {
            cache.results.clear();
        }
        let known = cache.known();
        cache
            .results
            .insert(key, (v.clone(), self.cages.len(), known));
    }
}

/// [`retrace_legal::analyze`] plus one [`ReasonCode::Cage`] reason for every cage of `store` that `pos`
/// contains (see [`CageStore::contained`]).
#[must_use]
pub fn analyze_with_cages(pos: &RetroPosition, store: &CageStore) -> Analysis {
    let mut analysis = retrace_legal::analyze(pos);
    analysis.reasons.extend(store.reasons(pos));
    analysis
}

/// Whether [`analyze_with_cages`] finds `pos` illegal: [`retrace_legal::is_illegal`], or a cage
/// of `store` that `pos` contains.
#[must_use]
pub fn is_illegal_with_cages(pos: &RetroPosition, store: &CageStore) -> bool {
    retrace_legal::is_illegal(pos) || (!store.is_empty() && !store.reasons(pos).is_empty())
}
