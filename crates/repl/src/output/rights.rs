//! `rights`'s answer: each castling right and e.p. capture with its verdict, the sets of rights
//! possible together and those excluded only together, as text and as the contract's document.

use std::fmt::Write as _;

use indexmap::IndexMap;
use retrace_search::rights::{EpVerdict, RightVerdict, Rights};
use serde::Serialize;
use shakmaty::Square;

use super::{answer::Answer, error::CliError};

/// `rights`'s document (see `docs/cli.md`).
#[derive(Debug, Serialize)]
struct RightsDoc {
    /// Each castling right on the board by its FEN letter: `possible` or `impossible`.
    castling: IndexMap<String, &'static str>,
    /// Each e.p. capture on the board by its square: `proven` or `not proven`.
    en_passant: IndexMap<String, &'static str>,
    sets: Vec<SetDoc>,
    exclusive: Vec<ExclusiveDoc>,
    complete: bool,
}

/// A set of castling rights possible together, with the e.p. capture proven given it.
#[derive(Debug, Serialize)]
struct SetDoc {
    castling: String,
    en_passant: String,
    why: String,
}

/// A set of castling rights impossible only together, and why.
#[derive(Debug, Serialize)]
struct ExclusiveDoc {
    castling: String,
    en_passant: String,
    reason: WhyDoc,
}

/// Why a set is impossible: a reason code and its sentence.
#[derive(Debug, Serialize)]
struct WhyDoc {
    code: &'static str,
    message: String,
}

/// An e.p. square as a FEN writes it (`-` for none).
fn ep_field(ep: Option<Square>) -> String {
    ep.map_or_else(|| "-".to_owned(), |s| s.to_string())
}

/// The answer of `rights` as text and as its document.
pub fn rights(answer: &Rights) -> Result<Answer, CliError> {
    let mut text = String::new();
    let mut castling = IndexMap::new();
    for (right, verdict) in &answer.castling {
        let word = match verdict {
            RightVerdict::Possible => "possible",
            RightVerdict::Impossible(_) => "impossible",
        };
        castling.insert(right.letter().to_string(), word);
        let _ = write!(text, "{}: {word}", right.letter());
        if let RightVerdict::Impossible(why) = verdict {
            let _ = write!(text, " ({}: {})", why.code, why.message);
        }
        text.push('\n');
    }
    let mut en_passant = IndexMap::new();
    for (square, verdict) in &answer.en_passant {
        let word = match verdict {
            EpVerdict::Proven(_) => "proven",
            EpVerdict::NotProven => "not proven",
        };
        en_passant.insert(square.to_string(), word);
        let _ = write!(text, "e.p. {square}: {word}");
        if let EpVerdict::Proven(why) = verdict {
            let _ = write!(text, " ({})", why.message);
        }
        text.push('\n');
    }
    if answer.castling.is_empty() && answer.en_passant.is_empty() {
        text.push_str("no castling right or en passant capture on the board\n");
    }
    let with_ep = |ep: Option<Square>| ep.map_or_else(String::new, |s| format!(" with e.p. {s}"));
    if answer.castling.len() > 1 || !answer.exclusive.is_empty() {
        text.push_str("possible sets:\n");
        for s in &answer.sets {
            let _ = writeln!(text, "  {}{}", s.castling.fen(), with_ep(s.en_passant));
        }
        for e in &answer.exclusive {
            let _ = writeln!(
                text,
                "not together: {}{} ({}: {})",
                e.castling.fen(),
                with_ep(e.en_passant),
                e.reason.code,
                e.reason.message
            );
        }
    }
    if !answer.complete {
        text.push_str("(incomplete: a search was cut short)\n");
    }
    let doc = RightsDoc {
        castling,
        en_passant,
        sets: answer
            .sets
            .iter()
            .map(|s| SetDoc {
                castling: s.castling.fen(),
                en_passant: ep_field(s.en_passant),
                why: s.why.clone(),
            })
            .collect(),
        exclusive: answer
            .exclusive
            .iter()
            .map(|e| ExclusiveDoc {
                castling: e.castling.fen(),
                en_passant: ep_field(e.en_passant),
                reason: WhyDoc {
                    code: e.reason.code,
                    message: e.reason.message.clone(),
                },
            })
            .collect(),
        complete: answer.complete,
    };
    Answer::new(&doc, text)
}
