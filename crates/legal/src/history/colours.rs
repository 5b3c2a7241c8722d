//! CQLi's "missing bishop but all captures on squares of the other colour" (seed 002).
//!
//! A bishop stands only on squares of its colour, so it was captured on one. Suppose a side `V`
//! misses its original bishop of colour `K` (no bishop of `V` on a `K` square can be it: none is
//! there, or those there are proven promoted). The other side `S` captured it. Suppose further that
//! the captures `S` must have made already use up all of `V`'s missing units: the captures of `S`'s
//! pawns in every cheapest assignment of pawns to start files, plus the originals of `V` that pieces
//! captured in pens where no pawn can capture. Then `S` made exactly those captures and no others
//! (each missing unit was captured once). If in every such assignment each pawn that changed files
//! did so by captures only (it advanced exactly as many ranks as files: all its moves were captures,
//! all landing on squares of its present square's colour) and those squares are not of colour `K`,
//! and every pawn that promoted to a unit on the board can only have captured on squares that are
//! not of colour `K` within the budget, then none of `S`'s captures took the bishop: no game
//! reaches the position. The captures of the pens' originals took those originals, not the bishop
//! (unless the bishop is one of them, and then the rule does not apply).
//!
//! The check ([`super::capture_squares`]) runs a dynamic programme over start files with a flag for
//! "some capture may have been on a `K` square or at an unknown square", following the promoting
//! pawns square by square around the pawns of known history, in every branch of `V`'s pawn
//! histories; any assignment within the budget with the flag set, or leaving captures to spare,
//! makes the rule give up.

use shakmaty::{Bitboard, Color, Role};

use super::capture_squares::captures_avoid;
use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_name, plural, squares_text};
use crate::{
    geometry::homes,
    pawns::{advance, capturing_pawns},
    promotion::demands,
    types::ReasonCode,
};

// Long by design: the rule's proof step by step (captures used up, the landing squares of the
// pawns that changed files, the colour of each missing bishop), each step reading the ones before;
// the comments inside mark the steps.
/// Appends a [`ReasonCode::BishopCaptureColour`] reason for every missing bishop that no capture
/// can have taken.
pub(crate) fn bishop_colours(known: &Known<'_>, out: &mut Reasons) {
    let board = known.pos.board();
    for victim in Color::ALL {
        let taker = victim.other();
        let pawns = board.by_piece(taker.pawn());
        if pawns.count() > 8 {
            continue;
        }
        let missing = known.missing(victim);
        let by_pieces = known.by_pieces(taker);
        // The rule needs the captures the counting rules found to use up the missing units.
        if u32::from(known.captures.get(taker).total) != missing {
            continue;
        }
        for (colour, name) in [
            (Bitboard::LIGHT_SQUARES, "light"),
            (Bitboard::DARK_SQUARES, "dark"),
        ] {
            let home = homes(victim, Role::Bishop) & colour;
            if (home & *known.statics.captured_at_home.get(victim)).any() {
                continue;
            }
            let bishops = board.by_piece(victim.bishop()) & colour & !known.statics.promoted;
            if bishops.any() {
                continue;
            }
            if !captures_avoid(known, taker, colour, missing, by_pieces) {
                continue;
            }
            let movers = capturing_pawns(taker, pawns);
            let mut squares = Bitboard::EMPTY;
            for &(sq, from) in &movers {
                // A pawn that advanced as far as it changed files captured on every move, on the
                // squares of the diagonal from its start square to its present square.
                let step = if sq.file() > from { 1 } else { -1 };
                let mut file = from as i32;
                let back = advance(taker, sq);
                for k in 1..=back {
                    file += step;
                    let rank = taker.relative_rank(shakmaty::Rank::Second) as i32
                        + if taker.is_white() { k } else { -k };
                    squares.add(shakmaty::Square::from_coords(
                        shakmaty::File::new(file as u32),
                        shakmaty::Rank::new(rank as u32),
                    ));
                }
            }
            let other = if name == "light" { "dark" } else { "light" };
            let promoted: Bitboard = demands(known.pos, known.statics, taker)
                .iter()
                .fold(Bitboard::EMPTY, |acc, d| acc | d.units);
            let mut parts = Vec::new();
            if squares.any() {
                parts.push(squares_text(squares));
            }
            if promoted.any() {
                parts.push(format!(
                    "{}those of the pawns that promoted to the units on {}: followed square by \
                     square around the pawns that never moved or moved once, their paths allow no \
                     other capture within that count",
                    if squares.any() { "and " } else { "" },
                    squares_text(promoted)
                ));
            }
            out.add(
                ReasonCode::BishopCaptureColour,
                squares | home | promoted,
                || {
                    let head = format!(
                        "{} is missing its {name}-squared bishop (from {})",
                        color_name(victim),
                        squares_text(home)
                    );
                    // No capture on a square of its own: none at all, or only the pens' originals.
                    if parts.is_empty() && missing == 0 {
                        format!(
                            "{head}, but {} misses no unit, so none was ever captured",
                            color_name(victim)
                        )
                    } else if parts.is_empty() {
                        format!(
                            "{head}, but none of the captures {} must have made can have been on \
                             a {name} square, and {} misses only {missing} unit{}",
                            color_name(taker),
                            color_name(victim),
                            plural(missing)
                        )
                    } else {
                        format!(
                            "{head}, but every capture {} made was on a {other} square ({}): its \
                             pawn structure needs those captures, and {} misses only {missing} \
                             unit{}",
                            color_name(taker),
                            parts.join(" "),
                            color_name(victim),
                            plural(missing)
                        )
                    }
                },
            );
        }
    }
}
