//! positions/problems.toml is well formed: unique ids, positions that set up, answers in retro
//! notation, and every answer a sequence of retractions the generator accepts, ply after ply.
//!
//! This does not judge the solver (tests/problems.rs does); it makes sure no answer in the file is
//! impossible by the rules of retraction, so that a solver disagreeing with the file is worth a look.

use std::collections::{BTreeMap, BTreeSet};

use retrace_unmove::{Retraction, RetroPosition};
use serde::Deserialize;
use shakmaty::{Board, Color};

#[derive(Debug, Deserialize)]
struct File {
    problem: Vec<Problem>,
}

/// One problem; the format is described at the top of positions/problems.toml.
#[derive(Debug, Deserialize)]
struct Problem {
    id: String,
    fen: String,
    retract: Option<String>,
    stipulation: String,
    depth: Option<u32>,
    extra: Option<u32>,
    answer: Option<toml::Value>,
    solution_count: Option<usize>,
    source: toml::Value,
    why: Option<String>,
    #[serde(default)]
    cages: Vec<String>,
}

const STIPULATIONS: [&str; 3] = ["last-moves", "illegal", "who-moved-last"];

fn positions_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../positions").to_owned()
}

fn load() -> Vec<Problem> {
    let path = format!("{}/problems.toml", positions_dir());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    toml::from_str::<File>(&text)
        .unwrap_or_else(|e| panic!("{path} does not parse: {e}"))
        .problem
}

fn side(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(format!("'{other}' is not a side (w or b)")),
    }
}

fn is_board_only(fen: &str) -> bool {
    fen.split_whitespace().count() == 1
}

/// The lines of a last-moves answer: a list of lists of moves.
fn answer_lines(answer: &toml::Value) -> Result<Vec<Vec<String>>, String> {
    let lines = answer.as_array().ok_or("answer is not a list of lines")?;
    lines
        .iter()
        .map(|line| {
            line.as_array()
                .ok_or_else(|| format!("{line} is not a list of moves"))?
                .iter()
                .map(|m| {
                    m.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| format!("{m} is not a move"))
                })
                .collect()
        })
        .collect()
}

/// Replays one answer line from the position: every move must parse as notation for the side
/// that retracts at that ply, be a legal retraction there, and be written as the generator writes
/// it (so that answers compare as strings).
fn check_line(start: &RetroPosition, line: &[String]) -> Result<(), String> {
    let mut pos = start.clone();
    for (ply, text) in line.iter().enumerate() {
        let at = format!("ply {} ({text})", ply + 1);
        Retraction::parse(text, pos.retracting()).map_err(|e| format!("{at}: {e}"))?;
        let retraction = pos
            .parse_retraction(text)
            .map_err(|e| format!("{at}: {e} in {}", pos.fen()))?;
        let canonical = pos.notation(retraction);
        if canonical != *text {
            return Err(format!("{at}: the generator writes it {canonical}"));
        }
        pos = pos.retract(retraction);
    }
    Ok(())
}

fn check_problem(problem: &Problem) -> Result<(), String> {
    if !STIPULATIONS.contains(&problem.stipulation.as_str()) {
        return Err(format!("unknown stipulation {}", problem.stipulation));
    }
    match &problem.source {
        toml::Value::String(s) if s == "constructed" => {
            let has_why = problem.why.as_deref().is_some_and(|w| !w.trim().is_empty());
            if !has_why {
                return Err("a constructed problem needs `why`".into());
            }
        }
        toml::Value::Table(t) => {
            if !t.get("composer").is_some_and(toml::Value::is_str) {
                return Err("a source table needs a composer".into());
            }
        }
        other => {
            return Err(format!(
                "source must be \"constructed\" or a table, not {other}"
            ))
        }
    }
    for cage in &problem.cages {
        Board::from_ascii_board_fen(cage.as_bytes())
            .map_err(|e| format!("cage {cage} is not a board field: {e}"))?;
    }

    let board_only = is_board_only(&problem.fen);
    if problem.retract.is_some() && !board_only {
        return Err("`retract` goes only with a board field alone".into());
    }
    if problem.stipulation == "who-moved-last" {
        if !board_only || problem.retract.is_some() {
            return Err("who-moved-last takes a board field alone and no `retract`".into());
        }
        let answer = problem
            .answer
            .as_ref()
            .and_then(toml::Value::as_str)
            .ok_or("who-moved-last needs answer = \"w\" or \"b\"")?;
        side(answer)?;
        for color in Color::ALL {
            RetroPosition::from_board_fen(&problem.fen, color)
                .map_err(|e| format!("the board does not set up: {e}"))?;
        }
        return Ok(());
    }

    let retract = problem.retract.as_deref().map(side).transpose()?;
    if board_only && retract.is_none() {
        return Err("a board field alone needs `retract`".into());
    }
    let pos = RetroPosition::parse(&problem.fen, retract)
        .map_err(|e| format!("the FEN does not set up: {e}"))?;

    if problem.stipulation == "illegal" {
        if problem.answer.is_some() {
            return Err("an illegal position has no answer".into());
        }
        return Ok(());
    }

    // last-moves
    let depth = problem.depth.ok_or("last-moves needs `depth`")?;
    if depth == 0 {
        return Err("depth must be at least 1".into());
    }
    if problem.extra.is_some_and(|e| e > 20) {
        return Err("an extra depth above 20 is surely a typo".into());
    }
    let lines = match &problem.answer {
        Some(answer) => answer_lines(answer)?,
        None if problem.solution_count.is_some() => return Ok(()),
        None => return Err("last-moves needs `answer` (or `solution_count`)".into()),
    };
    if let Some(count) = problem.solution_count {
        if count != lines.len() {
            return Err(format!(
                "solution_count {count} but the answer lists {} lines",
                lines.len()
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for line in &lines {
        if line.len() != depth as usize {
            return Err(format!(
                "{line:?} has {} moves, depth is {depth}",
                line.len()
            ));
        }
        if !seen.insert(line.clone()) {
            return Err(format!("{line:?} is listed twice"));
        }
        check_line(&pos, line).map_err(|e| format!("answer {line:?}: {e}"))?;
    }
    Ok(())
}

#[test]
fn problems_file_is_well_formed_and_every_answer_is_retractable() {
    let problems = load();
    assert!(
        !problems.is_empty(),
        "no [[problem]] in positions/problems.toml"
    );
    let mut ids = BTreeMap::new();
    let mut failures = Vec::new();
    for (index, problem) in problems.iter().enumerate() {
        if let Some(first) = ids.insert(problem.id.clone(), index) {
            failures.push(format!(
                "{}: id used twice (problems {first} and {index})",
                problem.id
            ));
        }
        if let Err(e) = check_problem(problem) {
            failures.push(format!("{}: {e}", problem.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) malformed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Ids are unique across every TOML file of positions/, whatever its table name.
#[test]
fn problem_ids_are_not_used_by_other_position_files() {
    let mine: BTreeSet<String> = load().into_iter().map(|p| p.id).collect();
    let dir = positions_dir();
    let mut clashes = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {dir}: {e}")) {
        let path = entry.expect("a directory entry").path();
        let is_other_toml = path.extension().is_some_and(|e| e == "toml")
            && path.file_name().is_some_and(|n| n != "problems.toml");
        if !is_other_toml {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable position file");
        let Ok(value) = text.parse::<toml::Table>() else {
            continue; // another file's own test reports its syntax
        };
        for tables in value.values().filter_map(toml::Value::as_array) {
            for id in tables
                .iter()
                .filter_map(|t| t.get("id").and_then(toml::Value::as_str))
            {
                if mine.contains(id) {
                    clashes.push(format!("{id} (also in {})", path.display()));
                }
            }
        }
    }
    assert!(clashes.is_empty(), "ids used twice: {clashes:?}");
}
