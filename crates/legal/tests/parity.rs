//! Move parity: the Sherlock parity tests, and soundness on quiet games.
//!
//! The games of `retrace-testkit` push pawns and capture a lot, so they leave the positions where
//! parity can be decided after a few moves. The games here prefer knight, king and rook moves, play
//! few pawn moves and captures, and so stay in those positions for long: no position of them may be
//! called illegal, and the same board with the other side to move must often be proven illegal by
//! parity (which shows the rule really decides the parity, and decides it right).

mod support;

use rand::{rngs::SmallRng, Rng, SeedableRng};
use retrace_legal::{analyze, ReasonCode::*, Verdict};
use retrace_unmove::RetroPosition;
use shakmaty::{fen::Fen, Chess, EnPassantMode, Move, Position, Role};
use support::{assert_illegal, assert_legal};

#[test]
fn sherlock_parity_tests() {
    // L02: the initial array with Black to move.
    assert_illegal(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        ImpossibleParity,
    );
    assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // L04: both queens were taken at home by knights (d1 light, d8 dark): an even number of moves.
    assert_illegal(
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b - - 0 1",
        ImpossibleParity,
    );
    assert_legal("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1");
    // L12: f2xe3xd4xc5 and a7xb6xc5 (the black a-pawn can have been taken only on c5), all on dark
    // squares; with both kings and queen rooks frozen, every other move flips: an odd number.
    assert_illegal(
        "r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w Qq - 0 1",
        ImpossibleParity,
    );
    // L11, L13, L14: Black to move; or the white king free to step to f2; or the black rook free
    // to go down the a-file (a move of two squares).
    assert_legal("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R b Qq - 0 1");
    assert_legal("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w q - 0 1");
    assert_legal("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w Q - 0 1");
    // L15: the queens died at home, f2xg3 took the g8 knight; the rooks moved one square at a
    // time behind h2-h3 and h7-h6.
    assert_illegal(
        "rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KBN1 w Qq - 0 1",
        ImpossibleParity,
    );
    // L16, L17: Black to move; or a white knight missing (taken anywhere by a black piece).
    assert_legal("rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KBN1 b Qq - 0 1");
    assert_legal("rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KB2 w Qq - 0 1");
}

#[test]
fn smullyan_indian_chess_set() {
    // Smullyan, "The Mystery of the Indian Chess Set" (Sherlock's example): with White to move the
    // position is illegal, with Black to move legal.
    assert_illegal(
        "r1b1kb1r/pppppppp/2N5/5n2/6N1/2n5/PPPPPPPP/1RBK1B1R w - - 0 1",
        ImpossibleParity,
    );
    assert_legal("r1b1kbr1/pppppppp/5N2/1n6/2N5/5n2/PPPPPPPP/R1BK1B1R b - - 0 1");
}

#[test]
fn colour_symmetry() {
    // CQLi's colour symmetry (seed 002): all pawns home but the a- and h-pawns one step up; knights
    // and rooks moved. Here after 1.Nf3 Nc6 2.a3 h6 3.Ra2 Rh7: White to move, 16 light squares.
    let fen = "r1bqkbn1/pppppppr/2n4p/8/8/P4N2/RPPPPPPP/1NBQKB1R w Kq - 0 1";
    assert_legal(fen);
    assert_illegal(
        "r1bqkbn1/pppppppr/2n4p/8/8/P4N2/RPPPPPPP/1NBQKB1R b Kq - 0 1",
        ImpossibleParity,
    );
    // With the a-pawn on a4 it may have made a double step: parity is not known.
    assert_legal("r1bqkbn1/pppppppr/2n4p/8/P7/5N2/RPPPPPPP/1NBQKB1R b Kq - 0 1");
}

/// A random game that prefers knight, king and rook moves, with few pawn moves and captures (or,
/// with `busy`, more pawn steps and captures, so that pawns capture and get captured).
fn quiet_game(seed: u64, plies: usize, busy: bool) -> Vec<Chess> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Chess::default();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let weight = |m: &Move| -> u32 {
            match m {
                Move::Castle { .. } => 20,
                Move::EnPassant { .. } => 5,
                Move::Normal {
                    capture: Some(_),
                    role,
                    ..
                } => match (busy, role) {
                    (false, _) => 4,
                    (true, Role::Pawn) => 60,
                    (true, _) => 30,
                },
                Move::Normal { role, from, to, .. } => match role {
                    Role::Knight => 40,
                    Role::King => 15,
                    Role::Rook => 15,
                    Role::Queen => 2,
                    Role::Bishop => 1,
                    Role::Pawn if from.rank().distance(to.rank()) == 2 => 1,
                    Role::Pawn if busy => 12,
                    Role::Pawn => 3,
                },
                Move::Put { .. } => 0,
            }
        };
        let total: u32 = moves.iter().map(weight).sum();
        let mut pick = rng.gen_range(0..total);
        let mut chosen = moves[0];
        for m in &moves {
            let w = weight(m);
            if pick < w {
                chosen = *m;
                break;
            }
            pick -= w;
        }
        pos.play_unchecked(chosen);
        out.push(pos.clone());
    }
    out
}

#[test]
fn parity_is_sound_on_quiet_games() {
    let games = if cfg!(debug_assertions) { 300 } else { 6_000 };
    let mut positions = 0;
    let mut flipped_proven = 0;
    for seed in 0..games {
        let busy = seed % 2 == 1;
        for chess in quiet_game(seed, 20 + (seed as usize * 7) % 80, busy) {
            let fen = Fen::from_position(&chess, EnPassantMode::Always).to_string();
            let pos = match RetroPosition::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => panic!("{fen} does not set up: {e}"),
            };
            let a = analyze(&pos);
            assert_eq!(
                a.verdict(),
                Verdict::NoContradiction,
                "false illegal {fen}: {:?}",
                a.reasons
            );
            positions += 1;
            // The same board with the other side to move (no en passant square).
            let mut fields: Vec<&str> = fen.split(' ').collect();
            fields[1] = if fields[1] == "w" { "b" } else { "w" };
            fields[3] = "-";
            let flipped = fields.join(" ");
            if let Ok(pos) = RetroPosition::from_fen(&flipped) {
                if analyze(&pos).has(ImpossibleParity) {
                    flipped_proven += 1;
                }
            }
        }
    }
    eprintln!("{positions} positions of quiet games; parity proved {flipped_proven} flipped ones");
    assert!(
        flipped_proven > positions / 20,
        "{flipped_proven} of {positions}"
    );
}

#[test]
fn a_game_to_sherlock_l11() {
    // A game reaching Sherlock L11 (Black to move): f2xe3xd4xc5 takes two knights and the a-pawn,
    // a7xb6xc5 takes two knights. Every position on the way is legal, and after the last move the
    // same board with White to move (L12) is illegal by parity.
    let moves = [
        "Nc3", "Nf6", "Na4", "Nd5", "Nb6", "axb6", "Nf3", "Ne3", "fxe3", "Nc6", "Ne5", "Nd4",
        "exd4", "Rg8", "Nd3", "Rh8", "Nc5", "bxc5", "dxc5",
    ];
    let mut chess = Chess::default();
    for san in moves {
        let m = san
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|s| s.to_move(&chess).ok());
        let Some(m) = m else {
            panic!(
                "{san} is not legal in {}",
                Fen::from_position(&chess, EnPassantMode::Legal)
            );
        };
        chess.play_unchecked(m);
        let fen = Fen::from_position(&chess, EnPassantMode::Legal).to_string();
        assert_legal(&fen);
    }
    let fen = Fen::from_position(&chess, EnPassantMode::Legal).to_string();
    assert_eq!(
        fen,
        "r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R b KQq - 0 10"
    );
    assert_illegal(
        "r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w KQq - 0 10",
        ImpossibleParity,
    );
}

#[test]
fn units_locked_behind_a_pawn_that_moved_once() {
    // Sherlock L22: the rook of h8 could go down the h-file after h7xg6, but the knight on h8
    // entered by g6 before that capture and never left (f7 and g6 are occupied from then on), and
    // then the rook on g8 is locked too (f8, g7, h8): every rook move went between h8 and g8.
    // Every piece move flips the colour of its square, so the side to move is known: White.
    assert_illegal(
        "rnbqkbrn/ppppppp1/6p1/8/8/8/PPPPPPPP/RNBQKB1R b - -",
        ImpossibleParity,
    );
    // A game reaching the same board with White to move.
    let moves = [
        "Nf3", "Nf6", "Nc3", "Rg8", "Nb1", "Nh5", "Nc3", "Nf4", "Nb1", "Ng6", "Nh4", "Nh8", "Ng6",
        "hxg6",
    ];
    let mut chess = Chess::default();
    for san in moves {
        let m = san
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|s| s.to_move(&chess).ok())
            .unwrap_or_else(|| panic!("{san} is not legal"));
        chess.play_unchecked(m);
        assert_legal(&Fen::from_position(&chess, EnPassantMode::Legal).to_string());
    }
    assert_eq!(
        Fen::from_position(&chess, EnPassantMode::Legal).to_string(),
        "rnbqkbrn/ppppppp1/6p1/8/8/8/PPPPPPPP/RNBQKB1R w KQq - 0 8"
    );
}
