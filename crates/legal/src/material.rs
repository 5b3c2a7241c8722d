//! Counting: units, pawns, promoted units, and the captures the pawn structure implies.

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Color};

use crate::text::{color_adj, color_name, plural, squares_text};
use crate::{
    class::{classes, Class},
    pawns::{capturing_pawns, impossible_group, PawnCache},
    promotion::{self, WalkCache},
    reasons::Reasons,
    statics::Statics,
    types::{Captures, ReasonCode},
};

/// The promoted units one side must have, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Promoted {
    /// All promoted units (lower bound).
    pub total: u32,
    /// Promoted bishops on light squares (lower bound).
    pub light_bishops: u32,
    /// Promoted bishops on dark squares (lower bound).
    pub dark_bishops: u32,
    /// Units of the kinds that have more than the originals can account for, and units proven
    /// promoted: the squares to name in a message.
    pub squares: Bitboard,
}

/// How many units of one class must be promoted: those proven promoted (`forced`), and those of
/// the rest (`free`) beyond the originals still `available`.
struct ClassCount {
    class: Class,
    forced: Bitboard,
    free: Bitboard,
    available: u32,
    excess: u32,
}

/// The promoted units each class of `color` needs, in the order of [`classes`].
fn class_counts(pos: &RetroPosition, statics: &Statics, color: Color) -> [ClassCount; 5] {
    classes(pos, color).map(|class| {
        let forced = class.units & statics.promoted;
        let free = class.units & !forced;
        let available = (class.originals & !*statics.stuck_missing.get(color)).count() as u32;
        let excess = (free.count() as u32).saturating_sub(available);
        ClassCount {
            class,
            forced,
            free,
            available,
            excess,
        }
    })
}

/// The minimum promoted units of `color` (why, in words: [`promoted_why`]).
pub(crate) fn promoted(pos: &RetroPosition, statics: &Statics, color: Color) -> Promoted {
    let mut out = Promoted::default();
    for (i, c) in class_counts(pos, statics, color).iter().enumerate() {
        let n = c.forced.count() as u32 + c.excess;
        out.total += n;
        match i {
            3 => out.light_bishops += n,
            4 => out.dark_bishops += n,
            _ => {}
        }
        if c.forced.any() {
            out.squares |= c.forced;
        }
        if c.excess > 0 {
            out.squares |= c.free;
        }
    }
    out
}

/// Why `color` has the promoted units [`promoted`] counts, a phrase per class; made only when a
/// reason is shown.
fn promoted_why(pos: &RetroPosition, statics: &Statics, color: Color) -> Vec<String> {
    let mut why = Vec::new();
    for c in &class_counts(pos, statics, color) {
        if c.forced.any() {
            why.push(format!(
                "the {} on {} cannot be originals",
                c.class.name,
                squares_text(c.forced)
            ));
        }
        if c.excess > 0 {
            why.push(format!(
                "{} {} (on {}) for {} original{}",
                c.free.count(),
                c.class.name,
                squares_text(c.free),
                c.available,
                plural(c.available)
            ));
        }
    }
    why
}

/// Appends the counting reasons of `color` (too many units, pawns, promotions) to `out`.
pub(crate) fn count_reasons(
    pos: &RetroPosition,
    color: Color,
    statics: &Statics,
    promoted: &Promoted,
    out: &mut Reasons,
) {
    let board = pos.board();
    let units = board.by_color(color);
    let pawns = board.by_piece(color.pawn());
    if units.count() > 16 {
        out.add(ReasonCode::TooManyUnits, units, || {
            format!(
                "{} has {} units on {}, more than the 16 it starts with",
                color_name(color),
                units.count(),
                squares_text(units)
            )
        });
    }
    if pawns.count() > 8 {
        out.add(ReasonCode::TooManyPawns, pawns, || {
            format!(
                "{} has {} pawns (on {}), more than 8",
                color_name(color),
                pawns.count(),
                squares_text(pawns)
            )
        });
    } else if promoted.total as usize > 8 - pawns.count() {
        let missing = 8 - pawns.count();
        out.add(ReasonCode::TooManyPromotions, promoted.squares, || {
            format!(
                "{} must have promoted at least {} unit{} ({}), but only {missing} {} pawn{} {} \
                 missing",
                color_name(color),
                promoted.total,
                plural(promoted.total),
                promoted_why(pos, statics, color).join("; "),
                color_adj(color),
                plural(missing),
                if missing == 1 { "is" } else { "are" }
            )
        });
    }
}

/// Minimum captures made by `color`, or the reason the pawn structure is impossible.
pub(crate) fn captures(
    pos: &RetroPosition,
    statics: &Statics,
    color: Color,
    promoted: &Promoted,
    cache: &mut PawnCache,
    walks: &WalkCache,
    out: &mut Reasons,
) -> Captures {
    let board = pos.board();
    let pawns = board.by_piece(color.pawn());
    if pawns.count() > 8 {
        return Captures::default();
    }
    let cost = cache.get(color, pawns);
    let Some(by_pawns) = cost.min_captures(promoted.light_bishops, promoted.dark_bishops) else {
        let group = impossible_group(color, pawns);
        out.add(ReasonCode::ImpossiblePawnStructure, group, || {
            format!(
                "the {} pawns on {} cannot all have come from different files: too few files are \
                 within reach of their captures",
                color_adj(color),
                squares_text(group)
            )
        });
        return Captures::default();
    };
    let by_pieces = statics.captured_at_home.get(color.other()).count() as u32;
    let missing = 16u32.saturating_sub(board.by_color(color.other()).count() as u32);
    let budget = Budget {
        color,
        pawns,
        by_pawns,
        by_pieces,
        missing,
    };
    // (With more promoted units than missing pawns, too_many_promotions says it already.)
    let fits = pawns.count() + promoted.total as usize <= 8;
    let demands = if promoted.total > 0 && fits {
        promotion::demands(pos, statics, color)
    } else {
        Vec::new()
    };
    let mut sharper = promotion_bound(pos, statics, &budget, &demands, walks, out);
    if fits {
        sharper = walk_bound(statics, &budget, &demands, sharper, walks, out);
    }
    if by_pawns + by_pieces > missing {
        too_many_captures(statics, &budget, out);
    }
    Captures {
        by_pawns: sharper.min(255) as u8,
        total: (sharper + by_pieces).min(255) as u8,
    }
}

/// What the capture rules of one side weigh: its pawns, the captures their structure needs
/// (`by_pawns`), the enemy originals pieces must have taken at home (`by_pieces`), and the enemy
/// units missing from the board.
struct Budget {
    color: Color,
    pawns: Bitboard,
    by_pawns: u32,
    by_pieces: u32,
    missing: u32,
}

/// The captures the pawns need once the promoted units' pawns reach the promotion squares their
/// units can have come from: a sharper bound than `by_pawns`, reported with its own reason when
/// only it exceeds the missing units.
fn promotion_bound(
    pos: &RetroPosition,
    statics: &Statics,
    b: &Budget,
    demands: &[promotion::Demand],
    walks: &WalkCache,
    out: &mut Reasons,
) -> u32 {
    if demands.is_empty() {
        return b.by_pawns;
    }
    let found = promotion::min_captures(b.color, b.pawns, demands, statics, false, walks);
    out.extend(promotion::no_promotion_square(pos, statics, b.color));
    if found.is_none_or(|c| c + b.by_pieces > b.missing) && b.by_pawns + b.by_pieces <= b.missing {
        out.add_built(ReasonCode::PromotionsNeedCaptures, || {
            promotion::reason(b.color, demands, found, b.by_pieces, b.missing)
        });
    }
    found.map_or(b.by_pawns, |c| c.max(b.by_pawns))
}

/// The captures the pawns need when a pawn stands on a square an enemy pawn of known history
/// left: it cannot have stepped there from the square that pawn moved to, so only then do the
/// walks of the pawns on the board cost more than `sharper`.
fn walk_bound(
    statics: &Statics,
    b: &Budget,
    demands: &[promotion::Demand],
    sharper: u32,
    walks: &WalkCache,
    out: &mut Reasons,
) -> u32 {
    let left: Bitboard = statics
        .timed
        .iter()
        .filter(|t| t.color == b.color.other())
        .map(|t| t.from)
        .collect();
    if (b.pawns & left).is_empty() || sharper + b.by_pieces > b.missing {
        return sharper;
    }
    let walked = promotion::min_captures(b.color, b.pawns, demands, statics, true, walks);
    if walked.is_none_or(|c| c + b.by_pieces > b.missing) {
        out.add_built(ReasonCode::PawnWalksNeedCaptures, || {
            promotion::walk_reason(
                b.color,
                b.pawns & left,
                &statics.timed,
                walked,
                b.by_pieces,
                b.missing,
            )
        });
    }
    walked.map_or(sharper, |c| c.max(sharper))
}

/// [`ReasonCode::TooManyCaptures`]: the pawn structure and the originals taken at home need more
/// captures than the enemy has units missing. The sentence is made only when shown.
fn too_many_captures(statics: &Statics, b: &Budget, out: &mut Reasons) {
    let (color, them) = (b.color, b.color.other());
    let movers = capturing_pawns(color, b.pawns);
    let home = *statics.captured_at_home.get(them);
    let squares = movers.iter().map(|&(sq, _)| sq).collect::<Bitboard>() | home;
    let total = b.by_pawns + b.by_pieces;
    out.add(ReasonCode::TooManyCaptures, squares, || {
        let mut parts = Vec::new();
        if !movers.is_empty() {
            let list: Vec<String> = movers
                .iter()
                .map(|(sq, f)| format!("{sq} from the {} file", f.char()))
                .collect();
            parts.push(format!("its pawns changed files ({})", list.join(", ")));
        }
        let bishop_extra = b
            .by_pawns
            .saturating_sub(movers.iter().map(|&(sq, f)| sq.file().distance(f)).sum());
        if bishop_extra > 0 {
            parts.push(format!(
                "{bishop_extra} more for promoted bishops whose colour needs a pawn from another file"
            ));
        }
        if home.any() {
            let many = home.more_than_one();
            parts.push(format!(
                "the {} {} from {} could never leave {} pen{} where no pawn can capture, so \
                 {} captured there by pieces",
                color_adj(them),
                if many { "originals" } else { "original" },
                squares_text(home),
                if many { "their" } else { "its" },
                if many { "s" } else { "" },
                if many { "they were" } else { "it was" }
            ));
        }
        format!(
            "{} must have made at least {total} capture{} ({}), but {} is missing only {} unit{}",
            color_name(color),
            plural(total),
            parts.join("; "),
            color_name(them),
            b.missing,
            plural(b.missing)
        )
    });
}
