//! The state of one retractor session and the commands that change it.
//!
//! A [`Session`] holds the line of positions reached by retracting from the position set up, and
//! executes one command line at a time: parsed into a [`Command`] first (`command.rs`), then
//! executed into a [`Reply`] that holds what it found, then rendered by [`Reply::text`] (in
//! [`crate::output::reply`]); a failure is a [`SessionError`] (`error.rs`). Terminals and scripts
//! both go through [`Session::execute`], so everything a person can do is testable without a
//! terminal. The commands that touch files are in `files.rs` and `cages.rs`, the session file
//! format in `persist.rs`.

use std::{
    path::Path,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_cage::{analyze_thoroughly, analyze_with_cages, CageStore};
use retrace_legal::Reason;
use retrace_search::{
    prove_with_facts, solve, to_pgn, ForwardGoal, LegalPruner, Progress, Proof, ProofGameParams,
    RetractorKind, RetractorParams,
};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Square;

use crate::{
    args::{SolveRequest, KEPT_SOLUTIONS},
    board::Style,
    help,
    output::{
        proofgame::ProofGameReport,
        reply::{History, Proved, Reply, SolutionList},
        view::{self, BoardView, Marked},
    },
};

pub use command::{CageAction, CageClaim, Command, Export, Format, Mark};
pub use error::{ParseError, RecordError, SessionError, SessionFileError};

const INITIAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

mod cages;
mod command;
mod error;
mod files;
mod persist;

/// One position of the line, and how it was reached.
#[derive(Clone)]
struct Step {
    pos: RetroPosition,
    /// The retraction that led here from the previous step.
    via: Option<Retraction>,
    /// Set when the analysis proved this position (or one before it on the line) illegal.
    illegal: bool,
}

/// What the front end should do after a command.
#[derive(Debug)]
pub enum Outcome {
    /// Show this text (possibly empty) and read the next command.
    Show(String),
    /// Show this text, then report this error: the command did part of its work and kept it (a
    /// proof game search whose games are kept though its PGN file could not be written).
    Partial { text: String, error: SessionError },
    /// Leave the session.
    Quit,
}

/// What a long command may use while it runs: a cancel flag and a progress report.
pub struct Hooks<'a> {
    pub cancel: Arc<AtomicBool>,
    pub progress: &'a mut dyn FnMut(Progress),
}

/// The solutions of the last `solve`, found from step `root` of the line, whose position was
/// `pos`. They hold only while that step stands: cutting the line below it (a different
/// retraction after `undo`, `back`, `mark`, a new set-up) forgets them, and `pos` is checked
/// again before they are read, so a solution is never replayed from another position.
struct Found {
    root: usize,
    pos: RetroPosition,
    /// The first solutions (at most [`KEPT_SOLUTIONS`]), which `step` can walk into.
    lines: Vec<Vec<Retraction>>,
    /// How many there were in all.
    count: u64,
    /// Every solution's last move, kept or not, with its count.
    by_last_move: Vec<(Retraction, u64)>,
}

impl Found {
    /// Solutions that were all kept: `lines` from the position at `root`.
    fn all(root: usize, pos: RetroPosition, lines: Vec<Vec<Retraction>>) -> Found {
        let mut by_last_move = Vec::new();
        for last in lines.iter().filter_map(|line| line.first()) {
            retrace_search::tally_last_move(&mut by_last_move, *last);
        }
        Found {
            root,
            pos,
            count: lines.len() as u64,
            lines,
            by_last_move,
        }
    }
}

/// One retractor session.
pub struct Session {
    line: Vec<Step>,
    current: usize,
    /// The retractions (one, or a whole paste) that led into an illegal position: the next
    /// command decides (`back` takes them back, anything else goes on); 0 when none did.
    pending_illegal: usize,
    found: Option<Found>,
    flipped: bool,
    style: Style,
    /// Verified user cages, used by the analysis and the search.
    cages: CageStore,
    /// Writes of files that failed (not part of a saved session).
    failed_writes: u32,
}

impl Session {
    /// A session on the initial position, drawing the board in `style`.
    #[must_use]
    pub fn new(style: Style) -> Session {
        let start = RetroPosition::from_fen(INITIAL_FEN)
            .unwrap_or_else(|err| unreachable!("the initial position sets up: {err}"));
        Session {
            line: vec![Step {
                pos: start,
                via: None,
                illegal: false,
            }],
            current: 0,
            pending_illegal: 0,
            found: None,
            flipped: false,
            style,
            cages: CageStore::new(),
            failed_writes: 0,
        }
    }

    /// The position the session stands on.
    #[must_use]
    pub fn position(&self) -> &RetroPosition {
        &self.line[self.current].pos
    }

    /// Whether the current position is on a line already proven illegal.
    #[must_use]
    pub fn is_illegal(&self) -> bool {
        self.line[self.current].illegal
    }

    /// The prompt: who retracts, how many retractions were taken, and an illegality mark.
    #[must_use]
    pub fn prompt(&self) -> String {
        view::prompt(
            self.position().retracting(),
            self.current,
            self.is_illegal(),
        )
    }

    /// The legal retractions in notation, for completion after `retract`.
    #[must_use]
    pub fn retraction_words(&self) -> Vec<String> {
        self.position()
            .retractions()
            .into_iter()
            .map(|r| r.to_string())
            .collect()
    }

    /// Executes one command line. Errors are one line and leave the session unchanged (a file that
    /// could not be written is also counted, see [`Session::failed_writes`]); a command that did
    /// part of its work and kept it says so with [`Outcome::Partial`].
    pub fn execute(&mut self, line: &str, hooks: &mut Hooks<'_>) -> Result<Outcome, SessionError> {
        // Whatever comes after a retraction into an illegal position decides: `back` takes it
        // back, anything else (even a line that does not parse) goes on.
        let after_illegal = std::mem::take(&mut self.pending_illegal);
        let command = Command::parse(line, self.position().retracting())?;
        self.run(command, after_illegal, hooks)
    }

    /// Executes a parsed command and renders its reply; `after_illegal` the retractions that
    /// just led into an illegal position (0 when none did).
    fn run(
        &mut self,
        command: Command,
        after_illegal: usize,
        hooks: &mut Hooks<'_>,
    ) -> Result<Outcome, SessionError> {
        let reply = match command {
            Command::Nothing => Reply::Nothing,
            Command::Quit => return Ok(Outcome::Quit),
            Command::Help(topic) => Reply::Help(help::text(&topic).map_err(SessionError::Help)?),
            Command::SetUp(pos) => self.set_up(pos),
            Command::Show => Reply::Board(self.board()),
            Command::Flip => {
                self.flipped = !self.flipped;
                Reply::Board(self.board())
            }
            Command::List => Reply::Retractions(self.position().clone()),
            Command::Retract(what) => self.retract(&what)?,
            Command::Paste(words) => self.paste(&words)?,
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::Start => {
                self.current = 0;
                Reply::Board(self.board())
            }
            Command::Back if after_illegal > 0 => self.back(after_illegal),
            Command::Back => return Err(SessionError::NothingToTakeBack),
            Command::History => self.history()?,
            Command::Check { exact } => Reply::Check(crate::exact::analyze(
                self.position(),
                &self.cages,
                crate::exact::repl_facts(exact),
            )),
            Command::Rights => Reply::Rights(crate::rights::repl(
                self.position(),
                &self.cages,
                &hooks.cancel,
            )),
            Command::Solve(request) => self.solve(&request, hooks),
            Command::Prove {
                depth,
                max_nodes,
                exact,
            } => Reply::Proved(self.prove(depth, max_nodes, exact, hooks)),
            Command::Retractor { kind, n, goal } => self.retractor(kind, n, goal, hooks)?,
            Command::ProofGame { request, pgn } => {
                let (reply, failed) = self.proofgame(request, pgn.as_deref(), hooks)?;
                if let Some(error) = failed {
                    return Ok(Outcome::Partial {
                        text: reply.text(),
                        error,
                    });
                }
                reply
            }
            Command::Solutions => Reply::Solutions(self.solution_list()?),
            Command::Step(k) => self.step_into(k)?,
            Command::Mark(mark, square) => self.mark(mark, square)?,
            Command::Export(export) => Reply::File(self.export(&export)?),
            Command::Cage(action) => Reply::Cage(self.cage(action, &hooks.cancel)?),
            Command::Save(file) => Reply::File(self.save(&file)?),
            Command::Load(file) => Reply::File(self.load(&file, &hooks.cancel)?),
        };
        Ok(Outcome::Show(reply.text()))
    }

    fn set_up(&mut self, pos: RetroPosition) -> Reply {
        // One position set up by hand: worth the automatic cage attempt too.
        let illegal = !analyze_thoroughly(&pos, &self.cages).reasons.is_empty();
        self.line = vec![Step {
            pos,
            via: None,
            illegal,
        }];
        self.current = 0;
        self.found = None;
        Reply::SetUp {
            board: self.board(),
            illegal,
        }
    }

    /// The current position as the session shows it.
    fn board(&self) -> BoardView {
        // The mark passes down the line from the first position proven illegal.
        let marked = self.is_illegal().then(|| {
            if self.current > 0 && self.line[self.current - 1].illegal {
                Marked::Earlier
            } else {
                Marked::Here
            }
        });
        BoardView {
            pos: self.position().clone(),
            style: self.style,
            flipped: self.flipped,
            marked,
        }
    }

    /// Parses a retraction given as notation or as a number from `list`.
    fn parse_retraction(&self, what: &str) -> Result<Retraction, SessionError> {
        let pos = self.position();
        match what.parse::<usize>() {
            Ok(n) => {
                let retractions = pos.retractions();
                n.checked_sub(1)
                    .and_then(|i| retractions.get(i).copied())
                    .ok_or(SessionError::NoRetractionNumber(n))
            }
            Err(_) => Ok(pos.parse_retraction(what)?),
        }
    }

    fn retract(&mut self, what: &str) -> Result<Reply, SessionError> {
        let r = self.parse_retraction(what)?;
        let notation = self.position().notation(r);
        let illegal = self.push(r);
        if !illegal.is_empty() {
            self.pending_illegal = 1;
        }
        Ok(Reply::Retracted {
            notation,
            board: self.board(),
            illegal,
        })
    }

    /// Retracts `r` from the current position, dropping any redo steps. Returns the reasons the
    /// new position is illegal, if it newly is.
    fn push(&mut self, r: Retraction) -> Vec<Reason> {
        let step = &self.line[self.current];
        let pos = step.pos.retract(r);
        let reasons = if step.illegal {
            Vec::new()
        } else {
            analyze_with_cages(&pos, &self.cages).reasons
        };
        let illegal = step.illegal || !reasons.is_empty();
        self.cut_line_after_current();
        self.line.push(Step {
            pos,
            via: Some(r),
            illegal,
        });
        self.current += 1;
        reasons
    }

    /// Retracts a sequence, last move first; all of it or nothing.
    fn paste(&mut self, words: &[String]) -> Result<Reply, SessionError> {
        let mut pos = self.position().clone();
        let mut line = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate() {
            let r = pos
                .parse_retraction(word)
                .map_err(|source| SessionError::PasteMove {
                    number: i + 1,
                    source,
                })?;
            pos = pos.retract(r);
            line.push(r);
        }
        let mut illegal_at = None;
        for (i, r) in line.into_iter().enumerate() {
            if !self.push(r).is_empty() && illegal_at.is_none() {
                illegal_at = Some(i + 1);
            }
        }
        if illegal_at.is_some() {
            self.pending_illegal = words.len();
        }
        Ok(Reply::Pasted {
            moves: words.len(),
            board: self.board(),
            illegal_at,
        })
    }

    /// Drops the steps after the current one, and the solutions found from a dropped step.
    fn cut_line_after_current(&mut self) {
        self.line.truncate(self.current + 1);
        if self.found.as_ref().is_some_and(|f| f.root > self.current) {
            self.found = None;
        }
    }

    /// The stored solutions, if they still belong to a step of the line.
    fn found(&self) -> Option<&Found> {
        self.found
            .as_ref()
            .filter(|f| self.line.get(f.root).is_some_and(|s| s.pos == f.pos))
    }

    fn undo(&mut self) -> Result<Reply, SessionError> {
        if self.current == 0 {
            return Err(SessionError::NothingToUndo);
        }
        self.current -= 1;
        Ok(Reply::Board(self.board()))
    }

    fn redo(&mut self) -> Result<Reply, SessionError> {
        if self.current + 1 >= self.line.len() {
            return Err(SessionError::NothingToRedo);
        }
        self.current += 1;
        Ok(Reply::Board(self.board()))
    }

    /// Takes back the `steps` retractions that led into an illegal position (one, or a whole
    /// paste) and forgets them.
    fn back(&mut self, steps: usize) -> Reply {
        let steps = steps.min(self.current);
        self.current -= steps;
        self.cut_line_after_current();
        Reply::TookBack {
            steps,
            board: self.board(),
        }
    }

    /// The retractions from the start to here, last move first (the first one retracted is the
    /// last move of the game).
    fn taken(&self) -> Vec<Retraction> {
        self.line[1..=self.current]
            .iter()
            .filter_map(|s| s.via)
            .collect()
    }

    fn history(&self) -> Result<Reply, SessionError> {
        if self.current == 0 {
            return Ok(Reply::History(None));
        }
        let start = self.line[0].pos.clone();
        let taken = self.taken();
        let pgn = to_pgn(&start, &taken)?;
        Ok(Reply::History(Some(History { start, taken, pgn })))
    }

    fn solve(&mut self, request: &SolveRequest, hooks: &mut Hooks<'_>) -> Reply {
        let pos = self.position().clone();
        let facts = crate::exact::repl_facts(request.exact_fen);
        let mut params = request.params(facts, Arc::clone(&hooks.cancel), KEPT_SOLUTIONS);
        params.progress = Some(&mut *hooks.progress);
        let found = solve(
            &pos,
            params,
            &request.pruner(&self.cages, Arc::clone(&hooks.cancel)),
        );
        let illegal = match found.count {
            0 => {
                let mut reasons = analyze_with_cages(&pos, &self.cages).reasons;
                reasons.extend(crate::exact::reasons(&pos, &self.cages, facts));
                reasons
            }
            _ => Vec::new(),
        };
        self.found = Some(Found {
            root: self.current,
            pos: pos.clone(),
            lines: found.lines.clone(),
            count: found.count,
            by_last_move: found.by_last_move.clone(),
        });
        Reply::Solved {
            pos,
            found,
            illegal,
        }
    }

    /// A retractor from the current position; the main line of key K becomes solution K.
    fn retractor(
        &mut self,
        kind: RetractorKind,
        n: u32,
        goal: ForwardGoal,
        hooks: &mut Hooks<'_>,
    ) -> Result<Reply, SessionError> {
        let pos = self.position().clone();
        let params = RetractorParams {
            cancel: Some(Arc::clone(&hooks.cancel)),
            progress: Some(&mut *hooks.progress),
            ..RetractorParams::new(kind, n, goal)
        };
        let (solution, lines) = crate::retractor::repl(&pos, params)?;
        let walkable = !lines.is_empty();
        self.found = Some(Found::all(self.current, pos, lines));
        Ok(Reply::Retractor {
            kind,
            n,
            goal,
            solution,
            walkable,
        })
    }

    /// Legality by retraction: a history `N` plies deep, or the proof that every line dies
    /// earlier. A history found becomes solution 1, so `step 1` walks into it.
    fn prove(
        &mut self,
        depth: u32,
        max_nodes: Option<u64>,
        exact: bool,
        hooks: &mut Hooks<'_>,
    ) -> Proved {
        let pos = self.position().clone();
        let facts = crate::exact::repl_facts(exact);
        let mut illegal = analyze_with_cages(&pos, &self.cages).reasons;
        illegal.extend(crate::exact::reasons(&pos, &self.cages, facts));
        if !illegal.is_empty() {
            return Proved::Illegal(illegal);
        }
        let pruner = LegalPruner::with_cages(&self.cages);
        let cancel = Some(Arc::clone(&hooks.cancel));
        let (proof, _) = prove_with_facts(&pos, depth, &pruner, facts, cancel, max_nodes);
        if let Proof::History(line) = &proof {
            self.found = Some(Found::all(self.current, pos.clone(), vec![line.clone()]));
        }
        Proved::Searched { pos, depth, proof }
    }

    /// `proofgame N [plies P] [max M] [pgn FILE]`: the games of N moves from the initial array
    /// that reach the current position; they become the solutions `step K` walks into. The
    /// reply comes with the error of writing the PGN file, if that failed.
    fn proofgame(
        &mut self,
        request: crate::proofgame::Request,
        pgn_file: Option<&Path>,
        hooks: &mut Hooks<'_>,
    ) -> Result<(Reply, Option<SessionError>), SessionError> {
        let plies = request.plies;
        let pos = self.position().clone();
        if !request.shortest {
            crate::proofgame::check_side(&pos, plies).map_err(SessionError::ProofGame)?;
        }
        let params = ProofGameParams {
            cancel: Some(Arc::clone(&hooks.cancel)),
            progress: Some(&mut *hooks.progress),
            ..ProofGameParams::default()
        };
        let (found, report) = if request.shortest {
            let shortest = crate::proofgame::search_shortest(
                std::slice::from_ref(&pos),
                request,
                &self.cages,
                params,
            );
            let report = ProofGameReport::shortest(&pos, &shortest);
            (shortest.found, report)
        } else {
            let found = crate::proofgame::search(&pos, request, &self.cages, params);
            let report = ProofGameReport::new(&pos, plies, &found);
            (found, report)
        };
        let report = report.map_err(|e| SessionError::ProofGame(e.to_string()))?;
        let pgn = match pgn_file {
            Some(_) => {
                Some(crate::proofgame::pgn(&pos, &found.games).map_err(SessionError::ProofGame)?)
            }
            None => None,
        };
        // The games are kept before the file is written: a file that cannot be written loses
        // nothing found.
        self.found = Some(Found::all(self.current, pos, found.games));
        let mut written = None;
        let mut failed = None;
        if let (Some(file), Some(pgn)) = (pgn_file, pgn) {
            match self.write_file(file, &pgn) {
                Ok(()) => written = Some(file.to_path_buf()),
                Err(error) => failed = Some(error),
            }
        }
        Ok((Reply::ProofGame { report, written }, failed))
    }

    /// The solutions kept from the last solve.
    fn solution_list(&self) -> Result<SolutionList, SessionError> {
        let found = self.found().ok_or(SessionError::NoSolve)?;
        Ok(SolutionList {
            pos: found.pos.clone(),
            lines: found.lines.clone(),
            by_last_move: found.by_last_move.clone(),
            count: found.count,
        })
    }

    /// Walks into solution `k`: its retractions become the line after the solve's position.
    fn step_into(&mut self, k: usize) -> Result<Reply, SessionError> {
        let found = self.found().ok_or(SessionError::NoSolve)?;
        let line = k
            .checked_sub(1)
            .and_then(|i| found.lines.get(i))
            .ok_or(if k == 0 {
                SessionError::SolutionZero
            } else if (k as u64) <= found.count {
                SessionError::SolutionNotKept(k)
            } else {
                SessionError::NoSolution(k)
            })?
            .clone();
        let root = found.root;
        self.current = root;
        for r in line {
            self.push(r);
        }
        Ok(Reply::Stepped {
            number: k,
            board: self.board(),
        })
    }

    fn mark(&mut self, mark: Mark, square: Square) -> Result<Reply, SessionError> {
        let mut pos = self.position().clone();
        match mark {
            Mark::Frozen => pos.mark_never_moved(square).map_err(|e| e.to_string()),
            Mark::Promoted => crate::args::mark_promoted(&mut pos, square),
        }
        .map_err(SessionError::Mark)?;
        // Later steps were found without the mark; they no longer follow.
        self.cut_line_after_current();
        self.line[self.current].pos = pos;
        self.found = None;
        Ok(Reply::Board(self.board()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `lines` on a new session, the last one apart: its outcome.
    fn last_of(lines: &[&str]) -> Result<Outcome, SessionError> {
        let mut session = Session::new(Style::Plain);
        let mut quiet = |_: Progress| {};
        let mut hooks = Hooks {
            cancel: Arc::new(AtomicBool::new(false)),
            progress: &mut quiet,
        };
        let (last, before) = lines.split_last().expect("a line to run");
        for line in before {
            session
                .execute(line, &mut hooks)
                .expect("the lines before succeed");
        }
        session.execute(last, &mut hooks)
    }

    #[test]
    fn a_failure_is_told_by_its_kind_before_its_words() {
        const BRANDIS: &str = "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -";
        type Kind = fn(&SessionError) -> bool;
        let cases: [(&[&str], Kind); 10] = [
            (
                &["bogus"],
                |e| matches!(e, SessionError::Parse(ParseError::Unknown(w)) if w == "bogus"),
            ),
            (&["mark frozen z9"], |e| {
                matches!(e, SessionError::Parse(ParseError::NotASquare(_)))
            }),
            (&["undo"], |e| matches!(e, SessionError::NothingToUndo)),
            (&["redo"], |e| matches!(e, SessionError::NothingToRedo)),
            (&["back"], |e| matches!(e, SessionError::NothingToTakeBack)),
            (&["solutions"], |e| matches!(e, SessionError::NoSolve)),
            (&[BRANDIS, "retract 99"], |e| {
                matches!(e, SessionError::NoRetractionNumber(99))
            }),
            (&[BRANDIS, "solve 3", "step 0"], |e| {
                matches!(e, SessionError::SolutionZero)
            }),
            (&[BRANDIS, "solve 3", "step 7"], |e| {
                matches!(e, SessionError::NoSolution(7))
            }),
            (&["cage forget 1"], |e| matches!(e, SessionError::NoCage(1))),
        ];
        for (lines, kind) in cases {
            match last_of(lines) {
                Err(err) => assert!(kind(&err), "{lines:?}: {err:?}"),
                Ok(outcome) => panic!("{lines:?} succeeded: {outcome:?}"),
            }
        }
        // The words are the ones users have always seen.
        let err = last_of(&[BRANDIS, "retract 99"]).expect_err("no such retraction");
        assert_eq!(
            err.to_string(),
            "there is no retraction number 99 (see list)"
        );
    }

    #[test]
    fn history_and_redo_answer_in_the_words_users_know() {
        let Ok(Outcome::Show(text)) = last_of(&["fen 7k/8/8/8/8/8/8/K7 w - -", "history"]) else {
            panic!("history answers");
        };
        assert_eq!(text, "no retractions yet");
        let Ok(Outcome::Show(text)) =
            last_of(&["fen 7k/8/8/8/8/8/8/K7 w - -", "Kg8-h8", "undo", "redo"])
        else {
            panic!("redo answers");
        };
        assert!(text.contains("FEN 6k1/8/8/8/8/8/8/K7 b - -"), "{text}");
    }
}
