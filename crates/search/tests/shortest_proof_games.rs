//! The shortest proof games: each length in turn until one has games. Never a length longer than
//! a game the position has, never a game that does not replay, and no shorter length left with a
//! game.

#[path = "support/published.rs"]
mod published;

use published::{is_game, replays_from_the_initial_array};
use retrace_search::{
    proof_games, shortest_proof_games, side_to_move_after, LegalPruner, ProofGameParams,
};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;
use shakmaty::Color;

/// The board of `pos` with each side to move, as a bare board in a FEN gives it.
fn both_sides(pos: &RetroPosition) -> Vec<RetroPosition> {
    let board = pos.board().to_string();
    ["w", "b"]
        .iter()
        .map(|side| RetroPosition::from_fen(&format!("{board} {side} - -")).expect("FEN"))
        .collect()
}

/// The shortest games of at most `longest` plies to one of `positions`, within `max_nodes`.
fn shortest(
    positions: &[RetroPosition],
    longest: u32,
    max_nodes: Option<u64>,
) -> retrace_search::ShortestProofGames {
    let params = ProofGameParams {
        plies: longest,
        max_nodes,
        ..ProofGameParams::default()
    };
    shortest_proof_games(positions, params, &LegalPruner::new())
}

/// Positions of random games of 2 to 9 plies, asked with their bare board: the shortest games
/// are found no later than the game played, every one replays and ends on the board with the
/// right side to move, and every shorter length of either side has no game (asked alone).
#[test]
fn random_positions_have_no_game_shorter_than_the_shortest() {
    let games = if cfg!(debug_assertions) { 20 } else { 150 };
    let mut shorter_than_played = 0;
    for seed in 0..games {
        let game = random_game(10_000 + seed, 2 + (seed % 8) as usize);
        let played = game.moves.len() as u32;
        let pos = retro_position(game.positions.last().expect("a game has a position"));
        let positions = both_sides(&pos);
        let found = shortest(&positions, played, Some(5_000_000));
        assert!(found.found.complete, "seed {seed}: cut short");
        assert!(
            found.proven_shortest(),
            "seed {seed}: no game of {played} plies"
        );
        assert!(found.plies <= played, "seed {seed}");
        shorter_than_played += usize::from(found.plies < played);
        let side = side_to_move_after(found.plies);
        let end = positions
            .iter()
            .find(|p| p.to_move() == side)
            .expect("both sides");
        for line in &found.found.games {
            assert_eq!(line.len() as u32, found.plies);
            replays_from_the_initial_array(end, line)
                .unwrap_or_else(|e| panic!("seed {seed}, {}: {e}", end.fen()));
        }
        for plies in 0..found.plies {
            let at = positions
                .iter()
                .find(|p| p.to_move() == side_to_move_after(plies))
                .expect("both sides");
            let params = ProofGameParams {
                plies,
                max_nodes: Some(5_000_000),
                ..ProofGameParams::default()
            };
            let direct = proof_games(at, params, &LegalPruner::new());
            assert!(direct.impossible(), "seed {seed}: a game of {plies} plies");
        }
    }
    // Random games waste moves: some boards are reached sooner than they were.
    assert!(shorter_than_played > 0);
}

/// 1.e4 e5 2.Ke2: three plies, Black to move, and no other game of three plies (the king needs
/// e2 empty first). With White to move asked alone, Black makes as many moves as White, two at
/// least, and a second move of its own that brings nothing back must be the pawn's: 1.e4 e6 2.Ke2
/// e5, four plies, the only order.
#[test]
fn a_bare_board_takes_the_side_to_move_from_the_shortest_length() {
    let pos = RetroPosition::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b - -")
        .expect("FEN");
    let found = shortest(&both_sides(&pos), 20, None);
    assert_eq!(found.plies, 3);
    assert_eq!(found.found.unique(), Some(true));
    let white = both_sides(&pos)
        .into_iter()
        .filter(|p| p.to_move() == Color::White)
        .collect::<Vec<_>>();
    let found = shortest(&white, 20, None);
    assert_eq!(found.plies, 4);
    assert_eq!(found.found.unique(), Some(true));
}

/// The initial array with Black to move has no proof game: Black's moves must bring its units
/// back, which only knights can, in an even number of moves, and so must White's, one more than
/// Black's. Every length up to the cap is searched completely and the answer says none.
#[test]
fn the_initial_array_with_black_to_move_has_no_game() {
    let pos = RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -")
        .expect("FEN");
    let found = shortest(&[pos], 9, None);
    assert!(found.found.complete);
    assert!(!found.proven_shortest());
    assert_eq!(found.plies, 9);
    assert_eq!(found.found.count, 0);
}

/// A node budget spent before a game is found leaves the answer incomplete: no length is called
/// the shortest.
#[test]
fn a_budget_cut_proves_no_length() {
    let pos = RetroPosition::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b - -")
        .expect("FEN");
    let found = shortest(&both_sides(&pos), 20, Some(1));
    assert!(!found.found.complete);
    assert!(!found.proven_shortest());
    assert!(found.found.nodes <= 2, "{}", found.found.nodes);
}

/// The published proof games of at most 14 plies: the search for the shortest finds a length no
/// longer than theirs (every shorter one searched completely), every game it gives replays, and at
/// their length the published game is among its games, alone where the source says it is unique.
/// Where the corpus calls a problem a "shortest proof game", a shorter game found is a cook of
/// that claim (or of the transcription): there must be few, and each is named.
#[test]
fn published_proof_games_have_no_game_shorter_than_the_shortest_found() {
    let (mut checked, mut shorter) = (0, Vec::new());
    for problem in published::load() {
        if problem.plies > 14 {
            continue;
        }
        let found = shortest(
            std::slice::from_ref(&problem.pos),
            problem.plies,
            Some(20_000_000),
        );
        assert!(found.found.complete, "{}: cut short", problem.id);
        assert!(found.proven_shortest(), "{}: no game", problem.id);
        for line in &found.found.games {
            replays_from_the_initial_array(&problem.pos, line)
                .unwrap_or_else(|e| panic!("{}: {e}", problem.id));
        }
        if found.plies < problem.plies {
            if problem.shortest {
                shorter.push(format!(
                    "{} ({} plies, not {})",
                    problem.id, found.plies, problem.plies
                ));
            }
        } else {
            assert!(
                found
                    .found
                    .games
                    .iter()
                    .any(|line| is_game(&problem.pos, line, &problem.game)),
                "{}: the published game is not among those found",
                problem.id
            );
            if problem.unique {
                assert_eq!(found.found.count, 1, "{}", problem.id);
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} published problems");
    eprintln!("shorter than a published shortest proof game: {shorter:?}");
    assert!(shorter.len() <= 2, "{shorter:?}");
}
