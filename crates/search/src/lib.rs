//! Retraction search: what were the last N moves, and is there a history at all?
//!
//! [`solve`] retracts N plies from a position and keeps the lines after which `extra` further
//! retractions still exist, every position on the way passing a [`Pruner`] (the static legality
//! analysis, in the binary). [`prove`] looks for one history of a given length, and when there is
//! none tells how deep each last move survived. [`proof_games`] looks for the games of exactly N
//! plies from the initial array. [`to_pgn`] turns a solution into a forward game that shakmaty has
//! replayed.
//!
//! Every search owns what it caches (its transposition tables, the proof-game bound's maps, the
//! forward layers of a proof game) and the pruner owns its cage store, or borrows the caller's: no
//! state outlives a search unless its caller keeps it, so the same input gives the same answer
//! whatever ran before it and on whatever thread.
//!
//! The modules: `solve` (the N-ply search), `prove` (one history), `proofgame` (games from the
//! initial array), `pruner` (what the searches ask of the analysis), `engine` (the depth-first
//! search they share, with its tables in `table`), `bound` and `forward` (a proof game's distance
//! bound and its forward layers), `facts` (clocks and exact FEN fields), `budget` and `progress`
//! (nodes, cancellation, reports), `pgn` (solutions as text), `retractor` (retractors).

#![warn(missing_docs)]

mod bound;
mod budget;
mod capture_moves;
mod columns;
mod detours;
mod engine;
mod facts;
mod forward;
mod options;
mod pgn;
mod progress;
mod proofgame;
mod prove;
mod pruner;
pub mod retractor;
pub mod rights;
mod solve;
mod table;

pub use facts::{fact_reasons, GameFacts};
pub use options::SearchOptions;
pub use pgn::{game_score, line_notation, to_pgn, to_pgn_tagged, PgnError};
pub use progress::{Phase, Progress};
pub use proofgame::{
    proof_games, shortest_proof_games, side_to_move_after, ProofGameParams, ProofGames,
    ShortestProofGames,
};
#[cfg(feature = "bench")]
pub use prove::prove_measured;
pub use prove::{prove, prove_counted, prove_with_facts, prove_within, Cut, Proof, Try};
pub use pruner::{LegalPruner, NoPruning, Pruner, PROVE_CLOSURE_NODES, SEARCH_CAGE_LIMITS};
pub use retractor::{
    solve_retractor, ForwardGoal, RetractorError, RetractorKind, RetractorParams, RetractorSolution,
};
pub use solve::{
    solve, tally_last_move, Refutation, SolutionSink, Solutions, SolveParams, DEFAULT_EXTRA,
};
