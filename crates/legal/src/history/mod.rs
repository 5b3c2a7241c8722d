//! Rules about the order of events in a game, which counting alone does not see: a rook that must
//! have passed a bishop that can only have arrived after it, pawns of both sides that passed each
//! other on a file, a bishop missing although every capture was made on squares of the other
//! colour, the parity of the number of moves played, and a side shut in by its own walls with too
//! few moves to spare (tempo).
//!
//! Each rule proves illegality for every game that could reach the position; where a sharper rule
//! would need a guess it is left out, and the module says so.

mod capture_squares;
mod castling;
mod colours;
mod crossing;
mod forced_promotion;
mod home_pen;
mod locked;
mod parity;
mod promotion_check;
mod promotion_pen;
mod tempo;
mod trapped;

pub(crate) use self::capture_squares::branches;
pub(crate) use self::castling::checking_squares;
use crate::known::Known;
use crate::reasons::Reasons;

/// Appends the reasons of this module to `out`.
/// Stops after the rule that settles `out` (a verdict-only sink with its reason).
pub(crate) fn reasons(known: &Known<'_>, out: &mut Reasons) {
    let rules: [fn(&Known<'_>, &mut Reasons); 10] = [
        |known, out| trapped::trapped_rooks(known.pos, out),
        crossing::crossed_pawns,
        colours::bishop_colours,
        parity::parity,
        promotion_pen::crowded_pens,
        forced_promotion::forced_promotions,
        castling::promotions,
        promotion_check::promotion_checks,
        home_pen::crowded_home_pens,
        tempo::tempo,
    ];
    for rule in rules {
        if out.settled() {
            return;
        }
        rule(known, out);
    }
}
