//! The state of one retractor session and the commands that change it.
//!
//! A [`Session`] holds the line of positions reached by retracting from the position set up, and
//! executes one command line at a time, returning the text to show. Terminals and scripts both go
//! through [`Session::execute`], so everything a person can do is testable without a terminal.

use std::{
    fmt::Write as _,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_legal::text::{color_name, plural};
use retrace_legal::{
    analyze_thoroughly, analyze_with_cages, cage::LoadBudget, Cage, CageStore, Reason,
};
use retrace_search::{
    line_notation, prove_within, solve, to_pgn, to_pgn_tagged, GameFacts, LegalPruner, Progress,
    Proof, ProofGameParams,
};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Board, Color, Piece, Role, Square};

use crate::{
    args::{parse_color, SolveRequest, KEPT_SOLUTIONS, MAX_SOLVE_DEPTH},
    board::{draw, Style},
    help,
    proof::ProofReport,
    render,
};

/// The solutions `solve` and `solutions` list (of the [`KEPT_SOLUTIONS`] kept): a terminal's
/// worth more would scroll the answer away.
const SOLUTIONS_SHOWN: usize = 200;

const INITIAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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
}

/// One retractor session.
pub struct Session {
    line: Vec<Step>,
    current: usize,
    /// A retraction led into an illegal position: the next command decides (`back` or continue).
    pending_illegal: bool,
    found: Option<Found>,
    flipped: bool,
    style: Style,
    /// Verified user cages, used by the analysis and the search.
    cages: CageStore,
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
            pending_illegal: false,
            found: None,
            flipped: false,
            style,
            cages: CageStore::new(),
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

    /// Executes one command line. Errors are one line and leave the session unchanged.
    pub fn execute(&mut self, line: &str, hooks: &mut Hooks<'_>) -> Result<Outcome, String> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        if self.pending_illegal {
            self.pending_illegal = false;
            if command == "back" {
                return self.back().map(Outcome::Show);
            }
        }
        let text = match command {
            "" | "continue" => String::new(),
            "quit" | "exit" => return Ok(Outcome::Quit),
            "help" | "?" => help::text(rest)?,
            "fen" => self.set_up(RetroPosition::from_fen(rest).map_err(|e| e.to_string())?),
            "board" => self.set_up(parse_board_command(rest)?),
            "pieces" => self.set_up(parse_piece_list(rest)?),
            "show" => self.show(),
            "flip" => {
                self.flipped = !self.flipped;
                self.show()
            }
            "list" => self.list(),
            "retract" => self.retract_text(rest)?,
            "paste" => self.paste(rest)?,
            "undo" => self.undo()?,
            "redo" => self.redo()?,
            "start" => {
                self.current = 0;
                self.show()
            }
            "back" => return Err("back only follows a retraction into an illegal position".into()),
            "history" => self.history()?,
            "check" => self.check(),
            "rights" => crate::rights::repl_text(self.position(), &self.cages, &hooks.cancel),
            "solve" => self.solve(rest, hooks)?,
            "prove" => self.prove(rest, hooks)?,
            "retractor" => self.retractor(rest, hooks)?,
            "proofgame" => self.proofgame(rest, hooks)?,
            "solutions" => self.solutions()?,
            "step" => self.step_into(rest)?,
            "mark" => self.mark(rest)?,
            "export" => self.export(rest)?,
            "cage" => self.cage(rest, &hooks.cancel)?,
            "save" => self.save(rest)?,
            "load" => self.load(rest)?,
            _ => {
                // A move or a number alone is a retraction, the commonest thing to type, and a
                // sequence of moves (numbered or not) is a paste.
                let moves = retro_words(line);
                let looks_like_moves = moves.iter().all(|w| {
                    w.parse::<usize>().is_ok()
                        || Retraction::parse(w, self.position().retracting()).is_ok()
                });
                match moves.len() {
                    _ if !looks_like_moves || moves.is_empty() => {
                        return Err(format!("unknown command '{command}' (type help)"))
                    }
                    1 => self.retract_text(&moves[0])?,
                    _ => self.paste(line)?,
                }
            }
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
        let pos = self.position();
        let mut text = draw(pos, self.style, self.flipped);
        let _ = writeln!(text, "FEN {}", pos.fen());
        let marks: Vec<String> = [("frozen", pos.frozen()), ("promoted", pos.promoted())]
            .iter()
            .filter(|(_, squares)| squares.any())
            .map(|(name, squares)| {
                let list: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
                format!("{name}: {}", list.join(" "))
            })
            .collect();
        if !marks.is_empty() {
            let _ = writeln!(text, "{}", marks.join("; "));
        }
        let count = pos.retractions().len();
        text.push_str(&render::retraction_count(pos, count));
        if count == 0 {
            text.push_str(" (no history leads here: this position is illegal)");
        }
        if self.is_illegal() {
            // The mark passes down the line from the first position proven illegal.
            let earlier = self.current > 0 && self.line[self.current - 1].illegal;
            text.push_str(if earlier {
                "\nThis line is marked ILLEGAL: an earlier position was proven illegal."
            } else {
                "\nThis line is marked ILLEGAL from this position on."
            });
        }
        text
    }

    /// Every legal retraction, numbered, one line per unit.
    fn list(&self) -> String {
        let pos = self.position();
        let retractions = pos.retractions();
        if retractions.is_empty() {
            return "no legal retraction: this position is illegal".into();
        }
        let mut groups: indexmap::IndexMap<Square, Vec<String>> = indexmap::IndexMap::new();
        for (i, &r) in retractions.iter().enumerate() {
            groups.entry(r.current_square()).or_default().push(format!(
                "{:>3}. {}",
                i + 1,
                pos.notation(r)
            ));
        }
        let mut text = render::retraction_count(pos, retractions.len());
        if pos.is_check() {
            text.push_str(" (the last move gave check: +)");
        }
        text.push('\n');
        for (square, moves) in groups {
            let unit = pos.board().piece_at(square).map_or('?', Piece::char);
            for (k, chunk) in moves.chunks(4).enumerate() {
                let label = if k == 0 {
                    format!("{unit}{square}")
                } else {
                    String::new()
                };
                let _ = writeln!(text, "  {label:<4} {}", chunk.join("  "));
            }
        }
        text.pop();
        text
    }

    /// Parses a retraction given as notation or as a number from `list`.
    fn parse_retraction(&self, what: &str) -> Result<Retraction, String> {
        let pos = self.position();
        if what.is_empty() {
            return Err("usage: retract <move|number>".into());
        }
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
            self.pending_illegal = true;
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
    fn paste(&mut self, moves: &str) -> Result<String, String> {
        let words = retro_words(moves);
        if words.is_empty() {
            return Err("usage: paste <move> <move> ... (last move first)".into());
        }
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
            let _ = write!(
                text,
                "\nThe position after move {i} of the paste is illegal (type check)."
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

    fn back(&mut self) -> Result<String, String> {
        self.undo().map(|text| {
            self.cut_line_after_current();
            format!("took the retraction back\n{text}")
        })
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
        let pos = self.position();
        let analysis = analyze_thoroughly(pos, &self.cages);
        let mut text = if analysis.reasons.is_empty() {
            "no contradiction found".to_owned()
        } else {
            let mut t = "illegal:".to_owned();
            for reason in &analysis.reasons {
                let _ = write!(t, "\n  {reason}");
            }
            t
        };
        text.push('\n');
        text.push_str(&render::needs(&analysis));
        text
    }

    fn solve(&mut self, args: &str, hooks: &mut Hooks<'_>) -> Result<String, String> {
        let request = SolveRequest::parse_words(args)?;
        let pos = self.position().clone();
        let mut params = request.params(
            GameFacts::default(),
            Arc::clone(&hooks.cancel),
            KEPT_SOLUTIONS,
        );
        params.progress = Some(&mut *hooks.progress);
        let found = solve(&pos, params, &request.pruner(&self.cages));
        let count = found.count;
        let mut text = render::solve_summary(&found, " so far: the search was cut short");
        let refuted = render::refutations_text(&pos, &found.refuted);
        self.found = Some(Found {
            root: self.current,
            pos,
            lines: found.lines,
            count,
        });
        text.push_str(&self.solution_list());
        if !refuted.is_empty() {
            text.push('\n');
            text.push_str(refuted.trim_end());
        }
        if count > 0 {
            text.push_str("\n(step K walks into solution K)");
        }
        Ok(text)
    }

    /// A retractor from the current position; the main line of key K becomes solution K.
    fn retractor(&mut self, args: &str, hooks: &mut Hooks<'_>) -> Result<String, String> {
        let pos = self.position().clone();
        let (mut text, lines) =
            crate::retractor::repl(&pos, args, Arc::clone(&hooks.cancel), &mut *hooks.progress)?;
        if !lines.is_empty() {
            text.push_str("(step K walks the main line of key K)\n");
        }
        self.found = Some(Found {
            root: self.current,
            pos,
            count: lines.len() as u64,
            lines,
        });
        Ok(text.trim_end().to_owned())
    }

    /// Legality by retraction: a history `N` plies deep, or the proof that every line dies
    /// earlier. A history found becomes solution 1, so `step 1` walks into it.
    fn prove(&mut self, args: &str, hooks: &mut Hooks<'_>) -> Result<String, String> {
        let usage = || format!("usage: prove N [nodes K] (N from 1 to {MAX_SOLVE_DEPTH})");
        let words: Vec<&str> = args.split_whitespace().collect();
        let (depth, max_nodes) = match words[..] {
            [n] => (n, None),
            [n, "nodes", k] => (n, Some(k.parse::<u64>().map_err(|_| usage())?)),
            _ => return Err(usage()),
        };
        let depth = match depth.parse::<u32>() {
            Ok(n) if (1..=MAX_SOLVE_DEPTH).contains(&n) => n,
            _ => return Err(usage()),
        };
        let pos = self.position().clone();
        let pruner = LegalPruner::with_cages(&self.cages);
        let cancel = Some(Arc::clone(&hooks.cancel));
        let proof = prove_within(&pos, depth, &pruner, cancel, max_nodes);
        let report = ProofReport::new(&pos, depth, &proof);
        let mut text = report.text();
        if let Proof::History(line) = proof {
            self.found = Some(Found {
                root: self.current,
                pos,
                lines: vec![line],
                count: 1,
            });
            text.push_str("\n(step 1 walks into it)");
        }
        Ok(text)
    }

    /// `proofgame N [plies P] [max M] [pgn FILE]`: the games of N moves from the initial array
    /// that reach the current position; they become the solutions `step K` walks into.
    fn proofgame(&mut self, args: &str, hooks: &mut Hooks<'_>) -> Result<String, String> {
        const USAGE: &str = "usage: proofgame N [max M] [pgn FILE] (N moves, N.5 with Black to move), or proofgame plies P ...";
        let words: Vec<&str> = args.split_whitespace().collect();
        let (plies, options) = match words.as_slice() {
            ["plies", p, rest @ ..] => (crate::proofgame::parse_plies(p)?, rest),
            [n, rest @ ..] => (crate::proofgame::parse_moves(n)?, rest),
            [] => return Err(USAGE.into()),
        };
        let mut request = crate::proofgame::Request {
            plies,
            ..crate::proofgame::Request::default()
        };
        let mut pgn_file = None;
        for pair in options.chunks(2) {
            match pair {
                ["max", m] => {
                    request.max = Some(m.parse().map_err(|_| format!("max '{m}' is not a count"))?);
                }
                ["pgn", file] => pgn_file = Some(*file),
                _ => return Err(USAGE.into()),
            }
        }
        let pos = self.position().clone();
        crate::proofgame::check_side(&pos, plies)?;
        let params = ProofGameParams {
            cancel: Some(Arc::clone(&hooks.cancel)),
            progress: Some(&mut *hooks.progress),
            ..ProofGameParams::default()
        };
        let found = crate::proofgame::search(&pos, request, &self.cages, params);
        let report = crate::proofgame::Report::new(&pos, plies, &found)?;
        let mut text = report.text.trim_end().to_owned();
        if let Some(file) = pgn_file {
            let pgn = crate::proofgame::pgn(&pos, &found.games)?;
            std::fs::write(file, pgn).map_err(|e| format!("cannot write {file}: {e}"))?;
            let _ = write!(text, "\nwrote {file}");
        }
        if !found.games.is_empty() {
            text.push_str("\n(step K walks into game K, from its last move)");
        }
        self.found = Some(Found {
            root: self.current,
            pos,
            count: found.games.len() as u64,
            lines: found.games,
        });
        Ok(text)
    }

    /// The solutions kept from the last solve, the first [`SOLUTIONS_SHOWN`] of them, a line
    /// each, every line after a newline (empty with no solve).
    fn solution_list(&self) -> String {
        let Some(found) = self.found() else {
            return String::new();
        };
        let lines =
            render::solution_lines(&found.pos, &found.lines, found.count, SOLUTIONS_SHOWN, "");
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
    fn step_into(&mut self, what: &str) -> Result<String, String> {
        let found = self.found().ok_or("no solve yet on this line")?;
        let k: usize = what
            .parse()
            .map_err(|_| "usage: step <solution number>".to_owned())?;
        let line = k
            .checked_sub(1)
            .and_then(|i| found.lines.get(i))
            .ok_or_else(|| {
                if (k as u64) <= found.count {
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

    fn mark(&mut self, args: &str) -> Result<String, String> {
        let mut words = args.split_whitespace();
        let (Some(kind), Some(square), None) = (words.next(), words.next(), words.next()) else {
            return Err("usage: mark frozen|promoted <square>".into());
        };
        let square: Square = square
            .parse()
            .map_err(|_| format!("'{square}' is not a square"))?;
        let mut pos = self.position().clone();
        match kind {
            "frozen" => pos.mark_never_moved(square),
            "promoted" => pos.mark_promoted(square),
            _ => return Err("usage: mark frozen|promoted <square>".into()),
        }
        .map_err(|e| e.to_string())?;
        // Later steps were found without the mark; they no longer follow.
        self.cut_line_after_current();
        self.line[self.current].pos = pos;
        self.found = None;
        Ok(self.show())
    }

    fn export(&self, args: &str) -> Result<String, String> {
        let (kind, file) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        if kind == "solutions" {
            return self.export_solutions(file.trim());
        }
        let content = match kind {
            "fen" => format!("{}\n", self.position().fen()),
            "pgn" => {
                let start = &self.line[0].pos;
                to_pgn(start, &self.taken()).map_err(|e| e.to_string())?
            }
            _ => {
                return Err("usage: export pgn|fen [file], or export solutions pgn|fen FILE".into())
            }
        };
        let file = file.trim();
        if file.is_empty() {
            return Ok(content.trim_end().to_owned());
        }
        std::fs::write(file, &content).map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(format!("wrote {file}"))
    }
}

impl Session {
    /// `save FILE`: the whole session in the format of [`persist`].
    fn save(&self, file: &str) -> Result<String, String> {
        if file.is_empty() {
            return Err("usage: save FILE".into());
        }
        std::fs::write(file, self.to_session_text())
            .map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(format!("saved the session to {file}"))
    }

    /// `load FILE`: a session saved by `save`; all of it, or nothing changes.
    fn load(&mut self, file: &str) -> Result<String, String> {
        if file.is_empty() {
            return Err("usage: load FILE".into());
        }
        let text = crate::lines::read_text_file(std::path::Path::new(file), "session file")?;
        self.load_session_text(&text)?;
        Ok(format!("loaded the session from {file}\n{}", self.show()))
    }

    /// `export solutions pgn|fen FILE`: every kept solution of the last solve, as PGN games
    /// (each from the position it starts in, forward to the solve's position, numbered by
    /// round) or as the FEN of the position each starts in, one a line.
    fn export_solutions(&self, args: &str) -> Result<String, String> {
        let usage = "usage: export solutions pgn|fen FILE";
        let (kind, file) = args.split_once(char::is_whitespace).ok_or(usage)?;
        let file = file.trim();
        if file.is_empty() {
            return Err(usage.into());
        }
        let found = self.found().ok_or("no solve yet on this line")?;
        let mut content = String::new();
        for (i, line) in found.lines.iter().enumerate() {
            match kind {
                "pgn" => {
                    let game =
                        to_pgn_tagged(&found.pos, line, "Retrace solution", &(i + 1).to_string())
                            .map_err(|e| format!("solution {}: {e}", i + 1))?;
                    content.push_str(&game);
                    content.push('\n');
                }
                "fen" => {
                    let start = line
                        .iter()
                        .fold(found.pos.clone(), |pos, &r| pos.retract(r));
                    let _ = writeln!(content, "{}", start.fen());
                }
                _ => return Err(usage.into()),
            }
        }
        std::fs::write(file, &content).map_err(|e| format!("cannot write {file}: {e}"))?;
        let kept = found.lines.len() as u64;
        let mut text = format!("wrote {kept} solution{} to {file}", plural(kept));
        if found.count > kept {
            let _ = write!(
                text,
                " ({} more were counted, not kept: solve with a narrower question)",
                found.count - kept
            );
        }
        Ok(text)
    }

    /// `cage verify|list|forget|export|import ...`.
    fn cage(&mut self, args: &str, cancel: &AtomicBool) -> Result<String, String> {
        let (action, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        let rest = rest.trim();
        match action {
            "verify" => self.cage_verify(rest, cancel),
            "list" => Ok(self.cage_list()),
            "forget" => {
                let n: usize = rest
                    .parse()
                    .map_err(|_| "usage: cage forget <number>".to_owned())?;
                let kept: Vec<String> = self
                    .cages
                    .cages()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i + 1 != n)
                    .map(|(_, c)| c.to_string())
                    .collect();
                if kept.len() == self.cages.len() {
                    return Err(format!("there is no cage number {n} (see cage list)"));
                }
                // Re-verified on the way back in: a cage that leaned on the forgotten one is
                // dropped too rather than kept unproven.
                let (store, dropped) = CageStore::load(&kept.join("\n"));
                self.cages = store;
                let mut text = format!("forgot cage {n}");
                if !dropped.is_empty() {
                    text.push_str(&format!(
                        "; {} other cage(s) no longer verify without it and were dropped",
                        dropped.len()
                    ));
                }
                Ok(text)
            }
            "export" => {
                if rest.is_empty() {
                    return Err("usage: cage export <file>".into());
                }
                let text = format!(
                    "# Retrace cages: one per line (board, zone=, frozen=, depth=)\n{}",
                    self.cages.export()
                );
                std::fs::write(rest, text).map_err(|e| format!("cannot write {rest}: {e}"))?;
                Ok(format!("wrote {} cage(s) to {rest}", self.cages.len()))
            }
            "import" => self.cage_import(rest, cancel),
            _ => Err("usage: cage verify|list|forget|export|import ... (help cage)".into()),
        }
    }

    /// `cage verify [all | all but SQ ... | SQ ...] [zone SQ,SQ,...] [depth N] [nodes N]`.
    fn cage_verify(&mut self, args: &str, cancel: &AtomicBool) -> Result<String, String> {
        let board = self.position().board().clone();
        let mut words = args.split_whitespace().peekable();
        let mut selected = board.occupied();
        let mut zone = None;
        let mut depth = None;
        let mut options = retrace_legal::cage::VerifyOptions::default();
        let mut except = false;
        let mut listed = shakmaty::Bitboard::EMPTY;
        while let Some(word) = words.next() {
            match word {
                "all" => {}
                "but" | "except" => except = true,
                "zone" => {
                    let list = words.next().ok_or("zone needs squares: zone a1,b2")?;
                    zone = Some(parse_square_list(list)?);
                }
                "depth" => {
                    let n = words.next().ok_or("depth needs a number")?;
                    depth = Some(
                        n.parse::<u32>()
                            .map_err(|_| format!("depth '{n}' is not a number"))?,
                    );
                }
                "nodes" => {
                    let n = words.next().ok_or("nodes needs a number")?;
                    options.max_nodes = n
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("nodes '{n}' is not a positive number"))?;
                }
                squares => listed |= parse_square_list(squares)?,
            }
        }
        if listed.any() {
            selected = if except { selected & !listed } else { listed };
        }
        if !(listed & !board.occupied()).is_empty() {
            return Err("a selected square is empty".into());
        }
        let mut cage_board = board.clone();
        for sq in board.occupied() & !selected {
            cage_board.discard_piece_at(sq);
        }
        let frozen = self.position().frozen() & selected;
        let cage = Cage::from_parts(cage_board, zone, frozen, depth).map_err(|e| e.to_string())?;
        match self
            .cages
            .insert_cancellable(cage.clone(), &options, Some(cancel))
        {
            Ok(v) => Ok(format!(
                "verified in {} nodes and stored as cage {}: {cage}",
                v.nodes,
                self.cages.len()
            )),
            Err(err) => Err(err.to_string()),
        }
    }

    fn cage_list(&self) -> String {
        if self.cages.is_empty() {
            return "no cages stored (cage verify stores one)".into();
        }
        self.cages
            .cages()
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{:>3}. {c}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Imports a cage file: each cage re-verified, a bad line reported and skipped.
    fn cage_import(&mut self, file: &str, cancel: &AtomicBool) -> Result<String, String> {
        if file.is_empty() {
            return Err("usage: cage import <file>".into());
        }
        let text = crate::lines::read_text_file(std::path::Path::new(file), "cage file")?;
        let budget = LoadBudget {
            cancel: Some(cancel),
            ..LoadBudget::default()
        };
        let (_, errors) = CageStore::load_within(&text, &budget);
        let before = self.cages.len();
        let merged = format!("{}\n{text}", self.cages.export());
        // The cages of both proven above or before: each is not verified again.
        let (store, _) = CageStore::load_within(&merged, &budget);
        let added = store.len().saturating_sub(before);
        self.cages = store;
        let mut report = format!("imported {added} cage(s) from {file}");
        for (line, err) in errors {
            report.push_str(&format!("\n  skipped line {line}: {err}"));
        }
        Ok(report)
    }
}

/// The moves of a pasted sequence as retro sources print them: move numbers (`-1.`, `2...`, also
/// glued to the move as in `-1.Ka2-a1`) dropped, and an `e.p.` or `ep` standing apart joined to
/// the capture before it.
fn retro_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let unsigned = word.trim_start_matches('-');
        let after_digits = unsigned.trim_start_matches(|c: char| c.is_ascii_digit());
        let after_dots = after_digits.trim_start_matches('.');
        // A move number is digits and at least one dot; a move never starts with a digit.
        let word = if after_digits.len() < unsigned.len() && after_dots.len() < after_digits.len() {
            after_dots
        } else {
            word
        };
        match (word, words.last_mut()) {
            ("", _) => {}
            ("e.p." | "ep" | "e.p", Some(last)) => last.push_str("ep"),
            _ => words.push(word.to_owned()),
        }
    }
    words
}

/// Squares separated by commas (or one square).
fn parse_square_list(list: &str) -> Result<shakmaty::Bitboard, String> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Square>()
                .map_err(|_| format!("'{s}' is not a square"))
        })
        .collect()
}

/// `board <BOARD> <w|b>`.
fn parse_board_command(rest: &str) -> Result<RetroPosition, String> {
    let (board, side) = rest
        .rsplit_once(char::is_whitespace)
        .ok_or("usage: board <BOARD> <w|b> (w or b: the side that made the last move)")?;
    let side = parse_color(side).map_err(|e| e.to_string())?;
    RetroPosition::from_board_fen(board.trim(), side).map_err(|e| e.to_string())
}

/// `pieces white Kh1 Qf8 e2 black Kf6 retract w`.
fn parse_piece_list(rest: &str) -> Result<RetroPosition, String> {
    let mut board = Board::empty();
    let mut color = None;
    let mut retract = None;
    let mut words = rest.split_whitespace();
    while let Some(word) = words.next() {
        match word.to_ascii_lowercase().as_str() {
            "white" | "w" => color = Some(Color::White),
            "black" | "b" => color = Some(Color::Black),
            "retract" | "retracts" => {
                let side = words.next().ok_or("say which side retracts: retract w|b")?;
                retract = Some(parse_color(side).map_err(|e| e.to_string())?);
            }
            _ => {
                let color = color.ok_or_else(|| format!("say white or black before {word}"))?;
                let (role, square) = parse_unit(word)?;
                if board.piece_at(square).is_some() {
                    return Err(format!("{square} is given twice"));
                }
                board.set_piece_at(square, Piece { color, role });
            }
        }
    }
    let retract = retract.ok_or("say which side made the last move: ... retract w|b")?;
    RetroPosition::from_board(board, retract).map_err(|e| e.to_string())
}

/// `Kh1`, `Qf8`, `e2` or `Pe2`.
fn parse_unit(word: &str) -> Result<(Role, Square), String> {
    let bad = || format!("'{word}' is not a unit: write Kh1, Qf8, e2");
    let (role, square) = match word.chars().next() {
        Some(c) if c.is_ascii_uppercase() => (
            Role::from_char(c.to_ascii_lowercase()).ok_or_else(bad)?,
            &word[1..],
        ),
        _ => (Role::Pawn, word),
    };
    Ok((role, square.parse().map_err(|_| bad())?))
}
