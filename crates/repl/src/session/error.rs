//! Why a REPL command failed: one variant per kind of failure, its message the one line the user
//! sees after `error: `. A line that does not parse fails with a [`ParseError`] before anything
//! runs; a command that fails leaves the session as it was (a file that could not be written is
//! also counted, see [`super::Session::failed_writes`]).

use std::path::PathBuf;

use retrace_cage::CageError;
use retrace_search::{PgnError, RetractorError};
use retrace_unmove::{NotationError, SetupError};
use shakmaty::Square;
use thiserror::Error;

use crate::{
    args::{KEPT_SOLUTIONS, MAX_SOLVE_DEPTH},
    lines::MAX_FILE,
    output::shown_path,
};

/// Why a line is not a command the session can run.
#[derive(Debug, Error)]
pub enum ParseError {
    /// The first word is no command, and the line is not moves either.
    #[error("unknown command '{0}' (type help)")]
    Unknown(String),
    /// The words do not fit the command: how to write it.
    #[error("{0}")]
    Usage(&'static str),
    /// `prove` without a depth it can search.
    #[error("usage: prove N [nodes K] [exact-fen] (N from 1 to {MAX_SOLVE_DEPTH})")]
    ProveUsage,
    /// A word the command needs is missing: which, and how to give it.
    #[error("{0}")]
    Missing(&'static str),
    /// A position (`fen`, `board`, `pieces`) that does not set up.
    #[error(transparent)]
    Position(#[from] SetupError),
    /// An argument the command line shares with the REPL (a side, a length, a count, the
    /// options of `solve`) that does not read.
    #[error("{0}")]
    Argument(String),
    /// A retractor kind or stipulation that does not read.
    #[error(transparent)]
    Retractor(#[from] RetractorError),
    #[error("'{0}' is not a square")]
    NotASquare(String),
    /// A unit of `pieces` that does not read.
    #[error("'{0}' is not a unit: write Kh1, Qf8, e2")]
    NotAUnit(String),
    /// A unit of `pieces` before any `white` or `black`.
    #[error("say white or black before {0}")]
    NoSideBefore(String),
    /// Two units of `pieces` on one square.
    #[error("{0} is given twice")]
    GivenTwice(Square),
    /// A count (`depth N`) that is not a number.
    #[error("{what} '{value}' is not a number")]
    NotANumber { what: &'static str, value: String },
    /// A count (`nodes N`) that is not a positive number.
    #[error("{what} '{value}' is not a positive number")]
    NotAPositiveNumber { what: &'static str, value: String },
}

/// A command of the session that failed, and why.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The line is not a command, or its words do not parse.
    #[error(transparent)]
    Parse(#[from] ParseError),
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
    #[error(transparent)]
    SessionFile(#[from] SessionFileError),
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

/// Why a saved session does not load (see `persist.rs` for the format); nothing was loaded.
#[derive(Debug, Error)]
pub enum SessionFileError {
    /// The first line is not the header (the format's records are named in `persist.rs`).
    #[error("not a saved session: the first line is not 'retrace-session 1'")]
    NotASession,
    /// A record after the last one (1 is the first line of the file).
    #[error("line {0}: a record after 'end'; nothing was loaded")]
    AfterEnd(usize),
    /// A record that does not read or does not apply.
    #[error("line {line}: {error}; nothing was loaded")]
    Record { line: usize, error: RecordError },
    #[error("the session has no 'fen' record; nothing was loaded")]
    NoFen,
    /// A file without its `end` record: a disk that filled, a copy that stopped.
    #[error("the session file ends before its 'end' record: it was cut short; nothing was loaded")]
    CutShort,
    /// Ctrl-C while the cages were verified.
    #[error("interrupted while its cages were verified; nothing was loaded")]
    Interrupted,
    /// A cage that does not verify (1 is the first cage of the file).
    #[error("cage {line}: {error}; nothing was loaded")]
    Cage { line: usize, error: CageError },
    /// An `at` record past the last step of the line.
    #[error("step {step} is past the end of the line ({last}); nothing was loaded")]
    StepPastEnd { step: usize, last: usize },
}

/// Why one record of a saved session does not read or does not apply.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The position set up, or a mark it refuses.
    #[error(transparent)]
    Position(#[from] SetupError),
    /// A mark before the position it belongs to.
    #[error("a '{0}' mark before the 'fen' record it belongs to")]
    MarkBeforeFen(String),
    #[error("'{0}' is not a square")]
    NotASquare(String),
    /// A promoted mark the position refuses.
    #[error("{0}")]
    Mark(String),
    /// A retraction that does not read or is not legal where it comes.
    #[error(transparent)]
    Retraction(#[from] NotationError),
    #[error("'{0}' is not a step number")]
    NotAStep(String),
    #[error("unexpected record '{0}'")]
    Unexpected(String),
}
