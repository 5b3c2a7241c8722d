//! Completeness of the retraction generator against real games: every move of a tracked unit in a
//! legal game must be among the retractions the search generates, so that no verification can ever
//! close a branch a real game takes.

use rand::{rngs::SmallRng, Rng, SeedableRng};
use retrace_testkit::{move_squares, random_game, Game};
use shakmaty::{Bitboard, Board, ByColor, CastlingSide, Color, File, Move, Position, Square};

use super::carve::settles;
use super::format::{default_zone, INITIAL};
use super::generator::{all_home, Generator, Kind, Node, PawnCosts, State, Step};
use super::search::verify_flat;

/// The options of a flat verification within `max_nodes`.
fn flat(max_nodes: u64) -> crate::options::VerifyOptions {
    crate::options::VerifyOptions {
        max_nodes,
        ..crate::options::VerifyOptions::default()
    }
}
use super::*;

/// The step the search must generate for the real move `m` of `color`.
fn expected_step(m: &Move, color: Color) -> Step {
    match *m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => Step {
            color,
            role,
            from,
            to,
            promotion,
            kind: if capture.is_some() {
                Kind::Uncapture
            } else {
                Kind::Plain
            },
            leaves: false,
        },
        Move::EnPassant { from, to } => Step {
            color,
            role: shakmaty::Role::Pawn,
            from,
            to,
            promotion: None,
            kind: Kind::EnPassant,
            leaves: false,
        },
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            Step {
                color,
                role: shakmaty::Role::King,
                from: Square::from_coords(File::E, color.backrank()),
                to: side.king_to(color),
                promotion: None,
                kind: Kind::Castle(side),
                leaves: false,
            }
        }
        Move::Put { .. } => unreachable!("no drops in chess"),
    }
}

/// Whether generated step `got` covers the real move described by `want`.
fn covers_step(got: &Step, want: &Step) -> bool {
    let same = got.color == want.color
        && got.role == want.role
        && got.from == want.from
        && got.to == want.to
        && got.promotion == want.promotion;
    same && (got.kind == want.kind || (want.kind == Kind::Uncapture && got.kind == Kind::Plain))
}

/// The squares the real move `m` of `color` arrives on (units standing there after it).
fn arrival(m: &Move, color: Color) -> Bitboard {
    match *m {
        Move::Normal { to, .. } | Move::EnPassant { to, .. } => Bitboard::from_square(to),
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            Bitboard::from_square(side.king_to(color)).with(side.rook_to(color))
        }
        Move::Put { .. } => Bitboard::EMPTY,
    }
}

// Long by design: one walk back through the game whose every step is a check against the
// generator with its own failure message; split, the messages would lose their context.
/// Follows game `game` backwards from ply `ply` with the units `subset` tracked, checking every
/// step against the generator. Returns the number of tracked moves followed.
fn follow(game: &Game, ply: usize, cage: &Cage, store: &CageStore) -> Result<usize, String> {
    let fen =
        shakmaty::fen::Fen::from_position(&game.positions[ply], shakmaty::EnPassantMode::Legal);
    cage.validate().map_err(|e| format!("{fen} {cage}: {e}"))?;
    let mut gen = Generator::new(cage.zone, false, true);
    let Some(mut state) = gen.root(cage) else {
        return Err(format!("{fen} {cage}: the root was called illegal"));
    };
    // Captures each side made in the first t moves.
    let mut made = vec![ByColor::<u32>::default()];
    for (t, m) in game.moves.iter().enumerate() {
        let mut next = *made.last().unwrap_or(&ByColor::default());
        if m.is_capture() {
            *next.get_mut(game.positions[t].turn()) += 1;
        }
        made.push(next);
    }
    let mut followed = 0;
    let mut children = Vec::new();
    for t in (0..ply).rev() {
        let color = game.positions[t].turn();
        let m = &game.moves[t];
        let lands = arrival(m, color);
        let touched = (lands & state.node.board.occupied()).any();
        if let Some(p) = state.node.pending {
            if !lands.contains(p) {
                return Err(format!(
                    "{fen} {cage}: pending {p} at ply {} but the move there was {m:?}",
                    t + 1
                ));
            }
        }
        if !touched {
            continue;
        }
        let want = expected_step(m, color);
        gen.children(&state, &mut children);
        let Some((_, child)) = children.iter().find(|(s, _)| covers_step(s, &want)) else {
            let have: Vec<String> = children.iter().map(|(s, _)| s.to_string()).collect();
            return Err(format!(
                "{fen} {cage}: move {m:?} at ply {t} of tracked {} not generated; generated {have:?}",
                state.node.board.board_fen()
            ));
        };
        state = child.clone();
        followed += 1;
        for c in Color::ALL {
            if u32::from(*state.rem.get(c)) < *made[t].get(c) {
                return Err(format!(
                    "{fen} {cage}: allowance {:?} below real captures at ply {t}",
                    state.rem
                ));
            }
        }
        if store.known().proves(&state, true) {
            return Err(format!(
                "{fen} {cage}: a real node at ply {t} ({}) is closed by the store",
                state.node.board.board_fen()
            ));
        }
    }
    if state.node.pending.is_some() {
        return Err(format!("{fen} {cage}: pending at the start of the game"));
    }
    if !all_home(&state.node.board) {
        return Err(format!(
            "{fen} {cage}: not home at the start: {}",
            state.node.board.board_fen()
        ));
    }
    Ok(followed)
}

/// A random claim about units of position `ply` of `game`, true to the game (frozen units never
/// moved, capture bounds at least the real captures).
fn random_claim(game: &Game, ply: usize, rng: &mut SmallRng) -> Option<Cage> {
    let board = game.positions[ply].board();
    let p = [0.25, 0.5, 0.8, 1.0][rng.gen_range(0..4)];
    let mut sub = Board::empty();
    match rng.gen_range(0..3) {
        0 => {
            // A random box of squares.
            let (f0, r0) = (rng.gen_range(0..8u32), rng.gen_range(0..8u32));
            let (w, h) = (rng.gen_range(2..6u32), rng.gen_range(2..6u32));
            for sq in board.occupied() {
                let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
                if f >= f0 && f < f0 + w && r >= r0 && r < r0 + h {
                    sub.set_piece_at(sq, board.piece_at(sq)?);
                }
            }
        }
        _ => {
            for sq in board.occupied() {
                if rng.gen_bool(p) {
                    sub.set_piece_at(sq, board.piece_at(sq)?);
                }
            }
        }
    }
    if sub.occupied().is_empty() {
        return None;
    }
    let mut cage = Cage::new(sub.clone());
    cage.depth = MAX_DEPTH;
    match rng.gen_range(0..4) {
        0 => cage.zone = Bitboard::FULL,
        1 => cage.zone = default_zone(&sub) | Bitboard(rng.gen::<u64>() & rng.gen::<u64>()),
        _ => {}
    }
    let mut moved = Bitboard::EMPTY;
    for (t, m) in game.moves[..ply].iter().enumerate() {
        moved |= move_squares(m, game.positions[t].turn());
    }
    for sq in sub.occupied() & !moved {
        if INITIAL.piece_at(sq) == sub.piece_at(sq) && rng.gen_bool(0.5) {
            cage.frozen.add(sq);
        }
    }
    if rng.gen_bool(0.5) {
        for c in Color::ALL {
            let real = game.moves[..ply]
                .iter()
                .enumerate()
                .filter(|(t, m)| m.is_capture() && game.positions[*t].turn() == c)
                .count() as u8;
            if rng.gen_bool(0.7) {
                *cage.captures.get_mut(c) = Some((real + rng.gen_range(0..2)).min(15));
            }
        }
    }
    Some(cage)
}

#[test]
fn real_games_are_always_generated() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (store, errors) = CageStore::load(PUBLISHED);
    assert!(errors.is_empty(), "{errors:?}");
    let games = if cfg!(debug_assertions) { 60 } else { 1500 };
    let mut claims = 0;
    let mut followed = 0;
    for seed in 0..games {
        let game = random_game(seed, 40 + (seed as usize * 53) % 240);
        for ply in (1..game.positions.len()).step_by(7) {
            for _ in 0..3 {
                let Some(cage) = random_claim(&game, ply, &mut rng) else {
                    continue;
                };
                claims += 1;
                match follow(&game, ply, &cage, &store) {
                    Ok(n) => followed += n,
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
    eprintln!("{claims} claims, {followed} tracked moves followed back to the initial array");
    assert!(claims > 1000);
}

/// Cages that must verify, used as a store by the tests above.
const PUBLISHED: &str = "
8/8/8/8/8/8/PPkPP3/KR1b4
4B1rk/3ppKpp/8/8/8/8/8/8
Knrk4/BpppRp2/1p2p3/8/8/8/8/8
8/8/8/8/8/6P1/5PrP/7K
6b1/5pp1/6p1/8/8/8/8/8
8/8/8/8/8/P7/1P6/b7 captures=b0
";

#[test]
fn the_root_knows_who_moved_last() {
    let mut gen = Generator::new(Bitboard::FULL, false, true);
    // The white king is in check from the knight: Black moved last, with that knight.
    let cage = Cage::parse_line("8/8/8/8/8/2n5/8/1K6").expect("parses");
    let root = gen.root(&cage).expect("legal");
    assert_eq!(root.node.pending, Some(Square::C3));
    let mut children = Vec::new();
    gen.children(&root, &mut children);
    assert!(!children.is_empty());
    assert!(children
        .iter()
        .all(|(s, _)| s.to == Square::C3 && s.color == Color::Black));
    // Both kings in unblockable checks, or one king in two: illegal outright.
    let both = Cage::parse_line("8/8/8/8/1k6/P7/2n5/K7").expect("parses");
    assert!(gen.root(&both).is_none());
    let double = Cage::parse_line("8/8/8/8/8/1n6/1p6/K7").expect("parses");
    assert!(gen.root(&double).is_none());
    // A frozen checker never moved, so nothing explains the check.
    let frozen = Cage::parse_line("8/8/8/8/8/8/3p4/4K3 frozen=d2").map(|_| ());
    assert!(frozen.is_err(), "d2 is not a black pawn's home square");
}

#[test]
fn steps_are_written_in_retro_notation() {
    let step = Step {
        color: Color::White,
        role: shakmaty::Role::Knight,
        from: Square::A6,
        to: Square::B8,
        promotion: None,
        kind: Kind::Uncapture,
        leaves: false,
    };
    assert_eq!(step.to_string(), "Na6x?b8");
    let plain = Step {
        kind: Kind::Plain,
        ..step
    };
    assert_eq!(plain.to_string(), "Na6-b8");
    let promotion = Step {
        role: shakmaty::Role::Pawn,
        from: Square::A7,
        to: Square::B8,
        promotion: Some(shakmaty::Role::Bishop),
        ..step
    };
    assert_eq!(promotion.to_string(), "a7x?b8=B");
    let ep = Step {
        role: shakmaty::Role::Pawn,
        from: Square::E5,
        to: Square::D6,
        kind: Kind::EnPassant,
        ..step
    };
    assert_eq!(ep.to_string(), "e5xd6ep");
    let castle = Step {
        kind: Kind::Castle(CastlingSide::QueenSide),
        ..step
    };
    assert_eq!(castle.to_string(), "0-0-0");
}

/// Every node a successful verification expanded has no realization, and neither has any node
/// that contains it (its units on their squares, its frozen marks, its pending unit, no more
/// captures): later searches close such nodes wherever they occur, not only at their roots.
/// Keym's cage (r2-D-157's second hint cage), searched without reductions or pen cores, runs out
/// of nodes: the wanderers (queen, bishops, rooks) multiply the nodes around the one thing that
/// holds, the pen of the rook that castling would need. Once a verification has proven that pen
/// (White's pawns, the black pawn on e2, king and rooks on e1, f1, h1, e1 and h1 never moved),
/// the same search closes, although the pen is only ever a part of its nodes and is learnt, not
/// stored. The near miss: without the never-moved marks the units walk home (the learnt pen,
/// frozen, covers none of those nodes).
#[test]
fn nodes_proven_once_close_every_node_containing_them() {
    let keym = Cage::parse_line("8/8/8/8/6P1/2PPkPPB/1PrRpRPr/2BQK2R frozen=e1,h1").expect("claim");
    let budget = 20_000;
    assert_eq!(
        verify_flat(
            &keym,
            CageStore::new().known(),
            &flat(budget),
            &mut PawnCosts::default(),
            None
        )
        .1,
        Err(Failure::NodeLimit(budget))
    );
    let store = CageStore::new();
    let pen = Cage::parse_line("8/8/8/8/6P1/2PP1P2/1P2pPP1/4KR1R frozen=e1,h1").expect("claim");
    assert!(verify(&pen, &store).verified());
    assert!(store.is_empty());
    assert_eq!(
        verify_flat(
            &keym,
            store.known(),
            &flat(budget),
            &mut PawnCosts::default(),
            None
        )
        .1,
        Ok(())
    );
    let loose = Cage::parse_line("8/8/8/8/6P1/2PPkPPB/1PrRpRPr/2BQK2R").expect("claim");
    assert!(matches!(
        verify_flat(
            &loose,
            store.known(),
            &flat(budget),
            &mut PawnCosts::default(),
            None
        )
        .1,
        Err(Failure::AllHome | Failure::BoardEmpty)
    ));
}

/// A learnt node covers exactly the nodes every realization of which realizes it: its units on
/// the same squares (same colours and roles), its frozen units frozen, its pending unit pending,
/// and no larger capture allowance. Each condition broken alone keeps the node open.
#[test]
fn learnt_nodes_match_only_the_nodes_that_contain_them() {
    let state = |fen: &str, frozen: &[Square], pending: Option<Square>, rem: (u8, u8)| State {
        node: Node {
            board: fen.parse::<Board>().expect("board"),
            frozen: frozen.iter().copied().collect(),
            pending,
        },
        rem: ByColor {
            white: rem.0,
            black: rem.1,
        },
    };
    let store = CageStore::new();
    store.known().memo.learn(&state(
        "8/8/8/8/8/8/5RP1/4KR1R",
        &[Square::E1, Square::H1],
        Some(Square::F1),
        (3, 3),
    ));
    let crowd = "8/8/8/8/6P1/2PPkPPB/1PrRpRPr/2BQKR1R";
    let frozen = [Square::E1, Square::H1, Square::D1];
    assert!(store
        .known()
        .proves_by_containment(&state(crowd, &frozen, Some(Square::F1), (3, 2))));
    let misses = [
        // A white knight, not a rook, on f1.
        state(
            "8/8/8/8/6P1/2PPkPPB/1PrRpRPr/2BQKN1R",
            &frozen,
            Some(Square::F1),
            (3, 2),
        ),
        // A black rook on f1.
        state(
            "8/8/8/8/6P1/2PPkPPB/1PrRpRPr/2BQKr1R",
            &frozen,
            Some(Square::F1),
            (3, 2),
        ),
        // The pawn on g2 missing.
        state(
            "8/8/8/8/6P1/2PPkPPB/1PrRpR1r/2BQKR1R",
            &frozen,
            Some(Square::F1),
            (3, 2),
        ),
        // The rook on h1 may have moved.
        state(crowd, &[Square::E1], Some(Square::F1), (3, 2)),
        // Another unit made the last move, or none is known to have made it.
        state(crowd, &frozen, Some(Square::G2), (3, 2)),
        state(crowd, &frozen, None, (3, 2)),
        // Black may have made more captures.
        state(crowd, &frozen, Some(Square::F1), (3, 4)),
    ];
    for miss in &misses {
        assert!(!store.known().proves_by_containment(miss), "{miss:?}");
    }
}

/// A position that contains a learnt node anywhere is proven illegal by
/// [`CageStore::learnt_reason`], whatever else stands on the board (here a black king, a knight
/// and a white bishop, which no cluster of the cage attempt would try with the pen). The pen
/// proven first: White's king, the rooks on f1 and h1, the pawns around them, and Black's pawn on
/// e2, with e1 and h1 never moved; the position's castling right says so. The near misses: without
/// the right nothing is known to have stayed home, and with the g2 pawn on g3 the pen is open.
#[test]
fn positions_containing_a_learnt_node_are_illegal() {
    let store = CageStore::new();
    let pen = Cage::parse_line("8/8/8/8/6P1/2PP1P2/1P2pPP1/4KR1R frozen=e1,h1").expect("claim");
    assert!(verify(&pen, &store).verified());
    let caged = retrace_testkit::pos("k7/8/3n4/8/6P1/2PP1P2/1P2pPP1/1B2KR1R b K - 0 1");
    let reason = store.learnt_reason(&caged).expect("the learnt pen");
    assert_eq!(reason.code, retrace_legal::ReasonCode::Cage);
    let named: Bitboard = reason.squares.iter().copied().collect();
    assert!(named.is_subset(pen.board.occupied()), "{reason:?}");
    for open in [
        "k7/8/3n4/8/6P1/2PP1P2/1P2pPP1/1B2KR1R b - - 0 1",
        "k7/8/3n4/8/6P1/2PP1PP1/1P2pP2/1B2KR1R b K - 0 1",
    ] {
        assert_eq!(
            store.learnt_reason(&retrace_testkit::pos(open)),
            None,
            "{open}"
        );
    }
}

/// The node of the units of the board field `fen`, none frozen, none pending.
fn node(fen: &str) -> Node {
    Node {
        board: fen
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_setup()
            .board,
        frozen: Bitboard::EMPTY,
        pending: None,
    }
}

/// A king found beyond the walls of a pawn step taken back was shut out before that step
/// ([`super::search::walled_out_king`]): with Black's c-pawn back on c7 and b7, d7, e7, f7 and g7
/// never moved, the bishops on c8 and f8 never moved either, and Black's king cannot have left d8
/// and e8, so it cannot stand on a8. The corner of `knb2b2/rpPpppp1/p1p5` (r2-D-156 after c7xNb8=N
/// is taken back) is therefore a cage: the knight on b8 leaves only once the c6 pawn is back on
/// c7, and then the king on a8 is walled out. The near misses: without the f7 pawn the king can
/// have come round by f7 and b6, and neither the node nor the corner is closed.
#[test]
fn a_king_beyond_a_step_taken_back_is_walled_out() {
    use super::generator::{node_statics, walled_out_king};
    let shut = node("knb2b2/rpppppp1/p7/8/8/8/8/8");
    assert!(node_statics(&shut).contains(Square::C8) && node_statics(&shut).contains(Square::F8));
    assert_eq!(walled_out_king(&shut), Some(Square::A8));
    assert_eq!(walled_out_king(&node("knb2b2/rpppp1p1/p7/8/8/8/8/8")), None);
    // White's king the same way: behind its pawns with c1 and f1 never moved, only d1 is open;
    // with the c1 bishop gone the king can have walked to b1.
    assert_eq!(
        walled_out_king(&node("8/8/8/8/8/8/PPPPPPPP/1KBQ1B2")),
        Some(Square::B1)
    );
    assert_eq!(walled_out_king(&node("8/8/8/8/8/8/PPPPPPPP/1K1Q1B2")), None);
    let store = CageStore::new();
    let corner = Cage::parse_line("knb2b2/rpPpppp1/p1p5/8/8/8/8/8").expect("claim");
    assert!(verify(&corner, &store).verified());
    let open = Cage::parse_line("knb2b2/rpPppp2/p1p5/8/8/8/8/8").expect("claim");
    assert!(!verify(&open, &store).verified());
}

/// The walled-out king rule never closes a real node: in biased random games where kings walk and
/// pawns make single steps from their start squares far more often than anything else (so kings
/// often stand near pawn walls that closed after them), every position, tracked whole with the
/// units that truly never moved frozen, keeps both kings within their homes' floods.
#[test]
fn no_king_of_a_real_game_is_walled_out() {
    use retrace_testkit::random_game_with;
    use shakmaty::{Chess, Rank, Role};
    let weight = |pos: &Chess, m: Move| match m {
        Move::Castle { .. } => 200,
        Move::Normal {
            role: Role::King, ..
        } => 60,
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            capture: None,
            ..
        } if from.rank() == pos.turn().relative_rank(Rank::Second)
            && from.rank().distance(to.rank()) == 1 =>
        {
            40
        }
        Move::Normal {
            capture: Some(_), ..
        } => 10,
        _ => 4,
    };
    let games = if cfg!(debug_assertions) { 60 } else { 7500 };
    let mut counts = WalledCounts::default();
    for seed in 0..games {
        let game = random_game_with(seed, 40 + (seed as usize * 29) % 200, weight);
        check_walled_out(&game, &format!("seed {seed}"), &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(
        cfg!(debug_assertions) || counts.walled > 30_000,
        "{counts:?}"
    );
}

/// The same on every position of the published proof games of the corpus.
#[test]
fn no_king_of_a_published_proof_game_is_walled_out() {
    let mut counts = WalledCounts::default();
    for (id, game) in retrace_testkit::published_proof_games() {
        check_walled_out(&game, &id, &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.positions > 1_000, "{counts:?}");
}

/// What [`check_walled_out`] checked.
#[derive(Debug, Default)]
struct WalledCounts {
    positions: u64,
    /// Positions where the statics wall some squares off from White's king's home.
    walled: u64,
    /// Squares a king stood on, checked to lie in its home's flood.
    king_squares: u64,
}

/// Checks the walled-out king rule and its facts at every position of `game`, tracked whole
/// with the units that truly never moved frozen: no king is walled out, every static square's
/// unit never moved, and every square each king ever stood on (castling's passed square too)
/// lies in the flood from its home.
fn check_walled_out(game: &Game, name: &str, counts: &mut WalledCounts) {
    use super::generator::{node_statics, walled_out_king};
    use retrace_legal::text::squares_text;
    use shakmaty::{attacks, Role};
    let king = |t: usize, color: Color| game.positions[t].board().king_of(color).expect("a king");
    let mut moved = Bitboard::EMPTY;
    let mut walked = ByColor::new_with(|c| Bitboard::from_square(king(0, c)));
    for (t, pos) in game.positions.iter().enumerate() {
        if t > 0 {
            let mover = game.positions[t - 1].turn();
            moved |= move_squares(&game.moves[t - 1], mover);
            *walked.get_mut(mover) |= Bitboard::from_square(king(t, mover))
                | attacks::between(king(t - 1, mover), king(t, mover));
        }
        let board = pos.board().clone();
        let node = Node {
            frozen: board.occupied() & !moved,
            board,
            pending: None,
        };
        counts.positions += 1;
        let at = || format!("{name}, ply {t}: {}", node.board.board_fen());
        assert_eq!(walled_out_king(&node), None, "{}", at());
        let statics = node_statics(&node);
        assert!(
            (statics & moved).is_empty(),
            "{} static but moved: {}",
            squares_text(statics & moved),
            at()
        );
        let flood = |color: Color| {
            let home = Square::from_coords(File::E, color.backrank());
            retrace_legal::geometry::flood(Role::King, Bitboard::from_square(home), !statics)
        };
        for color in Color::ALL {
            let reach = flood(color);
            assert!(
                walked.get(color).is_subset(reach),
                "the {color:?} king stood on {} outside its flood: {}",
                squares_text(*walked.get(color) & !reach),
                at()
            );
            counts.king_squares += u64::from(walked.get(color).count() as u32);
        }
        if (flood(Color::White) | statics) != Bitboard::FULL {
            counts.walled += 1;
        }
    }
}

/// An original that could never leave its home square and is missing from it was captured there
/// ([`super::search::dead_at_home`]), and a promoted bishop on the wrong colour for every free
/// start file cost its pawn a capture: both count against the capturing side's allowance. With
/// Black's b7 and d7 pawns never moved, a white rook on c8 took the c8 bishop there, so it is a
/// cage when White made no capture, and not with one capture, nor when d7 is open (the bishop can
/// have left). With White's f1 bishop walled in by e2 and g2 and only the f-pawn missing (f8 is
/// dark), a second light bishop was promoted by a pawn that captured: a cage with no white
/// capture, not with one, nor when the missing pawn is the e-pawn (e8 is light). With the
/// charges switched off none of the three is proven.
#[test]
fn captures_at_home_and_for_promotions_are_charged() {
    use super::generator::{dead_at_home, node_statics};
    let rook = node("2R5/1p1p4/8/8/8/8/8/8");
    let dead = dead_at_home(&rook.board, node_statics(&rook), Color::Black);
    assert_eq!(dead.squares, Bitboard::from_square(Square::C8));
    assert_eq!(dead.beyond_pawns, Bitboard::from_square(Square::C8));
    // A rook's home: a pawn on b7 could have captured on a8, so only the plain count applies.
    let corner = node("Rn6/p7/8/8/8/8/8/8");
    let statics = node_statics(&corner) | Bitboard::from_square(Square::B8);
    let dead = dead_at_home(&corner.board, statics, Color::Black);
    assert_eq!(dead.squares, Bitboard::from_square(Square::A8));
    assert!(dead.beyond_pawns.is_empty());
    // The original itself, or an open neighbour: nothing.
    let home = node("2b5/1p1p4/8/8/8/8/8/8");
    assert!(dead_at_home(&home.board, node_statics(&home), Color::Black).count() == 0);
    let open = node("2R5/1p6/8/8/8/8/8/8");
    assert!(dead_at_home(&open.board, node_statics(&open), Color::Black).count() == 0);

    let off = VerifyOptions {
        capture_charges: false,
        ..VerifyOptions::default()
    };
    for (claim, cage) in [
        ("2R5/1p1p4/8/8/8/8/8/8 captures=w0", true),
        ("2R5/1p1p4/8/8/8/8/8/8 captures=w1", false),
        ("2R5/1p6/8/8/8/8/8/8 captures=w0", false),
        ("8/8/8/8/4B3/8/PPPPP1PP/5B2 captures=w0", true),
        ("8/8/8/8/4B3/8/PPPPP1PP/5B2 captures=w1", false),
        ("8/8/8/8/4B3/8/PPPP1PPP/5B2 captures=w0", false),
    ] {
        let cage_claim = Cage::parse_line(claim).expect("claim");
        assert_eq!(
            verify(&cage_claim, &CageStore::new()).verified(),
            cage,
            "{claim}"
        );
        assert!(
            !verify_with(&cage_claim, &CageStore::new(), &off).verified(),
            "{claim} without the charges"
        );
    }
}

/// The node rules never close a real node: in biased random games full of captures and bishop
/// promotions, every position, tracked whole with the units that truly never moved frozen and
/// each side's allowance the captures it really made, passes them. Many of those positions have
/// an original captured at home behind never-moved neighbours, or a promoted bishop.
#[test]
fn no_real_game_breaks_the_capture_charges() {
    use super::generator::{dead_at_home, node_statics};
    use retrace_testkit::random_game_with;
    use shakmaty::{Chess, Rank, Role};
    let weight = |_: &Chess, m: Move| match m {
        Move::Normal {
            promotion: Some(Role::Bishop),
            ..
        } => 400,
        Move::Normal {
            role: Role::Pawn, ..
        } => 30,
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } if to.rank() == Rank::First || to.rank() == Rank::Eighth => 200,
        Move::Normal {
            capture: Some(_), ..
        } => 20,
        _ => 4,
    };
    let games = if cfg!(debug_assertions) { 40 } else { 3000 };
    let (mut dead, mut promoted) = (0, 0);
    let mut gen = Generator::new(Bitboard::FULL, false, true);
    for seed in 0..games {
        let game = random_game_with(seed, 60 + (seed as usize * 37) % 200, weight);
        let mut moved = Bitboard::EMPTY;
        let mut captures = ByColor::new_with(|_| 0u8);
        for (t, pos) in game.positions.iter().enumerate() {
            if t > 0 {
                let (m, mover) = (&game.moves[t - 1], game.positions[t - 1].turn());
                moved |= move_squares(m, mover);
                if m.is_capture() {
                    *captures.get_mut(mover) += 1;
                }
            }
            let board = pos.board().clone();
            let mut state = State {
                node: Node {
                    frozen: board.occupied() & !moved & INITIAL.occupied(),
                    board,
                    pending: None,
                },
                rem: captures,
            };
            let statics = node_statics(&state.node);
            if Color::ALL
                .into_iter()
                .any(|c| dead_at_home(&state.node.board, statics, c).count() > 0)
            {
                dead += 1;
            }
            let bishops = state.node.board.bishops();
            if (bishops & Bitboard::LIGHT_SQUARES & state.node.board.white()).more_than_one()
                || (bishops & Bitboard::DARK_SQUARES & state.node.board.white()).more_than_one()
            {
                promoted += 1;
            }
            assert!(
                gen.finish(&mut state),
                "seed {seed}, ply {t}: {} with captures {captures:?}",
                state.node.board.board_fen()
            );
        }
    }
    eprintln!("{dead} positions with an original captured at home, {promoted} with a promoted white bishop");
    assert!(
        cfg!(debug_assertions) || (dead > 500 && promoted > 1_000),
        "{dead} {promoted}"
    );
}

/// The tempo search's count for its message: a bounded side's pawns' advances, and six moves for
/// each of its pieces on the last rank, which may take back its promotion (here the a8 rook, walled
/// in by a7 and b8, can be b7xa8=R taken back) and then walk down to the second rank. Frozen, it
/// counts nothing.
#[test]
fn tempo_count_includes_pieces_that_may_unpromote() {
    use super::exact::tempo_side;
    use retrace_unmove::RetroPosition;
    let mut p = RetroPosition::from_fen("Rn5k/P7/8/8/8/8/PP6/Kn6 b - -").expect("valid");
    let white = |p: &RetroPosition| tempo_side(p).filter(|t| t.side == Color::White);
    assert_eq!(white(&p).map(|t| t.steps), Some(5 + 6));
    p.mark_frozen(Square::A8).expect("occupied");
    assert_eq!(white(&p).map(|t| t.steps), Some(5));
}

/// The claims of `positions/cages.toml` with their stipulation (true: a cage).
fn cages_toml() -> Vec<(Cage, bool)> {
    #[derive(serde::Deserialize)]
    struct File {
        cage: Vec<Entry>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        cage: String,
        stipulation: String,
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../positions/cages.toml");
    let text = std::fs::read_to_string(path).expect("positions/cages.toml");
    let file: File = toml::from_str(&text).expect("cages.toml parses");
    file.cage
        .iter()
        .map(|e| {
            let cage = Cage::parse_line(&e.cage).expect("a cage line");
            (cage, e.stipulation == "cage")
        })
        .collect()
}

/// The heuristic that spares the cage attempt its probe ([`settles`]) passes over no cage of
/// the collection: in each, some unit can reach neither a home square of its kind nor the edge
/// of the zone on its own, whatever the others have done before (what a cage shuts in).
#[test]
fn no_cage_settles() {
    let cages = cages_toml();
    assert!(cages.iter().filter(|(_, caged)| *caged).count() >= 10);
    for (cage, caged) in &cages {
        if *caged {
            assert!(!settles(cage), "{cage} settles");
        }
    }
}

/// The trigger of [`settles`]: a claim of the deep solve of Brandis's corner (the white king
/// walks off, its rook is home, the pawns are home or uncapture home, every black unit walks out
/// of the zone) settles, and the verifier agrees it is no cage. A settled piece only blocks: in
/// the second claim the rook of a1, home, would sweep the first rank under the black king, but it
/// may step off and back, so the king walks out (the verifier agrees). The near miss is Brandis's
/// cage itself: the black king is kept off b3 by the pawn of a2, home for good, and off c1 by the
/// rook of b1, which is not home; it does not settle.
#[test]
fn a_claim_whose_units_walk_home_settles() {
    for walks in [
        "8/8/8/8/8/KPq1R3/1PbPP3/RNkb4 captures=w12,b8",
        "8/8/8/8/N7/KP6/1PbPP3/Rn1k4 captures=w12,b9",
    ] {
        let walks = Cage::parse_line(walks).expect("claim");
        assert!(settles(&walks), "{walks}");
        assert!(!verify(&walks, &CageStore::new()).verified(), "{walks}");
    }
    let near = Cage::parse_line("8/8/8/8/8/8/PPkPP3/KR1b4").expect("claim");
    assert!(!settles(&near));
    assert!(verify(&near, &CageStore::new()).verified());
}
