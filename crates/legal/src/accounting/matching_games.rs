//! The facts behind the placing of missing pawns ([`super::pawn_accounts`], [`super::pawn_region`],
//! [`super::on_board_files`]), checked against the game that was played, on the games aimed at
//! the timing (pawns that capture on almost every move, promotions, en passant, castling).
//!
//! At every position, for each side as the victim, with every unit followed from its start
//! square: every file [`super::on_board_files`] says a pawn on the board took is the true start
//! file of one; every pawn that died as a pawn died in [`super::pawn_region`]; and where
//! [`super::pawn_accounts`] runs, the true set `A` of start files of the pawns on the board has
//! a cost within the victim's budget and no more than its pawns' true captures, the missing
//! pawns together made at most the captures `A` leaves spare, each one that promoted could
//! promote within them, and each one that died as a pawn died in its own region from its own
//! file. (The rule's verdict on the same games, gates lifted, is
//! `never_false_on_games_aimed_at_the_timing`'s.)

use shakmaty::{Bitboard, ByColor, Color, File, Rank, Square};

use super::super::timing_games::{game, lives, Life};
use super::capture_landings;
use super::{
    on_board_files, pawn_region, pawn_region_from, pawn_sets, promotes_within, promotion_walks,
};
use crate::known::{with_known, Known};
use crate::pawns::PawnCache;

/// How many of each fact the games checked.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    positions: u64,
    /// Files a pawn on the board certainly took.
    on_board: u64,
    /// Pawns that died as pawns, placed in the region of every missing pawn.
    dead: u64,
    /// Positions where the victim's accounts ran, with the true set of start files.
    accounts: u64,
    /// Of them, pawns that died as pawns placed in the region of their own file.
    own_region: u64,
    /// Of them, pawns that promoted, with a walk within the spare captures.
    promoted: u64,
    /// Sides whose captures [`super::capture_landings`] bounded, every one landed within.
    landings: u64,
}

/// The captures of a pawn's `life` up to position `q` (file changes: a pawn only changes file by
/// capturing), and where it stood then.
fn captures_until(life: &Life, q: usize) -> (u32, Option<Square>) {
    let mut n = 0;
    let mut at: Option<Square> = None;
    for &(_, sq) in life.path.iter().take_while(|(ply, _)| *ply <= q) {
        if at.is_some_and(|a| a.file() != sq.file()) {
            n += 1;
        }
        at = Some(sq);
    }
    (n, at)
}

/// Checks the facts of the module documentation on every position of `g`.
fn check_game(g: &retrace_testkit::Game, cache: &mut PawnCache, counts: &mut Counts) {
    let (lives, landed) = lives(&g.moves);
    for (p, chess) in g.positions.iter().enumerate() {
        let pos = retrace_testkit::retro_position(chess);
        with_known(&pos, cache, |known| {
            check_position(known, p, &lives, &landed, counts)
        });
    }
}

/// Checks the facts of the module documentation on the position `p` of a game whose units lived
/// `lives`, each side's captures having landed on `landed`.
fn check_position(
    known: &Known<'_>,
    p: usize,
    lives: &[Life],
    landed: &[ByColor<Bitboard>],
    counts: &mut Counts,
) {
    let (pos, statics) = (known.pos, known.statics);
    counts.positions += 1;
    for c in Color::ALL {
        let landing = capture_landings(known, c);
        if landing != Bitboard::FULL {
            let real = *landed[p].get(c);
            assert!(
                real.is_subset(landing),
                "{c:?}'s captures landed on {real:?}, not all within {landing:?}: {}",
                pos.fen()
            );
            counts.landings += 1;
        }
    }
    for victim in Color::ALL {
        let at = || format!("ply {p}, victim {victim:?}: {}", pos.fen());
        // The victim's pawns by start file: on the board now (as pawns), promoted by now
        // (with the captures of their walk), or dead as pawns (with their last square).
        let second = victim.relative_rank(Rank::Second);
        let mut on_board = 0u8;
        let mut gone: Vec<(File, u32, Option<Square>)> = Vec::new();
        for g in File::ALL {
            let life = &lives[usize::from(Square::from_coords(g, second))];
            let alive = life.died.is_none_or(|d| d > p);
            match life.promoted.filter(|&q| q <= p) {
                Some(q) => gone.push((g, captures_until(life, q).0, None)),
                None if alive => on_board |= 1 << g as u8,
                None => {
                    let (n, sq) = captures_until(life, p);
                    gone.push((g, n, sq));
                }
            }
        }
        let taken = on_board_files(known, victim);
        assert_eq!(taken & !on_board, 0, "files taken: {taken:08b}, {}", at());
        counts.on_board += u64::from(taken.count_ones());
        let region = pawn_region(known, victim);
        for &(_, _, died) in &gone {
            if let Some(sq) = died {
                assert!(region.contains(sq), "died on {sq}, out of region: {}", at());
                counts.dead += 1;
            }
        }
        // The accounts run only where the victim has no promoted unit known.
        if known.promoted.get(victim).total > 0
            || (statics.promoted & pos.board().by_color(victim)).any()
        {
            continue;
        }
        let Some((table, budget)) = pawn_sets(known, victim) else {
            continue;
        };
        counts.accounts += 1;
        let cost = u32::from(table[usize::from(on_board)]);
        let board_captures: u32 = File::ALL
            .into_iter()
            .filter(|&g| on_board & 1 << g as u8 != 0)
            .map(|g| captures_until(&lives[usize::from(Square::from_coords(g, second))], p).0)
            .sum();
        assert!(
            cost <= budget && cost <= board_captures,
            "cost {cost} of the true files {on_board:08b}, budget {budget}, true captures \
             {board_captures}: {}",
            at()
        );
        let spare = budget - cost;
        let spent: u32 = gone.iter().map(|&(_, n, _)| n).sum();
        assert!(
            spent <= spare,
            "missing pawns made {spent} > {spare}: {}",
            at()
        );
        let walks = promotion_walks(known, victim);
        for &(g, _, died) in &gone {
            match died {
                None => {
                    assert!(
                        promotes_within(victim, &walks[g as usize], spare),
                        "the {g:?}-pawn promoted beyond {spare} captures: {}",
                        at()
                    );
                    counts.promoted += 1;
                }
                Some(sq) => {
                    let own = pawn_region_from(known, victim, g, spare);
                    assert!(own.contains(sq), "the {g:?}-pawn died on {sq}: {}", at());
                    counts.own_region += 1;
                }
            }
        }
    }
}

/// Some 290,000 pawns that died as pawns and 41,000 that promoted are checked in release.
#[test]
fn missing_pawns_die_where_their_accounts_place_them() {
    let games = if cfg!(debug_assertions) { 10 } else { 400 };
    let mut counts = Counts::default();
    let mut cache = PawnCache::new();
    for seed in 0..games {
        check_game(
            &game(seed, 60 + (seed as usize * 13) % 140),
            &mut cache,
            &mut counts,
        );
    }
    eprintln!("{games} games: {counts:?}");
    assert!(
        cfg!(debug_assertions) || counts.own_region > 1_000,
        "{counts:?}"
    );
    assert!(cfg!(debug_assertions) || counts.promoted > 10, "{counts:?}");
    assert!(
        cfg!(debug_assertions) || counts.landings > 1_000,
        "{counts:?}"
    );
}

/// The same facts on every position of the published proof games of the corpus.
#[test]
fn missing_pawns_of_published_proof_games_die_where_placed() {
    let mut counts = Counts::default();
    let mut cache = PawnCache::new();
    for (_, g) in retrace_testkit::published_proof_games() {
        check_game(&g, &mut cache, &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.dead > 300, "{counts:?}");
}
