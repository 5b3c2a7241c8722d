//! Why a REPL command failed: one variant per kind of failure, its message the one line the user
//! sees after `error: `. A command that fails leaves the session as it was (a file that could
//! not be written is also counted, see [`super::Session::failed_writes`]).

use std::path::PathBuf;

use retrace_cage::CageError;
use retrace_search::{PgnError, RetractorError};
use retrace_unmove::NotationError;
use thiserror::Error;

use crate::{args::KEPT_SOLUTIONS, lines::MAX_FILE, output::shown_path};

/// A command of the session that failed, and why.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The line is not a command, or its words do not parse (the message is the usage).
    #[error("{0}")]
    Parse(String),
    /// `help` on a topic it has no page for.
    #[error("{0}")]
    Help(String),
    /// `retract N` past the end of `list`.
    #[error("there is no retraction number {0} (see list)")]
    NoRetractionNumber(usize),
    /// A retraction that does not read, or is not legal here.
    #[error(transparent)]
    Retraction(#[from] NotationError),
    /// A move of a paste that does not read, or is not legal where it comes (1 is the first).
    #[error("move {number} of the paste: {source}; nothing was retracted")]
    PasteMove {
        number: usize,
        source: NotationError,
    },
    /// `undo` on the position set up.
    #[error("nothing to undo: this is the position set up")]
    NothingToUndo,
    /// `redo` at the end of the line.
    #[error("nothing to redo")]
    NothingToRedo,
    /// `back` when the last command did not lead into an illegal position.
    #[error("back only follows a retraction into an illegal position")]
    NothingToTakeBack,
    /// `solutions`, `step` or `export solutions` without solutions found on this line.
    #[error("no solve yet on this line")]
    NoSolve,
    /// `step 0`.
    #[error("there is no solution number 0: they count from 1")]
    SolutionZero,
    /// `step K` of a solution counted but not kept.
    #[error("solution {0} was not kept: only the first {KEPT_SOLUTIONS} are")]
    SolutionNotKept(usize),
    /// `step K` past the solutions found.
    #[error("there is no solution number {0}")]
    NoSolution(usize),
    /// The line as a game does not replay (`history`, `export pgn`).
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A solution as a game does not replay (`export solutions pgn`); 1 is the first.
    #[error("solution {number}: {source}")]
    SolutionPgn { number: usize, source: PgnError },
    /// A `mark` the position refuses.
    #[error("{0}")]
    Mark(String),
    /// A retractor that cannot be asked of this position.
    #[error(transparent)]
    Retractor(#[from] RetractorError),
    /// A proof-game search that cannot be asked of this position, or whose games do not replay.
    #[error("{0}")]
    ProofGame(String),
    /// A file that could not be written.
    #[error("{0}")]
    Write(String),
    /// A session too large for `load` to read back: `save` writes nothing.
    #[error(
        "the session takes {bytes} bytes, more than load reads ({} MiB): nothing was written to {}",
        MAX_FILE >> 20,
        shown_path(.file)
    )]
    SessionTooLarge { bytes: usize, file: PathBuf },
    /// A file that could not be read.
    #[error("{0}")]
    Read(String),
    /// A session file that does not load: nothing changed.
    #[error("{0}")]
    SessionFile(String),
    /// `cage forget N` past the cages stored.
    #[error("there is no cage number {0} (see cage list)")]
    NoCage(usize),
    /// `cage verify` of an empty square.
    #[error("a selected square is empty")]
    EmptySquareSelected,
    /// A cage that is malformed or not proven.
    #[error(transparent)]
    Cage(#[from] CageError),
}
