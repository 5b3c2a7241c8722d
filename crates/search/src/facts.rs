//! Facts about the game beyond the board: clocks and exact FEN fields.
//!
//! Retrace's rules assume nothing a FEN does not state. Some problems (and some peers' test suites)
//! read more into a FEN: the move number counts the plies played since the initial array, the
//! halfmove clock counts plies since the last capture or pawn move, a missing castling right was
//! lost, and `-` for en passant means no en passant capture was possible. [`GameFacts`] holds those
//! readings when the user asks for them, and the search enforces them.

use std::sync::OnceLock;

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    attacks, Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, Move, Position, Rank, Role,
    Square,
};

/// What the game is known to satisfy besides its board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Plies played since the initial array: every solution must lead back to it in exactly that
    /// many plies (the extra depth is then ignored).
    pub plies_since_start: Option<u32>,
    /// Plies since the last capture or pawn move: the last that many moves were neither, and the
    /// one before them (if the game is that long) was one.
    pub halfmove_clock: Option<u32>,
    /// Castling rights the position does not have were lost: the king or rook has moved.
    pub exact_castling: bool,
    /// No en passant square means no en passant capture was possible after the last move.
    pub exact_en_passant: bool,
}

/// Whether a move resets the halfmove clock.
#[must_use]
pub fn is_zeroing(r: Retraction) -> bool {
    r.uncaptured().is_some() || r.forward().role() == Role::Pawn
}

/// Castling rights that were lost while king and rook still stand at home: the king or that rook
/// must still move in the retraction line. One bit per right: White king side, White queen side,
/// Black king side, Black queen side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LostRights(u8);

const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

impl LostRights {
    /// The rights `pos` lacks although its king and rook stand on their start squares.
    #[must_use]
    pub fn of(pos: &RetroPosition) -> LostRights {
        let held = pos.castling_rights();
        let board = pos.board();
        let mut bits = 0;
        for (i, &(color, side)) in RIGHTS.iter().enumerate() {
            let (king, rook) = retrace_unmove::castling_squares(color, side);
            if board.piece_at(king) == Some(color.king())
                && board.piece_at(rook) == Some(color.rook())
                && !held.contains(rook)
            {
                bits |= 1 << i;
            }
        }
        LostRights(bits)
    }

    /// The rights still unexplained after `r` is retracted (a move of the king or of the rook on
    /// its start square explains the loss).
    #[must_use]
    pub fn after(self, pos: &RetroPosition, r: Retraction) -> LostRights {
        if self.0 == 0 {
            return self;
        }
        let color = pos.retracting();
        let moved = r.current_square();
        let mut bits = self.0;
        for (i, &(c, side)) in RIGHTS.iter().enumerate() {
            let (_, rook) = retrace_unmove::castling_squares(c, side);
            if c == color
                && (r.forward().role() == Role::King
                    || moved == rook
                    || r.castling_side().is_some())
            {
                bits &= !(1 << i);
            }
        }
        LostRights(bits)
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// A key to mix into transposition-table keys.
    #[must_use]
    pub fn key(self) -> u64 {
        u64::from(self.0).wrapping_mul(0xd6e8_feb8_6659_fd93)
    }
}

/// Whether retracting the double step `r` from `pos` would leave a position in which the side to
/// move could capture en passant (so a FEN with `-` for en passant rules it out).
#[must_use]
pub fn allows_en_passant(pos: &RetroPosition, r: Retraction) -> bool {
    let Move::Normal {
        role: Role::Pawn,
        from,
        to,
        ..
    } = r.forward()
    else {
        return false;
    };
    if from.rank().distance(to.rank()) != 2 {
        return false;
    }
    let passed = Square::from_coords(
        to.file(),
        if to.rank() == Rank::Fourth {
            Rank::Third
        } else {
            Rank::Sixth
        },
    );
    let mut setup = pos.to_setup();
    setup.ep_square = Some(passed);
    let chess: Result<Chess, _> = setup.position(CastlingMode::Standard);
    let chess = match chess {
        Ok(c) => c,
        Err(err) => match err.ignore_impossible_check() {
            Ok(c) => c,
            Err(err) => match err.ignore_too_much_material() {
                Ok(c) => c,
                Err(_) => return false,
            },
        },
    };
    chess.legal_moves().iter().any(|m| m.is_en_passant())
}

/// Knight moves between any two squares on an empty board.
fn knight_distance(from: Square, to: Square) -> u32 {
    static TABLE: OnceLock<Vec<[u8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64u32)
            .map(|start| {
                let mut dist = [u8::MAX; 64];
                let mut frontier = Bitboard::from_square(Square::new(start));
                dist[start as usize] = 0;
                let mut step = 0;
                while frontier.any() {
                    step += 1;
                    let mut next = Bitboard::EMPTY;
                    for sq in frontier {
                        for target in attacks::knight_attacks(sq) {
                            if dist[target.to_usize()] == u8::MAX {
                                dist[target.to_usize()] = step;
                                next.add(target);
                            }
                        }
                    }
                    frontier = next;
                }
                dist
            })
            .collect()
    });
    u32::from(table[from.to_usize()][to.to_usize()])
}

/// The fewest moves a unit of `role` needs from one of `homes` to `sq` on an empty board (at
/// least 1 when it stands on none of them; 1 for a unit that cannot be an original at all).
fn unit_distance(role: Role, sq: Square, homes: Bitboard) -> u32 {
    if homes.contains(sq) {
        return 0;
    }
    homes
        .into_iter()
        .map(|home| match role {
            Role::Knight => knight_distance(home, sq),
            Role::King => home.distance(sq),
            Role::Bishop if home.is_light() != sq.is_light() => u32::MAX,
            Role::Bishop => {
                if attacks::bishop_attacks(home, Bitboard::EMPTY).contains(sq) {
                    1
                } else {
                    2
                }
            }
            Role::Rook => {
                if attacks::rook_attacks(home, Bitboard::EMPTY).contains(sq) {
                    1
                } else {
                    2
                }
            }
            Role::Queen => {
                if attacks::queen_attacks(home, Bitboard::EMPTY).contains(sq) {
                    1
                } else {
                    2
                }
            }
            Role::Pawn => 1,
        })
        .min()
        .filter(|&d| d != u32::MAX)
        .unwrap_or(1)
}

/// The squares castling puts the rooks of `color` on (d1 and f1 for White).
fn castled_rook_squares(color: Color) -> Bitboard {
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .map(|side| Square::from_coords(side.rook_to_file(), color.backrank()))
        .collect()
}

/// The fewest moves the king of `color` needs to reach `sq`: walking from its start square, or
/// castling (one move to c1 or g1) and walking on from there.
fn king_distance(color: Color, sq: Square) -> u32 {
    let walk = |from: Square| from.distance(sq);
    let home = Square::from_coords(shakmaty::File::E, color.backrank());
    let castled = [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .map(|side| 1 + walk(Square::from_coords(side.king_to_file(), color.backrank())))
        .min()
        .unwrap_or(u32::MAX);
    walk(home).min(castled)
}

/// A lower bound on the moves `color` needs to bring its units from the initial array to `board`.
/// Each unit needs at least its own distance from a start square of its kind on an empty board (a
/// pawn its advance), and units move one at a time, so the distances add up; every missing enemy
/// unit was captured by a move of `color`, which may be one of those moves.
///
/// Castling is the one move that moves two units: it is counted once, as a king move (the king
/// may start from c1 or g1 at the cost of one move), and a rook on d1 or f1 counts as home. Both
/// relax the bound, so it stays a lower bound for any game, castled or not.
#[must_use]
pub fn moves_needed(board: &Board, color: Color) -> u32 {
    let initial = Board::new();
    let ours = board.by_color(color);
    let mut moves = 0;
    for sq in ours & !board.pawns() {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let homes = initial.by_piece(shakmaty::Piece { color, role });
        moves += match role {
            Role::King => king_distance(color, sq),
            // A rook that castled stands on d1 or f1 without a move of its own: castling is one
            // move, charged to the king.
            Role::Rook => unit_distance(role, sq, homes | castled_rook_squares(color)),
            _ => unit_distance(role, sq, homes),
        };
    }
    for sq in ours & board.pawns() {
        let rank = color.relative_rank(sq.rank()) as u32;
        // Rank index 1 is the start rank; a double step reaches index 3 in one move.
        moves += match rank {
            0 | 1 => 0,
            2 | 3 => 1,
            r => r - 2,
        };
    }
    let missing = 16u32.saturating_sub(board.by_color(color.other()).count() as u32);
    moves.max(missing)
}

/// Whether `pos` is the initial array with White to move.
#[must_use]
pub fn is_initial(pos: &RetroPosition) -> bool {
    pos.retracting() == Color::Black && *pos.board() == Board::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrace_testkit::random_game;
    use shakmaty::Move;

    /// The bound holds in real games: after `n` plies White has made `ceil(n/2)` moves and Black
    /// `floor(n/2)`, and neither may need more. The games are biased toward castling, promotions
    /// and en passant, the moves that bend the simple count.
    #[test]
    fn moves_needed_never_exceeds_the_moves_played() {
        let mut castled = 0;
        let mut checked = 0;
        for seed in 0..4_000 {
            let game = random_game(seed, 80);
            castled += game
                .moves
                .iter()
                .filter(|m| matches!(m, Move::Castle { .. }))
                .count();
            for (ply, pos) in game.positions.iter().enumerate() {
                let ply = ply as u32;
                let board = pos.board();
                let (white, black) = (ply.div_ceil(2), ply / 2);
                assert!(
                    moves_needed(board, Color::White) <= white
                        && moves_needed(board, Color::Black) <= black,
                    "seed {seed}, ply {ply}: {board:?} needs more moves than were played"
                );
                checked += 1;
            }
        }
        assert!(castled > 1_000, "the games castled only {castled} times");
        assert!(checked > 100_000);
    }

    #[test]
    fn castling_counts_as_one_king_move_and_no_rook_move() {
        // 1.d4 e5 2.Qd3 Ba3 3.b4 Bxc1 4.Qc4 Bh6 5.Nd2 g5 6.O-O-O Bf8 (G. Gruber, 1984): six
        // White moves, two of which bring king and rook to c1 and d1 at once.
        let board: Board = "rnbqkbnr/pppp1p1p/8/4p1p1/1PQP4/8/P1PNPPPP/2KR1BNR"
            .parse()
            .expect("board");
        assert_eq!(moves_needed(&board, Color::White), 6);
        // Castling saves the king one move at most, and only towards c1 or g1.
        for (sq, moves) in [
            (Square::C1, 1),
            (Square::G1, 1),
            (Square::D1, 1),
            (Square::B1, 2),
            (Square::H1, 2),
            (Square::E3, 2),
        ] {
            assert_eq!(king_distance(Color::White, sq), moves, "{sq}");
        }
        assert_eq!(king_distance(Color::Black, Square::C8), 1);
    }
}
