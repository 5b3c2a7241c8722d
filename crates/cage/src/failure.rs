//! Why a verification did not prove its cage: the failure, and the line that reached it.

use std::fmt;

/// Why a verification did not prove its cage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// A node needed expanding at the depth limit (the limit, in retractions).
    DepthLimit(u32),
    /// The node budget ran out (the budget).
    NodeLimit(u64),
    /// The memory budget of the search's tables ran out (the budget, in bytes).
    MemoryLimit(u64),
    /// Every tracked unit left the zone.
    BoardEmpty,
    /// Every remaining unit stands on its square of the initial array.
    AllHome,
    /// The claim is malformed (the message of its [`crate::CageError`]).
    Invalid(String),
    /// The caller's cancel flag was set.
    Cancelled,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::DepthLimit(d) => write!(f, "the depth limit of {d} retractions was reached"),
            Failure::NodeLimit(n) => write!(f, "the search gave up after {n} nodes"),
            Failure::MemoryLimit(bytes) => write!(
                f,
                "the search reached its memory budget of {} MiB",
                bytes >> 20
            ),
            Failure::BoardEmpty => f.write_str("every unit can leave the zone"),
            Failure::AllHome => {
                f.write_str("every remaining unit can be back on its square of the initial array")
            }
            Failure::Invalid(why) => write!(f, "the claim is malformed: {why}"),
            Failure::Cancelled => f.write_str("the verification was cancelled"),
        }
    }
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
