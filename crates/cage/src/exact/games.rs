//! Games aimed at the tempo search and rule (e) of [`super`], checked against the history that
//! was actually played.
//!
//! One side (the *passive* one, by the seed) moves its pawns, mostly by single steps, and its
//! pieces seldom, never castling, so it keeps its castling rights (its king and rooks frozen)
//! while the other side hunts its pieces down with captures: many positions then have a side
//! [`bounded`], where the closure tries the tempo search. Every position with a bounded side gets
//! the tempo search, and every few plies the exact prefix with rule (e) gets its turn; each must
//! leave the position unproven. Some positions are also given true facts of their game (see
//! [`Truths`]: never-moved units marked frozen, uncaptures forbidden to a side that captured
//! nothing), which bound more sides and let the searches prove many inner positions. And since a search that fails as a whole may still have closed a
//! line wrongly, the real history of the position is walked back move by move (each real move
//! must be one of the generator's retractions) and every position on it is put to the search's
//! own closures afterwards: none may be marked proven, none may close by the analysis, the
//! store (its cages and learnt nodes) or the verifier's node rules, and none reached by an
//! uncapture may be closed by the relaxed handoff of rule (d).

use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{attacks, Bitboard, Chess, Color, Move, Position, Role};

use super::super::relaxed::relaxed;
use super::super::store::CageStore;
use super::{bounded, Child, Search, UNCAPTURE_PLIES};

/// Nodes each search of a position may take.
const NODES: u64 = 2_000;

/// Plies of the real history put to the closures after each search.
const HISTORY: usize = 8;

/// The pieces of `color` in `pos` that are not frozen by a castling right and have an empty square
/// a move of theirs can have come from (what [`bounded`] asks of every piece).
fn free_pieces(pos: &Chess, color: Color) -> u32 {
    let board = pos.board();
    let occupied = board.occupied();
    let rooks = pos.castles().castling_rights() & board.by_color(color);
    let kings = if rooks.any() {
        board.kings()
    } else {
        Bitboard::EMPTY
    };
    let pieces = board.by_color(color) & !board.pawns() & !rooks & !kings;
    pieces
        .into_iter()
        .filter(|&sq| {
            board
                .piece_at(sq)
                .is_some_and(|piece| (attacks::attacks(sq, piece, occupied) & !occupied).any())
        })
        .count() as u32
}

/// How likely `m` is in `pos` when `passive` is the side that keeps its pieces home: the passive
/// side almost never moves its king or rooks (so it keeps its castling rights), nor
/// captures when `peaceful` (so its uncaptures can be forbidden, see [`at`]), and
/// prefers the moves after which fewer of its pieces are free (pawn steps that close their ways
/// back); the other side takes its knights, bishops and queens above all, and seldom checks.
fn weight(pos: &Chess, m: Move, passive: Color, peaceful: bool) -> u32 {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    if us == passive {
        // Seldom enough that a game keeps them for long, never zero (a move must be possible).
        if matches!(m.role(), Role::King | Role::Rook) || (peaceful && m.is_capture()) {
            return 1;
        }
        let free = free_pieces(&after, passive).min(6);
        let pawn = if m.role() == Role::Pawn { 4 } else { 1 };
        return pawn * (16_384 >> free);
    }
    let w = match m {
        Move::EnPassant { .. } => 600,
        Move::Castle { .. } => 150,
        Move::Normal {
            promotion: Some(_), ..
        } => 300,
        Move::Normal {
            capture: Some(Role::Rook),
            ..
        } => 2,
        Move::Normal {
            capture: Some(Role::Pawn),
            ..
        } => 10,
        Move::Normal {
            capture: Some(_), ..
        } => 2000,
        Move::Normal {
            role: Role::King, ..
        } => 6,
        Move::Normal {
            role: Role::Pawn, ..
        } => 8,
        _ => 12,
    };
    if after.is_check() {
        w / 20 + 1
    } else {
        w
    }
}

/// A game of at most `plies` plies, the same for the same `seed`, with White passive on even
/// seeds, and peaceful on half of them.
fn game(seed: u64, plies: usize) -> retrace_testkit::Game {
    let passive = if seed.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    let peaceful = seed % 4 < 2;
    retrace_testkit::random_game_with(seed ^ 0x7e3b_0a11, plies, |pos, m| {
        weight(pos, m, passive, peaceful)
    })
}

/// The real history of the position after `n` plies of `g`, walked back up to [`HISTORY`] plies:
/// each position with whether it was reached by an uncapture. Panics if a real move is not one
/// of the generator's retractions (the completeness every proof stands on), or if a position's
/// count of retractions is not the number of its retractions.
fn history(g: &retrace_testkit::Game, n: usize, truths: Truths) -> Vec<(RetroPosition, bool)> {
    let mut pos = at(g, n, truths);
    let mut out = Vec::new();
    for k in (n.saturating_sub(HISTORY)..n).rev() {
        let r = Retraction::from_forward(g.moves[k]).expect("a chess move");
        assert!(
            pos.retractions().contains(&r),
            "{}: the real last move {:?} is not a retraction",
            pos.fen(),
            g.moves[k]
        );
        pos = pos.retract(r);
        // The tempo search closes a position whose count of retractions is 0.
        assert_eq!(
            pos.count_retractions(),
            pos.retractions().len() as u64,
            "{}",
            pos.fen()
        );
        out.push((pos.clone(), r.uncaptured().is_some()));
    }
    out
}

/// True facts of a game that a position may be given besides its board.
#[derive(Clone, Copy)]
struct Truths {
    /// The uncaptures of every side that captured nothing so far are forbidden, so that the
    /// searches go on exactly through that side's retractions instead of handing off.
    seal: bool,
    /// Every unit that never moved so far is marked frozen, as a person may mark it (more
    /// sides are then bounded).
    frozen: bool,
}

/// The position after `n` plies of `g`, with the `truths` asked for: the game still realizes it.
fn at(g: &retrace_testkit::Game, n: usize, truths: Truths) -> RetroPosition {
    let mut pos = retrace_testkit::retro_position(&g.positions[n]);
    for color in Color::ALL.into_iter().filter(|_| truths.seal) {
        let captured = g.moves[..n]
            .iter()
            .zip(&g.positions)
            .any(|(m, before)| before.turn() == color && m.is_capture());
        if !captured {
            pos.set_uncaptures_allowed(color, false);
        }
    }
    if truths.frozen {
        let moved = g.moves[..n]
            .iter()
            .zip(&g.positions)
            .fold(Bitboard::EMPTY, |acc, (m, before)| {
                acc | retrace_testkit::move_squares(m, before.turn())
            });
        for sq in pos.board().occupied() & !moved {
            pos.mark_frozen(sq).expect("a unit to mark");
        }
    }
    pos
}

/// What the searches of [`check_game`] did.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// Positions with a side bounded (each got the tempo search).
    tempo: u64,
    /// Positions with a side bounded only once the units that never moved are marked frozen.
    tempo_marked: u64,
    /// Positions given the exact prefix with rule (e).
    exact: u64,
    /// Positions given the exact prefix with rule (e) unlimited.
    deep: u64,
    /// Positions the searches marked proven (none real).
    proven: u64,
    /// Positions of real histories put to the closures.
    history: u64,
    /// Of them, positions reached by an uncapture put to the relaxed handoff.
    handoffs: u64,
}

/// Runs `search` on the position after `n` plies of `g` and checks it against the real history.
fn check_search(
    mut search: Search<'_>,
    g: &retrace_testkit::Game,
    n: usize,
    truths: Truths,
    counts: &mut Counts,
) {
    let pos = at(g, n, truths);
    let fen = pos.fen();
    assert!(!search.run(&pos), "a false illegal: {fen}");
    counts.proven += search.proven.len() as u64;
    // The line of a search cut short is left behind: the closures are asked afresh.
    search.line.clear();
    for (k, (real, uncaptured)) in history(g, n, truths).into_iter().enumerate() {
        if *real.board() == super::INITIAL {
            break;
        }
        counts.history += 1;
        let at = || format!("{fen}, {} plies back: {}", k + 1, real.fen());
        assert!(!search.proven.contains(&real), "marked proven: {}", at());
        assert!(
            matches!(search.look(&real), Child::Open),
            "closed at once: {}",
            at()
        );
        if uncaptured && k < 4 {
            counts.handoffs += 1;
            let (handed, _) = relaxed(&real, search.store, NODES, None);
            assert!(handed.closed.is_none(), "closed by a handoff: {}", at());
        }
    }
}

/// Searches the positions of `g` (see the module documentation); the store is shared along the
/// game, so later searches close lines on what earlier ones learnt.
fn check_game(g: &retrace_testkit::Game, every: usize, counts: &mut Counts) {
    let store = CageStore::new();
    let plain = Truths {
        seal: false,
        frozen: false,
    };
    let marked = Truths {
        seal: false,
        frozen: true,
    };
    for n in 1..g.positions.len() {
        // The marked positions on one ply in three, for time.
        let truths_here = if n % 3 == 0 {
            &[plain, marked][..]
        } else {
            &[plain][..]
        };
        for &truths in truths_here {
            let pos = at(g, n, truths);
            if Color::ALL.into_iter().any(|c| bounded(&pos, c)) {
                *(if truths.frozen {
                    &mut counts.tempo_marked
                } else {
                    &mut counts.tempo
                }) += 1;
                let nodes = if truths.frozen { NODES / 2 } else { NODES };
                let mut search = Search::new(&store, nodes, u32::MAX, None);
                search.tempo = true;
                check_search(search, g, n, truths, counts);
                // Marks only add bounded positions where none was without them.
                if !truths.frozen {
                    break;
                }
            }
        }
        if n % every == 0 {
            counts.exact += 1;
            let search = Search::new(&store, NODES, u32::MAX, None);
            assert_eq!(search.uncapture_plies, UNCAPTURE_PLIES);
            check_search(search, g, n, plain, counts);
        } else if n % every == every / 2 {
            // Rule (e) without its limit: every failed handoff expanded, as deep as the budget
            // goes. The hand proof holds for any limit, and deep searches mark inner positions
            // proven, which the real history must never be.
            counts.deep += 1;
            let mut search = Search::new(&store, NODES / 4, u32::MAX, None);
            search.uncapture_plies = u32::MAX;
            let truths = Truths {
                seal: true,
                frozen: true,
            };
            check_search(search, g, n, truths, counts);
        }
    }
}

/// Every position of the games with a bounded side survives the tempo search (and one in three
/// with its never-moved units marked frozen), two in nine the exact prefix with rule (e) (with
/// and without its limit), and no position of the real history of any is closed by the search's
/// rules. A hand run of 300 games (release) checked some 60,000 history positions against a
/// few thousand searches.
#[test]
fn the_real_history_survives_the_tempo_search_and_rule_e() {
    let games: u64 = if cfg!(debug_assertions) { 2 } else { 16 };
    let mut counts = Counts::default();
    for seed in 0..games {
        check_game(&game(seed, 40 + (seed as usize * 17) % 120), 9, &mut counts);
    }
    eprintln!("{games} games: {counts:?}");
    // Some side is bounded in a good part of these games, and the searches prove inner
    // positions on their way (so the check of the real history is not empty). Since the static
    // tempo rule (`retrace_legal`, code `tempo`) closes many bounded positions at once, fewer
    // are left for the searches to prove (145 now, 729 without it).
    assert!(cfg!(debug_assertions) || counts.tempo > 50, "{counts:?}");
    assert!(cfg!(debug_assertions) || counts.proven > 100, "{counts:?}");
}

/// The same checks on the published proof games of the corpus, real games of composers: every
/// position with a bounded side, and the exact prefix (limited and not) on one ply in four.
#[test]
fn the_real_history_of_published_proof_games_survives() {
    let games = retrace_testkit::published_proof_games();
    let mut counts = Counts::default();
    for (_, g) in games
        .iter()
        .take(if cfg!(debug_assertions) { 2 } else { 100 })
    {
        check_game(g, 8, &mut counts);
    }
    eprintln!("{} proof games: {counts:?}", games.len());
    assert!(games.len() > 60, "{} proof games replayed", games.len());
    // The static tempo rule closes many bounded positions at once: 265 proven now, 1,971 without it.
    assert!(
        cfg!(debug_assertions) || (counts.history > 1_000 && counts.proven > 200),
        "{counts:?}"
    );
}
