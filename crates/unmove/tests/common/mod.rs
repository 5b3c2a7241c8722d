//! Helpers shared by the unmove test files. Forward chess by shakmaty is the judge throughout.

#![allow(dead_code)]

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, Move, Position, PositionError, Role, Square,
};

/// The shakmaty position of a retro position (typically a predecessor).
///
/// Two validation errors are ignored, both because one retraction cannot rule them out and the
/// generator is not meant to: a predecessor is only one step of a proof game.
/// - `TOO_MUCH_MATERIAL`: uncaptures may bring back a ninth pawn or a third rook; material counting
///   is the legality analysis' job over the whole history.
/// - `IMPOSSIBLE_CHECK`: the side to move in the predecessor may stand in a check no game reaches
///   (two knights, aligned sliders, or a check the forced double step cannot explain); proving that
///   needs further retractions.
///
/// Everything else stays an error: `OPPOSITE_CHECK` is rule 2 itself, and an invalid castling right
/// or en passant square would mean the retro state the generator left is wrong.
pub fn to_chess(pos: &RetroPosition) -> Result<Chess, String> {
    pos.to_setup()
        .position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| e.to_string())
}

/// Whether `m` is a pawn double step.
pub fn is_double_step(m: Move) -> bool {
    matches!(m, Move::Normal { role: Role::Pawn, from, to, .. } if from.rank().distance(to.rank()) == 2)
}

/// shakmaty's castling move in the form the generator uses (`Castle { king, rook }` with the rook
/// on its corner); also accepts a king's two-square move, as some sources write castling.
pub fn normalise(m: Move) -> Move {
    match m {
        Move::Normal {
            role: Role::King,
            from,
            capture: None,
            to,
            promotion: None,
        } if from.file() == shakmaty::File::E
            && from.rank() == to.rank()
            && from.file().distance(to.file()) == 2
            && (from.rank() == shakmaty::Rank::First || from.rank() == shakmaty::Rank::Eighth) =>
        {
            let rook_file = if to.file() > from.file() {
                shakmaty::File::H
            } else {
                shakmaty::File::A
            };
            Move::Castle {
                king: from,
                rook: Square::from_coords(rook_file, from.rank()),
            }
        }
        m => m,
    }
}

/// The squares the retraction's unit(s) stand on in the current position.
pub fn moved_now(m: Move) -> Bitboard {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            let color = Color::from_white(king.rank() == shakmaty::Rank::First);
            Bitboard::from_square(side.king_to(color)).with(side.rook_to(color))
        }
        m => Bitboard::from_square(m.to()),
    }
}

/// Checks one retraction of `node` against forward chess and the retro state it must leave.
/// Returns the predecessor.
pub fn check_retraction(node: &RetroPosition, r: Retraction) -> Result<RetroPosition, String> {
    let m = r.forward();
    let pred = node.retract(r);
    let ctx = || format!("{} retracting {} (pred {})", node.fen(), r, pred.fen());
    if pred.zobrist() != pred.zobrist_from_scratch() {
        return Err(format!("incremental Zobrist key is stale: {}", ctx()));
    }
    if pred.retracting() != node.to_move() {
        return Err(format!("retracting side did not alternate: {}", ctx()));
    }
    let chess = to_chess(&pred).map_err(|e| format!("predecessor rejected ({e}): {}", ctx()))?;
    if !chess.is_legal(m) {
        return Err(format!(
            "forward move illegal in the predecessor: {}",
            ctx()
        ));
    }
    let mut after = chess.clone();
    after.play_unchecked(m);
    if after.board() != node.board() || after.turn() != node.to_move() {
        return Err(format!(
            "forward move does not give the position back: {}",
            ctx()
        ));
    }
    // The units a castling right names never moved, so the right survives the move; and the
    // move took away exactly the rights of the units it moved.
    if after.castles().castling_rights() != node.castling_rights() {
        return Err(format!(
            "castling rights after the move {:?} differ from the position's {:?}: {}",
            after.castles().castling_rights(),
            node.castling_rights(),
            ctx()
        ));
    }
    // shakmaty keeps an en passant square after every double step; ours appears only when forced.
    let ep = after.maybe_ep_square();
    if ep.is_some() != is_double_step(m) || (node.ep_square().is_some() && node.ep_square() != ep) {
        return Err(format!(
            "en passant square {ep:?} vs {:?}: {}",
            node.ep_square(),
            ctx()
        ));
    }
    // Retro state: frozen units stay frozen, uncastling freezes the pair, en passant forces the
    // victim's double step, promoted marks travel with their unit and vanish on unpromotion.
    if !(node.frozen() & !pred.frozen()).is_empty() || (moved_now(m) & node.frozen()).any() {
        return Err(format!("a frozen unit moved or thawed: {}", ctx()));
    }
    if let Move::Castle { king, rook } = m {
        if !pred.frozen().contains(king) || !pred.frozen().contains(rook) {
            return Err(format!(
                "uncastling left the king or rook unfrozen: {}",
                ctx()
            ));
        }
        if (node.promoted() & moved_now(m)).any() {
            return Err(format!("a promoted rook uncastled: {}", ctx()));
        }
    }
    let forced = match m {
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        _ => None,
    };
    if pred.forced_double_step() != forced {
        return Err(format!(
            "forced double step {:?}, want {forced:?}: {}",
            pred.forced_double_step(),
            ctx()
        ));
    }
    let mut promoted = node.promoted();
    if let Move::Normal {
        from,
        to,
        promotion,
        ..
    } = m
    {
        if promoted.contains(to) {
            promoted.discard(to);
            if promotion.is_none() {
                promoted.add(from);
            }
        }
    }
    if pred.promoted() != promoted {
        return Err(format!(
            "promoted marks {:?}, want {promoted:?}: {}",
            pred.promoted(),
            ctx()
        ));
    }
    if pred.uncaptures_allowed(Color::White) != node.uncaptures_allowed(Color::White)
        || pred.uncaptures_allowed(Color::Black) != node.uncaptures_allowed(Color::Black)
    {
        return Err(format!("uncapture policy changed: {}", ctx()));
    }
    Ok(pred)
}
