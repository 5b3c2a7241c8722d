//! What a search reports while it runs: [`Progress`], and the [`Phase`] it is in.

use std::time::Duration;

/// What a search reports while it runs.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes visited so far.
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: usize,
    /// The ply the search is at (0 = the position itself).
    pub ply: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// What the search is doing.
    pub phase: Phase,
}

/// The phases of a search, as [`Progress`] reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Retracting.
    Retracting,
    /// Playing forward (a retractor's forward goal after the retractions).
    Forward,
    /// Building the positions a proof game's first plies reach (one ply at a time, as the search
    /// needs them), with how many positions were expanded so far for the ply being built.
    ForwardLayers {
        /// Positions expanded so far for the ply being built.
        positions: u64,
    },
}
