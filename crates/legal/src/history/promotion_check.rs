//! A rook or queen promoted beside a king that never moved gave a check nothing could answer.
//!
//! If the king of `them` never moved (it is static on its home square, for instance because a
//! castling right freezes it), it stands on `us`'s promotion rank. A pawn of `us` that promoted to
//! a rook or a queen on a square beside it (d1 or f1 for a white king on e1) checked it on arrival.
//! A check from a neighbouring square cannot be blocked, and the king cannot step away or capture
//! (it never moved), so `them` captured the promoted unit at once, or the game ended there (the
//! unit is then still on that square, the promotion the last move). A promoted rook or queen on
//! the board that does not stand beside the king was therefore not promoted beside it: its
//! promotion squares lose those two, and the walks of `us`'s pawns to the squares left may need
//! more captures than `them` is missing units ([`ReasonCode::PromotionCheckedFrozenKing`]).
//!
//! Hand proof of the rule's trigger (`positions/illegal.toml`, `c-promotion-checked-frozen-king`):
//! `rnbqkbnr/pppp1ppp/8/8/5r2/8/PPPP2PP/RNBQK1NR w K -`. White may castle king-side, so Ke1 and
//! Rh1 never moved. Black has all sixteen units, three of them rooks: the e-pawn, the only black
//! pawn missing, promoted to one. The white pawns a2, b2, c2, d2, g2 and h2 are on the board, so
//! the black pawn never captured one: it reached the first rank through e2 or f2 only. On f2 it
//! checked Ke1 and was captured at once (the king cannot move), so it came through e2, and from
//! there e1 holds the king: it captured on d1 or f1, beside the king. A rook promoted there checked
//! Ke1 from a neighbouring square, and Ke1 could neither step away nor take it; nor was the rook
//! taken (all three black rooks are on the board). So no pawn can have promoted to the third rook:
//! illegal. The colour swap (`rnbqk1nr/pppp2pp/8/5R2/8/8/PPPP1PPP/RNBQKBNR b k -`) is illegal the
//! same way. Near misses: the same without the castling right (the king stepped aside, to e2,
//! and came back), or with a third knight instead of the rook (a knight on d1 or f1 gives no
//! check), or with the rook on f1 itself (the promotion may have been the last move).

use shakmaty::{attacks, Bitboard, Color, Rank, Role};

use super::Known;
use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, squares_text};
use crate::{
    promotion::{self, Demand},
    statics::Statics,
    types::{Reason, ReasonCode},
};

/// Appends a [`ReasonCode::PromotionCheckedFrozenKing`] reason for each side whose promoted rooks
/// and queens need more captures once the squares beside the other side's static king are closed
/// to their promotions.
pub(crate) fn promotion_checks(known: &Known<'_>, out: &mut Reasons) {
    if !out.is_empty() || Color::ALL.iter().all(|&c| known.promoted.get(c).total == 0) {
        return;
    }
    let board = known.pos.board();
    let straight = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    for us in Color::ALL {
        let them = us.other();
        let promoted = known.promoted.get(us);
        let pawns = board.by_piece(us.pawn());
        if promoted.total == 0 || pawns.count() + promoted.total as usize > 8 {
            continue;
        }
        let Some(king) = board.king_of(them) else {
            continue;
        };
        let rank = Bitboard::from_rank(us.relative_rank(Rank::Eighth));
        if !known.statics.fixed.contains(king) || !rank.contains(king) {
            continue;
        }
        let beside = attacks::king_attacks(king) & rank & !known.statics.fixed;
        let mut demands = promotion::demands(known.pos, known.statics, us);
        let mut closed = Bitboard::EMPTY;
        for d in &mut demands {
            // Only rooks and queens check from beside on the rank, and one standing there now may
            // have been promoted by the last move.
            if (d.units & !straight).any() || (d.units & beside).any() {
                continue;
            }
            closed |= d.squares & beside;
            d.squares &= !beside;
        }
        if closed.is_empty() {
            continue;
        }
        // The squares where a pawn of `us` checks the static king are dead ends as well
        // (`castling`'s fact): a pawn arriving there was captured at once.
        let (dead, _) = super::castling::checking_squares(known, us);
        let walls = Statics {
            fixed: known.statics.fixed | dead,
            timed: known.statics.timed,
            ..Statics::default()
        };
        let found = promotion::min_captures(us, pawns, &demands, &walls, false, known.walks);
        let by_pieces = known.by_pieces(us);
        let missing = known.missing(them);
        if found.is_some_and(|c| c + by_pieces <= missing) {
            continue;
        }
        out.add_built(ReasonCode::PromotionCheckedFrozenKing, || {
            reason(known, us, &demands, closed, found)
        });
    }
}

/// The reason for `us`: the demands without the closed squares, and the captures they need.
fn reason(
    known: &Known<'_>,
    us: Color,
    demands: &[Demand],
    closed: Bitboard,
    found: Option<u32>,
) -> Reason {
    let them = us.other();
    let (parts, mut squares) = promotion::describe_demands(demands);
    let king = known.pos.board().king_of(them);
    squares |= closed;
    if let Some(king) = king {
        squares.add(king);
    }
    let need = promotion::captures_needed_text(found);
    Reason::new(
        ReasonCode::PromotionCheckedFrozenKing,
        format!(
            "{} has promoted rooks or queens ({}); promoted on {}, one would have checked the {} \
             king on {}, which never moved, from beside it, and is still on the board; {need}, \
             but {}",
            color_name(us),
            parts.join("; "),
            squares_text(closed).replace(" and ", " or "),
            color_adj(them),
            king.map_or_else(String::new, |k| k.to_string()),
            promotion::missing_only(them, known.missing(them), known.by_pieces(us))
        ),
        squares,
    )
}

#[cfg(test)]
mod tests {
    use retrace_unmove::RetroPosition;

    use crate::{analyze, ReasonCode};

    fn codes(fen: &str) -> Vec<ReasonCode> {
        let pos = RetroPosition::from_fen(fen).expect("a test FEN");
        analyze(&pos).reasons.iter().map(|r| r.code).collect()
    }

    #[test]
    fn a_rook_promoted_beside_a_frozen_king_is_refuted_in_both_colours() {
        for fen in [
            "rnbqkbnr/pppp1ppp/8/8/5r2/8/PPPP2PP/RNBQK1NR w K -",
            "rnbqk1nr/pppp2pp/8/5R2/8/8/PPPP1PPP/RNBQKBNR b k -",
        ] {
            assert_eq!(
                codes(fen),
                [ReasonCode::PromotionCheckedFrozenKing],
                "{fen}"
            );
        }
    }

    #[test]
    fn near_misses_are_not_refuted() {
        for fen in [
            // The king may have moved: it stepped aside from the check and came back.
            "rnbqkbnr/pppp1ppp/8/8/5r2/8/PPPP2PP/RNBQK1NR w - -",
            "rnbqk1nr/pppp2pp/8/5R2/8/8/PPPP1PPP/RNBQKBNR b - -",
            // A knight promoted on f1 gives no check.
            "rnbqkbnr/pppp1ppp/8/8/5n2/8/PPPP2PP/RNBQK1NR w K -",
            "rnbqk1nr/pppp2pp/8/5N2/8/8/PPPP1PPP/RNBQKBNR b k -",
            // The rook stands on f1: the promotion may have been the last move, the check
            // still on.
            "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP2PP/RNBQKr1R w K -",
        ] {
            assert!(
                !codes(fen).contains(&ReasonCode::PromotionCheckedFrozenKing),
                "{fen}: {:?}",
                codes(fen)
            );
        }
    }
}
