//! The verification of a cage claim: a search of retractions "legal in some extension", over the
//! nodes and retractions of `generator.rs` (whose module documentation says what a node means
//! and which retractions are kept).
//!
//! # Why the search is a proof
//! Take a realization `H` of an expanded node of minimal length. Walking `H` backwards, moves of
//! untracked units leave the tracked units alone (a move empties its start square, so it never
//! starts on a tracked square, and it never captures a tracked unit, which is still there). The
//! first move of a tracked unit is one of the retractions generated below (the generator only drops
//! retractions that are impossible in *every* extension), and the prefix before it realizes the
//! child; if no tracked unit ever moved, the initial array realizes the node, which the search
//! refuses to close (all units on home squares is a failure). A child is then closed by one of:
//! - a rule that no realization can meet (counting, pawn structure against the allowance, kings in
//!   contact, impossible checks): contradiction;
//! - an expanded node with the same units, frozen set and pending unit, and an allowance at least as
//!   large (a repetition, on the branch or anywhere else in this search): its realization would be
//!   shorter than the minimal one;
//! - a verified cage of the store, or a node of an earlier successful search: no realization at all;
//! - a node the store learnt (the root or any expanded node of an earlier successful search, a
//!   proven reduced node or pen core) that the child *contains*: its units stand on the child's
//!   squares, its frozen units are frozen in the child, its pending unit (if any) is the child's,
//!   and its allowances are at least the child's. Every realization of the child then realizes
//!   the learnt node, which has none.
//!
//! So no expanded node, and in particular the root, has a realization. Verification fails as soon
//! as a node empties, has every unit on its home square, needs expanding at the depth limit, or the
//! node budget runs out.
//!
//! The graph is explored best first (fewest estimated steps to an escape, see
//! [`Generator::distance`]), which finds escapes fast; the order does not matter to the proof, as
//! every queued node is expanded before success is declared. A node that would need expanding at
//! the depth limit is set aside and fails the verification only if nothing expanded later closes it;
//! if one does fail, a breadth-first search, which reaches every node at its least depth, has the
//! last word. After a success every expanded node is known to have no realization, so the store
//! keeps them (a cache) and later verifications close branches on them, and on every node that
//!
//! A proof comes out as a [`Proven`] token, which only this module makes: a
//! [`crate::CageStore`] keeps a cage only against its token, so a store holds proven cages only.
//! The search reads the store's cages and reads and writes its memo through a [`Known`] view,
//! and never the store itself.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use shakmaty::{attacks, Bitboard, Board, ByColor, Color, Role, Square};

use super::failure::{Escape, Failure};
use super::format::Cage;
use super::generator::{all_home, covers, Generator, Kind, Node, PawnCosts, State, Step};
use super::memo::Memo;
use super::options::VerifyOptions;

/// The result of a verification ([`crate::verify`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Nodes expanded.
    pub nodes: u64,
    /// `Ok` when the cage is proven, else why not.
    pub outcome: Result<(), Escape>,
    /// The proof, exactly when `outcome` is `Ok`.
    proof: Option<Proven>,
}

/// A cage the verifier proved: no game has a position containing it. Only the verifier makes
/// one (its field is private to this module), and [`crate::CageStore::insert`] takes one, so a
/// store holds proven cages only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    cage: Cage,
}

impl Proven {
    /// The cage proven.
    #[must_use]
    pub fn cage(&self) -> &Cage {
        &self.cage
    }

    /// The cage proven, as a claim again.
    #[must_use]
    pub fn into_cage(self) -> Cage {
        self.cage
    }
}

impl Verification {
    /// The verification of `cage` that expanded `nodes` nodes and ended with `outcome`: a proof
    /// when it is `Ok`.
    fn of(cage: &Cage, (nodes, outcome): (u64, Result<(), Escape>)) -> Verification {
        let proof = outcome.is_ok().then(|| Proven { cage: cage.clone() });
        Verification {
            nodes,
            outcome,
            proof,
        }
    }

    /// The proof, to keep in a store ([`crate::CageStore::insert`]); `None` when not proven.
    #[must_use]
    pub fn proof(&self) -> Option<&Proven> {
        self.proof.as_ref()
    }

    /// Whether the cage is proven.
    #[must_use]
    pub fn verified(&self) -> bool {
        self.outcome.is_ok()
    }

    /// Why it was not proven (`None` when it was).
    #[must_use]
    pub fn failure(&self) -> Option<&Failure> {
        self.outcome.as_ref().err().map(|e| &e.failure)
    }

    /// The line that reached the failure (empty when proven).
    #[must_use]
    pub fn escape(&self) -> &[String] {
        self.outcome.as_ref().err().map_or(&[], |e| &e.line)
    }
}

/// What a verification may close nodes on, handed to it explicitly by the owner of both: proven
/// cages, and the memo of what earlier verifications through the same owner learnt (which the
/// verification adds to).
#[derive(Clone, Copy)]
pub(crate) struct Known<'a> {
    /// Proven cages.
    pub(crate) cages: &'a [Cage],
    /// What earlier verifications learnt.
    pub(crate) memo: &'a Memo,
}

impl Known<'_> {
    /// Whether a cage closes the search node `state`, or (with `use_proven`) a node an earlier
    /// successful search expanded.
    pub(crate) fn proves(&self, state: &State, use_proven: bool) -> bool {
        let node = &state.node;
        let caged = self.cages.iter().any(|cage| {
            cage.units_within(&node.board, node.frozen)
                && Color::ALL.into_iter().all(|c| match *cage.captures.get(c) {
                    None => true,
                    Some(bound) => *state.rem.get(c) <= bound,
                })
        });
        if caged || !use_proven {
            return caged;
        }
        self.memo.proves(state)
    }

    /// Whether a learnt node is contained in the node `state` (see [`Memo::proves_by_containment`]).
    pub(crate) fn proves_by_containment(&self, state: &State) -> bool {
        self.memo.proves_by_containment(state)
    }
}

/// Verifies `cage` (see the module documentation for the algorithm) with what `known` holds,
/// stopping with [`Failure::Cancelled`] soon after `cancel` is set (it is looked at every
/// [`CANCEL_POLL`] nodes); with the most retractions on a line the search expanded (`None` when
/// the result came from the memo): a proof shows that every line of retractions from
/// the claim dies, repeats a node or meets a known cage within that many.
pub(crate) fn verify_deepest(
    cage: &Cage,
    known: Known<'_>,
    options: &VerifyOptions,
    cancel: Option<&AtomicBool>,
) -> (Verification, Option<u32>) {
    if let Err(e) = cage.validate() {
        let escape = Escape {
            failure: Failure::Invalid(e.to_string()),
            line: Vec::new(),
        };
        return (Verification::of(cage, (0, Err(escape))), Some(0));
    }
    let key = (cage.to_string(), *options);
    if let Some(outcome) = known.memo.cached_result(&key, known.cages.len()) {
        return (Verification::of(cage, outcome), None);
    }
    let mut search = Search::new(cage, known, options);
    search.cancel = cancel;
    let root = search.gen.root(cage);
    let result = match root.clone() {
        None => Ok(()),
        Some(root) => match search.explore(root.clone(), false) {
            Err(Failure::DepthLimit(_)) => {
                // The guided search may reach a node first along a needlessly long line; a
                // breadth-first search reaches every node at its least depth.
                let nodes = search.nodes;
                search.reset();
                search.nodes = nodes;
                search.explore(root, true)
            }
            other => other,
        },
    };
    let outcome = match result {
        Ok(()) => {
            if !options.hwa_only {
                if let Some(root) = &root {
                    known.memo.learn(root);
                }
                known.memo.learn_all(&search.tt);
                known.memo.remember_proven(std::mem::take(&mut search.tt));
            }
            (search.nodes, Ok(()))
        }
        Err(failure) => {
            let line = search.path.iter().map(ToString::to_string).collect();
            (search.nodes, Err(Escape { failure, line }))
        }
    };
    if outcome.1.as_ref().err().map(|e| &e.failure) != Some(&Failure::Cancelled) {
        known
            .memo
            .cache_result(key, outcome.clone(), known.cages.len());
    }
    (Verification::of(cage, outcome), Some(search.deepest))
}

/// The search of [`verify_deepest`] without reductions or pen cores, within `options`: it
/// closes nodes by its rules, its own expanded nodes and what `known` holds alone, which shows
/// what the memo's learning does, and finds the lines out of a claim that is no cage far more
/// cheaply than the full search (see [`crate::CageFinder`]). Its result is its own: a line it
/// finds out may pass through a node the full search would close by a reduction or a pen core.
pub(crate) fn verify_flat(
    cage: &Cage,
    known: Known<'_>,
    options: &VerifyOptions,
    costs: &mut PawnCosts,
    cancel: Option<&AtomicBool>,
) -> (u64, Result<(), Failure>) {
    let mut search = Search::new(cage, known, options);
    search.cancel = cancel;
    search.nesting = MAX_NESTING;
    search.gen.swap_pawn_costs(costs);
    let result = match search.gen.root(cage) {
        None => Ok(()),
        Some(root) => search.explore(root, false),
    };
    search.gen.swap_pawn_costs(costs);
    (search.nodes, result)
}

/// The steps from the root to node `i` of a search graph given as (parent, step, depth).
fn line(info: &[(usize, Option<Step>, u32)], mut i: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    while let Some(&(parent, step, _)) = info.get(i) {
        steps.extend(step);
        i = parent;
    }
    steps.reverse();
    steps
}

/// How deep reductions nest (see [`Search::reduction`]): a reduced node's own search may reduce
/// once more.
const MAX_NESTING: u8 = 2;

/// The most nodes the search of one pen core may take (see [`Search::pen_core`]): a king
/// shut in by pawns closes in a few dozen nodes, and a core is tried at every node whose king or
/// pawns moved, so a failing one must stay cheap.
const PEN_CORE_BUDGET: u64 = 256;

/// The least budget worth giving the search of a reduced node.
const MIN_REDUCED_BUDGET: u64 = 32;

/// What one node the search has queued takes, in bytes: four times the size of its parts (its
/// state waiting, its entries in the line graph and the heap, its key and allowances in the
/// table of expanded nodes), for what comes on top: the hash table's slack, the allowances'
/// own allocation, the slots of states already expanded. Measured on a 14-unit claim that runs
/// for seconds: counted at one times its parts, budgets of 32 and 128 MiB peaked at 100 and
/// 491 MB; at four times, budgets of 32, 128 and 512 MiB peak at 29, 100 and 491 MB.
const QUEUED_NODE_BYTES: u64 = 4
    * (std::mem::size_of::<Option<State>>()
        + std::mem::size_of::<(usize, Option<Step>, u32)>()
        + std::mem::size_of::<Reverse<(u32, u32, usize)>>()
        + std::mem::size_of::<(Node, Vec<ByColor<u8>>)>()
        + std::mem::size_of::<ByColor<u8>>()) as u64;

/// How often (in nodes) a verification looks at its cancel flag.
pub const CANCEL_POLL: u64 = 1 << 10;

/// One verification in progress.
pub(crate) struct Search<'s> {
    /// Set from outside to stop the verification.
    cancel: Option<&'s AtomicBool>,
    pub(crate) gen: Generator,
    known: Known<'s>,
    depth: u32,
    max_nodes: u64,
    /// The memory budget of the tables (see [`VerifyOptions::max_bytes`]).
    max_bytes: u64,
    pub(crate) nodes: u64,
    /// Expanded (or queued) nodes with the allowances they were expanded with.
    pub(crate) tt: HashMap<Node, Vec<ByColor<u8>>>,
    /// On failure, the line to the failing node.
    pub(crate) path: Vec<Step>,
    /// How many reductions this search is nested in (0: the claim's own search).
    nesting: u8,
    /// Reduced nodes whose own search failed: not tried again.
    unproven: HashSet<Node>,
    /// The most retractions on a line to a node this search queued (see [`verify_deepest`]).
    pub(crate) deepest: u32,
}

impl<'s> Search<'s> {
    pub(crate) fn new(cage: &Cage, known: Known<'s>, options: &VerifyOptions) -> Search<'s> {
        Search {
            gen: Generator::new(
                cage.zone | cage.board.occupied(),
                options.hwa_only,
                options.capture_charges,
            ),
            known,
            depth: cage.depth,
            max_nodes: options.max_nodes,
            max_bytes: options.max_bytes,
            cancel: None,
            nodes: 0,
            tt: HashMap::default(),
            path: Vec::new(),
            nesting: 0,
            unproven: HashSet::default(),
            deepest: 0,
        }
    }

    /// In debug builds, searches a reduced node proven with what the store had learnt again from
    /// scratch (no store, no reductions) and panics if that finds a line that escapes: the learning
    /// would be unsound. Running out of nodes proves nothing either way.
    fn debug_assert_no_escape(&self, reduced: &State) {
        if cfg!(debug_assertions) {
            let memo = Memo::default();
            let mut fresh = Search {
                cancel: None,
                gen: Generator::new(self.gen.zone, false, self.gen.charges),
                known: Known {
                    cages: &[],
                    memo: &memo,
                },
                depth: self.depth,
                max_nodes: 20_000,
                max_bytes: self.max_bytes,
                nodes: 0,
                tt: HashMap::default(),
                path: Vec::new(),
                nesting: MAX_NESTING,
                unproven: HashSet::default(),
                deepest: 0,
            };
            let result = fresh.explore(reduced.clone(), false);
            assert!(
                !matches!(result, Err(Failure::BoardEmpty | Failure::AllHome)),
                "a reduced node proven with learnt facts escapes from scratch: {:?}",
                reduced.node
            );
        }
    }

    /// The node `state` without every unit that one of its `children` retracts out of the zone,
    /// when there is such a unit and at least two units stay.
    ///
    /// A proof for the reduced node proves `state`: the reduced node keeps a subset of the units
    /// (with their frozen marks, the pending unit if it stays, and the same allowances), so every
    /// realization of `state` realizes it. Units that can walk away are seldom what holds a cage,
    /// and every combination of where they stand multiplies the nodes of a search, so the
    /// smaller search often closes where the full one would run out of nodes.
    fn reduction(&mut self, state: &State, children: &[(Step, State)]) -> Option<State> {
        if self.nesting >= MAX_NESTING || self.gen.hwa_only {
            return None;
        }
        let leavers: Bitboard = children
            .iter()
            .filter(|(step, _)| step.leaves && !matches!(step.kind, Kind::Castle(_)))
            .map(|(step, _)| step.to)
            .collect();
        if leavers.is_empty() {
            return None;
        }
        let mut board = state.node.board.clone();
        for sq in leavers {
            board.discard_piece_at(sq);
        }
        if board.occupied().count() < 2 {
            return None;
        }
        Some(State {
            node: Node {
                board,
                frozen: state.node.frozen & !leavers,
                pending: state.node.pending.filter(|p| !leavers.contains(*p)),
            },
            rem: state.rem,
        })
    }

    /// The pen core of `state` for its unit on `unit`: the node with only that unit, the pawns
    /// and the frozen units, when that drops at least one unit.
    ///
    /// A proof for a core proves `state`, exactly as for [`Search::reduction`]: the core keeps a
    /// subset of the units on their squares (frozen marks and the pending unit where they stay,
    /// the same allowances), so every realization of `state` realizes it. Pawns and units that
    /// never moved are the walls of a pen, and a king (or a rook, a bishop) shut in by them is
    /// the commonest cage of all; the other pieces that wander inside the pen multiply the nodes
    /// of a search without helping the prisoner out. A whole search of a crowded pen can run out
    /// of nodes (or depth) where the core closes in a few dozen.
    fn pen_core(&self, state: &State, unit: Square) -> Option<State> {
        let board = &state.node.board;
        let keep =
            (board.pawns() | state.node.frozen | Bitboard::from_square(unit)) & board.occupied();
        if keep == board.occupied() || keep.count() < 2 {
            return None;
        }
        let mut core = Board::empty();
        for sq in keep {
            core.set_piece_at(sq, board.piece_at(sq)?);
        }
        Some(State {
            node: Node {
                board: core,
                frozen: state.node.frozen & keep,
                pending: state.node.pending.filter(|p| keep.contains(*p)),
            },
            rem: state.rem,
        })
    }

    /// Whether the reduced node (see [`Search::reduction`]) is proven to have no realization, by
    /// what is known or by a search of its own within a quarter of the nodes left.
    fn prove_reduced(&mut self, reduced: State) -> bool {
        let budget = self.max_nodes.saturating_sub(self.nodes) / 4;
        self.prove_core(reduced, budget)
    }

    /// Whether the reduced node `reduced` is proven to have no realization, by what is known or
    /// by a search of its own within `budget` nodes. Failures are remembered, so a core is
    /// searched once per verification.
    fn prove_core(&mut self, mut reduced: State, budget: u64) -> bool {
        // A reduced node that breaks a node rule has no realization, and so neither has the node.
        if !self.gen.finish(&mut reduced) || self.closed(&reduced) {
            return true;
        }
        if self.unproven.contains(&reduced.node) {
            return false;
        }
        if budget < MIN_REDUCED_BUDGET || Self::escaped(&reduced).is_some() {
            self.unproven.insert(reduced.node);
            return false;
        }
        let mut sub = Search {
            cancel: self.cancel,
            gen: Generator::new(self.gen.zone, false, self.gen.charges),
            known: self.known,
            depth: self.depth,
            max_nodes: budget,
            max_bytes: self.max_bytes,
            nodes: 0,
            tt: HashMap::default(),
            path: Vec::new(),
            nesting: self.nesting + 1,
            unproven: HashSet::default(),
            deepest: 0,
        };
        let proven = sub.explore(reduced.clone(), false).is_ok();
        self.nodes += sub.nodes;
        if proven {
            self.debug_assert_no_escape(&reduced);
            self.known.memo.learn(&reduced);
            self.known.memo.learn_all(&sub.tt);
            // Every node the successful search expanded has no realization: it closes branches
            // here as an expanded node would.
            for (node, rems) in sub.tt {
                self.tt.entry(node).or_default().extend(rems);
            }
        } else {
            self.unproven.insert(reduced.node);
        }
        proven
    }

    /// Whether one of the pen cores of `state` (see [`Search::pen_core`]) is proven, kings'
    /// first, each searched within [`PEN_CORE_BUDGET`] nodes (or what is left, if less).
    fn prove_a_pen_core(&mut self, state: &State) -> bool {
        if self.nesting >= MAX_NESTING || self.gen.hwa_only {
            return false;
        }
        let board = &state.node.board;
        let pieces = board.occupied() & !board.pawns() & !state.node.frozen;
        let kings = pieces & board.kings();
        let walls = board.pawns() | state.node.frozen;
        let zone = self.gen.zone;
        // Only a unit the walls shut in is worth a core: one that can walk out of the zone past
        // them would escape the core's search too. A heuristic choice, never a proof.
        let shut_in = |unit: Square| {
            let Some(piece) = board.piece_at(unit) else {
                return false;
            };
            let mut open = !walls;
            if piece.role == Role::King {
                let enemy_pawns = board.pawns() & board.by_color(piece.color.other());
                open &= !enemy_pawns.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
                    acc | attacks::pawn_attacks(piece.color.other(), sq)
                });
            }
            retrace_legal::geometry::bounded_flood(
                piece.role,
                Bitboard::from_square(unit),
                open,
                63,
            )
            .is_some_and(|reach| reach.is_subset(zone))
        };
        (kings.into_iter().chain(pieces & !kings))
            .filter(|&unit| shut_in(unit))
            .any(|unit| {
                self.pen_core(state, unit).is_some_and(|core| {
                    let budget = PEN_CORE_BUDGET.min(self.max_nodes.saturating_sub(self.nodes) / 4);
                    self.prove_core(core, budget)
                })
            })
    }

    fn reset(&mut self) {
        self.tt.clear();
        self.path.clear();
        self.nodes = 0;
        self.deepest = 0;
    }

    /// Whether `state` is closed by an expanded node, a stored cage, an earlier proof, or (by
    /// containment) a node learnt from one.
    fn closed(&self, state: &State) -> bool {
        if let Some(seen) = self.tt.get(&state.node) {
            if seen.iter().any(|r| covers(r, &state.rem)) {
                return true;
            }
        }
        if self.gen.hwa_only {
            return self.known.proves(state, false);
        }
        self.known.proves(state, true) || self.known.proves_by_containment(state)
    }

    fn mark(&mut self, state: &State) {
        self.tt
            .entry(state.node.clone())
            .or_default()
            .push(state.rem);
    }

    /// Failures that end the search at once, before any closure.
    fn escaped(state: &State) -> Option<Failure> {
        if state.node.board.occupied().is_empty() {
            Some(Failure::BoardEmpty)
        } else if all_home(&state.node.board) {
            Some(Failure::AllHome)
        } else {
            None
        }
    }

    // Long by design: one best-first loop whose queue, parent links and deferred nodes are
    // shared by every step (root checks, budget and cancel, the node's own closures, each
    // child); split, each step would take the whole loop state as arguments.
    /// Explores the search graph from `root`, best nodes first: by `priority` (breadth first:
    /// depth; otherwise the estimated distance to an escape, then depth). A node that would need
    /// expanding at the depth limit is put aside and fails the search only if nothing expanded
    /// later closes it.
    fn explore(&mut self, root: State, breadth_first: bool) -> Result<(), Failure> {
        // Per node: parent, step from it, depth. States are dropped once expanded.
        let mut info: Vec<(usize, Option<Step>, u32)> = vec![(usize::MAX, None, 0)];
        let mut states = vec![Some(root)];
        let mut heap = BinaryHeap::new();
        let mut deferred: Vec<(State, usize, Step)> = Vec::new();
        if let Some(Some(root)) = states.first() {
            if let Some(f) = Self::escaped(root) {
                return Err(f);
            }
            if self.closed(root) {
                return Ok(());
            }
            if self.depth == 0 {
                return Err(Failure::DepthLimit(self.depth));
            }
            let root = root.clone();
            self.mark(&root);
            heap.push(Reverse((0u32, 0u32, 0usize)));
        }
        let mut children = Vec::new();
        while let Some(Reverse((_, _, i))) = heap.pop() {
            let depth = info[i].2;
            let Some(state) = states[i].take() else {
                continue;
            };
            if self.nodes.is_multiple_of(CANCEL_POLL)
                && self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.path = line(&info, i);
                return Err(Failure::Cancelled);
            }
            if self.nodes >= self.max_nodes {
                self.path = line(&info, i);
                return Err(Failure::NodeLimit(self.max_nodes));
            }
            self.nodes += 1;
            self.gen.children(&state, &mut children);
            // The cheap proofs first: a pen core's search is capped at a few hundred nodes, a
            // reduced node's may take a quarter of what is left.
            if self.prove_a_pen_core(&state) {
                children.clear();
                continue;
            }
            if let Some(reduced) = self.reduction(&state, &children) {
                if self.prove_reduced(reduced) {
                    children.clear();
                    continue;
                }
            }
            for (step, child) in children.drain(..) {
                if let Some(f) = Self::escaped(&child) {
                    self.path = line(&info, i);
                    self.path.push(step);
                    return Err(f);
                }
                if self.closed(&child) {
                    continue;
                }
                if depth + 1 >= self.depth {
                    deferred.push((child, i, step));
                    continue;
                }
                if info.len() as u64 >= self.max_nodes.saturating_mul(4) {
                    self.path = line(&info, i);
                    self.path.push(step);
                    return Err(Failure::NodeLimit(self.max_nodes));
                }
                if info.len() as u64 >= self.max_bytes / QUEUED_NODE_BYTES {
                    self.path = line(&info, i);
                    self.path.push(step);
                    return Err(Failure::MemoryLimit(self.max_bytes));
                }
                self.mark(&child);
                self.deepest = self.deepest.max(depth + 1);
                let key = if breadth_first {
                    (depth + 1, 0)
                } else {
                    (self.gen.distance(&child.node.board), depth + 1)
                };
                info.push((i, Some(step), depth + 1));
                states.push(Some(child));
                heap.push(Reverse((key.0, key.1, info.len() - 1)));
            }
        }
        for (state, parent, step) in deferred {
            if !self.closed(&state) {
                self.path = line(&info, parent);
                self.path.push(step);
                return Err(Failure::DepthLimit(self.depth));
            }
        }
        Ok(())
    }
}
