//! The writers every byte goes through: standard output (whose failure the caller sees) and
//! standard error (whose failure is dropped), and the report of an error with its exit status.

use std::{
    io::{self, Write},
    process::ExitCode,
};

use super::{
    error::{error_json, CliError},
    shown::one_line,
};

/// Writes `text` to standard output and flushes it, so a failure shows here and not later.
pub fn print(text: &str) -> Result<(), CliError> {
    write_to(&mut io::stdout().lock(), text)
}

/// Writes `text` to `out` and flushes it.
pub fn write_to(out: &mut impl Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes one line to standard error, prefixed `retrace: `. A failure to write it is ignored:
/// there is nowhere left to say anything, and a message must never cost a panic.
pub fn warn(message: &str) {
    let _ = writeln!(io::stderr().lock(), "retrace: {message}");
}

/// Writes `text` to standard error as it is (progress, prompts' companions), ignoring failures.
pub fn to_stderr(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Reports `err` and gives the exit status for it: one line on stderr and, with `json`, the
/// error document on stdout. When stdout cannot take that document either, the one line says so
/// too and the status is 1 (a closed stdout ends quietly, as always).
pub fn report(err: &CliError, json: bool) -> ExitCode {
    if matches!(err, CliError::OutputClosed) {
        return err.exit_code();
    }
    let message = one_line(&err.to_string());
    if json
        && !matches!(
            err,
            CliError::Output(_) | CliError::WriteFailed(_) | CliError::Interrupted(_)
        )
    {
        match print(&format!("{}\n", error_json(&message))) {
            Ok(()) => {}
            Err(closed @ CliError::OutputClosed) => return closed.exit_code(),
            Err(failed) => {
                warn(&format!("{message} ({failed})"));
                return failed.exit_code();
            }
        }
    }
    warn(&message);
    err.exit_code()
}
