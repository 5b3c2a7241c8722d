//! Cages found without a claim: [`find_cage`] splits a position into clusters of units and tries
//! each small one as a cage, within a node budget.
//!
//! # Clusters
//! A cluster is a connected component of the occupied squares, two squares being connected when
//! they are a king's move apart. This is the grouping the verifier's default zone (the units and
//! every square a king's move from one) suggests: the zone of a cluster holds no unit of any other
//! cluster, so the cluster is exactly the set of units the verification of its zone would see.
//! Cages live in such knots of touching units (a walled-in unit touches its walls, a king shut in
//! touches its jailers); a cage that is only part of a larger cluster is tried as the whole
//! cluster, which is also a cage (every extension of the cluster extends the cage) but may take
//! more nodes to verify, or more units than the cap.
//!
//! # Soundness
//! Only a verified cluster is reported: [`super::verify_with`] proves that no game has a position
//! containing the cluster's units, so the position, which contains them, is illegal. A cluster
//! whose verification escapes, reaches the depth limit or runs out of nodes proves nothing and is
//! forgotten. The claim made for a cluster uses only facts of the position: its units that the
//! position marks as never moved (castling rights, user marks) stay frozen, and each side's
//! captures are bounded by the units the opponent is missing, which is exactly the number of
//! captures that side made.
//!
//! # Cost
//! [`AutoLimits`] caps the units of a cluster tried and the nodes spent on one cluster and on all
//! of them, so the attempt has a fixed worst case. It is meant for checking one position (the
//! command line, the REPL), never for the search's pruner, which analyses every node.

use retrace_unmove::RetroPosition;
use shakmaty::{attacks, Bitboard, Board, ByColor, Color, File, Rank, Role, Square};

use super::closure::{closure, CHECK_CLOSURE_NODES};
use super::format::{default_zone, Cage, DEFAULT_DEPTH, INITIAL};
use super::search::{verify_with, VerifyOptions};
use super::store::CageStore;
use retrace_legal::{
    geometry::bounded_flood,
    text::{color_name, squares_text},
    Analysis, Reason, ReasonCode,
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
    /// ([`super::VerifyOptions::capture_charges`]); off only to measure them.
    pub capture_charges: bool,
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
        }
    }
}

/// How many more units a peeled core may have than a cluster (see [`peel`]): a core is what is
/// left of a larger crowd, so it may be larger than the clusters worth trying whole.
const CORE_EXTRA_UNITS: usize = 8;

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
    /// Clusters whose verification was started.
    pub tried: usize,
    /// Nodes expanded by all verifications.
    pub nodes: u64,
}

/// The clusters of `board`: the connected components of its occupied squares under king moves,
/// smallest first (then by lowest square).
#[must_use]
pub fn clusters(board: &Board) -> Vec<Bitboard> {
    let mut left = board.occupied();
    let mut out = Vec::new();
    while let Some(start) = left.first() {
        let mut cluster = Bitboard::from_square(start);
        let mut frontier = cluster;
        while frontier.any() {
            let around = frontier
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king_attacks(sq));
            frontier = around & left & !cluster;
            cluster |= frontier;
        }
        left &= !cluster;
        out.push(cluster);
    }
    out.sort_by_key(|c| (c.count(), c.first()));
    out
}

/// The squares a unit of `piece` on `from` could retract to, over any number of its own
/// retractions, if every other unit of `board` stood still: a pawn goes back down its file or
/// diagonally (an uncapture) until its second rank, a king never onto a square an enemy unit of
/// `board` attacks, other units along their lines. A heuristic for [`peel`], not a proof.
pub(super) fn retreat(board: &Board, from: Square) -> Bitboard {
    let Some(piece) = board.piece_at(from) else {
        return Bitboard::EMPTY;
    };
    let occupied = board.occupied() & !Bitboard::from_square(from);
    // Before its move the unit's side was to move: it gave no check from there (the squares from
    // which it would attack the enemy king are those a unit of its kind on the king's square
    // attacks, with a pawn's direction reversed), and a king stood in no check.
    let enemy_king = (board.kings() & board.by_color(piece.color.other())).first();
    let checking = enemy_king.map_or(Bitboard::EMPTY, |k| {
        let mirror = if piece.role == Role::Pawn {
            piece.role.of(piece.color.other())
        } else {
            piece
        };
        attacks::attacks(k, mirror, occupied)
    });
    let attacked = if piece.role == Role::King {
        let mut without = board.clone();
        without.discard_piece_at(from);
        (!occupied)
            .into_iter()
            .filter(|&sq| without.attacks_to(sq, piece.color.other(), occupied).any())
            .collect()
    } else {
        Bitboard::EMPTY
    };
    let open = !occupied & !checking & !attacked;
    match piece.role {
        Role::Pawn => {
            let back = |b: Bitboard| match piece.color {
                Color::White => b.shift(-8),
                Color::Black => b.shift(8),
            };
            let above_home = !Bitboard::from_rank(piece.color.relative_rank(Rank::First));
            let mut seen = Bitboard::from_square(from);
            let mut frontier = seen;
            while frontier.any() {
                let straight = back(frontier);
                let b = u64::from(straight);
                let sideways = Bitboard(
                    (b & !u64::from(Bitboard::from_file(File::H))) << 1
                        | (b & !u64::from(Bitboard::from_file(File::A))) >> 1,
                );
                let next = (straight | sideways) & open & above_home & !seen;
                seen |= next;
                frontier = next;
            }
            seen
        }
        role => bounded_flood(role, Bitboard::from_square(from), open, 64).unwrap_or(open),
    }
}

/// What peeling a cluster leaves (see [`peel`]).
pub(super) enum Peeled {
    /// No unit could walk away: the cluster is its own core.
    Whole,
    /// Some units walked away; the rest, split into clusters again.
    Cores(Vec<Bitboard>),
    /// Every unit could walk away on its own, one after the other: no cage is to be expected.
    Dissolved,
}

/// Peels `cluster` of `board`: takes away every unit that could retract out of the cluster's
/// zone on its own (see [`retreat`]), again and again as the zone shrinks, and splits what stays
/// into clusters again. A cage hidden in a crowd is usually such a core: units that can walk away
/// are not what holds it, and the verification of the smaller claim is far cheaper (a smaller set
/// caged proves every larger one caged). A heuristic choice of claims, never a proof.
pub(super) fn peel(board: &Board, cluster: Bitboard) -> Peeled {
    let mut units = cluster;
    loop {
        let mut claim = Board::empty();
        for sq in units {
            if let Some(piece) = board.piece_at(sq) {
                claim.set_piece_at(sq, piece);
            }
        }
        let zone = default_zone(&claim);
        let leaving: Bitboard = units
            .into_iter()
            .filter(|&sq| (retreat(&claim, sq) & !zone).any())
            .collect();
        if leaving.is_empty() {
            break;
        }
        units &= !leaving;
    }
    if units == cluster {
        return Peeled::Whole;
    }
    if units.count() < 2 {
        return Peeled::Dissolved;
    }
    let mut rest = Board::empty();
    for sq in units {
        if let Some(piece) = board.piece_at(sq) {
            rest.set_piece_at(sq, piece);
        }
    }
    Peeled::Cores(clusters(&rest))
}

/// The claim for `cluster` of `pos`: its units, their frozen marks, and capture bounds from the
/// units each side is missing. `None` if the claim is malformed (a verifier would refuse it).
pub(super) fn claim(pos: &RetroPosition, cluster: Bitboard) -> Option<Cage> {
    let whole = pos.board();
    let mut board = Board::empty();
    for sq in cluster {
        board.set_piece_at(sq, whole.piece_at(sq)?);
    }
    // A frozen mark on a unit away from its home square makes the position illegal anyway; the
    // claim keeps only the marks a cage accepts.
    let frozen = (pos.frozen() & cluster)
        .into_iter()
        .filter(|&sq| INITIAL.piece_at(sq) == board.piece_at(sq))
        .collect();
    // Every capture removes one unit of the opponent, and nothing adds any: a side made exactly
    // as many captures as the opponent is missing units.
    let captures = ByColor::new_with(|c: Color| {
        let missing = 16usize.saturating_sub(whole.by_color(c.other()).count());
        u8::try_from(missing).ok().filter(|&n| n <= 15)
    });
    let cage = Cage {
        zone: default_zone(&board),
        board,
        frozen,
        depth: DEFAULT_DEPTH,
        captures,
    };
    cage.validate().ok().map(|()| cage)
}

/// Tries the clusters of `pos` (see the module documentation) as cages, smallest first, within
/// `limits`, closing branches on the cages of `store` too; stops at the first one verified.
///
/// Sound: a cage is reported only when verified, so `found` proves `pos` illegal. Incomplete by
/// design: clusters over the cap, cages that are a strict part of a cluster too large to verify
/// in the budget, and illegality that is not a cage are all missed.
#[must_use]
pub fn find_cage(pos: &RetroPosition, limits: &AutoLimits, store: &CageStore) -> CageSearch {
    let mut search = CageSearch {
        found: None,
        tried: 0,
        nodes: 0,
    };
    for cluster in clusters(pos.board()) {
        let units = cluster.count();
        // A lone unit always gets away (it steps out of its zone, or a pawn steps home).
        if units < 2 {
            continue;
        }
        // The peeled cores first: smaller, and far cheaper to verify when one is the cage. A
        // cluster that dissolves entirely is not tried.
        // A cluster from which nothing peels is its own core, and gets the larger cap of cores.
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
            let options = VerifyOptions {
                max_nodes: budget,
                hwa_only: false,
                capture_charges: limits.capture_charges,
            };
            let v = verify_with(&cage, store, &options);
            search.tried += 1;
            search.nodes += v.nodes;
            if v.verified() {
                debug_assert_no_escape(&cage);
                search.found = Some(FoundCage {
                    cage,
                    nodes: v.nodes,
                });
                return search;
            }
        }
    }
    search
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
                    Some(super::Failure::NodeLimit(_) | super::Failure::DepthLimit(_))
                ),
            "a cage proven with learnt facts escapes from scratch: {cage} ({:?})",
            fresh.failure()
        );
    }
}

/// The analysis for checking one position: [`crate::analyze_with_cages`] and, when that finds no
/// contradiction, [`find_cage`] with the default [`AutoLimits`], then a node learnt earlier in
/// the process ([`CageStore::learnt_reason`]), then the position's
/// [`closure`] within [`CHECK_CLOSURE_NODES`].
///
/// Slower than [`retrace_legal::analyze`] by up to the cage budgets, so meant for a position a user asks
/// about, not for every node of a search.
#[must_use]
pub fn analyze_thoroughly(pos: &RetroPosition, store: &CageStore) -> Analysis {
    let mut analysis = super::analyze_with_cages(pos, store);
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
