//! The search against the facts: real game histories are never lost, cancellation is prompt,
//! solutions replay forward as games.

use std::{
    sync::{atomic::AtomicBool, Arc},
    thread,
    time::{Duration, Instant},
};

use retrace_search::{
    line_notation, prove, solve, to_pgn, LegalPruner, NoPruning, Proof, SolveParams,
};
use retrace_testkit::{pos, positions_along, random_game, retro_position};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{ByColor, Color, Move, Position};

fn notation_lines(p: &RetroPosition, lines: &[Vec<Retraction>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| line_notation(p, l).join(" "))
        .collect()
}

#[test]
fn sparse_chass_problems_have_their_single_solution() {
    // Positions and expected counts from Chass's problem tests (positions/corpora).
    for (fen, depth, extra, expected) in [
        (
            "8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1",
            3,
            1,
            "Kf5xNe5 f4xg3ep+ g2-g4",
        ),
        ("8/8/8/1n6/2n5/8/2k5/Kb6 b - - 0 1", 2, 2, "Ka2-a1 b2-b1=B+"),
        (
            "5B1b/4Pk2/8/4K3/8/8/8/8 w - - 0 1",
            2,
            0,
            "Kg7-f7+ f7-f8=B+",
        ),
    ] {
        let p = pos(fen);
        let found = solve(
            &p,
            SolveParams {
                depth,
                extra,
                ..SolveParams::default()
            },
            &NoPruning,
        );
        assert!(found.complete);
        assert_eq!(
            notation_lines(&p, &found.lines),
            vec![expected.to_owned()],
            "{fen}"
        );
    }
}

#[test]
fn max_solutions_cuts_the_search_and_says_so() {
    let p = pos("8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -");
    let all = solve(
        &p,
        SolveParams {
            depth: 2,
            extra: 1,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    assert!(all.complete && all.lines.len() > 3);
    let cut = solve(
        &p,
        SolveParams {
            depth: 2,
            extra: 1,
            max_solutions: Some(3),
            ..SolveParams::default()
        },
        &NoPruning,
    );
    assert!(!cut.complete);
    assert_eq!(
        cut.lines,
        all.lines[..3].to_vec(),
        "the first solutions, in the same order"
    );
}

#[test]
fn kept_lines_are_bounded_and_streamed_ones_are_all_there() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - -");
    fn params<'a>() -> SolveParams<'a> {
        SolveParams {
            depth: 2,
            extra: 1,
            ..SolveParams::default()
        }
    }
    let all = solve(&p, params(), &NoPruning);
    assert!(all.complete && all.lines.len() > 100);
    assert_eq!(all.count, all.lines.len() as u64);
    let mut streamed = Vec::new();
    let mut report = |line: &[Retraction]| {
        streamed.push(line.to_vec());
        true
    };
    let kept = solve(
        &p,
        SolveParams {
            keep: Some(10),
            on_solution: Some(&mut report),
            ..params()
        },
        &NoPruning,
    );
    assert!(kept.complete);
    assert_eq!(kept.count, all.count, "every solution is counted");
    assert_eq!(
        kept.lines,
        all.lines[..10].to_vec(),
        "the first ten are kept"
    );
    assert_eq!(streamed, all.lines, "every solution is streamed, in order");
    // A stream that stops reading stops the search.
    let mut calls = 0;
    let mut stop = |_: &[Retraction]| {
        calls += 1;
        calls < 5
    };
    let cut = solve(
        &p,
        SolveParams {
            on_solution: Some(&mut stop),
            ..params()
        },
        &NoPruning,
    );
    assert!(!cut.complete);
    assert_eq!(cut.count, 5);
}

#[test]
fn no_uncapture_applies_to_every_ply_of_the_side() {
    let p = pos("8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -");
    let white_quiet = ByColor {
        white: true,
        black: false,
    };
    // With no extra plies, forbidding White's uncaptures removes exactly the capturing moves.
    let all = solve(
        &p,
        SolveParams {
            depth: 1,
            extra: 0,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    let quiet = solve(
        &p,
        SolveParams {
            depth: 1,
            extra: 0,
            no_uncapture: white_quiet,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    let expected: Vec<_> = all
        .lines
        .iter()
        .filter(|l| l[0].uncaptured().is_none())
        .cloned()
        .collect();
    assert_eq!(notation_lines(&p, &expected), ["Ka2-a1"]);
    assert_eq!(quiet.lines, expected);
    // Two plies further back the ban bites again: after Ka2-a1 every black retraction leaves
    // Black's king in a check that only Ra1xNb1 (and other uncaptures on b1) can undo.
    let deeper = solve(
        &p,
        SolveParams {
            depth: 1,
            extra: 2,
            no_uncapture: white_quiet,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    assert!(deeper.lines.is_empty());
    let allowed = solve(
        &p,
        SolveParams {
            depth: 1,
            extra: 2,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    assert!(allowed.lines.contains(&expected[0]));
}

#[test]
fn real_histories_from_random_games_are_never_lost() {
    let mut checked = [0usize; 5];
    for seed in 0..400u64 {
        let game = random_game(seed, 120 + (seed as usize % 180));
        let plies = game.moves.len();
        let deepest = 4usize.min(plies.saturating_sub(4));
        for (n, count) in checked.iter_mut().enumerate().take(deepest + 1).skip(1) {
            let end = &game.positions[plies];
            let real: Vec<Move> = game.moves[plies - n..].iter().rev().copied().collect();
            // Forbid the uncaptures the real line does not use: a legitimate restriction that
            // keeps the tree small enough to enumerate completely.
            let mut no_uncapture = ByColor::new_with(|_| true);
            let mut mover = end.turn().other();
            for m in &real {
                if m.is_capture() {
                    *no_uncapture.get_mut(mover) = false;
                }
                mover = mover.other();
            }
            let p = retro_position(end);
            let params = SolveParams {
                depth: n as u32,
                extra: 3,
                no_uncapture,
                max_nodes: Some(200_000),
                ..SolveParams::default()
            };
            let found = solve(&p, params, &LegalPruner::new());
            if !found.complete {
                break;
            }
            let hit = found
                .lines
                .iter()
                .any(|line| line.iter().map(|r| r.forward()).collect::<Vec<_>>() == real);
            assert!(
                hit,
                "seed {seed}: the real last {n} moves are lost in {}",
                p.fen()
            );
            *count += 1;
        }
    }
    // The budget must still let a fair number of complete searches through at every depth.
    assert!(
        checked[1] >= 300 && checked[2] >= 100 && checked[3] >= 30 && checked[4] >= 10,
        "{checked:?}"
    );
}

/// Uncaptures multiply the answers (each choice of captured unit is a separate solution in the
/// notation), but they must not multiply the work beyond that: a choice is expanded only where it is
/// part of a listed solution, or in an existence search after every quiet retraction failed. So
/// the nodes per solution stay about the same whether uncaptures are allowed or not.
#[test]
fn uncapture_choices_cost_no_more_than_the_solutions_they_make() {
    let games = if cfg!(debug_assertions) { 1 } else { 3 };
    let positions: Vec<RetroPosition> = (0..games)
        .flat_map(|seed| positions_along(seed, 120))
        .collect();
    let pruner = LegalPruner::new();
    let totals = |uncaptures: bool| {
        let (mut nodes, mut solutions) = (0u64, 0usize);
        for p in &positions {
            let found = solve(
                p,
                SolveParams {
                    depth: 2,
                    no_uncapture: ByColor::new_with(|_| !uncaptures),
                    ..SolveParams::default()
                },
                &pruner,
            );
            assert!(found.complete);
            nodes += found.nodes;
            solutions += found.lines.len();
        }
        (nodes as f64, solutions as f64)
    };
    let (quiet_nodes, quiet_solutions) = totals(false);
    let (nodes, solutions) = totals(true);
    assert!(
        solutions >= 5.0 * quiet_solutions,
        "the positions must have uncaptures to choose: {solutions} vs {quiet_solutions} solutions"
    );
    let per_solution = nodes / solutions;
    let quiet_per_solution = quiet_nodes / quiet_solutions;
    assert!(
        per_solution <= 1.25 * quiet_per_solution,
        "{per_solution:.2} nodes per solution with uncaptures, {quiet_per_solution:.2} without"
    );
}

#[test]
fn cancellation_stops_a_long_search_promptly() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let search = thread::spawn(move || {
        let params = SolveParams {
            depth: 6,
            extra: 3,
            cancel: Some(flag),
            ..SolveParams::default()
        };
        let found = solve(&p, params, &NoPruning);
        (found, Instant::now())
    });
    thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let (found, stopped) = search.join().expect("the search thread ends");
    assert!(!found.complete, "a cancelled search says it is incomplete");
    assert!(found.nodes > 0);
    let latency = stopped.saturating_duration_since(asked);
    assert!(
        latency < Duration::from_millis(100),
        "stopped {latency:?} after the request"
    );
}

#[test]
fn solutions_replay_forward_as_games() {
    let p = pos("8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1");
    let found = solve(
        &p,
        SolveParams {
            depth: 3,
            extra: 1,
            ..SolveParams::default()
        },
        &NoPruning,
    );
    let pgn = to_pgn(&p, &found.lines[0]).expect("the solution is a game");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"8/8/3r4/4nK2/5p2/4kq1b/6P1/8 w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. g4 fxg3+ 2. Kxe5 *"), "{pgn}");
    // A line that is not from this position is refused, not printed.
    let other = pos("4k3/8/8/8/8/8/4P3/4K3 b - -");
    let foreign = other.retractions();
    assert!(to_pgn(&p, &foreign[..1]).is_err());
}

#[test]
fn prove_finds_a_history_or_shows_every_line_dies() {
    let legal = pos("8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -");
    match prove(&legal, 4, &NoPruning, None) {
        Proof::History(line) => {
            assert_eq!(line.len(), 4);
            let mut p = legal.clone();
            for r in line {
                assert!(p.retractions().contains(&r));
                p = p.retract(r);
            }
        }
        other => panic!("expected a history, got {other:?}"),
    }
    // Black to move, White's king in check from a pawn that cannot have moved there: the pawn on
    // b2 stands on its start square, and White's king cannot have moved into check.
    let stuck =
        RetroPosition::from_board_fen("8/8/8/8/8/8/1p6/K1k5", Color::White).expect("sets up");
    assert!(stuck.retractions().is_empty());
    match prove(&stuck, 3, &NoPruning, None) {
        Proof::NoHistory {
            tries, complete, ..
        } => assert!(tries.is_empty() && complete),
        other => panic!("expected no history, got {other:?}"),
    }
}

#[test]
fn prove_within_a_node_budget_answers_incomplete_never_illegal() {
    // Legal, with histories only along long lines: a small budget cannot settle it.
    let p = pos("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
    let full = retrace_search::prove_within(&p, 6, &LegalPruner::new(), None, None);
    assert!(matches!(full, Proof::History(_)), "{full:?}");
    let cut = retrace_search::prove_within(&p, 6, &LegalPruner::new(), None, Some(1));
    assert!(
        matches!(
            cut,
            Proof::NoHistory {
                complete: false,
                ..
            }
        ),
        "{cut:?}"
    );
    for budget in [10, 100] {
        match retrace_search::prove_within(&p, 6, &LegalPruner::new(), None, Some(budget)) {
            Proof::History(_) => {}
            Proof::NoHistory { complete, .. } => assert!(!complete, "budget {budget}"),
        }
    }
}

/// The positions of the cage issue: after h2xXg3 the corner (e1, g1, h1 with the pawns of the
/// second rank and the black king on f2) is a cage, alone or inside a crowd of pawns that can walk
/// away, so every capture dies and Kh2-h1 is the last move; the cage attempt off, the captures
/// stay.
#[test]
fn candidates_that_reach_a_cage_die_with_the_cage_as_their_reason() {
    let lone = pos("8/8/8/8/8/6P1/3PPkP1/4b1RK b - -");
    let found = solve(&lone, SolveParams::default(), &LegalPruner::new());
    assert_eq!(notation_lines(&lone, &found.lines), vec!["Kh2-h1"]);
    assert!(found.complete);
    assert_eq!(found.refuted.len(), 5, "{:?}", found.refuted);
    for r in &found.refuted {
        assert_eq!(r.reason.code, retrace_legal::ReasonCode::Cage);
        assert_eq!(r.line.len(), 1);
        assert!(r.line[0].uncaptured().is_some());
    }
    let off = LegalPruner::new().with_cage_finding(None);
    let found = solve(&lone, SolveParams::default(), &off);
    assert_eq!(found.lines.len(), 6);
    assert!(found.refuted.is_empty());

    let crowd = pos("8/8/8/4p3/3p4/2P3P1/2PPPkP1/4b1RK b - -");
    let found = solve(&crowd, SolveParams::default(), &LegalPruner::new());
    let lines = notation_lines(&crowd, &found.lines);
    assert!(lines.contains(&"Kh2-h1".to_owned()), "{lines:?}");
    assert!(lines.iter().all(|l| !l.starts_with("h2x")), "{lines:?}");
}
