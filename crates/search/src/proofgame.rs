//! Proof games: every game of exactly N plies from the initial array that reaches a position.
//!
//! A proof game is a retraction search whose lines must end in the initial array after exactly N
//! retractions ([`GameFacts::plies_since_start`]); this module is the plain way to ask for one,
//! and says whether the answer is unique only when the search was complete.

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

use crate::{solve, GameFacts, Progress, Pruner, SearchOptions, SolveParams};

/// The parameters of [`proof_games`].
#[derive(Default)]
pub struct ProofGameParams<'a> {
    /// The length of the games, in plies (a composer's "N.5 moves" is 2N+1 plies).
    pub plies: u32,
    /// Stop after this many games (the result is then marked incomplete).
    pub max_solutions: Option<usize>,
    /// Keep only the first this many games in [`ProofGames::games`] (the rest are counted, not
    /// kept): memory then stays bounded however many games there are. `None` keeps them all.
    pub keep: Option<usize>,
    /// Stop after visiting this many nodes (the result is then marked incomplete).
    pub max_nodes: Option<u64>,
    /// Castling rights the position lacks were lost (the FEN's castling field is complete).
    pub exact_castling: bool,
    /// Set from outside to stop the search; it then returns what it found, marked incomplete.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called every few thousand nodes.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// What the search may leave out, for benchmarks (everything is on by default).
    pub options: SearchOptions,
}

/// What [`proof_games`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofGames {
    /// Each game as N retractions, last move first (see [`crate::game_score`] to print it forward):
    /// the first [`ProofGameParams::keep`] found.
    pub games: Vec<Vec<Retraction>>,
    /// How many games were found, kept or not.
    pub count: u64,
    /// False when `max_solutions`, `max_nodes` or cancellation cut the search short.
    pub complete: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl ProofGames {
    /// A complete search that found no game and visited nothing (a length no game can have).
    fn none() -> ProofGames {
        ProofGames {
            games: Vec::new(),
            count: 0,
            complete: true,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// `Some(true)` when the search was complete and found exactly one game, `Some(false)` when it
    /// was complete and found none or several, `None` when it was cut short (nothing is known).
    #[must_use]
    pub fn unique(&self) -> Option<bool> {
        self.complete.then_some(self.count == 1)
    }

    /// Whether the search proved that no game of that length reaches the position.
    #[must_use]
    pub fn impossible(&self) -> bool {
        self.complete && self.count == 0
    }
}

/// The side to move after `plies` plies from the initial array.
#[must_use]
pub fn side_to_move_after(plies: u32) -> Color {
    if plies.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// Every game of exactly `params.plies` plies from the initial array that ends in `pos`, every
/// position on the way accepted by `pruner`. A position whose side to move does not fit the ply
/// count has none.
pub fn proof_games<P: Pruner>(
    pos: &RetroPosition,
    params: ProofGameParams<'_>,
    pruner: &P,
) -> ProofGames {
    if pos.to_move() != side_to_move_after(params.plies) {
        return ProofGames::none();
    }
    let solve_params = SolveParams {
        depth: params.plies,
        extra: 0,
        max_solutions: params.max_solutions,
        keep: params.keep,
        max_nodes: params.max_nodes,
        facts: GameFacts {
            plies_since_start: Some(params.plies),
            exact_castling: params.exact_castling,
            ..GameFacts::default()
        },
        cancel: params.cancel,
        progress: params.progress,
        options: params.options,
        ..SolveParams::default()
    };
    let found = solve(pos, solve_params, pruner);
    ProofGames {
        games: found.lines,
        count: found.count,
        complete: found.complete,
        nodes: found.nodes,
        elapsed: found.elapsed,
    }
}

/// What [`shortest_proof_games`] found: the games of the least length that has any, or, when none
/// was found, what the last length searched gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortestProofGames {
    /// The length of the games found, or the last length searched when none was.
    pub plies: u32,
    /// The games of that length, with the nodes and time of every length searched.
    pub found: ProofGames,
}

impl ShortestProofGames {
    /// Whether `plies` is proven the least length: games were found, and every shorter length
    /// was searched completely and has none.
    #[must_use]
    pub fn proven_shortest(&self) -> bool {
        self.found.count > 0
    }
}

/// The shortest games from the initial array to one of `positions` (one board, with one side to
/// move or with each), of at most `params.plies` plies: each length in turn from none, searched
/// completely before the next, until a length has games or a search is cut short (by
/// `params.max_nodes` over all lengths, `params.max_solutions`, or `params.cancel`). Lengths the
/// distance bound rules out cost nothing, so the search starts in earnest at the least length the
/// bound allows. A length whose side to move fits none of the positions is skipped.
pub fn shortest_proof_games<P: Pruner>(
    positions: &[RetroPosition],
    mut params: ProofGameParams<'_>,
    pruner: &P,
) -> ShortestProofGames {
    let start = Instant::now();
    let mut nodes = 0u64;
    let mut last = ShortestProofGames {
        plies: 0,
        found: ProofGames::none(),
    };
    for plies in 0..=params.plies {
        let Some(pos) = positions
            .iter()
            .find(|pos| pos.to_move() == side_to_move_after(plies))
        else {
            continue;
        };
        let length = ProofGameParams {
            plies,
            max_solutions: params.max_solutions,
            keep: params.keep,
            max_nodes: params.max_nodes.map(|max| max.saturating_sub(nodes)),
            exact_castling: params.exact_castling,
            cancel: params.cancel.clone(),
            progress: params
                .progress
                .as_deref_mut()
                .map(|report| report as &mut dyn FnMut(Progress)),
            options: params.options,
        };
        let found = proof_games(pos, length, pruner);
        nodes += found.nodes;
        let done = found.count > 0 || !found.complete;
        last = ShortestProofGames { plies, found };
        if done {
            break;
        }
    }
    last.found.nodes = nodes;
    last.found.elapsed = start.elapsed();
    last
}
