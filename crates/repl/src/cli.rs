//! Command-line arguments, as `docs/cli.md` fixes them.

use clap::{value_parser, Args, Parser, Subcommand};
use shakmaty::{Color, Square};

use crate::args::{Setup, Uncapturers, MAX_PERFT_DEPTH, MAX_SOLVE_DEPTH};
use crate::output::CliError;

#[derive(Debug, Parser)]
#[command(
    name = "retrace",
    version,
    about = "Retrograde chess analysis: play chess backwards, exactly",
    long_about = "Retrograde chess analysis. With no subcommand, starts the interactive retractor."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse a position's legality, with the reasons and the captures it needs.
    Check {
        #[command(flatten)]
        position: PositionArgs,
        /// Load user cages (each re-verified; an unverifiable one is an error).
        #[arg(long, value_name = "FILE")]
        cages: Option<std::path::PathBuf>,
        /// When the analysis finds no contradiction, also look for a history N plies deep: if
        /// every line dies or repeats earlier, the position is illegal (reason no_history, or
        /// closure when every line only goes round in a finite set).
        #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(0..=i64::from(MAX_SOLVE_DEPTH)))]
        prove: Option<u32>,
        /// With --prove: give up after visiting this many nodes (the answer is then incomplete).
        #[arg(long, value_name = "NODES")]
        max_nodes: Option<u64>,
        /// Read the FEN's castling and en passant fields as complete: a missing right was lost
        /// (its king or rook moved, even if it stands at home again), '-' means no en passant
        /// capture was legal ('?' stays unknown). Both reach the verdict and --prove.
        #[arg(long)]
        exact_fen: bool,
    },
    /// Castling and en passant rights, and the sets of castling rights possible together.
    ///
    /// The board and side to move are those of the FEN; its castling and en passant fields are
    /// ignored (they are what is asked).
    Rights {
        #[command(flatten)]
        position: PositionArgs,
        /// Plies of history each set of rights must have before it is called possible.
        #[arg(long, value_name = "N", default_value_t = 6, value_parser = value_parser!(u32).range(1..=i64::from(MAX_SOLVE_DEPTH)))]
        depth: u32,
        /// Nodes each search may visit, and twenty times as many for all the searches of one
        /// position (the answer says when one was cut short).
        #[arg(long, value_name = "NODES", default_value_t = 200_000)]
        max_nodes: u64,
        /// Load user cages (each re-verified; an unverifiable one is an error).
        #[arg(long, value_name = "FILE")]
        cages: Option<std::path::PathBuf>,
    },
    /// Work with user cages.
    #[command(subcommand)]
    Cage(CageCommand),
    /// List every legal retraction of a position.
    List(PositionArgs),
    /// Count the leaves of the retraction tree DEPTH plies deep.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Plies to retract (0 to 12).
        #[arg(value_name = "DEPTH", value_parser = value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Stop after expanding this many positions (the count is then marked incomplete).
        #[arg(long, value_name = "NODES")]
        max_nodes: Option<u64>,
    },
    /// Find every sequence of the last N moves.
    Solve {
        #[command(flatten)]
        position: PositionArgs,
        /// Plies to retract (N, 0 to 64).
        #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(0..=i64::from(MAX_SOLVE_DEPTH)))]
        depth: u32,
        /// Further plies that must still be retractable after the N.
        #[arg(long, value_name = "E", default_value_t = retrace_search::DEFAULT_EXTRA,
              value_parser = value_parser!(u32).range(0..=i64::from(MAX_SOLVE_DEPTH)))]
        extra: u32,
        /// Stop after M solutions (the answer is then marked incomplete).
        #[arg(long, value_name = "M", value_parser = crate::args::parse_max)]
        max: Option<usize>,
        /// Forbid uncaptures: white, black or both.
        #[arg(long, value_enum)]
        no_uncapture: Option<Uncapturers>,
        /// Read the FEN's castling and en passant fields as complete: a missing right was lost,
        /// '-' means no en passant capture was possible ('?' stays unknown).
        #[arg(long)]
        exact_fen: bool,
        /// Read the FEN's clocks as facts: the halfmove clock counts plies since the last capture
        /// or pawn move; if the move number's plies equal --depth, solutions start from the
        /// initial array.
        #[arg(long)]
        game_clocks: bool,
        /// Stop after visiting this many nodes (the answer is then marked incomplete).
        #[arg(long, value_name = "NODES")]
        max_nodes: Option<u64>,
        /// Load user cages (each re-verified; an unverifiable one is an error).
        #[arg(long, value_name = "FILE")]
        cages: Option<std::path::PathBuf>,
        /// Stream every solution as it is found, one JSON line each ({"solution": [...]}), then
        /// one summary line ({"count", "by_last_move", "complete", "nodes", "elapsed_ms"}).
        /// Without it only the first 1000 solutions are shown and the rest are counted.
        #[arg(long)]
        jsonl: bool,
        /// Do not try the positions of candidate lines as cages (only the analysis and the
        /// user's cages prune), to see the candidates a cage kills.
        #[arg(long)]
        no_auto_cages: bool,
    },
    /// Find every game of exactly N moves from the initial array that reaches the position, or
    /// with --shortest the games of the fewest moves.
    #[command(
        group(clap::ArgGroup::new("length").required(true).args(["moves", "plies", "shortest"])),
        mut_arg("fen", |a| a.help(
            "A full FEN, a board field alone (the side to move follows from the length), or - \
             to read one per line from standard input"
        ))
    )]
    Proofgame {
        #[command(flatten)]
        position: PositionArgs,
        /// The length in moves, as composers count: N, or N.5 when Black is to move.
        #[arg(long, value_name = "N", value_parser = crate::proofgame::parse_moves)]
        moves: Option<u32>,
        /// The length in plies (instead of --moves).
        #[arg(long, value_name = "P", value_parser = crate::proofgame::parse_plies)]
        plies: Option<u32>,
        /// Find the shortest games instead: each length in turn from none, every one searched
        /// completely before the next, until a length has games (a bare board tries either
        /// side to move).
        #[arg(long)]
        shortest: bool,
        /// With --shortest, the longest length tried, in moves (N or N.5; 30 by default).
        #[arg(long, value_name = "N", conflicts_with_all = ["moves", "plies"],
              value_parser = crate::proofgame::parse_moves)]
        longest: Option<u32>,
        /// Stop after M games (the answer is then marked incomplete, and never unique).
        #[arg(long, value_name = "M", value_parser = crate::args::parse_max)]
        max: Option<usize>,
        /// Stop after visiting this many nodes (the answer is then marked incomplete).
        #[arg(long, value_name = "NODES")]
        max_nodes: Option<u64>,
        /// Also write the games to FILE in PGN, one record each (- for standard output, after
        /// the answer). The file is replaced whole or not at all.
        #[arg(long, value_name = "FILE")]
        pgn: Option<std::path::PathBuf>,
        /// Read the FEN's castling field as complete: a missing right was lost (the king or rook
        /// moved, even if it stands at home again).
        #[arg(long)]
        exact_fen: bool,
        /// Load user cages (each re-verified; an unverifiable one is an error).
        #[arg(long, value_name = "FILE")]
        cages: Option<std::path::PathBuf>,
    },
    /// Solve a retractor: White retracts N moves (Black in between), then a forward goal.
    Retractor(crate::retractor::RetractorArgs),
    /// Print a completion script for SHELL (e.g. `retrace completions bash > retrace.bash`).
    Completions {
        /// The shell to complete in.
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), generated from these definitions (`retrace man | man -l -`),
    /// or with SUBCOMMAND the page of that subcommand (`retrace man solve | man -l -`).
    Man {
        /// The subcommand whose page to print (all of them are on the main page's list).
        #[arg(value_name = "SUBCOMMAND")]
        subcommand: Option<String>,
    },
    /// Start the interactive retractor (the default).
    Repl {
        /// Run the commands of FILE instead of reading a terminal.
        #[arg(long, value_name = "FILE")]
        script: Option<std::path::PathBuf>,
        /// In a script, stop at the first error with exit status 2.
        #[arg(long)]
        strict: bool,
    },
}

#[derive(Debug, Args)]
pub struct PositionArgs {
    /// A full FEN, a board field alone (then --retract is required), or - to read one per line
    /// from standard input.
    #[arg(value_name = "FEN", allow_hyphen_values = true)]
    pub fen: String,
    /// The side that made the last move: w or b.
    #[arg(long, value_name = "w|b", value_parser = crate::args::parse_color)]
    pub retract: Option<Color>,
    /// Squares of units that never moved, comma separated.
    #[arg(long, value_name = "SQ,SQ,...", value_delimiter = ',')]
    pub frozen: Vec<Square>,
    /// Squares of units that are promoted pieces, comma separated.
    #[arg(long, value_name = "SQ,SQ,...", value_delimiter = ',')]
    pub promoted: Vec<Square>,
    /// Print one JSON document (one per line in batch mode).
    #[arg(long)]
    pub json: bool,
    /// In batch mode (FEN -), answer on N threads (default: every core); the output keeps the
    /// input's order whatever N is.
    #[arg(long, value_name = "N", value_parser = crate::batch::parse_jobs)]
    pub jobs: Option<u16>,
}

impl PositionArgs {
    /// The position of `fen` (this FEN, or one line of a batch) with the marks these arguments
    /// give.
    pub fn setup(&self, fen: &str) -> Result<Setup, CliError> {
        Setup::parse(fen, self.retract, &self.frozen, &self.promoted).map_err(CliError::BadInput)
    }
}

impl PositionArgs {
    /// The threads a batch runs on.
    #[must_use]
    pub fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(crate::batch::default_jobs, usize::from)
    }
}

#[derive(Debug, Subcommand)]
pub enum CageCommand {
    /// Verify that the units of a board form a cage: no extension of it has a history.
    Verify {
        /// The board field of the cage (only the caged units); a full FEN's other fields are
        /// ignored, since both sides retract freely in a cage.
        #[arg(value_name = "FEN")]
        fen: String,
        /// The squares tracked (default: the occupied squares and their king-move neighbours).
        #[arg(long, value_name = "SQ,SQ,...", value_delimiter = ',')]
        zone: Option<Vec<Square>>,
        /// Retractions searched before giving up.
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Units that never moved (each on its square of the initial array).
        #[arg(long, value_name = "SQ,SQ,...", value_delimiter = ',')]
        frozen: Vec<Square>,
        /// Upper bounds on the captures each side made in the whole game, as in a cage line's
        /// captures= field (w0, b2 or w0,b2): the cage then holds in the extensions within them.
        #[arg(long, value_name = "wN,bM")]
        captures: Option<String>,
        /// Cages the verification may use as proven (each re-verified on load, once).
        #[arg(long, value_name = "FILE")]
        cages: Option<std::path::PathBuf>,
        /// Nodes the verification may expand before giving up.
        #[arg(long, value_name = "N", default_value_t = retrace_cage::VerifyOptions::default().max_nodes)]
        max_nodes: u64,
        /// Memory the verification's tables may take, in MiB, before it gives up.
        #[arg(long, value_name = "MIB", default_value_t = retrace_cage::DEFAULT_MAX_BYTES >> 20,
              value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
        max_memory: u64,
        /// Print one JSON document.
        #[arg(long)]
        json: bool,
    },
}
