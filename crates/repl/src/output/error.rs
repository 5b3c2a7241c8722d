//! A failure of a subcommand, classified by the exit status it earns, and its JSON document.

use std::{io, process::ExitCode};

use serde::Serialize;
use thiserror::Error;

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

/// The JSON document of an error: `{"error": message}`.
#[derive(Debug, Serialize)]
pub struct ErrorDoc<'a> {
    pub error: &'a str,
}

/// The JSON document for an error, as one line.
#[must_use]
pub fn error_json(message: &str) -> String {
    serde_json::to_string(&ErrorDoc { error: message })
        .unwrap_or_else(|_| r#"{"error":"?"}"#.to_owned())
}
