//! Errors of the retro position model.

use shakmaty::{Color, Square};
use thiserror::Error;

/// What is wrong with a FEN shakmaty could not read, in the words of chess FENs (shakmaty also
/// reads variant FENs and names their parts, pockets and remaining checks, which a chess FEN has
/// not).
#[must_use]
pub fn fen_error_text(err: &shakmaty::fen::ParseFenError) -> &'static str {
    use shakmaty::fen::ParseFenError as E;
    match err {
        E::InvalidBoard => "the board field is not 8 ranks of pieces and digits separated by '/'",
        E::InvalidPocket => "the board field has text after its 8 ranks",
        E::InvalidTurn => "the side to move is not w or b",
        E::InvalidCastling => "the castling field is not '-' or letters from KQkq",
        E::InvalidEpSquare => "the en passant field is not '-' or a square",
        E::InvalidRemainingChecks => TOO_MANY_FIELDS,
        E::InvalidHalfmoveClock => "the halfmove clock is not a whole number",
        E::InvalidFullmoves => "the move number is not a whole number",
        _ => "not a FEN",
    }
}

/// What is wrong with `board`, a FEN's board field that shakmaty refused, pointing at the rank
/// and the character: the number of ranks, a character that is no piece letter or digit, a rank
/// of more or fewer than 8 squares. `None` when no such fault is found (the general sentence of
/// `fen_error_text` then stands).
#[must_use]
pub fn board_field_error(board: &str) -> Option<String> {
    let ranks: Vec<&str> = board.split('/').collect();
    for (i, written) in ranks.iter().enumerate().take(8) {
        // The first rank written is the 8th.
        let number = 8 - i;
        // As the message quotes it: escaped, and cut short past a rank's longest sensible form.
        let rank: String = written
            .chars()
            .take(16)
            .flat_map(char::escape_debug)
            .collect();
        let mut squares = 0;
        for c in written.chars() {
            match c {
                '1'..='8' => squares += c as usize - '0' as usize,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1
                }
                '~' => {}
                '0' | '9' => {
                    return Some(format!(
                        "rank {number} ('{rank}'): '{c}' is no count of empty squares (1 to 8)"
                    ))
                }
                _ => {
                    return Some(format!(
                        "rank {number} ('{rank}'): '{}' is no piece letter (KQRBNP for White, \
                         kqrbnp for Black) or digit",
                        c.escape_debug()
                    ))
                }
            }
        }
        if squares != 8 {
            return Some(format!(
                "rank {number} ('{rank}') has {squares} squares, not 8"
            ));
        }
    }
    (ranks.len() != 8).then(|| {
        format!(
            "the board field has {} rank{} separated by '/', not 8",
            ranks.len(),
            if ranks.len() == 1 { "" } else { "s" }
        )
    })
}

/// What a FEN with a seventh field is told.
pub const TOO_MANY_FIELDS: &str =
    "more than six fields: a FEN has the board, the side to move, castling, en passant, the \
     halfmove clock and the move number";

/// Why a position could not be set up for retro play.
///
/// Every variant is a defect of the input, never of the engine: the caller can show the message as one
/// line and keep whatever position it had before.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// The FEN could not be parsed at all (the text says which part).
    #[error("malformed FEN: {0}")]
    Fen(String),
    /// A side has no king or more than one.
    #[error("{color} must have exactly one king, found {count}")]
    KingCount {
        /// The side whose kings are miscounted.
        color: ColorName,
        /// How many kings it has.
        count: usize,
    },
    /// A pawn stands on the first or last rank.
    #[error("pawn on {0}: pawns never stand on the first or last rank")]
    PawnOnBackRank(Square),
    /// A castling right names a king or rook that is not on its original square.
    #[error("castling right {right} needs a {color} king on {king} and rook on {rook}")]
    CastlingRight {
        /// The right as written in the FEN (`K`, `Q`, `k`, `q` or a file letter).
        right: char,
        /// The side the right belongs to.
        color: ColorName,
        /// Where its king must stand.
        king: Square,
        /// Where its rook must stand.
        rook: Square,
    },
    /// A castling right written as a file letter (Shredder-FEN, `B` or `f`): only the rooks of
    /// the a- and h-files can castle in chess.
    #[error(
        "castling right {right} names the rook on the {file}-file: in chess only K, Q, k and q \
         (or A, H, a and h) are rights"
    )]
    CastlingFile {
        /// The right as written in the FEN.
        right: char,
        /// The file it names.
        file: char,
    },
    /// The en passant square does not fit a double step just played by the side not to move.
    #[error("en passant square {0} does not follow a double step of the side that just moved")]
    EnPassantSquare(Square),
    /// `--retract` contradicts the side to move of a full FEN.
    #[error("the FEN has {to_move} to move, so {to_move} cannot have made the last move")]
    RetractConflict {
        /// The side to move in the FEN.
        to_move: ColorName,
    },
    /// A board field alone does not say who moved last.
    #[error("a board without a side to move needs the retracting side (w or b)")]
    MissingRetractingSide,
    /// A mark was put on an empty square or on a unit it cannot apply to.
    #[error("cannot mark {square} as {mark}: {why}")]
    Mark {
        /// The square marked.
        square: Square,
        /// The mark asked for.
        mark: &'static str,
        /// Why it cannot apply there.
        why: &'static str,
    },
    /// A unit marked as never having moved does not stand on its own square of the initial
    /// array (`unit` and `home` are spelled out, as "a white king" or "no unit").
    #[error(
        "cannot mark {square} as frozen: a unit that never moved stands where it started, and \
         {home} starts the game on {square}, not {unit}"
    )]
    NotHome {
        /// The square marked.
        square: Square,
        /// The unit standing there, spelled out.
        unit: String,
        /// The unit that starts the game there, spelled out.
        home: String,
    },
}

/// Why a retraction given in notation was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text is not retro notation at all.
    #[error("cannot read '{text}' as a move: {why}")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The text is well formed but no legal retraction of the position matches it.
    #[error("{text} is not a legal retraction here: {why}")]
    NotLegal {
        /// The text given.
        text: String,
        /// Why no legal retraction matches it.
        why: String,
    },
}

/// A colour spelled out for messages (`white`, `black`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorName(
    /// The colour named.
    pub Color,
);

impl std::fmt::Display for ColorName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::board_field_error;

    #[test]
    fn a_board_field_error_names_the_rank_and_the_character() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(board_field_error(start), None);
        // Promoted marks and a last rank written short of nothing are fine too.
        assert_eq!(board_field_error("4k3/8/8/8/8/8/8/3Q~K3"), None);
        let cases = [
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 ('ppppppppp') has 9 squares",
            ),
            (
                "rnbqkbnr/pppppppx/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 ('pppppppx'): 'x' is no piece",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP",
                "has 7 ranks separated by '/', not 8",
            ),
            ("8/8/8/8/8/8/8/8/8", "has 9 ranks"),
            (
                "8/8/9/8/8/8/8/8",
                "rank 6 ('9'): '9' is no count of empty squares",
            ),
            ("8/8/8/8/8/8/8/7", "rank 1 ('7') has 7 squares, not 8"),
            (
                "8/8/8/8/8/8/8/7\u{1b}",
                "rank 1 ('7\\u{1b}'): '\\u{1b}' is no piece",
            ),
        ];
        for (board, expected) in cases {
            let message = board_field_error(board).expect("a fault");
            assert!(message.contains(expected), "{board}: {message}");
        }
        // A huge rank is quoted cut short.
        let long = format!("{}/8/8/8/8/8/8/8", "p".repeat(10_000));
        assert!(board_field_error(&long).expect("a fault").len() < 100);
    }
}
