//! The verification of a cage claim: a search of retractions "legal in some extension".
//!
//! # What a node means
//! A node is a set of *tracked* units (colour, role, square), the tracked units that never moved
//! (`frozen`), an optional *pending* unit, and for each side a capture allowance `rem`. A legal game
//! prefix `H` *realizes* a node if the position after `H` contains the tracked units on their
//! squares (anything may stand elsewhere), the frozen ones never moved in `H`, the pending unit (if
//! any) made the last move of `H`, and each side made at most `rem` captures in `H`. The root is the
//! cage itself with `rem` from its capture bounds; a cage is proven when no node of the search has a
//! realization.
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
//! contains one.
//!
//! # The retractions
//! Both sides retract freely (the other side may always have moved elsewhere in between), so the
//! cage has no side to move and either side may retract first. Each retraction of a tracked unit
//! is kept unless it is impossible in every extension:
//! - the path and the start square must be free of tracked units; a unit retracted out of the zone
//!   is dropped; an uncapture leaves nothing on the square (its victim is untracked) but uses one
//!   capture of the allowance;
//! - right after the move, the mover's king may not be attacked, and right before it the opponent's
//!   king may not be attacked. Hwa counts only unblockable attacks (contact, knight, pawn); Retrace
//!   also counts slider attacks whose line is *known empty* at that moment: the squares a moving
//!   unit passed, the square it left (just after the move) and the square it arrived on when it
//!   captured nothing (just before the move). This proves that a pinned unit cannot have stepped
//!   off the pin line, and that a unit shielding the enemy king can only have arrived by a capture
//!   (Darvall's cage in Hwa's paper);
//! - a king retracted into an unblockable check makes the checking unit *pending*: the very next
//!   retraction must be its own. Two unblockable checks at once are impossible;
//! - captures are counted: each side's pawns on their files need a minimum number of captures (the
//!   assignment of `pawns.rs`), and with the uncaptures already taken back this may not exceed what
//!   the side can have made (the cage's bound, and never more than 16 minus the opponent's tracked
//!   units). This forbids pawn captures in the zone when the missing-unit count rules them out.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt;

use shakmaty::{
    attacks, Bitboard, Board, ByColor, CastlingSide, Color, File, Piece, Rank, Role, Square,
};

use super::format::{Cage, INITIAL};
use super::store::CageStore;
use retrace_legal::geometry::{flood, home_role, steps};
use retrace_legal::pawn::PawnCost;

/// Why a verification did not prove its cage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// A node needed expanding at the depth limit (the limit, in retractions).
    DepthLimit(u32),
    /// The node budget ran out (the budget).
    NodeLimit(u64),
    /// Every tracked unit left the zone.
    BoardEmpty,
    /// Every remaining unit stands on its square of the initial array.
    AllHome,
    /// The claim is malformed (the message of its [`super::CageError`]).
    Invalid(String),
    /// The caller's cancel flag was set.
    Cancelled,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::DepthLimit(d) => write!(f, "the depth limit of {d} retractions was reached"),
            Failure::NodeLimit(n) => write!(f, "the search gave up after {n} nodes"),
            Failure::BoardEmpty => f.write_str("every unit can leave the zone"),
            Failure::AllHome => {
                f.write_str("every remaining unit can be back on its square of the initial array")
            }
            Failure::Invalid(why) => write!(f, "the claim is malformed: {why}"),
            Failure::Cancelled => f.write_str("the verification was cancelled"),
        }
    }
}

/// The result of [`verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Nodes expanded.
    pub nodes: u64,
    /// `Ok` when the cage is proven, else why not.
    pub outcome: Result<(), Escape>,
}

/// Why a verification did not prove its cage, and where it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// Why.
    pub failure: Failure,
    /// The retraction line (first retraction first) that reached the failure. Retro notation;
    /// both sides retract freely, so colours need not alternate; `x?` marks an uncapture whose
    /// victim is left untracked, and a unit retracted out of the zone is dropped.
    pub line: Vec<String>,
}

impl Verification {
    /// A proof in `nodes` nodes.
    #[must_use]
    pub fn proven(nodes: u64) -> Verification {
        Verification {
            nodes,
            outcome: Ok(()),
        }
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

/// Settings of [`verify_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VerifyOptions {
    /// Nodes expanded before giving up ([`Failure::NodeLimit`]); at most four times as many are
    /// kept waiting, which bounds the memory a verification takes.
    pub max_nodes: u64,
    /// Hwa's algorithm alone: only unblockable checks, no capture counting. For comparison only;
    /// Retrace's default rules prove strictly more and are just as sound.
    pub hwa_only: bool,
    /// The capture charges of the node rules: originals proven captured at home
    /// (`dead_at_home`) and promoted bishops' promotions. On by default; off only to measure
    /// what they cost and prove.
    pub capture_charges: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            max_nodes: 200_000,
            hwa_only: false,
            capture_charges: true,
        }
    }
}

/// Verifies `cage` with the default options, using the verified cages of `store` (and what
/// earlier verifications through `store` proved).
#[must_use]
pub fn verify(cage: &Cage, store: &CageStore) -> Verification {
    verify_with(cage, store, &VerifyOptions::default())
}

/// Verifies `cage` (see the module documentation for the algorithm).
#[must_use]
pub fn verify_with(cage: &Cage, store: &CageStore, options: &VerifyOptions) -> Verification {
    verify_cancellable(cage, store, options, None)
}

/// [`verify_with`] that stops with [`Failure::Cancelled`] soon after `cancel` is set (it is looked
/// at every [`CANCEL_POLL`] nodes).
#[must_use]
pub fn verify_cancellable(
    cage: &Cage,
    store: &CageStore,
    options: &VerifyOptions,
    cancel: Option<&AtomicBool>,
) -> Verification {
    verify_deepest(cage, store, options, cancel).0
}

/// [`verify_cancellable`], with the most retractions on a line the search expanded (`None` when
/// the result came from the store's cache): a proof shows that every line of retractions from
/// the claim dies, repeats a node or meets a known cage within that many.
pub(crate) fn verify_deepest(
    cage: &Cage,
    store: &CageStore,
    options: &VerifyOptions,
    cancel: Option<&AtomicBool>,
) -> (Verification, Option<u32>) {
    if let Err(e) = cage.validate() {
        let invalid = Verification {
            nodes: 0,
            outcome: Err(Escape {
                failure: Failure::Invalid(e.to_string()),
                line: Vec::new(),
            }),
        };
        return (invalid, Some(0));
    }
    let key = (cage.to_string(), *options);
    if let Some(v) = store.cached_result(&key) {
        return (v, None);
    }
    let mut search = Search::new(cage, store, options);
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
    let verification = match result {
        Ok(()) => {
            if !options.hwa_only {
                if let Some(root) = &root {
                    store.learn(root);
                }
                store.learn_all(&search.tt);
                store.remember_proven(search.tt);
            }
            Verification::proven(search.nodes)
        }
        Err(failure) => Verification {
            nodes: search.nodes,
            outcome: Err(Escape {
                failure,
                line: search.path.iter().map(ToString::to_string).collect(),
            }),
        },
    };
    if verification.failure() != Some(&Failure::Cancelled) {
        store.cache_result(key, &verification);
    }
    (verification, Some(search.deepest))
}

/// The search of [`verify_with`] without reductions or pen cores, within `max_nodes`: it closes
/// nodes by its rules, its own expanded nodes and what `store` knows alone, which shows what the
/// store's learning does.
#[cfg(test)]
pub(crate) fn verify_flat(cage: &Cage, store: &CageStore, max_nodes: u64) -> Result<(), Failure> {
    let options = VerifyOptions {
        max_nodes,
        ..VerifyOptions::default()
    };
    let mut search = Search::new(cage, store, &options);
    search.nesting = MAX_NESTING;
    match search.gen.root(cage) {
        None => Ok(()),
        Some(root) => search.explore(root, false),
    }
}

/// The tracked part of a search node (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    pub(crate) board: Board,
    pub(crate) frozen: Bitboard,
    pub(crate) pending: Option<Square>,
}

/// A node with its capture allowances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) node: Node,
    pub(crate) rem: ByColor<u8>,
}

/// Whether allowance `a` is at least `b` for both sides.
pub(crate) fn covers(a: &ByColor<u8>, b: &ByColor<u8>) -> bool {
    a.white >= b.white && a.black >= b.black
}

/// What kind of retraction a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No uncapture.
    Plain,
    /// An uncapture; the victim is left untracked.
    Uncapture,
    /// An en passant uncapture; the victim pawn is left untracked.
    EnPassant,
    /// An uncastling.
    Castle(CastlingSide),
}

/// One retraction of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) color: Color,
    /// The role the unit had before the move (a pawn for a promotion).
    pub(crate) role: Role,
    pub(crate) from: Square,
    pub(crate) to: Square,
    /// The role after a promotion.
    pub(crate) promotion: Option<Role>,
    pub(crate) kind: Kind,
    /// Whether the retracted unit left the zone (and was dropped).
    pub(crate) leaves: bool,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Castle(CastlingSide::KingSide) => return f.write_str("0-0"),
            Kind::Castle(CastlingSide::QueenSide) => return f.write_str("0-0-0"),
            Kind::EnPassant => return write!(f, "{}x{}ep", self.from, self.to),
            _ => {}
        }
        if self.role != Role::Pawn {
            write!(f, "{}", self.role.upper_char())?;
        }
        let sep = if self.kind == Kind::Uncapture {
            "x?"
        } else {
            "-"
        };
        write!(f, "{}{sep}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "={}", p.upper_char())?;
        }
        Ok(())
    }
}

/// Why a candidate retraction was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reject {
    /// The opponent's king would be attacked before the move: an uncapture may shield it.
    Opponent,
    /// Anything else (an uncapture cannot help).
    Other,
}

/// One pawn step forward for `color`, as a square offset.
const fn forward(color: Color) -> i32 {
    match color {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// The square of `color`'s king among the tracked units.
fn king_of(board: &Board, color: Color) -> Option<Square> {
    (board.kings() & board.by_color(color)).first()
}

/// Units of `attacker` that certainly attack `target`: sliders only along lines whose squares are
/// all in `known_empty` (so contact checks, knights, pawns and kings always count).
fn certain_attackers(
    board: &Board,
    target: Square,
    attacker: Color,
    known_empty: Bitboard,
) -> Bitboard {
    board.attacks_to(target, attacker, !known_empty)
}

/// Unblockable attacks on `target` by `attacker`'s units.
fn unblockable(board: &Board, target: Square, attacker: Color) -> Bitboard {
    board.attacks_to(target, attacker, Bitboard::FULL)
}

/// Whether every unit stands on its square of the initial array.
pub(crate) fn all_home(board: &Board) -> bool {
    Color::ALL.into_iter().all(|color| {
        Role::ALL.into_iter().all(|role| {
            let piece = role.of(color);
            board.by_piece(piece).is_subset(INITIAL.by_piece(piece))
        })
    })
}

/// The squares a tracked unit of `node` stood on throughout every realization: pawns on their
/// start squares (a pawn never returns to its second rank, so it never moved), the frozen units,
/// and, to a fixpoint, each unit on a home square of its own role whose every adjacent square on
/// its lines is such a square (it cannot have arrived there, so it stood there from the start).
pub(crate) fn node_statics(node: &Node) -> Bitboard {
    let board = &node.board;
    let mut fixed = node.frozen
        | (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Second))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Seventh));
    loop {
        let grown = (board.occupied() & !fixed)
            .into_iter()
            .filter(|&sq| {
                board.piece_at(sq).is_some_and(|p| {
                    home_role(p.color, sq) == Some(p.role) && steps(p.role, sq).is_subset(fixed)
                })
            })
            .fold(fixed, Bitboard::with);
        if grown == fixed {
            return fixed;
        }
        fixed = grown;
    }
}

/// A tracked king of `node` that cannot have walked from its home square to where it stands:
/// its square lies outside the flood of king steps from its home through the squares that are
/// not [`node_statics`].
///
/// Proof. In a realization `H` of the node every static square held the same unit throughout
/// (see [`node_statics`]), so the king, which started on its home square, never stood on one, and
/// it moved by king steps (castling passes the square between, which must be empty, so it is a
/// pair of king steps too). Its square is therefore in the flood. This is the wall in time of a
/// pawn step seen from the retraction side: once a pawn's single step is taken back, the pawn
/// stands on its start square again, and a king found beyond it was shut out before that step
/// (the black king on a8 of `knb2b2/rpPpppp1/p1p5/...` with `c7-c6` taken back).
#[cfg(test)]
pub(crate) fn walled_out_king(node: &Node) -> Option<Square> {
    walled_out_king_with(node, node_statics(node))
}

/// [`walled_out_king`] with the node's [`node_statics`] already computed.
fn walled_out_king_with(node: &Node, statics: Bitboard) -> Option<Square> {
    let board = &node.board;
    Color::ALL.into_iter().find_map(|color| {
        let k = king_of(board, color)?;
        let home = Square::from_coords(File::E, color.backrank());
        (!flood(Role::King, Bitboard::from_square(home), !statics).contains(k)).then_some(k)
    })
}

/// The originals of one side that a node proves captured on their home squares (see
/// [`dead_at_home`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DeadAtHome {
    /// Their home squares.
    pub(crate) squares: Bitboard,
    /// Those of `squares` that no pawn can ever have captured on (both squares a capturing pawn
    /// comes from are static, or off the board).
    pub(crate) beyond_pawns: Bitboard,
}

impl DeadAtHome {
    /// How many originals.
    pub(crate) fn count(&self) -> usize {
        self.squares.count()
    }
}

/// The originals of `color` (not kings, not pawns) that every realization of the node with
/// tracked units `board` and static squares `statics` ([`node_statics`]) captured on their home
/// squares: the home square holds a tracked unit other than the original, and every square one
/// step away on the original's lines is static.
///
/// Proof. In a realization `H` each static square held one unit throughout, never captured, so
/// the original, which stands on its home square in the initial array and can only leave it by a
/// step onto one of those squares (a move or a capture), never left it. After `H` another unit
/// stands there, so the original was captured there during `H`, by the other side. That capture
/// is on `color`'s back rank, where no pawn of the other side that is still a pawn ever stood:
/// it is none of the captures [`PawnCost`] counts for the other side's pawns on the board, and
/// the captures of distinct originals are distinct moves, so each adds one to that side's
/// captures in `H`. A capture on the home square by a pawn is a promotion, and may be the extra
/// capture a promoted bishop is charged; where both squares a pawn would capture from are
/// static (or off the board) no pawn ever stood there, so the capture adds to that charge too
/// (the `beyond_pawns` squares). The black bishop of `2b5/1p1p4/...` missing from c8 with a
/// white rook there was captured there, and White made that capture.
pub(crate) fn dead_at_home(board: &Board, statics: Bitboard, color: Color) -> DeadAtHome {
    let mut dead = DeadAtHome::default();
    for home in foreign_homes(board, color) {
        let Some(role) = home_role(color, home).filter(|&r| r != Role::King) else {
            continue;
        };
        if !steps(role, home).is_subset(statics) {
            continue;
        }
        dead.squares.add(home);
        if attacks::pawn_attacks(color, home).is_subset(statics) {
            dead.beyond_pawns.add(home);
        }
    }
    dead
}

/// A side, its pawns, and its promoted bishops on light and dark squares.
type PawnKey = (Color, Bitboard, u32, u32);

/// The home squares of `color`'s pieces (its back rank) on which `board` has a unit other than
/// the one the initial array has there: the only squares [`dead_at_home`] can find.
fn foreign_homes(board: &Board, color: Color) -> Bitboard {
    let same = Role::ALL.into_iter().fold(Bitboard::EMPTY, |acc, role| {
        let piece = role.of(color);
        acc | (board.by_piece(piece) & INITIAL.by_piece(piece))
    });
    board.occupied() & Bitboard::from_rank(color.backrank()) & !same
}

/// The retraction generator and the node rules.
pub(crate) struct Generator {
    pub(crate) zone: Bitboard,
    pub(crate) hwa_only: bool,
    /// Whether the capture charges apply (see [`VerifyOptions::capture_charges`]).
    charges: bool,
    /// Minimum captures of a side's pawns (`None`: impossible structure), by side, pawns and
    /// promoted bishops on light and dark squares: the pawns' alone, and with those bishops'
    /// promotions (see [`PawnCost::min_captures`]).
    pawns: HashMap<PawnKey, Option<(u32, u32)>>,
    /// King steps from each square to the nearest square outside the zone (at most 8).
    exit: [u8; 64],
}

impl Generator {
    pub(crate) fn new(zone: Bitboard, hwa_only: bool, charges: bool) -> Generator {
        let mut exit = [8u8; 64];
        let mut reached = !zone;
        let mut frontier = reached;
        let mut d = 0;
        while frontier.any() && d < 8 {
            for sq in frontier {
                exit[usize::from(sq)] = d;
            }
            let next = frontier
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq))
                & !reached;
            reached |= next;
            frontier = next;
            d += 1;
        }
        Generator {
            zone,
            hwa_only,
            charges: charges && !hwa_only,
            pawns: HashMap::default(),
            exit,
        }
    }

    /// A guess of how far `board` is from an escape: for each unit not on its home square, one
    /// plus the king steps to leave the zone (for a pawn, at most the steps back to its home rank).
    pub(crate) fn distance(&self, board: &Board) -> u32 {
        let mut total = 0;
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            if INITIAL.piece_at(sq) == Some(piece) {
                continue;
            }
            let mut d = u32::from(self.exit[usize::from(sq)]);
            if piece.role == Role::Pawn {
                d = d.min(piece.color.relative_rank(sq.rank()) as u32 - 1);
            }
            total += 1 + d;
        }
        total
    }

    /// The root node of `cage`, or `None` if the cage is illegal outright (then it is proven).
    pub(crate) fn root(&mut self, cage: &Cage) -> Option<State> {
        let board = cage.board.clone();
        let mut pending = None;
        let mut checked = 0;
        for color in Color::ALL {
            if let Some(k) = king_of(&board, color) {
                let checkers = unblockable(&board, k, color.other());
                match checkers.count() {
                    0 => {}
                    1 => {
                        // The side in check did not make the last move; the checker did.
                        pending = checkers.first();
                        checked += 1;
                    }
                    _ => return None,
                }
            }
        }
        if checked > 1 {
            return None;
        }
        let rem = ByColor::new_with(|c| cage.captures.get(c).unwrap_or(16).min(16));
        let mut state = State {
            node: Node {
                board,
                frozen: cage.frozen,
                pending,
            },
            rem,
        };
        self.finish(&mut state).then_some(state)
    }

    /// Normalises the allowances of `state` and applies the node rules: false if it is illegal.
    pub(crate) fn finish(&mut self, state: &mut State) -> bool {
        let board = &state.node.board;
        for color in Color::ALL {
            let rem = state.rem.get_mut(color);
            if self.hwa_only {
                *rem = 16;
            } else {
                let theirs = board.by_color(color.other()).count() as u8;
                *rem = (*rem).min(16u8.saturating_sub(theirs));
            }
        }
        !self.illegal(state)
    }

    /// Node rules that no realization can break.
    fn illegal(&mut self, state: &State) -> bool {
        let board = &state.node.board;
        // Computed when a rule needs them.
        let mut statics = None;
        for color in Color::ALL {
            let units = board.by_color(color);
            let pawns = board.by_piece(color.pawn());
            if units.count() > 16 || pawns.count() > 8 {
                return true;
            }
            let excess = |bb: Bitboard, n: usize| bb.count().saturating_sub(n);
            let mine = |role: Role| board.by_piece(Piece { color, role });
            let bishops = mine(Role::Bishop);
            let promoted = excess(mine(Role::Queen), 1)
                + excess(mine(Role::Rook), 2)
                + excess(mine(Role::Knight), 2)
                + excess(bishops & Bitboard::LIGHT_SQUARES, 1)
                + excess(bishops & Bitboard::DARK_SQUARES, 1);
            if pawns.count() + promoted > 8 {
                return true;
            }
            let light = excess(bishops & Bitboard::LIGHT_SQUARES, 1) as u32;
            let dark = excess(bishops & Bitboard::DARK_SQUARES, 1) as u32;
            let cost = *self
                .pawns
                .entry((color, pawns, light, dark))
                .or_insert_with(|| {
                    let table = PawnCost::compute(color, pawns);
                    table
                        .min_captures(0, 0)
                        .zip(table.min_captures(light, dark))
                });
            match cost {
                None => return true,
                Some((bare, promoted)) => {
                    if !self.hwa_only {
                        let rem = u32::from(*state.rem.get(color));
                        // Each home square of the other side holding another unit can add one:
                        // look for them only when they can matter.
                        let homes = foreign_homes(board, color.other());
                        let need = if self.charges
                            && bare.max(promoted) + homes.count() as u32 > rem
                        {
                            let statics = *statics.get_or_insert_with(|| node_statics(&state.node));
                            let dead = dead_at_home(board, statics, color.other());
                            (bare + dead.count() as u32)
                                .max(promoted + dead.beyond_pawns.count() as u32)
                        } else if self.charges {
                            promoted
                        } else {
                            bare
                        };
                        if need > rem {
                            return true;
                        }
                    }
                }
            }
        }
        if let (Some(w), Some(b)) = (king_of(board, Color::White), king_of(board, Color::Black)) {
            if attacks::king_attacks(w).contains(b) {
                return true;
            }
        }
        if self.hwa_only {
            return false;
        }
        let statics = statics.unwrap_or_else(|| node_statics(&state.node));
        walled_out_king_with(&state.node, statics).is_some()
    }

    /// Known-empty squares as the rules see them (none for Hwa's algorithm).
    fn known(&self, squares: Bitboard) -> Bitboard {
        if self.hwa_only {
            Bitboard::EMPTY
        } else {
            squares
        }
    }

    /// Every retraction of `state` with its child, in no particular order.
    pub(crate) fn children(&mut self, state: &State, out: &mut Vec<(Step, State)>) {
        out.clear();
        let board = state.node.board.clone();
        for color in Color::ALL {
            if let Some(p) = state.node.pending {
                if board.color_at(p) != Some(color) {
                    continue;
                }
            }
            // Right after any move of `color`, its king stood where it stands now, with the same
            // tracked units around: an unblockable check now rules out every retraction of it.
            if let Some(k) = king_of(&board, color) {
                if unblockable(&board, k, color.other()).any() {
                    continue;
                }
            }
            let movable = board.by_color(color)
                & !state.node.frozen
                & state
                    .node
                    .pending
                    .map_or(Bitboard::FULL, Bitboard::from_square);
            for to in movable {
                let Some(piece) = board.piece_at(to) else {
                    continue;
                };
                if piece.role == Role::Pawn {
                    self.pawn(state, color, to, out);
                } else {
                    self.piece(state, piece, to, out);
                }
            }
            self.uncastle(state, color, out);
        }
    }

    /// The retractions of the piece (not a pawn) `piece` on `to`: its moves back along its lines,
    /// each plain or an uncapture, and on the last rank the promotion that made it.
    fn piece(&mut self, state: &State, piece: Piece, to: Square, out: &mut Vec<(Step, State)>) {
        let occupied = state.node.board.occupied();
        let color = piece.color;
        for from in attacks::attacks(to, piece, occupied) & !occupied {
            let step = Step {
                color,
                role: piece.role,
                from,
                to,
                promotion: None,
                kind: Kind::Plain,
                leaves: false,
            };
            self.plain_or_uncapture(state, step, attacks::between(from, to), out);
        }
        if piece.role != Role::King && color.relative_rank(to.rank()) == Rank::Eighth {
            let step = Step {
                color,
                role: Role::Pawn,
                from: to,
                to,
                promotion: Some(piece.role),
                kind: Kind::Plain,
                leaves: false,
            };
            if let Some(from) = to.offset(-forward(color)) {
                if !occupied.contains(from) {
                    self.plain(state, Step { from, ..step }, Bitboard::EMPTY, out);
                }
            }
            for from in attacks::pawn_attacks(color.other(), to) & !occupied {
                self.uncapture(state, Step { from, ..step }, Bitboard::EMPTY, out);
            }
        }
    }

    fn pawn(&mut self, state: &State, color: Color, to: Square, out: &mut Vec<(Step, State)>) {
        let occupied = state.node.board.occupied();
        let rank = color.relative_rank(to.rank());
        if rank <= Rank::Second {
            return;
        }
        let step = Step {
            color,
            role: Role::Pawn,
            from: to,
            to,
            promotion: None,
            kind: Kind::Plain,
            leaves: false,
        };
        let back = -forward(color);
        if let Some(one) = to.offset(back).filter(|sq| !occupied.contains(*sq)) {
            self.plain(state, Step { from: one, ..step }, Bitboard::EMPTY, out);
            if rank == Rank::Fourth {
                if let Some(two) = one.offset(back).filter(|sq| !occupied.contains(*sq)) {
                    self.plain(
                        state,
                        Step { from: two, ..step },
                        Bitboard::from_square(one),
                        out,
                    );
                }
            }
        }
        let diagonal = attacks::pawn_attacks(color.other(), to) & !occupied;
        for from in diagonal {
            self.uncapture(state, Step { from, ..step }, Bitboard::EMPTY, out);
        }
        if rank == Rank::Sixth {
            let Some(start) = to.offset(forward(color)) else {
                return;
            };
            for from in diagonal {
                let victim = Square::from_coords(to.file(), from.rank());
                if occupied.contains(victim) || occupied.contains(start) {
                    continue;
                }
                let step = Step {
                    from,
                    kind: Kind::EnPassant,
                    ..step
                };
                let mv = Move {
                    captures: 1,
                    ..Move::single(
                        step,
                        Bitboard::from_square(to).with(start),
                        Bitboard::from_square(from).with(victim),
                    )
                };
                if let Ok(child) = self.edge(state, &mv) {
                    out.push(child);
                }
            }
        }
    }

    /// A retraction that may or may not be an uncapture: the plain one if it is possible (its
    /// child has the larger allowance and so covers the other), else the uncapture if that is.
    fn plain_or_uncapture(
        &mut self,
        state: &State,
        step: Step,
        path: Bitboard,
        out: &mut Vec<(Step, State)>,
    ) {
        let mv = Move::single(step, path.with(step.to), path.with(step.from));
        match self.edge(state, &mv) {
            Ok(child) => out.push(child),
            Err(Reject::Opponent) => self.uncapture(state, step, path, out),
            Err(Reject::Other) => {}
        }
    }

    fn plain(&mut self, state: &State, step: Step, path: Bitboard, out: &mut Vec<(Step, State)>) {
        let mv = Move::single(step, path.with(step.to), path.with(step.from));
        if let Ok(child) = self.edge(state, &mv) {
            out.push(child);
        }
    }

    fn uncapture(
        &mut self,
        state: &State,
        step: Step,
        path: Bitboard,
        out: &mut Vec<(Step, State)>,
    ) {
        let step = Step {
            kind: Kind::Uncapture,
            ..step
        };
        let mv = Move {
            captures: 1,
            ..Move::single(step, path, path.with(step.from))
        };
        if let Ok(child) = self.edge(state, &mv) {
            out.push(child);
        }
    }

    /// The uncastlings of `color` (see [`Generator::uncastle_on`]).
    fn uncastle(&mut self, state: &State, color: Color, out: &mut Vec<(Step, State)>) {
        for side in CastlingSide::ALL {
            self.uncastle_on(state, color, side, out);
        }
    }

    // Long by design: the rules of uncastling in the order its doc lists them, each on the
    // squares the one before computed; the castled units are their own step.
    /// The uncastling of `color` on `side`, if its king and rook can have castled into the node:
    /// each tracked on its square after castling (and not frozen) or untracked, at least one of
    /// them tracked, the pending unit among them, the squares between free, and the king neither
    /// in check nor passing an attacked square before castling.
    fn uncastle_on(
        &mut self,
        state: &State,
        color: Color,
        side: CastlingSide,
        out: &mut Vec<(Step, State)>,
    ) {
        let board = &state.node.board;
        let rank = color.backrank();
        let king_from = Square::from_coords(File::E, rank);
        let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
        let rook_file = if side == CastlingSide::KingSide {
            File::H
        } else {
            File::A
        };
        let rook_from = Square::from_coords(rook_file, rank);
        let Some((king, rook)) = castled_units(state, color, side) else {
            return;
        };
        let between = attacks::between(king_from, rook_from);
        let moved = (if king {
            Bitboard::from_square(king_to)
        } else {
            Bitboard::EMPTY
        }) | (if rook {
            Bitboard::from_square(rook_to)
        } else {
            Bitboard::EMPTY
        });
        if ((board.occupied() & !moved) & between.with(king_from).with(rook_from)).any() {
            return;
        }
        let mut relocations = Vec::with_capacity(2);
        if king {
            relocations.push((king_to, king_from, color.king()));
        }
        if rook {
            relocations.push((rook_to, rook_from, color.rook()));
        }
        // Before castling: the king is not in check and does not pass an attacked square.
        let mut before = board.clone();
        for &(now, _, _) in &relocations {
            before.discard_piece_at(now);
        }
        for &(_, then, piece) in &relocations {
            before.set_piece_at(then, piece);
        }
        let known_empty = self.known(between);
        let passed = attacks::between(king_from, king_to).with(king_from);
        if passed
            .into_iter()
            .any(|sq| certain_attackers(&before, sq, color.other(), known_empty).any())
        {
            return;
        }
        let empty_after =
            (between | Bitboard::from_square(king_from) | Bitboard::from_square(rook_from))
                & !Bitboard::from_square(king_to)
                & !Bitboard::from_square(rook_to);
        let step = Step {
            color,
            role: Role::King,
            from: king_from,
            to: king_to,
            promotion: None,
            kind: Kind::Castle(side),
            leaves: false,
        };
        let mv = Move {
            relocations: &relocations,
            kings: Some((king_from, king_to)),
            ..Move::single(step, between, empty_after)
        };
        if let Ok(child) = self.edge(state, &mv) {
            out.push(child);
        }
    }

    /// Applies the retraction `mv` and the rules on it (see [`Move`]): the child, or why there
    /// is none.
    fn edge(&mut self, state: &State, mv: &Move<'_>) -> Result<(Step, State), Reject> {
        let us = mv.step.color;
        let board = &state.node.board;
        let empty_before = self.known(mv.empty_before);
        let empty_after = self.known(mv.empty_after);
        let single = [mv.single_relocation()];
        let relocations = if mv.relocations.is_empty() {
            &single[..]
        } else {
            mv.relocations
        };
        // Just after the move, the mover's king is not attacked.
        let king_after = mv
            .kings
            .map(|(_, after)| after)
            .or_else(|| king_of(board, us));
        if king_after.is_some_and(|k| certain_attackers(board, k, us.other(), empty_after).any()) {
            return Err(Reject::Other);
        }
        let mut child = board.clone();
        for &(now, _, _) in relocations {
            child.discard_piece_at(now);
        }
        for &(_, then, piece) in relocations {
            child.set_piece_at(then, piece);
        }
        // Just before the move, the mover was to move: the opponent's king is not attacked.
        if king_of(&child, us.other())
            .is_some_and(|k| certain_attackers(&child, k, us, empty_before).any())
        {
            return Err(Reject::Opponent);
        }
        let pending = if mv.kings.is_none() {
            pending_checker(&child, us)?
        } else {
            None
        };
        let (frozen, leaves) = self.drop_or_freeze(&mut child, state.node.frozen, relocations, mv);
        let rem = self.spend(state.rem, us, mv.captures)?;
        let mut next = State {
            node: Node {
                board: child,
                frozen,
                pending,
            },
            rem,
        };
        if !self.finish(&mut next) {
            return Err(Reject::Other);
        }
        Ok((Step { leaves, ..mv.step }, next))
    }

    /// Drops from `child` the units the move brought back from outside the zone, and freezes
    /// the king and rook an uncastling put back: the new frozen set, and whether a unit left.
    fn drop_or_freeze(
        &self,
        child: &mut Board,
        mut frozen: Bitboard,
        relocations: &[(Square, Square, Piece)],
        mv: &Move<'_>,
    ) -> (Bitboard, bool) {
        let mut leaves = false;
        for &(_, then, piece) in relocations {
            if !self.zone.contains(then) {
                child.discard_piece_at(then);
                leaves = true;
            } else if mv.kings.is_some() && (piece.role == Role::King || piece.role == Role::Rook) {
                frozen.add(then);
            }
        }
        (frozen, leaves)
    }

    /// The allowance `rem` after `color` uses `captures` of it, unless it has fewer (Hwa's
    /// search counts no captures).
    fn spend(
        &self,
        mut rem: ByColor<u8>,
        color: Color,
        captures: u8,
    ) -> Result<ByColor<u8>, Reject> {
        if !self.hwa_only && captures > 0 {
            let r = rem.get_mut(color);
            *r = r.checked_sub(captures).ok_or(Reject::Other)?;
        }
        Ok(rem)
    }
}

/// Which of `color`'s king and rook castling on `side` put on their squares are tracked there
/// (the others are untracked: their squares empty, and for the king, no tracked king elsewhere),
/// or `None` when that castling cannot have led to the node: neither is tracked, a tracked one is
/// frozen, or the pending unit is not one of them.
fn castled_units(state: &State, color: Color, side: CastlingSide) -> Option<(bool, bool)> {
    let board = &state.node.board;
    let occupied = board.occupied();
    let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
    let king = board.piece_at(king_to) == Some(color.king());
    let rook = board.piece_at(rook_to) == Some(color.rook());
    let king_ok = if king {
        !state.node.frozen.contains(king_to)
    } else {
        !occupied.contains(king_to) && king_of(board, color).is_none()
    };
    let rook_ok = if rook {
        !state.node.frozen.contains(rook_to)
    } else {
        !occupied.contains(rook_to)
    };
    if !(king || rook) || !king_ok || !rook_ok {
        return None;
    }
    let pending_ok = state
        .node
        .pending
        .is_none_or(|p| (king && p == king_to) || (rook && p == rook_to));
    pending_ok.then_some((king, rook))
}

/// The unit that must make the next retraction of a child in which `color`'s king stands in an
/// unblockable check (see the module documentation): the mover's king may stand in check before
/// its move only if the opponent's last move gave it, and an unblockable check was given by the
/// checking unit itself. Two such checks at once are impossible.
fn pending_checker(child: &Board, color: Color) -> Result<Option<Square>, Reject> {
    let Some(k) = king_of(child, color) else {
        return Ok(None);
    };
    let checkers = unblockable(child, k, color.other());
    if checkers.more_than_one() {
        return Err(Reject::Other);
    }
    Ok(checkers.first())
}

/// One retraction as [`Generator::edge`] applies it.
#[derive(Clone, Copy)]
struct Move<'r> {
    /// The retraction.
    step: Step,
    /// (square now, square before, unit before) of each unit moved when there are two
    /// (uncastling); empty when the step's unit is the only one.
    relocations: &'r [(Square, Square, Piece)],
    /// Squares known empty just before the move (in forward time).
    empty_before: Bitboard,
    /// Squares known empty just after the move.
    empty_after: Bitboard,
    /// Captures of the mover's allowance the retraction uses (1 for an uncapture).
    captures: u8,
    /// For uncastling, the mover's king square before and after the move, known without the
    /// king being tracked.
    kings: Option<(Square, Square)>,
}

impl Move<'_> {
    /// A retraction that moves the step's unit alone and uncaptures nothing.
    fn single(step: Step, empty_before: Bitboard, empty_after: Bitboard) -> Move<'static> {
        Move {
            step,
            relocations: &[],
            empty_before,
            empty_after,
            captures: 0,
            kings: None,
        }
    }

    /// The step's own unit, moved from its square now back to its square before.
    fn single_relocation(&self) -> (Square, Square, Piece) {
        (
            self.step.to,
            self.step.from,
            Piece {
                color: self.step.color,
                role: self.step.role,
            },
        )
    }
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

/// How often (in nodes) a verification looks at its cancel flag.
pub const CANCEL_POLL: u64 = 1 << 10;

/// One verification in progress.
pub(crate) struct Search<'s> {
    /// Set from outside to stop the verification.
    cancel: Option<&'s AtomicBool>,
    pub(crate) gen: Generator,
    store: &'s CageStore,
    depth: u32,
    max_nodes: u64,
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
    pub(crate) fn new(cage: &Cage, store: &'s CageStore, options: &VerifyOptions) -> Search<'s> {
        Search {
            gen: Generator::new(
                cage.zone | cage.board.occupied(),
                options.hwa_only,
                options.capture_charges,
            ),
            store,
            depth: cage.depth,
            max_nodes: options.max_nodes,
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
            let empty = CageStore::new();
            let mut fresh = Search {
                cancel: None,
                gen: Generator::new(self.gen.zone, false, self.gen.charges),
                store: &empty,
                depth: self.depth,
                max_nodes: 20_000,
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
            store: self.store,
            depth: self.depth,
            max_nodes: budget,
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
            self.store.learn(&reduced);
            self.store.learn_all(&sub.tt);
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
            return self.store.proves(state, false);
        }
        self.store.proves(state, true) || self.store.proves_by_containment(state)
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
