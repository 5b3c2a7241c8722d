//! The forward stipulation played after the retractions: mate, stalemate or selfmate in M, White
//! to move, searched exhaustively with shakmaty.

use std::{fmt, str::FromStr};

use shakmaty::{Chess, Move, Position};

use super::{budget::Budget, RetractorError};

/// The longest forward stipulation accepted (the search is exhaustive, so it grows fast).
pub const MAX_FORWARD_MOVES: u32 = 4;

/// What White must force after the retractions, in at most `M` of its own moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForwardGoal {
    /// `#M`: White mates Black, whatever Black plays.
    Mate(u32),
    /// `=M`: White stalemates Black, whatever Black plays.
    Stalemate(u32),
    /// `s#M`: White forces Black to mate White.
    Selfmate(u32),
}

impl ForwardGoal {
    /// The number of White moves.
    #[must_use]
    pub fn moves(self) -> u32 {
        match self {
            ForwardGoal::Mate(m) | ForwardGoal::Stalemate(m) | ForwardGoal::Selfmate(m) => m,
        }
    }

    fn with_moves(self, m: u32) -> ForwardGoal {
        match self {
            ForwardGoal::Mate(_) => ForwardGoal::Mate(m),
            ForwardGoal::Stalemate(_) => ForwardGoal::Stalemate(m),
            ForwardGoal::Selfmate(_) => ForwardGoal::Selfmate(m),
        }
    }

    /// Whether White, to move in `pos`, forces the goal. Returns false when `budget` runs out
    /// (the caller sees `budget.stopped` and discards the answer).
    pub(crate) fn holds(self, pos: &Chess, budget: &mut Budget<'_>) -> bool {
        !self.winning_moves(pos, budget, true).is_empty()
    }

    /// White's first moves in `pos` that force the goal (only the first one if `first_only`).
    pub(crate) fn winning_moves(
        self,
        pos: &Chess,
        budget: &mut Budget<'_>,
        first_only: bool,
    ) -> Vec<Move> {
        let mut found = Vec::new();
        for m in &pos.legal_moves() {
            if !budget.visit(0) {
                break;
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            if self.after_white(&after, budget) {
                found.push(*m);
                if first_only {
                    break;
                }
            }
        }
        found
    }

    /// Whether the goal is forced once White has played and left `after`, Black to move.
    pub(crate) fn after_white(self, after: &Chess, budget: &mut Budget<'_>) -> bool {
        let m = self.moves();
        match self {
            ForwardGoal::Mate(_) if after.is_checkmate() => true,
            ForwardGoal::Stalemate(_) if after.is_stalemate() => true,
            ForwardGoal::Mate(_) | ForwardGoal::Stalemate(_) => {
                m > 1 && self.every_reply(after, budget, |_| false)
            }
            ForwardGoal::Selfmate(_) => self.every_reply(after, budget, Chess::is_checkmate),
        }
    }

    /// Whether Black, to move in `after`, has a move and every move either reaches `done` or
    /// leaves White the goal in one move fewer.
    fn every_reply(
        self,
        after: &Chess,
        budget: &mut Budget<'_>,
        done: impl Fn(&Chess) -> bool,
    ) -> bool {
        let replies = after.legal_moves();
        let m = self.moves();
        !replies.is_empty()
            && replies.iter().all(|reply| {
                if !budget.visit(0) {
                    return false;
                }
                let mut next = after.clone();
                next.play_unchecked(*reply);
                done(&next) || (m > 1 && self.with_moves(m - 1).holds(&next, budget))
            })
    }

    /// Black's replies to a White move that left `after`, and the goal that then remains
    /// (`None` when the reply itself completes the goal, as Black's mate in a selfmate does).
    pub(crate) fn replies(self, after: &Chess) -> Vec<(Move, Option<ForwardGoal>)> {
        let m = self.moves();
        after
            .legal_moves()
            .iter()
            .map(|reply| {
                let mut next = after.clone();
                next.play_unchecked(*reply);
                let done = matches!(self, ForwardGoal::Selfmate(_)) && next.is_checkmate();
                let rest = (!done && m > 1).then(|| self.with_moves(m - 1));
                (*reply, rest)
            })
            .collect()
    }
}

impl fmt::Display for ForwardGoal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForwardGoal::Mate(m) => write!(f, "#{m}"),
            ForwardGoal::Stalemate(m) => write!(f, "={m}"),
            ForwardGoal::Selfmate(m) => write!(f, "s#{m}"),
        }
    }
}

impl FromStr for ForwardGoal {
    type Err = RetractorError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || RetractorError::Goal(text.escape_debug().to_string());
        let t = text.trim();
        let (make, digits): (fn(u32) -> ForwardGoal, &str) = if let Some(d) = t.strip_prefix("s#") {
            (ForwardGoal::Selfmate, d)
        } else if let Some(d) = t.strip_prefix('#') {
            (ForwardGoal::Mate, d)
        } else if let Some(d) = t.strip_prefix('=') {
            (ForwardGoal::Stalemate, d)
        } else {
            return Err(bad());
        };
        match digits.parse::<u32>() {
            Ok(m) if (1..=MAX_FORWARD_MOVES).contains(&m) => Ok(make(m)),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode};

    use super::*;

    fn chess(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    fn holds(goal: &str, fen: &str) -> bool {
        let mut budget = Budget::new(None, None, None);
        goal.parse::<ForwardGoal>()
            .expect("goal")
            .holds(&chess(fen), &mut budget)
    }

    #[test]
    fn goals_parse_and_print() {
        for text in ["#1", "#2", "=1", "s#1"] {
            assert_eq!(text.parse::<ForwardGoal>().expect("goal").to_string(), text);
        }
        for bad in ["", "#0", "#9", "h#2", "#x", "mate"] {
            assert!(bad.parse::<ForwardGoal>().is_err(), "{bad}");
        }
    }

    #[test]
    fn mate_and_stalemate() {
        // Back-rank mate in one, and no mate in one where the rook is missing.
        assert!(holds("#1", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
        assert!(!holds("#1", "6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1"));
        // 1.Kc7 Ka7 2.Ra1#, and Rh8+ alone lets the king out to a7.
        assert!(holds("#2", "k7/8/2K5/8/8/8/8/7R w - - 0 1"));
        assert!(!holds("#1", "k7/8/2K5/8/8/8/8/7R w - - 0 1"));
        // Qc7 leaves the king on a8 no move and no check.
        assert!(holds("=1", "k7/8/1K6/8/8/8/2Q5/8 w - - 0 1"));
        // A lone king cannot take the last free square from the king on a8 in one move.
        assert!(!holds("=1", "k7/8/1K6/8/8/8/8/8 w - - 0 1"));
    }
}
