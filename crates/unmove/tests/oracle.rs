//! Completeness and soundness at once, on small positions, against a brute-force oracle.
//!
//! The oracle knows nothing of the generator: it builds every candidate predecessor by geometry
//! alone (each unit of the retracting side put back on every empty square, as itself or as a pawn,
//! with or without any unit of the other side on the square it left; every en passant and castling
//! shape), lets shakmaty list the legal moves of each candidate, and keeps the moves that lead to
//! the position. Then it applies the retro state (frozen units, promoted marks, forced double step,
//! uncapture policy). The generator must produce exactly the same (move, predecessor board) pairs.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Instant;

use rand::{rngs::SmallRng, Rng, SeedableRng};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, Move, Piece, Position, PositionError, Rank,
    Role, Setup, Square,
};

type Pair = (Move, Board);

/// A shakmaty position with `turn` to move, validated as the generator's predecessors are:
/// too much material and impossible checks are history questions one move cannot settle.
fn chess(board: &Board, turn: Color, ep: Option<Square>) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = board.clone();
    setup.turn = turn;
    // Every right the board allows: rights only ever add castling moves.
    for color in Color::ALL {
        let rank = color.backrank();
        if board.piece_at(Square::from_coords(File::E, rank)) == Some(color.king()) {
            for file in [File::A, File::H] {
                let rook = Square::from_coords(file, rank);
                if board.piece_at(rook) == Some(color.rook()) {
                    setup.castling_rights.add(rook);
                }
            }
        }
    }
    setup.ep_square = ep;
    setup
        .position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// Adds every legal move of the candidate predecessor `before` that gives `after`.
fn collect(
    before: Board,
    after: &Board,
    mover: Color,
    eps: &[Option<Square>],
    out: &mut HashSet<Pair>,
) {
    for &ep in eps {
        let Some(pos) = chess(&before, mover, ep) else {
            continue;
        };
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            if next.board() == after && next.turn() == !mover {
                out.insert((m, before.clone()));
            }
        }
    }
}

/// Every (forward move, predecessor board) pair that forward chess and the retro state allow.
fn oracle(pos: &RetroPosition) -> HashSet<Pair> {
    let board = pos.board();
    let us = pos.retracting();
    let them = !us;
    let empty = !board.occupied();
    let mut found = HashSet::new();
    let uncaptured = [
        None,
        Some(Role::Pawn),
        Some(Role::Knight),
        Some(Role::Bishop),
        Some(Role::Rook),
        Some(Role::Queen),
        Some(Role::King),
    ];
    for to in board.by_color(us) {
        let Some(role) = board.role_at(to) else {
            continue;
        };
        let mut before_roles = vec![role];
        if role != Role::King && role != Role::Pawn {
            before_roles.push(Role::Pawn);
        }
        for from in empty {
            for &before_role in &before_roles {
                for captured in uncaptured {
                    let mut b = board.clone();
                    b.discard_piece_at(to);
                    b.set_piece_at(
                        from,
                        Piece {
                            color: us,
                            role: before_role,
                        },
                    );
                    if let Some(c) = captured {
                        b.set_piece_at(
                            to,
                            Piece {
                                color: them,
                                role: c,
                            },
                        );
                    }
                    collect(b, board, us, &[None], &mut found);
                }
            }
            // En passant shape: the arrival square empties, an enemy pawn stands beside the origin.
            if role == Role::Pawn {
                let victim = Square::from_coords(to.file(), from.rank());
                if victim != from && empty.contains(victim) {
                    let mut b = board.clone();
                    b.discard_piece_at(to);
                    b.set_piece_at(from, us.pawn());
                    b.set_piece_at(victim, them.pawn());
                    let mut eps = vec![None];
                    eps.extend(
                        Bitboard::from_rank(us.relative_rank(Rank::Sixth))
                            .into_iter()
                            .map(Some),
                    );
                    collect(b, board, us, &eps, &mut found);
                }
            }
        }
    }
    // Castling shape: king and rook back on their corners.
    let rank = us.backrank();
    for (king_now, rook_now, rook_home) in
        [(File::G, File::F, File::H), (File::C, File::D, File::A)]
    {
        let (king_now, rook_now) = (
            Square::from_coords(king_now, rank),
            Square::from_coords(rook_now, rank),
        );
        let (king_home, rook_home) = (
            Square::from_coords(File::E, rank),
            Square::from_coords(rook_home, rank),
        );
        if board.piece_at(king_now) == Some(us.king())
            && board.piece_at(rook_now) == Some(us.rook())
            && empty.contains(king_home)
            && empty.contains(rook_home)
        {
            let mut b = board.clone();
            b.discard_piece_at(king_now);
            b.discard_piece_at(rook_now);
            b.set_piece_at(king_home, us.king());
            b.set_piece_at(rook_home, us.rook());
            collect(b, board, us, &[None], &mut found);
        }
    }
    found.retain(|(m, b)| retro_state_allows(pos, *m, b));
    found
}

/// The retro facts of the position, applied to one forward-legal predecessor.
fn retro_state_allows(pos: &RetroPosition, m: Move, before: &Board) -> bool {
    let board = pos.board();
    // A frozen unit is where it always was.
    if pos
        .frozen()
        .into_iter()
        .any(|sq| before.piece_at(sq) != board.piece_at(sq))
    {
        return false;
    }
    let capture = matches!(
        m,
        Move::EnPassant { .. }
            | Move::Normal {
                capture: Some(_),
                ..
            }
    );
    if capture && !pos.uncaptures_allowed(pos.retracting()) {
        return false;
    }
    match m {
        Move::Put { .. } => return false,
        // A unit marked promoted did not stand unmoved on its corner.
        Move::Castle { king, rook } => {
            let (k, r) = if rook.file() > king.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let now = Bitboard::from_square(Square::from_coords(k, king.rank()))
                .with(Square::from_coords(r, king.rank()));
            if (now & pos.promoted()).any() {
                return false;
            }
        }
        _ => {}
    }
    match pos.forced_double_step() {
        Some(pawn) => matches!(m, Move::Normal { role: Role::Pawn, from, to, .. }
            if to == pawn && from.rank().distance(to.rank()) == 2),
        None => true,
    }
}

fn generated(pos: &RetroPosition) -> HashSet<Pair> {
    pos.retractions()
        .into_iter()
        .map(|r| (r.forward(), pos.retract(r).board().clone()))
        .collect()
}

fn describe(pos: &RetroPosition) -> String {
    let mut s = pos.fen();
    let _ = write!(
        s,
        " frozen {:?} promoted {:?}",
        pos.frozen().into_iter().collect::<Vec<_>>(),
        pos.promoted().into_iter().collect::<Vec<_>>()
    );
    for color in Color::ALL {
        if !pos.uncaptures_allowed(color) {
            let _ = write!(s, " no-uncapture {color}");
        }
    }
    s
}

fn name(m: Move) -> String {
    Retraction::from_forward(m).map_or_else(|| format!("{m:?}"), |r| r.to_string())
}

/// Differences between oracle and generator on one position, as text (empty when equal).
fn compare(pos: &RetroPosition) -> (String, usize) {
    let want = oracle(pos);
    let got = generated(pos);
    let mut text = String::new();
    let mut missing: Vec<String> = want.difference(&got).map(|(m, _)| name(*m)).collect();
    let mut extra: Vec<String> = got.difference(&want).map(|(m, _)| name(*m)).collect();
    missing.sort();
    extra.sort();
    if !missing.is_empty() || !extra.is_empty() {
        let _ = write!(
            text,
            "{}: missing {missing:?} extra {extra:?}",
            describe(pos)
        );
    }
    (text, want.len())
}

/// A rank relative to `color`, given 1..=8.
fn rel(color: Color, n: u32) -> Rank {
    color.relative_rank(Rank::new(n - 1))
}

/// Which rare rule a random position leans toward.
#[derive(Clone, Copy)]
enum Theme {
    Any,
    Castling,
    EnPassant,
    Promotion,
}

/// A random small position aimed at the rare rules. `None` when the drawn squares collide.
fn random_position(
    rng: &mut SmallRng,
    units: std::ops::RangeInclusive<usize>,
) -> Option<RetroPosition> {
    let theme = [
        Theme::Any,
        Theme::Castling,
        Theme::EnPassant,
        Theme::Promotion,
    ][rng.gen_range(0..4)];
    let mut board = Board::empty();
    let retracting = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let place = |board: &mut Board, sq: Square, piece: Piece| {
        if board.occupied().contains(sq) {
            return false;
        }
        board.set_piece_at(sq, piece);
        true
    };
    for color in Color::ALL {
        let rank = color.backrank();
        let sq = match (theme, rng.gen_range(0..10)) {
            (_, 0..=2) | (Theme::Castling, 3) => Square::from_coords(File::E, rank),
            (Theme::Castling, 4..=6) | (_, 3) => Square::from_coords(File::G, rank),
            (Theme::Castling, 7..=9) | (_, 4) => Square::from_coords(File::C, rank),
            _ => Square::new(rng.gen_range(0..64)),
        };
        if !place(&mut board, sq, color.king()) {
            return None;
        }
        // A castled-looking king usually has its rook beside it; an unmoved one its corner rooks.
        if matches!(theme, Theme::Castling) {
            let rook_files: &[File] = match sq.file() {
                File::G => &[File::F, File::A],
                File::C => &[File::D, File::H],
                File::E => &[File::A, File::H],
                _ => &[],
            };
            for &file in rook_files {
                if rng.gen_bool(0.7) {
                    place(&mut board, Square::from_coords(file, rank), color.rook());
                }
            }
        }
    }
    let total = rng.gen_range(units);
    let extra = total.saturating_sub(board.occupied().count());
    for _ in 0..extra {
        let color = if rng.gen_bool(0.6) {
            retracting
        } else {
            !retracting
        };
        let role = match (theme, rng.gen_range(0..20)) {
            (Theme::EnPassant, 0..=13) | (_, 0..=7) => Role::Pawn,
            (_, 8..=10) => Role::Knight,
            (_, 11..=13) => Role::Bishop,
            (_, 14..=16) => Role::Rook,
            _ => Role::Queen,
        };
        let file = File::new(rng.gen_range(0..8));
        let sq = match (theme, role) {
            // Pawns on the ranks where en passant happens, for both sides.
            (Theme::EnPassant, Role::Pawn) => {
                Square::from_coords(file, rel(color, [4, 5, 6, 6, 2][rng.gen_range(0..5)]))
            }
            // Near promotion, on the en passant ranks, or anywhere a pawn may stand.
            (_, Role::Pawn) => Square::from_coords(
                file,
                rel(color, [7, 7, 7, 2, 4, 5, 6, 6, 3][rng.gen_range(0..9)]),
            ),
            (Theme::Promotion, _) => Square::from_coords(
                file,
                if rng.gen_bool(0.8) {
                    rel(color, 8)
                } else {
                    rel(color, 1)
                },
            ),
            (_, Role::Rook) if rng.gen_bool(0.4) => {
                let f = [File::A, File::H, File::F, File::D][rng.gen_range(0..4)];
                Square::from_coords(f, color.backrank())
            }
            _ if rng.gen_bool(0.4) => Square::from_coords(
                file,
                if rng.gen_bool(0.7) {
                    rel(color, 8)
                } else {
                    rel(color, 1)
                },
            ),
            _ => Square::new(rng.gen_range(0..64)),
        };
        if !place(&mut board, sq, Piece { color, role }) {
            return None;
        }
    }
    // Castling rights name unmoved kings and rooks; the FEN freezes them.
    let mut rights = String::new();
    for (color, letters) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        let rank = color.backrank();
        if board.piece_at(Square::from_coords(File::E, rank)) == Some(color.king()) {
            for (file, letter) in [(File::H, letters[0]), (File::A, letters[1])] {
                if board.piece_at(Square::from_coords(file, rank)) == Some(color.rook())
                    && rng.gen_bool(0.5)
                {
                    rights.push(letter);
                }
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    // Sometimes an en passant square behind a pawn of the retracting side that could have double
    // stepped (the FEN rejects it otherwise, which is tested in bad_input.rs).
    let mut ep = "-".to_owned();
    if rng.gen_bool(if matches!(theme, Theme::EnPassant) {
        0.5
    } else {
        0.1
    }) {
        let fourth =
            board.pawns() & board.by_color(retracting) & Bitboard::from_rank(rel(retracting, 4));
        if let Some(pawn) = fourth.into_iter().next() {
            let behind = Square::from_coords(pawn.file(), rel(retracting, 3));
            let start = Square::from_coords(pawn.file(), rel(retracting, 2));
            if empty_at(&board, behind) && empty_at(&board, start) {
                ep = behind.to_string();
            }
        }
    }
    let turn = if retracting == Color::White { 'b' } else { 'w' };
    let fen = format!("{} {turn} {rights} {ep} 0 1", board.board_fen());
    let mut pos =
        RetroPosition::from_fen(&fen).unwrap_or_else(|e| panic!("valid FEN {fen} refused: {e}"));
    for sq in board.occupied() {
        if rng.gen_bool(0.08) && pos.forced_double_step() != Some(sq) {
            pos.mark_frozen(sq).expect("occupied square");
        }
        let role = board.role_at(sq);
        if matches!(
            role,
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        ) && rng.gen_bool(0.12)
        {
            pos.mark_promoted(sq).expect("a piece");
        }
    }
    for color in Color::ALL {
        if rng.gen_bool(0.12) {
            pos.set_uncaptures_allowed(color, false);
        }
    }
    Some(pos)
}

fn empty_at(board: &Board, sq: Square) -> bool {
    !board.occupied().contains(sq)
}

/// What the sample covered, so the test shows it reached the rare rules.
#[derive(Default, Debug)]
struct Reach {
    positions: usize,
    with_retractions: usize,
    pairs: usize,
    en_passant: usize,
    castling: usize,
    unpromotions: usize,
    uncaptures: usize,
    forced: usize,
}

/// `RETRACE_ORACLE_SCALE=n` multiplies the sample and `RETRACE_ORACLE_SEED=s` shifts the seeds,
/// for a longer bug hunt; the defaults keep the suite fast and deterministic.
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn run(seed: u64, positions: usize, units: std::ops::RangeInclusive<usize>) -> Reach {
    let positions = positions * env_number("RETRACE_ORACLE_SCALE", 1) as usize;
    let mut rng = SmallRng::seed_from_u64(
        seed ^ env_number("RETRACE_ORACLE_SEED", 0).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    let mut reach = Reach::default();
    let mut failures = Vec::new();
    let mut generated_positions = 0;
    while generated_positions < positions {
        let Some(root) = random_position(&mut rng, units.clone()) else {
            continue;
        };
        generated_positions += 1;
        // Also test predecessors, whose retro state the generator itself left: after en passant
        // (a forced double step), after uncastling (frozen pair), after moving a promoted unit.
        let mut queue = vec![root];
        let mut depth_left = 2;
        while depth_left > 0 && !queue.is_empty() {
            depth_left -= 1;
            let mut next = Vec::new();
            for pos in queue {
                reach.positions += 1;
                let (diff, pairs) = compare(&pos);
                if !diff.is_empty() {
                    failures.push(diff);
                }
                reach.pairs += pairs;
                reach.with_retractions += usize::from(pairs > 0);
                reach.forced += usize::from(pos.forced_double_step().is_some());
                let retractions = pos.retractions();
                for &r in &retractions {
                    match r.forward() {
                        Move::EnPassant { .. } => reach.en_passant += 1,
                        Move::Castle { .. } => reach.castling += 1,
                        Move::Normal {
                            promotion, capture, ..
                        } => {
                            reach.unpromotions += usize::from(promotion.is_some());
                            reach.uncaptures += usize::from(capture.is_some());
                        }
                        Move::Put { .. } => {}
                    }
                }
                let special = |r: &&Retraction| {
                    r.is_en_passant()
                        || r.castling_side().is_some()
                        || pos.promoted().contains(r.current_square())
                };
                next.extend(
                    retractions
                        .iter()
                        .filter(special)
                        .take(2)
                        .map(|&r| pos.retract(r)),
                );
                if !retractions.is_empty() {
                    next.push(pos.retract(retractions[rng.gen_range(0..retractions.len())]));
                }
            }
            queue = next;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} positions differ:\n{}",
        failures.len(),
        reach.positions,
        failures.join("\n")
    );
    reach
}

fn check_reach(reach: &Reach, scale: usize) {
    eprintln!("{reach:?}");
    assert!(
        reach.with_retractions * 2 > reach.positions,
        "too many dead positions: {reach:?}"
    );
    assert!(
        reach.en_passant >= scale && reach.castling >= scale && reach.unpromotions >= 10 * scale,
        "{reach:?}"
    );
    assert!(
        reach.uncaptures >= 100 * scale && reach.forced >= scale,
        "{reach:?}"
    );
}

// Two independent seeds of small positions (3 to 7 units), then a denser sample (8 to 12 units)
// where sliders, blockers and discovered checks are common.
#[test]
fn oracle_agrees_small_positions_seed_a() {
    let start = Instant::now();
    let reach = run(0x5eed_0001, 8000, 3..=7);
    eprintln!("oracle small a: {:.2?}", start.elapsed());
    check_reach(&reach, 200);
}

#[test]
fn oracle_agrees_small_positions_seed_b() {
    let start = Instant::now();
    let reach = run(0x5eed_0002, 8000, 3..=7);
    eprintln!("oracle small b: {:.2?}", start.elapsed());
    check_reach(&reach, 200);
}

#[test]
fn oracle_agrees_dense_positions() {
    let start = Instant::now();
    let reach = run(0x5eed_0003, 1500, 8..=12);
    eprintln!("oracle dense: {:.2?}", start.elapsed());
    check_reach(&reach, 20);
}

/// Full-board positions from the testkit's games: many units, real castling rights and en passant
/// squares. The oracle is slow here (every unit to every empty square), so only a sample.
#[test]
fn oracle_agrees_on_game_positions() {
    let start = Instant::now();
    let offset = env_number("RETRACE_ORACLE_SEED", 0) * 1_000_003;
    let games = 100 * env_number("RETRACE_ORACLE_SCALE", 1);
    let mut failures = Vec::new();
    let mut positions = 0;
    let mut pairs = 0;
    for seed in 0..games {
        let game = retrace_testkit::random_game(0x9a3e_0000 + offset + seed, 300);
        for chess in game
            .positions
            .iter()
            .skip(1 + (seed % 11) as usize)
            .step_by(11)
        {
            let pos = retrace_testkit::retro_position(chess);
            let (diff, n) = compare(&pos);
            positions += 1;
            pairs += n;
            if !diff.is_empty() {
                failures.push(diff);
            }
        }
    }
    eprintln!(
        "oracle on game positions: {positions} positions, {pairs} pairs ({:.2?})",
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} of {positions} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        positions >= 2000 && pairs >= 2000 * 20,
        "{positions} positions, {pairs} pairs"
    );
}
