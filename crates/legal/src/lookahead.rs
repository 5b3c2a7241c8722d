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
//! predecessors are analysed without looking further back, which keeps the cost bounded, but for
//! one case:
//!
//! When the last move is forced (a single retraction) and its predecessor has no contradiction of
//! its own, the predecessor's retractions are tried too (at most [`MAX_DEEP`]): the predecessor is
//! illegal if all of its own predecessors are. This proves positions whose side that moved last had
//! a single unit able to move, so that its move before that was made by a unit since captured, by
//! the very move of the other side in between. Smullyan's "Two Bagatelles" (Sherlock X16,
//! `r1b1k2r/p1p1p1pp/1p3p2/8/8/P7/1PPPPPPP/2BQKB2 b k -`): every white unit but the a3 pawn never
//! moved, so White's last move was a2-a3; before it Black must have captured the white unit that
//! made White's move before, and stands on that square now. With Ke8 and Rh8 frozen by the
//! castling right, the candidates are Ra8 and Bc8 (the b6 and f6 pawns came straight), but no
//! white unit can have moved to a8 or c8: a knight only from b6, c7, a7 or e7 (occupied) or from d6
//! (checking Ke8 with White to move), White's rooks never left a1, b1, g1 and h1 while a2 was
//! blocked, its bishops and queen never moved, and with all eight white pawns on the board nothing
//! was promoted. With only the queen-side right (X17) Rh8 can have captured a knight on h8. Each
//! of those steps is a retraction the static analysis (or one more retraction) refutes.

use retrace_unmove::RetroPosition;
use shakmaty::Bitboard;

use crate::text::color_name;
use crate::{
    reasons::Reasons,
    types::{Analysis, Reason, ReasonCode},
};

/// The rules on one position, as the look one retraction back needs them: implemented by the
/// crate's `Analyzer`, so that the look back runs with the same caches without this file
/// reaching up for it.
pub(crate) trait Rules {
    /// The rules on `pos`, each adding its reasons to `out`; the deductions (see the crate's
    /// `Analyzer::rules`).
    fn rules(&mut self, pos: &RetroPosition, out: &mut Reasons) -> Analysis;
    /// The analysis of `pos` without looking back.
    fn analyze_here(&mut self, pos: &RetroPosition) -> Analysis;
    /// Whether the rules find `pos` illegal, without looking back.
    fn is_illegal_here(&mut self, pos: &RetroPosition) -> bool;
}

/// Most retractions for which the predecessors are analysed.
const MAX_RETRACTIONS: u64 = 8;

/// Most retractions of the predecessor of a forced last move for which its own predecessors are
/// analysed.
const MAX_DEEP: u64 = 64;

/// Most units of the side retracting in the predecessor of a forced last move that may have moved,
/// for its own predecessors to be analysed: with more, one of them nearly always has a last move
/// that leaves a legal-looking position, and the work would be wasted.
const MAX_MOVERS: u32 = 6;

/// Whether every predecessor of `pos` is illegal, decided as [`predecessors`] decides it but
/// without a word of explanation: the answer of the crate's `Analyzer::is_illegal`.
pub(crate) fn predecessors_illegal(analyzer: &mut impl Rules, pos: &RetroPosition) -> bool {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_RETRACTIONS {
        return false;
    }
    pos.retractions().into_iter().all(|retraction| {
        let before = pos.retract(retraction);
        let mut reasons = Reasons::verdict_only();
        let deduced = analyzer.rules(&before, &mut reasons);
        !reasons.is_empty()
            || (count == 1
                && few_movers(&before, deduced.never_moved)
                && deeper_illegal(analyzer, &before))
    })
}

/// Appends a [`ReasonCode::PredecessorsIllegal`] reason if every predecessor of `pos` is illegal.
pub(crate) fn predecessors(analyzer: &mut impl Rules, pos: &RetroPosition, out: &mut Vec<Reason>) {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_RETRACTIONS {
        return;
    }
    let mut parts = Vec::new();
    for retraction in pos.retractions() {
        let before = pos.retract(retraction);
        let a = analyzer.analyze_here(&before);
        let why = match a.reasons.first() {
            Some(first) => first.to_string(),
            None if count == 1 && few_movers(&before, a.never_moved) => {
                match deeper(analyzer, &before) {
                    Some(why) => why,
                    None => return,
                }
            }
            None => return,
        };
        parts.push(format!(
            "{} leaves {} ({})",
            pos.notation(retraction),
            before.fen(),
            why
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

/// Whether the side retracting in `pos` has at most [`MAX_MOVERS`] units outside `never_moved`
/// (a cost filter only: it decides whether [`deeper`] is worth trying, never a verdict).
fn few_movers(pos: &RetroPosition, never_moved: Bitboard) -> bool {
    (pos.board().by_color(pos.retracting()) & !never_moved).count() as u32 <= MAX_MOVERS
}

/// Why every predecessor of `pos` is illegal, if each is proven so by the static analysis or, failing
/// that, by its own predecessors ([`shallow`]); `None` if one is not, or if `pos` has no or more
/// than [`MAX_DEEP`] retractions.
fn deeper(analyzer: &mut impl Rules, pos: &RetroPosition) -> Option<String> {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_DEEP {
        return None;
    }
    // The retractions grouped by the code that proves their predecessor illegal.
    let mut groups: Vec<(ReasonCode, Vec<String>)> = Vec::new();
    for retraction in pos.retractions() {
        let before = pos.retract(retraction);
        let a = analyzer.analyze_here(&before);
        let code = match a.reasons.first() {
            Some(first) => first.code,
            None => {
                shallow(analyzer, &before)?;
                ReasonCode::PredecessorsIllegal
            }
        };
        let notation = pos.notation(retraction);
        match groups.iter_mut().find(|(c, _)| *c == code) {
            Some((_, moves)) => moves.push(notation),
            None => groups.push((code, vec![notation])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(code, moves)| format!("{code} after {}", moves.join(", ")))
        .collect();
    Some(format!(
        "and every last move {} can have made before it leads back to an illegal position: {}",
        color_name(pos.retracting()),
        parts.join("; ")
    ))
}

/// Whether every predecessor of `pos` is illegal as [`deeper`] decides it, without the words.
fn deeper_illegal(analyzer: &mut impl Rules, pos: &RetroPosition) -> bool {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_DEEP {
        return false;
    }
    pos.retractions().into_iter().all(|retraction| {
        let before = pos.retract(retraction);
        analyzer.is_illegal_here(&before) || shallow(analyzer, &before).is_some()
    })
}

/// Whether every predecessor of `pos` is proven illegal by the static analysis alone (`None` if
/// one is not, or if `pos` has no or more than [`MAX_RETRACTIONS`] retractions).
fn shallow(analyzer: &mut impl Rules, pos: &RetroPosition) -> Option<()> {
    let count = pos.count_retractions();
    if count == 0 || count > MAX_RETRACTIONS {
        return None;
    }
    for retraction in pos.retractions() {
        if !analyzer.is_illegal_here(&pos.retract(retraction)) {
            return None;
        }
    }
    Some(())
}
