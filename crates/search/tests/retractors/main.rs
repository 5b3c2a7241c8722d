//! Retractors: the published example, constructed positions with their proofs
//! (`positions.toml`), and agreement with an independent brute force on random positions.

mod brute;

use retrace_search::{
    retractor::Outcome, solve_retractor, ForwardGoal, LegalPruner, RetractorKind, RetractorParams,
    RetractorSolution,
};
use retrace_unmove::RetroPosition;
use serde::Deserialize;
use shakmaty::Color;

fn solve(pos: &RetroPosition, kind: RetractorKind, n: u32, goal: ForwardGoal) -> RetractorSolution {
    solve_retractor(
        pos,
        RetractorParams::new(kind, n, goal),
        &LegalPruner::new(),
    )
    .expect("a retractor that sets up")
}

const ALL_KINDS: [RetractorKind; 3] = [
    RetractorKind::Proca,
    RetractorKind::Hoeg,
    RetractorKind::Help,
];

/// The key texts of a solution.
fn keys(s: &RetractorSolution) -> Vec<String> {
    s.keys.iter().map(|k| k.text.clone()).collect()
}

/// The published retractors of positions/corpora/published-problems.jsonl, each with its
/// position.
fn published_retractors() -> Vec<(serde_json::Value, RetroPosition)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/published-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
    text.lines()
        .filter(|l| l.contains("\"retractor\""))
        .map(|line| {
            let problem: serde_json::Value = serde_json::from_str(line).expect("json");
            let fen = format!(
                "{} {} - - 0 1",
                problem["board"].as_str().expect("board"),
                problem["side_to_move"].as_str().expect("side")
            );
            let pos = RetroPosition::from_fen(&fen).expect("fen");
            (problem, pos)
        })
        .collect()
}

#[test]
fn the_published_example_is_solved_with_its_key() {
    let mut seen = 0;
    for (problem, pos) in published_retractors() {
        let answer = problem["answer"].as_str().expect("answer");
        // "Retract f7xBg8=Q, then 1.f7-f8=N#": White chooses its own uncapture (Proca).
        let s = solve(&pos, RetractorKind::Proca, 1, ForwardGoal::Mate(1));
        assert!(s.complete && s.outcome == Outcome::Win, "{}", problem["id"]);
        assert_eq!(s.solutions, 1, "{}: {:?}", problem["id"], keys(&s));
        let key = &s.keys[0];
        assert!(
            answer.contains(&format!("Retract {}", key.text)),
            "{answer} vs {}",
            key.text
        );
        assert!(
            answer.contains(&key.next[0].text),
            "{answer} vs {:?}",
            key.next
        );
        seen += 1;
    }
    assert!(seen >= 1, "the corpus holds a retractor");
}

/// One constructed retractor with its expected answer.
#[derive(Debug, Deserialize)]
struct Constructed {
    id: String,
    fen: String,
    kind: String,
    retract: u32,
    then: String,
    /// solved, cooked, no_solution or illegal.
    verdict: String,
    /// The keys' notation (every key, for solved and cooked ones).
    #[serde(default)]
    keys: Vec<String>,
    /// The special case the position shows.
    #[allow(dead_code)]
    shows: String,
    /// The proof, by hand.
    #[allow(dead_code)]
    proof: String,
}

#[derive(Debug, Deserialize)]
struct File {
    retractor: Vec<Constructed>,
}

fn constructed() -> Vec<Constructed> {
    let text = include_str!("positions.toml");
    toml::from_str::<File>(text)
        .expect("positions.toml parses")
        .retractor
}

fn verdict(s: &RetractorSolution) -> &'static str {
    match s.outcome {
        Outcome::Illegal => "illegal",
        Outcome::Loss => "no_solution",
        Outcome::Win if s.is_cooked() => "cooked",
        Outcome::Win => "solved",
    }
}

#[test]
fn constructed_retractors_have_the_answers_of_their_proofs() {
    let all = constructed();
    assert!(all.len() >= 15, "{} constructed positions", all.len());
    let mut failures = Vec::new();
    for c in &all {
        let pos = RetroPosition::from_fen(&c.fen).expect("fen");
        let kind: RetractorKind = c.kind.parse().expect("kind");
        let goal: ForwardGoal = c.then.parse().expect("goal");
        let s = solve(&pos, kind, c.retract, goal);
        assert!(s.complete, "{}", c.id);
        let got_keys = keys(&s);
        if verdict(&s) != c.verdict || (kind != RetractorKind::Help && got_keys != c.keys) {
            failures.push(format!(
                "{}: expected {} {:?}, got {} {:?}",
                c.id,
                c.verdict,
                c.keys,
                verdict(&s),
                got_keys
            ));
        }
        // Where it is cheap the brute force must agree on the value.
        let one = match goal {
            ForwardGoal::Mate(1) => Some(brute::OneMove::Mate),
            ForwardGoal::Stalemate(1) => Some(brute::OneMove::Stalemate),
            ForwardGoal::Selfmate(1) => Some(brute::OneMove::Selfmate),
            _ => None,
        };
        if let Some(one) = one.filter(|_| c.retract <= 2) {
            let brute = brute::value_of(&pos, c.retract, kind, one);
            let solver = match s.outcome {
                Outcome::Win => Some(true),
                Outcome::Loss => Some(false),
                Outcome::Illegal => None,
            };
            if brute != solver {
                failures.push(format!(
                    "{}: brute force {brute:?}, solver {solver:?}",
                    c.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_kind_and_special_case_is_covered() {
    let all = constructed();
    for kind in ["proca", "hoeg", "help"] {
        assert!(all.iter().any(|c| c.kind == kind), "no {kind} retractor");
        assert!(
            all.iter().any(|c| c.kind == kind && c.verdict == "cooked"),
            "no cooked {kind} retractor"
        );
    }
    for case in [
        "uncapture choice",
        "en passant",
        "castling",
        "blocker",
        "promotion",
    ] {
        assert!(
            all.iter().any(|c| c.shows.contains(case)),
            "no position shows {case}"
        );
    }
}

/// Black-to-move positions from biased random games (White retracts first in a retractor).
fn random_positions(count: usize) -> Vec<RetroPosition> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        out.extend(
            retrace_testkit::positions_along(seed, 90)
                .into_iter()
                .filter(|p| p.retracting() == Color::White),
        );
        seed += 1;
    }
    out.truncate(count);
    out
}

#[test]
fn the_solver_agrees_with_the_brute_force_for_one_retraction_and_mate_in_one() {
    let mut wins = [0usize; 3];
    let positions = random_positions(300);
    for pos in &positions {
        for (i, kind) in ALL_KINDS.into_iter().enumerate() {
            let s = solve(pos, kind, 1, ForwardGoal::Mate(1));
            let brute = brute::value(pos, 1, kind);
            let solver = match s.outcome {
                Outcome::Win => Some(true),
                Outcome::Loss => Some(false),
                Outcome::Illegal => None,
            };
            assert_eq!(solver, brute, "{kind} on {}", pos.fen());
            wins[i] += usize::from(solver == Some(true));
        }
    }
    println!(
        "wins (proca, hoeg, help) on {} positions: {wins:?}",
        positions.len()
    );
    // The comparison means something only if both answers occur often enough.
    assert!(wins[0] >= 10 && wins[0] < positions.len() - 10, "{wins:?}");
    assert!(wins[1] <= wins[0] && wins[2] == wins[0], "{wins:?}");
}

#[test]
fn the_solver_agrees_with_the_brute_force_for_two_retractions() {
    // The brute force has no table and no cut-off, so it is run only on positions with few
    // retractions (its work grows as the cube of their number).
    let few: Vec<RetroPosition> = random_positions(400)
        .into_iter()
        .filter(|p| p.count_retractions() <= 8)
        .take(3)
        .collect();
    assert!(
        few.len() >= 3,
        "only {} positions with few retractions",
        few.len()
    );
    for pos in few {
        for kind in ALL_KINDS {
            let s = solve(&pos, kind, 2, ForwardGoal::Mate(1));
            let solver = match s.outcome {
                Outcome::Win => Some(true),
                Outcome::Loss => Some(false),
                Outcome::Illegal => None,
            };
            assert_eq!(
                solver,
                brute::value(&pos, 2, kind),
                "{kind} on {}",
                pos.fen()
            );
        }
    }
}

#[test]
fn the_solver_agrees_with_the_brute_force_on_stalemate_and_selfmate_in_one() {
    let goals = [
        (ForwardGoal::Stalemate(1), brute::OneMove::Stalemate),
        (ForwardGoal::Selfmate(1), brute::OneMove::Selfmate),
    ];
    let mut wins = [0usize; 2];
    let positions = random_positions(120);
    for pos in &positions {
        for (i, (goal, one)) in goals.into_iter().enumerate() {
            for kind in [RetractorKind::Proca, RetractorKind::Hoeg] {
                let s = solve(pos, kind, 1, goal);
                let solver = match s.outcome {
                    Outcome::Win => Some(true),
                    Outcome::Loss => Some(false),
                    Outcome::Illegal => None,
                };
                let brute = brute::value_of(pos, 1, kind, one);
                assert_eq!(solver, brute, "{kind} {goal} on {}", pos.fen());
                wins[i] += usize::from(solver == Some(true));
            }
        }
    }
    // Random positions rarely allow either; positions.toml has constructed ones of both.
    println!("wins (=1, s#1) on {} positions: {wins:?}", positions.len());
}

/// The progress of a retractor names the phase: retracting, and playing forward to the goal.
#[test]
fn progress_says_when_the_solver_plays_forward() {
    let (_, pos) = published_retractors()
        .into_iter()
        .next()
        .expect("the published retractor");
    let mut phases = Vec::new();
    let mut progress = |p: retrace_search::Progress| phases.push(p.phase);
    let params = RetractorParams {
        progress: Some(&mut progress),
        ..RetractorParams::new(RetractorKind::Proca, 1, ForwardGoal::Mate(2))
    };
    let s = solve_retractor(&pos, params, &LegalPruner::new()).expect("sets up");
    assert!(s.complete);
    assert!(
        phases.contains(&retrace_search::Phase::Forward),
        "{} reports, none forward",
        phases.len()
    );
}
