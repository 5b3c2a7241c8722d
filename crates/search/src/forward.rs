//! Proof games from both ends: positions reachable from the initial array in a few plies, built
//! forward with shakmaty, for the backward search to meet.
//!
//! The layers keep a 64-bit hash of each board with its side to move, nothing else, so they answer
//! one question soundly: "can this board stand here after exactly `n` plies?" A board that is not
//! in layer `n` is reached by no game of `n` plies (the layers hold every one). A board that is in
//! it may still be unreachable (a hash collision, or castling rights, an en passant square or
//! marks the layer does not hold), so "present" only means "not ruled out": the search goes on
//! retracting, and never ends a line on the layers' word.
//!
//! Built by the search that needs them, one ply at a time and only as deep as its own work pays
//! for (see `Search::forward_excludes`), and dropped with it. The work grows about fifteenfold a
//! ply: layer 3 costs some 400 positions expanded, layer 4 some 5,000, layer 5 some 70,000 (about
//! 900,000 boards, some 20 MB).

use std::{
    collections::HashSet,
    hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher},
    sync::atomic::{AtomicBool, Ordering},
};

use shakmaty::{Board, Chess, Color, EnPassantMode, Position};

/// Hashes a key that is already a hash: the set of a layer then spends nothing on hashing.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The keys of the boards of one layer.
type Layer = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Every board (with its side to move) reachable from the initial array in exactly `plies` plies,
/// for each `plies` up to the depth built so far.
pub(crate) struct ForwardLayers {
    layers: Vec<Layer>,
    /// The distinct positions of the deepest layer, to expand when the next one is asked for.
    frontier: Vec<Chess>,
}

/// How often (in positions expanded) the build looks at the cancel flag.
const POLL_INTERVAL: usize = 1 << 12;

/// The key of a board with its side to move (fixed-key SipHash: the same in every run).
fn key(board: &Board, turn: Color) -> u64 {
    let mut hasher = DefaultHasher::new();
    board.hash(&mut hasher);
    turn.hash(&mut hasher);
    hasher.finish()
}

impl ForwardLayers {
    /// Layer 0 alone: the initial array.
    pub(crate) fn new() -> ForwardLayers {
        let mut first = Layer::default();
        first.insert(key(&Board::new(), Color::White));
        ForwardLayers {
            layers: vec![first],
            frontier: vec![Chess::default()],
        }
    }

    /// The deepest layer built.
    pub(crate) fn depth(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// The positions the next layer expands: what building it costs.
    pub(crate) fn next_cost(&self) -> u64 {
        self.frontier.len() as u64
    }

    /// Builds the next layer; `keep_frontier` keeps its positions for the one after (else it can
    /// be the last). False, with nothing built, if `cancel` is set on the way. `progress` hears,
    /// now and then, how many positions the build has expanded.
    pub(crate) fn extend(
        &mut self,
        keep_frontier: bool,
        cancel: Option<&AtomicBool>,
        progress: &mut dyn FnMut(u64),
    ) -> bool {
        let mut layer =
            Layer::with_capacity_and_hasher(self.frontier.len() * 16, Default::default());
        // Positions (not boards) are expanded, so that castling rights and en passant captures are
        // played exactly; each distinct position once. The last layer needs only its boards' keys.
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (i, pos) in self.frontier.iter().enumerate() {
            if i % POLL_INTERVAL == 0 {
                // Reported first, so that a cancel from the report stops the build at once.
                progress(i as u64);
                if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return false;
                }
            }
            for m in &pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                layer.insert(key(child.board(), child.turn()));
                if keep_frontier
                    && seen.insert((
                        child.board().clone(),
                        child.turn(),
                        child.castles().castling_rights(),
                        child.ep_square(EnPassantMode::Legal),
                    ))
                {
                    next.push(child);
                }
            }
        }
        self.layers.push(layer);
        self.frontier = next;
        true
    }

    /// Whether some game may reach `board` with `turn` to move in exactly `plies` plies: `false`
    /// only when none does; `None` when the layers do not go that deep.
    pub(crate) fn may_reach(&self, board: &Board, turn: Color, plies: u32) -> Option<bool> {
        let layer = self.layers.get(plies as usize)?;
        Some(layer.contains(&key(board, turn)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built one ply at a time, the layers hold the known counts of distinct positions after 1 to
    /// 3 plies (20, 400, 5,362, where no two differ only in castling rights or en passant), and
    /// the positions kept after 4 plies are the known 72,078, whose distinct boards the fourth
    /// layer holds; a board is in the layer of each ply some game reaches it in, and in no other.
    #[test]
    fn the_layers_hold_every_board_of_each_ply() {
        let mut layers = ForwardLayers::new();
        let mut ignore = |_| {};
        for _ in 1..=4 {
            assert!(layers.extend(true, None, &mut ignore));
        }
        assert_eq!(layers.frontier.len(), 72_078);
        let boards: HashSet<u64> = layers
            .frontier
            .iter()
            .map(|p| key(p.board(), p.turn()))
            .collect();
        let sizes: Vec<usize> = layers.layers.iter().map(HashSet::len).collect();
        assert_eq!(sizes, [1, 20, 400, 5_362, boards.len()]);
        let mut after_e4 = Chess::default();
        let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4")
            .expect("UCI")
            .to_move(&after_e4)
            .expect("legal");
        after_e4.play_unchecked(e4);
        let board = after_e4.board();
        assert_eq!(layers.may_reach(board, Color::Black, 1), Some(true));
        // Black has moved once after three plies, and no move of Black's comes back in one.
        assert_eq!(layers.may_reach(board, Color::Black, 3), Some(false));
        assert_eq!(layers.may_reach(board, Color::White, 2), Some(false));
        assert_eq!(layers.may_reach(board, Color::Black, 5), None);
        // The knights go out and back (1.Nf3 Nf6 2.Ng1 Ng8): the initial array after four plies.
        assert_eq!(layers.may_reach(&Board::new(), Color::White, 4), Some(true));
        assert_eq!(
            layers.may_reach(&Board::new(), Color::White, 2),
            Some(false)
        );
    }

    /// A cancel stops the build and leaves the layers as they were.
    #[test]
    fn a_cancelled_build_builds_nothing() {
        let mut layers = ForwardLayers::new();
        let cancel = AtomicBool::new(true);
        assert!(!layers.extend(true, Some(&cancel), &mut |_| {}));
        assert_eq!(layers.depth(), 0);
    }
}
