//! Judging the public half of Retractor 2's solver suite (positions/corpora/retractor-problems.jsonl)
//! exactly as the corpora README says: shared by the corpus test and the corpus benchmark.

#![allow(dead_code)]

use std::{
    cell::RefCell,
    time::{Duration, Instant},
};

use retrace_cage::{analyze_thoroughly, AutoLimits, CageStore};
use retrace_legal::{AnalyzerOptions, Reason};
use retrace_search::{line_notation, solve, LegalPruner, Pruner, SolveParams, PROVE_CLOSURE_NODES};
use retrace_unmove::RetroPosition;
use serde::Deserialize;
use shakmaty::Color;

/// Node budget of one search; a search cut short with fewer solutions than asked counts as
/// unsolved, as the judge's time limit does.
const BUDGET: u64 = 3_000_000;

#[derive(Debug, Deserialize)]
pub struct Problem {
    pub id: String,
    pub board: String,
    pub retract: String,
    pub depth: u32,
    pub extra: u32,
    pub max: usize,
    pub kind: String,
    pub answer: serde_json::Value,
    pub hint_cages: Vec<String>,
    #[serde(default)]
    pub other_side_has_no_last_move: bool,
}

/// The problems, in file order.
pub fn corpus() -> Vec<Problem> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/retractor-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// A move as the judge reads it.
#[derive(Debug, PartialEq, Eq)]
pub struct Move {
    castle: Option<&'static str>,
    unit: char,
    promo: bool,
    /// "" (no capture), "?" (a capture of an unnamed unit), "ep", or the captured unit's letter.
    cap: String,
    /// Ranks between the squares.
    dist: u32,
}

fn square(s: &[u8]) -> Option<u32> {
    match s {
        [f, r] if (b'a'..=b'h').contains(f) && (b'1'..=b'8').contains(r) => Some(u32::from(*r)),
        _ => None,
    }
}

/// The judge's reading of one move in retro notation (`Kh2xNh1`, `f7xNe8=R+`, `d5xe6ep`, `0-0`).
pub fn parse(text: &str) -> Option<Move> {
    let s = text.trim().trim_end_matches(['+', '#']);
    for (long, short, name) in [("0-0-0", "O-O-O", "O-O-O"), ("0-0", "O-O", "O-O")] {
        if s == long || s == short {
            return Some(Move {
                castle: Some(name),
                unit: 'K',
                promo: false,
                cap: String::new(),
                dist: 0,
            });
        }
    }
    let b = s.as_bytes();
    let mut i = 0;
    let piece = b
        .first()
        .filter(|c| b"KQRBN".contains(c))
        .map(|&c| c as char);
    if piece.is_some() {
        i += 1;
    }
    let from = square(b.get(i..i + 2)?)?;
    i += 2;
    let sep = *b.get(i)?;
    if !b"-x:".contains(&sep) {
        return None;
    }
    i += 1;
    let named = b
        .get(i)
        .filter(|c| b"QRBNP".contains(c))
        .map(|&c| c as char);
    if named.is_some() {
        i += 1;
    }
    let to = square(b.get(i..i + 2)?)?;
    i += 2;
    let mut rest = &s[i..];
    let mut ep = false;
    for mark in ["e.p.", "e.p", "ep.", "ep"] {
        if let Some(r) = rest.strip_prefix(mark) {
            rest = r;
            ep = true;
            break;
        }
    }
    let promo = match rest.strip_prefix('=') {
        Some(r) if r.len() == 1 && "QRBN".contains(r) => r.chars().next(),
        Some(_) => return None,
        None if rest.is_empty() => None,
        None => return None,
    };
    let cap = if ep {
        "ep".to_owned()
    } else if let Some(n) = named {
        n.to_string()
    } else if sep != b'-' {
        "?".to_owned()
    } else {
        String::new()
    };
    Some(Move {
        castle: None,
        unit: promo.or(piece).unwrap_or('P'),
        promo: promo.is_some(),
        cap,
        dist: from.abs_diff(to),
    })
}

/// Whether `mv` is of the type `t` (`O-O`, `ep`, `PxN=Q`, `K-`, `P--`, `RxB`, ...).
pub fn of_type(mv: Option<&Move>, t: &str) -> bool {
    let Some(mv) = mv else {
        return false;
    };
    if t == "O-O" || t == "O-O-O" {
        return mv.castle == Some(t);
    }
    if t == "ep" {
        return mv.cap == "ep";
    }
    if mv.castle.is_some() {
        return false;
    }
    let (body, promo) = match t.split_once('=') {
        Some((body, p)) => (body, p.chars().next()),
        None => (t, None),
    };
    let mut chars = body.chars();
    let Some(unit) = chars.next() else {
        return false;
    };
    let how: String = chars.collect();
    match promo {
        Some(p) if !mv.promo || mv.unit != p => return false,
        None if mv.promo || mv.unit != unit => return false,
        _ => {}
    }
    if let Some(captured) = how.strip_prefix('x') {
        return mv.cap == captured;
    }
    if !mv.cap.is_empty() {
        return false;
    }
    if unit == 'P' && promo.is_none() {
        return mv.dist as usize == how.len();
    }
    true
}

/// A move's notation with the spellings that do not matter made equal.
pub fn canon(s: &str) -> String {
    s.trim()
        .replace("O-O", "0-0")
        .replace('#', "+")
        .replace("e.p.", "ep")
        .replace("e.p", "ep")
        .replace("ep.", "ep")
}

/// A pruner that times its costlier verdicts (the cage attempt), for the benchmark.
struct Timed<'s> {
    inner: LegalPruner<'s>,
    times: &'s RefCell<Vec<Duration>>,
}

impl Pruner for Timed<'_> {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        self.inner.is_illegal(pos)
    }

    fn has_deep(&self) -> bool {
        self.inner.has_deep()
    }

    fn deep_reason(&self, pos: &RetroPosition) -> Option<Reason> {
        let start = Instant::now();
        let found = self.inner.deep_reason(pos);
        self.times.borrow_mut().push(start.elapsed());
        found
    }

    fn closure_reason(
        &self,
        pos: &RetroPosition,
        max_nodes: Option<u64>,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Option<Reason> {
        self.inner.closure_reason(pos, max_nodes, cancel)
    }

    fn mark_facts(&self, pos: &mut RetroPosition) {
        self.inner.mark_facts(pos);
    }
}

/// Judges problems with one cage store and one setting of the cage attempt.
pub struct Judge<'s> {
    pub store: &'s CageStore,
    /// Limits of the cage attempt in the search (`None`: off).
    pub finding: Option<AutoLimits>,
    /// Whether the root's facts about units travel ([`LegalPruner::with_unit_facts`]).
    pub facts: bool,
    /// The rules of the verdict at every node ([`LegalPruner::with_analysis`]).
    pub analysis: AnalyzerOptions,
    /// The node cap of a candidate's closure (`None`: not asked).
    pub closure: Option<u64>,
    /// Time of each cage attempt the searches made.
    pub attempts: RefCell<Vec<Duration>>,
    /// Nodes of every search.
    pub nodes: RefCell<u64>,
}

impl<'s> Judge<'s> {
    /// A judge with the search's default cage attempt.
    pub fn new(store: &'s CageStore) -> Judge<'s> {
        Judge {
            store,
            finding: Some(retrace_search::SEARCH_CAGE_LIMITS),
            facts: true,
            analysis: AnalyzerOptions::default(),
            closure: Some(PROVE_CLOSURE_NODES),
            attempts: RefCell::new(Vec::new()),
            nodes: RefCell::new(0),
        }
    }

    fn position(p: &Problem, side: Color) -> RetroPosition {
        RetroPosition::parse(&p.board, Some(side)).unwrap_or_else(|e| panic!("{}: {e}", p.id))
    }

    fn legal(&self, p: &Problem, side: Color) -> bool {
        analyze_thoroughly(&Self::position(p, side), self.store)
            .reasons
            .is_empty()
    }

    /// The solutions in notation, or `None` when the search was cut short with fewer than asked.
    fn solve(&self, p: &Problem, side: Color) -> Option<Vec<Vec<String>>> {
        let pos = Self::position(p, side);
        let params = SolveParams {
            depth: p.depth,
            extra: p.extra,
            max_solutions: Some(p.max),
            max_nodes: Some(BUDGET),
            ..SolveParams::default()
        };
        let pruner = Timed {
            inner: LegalPruner::with_cages(self.store)
                .with_cage_finding(self.finding)
                .with_unit_facts(self.facts)
                .with_analysis(self.analysis)
                .with_closure(self.closure),
            times: &self.attempts,
        };
        let found = solve(&pos, params, &pruner);
        *self.nodes.borrow_mut() += found.nodes;
        if !found.complete && found.lines.len() < p.max {
            return None;
        }
        Some(found.lines.iter().map(|l| line_notation(&pos, l)).collect())
    }

    /// The unique solution for `side`, if the position is legal and it has exactly one.
    fn unique(&self, p: &Problem, side: Color) -> Option<Vec<String>> {
        if !self.legal(p, side) {
            return None;
        }
        let mut sols = self.solve(p, side)?;
        (sols.len() == 1).then(|| sols.remove(0))
    }

    /// Whether the engine decides `p` as the corpora README says.
    pub fn decides(&self, p: &Problem) -> bool {
        let answer = |i: usize| p.answer.get(i).and_then(|a| a.as_str()).unwrap_or("");
        if p.kind == "last_move_types_both_sides" {
            let (Some(w), Some(b)) = (self.unique(p, Color::White), self.unique(p, Color::Black))
            else {
                return false;
            };
            let (w, b) = (parse(&w[0]), parse(&b[0]));
            let (x, y) = (answer(0), answer(1));
            return (of_type(w.as_ref(), x) && of_type(b.as_ref(), y))
                || (of_type(w.as_ref(), y) && of_type(b.as_ref(), x));
        }
        let side = if p.retract.starts_with('w') {
            Color::White
        } else {
            Color::Black
        };
        let Some(line) = self.unique(p, side) else {
            return false;
        };
        let right = if p.kind == "move_sequence" {
            let want: Vec<String> = p
                .answer
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().map(canon))
                .collect();
            line.iter().map(|m| canon(m)).collect::<Vec<_>>() == want
        } else {
            of_type(parse(&line[0]).as_ref(), p.answer.as_str().unwrap_or(""))
        };
        if !right {
            return false;
        }
        if p.other_side_has_no_last_move && self.legal(p, side.other()) {
            return self.solve(p, side.other()).is_some_and(|s| s.is_empty());
        }
        true
    }
}
