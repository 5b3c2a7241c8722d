//! The retraction search itself: depth-first, with transposition tables and cooperative stops.

use retrace_legal::{Reason, ReasonCode};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Bitboard, ByColor, Color};

use crate::{
    bound::Bound,
    budget::Budget,
    facts::{allows_en_passant, is_initial, is_zeroing, LostRights},
    forward::ForwardLayers,
    prove::{prove_counted, Proof},
    table::{verification, KeyMap, NodeKey, Table},
    Phase, Progress, Pruner, Refutation, Solutions, SolveParams,
};

/// Proof games meet a forward search from the initial array that goes at most this many plies
/// deep (about a million positions at 5), and at most half the game.
const FORWARD_DEPTH: u32 = 5;

/// What a node of the backward search near the initial array costs (its retractions generated,
/// each child judged), in positions the forward build expands: a layer is built once the nodes it
/// could have cut cost as much as building it. Chosen with `proofgame_bench` over the published
/// games of up to 24 plies: 1 and 3 cost the same, 6 and 12 more (layer 5 then comes too early).
const NODE_COST_IN_EXPANSIONS: u64 = 3;

/// How many times the search may find a cage on the line that shows a history and look for
/// another, before it accepts the next line without asking (keeping a line never loses a
/// solution, so stopping early is sound).
const CAGE_RETRIES: u32 = 32;

/// The most refuted candidates a search keeps for its explanation.
const MAX_REFUTATIONS: usize = 64;

/// Cage verdicts kept before the cache is cleared.
const DEEP_CAPACITY: usize = 1 << 16;

/// The most candidates of one search whose closure is asked ([`Search::candidate_closure`]): a
/// last-move problem has a few, and a deep solve with thousands pays for these only.
const CANDIDATE_CLOSURES: u32 = 16;

/// The most nodes the closure of one candidate may expand: a fifth of `check`'s, since a search
/// asks it of several (the shuffles and retro-stalemates it is for close in a few hundred).
const CANDIDATE_CLOSURE_NODES: u64 = 1_000;

/// The most candidates of one search whose look past the extra depth is asked
/// ([`Search::candidate_depth`]).
const CANDIDATE_DEPTHS: u32 = 16;

/// How many plies past the extra depth a candidate's look goes: the retro-stalemates of the
/// published problems' wrong last moves close one to four plies past the usual extra 3 (a king
/// that can only have come from a square where it stood in a check nothing gave; r2-D-087's
/// Bg7-h6 needs all four, r2-D-119's rook moves fewer).
const CANDIDATE_MORE_PLIES: u32 = 4;

/// The most nodes one candidate's look past the extra depth may visit; beyond them the candidate
/// stands. The corpus's looks that close do so within it (2,000 decided nothing more, at 1.1x
/// the corpus time).
const CANDIDATE_DEPTH_NODES: u64 = 1_000;

/// What an existence search looks for at the end of its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Any position the pruner accepts: the line is a history.
    AnyHistory,
    /// The initial array, White to move: the line is a proof game.
    InitialArray,
}

/// One search and everything it caches: its tables, the proof-game bound's maps, the forward
/// layers. Nothing outlives it, so a search answers the same whatever ran before it.
pub(crate) struct Search<'p, 'a, P: Pruner> {
    pruner: &'p P,
    params: SolveParams<'a>,
    budget: Budget<'a>,
    lines: Vec<Vec<Retraction>>,
    /// Solutions found, including those not kept in `lines`.
    count: u64,
    /// Solutions found by their first retraction (see [`Solutions::by_last_move`]).
    by_last_move: Vec<(Retraction, u64)>,
    line: Vec<Retraction>,
    /// Positions known to have (or not to have) a history of some length.
    history: Table,
    /// Under the repetition constraint, the successes: the next node of the line found (its key
    /// with the rights), by node and plies left. A success is reused only where the line it leads
    /// along repeats nothing of the line above (see [`Search::chase`]).
    onward: Table<NodeKey>,
    /// Positions known to lead to no solution in the given remaining depth.
    dead: Table,
    /// Positions reachable from the initial array in a few plies, for proof games: built one ply at
    /// a time, as the search's own work pays for them (see [`Search::forward_excludes`]).
    forward: Option<ForwardLayers>,
    /// The nodes of a proof game visited at each number of plies from the initial array, up to
    /// [`FORWARD_DEPTH`]: the work the forward layers could cut.
    near_start: [u64; FORWARD_DEPTH as usize + 1],
    /// The proof-game distance bound with its caches.
    bound: Bound,
    /// The costlier verdicts ([`Pruner::deep_reason`], the cage attempt) asked so far, by position
    /// key, each with the position's verification key: `Some` when the position was proven
    /// illegal.
    deep: KeyMap<(u64, Option<Reason>)>,
    /// Whether `deep` holds any illegal position (else `child` need not look it up).
    any_deep: bool,
    /// The positions after each retraction of `line`.
    path: Vec<RetroPosition>,
    /// The ply of a position of the solution line just found illegal: the search returns to its
    /// parent and tries the next retraction there.
    unwind: Option<u32>,
    /// Candidate lines that died on a costlier verdict, with the reason.
    refuted: Vec<Refutation>,
    /// Candidates whose closure was asked ([`Search::candidate_closure`]).
    closures_asked: u32,
    /// Candidates whose look past the extra depth was asked ([`Search::candidate_depth`]).
    depths_asked: u32,
    /// The retraction lists of each retraction number (1 = the last move), reused across the
    /// tree as perft reuses its buffers, so that no node allocates its own.
    buffers: Vec<PlyBuffers>,
    /// The positions of the existence line being searched, root first, when the search counts
    /// only repetition-free lines (see [`Repetitions`]); `None` when it counts every line.
    repetitions: Option<Repetitions>,
}

/// The positions of the line an existence search is on, so that it never counts a line that
/// repeats a position as a history.
///
/// **Why cutting repetitions loses no history.** The existence search walks a graph whose nodes
/// are retro states (the [`RetroPosition`], with the castling rights still to be explained), and
/// from a node it tries the same retractions whatever the line above it, except for two facts
/// that depend on the ply number: the halfmove clock and the exact en passant field (which binds
/// only the first retraction, from the root). Without a clock, a line `X .. X ..` that meets a
/// node twice can be cut to `X ..` (what follows the second `X` follows the first as well), so
/// every history contains a repetition-free one; and a legal position has repetition-free
/// histories of any length the search asks: its game with the cycles cut, then the reversible
/// moves before it. So the search only counts repetition-free lines when no halfmove clock is
/// asserted and no proof game is sought (whose length is exact), and with an exact en passant
/// field the root is left off the line (a line back to it might not be cut at the root).
///
/// **Why the transposition table stays sound.** A result computed under a line depends on the
/// positions above it only through the children it cut because they were on the line. The
/// search keeps the shallowest line index it cut against in a subtree (`floor`): a failure whose
/// cuts all hit positions at or below its own node would fail under any line above it (the same
/// tree is searched), so it is stored; any other failure, and every success (whose line might
/// meet the positions above another node), is kept apart: each success keeps the next node of its
/// line, and is reused only when the line those links lead along is whole, repeats nothing of
/// itself, and meets no position of the line above (comparing keys, so a collision only costs a
/// search again).
pub(crate) struct Repetitions {
    /// The nodes of the line: the position and the key of its rights still to be explained.
    line: Vec<(RetroPosition, u64)>,
    /// The shallowest index of `line` a child was cut against in the subtree being searched.
    floor: usize,
    /// Whether any child was cut for repeating since the flag was last cleared.
    cut: bool,
}

impl Repetitions {
    fn new() -> Repetitions {
        Repetitions {
            line: Vec::new(),
            floor: usize::MAX,
            cut: false,
        }
    }

    /// The index on the line of the node `(pos, lost)`, if it is there.
    fn find(&self, pos: &RetroPosition, lost: u64) -> Option<usize> {
        let key = pos.zobrist();
        self.line
            .iter()
            .position(|(p, l)| *l == lost && p.zobrist() == key && p == pos)
    }
}

impl<'p, 'a, P: Pruner> Search<'p, 'a, P> {
    pub fn new(pruner: &'p P, mut params: SolveParams<'a>) -> Self {
        let budget = Budget::new(
            params.max_nodes,
            params.cancel.clone(),
            params.progress.take(),
        );
        let bound = Bound::new(params.options.capture_squares);
        Search {
            pruner,
            params,
            budget,
            lines: Vec::new(),
            count: 0,
            by_last_move: Vec::new(),
            line: Vec::new(),
            history: Table::new(),
            onward: Table::new(),
            dead: Table::new(),
            forward: None,
            near_start: [0; FORWARD_DEPTH as usize + 1],
            bound,
            deep: KeyMap::default(),
            any_deep: false,
            path: Vec::new(),
            unwind: None,
            refuted: Vec::new(),
            closures_asked: 0,
            depths_asked: 0,
            buffers: Vec::new(),
            repetitions: None,
        }
        .counting_repetition_free()
    }

    /// What the search found: its solutions, refutations and nodes.
    pub fn into_solutions(self) -> Solutions {
        Solutions {
            lines: self.lines,
            count: self.count,
            by_last_move: self.by_last_move,
            refuted: self.refuted,
            complete: !self.budget.stopped,
            nodes: self.budget.nodes,
            elapsed: self.budget.start.elapsed(),
        }
    }

    /// The castling rights a search from `pos` must explain: with an exact castling field, those
    /// the FEN lacks while their king and rook stand at home (see [`LostRights::of`]).
    pub fn root_lost(&self, pos: &RetroPosition) -> LostRights {
        if self.params.facts.exact_castling {
            LostRights::of(pos)
        } else {
            LostRights::default()
        }
    }

    /// The pruner the search asks.
    pub fn pruner(&self) -> &'p P {
        self.pruner
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes
    }

    /// The nodes left in the budget (`None`: no budget).
    pub fn nodes_left(&self) -> Option<u64> {
        self.budget.left()
    }

    /// The cancel flag the search polls, if it has one.
    pub fn cancel_flag(&self) -> Option<&std::sync::atomic::AtomicBool> {
        self.budget.cancel_flag()
    }

    /// Whether the budget or cancellation stopped the search.
    pub fn stopped(&self) -> bool {
        self.budget.stopped
    }

    /// Counts every line as a history, repeating or not (unsound as evidence: for benchmarks).
    #[cfg(feature = "bench")]
    pub fn count_every_line(&mut self) {
        self.repetitions = None;
    }

    /// The buffers of retraction number `index`, taken out of the search while a node uses them
    /// (a nested node of the same number, which the recursion never makes, would get fresh ones).
    fn take_buffers(&mut self, index: u32) -> PlyBuffers {
        let slot = index as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, PlyBuffers::default);
        }
        std::mem::take(&mut self.buffers[slot])
    }

    /// Gives back the buffers taken by [`Search::take_buffers`].
    fn give_back(&mut self, index: u32, buffers: PlyBuffers) {
        self.buffers[index as usize] = buffers;
    }

    /// Turns on the repetition-free counting where it is sound (see [`Repetitions`]).
    fn counting_repetition_free(mut self) -> Self {
        let facts = &self.params.facts;
        if facts.halfmove_clock.is_none() && facts.plies_since_start.is_none() {
            self.repetitions = Some(Repetitions::new());
        }
        self
    }

    /// Puts `pos` on the line of the existence search (a no-op when repetitions count), unless
    /// it is a root whose first retraction is bound by an exact en passant field.
    pub fn enter(&mut self, pos: &RetroPosition, lost: LostRights, index: u32) {
        let skip = index == 1 && self.params.facts.exact_en_passant;
        if let Some(rep) = self.repetitions.as_mut() {
            if !skip {
                rep.line.push((pos.clone(), lost.key()));
            }
        }
    }

    /// The length of the existence line (0 when repetitions count).
    pub fn line_len(&self) -> usize {
        self.repetitions.as_ref().map_or(0, |rep| rep.line.len())
    }

    /// Cuts the existence line back to `len` positions.
    pub fn leave_to(&mut self, len: usize) {
        if let Some(rep) = self.repetitions.as_mut() {
            rep.line.truncate(len);
        }
    }

    /// Whether the successes kept in `onward` lead from the node `key` along a whole line of
    /// `plies` retractions that repeats no node, of itself or of the existence line above.
    fn chase(&self, node: NodeKey, plies: u32) -> bool {
        let Some(rep) = self.repetitions.as_ref() else {
            return false;
        };
        if plies == 0 {
            return true;
        }
        // Most nodes have no success kept: they are answered before the list of nodes seen is made.
        let Some(mut next) = self.onward.get(node, plies) else {
            return false;
        };
        let mut seen = Vec::with_capacity(plies as usize + 1);
        seen.push(node.hash);
        let mut left = plies;
        loop {
            let on_line = rep.line.iter().any(|(p, l)| p.zobrist() ^ l == next.hash);
            if on_line || seen.contains(&next.hash) {
                return false;
            }
            seen.push(next.hash);
            left -= 1;
            if left == 0 {
                return true;
            }
            match self.onward.get(next, left) {
                Some(after) => next = after,
                None => return false,
            }
        }
    }

    /// Whether `pos` (with its rights `lost`) stands on the existence line, without recording a
    /// repetition.
    fn on_line(&self, pos: &RetroPosition, lost: LostRights) -> bool {
        self.repetitions
            .as_ref()
            .is_some_and(|rep| rep.find(pos, lost.key()).is_some())
    }

    /// Clears the record of lines cut for repeating.
    pub fn clear_repeats(&mut self) {
        if let Some(rep) = self.repetitions.as_mut() {
            rep.cut = false;
        }
    }

    /// Whether a line was cut for repeating since [`Search::clear_repeats`].
    pub fn repeated(&self) -> bool {
        self.repetitions.as_ref().is_some_and(|rep| rep.cut)
    }

    /// Whether `child` (with its rights `lost`) repeats a position of the existence line; a
    /// repetition is recorded for the table and the report.
    fn repeats(&mut self, child: &RetroPosition, lost: LostRights) -> bool {
        let Some(rep) = self.repetitions.as_mut() else {
            return false;
        };
        match rep.find(child, lost.key()) {
            Some(at) => {
                rep.floor = rep.floor.min(at);
                rep.cut = true;
                true
            }
            None => false,
        }
    }

    /// Whether the search asks the costlier verdicts at all: not for proof games, whose lines end
    /// in the initial array and so are real games, which no cage can stop.
    fn asks_deep(&self) -> bool {
        self.params.facts.plies_since_start.is_none()
    }

    /// The costlier verdict on `pos` ([`Pruner::deep_reason`]), asked once per position.
    fn deep_reason(&mut self, pos: &RetroPosition) -> Option<Reason> {
        let (key, check) = (pos.zobrist(), verification(pos));
        if let Some((_, known)) = self.deep.get(&key).filter(|(c, _)| *c == check) {
            return known.clone();
        }
        let found = self.pruner.deep_reason(pos);
        self.keep_deep(pos, found.clone());
        found
    }

    /// Keeps a costlier verdict on `pos`, forgetting every verdict first when the cache is full.
    fn keep_deep(&mut self, pos: &RetroPosition, found: Option<Reason>) {
        if self.deep.len() >= DEEP_CAPACITY {
            // Forgetting a verdict only costs asking again; `child` then lets the position pass
            // until it is asked again on a line, which loses nothing.
            self.deep.clear();
            self.any_deep = false;
        }
        self.any_deep |= found.is_some();
        self.deep.insert(pos.zobrist(), (verification(pos), found));
    }

    /// Whether `pos` was already proven illegal by a costlier verdict.
    fn known_deep(&self, pos: &RetroPosition) -> bool {
        self.any_deep
            && self
                .deep
                .get(&pos.zobrist())
                .is_some_and(|(check, known)| known.is_some() && *check == verification(pos))
    }

    /// Keeps a refuted candidate for the explanation.
    fn refute(&mut self, line: Vec<Retraction>, reason: Reason) {
        if self.refuted.len() < MAX_REFUTATIONS {
            self.refuted.push(Refutation { line, reason });
        }
    }

    /// Counts a node; checks for cancellation and reports progress now and then.
    fn visit(&mut self, ply: u32) -> bool {
        self.budget
            .visit_with(ply, usize::try_from(self.count).unwrap_or(usize::MAX))
    }

    /// Whether `r` may be retraction number `index` (1 = the last move) given the game facts.
    pub fn allowed(&self, pos: &RetroPosition, r: Retraction, index: u32) -> bool {
        let facts = &self.params.facts;
        if let Some(clock) = facts.halfmove_clock {
            let zeroing = is_zeroing(r);
            // `checked_add`: a clock of u32::MAX is a legal FEN field, and its move before the
            // quiet ones lies beyond any search.
            if (index <= clock && zeroing) || (clock.checked_add(1) == Some(index) && !zeroing) {
                return false;
            }
        }
        !(index == 1
            && facts.exact_en_passant
            && pos.forced_double_step().is_none()
            && allows_en_passant(pos, r))
    }

    /// The position `r` leads to, if it may be retraction number `index` and the pruner accepts
    /// it. Called lazily in each loop so that a search for one history stops at the first.
    fn child(&mut self, pos: &RetroPosition, r: Retraction, index: u32) -> Option<RetroPosition> {
        if !self.allowed(pos, r, index) {
            return None;
        }
        let child = pos.retract(r);
        if self.known_deep(&child) {
            return None;
        }
        // In a proof game the distance bound is far cheaper than the analysis: ask it first.
        if let Some(total) = self.params.facts.plies_since_start {
            if total < index || !start_in_reach(&mut self.bound, &child, total - index) {
                return None;
            }
        }
        (!self.pruner.is_illegal(&child)).then_some(child)
    }

    /// Whether a line of `plies` retractions from `pos`, the first being number `index`, reaches
    /// `goal`; `lost` holds the castling rights still to be explained on the way. Stops at the
    /// first such line.
    ///
    /// With [`Goal::AnyHistory`] (is there a history `plies` deep?), `lost` holds the castling
    /// rights the FEN lost (`--exact-fen`) that the line has still to explain: a line on which one
    /// can no longer be explained dies ([`LostRights::stranded`]), while one that ends before
    /// explaining it is still a history (the king or rook may have moved earlier).
    fn exists(
        &mut self,
        pos: &RetroPosition,
        plies: u32,
        index: u32,
        lost: LostRights,
        goal: Goal,
    ) -> bool {
        if plies == 0 {
            return match goal {
                Goal::AnyHistory => true,
                Goal::InitialArray => lost.is_empty() && is_initial(pos),
            };
        }
        // (The distance bound was asked in `child`, and at the root in `collect`.)
        if goal == Goal::InitialArray && self.forward_excludes(pos, plies) {
            return false;
        }
        let key = NodeKey::of(pos, lost.key());
        if let Some(known) = self.history.get(key, plies) {
            return known;
        }
        if self.chase(key, plies) {
            return true;
        }
        // Under the repetition constraint: this node's index on the line, and the cut floor of
        // the subtree above, kept aside while this subtree collects its own.
        let at = self.line_len();
        self.enter(pos, lost, index);
        let outer = self
            .repetitions
            .as_mut()
            .map(|rep| std::mem::replace(&mut rep.floor, usize::MAX));
        let mut found = false;
        let mut buffers = self.take_buffers(index);
        buffers.fill_in_existence_order(pos);
        for &r in &buffers.ordered {
            if !self.visit(0) {
                break;
            }
            let Some(child) = self.child(pos, r, index) else {
                continue;
            };
            let after = lost.after(pos, r);
            if after.stranded(&child) || self.repeats(&child, after) {
                continue;
            }
            if self.exists(&child, plies - 1, index + 1, after, goal) {
                found = true;
                if self.repetitions.is_some() && !self.budget.stopped {
                    self.onward
                        .insert(key, plies, NodeKey::of(&child, after.key()));
                }
                break;
            }
        }
        self.give_back(index, buffers);
        // Stored: every result counting all lines; under the constraint, only a failure that did
        // not depend on the line above this node (see `Repetitions`).
        let storable = match (self.repetitions.as_mut(), outer) {
            (Some(rep), Some(outer)) => {
                rep.line.truncate(at);
                let floor = rep.floor;
                rep.floor = outer.min(floor);
                !found && floor >= at
            }
            _ => true,
        };
        if self.budget.stopped {
            return found;
        }
        if storable {
            self.history.insert(key, plies, found);
        }
        found
    }

    /// Whether the forward layers show that no game reaches `pos` in exactly `plies` plies (see
    /// `forward.rs`: they can only rule a board out, never vouch for a position). A cancel during
    /// a build stops the search.
    ///
    /// The layers are built lazily, one ply at a time and only as deep as the search's own work
    /// pays for: the next layer (`d + 1` plies from the start) is built once the nodes visited
    /// within `d + 1` plies of the start, which it could have cut, cost as much as its build
    /// ([`NODE_COST_IN_EXPANSIONS`]); whatever the problem, the layers then cost at most about
    /// as much again as the search near the start. Short or easy proof games never pay for
    /// a million positions; the decision depends on the search's own nodes alone, so the same
    /// problem is searched the same way every time.
    fn forward_excludes(&mut self, pos: &RetroPosition, plies: u32) -> bool {
        let Some(total) = self.params.facts.plies_since_start else {
            return false;
        };
        let cap = FORWARD_DEPTH.min(total / 2);
        if plies == 0 || plies > cap || self.budget.stopped {
            return false;
        }
        self.near_start[plies as usize] += 1;
        let layers = self.forward.get_or_insert_with(ForwardLayers::new);
        while layers.depth() < plies {
            let next = layers.depth() + 1;
            let work: u64 = self.near_start[1..=next as usize].iter().sum();
            if work.saturating_mul(NODE_COST_IN_EXPANSIONS) < layers.next_cost() {
                break;
            }
            let (nodes, solutions, start) = (
                self.budget.nodes,
                usize::try_from(self.count).unwrap_or(usize::MAX),
                self.budget.start,
            );
            // The budget holds the progress callback.
            let budget = &mut self.budget;
            let mut report = |positions| {
                budget.report(Progress {
                    nodes,
                    solutions,
                    ply: 0,
                    elapsed: start.elapsed(),
                    phase: Phase::ForwardLayers { positions },
                });
            };
            if !layers.extend(next < cap, self.params.cancel.as_deref(), &mut report) {
                self.budget.stopped = true;
                return false;
            }
        }
        layers.may_reach(pos.board(), pos.to_move(), plies) == Some(false)
    }

    /// Whether a line ending in `pos` after `ply` retractions is a solution.
    fn completes(&mut self, pos: &RetroPosition, ply: u32, lost: LostRights) -> bool {
        match self.params.facts.plies_since_start {
            Some(total) => {
                total >= ply && self.exists(pos, total - ply, ply + 1, lost, Goal::InitialArray)
            }
            None => {
                if let Some(at) = self.deep_on_line() {
                    self.unwind = Some(at);
                    return false;
                }
                let extra = self.params.extra;
                if !self.has_checked_history(pos, extra, ply + 1, lost) {
                    return false;
                }
                if let Some(reason) = self.candidate_closure(pos) {
                    self.refute(self.line.clone(), reason);
                    return false;
                }
                if let Some(reason) = self.candidate_depth(pos) {
                    self.refute(self.line.clone(), reason);
                    return false;
                }
                true
            }
        }
    }

    /// The closure of the position a candidate line reaches ([`Pruner::closure_reason`]): every
    /// line of retractions from it repeating or dying in a finite set, which also finds the
    /// retro-stalemates a few plies past the extra depth (a finite set of lines that all die). The
    /// costliest verdict, asked only of the first [`CANDIDATE_CLOSURES`] candidates a search is
    /// about to accept (within [`CANDIDATE_CLOSURE_NODES`] each, and the search's own budget), so
    /// that a deep solve with a great many solutions does not pay it for each. A verdict is kept
    /// with the costlier ones, so that other lines into the same position die on it too.
    /// A look [`CANDIDATE_MORE_PLIES`] past the extra depth from the position a candidate line
    /// reaches: when no repetition-free history that deep exists ([`crate::prove`], which is sound
    /// evidence: a position a game reaches has such histories of every length), the position is
    /// illegal and the candidate falls, with a [`ReasonCode::NoHistory`] reason. Asked only of
    /// the first [`CANDIDATE_DEPTHS`] candidates a search is about to accept, within
    /// [`CANDIDATE_DEPTH_NODES`] each (a look cut short proves nothing), so that its cost stays
    /// that of a few small searches per problem; a deep solve with many solutions does not pay
    /// it for each.
    fn candidate_depth(&mut self, pos: &RetroPosition) -> Option<Reason> {
        if !self.asks_deep() || !self.pruner.has_deep() || self.depths_asked >= CANDIDATE_DEPTHS {
            return None;
        }
        self.depths_asked += 1;
        let depth = self.params.extra + CANDIDATE_MORE_PLIES;
        let nodes = self.nodes_left().map_or(CANDIDATE_DEPTH_NODES, |left| {
            left.min(CANDIDATE_DEPTH_NODES)
        });
        let (proof, _) = prove_counted(
            pos,
            depth,
            self.pruner,
            self.params.cancel.clone(),
            Some(nodes),
        );
        let Proof::NoHistory {
            tries,
            complete: true,
            closure,
            ..
        } = proof
        else {
            return None;
        };
        if let Some(reason) = closure {
            return Some(reason);
        }
        let lasted = tries.iter().map(|t| t.survived).max().unwrap_or(0);
        let repeats = if tries.iter().any(|t| t.repeats) {
            " or repeats a position"
        } else {
            ""
        };
        Some(Reason::new(
            ReasonCode::NoHistory,
            format!(
                "no history is {depth} plies deep: every line of retractions from here dies{repeats} \
                 within {lasted} {}",
                if lasted == 1 { "ply" } else { "plies" }
            ),
            Bitboard::EMPTY,
        ))
    }

    fn candidate_closure(&mut self, pos: &RetroPosition) -> Option<Reason> {
        if !self.asks_deep() || !self.pruner.has_deep() || self.closures_asked >= CANDIDATE_CLOSURES
        {
            return None;
        }
        self.closures_asked += 1;
        let nodes = self.nodes_left().map_or(CANDIDATE_CLOSURE_NODES, |left| {
            left.min(CANDIDATE_CLOSURE_NODES)
        });
        let reason = self
            .pruner
            .closure_reason(pos, Some(nodes), self.params.cancel.as_deref())?;
        self.keep_deep(pos, Some(reason.clone()));
        Some(reason)
    }

    /// The ply of the first position of the current solution line that a costlier verdict proves
    /// illegal, if any (the refutation is kept for the explanation).
    fn deep_on_line(&mut self) -> Option<u32> {
        if !self.pruner.has_deep() {
            return None;
        }
        for i in 0..self.path.len() {
            let pos = self.path[i].clone();
            if let Some(reason) = self.deep_reason(&pos) {
                self.refute(self.line[..=i].to_vec(), reason);
                return u32::try_from(i + 1).ok();
            }
        }
        None
    }

    /// Whether `pos` has a history `plies` deep (first retraction number `index`) on which no
    /// position falls to a costlier verdict. Lazy: the cheap search finds a line, then only the
    /// positions of that line are asked; a position proven illegal closes every line through it,
    /// and the search looks again.
    pub fn has_checked_history(
        &mut self,
        pos: &RetroPosition,
        plies: u32,
        index: u32,
        lost: LostRights,
    ) -> bool {
        if !self.asks_deep() || !self.pruner.has_deep() {
            return self.exists(pos, plies, index, lost, Goal::AnyHistory);
        }
        let mut last = None;
        for _ in 0..CAGE_RETRIES {
            if !self.exists(pos, plies, index, lost, Goal::AnyHistory) {
                if let Some((line, reason)) = last {
                    let mut whole = self.line.clone();
                    whole.extend(line);
                    self.refute(whole, reason);
                }
                return false;
            }
            if self.budget.stopped {
                return true;
            }
            let line = self.witness(pos, plies, index, lost);
            // The positions of the line, each with the plies left below it.
            let mut rights = lost;
            let mut at = pos.clone();
            let mut on_line = vec![(NodeKey::of(&at, rights.key()), plies)];
            let mut caged = None;
            for (i, &r) in line.iter().enumerate() {
                rights = rights.after(&at, r);
                at.retract_in_place(r);
                if let Some(reason) = self.deep_reason(&at) {
                    caged = Some((line[..=i].to_vec(), reason));
                    break;
                }
                on_line.push((NodeKey::of(&at, rights.key()), plies - 1 - i as u32));
            }
            if caged.is_none() && line.len() == plies as usize {
                return true;
            }
            // The entries that vouched for this line are wrong now (the caged position, which
            // `child` refuses from now on, or an entry made stale by an earlier cage): forget
            // them, and search again.
            for (key, left) in on_line {
                self.history.forget(key, left);
                self.onward.forget(key, left);
            }
            if caged.is_some() {
                last = caged;
            }
        }
        true
    }

    /// Collects the solutions below `pos`, reached after `ply` retractions. Returns whether any
    /// was found.
    pub fn collect(&mut self, pos: &RetroPosition, ply: u32, lost: LostRights) -> bool {
        let remaining = self.params.depth - ply;
        if remaining == 0 {
            if self.completes(pos, ply, lost) && !self.budget.stopped {
                self.count += 1;
                if let Some(&last) = self.line.first() {
                    crate::tally_last_move(&mut self.by_last_move, last);
                }
                if self.params.keep.is_none_or(|keep| self.lines.len() < keep) {
                    self.lines.push(self.line.clone());
                }
                if let Some(report) = self.params.on_solution.as_mut() {
                    if !report(&self.line) {
                        self.budget.stopped = true;
                    }
                }
                if self
                    .params
                    .max_solutions
                    .is_some_and(|max| self.count >= max as u64)
                {
                    self.budget.stopped = true;
                }
                return true;
            }
            return false;
        }
        if let Some(total) = self.params.facts.plies_since_start {
            // Every other node passed the distance bound in `child`: only the root is asked here.
            if total < ply || (ply == 0 && !start_in_reach(&mut self.bound, pos, total)) {
                return false;
            }
            // Within the forward horizon only positions some game reaches can lie on a line.
            if self.forward_excludes(pos, total - ply) {
                return false;
            }
        }
        let key = NodeKey::of(pos, lost.key());
        if self.dead.get(key, remaining) == Some(false) {
            return false;
        }
        let mut found = false;
        // Whether every retraction was tried: only then may a failure be stored.
        let mut tried_all = true;
        let mut buffers = self.take_buffers(ply + 1);
        pos.retractions_into(&mut buffers.all);
        for &r in &buffers.all {
            if !self.visit(ply) {
                tried_all = false;
                break;
            }
            let Some(child) = self.child(pos, r, ply + 1) else {
                continue;
            };
            let after = lost.after(pos, r);
            if after.stranded(&child) {
                continue;
            }
            self.line.push(r);
            self.path.push(child.clone());
            found |= self.collect(&child, ply + 1, after);
            self.line.pop();
            self.path.pop();
            if let Some(at) = self.unwind {
                if at != ply + 1 {
                    // This position, or one before it, is illegal: nothing below it is a solution.
                    tried_all = false;
                    break;
                }
                self.unwind = None;
            }
            if self.budget.stopped {
                tried_all = false;
                break;
            }
        }
        self.give_back(ply + 1, buffers);
        if tried_all && !found {
            self.dead.insert(key, remaining, false);
        }
        found
    }

    /// A line `plies` deep below `pos`, which must have one, its first retraction being number
    /// `first`, with the lost castling rights `lost` still to explain (see
    /// [`Search::exists`]).
    pub fn witness(
        &mut self,
        pos: &RetroPosition,
        plies: u32,
        first: u32,
        lost: LostRights,
    ) -> Vec<Retraction> {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        let outer = self.line_len();
        let mut rights = lost;
        let mut buffers = PlyBuffers::default();
        for step in 0..plies {
            let left = plies - step - 1;
            let index = first + step;
            self.enter(&pos, rights, index);
            // In the order of the existence search, so that the line it found is found again from
            // its table, without new searches below retractions it never tried.
            buffers.fill_in_existence_order(&pos);
            // First the children the table vouches for: each passed the pruner when its entry
            // was made, so none is analysed again, and the first of them in this order is the
            // one the existence search found (the children before it failed or were pruned).
            // Only when the table lost its entries is each child analysed and searched again.
            // Under the repetition constraint successes are kept as the child they went on to
            // (`onward`), which must not repeat the line so far.
            let onward = self.onward.get(NodeKey::of(&pos, rights.key()), left + 1);
            let vouched = buffers.ordered.iter().find_map(|&r| {
                if !self.allowed(&pos, r, index) {
                    return None;
                }
                let child = pos.retract(r);
                let after = rights.after(&pos, r);
                let key = NodeKey::of(&child, after.key());
                let kept = (left > 0 && self.history.get(key, left) == Some(true))
                    || (onward == Some(key) && !self.on_line(&child, after));
                (kept && !self.known_deep(&child)).then_some((r, child, after))
            });
            let next = vouched.or_else(|| {
                buffers.ordered.iter().find_map(|&r| {
                    let child = self.child(&pos, r, index)?;
                    let after = rights.after(&pos, r);
                    (!after.stranded(&child)
                        && !self.repeats(&child, after)
                        && self.exists(&child, left, index + 1, after, Goal::AnyHistory))
                    .then_some((r, child, after))
                })
            });
            match next {
                Some((r, child, after)) => {
                    pos = child;
                    rights = after;
                    line.push(r);
                }
                None => break,
            }
        }
        self.leave_to(outer);
        line
    }
}

/// The retraction lists of one node: `all` as the generator gives them, `ordered` as an existence
/// search tries them.
#[derive(Default)]
struct PlyBuffers {
    all: Vec<Retraction>,
    ordered: Vec<Retraction>,
}

impl PlyBuffers {
    /// Fills `ordered` with the retractions of `pos` in the order an existence search tries them:
    /// quiet ones first, since a history is found soonest along lines that add no units
    /// (uncaptured units must fit the missing material and often fall to the analysis). Only the
    /// order changes, never the set.
    ///
    /// A stable partition rather than a sort: this runs at every node of an existence search,
    /// where a comparison sort showed up as a fifth of the profile.
    fn fill_in_existence_order(&mut self, pos: &RetroPosition) {
        pos.retractions_into(&mut self.all);
        self.ordered.clear();
        let (quiet, uncapturing) = (
            self.all.iter().filter(|r| r.uncaptured().is_none()),
            self.all.iter().filter(|r| r.uncaptured().is_some()),
        );
        self.ordered.extend(quiet);
        self.ordered.extend(uncapturing);
    }
}

/// Whether the initial array may be `plies` retractions away: each side must have enough moves
/// for what its units need at least. The retracting side takes back the odd plies from here, the
/// other side the even ones.
fn start_in_reach(bound: &mut Bound, pos: &RetroPosition, plies: u32) -> bool {
    let mut budget = ByColor::new_with(|_| plies / 2);
    *budget.get_mut(pos.retracting()) = plies.div_ceil(2);
    bound.within(pos, budget)
}

/// Applies the uncapture policy (the sides whose uncaptures are forbidden) to a position.
pub(crate) fn with_policy(pos: &RetroPosition, no_uncapture: ByColor<bool>) -> RetroPosition {
    let mut pos = pos.clone();
    for color in Color::ALL {
        if *no_uncapture.get(color) {
            pos.set_uncaptures_allowed(color, false);
        }
    }
    pos
}
