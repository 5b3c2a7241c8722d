//! Proof games: a game from the initial array that reaches the position in a given number of
//! plies. The search must never call a reachable position unreachable: every bound it prunes with
//! is a lower bound in every game, castling, captures, promotions and en passant included.

#[path = "support/published.rs"]
mod published;

use published::{is_game, replays_from_the_initial_array};
use retrace_testkit::{random_game, retro_position};
use retrace_unmove::RetroPosition;

/// Looks for at most `max` games of exactly `plies` plies that reach `pos`, within a node budget.
fn proof_games(
    pos: &RetroPosition,
    plies: u32,
    max: usize,
    max_nodes: u64,
) -> retrace_search::ProofGames {
    published::search(pos, plies, Some(max), Some(max_nodes), None)
}

/// Positions from random games of 6 to 12 plies: with the true ply count a game is found, every
/// one within the budget (and never "no game exists"), and every game it gives replays.
/// With one ply fewer the side to move is wrong and no game exists; with two fewer (the same side
/// to move) every game it gives replays too.
#[test]
fn random_game_positions_have_their_proof_game() {
    let games = if cfg!(debug_assertions) { 40 } else { 300 };
    let (mut found, mut cut, mut shorter_found) = (0, 0, 0);
    for seed in 0..games {
        let plies = 6 + (seed % 7) as usize;
        let game = random_game(seed, plies);
        let plies = game.moves.len() as u32;
        let pos = retro_position(game.positions.last().expect("a game has a position"));
        let result = proof_games(&pos, plies, 1, 3_000_000);
        assert!(
            !result.impossible(),
            "seed {seed}: {} is reached in {plies} plies, but the search says no game exists",
            pos.fen()
        );
        if result.games.is_empty() {
            cut += 1;
        } else {
            found += 1;
        }
        for line in &result.games {
            replays_from_the_initial_array(&pos, line)
                .unwrap_or_else(|e| panic!("seed {seed}, {}: {e}", pos.fen()));
        }
        if plies >= 1 {
            let wrong_side = proof_games(&pos, plies - 1, 4, 100_000);
            assert!(wrong_side.impossible(), "seed {seed}: {} plies", plies - 1);
        }
        if plies >= 2 {
            let shorter = proof_games(&pos, plies - 2, 4, 100_000);
            shorter_found += usize::from(!shorter.games.is_empty());
            for line in &shorter.games {
                replays_from_the_initial_array(&pos, line).unwrap_or_else(|e| {
                    panic!("seed {seed}, {} in {} plies: {e}", pos.fen(), plies - 2)
                });
            }
        }
    }
    assert!(cut == 0, "only {found} of {games} games found");
    // Random games waste moves: some reach their position sooner, and those games are checked.
    assert!(shorter_found > 0, "no random position had a shorter game");
}

/// What the published proof games gave: how many were found within the budget.
struct Tally {
    problems: usize,
    found: usize,
    unique: usize,
}

/// Searches every published proof game whose length is in `lengths` with `budget` nodes, and
/// checks what the issue asks: never "impossible", every game replays, the published game is among
/// the games of a complete search, and a source's "unique" holds where the search completes.
fn judge_published(lengths: std::ops::RangeInclusive<u32>, budget: u64) -> Tally {
    let mut wrong = Vec::new();
    let mut tally = Tally {
        problems: 0,
        found: 0,
        unique: 0,
    };
    for problem in published::load()
        .into_iter()
        .filter(|p| lengths.contains(&p.plies))
    {
        let (id, plies) = (&problem.id, problem.plies);
        // Two games are enough to tell unique from not; all of them when the source says more.
        let max = if problem.unique { 2 } else { 16 };
        let result = proof_games(&problem.pos, plies, max, budget);
        tally.problems += 1;
        tally.found += usize::from(!result.games.is_empty());
        if result.impossible() {
            wrong.push(format!("{id}: called impossible in {plies} plies"));
        }
        for line in &result.games {
            if let Err(e) = replays_from_the_initial_array(&problem.pos, line) {
                wrong.push(format!("{id}: {e}"));
            }
        }
        if result.complete {
            if !result
                .games
                .iter()
                .any(|line| is_game(&problem.pos, line, &problem.game))
            {
                wrong.push(format!("{id}: the published game is not among the games"));
            }
            if problem.unique && result.games.len() != 1 {
                wrong.push(format!(
                    "{id}: the source says unique, the search found {}",
                    result.games.len()
                ));
            }
            tally.unique += usize::from(result.unique() == Some(true));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    tally
}

/// The published proof games of at most 16 plies: found within the budget, at least as many as
/// the search finds today (a floor to raise, never to lower).
#[test]
fn published_proof_games_of_at_most_16_plies_are_found() {
    let budget = if cfg!(debug_assertions) {
        50_000
    } else {
        9_000_000
    };
    let tally = judge_published(0..=16, budget);
    assert_eq!(tally.problems, 34, "the corpus has 34 such problems");
    if !cfg!(debug_assertions) {
        assert!(tally.found >= 34, "only {} of 34 found", tally.found);
        assert!(tally.unique >= 34, "only {} of 34 unique", tally.unique);
    }
}

/// Every longer published proof game: the search may run out of budget, never say that no game
/// exists, and every game it finds replays; at least as many are found as today (a floor).
#[test]
fn longer_published_proof_games_are_never_called_impossible() {
    let budget = if cfg!(debug_assertions) {
        20_000
    } else {
        1_000_000
    };
    let tally = judge_published(17..=u32::MAX, budget);
    eprintln!("{} of 44 found, {} unique", tally.found, tally.unique);
    assert_eq!(tally.problems, 44, "the corpus has 44 such problems");
    if !cfg!(debug_assertions) {
        // (The floor was 14 before the pawn columns, the castling squares and the detours.)
        assert!(tally.found >= 29, "only {} of 44 found", tally.found);
        assert!(tally.unique >= 26, "only {} of 44 unique", tally.unique);
    }
}

/// A search owns everything it caches (the bound's maps, the forward layers, the pruner's cages),
/// so a proof game is searched the same way whatever ran before it and on whatever thread: the
/// same games in the same nodes, alone, after other problems, and on another thread.
#[test]
fn a_proof_game_is_searched_the_same_whatever_ran_before() {
    let problems = published::load();
    let by_id = |id: &str| {
        problems
            .iter()
            .find(|p| p.id == id)
            .unwrap_or_else(|| panic!("{id} is in the corpus"))
    };
    // Two of 14 plies (the forward layers built to different depths) and one of 8.
    let chosen = [
        by_id("pg-P1067982"),
        by_id("pg-P0006447"),
        by_id("pg-orban-1976-schwalbe"),
    ];
    let search = |p: &published::Published| {
        let found = proof_games(&p.pos, p.plies, 2, 2_000_000);
        (found.games, found.nodes, found.complete)
    };
    let alone: Vec<_> = chosen.iter().map(|p| search(p)).collect();
    let reversed: Vec<_> = chosen.iter().rev().map(|p| search(p)).collect();
    let threaded = std::thread::scope(|s| {
        let handles: Vec<_> = chosen.iter().map(|p| s.spawn(move || search(p))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("the search runs"))
            .collect::<Vec<_>>()
    });
    for (i, p) in chosen.iter().enumerate() {
        assert!(alone[i].2 && !alone[i].0.is_empty(), "{}: not found", p.id);
        assert_eq!(
            alone[i],
            reversed[chosen.len() - 1 - i],
            "{} after others",
            p.id
        );
        assert_eq!(alone[i], threaded[i], "{} on its own thread", p.id);
    }
}

/// Games beyond `keep` are counted, not kept: the count and the verdict are those of the search
/// that keeps them all, and the games kept are its first ones.
#[test]
fn games_beyond_keep_are_counted_not_kept() {
    let start = RetroPosition::from_board_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        shakmaty::Color::Black,
    )
    .expect("the initial array");
    let search = |keep| {
        let params = retrace_search::ProofGameParams {
            plies: 4,
            keep,
            ..retrace_search::ProofGameParams::default()
        };
        retrace_search::proof_games(&start, params, &retrace_search::LegalPruner::new())
    };
    let all = search(None);
    let kept = search(Some(3));
    assert!(all.complete && all.count > 3, "{} games", all.count);
    assert_eq!(all.games.len() as u64, all.count);
    assert_eq!((kept.count, kept.complete), (all.count, true));
    assert_eq!(kept.games, all.games[..3].to_vec());
    assert_eq!(kept.unique(), Some(false));
}
