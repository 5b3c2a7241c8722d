//! The FEN's castling and en passant fields read exactly (`check --exact-fen`, `solve
//! --exact-fen`): a castling right the FEN lacks was lost, `-` for en passant says no en passant
//! capture was legal. Each of the two rules of [`fact_reasons`] with its trigger, colour swap and
//! near misses; the same facts in `prove` and in `solve` (kept rights never retracted, lost ones
//! never left unexplainable, the e.p. field binding the last move); and no false "illegal" nor a
//! lost last move on random games and published proof games written with their true fields.
//!
//! `EXACT_GAMES=N` sets the number of random games of the soundness test (each gives about 100
//! positions).

use retrace_legal::ReasonCode;
use retrace_search::{
    fact_reasons, prove_with_facts, solve, Cut, GameFacts, LegalPruner, Proof, Solutions,
    SolveParams,
};
use retrace_testkit::{published_proof_games, random_game, swapped_board, swapped_castling, Game};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{fen::Fen, CastlingSide, Color, EnPassantMode, Move, Position, Role, Square};

/// Both fields read exactly.
const EXACT: GameFacts = GameFacts {
    plies_since_start: None,
    halfmove_clock: None,
    exact_castling: true,
    exact_en_passant: true,
};

/// The position of `fen` with the units on `frozen` marked as never moved.
fn setup(fen: &str, frozen: &[Square]) -> RetroPosition {
    let mut pos = RetroPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for &sq in frozen {
        pos.mark_frozen(sq).expect("the mark fits");
    }
    pos
}

/// `fen` seen from the other side: board turned and colours swapped, the other side to move,
/// castling letters swapped (the en passant field must be `-`).
fn swapped(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!(
        "{} {side} {} {} 0 1",
        swapped_board(fields[0]),
        swapped_castling(fields[2]),
        fields[3]
    )
}

/// The codes of the reasons the exact fields give `pos`.
fn codes(pos: &RetroPosition, facts: GameFacts) -> Vec<ReasonCode> {
    fact_reasons(pos, facts, &LegalPruner::new())
        .iter()
        .map(|r| r.code)
        .collect()
}

/// Whether `prove` with `facts` finds a history `depth` plies deep (`None`: cut short).
fn proves(pos: &RetroPosition, depth: u32, facts: GameFacts) -> Option<bool> {
    let (proof, _) = prove_with_facts(pos, depth, &LegalPruner::new(), facts, None, Some(200_000));
    match proof {
        Proof::History(_) => Some(true),
        Proof::NoHistory { complete: true, .. } => Some(false),
        Proof::NoHistory { .. } => None,
    }
}

/// A lost right (the FEN lacks White's K) while the rook on h1 is walled in by a knight on g1 the
/// stipulation says never moved and the pawn on h2, and the king is frozen by the O-O-O the FEN
/// keeps.
const LOST_TRIGGER: &str = "r1bqkbnr/pppp1ppp/2n1p3/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1";

#[test]
fn a_lost_right_whose_king_and_rook_never_moved_is_illegal() {
    let trigger = setup(LOST_TRIGGER, &[Square::G1]);
    assert_eq!(codes(&trigger, EXACT), [ReasonCode::LostRightUnmoved]);
    let message = fact_reasons(&trigger, EXACT, &LegalPruner::new())[0]
        .message
        .clone();
    assert!(
        message.contains("White keeps O-O-O") && message.contains("walled in by Ng1 and h2"),
        "{message}"
    );
    assert_eq!(proves(&trigger, 4, EXACT), Some(false));
    // The colour swap.
    let swap = setup(&swapped(LOST_TRIGGER), &[Square::G8]);
    assert_eq!(codes(&swap, EXACT), [ReasonCode::LostRightUnmoved]);
    assert_eq!(proves(&swap, 4, EXACT), Some(false));
    // Near misses: not read exactly; the knight free to go out and back (the rook with it); the
    // right kept.
    let not_exact = GameFacts {
        exact_castling: false,
        ..EXACT
    };
    assert!(codes(&trigger, not_exact).is_empty());
    assert_eq!(proves(&trigger, 4, not_exact), Some(true));
    let free = setup(LOST_TRIGGER, &[]);
    assert!(codes(&free, EXACT).is_empty());
    assert_eq!(proves(&free, 8, EXACT), Some(true));
    let kept = setup(&LOST_TRIGGER.replace(" Qkq ", " KQkq "), &[Square::G1]);
    assert!(codes(&kept, EXACT).is_empty());
    assert_eq!(proves(&kept, 4, EXACT), Some(true));
}

/// Amelung 1897: Black's last move can only have been g7-g5, which allows h5xg6 e.p.
const EP_TRIGGER: &str = "7R/7p/5P1k/4PKpP/8/8/8/8 w - - 0 1";

#[test]
fn an_en_passant_field_that_rules_out_every_last_move_is_illegal() {
    for fen in [EP_TRIGGER.to_owned(), swapped(EP_TRIGGER)] {
        let pos = setup(&fen, &[]);
        assert_eq!(codes(&pos, EXACT), [ReasonCode::EnPassantField], "{fen}");
        let (proof, _) = prove_with_facts(&pos, 4, &LegalPruner::new(), EXACT, None, None);
        let Proof::NoHistory {
            tries, complete, ..
        } = proof
        else {
            panic!("{fen}: a history although the e.p. field rules out every last move");
        };
        assert!(complete);
        let double: Vec<_> = tries
            .iter()
            .filter(|t| t.retraction.forward().role() == Role::Pawn)
            .collect();
        assert!(
            double.len() == 1 && double[0].cut == Cut::Fact,
            "{fen}: {tries:?}"
        );
        // Near miss: the field not read exactly (or the square given): g7-g5 was the last move.
        let ep_unknown = GameFacts {
            exact_en_passant: false,
            ..EXACT
        };
        assert!(codes(&pos, ep_unknown).is_empty());
        assert_eq!(proves(&pos, 4, ep_unknown), Some(true));
    }
    let with_square = setup("7R/7p/5P1k/4PKpP/8/8/8/8 w - g6 0 1", &[]);
    assert!(codes(&with_square, EXACT).is_empty());
    assert_eq!(proves(&with_square, 4, EXACT), Some(true));
    // Near miss: without the pawn on f6, Kg7-h6 may have been the last move.
    for fen in [
        "7R/7p/7k/4PKpP/8/8/8/8 w - - 0 1".to_owned(),
        swapped("7R/7p/7k/4PKpP/8/8/8/8 w - - 0 1"),
    ] {
        let pos = setup(&fen, &[]);
        assert!(codes(&pos, EXACT).is_empty(), "{fen}");
        assert_eq!(proves(&pos, 4, EXACT), Some(true), "{fen}");
    }
}

/// The solutions of `pos` `depth` plies deep, with `extra` more retractions after each.
fn solved(pos: &RetroPosition, depth: u32, extra: u32, facts: GameFacts) -> Solutions {
    let params = SolveParams {
        depth,
        extra,
        facts,
        max_nodes: Some(2_000_000),
        ..SolveParams::default()
    };
    let found = solve(pos, params, &LegalPruner::new());
    assert!(found.complete);
    found
}

/// The last moves of the solutions of `pos` `depth` plies deep, as text.
fn last_moves(pos: &RetroPosition, depth: u32, facts: GameFacts) -> Vec<String> {
    let found = solved(pos, depth, 2, facts);
    found
        .by_last_move
        .iter()
        .map(|(r, _)| r.to_string())
        .collect()
}

/// Every retraction of every solution of `pos` `depth` plies deep (there must be one).
fn solution_moves(pos: &RetroPosition, depth: u32, facts: GameFacts) -> Vec<Retraction> {
    let found = solved(pos, depth, 1, facts);
    assert!(found.count > 0);
    found.lines.into_iter().flatten().collect()
}

#[test]
fn no_solution_moves_a_king_or_rook_whose_right_the_fen_keeps() {
    // White's K and Q: e1, a1 and h1 never moved, so the last three white moves are the pawn's
    // and the knight's; Black's k alone: e8 and h8 never moved, the a8-rook may have.
    let fen = "r3k2r/8/8/8/8/4P3/3N4/R3K2R b KQk - 0 1";
    for fen in [fen.to_owned(), swapped(fen)] {
        let pos = setup(&fen, &[]);
        let kept = pos.castling_rights()
            | pos
                .castling_rights()
                .into_iter()
                .filter_map(|rook| pos.board().king_of(pos.board().color_at(rook)?))
                .collect::<shakmaty::Bitboard>();
        let moves = solution_moves(&pos, 3, GameFacts::default());
        for r in &moves {
            assert!(!kept.contains(r.current_square()), "{fen}: {r}");
        }
        // Near miss: without the rights, the king and the rooks may have moved last.
        let bare = fen.replace(" KQk ", " - ").replace(" Kkq ", " - ");
        let free = solution_moves(&setup(&bare, &[]), 1, GameFacts::default());
        assert!(
            free.iter().any(|r| kept.contains(r.current_square())),
            "{bare}"
        );
    }
}

#[test]
fn the_exact_en_passant_field_binds_the_last_move_of_a_solve() {
    // Black's last move: e7-e5 (d5xe6 e.p. is legal after it), e6-e5, or a king move.
    let fen = "4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1";
    for (fen, double) in [(fen.to_owned(), "e7-e5"), (swapped(fen), "e2-e4")] {
        let pos = setup(&fen, &[]);
        let open = last_moves(&pos, 1, GameFacts::default());
        let exact = last_moves(&pos, 1, EXACT);
        assert!(open.iter().any(|m| m == double), "{fen}: {open:?}");
        assert!(!exact.iter().any(|m| m == double), "{fen}: {exact:?}");
        let mut rest: Vec<_> = open.into_iter().filter(|m| m != double).collect();
        rest.sort();
        let mut exact = exact;
        exact.sort();
        assert_eq!(rest, exact, "{fen}");
    }
    // The trigger has no solution at all when read exactly.
    assert!(last_moves(&setup(EP_TRIGGER, &[]), 1, EXACT).is_empty());
    // A lost right that can never be explained leaves none either; its near miss (the knight
    // free) keeps its solutions.
    assert!(last_moves(&setup(LOST_TRIGGER, &[Square::G1]), 1, EXACT).is_empty());
    assert!(!last_moves(&setup(LOST_TRIGGER, &[]), 1, EXACT).is_empty());
}

/// The FEN of a game's position with its true fields: the castling rights its history keeps, and
/// the en passant square only when an en passant capture is legal (so `-` means none is).
fn true_fen(position: &shakmaty::Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// The game's move as the retraction the position after it would take back.
fn same_move(r: Retraction, m: &Move) -> bool {
    r.forward() == *m
}

/// The false claims about the position after `plies` plies of `game`, read with its true
/// fields: a reason of the exact fields, no history found, or a solve of one ply that loses the
/// game's own last move. `deep` asks the two searches too.
fn false_claims(game: &Game, plies: usize, deep: bool) -> Vec<String> {
    let fen = true_fen(&game.positions[plies]);
    let pos = RetroPosition::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let pruner = LegalPruner::new();
    // The field as FEN writers who note every double step write it (a square whenever the last
    // move was one, so `-` says it was none) is just as true.
    let always = Fen::from_position(&game.positions[plies], EnPassantMode::Always).to_string();
    let mut wrong = Vec::new();
    for fen in [&fen, &always] {
        let pos = RetroPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        wrong.extend(
            fact_reasons(&pos, EXACT, &pruner)
                .iter()
                .map(|r| format!("{fen}: {r}")),
        );
    }
    if !deep {
        return wrong;
    }
    let (proof, _) = prove_with_facts(&pos, 3, &pruner, EXACT, None, Some(50_000));
    if matches!(proof, Proof::NoHistory { complete: true, .. }) {
        wrong.push(format!("{fen}: no history 3 plies deep"));
    }
    let params = SolveParams {
        depth: 1,
        extra: 2,
        facts: EXACT,
        max_nodes: Some(50_000),
        ..SolveParams::default()
    };
    let found = solve(&pos, params, &pruner);
    let last = &game.moves[plies - 1];
    if found.complete && !found.by_last_move.iter().any(|(r, _)| same_move(*r, last)) {
        wrong.push(format!("{fen}: the last move played is not a solution"));
    }
    wrong
}

/// Whether the true fields of the position say something the exact reading uses: a right lost
/// with king and rook at home, or an e.p. field on a position after a double step.
fn fields_matter(game: &Game, plies: usize) -> bool {
    let position = &game.positions[plies];
    let board = position.board();
    let castles = position.castles();
    let lost = [Color::White, Color::Black].into_iter().any(|color| {
        CastlingSide::ALL.into_iter().any(|side| {
            let (king, rook) = retrace_unmove::castling_squares(color, side);
            board.piece_at(king) == Some(color.king())
                && board.piece_at(rook) == Some(color.rook())
                && !castles.has(color, side)
        })
    });
    let double = matches!(game.moves[plies - 1], Move::Normal { role: Role::Pawn, from, to, .. }
        if from.rank().distance(to.rank()) == 2);
    lost || double
}

#[test]
fn no_false_illegal_on_random_games_written_with_their_true_fields() {
    let games: u64 = std::env::var("EXACT_GAMES")
        .map_or(16, |n| n.parse().expect("EXACT_GAMES is a number of games"));
    let (mut positions, mut searched, mut mattered) = (0u64, 0u64, 0u64);
    let mut wrong = Vec::new();
    for seed in 0..games {
        let game = random_game(0x0065_7861_6374 ^ seed, 120);
        for plies in 1..game.positions.len() {
            let matter = fields_matter(&game, plies);
            // The searches on every position whose fields say something, and on a sample of the rest.
            let deep = matter || plies % 8 == 0;
            positions += 1;
            searched += u64::from(deep);
            mattered += u64::from(matter);
            wrong.extend(
                false_claims(&game, plies, deep)
                    .into_iter()
                    .map(|w| format!("seed {seed} ply {plies}: {w}")),
            );
        }
    }
    println!(
        "{games} games, {positions} positions ({mattered} whose fields matter), {searched} \
         searched, {} false claims",
        wrong.len()
    );
    assert!(mattered > 0 && searched > 0);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_false_illegal_on_published_proof_games_written_with_their_true_fields() {
    let games = published_proof_games();
    assert!(games.len() >= 60, "{} games", games.len());
    let (mut positions, mut mattered) = (0u64, 0u64);
    let mut wrong = Vec::new();
    for (id, game) in &games {
        for plies in 1..game.positions.len() {
            let matter = fields_matter(game, plies);
            positions += 1;
            mattered += u64::from(matter);
            wrong.extend(
                false_claims(game, plies, matter)
                    .into_iter()
                    .map(|w| format!("{id} ply {plies}: {w}")),
            );
        }
    }
    println!(
        "{} games, {positions} positions ({mattered} whose fields matter), {} false claims",
        games.len(),
        wrong.len()
    );
    assert!(mattered > 0);
    assert!(wrong.is_empty(), "{wrong:#?}");
}
