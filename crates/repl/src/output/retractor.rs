//! `retractor`'s answer: the keys, defences and tries as an indented tree, and its JSON document.

use retrace_search::{
    retractor::{Outcome, Play, Stage},
    ForwardGoal, RetractorKind, RetractorSolution,
};
use serde::Serialize;
use shakmaty::Color;

use super::{answer::Answer, error::CliError};

/// Tries the text output lists (the JSON lists them all).
const TEXT_TRIES: usize = 12;

/// The verdict in one word.
fn verdict(s: &RetractorSolution) -> &'static str {
    match (s.complete, s.outcome) {
        (false, _) => "incomplete",
        (true, Outcome::Illegal) => "illegal",
        (true, Outcome::Loss) => "no_solution",
        (true, Outcome::Win) if s.is_cooked() => "cooked",
        (true, Outcome::Win) => "solved",
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One move of a retractor's tree, with the moves that answer it.
#[derive(Debug, Serialize)]
struct PlayDoc<'a> {
    by: &'static str,
    stage: &'static str,
    #[serde(rename = "move")]
    notation: &'a str,
    duals: usize,
    then: Vec<PlayDoc<'a>>,
}

impl<'a> From<&'a Play> for PlayDoc<'a> {
    fn from(p: &'a Play) -> PlayDoc<'a> {
        PlayDoc {
            by: side(p.by),
            stage: match p.stage {
                Stage::Retraction => "retraction",
                Stage::Uncapture => "uncapture",
                Stage::Forward => "forward",
            },
            notation: &p.text,
            duals: p.duals,
            then: p.next.iter().map(PlayDoc::from).collect(),
        }
    }
}

/// A key that fails, and the defence that refutes it.
#[derive(Debug, Serialize)]
struct TryDoc<'a> {
    #[serde(rename = "move")]
    notation: &'a str,
    refutation: Option<&'a str>,
    close: bool,
}

/// `retractor`'s document.
#[derive(Debug, Serialize)]
struct RetractorDoc<'a> {
    kind: &'static str,
    retract: u32,
    then: String,
    verdict: &'static str,
    solutions: usize,
    keys: Vec<PlayDoc<'a>>,
    tries: Vec<TryDoc<'a>>,
    complete: bool,
    truncated: bool,
    nodes: u64,
    elapsed_ms: f64,
}

/// The answer to a retractor of `kind`, White retracting `n`, then `goal`.
pub fn answer(
    kind: RetractorKind,
    n: u32,
    goal: ForwardGoal,
    s: &RetractorSolution,
) -> Result<Answer, CliError> {
    let doc = RetractorDoc {
        kind: kind.name(),
        retract: n,
        then: goal.to_string(),
        verdict: verdict(s),
        solutions: s.solutions,
        keys: s.keys.iter().map(PlayDoc::from).collect(),
        tries: s
            .tries
            .iter()
            .map(|t| TryDoc {
                notation: &t.text,
                refutation: t.refutation.as_deref(),
                close: t.close,
            })
            .collect(),
        complete: s.complete,
        truncated: s.truncated,
        nodes: s.nodes,
        elapsed_ms: s.elapsed.as_secs_f64() * 1000.0,
    };
    Answer::new(&doc, text(kind, n, goal, s))
}

/// The text of the answer: the verdict, each key's tree, the tries, the figures.
pub fn text(kind: RetractorKind, n: u32, goal: ForwardGoal, s: &RetractorSolution) -> String {
    let mut out = format!(
        "{kind} retractor, White retracts {n}, then {goal}: {}\n",
        match verdict(s) {
            "incomplete" => "search stopped before it was complete (no verdict)".to_owned(),
            "illegal" => "the position is illegal (no legal retraction)".to_owned(),
            "no_solution" => "no solution".to_owned(),
            "cooked" => format!("cooked ({} solutions)", s.solutions),
            _ => "solved".to_owned(),
        }
    );
    for key in &s.keys {
        out.push_str(if kind == RetractorKind::Help {
            "line:\n"
        } else {
            "key:\n"
        });
        write_play(&mut out, key, 1);
    }
    if !s.tries.is_empty() {
        out.push_str("tries:\n");
        for t in s.tries.iter().take(TEXT_TRIES) {
            match &t.refutation {
                Some(r) => out.push_str(&format!("  {}  refuted by {r}\n", t.text)),
                None => out.push_str(&format!("  {}  no {goal} follows\n", t.text)),
            }
        }
    }
    if s.tries.len() > TEXT_TRIES {
        let more = s.tries.len() - TEXT_TRIES;
        out.push_str(&format!(
            "  (+{more} more tries; the JSON output lists them all)\n"
        ));
    }
    if s.truncated {
        out.push_str("(tree cut short)\n");
    }
    out.push_str(&format!(
        "{} nodes, {:.1} ms\n",
        s.nodes,
        s.elapsed.as_secs_f64() * 1000.0
    ));
    out
}

fn write_play(out: &mut String, p: &Play, depth: usize) {
    let who = match (p.stage, p.by) {
        (Stage::Retraction, Color::White) => "W retracts",
        (Stage::Retraction, Color::Black) => "B retracts",
        (Stage::Uncapture, Color::White) => "W uncaptures",
        (Stage::Uncapture, Color::Black) => "B uncaptures",
        (Stage::Forward, Color::White) => "W plays",
        (Stage::Forward, Color::Black) => "B plays",
    };
    let duals = if p.duals > 0 {
        format!("  (+{} dual)", p.duals)
    } else {
        String::new()
    };
    out.push_str(&format!("{}{who} {}{duals}\n", "  ".repeat(depth), p.text));
    for n in &p.next {
        write_play(out, n, depth + 1);
    }
}
