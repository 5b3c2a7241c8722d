//! The REPL's views of a position: the board with its FEN, marks and retractions, the prompt,
//! the numbered list of retractions, and the analysis. The session decides what to show; these
//! make the text.

use std::fmt::Write as _;

use retrace_legal::{text::color_name, Analysis};
use retrace_unmove::RetroPosition;
use shakmaty::{Color, Piece, Square};

use super::render;
use crate::board::{draw, Style};

/// Where the line of a position shown was proven illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marked {
    /// At this position.
    Here,
    /// At an earlier position of the line.
    Earlier,
}

/// A position as the session shows it: drawn in a style, maybe turned round, with the mark of
/// a line proven illegal.
#[derive(Clone, Debug)]
pub struct BoardView {
    pub pos: RetroPosition,
    pub style: Style,
    pub flipped: bool,
    pub marked: Option<Marked>,
}

impl BoardView {
    /// The text of [`board`].
    #[must_use]
    pub fn text(&self) -> String {
        board(&self.pos, self.style, self.flipped, self.marked)
    }
}

/// The board drawn in `style` (turned around when `flipped`), the FEN, the marks, the count of
/// retractions, and whether the line is marked illegal.
#[must_use]
pub fn board(pos: &RetroPosition, style: Style, flipped: bool, marked: Option<Marked>) -> String {
    let mut text = draw(pos, style, flipped);
    let _ = writeln!(text, "FEN {}", pos.fen());
    let marks: Vec<String> = [("frozen", pos.frozen()), ("promoted", pos.promoted())]
        .iter()
        .filter(|(_, squares)| squares.any())
        .map(|(name, squares)| {
            let list: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
            format!("{name}: {}", list.join(" "))
        })
        .collect();
    if !marks.is_empty() {
        let _ = writeln!(text, "{}", marks.join("; "));
    }
    let count = pos.retractions().len();
    text.push_str(&render::retraction_count(pos, count));
    if count == 0 {
        text.push_str(" (no history leads here: this position is illegal)");
    }
    match marked {
        Some(Marked::Earlier) => {
            text.push_str("\nThis line is marked ILLEGAL: an earlier position was proven illegal.")
        }
        Some(Marked::Here) => text.push_str("\nThis line is marked ILLEGAL from this position on."),
        None => {}
    }
    text
}

/// The REPL's prompt: who retracts, how many retractions were `taken`, and a mark when the line
/// was proven illegal: `White retracts [2] ILLEGAL> `.
#[must_use]
pub fn prompt(retracting: Color, taken: usize, illegal: bool) -> String {
    let mark = if illegal { " ILLEGAL" } else { "" };
    format!("{} retracts [{taken}]{mark}> ", color_name(retracting))
}

/// Every legal retraction of `pos`, numbered, one line per unit.
#[must_use]
pub fn retractions(pos: &RetroPosition) -> String {
    let retractions = pos.retractions();
    if retractions.is_empty() {
        return "no legal retraction: this position is illegal".into();
    }
    let mut groups: indexmap::IndexMap<Square, Vec<String>> = indexmap::IndexMap::new();
    for (i, &r) in retractions.iter().enumerate() {
        groups.entry(r.current_square()).or_default().push(format!(
            "{:>3}. {}",
            i + 1,
            pos.notation(r)
        ));
    }
    let mut text = render::retraction_count(pos, retractions.len());
    if pos.is_check() {
        text.push_str(" (the last move gave check: +)");
    }
    text.push('\n');
    for (square, moves) in groups {
        let unit = pos.board().piece_at(square).map_or('?', Piece::char);
        for (k, chunk) in moves.chunks(4).enumerate() {
            let label = if k == 0 {
                format!("{unit}{square}")
            } else {
                String::new()
            };
            let _ = writeln!(text, "  {label:<4} {}", chunk.join("  "));
        }
    }
    text.pop();
    text
}

/// The analysis as `check` shows it: the verdict with its reasons, then what each side needed.
#[must_use]
pub fn check(analysis: &Analysis) -> String {
    let mut text = if analysis.reasons.is_empty() {
        "no contradiction found".to_owned()
    } else {
        let mut t = "illegal:".to_owned();
        for reason in &analysis.reasons {
            let _ = write!(t, "\n  {reason}");
        }
        t
    };
    text.push('\n');
    text.push_str(&render::needs(analysis));
    text
}
