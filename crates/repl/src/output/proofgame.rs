//! `proofgame`'s answer: the games found, forward, as game scores, and its JSON document.

use std::fmt::Write as _;

use retrace_legal::text::plural;
use retrace_search::{game_score, ProofGames};
use retrace_unmove::RetroPosition;
use serde::Serialize;

use super::{Answer, CliError};
use crate::proofgame::moves_text;

/// `proofgame`'s document.
#[derive(Debug, Serialize)]
struct ProofGameDoc {
    plies: u32,
    solutions: Vec<String>,
    count: u64,
    complete: bool,
    unique: Option<bool>,
    nodes: u64,
    elapsed_ms: f64,
}

/// What a proof-game search found, ready to print: the games as game scores, whether the search
/// was complete and the game unique. Every game is replayed with shakmaty; a game that does not
/// replay is an internal failure.
pub fn answer(pos: &RetroPosition, plies: u32, found: &ProofGames) -> Result<Answer, CliError> {
    {
        let scores = found
            .games
            .iter()
            .map(|line| game_score(pos, line).map_err(|e| format!("a game found: {e}")))
            .collect::<Result<Vec<String>, String>>()
            .map_err(CliError::Internal)?;
        let elapsed_ms = found.elapsed.as_secs_f64() * 1e3;
        let count = found.count;
        let mut text = format!(
            "{count} proof game{} in {} ({} nodes, {elapsed_ms:.1} ms)\n",
            plural(count),
            moves_text(plies),
            found.nodes
        );
        match found.unique() {
            Some(true) => text.push_str("unique: the search was complete and found one game\n"),
            Some(false) if count == 0 => {
                text.push_str("the search was complete: no game of this length reaches it\n");
            }
            Some(false) => text.push_str("the search was complete: the game is not unique\n"),
            None => text.push_str("the search was cut short: there may be more\n"),
        }
        for (i, score) in scores.iter().enumerate() {
            let _ = writeln!(text, "{:>4}. {score}", i + 1);
        }
        let kept = scores.len() as u64;
        if count > kept {
            let _ = writeln!(text, "     ... and {} more, not kept", count - kept);
        }
        let doc = ProofGameDoc {
            plies,
            solutions: scores,
            count,
            complete: found.complete,
            unique: found.unique(),
            nodes: found.nodes,
            elapsed_ms,
        };
        Answer::new(&doc, text)
    }
}
