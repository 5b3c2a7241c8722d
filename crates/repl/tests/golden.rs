//! Golden outputs: `help`, `list`, `check` and `solve`, from the binary's subcommands and from the
//! REPL, compared byte for byte with the files of `tests/golden/`.
//!
//! A change of wording or layout shows here as a diff of whole lines, which says more than a
//! substring would. When the change is meant, `RETRACE_BLESS=1 cargo test -p retrace-repl --test
//! golden` rewrites the files; read the diff before committing them. Timings are the only part
//! that varies between runs: they are written `<ms>`.

mod common;

use std::path::PathBuf;

/// The Brandis corner: White's last move can only be Ka2-a1 (its other retractions uncapture
/// into a cage), a position with 10 retractions, captures by both sides and a refuted candidate.
const BRANDIS: &str = "8/8/8/8/8/1P6/1PkPP3/KR1b4 b - -";

/// Bare kings in the corners, Black to retract: solutions start `-1...`, several share a last
/// move (with uncaptures forbidden, few enough to read).
const KINGS: &str = "7k/8/8/8/8/8/8/K7 w - -";

/// Black moved last with its king left in check: illegal by the first rule.
const KING_LEFT_IN_CHECK: &str = "4k3/8/8/8/8/8/8/4R1K1 w - -";

/// Three white pawns on two files with no black unit missing that they could have taken.
const PAWNS_TOO_FEW_FILES: &str = "1k6/pppppppp/8/8/8/P7/PPPPPPP1/4K3 w - -";

/// Hwa's rook walled in on g2: only the automatic cage attempt proves it illegal.
const CAGED_ROOK: &str = "4k3/8/8/8/8/6P1/4PPrP/7K w - -";

/// A published problem with the other side retracting: `--prove` shows every last move leads
/// to an illegal position.
const DIES_AT_ONCE: &str = "k1KB4/PpRpp1p1/b1p2p2/1p6/8/8/8/8 w - -";

/// Runs the binary and compares its standard output (timings masked) with `tests/golden/NAME`,
/// or rewrites the file under `RETRACE_BLESS`.
fn golden(name: &str, args: &[&str], stdin: &str) {
    let out = common::run(args, stdin.as_bytes());
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let actual = common::mask_timings(&String::from_utf8(out.stdout).expect("the output is UTF-8"));
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    if std::env::var_os("RETRACE_BLESS").is_some() {
        std::fs::write(&path, &actual).expect("the golden file is written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("{}: {err} (RETRACE_BLESS=1 writes it)", path.display()));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{args:?} differs from {} at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
             (RETRACE_BLESS=1 rewrites the file if the change is meant)\n--- actual output ---\n{actual}",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

#[test]
fn mask_timings_masks_only_timings() {
    assert_eq!(
        common::mask_timings("7 solutions (62 nodes, 40.4 ms)\n"),
        "7 solutions (62 nodes, <ms> ms)\n"
    );
    assert_eq!(
        common::mask_timings("{\"count\":2,\"elapsed_ms\":1.25e-3,\"nodes\":9}"),
        "{\"count\":2,\"elapsed_ms\":\"<ms>\",\"nodes\":9}"
    );
    assert_eq!(common::mask_timings("a ms b 12 ms"), "a ms b <ms> ms");
}

#[test]
fn help_of_the_binary() {
    golden("help.txt", &["--help"], "");
    golden("help_solve.txt", &["solve", "--help"], "");
}

#[test]
fn list_of_the_binary() {
    golden("list.txt", &["list", BRANDIS], "");
    golden("list.json", &["list", BRANDIS, "--json"], "");
}

#[test]
fn check_of_the_binary() {
    golden("check_legal.txt", &["check", BRANDIS], "");
    golden(
        "check_king_in_check.txt",
        &["check", KING_LEFT_IN_CHECK],
        "",
    );
    golden("check_pawns.txt", &["check", PAWNS_TOO_FEW_FILES], "");
    golden("check_cage.txt", &["check", CAGED_ROOK], "");
    golden("check_cage.json", &["check", CAGED_ROOK, "--json"], "");
    golden(
        "check_prove.txt",
        &["check", DIES_AT_ONCE, "--prove", "4"],
        "",
    );
    golden(
        "check_prove.json",
        &["check", BRANDIS, "--prove", "4", "--json"],
        "",
    );
}

#[test]
fn solve_of_the_binary() {
    golden("solve_brandis.txt", &["solve", BRANDIS, "--depth", "3"], "");
    golden(
        "solve_brandis.json",
        &["solve", BRANDIS, "--depth", "3", "--json"],
        "",
    );
    golden(
        "solve_kings.txt",
        &["solve", KINGS, "--depth", "2", "--no-uncapture", "both"],
        "",
    );
    golden(
        "solve_cut_short.txt",
        &[
            "solve",
            KINGS,
            "--depth",
            "2",
            "--max",
            "3",
            "--no-uncapture",
            "both",
        ],
        "",
    );
    golden(
        "solve_jsonl.txt",
        &["solve", BRANDIS, "--depth", "2", "--jsonl"],
        "",
    );
}

#[test]
fn help_of_the_repl() {
    golden(
        "repl_help.txt",
        &[],
        "help\nhelp solve\nhelp list\nhelp check\n",
    );
}

#[test]
fn list_check_and_solve_in_the_repl() {
    golden(
        "repl_brandis.txt",
        &[],
        &format!("fen {BRANDIS}\nlist\ncheck\nsolve 3\nsolutions\nsolve 3 max 2\n"),
    );
    golden(
        "repl_check_illegal.txt",
        &[],
        &format!("fen {KING_LEFT_IN_CHECK}\ncheck\nfen {CAGED_ROOK}\ncheck\nretract 1\n"),
    );
    golden(
        "repl_kings.txt",
        &[],
        &format!("fen {KINGS}\nlist\nsolve 2 no-uncapture both\nsolve 2 max 3 no-uncapture both\n"),
    );
}
