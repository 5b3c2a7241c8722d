//! The same commands from a file or a pipe: plain output, errors on stderr, `--strict` stops.

use std::{
    io::{self, BufRead, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
};

use crate::{
    board::Style,
    lines::lines,
    output::one_line,
    output::{to_stderr, warn, CliError},
    session::{Hooks, Outcome, Session},
};

/// Runs every command of `input`. With `strict`, the first error ends the run: as bad input (exit
/// 2), or as a failure (exit 1) when a file could not be written. Without it the run goes on, and
/// the number of files that could not be written is returned (the run then ends with exit 1).
/// When `cancel` is set (Ctrl-C) the command running stops as it would at the terminal, and the
/// run ends after it.
pub fn run(input: impl BufRead, strict: bool, cancel: Arc<AtomicBool>) -> Result<u32, CliError> {
    let mut session = Session::new(Style::Plain);
    let mut quiet = |_: retrace_search::Progress| {};
    let mut out = io::stdout().lock();
    for line in lines(input) {
        let line = line?;
        let mut hooks = Hooks {
            cancel: Arc::clone(&cancel),
            progress: &mut quiet,
        };
        let failed_before = session.failed_writes();
        let result = line.text.map_err(|e| e.to_string()).and_then(|text| {
            if text.trim_start().starts_with('#') {
                Ok(Outcome::Show(String::new()))
            } else {
                session
                    .execute(&text, &mut hooks)
                    .map_err(|e| e.to_string())
            }
        });
        let error = match result {
            Ok(Outcome::Quit) => break,
            Ok(Outcome::Show(text)) => {
                show(&mut out, &text)?;
                None
            }
            Ok(Outcome::Partial { text, error }) => {
                show(&mut out, &text)?;
                Some(error.to_string())
            }
            Err(error) => Some(error),
        };
        if let Some(error) = error {
            let message = format!("line {}: {}", line.number, one_line(&error));
            if strict {
                return Err(if session.failed_writes() > failed_before {
                    CliError::Internal(message)
                } else {
                    CliError::BadInput(message)
                });
            }
            out.flush()?;
            to_stderr(&format!("error: {message}\n"));
        }
        if cancel.load(Ordering::Relaxed) {
            out.flush()?;
            warn(&format!(
                "interrupted at line {}: the rest of the script was not run",
                line.number
            ));
            break;
        }
    }
    out.flush()?;
    Ok(session.failed_writes())
}

/// Writes the text of a command, if any, on a line of its own.
fn show(out: &mut impl Write, text: &str) -> Result<(), CliError> {
    if !text.is_empty() {
        writeln!(out, "{text}")?;
    }
    Ok(())
}
