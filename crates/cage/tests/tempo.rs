//! The tempo search of the closure (`cage/exact.rs`): a side whose pieces cannot move back retracts
//! only pawn steps until the other side uncaptures one of its mobile units, and every line in that
//! window is followed exactly. It proves Sherlock's L51 and a tighter variant (with either colour
//! frozen), leaves Sherlock's legal near misses and L51 turned over alone (two replayed as
//! games), and never fires on the positions of random games biased so that one side loses its
//! pieces and keeps its king and rooks at home.
//!
//! Run with `--release`: the soundness test then looks at about 45,000 positions (a debug build
//! a tenth of them; `RETRACE_TEMPO_GAMES=N` sets the number of games).

use retrace_cage::analyze_thoroughly;
use retrace_cage::{
    closure, closure_without_tempo, relaxed_closure, CageStore, Tempo, CHECK_CLOSURE_NODES,
};
use retrace_legal::{analyze, ReasonCode, Verdict};
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

/// L51_A6 with the colours swapped (the board turned over): White's pieces are frozen and its
/// a-pawn made one step. Illegal by L51_A6's proof, which counts only the moves after the last
/// capture of a knight (the side whose tempo is counted made the last move in both), never the
/// number of moves since the start, which the swap changes.
const L51_A6_SWAPPED: &str = "2kr1b1r/npp1pppp/1pp5/1n6/8/P6b/1PPPPPP1/R1B1K2R b KQ -";

/// L51 with the colours swapped, legal: the swap moves the first move to the other side, which
/// undoes L51's parity argument, and this game (L52's without Rh1-g1, turned over) reaches it.
const L51_SWAPPED: &str = "2kr1b1r/npp1pppp/1pp5/1n6/P7/7b/1PPPPPP1/R1B1K2R b KQ -";
const L51_SWAPPED_GAME: &str = "1.Na3 Nf6 2.Nb1 Ng4 3.Nc3 Ne3 4.Nd5 Nxf1 5.Nb6 axb6 6.Nh3 Ne3 \
                                7.Ng1 Nxd1 8.Nf3 Nc3 9.Nd4 Nb5 10.Ne6 Nc6 11.Nxd8 Nca7 12.Nc6 \
                                dxc6 13.h3 Bxh3 14.a3 O-O-O 15.a4";

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
    for (fen, side, steps) in [
        (L51, Color::Black, 2),
        (L51_A6, Color::Black, 1),
        (L51_A6_SWAPPED, Color::White, 1),
    ] {
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
        // The frozen side's a-pawn advanced two ranks or one: its tempo is counted.
        assert_eq!(closed.tempo, Some(Tempo { side, steps }));
        let reason = analyze_thoroughly(&p, &CageStore::new());
        let reason = reason
            .reasons
            .iter()
            .find(|r| r.code == ReasonCode::Closure)
            .expect("check proves it");
        let (us, them) = if side == Color::White {
            ("White", "Black")
        } else {
            ("Black", "White")
        };
        let counted = format!(
            "{us} has no piece free to move back, so until {them} uncaptures one {us} retracts \
             only pawn steps (at most {steps})"
        );
        assert!(reason.message.contains(&counted), "{reason}");
    }
}

/// Retractor 2's r2-A-043 (Mortensen) with Black to have made the last move, which the corpus
/// records as having none (`other_side_has_no_last_move`): the closure proves it (the exact
/// prefix's rule (e)), with or without the tempo search. Its king shuffles between c8 and b8, so
/// White is not bounded and the tempo search is not tried: pieces that shuffle are not counted
/// (see `bounded` in `cage/exact.rs`).
const R2_A_043_BLACK: &str = "k1KQRb2/ppppp1p1/5p2/7p/8/8/8/8 w - -";

/// The problem itself (White retracts): legal (its answer is PxQ=R).
const R2_A_043: &str = "k1KQRb2/ppppp1p1/5p2/7p/8/8/8/8 b - -";

#[test]
fn a_side_whose_king_shuffles_is_not_counted() {
    let p = pos(R2_A_043_BLACK);
    for closed in [
        closure_without_tempo(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None),
        closure(&p, &CageStore::new(), CHECK_CLOSURE_NODES, None),
    ] {
        assert!(
            closed.closed.is_some_and(|c| c.tempo.is_none()),
            "{closed:?}"
        );
    }
    let near = closure(
        &pos(R2_A_043),
        &CageStore::new(),
        4 * CHECK_CLOSURE_NODES,
        None,
    );
    assert_eq!(near.closed, None);
    assert!(!near.tempo);
}

#[test]
fn the_near_misses_are_left_alone() {
    for (game, fen) in [(L52_GAME, L52), (L51_SWAPPED_GAME, L51_SWAPPED)] {
        let game = replay_score(game);
        let last = retro_position(game.positions.last().expect("a game"));
        assert_eq!(last, pos(fen), "{}", last.fen());
    }
    for fen in [L52, L53, L54, L51_SWAPPED] {
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

/// Games of the soundness test: 400 in a release build (about 45,000 positions, two seconds), 40
/// in a debug one; `RETRACE_TEMPO_GAMES=N` plays N instead, for a longer run by hand.
fn games() -> u64 {
    let default = if cfg!(debug_assertions) { 40 } else { 400 };
    std::env::var("RETRACE_TEMPO_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Soundness: the closure, its tempo search included, proves no position of those games illegal.
#[test]
fn tempo_never_fires_on_biased_random_games() {
    let store = CageStore::new();
    let (mut positions, mut tried) = (0, 0);
    for seed in 0..games() {
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
