//! Everything `retrace` shows: the JSON documents of the contract as typed structs (one field per
//! field of the contract, in its order), the text for people made beside them, what a REPL
//! command found ([`reply::Reply`]) with its text, the errors with their exit statuses
//! (`error.rs`), and the writers that put both on standard output and standard error
//! (`write.rs`). This file only declares and re-exports; no file here imports the session.
//!
//! Every byte the program prints goes through [`print()`], [`write_to()`], [`warn()`],
//! [`to_stderr()`] or [`report()`]: a write to stdout that fails is an error the caller sees (a
//! full disk) or a quiet end (a closed pipe), one to stderr is dropped, and neither panics.

mod answer;
mod answers;
mod error;
pub mod proof;
pub mod proofgame;
pub mod render;
pub mod reply;
pub mod retractor;
mod rights;
mod shown;
pub mod view;
mod write;

pub use answer::{to_json, Answer};
pub use answers::{
    cage_verify, check, list, perft, solve, solve_stream_summary, JsonlSolution, ReasonDoc,
};
pub use error::{error_json, CliError, ErrorDoc, CLOSED_PIPE_STATUS};
pub use rights::rights;
pub use shown::{escape_controls, one_line, shown_path, ONE_LINE_BYTES};
pub use write::{print, report, to_stderr, warn, write_to};
