//! Retro play for Retrace: the retro position model and the reverse-move generator.
//!
//! A [`RetroPosition`] is a board, the side that made the last move, and what retro play knows about
//! the past (units that never moved, a double step that must be taken back next, units marked
//! promoted, whether each side may uncapture). [`RetroPosition::retractions`] lists every legal
//! retraction as `shared/design/retro-rules.md` defines it; [`RetroPosition::retract`] takes one
//! back. Retractions are stored as the forward [`shakmaty::Move`] they undo, so any of them can be
//! replayed forward by shakmaty to check it.
//!
//! # Notation
//! Forward long algebraic, naming the captured unit: `a2-a3+`, `Kf5xNe5`, `Kb3xPc3+`, `f4xg3ep+`,
//! `c7xNd8=R+`, `b7-b8=Q`, `0-0`, `0-0-0`. `+` marks a move that gave check. Input also accepts
//! `O-O`, `:` for `x`, and omits `+` freely.

mod error;
mod generate;
mod position;
mod retraction;
mod zobrist;

pub use error::{ColorName, NotationError, SetupError};
pub use position::{castling_squares, FenFacts, RetroPosition, EP_MODE};
pub use retraction::Retraction;
pub use shakmaty;

/// Counts the leaves of the retraction tree `depth` plies deep (bulk-counted at the last ply).
#[must_use]
pub fn retro_perft(pos: &RetroPosition, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(128); depth as usize];
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner(pos: &RetroPosition, depth: u32, buffers: &mut [Vec<Retraction>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_retractions(),
        _ => {
            let Some((moves, rest)) = buffers.split_first_mut() else {
                return 0;
            };
            pos.retractions_into(moves);
            moves
                .iter()
                .map(|&r| perft_inner(&pos.retract(r), depth - 1, rest))
                .sum()
        }
    }
}

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
            })
        }
    }
}
