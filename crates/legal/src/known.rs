//! The deductions bundle: what the counting and the pawn structure proved of a position, handed
//! to the rules that run after them.

use retrace_unmove::RetroPosition;
use shakmaty::{ByColor, Color};

use crate::{
    accounting::{LateMemo, OrdersMemo},
    material::Promoted,
    pawn_items::ItemsMemo,
    promotion::WalkCache,
    statics::Statics,
    types::Captures,
};

/// What the earlier rules deduced, as the later ones (the order of events, the accounting)
/// need it.
pub(crate) struct Known<'a> {
    /// The position.
    pub pos: &'a RetroPosition,
    /// Units that never moved, pens and walls.
    pub statics: &'a Statics,
    /// Promoted units each side must have.
    pub promoted: &'a ByColor<Promoted>,
    /// Captures each side must have made (zero when its pawn structure is impossible).
    pub captures: &'a ByColor<Captures>,
    /// The analyser's cache of pawns' walks to the promotion squares.
    pub walks: &'a WalkCache,
    /// The pawns each side must account for, once computed ([`crate::accounting::items`]).
    pub items: &'a ItemsMemo,
    /// The analyser's memo of the late promotions' walks and floods.
    pub late: &'a LateMemo,
    /// The analyser's memo of the capture matching's crossings and their order.
    pub orders: &'a OrdersMemo,
}

impl Known<'_> {
    /// Units of `color` missing from the board: each was captured by the other side.
    pub(crate) fn missing(&self, color: Color) -> u32 {
        16u32.saturating_sub(self.pos.board().by_color(color).count() as u32)
    }

    /// Captures `color` made with pieces on squares proven by the pens of the other side.
    pub(crate) fn by_pieces(&self, color: Color) -> u32 {
        self.statics.captured_at_home.get(color.other()).count() as u32
    }
}

/// Runs `f` on the deductions of `pos` made afresh (its own statics, counts and caches but the
/// pawn cache `cache`), for the unit tests of the rules that take a [`Known`].
#[cfg(test)]
pub(crate) fn with_known<R>(
    pos: &RetroPosition,
    cache: &mut crate::pawns::PawnCache,
    f: impl FnOnce(&Known<'_>) -> R,
) -> R {
    let statics = crate::statics::analyze_statics(pos, None);
    let mut sink = crate::reasons::Reasons::verdict_only();
    let walks = WalkCache::default();
    let promoted = ByColor::new_with(|c| crate::material::promoted(pos, &statics, c));
    let captures = ByColor::new_with(|c| {
        crate::material::captures(pos, &statics, c, promoted.get(c), cache, &walks, &mut sink)
    });
    f(&Known {
        pos,
        statics: &statics,
        promoted: &promoted,
        captures: &captures,
        walks: &walks,
        items: &Default::default(),
        late: &LateMemo::default(),
        orders: &OrdersMemo::default(),
    })
}
