//! Solutions as text: PGN from the earliest position, replayed by shakmaty first, and the retro
//! notation of a line.

use std::fmt::Write as _;

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{san::SanPlus, Board, CastlingMode, Chess, Color, Position};
use thiserror::Error;

/// Why a line could not be written as a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnError {
    /// The earliest position is not one shakmaty can play from.
    #[error("the earliest position {fen} cannot be played from: {why}")]
    Start {
        /// The earliest position.
        fen: String,
        /// Why shakmaty refuses it.
        why: String,
    },
    /// A move of the line is not legal when replayed forward (the line is not from this position).
    #[error("{notation} is not legal when the game is replayed forward")]
    Replay {
        /// The move, in retro notation.
        notation: String,
    },
    /// The replayed game does not end in the position.
    #[error("the replayed game does not end in the given position")]
    Mismatch,
}

/// The game that `line` (last move first, as the search gives it) retracts from `pos`, in PGN, with
/// SetUp/FEN tags unless it starts from the initial array. Every move is replayed by shakmaty
/// before anything is written.
pub fn to_pgn(pos: &RetroPosition, line: &[Retraction]) -> Result<String, PgnError> {
    to_pgn_tagged(pos, line, "Retrace solution", "?")
}

/// [`to_pgn`] with the Event and Round tags given (a list of games numbers them by round).
pub fn to_pgn_tagged(
    pos: &RetroPosition,
    line: &[Retraction],
    event: &str,
    round: &str,
) -> Result<String, PgnError> {
    let game = Replayed::new(pos, line)?;
    let mut pgn = String::new();
    for (tag, value) in [
        ("Event", event),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", round),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
        ("SetUp", "1"),
        ("FEN", game.fen.as_str()),
    ] {
        if game.from_initial_array && (tag == "SetUp" || tag == "FEN") {
            continue;
        }
        let _ = writeln!(pgn, "[{tag} \"{value}\"]");
    }
    let moves = game.movetext(" ");
    let gap = if moves.is_empty() { "" } else { " " };
    let _ = writeln!(pgn, "\n{moves}{gap}*");
    Ok(pgn)
}

/// The moves of `line` (last move first) played forward from the earliest position and numbered
/// as a game score, `1.d4 e5 2.Qd3 Ba3` (`1...e5` when Black moves first). Every move is replayed
/// by shakmaty first.
pub fn game_score(pos: &RetroPosition, line: &[Retraction]) -> Result<String, PgnError> {
    Ok(Replayed::new(pos, line)?.movetext(""))
}

/// A line replayed forward by shakmaty: where it starts, and its moves in SAN.
struct Replayed {
    fen: String,
    /// The line starts from the initial array, White to move (a proof game): it is replayed
    /// from shakmaty's start position, with every castling right.
    from_initial_array: bool,
    first: Color,
    sans: Vec<SanPlus>,
}

impl Replayed {
    fn new(pos: &RetroPosition, line: &[Retraction]) -> Result<Replayed, PgnError> {
        let mut earliest = pos.clone();
        for &r in line {
            earliest.retract_in_place(r);
        }
        let fen = earliest.fen();
        let from_initial_array =
            *earliest.board() == Board::new() && earliest.to_move() == Color::White;
        let mut game = if from_initial_array {
            Chess::default()
        } else {
            playable(earliest.to_setup()).map_err(|why| PgnError::Start {
                fen: fen.clone(),
                why,
            })?
        };
        let first = game.turn();
        let mut sans = Vec::with_capacity(line.len());
        for &r in line.iter().rev() {
            let m = r.forward();
            if !game.is_legal(m) {
                return Err(PgnError::Replay {
                    notation: r.to_string(),
                });
            }
            sans.push(SanPlus::from_move_and_play_unchecked(&mut game, m));
        }
        if game.board() != pos.board() || game.turn() != pos.to_move() {
            return Err(PgnError::Mismatch);
        }
        Ok(Replayed {
            fen,
            from_initial_array,
            first,
            sans,
        })
    }

    /// The moves numbered from 1, with `gap` between a move number and its move.
    fn movetext(&self, gap: &str) -> String {
        let mut text = String::new();
        let mut turn = self.first;
        let mut number = 1;
        for (i, san) in self.sans.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            if turn == Color::White {
                let _ = write!(text, "{number}.{gap}");
            } else if i == 0 {
                let _ = write!(text, "{number}...{gap}");
            }
            let _ = write!(text, "{san}");
            if turn == Color::Black {
                number += 1;
            }
            turn = turn.other();
        }
        text
    }
}

/// The game position of `setup`, accepting what a retro line may pass through: a check shakmaty
/// finds unusual, or more material than the initial array (the line itself is still replayed).
fn playable(setup: shakmaty::Setup) -> Result<Chess, String> {
    match setup.position(CastlingMode::Standard) {
        Ok(chess) => Ok(chess),
        Err(err) => match err.ignore_impossible_check() {
            Ok(chess) => Ok(chess),
            Err(err) => err.ignore_too_much_material().map_err(|e| e.to_string()),
        },
    }
}

/// The notation of each move of `line` (last move first), each with its check mark.
#[must_use]
pub fn line_notation(pos: &RetroPosition, line: &[Retraction]) -> Vec<String> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&r| {
            let text = pos.notation(r);
            pos.retract_in_place(r);
            text
        })
        .collect()
}
