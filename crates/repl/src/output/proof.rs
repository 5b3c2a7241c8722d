//! Legality by retraction, for people and for scripts: what `prove` found, as text and as JSON.

use std::fmt::Write;

use retrace_search::{line_notation, Cut, Proof, Try};
use retrace_unmove::RetroPosition;
use serde::Serialize;

/// What `prove` said about a position, ready to print.
pub struct ProofReport {
    /// A history was found, or every history was shown to die earlier (`Some(false)`: the
    /// position is illegal); `None` when the search was stopped before it knew.
    pub has_history: Option<bool>,
    /// One line of explanation, also the message of the `no_history` reason (or of the
    /// `closure` reason, see `closure`).
    pub summary: String,
    /// Whether the closure answered (the position's lines only go round in a finite set): the
    /// verdict's reason code is then `closure` rather than `no_history`.
    pub closure: bool,
    /// The history, or each last move with how long its longest line lasted.
    pub details: Vec<String>,
    /// The JSON document (`check --prove`'s `retraction`).
    pub doc: ProofDoc,
}

/// What `check --prove` found, as its JSON gives it (the `retraction` of `check`'s document).
#[derive(Debug, Serialize)]
pub struct ProofDoc {
    pub depth: u32,
    pub complete: bool,
    /// The history found, last move first.
    pub history: Option<Vec<String>>,
    pub longest: Longest,
    pub tries: Vec<TryDoc>,
    /// The closure's reason, when the closure answered.
    pub closure: Option<String>,
}

/// The longest history without repetition found.
#[derive(Debug, Serialize)]
pub struct Longest {
    pub plies: usize,
    pub line: Vec<String>,
}

/// One last move tried, and how long its lines lasted.
#[derive(Debug, Serialize)]
pub struct TryDoc {
    #[serde(rename = "move")]
    pub notation: String,
    pub survived: u32,
    pub repeats: bool,
    pub caged: bool,
    pub cut: &'static str,
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
                        "a history of at least {depth} {} without repetition exists (last move \
                         first):",
                        plies(depth)
                    ),
                    closure: false,
                    details: vec![moves.join(" ")],
                    doc: ProofDoc {
                        depth,
                        complete: true,
                        history: Some(moves.clone()),
                        longest: Longest {
                            plies: usize::try_from(depth).unwrap_or(usize::MAX),
                            line: moves,
                        },
                        tries: Vec::new(),
                        closure: None,
                    },
                }
            }
            Proof::NoHistory {
                tries,
                longest,
                complete,
                closure,
            } => {
                let tried: Vec<(String, &Try)> = tries
                    .iter()
                    .map(|t| (pos.notation(t.retraction), t))
                    .collect();
                let best = tried.iter().map(|t| t.1.survived).max().unwrap_or(0);
                let repeats = tried.iter().any(|t| t.1.repeats);
                let summary = match (complete, best, repeats) {
                    _ if closure.is_some() => closure
                        .as_ref()
                        .map(|r| r.message.clone())
                        .unwrap_or_default(),
                    (false, _, _) => {
                        "the search was stopped before it found a history or ruled one out".into()
                    }
                    (true, 0, _) => format!(
                        "no history is {depth} {} deep: every last move leads to an illegal \
                         position, so this one is illegal",
                        plies(depth)
                    ),
                    (true, n, false) => format!(
                        "no history is {depth} {} deep: every line dies within {n} {}, so the \
                         position is illegal",
                        plies(depth),
                        plies(n)
                    ),
                    (true, n, true) => format!(
                        "no history is {depth} {} deep: every line dies or repeats a position \
                         within {n} {} (a history that repeats can be cut short), so the \
                         position is illegal",
                        plies(depth),
                        plies(n)
                    ),
                };
                // One line per survival length, longest first: the moves that came closest.
                let mut by_length: Vec<(Group, Vec<&str>)> = Vec::new();
                for (m, t) in &tried {
                    let group = (t.survived, t.repeats, t.cut);
                    match by_length.iter_mut().find(|(g, _)| *g == group) {
                        Some((_, moves)) => moves.push(m),
                        None => by_length.push((group, vec![m])),
                    }
                }
                by_length.sort_by_key(|entry| std::cmp::Reverse(entry.0));
                let mut details: Vec<String> = by_length
                    .iter()
                    .map(|((n, repeats, cut), moves)| match (n, repeats) {
                        _ if *cut == Cut::Closure => format!(
                            "into a closure (its lines only go round): {}",
                            moves.join(" ")
                        ),
                        _ if *cut == Cut::Fact => format!(
                            "ruled out by the FEN's fields read exactly (a double step its \
                             en passant field denies, or a lost castling right left \
                             unexplainable): {}",
                            moves.join(" ")
                        ),
                        (0, _) if *cut == Cut::Cage => {
                            format!("into a cage at once: {}", moves.join(" "))
                        }
                        (0, _) => format!("into an illegal position at once: {}", moves.join(" ")),
                        (n, false) => {
                            format!("lines that last {n} {}: {}", plies(*n), moves.join(" "))
                        }
                        (n, true) => format!(
                            "lines that last {n} {}, then only repeat or die: {}",
                            plies(*n),
                            moves.join(" ")
                        ),
                    })
                    .collect();
                let line = line_notation(pos, longest);
                if !line.is_empty() {
                    details.push(format!(
                        "longest history without repetition ({} {}): {}",
                        line.len(),
                        plies(u32::try_from(line.len()).unwrap_or(u32::MAX)),
                        line.join(" ")
                    ));
                }
                ProofReport {
                    has_history: complete.then_some(false),
                    summary,
                    closure: closure.is_some(),
                    details,
                    doc: ProofDoc {
                        depth,
                        complete: *complete,
                        history: None,
                        longest: Longest {
                            plies: line.len(),
                            line,
                        },
                        tries: tried
                            .iter()
                            .map(|(m, t)| TryDoc {
                                notation: m.clone(),
                                survived: t.survived,
                                repeats: t.repeats,
                                caged: t.caged,
                                cut: t.cut.as_str(),
                            })
                            .collect(),
                        closure: closure.as_ref().map(|r| r.message.clone()),
                    },
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

/// How `prove`'s report groups last moves: the plies they survived, whether longer lines only
/// repeat, what cut them.
type Group = (u32, bool, Cut);

/// "ply" or "plies".
fn plies(n: u32) -> &'static str {
    if n == 1 {
        "ply"
    } else {
        "plies"
    }
}

#[cfg(test)]
mod tests {
    use retrace_search::{prove, NoPruning};
    use shakmaty::Color;

    use super::*;

    /// Each king shuffles between two corner squares, no uncaptures: every line repeats within
    /// 7 plies, and the report says that lines only repeat, with the longest line found.
    #[test]
    fn a_sealed_shuffle_is_reported_as_repeating() {
        let mut pos =
            RetroPosition::from_fen("5b1k/4pppp/8/8/8/8/4PPPP/5B1K w - - 0 1").expect("FEN");
        for color in Color::ALL {
            pos.set_uncaptures_allowed(color, false);
        }
        let report = ProofReport::new(&pos, 10, &prove(&pos, 10, &NoPruning, None));
        assert_eq!(report.has_history, Some(false));
        assert!(
            report.summary.contains("repeats a position"),
            "{}",
            report.summary
        );
        let text = report.text();
        assert!(text.contains("then only repeat or die"), "{text}");
        assert!(
            text.contains("longest history without repetition"),
            "{text}"
        );
        let json = serde_json::to_value(&report.doc).expect("a document");
        let plies = json["longest"]["plies"].as_u64().expect("plies");
        assert!((3..=7).contains(&plies), "{text}");
        assert!(json["tries"][0]["repeats"] == true);
        assert!(json["tries"][0]["cut"] == "depth");
        assert!(json["closure"].is_null());
    }

    /// Hwa's rook: the analysis finds nothing and the closure answers; the report gives its
    /// reason as the summary, names the cut of every last move, and has the closure in JSON.
    #[test]
    fn a_closed_position_is_reported_by_its_closure() {
        let pos = RetroPosition::from_fen("4k3/8/8/8/8/6P1/4PPrP/7K w - - 0 1").expect("FEN");
        let proof = prove(&pos, 20, &retrace_search::LegalPruner::new(), None);
        let report = ProofReport::new(&pos, 20, &proof);
        assert_eq!(report.has_history, Some(false));
        assert!(report.closure);
        assert!(
            report.summary.starts_with(
                "no history: every line of retractions of the units on h1, e2, f2, g2, h2 and g3 \
                 repeats a position or dies within"
            ),
            "{}",
            report.summary
        );
        assert!(
            report.text().contains("into a closure"),
            "{}",
            report.text()
        );
        let json = serde_json::to_value(&report.doc).expect("a document");
        assert!(json["closure"].is_string());
        let tries = json["tries"].as_array().expect("tries");
        assert!(!tries.is_empty());
        assert!(
            tries
                .iter()
                .all(|t| t["cut"] == "closure" || t["cut"] == "illegal"),
            "{tries:?}"
        );
    }
}
