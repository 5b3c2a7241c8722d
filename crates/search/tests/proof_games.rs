//! Proof games: a game from the initial array that reaches the position in a given number of
//! plies. The search must never call a reachable position unreachable: every bound it prunes with
//! is a lower bound in every game, castling, captures, promotions and en passant included.

use retrace_search::{solve, GameFacts, LegalPruner, SolveParams};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::{Retraction, RetroPosition};
use serde_json::Value;
use shakmaty::{Chess, Position};

/// The published proof games of positions/corpora/published-problems.jsonl: (id, FEN, plies).
fn published_proof_games() -> Vec<(String, RetroPosition, u32)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/published-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .filter(|p| p["stipulation"] == "proof_game")
        .map(|p| {
            let plies = p["n"].as_u64().expect("n") as u32;
            let fen = format!(
                "{} {} - -",
                p["board"].as_str().expect("board"),
                p["side_to_move"].as_str().expect("side")
            );
            let pos = RetroPosition::from_fen(&fen).expect("a proof-game position sets up");
            (p["id"].as_str().expect("id").to_owned(), pos, plies)
        })
        .collect()
}

/// Looks for at most `max` games of exactly `plies` plies that reach `pos`.
fn proof_games(
    pos: &RetroPosition,
    plies: u32,
    max: usize,
    max_nodes: u64,
) -> (Vec<Vec<Retraction>>, bool) {
    let params = SolveParams {
        depth: plies,
        extra: 0,
        max_solutions: Some(max),
        max_nodes: Some(max_nodes),
        facts: GameFacts {
            plies_since_start: Some(plies),
            ..GameFacts::default()
        },
        ..SolveParams::default()
    };
    let found = solve(pos, params, &LegalPruner::new());
    (found.lines, found.complete)
}

/// Plays `line` (last move first) forward from the initial array with shakmaty, and checks that
/// the game is legal and ends in `pos`.
fn replays_from_the_initial_array(pos: &RetroPosition, line: &[Retraction]) -> Result<(), String> {
    let mut game = Chess::default();
    for r in line.iter().rev() {
        let m = r.forward();
        if !game.is_legal(m) {
            return Err(format!("{r} is not legal in {:?}", game.board()));
        }
        game.play_unchecked(m);
    }
    if game.board() == pos.board() && game.turn() == pos.to_move() {
        Ok(())
    } else {
        Err("the game does not end in the position".to_owned())
    }
}

/// Positions from random games of 6 to 12 plies: with the true ply count a game is found (or the
/// search says it stopped early, never that there is none), and every game it gives replays.
/// With two plies fewer (the same side to move) every game it gives replays too.
#[test]
fn random_game_positions_have_their_proof_game() {
    let games = if cfg!(debug_assertions) { 40 } else { 300 };
    let (mut found, mut cut) = (0, 0);
    for seed in 0..games {
        let plies = 6 + (seed % 7) as usize;
        let game = random_game(seed, plies);
        let plies = game.moves.len() as u32;
        let pos = retro_position(game.positions.last().expect("a game has a position"));
        let (lines, complete) = proof_games(&pos, plies, 1, 300_000);
        assert!(
            !lines.is_empty() || !complete,
            "seed {seed}: {} is reached in {plies} plies, but the search says no game exists",
            pos.fen()
        );
        if lines.is_empty() {
            cut += 1;
        } else {
            found += 1;
        }
        for line in &lines {
            replays_from_the_initial_array(&pos, line)
                .unwrap_or_else(|e| panic!("seed {seed}, {}: {e}", pos.fen()));
        }
        if plies >= 2 {
            let (shorter, _) = proof_games(&pos, plies - 2, 4, 100_000);
            for line in &shorter {
                replays_from_the_initial_array(&pos, line).unwrap_or_else(|e| {
                    panic!("seed {seed}, {} in {} plies: {e}", pos.fen(), plies - 2)
                });
            }
        }
    }
    assert!(
        found * 10 >= (found + cut) * 9,
        "only {found} of {games} games found"
    );
}

/// Every published proof-game position is legal: the search may run out of budget, never say
/// that no game exists, and every game it finds replays.
#[test]
fn published_proof_games_are_never_called_impossible() {
    let budget = if cfg!(debug_assertions) {
        20_000
    } else {
        400_000
    };
    let mut wrong = Vec::new();
    for (id, pos, plies) in published_proof_games() {
        let (lines, complete) = proof_games(&pos, plies, 1, budget);
        if lines.is_empty() && complete {
            wrong.push(format!("{id}: called impossible in {plies} plies"));
        }
        for line in &lines {
            if let Err(e) = replays_from_the_initial_array(&pos, line) {
                wrong.push(format!("{id}: {e}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
