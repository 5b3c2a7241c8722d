//! The automatic cage attempt ([`find_cage`], [`analyze_thoroughly`]): it proves Hwa's cage
//! examples without any claim, misses look-alikes, clusters over the cap and searches over the
//! budget, takes its facts (frozen units, capture bounds) from the position only, and never calls
//! a position of a random legal game, or of `positions/legal.toml`, illegal.
//!
//! Run with `--release`: the soundness test then checks 200,000 random-game positions (a debug
//! build 4,000).

use retrace_cage::analyze_thoroughly;
use retrace_cage::{clusters, find_cage, AutoLimits, CageFinder, CageStore};
use retrace_legal::{analyze, ReasonCode, Verdict};
use retrace_testkit::{pos, random_game, retro_position};
use retrace_unmove::RetroPosition;
use serde::Deserialize;
use shakmaty::{Bitboard, Square};

/// Random-game positions the soundness test runs the attempt on.
const POSITIONS: usize = if cfg!(debug_assertions) {
    4_000
} else {
    200_000
};

/// The default limits with every claim verified (none passed over as settling): the soundness
/// tests are about the verifier.
const EVERY_CLAIM: AutoLimits = AutoLimits {
    max_units: 12,
    cluster_nodes: 5_000,
    total_nodes: 20_000,
    capture_charges: true,
    settle: false,
};

fn squares(list: &[Square]) -> Bitboard {
    list.iter().copied().collect()
}

/// Hwa's rook example (sherlock-L44).
const HWA_ROOK: &str = "4k3/8/8/8/8/6P1/4PPrP/7K w - -";

/// Darvall's cage (sherlock-L46): one cluster of twelve units.
const DARVALL: &str = "Knrk4/BpppRp2/1p2p3/8/8/8/8/8 w - -";

#[test]
fn clusters_are_king_move_components_smallest_first() {
    let found = clusters(pos(HWA_ROOK).board());
    assert_eq!(
        found,
        vec![
            squares(&[Square::E8]),
            squares(&[
                Square::H1,
                Square::E2,
                Square::F2,
                Square::G2,
                Square::H2,
                Square::G3
            ]),
        ]
    );
    assert_eq!(clusters(pos(DARVALL).board()).len(), 1);
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(clusters(start.board()).len(), 2);
}

#[test]
fn hwa_rook_is_found_without_a_claim() {
    let p = pos(HWA_ROOK);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let search = find_cage(&p, &AutoLimits::default(), &CageStore::new());
    let found = search.found.expect("the rook cage is found");
    assert_eq!(
        found.cage.board.occupied(),
        squares(&[
            Square::H1,
            Square::E2,
            Square::F2,
            Square::G2,
            Square::H2,
            Square::G3
        ])
    );
    // The lone king on e8 is not tried: one cluster, a few nodes.
    assert_eq!(search.tried, 1);
    assert!(search.nodes <= 10, "{} nodes", search.nodes);
    let a = analyze_thoroughly(&p, &CageStore::new());
    assert_eq!(a.verdict(), Verdict::Illegal);
    assert_eq!(a.reasons.len(), 1);
    let reason = &a.reasons[0];
    assert_eq!(reason.code, ReasonCode::Cage);
    assert!(reason.message.contains("found automatically"), "{reason}");
    assert!(
        reason.message.contains("h1, e2, f2, g2, h2 and g3"),
        "{reason}"
    );
    assert_eq!(
        reason.squares.iter().copied().collect::<Bitboard>(),
        found.cage.board.occupied()
    );
}

#[test]
fn a_finder_verifies_each_claim_once() {
    let store = CageStore::new();
    let limits = AutoLimits::default();
    let mut finder = CageFinder::new();
    // The rook cage, then the same cluster with the lone king elsewhere: the second position
    // differs only outside the cluster, so its claim is the first's and is not verified again.
    let first = finder.find(&pos(HWA_ROOK), &limits, &store);
    let found = first.found.expect("the rook cage is found");
    assert!(first.tried >= 1);
    let moved = pos("3k4/8/8/8/8/6P1/4PPrP/7K w - -");
    let second = finder.find(&moved, &limits, &store);
    assert_eq!(second.tried, 0);
    assert_eq!(second.nodes, 0);
    assert_eq!(second.found, Some(found.clone()));
    // A fresh finder proves the same from scratch: the memory saved work, not changed answers.
    assert_eq!(
        find_cage(&moved, &limits, &CageStore::new()).found,
        Some(found)
    );
    // A near miss: without the pawn on g3 the rook walks out by g3, and no cage is found, the
    // second time without verifying anything.
    let open = pos("4k3/8/8/8/8/8/4PPrP/7K w - -");
    assert!(finder.find(&open, &limits, &store).found.is_none());
    let again = finder.find(&pos("3k4/8/8/8/8/8/4PPrP/7K w - -"), &limits, &store);
    assert!(again.found.is_none());
    assert_eq!(again.tried, 0);
}

#[test]
fn a_cancelled_finder_stops_with_nothing_found_and_remembers_nothing() {
    let store = CageStore::new();
    let limits = AutoLimits::default();
    let mut finder = CageFinder::new();
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let stopped = finder.find_cancellable(&pos(HWA_ROOK), &limits, &store, Some(&cancel));
    assert!(stopped.found.is_none());
    // Nothing was settled: asked again without the flag, the cage is found.
    assert!(finder.find(&pos(HWA_ROOK), &limits, &store).found.is_some());
}

#[test]
fn darvall_is_found_and_the_cap_and_budget_hold() {
    let p = pos(DARVALL);
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let store = CageStore::new();
    let found = find_cage(&p, &AutoLimits::default(), &store);
    assert!(found.found.is_some());
    // One unit over the cap: the cluster itself is not tried, but its peeled core (without the
    // knight on b8, which can walk away) is, and is the cage.
    let capped = AutoLimits {
        max_units: 11,
        ..AutoLimits::default()
    };
    let search = find_cage(&p, &capped, &CageStore::new());
    let core = search.found.expect("the peeled core is a cage").cage.board;
    assert_eq!(core.occupied().count(), 11);
    assert!(core.occupied().is_subset(p.board().occupied()));
    assert!(!core.occupied().contains(Square::B8));
    // Far below the cap even for cores: nothing is tried.
    let tiny = AutoLimits {
        max_units: 2,
        ..AutoLimits::default()
    };
    let search = find_cage(&p, &tiny, &CageStore::new());
    assert_eq!((search.found, search.tried, search.nodes), (None, 0, 0));
    // A budget below the 2 nodes the core's proof takes (and the 18 of the whole cluster's):
    // tried, not trusted; the total budget holds across candidates.
    for (limits, tried) in [
        (
            AutoLimits {
                cluster_nodes: 1,
                ..AutoLimits::default()
            },
            2,
        ),
        (
            AutoLimits {
                total_nodes: 1,
                ..AutoLimits::default()
            },
            1,
        ),
    ] {
        let search = find_cage(&p, &limits, &CageStore::new());
        assert!(search.found.is_none());
        assert_eq!(search.tried, tried);
        assert!(search.nodes <= tried as u64);
    }
}

#[test]
fn a_cage_inside_a_cluster_over_the_cap_is_found_as_its_peeled_core() {
    // Hwa's rook cage with the rest of White's first two ranks: one cluster of fourteen units, over
    // the cap. Its core without the knight on b1, which can walk away, is thirteen: within the
    // larger cap of cores.
    let p = pos("4k3/8/8/8/8/6P1/PPPPPPrP/1NBQ1B1K w - -");
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let search = find_cage(&p, &AutoLimits::default(), &CageStore::new());
    let core = search
        .found
        .expect("the core is a cage")
        .cage
        .board
        .occupied();
    assert_eq!(core.count(), 13);
    assert!(!core.contains(Square::B1));
    assert_eq!(
        analyze_thoroughly(&p, &CageStore::new()).verdict(),
        Verdict::Illegal
    );
    // The near miss: the same crowd without the pawn on g3 (the rook came from g3) is no cage,
    // whichever part is tried.
    let open = pos("4k3/8/8/8/8/8/PPPPPPrP/1NBQ1B1K w - -");
    let search = find_cage(&open, &AutoLimits::default(), &CageStore::new());
    assert!(search.found.is_none());
    assert!(search.tried + search.settled >= 1);
}

/// The position of the cage issue: Hwa's corner cage with a bishop, among pawns that can walk
/// away; the peeled core is proven, and the position with the cage opened by moving the bishop
/// away is not.
#[test]
fn the_corner_cage_in_a_crowd_is_found() {
    let p = pos("8/8/8/4p3/3p4/2P3n1/2PPPkPP/4b1RK w - -");
    let found = find_cage(&p, &AutoLimits::default(), &CageStore::new())
        .found
        .expect("the core is a cage");
    let units = found.cage.board.occupied();
    for sq in [
        Square::E1,
        Square::G1,
        Square::H1,
        Square::F2,
        Square::G2,
        Square::H2,
    ] {
        assert!(units.contains(sq), "{sq} missing from {units:?}");
    }
    assert!(!units.contains(Square::G3) && !units.contains(Square::E5));
    let near = pos("8/8/8/4p3/3p4/2P3n1/2PPPkPP/6RK w - -");
    assert!(find_cage(&near, &AutoLimits::default(), &CageStore::new())
        .found
        .is_none());
}

#[test]
fn look_alikes_are_not_cages() {
    for fen in [
        // The rook on f2 came from f1 (a unit on g1 blocks the check): lookalike-rook-f2.
        "4k3/8/8/8/8/5P2/4PrPP/7K w - -",
        // Darvall's position after a7xb8=B: sherlock-L47-after-ba7xnb8 escapes.
        "KBrk4/1pppRp2/1p2p3/8/8/8/8/8 b - -",
        // Hwa's rook cage without the pawn on g3: the rook came from g3.
        "4k3/8/8/8/8/8/4PPrP/7K w - -",
    ] {
        let p = pos(fen);
        let search = find_cage(&p, &AutoLimits::default(), &CageStore::new());
        assert!(search.found.is_none(), "{fen}: {search:?}");
        assert!(search.tried + search.settled >= 1, "{fen}");
        // Verified, not only passed over: the verifier finds each a line that escapes.
        let verified = find_cage(&p, &EVERY_CLAIM, &CageStore::new());
        assert!(verified.found.is_none() && verified.tried >= 1, "{fen}");
        assert_eq!(
            analyze_thoroughly(&p, &CageStore::new()).verdict(),
            Verdict::NoContradiction,
            "{fen}"
        );
    }
}

#[test]
fn capture_bounds_come_from_the_missing_units() {
    // The black bishop on a1 behind a3 and b2 (c-capture-bound in cages.toml) is a cage only if
    // Black made no capture: with all sixteen White units it is found (the plain analysis proves
    // this position too, by another rule).
    let all = pos("r3k3/8/8/8/2PR4/P2PBN2/1P2PPPP/b2QKBNR w K - 0 1");
    let found = find_cage(&all, &AutoLimits::default(), &CageStore::new())
        .found
        .expect("found with Black's captures bounded by 0");
    assert_eq!(
        found.cage.board.occupied(),
        squares(&[Square::A1, Square::B2, Square::A3])
    );
    assert_eq!(*found.cage.captures.get(shakmaty::Color::Black), Some(0));
    // One White unit fewer: Black may have captured it with b3xa2, and the bishop escapes.
    let fewer = pos("r3k3/8/8/8/2PR4/P2PB3/1P2PPPP/b2QKBNR w K - 0 1");
    assert!(find_cage(&fewer, &AutoLimits::default(), &CageStore::new())
        .found
        .is_none());
    assert_eq!(
        analyze_thoroughly(&fewer, &CageStore::new()).verdict(),
        Verdict::NoContradiction
    );
}

#[test]
fn user_cages_still_come_first() {
    let (store, errors) = CageStore::load("8/8/8/8/8/6P1/5PrP/7K\n");
    assert!(errors.is_empty(), "{errors:?}");
    let a = analyze_thoroughly(&pos(HWA_ROOK), &store);
    assert_eq!(a.reasons.len(), 1);
    assert!(
        !a.reasons[0].message.contains("found automatically"),
        "{}",
        a.reasons[0]
    );
}

#[derive(Deserialize)]
struct Entry {
    id: String,
    fen: String,
    retract: Option<String>,
}

#[derive(Deserialize)]
struct File {
    position: Vec<Entry>,
}

#[test]
fn no_cage_in_legal_positions() {
    let path = format!("{}/../../positions/legal.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut tried = 0;
    for e in &file.position {
        let retract = match e.retract.as_deref() {
            Some("w") => Some(shakmaty::Color::White),
            Some("b") => Some(shakmaty::Color::Black),
            _ => None,
        };
        let p = RetroPosition::parse(&e.fen, retract).unwrap_or_else(|err| panic!("{err}"));
        // Whatever the plain analysis says: the attempt alone must find nothing.
        let search = find_cage(&p, &EVERY_CLAIM, &CageStore::new());
        assert!(search.found.is_none(), "{} ({}): {search:?}", e.id, e.fen);
        tried += search.tried;
    }
    eprintln!(
        "{} legal positions, {tried} clusters tried, no cage",
        file.position.len()
    );
    assert!(tried >= 20);
}

#[test]
fn no_cage_in_random_games() {
    let mut positions = 0;
    let mut tried = 0;
    let mut nodes = 0;
    let mut seed = 0;
    // Generous limits, so that the clusters really get searched.
    let limits = AutoLimits {
        max_units: 14,
        ..EVERY_CLAIM
    };
    while positions < POSITIONS {
        let game = random_game(seed, 300);
        for chess in game.positions.iter().skip(1) {
            let p = retro_position(chess);
            let search = find_cage(&p, &limits, &CageStore::new());
            assert!(
                search.found.is_none(),
                "game {seed}: {} called a cage: {search:?}",
                p.fen()
            );
            positions += 1;
            tried += search.tried;
            nodes += search.nodes;
        }
        seed += 1;
    }
    eprintln!("{positions} positions of {seed} games: {tried} clusters tried, {nodes} nodes");
    assert!(tried >= positions / 4, "only {tried} clusters tried");
}

/// The legal positions of the corpora in `positions/corpora`: every proof-game position of the
/// published problems (a game reaches each), Sherlock's legal cases, and every position of the
/// retractor suite for the side that retracts (each has a published history).
fn legal_corpus_positions() -> Vec<(String, RetroPosition)> {
    let dir = format!("{}/../../positions/corpora", env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| -> Vec<serde_json::Value> {
        let path = format!("{dir}/{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
            .collect()
    };
    let text = |v: &serde_json::Value, key: &str| v[key].as_str().unwrap_or("").to_owned();
    let side = |s: &str| match s {
        "w" => Some(shakmaty::Color::White),
        "b" => Some(shakmaty::Color::Black),
        _ => None,
    };
    let mut out = Vec::new();
    for v in read("published-problems.jsonl") {
        if text(&v, "stipulation") == "proof_game" {
            // The side to move did not make the last move: the other side retracts.
            let retract = side(&text(&v, "side_to_move")).map(|c| c.other());
            let p = RetroPosition::parse(&text(&v, "board"), retract).expect("proof game board");
            out.push((text(&v, "id"), p));
        }
    }
    for v in read("sherlock-legality.jsonl") {
        if text(&v, "expected") == "Legal" {
            let p = RetroPosition::parse(&text(&v, "fen"), None).expect("Sherlock FEN");
            out.push((text(&v, "id"), p));
        }
    }
    for v in read("retractor-problems.jsonl") {
        let sides = match text(&v, "retract").as_str() {
            "both" => vec!["w", "b"],
            s => vec![if s.starts_with('w') { "w" } else { "b" }],
        };
        for s in sides {
            let p = RetroPosition::parse(&text(&v, "board"), side(s)).expect("retractor board");
            out.push((text(&v, "id"), p));
        }
    }
    out
}

#[test]
fn no_cage_in_the_legal_corpus_positions() {
    let positions = legal_corpus_positions();
    assert!(positions.len() >= 78 + 28 + 173, "{}", positions.len());
    let mut tried = 0;
    for (id, p) in &positions {
        let search = find_cage(p, &EVERY_CLAIM, &CageStore::new());
        assert!(search.found.is_none(), "{id} ({}): {search:?}", p.fen());
        tried += search.tried;
    }
    eprintln!(
        "{} legal corpus positions, {tried} candidates tried, no cage",
        positions.len()
    );
    assert!(tried >= 100, "{tried}");
}

/// Keym's r2-D-009 after Ka2xNa1: the white camp with the black king on c2 and the knight on a1 is
/// one cluster of sixteen units from which no unit can walk away, so it is its own core and is
/// tried under the cores' cap; without the pawn on b3 (the knight's door) it is no cage.
#[test]
fn a_cluster_from_which_nothing_peels_gets_the_cap_of_cores() {
    let p = pos("8/7p/7p/8/8/PP4P1/KPkPPP1P/nR1bRN1N w - -");
    let found = find_cage(&p, &AutoLimits::default(), &CageStore::new())
        .found
        .expect("the sixteen units are a cage");
    assert_eq!(found.cage.board.occupied().count(), 16);
    let open = pos("8/7p/7p/8/8/P5P1/KPkPPP1P/nR1bRN1N w - -");
    assert!(find_cage(&open, &AutoLimits::default(), &CageStore::new())
        .found
        .is_none());
}

/// The position before Kf1xNe1 in a published last-move problem's structure: a white rook, a
/// bishop and a knight crowd the pen of the black king on f1, and nothing peels from the
/// thirteen units. The verification closes through the pen core (the king and the pawns) once
/// d3-d2 is retracted; the near miss without the pawn on c2 has a way out and no cage.
#[test]
fn a_crowded_king_pen_is_found_through_its_pen_core() {
    let p = pos("8/8/8/8/8/3P1P2/1PPRPrPP/2B1Nk1K b - -");
    assert_eq!(analyze(&p).verdict(), Verdict::NoContradiction);
    let found = find_cage(&p, &AutoLimits::default(), &CageStore::new())
        .found
        .expect("the crowded pen is a cage");
    assert!(found.cage.board.occupied().contains(Square::F1));
    let near = pos("8/8/8/8/8/3P1P2/1P1RPrPP/2B1Nk1K b - -");
    assert!(find_cage(&near, &AutoLimits::default(), &CageStore::new())
        .found
        .is_none());
}
