//! The REPL's commands run from scripts and pipes: every command, its output, and its errors.

mod common;

use std::process::Output;

fn run_script(args: &[&str], script: &str) -> Output {
    common::run(args, script.as_bytes())
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const BRANDIS: &str = "board 8/8/8/8/8/1P6/1PkPP3/KR1b4 w\n";

#[test]
fn setting_up_three_ways_gives_the_same_position() {
    let out = run_script(
        &[],
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\nboard 8/8/8/8/8/1P6/1PkPP3/KR1b4 w\n\
         pieces white Ka1 Rb1 b2 b3 d2 e2 black Kc2 Bd1 retract w\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(
        text.matches("FEN 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - - 0 1")
            .count(),
        3,
        "{text}"
    );
    // The plain board, as scripts and NO_COLOR get it.
    assert!(text.contains("1  K R . b . . . ."), "{text}");
    // flip turns it: Black's side at the bottom, files from h to a.
    let flipped = stdout(&run_script(&[], &format!("{BRANDIS}flip\n")));
    assert!(
        flipped.contains("1  . . . . b . R K") && flipped.contains("   h g f e d c b a"),
        "{flipped}"
    );
    assert!(
        flipped.trim_end().ends_with("legal retractions"),
        "{flipped}"
    );
}

#[test]
fn retract_undo_redo_start_and_history() {
    let script =
        format!("{BRANDIS}retract a2xPb3\n1\nhistory\nundo\nundo\nredo\nredo\nstart\nhistory\n");
    let out = run_script(&[], &script);
    let text = stdout(&out);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(text.contains("retracted a2xPb3"), "{text}");
    // The history lists the last move first, then the same line as a forward game.
    let history = text
        .split("retracted (last move first): ")
        .nth(1)
        .expect("a history");
    assert!(history.starts_with("a2xPb3 "), "{history}");
    assert!(
        history.contains("[SetUp \"1\"]") && history.contains("axb3 *"),
        "{history}"
    );
    assert!(
        text.ends_with("no retractions yet\n"),
        "start goes back to the position set up"
    );
}

#[test]
fn a_move_alone_and_a_number_alone_retract() {
    let text = stdout(&run_script(&[], &format!("{BRANDIS}a2xQb3\nundo\n6\n")));
    assert!(
        text.contains("retracted a2xQb3") && text.contains("retracted a2xPb3"),
        "{text}"
    );
}

#[test]
fn paste_is_all_or_nothing() {
    let out = run_script(
        &[],
        &format!("{BRANDIS}paste a2xPb3 Ke1-e2\nshow\npaste a2xPb3 Kc3-c2\nhistory\n"),
    );
    let err = stderr(&out);
    assert!(
        err.contains("move 2 of the paste") && err.contains("nothing was retracted"),
        "{err}"
    );
    let text = stdout(&out);
    assert!(text.contains("retracted 2 moves"), "{text}");
    assert!(
        text.contains("retracted (last move first): a2xPb3 Kc3-c2"),
        "{text}"
    );
}

#[test]
fn retracting_into_an_illegal_position_offers_to_go_back() {
    // After Kb2-a1?? White's king would stand next to Black's: the generator refuses that; instead
    // use a retraction into a retro-stalemate found by the analysis.
    let script = "fen 8/8/8/8/8/8/1p6/K1k5 b - -\nlist\n";
    let text = stdout(&run_script(&[], script));
    assert!(text.contains("White retracts"), "{text}");
}

#[test]
fn solve_lists_solutions_and_step_walks_into_one() {
    let script =
        "fen 8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1\nsolve 3 extra 1\nstep 1\nhistory\nsolutions\n";
    let out = run_script(&[], script);
    let text = stdout(&out);
    assert!(text.contains("1 solution ("), "{text}");
    assert!(
        text.contains("   1. -1.Kf5xNe5 f4xg3ep+ -2.g2-g4"),
        "{text}"
    );
    assert!(
        text.contains("retracted (last move first): Kf5xNe5 f4xg3ep+ g2-g4"),
        "{text}"
    );
    assert!(text.contains("1. g4 fxg3+ 2. Kxe5 *"), "{text}");
    let bad = run_script(
        &[],
        "solve\nsolve 999\nsolve 2 extra\nsolve 2 bogus 1\nstep 1\n",
    );
    assert_eq!(stderr(&bad).lines().count(), 5, "{}", stderr(&bad));
}

#[test]
fn marks_change_what_may_retract() {
    let text = stdout(&run_script(
        &[],
        "fen 4k3/8/8/8/8/8/8/3QK3 b - -\nmark frozen e1\nlist\nmark promoted e1\n",
    ));
    assert!(text.contains("frozen: e1"), "{text}");
    assert!(
        text.contains("White retracts: 60 legal retractions"),
        "{text}"
    );
    let out = run_script(
        &[],
        &format!("{BRANDIS}mark promoted a1\nmark frozen z9\nmark sideways a1\n"),
    );
    assert_eq!(stderr(&out).lines().count(), 3, "{}", stderr(&out));
}

#[test]
fn export_prints_or_writes() {
    let dir = std::env::temp_dir().join(format!("retrace-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("line.pgn");
    let script = format!(
        "{BRANDIS}export fen\na2xPb3\nexport pgn {}\n",
        file.display()
    );
    let text = stdout(&run_script(&[], &script));
    assert!(
        text.contains("8/8/8/8/8/1P6/1PkPP3/KR1b4 b - - 0 1\n"),
        "{text}"
    );
    let pgn = std::fs::read_to_string(&file).expect("the PGN was written");
    assert!(
        pgn.contains("[FEN \"8/8/8/8/8/1p6/PPkPP3/KR1b4 w - - 0 1\"]") && pgn.contains("1. axb3 *"),
        "{pgn}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_lists_every_command_and_explains_each() {
    let text = stdout(&run_script(&[], "help\n"));
    for command in [
        "fen", "board", "pieces", "list", "retract", "paste", "undo", "redo", "history", "check",
        "solve", "step", "mark", "export", "quit",
    ] {
        assert!(
            text.contains(&format!("\n  {command}")),
            "help lists {command}: {text}"
        );
        let one = stdout(&run_script(&[], &format!("help {command}\n")));
        assert!(one.starts_with(command), "help {command}: {one}");
    }
}

#[test]
fn bad_input_is_one_line_and_changes_nothing() {
    let script = format!(
        "{BRANDIS}frobnicate\nretract Ke1-e2\nretract 99\nfen not/a/fen\nboard 8/8 x\npieces white Kz9 retract w\nundo\nredo\nback\nshow\n"
    );
    let out = run_script(&[], &script);
    assert!(
        out.status.success(),
        "errors do not end a script without --strict"
    );
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 9, "one line per bad command: {err}");
    assert!(err.lines().all(|l| l.starts_with("error: line ")), "{err}");
    let text = stdout(&out);
    assert_eq!(
        text.matches("FEN 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - - 0 1")
            .count(),
        2,
        "{text}"
    );
}

#[test]
fn strict_stops_at_the_first_error() {
    let out = run_script(
        &["repl", "--strict"],
        &format!("{BRANDIS}retract Ke1-e2\nlist\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !stdout(&out).contains("legal retractions\n  K"),
        "list did not run"
    );
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn script_file_runs_like_a_pipe() {
    let dir = std::env::temp_dir().join(format!("retrace-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("commands.txt");
    std::fs::write(&file, format!("# a comment\n{BRANDIS}list\nquit\nlist\n")).expect("write");
    let out = run_script(&["repl", "--script", file.to_str().expect("path")], "");
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).matches("legal retractions").count(),
        2,
        "quit ends the script"
    );
    let missing = run_script(&["repl", "--script", "/nonexistent/file"], "");
    assert_eq!(missing.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cages_verified_in_the_repl_decide_a_last_move_problem() {
    // Brandis: after a2xb3 the corner is a cage, so the last move can only be Ka2-a1.
    let dir = std::env::temp_dir().join(format!("retrace-cages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("corner.cages");
    let script = format!(
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\nsolve 1 auto-cages off\nretract a2xPb3\ncage verify all but b3\n\
         cage list\nundo\nsolve 1 auto-cages off\nretract a2xPb3\nback\ncage export {f}\ncage import {f}\ncage forget 1\n\
         cage list\nsolve 1 auto-cages off\ncage import {f}\nsolve 1 auto-cages off\ncage verify all but b2,b3,c2\n",
        f = file.display()
    );
    let out = run_script(&[], &script);
    let text = stdout(&out);
    assert!(text.contains("6 solutions ("), "without the cage: {text}");
    assert!(
        text.contains("stored as cage 1: 8/8/8/8/8/8/PPkPP3/KR1b4"),
        "{text}"
    );
    assert!(
        text.contains("1 solution (") && text.contains("   1. -1.Ka2-a1\n"),
        "{text}"
    );
    assert!(
        text.contains("cage: "),
        "the retraction into the cage is explained: {text}"
    );
    assert!(text.contains("took the retraction back"), "{text}");
    assert!(text.contains("no cages stored"), "{text}");
    assert!(text.contains("imported 1 cage(s)"), "{text}");
    // Imported while stored: named a duplicate, not silently nothing.
    assert!(
        text.contains("imported 0 cage(s)") && text.contains("(1 already stored: a duplicate"),
        "{text}"
    );
    // The exported file: one header line naming every field of the format, then the cage.
    let exported = std::fs::read_to_string(&file).expect("the cage file");
    let mut lines = exported.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("# ") && header.contains("captures="),
        "{exported}"
    );
    assert!(
        lines.all(|l| !l.starts_with('#')),
        "one header line: {exported}"
    );
    assert_eq!(
        text.matches("6 solutions (").count(),
        2,
        "forgotten, then solved again: {text}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("not a verified cage"),
        "a look-alike is refused: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cage_import_reports_bad_lines_and_keeps_the_rest() {
    let dir = std::env::temp_dir().join(format!("retrace-cage-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mixed.cages");
    std::fs::write(
        &file,
        "# two good cages, one look-alike, one malformed line\n8/8/8/8/8/8/PPkPP3/KR1b4\n\
         8/8/8/8/8/5P2/4PrPP/7K\nnot a board\n4B1rk/3ppKpp/8/8/8/8/8/8 depth=30\n",
    )
    .expect("write");
    let out = run_script(&[], &format!("cage import {}\ncage list\n", file.display()));
    let text = stdout(&out);
    assert!(text.contains("imported 2 cage(s)"), "{text}");
    assert!(
        text.contains("skipped line 3") && text.contains("skipped line 4"),
        "{text}"
    );
    assert!(text.contains("  2. 4B1rk/3ppKpp/8/8/8/8/8/8"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn prove_shows_a_history_to_step_into_or_proves_there_is_none() {
    let out = run_script(
        &[],
        &format!(
            "{BRANDIS}prove 3\nstep 1\nhistory\nprove 0\n\
             fen k1KB4/PpRpp1p1/b1p2p2/1p6/8/8/8/8 w - -\nprove 2\n\
             fen k1KQRb2/ppppp1p1/5p2/7p/8/8/8/8 w - -\nprove 4\n"
        ),
    );
    let text = stdout(&out);
    assert!(
        text.contains("a history of at least 3 plies without repetition exists (last move first):\n  Ka2-a1 Kc1-c2 Ra1xNb1+"),
        "{text}"
    );
    // Stepping in leaves the line at the history's end: three retractions taken.
    assert!(text.contains("solution 1"), "{text}");
    assert!(
        text.contains("FEN 8/8/8/8/8/1P6/KP1PP3/Rnkb4 w - - 0 1"),
        "{text}"
    );
    assert!(stderr(&out).contains("usage: prove N"), "{}", stderr(&out));
    assert!(
        text.contains("no history is 2 plies deep: every last move leads to an illegal position"),
        "{text}"
    );
    assert!(
        text.contains("into an illegal position at once: b6-b5 f7-f6"),
        "{text}"
    );
    // The closure answers this one before any search: every line dies within 2 plies, h6-h5's
    // after an uncapture the exact prefix follows one ply.
    assert!(
        text.contains("repeats a position or dies within 2 plies"),
        "{text}"
    );
    assert!(
        text.contains("into a closure (its lines only go round): h6-h5"),
        "{text}"
    );
}

#[test]
fn proofgame_lists_games_forward_and_step_walks_into_one() {
    let out = run_script(
        &[],
        "board rn1qkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w\nproofgame 4\nproofgame 3.5\nstep 1\nhistory\n",
    );
    let text = stdout(&out);
    assert!(
        stderr(&out).contains("White is to move, but in this position Black is"),
        "{}",
        stderr(&out)
    );
    assert!(
        text.contains("1 proof game in 3.5 moves (7 plies)")
            && text.contains("unique")
            && text.contains("1. 1.e3 d6 2.Qh5 Bg4 3.e4 Bd1 4.Qxd1"),
        "{text}"
    );
    assert!(text.contains("solution 1"), "{text}");
    assert!(
        text.contains("Qh5xBd1"),
        "the history retracts the game: {text}"
    );
}

#[test]
fn proofgame_shortest_in_the_repl_finds_the_least_length_and_steps_into_it() {
    let out = run_script(
        &[],
        "board rn1qkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w\nproofgame shortest\nstep 1\nhistory\nproofgame shortest longest\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("shortest: 1 proof game in 3.5 moves (7 plies)")
            && text.contains("no shorter game")
            && text.contains("1. 1.e3 d6 2.Qh5 Bg4 3.e4 Bd1 4.Qxd1"),
        "{text}"
    );
    assert!(
        text.contains("Qh5xBd1"),
        "the history retracts the game: {text}"
    );
    assert!(
        stderr(&out).contains("usage: proofgame"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn solve_in_the_repl_finds_the_cage_itself_and_says_why_each_capture_dies() {
    let out = run_script(&[], "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\nsolve 1\n");
    let text = stdout(&out);
    assert!(
        text.contains("1 solution (") && text.contains("   1. -1.Ka2-a1\n"),
        "{text}"
    );
    // Every capture dies of the one cage: its sentence once, then the five captures.
    assert!(
        text.contains("refuted by cages: after each of these, the units on"),
        "{text}"
    );
    assert_eq!(text.matches("form a cage").count(), 1, "{text}");
    for capture in ["a2xPb3?", "a2xNb3?", "a2xBb3?", "a2xRb3?", "a2xQb3?"] {
        assert!(text.contains(&format!("      {capture}\n")), "{text}");
    }
}

#[test]
fn cage_verify_in_the_repl_takes_a_node_budget() {
    let out = run_script(
        &[],
        "fen 4k3/8/8/8/8/2N2NP1/4PPrP/7K w - -\ncage verify all but e8 nodes 1\n\
         cage verify all but e8 nodes x\ncage verify all but e8 nodes 5000\n",
    );
    let err = stderr(&out);
    assert!(err.contains("gave up after 1 nodes"), "{err}");
    assert!(err.contains("nodes 'x' is not a positive number"), "{err}");
    let text = stdout(&out);
    assert!(
        text.contains("stored as cage 1: 8/8/8/8/8/2N2NP1/4PPrP/7K"),
        "{text}"
    );
}

/// What people paste: numbered retro sequences (`-1.` apart or glued), `e.p.` apart or glued,
/// `S` for a knight, a bare move or sequence without `retract`, and the rule an impossible
/// retraction breaks.
#[test]
fn pasted_retro_spellings_and_the_reason_for_a_refusal() {
    let ep = "fen 4k3/8/1P6/8/8/8/8/4K1N1 b - -\n";
    let after = "FEN 4k3/1p6/8/P7/8/8/8/4K1N1 b - - 0 1";
    for moves in [
        "paste -1.a5xb6 e.p. -1... b7-b5",
        "paste a5xb6e.p. b7-b5",
        "-1.a5xb6ep b7-b5",
        "-1. a5xb6 ep -1... b7-b5+",
    ] {
        let out = run_script(
            &["repl", "--strict", "--script", "/dev/stdin"],
            &format!("{ep}{moves}\n"),
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{moves}: {}", stderr(&out));
        assert!(text.contains("retracted 2 moves\n"), "{moves}: {text}");
        assert!(text.contains(after), "{moves}: {text}");
    }
    let knight = stdout(&run_script(
        &[],
        "fen 4k3/8/8/8/8/8/8/4K1N1 b - -\nSh3-g1\n",
    ));
    assert!(knight.contains("retracted Nh3-g1"), "{knight}");
    // The reasons, one line each, naming the rule broken.
    for (setup, retraction, why) in [
        (
            BRANDIS,
            "Rc1-b1",
            "before it the black king on c2 would stand in check with white to move",
        ),
        (
            BRANDIS,
            "Kb2-a1",
            "b2 is occupied, so no unit can have come from there",
        ),
        (BRANDIS, "Rb4-b1", "the way from b4 to b1 is blocked"),
        (BRANDIS, "Ra2-a1", "the unit on a1 is a king, not a rook"),
        (BRANDIS, "Ra3-b1", "a rook cannot move from a3 to b1"),
        (BRANDIS, "b4-b3", "a white pawn cannot move from b4 to b3"),
        (
            BRANDIS,
            "Kb1-c2",
            "there is no white unit on c2 to take back",
        ),
    ] {
        let out = run_script(&[], &format!("{setup}{retraction}\n"));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "{retraction} is not a legal retraction here: {why}"
            )),
            "{retraction}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // An unknown word is still an unknown command, not a move.
    let err = stderr(&run_script(&[], "frobnicate\n"));
    assert!(err.contains("unknown command 'frobnicate'"), "{err}");
}

/// A unit marked frozen never moved, so it stands on its own square of the initial array; any
/// other mark is refused with the reason, and the position is unchanged.
#[test]
fn frozen_marks_are_checked_against_the_initial_array() {
    let out = run_script(
        &[],
        &format!(
            "{BRANDIS}mark frozen a1\nmark frozen b1\nmark frozen b3\nmark frozen c2\n\
             mark frozen b2\nmark frozen h8\n"
        ),
    );
    let err = stderr(&out);
    for (line, why) in [
        (2, "a white rook starts the game on a1, not a white king"),
        (3, "a white knight starts the game on b1, not a white rook"),
        (4, "no unit starts the game on b3, not a white pawn"),
        (5, "a white pawn starts the game on c2, not a black king"),
        (7, "cannot mark h8 as frozen: the square is empty"),
    ] {
        assert!(
            err.contains(&format!("line {line}: ")) && err.contains(why),
            "line {line}: {err}"
        );
    }
    assert_eq!(err.lines().count(), 5, "{err}");
    // The pawn on b2 never moved: accepted, and the only mark shown.
    let text = stdout(&out);
    assert!(text.contains("frozen: b2\n"), "{text}");
    // In the initial array every unit may be frozen.
    let out = run_script(
        &["repl", "--strict"],
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmark frozen d8\nmark frozen g1\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `export solutions pgn|fen FILE` writes every kept solution: one PGN game each (numbered by
/// round, replayed forward by shakmaty before writing) or the FEN each starts from.
#[test]
fn export_solutions_writes_every_solution() {
    let dir = std::env::temp_dir().join(format!("retrace-solutions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("all.pgn");
    let fen = dir.join("all.fen");
    let script = format!(
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\nexport solutions pgn {}\nsolve 3\n\
         export solutions pgn {}\nexport solutions fen {}\nexport solutions xml {}\n\
         step 6\n",
        pgn.display(),
        pgn.display(),
        fen.display(),
        fen.display()
    );
    let out = run_script(&[], &script);
    let text = stdout(&out);
    let err = stderr(&out);
    assert!(err.contains("line 2: no solve yet on this line"), "{err}");
    assert!(
        err.contains("line 6: usage: export solutions pgn|fen FILE"),
        "{err}"
    );
    assert!(text.contains("wrote 6 solutions to"), "{text}");
    let games = std::fs::read_to_string(&pgn).expect("the PGN file");
    assert_eq!(games.matches("[Round \"").count(), 6, "{games}");
    assert!(games.contains("[Round \"6\"]"), "{games}");
    let fens = std::fs::read_to_string(&fen).expect("the FEN file");
    assert_eq!(fens.lines().count(), 6, "{fens}");
    // The sixth FEN is where step 6 leads.
    let sixth = fens.lines().nth(5).expect("six lines");
    assert!(text.contains(&format!("FEN {sixth}")), "{sixth}: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `save FILE` / `load FILE` keep a whole session: the position set up, its marks, the line with
/// the step shown (redo still works), and the cages; a bad file changes nothing.
#[test]
fn save_and_load_keep_the_whole_session() {
    let dir = std::env::temp_dir().join(format!("retrace-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("session.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "retrace-session 1\nfen 4k3/8/8/8/8/8/8/3QK3 b - -\nretract Qz9-d1\n",
    )
    .expect("written");
    let script = format!(
        "fen 8/8/8/8/8/1n6/PPkPP3/KR1b4 w - -\ncage verify a1 b1 a2 b2 c2 d1 d2 e2\n\
         fen 4k3/8/8/8/8/8/8/3QK3 b - -\nmark frozen e1\nQa1-d1\nKd8-e8\nundo\n\
         save {file}\nfen 8/8/8/8/8/8/8/K6k w - -\nload {bad}\nload {file}\nhistory\ncage list\n\
         redo\n",
        file = file.display(),
        bad = bad.display()
    );
    let out = run_script(&[], &script);
    let text = stdout(&out);
    let err = stderr(&out);
    let saved = std::fs::read_to_string(&file).expect("the session file");
    assert!(saved.starts_with("retrace-session 1\nfen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1\nfrozen e1\nretract Qa1-d1\nretract Kd8-e8\nat 1\ncage "), "{saved}");
    assert!(
        err.contains("line 3: ") && err.contains("nothing was loaded"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let loaded = text
        .split("loaded the session from")
        .nth(1)
        .expect("loaded");
    assert!(
        loaded.contains("FEN 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1\nfrozen: e1"),
        "{loaded}"
    );
    assert!(
        loaded.contains("retracted (last move first): Qa1-d1\n"),
        "{loaded}"
    );
    assert!(loaded.contains("1. 8/8/8/8/8/8/PPkPP3/KR1b4"), "{loaded}");
    assert!(
        loaded.contains("FEN 3k4/8/8/8/8/8/8/Q3K3 b - - 0 1"),
        "redo: {loaded}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `help` wraps to the terminal (80 columns without one) and keeps "e.g." whole.
#[test]
fn help_wraps_to_80_columns_without_a_terminal() {
    let text = stdout(&run_script(&[], "help\nhelp solve\n"));
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(text.contains("e.g. 'retract Kf5xNe5'"), "{text}");
}

/// `back` after a paste that led into an illegal position takes the whole paste back, as it
/// takes back a single retraction into one; after a legal paste it is refused as before.
#[test]
fn back_takes_back_a_paste_into_an_illegal_position() {
    let out = run_script(
        &[],
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\npaste a2xPb3 Kc1-c2\nback\nhistory\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Type back to take the paste back"), "{text}");
    assert!(
        text.contains("took the 2 retractions of the paste back"),
        "{text}"
    );
    assert!(text.contains("no retractions yet"), "{text}");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // The near miss: a legal paste leaves nothing for back to take.
    let out = run_script(
        &[],
        "fen 8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -\npaste Ka2-a1\nback\n",
    );
    assert!(
        stderr(&out).contains("back only follows a retraction into an illegal position"),
        "{}",
        stderr(&out)
    );
}

/// `check exact-fen` and `prove N exact-fen` read the current position's castling and en passant
/// fields as complete; plain `check` and `prove` do not; other words after `check` are refused.
#[test]
fn check_and_prove_read_the_fields_exactly_when_asked() {
    let out = run_script(
        &[],
        "fen 7R/7p/5P1k/4PKpP/8/8/8/8 w - - 0 1\ncheck\ncheck exact-fen\nprove 3\n\
         prove 3 exact-fen\nprove 3 nodes 1000 exact-fen\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("en_passant_field").count(), 3, "{text}");
    assert!(text.contains("no contradiction found"), "{text}");
    // Plain prove finds the history that starts with g7-g5.
    assert!(text.contains("g7-g5 "), "{text}");
    // solve N exact-fen finds no last move, and says why.
    let solved = stdout(&run_script(
        &[],
        "fen 7R/7p/5P1k/4PKpP/8/8/8/8 w - -\nsolve 1 exact-fen\nsolve 1\n",
    ));
    assert!(
        solved.contains("en_passant_field") && solved.contains("0 solutions"),
        "{solved}"
    );
    assert!(solved.contains("-1... g7-g5"), "{solved}");
    let refused = stderr(&run_script(
        &[],
        "fen 7R/7p/5P1k/4PKpP/8/8/8/8 w - -\ncheck exactly\n",
    ));
    assert!(refused.contains("usage: check [exact-fen]"), "{refused}");
}
