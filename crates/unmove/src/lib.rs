//! Retro play for Retrace: the retro position model and the reverse-move generator.
//!
//! A [`RetroPosition`] is a board, the side that made the last move, and what retro play knows about
//! the past (units that never moved, a double step that must be taken back next, units marked
//! promoted, whether each side may uncapture). [`RetroPosition::retractions`] lists every legal
//! retraction as `docs/retro-rules.md` defines it; [`RetroPosition::retract`] takes one
//! back. Retractions are stored as the forward [`shakmaty::Move`] they undo, so any of them can be
//! replayed forward by shakmaty to check it.
//!
//! # Notation
//! Forward long algebraic, naming the captured unit: `a2-a3+`, `Kf5xNe5`, `Kb3xPc3+`, `f4xg3ep+`,
//! `c7xNd8=R+`, `b7-b8=Q`, `0-0`, `0-0-0`. `+` marks a move that gave check. Input also accepts
//! `O-O`, `:` for `x`, `ep` or `e.p.` after an en passant capture, `S` for a knight (as German
//! sources write), and omits `+` freely.

#![warn(missing_docs)]

mod error;
mod generate;
mod perft;
mod position;
mod retraction;
mod why_not;
mod zobrist;

pub use error::{board_field_error, ColorName, NotationError, SetupError};
pub use perft::{retro_perft, retro_perft_limited, PerftCount, PerftLimit};
pub use position::{castling_squares, pawn_forward, FenFacts, RetroPosition, EP_MODE};
pub use retraction::Retraction;
pub use shakmaty;
pub use why_not::role_name;

impl RetroPosition {
    /// The notation of `retraction` in this position (with `+` when the last move gave check).
    #[must_use]
    pub fn notation(&self, retraction: Retraction) -> String {
        retraction.to_notation(self.is_check())
    }

    /// Reads a retraction in notation and accepts it only if it is legal here.
    pub fn parse_retraction(&self, text: &str) -> Result<Retraction, NotationError> {
        let wanted = Retraction::parse(text, self.retracting())?;
        if self.retractions().contains(&wanted) {
            Ok(wanted)
        } else {
            Err(NotationError::NotLegal {
                text: text.trim().to_owned(),
                why: why_not::why_not(self, wanted),
            })
        }
    }
}
