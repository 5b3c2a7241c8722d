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

use shakmaty::{Bitboard, ByColor, Color, File, Position, Rank, Square};

use super::super::timing_games::{game, lives, Life};
use super::capture_landings;
use super::late::{self, promotion_reach};
use super::{
    on_board_files, pawn_region, pawn_region_from, pawn_sets, promotes_within, promotion_walks,
};
use crate::known::{with_known, Known};
use crate::pawns::PawnCache;
use crate::promotion::walls_walks_around;

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
    /// Missing pawns that [`late::late`] placed.
    late: u64,
    /// Of them, pawns that promoted.
    late_promoted: u64,
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
            check_position(g, known, p, &lives, &landed, counts)
        });
    }
}

/// Checks the facts of the module documentation on the position `p` of a game whose units lived
/// `lives`, each side's captures having landed on `landed`.
fn check_position(
    game: &retrace_testkit::Game,
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
        check_late(game, p, known, victim, spare, &gone, lives, counts);
    }
}

/// The facts of [`late`] on the missing pawns `gone` of `victim` at position `p` of `game`,
/// whose accounts leave `spare` captures: a pawn that promoted could, around the squares next to
/// a king that never moved; where [`late::late`] places a pawn, it promoted after the moves of
/// the pawns it names (they stood on their squares by then), its promoted unit never died on
/// those squares, and one on the board now is one that [`late::promoted_reaches`] lets come.
#[allow(clippy::too_many_arguments)]
fn check_late(
    game: &retrace_testkit::Game,
    p: usize,
    known: &Known<'_>,
    victim: Color,
    spare: u32,
    gone: &[(File, u32, Option<Square>)],
    lives: &[Life],
    counts: &mut Counts,
) {
    let at = || format!("ply {p}, victim {victim:?}: {}", known.pos.fen());
    let walls = late::check_walls(known, victim);
    let walks = walls_walks_around(victim, known.statics, walls, known.walks);
    let second = victim.relative_rank(Rank::Second);
    for &(g, _, died) in gone {
        let region = pawn_region_from(known, victim, g, spare);
        let life = &lives[usize::from(Square::from_coords(g, second))];
        if died.is_none() {
            assert!(
                promotes_within(victim, &walks[g as usize], spare),
                "the {g:?}-pawn promoted past a king that never moved: {}",
                at()
            );
        }
        let Some(l) = late::late(known, victim, g, spare, walls, &walks, region) else {
            continue;
        };
        counts.late += 1;
        if let Some(sq) = died {
            assert!(
                l.region.contains(sq),
                "the {g:?}-pawn died on {sq}: {}",
                at()
            );
            continue;
        }
        let q = life.promoted.expect("promoted");
        let then = game.positions[q].board();
        for s in l.after {
            assert_eq!(
                then.piece_at(s),
                Some(victim.other().pawn()),
                "the {g:?}-pawn promoted at ply {q} before the pawn came to {s}: {}",
                at()
            );
        }
        counts.late_promoted += 1;
        let last = life
            .path
            .iter()
            .rev()
            .find(|(ply, _)| *ply <= p)
            .map(|x| x.1);
        let last = last.expect("a square");
        match life.died.filter(|&d| d <= p) {
            Some(_) => assert!(
                l.region.contains(last) && !l.after.contains(last),
                "the {g:?}-pawn's promoted unit died on {last}: {}",
                at()
            ),
            None => {
                let role = game.positions[p].board().role_at(last).expect("a unit");
                let squares = promotion_reach(victim, &walks[g as usize], spare);
                assert!(
                    late::promoted_reaches(
                        known,
                        victim,
                        squares,
                        l.after,
                        role,
                        Bitboard::from_square(last)
                    ),
                    "the {g:?}-pawn's promoted {role:?} stands on {last}: {}",
                    at()
                );
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
    // Some 2,000 missing pawns placed by the late promotions' rule in release.
    assert!(cfg!(debug_assertions) || counts.late > 100, "{counts:?}");
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
    // Pawns that promoted late, after the other side's pawn left the square their walk passed.
    assert!(counts.late_promoted > 0, "{counts:?}");
}

/// [`check_game`], and no position of `game` called illegal by the whole analysis.
fn check_analysed(
    game: &retrace_testkit::Game,
    cache: &mut PawnCache,
    counts: &mut Counts,
    analyzer: &mut crate::Analyzer,
) {
    check_game(game, cache, counts);
    for chess in &game.positions {
        let pos = retrace_testkit::retro_position(chess);
        let a = analyzer.analyze(&pos);
        assert!(
            a.reasons.is_empty(),
            "false illegal {}: {:?}",
            pos.fen(),
            a.reasons
        );
    }
}

/// Games whose kings and rooks seldom move (so castling rights freeze them for long) while pawns
/// capture and promote often: where the late promotions of [`late`] arise.
fn frozen_kings_game(seed: u64) -> retrace_testkit::Game {
    use shakmaty::{Move, Role};
    let weight = |pos: &shakmaty::Chess, m: Move| -> u32 {
        let home = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        match m {
            Move::Castle { .. } => 1,
            Move::Normal {
                role: Role::King, ..
            } => 1,
            Move::Normal {
                role: Role::Rook,
                from,
                ..
            } if home.contains(from) && pos.castles().has(pos.turn(), m_side(from)) => 1,
            Move::Normal {
                promotion: Some(_), ..
            } => 80,
            Move::Normal {
                role: Role::Pawn,
                capture: Some(_),
                ..
            }
            | Move::EnPassant { .. } => 60,
            Move::Normal {
                role: Role::Pawn, ..
            } => 25,
            _ => 6,
        }
    };
    retrace_testkit::random_game_with(seed ^ 0x1a7e, 60 + (seed as usize * 17) % 160, weight)
}

/// The castling side of a rook on its home square `from`.
fn m_side(from: Square) -> shakmaty::CastlingSide {
    if from.file() < File::E {
        shakmaty::CastlingSide::QueenSide
    } else {
        shakmaty::CastlingSide::KingSide
    }
}

/// The facts of [`late`] on games whose kings keep their castling rights, and no position of
/// them called illegal.
#[test]
fn late_promotions_beside_kings_that_never_moved() {
    let games = if cfg!(debug_assertions) { 20 } else { 600 };
    let mut counts = Counts::default();
    let mut cache = PawnCache::new();
    let mut analyzer = crate::Analyzer::new();
    for seed in 0..games {
        let game = frozen_kings_game(seed);
        check_analysed(&game, &mut cache, &mut counts, &mut analyzer);
    }
    eprintln!("{games} games: {counts:?}");
    assert!(cfg!(debug_assertions) || counts.late > 100, "{counts:?}");
}

/// Games where a black pawn promotes through c2 after White's c2xb3, beside Ke1 that never
/// moved: the promoted queen is taken on c1, or the promoted knight stays shut in on c1 (a2, e2
/// and d3 hold White's pawns, b3 the pawn that moved). Every position keeps the facts of
/// [`late`], none is called illegal, and the late promotion is really placed.
#[test]
fn late_promotions_of_played_games() {
    let opening = "1. d3 Nc6 2. Bf4 Na5 3. Nd2 Nb3 4. cxb3 d5 5. Qc2 d4 6. Qc3 dxc3 7. h3 c2 8. h4";
    let mut counts = Counts::default();
    let mut cache = PawnCache::new();
    let mut analyzer = crate::Analyzer::new();
    for end in ["c1=Q+ 9. Rxc1 e5 10. Ngf3", "c1=N 9. Ngf3 e5 10. Rb1"] {
        let game = retrace_testkit::replay_score(&format!("{opening} {end}"));
        check_analysed(&game, &mut cache, &mut counts, &mut analyzer);
    }
    eprintln!("{counts:?}");
    assert!(counts.late_promoted > 0, "{counts:?}");
}

/// The analyser's memo of the late promotions ([`late::LateMemo`]) changes no answer: along the
/// games of [`frozen_kings_game`], one memo kept across every position gives [`late::late`] the
/// answer a fresh memo gives, for every side, file, spare count and walls.
#[test]
fn the_late_memo_answers_as_a_fresh_one() {
    let games = if cfg!(debug_assertions) { 10 } else { 200 };
    let shared = late::LateMemo::default();
    let (mut asked, mut placed) = (0u64, 0u64);
    let mut cache = PawnCache::new();
    for seed in 0..games {
        for chess in &frozen_kings_game(seed).positions {
            let pos = retrace_testkit::retro_position(chess);
            with_known(&pos, &mut cache, |fresh| {
                let kept = Known {
                    late: &shared,
                    ..*fresh
                };
                for victim in Color::ALL {
                    let walls = late::check_walls(fresh, victim);
                    let walks = walls_walks_around(victim, fresh.statics, walls, fresh.walks);
                    for g in File::ALL {
                        for spare in 0..4 {
                            let region = pawn_region_from(fresh, victim, g, spare);
                            let answer = late::late(fresh, victim, g, spare, walls, &walks, region);
                            let memo = late::late(&kept, victim, g, spare, walls, &walks, region);
                            assert_eq!(answer, memo, "{} {victim:?} {g:?} {spare}", pos.fen());
                            asked += 1;
                            placed += u64::from(answer.is_some());
                        }
                    }
                }
            });
        }
    }
    eprintln!("{asked} asked, {placed} placed");
    assert!(
        cfg!(debug_assertions) || placed > 1_000,
        "only {placed} placed"
    );
}

/// The analyser's memos ([`late::LateMemo`], [`super::OrdersMemo`], with its other caches)
/// change no verdict: one analyser kept across the positions one retraction before those of
/// played games (many of them illegal, the capture matching among the reasons) gives each the
/// reasons a fresh analyser gives.
#[test]
fn a_kept_analyser_answers_as_a_fresh_one() {
    let games = if cfg!(debug_assertions) { 4 } else { 120 };
    let mut kept = crate::Analyzer::new();
    let (mut positions, mut unmatched) = (0u64, 0u64);
    for seed in 0..games {
        for game in [frozen_kings_game(seed), game(seed, 120)] {
            for chess in game.positions.iter().step_by(3) {
                let pos = retrace_testkit::retro_position(chess);
                for r in pos.retractions().into_iter().take(24) {
                    let before = pos.retract(r);
                    let codes = |a: crate::Analysis| -> Vec<_> {
                        a.reasons
                            .iter()
                            .map(|r| (r.code, r.message.clone()))
                            .collect()
                    };
                    let fresh = codes(crate::Analyzer::new().analyze_here(&before));
                    assert_eq!(codes(kept.analyze_here(&before)), fresh, "{}", before.fen());
                    positions += 1;
                    unmatched += u64::from(
                        fresh
                            .iter()
                            .any(|(c, _)| *c == crate::ReasonCode::CaptureUnmatched),
                    );
                }
            }
        }
    }
    eprintln!("{positions} positions, {unmatched} with unmatched captures");
    assert!(
        cfg!(debug_assertions) || unmatched > 100,
        "only {unmatched}"
    );
}
