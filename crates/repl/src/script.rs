//! The same commands from a file or a pipe: plain output, errors on stderr, `--strict` stops.

use std::{
    io::{self, BufRead, Write},
    sync::{atomic::AtomicBool, Arc},
};

use crate::{
    board::Style,
    output::CliError,
    session::{Hooks, Outcome, Session},
};

/// Runs every command of `input`. With `strict`, the first error ends the run as bad input.
pub fn run(input: impl BufRead, strict: bool) -> Result<(), CliError> {
    let mut session = Session::new(Style::Plain);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut quiet = |_: retrace_search::Progress| {};
    let mut out = io::stdout().lock();
    for (number, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut hooks = Hooks {
            cancel: Arc::clone(&cancel),
            progress: &mut quiet,
        };
        match session.execute(&line, &mut hooks) {
            Ok(Outcome::Quit) => break,
            Ok(Outcome::Show(text)) if text.is_empty() => {}
            Ok(Outcome::Show(text)) => writeln!(out, "{text}")?,
            Err(err) if strict => {
                return Err(CliError::BadInput(format!("line {}: {err}", number + 1)));
            }
            Err(err) => eprintln!("error: line {}: {err}", number + 1),
        }
    }
    out.flush()?;
    Ok(())
}
