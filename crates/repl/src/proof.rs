//! Legality by retraction, for people and for scripts: what `prove` found, as text and as JSON.

use std::fmt::Write;

use retrace_search::{line_notation, Proof};
use retrace_unmove::RetroPosition;
use serde_json::{json, Value};

/// What `prove` said about a position, ready to print.
pub struct ProofReport {
    /// A history was found, or every history was shown to die earlier (`Some(false)`: the
    /// position is illegal); `None` when the search was stopped before it knew.
    pub has_history: Option<bool>,
    /// One line of explanation, also the message of the `no_history` reason.
    pub summary: String,
    /// The history, or each last move with how long its longest line lasted.
    pub details: Vec<String>,
    pub json: Value,
}

impl ProofReport {
    #[must_use]
    pub fn new(pos: &RetroPosition, depth: u32, proof: &Proof) -> ProofReport {
        match proof {
            Proof::History(line) => {
                let moves = line_notation(pos, line);
                ProofReport {
                    has_history: Some(true),
                    summary: format!(
                        "a history {depth} {} deep exists (last move first):",
                        plies(depth)
                    ),
                    details: vec![moves.join(" ")],
                    json: json!({
                        "depth": depth,
                        "complete": true,
                        "history": moves,
                        "tries": [],
                    }),
                }
            }
            Proof::NoHistory { tries, complete } => {
                let tried: Vec<(String, u32)> = tries
                    .iter()
                    .map(|&(r, survived)| (pos.notation(r), survived))
                    .collect();
                let longest = tried.iter().map(|t| t.1).max().unwrap_or(0);
                let summary = match (complete, longest) {
                    (false, _) => {
                        "the search was stopped before it found a history or ruled one out".into()
                    }
                    (true, 0) => format!(
                        "no history is {depth} {} deep: every last move leads to an illegal \
                         position, so this one is illegal",
                        plies(depth)
                    ),
                    (true, n) => format!(
                        "no history is {depth} {} deep: every line dies within {n} {}, so the \
                         position is illegal",
                        plies(depth),
                        plies(n)
                    ),
                };
                // One line per survival length, longest first: the moves that came closest.
                let mut by_length: Vec<(u32, Vec<&str>)> = Vec::new();
                for (m, survived) in &tried {
                    match by_length.iter_mut().find(|(n, _)| n == survived) {
                        Some((_, moves)) => moves.push(m),
                        None => by_length.push((*survived, vec![m])),
                    }
                }
                by_length.sort_by_key(|entry| std::cmp::Reverse(entry.0));
                let details = by_length
                    .iter()
                    .map(|(n, moves)| match n {
                        0 => format!("into an illegal position at once: {}", moves.join(" ")),
                        n => format!("lines that last {n} {}: {}", plies(*n), moves.join(" ")),
                    })
                    .collect();
                ProofReport {
                    has_history: complete.then_some(false),
                    summary,
                    details,
                    json: json!({
                        "depth": depth,
                        "complete": complete,
                        "history": Value::Null,
                        "tries": tried
                            .iter()
                            .map(|(m, s)| json!({ "move": m, "survived": s }))
                            .collect::<Vec<_>>(),
                    }),
                }
            }
        }
    }

    /// The summary and the details, one per indented line.
    #[must_use]
    pub fn text(&self) -> String {
        let mut text = self.summary.clone();
        for line in &self.details {
            let _ = write!(text, "\n  {line}");
        }
        text
    }
}

/// "ply" or "plies".
fn plies(n: u32) -> &'static str {
    if n == 1 {
        "ply"
    } else {
        "plies"
    }
}
