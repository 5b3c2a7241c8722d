//! Games aimed at the timing of [`super::matching`] ([`super::timing`]): pawns that capture on
//! almost every move (so their crossings have single landing squares), single steps from the
//! second rank onto squares an enemy pawn once stood on, captures onto second-rank squares whose
//! pawn stepped away, promotions, en passant and castling. Every position of every game must pass
//! the rules with the gates lifted, and the facts the timing's proof states must hold in the game
//! that was played ([`check_game`]): random games seldom let the matching try an ordered choice
//! before one matches, so the facts are checked on their own. A hand run of 20,000 games (2.6
//! million positions) checked some 60,000 crossings before a step (500 of pawns that promoted)
//! and 86 after one, with 1,800 timed matchings and no false illegal. The doors of
//! [`super::door`] are rarer still: 8,000 games (a million positions) checked the early units of
//! four and no original pushed out, so a played game that reaches one is checked on its own.

use rand::{rngs::SmallRng, Rng, SeedableRng};
use shakmaty::{
    attacks, fen::Fen, Bitboard, ByColor, Chess, Color, EnPassantMode, Move, Position, Rank, Role,
    Square,
};

use super::test_switch::{counts, ungated_on_games};

/// What a game remembers of its pawns, to steer the next moves.
struct Memory {
    /// The squares a pawn of each colour ever stood on.
    visited: ByColor<Bitboard>,
    /// The second-rank squares of each colour whose pawn left by a single step.
    stepped: ByColor<Bitboard>,
    /// The squares of each colour's pawns that moved only by captures so far: their crossings
    /// have single landing squares.
    pure: ByColor<Bitboard>,
}

impl Memory {
    fn new() -> Memory {
        Memory {
            visited: ByColor::default(),
            stepped: ByColor::default(),
            pure: ByColor::new_with(|c| Bitboard::from_rank(c.relative_rank(Rank::Second))),
        }
    }

    /// Follows `m`, played by `us`.
    fn play(&mut self, us: Color, m: Move) {
        let them = us.other();
        if let Move::EnPassant { from, to } = m {
            self.pure
                .get_mut(them)
                .discard(Square::from_coords(to.file(), from.rank()));
        }
        let to = m.to();
        self.pure.get_mut(them).discard(to);
        let Some(from) = m.from() else { return };
        if m.role() != Role::Pawn {
            return;
        }
        let was_pure = self.pure.get(us).contains(from);
        self.pure.get_mut(us).discard(from);
        if m.is_capture() && m.promotion().is_none() && was_pure {
            self.pure.get_mut(us).add(to);
        }
        if !m.is_capture()
            && from.rank() == us.relative_rank(Rank::Second)
            && from.rank().distance(to.rank()) == 1
        {
            self.stepped.get_mut(us).add(from);
        }
    }
}

/// How likely `m` is in `pos`, under the profile `p` (0 to 3: how strongly single steps and
/// captures are steered towards the squares of [`Memory`]; from 2 on, pawns that only captured
/// are fed pieces and promote).
fn weight(pos: &Chess, m: Move, mem: &Memory, p: u64) -> u32 {
    let us = pos.turn();
    let them = us.other();
    let board = pos.board();
    let second = us.relative_rank(Rank::Second);
    let steer = 1 + p as u32 * 4;
    match m {
        Move::EnPassant { .. } => 600,
        Move::Castle { .. } => 150,
        Move::Normal {
            promotion: Some(_),
            from,
            ..
        } => {
            if mem.pure.get(us).contains(from) {
                4000
            } else {
                400
            }
        }
        Move::Normal {
            role: Role::Pawn,
            capture: Some(victim),
            to,
            ..
        } => {
            let mut w = if p == 3 { 2000 } else { 120 };
            if p >= 2 && mem.pure.get(us).contains(m.from().expect("a pawn move")) {
                w *= 10;
            }
            // Landing where the other side's pawn stepped away from its start square.
            if mem.stepped.get(them).contains(to) {
                w *= 2 * steer;
            }
            // Killing a pawn of known history removes what the timing needs.
            if victim == Role::Pawn && them.relative_rank(to.rank()) == Rank::Third {
                w /= 6;
            }
            w
        }
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } => {
            if from.rank() == second && from.rank().distance(to.rank()) == 1 {
                // A single step onto a square an enemy pawn stood on (it left first).
                if mem.visited.get(them).contains(to) {
                    60 * steer
                } else {
                    6
                }
            } else if from.rank().distance(to.rank()) == 2 {
                4
            } else {
                // Few plain steps: crossings keep single landing squares.
                1
            }
        }
        Move::Normal {
            role, capture, to, ..
        } => {
            let guarded =
                (attacks::pawn_attacks(us, to) & board.pawns() & board.by_color(them)).any();
            let advanced =
                *mem.pure.get(them) & !Bitboard::from_rank(them.relative_rank(Rank::Second));
            let fed = (attacks::pawn_attacks(us, to) & advanced).any();
            let mut w = match (guarded, p) {
                (true, 3) => 400,
                (true, _) => 40,
                _ => 5,
            };
            if fed && p >= 2 {
                w *= 25;
            }
            if role == Role::King {
                w = 2;
            }
            if let Some(Role::Pawn) = capture {
                if them.relative_rank(to.rank()) == Rank::Third {
                    w = 1;
                }
            }
            // Pieces on the enemy's second rank can be taken there by pawns.
            if mem.stepped.get(them).contains(to) {
                w *= 2 * steer;
            }
            w
        }
        _ => 5,
    }
}

/// A game of at most `plies` plies drawn with [`weight`], the same for the same `seed`.
pub(super) fn game(seed: u64, plies: usize) -> retrace_testkit::Game {
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x7133_5eed);
    let profile = seed % 4;
    let mut pos = Chess::default();
    let mut mem = Memory::new();
    let mut out = retrace_testkit::Game {
        positions: vec![pos.clone()],
        moves: Vec::new(),
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let weights: Vec<u32> = moves
            .iter()
            .map(|&m| weight(&pos, m, &mem, profile))
            .collect();
        let mut pick = rng.gen_range(0..weights.iter().sum::<u32>());
        let mut chosen = moves[0];
        for (&m, &w) in moves.iter().zip(&weights) {
            if pick < w {
                chosen = m;
                break;
            }
            pick -= w;
        }
        let us = pos.turn();
        mem.play(us, chosen);
        pos.play_unchecked(chosen);
        *mem.visited.get_mut(us) |= pos.board().by_piece(us.pawn());
        out.moves.push(chosen);
        out.positions.push(pos.clone());
    }
    out
}

#[test]
fn never_false_on_games_aimed_at_the_timing() {
    let games = if cfg!(debug_assertions) { 10 } else { 600 };
    let before = counts();
    let positions = ungated_on_games(games, |seed| game(seed, 60 + (seed as usize * 13) % 140));
    let after = counts();
    let (matchings, timed, promoted) = (after.0 - before.0, after.1 - before.1, after.2 - before.2);
    eprintln!(
        "{positions} positions, {matchings} matchings, {timed} timed, {promoted} promoted orderings"
    );
    // Some 65 matchings in release order captures against steps (the first choice of start
    // files usually matches before an ordered one is tried; 8,000 games reach some 630).
    assert!(cfg!(debug_assertions) || timed > 20, "{timed} timed");
}

/// The life of one unit of a game, known by its start square.
#[derive(Clone, Default)]
pub(super) struct Life {
    /// The squares it arrived on, with the index of the position where it first stood there.
    pub(super) path: Vec<(usize, shakmaty::Square)>,
    /// The index of the position where it first stood promoted, if it promoted.
    pub(super) promoted: Option<usize>,
    /// The index of the first position without it, if it was captured.
    pub(super) died: Option<usize>,
}

/// Every unit's life along `moves` from the initial position, and each side's capture landings.
pub(super) fn lives(moves: &[Move]) -> (Vec<Life>, Vec<ByColor<Bitboard>>) {
    let start = Chess::default();
    let mut at: [Option<usize>; 64] = [None; 64];
    let mut out = vec![Life::default(); 64];
    for sq in start.board().occupied() {
        at[usize::from(sq)] = Some(usize::from(sq));
        out[usize::from(sq)].path.push((0, sq));
    }
    let mut pos = start;
    let mut landed = vec![ByColor::<Bitboard>::default()];
    for (i, &m) in moves.iter().enumerate() {
        let ply = i + 1;
        let us = pos.turn();
        let mut land = *landed.last().expect("start");
        let go = |at: &mut [Option<usize>; 64],
                  out: &mut Vec<Life>,
                  land: &mut ByColor<Bitboard>,
                  from: Square,
                  to: Square| {
            let id = at[usize::from(from)].take().expect("a unit moves");
            if let Some(dead) = at[usize::from(to)].replace(id) {
                out[dead].died = Some(ply);
                land.get_mut(us).add(to);
            }
            out[id].path.push((ply, to));
            id
        };
        match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => {
                let id = go(&mut at, &mut out, &mut land, from, to);
                if promotion.is_some() {
                    out[id].promoted = Some(ply);
                }
            }
            Move::EnPassant { from, to } => {
                let victim = Square::from_coords(to.file(), from.rank());
                let dead = at[usize::from(victim)].take().expect("en passant victim");
                out[dead].died = Some(ply);
                land.get_mut(us).add(to);
                go(&mut at, &mut out, &mut land, from, to);
            }
            Move::Castle { king, rook } => {
                let short = rook.file() > king.file();
                let (kf, rf) = if short {
                    (shakmaty::File::G, shakmaty::File::F)
                } else {
                    (shakmaty::File::C, shakmaty::File::D)
                };
                let (k, r) = (
                    at[usize::from(king)].take().expect("king"),
                    at[usize::from(rook)].take().expect("rook"),
                );
                let (kt, rt) = (
                    Square::from_coords(kf, king.rank()),
                    Square::from_coords(rf, rook.rank()),
                );
                at[usize::from(kt)] = Some(k);
                at[usize::from(rt)] = Some(r);
                out[k].path.push((ply, kt));
                out[r].path.push((ply, rt));
            }
            Move::Put { .. } => unreachable!("no drops in chess"),
        }
        landed.push(land);
        pos.play_unchecked(m);
    }
    (out, landed)
}

/// What [`check_game`] checked: crossings before a step (of pawns that promoted among them) and
/// after one, units behind a door and originals they pushed out.
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    before: u64,
    promoted: u64,
    after: u64,
    early: u64,
    pushed: u64,
}

impl std::ops::AddAssign for Checked {
    fn add_assign(&mut self, o: Checked) {
        self.before += o.before;
        self.promoted += o.promoted;
        self.after += o.after;
        self.early += o.early;
        self.pushed += o.pushed;
    }
}

/// The position at which the life `l` last arrived on the square it stands on at position `p`.
fn square_ply(l: &Life, p: usize) -> usize {
    l.path
        .iter()
        .take_while(|(ply, _)| *ply <= p)
        .last()
        .map_or(0, |&(ply, _)| ply)
}

/// Checks the facts of [`super::timing`] against the game itself at every position: the pawns
/// of known history and the origins the branches choose from hold the true ones; the order of
/// each pawn's crossings against the single steps of the pawns on their third rank (their true
/// origins, as in the branch of the true game), the walls standing until each step, and the
/// squares each original stood on before it (a pawn that promoted is checked with its true
/// promotion square, narrower than the candidates the matching unites); and for a pawn whose
/// last crossing landed only where it stands before a step, the facts of [`super::door`]: the
/// early units arrived before it, and the originals they pushed out died before the step, in
/// their regions.
fn check_game(g: &retrace_testkit::Game) -> Checked {
    use super::timing::{crossing_order, region_before, walls_before};
    use crate::{
        geometry::{home_role, Timed},
        statics::{analyze_statics, one_step_origins},
    };
    use shakmaty::File;
    let (lives, landed) = lives(&g.moves);
    let mut checked = Checked::default();
    for (p, pos) in g.positions.iter().enumerate() {
        let retro = retrace_testkit::retro_position(pos);
        let statics = analyze_statics(&retro, None);
        let fixed = statics.fixed;
        let alive = |l: &Life| l.died.is_none_or(|d| d > p);
        let square_at = |l: &Life, q: usize| {
            l.path
                .iter()
                .take_while(|(ply, _)| *ply <= q)
                .last()
                .map(|&(_, s)| s)
        };
        // The pawns on their third rank now, with their true origin and the position after
        // their step.
        let mut truth: Vec<(Timed, usize)> = Vec::new();
        for (id, l) in lives.iter().enumerate() {
            let start = Square::new(id as u32);
            let Some(Some(pc)) = (id < 64).then(|| Chess::default().board().piece_at(start)) else {
                continue;
            };
            if pc.role != Role::Pawn || !alive(l) || l.promoted.is_some_and(|q| q <= p) {
                continue;
            }
            let moved: Vec<_> = l.path.iter().filter(|(ply, _)| *ply <= p).collect();
            if moved.len() == 2 && pc.color.relative_rank(moved[1].1.rank()) == Rank::Third {
                let t = Timed {
                    color: pc.color,
                    from: start,
                    to: moved[1].1,
                };
                truth.push((t, moved[1].0));
            }
        }
        truth.truncate(16);
        let timed: Vec<Timed> = truth.iter().map(|x| x.0).collect();
        // The pawns of known history are true, and the branches hold the true origins.
        for t in statics.timed.iter() {
            assert!(
                timed.contains(&t),
                "{t:?} is not the game's: {}",
                Fen::from_position(pos, EnPassantMode::Legal)
            );
        }
        for t in &timed {
            let origins = one_step_origins(pos.board(), fixed, t.to).map(|o| o.1);
            assert!(
                origins.is_some_and(|o| o.contains(t.from)),
                "{t:?} not among the origins {origins:?}: {}",
                Fen::from_position(pos, EnPassantMode::Legal)
            );
        }
        for taker in Color::ALL {
            // Every pawn of the taker, on the board or promoted by now.
            for (id, l) in lives.iter().enumerate() {
                let start = Square::new(id as u32);
                if Chess::default().board().piece_at(start) != Some(taker.pawn())
                    || l.path.is_empty()
                {
                    continue;
                }
                let promoted = l.promoted.filter(|&q| q <= p);
                let end_ply = promoted.unwrap_or(p);
                if promoted.is_none() && !alive(l) {
                    continue;
                }
                let Some(end) = square_at(l, end_ply) else {
                    continue;
                };
                let gf = start.file() as usize;
                let n = (end.file() as usize).abs_diff(gf);
                if n == 0 || n > 7 {
                    continue;
                }
                let mut land = [Bitboard::EMPTY; 7];
                super::matching::add_crossings(taker, gf, end, n, &mut land);
                for l in &mut land {
                    *l &= !fixed;
                }
                // The crossings: the last arrival on each file between, as a pawn.
                let right = end.file() as usize > gf;
                let pawn_path: Vec<_> = l.path.iter().filter(|(ply, _)| *ply <= end_ply).collect();
                let crossing: Vec<(usize, Square)> = (1..=n)
                    .map(|k| {
                        let file = File::new(if right { gf + k } else { gf - k } as u32);
                        let &&(ply, sq) = pawn_path
                            .iter()
                            .rev()
                            .find(|(_, s)| s.file() == file)
                            .expect("entered every file between");
                        (ply, sq)
                    })
                    .collect();
                for (k, &(_, sq)) in crossing.iter().enumerate() {
                    assert!(
                        land[k].contains(sq),
                        "crossing {k} of the pawn from {start} on {sq} outside {:?}",
                        land[k]
                    );
                }
                let end_arg = promoted.is_none().then_some(end);
                let Some(before) = crossing_order(taker, end_arg, &land[..n], &timed) else {
                    panic!(
                        "the true start file {start} of the pawn on {end} refused against \
                         {timed:?}: {}",
                        Fen::from_position(pos, EnPassantMode::Legal)
                    );
                };
                for (k, &(ply, sq)) in crossing.iter().enumerate() {
                    for (i, &(t, step)) in truth.iter().enumerate() {
                        if before[k] & 1 << i != 0 {
                            checked.before += 1;
                            checked.promoted += u64::from(promoted.is_some());
                            assert!(
                                ply < step,
                                "crossing {k} onto {sq} (position {ply}) of the pawn from \
                                 {start} said to come before {t:?} (position {step}): {}",
                                Fen::from_position(pos, EnPassantMode::Legal)
                            );
                        }
                        // A crossing whose only landing square is a step's start square came
                        // after the step (the rule orders every later crossing after it too).
                        if land[k].single_square() == Some(t.from) {
                            checked.after += 1;
                            assert!(
                                ply > step,
                                "crossing {k} onto {sq} (position {ply}) of the pawn from \
                                 {start} came before {t:?} (position {step}): {}",
                                Fen::from_position(pos, EnPassantMode::Legal)
                            );
                        }
                    }
                }
                // The door of a pawn whose last crossing landed only where it stands.
                let last = before[n - 1];
                if promoted.is_some() || last == 0 || land[n - 1] != Bitboard::from_square(end) {
                    continue;
                }
                let arrival = crossing[n - 1].0;
                let early = super::door::early(pos.board(), fixed, end);
                for sq in early.without(end) {
                    let l = lives
                        .iter()
                        .find(|l| alive(l) && square_at(l, p) == Some(sq))
                        .expect("a unit stands there");
                    let came = square_ply(l, p);
                    checked.early += 1;
                    assert!(
                        came < arrival,
                        "the unit on {sq} came at {came}, not before the pawn on {end} at \
                         {arrival}: {}",
                        Fen::from_position(pos, EnPassantMode::Legal)
                    );
                }
                for (i, &(t, step)) in truth.iter().enumerate() {
                    if last & 1 << i == 0 {
                        continue;
                    }
                    let victim = taker.other();
                    let walls = walls_before(victim, fixed, t, *landed[p].get(taker));
                    let board = pos.board();
                    for d in
                        super::door::displaced(board, fixed, early, victim, walls, &statics.timed)
                    {
                        checked.pushed += 1;
                        let l = &lives[usize::from(d.home)];
                        let died = l.died.filter(|&q| q < step);
                        let at = died.and_then(|q| square_at(l, q - 1));
                        assert!(
                            at.is_some_and(|s| d.region.contains(s)),
                            "the original from {} said to die on {:?} before {t:?} (position \
                             {step}), died at {died:?} on {at:?}: {}",
                            d.home,
                            d.region,
                            Fen::from_position(pos, EnPassantMode::Legal)
                        );
                    }
                }
            }
        }
        // Walls and regions before each step, for each side's originals.
        for &(t, step) in &truth {
            for victim in Color::ALL {
                let capturable = landed[p].get(victim.other());
                let walls = walls_before(victim, fixed, t, *capturable);
                for w in walls {
                    for q in 0..step {
                        assert!(
                            g.positions[q].board().occupied().contains(w),
                            "wall {w} before {t:?} empty at position {q}: {}",
                            Fen::from_position(pos, EnPassantMode::Legal)
                        );
                    }
                }
                for h in Bitboard::from_rank(victim.backrank()) {
                    if home_role(victim, h).is_none_or(|r| r == Role::King) {
                        continue;
                    }
                    let region =
                        region_before(victim, Bitboard::from_square(h), walls, &statics.timed);
                    let l = &lives[usize::from(h)];
                    for &(ply, sq) in &l.path {
                        if ply < step {
                            assert!(
                                region.contains(sq),
                                "the original from {h} on {sq} at {ply}, before {t:?}, outside \
                                 {region:?}: {}",
                                Fen::from_position(pos, EnPassantMode::Legal)
                            );
                        }
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn the_timing_facts_hold_in_games_aimed_at_them() {
    let games = if cfg!(debug_assertions) { 10 } else { 600 };
    let mut checked = Checked::default();
    for seed in 0..games {
        checked += check_game(&game(seed, 60 + (seed as usize * 13) % 140));
    }
    eprintln!("{checked:?}");
    // Some 1,700 in release (8,000 games check some 24,000, 110 of pawns that promoted).
    assert!(
        cfg!(debug_assertions) || checked.before > 800,
        "{checked:?}"
    );
}

/// White's h-pawn captures its way to b8 through d6 and c7 before Black's d-pawn steps onto d6
/// (from d7, c7 or e7 as far as the board tells: the branches): the crossings of a pawn that
/// promoted, ordered before a step. Then the new queen takes a bishop and is taken in turn.
#[test]
fn a_pawn_that_promoted_through_a_square_a_pawn_later_stepped_onto() {
    let g = retrace_testkit::replay_score(
        "1. a3 Nf6 2. a4 Nh5 3. b3 Ng3 4. hxg3 g6 5. b4 Bh6 6. b5 Bf4 7. gxf4 e5 8. fxe5 a5 \
         9. c3 Ra6 10. c4 Rd6 11. exd6 c5 12. Ra2 Qc7 13. dxc7 d6 14. cxb8=Q Ke7 15. Qxc8 Rxc8 \
         16. Ra3 b6",
    );
    let before = counts();
    ungated_on_games(1, |_| g.clone());
    let checked = check_game(&g);
    let after = counts();
    eprintln!("{checked:?} orderings checked; counts {before:?} -> {after:?}");
    assert!(
        checked.promoted > 0,
        "no ordering of the promoted pawn: {checked:?}"
    );
}

/// White's f-pawn only captures: e3, d4, c5, b6 en passant (behind the pawn it takes) and a7,
/// the square Black's a-pawn had stepped from (that crossing came after the step); White's e-pawn
/// then steps onto e3 (from e2 or f2 as far as the board tells), after the captures on e3 and d4.
/// Then a bishop takes a knight and the g-pawn takes the bishop.
#[test]
fn a_pawn_that_took_en_passant_and_landed_where_a_pawn_had_stepped_from() {
    let g = retrace_testkit::replay_score(
        "1. a3 Nf6 2. a4 Ng4 3. b3 Ne3 4. fxe3 d5 5. b4 d4 6. exd4 c5 7. dxc5 b5 8. cxb6 a6 \
         9. e3 Ra7 10. bxa7 Bb7 11. Ra2 e5 12. Nf3 Bxf3 13. gxf3",
    );
    assert!(g.moves.iter().any(|m| m.is_en_passant()));
    ungated_on_games(1, |_| g.clone());
    let checked = check_game(&g);
    assert!(
        checked.before > 0 && checked.after > 0,
        "nothing ordered: {checked:?}"
    );
}

/// White's h-pawn captures on g3, f4, e5, d6 and c7 before Black's d7-d6, one rank a capture, so
/// it closed c7 before that step; the bishop on b8 and the king on a8 came in before it, and the
/// a8 rook, shut in a8 and b8 until then (b7 and c8 never moved before d7-d6), died there first:
/// the bishop took it on b8. The rule's facts hold, and the matching finds the bishop's capture.
#[test]
fn units_behind_a_door_and_the_rook_they_pushed_out() {
    let g = retrace_testkit::replay_score(
        "1. d4 c6 2. Bf4 Na6 3. e3 Rb8 4. Bxb8 Qb6 5. Bd6 h5 6. Bb4 Kd8 7. Nf3 Kc7 8. Nc3 Kb8 \
         9. a3 Ka8 10. Bd6 Nf6 11. Bb8 Ne4 12. b3 Ng3 13. hxg3 f5 14. Qd3 f4 15. gxf4 Rh6 \
         16. Kd2 Re6 17. a4 Re5 18. fxe5 Qc7 19. a5 Qd6 20. exd6 Nc7 21. dxc7 d6",
    );
    ungated_on_games(1, |_| g.clone());
    let checked = check_game(&g);
    eprintln!("{checked:?}");
    assert!(checked.early >= 2 && checked.pushed > 0, "{checked:?}");
}

/// Plays `score`, runs every position of it through the rules with the gates lifted and through
/// the facts of [`check_game`], and returns what was checked; the last position must also have no
/// reason at all with the gates on.
fn door_game(score: &str) -> Checked {
    let g = retrace_testkit::replay_score(score);
    ungated_on_games(1, |_| g.clone());
    let checked = check_game(&g);
    let last = g.positions.last().expect("a position");
    let a = crate::Analyzer::new().analyze(&retrace_testkit::retro_position(last));
    assert!(
        a.reasons.is_empty(),
        "{}: {:?}",
        Fen::from_position(last, EnPassantMode::Legal),
        a.reasons
    );
    eprintln!("{checked:?}");
    checked
}

/// The door on c7 again, but the black king goes in and out of a8 (by b8) twice before the door
/// shuts, and the a8 rook dies at home, to a knight, long before: the units behind the door still
/// came in before it, and the rook pushed out died where the rule says.
#[test]
fn a_king_that_left_the_corner_and_came_back_before_the_door_shut() {
    let checked = door_game(
        "1. d4 c6 2. Nc3 Qb6 3. Nb5 Na6 4. Nc7+ Kd8 5. Nxa8 h5 6. Nc7 h4 7. Nb5 Rh6 \
         8. Nc3 Kc7 9. Nf3 Kb8 10. Ng1 Ka8 11. Nf3 Kb8 12. Ng1 Ka8 13. Bf4 Nf6 14. Bc7 Ne4 \
         15. Bb8 Ng3 16. hxg3 f5 17. Qd3 f4 18. gxf4 Re6 19. Kd2 Re5 20. fxe5 Qc7 21. a3 Qd6 \
         22. exd6 Nc7 23. dxc7 d6",
    );
    assert!(checked.early >= 2 && checked.pushed > 0, "{checked:?}");
}

/// The door on c7 with the a8 rook alive behind it: a knight took the c8 bishop at home, so the
/// rook had c8 and d8 as well, stood there while the king passed b8 to a8, and is taken on d7
/// only after d7-d6. Nothing may be said pushed out.
#[test]
fn a_rook_that_stepped_aside_and_died_after_the_door_shut() {
    let checked = door_game(
        "1. d4 c6 2. Nc3 Qb6 3. Ne4 Na6 4. Nd6+ Kd8 5. Nxc8 h5 6. Nd6 h4 7. Ne4 Rc8 8. Nc3 Kc7 \
         9. Nf3 Kb8 10. Ng1 Ka8 11. Bf4 Rd8 12. Bc7 Nf6 13. Bb8 Ne4 14. a3 Ng3 15. hxg3 f5 \
         16. Qd3 f4 17. gxf4 Rh6 18. Kd2 Re6 19. a4 Re5 20. fxe5 Qc7 21. a5 Qd6 22. exd6 Nc7 \
         23. dxc7 d6 24. Qh3 Rd7 25. Qxd7",
    );
    assert!(checked.early >= 2, "{checked:?}");
}

/// The door on the other wing: White's a-pawn takes on b3, c4, d5, e6 and f7 before Black's
/// e7-e6, the f1 bishop came to g8 by f7 and the black king to h8 by g8 before it, and the h8
/// rook, shut in h8 and g8 until e7-e6 (the f8 bishop behind e7 and g7), died at home to a knight.
#[test]
fn a_door_on_f7_and_the_rook_the_king_pushed_out_of_h8() {
    let checked = door_game(
        "1. e3 f5 2. Nf3 Nf6 3. Ne5 a6 4. Ng6 b5 5. Nxh8 b4 6. Ng6 c5 7. Nf4 Kf7 8. Nd3 Kg8 \
         9. Nf4 Kh8 10. Bc4 b3 11. Bf7 c4 12. Bg8 d5 13. axb3 Nc6 14. bxc4 Ne5 15. cxd5 Qd6 \
         16. h3 Qe6 17. dxe6 Nf7 18. exf7 e6",
    );
    assert!(checked.early >= 2 && checked.pushed > 0, "{checked:?}");
}

/// Black's door on c2 (its h-pawn takes on g6, f5, e4, d3 and c2 before White's d2-d3), behind
/// which White's king came to a1 by castling long and then b1: a knight took the c1 bishop at
/// home, so the a1 rook was never shut in a1 and b1, and it castled out. Nothing may be said
/// pushed out.
#[test]
fn a_king_that_castled_long_behind_a_door_on_c2() {
    let checked = door_game(
        "1. c4 d6 2. Qb3 Nc6 3. e3 Nd4 4. Na3 Ne2 5. g4 Nxc1 6. g5 Ne2 7. g6 Nd4 8. O-O-O Nc6 \
         9. Kb1 a6 10. Ka1 Bf5 11. f4 Bc2 12. f5 Bb1 13. e4 hxg6 14. Qd3 gxf5 15. Nc2 fxe4 \
         16. h3 exd3 17. h4 dxc2 18. d3",
    );
    assert!(checked.early >= 2, "{checked:?}");
}

/// The unit behind the door on c7 came in by promotion: White's b-pawn took on c7 and then on b8,
/// becoming a bishop, after the black king had passed b8 to a8 (where a knight took the rook); the
/// h-pawn then takes on g3, f4, e5, d6 and c7 before d7-d6. The promoted bishop came in from c7,
/// before the door shut.
#[test]
fn a_unit_promoted_behind_a_door_before_it_shut() {
    let checked = door_game(
        "1. d4 c6 2. Nc3 Qb6 3. Nb5 Na6 4. Nc7+ Kd8 5. Nxa8 g5 6. Nc7 g4 7. Nb5 h5 8. Nc3 Kc7 \
         9. e3 Kb8 10. Bd3 Ka8 11. b4 Qc7 12. b5 Qd6 13. b6 e6 14. a3 Be7 15. a4 Bd8 16. a5 Bc7 \
         17. bxc7 Nb8 18. cxb8=B g3 19. hxg3 f5 20. Ra2 f4 21. gxf4 Rh6 22. Ra1 Rg6 23. Ra2 Rg5 \
         24. Ra1 Re5 25. fxe5 Ne7 26. Ra2 Nd5 27. exd6 Nc7 28. dxc7 d6",
    );
    assert!(checked.early >= 2 && checked.pushed > 0, "{checked:?}");
}

/// Every capture of White is a file change of a pawn: the d-pawn takes the c-pawn on c7 and the
/// a8 rook on b8, becoming a bishop (White keeps the c1 bishop, so it is promoted); the king then
/// walks in by c7 and b8 to a8, the bishop comes back to b8 by c7, and the h-pawn takes on g3, f4,
/// e5, d6 and c7 before d7-d6. Nothing of White lands on c8, so the a8 rook was shut in a8 and b8
/// and pushed out: the promotion's capture on b8 is the one that took it.
#[test]
fn a_rook_pushed_out_by_a_capture_that_promoted() {
    let checked = door_game(
        "1. d4 Na6 2. d5 Rb8 3. d6 g5 4. dxc7 g4 5. cxb8=B h5 6. Bd6 Rh6 7. Bb4 Qc7 8. Nc3 Qb6 \
         9. Nb1 Kd8 10. Nc3 Kc7 11. Nb1 Kb8 12. Nc3 Ka8 13. Bd6 Rg6 14. Bb8 f5 15. Nb1 g3 \
         16. hxg3 f4 17. gxf4 Rg5 18. Nc3 Re5 19. fxe5 Nf6 20. Nb1 Qd6 21. exd6 Nd5 22. Nc3 Ndc7 \
         23. dxc7 d6",
    );
    assert!(checked.early >= 2 && checked.pushed > 0, "{checked:?}");
}
