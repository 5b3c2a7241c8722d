//! `save FILE` / `load FILE`: a whole session (the position set up, its marks, the line of
//! retractions, the step shown, the user's cages) in a small text format.
//!
//! The format, one record a line (blank lines and `#` comments ignored):
//!
//! ```text
//! retrace-session 1            the first line: the format and its version
//! fen <FEN>                    the position set up (retracting side, rights, en passant)
//! frozen <square>              a mark on the latest position: a unit that never moved
//! promoted <square>            a mark on the latest position: a promoted piece
//! retract <move>               the next retraction of the line (last move of the game first)
//! at <N>                       the step shown: 0 is the position set up
//! cage <cage line>             a user cage (cli-contract's cage line), re-verified on load
//! end                          the last line: the file is whole
//! ```
//!
//! Marks follow the record of the position they were put on (a mark before the `fen` record is
//! refused); marks a retraction carries along are not repeated. Loading replays every record
//! through the same checks as the commands, and either the whole session loads or nothing
//! changes. A file without its `end` record was cut short (a disk that filled, a copy that
//! stopped) and is refused. Why a file does not load is a [`SessionFileError`] (`error.rs`).

use std::{
    fmt::Write as _,
    sync::atomic::{AtomicBool, Ordering},
};

use retrace_cage::{CageStore, LoadBudget};
use shakmaty::Square;

use super::{
    error::{RecordError, SessionFileError},
    Session,
};

/// The first line of a session file: the format and its version.
const HEADER: &str = "retrace-session 1";

/// The record that ends a whole session file.
const END: &str = "end";

impl Session {
    /// The session as text in the format of this module.
    #[must_use]
    pub fn to_session_text(&self) -> String {
        let mut text = format!("{HEADER}\n");
        let start = &self.line[0].pos;
        let _ = writeln!(text, "fen {}", start.fen());
        // The marks the FEN itself gives (castling rights freeze their king and rooks).
        let from_fen = retrace_unmove::RetroPosition::from_fen(&start.fen()).ok();
        marks(&mut text, start, from_fen.as_ref());
        for k in 1..self.line.len() {
            let Some(via) = self.line[k].via else {
                continue;
            };
            let before = &self.line[k - 1].pos;
            let _ = writeln!(text, "retract {via}");
            let carried = before.retract(via);
            marks(&mut text, &self.line[k].pos, Some(&carried));
        }
        let _ = writeln!(text, "at {}", self.current);
        for cage in self.cages.cages() {
            let _ = writeln!(text, "cage {cage}");
        }
        let _ = writeln!(text, "{END}");
        text
    }

    /// Replaces the session by the one `text` describes, or changes nothing and says why.
    pub fn load_session_text(&mut self, text: &str) -> Result<(), SessionFileError> {
        self.load_session_text_within(text, None)
    }

    /// [`Session::load_session_text`], stopped by `cancel` (Ctrl-C) while its cages are
    /// verified: then nothing changes.
    pub fn load_session_text_within(
        &mut self,
        text: &str,
        cancel: Option<&AtomicBool>,
    ) -> Result<(), SessionFileError> {
        let mut records = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        match records.next() {
            Some((_, HEADER)) => {}
            _ => return Err(SessionFileError::NotASession),
        }
        let mut loaded = Session::new(self.style);
        loaded.flipped = self.flipped;
        let mut cage_lines = Vec::new();
        let mut at = None;
        let mut set_up = false;
        let mut ended = false;
        for (number, record) in records {
            if ended {
                return Err(SessionFileError::AfterEnd(number));
            }
            let (kind, rest) = record
                .split_once(char::is_whitespace)
                .unwrap_or((record, ""));
            let rest = rest.trim();
            let result: Result<(), RecordError> = match kind {
                "fen" if !set_up => {
                    set_up = true;
                    retrace_unmove::RetroPosition::from_fen(rest)
                        .map(|pos| {
                            loaded.set_up(pos);
                        })
                        .map_err(RecordError::from)
                }
                "frozen" | "promoted" if !set_up => {
                    Err(RecordError::MarkBeforeFen(kind.to_owned()))
                }
                "frozen" | "promoted" => rest
                    .parse::<Square>()
                    .map_err(|_| RecordError::NotASquare(rest.to_owned()))
                    .and_then(|square| {
                        let last = loaded.line.len() - 1;
                        let pos = &mut loaded.line[last].pos;
                        if kind == "frozen" {
                            pos.mark_never_moved(square).map_err(RecordError::from)
                        } else {
                            crate::args::mark_promoted(pos, square).map_err(RecordError::Mark)
                        }
                    }),
                "retract" if set_up => {
                    loaded.current = loaded.line.len() - 1;
                    loaded
                        .position()
                        .parse_retraction(rest)
                        .map(|r| {
                            loaded.push(r);
                        })
                        .map_err(RecordError::from)
                }
                "at" => rest
                    .parse::<usize>()
                    .map(|n| at = Some(n))
                    .map_err(|_| RecordError::NotAStep(rest.to_owned())),
                "cage" => {
                    cage_lines.push(rest.to_owned());
                    Ok(())
                }
                END if rest.is_empty() => {
                    ended = true;
                    Ok(())
                }
                _ => Err(RecordError::Unexpected(kind.to_owned())),
            };
            result.map_err(|error| SessionFileError::Record {
                line: number,
                error,
            })?;
        }
        if !set_up {
            return Err(SessionFileError::NoFen);
        }
        if !ended {
            return Err(SessionFileError::CutShort);
        }
        let budget = LoadBudget {
            cancel,
            ..LoadBudget::default()
        };
        let (cages, dropped) = CageStore::load_within(&cage_lines.join("\n"), &budget);
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(SessionFileError::Interrupted);
        }
        if let Some((line, error)) = dropped.into_iter().next() {
            return Err(SessionFileError::Cage { line, error });
        }
        loaded.cages = cages;
        let last = loaded.line.len() - 1;
        loaded.current = match at {
            Some(n) if n <= last => n,
            Some(step) => return Err(SessionFileError::StepPastEnd { step, last }),
            None => last,
        };
        *self = loaded;
        Ok(())
    }
}

/// Writes the marks of `pos` that `carried` (the position a retraction gives, with the marks it
/// carries along) does not already have.
fn marks(
    text: &mut String,
    pos: &retrace_unmove::RetroPosition,
    carried: Option<&retrace_unmove::RetroPosition>,
) {
    let (frozen, promoted) = carried.map_or((pos.frozen(), pos.promoted()), |c| {
        (pos.frozen() & !c.frozen(), pos.promoted() & !c.promoted())
    });
    for square in frozen {
        let _ = writeln!(text, "frozen {square}");
    }
    for square in promoted {
        let _ = writeln!(text, "promoted {square}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_errors_name_the_records_of_the_format() {
        assert!(SessionFileError::NotASession.to_string().contains(HEADER));
        let cut = SessionFileError::CutShort.to_string();
        assert!(cut.contains(&format!("'{END}' record")), "{cut}");
        let after = SessionFileError::AfterEnd(3).to_string();
        assert!(after.contains(&format!("after '{END}'")), "{after}");
    }
}
