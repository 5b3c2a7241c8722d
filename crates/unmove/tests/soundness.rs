//! Soundness: every retraction the generator lists is a real move backwards.
//!
//! For each hand-written position the whole retraction tree is walked a few plies deep (both sides
//! retract in turn), and every retraction at every node is replayed forward by shakmaty from the
//! predecessor it leads to (see `common::check_retraction`). The tests are split by theme so the
//! harness runs them in parallel.

mod common;

use std::collections::HashSet;
use std::time::Instant;

use retrace_unmove::{retro_perft, RetroPosition};
use shakmaty::{Color, Square};

/// A test position: FEN, tree depth, retro marks on top of the FEN, and facts about its own
/// retractions worked out by hand.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    frozen: &'static [Square],
    promoted: &'static [Square],
    no_uncaptures: &'static [Color],
    /// Exact number of retractions of the position itself, where it was counted by hand.
    count: Option<u64>,
    /// Retractions that must be listed.
    expect: &'static [&'static str],
    /// Retractions (syntactically valid) that must not be listed.
    reject: &'static [&'static str],
}

const BASE: Case = Case {
    name: "",
    fen: "",
    depth: 3,
    frozen: &[],
    promoted: &[],
    no_uncaptures: &[],
    count: None,
    expect: &[],
    reject: &[],
};

const OPENINGS: &[Case] = &[
    // Black retracts; castling rights freeze both kings and all rooks, pawns stand on their second
    // ranks, so only the knights can retract: Nb8 from a6/c6, Ng8 from f6/h6, each plain or with a
    // white N, B, R or Q uncaptured on the back rank: 4 x 5.
    Case {
        name: "initial",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 4,
        count: Some(20),
        expect: &["Nc6-b8", "Nf6xQg8"],
        reject: &["Ke7-e8", "Ra7-a8", "Nc6xPb8"],
        ..BASE
    },
    Case {
        name: "italian",
        fen: "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ..BASE
    },
    Case {
        name: "qgd",
        fen: "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 1",
        ..BASE
    },
    Case {
        name: "open_middlegame",
        fen: "r2q1rk1/1b2bppp/p2p1n2/1p2p3/3nP3/1BN2N2/PP3PPP/R1BQR1K1 b - - 0 1",
        ..BASE
    },
];

const EN_PASSANT: &[Case] = &[
    // An en passant square in the FEN forces the double step as the only retraction.
    Case {
        name: "ep_black_pushed",
        fen: "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        depth: 4,
        count: Some(1),
        expect: &["d7-d5"],
        ..BASE
    },
    Case {
        name: "ep_white_pushed",
        fen: "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
        depth: 4,
        count: Some(1),
        expect: &["d2-d4"],
        ..BASE
    },
    Case {
        name: "white_ep_uncapture",
        fen: "4k3/8/4P3/8/8/8/8/4K3 b - - 0 1",
        expect: &["d5xe6ep", "f5xe6ep", "e5-e6", "d5xNe6"],
        ..BASE
    },
    Case {
        name: "black_ep_uncapture",
        fen: "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1",
        expect: &["c4xd3ep", "e4xd3ep"],
        ..BASE
    },
    // The victim's start square e7 is taken: no en passant uncapture.
    Case {
        name: "ep_uncapture_blocked",
        fen: "4k3/4p3/4P3/8/8/8/8/4K3 b - - 0 1",
        expect: &["e5-e6", "d5xPe6"],
        reject: &["d5xe6ep", "f5xe6ep"],
        ..BASE
    },
];

const CASTLING: &[Case] = &[
    Case {
        name: "white_castled_short",
        fen: "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R4RK1 b kq - 0 1",
        expect: &["0-0"],
        ..BASE
    },
    Case {
        name: "black_castled_long",
        fen: "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQ - 0 1",
        expect: &["0-0-0"],
        ..BASE
    },
    // Black cannot uncastle: the king would have crossed f8, open to the rook on f1.
    Case {
        name: "both_castled_bare",
        fen: "r4rk1/8/8/8/8/8/8/R4RK1 w - - 0 1",
        reject: &["0-0"],
        ..BASE
    },
    Case {
        name: "long_castle_gave_check",
        fen: "2kr4/8/8/8/8/8/8/3K4 w - - 0 1",
        expect: &["0-0-0+"],
        ..BASE
    },
    Case {
        name: "short_castle_gave_check",
        fen: "5k2/8/8/8/8/8/8/5RK1 b - - 0 1",
        expect: &["0-0+"],
        ..BASE
    },
    // The king would have crossed d1, attacked by the rook on d2.
    Case {
        name: "uncastle_through_attack",
        fen: "4k3/8/8/8/8/8/3r4/2KR4 b - - 0 1",
        expect: &["Kb1-c1"],
        reject: &["0-0-0"],
        ..BASE
    },
    // A rook marked promoted never stood on h1 unmoved.
    Case {
        name: "promoted_rook_cannot_uncastle",
        fen: "4k3/8/8/8/8/8/8/5RK1 b - - 0 1",
        promoted: &[Square::F1],
        expect: &["Rf2-f1"],
        reject: &["0-0"],
        ..BASE
    },
    // A frozen king never moved, so it cannot have castled either.
    Case {
        name: "frozen_king_cannot_uncastle",
        fen: "r4rk1/8/8/8/8/8/8/R4RK1 w - - 0 1",
        frozen: &[Square::G8],
        reject: &["0-0", "Kh8-g8"],
        ..BASE
    },
];

const PROMOTIONS: &[Case] = &[
    Case {
        name: "white_promoted_row",
        fen: "QN1RB3/8/8/8/8/7k/8/K7 b - - 0 1",
        expect: &[
            "a7-a8=Q", "b7xQa8=Q", "b7-b8=N", "a7xRb8=N", "c7xRd8=R", "d7-d8=R", "e7-e8=B",
            "d7xNe8=B",
        ],
        // Diagonal without capture; a pawn uncaptured on the last rank.
        reject: &["b7-a8=Q", "a7xPb8=N"],
        ..BASE
    },
    Case {
        name: "black_promoted_row",
        fen: "k7/8/8/8/8/7K/8/qnbr4 w - - 0 1",
        expect: &["a2-a1=Q", "b2xNa1=Q", "d2xNc1=B", "d2-d1=R"],
        reject: &["b2-a1=Q"],
        ..BASE
    },
    Case {
        name: "four_queens",
        fen: "QQQQ4/8/8/8/8/8/5k2/K7 b - - 0 1",
        expect: &["d7-d8=Q", "e7xBd8=Q"],
        ..BASE
    },
    Case {
        name: "pawns_on_seventh",
        fen: "4k3/PPP5/8/8/8/8/5ppp/4K3 w - - 0 1",
        depth: 4,
        ..BASE
    },
];

const ENDGAMES: &[Case] = &[
    Case {
        name: "kpk",
        fen: "8/8/4k3/8/2K5/8/3P4/8 b - - 0 1",
        ..BASE
    },
    Case {
        name: "krk",
        fen: "8/5k2/8/8/3R4/8/2K5/8 w - - 0 1",
        ..BASE
    },
    // Two dark-squared bishops: predecessors have too much material, which one retraction allows.
    Case {
        name: "two_dark_bishops",
        fen: "8/8/8/3k4/8/8/1B6/K1B5 b - - 0 1",
        ..BASE
    },
    Case {
        name: "cornered",
        fen: "8/8/8/8/8/8/p7/k1K5 w - - 0 1",
        depth: 4,
        ..BASE
    },
];

const CHECKS: &[Case] = &[
    // The rook came along the second rank (7 squares), plain or uncapturing one of 5 black units;
    // from the e-file it would have attacked e8 already, and a king retraction leaves the check.
    Case {
        name: "rook_check",
        fen: "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",
        count: Some(42),
        expect: &["Ra2-e2+", "Rh2xPe2+"],
        reject: &["Re5-e2+", "Kd1-e1"],
        ..BASE
    },
    // Only a discovered double check: the knight left the e-file (e4), with or without uncapture.
    Case {
        name: "double_check",
        fen: "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",
        depth: 4,
        count: Some(6),
        expect: &["Ne4-f6+", "Ne4xPf6+"],
        reject: &["Ng4-f6+", "Re2-e1+"],
        ..BASE
    },
    Case {
        name: "black_gives_check",
        fen: "r3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ..BASE
    },
    // The pawn on its second rank gives check but never moved: no retraction at all.
    Case {
        name: "pawn_check_no_past",
        fen: "8/8/8/8/8/3k4/2P5/4K3 b - - 0 1",
        count: Some(0),
        ..BASE
    },
    // The retracting side's king is attacked: the position is illegal.
    Case {
        name: "retractor_in_check",
        fen: "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
        count: Some(0),
        ..BASE
    },
];

const MARKS: &[Case] = &[
    Case {
        name: "marked_middlegame",
        fen: "r1b1k2r/ppq2ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQkq - 0 1",
        frozen: &[Square::D5, Square::C6, Square::F6],
        promoted: &[Square::C3],
        reject: &["Nb8-c6", "d6-d5"],
        ..BASE
    },
    Case {
        name: "no_uncaptures_white",
        fen: "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 0 1",
        no_uncaptures: &[Color::White],
        expect: &["0-0", "Bd3-c4"],
        reject: &["Bd3xPc4"],
        ..BASE
    },
    Case {
        name: "no_uncaptures_both",
        fen: "4k3/1P6/8/3pP3/8/8/8/4K2R w K - 0 1",
        depth: 4,
        frozen: &[Square::E5],
        no_uncaptures: &[Color::White, Color::Black],
        expect: &["d6-d5", "d7-d5"],
        reject: &["e6xPd5", "c6xNd5"],
        ..BASE
    },
];

fn setup(case: &Case) -> RetroPosition {
    let mut pos = RetroPosition::from_fen(case.fen)
        .unwrap_or_else(|e| panic!("{}: bad test FEN: {e}", case.name));
    for &sq in case.frozen {
        pos.mark_frozen(sq)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    for &sq in case.promoted {
        pos.mark_promoted(sq)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    for &color in case.no_uncaptures {
        pos.set_uncaptures_allowed(color, false);
    }
    assert_eq!(
        pos.zobrist(),
        pos.zobrist_from_scratch(),
        "{}: key after marks",
        case.name
    );
    pos
}

#[derive(Default)]
struct Stats {
    nodes: u64,
    retractions: u64,
    leaves: u64,
}

/// Walks the tree to `depth`, checking every retraction of every inner node.
fn walk(node: &RetroPosition, depth: u32, stats: &mut Stats) {
    if depth == 0 {
        stats.leaves += 1;
        return;
    }
    stats.nodes += 1;
    let retractions = node.retractions();
    assert_eq!(
        node.count_retractions(),
        retractions.len() as u64,
        "count_retractions disagrees with retractions() in {}",
        node.fen()
    );
    let mut seen = HashSet::new();
    let no_uncaptures = !node.uncaptures_allowed(node.retracting());
    for &r in &retractions {
        assert!(seen.insert(r), "duplicate retraction {r} in {}", node.fen());
        assert!(
            !(no_uncaptures && r.uncaptured().is_some()),
            "forbidden uncapture {r} in {}",
            node.fen()
        );
        let text = node.notation(r);
        assert_eq!(
            node.parse_retraction(&text),
            Ok(r),
            "notation '{text}' does not read back in {}",
            node.fen()
        );
        stats.retractions += 1;
        let pred = common::check_retraction(node, r).unwrap_or_else(|e| panic!("{e}"));
        let mut in_place = node.clone();
        in_place.retract_in_place(r);
        assert_eq!(
            in_place,
            pred,
            "retract_in_place differs from retract for {r} in {}",
            node.fen()
        );
        walk(&pred, depth - 1, stats);
    }
}

fn run(cases: &[Case]) {
    for case in cases {
        let start = Instant::now();
        let pos = setup(case);
        let root = pos.retractions();
        if let Some(count) = case.count {
            let list: Vec<String> = root.iter().map(|&r| pos.notation(r)).collect();
            assert_eq!(
                root.len() as u64,
                count,
                "{}: retractions {list:?}",
                case.name
            );
        }
        for text in case.expect {
            assert!(
                pos.parse_retraction(text).is_ok(),
                "{}: {text} missing",
                case.name
            );
        }
        for text in case.reject {
            let r = retrace_unmove::Retraction::parse(text, pos.retracting())
                .unwrap_or_else(|e| panic!("{}: bad test notation: {e}", case.name));
            assert!(
                !root.contains(&r),
                "{}: {text} must not be a retraction",
                case.name
            );
        }
        let mut stats = Stats::default();
        walk(&pos, case.depth, &mut stats);
        assert_eq!(
            retro_perft(&pos, case.depth),
            stats.leaves,
            "{}: retro_perft disagrees with the walk",
            case.name
        );
        eprintln!(
            "{:30} depth {} nodes {:>7} retractions checked {:>8} ({:.2?})",
            case.name,
            case.depth,
            stats.nodes,
            stats.retractions,
            start.elapsed()
        );
    }
}

/// Positions from real (random, biased) games: full boards, castling rights, en passant squares.
#[test]
fn game_positions() {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut positions = 0;
    for seed in 0..40 {
        let game = retrace_testkit::random_game(0x50_0000 + seed, 300);
        for chess in game
            .positions
            .iter()
            .skip(1 + seed as usize % 13)
            .step_by(29)
        {
            let pos = retrace_testkit::retro_position(chess);
            positions += 1;
            walk(&pos, 2, &mut stats);
        }
    }
    eprintln!(
        "game positions: {positions} roots, depth 2, nodes {} retractions checked {} ({:.2?})",
        stats.nodes,
        stats.retractions,
        start.elapsed()
    );
    assert!(
        positions >= 300 && stats.retractions >= 1_000_000,
        "{positions} roots, {} retractions",
        stats.retractions
    );
}

#[test]
fn enough_positions() {
    let all = [
        OPENINGS, EN_PASSANT, CASTLING, PROMOTIONS, ENDGAMES, CHECKS, MARKS,
    ];
    assert!(all.iter().map(|c| c.len()).sum::<usize>() >= 20);
}

#[test]
fn openings() {
    run(OPENINGS);
}

#[test]
fn en_passant() {
    run(EN_PASSANT);
}

#[test]
fn castling() {
    run(CASTLING);
}

#[test]
fn promotions() {
    run(PROMOTIONS);
}

#[test]
fn endgames() {
    run(ENDGAMES);
}

#[test]
fn checks() {
    run(CHECKS);
}

#[test]
fn marks() {
    run(MARKS);
}
