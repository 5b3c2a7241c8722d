//! Drives the real `retrace` binary as scripts do, and checks its answers against the library.

mod common;

use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BRANDIS: &str = "8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -";

fn retrace(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn stderr_lines(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stderr).lines().count()
}

#[test]
fn list_json_gives_every_retraction_with_a_predecessor_fen() {
    let out = retrace(&["list", BRANDIS, "--json"], "");
    assert!(out.status.success());
    let doc = json(&out);
    assert_eq!(doc["retracting"], "w");
    let list = doc["retractions"].as_array().expect("an array");
    // Ka2-a1 with and without the four uncaptures, and a2xb3 with the five.
    assert_eq!(list.len(), 10);
    let moves: Vec<&str> = list
        .iter()
        .map(|r| r["move"].as_str().expect("move"))
        .collect();
    assert!(moves.contains(&"a2xPb3") && moves.contains(&"Ka2-a1") && moves.contains(&"Ka2xQa1"));
    assert!(
        !moves.iter().any(|m| m.starts_with('R')),
        "the rook cannot retract: {moves:?}"
    );
    for entry in list {
        let fen = entry["fen"].as_str().expect("fen");
        // The predecessor has White to move: it is Black who retracts from there.
        assert_eq!(fen.split(' ').nth(1), Some("w"), "{fen}");
        let again = retrace(&["list", fen, "--json"], "");
        assert!(again.status.success(), "predecessor FEN {fen} is accepted");
        assert_eq!(json(&again)["retracting"], "b");
    }
}

#[test]
fn list_board_alone_needs_the_retracting_side() {
    let board = "8/8/8/8/8/1P6/1PkPP3/KR1b4";
    let out = retrace(&["list", board, "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(json(&out)["error"]
        .as_str()
        .expect("error text")
        .contains("retracting side"));
    assert_eq!(stderr_lines(&out), 1);
    let out = retrace(&["list", board, "--retract", "w", "--json"], "");
    assert!(out.status.success());
    assert_eq!(json(&out)["retractions"].as_array().map(Vec::len), Some(10));
}

#[test]
fn retract_side_contradicting_the_fen_is_bad_input() {
    let out = retrace(&["list", BRANDIS, "--retract", "b"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr_lines(&out), 1);
    assert!(out.stdout.is_empty(), "no answer is printed");
}

#[test]
fn frozen_and_promoted_marks_reach_the_generator() {
    // Freezing the white king on its home square leaves only the queen's retractions.
    let home = "4k3/8/8/8/8/8/8/3QK3 b - -";
    let count = |args: &[&str]| {
        let out = retrace(&[&["list", home, "--json"], args].concat(), "");
        json(&out)["retractions"].as_array().map(Vec::len)
    };
    assert_eq!(count(&[]), Some(80));
    assert_eq!(count(&["--frozen", "e1"]), Some(60));
    assert_eq!(count(&["--frozen", "e1,d1"]), Some(0));
    // A unit that never moved stands on its square of the initial array: not Brandis's Ka1.
    let out = retrace(&["list", BRANDIS, "--frozen", "a1"], "");
    assert!(common::is_bad_input(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a white rook starts the game on a1"));
    let out = retrace(&["list", BRANDIS, "--promoted", "a1"], "");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a king cannot be marked promoted"
    );
    let out = retrace(&["list", BRANDIS, "--frozen", "z9"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn perft_json_counts_leaves() {
    let one = json(&retrace(&["perft", BRANDIS, "1", "--json"], ""));
    assert_eq!(one["depth"], 1);
    assert_eq!(one["nodes"], 10);
    assert!(one["elapsed_ms"].as_f64().is_some());
    // Depth 2 sums the retractions of the ten predecessors, computed independently here.
    let listed = json(&retrace(&["list", BRANDIS, "--json"], ""));
    let sum: u64 = listed["retractions"]
        .as_array()
        .expect("list")
        .iter()
        .map(|r| {
            let fen = r["fen"].as_str().expect("fen");
            json(&retrace(&["perft", fen, "1", "--json"], ""))["nodes"]
                .as_u64()
                .expect("nodes")
        })
        .sum();
    let two = json(&retrace(&["perft", BRANDIS, "2", "--json"], ""));
    assert_eq!(two["nodes"].as_u64(), Some(sum));
}

#[test]
fn perft_refuses_absurd_depths() {
    for depth in ["99", "-1", "two"] {
        let out = retrace(&["perft", BRANDIS, depth, "--json"], "");
        assert_eq!(out.status.code(), Some(2), "depth {depth}");
        assert!(json(&out)["error"].is_string());
    }
}

#[test]
fn batch_mode_answers_line_by_line_and_survives_bad_lines() {
    let input = format!("{BRANDIS}\nnot a fen\n\n4k3/8/8/3pP3/8/8/8/4K3 w - d6\n");
    let out = retrace(&["perft", "-", "1", "--json"], &input);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad line makes the batch exit 2"
    );
    let docs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(
        docs.len(),
        4,
        "a blank line is an error line too: line k answers line k"
    );
    assert_eq!(docs[0]["nodes"], 10);
    assert!(docs[1]["error"].is_string() && docs[2]["error"].is_string());
    // The en passant square forces the double step d7-d5: exactly one retraction.
    assert_eq!(docs[3]["nodes"], 1);
}

#[test]
fn malformed_input_is_one_line_and_exit_2() {
    for args in [
        vec![
            "list",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -",
        ],
        vec!["list", "8/8/8/8/8/8/8/8 w - -"],
        vec!["list", "P3k3/8/8/8/8/8/8/4K3 w - -"],
        vec!["list", "4k3/8/8/8/8/8/8/4K3 w K -"],
        vec!["frobnicate"],
        vec!["list"],
    ] {
        let out = retrace(&args, "");
        assert!(
            common::is_bad_input(&out),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn check_json_has_the_contract_fields() {
    // Black moved last yet its king stands in check from the rook: illegal, with the squares.
    let out = retrace(&["check", "4k3/8/8/8/8/8/8/4R1K1 w - -", "--json"], "");
    assert!(
        out.status.success(),
        "an illegal verdict is still a successful run"
    );
    let doc = json(&out);
    assert_eq!(doc["verdict"], "illegal");
    let reason = &doc["reasons"][0];
    assert!(reason["code"].as_str().is_some_and(|c| !c.is_empty()));
    assert!(reason["message"].as_str().is_some_and(|m| m.contains("e8")));
    let squares: Vec<&str> = reason["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        squares.contains(&"e8") && squares.contains(&"e1"),
        "{squares:?}"
    );
    // White's pawn on b3 came from another file: at least one capture by White.
    let doc = json(&retrace(&["check", BRANDIS, "--json"], ""));
    assert_eq!(doc["verdict"], "no_contradiction");
    assert!(doc["reasons"].as_array().is_some_and(Vec::is_empty));
    assert!(
        doc["captures"]["white"].as_u64().is_some_and(|n| n >= 1),
        "{doc}"
    );
    assert!(doc["captures"]["black"].is_u64() && doc["promoted"]["white"].is_u64());
}

#[test]
fn check_finds_a_cage_without_a_claim() {
    // Hwa's rook walled in on g2 (sherlock-L44): no rule of the plain analysis applies, the
    // automatic cage attempt proves it.
    let hwa = "4k3/8/8/8/8/6P1/4PPrP/7K w - -";
    let out = retrace(&["check", hwa, "--json"], "");
    assert!(out.status.success());
    let doc = json(&out);
    assert_eq!(doc["verdict"], "illegal");
    let reasons = doc["reasons"].as_array().expect("reasons");
    assert_eq!(reasons.len(), 1, "{doc}");
    assert_eq!(reasons[0]["code"], "cage");
    assert!(
        reasons[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("found automatically")),
        "{doc}"
    );
    assert_eq!(
        reasons[0]["squares"],
        serde_json::json!(["h1", "e2", "f2", "g2", "h2", "g3"])
    );
    // The look-alike with the rook on f2 is no cage: nothing found.
    let doc = json(&retrace(
        &["check", "4k3/8/8/8/8/5P2/4PrPP/7K w - -", "--json"],
        "",
    ));
    assert_eq!(doc["verdict"], "no_contradiction", "{doc}");
}

/// After Ka2xNa1 (a last move the Brandis corner rules out): the analysis alone finds nothing
/// (too many retractions for its look back), but every black retraction leads to an illegal
/// position, which the closure's exact prefix sees (it looks at all 18).
const BRANDIS_AFTER_KA2XNA1: &str = "8/8/8/8/8/1P6/KPkPP3/nR1b4 w - -";

/// Black retracting in a published problem (Jan Mortensen's r2-A-043 of Retractor 2's suite;
/// White retracts in it): every line dies within two plies. `check`'s closure proves it, since
/// its exact prefix follows each uncapture the cage verifier cannot close one ply further.
const DIES_WITHIN_TWO_PLIES: &str = "k1KQRb2/ppppp1p1/5p2/7p/8/8/8/8 w - -";

/// Black retracting in another (Werner Keym's r2-A-032; White retracts in it): each last move
/// leads at once to an illegal position, which only `--prove` looks at.
const DIES_AT_ONCE: &str = "k1KB4/PpRpp1p1/b1p2p2/1p6/8/8/8/8 w - -";

#[test]
fn check_prove_finds_a_history_or_proves_there_is_none() {
    let plain = json(&retrace(&["check", BRANDIS_AFTER_KA2XNA1, "--json"], ""));
    assert_eq!(plain["verdict"], "illegal");
    assert_eq!(plain["reasons"][0]["code"], "closure", "{plain}");

    let plain = json(&retrace(&["check", DIES_WITHIN_TWO_PLIES, "--json"], ""));
    assert_eq!(plain["verdict"], "illegal", "{plain}");
    assert_eq!(plain["reasons"][0]["code"], "closure", "{plain}");
    assert!(
        plain["reasons"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("within 2 plies")),
        "{plain}"
    );

    let plain = json(&retrace(&["check", DIES_AT_ONCE, "--json"], ""));
    assert_eq!(plain["verdict"], "no_contradiction");
    assert!(plain.get("retraction").is_none(), "only with --prove");

    let out = retrace(&["check", DIES_AT_ONCE, "--prove", "4", "--json"], "");
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["verdict"], "illegal");
    assert_eq!(v["reasons"][0]["code"], "no_history");
    let r = &v["retraction"];
    assert_eq!(r["depth"], 4);
    assert_eq!(r["complete"], true);
    assert!(r["history"].is_null());
    let tries = r["tries"].as_array().expect("tries");
    // b6-b5 and f7-f6.
    assert_eq!(tries.len(), 2, "{tries:?}");
    assert!(tries
        .iter()
        .all(|t| t["survived"] == 0 && t["repeats"] == false && t["cut"] == "illegal"));
    assert_eq!(r["longest"]["plies"], 0);

    // The real position: a history exists, and it starts with the only possible last move.
    let v = json(&retrace(&["check", BRANDIS, "--prove", "4", "--json"], ""));
    assert_eq!(v["verdict"], "no_contradiction");
    let history = v["retraction"]["history"].as_array().expect("a history");
    assert_eq!(history.len(), 4);
    assert_eq!(history[0], "Ka2-a1");
    assert_eq!(v["retraction"]["longest"]["plies"], 4);
    assert_eq!(
        v["retraction"]["longest"]["line"],
        v["retraction"]["history"]
    );
    let text = retrace(&["check", BRANDIS, "--prove", "4"], "");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("a history of at least 4 plies without repetition exists"),
        "{text}"
    );

    for bad in ["x", "-1", "1000"] {
        let out = retrace(&["check", BRANDIS, "--prove", bad], "");
        assert!(common::is_bad_input(&out), "--prove {bad}");
    }
}

#[test]
fn check_batch_mode_keeps_order() {
    let input = "4k3/8/8/8/8/8/8/4R1K1 w - -\nnonsense\n8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\n";
    let out = retrace(&["check", "-", "--json"], input);
    let verdicts: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .collect();
    assert_eq!(verdicts.len(), 3);
    assert_eq!(verdicts[0]["verdict"], "illegal");
    assert!(verdicts[1]["error"].is_string());
    assert_eq!(verdicts[2]["verdict"], "no_contradiction");
}

#[test]
fn cage_verify_json_gives_the_verdict_and_an_escape() {
    let caged = json(&retrace(
        &["cage", "verify", "8/8/8/8/8/8/PPkPP3/KR1b4", "--json"],
        "",
    ));
    assert_eq!(caged["cage"], true);
    assert!(caged["line"].as_array().is_some_and(Vec::is_empty));
    // A unit added on g1 lets the rook out: not a cage, and the line shows how.
    let open = json(&retrace(
        &["cage", "verify", "8/8/8/8/8/5P2/4PrPP/7K", "--json"],
        "",
    ));
    assert_eq!(open["cage"], false);
    let line: Vec<&str> = open["line"]
        .as_array()
        .expect("line")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(!line.is_empty(), "{open}");
    let bad = retrace(&["cage", "verify", "8/8/x", "--json"], "");
    assert_eq!(bad.status.code(), Some(2));
    let bad = retrace(
        &[
            "cage",
            "verify",
            "8/8/8/8/8/8/PPkPP3/KR1b4",
            "--zone",
            "a1,q9",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
}

/// `--captures` bounds the captures of the extensions, as a cage line's `captures=` does: a white
/// bishop on e4 beside White's light-squared one is promoted, and with White's e-pawn at home and
/// no capture allowed, the f-pawn promoted on f8 (dark), so the light e4 bishop cannot be it.
#[test]
fn cage_verify_takes_capture_bounds() {
    let verify = |extra: &[&str]| {
        let mut args = vec!["cage", "verify", "8/8/8/8/4B3/8/PPPPP1PP/5B2", "--json"];
        args.extend_from_slice(extra);
        json(&retrace(&args, ""))
    };
    assert_eq!(verify(&["--captures", "w0"])["cage"], true);
    assert!(verify(&["--captures", "w0"])["cage_line"]
        .as_str()
        .is_some_and(|l| l.ends_with("captures=w0")));
    // One capture lets the f-pawn change colour on its way; no bound at all, too.
    assert_eq!(verify(&["--captures", "w1"])["cage"], false);
    assert_eq!(verify(&[])["cage"], false);
    let bad = retrace(
        &[
            "cage",
            "verify",
            "8/8/8/8/4B3/8/PPPPP1PP/5B2",
            "--captures",
            "x9",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr_lines(&bad), 1);
}

#[test]
fn cages_file_makes_solve_unique_and_check_explain() {
    let dir = std::env::temp_dir().join(format!("retrace-cli-cages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.cages");
    std::fs::write(
        &good,
        "# Brandis's corner after a2xb3\n8/8/8/8/8/8/PPkPP3/KR1b4\n",
    )
    .expect("write");
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", BRANDIS, "--depth", "1", "--json"];
        args.extend_from_slice(extra);
        json(&retrace(&args, ""))
    };
    let without = solve(&["--no-auto-cages"]);
    assert_eq!(without["solutions"].as_array().map(Vec::len), Some(6));
    assert_eq!(without["refuted"], serde_json::json!([]));
    let with = solve(&["--cages", good.to_str().expect("path"), "--no-auto-cages"]);
    assert_eq!(with["solutions"], serde_json::json!([["Ka2-a1"]]));
    // The automatic cage attempt finds the corner itself, and says why each capture dies.
    let auto = solve(&[]);
    assert_eq!(auto["solutions"], serde_json::json!([["Ka2-a1"]]));
    let refuted = auto["refuted"].as_array().expect("refuted");
    assert_eq!(refuted.len(), 5, "{refuted:?}");
    for r in refuted {
        assert_eq!(r["reason"]["code"], "cage");
        assert!(
            r["line"][0].as_str().is_some_and(|m| m.starts_with("a2x")),
            "{r}"
        );
    }
    let after = "8/8/8/8/8/1p6/PPkPP3/KR1b4 w - -";
    let check = json(&retrace(
        &[
            "check",
            after,
            "--cages",
            good.to_str().expect("path"),
            "--json",
        ],
        "",
    ));
    assert_eq!(check["verdict"], "illegal");
    assert_eq!(check["reasons"][0]["code"], "cage");
    // An unverifiable cage in the file is an error, not a silent skip.
    let bad = dir.join("bad.cages");
    std::fs::write(&bad, "8/8/8/8/8/5P2/4PrPP/7K\n").expect("write");
    let out = retrace(
        &["check", after, "--cages", bad.to_str().expect("path")],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cage_verify_batch_mode_answers_line_by_line() {
    let input = "8/8/8/8/8/8/PPkPP3/KR1b4\nbad\n8/8/8/8/8/5P2/4PrPP/7K\n";
    let out = retrace(&["cage", "verify", "-", "--json"], input);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the bad line makes the batch exit 2"
    );
    let docs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["cage"], true);
    assert!(docs[1]["error"].is_string());
    assert_eq!(docs[2]["cage"], false);
}

/// Runs the binary with `args`, sends it SIGINT after 800 ms, and returns what it printed.
fn interrupted(args: &[&str]) -> Output {
    common::interrupt_after(
        args,
        Stdio::inherit(),
        std::time::Duration::from_millis(800),
    )
    .0
}

#[test]
fn ctrl_c_during_solve_prints_what_was_found_and_exits_130() {
    let out = interrupted(&[
        "solve",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "--depth",
        "7",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(130));
    let doc = json(&out);
    assert_eq!(doc["complete"], false);
    assert!(doc["nodes"].as_u64().is_some_and(|n| n > 0));
}

/// Ctrl-C during a proof-game search prints the games found so far (the first 1,000 kept, all
/// counted) marked incomplete, and exits 130: the search heeds the flag, so the handler waits for
/// the answer instead of cutting the process off.
#[test]
fn ctrl_c_during_proofgame_prints_what_was_found_and_exits_130() {
    // Eight moves a side back to the initial array: knights' round trips, hundreds of thousands
    // of games, far more than 0.8 s of search.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let out = interrupted(&["proofgame", start, "--plies", "16", "--json"]);
    assert_eq!(out.status.code(), Some(130));
    let doc = json(&out);
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["unique"], serde_json::Value::Null);
    let count = doc["count"].as_u64().expect("a count");
    let kept = doc["solutions"].as_array().expect("solutions").len() as u64;
    assert_eq!(kept, count.min(1000));
}

/// Kiesow, Die Schwalbe 2003: proof game in 3.5 moves, unique (1.e3 d6 2.Qh5 Bg4 3.e4 Bd1 4.Qxd1).
const KIESOW: &str = "rn1qkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR";

#[test]
fn proofgame_prints_the_game_forward_and_says_unique_only_when_complete() {
    let out = retrace(&["proofgame", KIESOW, "--moves", "3.5", "--json"], "");
    assert!(out.status.success());
    let doc = json(&out);
    assert_eq!(doc["plies"], 7);
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["unique"], true);
    assert_eq!(
        doc["solutions"],
        serde_json::json!(["1.e3 d6 2.Qh5 Bg4 3.e4 Bd1 4.Qxd1"])
    );
    // --plies says the same; a full FEN too.
    let by_plies = retrace(&["proofgame", KIESOW, "--plies", "7", "--json"], "");
    assert_eq!(json(&by_plies)["solutions"], doc["solutions"]);
    let fen = format!("{KIESOW} b - - 0 4");
    let text = retrace(&["proofgame", &fen, "--moves", "3.5"], "");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("1 proof game in 3.5 moves (7 plies)"),
        "{text}"
    );
    assert!(
        text.contains("unique") && text.contains("1. 1.e3 d6 2.Qh5"),
        "{text}"
    );
    // A search cut short knows nothing of uniqueness.
    let cut = retrace(
        &[
            "proofgame",
            KIESOW,
            "--moves",
            "3.5",
            "--max-nodes",
            "50",
            "--json",
        ],
        "",
    );
    let cut = json(&cut);
    assert_eq!(cut["complete"], false);
    assert!(cut["unique"].is_null(), "{cut}");
}

/// The games of exactly `plies` plies from the initial array that end on `board` with its side to
/// move, counted forward by shakmaty: the oracle for small proof games.
fn forward_games(board: &shakmaty::Board, plies: u32) -> usize {
    use shakmaty::{Chess, Position};
    fn walk(pos: &Chess, left: u32, board: &shakmaty::Board) -> usize {
        if left == 0 {
            return usize::from(pos.board() == board);
        }
        pos.legal_moves()
            .iter()
            .map(|&m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                walk(&next, left - 1, board)
            })
            .sum()
    }
    walk(&Chess::default(), plies, board)
}

#[test]
fn proofgame_finds_every_game_and_max_cuts_the_search_short() {
    // The initial array again after 2 moves: each side's knight goes out and back (4 x 4 games).
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let expected = forward_games(&start.parse().expect("board"), 4);
    assert_eq!(expected, 16);
    let doc = json(&retrace(
        &["proofgame", start, "--moves", "2", "--json"],
        "",
    ));
    let games = doc["solutions"].as_array().expect("solutions");
    assert_eq!(games.len(), expected);
    assert_eq!(
        (doc["complete"].as_bool(), doc["unique"].as_bool()),
        (Some(true), Some(false))
    );
    let distinct: std::collections::HashSet<&str> =
        games.iter().filter_map(Value::as_str).collect();
    assert_eq!(distinct.len(), expected, "{games:?}");
    let cut = json(&retrace(
        &["proofgame", start, "--moves", "2", "--max", "3", "--json"],
        "",
    ));
    assert_eq!(cut["solutions"].as_array().map(Vec::len), Some(3));
    assert_eq!(cut["complete"], false);
    assert!(cut["unique"].is_null());
}

#[test]
fn proofgame_says_impossible_only_when_no_game_exists() {
    // 1.e4 e5 2.Ke2 Ke7: four plies, not two.
    let board = "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR";
    assert_eq!(forward_games(&board.parse().expect("board"), 2), 0);
    let doc = json(&retrace(
        &["proofgame", board, "--moves", "1", "--json"],
        "",
    ));
    assert_eq!(doc["solutions"], serde_json::json!([]));
    assert_eq!(
        (doc["complete"].as_bool(), doc["unique"].as_bool()),
        (Some(true), Some(false))
    );
    let doc = json(&retrace(
        &["proofgame", board, "--moves", "2", "--json"],
        "",
    ));
    assert_eq!(doc["solutions"], serde_json::json!(["1.e4 e5 2.Ke2 Ke7"]));
}

/// `--shortest` on a bare board: every length is tried with its side to move, and the answer is
/// the least length forward play reaches the board in, with all its games.
#[test]
fn proofgame_shortest_finds_the_least_length_forward_play_confirms() {
    let boards = [
        // 1.e4 e5 2.Ke2 Ke7: four plies.
        "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR",
        // A knight's trip and back for White, one pawn step for Black: 1.Nf3 e6 2.Ng1 (three
        // plies), or longer orders; Black to move.
        "rnbqkbnr/pppp1ppp/4p3/8/8/8/PPPPPPPP/RNBQKBNR",
    ];
    for board in boards {
        let doc = json(&retrace(&["proofgame", board, "--shortest", "--json"], ""));
        let plies = u32::try_from(doc["plies"].as_u64().expect("plies")).expect("small");
        assert_eq!(doc["shortest"], true, "{board}");
        assert_eq!(doc["complete"], true, "{board}");
        let parsed: shakmaty::Board = board.parse().expect("board");
        for shorter in 0..plies {
            assert_eq!(
                forward_games(&parsed, shorter),
                0,
                "{board} in {shorter} plies"
            );
        }
        assert_eq!(
            doc["count"].as_u64(),
            Some(forward_games(&parsed, plies) as u64),
            "{board}"
        );
    }
    // A cap below the least length: none found, every length searched.
    let board = boards[0];
    let doc = json(&retrace(
        &[
            "proofgame",
            board,
            "--shortest",
            "--longest",
            "1.5",
            "--json",
        ],
        "",
    ));
    assert_eq!(
        (doc["count"].as_u64(), doc["shortest"].as_bool()),
        (Some(0), Some(false))
    );
    assert_eq!(doc["complete"], true);
    // --longest belongs to --shortest alone.
    let out = retrace(&["proofgame", board, "--moves", "2", "--longest", "3"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn proofgame_exact_fen_makes_a_missing_castling_right_a_lost_one() {
    // The initial array with White's king-side right gone: the king or h1 rook moved and came
    // back, and the g1 knight had to step aside first (Nf3 Rg1 Rh1 Ng1): four White moves.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1";
    let loose = json(&retrace(
        &["proofgame", fen, "--moves", "2", "--max", "1", "--json"],
        "",
    ));
    assert_eq!(loose["solutions"].as_array().map(Vec::len), Some(1));
    for moves in ["2", "3"] {
        let exact = json(&retrace(
            &["proofgame", fen, "--moves", moves, "--exact-fen", "--json"],
            "",
        ));
        assert_eq!(exact["solutions"], serde_json::json!([]), "{moves} moves");
        assert_eq!(exact["complete"], true);
    }
    let exact = json(&retrace(
        &[
            "proofgame",
            fen,
            "--moves",
            "4",
            "--exact-fen",
            "--max",
            "1",
            "--json",
        ],
        "",
    ));
    let game = exact["solutions"][0]
        .as_str()
        .expect("a game in four moves");
    assert!(
        game.contains("Rg1") || game.contains("Kf1") || game.contains("Ke2"),
        "{game}"
    );
}

#[test]
fn proofgame_pgn_export_and_bad_lengths() {
    let dir = std::env::temp_dir().join(format!("retrace-pg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("games.pgn");
    let path = file.to_str().expect("utf-8 path");
    let out = retrace(&["proofgame", KIESOW, "--moves", "3.5", "--pgn", path], "");
    assert!(out.status.success());
    let pgn = std::fs::read_to_string(&file).expect("the PGN is written");
    assert!(pgn.contains("[Round \"1\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e3 d6 2. Qh5 Bg4 3. e4 Bd1 4. Qxd1 *"),
        "{pgn}"
    );
    assert!(
        !pgn.contains("[FEN"),
        "a game from the initial array needs no FEN: {pgn}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let black_to_move = format!("{KIESOW} b - -");
    for args in [
        &["proofgame", &black_to_move, "--moves", "3"][..],
        &["proofgame", KIESOW, "--moves", "3.7"],
        &["proofgame", KIESOW, "--moves", "3.5", "--plies", "7"],
        &["proofgame", KIESOW],
        &["proofgame", KIESOW, "--plies", "999"],
    ] {
        let out = retrace(args, "");
        assert!(common::is_bad_input(&out), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn proofgame_batch_answers_line_by_line() {
    let input = format!("{KIESOW}\nnot a board\n{KIESOW} w - -\n");
    let out = retrace(&["proofgame", "-", "--moves", "3.5", "--json"], &input);
    assert_eq!(out.status.code(), Some(2));
    let docs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["unique"], true);
    assert!(docs[1]["error"].is_string() && docs[2]["error"].is_string());
}

#[test]
fn ctrl_c_during_proofgame_stops_it_incomplete_and_exits_130() {
    // A published proof game in 25.5 moves: far beyond a second's search.
    let out = interrupted(&[
        "proofgame",
        "rn1QKB1R/3p1pp1/1pp1p1n1/7p/pP2r2P/3PPPPB/P1P5/RNbqkbN1 b - -",
        "--moves",
        "25.5",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(130));
    let doc = json(&out);
    assert_eq!(doc["complete"], false);
    assert!(doc["unique"].is_null(), "{doc}");
}

/// Clap renders command-line errors in full: the missing option is named, a typo gets a
/// suggestion, a value out of range or outside an enum says which values are allowed; with
/// `--json` stdout still gets one `{"error"}` document.
#[test]
fn command_line_errors_are_rendered_in_full_by_clap() {
    let stderr = |args: &[&str]| {
        let out = retrace(args, "");
        assert!(common::is_bad_input(&out), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(stderr(&["solve", BRANDIS]).contains("--depth <N>"));
    assert!(stderr(&["chek", BRANDIS]).contains("a similar subcommand exists: 'check'"));
    assert!(stderr(&["solve", BRANDIS, "--detph", "1"])
        .contains("a similar argument exists: '--depth'"));
    assert!(stderr(&["perft", BRANDIS, "13"]).contains("13 is not in 0..=12"));
    assert!(stderr(&["solve", BRANDIS, "--depth", "65"]).contains("65 is not in 0..=64"));
    assert!(
        stderr(&["solve", BRANDIS, "--depth", "1", "--no-uncapture", "nobody"])
            .contains("[possible values: white, black, both]")
    );
    assert!(stderr(&["list", BRANDIS, "--frozen", "a1,z9"]).contains("'z9'"));
    assert!(stderr(&["proofgame", BRANDIS]).contains("--moves <N>"));
    assert!(
        stderr(&["proofgame", BRANDIS, "--moves", "3", "--plies", "6"])
            .contains("cannot be used with")
    );
    let out = retrace(&["perft", BRANDIS, "two", "--json"], "");
    let doc = json(&out);
    let error = doc["error"].as_str().expect("an error document");
    assert!(error.contains("'two'") && !error.contains('\n'), "{error}");
    // Values clap parses reach the command: aliases, delimiters.
    let out = retrace(
        &[
            "solve",
            BRANDIS,
            "--depth",
            "1",
            "--no-uncapture",
            "w",
            "--json",
        ],
        "",
    );
    assert!(out.status.success());
    let out = retrace(
        &[
            "list",
            BRANDIS,
            "--frozen",
            "d2,b2",
            "--retract",
            "white",
            "--json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The README's shell lines run as pasted, from the repository's root: every line of its `sh`
/// blocks but the cargo commands (the build itself) and the bare REPL goes through `sh -c` with
/// the binary first on the PATH and a fresh home directory, and succeeds. A line whose pipe ends
/// in a program this machine lacks (`man`) is skipped.
#[test]
fn readme_shell_lines_run_as_pasted() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_retrace"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let home = std::env::temp_dir().join(format!("retrace-readme-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a fresh home");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let has = |program: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .env("PATH", &path)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let mut ran = 0;
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        let command = line.split("  #").next().unwrap_or(line).trim();
        if !in_sh || command.is_empty() || command.starts_with("cargo ") || command == "retrace" {
            continue;
        }
        let last = command.rsplit('|').next().unwrap_or(command);
        let program = last.split_whitespace().next().unwrap_or("");
        if command.contains('|') && !has(program) {
            continue;
        }
        let out = Command::new("sh")
            .args(["-c", &format!("set -e; {command}")])
            .env("PATH", &path)
            .env("HOME", &home)
            .env("MANPAGER", "cat")
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .expect("sh starts");
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    let _ = std::fs::remove_dir_all(&home);
    assert!(ran >= 9, "only {ran} README lines ran");
}

/// Solutions read as a composer publishes them: numbered retro notation (White's retraction
/// then Black's in each retro move; `-1...` when Black moved last) and a summary by last move.
#[test]
fn solutions_are_numbered_and_grouped_by_last_move() {
    // The layout itself is in the golden files (tests/golden.rs); here, that the summary
    // counts every solution found once.
    let kings = "4k3/8/8/8/8/8/8/4K3 w - -";
    let out = retrace(&["solve", kings, "--depth", "2"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("   1. -1... Kd7-e8 -2.Kd1-e1\n"), "{text}");
    let groups = text
        .lines()
        .find_map(|l| l.strip_prefix("by last move ("))
        .and_then(|l| l.split_once("): "))
        .map(|(_, groups)| groups)
        .expect("a summary");
    // Every solution is counted once, in a group named by its first retraction.
    let counted: usize = groups
        .split("; ")
        .map(|g| {
            let (_, n) = g.split_once(": ").expect("move: count");
            n.split(' ')
                .next()
                .and_then(|n| n.parse::<usize>().ok())
                .expect("a count")
        })
        .sum();
    // Every solution found: the first line's count, kept or not.
    let solutions: usize = text
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert_eq!(counted, solutions, "{text}");
    // Lines one ply long share no last move: no summary.
    let out = retrace(&["solve", BRANDIS, "--depth", "1", "--no-auto-cages"], "");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("by last move"));
}

/// The summary by last move counts every solution found, not only the kept ones: it agrees with
/// the solutions `--jsonl` streams, all of them, counted here one by one.
#[test]
fn the_summary_by_last_move_counts_every_solution_found() {
    // Two rooks each side: 10,291 solutions two plies deep, far more than are kept.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w - -";
    let out = retrace(&["solve", fen, "--depth", "2", "--json"], "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let count = doc["count"].as_u64().expect("count");
    let kept = doc["solutions"].as_array().expect("solutions").len() as u64;
    assert!(count > kept, "{count} solutions, {kept} kept");
    let summary: Vec<(String, u64)> = doc["by_last_move"]
        .as_array()
        .expect("by_last_move")
        .iter()
        .map(|g| {
            let last = g["move"].as_str().expect("move").to_owned();
            (last, g["count"].as_u64().expect("count"))
        })
        .collect();
    // Every solution streamed, tallied by its first retraction in the order first seen.
    let out = retrace(&["solve", fen, "--depth", "2", "--jsonl"], "");
    let mut tally: Vec<(String, u64)> = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a json line");
        if let Some(solution) = v["solution"].as_array() {
            let last = solution[0].as_str().expect("a retraction").to_owned();
            match tally.iter_mut().find(|(m, _)| *m == last) {
                Some((_, n)) => *n += 1,
                None => tally.push((last, 1)),
            }
        }
    }
    assert_eq!(tally.iter().map(|(_, n)| n).sum::<u64>(), count);
    assert_eq!(summary, tally);
    // The text names as many last moves, and the count of one that is mostly not kept.
    let text = retrace(&["solve", fen, "--depth", "2"], "");
    let text = String::from_utf8_lossy(&text.stdout);
    let heading = format!("by last move ({} last moves): ", tally.len());
    assert!(text.contains(&heading), "{text}");
    let (last, n) = tally.last().expect("a last move");
    assert!(text.contains(&format!("{last}: {n} lines")), "{text}");
}

/// `solve` says why an illegal position has no last move, with the analysis's reason, and the
/// JSON carries it; a legal position gets no such sentence.
#[test]
fn solve_says_why_an_illegal_position_has_no_last_move() {
    // Black made the last move, yet White's rook on a1 checks its king.
    let illegal = "k7/8/8/8/8/8/8/R6K w - -";
    let out = retrace(&["solve", illegal, "--depth", "1"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("the position is illegal"), "{text}");
    assert!(text.contains("retracting_king_in_check"), "{text}");
    assert!(text.contains("0 solutions"), "{text}");
    let out = retrace(&["solve", illegal, "--depth", "1", "--json"], "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["illegal"][0]["code"], "retracting_king_in_check");
    // The near miss: the same rook away from the king's file, and the position is legal.
    let legal = "k7/8/8/8/8/8/8/1R5K w - -";
    let out = retrace(&["solve", legal, "--depth", "1"], "");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("illegal"));
    let out = retrace(&["solve", legal, "--depth", "1", "--json"], "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["illegal"], serde_json::json!([]));
}

/// Candidates that all die of the same cage get the cage's sentence once.
#[test]
fn one_cage_that_refutes_every_candidate_is_said_once() {
    let out = retrace(&["solve", BRANDIS, "--depth", "1"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("form a cage").count(), 1, "{text}");
    assert!(
        text.contains("refuted by cages: after each of these, the units on"),
        "{text}"
    );
    assert!(text.contains("      a2xPb3?\n"), "{text}");
}

/// Shell completions and the man page come from the clap definitions, so they name every
/// subcommand and option as the parser knows them.
#[test]
fn completions_and_man_page_are_generated_from_the_definitions() {
    let bash = retrace(&["completions", "bash"], "");
    assert!(bash.status.success());
    let bash = String::from_utf8_lossy(&bash.stdout);
    for word in [
        "check",
        "solve",
        "proofgame",
        "retractor",
        "--depth",
        "--no-uncapture",
        "--jobs",
    ] {
        assert!(bash.contains(word), "{word}");
    }
    let zsh = retrace(&["completions", "zsh"], "");
    assert!(
        zsh.status.success() && String::from_utf8_lossy(&zsh.stdout).contains("#compdef retrace")
    );
    let man = retrace(&["man"], "");
    assert!(man.status.success());
    let man = String::from_utf8_lossy(&man.stdout);
    assert!(
        man.contains(".TH retrace 1") && man.contains("solve"),
        "{man}"
    );
    assert!(common::is_bad_input(&retrace(&["completions", "tcsh"], "")));
    // Each subcommand has a page of its own, with its options.
    for (sub, option) in [
        ("check", "prove"),
        ("solve", "depth"),
        ("proofgame", "plies"),
    ] {
        let page = retrace(&["man", sub], "");
        assert!(page.status.success(), "{sub}");
        let page = String::from_utf8_lossy(&page.stdout);
        assert!(page.contains(&format!(".TH retrace-{sub} 1")), "{page}");
        assert!(page.contains(option), "{sub}: {page}");
    }
    let unknown = retrace(&["man", "solv"], "");
    assert!(common::is_bad_input(&unknown));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("the pages are check, rights"));
}

/// `proofgame` names both ways of giving the length when none is given, and its help says a
/// board field alone is enough (the length says who is to move).
#[test]
fn proofgame_asks_for_either_length() {
    let out = retrace(
        &["proofgame", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"],
        "",
    );
    assert!(common::is_bad_input(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--moves") && err.contains("--plies"), "{err}");
    let both = retrace(
        &[
            "proofgame",
            "8/8/8/8/8/8/8/K6k",
            "--moves",
            "2",
            "--plies",
            "4",
        ],
        "",
    );
    assert!(common::is_bad_input(&both));
    let help = retrace(&["proofgame", "--help"], "");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("the side to move follows from the length"),
        "{help}"
    );
    assert!(!help.contains("then --retract is required"), "{help}");
}

#[test]
fn a_cage_file_with_bad_lines_reports_every_one_in_one_error_line() {
    let dir = std::env::temp_dir().join(format!("retrace-cli-badcages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.cages");
    std::fs::write(
        &file,
        "8/8/8/8/8/8/4PPrP/7K\n# a comment\nnot a board\n8/8/8/8/8/8/PPkPP3/KR1b4\n",
    )
    .expect("write");
    let out = retrace(
        &[
            "solve",
            BRANDIS,
            "--depth",
            "1",
            "--cages",
            file.to_str().expect("path"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Every refused line is named; the reasons follow as far as one line holds them, never cut
    // inside a word.
    assert!(err.contains("2 lines refused (1, 3)"), "{err}");
    assert!(err.contains("line 1: not a verified cage"), "{err}");
    let last_word = err.trim_end().rsplit(' ').next().unwrap_or_default();
    assert!(!last_word.ends_with("...") || last_word.len() > 3, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --exact-fen`: the FEN's fields reach the verdict and `--prove`; `?` leaves a field
/// unknown, and without the flag nothing changes.
#[test]
fn check_exact_fen_reads_the_castling_and_en_passant_fields_as_facts() {
    let codes = |doc: &Value| -> Vec<String> {
        doc["reasons"]
            .as_array()
            .expect("reasons")
            .iter()
            .map(|r| r["code"].as_str().expect("code").to_owned())
            .collect()
    };
    // Amelung 1897: only g7-g5 can have been the last move, and it allows h5xg6 e.p.
    let amelung = "7R/7p/5P1k/4PKpP/8/8/8/8 w - - 0 1";
    let exact = json(&retrace(&["check", amelung, "--exact-fen", "--json"], ""));
    assert_eq!(exact["verdict"], "illegal");
    assert_eq!(codes(&exact), ["en_passant_field"]);
    // solve --exact-fen finds no last move, and says why.
    let solved = json(&retrace(
        &["solve", amelung, "--depth", "1", "--exact-fen", "--json"],
        "",
    ));
    assert_eq!(solved["count"], 0);
    assert_eq!(solved["illegal"][0]["code"], "en_passant_field", "{solved}");
    for plain in [
        retrace(&["check", amelung, "--json"], ""),
        retrace(
            &[
                "check",
                "7R/7p/5P1k/4PKpP/8/8/8/8 w - ? 0 1",
                "--exact-fen",
                "--json",
            ],
            "",
        ),
    ] {
        assert_eq!(json(&plain)["verdict"], "no_contradiction");
    }
    // With --prove on a position the analysis passes: e7-e5 is cut by the field, the king's
    // moves still make a history.
    let open = "4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1";
    let doc = json(&retrace(
        &["check", open, "--exact-fen", "--prove", "3", "--json"],
        "",
    ));
    assert_eq!(doc["verdict"], "no_contradiction");
    assert!(doc["retraction"]["history"][0] != "e7-e5", "{doc}");
    // A lost right whose king and rook never moved (the knight on g1 marked as never moved).
    let lost = "r1bqkbnr/pppp1ppp/2n1p3/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1";
    let doc = json(&retrace(
        &["check", lost, "--frozen", "g1", "--exact-fen", "--json"],
        "",
    ));
    assert_eq!(codes(&doc), ["lost_right_unmoved"]);
    let free = json(&retrace(
        &["check", lost, "--exact-fen", "--prove", "8", "--json"],
        "",
    ));
    assert_eq!(free["verdict"], "no_contradiction");
    assert!(free["retraction"]["history"].is_array(), "{free}");
}
