//! The REPL's commands, parsed once from a line into a [`Command`] before anything runs: a line
//! that does not parse changes nothing, and the session only executes what it understood.

use std::path::PathBuf;

use retrace_search::{ForwardGoal, RetractorKind};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::error::ParseError;
use crate::{
    args::{parse_color, SolveRequest, MAX_SOLVE_DEPTH},
    proofgame,
};

/// One command line of the REPL, parsed.
#[derive(Debug)]
pub enum Command {
    /// An empty line or `continue`: nothing to do.
    Nothing,
    Quit,
    /// `help [topic]`.
    Help(String),
    /// `fen`, `board` or `pieces`: a new position to set up.
    SetUp(RetroPosition),
    Show,
    Flip,
    List,
    /// `retract <move|number>` (or a move alone): resolved against the current position.
    Retract(String),
    /// `paste <move> ...` (or several moves alone), last move first.
    Paste(Vec<String>),
    Undo,
    Redo,
    Start,
    Back,
    History,
    /// `check [exact-fen]`: `exact` reads the position's castling and en passant fields as
    /// complete.
    Check {
        exact: bool,
    },
    /// `rights`: the castling and en passant rights of the position.
    Rights,
    Solve(SolveRequest),
    /// `prove N [nodes K] [exact-fen]`.
    Prove {
        depth: u32,
        max_nodes: Option<u64>,
        exact: bool,
    },
    Retractor {
        kind: RetractorKind,
        n: u32,
        goal: ForwardGoal,
    },
    ProofGame {
        request: proofgame::Request,
        pgn: Option<PathBuf>,
    },
    Solutions,
    /// `step K`: walk into solution K.
    Step(usize),
    Mark(Mark, Square),
    Export(Export),
    Cage(CageAction),
    Save(PathBuf),
    Load(PathBuf),
}

/// What `mark` says of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// It never moved.
    Frozen,
    /// It is a promoted piece.
    Promoted,
}

/// Which format `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Fen,
}

/// `export pgn|fen [FILE]` or `export solutions pgn|fen FILE`.
#[derive(Debug)]
pub enum Export {
    /// The line (PGN) or the position (FEN), printed or written to the file.
    Line(Format, Option<PathBuf>),
    /// Every kept solution of the last solve.
    Solutions(Format, PathBuf),
}

/// `cage verify|list|forget|export|import ...`.
#[derive(Debug)]
pub enum CageAction {
    Verify(CageClaim),
    List,
    Forget(usize),
    Export(PathBuf),
    Import(PathBuf),
}

/// `cage verify [all | all but SQ ... | SQ ...] [zone SQ,SQ,...] [depth N] [nodes N]`.
#[derive(Debug, Default)]
pub struct CageClaim {
    /// The squares listed (empty: every unit).
    pub listed: Bitboard,
    /// The listed squares are the units left out (`all but ...`).
    pub except: bool,
    pub zone: Option<Bitboard>,
    pub depth: Option<u32>,
    pub max_nodes: Option<u64>,
}

const PROOFGAME_USAGE: &str =
    "usage: proofgame N [max M] [pgn FILE] (N moves, N.5 with Black to move), \
     or proofgame plies P ..., or proofgame shortest [longest N] ...";
const EXPORT_USAGE: &str = "usage: export pgn|fen [file], or export solutions pgn|fen FILE";
const EXPORT_SOLUTIONS_USAGE: &str = "usage: export solutions pgn|fen FILE";
const RETRACTOR_USAGE: &str = "usage: retractor proca|hoeg|help N #M|=M|s#M";

impl Command {
    /// Parses one command line; `retracting` (the side to retract now) decides whether words
    /// typed alone are moves.
    pub fn parse(line: &str, retracting: Color) -> Result<Command, ParseError> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Ok(match command {
            "" | "continue" => Command::Nothing,
            "quit" | "exit" => Command::Quit,
            "help" | "?" => Command::Help(rest.to_owned()),
            "fen" => Command::SetUp(RetroPosition::from_fen(rest)?),
            "board" => Command::SetUp(parse_board_command(rest)?),
            "pieces" => Command::SetUp(parse_piece_list(rest)?),
            "show" => Command::Show,
            "flip" => Command::Flip,
            "list" => Command::List,
            "retract" if rest.is_empty() => {
                return Err(ParseError::Usage("usage: retract <move|number>"))
            }
            "retract" => Command::Retract(rest.to_owned()),
            "paste" => {
                let words = retro_words(rest);
                if words.is_empty() {
                    return Err(ParseError::Usage(
                        "usage: paste <move> <move> ... (last move first)",
                    ));
                }
                Command::Paste(words)
            }
            "undo" => Command::Undo,
            "redo" => Command::Redo,
            "start" => Command::Start,
            "back" => Command::Back,
            "history" => Command::History,
            "check" => Command::Check {
                exact: match rest {
                    "" => false,
                    EXACT_FEN => true,
                    _ => return Err(ParseError::Usage("usage: check [exact-fen]")),
                },
            },
            "rights" => Command::Rights,
            "solve" => {
                Command::Solve(SolveRequest::parse_words(rest).map_err(ParseError::Argument)?)
            }
            "prove" => parse_prove(rest)?,
            "retractor" => parse_retractor(rest)?,
            "proofgame" => parse_proofgame(rest)?,
            "solutions" => Command::Solutions,
            "step" => Command::Step(
                rest.parse()
                    .map_err(|_| ParseError::Usage("usage: step <solution number>"))?,
            ),
            "mark" => parse_mark(rest)?,
            "export" => Command::Export(parse_export(rest)?),
            "cage" => Command::Cage(parse_cage(rest)?),
            "save" if rest.is_empty() => return Err(ParseError::Usage("usage: save FILE")),
            "save" => Command::Save(PathBuf::from(rest)),
            "load" if rest.is_empty() => return Err(ParseError::Usage("usage: load FILE")),
            "load" => Command::Load(PathBuf::from(rest)),
            _ => {
                // A move or a number alone is a retraction, the commonest thing to type, and a
                // sequence of moves (numbered or not) is a paste.
                let moves = retro_words(line);
                let looks_like_moves = moves.iter().all(|w| {
                    w.parse::<usize>().is_ok() || Retraction::parse(w, retracting).is_ok()
                });
                if !looks_like_moves || moves.is_empty() {
                    return Err(ParseError::Unknown(command.to_owned()));
                }
                match <[String; 1]>::try_from(moves) {
                    Ok([one]) => Command::Retract(one),
                    Err(moves) => Command::Paste(moves),
                }
            }
        })
    }
}

/// The word that reads the position's castling and en passant fields as complete (`check` and
/// `prove`, as `--exact-fen` does on the command line).
const EXACT_FEN: &str = "exact-fen";

/// `prove N [nodes K] [exact-fen]`.
fn parse_prove(args: &str) -> Result<Command, ParseError> {
    let mut words: Vec<&str> = args.split_whitespace().collect();
    let exact = words.last() == Some(&EXACT_FEN);
    if exact {
        words.pop();
    }
    let (depth, max_nodes) = match words[..] {
        [n] => (n, None),
        [n, "nodes", k] => (
            n,
            Some(k.parse::<u64>().map_err(|_| ParseError::ProveUsage)?),
        ),
        _ => return Err(ParseError::ProveUsage),
    };
    let depth = match depth.parse::<u32>() {
        Ok(n) if (1..=MAX_SOLVE_DEPTH).contains(&n) => n,
        _ => return Err(ParseError::ProveUsage),
    };
    Ok(Command::Prove {
        depth,
        max_nodes,
        exact,
    })
}

/// `retractor proca|hoeg|help N #M|=M|s#M`.
fn parse_retractor(args: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let [kind, n, goal] = words[..] else {
        return Err(ParseError::Usage(RETRACTOR_USAGE));
    };
    Ok(Command::Retractor {
        kind: kind.parse()?,
        n: n.parse().map_err(|_| ParseError::Usage(RETRACTOR_USAGE))?,
        goal: goal.parse()?,
    })
}

/// `proofgame N [max M] [pgn FILE]`, `proofgame plies P ...` or `proofgame shortest [longest N]
/// ...`.
fn parse_proofgame(args: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let (plies, options) = match words.as_slice() {
        ["shortest", "longest", n, rest @ ..] => (
            proofgame::parse_moves(n).map_err(ParseError::Argument)?,
            rest,
        ),
        ["shortest", rest @ ..] => (proofgame::DEFAULT_LONGEST, rest),
        ["plies", p, rest @ ..] => (
            proofgame::parse_plies(p).map_err(ParseError::Argument)?,
            rest,
        ),
        [n, rest @ ..] => (
            proofgame::parse_moves(n).map_err(ParseError::Argument)?,
            rest,
        ),
        [] => return Err(ParseError::Usage(PROOFGAME_USAGE)),
    };
    let mut request = proofgame::Request {
        plies,
        shortest: words.first() == Some(&"shortest"),
        ..proofgame::Request::default()
    };
    let mut pgn = None;
    for pair in options.chunks(2) {
        match pair {
            ["max", m] => {
                request.max = Some(crate::args::parse_max(m).map_err(ParseError::Argument)?);
            }
            ["pgn", file] => pgn = Some(PathBuf::from(file)),
            _ => return Err(ParseError::Usage(PROOFGAME_USAGE)),
        }
    }
    Ok(Command::ProofGame { request, pgn })
}

/// `mark frozen|promoted <square>`.
fn parse_mark(args: &str) -> Result<Command, ParseError> {
    const USAGE: ParseError = ParseError::Usage("usage: mark frozen|promoted <square>");
    let mut words = args.split_whitespace();
    let (Some(kind), Some(square), None) = (words.next(), words.next(), words.next()) else {
        return Err(USAGE);
    };
    let square: Square = square
        .parse()
        .map_err(|_| ParseError::NotASquare(square.to_owned()))?;
    let mark = match kind {
        "frozen" => Mark::Frozen,
        "promoted" => Mark::Promoted,
        _ => return Err(USAGE),
    };
    Ok(Command::Mark(mark, square))
}

/// `export pgn|fen [file]` or `export solutions pgn|fen FILE`.
fn parse_export(args: &str) -> Result<Export, ParseError> {
    let (kind, file) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let file = file.trim();
    let format = |word: &str, usage: &'static str| match word {
        "pgn" => Ok(Format::Pgn),
        "fen" => Ok(Format::Fen),
        _ => Err(ParseError::Usage(usage)),
    };
    if kind == "solutions" {
        let (kind, file) = file
            .split_once(char::is_whitespace)
            .ok_or(ParseError::Usage(EXPORT_SOLUTIONS_USAGE))?;
        let file = file.trim();
        if file.is_empty() {
            return Err(ParseError::Usage(EXPORT_SOLUTIONS_USAGE));
        }
        return Ok(Export::Solutions(
            format(kind, EXPORT_SOLUTIONS_USAGE)?,
            PathBuf::from(file),
        ));
    }
    let file = (!file.is_empty()).then(|| PathBuf::from(file));
    Ok(Export::Line(format(kind, EXPORT_USAGE)?, file))
}

/// `cage verify|list|forget|export|import ...`.
fn parse_cage(args: &str) -> Result<CageAction, ParseError> {
    let (action, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let rest = rest.trim();
    Ok(match action {
        "verify" => CageAction::Verify(parse_claim(rest)?),
        "list" => CageAction::List,
        "forget" => CageAction::Forget(
            rest.parse()
                .map_err(|_| ParseError::Usage("usage: cage forget <number>"))?,
        ),
        "export" if rest.is_empty() => return Err(ParseError::Usage("usage: cage export <file>")),
        "export" => CageAction::Export(PathBuf::from(rest)),
        "import" if rest.is_empty() => return Err(ParseError::Usage("usage: cage import <file>")),
        "import" => CageAction::Import(PathBuf::from(rest)),
        _ => {
            return Err(ParseError::Usage(
                "usage: cage verify|list|forget|export|import ... (help cage)",
            ))
        }
    })
}

/// The words after `cage verify`.
fn parse_claim(args: &str) -> Result<CageClaim, ParseError> {
    let mut claim = CageClaim::default();
    let mut words = args.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "all" => {}
            "but" | "except" => claim.except = true,
            "zone" => {
                let list = words
                    .next()
                    .ok_or(ParseError::Missing("zone needs squares: zone a1,b2"))?;
                claim.zone = Some(parse_square_list(list)?);
            }
            "depth" => {
                let n = words
                    .next()
                    .ok_or(ParseError::Missing("depth needs a number"))?;
                claim.depth = Some(n.parse::<u32>().map_err(|_| ParseError::NotANumber {
                    what: "depth",
                    value: n.to_owned(),
                })?);
            }
            "nodes" => {
                let n = words
                    .next()
                    .ok_or(ParseError::Missing("nodes needs a number"))?;
                claim.max_nodes =
                    Some(n.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        ParseError::NotAPositiveNumber {
                            what: "nodes",
                            value: n.to_owned(),
                        }
                    })?);
            }
            squares => claim.listed |= parse_square_list(squares)?,
        }
    }
    Ok(claim)
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
fn parse_square_list(list: &str) -> Result<Bitboard, ParseError> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Square>()
                .map_err(|_| ParseError::NotASquare(s.to_owned()))
        })
        .collect()
}

/// `board <BOARD> <w|b>`.
fn parse_board_command(rest: &str) -> Result<RetroPosition, ParseError> {
    let (board, side) = rest
        .rsplit_once(char::is_whitespace)
        .ok_or(ParseError::Usage(
            "usage: board <BOARD> <w|b> (w or b: the side that made the last move)",
        ))?;
    let side = parse_color(side).map_err(ParseError::Argument)?;
    Ok(RetroPosition::from_board_fen(board.trim(), side)?)
}

/// `pieces white Kh1 Qf8 e2 black Kf6 retract w`.
fn parse_piece_list(rest: &str) -> Result<RetroPosition, ParseError> {
    let mut board = Board::empty();
    let mut color = None;
    let mut retract = None;
    let mut words = rest.split_whitespace();
    while let Some(word) = words.next() {
        match word.to_ascii_lowercase().as_str() {
            "white" | "w" => color = Some(Color::White),
            "black" | "b" => color = Some(Color::Black),
            "retract" | "retracts" => {
                let side = words
                    .next()
                    .ok_or(ParseError::Missing("say which side retracts: retract w|b"))?;
                retract = Some(parse_color(side).map_err(ParseError::Argument)?);
            }
            _ => {
                let color = color.ok_or_else(|| ParseError::NoSideBefore(word.to_owned()))?;
                let (role, square) = parse_unit(word)?;
                if board.piece_at(square).is_some() {
                    return Err(ParseError::GivenTwice(square));
                }
                board.set_piece_at(square, Piece { color, role });
            }
        }
    }
    let retract = retract.ok_or(ParseError::Missing(
        "say which side made the last move: ... retract w|b",
    ))?;
    Ok(RetroPosition::from_board(board, retract)?)
}

/// `Kh1`, `Qf8`, `e2` or `Pe2`.
fn parse_unit(word: &str) -> Result<(Role, Square), ParseError> {
    let bad = || ParseError::NotAUnit(word.to_owned());
    let (role, square) = match word.chars().next() {
        Some(c) if c.is_ascii_uppercase() => (
            Role::from_char(c.to_ascii_lowercase()).ok_or_else(bad)?,
            &word[1..],
        ),
        _ => (Role::Pawn, word),
    };
    Ok((role, square.parse().map_err(|_| bad())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_parsed_once_into_its_command() {
        let parse = |line| Command::parse(line, Color::White);
        assert!(matches!(parse("  "), Ok(Command::Nothing)));
        assert!(matches!(parse("solve 3 max 2"), Ok(Command::Solve(r)) if r.max == Some(2)));
        assert!(matches!(parse("Kb1-a1"), Ok(Command::Retract(m)) if m == "Kb1-a1"));
        assert!(matches!(parse("-1.Kb1-a1 Kc3-c2"), Ok(Command::Paste(m)) if m.len() == 2));
        assert!(matches!(
            parse("export solutions fen out.fen"),
            Ok(Command::Export(Export::Solutions(Format::Fen, _)))
        ));
        assert!(matches!(
            parse("cage verify all but a1 nodes 9"),
            Ok(Command::Cage(CageAction::Verify(c))) if c.except && c.max_nodes == Some(9)
        ));
        for bad in [
            "bogus",
            "retract",
            "save",
            "step x",
            "export xml",
            "export solutions xml f",
            "mark frozen z9",
            "prove 0",
            "cage verify nodes 0",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
