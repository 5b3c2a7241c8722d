//! Retro perft: the leaves of the retraction tree, bulk-counted at the last ply, under an optional
//! node budget and cancel flag.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::{Retraction, RetroPosition};

/// How often (in interior nodes) the count looks at the cancel flag: each interior node costs at
/// most a few microseconds, so this stops well within 100 ms.
const POLL_INTERVAL: u64 = 1 << 10;

/// Limits on a [`retro_perft_limited`] count.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftLimit<'a> {
    /// Stop after expanding this many interior nodes (positions whose retractions are listed
    /// rather than bulk-counted).
    pub max_nodes: Option<u64>,
    /// Set from outside to stop the count.
    pub cancel: Option<&'a AtomicBool>,
}

/// What [`retro_perft_limited`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves counted (all of them when `complete`).
    pub leaves: u64,
    /// Interior nodes expanded.
    pub nodes: u64,
    /// False when the budget or the cancel flag cut the count short.
    pub complete: bool,
}

/// Counts the leaves of the retraction tree `depth` plies deep (bulk-counted at the last ply).
#[must_use]
pub fn retro_perft(pos: &RetroPosition, depth: u32) -> u64 {
    retro_perft_limited(pos, depth, PerftLimit::default()).leaves
}

/// As [`retro_perft`], stopping early (marked incomplete) when `limit` says so.
#[must_use]
pub fn retro_perft_limited(pos: &RetroPosition, depth: u32, limit: PerftLimit<'_>) -> PerftCount {
    let mut perft = Perft {
        buffers: vec![Vec::with_capacity(128); depth as usize],
        limit,
        nodes: 0,
        stopped: false,
    };
    let leaves = perft.count(pos, depth, 0);
    PerftCount {
        leaves,
        nodes: perft.nodes,
        complete: !perft.stopped,
    }
}

struct Perft<'a> {
    /// One retraction list per ply, reused across the tree.
    buffers: Vec<Vec<Retraction>>,
    limit: PerftLimit<'a>,
    nodes: u64,
    stopped: bool,
}

impl Perft<'_> {
    fn count(&mut self, pos: &RetroPosition, depth: u32, ply: usize) -> u64 {
        match depth {
            0 => 1,
            1 => pos.count_retractions(),
            _ => {
                self.nodes += 1;
                if self.limit.max_nodes.is_some_and(|max| self.nodes > max)
                    || (self.nodes.is_multiple_of(POLL_INTERVAL)
                        && self.limit.cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
                {
                    self.stopped = true;
                }
                if self.stopped {
                    return 0;
                }
                let mut moves = std::mem::take(&mut self.buffers[ply]);
                pos.retractions_into(&mut moves);
                let mut leaves = 0;
                for &r in &moves {
                    leaves += self.count(&pos.retract(r), depth - 1, ply + 1);
                    if self.stopped {
                        break;
                    }
                }
                self.buffers[ply] = moves;
                leaves
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_or_a_cancel_cuts_the_count_and_says_so() {
        let pos = RetroPosition::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").expect("sets up");
        let full = retro_perft_limited(&pos, 3, PerftLimit::default());
        assert!(full.complete && full.leaves == retro_perft(&pos, 3));
        let cut = retro_perft_limited(
            &pos,
            3,
            PerftLimit {
                max_nodes: Some(5),
                cancel: None,
            },
        );
        assert!(!cut.complete && cut.leaves < full.leaves && cut.nodes <= 6);
        let cancel = AtomicBool::new(true);
        let cancelled = retro_perft_limited(
            &pos,
            4,
            PerftLimit {
                max_nodes: None,
                cancel: Some(&cancel),
            },
        );
        assert!(!cancelled.complete && cancelled.nodes == POLL_INTERVAL);
    }
}
