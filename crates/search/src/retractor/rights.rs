//! The forward position after the retractions, with the castling and en passant rights that the
//! retraction history proves (see `docs/retractors.md`, "Rights in the forward play").

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, FromSetup, Move, PositionError, Rank, Role, Square,
};

use crate::Pruner;

/// The position White plays forward from, or `None` if shakmaty finds it impossible.
///
/// - Castling: only a king and rook that are frozen (a FEN castling right, a user mark, or an
///   uncastling among the retractions) may castle ([`RetroPosition::castling_rights`]).
/// - En passant: White may capture en passant only when Black's last move is proven to be a
///   double step: forced by an en passant uncapture among White's retractions, or, failing that,
///   because every Black retraction the analysis accepts is that one double step.
///
/// shakmaty's own "impossible check" and "too much material" verdicts are left to the legality
/// analysis, which already accepted the position and is exact where shakmaty is only cautious.
pub(crate) fn forward_start<P: Pruner>(pos: &RetroPosition, pruner: &P) -> Option<Chess> {
    let mut setup = pos.to_setup();
    if setup.ep_square.is_none() {
        setup.ep_square = proven_double_step(pos, pruner);
    }
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

/// The square passed by a Black double step that must have been Black's last move in `pos`
/// (White to move), when a White pawn could capture it en passant.
fn proven_double_step<P: Pruner>(pos: &RetroPosition, pruner: &P) -> Option<Square> {
    if pos.retracting() != Color::Black {
        return None;
    }
    let board = pos.board();
    let fifth = Bitboard::from_rank(Rank::Fifth);
    let white_pawns = board.pawns() & board.white() & fifth;
    let empty_behind = !board.occupied().shift(8) & !board.occupied().shift(16);
    // Black pawns on the fifth rank, beside a White pawn, with both squares behind them empty.
    let candidates = board.pawns()
        & board.black()
        & fifth
        & (white_pawns.shift(1) | white_pawns.shift(-1))
        & empty_behind;
    if candidates.is_empty() {
        return None;
    }
    let mut pawn = None;
    for r in pos.retractions() {
        if pruner.is_illegal(&pos.retract(r)) {
            continue;
        }
        let to = double_step_to(r)?;
        if pawn.is_some_and(|p| p != to) || !candidates.contains(to) {
            return None;
        }
        pawn = Some(to);
    }
    pawn.and_then(|p| p.offset(8))
}

/// The arrival square of `r` if it is a pawn's double step.
fn double_step_to(r: Retraction) -> Option<Square> {
    match r.forward() {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            capture: None,
            ..
        } if from.rank().distance(to.rank()) == 2 => Some(to),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{EnPassantMode, Position};

    use super::*;
    use crate::NoPruning;

    #[test]
    fn a_double_step_is_proven_only_when_every_other_retraction_is_refuted() {
        let pos = RetroPosition::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").expect("fen");
        let ep = |chess: Chess| chess.ep_square(EnPassantMode::Legal);
        // Black's king could have made the last move: no right to take en passant.
        assert_eq!(ep(forward_start(&pos, &NoPruning).expect("legal")), None);
        // An analysis that refutes every predecessor but the one with the pawn back on d7.
        let only_d7 = |p: &RetroPosition| {
            p.board().piece_at(Square::D7) != Some(shakmaty::Piece::from_char('p').expect("p"))
        };
        assert_eq!(
            ep(forward_start(&pos, &only_d7).expect("legal")),
            Some(Square::D6)
        );
        // Without a White pawn beside it the double step gives White nothing to take.
        let far = RetroPosition::from_fen("4k3/8/8/3p3P/8/8/8/4K3 w - - 0 1").expect("fen");
        assert_eq!(ep(forward_start(&far, &only_d7).expect("legal")), None);
    }
}
