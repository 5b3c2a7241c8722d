//! The interactive retractor: set up a position, list retractions, take them back, undo.
//!
//! A [`Session`] holds the line of retractions taken so far and executes one command line at a
//! time, returning the text to show; the loop around it only reads lines, so scripts and terminals
//! go through exactly the same code.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, IsTerminal, Write},
    path::Path,
    process::ExitCode,
};

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Piece, Rank, Square};

use crate::{
    commands::{parse_color, side_name},
    output::CliError,
};

const INITIAL_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const HELP: &str = "\
commands:
  fen <FEN>              set up a position from a full FEN (the side not to move retracts)
  board <BOARD> <w|b>    set up a board field alone; w or b names the side that moved last
  show                   draw the board and say who retracts
  list                   number every legal retraction
  retract <move|number>  take back a move, e.g. 'retract Kf5xNe5' or 'retract 3'
  undo / redo            step through the retractions taken
  start                  go back to the position first set up
  history                the retractions taken, last move first
  help                   this text
  quit                   leave (Ctrl-D too)";

/// The state of one retractor session.
pub struct Session {
    /// `line[0]` is the position set up; each later entry follows by one retraction.
    line: Vec<(RetroPosition, Option<Retraction>)>,
    /// How far along `line` the session stands.
    current: usize,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    #[must_use]
    pub fn new() -> Session {
        let start = RetroPosition::from_fen(INITIAL_FEN)
            .unwrap_or_else(|err| unreachable!("the initial position sets up: {err}"));
        Session {
            line: vec![(start, None)],
            current: 0,
        }
    }

    #[must_use]
    pub fn position(&self) -> &RetroPosition {
        &self.line[self.current].0
    }

    /// The prompt: who retracts and how many retractions were taken.
    #[must_use]
    pub fn prompt(&self) -> String {
        format!(
            "{} retracts [{}]> ",
            side_name(self.position().retracting()),
            self.current
        )
    }

    /// Executes one command line. `Ok(None)` asks to leave.
    pub fn execute(&mut self, line: &str) -> Result<Option<String>, String> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let text = match command {
            "" => String::new(),
            "quit" | "exit" => return Ok(None),
            "help" | "?" => HELP.to_owned(),
            "fen" => self.set_up(RetroPosition::from_fen(rest).map_err(|e| e.to_string())?),
            "board" => {
                let (board, side) = rest
                    .rsplit_once(char::is_whitespace)
                    .ok_or("usage: board <BOARD> <w|b>")?;
                let side = parse_color(side).map_err(|e| e.to_string())?;
                self.set_up(
                    RetroPosition::from_board_fen(board.trim(), side).map_err(|e| e.to_string())?,
                )
            }
            "show" => self.show(),
            "list" => self.list(),
            "retract" => self.retract(rest)?,
            "undo" => {
                if self.current == 0 {
                    return Err("nothing to undo".into());
                }
                self.current -= 1;
                self.show()
            }
            "redo" => {
                if self.current + 1 >= self.line.len() {
                    return Err("nothing to redo".into());
                }
                self.current += 1;
                self.show()
            }
            "start" => {
                self.current = 0;
                self.show()
            }
            "history" => self.history(),
            other => return Err(format!("unknown command '{other}' (type help)")),
        };
        Ok(Some(text))
    }

    fn set_up(&mut self, pos: RetroPosition) -> String {
        self.line = vec![(pos, None)];
        self.current = 0;
        self.show()
    }

    fn show(&self) -> String {
        let pos = self.position();
        let mut text = draw(pos);
        text.push_str(&format!("FEN {}\n", pos.fen()));
        let count = pos.retractions().len();
        text.push_str(&format!(
            "{} retracts: {count} legal retraction{}",
            side_name(pos.retracting()),
            if count == 1 { "" } else { "s" }
        ));
        if count == 0 {
            text.push_str(" (no history leads here: this position is illegal)");
        }
        text
    }

    fn list(&self) -> String {
        let pos = self.position();
        let retractions = pos.retractions();
        if retractions.is_empty() {
            return "no legal retraction: this position is illegal".into();
        }
        retractions
            .iter()
            .enumerate()
            .map(|(i, &r)| format!("{:>3}. {}", i + 1, pos.notation(r)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn retract(&mut self, what: &str) -> Result<String, String> {
        let pos = self.position();
        let retraction = match what.parse::<usize>() {
            Ok(n) => {
                let retractions = pos.retractions();
                *n.checked_sub(1)
                    .and_then(|i| retractions.get(i))
                    .ok_or_else(|| format!("there is no retraction number {n} (see list)"))?
            }
            Err(_) if what.is_empty() => return Err("usage: retract <move|number>".into()),
            Err(_) => pos.parse_retraction(what).map_err(|e| e.to_string())?,
        };
        let notation = pos.notation(retraction);
        let next = pos.retract(retraction);
        self.line.truncate(self.current + 1);
        self.line.push((next, Some(retraction)));
        self.current += 1;
        Ok(format!("retracted {notation}\n{}", self.show()))
    }

    fn history(&self) -> String {
        let moves: Vec<String> = (1..=self.current)
            .rev()
            .filter_map(|i| {
                let (after, _) = &self.line[i - 1];
                self.line[i].1.map(|r| after.notation(r))
            })
            .collect();
        if moves.is_empty() {
            "no retractions yet".into()
        } else {
            moves.join(" ")
        }
    }
}

/// An ASCII diagram, White at the bottom.
fn draw(pos: &RetroPosition) -> String {
    let board = pos.board();
    let mut text = String::new();
    for rank in Rank::ALL.iter().rev() {
        text.push_str(&format!("{} ", rank.char()));
        for file in shakmaty::File::ALL {
            let sq = Square::from_coords(file, *rank);
            let ch = board.piece_at(sq).map_or('.', Piece::char);
            text.push(' ');
            text.push(ch);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g h\n");
    text
}

/// Runs the session loop on a script file, or on standard input (with prompts on a terminal).
pub fn run(script: Option<&Path>) -> Result<ExitCode, CliError> {
    let mut session = Session::new();
    let interactive = script.is_none() && io::stdin().is_terminal();
    let reader: Box<dyn BufRead> = match script {
        Some(path) => Box::new(BufReader::new(File::open(path).map_err(|e| {
            CliError::BadInput(format!("cannot open script {}: {e}", path.display()))
        })?)),
        None => Box::new(io::stdin().lock()),
    };
    let mut out = io::stdout();
    if interactive {
        writeln!(
            out,
            "Retrace: play chess backwards. Type help for the commands."
        )?;
        writeln!(out, "{}", session.show())?;
    }
    let mut lines = reader.lines();
    loop {
        if interactive {
            write!(out, "{}", session.prompt())?;
            out.flush()?;
        }
        let Some(line) = lines.next() else { break };
        let line = line?;
        if line.trim_start().starts_with('#') {
            continue;
        }
        match session.execute(&line) {
            Ok(None) => break,
            Ok(Some(text)) if text.is_empty() => {}
            Ok(Some(text)) => writeln!(out, "{text}")?,
            Err(err) => writeln!(out, "error: {err}")?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;

    fn run(session: &mut Session, line: &str) -> String {
        session
            .execute(line)
            .expect("command succeeds")
            .expect("does not quit")
    }

    #[test]
    fn retract_undo_redo_walk_the_line() {
        let mut s = Session::new();
        run(&mut s, "board 8/8/8/8/8/1P6/1PkPP3/KR1b4 w");
        assert_eq!(s.position().retracting(), Color::White);
        let shown = run(&mut s, "retract a2xPb3");
        assert!(shown.contains("retracted a2xPb3"), "{shown}");
        assert_eq!(s.position().retracting(), Color::Black);
        assert_eq!(run(&mut s, "history"), "a2xPb3");
        run(&mut s, "undo");
        assert_eq!(s.position().retracting(), Color::White);
        run(&mut s, "redo");
        assert_eq!(s.position().retracting(), Color::Black);
        assert!(s.execute("redo").is_err());
    }

    #[test]
    fn bad_commands_change_nothing() {
        let mut s = Session::new();
        let before = s.position().fen();
        for line in [
            "retract Ke1-e2",
            "retract 99",
            "fen not/a/fen",
            "frobnicate",
            "board 8/8 x",
            "undo",
        ] {
            let err = s.execute(line).expect_err(line);
            assert!(!err.contains('\n'), "one line: {err}");
            assert_eq!(s.position().fen(), before, "{line} changed the position");
        }
    }

    #[test]
    fn retract_by_number_follows_list_order() {
        let mut s = Session::new();
        let listed = run(&mut s, "list");
        let first = listed
            .lines()
            .next()
            .expect("a retraction")
            .split_whitespace()
            .nth(1)
            .expect("move");
        let shown = run(&mut s, "retract 1");
        assert!(shown.contains(&format!("retracted {first}")), "{shown}");
    }
}
