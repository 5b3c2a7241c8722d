//! A cage claim and its one-line file format (`docs/retro-rules.md`, "The cage file format").
//!
//! A line is the board field of the cage position (only the caged units), then optional fields
//! separated by spaces: `zone=SQ,SQ,...`, `frozen=SQ,SQ,...`, `depth=N` and, a Retrace extension,
//! `captures=wN,bM` (upper bounds on the captures White and Black made in the whole game; see
//! [`Cage::captures`]). Reading never panics: every malformed line gives a [`CageError`] with a
//! one-line message.

use std::fmt;

use shakmaty::{attacks, Bitboard, Board, ByColor, Color, Rank, Role, Square};

use super::failure::Failure;

/// Retractions searched along one branch unless the cage says otherwise.
pub const DEFAULT_DEPTH: u32 = 30;

/// The largest `depth=` accepted.
pub const MAX_DEPTH: u32 = 200;

/// The initial array, for home squares and frozen units.
pub(crate) const INITIAL: Board = Board::new();

/// A claimed cage: units that no game can ever have released, whatever else stands on the board.
///
/// A `Cage` value is only a claim; [`crate::verify`] decides it and a
/// [`crate::CageStore`] keeps verified ones only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The caged units (and nothing else).
    pub board: Board,
    /// The squares the verification tracks units on: a unit retracted out of the zone is dropped.
    /// Must contain every occupied square. Default: [`default_zone`].
    pub zone: Bitboard,
    /// Units that never moved (each must stand on its square of the initial array). The claim is
    /// then only about positions where these units are marked frozen too.
    pub frozen: Bitboard,
    /// The depth limit of the verification, in retractions.
    pub depth: u32,
    /// Upper bounds on the captures each side made in the whole game (`None`: no bound). A cage
    /// with a bound is only a claim about positions where the opponent's missing units allow no
    /// more captures than that; without bounds it holds in every extension.
    pub captures: ByColor<Option<u8>>,
}

/// The default zone of a board: its occupied squares and every square a king's move from one.
#[must_use]
pub fn default_zone(board: &Board) -> Bitboard {
    let occupied = board.occupied();
    occupied
        .into_iter()
        .fold(occupied, |zone, sq| zone | attacks::king_attacks(sq))
}

/// Why a cage line or a cage claim was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CageError {
    /// The line is blank or a comment.
    Empty,
    /// The board field is not a board FEN.
    Board {
        /// The field as given.
        text: String,
        /// Why it does not parse.
        why: String,
    },
    /// The board has no units.
    NoUnits,
    /// A side has more than one king.
    KingCount {
        /// The side.
        color: Color,
        /// Its kings.
        count: usize,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A field the format does not know (or a word without `=`).
    UnknownField(String),
    /// A field given twice.
    DuplicateField(&'static str),
    /// A field with nothing after `=`.
    MissingValue(&'static str),
    /// A square in a list that is not a square name.
    BadSquare {
        /// The field the list belongs to.
        field: &'static str,
        /// The word that is not a square.
        text: String,
    },
    /// The zone leaves out an occupied square.
    ZoneMissesUnit(Square),
    /// A frozen square holds no unit.
    FrozenEmpty(Square),
    /// A frozen unit does not stand on its square of the initial array, so it must have moved.
    FrozenNotHome(Square),
    /// `depth=` is not a number from 1 to [`MAX_DEPTH`].
    BadDepth(String),
    /// `captures=` is not of the form `wN`, `bN` or `wN,bM` with N, M from 0 to 15.
    BadCaptures(String),
    /// The claim was checked and the verification did not prove it.
    NotVerified {
        /// Why the verification did not prove the claim.
        failure: Failure,
        /// The line of retractions it stopped on (an escape, or where a limit hit).
        escape: Vec<String>,
    },
}

/// User text made safe for a one-line message.
fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s.escape_debug().to_string()
}

impl fmt::Display for CageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CageError::Empty => f.write_str("no cage on this line"),
            CageError::Board { text, why } => {
                // `why` is Retrace's or shakmaty's words, the user's text in it already escaped.
                write!(f, "'{}' is not a board: {why}", shown(text))
            }
            CageError::NoUnits => f.write_str("the cage has no units"),
            CageError::KingCount { color, count } => write!(
                f,
                "the cage has {count} {} kings; at most one is allowed",
                if color.is_white() { "white" } else { "black" }
            ),
            CageError::PawnOnBackRank(sq) => write!(f, "a pawn stands on {sq}, a back rank"),
            CageError::UnknownField(text) => write!(
                f,
                "unknown field '{}' (expected zone=, frozen=, depth= or captures=)",
                shown(text)
            ),
            CageError::DuplicateField(key) => write!(f, "{key}= is given twice"),
            CageError::MissingValue(key) => write!(f, "{key}= has no value"),
            CageError::BadSquare { field, text } => {
                write!(f, "{field}=: '{}' is not a square", shown(text))
            }
            CageError::ZoneMissesUnit(sq) => {
                write!(f, "the zone must contain every unit, and {sq} is missing")
            }
            CageError::FrozenEmpty(sq) => write!(f, "frozen square {sq} holds no unit"),
            CageError::FrozenNotHome(sq) => write!(
                f,
                "the unit on {sq} cannot be frozen: it does not stand on its square of the \
                 initial array"
            ),
            CageError::BadDepth(text) => write!(
                f,
                "depth= must be a number from 1 to {MAX_DEPTH}, not '{}'",
                shown(text)
            ),
            CageError::BadCaptures(text) => write!(
                f,
                "captures= must look like w0, b2 or w0,b2 (each from 0 to 15), not '{}'",
                shown(text)
            ),
            CageError::NotVerified { failure, escape } => {
                write!(f, "not a verified cage: {failure}")?;
                if !escape.is_empty() {
                    write!(f, "; escaping line {}", escape.join(" "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for CageError {}

fn parse_squares(field: &'static str, value: &str) -> Result<Bitboard, CageError> {
    let mut out = Bitboard::EMPTY;
    for part in value.split(',') {
        let lower = part.to_ascii_lowercase();
        let sq = Square::from_ascii(lower.as_bytes()).map_err(|_| CageError::BadSquare {
            field,
            text: part.to_owned(),
        })?;
        out.add(sq);
    }
    Ok(out)
}

/// Squares as `a1,b2,c3` (square order).
fn square_list(squares: Bitboard) -> String {
    let names: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
    names.join(",")
}

impl Cage {
    /// Whether the units of the cage stand on `board` (same squares, colours and roles) and its
    /// frozen units are among `frozen`.
    pub(crate) fn units_within(&self, board: &Board, frozen: Bitboard) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.board.by_color(c).is_subset(board.by_color(c)))
            && Role::ALL
                .into_iter()
                .all(|r| self.board.by_role(r).is_subset(board.by_role(r)))
            && self.frozen.is_subset(frozen)
    }

    /// A cage of `board` with the default zone, nothing frozen, the default depth and no capture
    /// bounds. Not checked: see [`Cage::validate`].
    #[must_use]
    pub fn new(board: Board) -> Cage {
        Cage {
            zone: default_zone(&board),
            board,
            frozen: Bitboard::EMPTY,
            depth: DEFAULT_DEPTH,
            captures: ByColor::default(),
        }
    }

    /// A cage from its parts, as the command line gives them (`None`: the default), checked.
    pub fn from_parts(
        board: Board,
        zone: Option<Bitboard>,
        frozen: Bitboard,
        depth: Option<u32>,
    ) -> Result<Cage, CageError> {
        let mut cage = Cage::new(board);
        if let Some(zone) = zone {
            cage.zone = zone;
        }
        cage.frozen = frozen;
        if let Some(depth) = depth {
            cage.depth = depth;
        }
        cage.validate()?;
        Ok(cage)
    }

    /// Reads a board field (a full FEN is refused: a cage has no side to move).
    pub fn parse_board(text: &str) -> Result<Board, CageError> {
        Board::from_ascii_board_fen(text.as_bytes()).map_err(|e| CageError::Board {
            text: text.to_owned(),
            // Which rank and which character, where that can be said.
            why: retrace_unmove::board_field_error(text).unwrap_or_else(|| e.to_string()),
        })
    }

    /// Reads the value of a `captures=` field (`w0`, `b2` or `w0,b2`, each from 0 to 15): upper
    /// bounds on the captures each side made in the whole game.
    pub fn parse_captures(value: &str) -> Result<ByColor<Option<u8>>, CageError> {
        let bad = || CageError::BadCaptures(value.to_owned());
        let mut out = ByColor::<Option<u8>>::default();
        for part in value.split(',') {
            let mut chars = part.chars();
            let color = match chars.next() {
                Some('w' | 'W') => Color::White,
                Some('b' | 'B') => Color::Black,
                _ => return Err(bad()),
            };
            let digits = chars.as_str();
            if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(bad());
            }
            let n: u8 = digits.parse().map_err(|_| bad())?;
            if n > 15 || out.get(color).is_some() {
                return Err(bad());
            }
            *out.get_mut(color) = Some(n);
        }
        Ok(out)
    }

    /// Reads one line of a cage file (see the module documentation).
    ///
    /// ```
    /// use retrace_cage::{verify, Cage, CageStore};
    ///
    /// // Hwa's rook: the black rook on g2 and the white king on h1 behind White's pawns.
    /// let cage = Cage::parse_line("8/8/8/8/8/6P1/4PPrP/7K").unwrap();
    /// assert!(verify(&cage, &CageStore::new()).verified());
    /// // A malformed line is an error, never a panic.
    /// assert!(Cage::parse_line("8/8/8 depth=x").is_err());
    /// ```
    pub fn parse_line(line: &str) -> Result<Cage, CageError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Err(CageError::Empty);
        }
        let mut words = line.split_ascii_whitespace();
        let board = Cage::parse_board(words.next().unwrap_or_default())?;
        let mut cage = Cage::new(board);
        let mut seen: Vec<&'static str> = Vec::new();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(CageError::UnknownField(word.to_owned()));
            };
            let key: &'static str = match key {
                "zone" => "zone",
                "frozen" => "frozen",
                "depth" => "depth",
                "captures" => "captures",
                _ => return Err(CageError::UnknownField(word.to_owned())),
            };
            if seen.contains(&key) {
                return Err(CageError::DuplicateField(key));
            }
            seen.push(key);
            if value.is_empty() {
                return Err(CageError::MissingValue(key));
            }
            match key {
                "zone" => cage.zone = parse_squares(key, value)?,
                "frozen" => cage.frozen = parse_squares(key, value)?,
                "depth" => {
                    cage.depth = value
                        .parse::<u32>()
                        .ok()
                        .filter(|d| (1..=MAX_DEPTH).contains(d))
                        .ok_or_else(|| CageError::BadDepth(value.to_owned()))?;
                }
                _ => cage.captures = Cage::parse_captures(value)?,
            }
        }
        cage.validate()?;
        Ok(cage)
    }

    /// Checks the claim is well formed: units, one king a side at most, no pawn on a back rank, a
    /// zone holding every unit, frozen units on their initial squares, a depth in range, capture
    /// bounds up to 15.
    pub fn validate(&self) -> Result<(), CageError> {
        let board = &self.board;
        if board.occupied().is_empty() {
            return Err(CageError::NoUnits);
        }
        for color in Color::ALL {
            let count = (board.kings() & board.by_color(color)).count();
            if count > 1 {
                return Err(CageError::KingCount { color, count });
            }
        }
        let back = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if let Some(sq) = (board.pawns() & back).first() {
            return Err(CageError::PawnOnBackRank(sq));
        }
        if let Some(sq) = (board.occupied() & !self.zone).first() {
            return Err(CageError::ZoneMissesUnit(sq));
        }
        for sq in self.frozen {
            match board.piece_at(sq) {
                None => return Err(CageError::FrozenEmpty(sq)),
                Some(p) if INITIAL.piece_at(sq) != Some(p) => {
                    return Err(CageError::FrozenNotHome(sq))
                }
                Some(_) => {}
            }
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(CageError::BadDepth(self.depth.to_string()));
        }
        for color in Color::ALL {
            if let Some(n) = *self.captures.get(color) {
                if n > 15 {
                    return Err(CageError::BadCaptures(n.to_string()));
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Cage {
    /// The cage as a line of a cage file; fields at their defaults are left out, so that
    /// `Cage::parse_line(&cage.to_string())` gives the same cage back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board.board_fen())?;
        if self.zone != default_zone(&self.board) {
            write!(f, " zone={}", square_list(self.zone))?;
        }
        if self.frozen.any() {
            write!(f, " frozen={}", square_list(self.frozen))?;
        }
        if self.depth != DEFAULT_DEPTH {
            write!(f, " depth={}", self.depth)?;
        }
        let bounds: Vec<String> = Color::ALL
            .into_iter()
            .filter_map(|c| {
                self.captures
                    .get(c)
                    .map(|n| format!("{}{n}", if c.is_white() { 'w' } else { 'b' }))
            })
            .collect();
        if !bounds.is_empty() {
            write!(f, " captures={}", bounds.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_zone_is_units_and_neighbours() {
        let board = Cage::parse_board("8/8/8/8/8/8/8/K7").unwrap();
        let zone = default_zone(&board);
        assert_eq!(
            zone,
            Bitboard::from_square(Square::A1)
                .with(Square::A2)
                .with(Square::B1)
                .with(Square::B2)
        );
    }

    #[test]
    fn shown_text_is_one_line() {
        assert_eq!(shown("a\nb"), "a\\nb");
        assert!(shown(&"x".repeat(100)).ends_with("..."));
    }
}
