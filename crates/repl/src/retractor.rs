//! `retrace retractor`: defensive (Proca, Høeg) and help retractors, solved as a tree.

use clap::Args;
use retrace_search::{
    retractor::{Play, Stage},
    solve_retractor, ForwardGoal, LegalPruner, RetractorError, RetractorKind, RetractorParams,
    RetractorSolution,
};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

use crate::output::{Answer, CliError};

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

/// Solves the retractor the arguments describe; `cancel` stops the search (Ctrl-C).
pub fn answer(
    args: &RetractorArgs,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<Answer, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::BadInput(e.to_string());
    let pos = RetroPosition::parse(&args.fen, Some(Color::White)).map_err(|e| bad(&e))?;
    let kind: RetractorKind = args.kind.parse().map_err(|e| bad(&e))?;
    let goal: ForwardGoal = args.then.parse().map_err(|e| bad(&e))?;
    let params = RetractorParams {
        max_nodes: args.max_nodes,
        cancel: Some(cancel),
        ..RetractorParams::new(kind, args.retract, goal)
    };
    let solution = solve_retractor(&pos, params, &LegalPruner::new()).map_err(|e| bad(&e))?;
    crate::output::retractor::answer(kind, args.retract, goal, &solution)
}

/// The REPL's `retractor KIND N GOAL` on `pos`, asked with `params`: the solution, and for each
/// key the retractions of its main line (the first defence and reply at each step), for
/// `step K`.
pub fn repl(
    pos: &RetroPosition,
    params: RetractorParams<'_>,
) -> Result<(RetractorSolution, Vec<Vec<Retraction>>), RetractorError> {
    let solution = solve_retractor(pos, params, &LegalPruner::new())?;
    let lines = solution
        .keys
        .iter()
        .map(|key| main_line(pos, key))
        .collect();
    Ok((solution, lines))
}

/// The retractions along the first branch of `key`'s tree, up to the forward play.
fn main_line(pos: &RetroPosition, key: &Play) -> Vec<Retraction> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    let mut play = Some(key);
    while let Some(p) = play.filter(|p| p.stage != Stage::Forward) {
        // A Høeg geometry (`~`) is followed by the uncapture chosen, which names the retraction.
        if !p.text.contains('~') {
            match pos.parse_retraction(&p.text) {
                Ok(r) => {
                    pos.retract_in_place(r);
                    line.push(r);
                }
                Err(_) => break,
            }
        }
        play = p.next.first();
    }
    line
}
