//! Errors and how they reach the user: one line on stderr, `{"error": ...}` on stdout with
//! `--json`, and the exit status of the contract.

use std::process::ExitCode;

use thiserror::Error;

/// A failure of a subcommand, classified by the exit status it earns.
#[derive(Debug, Error)]
pub enum CliError {
    /// The input was wrong (exit 2).
    #[error("{0}")]
    BadInput(String),
    /// Something failed that the input did not cause (exit 1).
    #[error("{0}")]
    Internal(String),
    /// Whoever reads our output stopped reading (as `head` does): not worth a word.
    #[error("output closed")]
    OutputClosed,
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::BadInput(_) => ExitCode::from(2),
            CliError::Internal(_) => ExitCode::from(1),
            CliError::OutputClosed => ExitCode::SUCCESS,
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(err: std::io::Error) -> Self {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError::OutputClosed;
        }
        CliError::Internal(format!("i/o error: {err}"))
    }
}

/// The JSON document for an error.
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// Reports `err` and gives the exit status for it.
pub fn report(err: &CliError, json: bool) -> ExitCode {
    if matches!(err, CliError::OutputClosed) {
        return err.exit_code();
    }
    let message = crate::lines::one_line(&err.to_string());
    if json {
        println!("{}", error_json(&message));
    }
    eprintln!("retrace: {message}");
    err.exit_code()
}
