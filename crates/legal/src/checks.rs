//! Contradictions of checks: the mover's king attacked, too many checkers, double checks and pawn
//! checks that no last move explains, and positions with no legal retraction at all.
//!
//! The double-check test follows seed 000 (items 3-4) and seed 001: a double check needs a last
//! move after which both checks are new. A move of one checker from a square where it shielded the
//! other check (a discovery, possibly by promotion), an en passant capture that opens one or two
//! lines (or opens one and checks with the capturing pawn), and castling are the only such moves.
//! Each candidate move is tested by building the position before it and asking whether the king was
//! attacked there. Where the test has to guess (is the arrival square an uncapture? may the mover
//! castle?) it guesses in favour of legality, so the rule stays sound.

use retrace_unmove::{pawn_forward, RetroPosition};
use shakmaty::{attacks, Bitboard, Board, Color, Piece, Rank, Role, Square};

use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, squares_text};
use crate::types::ReasonCode;

/// Appends every check contradiction of `pos` to `out`. Returns whether one was found.
pub(crate) fn check_reasons(pos: &RetroPosition, out: &mut Reasons) -> bool {
    let before = out.len();
    mover_king_reasons(pos, out);
    checked_king_reasons(pos, out);
    out.len() > before
}

/// The king of the side that moved last: next to the other king, or attacked.
fn mover_king_reasons(pos: &RetroPosition, out: &mut Reasons) {
    let mover = pos.retracting();
    let (our_king, their_king) = (pos.king_of(mover), pos.king_of(mover.other()));
    if attacks::king_attacks(our_king).contains(their_king) {
        out.add(
            ReasonCode::KingsAdjacent,
            Bitboard::from_square(our_king).with(their_king),
            || {
                format!(
                    "the kings on {} and {} stand next to each other, so each is in check",
                    our_king.min(their_king),
                    our_king.max(their_king)
                )
            },
        );
    } else {
        let attackers = pos.attacked_king(mover);
        if attackers.any() {
            out.add(
                ReasonCode::RetractingKingInCheck,
                attackers.with(our_king),
                || {
                    format!(
                    "{} made the last move, yet its king on {} is attacked from {}: no move may \
                     leave the mover's king in check",
                    color_name(mover),
                    our_king,
                    squares_text(attackers)
                )
                },
            );
        }
    }
}

/// The king of the side to move: checks that no last move can have given together (or at all,
/// for a pawn).
fn checked_king_reasons(pos: &RetroPosition, out: &mut Reasons) {
    let mover = pos.retracting();
    let their_king = pos.king_of(mover.other());
    let checkers = pos.attacked_king(mover.other());
    match checkers.count() {
        0 | 1 => {
            if let Some(pawn) = (checkers & pos.board().pawns()).first() {
                pawn_check(pos, pawn, their_king, out);
            }
        }
        2 => {
            if !double_check_explained(pos, checkers, their_king) {
                out.add(
                    ReasonCode::ImpossibleDoubleCheck,
                    checkers.with(their_king),
                    || {
                        format!(
                        "the {} king on {} is checked from {}, and no last move of {} makes both \
                         checks at once (no checker can have left a square that shielded the other \
                         check, by a move, a promotion or an en passant capture)",
                        color_adj(mover.other()),
                        their_king,
                        squares_text(checkers),
                        color_name(mover)
                    )
                    },
                );
            }
        }
        n => out.add(
            ReasonCode::TooManyCheckers,
            checkers.with(their_king),
            || {
                format!(
                "the {} king on {} is checked by {n} units (from {}); one move gives at most two \
                 checks",
                color_adj(mover.other()),
                their_king,
                squares_text(checkers)
            )
            },
        ),
    }
}

/// A single check by the pawn on `pawn`: it must have just moved, from a square now empty.
fn pawn_check(pos: &RetroPosition, pawn: Square, king: Square, out: &mut Reasons) {
    let color = pos.retracting();
    let occupied = pos.board().occupied();
    let origins = pawn_origins(color, pawn);
    if (origins & !occupied).any() {
        return;
    }
    let why = if origins.is_empty() {
        format!("a pawn on {pawn} has never moved")
    } else {
        format!(
            "{} {} occupied",
            squares_text(origins),
            if origins.more_than_one() { "are" } else { "is" }
        )
    };
    out.add(
        ReasonCode::ImpossiblePawnCheck,
        origins.with(pawn).with(king),
        || {
            format!(
            "the {} pawn on {pawn} checks the king on {king}, so it made the last move, but it \
             cannot have come from anywhere: {why}",
            color_adj(color)
        )
        },
    );
}

/// Squares a pawn of `color` now on `to` (not a promotion) can have made its last move from:
/// one step behind and the two diagonals behind. Empty for a pawn on its second rank.
fn pawn_origins(color: Color, to: Square) -> Bitboard {
    if color.relative_rank(to.rank()) <= Rank::Second {
        return Bitboard::EMPTY;
    }
    let behind = to
        .offset(-pawn_forward(color))
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    behind | attacks::pawn_attacks(color.other(), to)
}

/// Whether some last move of the retracting side makes both checks in `checkers` at once.
fn double_check_explained(pos: &RetroPosition, checkers: Bitboard, king: Square) -> bool {
    let board = pos.board();
    let mover = pos.retracting();
    // Castling moves two units; it is left to the retraction generator rather than modelled here.
    let rank = mover.backrank();
    let sq = |file: u32| Square::from_coords(shakmaty::File::new(file), rank);
    let castled = |king_file: u32, rook_file: u32| {
        board.piece_at(sq(king_file)) == Some(mover.king())
            && board.piece_at(sq(rook_file)) == Some(mover.rook())
    };
    if castled(6, 5) || castled(2, 3) {
        return true;
    }
    checkers
        .into_iter()
        .any(|checker| checker_move_explains(pos, checker, king))
        || en_passant_explains(pos, king)
}

// Long by design: one loop over the checker's possible origins, each building and testing the
// board before the move inline; the steps share that board and read best in one place.
/// Whether the checker on `to` can have moved there (plainly, capturing, or promoting) from a
/// square where it neither attacked `king` itself nor let any other unit attack it.
fn checker_move_explains(pos: &RetroPosition, to: Square, king: Square) -> bool {
    let board = pos.board();
    let mover = pos.retracting();
    let Some(role) = board.role_at(to) else {
        return false;
    };
    let empty = !board.occupied();
    // (origin squares, role in the predecessor, whether the move may have captured)
    let mut candidates: [(Bitboard, Role, bool); 3] = [(Bitboard::EMPTY, role, true); 3];
    match role {
        Role::King => return false,
        Role::Pawn => {
            let behind = pawn_origins(mover, to) & !attacks::pawn_attacks(mover.other(), to);
            let mut straight = behind & empty;
            if mover.relative_rank(to.rank()) == Rank::Fourth {
                if let Some(two) = to.offset(-2 * pawn_forward(mover)) {
                    if straight.any() && empty.contains(two) {
                        straight.add(two);
                    }
                }
            }
            candidates[0] = (straight, Role::Pawn, false);
            candidates[1] = (
                attacks::pawn_attacks(mover.other(), to) & empty,
                Role::Pawn,
                true,
            );
        }
        _ => {
            let piece = Piece { color: mover, role };
            candidates[0] = (
                attacks::attacks(to, piece, board.occupied()) & empty,
                role,
                true,
            );
            if to.rank() == mover.relative_rank(Rank::Eighth) {
                let behind = to
                    .offset(-pawn_forward(mover))
                    .map_or(Bitboard::EMPTY, Bitboard::from_square);
                candidates[1] = (behind & empty, Role::Pawn, false);
                candidates[2] = (
                    attacks::pawn_attacks(mover.other(), to) & empty,
                    Role::Pawn,
                    true,
                );
            }
        }
    }
    candidates.into_iter().any(|(origins, before, capture)| {
        origins.into_iter().any(|from| {
            let mut b = board.clone();
            b.discard_piece_at(to);
            if capture {
                // Any unit of the side to move only shields its king: a knight stands for all.
                b.set_piece_at(to, mover.other().knight());
            }
            b.set_piece_at(
                from,
                Piece {
                    color: mover,
                    role: before,
                },
            );
            king_safe(&b, king, mover)
        })
    })
}

/// Whether an en passant capture by a pawn of the retracting side explains every check on `king`.
fn en_passant_explains(pos: &RetroPosition, king: Square) -> bool {
    let board = pos.board();
    let mover = pos.retracting();
    let empty = !board.occupied();
    let sixth = Bitboard::from_rank(mover.relative_rank(Rank::Sixth));
    (board.by_piece(mover.pawn()) & sixth)
        .into_iter()
        .any(|to| {
            // The captured pawn started right in front of the capturer's arrival square.
            let start_empty = to
                .offset(pawn_forward(mover))
                .is_some_and(|s| empty.contains(s));
            start_empty
                && (attacks::pawn_attacks(mover.other(), to) & empty)
                    .into_iter()
                    .any(|from| {
                        let victim = Square::from_coords(to.file(), from.rank());
                        if !empty.contains(victim) {
                            return false;
                        }
                        let mut b: Board = board.clone();
                        b.discard_piece_at(to);
                        b.set_piece_at(from, mover.pawn());
                        b.set_piece_at(victim, mover.other().pawn());
                        king_safe(&b, king, mover)
                    })
        })
}

/// Whether no unit of `attacker` attacks `king` on `board`.
fn king_safe(board: &Board, king: Square, attacker: Color) -> bool {
    board
        .attacks_to(king, attacker, board.occupied())
        .is_empty()
}

/// Appends [`ReasonCode::NoRetraction`] when nothing can be taken back (a retro-stalemate), unless
/// the position is the initial array with White to move.
pub(crate) fn retro_stalemate(pos: &RetroPosition, out: &mut Reasons) {
    if pos.count_retractions() > 0 {
        return;
    }
    if pos.to_move() == Color::White && *pos.board() == Board::new() {
        return;
    }
    let mover = pos.retracting();
    let detail = match pos.forced_double_step() {
        Some(pawn) => format!(
            "the en passant square says the pawn on {pawn} just made a double step, and that \
             cannot be taken back"
        ),
        None if pos.is_check() => format!(
            "the check on the {} king on {} from {} cannot have been given by any move",
            color_adj(mover.other()),
            pos.king_of(mover.other()),
            squares_text(pos.attacked_king(mover.other()))
        ),
        None => "every unit of that side is blocked or would have given an impossible check".into(),
    };
    let mut squares = pos.attacked_king(mover.other());
    if squares.any() {
        squares.add(pos.king_of(mover.other()));
    }
    if let Some(pawn) = pos.forced_double_step() {
        squares.add(pawn);
    }
    out.add(ReasonCode::NoRetraction, squares, || {
        format!(
            "{} made the last move, but no move of {} can be taken back: {detail}",
            color_name(mover),
            color_name(mover)
        )
    });
}
