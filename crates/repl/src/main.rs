//! `retrace`: the interactive retractor and the batch subcommands scripts drive.
//!
//! The binary only parses arguments and dispatches; each subcommand lives in its own module and
//! reports failures as [`CliError`](retrace_repl::output::CliError) with the contract's exit codes.

use std::{io::IsTerminal, process::ExitCode};

use clap::Parser;
use retrace_repl::{cli::Cli, commands, output};

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
                // Help and version go to stdout: a full disk is a failure like any other.
                return match output::print(&styled(&err, std::io::stdout().is_terminal())) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(err) => output::report(&err, false),
                };
            }
            // Clap renders its own errors in full: what was wrong, the usage, and a "did you
            // mean" for a typo. With --json, stdout gets the error (without the usage) as one
            // document.
            if json {
                let text = err.render().to_string();
                let message: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                let message = message.join(" ");
                let doc = output::error_json(message.trim_start_matches("error: "));
                if let Err(err) = output::print(&format!("{doc}\n")) {
                    return output::report(&err, false);
                }
            }
            // Clap's own rendering on stderr; if stderr cannot take it there is nobody to tell.
            output::to_stderr(&styled(&err, std::io::stderr().is_terminal()));
            return ExitCode::from(2);
        }
    };
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => output::report(&err, json),
    }
}

/// Clap's rendering of `err`: in colour on a terminal (unless `NO_COLOR` is set), plain
/// otherwise.
fn styled(err: &clap::Error, terminal: bool) -> String {
    let rendered = err.render();
    if terminal && std::env::var_os("NO_COLOR").is_none() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    }
}
