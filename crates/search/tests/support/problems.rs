//! Reading positions/problems.toml and judging the solver on it; shared by the problem test and
//! the solve benchmark.

use std::collections::BTreeSet;

use retrace_cage::{Cage, CageStore};
use retrace_search::{line_notation, solve, LegalPruner, SolveParams, DEFAULT_EXTRA};
use retrace_unmove::RetroPosition;
use serde::Deserialize;
use shakmaty::Color;

#[derive(Debug, Deserialize)]
pub struct File {
    pub problem: Vec<Problem>,
}

/// One problem as positions/problems.toml writes it (fields the judge does not need are ignored).
#[derive(Debug, Deserialize)]
pub struct Problem {
    pub id: String,
    pub fen: String,
    pub retract: Option<String>,
    pub stipulation: String,
    pub depth: Option<u32>,
    pub extra: Option<u32>,
    pub answer: Option<toml::Value>,
    pub solution_count: Option<usize>,
    #[serde(default)]
    pub cages: Vec<String>,
}

/// The problems of positions/problems.toml, or of the file `RETRACE_PROBLEMS` names (to judge a
/// collection of one's own).
pub fn load() -> Vec<Problem> {
    let path = std::env::var("RETRACE_PROBLEMS").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../positions/problems.toml").to_owned()
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    toml::from_str::<File>(&text)
        .unwrap_or_else(|e| panic!("{path} does not parse: {e}"))
        .problem
}

/// How the solver did on one problem (the test reads the detail, the benchmark the nodes).
#[allow(dead_code)]
pub struct Outcome {
    pub exact: bool,
    pub detail: String,
    pub nodes: u64,
}

/// Node budget per search: a problem the solver cannot finish within it counts as not solved.
const BUDGET: u64 = 3_000_000;

fn color(text: &str) -> Color {
    if text.starts_with('w') {
        Color::White
    } else {
        Color::Black
    }
}

fn normalise(line: &[String]) -> Vec<String> {
    line.iter()
        .map(|m| m.trim_end_matches(['+', '#']).replace("O-O", "0-0"))
        .collect()
}

/// Whether a history of `1 + extra` plies exists (the position itself passing the analysis).
fn has_history(pos: &RetroPosition, pruner: &LegalPruner<'_>, nodes: &mut u64) -> Option<bool> {
    let params = SolveParams {
        depth: 1,
        extra: DEFAULT_EXTRA - 1,
        max_solutions: Some(1),
        max_nodes: Some(BUDGET),
        ..SolveParams::default()
    };
    let found = solve(pos, params, pruner);
    *nodes += found.nodes;
    if found.lines.is_empty() && !found.complete {
        return None;
    }
    Some(!found.lines.is_empty())
}

#[allow(dead_code)] // the benchmark judges through `judge_with`
pub fn judge(problem: &Problem) -> Outcome {
    judge_with(problem, true)
}

/// [`judge`], with the root's facts about units travelling or not
/// ([`LegalPruner::with_unit_facts`]).
pub fn judge_with(problem: &Problem, facts: bool) -> Outcome {
    let mut cages = CageStore::new();
    for line in &problem.cages {
        let cage = Cage::parse_line(line).expect("a cage of the file parses");
        cages.prove(cage).expect("a cage of the file verifies");
    }
    let pruner = LegalPruner::with_cages(&cages).with_unit_facts(facts);
    let retract = problem.retract.as_deref().map(color);
    let mut nodes = 0;
    match problem.stipulation.as_str() {
        "last-moves" => {
            let pos = RetroPosition::parse(&problem.fen, retract).expect("the FEN sets up");
            let params = SolveParams {
                depth: problem.depth.unwrap_or(1),
                extra: problem.extra.unwrap_or(DEFAULT_EXTRA),
                max_nodes: Some(BUDGET),
                ..SolveParams::default()
            };
            let found = solve(&pos, params, &pruner);
            let got: BTreeSet<Vec<String>> = found
                .lines
                .iter()
                .map(|l| normalise(&line_notation(&pos, l)))
                .collect();
            let exact = found.complete
                && match (&problem.answer, problem.solution_count) {
                    (Some(answer), _) => {
                        let want: BTreeSet<Vec<String>> = answer
                            .as_array()
                            .expect("answer is a list of lines")
                            .iter()
                            .map(|l| {
                                let moves: Vec<String> = l
                                    .as_array()
                                    .expect("a line is a list of moves")
                                    .iter()
                                    .map(|m| m.as_str().expect("a move").to_owned())
                                    .collect();
                                normalise(&moves)
                            })
                            .collect();
                        got == want
                    }
                    (None, Some(count)) => got.len() == count,
                    (None, None) => false,
                };
            let detail = format!(
                "complete={} found {:?}",
                found.complete,
                got.iter().take(6).collect::<Vec<_>>()
            );
            Outcome {
                exact,
                detail,
                nodes: found.nodes,
            }
        }
        "illegal" => {
            let pos = RetroPosition::parse(&problem.fen, retract).expect("the FEN sets up");
            let verdict = has_history(&pos, &pruner, &mut nodes);
            Outcome {
                exact: verdict == Some(false),
                detail: format!("history: {verdict:?}"),
                nodes,
            }
        }
        "who-moved-last" => {
            let answer = problem
                .answer
                .as_ref()
                .and_then(toml::Value::as_str)
                .map(color);
            let board = problem.fen.split_whitespace().next().unwrap_or("");
            let mut possible = Vec::new();
            let mut decided = true;
            for side in Color::ALL {
                if let Ok(pos) = RetroPosition::from_board_fen(board, side) {
                    match has_history(&pos, &pruner, &mut nodes) {
                        Some(true) => possible.push(side),
                        Some(false) => {}
                        None => decided = false,
                    }
                }
            }
            let exact = decided && answer.is_some_and(|a| possible == [a]);
            Outcome {
                exact,
                detail: format!("possible: {possible:?}"),
                nodes,
            }
        }
        other => Outcome {
            exact: false,
            detail: format!("unknown stipulation {other}"),
            nodes,
        },
    }
}
