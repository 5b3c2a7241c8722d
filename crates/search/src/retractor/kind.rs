//! The three kinds of retractor and who decides what in each.

use std::{fmt, str::FromStr};

use shakmaty::Color;

use super::RetractorError;

/// How the two sides share the decisions of the retraction phase (see `docs/retractors.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RetractorKind {
    /// Defensive, Proca type: Black retracts to stop White; each side chooses for its own
    /// retractions whether and which unit is uncaptured.
    Proca,
    /// Defensive, Høeg type: as Proca, but the opponent of the retracting side chooses whether a
    /// capture is taken back and which unit comes back.
    Hoeg,
    /// Help retractor: both sides cooperate so that the forward stipulation holds.
    Help,
}

/// What the side making a choice wants of the outcome for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Wants White to succeed: any winning choice will do.
    Max,
    /// Wants White to fail: any losing choice will do.
    Min,
}

impl RetractorKind {
    /// Who picks the retraction (its geometry) when `side` retracts.
    pub(crate) fn mover(self, side: Color) -> Pick {
        match (self, side) {
            (RetractorKind::Help, _) | (_, Color::White) => Pick::Max,
            (_, Color::Black) => Pick::Min,
        }
    }

    /// Who picks the uncapture (none, or which unit) of a retraction by `side`.
    pub(crate) fn uncapturer(self, side: Color) -> Pick {
        match self {
            RetractorKind::Hoeg => self.mover(side.other()),
            _ => self.mover(side),
        }
    }

    /// Whether retractions of the same geometry form one choice whose uncapture the opponent
    /// picks.
    pub(crate) fn groups_uncaptures(self) -> bool {
        self == RetractorKind::Hoeg
    }

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RetractorKind::Proca => "proca",
            RetractorKind::Hoeg => "hoeg",
            RetractorKind::Help => "help",
        }
    }
}

impl fmt::Display for RetractorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RetractorKind {
    type Err = RetractorError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "proca" => Ok(RetractorKind::Proca),
            "hoeg" | "høeg" => Ok(RetractorKind::Hoeg),
            "help" => Ok(RetractorKind::Help),
            _ => Err(RetractorError::Kind(text.escape_debug().to_string())),
        }
    }
}
