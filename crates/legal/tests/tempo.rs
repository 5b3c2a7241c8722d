//! The tempo rule (`crates/legal/src/history/tempo.rs`) on games built to come near it: one side
//! hardly moves its king, rooks and other pieces and steps its pawns, so its castling rights (facts
//! of the position, as a FEN gives them) freeze king and rooks and its pawns' single steps shut
//! pieces in, while the other side wanders and captures. No position of those games may be called
//! illegal by the rule, nor the same positions with the colours swapped.
//!
//! `RETRACE_TEMPO_RULE_GAMES=N` plays N games (default 600 in a release build, 60 in a debug one).

use retrace_legal::{analyze, ReasonCode};
use retrace_testkit::{random_game_with, retro_position, swapped_board, swapped_castling};
use retrace_unmove::RetroPosition;
use shakmaty::{Chess, Color, Move, Position, Role};

fn games() -> u64 {
    let default = if cfg!(debug_assertions) { 60 } else { 600 };
    std::env::var("RETRACE_TEMPO_RULE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Black keeps its pieces home and steps its pawns once; White captures eagerly.
fn shy_black(pos: &Chess, m: Move) -> u32 {
    match (pos.turn(), m.role(), m) {
        (Color::White, _, m) if m.is_capture() => 300,
        (Color::White, Role::Pawn, _) => 30,
        (Color::White, _, _) => 10,
        (Color::Black, Role::Pawn, Move::Normal { from, to, .. })
            if from.rank().distance(to.rank()) == 1 && from.file() == to.file() =>
        {
            60
        }
        (Color::Black, Role::Knight, _) => 8,
        (Color::Black, _, _) => 1,
    }
}

/// Black's knights roam and die to White's pawns on their third rank (as in Sherlock's L51), its
/// other pieces stay behind unmoved pawns, and only its wing pawns step.
fn knights_to_the_pawns(pos: &Chess, m: Move) -> u32 {
    match (pos.turn(), m) {
        (
            Color::White,
            Move::Normal {
                role: Role::Pawn,
                from,
                capture: Some(_),
                ..
            },
        ) if from.rank() == shakmaty::Rank::Second => 5000,
        (Color::White, m) if m.is_capture() => 200,
        (
            Color::White,
            Move::Normal {
                role: Role::Pawn,
                from,
                to,
                ..
            },
        ) if from.rank().distance(to.rank()) == 1 => 40,
        (Color::White, _) => 10,
        (
            Color::Black,
            Move::Normal {
                role: Role::Pawn,
                from,
                ..
            },
        ) if matches!(
            from.file(),
            shakmaty::File::A | shakmaty::File::H | shakmaty::File::F
        ) =>
        {
            40
        }
        (
            Color::Black,
            Move::Normal {
                role: Role::Knight, ..
            },
        ) => 40,
        (Color::Black, _) => 1,
    }
}

/// The position with the board turned over and the colours swapped (castling rights swapped too).
fn swapped(p: &RetroPosition) -> Option<RetroPosition> {
    let fen = p.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = swapped_castling(fields[2]);
    let fen = format!("{} {side} {castling} -", swapped_board(fields[0]));
    RetroPosition::from_fen(&fen).ok()
}

#[test]
fn tempo_never_fires_on_games_that_come_near_it() {
    let (mut positions, mut games_positions, mut frozen) = (0u64, 0u64, 0u64);
    let mut wrong = Vec::new();
    for seed in 0..games() {
        let plies = 40 + (seed as usize * 29) % 100;
        let game = if seed % 2 == 0 {
            random_game_with(0x7465_6d70 ^ seed, plies, shy_black)
        } else {
            random_game_with(0x7465_6d70 ^ seed, plies, knights_to_the_pawns)
        };
        for chess in &game.positions {
            let p = retro_position(chess);
            let black_rights = chess.castles().castling_rights()
                & shakmaty::Bitboard::from_rank(shakmaty::Rank::Eighth);
            frozen += u64::from(black_rights.any());
            games_positions += 1;
            for q in std::iter::once(p.clone()).chain(swapped(&p)) {
                positions += 1;
                if analyze(&q).has(ReasonCode::Tempo) {
                    wrong.push(q.fen());
                }
            }
        }
    }
    eprintln!(
        "{positions} positions (both colourings), {frozen} of {games_positions} with a black \
         castling right kept"
    );
    // The games come near the rule: a third of their positions keep a black castling right.
    assert!(
        frozen * 3 > games_positions,
        "{frozen} of {games_positions}"
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}
