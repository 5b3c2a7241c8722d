//! The state of one retractor session and the commands that change it.
//!
//! A [`Session`] holds the line of positions reached by retracting from the position set up, and
//! executes one command line at a time: parsed into a [`Command`] first (`command.rs`), then run,
//! returning the text to show (made by [`crate::output::view`] and [`crate::output::render`]).
//! Terminals and scripts both go through [`Session::execute`], so everything a person can do is
//! testable without a terminal. The commands that touch files are in `files.rs` and `cages.rs`,
//! the session file format in `persist.rs`.

use std::{
    fmt::Write as _,
    path::Path,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_cage::{analyze_thoroughly, analyze_with_cages, CageStore};
use retrace_legal::text::{color_name, plural};
use retrace_legal::Reason;
use retrace_search::{
    line_notation, prove_within, solve, to_pgn, ForwardGoal, GameFacts, LegalPruner, Progress,
    Proof, ProofGameParams, RetractorKind, RetractorParams,
};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Square;

use crate::{
    args::{SolveRequest, KEPT_SOLUTIONS},
    board::Style,
    help,
    output::{
        proof::ProofReport,
        render,
        view::{self, Marked},
    },
};

pub use command::{CageAction, CageClaim, Command, Export, Format, Mark};

/// The solutions `solve` and `solutions` list (of the [`KEPT_SOLUTIONS`] kept): a terminal's
/// worth more would scroll the answer away.
const SOLUTIONS_SHOWN: usize = 200;

const INITIAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

mod cages;
mod command;
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
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Show this text (possibly empty) and read the next command.
    Show(String),
    /// Show this text, then report this error: the command did part of its work and kept it (a
    /// proof game search whose games are kept though its PGN file could not be written).
    Partial { text: String, error: String },
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
        let mark = if self.is_illegal() { " ILLEGAL" } else { "" };
        format!(
            "{} retracts [{}]{mark}> ",
            color_name(self.position().retracting()),
            self.current
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
    pub fn execute(&mut self, line: &str, hooks: &mut Hooks<'_>) -> Result<Outcome, String> {
        // Whatever comes after a retraction into an illegal position decides: `back` takes it
        // back, anything else (even a line that does not parse) goes on.
        let after_illegal = std::mem::take(&mut self.pending_illegal);
        let command = Command::parse(line, self.position().retracting())?;
        self.run(command, after_illegal, hooks)
    }

    /// Executes a parsed command; `after_illegal` the retractions that just led into an illegal
    /// position (0 when none did).
    fn run(
        &mut self,
        command: Command,
        after_illegal: usize,
        hooks: &mut Hooks<'_>,
    ) -> Result<Outcome, String> {
        let text = match command {
            Command::Nothing => String::new(),
            Command::Quit => return Ok(Outcome::Quit),
            Command::Help(topic) => help::text(&topic)?,
            Command::SetUp(pos) => self.set_up(pos),
            Command::Show => self.show(),
            Command::Flip => {
                self.flipped = !self.flipped;
                self.show()
            }
            Command::List => self.list(),
            Command::Retract(what) => self.retract_text(&what)?,
            Command::Paste(words) => self.paste(&words)?,
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::Start => {
                self.current = 0;
                self.show()
            }
            Command::Back if after_illegal > 0 => self.back(after_illegal)?,
            Command::Back => {
                return Err("back only follows a retraction into an illegal position".into())
            }
            Command::History => self.history()?,
            Command::Check => self.check(),
            Command::Rights => {
                crate::rights::repl_text(self.position(), &self.cages, &hooks.cancel)
            }
            Command::Solve(request) => self.solve(&request, hooks),
            Command::Prove { depth, max_nodes } => self.prove(depth, max_nodes, hooks),
            Command::Retractor { kind, n, goal } => self.retractor(kind, n, goal, hooks)?,
            Command::ProofGame { request, pgn } => {
                return self.proofgame(request, pgn.as_deref(), hooks)
            }
            Command::Solutions => self.solutions()?,
            Command::Step(k) => self.step_into(k)?,
            Command::Mark(mark, square) => self.mark(mark, square)?,
            Command::Export(export) => self.export(&export)?,
            Command::Cage(action) => self.cage(action, &hooks.cancel)?,
            Command::Save(file) => self.save(&file)?,
            Command::Load(file) => self.load(&file, &hooks.cancel)?,
        };
        Ok(Outcome::Show(text))
    }

    fn set_up(&mut self, pos: RetroPosition) -> String {
        // One position set up by hand: worth the automatic cage attempt too.
        let illegal = !analyze_thoroughly(&pos, &self.cages).reasons.is_empty();
        self.line = vec![Step {
            pos,
            via: None,
            illegal,
        }];
        self.current = 0;
        self.found = None;
        let mut text = self.show();
        if illegal {
            text.push_str("\nThe analysis proves this position illegal (type check for why).");
        }
        text
    }

    fn show(&self) -> String {
        // The mark passes down the line from the first position proven illegal.
        let marked = self.is_illegal().then(|| {
            if self.current > 0 && self.line[self.current - 1].illegal {
                Marked::Earlier
            } else {
                Marked::Here
            }
        });
        view::board(self.position(), self.style, self.flipped, marked)
    }

    /// Every legal retraction, numbered, one line per unit.
    fn list(&self) -> String {
        view::retractions(self.position())
    }

    /// Parses a retraction given as notation or as a number from `list`.
    fn parse_retraction(&self, what: &str) -> Result<Retraction, String> {
        let pos = self.position();
        match what.parse::<usize>() {
            Ok(n) => {
                let retractions = pos.retractions();
                n.checked_sub(1)
                    .and_then(|i| retractions.get(i).copied())
                    .ok_or_else(|| format!("there is no retraction number {n} (see list)"))
            }
            Err(_) => pos.parse_retraction(what).map_err(|e| e.to_string()),
        }
    }

    fn retract_text(&mut self, what: &str) -> Result<String, String> {
        let r = self.parse_retraction(what)?;
        let notation = self.position().notation(r);
        let reasons = self.push(r);
        let mut text = format!("retracted {notation}\n{}", self.show());
        if !reasons.is_empty() {
            self.pending_illegal = 1;
            text.push_str("\nThe analysis proves this position illegal:");
            for reason in &reasons {
                let _ = write!(text, "\n  {reason}");
            }
            text.push_str("\nType back to take the retraction back, or go on (the line stays marked ILLEGAL).");
        }
        Ok(text)
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
    fn paste(&mut self, words: &[String]) -> Result<String, String> {
        let mut pos = self.position().clone();
        let mut line = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate() {
            let r = pos
                .parse_retraction(word)
                .map_err(|e| format!("move {} of the paste: {e}; nothing was retracted", i + 1))?;
            pos = pos.retract(r);
            line.push(r);
        }
        let mut illegal_at = None;
        for (i, r) in line.into_iter().enumerate() {
            if !self.push(r).is_empty() && illegal_at.is_none() {
                illegal_at = Some(i + 1);
            }
        }
        let mut text = format!("retracted {} moves\n{}", words.len(), self.show());
        if let Some(i) = illegal_at {
            self.pending_illegal = words.len();
            let _ = write!(
                text,
                "\nThe position after move {i} of the paste is illegal (type check). Type back to \
                 take the paste back, or go on (the line stays marked ILLEGAL)."
            );
        }
        Ok(text)
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

    fn undo(&mut self) -> Result<String, String> {
        if self.current == 0 {
            return Err("nothing to undo: this is the position set up".into());
        }
        self.current -= 1;
        Ok(self.show())
    }

    fn redo(&mut self) -> Result<String, String> {
        if self.current + 1 >= self.line.len() {
            return Err("nothing to redo".into());
        }
        self.current += 1;
        Ok(self.show())
    }

    /// Takes back the `steps` retractions that led into an illegal position (one, or a whole
    /// paste) and forgets them.
    fn back(&mut self, steps: usize) -> Result<String, String> {
        let steps = steps.min(self.current);
        self.current -= steps;
        self.cut_line_after_current();
        let what = if steps == 1 {
            "the retraction".to_owned()
        } else {
            format!("the {steps} retractions of the paste")
        };
        Ok(format!("took {what} back\n{}", self.show()))
    }

    /// The retractions from the start to here, last move first (the first one retracted is the
    /// last move of the game).
    fn taken(&self) -> Vec<Retraction> {
        self.line[1..=self.current]
            .iter()
            .filter_map(|s| s.via)
            .collect()
    }

    fn history(&self) -> Result<String, String> {
        if self.current == 0 {
            return Ok("no retractions yet".into());
        }
        let start = &self.line[0].pos;
        let taken = self.taken();
        let retro = line_notation(start, &taken).join(" ");
        let pgn = to_pgn(start, &taken).map_err(|e| e.to_string())?;
        Ok(format!(
            "retracted (last move first): {retro}\n\nas a game:\n{}",
            pgn.trim_end()
        ))
    }

    fn check(&self) -> String {
        view::check(&analyze_thoroughly(self.position(), &self.cages))
    }

    fn solve(&mut self, request: &SolveRequest, hooks: &mut Hooks<'_>) -> String {
        let pos = self.position().clone();
        let mut params = request.params(
            GameFacts::default(),
            Arc::clone(&hooks.cancel),
            KEPT_SOLUTIONS,
        );
        params.progress = Some(&mut *hooks.progress);
        let found = solve(
            &pos,
            params,
            &request.pruner(&self.cages, Arc::clone(&hooks.cancel)),
        );
        let count = found.count;
        let mut text = match count {
            0 => render::illegal_text(&analyze_with_cages(&pos, &self.cages).reasons),
            _ => String::new(),
        };
        text.push_str(&render::solve_summary(
            &found,
            " so far: the search was cut short",
        ));
        let refuted = render::refutations_text(&pos, &found.refuted);
        self.found = Some(Found {
            root: self.current,
            pos,
            lines: found.lines,
            count,
            by_last_move: found.by_last_move,
        });
        text.push_str(&self.solution_list());
        if !refuted.is_empty() {
            text.push('\n');
            text.push_str(refuted.trim_end());
        }
        if count > 0 {
            text.push_str("\n(step K walks into solution K)");
        }
        text
    }

    /// A retractor from the current position; the main line of key K becomes solution K.
    fn retractor(
        &mut self,
        kind: RetractorKind,
        n: u32,
        goal: ForwardGoal,
        hooks: &mut Hooks<'_>,
    ) -> Result<String, String> {
        let pos = self.position().clone();
        let params = RetractorParams {
            cancel: Some(Arc::clone(&hooks.cancel)),
            progress: Some(&mut *hooks.progress),
            ..RetractorParams::new(kind, n, goal)
        };
        let (mut text, lines) = crate::retractor::repl(&pos, params)?;
        if !lines.is_empty() {
            text.push_str("(step K walks the main line of key K)\n");
        }
        self.found = Some(Found::all(self.current, pos, lines));
        Ok(text.trim_end().to_owned())
    }

    /// Legality by retraction: a history `N` plies deep, or the proof that every line dies
    /// earlier. A history found becomes solution 1, so `step 1` walks into it.
    fn prove(&mut self, depth: u32, max_nodes: Option<u64>, hooks: &mut Hooks<'_>) -> String {
        let pos = self.position().clone();
        let illegal = analyze_with_cages(&pos, &self.cages).reasons;
        if !illegal.is_empty() {
            return render::illegal_text(&illegal).trim_end().to_owned();
        }
        let pruner = LegalPruner::with_cages(&self.cages);
        let cancel = Some(Arc::clone(&hooks.cancel));
        let proof = prove_within(&pos, depth, &pruner, cancel, max_nodes);
        let report = ProofReport::new(&pos, depth, &proof);
        let mut text = report.text();
        if let Proof::History(line) = proof {
            self.found = Some(Found::all(self.current, pos, vec![line]));
            text.push_str("\n(step 1 walks into it)");
        }
        text
    }

    /// `proofgame N [plies P] [max M] [pgn FILE]`: the games of N moves from the initial array
    /// that reach the current position; they become the solutions `step K` walks into.
    fn proofgame(
        &mut self,
        request: crate::proofgame::Request,
        pgn_file: Option<&Path>,
        hooks: &mut Hooks<'_>,
    ) -> Result<Outcome, String> {
        let plies = request.plies;
        let pos = self.position().clone();
        crate::proofgame::check_side(&pos, plies)?;
        let params = ProofGameParams {
            cancel: Some(Arc::clone(&hooks.cancel)),
            progress: Some(&mut *hooks.progress),
            ..ProofGameParams::default()
        };
        let found = crate::proofgame::search(&pos, request, &self.cages, params);
        let answer =
            crate::output::proofgame::answer(&pos, plies, &found).map_err(|e| e.to_string())?;
        let mut text = answer.text.trim_end().to_owned();
        let pgn = match pgn_file {
            Some(_) => Some(crate::proofgame::pgn(&pos, &found.games)?),
            None => None,
        };
        if !found.games.is_empty() {
            text.push_str("\n(step K walks into game K, from its last move)");
        }
        // The games are kept before the file is written: a file that cannot be written loses
        // nothing found.
        self.found = Some(Found::all(self.current, pos, found.games));
        if let (Some(file), Some(pgn)) = (pgn_file, pgn) {
            if let Err(error) = self.write_file(file, &pgn) {
                return Ok(Outcome::Partial { text, error });
            }
            let _ = write!(text, "\nwrote {}", files::shown(file));
        }
        Ok(Outcome::Show(text))
    }

    /// The solutions kept from the last solve, the first [`SOLUTIONS_SHOWN`] of them, a line
    /// each, every line after a newline (empty with no solve).
    fn solution_list(&self) -> String {
        let Some(found) = self.found() else {
            return String::new();
        };
        let lines = render::solution_lines(
            &found.pos,
            &found.lines,
            &found.by_last_move,
            found.count,
            SOLUTIONS_SHOWN,
            "",
        );
        match lines.trim_end() {
            "" => String::new(),
            lines => format!("\n{lines}"),
        }
    }

    fn solutions(&self) -> Result<String, String> {
        match self.found() {
            None => Err("no solve yet on this line".into()),
            Some(found) => Ok(format!(
                "{} solution{}{}",
                found.count,
                plural(found.count),
                self.solution_list()
            )),
        }
    }

    /// Walks into solution `k`: its retractions become the line after the solve's position.
    fn step_into(&mut self, k: usize) -> Result<String, String> {
        let found = self.found().ok_or("no solve yet on this line")?;
        let line = k
            .checked_sub(1)
            .and_then(|i| found.lines.get(i))
            .ok_or_else(|| {
                if k == 0 {
                    "there is no solution number 0: they count from 1".to_owned()
                } else if (k as u64) <= found.count {
                    format!("solution {k} was not kept: only the first {KEPT_SOLUTIONS} are")
                } else {
                    format!("there is no solution number {k}")
                }
            })?
            .clone();
        let root = found.root;
        self.current = root;
        for r in line {
            self.push(r);
        }
        Ok(format!("solution {k}\n{}", self.show()))
    }

    fn mark(&mut self, mark: Mark, square: Square) -> Result<String, String> {
        let mut pos = self.position().clone();
        match mark {
            Mark::Frozen => pos.mark_never_moved(square).map_err(|e| e.to_string()),
            Mark::Promoted => crate::args::mark_promoted(&mut pos, square),
        }?;
        // Later steps were found without the mark; they no longer follow.
        self.cut_line_after_current();
        self.line[self.current].pos = pos;
        self.found = None;
        Ok(self.show())
    }
}
