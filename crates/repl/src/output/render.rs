//! What both front ends show, made in one place: solutions as a composer publishes them
//! (numbered retro notation, a summary by last move), the counts of retractions, the needs of an
//! analysis and the refuted candidates, in text (the JSON documents are in the modules beside
//! this one). The subcommands and the REPL frame these pieces (a trailing newline, a hint after
//! them) but never spell them again.

use std::fmt::Write as _;

use retrace_legal::{
    text::{color_name, plural},
    Analysis, Reason,
};
use retrace_search::{line_notation, Refutation, Solutions};
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::Color;

/// `White retracts: 10 legal retractions`: who retracts, and how many retractions there are.
#[must_use]
pub fn retraction_count(pos: &RetroPosition, count: usize) -> String {
    format!(
        "{} retracts: {count} legal retraction{}",
        color_name(pos.retracting()),
        plural(count)
    )
}

/// What the analysis deduced each side needed, one line a side (no trailing newline):
/// `White: at least 1 capture (1 by pawns), at least 0 promoted units`.
#[must_use]
pub fn needs(analysis: &Analysis) -> String {
    Color::ALL
        .iter()
        .map(|&color| {
            let captures = analysis.captures.get(color);
            let promoted = *analysis.promoted.get(color);
            format!(
                "{}: at least {} capture{} ({} by pawns), at least {promoted} promoted unit{}",
                color_name(color),
                captures.total,
                plural(captures.total),
                captures.by_pawns,
                plural(promoted)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first line of a solve's answer: `6 solutions (238 nodes, 12.5 ms)`, with `cut` (each
/// front end's words) after the count when the search was cut short.
#[must_use]
pub fn solve_summary(found: &Solutions, cut: &str) -> String {
    format!(
        "{} solution{}{} ({} nodes, {:.1} ms)",
        found.count,
        plural(found.count),
        if found.complete { "" } else { cut },
        found.nodes,
        found.elapsed.as_secs_f64() * 1e3
    )
}

/// The solutions of a solve from `pos`, a line each (each ending in a newline): the summary by
/// last move (of every solution found, `by_last`) if two share one, then the first `shown` of
/// the kept `lines` numbered, then how many more were found (`more` says what to do about them).
#[must_use]
pub fn solution_lines(
    pos: &RetroPosition,
    lines: &[Vec<Retraction>],
    by_last: &[(Retraction, u64)],
    count: u64,
    shown: usize,
    more: &str,
) -> String {
    let mut text = String::new();
    if let Some(groups) = by_last_move(pos, by_last) {
        let _ = writeln!(text, "{groups}");
    }
    for (i, line) in lines.iter().enumerate().take(shown) {
        if line.is_empty() {
            // A solution of no retraction (depth 0): the position itself.
            let _ = writeln!(
                text,
                "{:>4}. (no retraction: the position as it stands)",
                i + 1
            );
        } else {
            let _ = writeln!(text, "{:>4}. {}", i + 1, numbered(pos, line));
        }
    }
    let shown = lines.len().min(shown) as u64;
    if count > shown {
        let _ = writeln!(text, "     ... and {} more{more}", count - shown);
    }
    text
}

/// The most refuted candidates an answer explains.
const REFUTATIONS_SHOWN: usize = 10;

/// Why a position a solve or a proof was asked about has no last move at all: the reasons the
/// analysis proved it illegal with, before any search, a line each after a heading; empty when
/// it proved nothing.
#[must_use]
pub fn illegal_text(reasons: &[Reason]) -> String {
    let mut text = String::new();
    if reasons.is_empty() {
        return text;
    }
    text.push_str("the position is illegal, so no move can have led to it:\n");
    for r in reasons {
        let _ = writeln!(text, "  {r}");
    }
    text
}

/// The candidates of a solve that died in a cage, as a composer would write them: each line up to
/// the move that reached the caged position, a `?`, and why; when every one died for the same
/// reason, the reason once and the lines after it. Empty when none died.
#[must_use]
pub fn refutations_text(pos: &RetroPosition, refuted: &[Refutation]) -> String {
    let mut text = String::new();
    let Some(first) = refuted.first() else {
        return text;
    };
    let shared = refuted.len() > 1
        && refuted
            .iter()
            .all(|r| r.reason.message == first.reason.message);
    if shared {
        let _ = writeln!(
            text,
            "refuted by cages: after each of these, {}",
            first.reason.message
        );
    } else {
        text.push_str("refuted by cages:\n");
    }
    for r in refuted.iter().take(REFUTATIONS_SHOWN) {
        let line = line_notation(pos, &r.line).join(" ");
        if shared {
            let _ = writeln!(text, "      {line}?");
        } else {
            let _ = writeln!(text, "      {line}? after it, {}", r.reason.message);
        }
    }
    if refuted.len() > REFUTATIONS_SHOWN {
        let _ = writeln!(
            text,
            "      ... and {} more",
            refuted.len() - REFUTATIONS_SHOWN
        );
    }
    text
}

/// A line in numbered retro notation, last move first: `-1.Ka2-a1 Kc1-c2 -2.Ra1xNb1+`.
///
/// Retro move -k is White's retraction followed by Black's, as retractor problems write it;
/// when Black made the last move the line starts `-1... ` with Black's retraction alone.
#[must_use]
pub fn numbered(pos: &RetroPosition, line: &[Retraction]) -> String {
    let mut text = String::new();
    let mut number = 0;
    let mut side = pos.retracting();
    for (i, notation) in line_notation(pos, line).iter().enumerate() {
        if side == Color::White || i == 0 {
            number += 1;
            if i > 0 {
                text.push(' ');
            }
            let dots = if side == Color::White { "." } else { "... " };
            let _ = write!(text, "-{number}{dots}{notation}");
        } else {
            let _ = write!(text, " {notation}");
        }
        side = !side;
    }
    text
}

/// The solutions grouped by their last move (the first retraction), in order of first
/// appearance, with how many last moves there are: `by last move (2 last moves): Kh2-h1: 1
/// line; h2xg3: 5 lines`; `None` when no two solutions share a last move. `by_last` counts every solution
/// found, kept or not ([`Solutions::by_last_move`]).
#[must_use]
pub fn by_last_move(pos: &RetroPosition, by_last: &[(Retraction, u64)]) -> Option<String> {
    let solutions: u64 = by_last.iter().map(|(_, n)| n).sum();
    (!by_last.is_empty() && (by_last.len() as u64) < solutions).then(|| {
        let groups = by_last
            .iter()
            .map(|&(last, n)| format!("{}: {n} line{}", pos.notation(last), plural(n)))
            .collect::<Vec<_>>()
            .join("; ");
        format!(
            "by last move ({} last move{}): {groups}",
            by_last.len(),
            plural(by_last.len())
        )
    })
}
