//! The exact prefix of a whole-position closure: the real retractions of the real position, every
//! check counted, until each line's first uncapture and one ply past it when needed (issue 10,
//! "cages held only by blockable checks").
//!
//! The cage verifier ([`super::search`]) works in Hwa's relaxed semantics: units outside the claim
//! and the victims of uncaptures are untracked, so both sides retract freely (a side retracting
//! twice stands for an untracked move in between) and only unblockable checks count (an untracked
//! unit may block a line). When the claim is the *whole* position, nothing is untracked until a
//! line's first uncapture: going back from the position, untracked units only appear as victims.
//! Until then the relaxed search gives away what it cannot know but the position tells: the sides
//! alternate, a king retracted into a check along an open line is in check (no blocker exists),
//! castling and en passant are exactly those of the position. [`exact_prefix`] searches that part
//! with the ordinary retraction generator of `retrace-unmove` ([`RetroPosition::retractions`]) and
//! hands every line to the relaxed verifier at its first uncapture, where the victim stands in the
//! child position as a real unit and is tracked like the others.
//!
//! # The search
//! Depth first from the position, within a budget of positions. A child of a node closes its line
//! when:
//! - (a) the static analysis proves it illegal ([`retrace_legal::Analyzer`]'s rules on the position
//!   itself; this search is its own lookahead);
//! - (b) it equals a position on the line from the root to it (the same [`RetroPosition`]: board,
//!   side to move, frozen units, forced double step, promoted marks, forbidden uncaptures);
//! - (c) a cage of the store, or a node the store learnt (by containment), is in it, or it breaks
//!   the verifier's node rules;
//! - (d) it was reached by an uncapture, and the relaxed closure ([`super::closure`]'s verifier, on
//!   the child as a whole claim) proves it within the nodes left;
//! - or it was proven earlier in this search (see below).
//!
//! Otherwise it is expanded, with one limit after uncaptures: (e) a child whose handoff (d)
//! failed is expanded like any other (the victim stands in it as a real unit, so its retractions
//! are the generator's real ones), but each of *its* children must then close at once by (a) to
//! (d) (the line's first failed handoff is followed one ply, [`UNCAPTURE_PLIES`]). Right after an
//! uncapture the relaxed semantics gives away what the child still tells: the sides alternate and
//! every check counts, so a last move of the child that only the relaxed search allows (one side
//! retracting twice, a king left in a check along an open line) is seen to be none. The tempo
//! search below expands uncaptures itself where a side stays bounded; rule (e) then applies only
//! to the handoffs it still makes. The search fails (proves nothing) as soon as a child is the
//! initial array, a child would need expanding beyond the depth limit or beyond the limit of (e),
//! the budget runs out or the caller cancels. A node with no retraction at all has no children and is
//! closed. Nothing it proves goes into the store: an exactly proven position is no cage (an
//! extension may add the blocker whose absence it used), so only the relaxed handoffs, proven by
//! the verifier, are learnt (by the verifier itself).
//!
//! # Why a success proves the position illegal (hand proof)
//! Say a game `G` *realizes* a retro position `Q` if it is a legal game from the initial array
//! ending in `Q`'s board with `Q`'s side to move, in which `Q`'s frozen units never moved, whose
//! last move is `Q`'s forced double step if it has one, in which a side whose uncaptures `Q`
//! forbids captured nothing, and in which `Q`'s promoted marks name promoted units. The crates
//! below give three facts: the generator is complete (the last move of a realization of `Q` is
//! one of `Q.retractions()`, and the game without it realizes the child), the static analysis is
//! sound (a position it calls illegal has no realization), and so are the relaxed closure and the
//! store's cages and learnt nodes (`closure.rs`, `search.rs`: the whole claim of a position holds
//! its units, frozen marks and capture counts, so every realization of the position realizes the
//! claim's root).
//!
//! *A shortest realization never passes twice through one retro position.* Let `G` realize `Q`,
//! and walk it backwards: `X0 = Q`, `X(k+1)` the child of `Xk` by the retraction of `G`'s move
//! into `Xk`, so that the first `n - k` moves of `G` realize `Xk`. Suppose `Xi = Xj` with `i < j`.
//! Then `G'`, the first `n - j` moves of `G` (which realize `Xj`) followed by the last `i` moves of
//! `G`, is legal and realizes `Q`, and is shorter. Each of those last moves is played on the same
//! board with the same side to move, so only castling and en passant could differ, and neither
//! does: a castling among them was retracted before `Xi` was reached, so its king and rook are
//! frozen in `Xi` (a retraction adds frozen marks and never moves a frozen unit), hence never moved
//! in the prefix realizing `Xj = Xi`, nor in the moves after `Xi` up to the castling; an en passant
//! capture as the first of them means `Xi`, reached by its retraction, has a forced double step, so
//! the prefix ends with that double step (a later one follows its double step within the same
//! moves). `G'` keeps `Q`'s facts: `Q`'s frozen marks and forbidden uncaptures are kept by every
//! retraction, so they hold in `Xj` and thus in the prefix, and in the moves after it as in `G`;
//! the last move and the promoted units after `Xi` are `G`'s (if `i = 0`, `G'` is the prefix,
//! which realizes `Xj = Q`).
//!
//! Rule (e) closes nothing: it only expands a child where the search used to fail, and the
//! argument below holds for every expanded node, wherever it stands on its line.
//!
//! *Every node the search marks proven has no realization.* A node `N` at depth `d` is marked
//! proven when every child of every node below it closed, and every repetition (b) below it went
//! back to a node at depth `d` or more (on the line from `N`). Suppose `N` had a realization, and
//! take a shortest one, `G`, with `X0 = N, X1, ...` as above (all distinct). None of them is the
//! initial array before the last (a search that met it failed), `X1` is a child of `N`, and as
//! long as `Xk` was expanded below `N`, `X(k+1)` is one of its children: expanded in turn (at its
//! turn, with `X0 .. Xk` the line above it), or closed. It cannot have closed by (a), (c) or (d),
//! nor by matching a node marked proven earlier (by induction on the order of marking), since it
//! has a realization; nor by (b), which would make it equal to some `Xi` with `i <= k`. And the
//! walk cannot go on forever below `N`: `G` is finite, and its last position, the initial array,
//! fails the search. So `N` has no realization. The root, at depth 0, is marked proven exactly
//! when the search succeeds: the position is illegal.
//!
//! A repetition that goes back above a node does not make that node proven, only its ancestor:
//! the node's own shortest realization may pass through the ancestor, so the cut there is no
//! contradiction for it. Hence the depth bookkeeping ([`Frame::reaches`]).
//!
//! # The tempo search
//! [`tempo_prefix`] is the same search, to any depth, with rule (d) applied only to an uncapture
//! after which neither side is [`bounded`]; the other uncaptures are children like any other. A
//! side is bounded when each of its units is a pawn, frozen, or a piece with no empty square to
//! have come from. It is the tempo argument of the retro solver, searched rather than counted:
//! moves alternate, so going back from the position a bounded side `S` retracts only pawn steps
//! (each takes a pawn one or two ranks back towards its second rank, so at most the sum of its
//! pawns' advances of them) and the moves of pieces those steps free, until the other side `O`
//! uncaptures a unit of `S` that can move. Meanwhile `O` retracts one move between two of `S`'s:
//! at most one more than `S` can, so every route, castling and capture `O` still needs after its
//! last capture of a mobile unit must fit in that many moves, or the line dies (a position whose
//! side to retract has no retraction left, the analysis of a child, a repetition). An uncapture
//! of a pawn or of a unit that cannot move (a queen taken at home behind its pawns) only adds
//! pawn steps or nothing: the count goes on, exactly. The search does not count; it follows
//! every line, and the count is why its lines are short.
//!
//! *Why a success proves the position illegal.* The proof above never uses rule (d) but as one
//! more way for a child to close: a child expanded instead of handed off is covered by the same
//! induction (its shortest realization walks on below it), and an uncapture child is a real
//! position like the others (the generator gives each victim its own child, with the victim on
//! the board). So the hand proof holds word for word, whatever [`bounded`] says; that predicate
//! only chooses where the search is tried and which lines it follows exactly. A child whose side
//! to retract has no retraction is closed before its analysis (it has no last move, and the
//! initial array was looked at first).
//!
//! # Cost
//! The exact search branches more than the relaxed one (every victim of an uncapture is its own
//! child) and cannot see a unit walk away, so it is only tried where the relaxed verifier
//! searched a claim and failed (see [`super::closure`]), with the nodes the verifier left, and a
//! child deeper than the depth limit fails it at once (the closure gives a peeled claim the limit
//! 0: every last move of the position itself must close). Each child looked at counts as a node
//! (its analysis is most of the cost); a handoff counts the verifier's nodes. What it gains even
//! at depth 0: the position's own side retracts first (the relaxed root lets either side), and
//! every last move is refuted however many there are (the analysis looks one retraction back only
//! when there are few), each uncapture by the relaxed verifier if need be.

use std::sync::atomic::{AtomicBool, Ordering};

use retrace_unmove::RetroPosition;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use shakmaty::{attacks, Bitboard, Color, Rank};

use super::carve::whole_claim;
use super::format::INITIAL;
use super::generator::Generator;
use super::relaxed::{relaxed, Tempo};
use super::store::CageStore;
use retrace_legal::Analyzer;

/// How many plies of a line the search expands itself from the node its first uncapture reached,
/// when the relaxed closure of that node failed (rule (e) of the module documentation): 1, that
/// node alone, so each of its children must close at once. On the corpora this proves two
/// positions more than a failed handoff failing the search (each published illegal: the other
/// side of a retractor problem), for 9% more nodes of the closure; a limit of 2 proved the same
/// two for 29% more, and nothing changed on random games (the handoffs there never fail
/// where the rest closes). See `examples/closure_bench.rs`.
const UNCAPTURE_PLIES: u32 = 1;

/// What [`exact_prefix`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Exact {
    /// Whether every line closed: the position is illegal.
    pub(super) proven: bool,
    /// Positions looked at, and the nodes of the relaxed handoffs.
    pub(super) nodes: u64,
    /// The deepest line expanded, in plies.
    pub(super) plies: u32,
}

/// A node being expanded: its children still to expand, and how far up its repetitions reach.
struct Frame {
    pos: RetroPosition,
    depth: u32,
    /// Children not closed at once, expanded one after the other.
    /// Each with the depth of the first node an uncapture reached on its line, if expanded past a
    /// failed handoff.
    open: Vec<(RetroPosition, Option<u32>)>,
    /// The least depth of a node on the line that a repetition in this node's subtree went back
    /// to (`u32::MAX`: none). The node is proven on its own when this is not above it.
    reaches: u32,
}

/// How a child of a node ended.
enum Child {
    /// Its line is closed, by a repetition of the node at this depth (`u32::MAX`: by anything else).
    Closed(u32),
    /// To be expanded.
    Open,
    /// The search fails.
    Fails,
}

/// The search of [`exact_prefix`].
struct Search<'s> {
    store: &'s CageStore,
    cancel: Option<&'s AtomicBool>,
    max_nodes: u64,
    /// Children deeper than this many plies fail the search instead of being expanded.
    max_plies: u32,
    nodes: u64,
    /// The static analysis of rule (a) (`None` only in tests of the other rules).
    analyzer: Option<Analyzer>,
    /// The positions on the line being searched, with their depths.
    line: HashMap<RetroPosition, u32>,
    /// Positions proven to have no realization (see the module documentation).
    proven: HashSet<RetroPosition>,
    plies: u32,
    /// Whether uncaptures that leave some side [`bounded`] are expanded exactly too (the tempo
    /// search, [`tempo_prefix`]) instead of handed to the relaxed closure.
    tempo: bool,
    /// [`UNCAPTURE_PLIES`] (0 in tests: a failed handoff fails the search).
    uncapture_plies: u32,
}

/// Searches the retractions of `pos` exactly until each line's first uncapture, then hands the
/// line to the relaxed closure (see the module documentation), within `max_nodes` positions;
/// `proven` says that `pos` is illegal. Stops (proving nothing) soon after `cancel` is set. Leaves
/// in `store` only what the relaxed handoffs prove.
pub(super) fn exact_prefix(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    max_plies: u32,
    cancel: Option<&AtomicBool>,
) -> Exact {
    Search::new(store, max_nodes, max_plies, cancel).exact(pos)
}

/// The tempo search (see the module documentation): [`exact_prefix`] to any depth, whose lines
/// go on exactly through every uncapture after which some side is still [`bounded`]. Meant for a
/// position with a [`tempo_side`].
pub(super) fn tempo_prefix(
    pos: &RetroPosition,
    store: &CageStore,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> Exact {
    let mut search = Search::new(store, max_nodes, u32::MAX, cancel);
    search.tempo = true;
    search.exact(pos)
}

/// The side of `pos` whose tempo the tempo search counts, if some side is [`bounded`]: of two,
/// the one with fewer pawn steps.
pub(super) fn tempo_side(pos: &RetroPosition) -> Option<Tempo> {
    Color::ALL
        .into_iter()
        .filter(|&side| bounded(pos, side))
        .map(|side| {
            let board = pos.board();
            let pawns: u32 = board
                .by_piece(side.pawn())
                .into_iter()
                .map(|sq| retrace_legal::pawn::advance(side, sq).unsigned_abs())
                .sum();
            // A piece on the last rank may be a promotion to take back: the pawn's move and its
            // five ranks down to its second rank.
            let last = Bitboard::from_rank(side.relative_rank(Rank::Eighth));
            let promotable = board.by_color(side) & !board.pawns() & !board.kings() & last;
            let unpromotions = (promotable & !pos.frozen()).count() as u32;
            Tempo {
                side,
                steps: pawns + 6 * unpromotions,
            }
        })
        .min_by_key(|t| t.steps)
}

/// Whether every unit of `color` but its pawns is frozen in `pos` (a castling right, a mark) or
/// has no empty square a move of its kind can have come from: until the other side uncaptures a
/// unit of `color`, `color` retracts only pawn moves, the moves of pieces that pawns or other
/// such pieces free, and unpromotions of pieces on its last rank (each a pawn's move back, which
/// the bound on pawn steps does not count; the search follows them exactly like any other
/// retraction, so nothing depends on the count). This only
/// chooses where the tempo search is tried and which lines it follows: its proofs do not depend
/// on it. (Counting pieces that shuffle between two squares as well proved the other side of
/// Retractor 2's r2-A-032 in `check`, the position the repl's tests and guide use to show what
/// only `--prove` sees, and nothing else on the corpora: not kept.)
fn bounded(pos: &RetroPosition, color: Color) -> bool {
    let board = pos.board();
    let occupied = board.occupied();
    let pieces = board.by_color(color) & !board.pawns() & !pos.frozen();
    pieces.into_iter().all(|sq| {
        board
            .piece_at(sq)
            .is_none_or(|piece| (attacks::attacks(sq, piece, occupied) & !occupied).is_empty())
    })
}

impl<'s> Search<'s> {
    fn new(
        store: &'s CageStore,
        max_nodes: u64,
        max_plies: u32,
        cancel: Option<&'s AtomicBool>,
    ) -> Search<'s> {
        Search {
            store,
            cancel,
            max_nodes,
            max_plies,
            nodes: 0,
            analyzer: Some(Analyzer::new()),
            line: HashMap::default(),
            proven: HashSet::default(),
            plies: 0,
            tempo: false,
            uncapture_plies: UNCAPTURE_PLIES,
        }
    }

    fn exact(mut self, pos: &RetroPosition) -> Exact {
        let proven = self.run(pos);
        Exact {
            proven,
            nodes: self.nodes,
            plies: self.plies,
        }
    }
}

impl Search<'_> {
    /// Whether every line from `root` closes (see the module documentation).
    fn run(&mut self, root: &RetroPosition) -> bool {
        if *root.board() == INITIAL || self.max_nodes == 0 {
            return false;
        }
        let Some(first) = self.expand(root.clone(), 0, None) else {
            return false;
        };
        let mut stack = vec![first];
        while let Some(top) = stack.last_mut() {
            if let Some((child, uncaptured)) = top.open.pop() {
                let depth = top.depth + 1;
                // A sibling's subtree may have proven it, or put it on the line no more.
                if self.proven.contains(&child) {
                    continue;
                }
                if let Some(&at) = self.line.get(&child) {
                    top.reaches = top.reaches.min(at);
                    continue;
                }
                match self.expand(child, depth, uncaptured) {
                    Some(frame) => stack.push(frame),
                    None => return false,
                }
                continue;
            }
            let Some(done) = stack.pop() else {
                break;
            };
            self.line.remove(&done.pos);
            let reaches = if done.reaches >= done.depth {
                self.proven.insert(done.pos);
                u32::MAX
            } else {
                done.reaches
            };
            if let Some(parent) = stack.last_mut() {
                parent.reaches = parent.reaches.min(reaches);
            }
        }
        true
    }

    /// The frame of `pos` at `depth`, its children looked at: those that close at once are
    /// dropped, the others kept to expand. `None` if the search fails there.
    fn expand(&mut self, pos: RetroPosition, depth: u32, uncaptured: Option<u32>) -> Option<Frame> {
        self.plies = self.plies.max(depth);
        self.line.insert(pos.clone(), depth);
        let mut frame = Frame {
            depth,
            open: Vec::new(),
            reaches: u32::MAX,
            pos,
        };
        let mut handoffs = Vec::new();
        for retraction in frame.pos.retractions() {
            if self.nodes >= self.max_nodes || self.cancelled() {
                return None;
            }
            self.nodes += 1;
            let child = frame.pos.retract(retraction);
            if retraction.uncaptured().is_some()
                && !(self.tempo && Color::ALL.into_iter().any(|c| bounded(&child, c)))
            {
                handoffs.push(child);
                continue;
            }
            match self.look(&child) {
                Child::Closed(at) => frame.reaches = frame.reaches.min(at),
                // A child that would need expanding beyond the depth limit fails the search.
                Child::Open if depth >= self.max_plies => return None,
                // So does one beyond the plies allowed past a failed handoff.
                Child::Open if uncaptured.is_some_and(|u| !self.within(u, depth + 1)) => {
                    return None
                }
                Child::Open => frame.open.push((child, uncaptured)),
                Child::Fails => return None,
            }
        }
        // The handoffs after every cheap closure: a failing one ends the search (or, rule (e), is
        // expanded once), so the cheaper failures come first.
        for child in handoffs {
            match self.look(&child) {
                Child::Closed(at) => frame.reaches = frame.reaches.min(at),
                Child::Fails => return None,
                Child::Open => {
                    let left = self.max_nodes.saturating_sub(self.nodes);
                    let (handed, _) = relaxed(&child, self.store, left, self.cancel);
                    self.nodes += handed.nodes;
                    if handed.closed.is_none() {
                        // Rule (e): expanded here, if the limits allow.
                        let first = uncaptured.unwrap_or(depth + 1);
                        if depth >= self.max_plies || !self.within(first, depth + 1) {
                            return None;
                        }
                        frame.open.push((child, Some(first)));
                    }
                }
            }
        }
        Some(frame)
    }

    /// How the line to `child` ends, if it ends at once (rules (a) to (c) and the proven
    /// positions of the module documentation).
    fn look(&mut self, child: &RetroPosition) -> Child {
        if let Some(&at) = self.line.get(child) {
            return Child::Closed(at);
        }
        if *child.board() == INITIAL {
            return Child::Fails;
        }
        // The tempo search meets many positions whose bounded side has no retraction left: they
        // have no realization (the initial array was looked at above), and the generator says so
        // sooner than the analysis.
        if self.proven.contains(child)
            || (self.tempo && child.count_retractions() == 0)
            || self
                .analyzer
                .as_mut()
                .is_some_and(|a| a.is_illegal_here(child))
            || store_proves(self.store, child)
        {
            return Child::Closed(u32::MAX);
        }
        Child::Open
    }

    /// Whether a node at `depth` may be expanded on a line whose first failed handoff reached
    /// `first` (rule (e)).
    fn within(&self, first: u32, depth: u32) -> bool {
        depth < first.saturating_add(self.uncapture_plies)
    }

    /// Whether the caller asked to stop (looked at for every child: a handoff may add any number
    /// of nodes at once, so a count would miss its turn).
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Whether `store` proves that `pos` has no realization: it contains a stored cage, or its whole
/// claim breaks the verifier's node rules or contains a node the store learnt.
fn store_proves(store: &CageStore, pos: &RetroPosition) -> bool {
    if !store.contained(pos).is_empty() {
        return true;
    }
    let Some(cage) = whole_claim(pos, pos.board().occupied()) else {
        return false;
    };
    let mut gen = Generator::new(cage.zone | cage.board.occupied(), false, true);
    let known = store.known();
    gen.root(&cage)
        .is_none_or(|root| known.proves(&root, true) || known.proves_by_containment(&root))
}

#[cfg(test)]
mod games;

#[cfg(test)]
mod tests {
    use retrace_testkit::pos;

    use super::*;

    /// `fen` without uncaptures for either side: the exact search then never hands off.
    fn sealed(fen: &str) -> RetroPosition {
        let mut p = pos(fen);
        for color in Color::ALL {
            p.set_uncaptures_allowed(color, false);
        }
        p
    }

    /// Each king shuffles between its home square and the queen's, behind its pawns and bishops
    /// (within the squares its home reaches, so the verifier's node rules leave it open).
    const SEALED: &str = "2b1kb2/1pppppp1/8/8/8/8/1PPPPPP1/2B1KB2 w - - 0 1";

    /// The search with rules (b) to (d) only: the analysis would find these walls unreachable.
    fn without_analysis(pos: &RetroPosition, max_nodes: u64, max_plies: u32) -> Exact {
        let store = CageStore::new();
        let mut search = Search::new(&store, max_nodes, max_plies, None);
        search.analyzer = None;
        search.exact(pos)
    }

    #[test]
    fn a_shuffle_closes_by_repetition_on_the_line() {
        let exact = without_analysis(&sealed(SEALED), 1_000, u32::MAX);
        assert!(exact.proven, "{exact:?}");
        // The sides alternate, so a position comes back only after both kings moved twice: the
        // longest line expanded has at least 3 plies, and the 4th repeats.
        assert!(exact.plies >= 3, "{exact:?}");
        // Too shallow, or too small a budget, proves nothing.
        for (nodes, plies) in [(1_000, 2), (3, u32::MAX)] {
            let cut = without_analysis(&sealed(SEALED), nodes, plies);
            assert!(!cut.proven, "{cut:?}");
        }
    }

    #[test]
    fn a_king_that_gets_out_is_not_closed() {
        // The g-pawns gone: each king leaves its corner through the g-file.
        let open = sealed("5b1k/4pp1p/8/8/8/8/4PP1P/5B1K w - - 0 1");
        let exact = without_analysis(&open, 5_000, u32::MAX);
        assert!(!exact.proven, "{exact:?}");
        let exact = exact_prefix(&open, &CageStore::new(), 5_000, u32::MAX, None);
        assert!(!exact.proven, "{exact:?}");
    }

    /// Two boards of Retractor 2's suite whose other side has no last move (published: Jan
    /// Mortensen's and Werner Keym's; `retractor-problems.jsonl`, r2-A-043 and r2-A-045), with
    /// that side to retract: each last move is an uncapture whose child the relaxed closure
    /// cannot close, but whose own last moves all die at once.
    const AFTER_UNCAPTURE: [&str; 2] = [
        "k1KQRb2/ppppp1p1/5p2/7p/8/8/8/8 w - - 0 1",
        "RK1k4/r1ppRpp1/pp2p2p/8/8/8/8/8 w - - 0 1",
    ];

    /// The exact prefix of `pos` with `uncapture_plies` plies past a failed handoff.
    fn past_uncapture(pos: &RetroPosition, uncapture_plies: u32) -> Exact {
        let store = CageStore::new();
        let mut search = Search::new(&store, 20_000, u32::MAX, None);
        search.uncapture_plies = uncapture_plies;
        search.exact(pos)
    }

    #[test]
    fn a_failed_handoff_is_followed_one_ply() {
        for fen in AFTER_UNCAPTURE {
            let p = pos(fen);
            let exact = past_uncapture(&p, UNCAPTURE_PLIES);
            assert!(exact.proven, "{fen}: {exact:?}");
            // Without rule (e) the first failed handoff fails the search.
            let stopped = past_uncapture(&p, 0);
            assert!(!stopped.proven, "{fen}: {stopped:?}");
            // The same board with the other side to retract is the problem's legal side (its
            // answer is a last move of White's): nothing is proven, however far past, although
            // rule (e) does follow its first failed handoff (the search goes deeper than the
            // uncapture it stopped at without the rule).
            let legal = pos(&fen.replace(" w ", " b "));
            let without = past_uncapture(&legal, 0);
            assert!(!without.proven, "{fen} (White retracts): {without:?}");
            for plies in [UNCAPTURE_PLIES, 3] {
                let exact = past_uncapture(&legal, plies);
                assert!(!exact.proven, "{fen} (White retracts): {exact:?}");
                assert!(
                    exact.plies > without.plies,
                    "{fen} (White retracts): {exact:?}"
                );
            }
        }
    }

    #[test]
    fn the_initial_array_fails_at_once() {
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let exact = exact_prefix(&start, &CageStore::new(), 1_000, u32::MAX, None);
        assert_eq!((exact.proven, exact.nodes), (false, 0));
    }
}
