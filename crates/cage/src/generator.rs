//! The node generator of the cage verifier: what a node of its search is, and the retractions
//! from a node that some extension of it allows ([`Generator`]). The search that proves a claim
//! with them is `search.rs`.
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

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

use shakmaty::{
    attacks, Bitboard, Board, ByColor, CastlingSide, Color, File, Piece, Rank, Role, Square,
};

use super::format::{Cage, INITIAL};
use retrace_legal::geometry::{flood, home_role, steps};
use retrace_legal::pawn::PawnCost;

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

/// The least captures of pawn structures (see [`Generator`]'s field), kept by whoever runs many
/// searches over few structures and lent to each search's generator ([`Generator::swap_pawn_costs`]).
pub(crate) type PawnCosts = HashMap<PawnKey, Option<(u32, u32)>>;

/// The most structures a [`PawnCosts`] lent from search to search keeps before it starts afresh.
pub(crate) const MAX_PAWN_COSTS: usize = 1 << 14;

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
    pub(crate) charges: bool,
    /// Minimum captures of a side's pawns (`None`: impossible structure), by side, pawns and
    /// promoted bishops on light and dark squares: the pawns' alone, and with those bishops'
    /// promotions (see [`PawnCost::min_captures`]).
    pawns: PawnCosts,
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

    /// Exchanges the generator's pawn costs with `costs`: lent before a search and taken back
    /// after it, a caller's costs serve many searches (they depend on the pawns alone).
    pub(crate) fn swap_pawn_costs(&mut self, costs: &mut PawnCosts) {
        if costs.len() >= MAX_PAWN_COSTS {
            costs.clear();
        }
        std::mem::swap(&mut self.pawns, costs);
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
