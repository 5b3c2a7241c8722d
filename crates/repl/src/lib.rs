//! The `retrace` command line as a library: the binary (`main.rs`) only parses arguments and
//! dispatches here, and the fuzz targets drive the REPL [`session::Session`] directly.

pub mod args;
pub mod batch;
pub mod board;
pub mod cli;
pub mod commands;
pub mod exact;
pub mod files;
pub mod help;
pub mod interactive;
pub mod interrupt;
pub mod lines;
pub mod output;
pub mod proofgame;
pub mod retractor;
pub mod rights;
pub mod script;
pub mod session;
