//! `proofgame`'s answer: the games found, forward, as game scores, and its JSON document.

use std::fmt::Write as _;

use retrace_legal::text::plural;
use retrace_search::{game_score, ProofGames, ShortestProofGames};
use retrace_unmove::RetroPosition;
use serde::Serialize;

use super::{answer::Answer, error::CliError};
use crate::proofgame::moves_text;

/// `proofgame`'s document.
#[derive(Debug, Serialize)]
struct ProofGameDoc {
    plies: u32,
    solutions: Vec<String>,
    count: u64,
    complete: bool,
    unique: Option<bool>,
    /// Only when the shortest games were sought: whether `plies` is proven the least length
    /// (games found, every shorter length searched completely and without any).
    #[serde(skip_serializing_if = "Option::is_none")]
    shortest: Option<bool>,
    nodes: u64,
    elapsed_ms: f64,
}

/// What a proof-game search found, ready to print: the games as game scores, whether the search
/// was complete and the game unique. Every game is replayed with shakmaty; a game that does not
/// replay is an internal failure.
pub struct ProofGameReport {
    pub plies: u32,
    /// Each game kept, as a game score.
    pub scores: Vec<String>,
    /// How many games were found in all.
    pub count: u64,
    pub complete: bool,
    pub unique: Option<bool>,
    /// `Some` when the shortest games were sought: whether `plies` is proven the least length.
    pub shortest: Option<bool>,
    pub nodes: u64,
    pub elapsed_ms: f64,
}

impl ProofGameReport {
    /// The report of the games `found` from the initial array to `pos` in `plies` plies.
    pub fn new(
        pos: &RetroPosition,
        plies: u32,
        found: &ProofGames,
    ) -> Result<ProofGameReport, CliError> {
        let scores = found
            .games
            .iter()
            .map(|line| game_score(pos, line).map_err(|e| format!("a game found: {e}")))
            .collect::<Result<Vec<String>, String>>()
            .map_err(CliError::Internal)?;
        Ok(ProofGameReport {
            plies,
            scores,
            count: found.count,
            complete: found.complete,
            unique: found.unique(),
            shortest: None,
            nodes: found.nodes,
            elapsed_ms: found.elapsed.as_secs_f64() * 1e3,
        })
    }

    /// The report of the shortest games `found` to `pos` (the position whose side to move fits
    /// their length).
    pub fn shortest(
        pos: &RetroPosition,
        found: &ShortestProofGames,
    ) -> Result<ProofGameReport, CliError> {
        Ok(ProofGameReport {
            shortest: Some(found.proven_shortest()),
            ..ProofGameReport::new(pos, found.plies, &found.found)?
        })
    }

    /// The text of the answer: the count, the verdict, the games numbered.
    #[must_use]
    pub fn text(&self) -> String {
        let count = self.count;
        if self.shortest.is_some() {
            return self.shortest_text();
        }
        let mut text = format!(
            "{count} proof game{} in {} ({} nodes, {:.1} ms)\n",
            plural(count),
            moves_text(self.plies),
            self.nodes,
            self.elapsed_ms
        );
        match self.unique {
            Some(true) => text.push_str("unique: the search was complete and found one game\n"),
            Some(false) if count == 0 => {
                text.push_str("the search was complete: no game of this length reaches it\n");
            }
            Some(false) => text.push_str("the search was complete: the game is not unique\n"),
            None => text.push_str("the search was cut short: there may be more\n"),
        }
        self.push_games(&mut text);
        text
    }

    /// The games numbered, and how many more were not kept.
    fn push_games(&self, text: &mut String) {
        for (i, score) in self.scores.iter().enumerate() {
            let _ = writeln!(text, "{:>4}. {score}", i + 1);
        }
        let kept = self.scores.len() as u64;
        if self.count > kept {
            let _ = writeln!(text, "     ... and {} more, not kept", self.count - kept);
        }
    }

    /// The text of a search for the shortest games.
    fn shortest_text(&self) -> String {
        let (count, length) = (self.count, moves_text(self.plies));
        let work = format!("{} nodes, {:.1} ms", self.nodes, self.elapsed_ms);
        if count == 0 {
            return if self.complete {
                format!(
                    "no proof game of at most {length} ({work}): every length was searched \
                     completely\n"
                )
            } else {
                format!(
                    "no proof game shorter than {length}; the search of that length was cut \
                     short ({work})\n"
                )
            };
        }
        let mut text = format!(
            "shortest: {count} proof game{} in {length} ({work})\nno shorter game: every \
             shorter length was searched completely\n",
            plural(count)
        );
        match self.unique {
            Some(true) => text.push_str("unique: the search was complete and found one game\n"),
            Some(false) => text.push_str("the search was complete: the game is not unique\n"),
            None => text.push_str("the search of this length was cut short: there may be more\n"),
        }
        self.push_games(&mut text);
        text
    }
}

/// `proofgame`'s answer, as text and as its document.
pub fn answer(pos: &RetroPosition, plies: u32, found: &ProofGames) -> Result<Answer, CliError> {
    document(ProofGameReport::new(pos, plies, found)?)
}

/// A report as text and as its document.
fn document(report: ProofGameReport) -> Result<Answer, CliError> {
    let text = report.text();
    let doc = ProofGameDoc {
        plies: report.plies,
        solutions: report.scores,
        count: report.count,
        complete: report.complete,
        unique: report.unique,
        shortest: report.shortest,
        nodes: report.nodes,
        elapsed_ms: report.elapsed_ms,
    };
    Answer::new(&doc, text)
}

/// `proofgame --shortest`'s answer, as text and as its document (with `"shortest"`).
pub fn shortest_answer(
    pos: &RetroPosition,
    found: &ShortestProofGames,
) -> Result<Answer, CliError> {
    document(ProofGameReport::shortest(pos, found)?)
}
