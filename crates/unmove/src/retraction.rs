//! A retraction and its notation.
//!
//! A retraction is stored as the forward move that leads from the predecessor to the position, in
//! shakmaty's own [`Move`] type, so replaying it forward needs no translation.

use std::fmt;

use shakmaty::{CastlingSide, Color, Move, Role, Square};

use crate::error::NotationError;

/// One move taken back: the forward move from the predecessor to the current position.
///
/// Invariant: never a [`Move::Put`] (drops do not exist in chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Retraction(Move);

impl Retraction {
    /// Wraps a forward move. Returns `None` for a drop, which chess has no place for.
    #[must_use]
    pub fn from_forward(m: Move) -> Option<Retraction> {
        match m {
            Move::Put { .. } => None,
            m => Some(Retraction(m)),
        }
    }

    #[inline]
    pub(crate) const fn new_unchecked(m: Move) -> Retraction {
        Retraction(m)
    }

    /// The forward move this retraction takes back.
    #[must_use]
    #[inline]
    pub const fn forward(self) -> Move {
        self.0
    }

    /// The unit that reappears on the arrival square, if the move was a capture (en passant
    /// included: then a pawn).
    #[must_use]
    pub fn uncaptured(self) -> Option<Role> {
        match self.0 {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// The piece the move promoted to, if it was a promotion.
    #[must_use]
    pub fn unpromotion(self) -> Option<Role> {
        match self.0 {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether the move was an en passant capture.
    #[must_use]
    pub fn is_en_passant(self) -> bool {
        matches!(self.0, Move::EnPassant { .. })
    }

    /// The castling side, if the move was castling.
    #[must_use]
    pub fn castling_side(self) -> Option<CastlingSide> {
        self.0.castling_side()
    }

    /// The square the moved unit stands on now (the king's square for castling).
    #[must_use]
    pub fn current_square(self) -> Square {
        match self.0 {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook > king);
                let color = Color::from_white(king.rank() == shakmaty::Rank::First);
                side.king_to(color)
            }
            m => m.to(),
        }
    }

    /// The retraction in retro notation, `+` appended when the move gave check.
    #[must_use]
    pub fn to_notation(self, check: bool) -> String {
        let mut s = self.to_string();
        if check {
            s.push('+');
        }
        s
    }

    /// Reads retro notation (see [the crate docs](crate#notation)) for a move of `color`.
    ///
    /// Only the syntax is checked here; whether the retraction is legal in a position is for
    /// [`crate::RetroPosition::parse_retraction`] to say.
    pub fn parse(text: &str, color: Color) -> Result<Retraction, NotationError> {
        parse(text, color)
    }
}

impl fmt::Display for Retraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                write!(f, "{from}")?;
                match capture {
                    Some(captured) => write!(f, "x{}", captured.upper_char())?,
                    None => f.write_str("-")?,
                }
                write!(f, "{to}")?;
                if let Some(promoted) = promotion {
                    write!(f, "={}", promoted.upper_char())?;
                }
                Ok(())
            }
            Move::EnPassant { from, to } => write!(f, "{from}x{to}ep"),
            Move::Castle { king, rook } => f.write_str(if rook > king { "0-0" } else { "0-0-0" }),
            Move::Put { .. } => unreachable!("a retraction is never a drop"),
        }
    }
}

/// What a move written short (SAN, one square) is told: retro notation names both squares.
const SAN_HINT: &str = "a retraction names both squares, as in Kb2-a1, e2-e4 or Rh1xNh8 (the \
                        move taken back, the unit it captured named): short notation like Ka1 or \
                        Nxf3 does not say where the unit came from";

fn syntax(text: &str, why: &'static str) -> NotationError {
    NotationError::Syntax {
        // Escaped so the message stays one line whatever the input holds (a newline, a tab).
        text: text.escape_debug().to_string(),
        why,
    }
}

fn role_from_letter(ch: u8) -> Option<Role> {
    match ch {
        b'P' => Some(Role::Pawn),
        // S (Springer) as German sources write a knight.
        b'N' | b'S' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

/// A cursor over the bytes of a move.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &[u8]) -> bool {
        if self.bytes[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn square(&mut self) -> Option<Square> {
        let sq = Square::from_ascii(self.bytes.get(self.pos..self.pos + 2)?).ok()?;
        self.pos += 2;
        Some(sq)
    }

    fn role(&mut self) -> Option<Role> {
        let role = role_from_letter(self.peek()?)?;
        self.pos += 1;
        Some(role)
    }
}

fn parse(text: &str, color: Color) -> Result<Retraction, NotationError> {
    let trimmed = text.trim();
    let body = trimmed.trim_end_matches(['+', '#']);
    if body.is_empty() {
        return Err(syntax(text, "empty"));
    }
    let castling = match body {
        "0-0" | "O-O" => Some(CastlingSide::KingSide),
        "0-0-0" | "O-O-O" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if let Some(side) = castling {
        let (king, rook) = crate::castling_squares(color, side);
        return Ok(Retraction(Move::Castle { king, rook }));
    }
    let mut r = Reader {
        bytes: body.as_bytes(),
        pos: 0,
    };
    let role = match r.peek() {
        Some(b'a'..=b'h') => Role::Pawn,
        _ => match r.role() {
            Some(Role::Pawn) | None => {
                return Err(syntax(text, "expected a piece letter or a square"))
            }
            Some(role) => role,
        },
    };
    let from = r.square().ok_or_else(|| {
        // `Nxf3`, `exd5`: a capture written short (SAN) names no square it came from.
        let rest = &r.bytes[r.pos..];
        match rest {
            [b'x' | b':', ..] | [b'a'..=b'h', b'x' | b':', ..] => syntax(text, SAN_HINT),
            _ => syntax(text, "expected the square the unit came from"),
        }
    })?;
    let capturing = if r.eat(b'x') || r.eat(b':') {
        true
    } else if r.eat(b'-') {
        false
    } else if r.peek().is_none() {
        // `Ka1`, `e4`: one square only, as SAN writes a move.
        return Err(syntax(text, SAN_HINT));
    } else {
        return Err(syntax(text, "expected '-' or 'x' after the first square"));
    };
    let captured = if capturing { r.role() } else { None };
    if captured == Some(Role::King) {
        return Err(syntax(text, "a king is never captured"));
    }
    let to = r
        .square()
        .ok_or_else(|| syntax(text, "expected the square the unit went to"))?;
    if r.eat_str(b"ep") || r.eat_str(b"e.p.") {
        if role != Role::Pawn || !capturing || captured.is_some_and(|c| c != Role::Pawn) {
            return Err(syntax(
                text,
                "only a pawn capturing a pawn can take en passant",
            ));
        }
        return finish(text, &r, Move::EnPassant { from, to });
    }
    if capturing && captured.is_none() {
        return Err(syntax(text, "name the captured unit, as in Kf5xNe5"));
    }
    let promotion = if r.eat(b'=') {
        match r.role() {
            Some(Role::Pawn | Role::King) | None => {
                return Err(syntax(text, "a pawn promotes to Q, R, B or N"))
            }
            Some(role) => Some(role),
        }
    } else {
        None
    };
    if promotion.is_some() && role != Role::Pawn {
        return Err(syntax(text, "only a pawn promotes"));
    }
    finish(
        text,
        &r,
        Move::Normal {
            role,
            from,
            capture: captured,
            to,
            promotion,
        },
    )
}

fn finish(text: &str, r: &Reader<'_>, m: Move) -> Result<Retraction, NotationError> {
    if r.pos != r.bytes.len() {
        return Err(syntax(text, "unexpected text after the move"));
    }
    if m.from() == Some(m.to()) {
        return Err(syntax(text, "a move must change square"));
    }
    Ok(Retraction(m))
}
