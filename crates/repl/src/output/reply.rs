//! What a REPL command found, as facts ([`Reply`]), and the text the session shows for it. The
//! session executes a command into a reply and never spells the text it shows; the replies of the
//! `cage` commands and of the commands that touch files are in `reply/`.

mod cages;
mod files;

use std::fmt::Write as _;

use retrace_legal::{text::plural, Analysis, Reason};
use retrace_search::{
    line_notation, ForwardGoal, Proof, RetractorKind, RetractorSolution, Solutions,
};
use retrace_unmove::{Retraction, RetroPosition};

pub use cages::CageReply;
pub use files::FileReply;

use super::{proof::ProofReport, proofgame::ProofGameReport, render, view, view::BoardView};

/// The solutions `solve` and `solutions` list (of those kept): a terminal's worth more would
/// scroll the answer away.
const SOLUTIONS_SHOWN: usize = 200;

/// What one REPL command found or did.
pub enum Reply {
    /// Nothing to show (an empty line, `continue`).
    Nothing,
    /// A page of `help`, as it was wrapped.
    Help(String),
    /// The board (`show`, `flip`, `start`, `undo`, `redo`, `mark`).
    Board(BoardView),
    /// A position set up, and whether the analysis proved it illegal.
    SetUp { board: BoardView, illegal: bool },
    /// `list`: every legal retraction of the position.
    Retractions(RetroPosition),
    /// One retraction taken (in notation), and the reasons the analysis newly proved the
    /// position reached illegal with.
    Retracted {
        notation: String,
        board: BoardView,
        illegal: Vec<Reason>,
    },
    /// A paste of `moves` retractions taken, and the first of them that led into an illegal
    /// position (1 is the first).
    Pasted {
        moves: usize,
        board: BoardView,
        illegal_at: Option<usize>,
    },
    /// `back`: the `steps` retractions that led into an illegal position taken back.
    TookBack { steps: usize, board: BoardView },
    /// `history`: the retractions taken, `None` before the first.
    History(Option<History>),
    /// `check`: the analysis of the position.
    Check(Analysis),
    /// `rights`: the verdicts, `None` when the board does not set up without its rights.
    Rights(Option<retrace_search::rights::Rights>),
    /// `solve`: the solutions found from `pos` (their lines are the ones kept for `step`), and
    /// when there were none the reasons the analysis proves the position illegal with.
    Solved {
        pos: RetroPosition,
        found: Solutions,
        illegal: Vec<Reason>,
    },
    /// `prove N`.
    Proved(Proved),
    /// `retractor KIND N GOAL`; `walkable` when a key's main line can be walked into.
    Retractor {
        kind: RetractorKind,
        n: u32,
        goal: ForwardGoal,
        solution: RetractorSolution,
        walkable: bool,
    },
    /// `proofgame N`: the games found, and the PGN file written.
    ProofGame {
        report: ProofGameReport,
        written: Option<std::path::PathBuf>,
    },
    /// `solutions`: the solutions kept from the last solve.
    Solutions(SolutionList),
    /// `step K`: solution `number` walked into.
    Stepped { number: usize, board: BoardView },
    /// A `cage` command.
    Cage(CageReply),
    /// `export`, `save` or `load`.
    File(FileReply),
}

/// The retractions taken from the position set up (`start`), last move first, and the line as
/// a game.
pub struct History {
    pub start: RetroPosition,
    pub taken: Vec<Retraction>,
    pub pgn: String,
}

/// What `prove N` found.
pub enum Proved {
    /// The analysis proved the position illegal before any search.
    Illegal(Vec<Reason>),
    /// The search from `pos`, `depth` plies deep, and what it proved.
    Searched {
        pos: RetroPosition,
        depth: u32,
        proof: Proof,
    },
}

/// The solutions kept from a solve from `pos`: the kept `lines`, every solution's last move
/// with its count, and how many there were in all.
pub struct SolutionList {
    pub pos: RetroPosition,
    pub lines: Vec<Vec<Retraction>>,
    pub by_last_move: Vec<(Retraction, u64)>,
    pub count: u64,
}

impl Reply {
    /// The text the session shows for the reply (empty for nothing).
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Reply::Nothing => String::new(),
            Reply::Help(text) => text.clone(),
            Reply::Board(board) => board.text(),
            Reply::SetUp { board, illegal } => {
                let mut text = board.text();
                if *illegal {
                    text.push_str(
                        "\nThe analysis proves this position illegal (type check for why).",
                    );
                }
                text
            }
            Reply::Retractions(pos) => view::retractions(pos),
            Reply::Retracted {
                notation,
                board,
                illegal,
            } => retracted(notation, board, illegal),
            Reply::Pasted {
                moves,
                board,
                illegal_at,
            } => pasted(*moves, board, *illegal_at),
            Reply::TookBack { steps, board } => {
                let what = if *steps == 1 {
                    "the retraction".to_owned()
                } else {
                    format!("the {steps} retractions of the paste")
                };
                format!("took {what} back\n{}", board.text())
            }
            Reply::History(None) => "no retractions yet".into(),
            Reply::History(Some(history)) => format!(
                "retracted (last move first): {}\n\nas a game:\n{}",
                line_notation(&history.start, &history.taken).join(" "),
                history.pgn.trim_end()
            ),
            Reply::Check(analysis) => view::check(analysis),
            Reply::Rights(Some(rights)) => {
                super::rights::rights(rights).map_or_else(|e| e.to_string(), |a| a.text)
            }
            Reply::Rights(None) => "the board does not set up without its rights".to_owned(),
            Reply::Solved {
                pos,
                found,
                illegal,
            } => solved(pos, found, illegal),
            Reply::Proved(proved) => proved.text(),
            Reply::Retractor {
                kind,
                n,
                goal,
                solution,
                walkable,
            } => {
                let mut text = super::retractor::text(*kind, *n, *goal, solution);
                if *walkable {
                    text.push_str("(step K walks the main line of key K)\n");
                }
                text.trim_end().to_owned()
            }
            Reply::ProofGame { report, written } => {
                let mut text = report.text().trim_end().to_owned();
                if !report.scores.is_empty() {
                    text.push_str("\n(step K walks into game K, from its last move)");
                }
                if let Some(file) = written {
                    let _ = write!(text, "\nwrote {}", super::shown::shown_path(file));
                }
                text
            }
            Reply::Solutions(list) => format!(
                "{} solution{}{}",
                list.count,
                plural(list.count),
                solution_list(&list.pos, &list.lines, &list.by_last_move, list.count)
            ),
            Reply::Stepped { number, board } => format!("solution {number}\n{}", board.text()),
            Reply::Cage(reply) => reply.text(),
            Reply::File(reply) => reply.text(),
        }
    }
}

impl Proved {
    /// The verdict of `prove`, and where a history was found how to walk into it.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Proved::Illegal(reasons) => render::illegal_text(reasons).trim_end().to_owned(),
            Proved::Searched { pos, depth, proof } => {
                let mut text = ProofReport::new(pos, *depth, proof).text();
                if matches!(proof, Proof::History(_)) {
                    text.push_str("\n(step 1 walks into it)");
                }
                text
            }
        }
    }
}

/// `retracted Kb1-a1` and the board, then why the position reached is illegal, if it newly is.
fn retracted(notation: &str, board: &BoardView, illegal: &[Reason]) -> String {
    let mut text = format!("retracted {notation}\n{}", board.text());
    if !illegal.is_empty() {
        text.push_str("\nThe analysis proves this position illegal:");
        for reason in illegal {
            let _ = write!(text, "\n  {reason}");
        }
        text.push_str(
            "\nType back to take the retraction back, or go on (the line stays marked ILLEGAL).",
        );
    }
    text
}

/// `retracted 3 moves` and the board, then which move of the paste led into an illegal position.
fn pasted(moves: usize, board: &BoardView, illegal_at: Option<usize>) -> String {
    let mut text = format!("retracted {moves} moves\n{}", board.text());
    if let Some(i) = illegal_at {
        let _ = write!(
            text,
            "\nThe position after move {i} of the paste is illegal (type check). Type back to \
             take the paste back, or go on (the line stays marked ILLEGAL)."
        );
    }
    text
}

/// The answer of `solve`: why there is no last move, the summary, the solutions, the refuted
/// candidates, and how to walk into a solution.
fn solved(pos: &RetroPosition, found: &Solutions, illegal: &[Reason]) -> String {
    let mut text = match found.count {
        0 => render::illegal_text(illegal),
        _ => String::new(),
    };
    text.push_str(&render::solve_summary(
        found,
        " so far: the search was cut short",
    ));
    text.push_str(&solution_list(
        pos,
        &found.lines,
        &found.by_last_move,
        found.count,
    ));
    let refuted = render::refutations_text(pos, &found.refuted);
    if !refuted.is_empty() {
        text.push('\n');
        text.push_str(refuted.trim_end());
    }
    if found.count > 0 {
        text.push_str("\n(step K walks into solution K)");
    }
    text
}

/// The first [`SOLUTIONS_SHOWN`] solutions, a line each, every line after a newline (empty when
/// there are none).
fn solution_list(
    pos: &RetroPosition,
    lines: &[Vec<Retraction>],
    by_last_move: &[(Retraction, u64)],
    count: u64,
) -> String {
    let lines = render::solution_lines(pos, lines, by_last_move, count, SOLUTIONS_SHOWN, "");
    match lines.trim_end() {
        "" => String::new(),
        lines => format!("\n{lines}"),
    }
}
