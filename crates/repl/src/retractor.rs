//! `retrace retractor`: defensive (Proca, Høeg) and help retractors, solved as a tree.

use clap::Args;
use retrace_search::{
    retractor::{Outcome, Play, Stage},
    solve_retractor, ForwardGoal, LegalPruner, RetractorKind, RetractorParams, RetractorSolution,
};
use retrace_unmove::RetroPosition;
use serde_json::{json, Value};
use shakmaty::Color;

use crate::{commands::Answer, output::CliError};

/// Tries the text output lists (the JSON lists them all).
const TEXT_TRIES: usize = 12;

/// The arguments of `retrace retractor`.
#[derive(Debug, Args)]
pub struct RetractorArgs {
    /// A full FEN with Black to move, or a board field alone (White retracts first).
    #[arg(value_name = "FEN", allow_hyphen_values = true)]
    pub fen: String,
    /// proca, hoeg or help.
    #[arg(long, value_name = "proca|hoeg|help")]
    pub kind: String,
    /// White retractions N (Black retracts N - 1 times in between).
    #[arg(long, value_name = "N")]
    pub retract: u32,
    /// The forward stipulation after the retractions: #M, =M or s#M.
    #[arg(long, value_name = "GOAL", allow_hyphen_values = true)]
    pub then: String,
    /// Stop after visiting this many nodes (the answer is then marked incomplete).
    #[arg(long, value_name = "NODES")]
    pub max_nodes: Option<u64>,
    /// Print one JSON document.
    #[arg(long)]
    pub json: bool,
}

/// Solves the retractor the arguments describe.
pub fn answer(args: &RetractorArgs) -> Result<Answer, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::BadInput(e.to_string());
    let pos = RetroPosition::parse(&args.fen, Some(Color::White)).map_err(|e| bad(&e))?;
    let kind: RetractorKind = args.kind.parse().map_err(|e| bad(&e))?;
    let goal: ForwardGoal = args.then.parse().map_err(|e| bad(&e))?;
    let params = RetractorParams {
        max_nodes: args.max_nodes,
        cancel: Some(crate::commands::interrupt_flag()),
        ..RetractorParams::new(kind, args.retract, goal)
    };
    let solution = solve_retractor(&pos, params, &LegalPruner::new()).map_err(|e| bad(&e))?;
    Ok(Answer {
        json: to_json(kind, args.retract, goal, &solution),
        text: to_text(kind, args.retract, goal, &solution),
    })
}

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

fn play_json(p: &Play) -> Value {
    let stage = match p.stage {
        Stage::Retraction => "retraction",
        Stage::Uncapture => "uncapture",
        Stage::Forward => "forward",
    };
    json!({
        "by": side(p.by),
        "stage": stage,
        "move": p.text,
        "duals": p.duals,
        "then": p.next.iter().map(play_json).collect::<Vec<_>>(),
    })
}

fn to_json(kind: RetractorKind, n: u32, goal: ForwardGoal, s: &RetractorSolution) -> Value {
    json!({
        "kind": kind.name(),
        "retract": n,
        "then": goal.to_string(),
        "verdict": verdict(s),
        "solutions": s.solutions,
        "keys": s.keys.iter().map(play_json).collect::<Vec<_>>(),
        "tries": s.tries.iter().map(|t| json!({"move": t.text, "refutation": t.refutation})).collect::<Vec<_>>(),
        "complete": s.complete,
        "truncated": s.truncated,
        "nodes": s.nodes,
        "elapsed_ms": s.elapsed.as_secs_f64() * 1000.0,
    })
}

fn to_text(kind: RetractorKind, n: u32, goal: ForwardGoal, s: &RetractorSolution) -> String {
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
        out.push_str(&format!("  (+{more} more tries: see --json)\n"));
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
