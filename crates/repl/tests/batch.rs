//! Batch mode at scale: `--jobs N` answers in input order, exactly as one job does.

mod common;

use std::time::Instant;

use retrace_testkit::positions_along;

/// 2,000 input lines: positions along random games, with a blank line and a bad line now and
/// then (each must still get its own output line, in its place).
fn input() -> String {
    let mut lines: Vec<String> = Vec::with_capacity(2000);
    let mut seed = 0;
    while lines.len() < 2000 {
        for pos in positions_along(seed, 80) {
            let k = lines.len();
            lines.push(match k % 101 {
                50 => String::new(),
                100 => "not a fen".into(),
                _ => pos.fen(),
            });
        }
        seed += 1;
    }
    lines.truncate(2000);
    lines.join("\n") + "\n"
}

#[test]
fn two_jobs_give_exactly_the_output_of_one() {
    let input = input();
    let run = |jobs: &str| {
        let start = Instant::now();
        let out = common::run(
            &["check", "-", "--prove", "3", "--json", "--jobs", jobs],
            input.as_bytes(),
        );
        (out, start.elapsed())
    };
    let (one, one_time) = run("1");
    let (two, two_time) = run("2");
    eprintln!("2000 lines: --jobs 1 {one_time:?}, --jobs 2 {two_time:?}");
    assert_eq!(
        one.status.code(),
        Some(2),
        "the bad lines make the batch exit 2"
    );
    assert_eq!(two.status.code(), one.status.code());
    let text = String::from_utf8_lossy(&one.stdout);
    assert_eq!(text.lines().count(), 2000, "one output line per input line");
    assert!(text
        .lines()
        .nth(50)
        .is_some_and(|l| l.contains("\"error\"")));
    assert!(
        one.stdout == two.stdout,
        "--jobs 2 answers as --jobs 1 does, in order"
    );
    assert_eq!(
        String::from_utf8_lossy(&one.stderr),
        String::from_utf8_lossy(&two.stderr)
    );
}
