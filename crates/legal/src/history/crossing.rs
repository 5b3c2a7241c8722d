//! A white and a black pawn on one file that have passed each other (Sherlock L30).
//!
//! Proof that one of them left the file at some moment. Suppose both stayed on file `f` from
//! their start (so both started on `f`). A pawn moves forward only onto an empty square (a double
//! step crosses an empty square too), so with the white pawn on rank `i` and the black one on rank
//! `j > i` the white pawn can reach at most `j - 1` and the black one at least `i + 1`: `i < j`
//! holds at every moment (it holds at the start, 2 < 7). So if now the white pawn stands above the
//! black one, one of them was off the file at some moment: it started on another file (a capture per
//! file changed), or it started on `f` and left and came back (two captures at least).
//!
//! The rule asks for each pair which pawn left the file, and for every choice computes the captures
//! each side's pawns need (the assignment of pawns to start files, with a displaced pawn on its own
//! start file costing two). If no choice fits the units each side is missing, no game reaches the
//! position. The rule is skipped when there are more than [`MAX_PAWNS`] white pawns in pairs, or
//! when the spare captures could pay two for every pair anyway.

use shakmaty::{Bitboard, Color};

use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_name, plural, squares_text};
use crate::{pawns::PawnCost, types::ReasonCode};

/// Most white pawns in crossed pairs for which the choices are enumerated.
const MAX_PAWNS: usize = 6;

/// Captures the pawns of `color` need when the pawns of `displaced` must have left their files.
fn pawn_captures(known: &Known<'_>, color: Color, displaced: Bitboard) -> Option<u32> {
    let pawns = known.pos.board().by_piece(color.pawn());
    let p = known.promoted.get(color);
    let cost = if displaced.is_empty() {
        PawnCost::compute(color, pawns)
    } else {
        PawnCost::compute_displaced(color, pawns, displaced)
    };
    cost.min_captures(p.light_bishops, p.dark_bishops)
}

// Long by design: the rule's proof step by step (the cheapest assignments, the crossed pairs, the
// extra captures), each step reading the ones before; the comments inside mark the steps.
/// Appends a [`ReasonCode::PawnsCrossed`] reason if the crossed pawns of the position need more
/// captures than the missing units allow.
pub(crate) fn crossed_pawns(known: &Known<'_>, out: &mut Reasons) {
    let board = known.pos.board();
    let white = board.by_piece(Color::White.pawn());
    let black = board.by_piece(Color::Black.pawn());
    if white.count() > 8 || black.count() > 8 {
        return;
    }
    let mut pairs = Vec::new();
    for w in white {
        for b in black & Bitboard::from_file(w.file()) {
            if w.rank() > b.rank() {
                pairs.push((w, b));
            }
        }
    }
    if pairs.is_empty() {
        return;
    }
    let budget = |color: Color| {
        known
            .missing(color.other())
            .checked_sub(known.by_pieces(color))
    };
    let (Some(budget_w), Some(budget_b)) = (budget(Color::White), budget(Color::Black)) else {
        return;
    };
    // The cheapest assignments, as the counting rules found them (from the cache).
    let base_w = u32::from(known.captures.white.by_pawns);
    let base_b = u32::from(known.captures.black.by_pawns);
    if base_w > budget_w || base_b > budget_b {
        // Too many captures already: another rule says so.
        return;
    }
    let slack = (budget_w - base_w) + (budget_b - base_b);
    if slack as usize >= 2 * pairs.len() {
        return;
    }
    let involved: Vec<_> = pairs
        .iter()
        .map(|&(w, _)| w)
        .collect::<Bitboard>()
        .into_iter()
        .collect();
    if involved.len() > MAX_PAWNS {
        return;
    }
    for choice in 0u32..1 << involved.len() {
        let moved_w: Bitboard = involved
            .iter()
            .enumerate()
            .filter(|(i, _)| choice & 1 << i != 0)
            .map(|(_, &sq)| sq)
            .collect();
        let moved_b: Bitboard = pairs
            .iter()
            .filter(|(w, _)| !moved_w.contains(*w))
            .map(|&(_, b)| b)
            .collect();
        let fits = |color: Color, moved: Bitboard, budget: u32| {
            pawn_captures(known, color, moved).is_some_and(|c| c <= budget)
        };
        if fits(Color::White, moved_w, budget_w) && fits(Color::Black, moved_b, budget_b) {
            return;
        }
    }
    let squares: Bitboard = pairs.iter().flat_map(|&(w, b)| [w, b]).collect();
    let list: Vec<String> = pairs
        .iter()
        .map(|(w, b)| format!("{w} above {b}"))
        .collect();
    out.add(ReasonCode::PawnsCrossed, squares, || format!(
            "white and black pawns have passed each other on a file ({}), so for each pair one of \
             them left the file by capturing; but {} can make at most {budget_w} pawn capture{} and \
             {} at most {budget_b} (the units missing, less the captures pieces made), and no choice \
             of the pawns that left fits (pawns on {})",
            list.join(", "),
            color_name(Color::White),
            plural(budget_w),
            color_name(Color::Black),
            squares_text(squares)
        ));
}
