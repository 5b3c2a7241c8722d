//! `rights`: the castling and en passant rights of a board and side to move, and the sets of
//! castling rights that may be kept together (partial retro analysis), as
//! [`retrace_search::rights`] judges them.

use std::{
    process::ExitCode,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_cage::CageStore;
use retrace_search::rights::{rights, EpVerdict, RightVerdict, Rights, RightsParams};
use retrace_unmove::RetroPosition;
use serde_json::{json, Map, Value};

use crate::{
    cli::PositionArgs,
    interrupt::Interrupt,
    output::{Answer, CliError},
};

/// The FEN with its castling and en passant fields replaced by `-` (they are what is asked).
#[must_use]
pub fn without_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    for i in [2, 3] {
        if let Some(field) = fields.get_mut(i) {
            *field = "-";
        }
    }
    fields.join(" ")
}

/// `retrace rights FEN`: one position, or one a line from standard input with FEN `-`.
pub fn run(
    args: &PositionArgs,
    params: &RightsParams,
    cages: &CageStore,
    interrupt: &Interrupt,
) -> Result<ExitCode, CliError> {
    let answer = |fen: &str| {
        args.setup(&without_rights(fen))
            .and_then(|setup| render(&rights(&setup.pos, params, Some(cages))))
    };
    if args.fen != "-" {
        answer(&args.fen)?.print(args.json)?;
        return Ok(interrupt.status());
    }
    crate::batch::run(args.json, args.jobs(), interrupt, answer)
}

/// The REPL's `rights`: the current position without its castling rights and en passant square
/// (its other marks kept); `cancel` (Ctrl-C) stops it after the search running.
#[must_use]
pub fn repl_text(pos: &RetroPosition, cages: &CageStore, cancel: &Arc<AtomicBool>) -> String {
    let fen = without_rights(&pos.fen());
    let Ok(mut base) = RetroPosition::from_fen(&fen) else {
        return "the board does not set up without its rights".to_owned();
    };
    let rights_units = retrace_search::rights::CastlingRight::ALL
        .iter()
        .filter(|r| pos.castling_rights().intersects(r.squares()))
        .fold(shakmaty::Bitboard::EMPTY, |acc, r| acc | r.squares());
    for square in pos.frozen() & !rights_units {
        let _ = base.mark_frozen(square);
    }
    for square in pos.promoted() {
        let _ = base.mark_promoted(square);
    }
    let params = RightsParams {
        cancel: Some(Arc::clone(cancel)),
        ..RightsParams::default()
    };
    render(&rights(&base, &params, Some(cages))).map_or_else(|e| e.to_string(), |a| a.text)
}

/// The answer as JSON (the CLI contract's shape) and as text.
pub fn render(answer: &Rights) -> Result<Answer, CliError> {
    let mut castling = Map::new();
    let mut text = String::new();
    for (right, verdict) in &answer.castling {
        let word = match verdict {
            RightVerdict::Possible => "possible",
            RightVerdict::Impossible(_) => "impossible",
        };
        castling.insert(right.letter().to_string(), json!(word));
        text.push_str(&format!("{}: {word}", right.letter()));
        if let RightVerdict::Impossible(why) = verdict {
            text.push_str(&format!(" ({}: {})", why.code, why.message));
        }
        text.push('\n');
    }
    let mut en_passant = Map::new();
    for (square, verdict) in &answer.en_passant {
        let word = match verdict {
            EpVerdict::Proven(_) => "proven",
            EpVerdict::NotProven => "not proven",
        };
        en_passant.insert(square.to_string(), json!(word));
        text.push_str(&format!("e.p. {square}: {word}"));
        if let EpVerdict::Proven(why) = verdict {
            text.push_str(&format!(" ({})", why.message));
        }
        text.push('\n');
    }
    if answer.castling.is_empty() && answer.en_passant.is_empty() {
        text.push_str("no castling right or en passant capture on the board\n");
    }
    let ep_text =
        |ep: Option<shakmaty::Square>| ep.map_or_else(|| "-".to_owned(), |s| s.to_string());
    let sets: Vec<Value> = answer
        .sets
        .iter()
        .map(|s| {
            json!({
                "castling": s.castling.fen(),
                "en_passant": ep_text(s.en_passant),
                "why": s.why,
            })
        })
        .collect();
    let exclusive: Vec<Value> = answer
        .exclusive
        .iter()
        .map(|e| {
            json!({
                "castling": e.castling.fen(),
                "en_passant": ep_text(e.en_passant),
                "reason": { "code": e.reason.code, "message": e.reason.message },
            })
        })
        .collect();
    let with_ep =
        |ep: Option<shakmaty::Square>| ep.map_or_else(String::new, |s| format!(" with e.p. {s}"));
    if answer.castling.len() > 1 || !answer.exclusive.is_empty() {
        text.push_str("possible sets:\n");
        for s in &answer.sets {
            text.push_str(&format!(
                "  {}{}\n",
                s.castling.fen(),
                with_ep(s.en_passant)
            ));
        }
        for e in &answer.exclusive {
            text.push_str(&format!(
                "not together: {}{} ({}: {})\n",
                e.castling.fen(),
                with_ep(e.en_passant),
                e.reason.code,
                e.reason.message
            ));
        }
    }
    if !answer.complete {
        text.push_str("(incomplete: a search was cut short)\n");
    }
    let doc = json!({
        "castling": castling,
        "en_passant": en_passant,
        "sets": sets,
        "exclusive": exclusive,
        "complete": answer.complete,
    });
    Answer::new(&doc, text)
}
