//! Arbitrary boards that [`RetroPosition::from_fen`] accepts, for robustness tests: no input the
//! parser takes may make the analysis or the search panic or run away.
//!
//! The parser takes any board with exactly one king a side and no pawn on the first or last rank,
//! castling rights whose king and rook stand at home, and an en passant square behind a pawn of the
//! side that just moved with the two squares it crossed empty. Nothing else is checked: a side may
//! have up to 62 other units, nine queens, bishops all on one colour, its king in check or next to
//! the other king. The strategy covers all of that, and the marks a search or a user puts on units
//! (never moved, promoted, no uncaptures).

use std::fmt;

use proptest::prelude::*;
use retrace_unmove::RetroPosition;
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

/// A position with its marks; its `Debug` is what a regression test needs to rebuild it.
#[derive(Clone)]
pub struct ArbitraryPosition {
    /// The position, marks included.
    pub pos: RetroPosition,
}

impl fmt::Debug for ArbitraryPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = &self.pos;
        write!(f, "{:?}", pos.fen())?;
        let frozen = pos.frozen() & !pos.castling_rights_units();
        if frozen.any() {
            write!(f, " frozen {:?}", frozen.into_iter().collect::<Vec<_>>())?;
        }
        if pos.promoted().any() {
            write!(
                f,
                " promoted {:?}",
                pos.promoted().into_iter().collect::<Vec<_>>()
            )?;
        }
        for color in Color::ALL {
            if !pos.uncaptures_allowed(color) {
                write!(f, " no uncaptures for {color}")?;
            }
        }
        Ok(())
    }
}

/// The units of the castling rights, frozen by the FEN itself (the rest were marked).
trait CastlingUnits {
    fn castling_rights_units(&self) -> shakmaty::Bitboard;
}

impl CastlingUnits for RetroPosition {
    fn castling_rights_units(&self) -> shakmaty::Bitboard {
        let mut units = shakmaty::Bitboard::EMPTY;
        for rook in self.castling_rights() {
            units.add(rook);
            units.add(Square::from_coords(File::E, rook.rank()));
        }
        units
    }
}

/// A unit other than a king, pawns and the pieces promotions make most often weighted up.
fn unit() -> impl Strategy<Value = Piece> {
    let role = prop_oneof![
        4 => Just(Role::Pawn),
        1 => Just(Role::Knight),
        2 => Just(Role::Bishop),
        1 => Just(Role::Rook),
        2 => Just(Role::Queen),
    ];
    (any::<bool>(), role).prop_map(|(white, role)| Piece {
        color: Color::from_white(white),
        role,
    })
}

/// A square, on the first or last rank a third of the time (where kings and rooks castle).
fn square() -> impl Strategy<Value = Square> {
    prop_oneof![
        2 => (0u32..64).prop_map(Square::new),
        1 => (0u32..8, any::<bool>()).prop_map(|(file, last)| Square::new(file + if last { 56 } else { 0 })),
    ]
}

/// The parts a position is drawn from, before they are fitted to what the parser accepts.
#[derive(Clone, Debug)]
struct Parts {
    units: Vec<(Square, Piece)>,
    kings: (Square, Square),
    castling: [bool; 4],
    ep_file: Option<u32>,
    white_to_move: bool,
    frozen: Vec<Square>,
    promoted: Vec<Square>,
    no_uncaptures: (bool, bool),
    tidy: bool,
    initial: Option<u32>,
}

/// A king's square: its home a third of the time, so that castling rights come up.
fn king(home: Square) -> impl Strategy<Value = Square> {
    prop_oneof![2 => (0u32..64).prop_map(Square::new), 1 => Just(home)]
}

/// Arbitrary positions that [`RetroPosition::from_fen`] accepts (see the module documentation).
pub fn arbitrary_position() -> impl Strategy<Value = ArbitraryPosition> {
    let units = prop_oneof![
        proptest::collection::vec((square(), unit()), 0..12),
        proptest::collection::vec((square(), unit()), 0..40),
        proptest::collection::vec((square(), unit()), 30..90),
    ];
    let marks = || {
        prop_oneof![
            proptest::collection::vec(square(), 0..4),
            proptest::collection::vec(square(), 0..40)
        ]
    };
    (
        (
            units,
            (king(Square::E1), king(Square::E8)),
            any::<[bool; 4]>(),
            proptest::option::weighted(0.2, 0u32..8),
            any::<bool>(),
            marks(),
            marks(),
            prop_oneof![8 => Just((false, false)), 1 => any::<(bool, bool)>()],
        ),
        (
            proptest::bool::weighted(0.7),
            proptest::option::weighted(0.3, (any::<u32>(), any::<u32>()).prop_map(|(a, b)| a | b)),
        ),
    )
        .prop_map(
            |(
                (units, kings, castling, ep_file, white_to_move, frozen, promoted, no_uncaptures),
                (tidy, initial),
            )| {
                build(Parts {
                    units,
                    kings,
                    castling,
                    ep_file,
                    white_to_move,
                    frozen,
                    promoted,
                    no_uncaptures,
                    tidy,
                    initial,
                })
            },
        )
}

/// Fits `parts` to what the parser accepts and sets the position up (which must succeed).
fn build(parts: Parts) -> ArbitraryPosition {
    let (mut board, mut units) = (Board::empty(), parts.units);
    let (white_king, mut black_king) = parts.kings;
    // Or the initial array with some units gone and a few put anywhere: the rules about units
    // that never moved (pens, trapped rooks, castling) come up.
    if let Some(kept) = parts.initial {
        board = Board::default();
        let others = board.occupied() & !board.kings();
        for (i, sq) in others.into_iter().enumerate() {
            if kept & (1 << i) == 0 {
                board.discard_piece_at(sq);
            }
        }
        units.truncate(4);
    }
    if black_king == white_king {
        black_king = Square::new((u32::from(white_king) + 1) % 64);
    }
    if parts.initial.is_none() {
        board.set_piece_at(white_king, Color::White.king());
        board.set_piece_at(black_king, Color::Black.king());
    }
    let kings = board.kings();
    for (sq, piece) in units {
        let pawn_on_back_rank = piece.role == Role::Pawn && back_ranks().contains(sq);
        if !kings.contains(sq) && !pawn_on_back_rank {
            board.set_piece_at(sq, piece);
        }
    }
    let to_move = Color::from_white(parts.white_to_move);
    let mut rights = String::new();
    for (i, (letter, king, rook)) in [
        ('K', Square::E1, Square::H1),
        ('Q', Square::E1, Square::A1),
        ('k', Square::E8, Square::H8),
        ('q', Square::E8, Square::A8),
    ]
    .into_iter()
    .enumerate()
    {
        let color = Color::from_white(letter.is_ascii_uppercase());
        if parts.castling[i]
            && board.piece_at(king) == Some(color.king())
            && !board.kings().contains(rook)
        {
            board.set_piece_at(rook, color.rook());
            rights.push(letter);
        }
    }
    let mover = to_move.other();
    let mut ep = None;
    if let Some(file) = parts.ep_file {
        let file = File::new(file);
        let at = |rank: Rank| Square::from_coords(file, mover.fold_wb(rank, rank.flip_vertical()));
        let (start, over, pawn) = (at(Rank::Second), at(Rank::Third), at(Rank::Fourth));
        if ![start, over, pawn]
            .iter()
            .any(|&sq| board.kings().contains(sq))
        {
            board.discard_piece_at(start);
            board.discard_piece_at(over);
            board.set_piece_at(pawn, mover.pawn());
            ep = Some(over);
        }
    }
    if parts.tidy {
        tidy(&mut board, to_move, ep.is_some());
    }
    let fen = format!(
        "{} {} {} {} 0 1",
        board.board_fen(),
        to_move.char(),
        if rights.is_empty() {
            "-".to_owned()
        } else {
            rights
        },
        ep.map_or_else(|| "-".to_owned(), |sq| sq.to_string()),
    );
    let mut pos = RetroPosition::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for sq in parts.frozen {
        let _ = pos.mark_frozen(sq);
    }
    // A unit both frozen (never moved) and promoted (moved) is a contradiction in the input,
    // from which the rules may prove anything: not drawn.
    for sq in parts.promoted {
        if !pos.frozen().contains(sq) {
            let _ = pos.mark_promoted(sq);
        }
    }
    pos.set_uncaptures_allowed(Color::White, !parts.no_uncaptures.0);
    pos.set_uncaptures_allowed(Color::Black, !parts.no_uncaptures.1);
    ArbitraryPosition { pos }
}

/// Makes the board more like a game's, so that the cases reach the rules that come after the
/// counting and the checks: at most 8 pawns and 15 other units a side, and nothing attacking the
/// king of the side that just moved.
fn tidy(board: &mut Board, to_move: Color, keep_ep: bool) {
    // The castling rights' rooks and the en passant pawn stay.
    let keep = board.kings() | board.rooks() & back_ranks();
    let keep = if keep_ep { keep | board.pawns() } else { keep };
    for color in Color::ALL {
        let mine = board.by_color(color) & !keep;
        for sq in (mine & board.pawns()).into_iter().skip(8) {
            board.discard_piece_at(sq);
        }
        let mine = board.by_color(color) & !keep;
        for sq in mine.into_iter().skip(13) {
            board.discard_piece_at(sq);
        }
    }
    // No more promoted units than missing pawns: pieces beyond the initial array's go first.
    for color in Color::ALL {
        while (board.by_color(color) & board.pawns()).count() + extras(board, color) > 8 {
            let over = PIECES.into_iter().find_map(|(role, n)| {
                let units = board.by_color(color) & board.by_role(role);
                (units.count() > n).then_some(units & !keep)
            });
            let Some(sq) = over.and_then(|units| units.last()) else {
                break;
            };
            board.discard_piece_at(sq);
        }
    }
    // Removing a unit can open a line, so until no unit checks the king that may not be in
    // check, and at most one the king to move (the one the last move checked with).
    loop {
        let retracting = board.king_of(to_move.other()).expect("one king a side");
        let moving = board.king_of(to_move).expect("one king a side");
        let wrong = board.attacks_to(retracting, to_move, board.occupied())
            | board
                .attacks_to(moving, to_move.other(), board.occupied())
                .into_iter()
                .skip(1)
                .collect::<shakmaty::Bitboard>();
        let Some(sq) = (wrong & !keep).first() else {
            break;
        };
        board.discard_piece_at(sq);
    }
}

fn back_ranks() -> shakmaty::Bitboard {
    shakmaty::Bitboard::from_rank(Rank::First) | shakmaty::Bitboard::from_rank(Rank::Eighth)
}

/// Whether `message` (a reason's) is one line with no hole where an empty list of squares was
/// left out ("on ()", "from  in").
#[must_use]
pub fn well_formed_message(message: &str) -> bool {
    !message.is_empty()
        && !message.contains('\n')
        && !message.ends_with(' ')
        && ["  ", " ,", " .", " ;", " )", "()", "( "]
            .iter()
            .all(|hole| !message.contains(hole))
}

/// The pieces of the initial array, with how many of each a side has.
const PIECES: [(Role, usize); 4] = [
    (Role::Queen, 1),
    (Role::Rook, 2),
    (Role::Bishop, 2),
    (Role::Knight, 2),
];

/// The units of `color` beyond the initial array's count of their kind (promoted, at least).
fn extras(board: &Board, color: Color) -> usize {
    [
        (Role::Queen, 1),
        (Role::Rook, 2),
        (Role::Bishop, 2),
        (Role::Knight, 2),
    ]
    .into_iter()
    .map(|(role, n)| {
        (board.by_color(color) & board.by_role(role))
            .count()
            .saturating_sub(n)
    })
    .sum()
}
