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
//! Built by the search that needs them, and dropped with it. Depth 5 holds about 900,000 boards
//! (some 20 MB) and takes a second or two to build.

use std::{
    collections::HashSet,
    hash::{DefaultHasher, Hash, Hasher},
    sync::atomic::{AtomicBool, Ordering},
};

use shakmaty::{Board, Chess, Color, EnPassantMode, Position};

/// Every board (with its side to move) reachable from the initial array in exactly `plies` plies,
/// for each `plies` up to a depth.
pub(crate) struct ForwardLayers {
    layers: Vec<HashSet<u64>>,
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
    /// Boards reachable in 0 to `depth` plies (the work grows about thirtyfold a ply), or `None`
    /// if `cancel` is set on the way.
    pub(crate) fn build(
        depth: u32,
        cancel: Option<&AtomicBool>,
        progress: &mut dyn FnMut(u64),
    ) -> Option<ForwardLayers> {
        let mut expanded = 0u64;
        let mut layers = vec![HashSet::from([key(&Board::new(), Color::White)])];
        let mut frontier = vec![Chess::default()];
        for ply in 1..=depth {
            let last = ply == depth;
            let mut layer = HashSet::with_capacity(frontier.len() * 8);
            // Positions (not boards) are expanded, so that castling rights and en passant
            // captures are played exactly; each distinct position once. The last layer needs
            // only its boards' keys.
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for (i, pos) in frontier.iter().enumerate() {
                if i % POLL_INTERVAL == 0 {
                    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                        return None;
                    }
                    progress(expanded + i as u64);
                }
                for m in &pos.legal_moves() {
                    let mut child = pos.clone();
                    child.play_unchecked(*m);
                    layer.insert(key(child.board(), child.turn()));
                    if !last
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
            layers.push(layer);
            expanded += frontier.len() as u64;
            frontier = next;
        }
        Some(ForwardLayers { layers })
    }

    /// Whether some game may reach `board` with `turn` to move in exactly `plies` plies: `false`
    /// only when none does; `None` when the layers do not go that deep.
    pub(crate) fn may_reach(&self, board: &Board, turn: Color, plies: u32) -> Option<bool> {
        let layer = self.layers.get(plies as usize)?;
        Some(layer.contains(&key(board, turn)))
    }
}
