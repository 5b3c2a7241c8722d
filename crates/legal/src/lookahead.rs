//! One retraction back: a position all of whose predecessors are illegal is illegal.
//!
//! Every game reaching a position passed through the position before its last move, which is one
//! of the position's legal retractions (the retraction generator of `retrace-unmove` is complete).
//! If the static analysis proves every one of those predecessors illegal, no game reaches the
//! position. This catches positions whose last move is forced and says more than the present
//! board: a check that only a promotion can have given, when no pawn is missing (Smullyan's
//! "Mystery of the Missing Piece").
//!
//! Only positions with few retractions (at most [`MAX_RETRACTIONS`]) are looked at, and the
//! predecessors are analysed without looking further back, which keeps the cost bounded.

use retrace_unmove::RetroPosition;
use shakmaty::Bitboard;

use crate::{
    checks::color_name,
    types::{Reason, ReasonCode},
    Analyzer,
};

/// Most retractions for which the predecessors are analysed.
const MAX_RETRACTIONS: u64 = 8;

/// Appends a [`ReasonCode::PredecessorsIllegal`] reason if every predecessor of `pos` is illegal.
pub(crate) fn predecessors(analyzer: &mut Analyzer, pos: &RetroPosition, out: &mut Vec<Reason>) {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_RETRACTIONS {
        return;
    }
    let mut parts = Vec::new();
    for retraction in pos.retractions() {
        let before = pos.retract(retraction);
        let a = analyzer.analyze_here(&before);
        let Some(first) = a.reasons.first() else {
            return;
        };
        parts.push(format!(
            "{} leaves {} ({})",
            pos.notation(retraction),
            before.fen(),
            first
        ));
    }
    out.push(Reason::new(
        ReasonCode::PredecessorsIllegal,
        format!(
            "every last move {} can have made leads back to an illegal position: {}",
            color_name(pos.retracting()),
            parts.join("; ")
        ),
        Bitboard::EMPTY,
    ));
}
