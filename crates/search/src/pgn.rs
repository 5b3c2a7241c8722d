//! Solutions as forward games: PGN from the earliest position, replayed by shakmaty first.

use std::fmt::Write as _;

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{san::SanPlus, CastlingMode, Chess, Color, Position};
use thiserror::Error;

/// Why a line could not be written as a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnError {
    /// The earliest position is not one shakmaty can play from.
    #[error("the earliest position {fen} cannot be played from: {why}")]
    Start { fen: String, why: String },
    /// A move of the line is not legal when replayed forward (the line is not from this position).
    #[error("{notation} is not legal when the game is replayed forward")]
    Replay { notation: String },
    /// The replayed game does not end in the position.
    #[error("the replayed game does not end in the given position")]
    Mismatch,
}

/// The game that `line` (last move first, as the search gives it) retracts from `pos`, in PGN with
/// SetUp/FEN tags. Every move is replayed by shakmaty before anything is written.
pub fn to_pgn(pos: &RetroPosition, line: &[Retraction]) -> Result<String, PgnError> {
    let mut earliest = pos.clone();
    for &r in line {
        earliest.retract_in_place(r);
    }
    let fen = earliest.fen();
    let mut game = playable(earliest.to_setup()).map_err(|why| PgnError::Start {
        fen: fen.clone(),
        why,
    })?;
    let mut moves = String::new();
    let mut number = 1;
    for (i, &r) in line.iter().rev().enumerate() {
        let m = r.forward();
        if !game.is_legal(m) {
            return Err(PgnError::Replay {
                notation: r.to_string(),
            });
        }
        if game.turn() == Color::White {
            let _ = write!(moves, "{number}. ");
        } else if i == 0 {
            let _ = write!(moves, "{number}... ");
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut game, m);
        let _ = write!(moves, "{san} ");
        if game.turn() == Color::White {
            number += 1;
        }
    }
    if game.board() != pos.board() || game.turn() != pos.to_move() {
        return Err(PgnError::Mismatch);
    }
    let mut pgn = String::new();
    for (tag, value) in [
        ("Event", "Retrace solution"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
        ("SetUp", "1"),
        ("FEN", fen.as_str()),
    ] {
        let _ = writeln!(pgn, "[{tag} \"{value}\"]");
    }
    let _ = writeln!(pgn, "\n{moves}*");
    Ok(pgn)
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
