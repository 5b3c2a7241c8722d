//! The tempo search of the closure (`cage/exact.rs`): a side whose pieces cannot move back retracts
//! only pawn steps until the other side uncaptures one of its mobile units, and every line in that
//! window is followed exactly. It proves Sherlock's L51 and a tighter variant, leaves Sherlock's
//! legal near misses alone (one replayed as a game), and never fires on the positions of random
//! games biased so that one side loses its pieces and keeps its king and rooks at home.
//!
//! Run with `--release`: the soundness test then looks at about 45,000 positions (a debug build
//! a tenth of them).

use retrace_legal::cage::{closure, relaxed_closure, CageStore, Tempo, CHECK_CLOSURE_NODES};
use retrace_legal::{analyze, analyze_thoroughly, ReasonCode, Verdict};
use retrace_testkit::{pos, random_game_with, replay_score, retro_position};
use shakmaty::{Chess, Color, Move, Position, Role};

/// Sherlock's L51 (its hand proof is in `positions/illegal.toml`): Black's pieces are frozen
/// (castling rights, Bc8 behind b7 and d7), so after White's last capture of a knight Black has
/// only its a-pawn's steps and the h-pawn's, too few for White's remaining moves (a knight to a2
/// after a2xb3, the bishop to h6 and O-O-O after d2xc3), and the only line that fits fails on
/// parity.
const L51: &str = "r1b1k2r/1pppppp1/7B/p7/1N6/1PP5/NPP1PPPP/2KR1B1R w kq -";

/// L51 with Black's a-pawn one step back (built for the tempo search). Illegal, by L51's
/// accounting (Qd8 and Bf8 died at home, the h-pawn on the g- or h-file, so a2xb3 and d2xc3 took
/// the knights) and a tighter count: Black made the last move, so after White's last knight
/// capture White made one move fewer than Black, and Black's moves since are a7-a6 and at most
/// two of the h-pawn (if it still lived; White then took it, one more White move). If a2xb3 was
/// last, a knight came to a2 afterwards, from c1 (then O-O-O, which needs c1 empty, came after it)
/// or from b4 (then a knight came back to b4): two White moves, three with the h-pawn's capture,
/// against at most two. If d2xc3 was last, the bishop left c1 (by d2) and O-O-O or the king's
/// walk came after it: two moves, which needs two h-pawn moves after d2xc3; then the pawn stood
/// on h5 or lower, or on the g-file, when it was taken, never on h6 where the bishop's one move
/// ends.
const L51_A6: &str = "r1b1k2r/1pppppp1/p6B/8/1N6/1PP5/NPP1PPPP/2KR1B1R w kq -";

/// Sherlock's L52, legal: L51 with the h1 rook on g1, which fixes the parity (this game).
const L52: &str = "r1b1k2r/1pppppp1/7B/p7/1N6/1PP5/NPP1PPPP/2KR1BR1 w kq -";
const L52_GAME: &str = "1.Nf3 Na6 2.Ng5 Nb8 3.Ne6 Nc6 4.Nxf8 Nd4 5.Ne6 Nb3 6.axb3 Nh6 7.Nxd8 \
                        Ng8 8.Nc6 Nf6 9.Nb4 Nd5 10.Nc3 Ne3 11.Nca2 Nxd1 12.Rg1 Nc3 13.dxc3 h6 \
                        14.Bxh6 a6 15.O-O-O a5";

/// Sherlock's L53 and L54, legal: L51 with Black to move, and without Black's castling rights.
const L53: &str = "r1b1k2r/1pppppp1/7B/p7/1N6/1PP5/NPP1PPPP/2KR1B1R b kq -";
const L54: &str = "r1b1k2r/1pppppp1/7B/p7/1N6/1PP5/NPP1PPPP/2KR1B1R w - -";

#[test]
fn l51_is_proven_by_the_tempo_search() {
    for fen in [L51, L51_A6] {
        let p = pos(fen);
        assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction, "{fen}");
        let store = CageStore::new();
        assert_eq!(
            relaxed_closure(&p, &store, CHECK_CLOSURE_NODES, None).closed,
            None
        );
        let found = closure(&p, &store, CHECK_CLOSURE_NODES, None);
        let closed = found.closed.expect("every line dies");
        assert!(found.tempo && closed.exact && closed.whole, "{closed:?}");
        // Black's a-pawn advanced two ranks or one: Black's tempo is counted.
        let steps = if fen == L51 { 2 } else { 1 };
        let side = Color::Black;
        assert_eq!(closed.tempo, Some(Tempo { side, steps }));
        let reason = analyze_thoroughly(&p, &CageStore::new());
        let reason = reason
            .reasons
            .iter()
            .find(|r| r.code == ReasonCode::Closure)
            .expect("check proves it");
        let counted = format!(
            "Black has no piece free to move back, so until White uncaptures one Black retracts \
             only pawn steps (at most {steps})"
        );
        assert!(reason.message.contains(&counted), "{reason}");
    }
}

#[test]
fn the_near_misses_are_left_alone() {
    let game = replay_score(L52_GAME);
    let last = retro_position(game.positions.last().expect("a game"));
    assert_eq!(last, pos(L52), "{}", last.fen());
    for fen in [L52, L53, L54] {
        let p = pos(fen);
        let found = closure(&p, &CageStore::new(), 4 * CHECK_CLOSURE_NODES, None);
        assert_eq!(found.closed, None, "{fen}");
        // Black's pieces are frozen but for L54's king, which may have moved.
        assert_eq!(found.tempo, fen != L54, "{fen}");
        assert_eq!(
            analyze_thoroughly(&p, &CageStore::new()).verdict(),
            Verdict::NoContradiction,
            "{fen}"
        );
    }
}

/// The near miss of `c-issue11-missing-pawn-is-not-the-moved-one` (`positions/`) is this game's.
#[test]
fn the_missing_pawn_near_miss_is_a_game() {
    let game = replay_score(
        "1.b3 Nf6 2.b4 Nh5 3.b5 Ng3 4.b6 cxb6 5.a3 Nxh1 6.Nf3 Ng3 7.Ng1 Nh5 8.Nc3 Nf6 9.Nb1 Ng8",
    );
    let last = retro_position(game.positions.last().expect("a game"));
    let near = pos("rnbqkbnr/pp1ppppp/1p6/8/8/P7/2PPPPPP/RNBQKBN1 w - -");
    // The game keeps White's queenside castling right, which the position does not claim.
    assert_eq!(
        (last.board(), last.to_move()),
        (near.board(), near.to_move()),
        "{}",
        last.fen()
    );
    assert_eq!(analyze(&near).verdict(), Verdict::NoContradiction);
    let trigger = pos("rnbqkbnr/pp1ppppp/1p6/8/8/1P6/2PPPPPP/RNBQKBN1 w - -");
    assert!(analyze(&trigger).has(ReasonCode::CaptureUnmatched));
}

/// Random games in which White takes Black's pieces eagerly and Black hardly moves its king and
/// rooks, so that Black often has nothing but pawns and frozen units.
fn hunt(pos: &Chess, m: Move) -> u32 {
    match (pos.turn(), m.role(), m.capture()) {
        (Color::White, _, Some(Role::Pawn)) => 40,
        (Color::White, _, Some(_)) => 1000,
        (Color::White, _, None) => 10,
        (Color::Black, Role::King | Role::Rook, _) => 1,
        (Color::Black, Role::Pawn, _) => 40,
        (Color::Black, _, _) => 20,
    }
}

/// Games of the soundness test.
const GAMES: u64 = if cfg!(debug_assertions) { 40 } else { 400 };

/// Soundness: the closure, its tempo search included, proves no position of those games illegal.
#[test]
fn tempo_never_fires_on_biased_random_games() {
    let store = CageStore::new();
    let (mut positions, mut tried) = (0, 0);
    for seed in 0..GAMES {
        let plies = 60 + (seed as usize * 37) % 120;
        for chess in &random_game_with(seed, plies, hunt).positions {
            let p = retro_position(chess);
            let found = closure(&p, &store, 4 * CHECK_CLOSURE_NODES, None);
            assert_eq!(found.closed, None, "false closure: {}", p.fen());
            positions += 1;
            tried += usize::from(found.tempo);
        }
    }
    eprintln!("the tempo search tried {tried} of {positions} positions");
    // It must have been exercised: about one position in seventy.
    assert!(tried * 100 > positions, "{tried} of {positions}");
}
