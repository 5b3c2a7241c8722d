//! Completeness: in real games, the move actually played is always among the retractions of the
//! position it led to, and taking it back restores the board that was there.
//!
//! The games come from the testkit, biased toward en passant, castling and underpromotion.

mod common;

use std::time::Instant;

use retrace_testkit::{random_game, retro_position, Coverage};
use retrace_unmove::RetroPosition;
use shakmaty::{Chess, Position};

const MAX_PLIES: usize = 300;

#[derive(Default)]
struct Totals {
    games: usize,
    positions: usize,
    retractions: usize,
}

/// Checks every ply of the games `seeds`, returning the totals and the rare-rule coverage.
fn check_games(seeds: std::ops::Range<u64>) -> (Totals, Coverage) {
    let mut totals = Totals::default();
    let mut coverage = Coverage::default();
    for seed in seeds {
        let game = random_game(seed, MAX_PLIES);
        coverage.add(&game);
        totals.games += 1;
        for (i, &played) in game.moves.iter().enumerate() {
            let before: &Chess = &game.positions[i];
            let after = retro_position(&game.positions[i + 1]);
            let fen = after.fen();
            let played = common::normalise(played);
            let retractions = after.retractions();
            totals.positions += 1;
            totals.retractions += retractions.len();
            let Some(&r) = retractions.iter().find(|r| r.forward() == played) else {
                let list: Vec<String> = retractions.iter().map(|r| r.to_string()).collect();
                panic!("game {seed} ply {i}: {played:?} missing from the retractions of {fen}: {list:?}");
            };
            let pred = after.retract(r);
            assert_eq!(
                pred.board(),
                before.board(),
                "game {seed} ply {i}: {fen} retracting {r}"
            );
            assert_eq!(
                pred.to_move(),
                before.turn(),
                "game {seed} ply {i}: side after retracting {r}"
            );
            // What the predecessor claims about the past must be true of the real game.
            let real_rights = before.castles().castling_rights();
            assert!(
                (pred.castling_rights() & !real_rights).is_empty(),
                "game {seed} ply {i}: {r} from {fen} claims rights {:?}, the game had {real_rights:?}",
                pred.castling_rights()
            );
            if pred.ep_square().is_some() {
                assert_eq!(
                    pred.ep_square(),
                    before.maybe_ep_square(),
                    "game {seed} ply {i}: {fen} retracting {r}"
                );
            }
            // A FEN says everything a game position's retro state holds.
            let again = RetroPosition::from_fen(&fen)
                .unwrap_or_else(|e| panic!("{fen} does not read back: {e}"));
            assert_eq!(again, after, "FEN round trip of {fen}");
            assert_eq!(again.fen(), fen);
        }
    }
    (totals, coverage)
}

fn report(name: &str, totals: &Totals, coverage: &Coverage, start: Instant) {
    eprintln!(
        "{name}: {} games, {} positions, {} retractions listed, {coverage:?} ({:.2?})",
        totals.games,
        totals.positions,
        totals.retractions,
        start.elapsed()
    );
    // The bias must have worked, or the test proves little about the rare rules.
    assert!(totals.positions > 100_000, "games too short");
    assert!(coverage.en_passant >= 300, "{coverage:?}");
    assert!(coverage.castling >= 300, "{coverage:?}");
    assert!(coverage.underpromotions >= 300, "{coverage:?}");
    assert!(coverage.promotions >= coverage.underpromotions);
}

// 2,000 games in two halves, so the harness runs them on both cores.
#[test]
fn played_move_is_retractable_games_0_to_999() {
    let start = Instant::now();
    let (totals, coverage) = check_games(0..1000);
    report("games 0..1000", &totals, &coverage, start);
}

#[test]
fn played_move_is_retractable_games_1000_to_1999() {
    let start = Instant::now();
    let (totals, coverage) = check_games(1000..2000);
    report("games 1000..2000", &totals, &coverage, start);
}
