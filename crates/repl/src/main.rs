//! `retrace`: the interactive retractor and the batch subcommands scripts drive.
//!
//! The binary only parses arguments and dispatches; each subcommand lives in its own module and
//! reports failures as [`CliError`] so that every error is one line with the contract's exit code.

mod board;
mod cli;
mod commands;
mod help;
mod interactive;
mod lines;
mod output;
mod proof;
mod proofgame;
mod retractor;
mod script;
mod session;

use std::process::ExitCode;

use clap::Parser;

use crate::{cli::Cli, output::CliError};

fn main() -> ExitCode {
    // Arguments as the OS gives them: a file name need not be UTF-8, and clap reports a text
    // argument that is not as bad input rather than `std::env::args` panicking.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = args.iter().any(|a| a == "--json");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                let _ = err.print();
                return ExitCode::SUCCESS;
            }
            let message = err.kind().as_str().map_or_else(
                || {
                    err.to_string()
                        .lines()
                        .next()
                        .unwrap_or("bad arguments")
                        .to_owned()
                },
                |kind| first_line_of(&err.to_string()).unwrap_or_else(|| kind.to_owned()),
            );
            return output::report(&CliError::BadInput(message), json);
        }
    };
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => output::report(&err, json),
    }
}

/// Clap's errors span several lines; the contract wants one.
fn first_line_of(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.trim_start_matches("error: ").to_owned())
}
