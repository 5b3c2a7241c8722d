//! Solutions as a composer publishes them: numbered retro notation, and a summary by last move.

use std::fmt::Write as _;

use indexmap::IndexMap;
use retrace_search::line_notation;
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

use crate::session::plural;

/// A line in numbered retro notation, last move first: `-1.Ka2-a1 Kc1-c2 -2.Ra1xNb1+`.
///
/// Retro move -k is White's retraction followed by Black's, as retractor problems write it;
/// when Black made the last move the line starts `-1... ` with Black's retraction alone.
#[must_use]
pub fn numbered(pos: &RetroPosition, line: &[Retraction]) -> String {
    let mut text = String::new();
    let mut number = 0;
    let mut side = pos.retracting();
    for (i, notation) in line_notation(pos, line).iter().enumerate() {
        if side == Color::White || i == 0 {
            number += 1;
            if i > 0 {
                text.push(' ');
            }
            let dots = if side == Color::White { "." } else { "... " };
            let _ = write!(text, "-{number}{dots}{notation}");
        } else {
            let _ = write!(text, " {notation}");
        }
        side = !side;
    }
    text
}

/// The lines grouped by their last move (the first retraction), in order of first appearance:
/// `Kh2-h1: 1 line; h2xg3: 5 lines`; `None` when no two lines share a last move.
#[must_use]
pub fn by_last_move(pos: &RetroPosition, lines: &[Vec<Retraction>]) -> Option<String> {
    let mut groups: IndexMap<String, usize> = IndexMap::new();
    for line in lines {
        if let Some(&first) = line.first() {
            *groups.entry(pos.notation(first)).or_default() += 1;
        }
    }
    (groups.len() < lines.len()).then(|| {
        groups
            .iter()
            .map(|(last, n)| format!("{last}: {n} line{}", plural(*n)))
            .collect::<Vec<_>>()
            .join("; ")
    })
}
