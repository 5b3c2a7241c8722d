//! Everything `retrace` shows: the JSON documents of the contract as typed structs (one field per
//! field of the contract, in its order), the text for people made beside them, the errors with
//! their exit statuses, and the writers that put both on standard output and standard error.
//!
//! Every byte the program prints goes through [`print()`], [`write_to()`], [`warn()`],
//! [`to_stderr()`] or [`report()`]: a write to stdout that fails is an error the caller sees (a
//! full disk) or a quiet end (a closed pipe), one to stderr is dropped, and neither panics.

mod answers;
pub mod proof;
pub mod proofgame;
pub mod render;
pub mod reply;
pub mod retractor;
mod rights;
mod shown;
pub mod view;

use std::{
    io::{self, Write},
    process::ExitCode,
};

use serde::Serialize;
use thiserror::Error;

pub use answers::{
    cage_verify, check, list, perft, solve, solve_stream_summary, JsonlSolution, ReasonDoc,
};
pub use rights::rights;
pub use shown::{escape_controls, one_line, shown_path, ONE_LINE_BYTES};

/// The exit status when whoever reads our output stopped reading (as `head` does): what a shell
/// reports for a program ended by `SIGPIPE`, 128 + 13.
pub const CLOSED_PIPE_STATUS: u8 = 141;

/// A failure of a subcommand, classified by the exit status it earns.
#[derive(Debug, Error)]
pub enum CliError {
    /// The input was wrong (exit 2).
    #[error("{0}")]
    BadInput(String),
    /// Something failed that the input did not cause (exit 1).
    #[error("{0}")]
    Internal(String),
    /// The answer could not be written (a full disk): exit 1.
    #[error("cannot write the output: {0}")]
    Output(io::Error),
    /// A file could not be written (the answer itself was printed): exit 1, one line on stderr
    /// and no JSON document (there was one already).
    #[error("{0}")]
    WriteFailed(String),
    /// Ctrl-C came before there was an answer to print (a cage file half loaded): exit 130.
    #[error("{0}")]
    Interrupted(String),
    /// Whoever reads our output stopped reading (as `head` does): not worth a word, exit 141.
    #[error("output closed")]
    OutputClosed,
}

impl CliError {
    #[must_use]
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::BadInput(_) => ExitCode::from(2),
            CliError::Internal(_) | CliError::Output(_) | CliError::WriteFailed(_) => {
                ExitCode::from(1)
            }
            CliError::Interrupted(_) => ExitCode::from(crate::interrupt::INTERRUPTED_STATUS),
            CliError::OutputClosed => ExitCode::from(CLOSED_PIPE_STATUS),
        }
    }
}

impl From<io::Error> for CliError {
    /// An error of writing the output: a closed pipe ends quietly, anything else is reported.
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            return CliError::OutputClosed;
        }
        CliError::Output(err)
    }
}

/// One answer: the JSON document (serialized) and the text for people.
pub struct Answer {
    pub json: String,
    pub text: String,
}

impl Answer {
    /// The answer whose JSON is `doc` and whose text is `text`.
    pub fn new(doc: &impl Serialize, text: String) -> Result<Answer, CliError> {
        Ok(Answer {
            json: to_json(doc)?,
            text,
        })
    }

    /// Prints the answer on standard output: the JSON document on a line of its own with `json`,
    /// else the text as it is.
    pub fn print(&self, json: bool) -> Result<(), CliError> {
        if json {
            print(&format!("{}\n", self.json))
        } else {
            print(&self.text)
        }
    }
}

/// `doc` as one line of JSON.
pub fn to_json(doc: &impl Serialize) -> Result<String, CliError> {
    serde_json::to_string(doc).map_err(|e| CliError::Internal(format!("cannot write JSON: {e}")))
}

/// The JSON document of an error: `{"error": message}`.
#[derive(Debug, Serialize)]
pub struct ErrorDoc<'a> {
    pub error: &'a str,
}

/// The JSON document for an error, as one line.
#[must_use]
pub fn error_json(message: &str) -> String {
    to_json(&ErrorDoc { error: message }).unwrap_or_else(|_| r#"{"error":"?"}"#.to_owned())
}

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
