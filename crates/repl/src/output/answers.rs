//! The answers of `check`, `list`, `perft`, `solve` and `cage verify`: each a JSON document of the
//! contract (a struct, its fields in the contract's order) and the text for people, made from the
//! same result side by side.

use retrace_cage::{Cage, Failure, Verification};
use retrace_legal::{Analysis, Reason, ReasonCode};
use retrace_search::{line_notation, Solutions};
use retrace_unmove::{PerftCount, RetroPosition};
use serde::Serialize;
use shakmaty::Color;

use super::{answer::Answer, error::CliError, proof::ProofDoc, proof::ProofReport, render};
use crate::args::{side_letter, KEPT_SOLUTIONS};

/// A number for each side: `{"white": .., "black": ..}`.
#[derive(Debug, Serialize)]
pub struct BySide<T> {
    pub white: T,
    pub black: T,
}

impl<T> BySide<T> {
    fn from_fn(f: impl Fn(Color) -> T) -> BySide<T> {
        BySide {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

/// A reason as the JSON answers give it: its code, its message and its squares.
#[derive(Debug, Serialize)]
pub struct ReasonDoc {
    pub code: &'static str,
    pub message: String,
    pub squares: Vec<String>,
}

impl From<&Reason> for ReasonDoc {
    fn from(reason: &Reason) -> ReasonDoc {
        ReasonDoc {
            code: reason.code.as_str(),
            message: reason.message.clone(),
            squares: reason.squares.iter().map(ToString::to_string).collect(),
        }
    }
}

/// `check`'s document.
#[derive(Debug, Serialize)]
struct CheckDoc {
    verdict: &'static str,
    reasons: Vec<ReasonDoc>,
    captures: BySide<u64>,
    captures_by_pawns: BySide<u64>,
    promoted: BySide<u64>,
    /// What `--prove` found, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    retraction: Option<ProofDoc>,
}

/// `check`: the analysis' reasons and needs, and what `--prove` found when it ran (its verdict
/// of no history is one more reason).
pub fn check(analysis: &Analysis, report: Option<ProofReport>) -> Result<Answer, CliError> {
    let mut reasons: Vec<ReasonDoc> = analysis.reasons.iter().map(ReasonDoc::from).collect();
    if let Some(report) = report.as_ref().filter(|r| r.has_history == Some(false)) {
        let code = if report.closure {
            ReasonCode::Closure.as_str()
        } else {
            ReasonCode::NoHistory.as_str()
        };
        reasons.push(ReasonDoc {
            code,
            message: report.summary.clone(),
            squares: Vec::new(),
        });
    }
    let illegal = !reasons.is_empty();
    let mut text = if illegal {
        "illegal\n".to_owned()
    } else {
        "no contradiction found\n".to_owned()
    };
    for r in &analysis.reasons {
        text.push_str(&format!("  {r}\n"));
    }
    if let Some(report) = &report {
        for line in report.text().lines() {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text.push_str(&render::needs(analysis));
    text.push('\n');
    let doc = CheckDoc {
        verdict: if illegal {
            "illegal"
        } else {
            "no_contradiction"
        },
        reasons,
        captures: BySide::from_fn(|c| u64::from(analysis.captures.get(c).total)),
        captures_by_pawns: BySide::from_fn(|c| u64::from(analysis.captures.get(c).by_pawns)),
        promoted: BySide::from_fn(|c| u64::from(*analysis.promoted.get(c))),
        retraction: report.map(|r| r.doc),
    };
    Answer::new(&doc, text)
}

/// `list`'s document.
#[derive(Debug, Serialize)]
struct ListDoc {
    retracting: &'static str,
    retractions: Vec<ListEntry>,
}

/// One retraction of `list`, with the position it leads to.
#[derive(Debug, Serialize)]
struct ListEntry {
    #[serde(rename = "move")]
    notation: String,
    fen: String,
}

/// `list`: every legal retraction with the FEN of the position it leads to.
pub fn list(pos: &RetroPosition) -> Result<Answer, CliError> {
    let retractions = pos.retractions();
    let mut entries = Vec::with_capacity(retractions.len());
    let mut text = render::retraction_count(pos, retractions.len());
    text.push('\n');
    for (i, &r) in retractions.iter().enumerate() {
        let notation = pos.notation(r);
        let fen = pos.retract(r).fen();
        text.push_str(&format!("{:>4}. {notation:<12} {fen}\n", i + 1));
        entries.push(ListEntry { notation, fen });
    }
    let doc = ListDoc {
        retracting: side_letter(pos.retracting()),
        retractions: entries,
    };
    Answer::new(&doc, text)
}

/// `perft`'s document.
#[derive(Debug, Serialize)]
struct PerftDoc {
    depth: u32,
    nodes: u64,
    complete: bool,
    expanded: u64,
    elapsed_ms: f64,
}

/// `perft`: the leaves counted `depth` plies deep, in `elapsed_ms`.
pub fn perft(depth: u32, count: &PerftCount, elapsed_ms: f64) -> Result<Answer, CliError> {
    let leaves = count.leaves;
    let cut = if count.complete {
        ""
    } else {
        " (cut short: the count is incomplete)"
    };
    let doc = PerftDoc {
        depth,
        nodes: leaves,
        complete: count.complete,
        expanded: count.nodes,
        elapsed_ms,
    };
    Answer::new(
        &doc,
        format!("retro perft {depth}: {leaves} leaves{cut} in {elapsed_ms:.1} ms\n"),
    )
}

/// `solve`'s document.
#[derive(Debug, Serialize)]
struct SolveDoc {
    illegal: Vec<ReasonDoc>,
    solutions: Vec<Vec<String>>,
    count: u64,
    by_last_move: Vec<LastMoveDoc>,
    refuted: Vec<RefutedDoc>,
    complete: bool,
    nodes: u64,
    elapsed_ms: f64,
}

/// A last move and how many solutions start with it.
#[derive(Debug, Serialize)]
struct LastMoveDoc {
    #[serde(rename = "move")]
    last: String,
    count: u64,
}

/// Every last move of `found`'s solutions, kept or not, with its count.
fn last_moves(pos: &RetroPosition, found: &Solutions) -> Vec<LastMoveDoc> {
    found
        .by_last_move
        .iter()
        .map(|&(last, count)| LastMoveDoc {
            last: pos.notation(last),
            count,
        })
        .collect()
}

/// A candidate that died in a cage: its line and why.
#[derive(Debug, Serialize)]
struct RefutedDoc {
    line: Vec<String>,
    reason: ReasonDoc,
}

/// `solve`: why the position itself is illegal (`illegal`, the analysis's reasons, empty when it
/// proved nothing), the solutions kept (the rest counted), the candidates refuted by cages, and
/// whether the search was complete.
pub fn solve(
    pos: &RetroPosition,
    illegal: &[Reason],
    found: &Solutions,
) -> Result<Answer, CliError> {
    let mut text = render::illegal_text(illegal);
    text.push_str(&render::solve_summary(
        found,
        " (search cut short: there may be more)",
    ));
    text.push('\n');
    text.push_str(&render::solution_lines(
        pos,
        &found.lines,
        &found.by_last_move,
        found.count,
        KEPT_SOLUTIONS,
        ", not kept (--jsonl streams them all)",
    ));
    text.push_str(&render::refutations_text(pos, &found.refuted));
    let doc = SolveDoc {
        illegal: illegal.iter().map(ReasonDoc::from).collect(),
        solutions: found
            .lines
            .iter()
            .map(|line| line_notation(pos, line))
            .collect(),
        count: found.count,
        by_last_move: last_moves(pos, found),
        refuted: found
            .refuted
            .iter()
            .map(|r| RefutedDoc {
                line: line_notation(pos, &r.line),
                reason: ReasonDoc::from(&r.reason),
            })
            .collect(),
        complete: found.complete,
        nodes: found.nodes,
        elapsed_ms: found.elapsed.as_secs_f64() * 1e3,
    };
    Answer::new(&doc, text)
}

/// One line of `solve --jsonl`: a solution as it is found.
#[derive(Debug, Serialize)]
pub struct JsonlSolution {
    pub solution: Vec<String>,
}

/// The last line of `solve --jsonl`: the summary (the solutions were streamed before it).
#[derive(Debug, Serialize)]
struct JsonlSummary {
    count: u64,
    by_last_move: Vec<LastMoveDoc>,
    complete: bool,
    nodes: u64,
    elapsed_ms: f64,
}

/// The summary `solve --jsonl` ends with (it has no text: the lines are the answer).
pub fn solve_stream_summary(pos: &RetroPosition, found: &Solutions) -> Result<Answer, CliError> {
    let doc = JsonlSummary {
        count: found.count,
        by_last_move: last_moves(pos, found),
        complete: found.complete,
        nodes: found.nodes,
        elapsed_ms: found.elapsed.as_secs_f64() * 1e3,
    };
    Answer::new(&doc, String::new())
}

/// `cage verify`'s document.
#[derive(Debug, Serialize)]
struct CageVerifyDoc<'a> {
    cage: bool,
    line: &'a [String],
    nodes: u64,
    cage_line: String,
}

/// `cage verify`: whether the claim is a cage, or the line it stopped on and why.
pub fn cage_verify(cage: &Cage, verification: &Verification) -> Result<Answer, CliError> {
    let text = match &verification.outcome {
        Ok(()) => format!("a cage: verified in {} nodes\n{cage}\n", verification.nodes),
        Err(escape) => {
            // Only an escape is a line out of the cage; a limit or a cancel stopped on some line.
            let escapes = matches!(escape.failure, Failure::BoardEmpty | Failure::AllHome);
            let line = match (escapes, escape.line.is_empty()) {
                (true, false) => format!("a line that escapes: {}", escape.line.join(" ")),
                (false, false) => format!("the line it stopped on: {}", escape.line.join(" ")),
                (true, true) if verification.nodes == 0 => {
                    "the claim itself escapes, with no retraction".to_owned()
                }
                (true, true) => "the line that escapes was not kept".to_owned(),
                (false, true) => "it stopped before any retraction".to_owned(),
            };
            format!(
                "not verified ({}) after {} nodes; {line}\n",
                escape.failure, verification.nodes
            )
        }
    };
    let doc = CageVerifyDoc {
        cage: verification.verified(),
        line: verification.escape(),
        nodes: verification.nodes,
        cage_line: cage.to_string(),
    };
    Answer::new(&doc, text)
}
