//! The same commands from a file or a pipe: plain output, errors on stderr, `--strict` stops.

use std::{
    io::{self, BufRead, Write},
    sync::{atomic::AtomicBool, Arc},
};

use crate::{
    board::Style,
    lines::{lines, one_line},
    output::CliError,
    session::{Hooks, Outcome, Session},
};

/// Runs every command of `input`. With `strict`, the first error ends the run as bad input.
pub fn run(input: impl BufRead, strict: bool) -> Result<(), CliError> {
    let mut session = Session::new(Style::Plain);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut quiet = |_: retrace_search::Progress| {};
    let mut out = io::stdout().lock();
    for line in lines(input) {
        let line = line?;
        let mut hooks = Hooks {
            cancel: Arc::clone(&cancel),
            progress: &mut quiet,
        };
        let result = line.text.map_err(|e| e.to_string()).and_then(|text| {
            if text.trim_start().starts_with('#') {
                Ok(Outcome::Show(String::new()))
            } else {
                session.execute(&text, &mut hooks)
            }
        });
        match result {
            Ok(Outcome::Quit) => break,
            Ok(Outcome::Show(text)) if text.is_empty() => {}
            Ok(Outcome::Show(text)) => writeln!(out, "{text}")?,
            Err(err) if strict => {
                return Err(CliError::BadInput(format!("line {}: {err}", line.number)));
            }
            Err(err) => eprintln!("error: line {}: {}", line.number, one_line(&err)),
        }
    }
    out.flush()?;
    Ok(())
}
