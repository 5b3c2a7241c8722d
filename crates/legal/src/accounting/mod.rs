//! Global accounting of both sides' pawns together (issue 11, its first level): every pawn on the
//! board and every pawn that promoted (one per promoted unit a side must have, as a pawn on the
//! promotion squares its unit can have come from, so bishops keep their colour) gets its own start
//! file, and the captures of both sides' walks must fit the units each side is missing, once the
//! pawns of opposite colours that passed each other on a file are charged the captures that let
//! one of them by.
//!
//! Proof. Every unit missing from the board was captured by the other side, once, so a side made at
//! most as many captures as the other side misses units, less the captures its pieces made (the
//! originals proven captured in pens where no pawn can capture). Each pawn of a side started on its
//! own file and changed file only by capturing; its walk went round the units that never moved and
//! never between the two squares of a pawn of known history, which bounds its captures from below
//! from each start file (see [`crate::promotion`]). A walk without a capture never left its start
//! file. Now take a white pawn and a black pawn that both started on file `f` and never left it.
//! While both are on the board the white one stands below the black one: it holds at the start, and
//! a pawn advances only onto an empty square (a double step crosses one), so neither can step past
//! the other. So the white one never stands above the black one, never promotes while the black one
//! is on the board, and the black one never promotes while the white one is; a pawn on the board
//! now was on it at every moment. Hence if the white one is above the black one now, or one of them
//! promoted and the other is on the board, or both promoted, one of them left `f` at some moment:
//! a pawn back on its own file did so with at least two captures (out and back, which needs two
//! ranks of advance), a pawn that promoted with at least the captures of a walk that leaves its
//! file. Counting the promoted units a side must have only in part is sound: more promotions only
//! add walks.
//!
//! The search enumerates each side's assignments within its budget (branch and bound, a few
//! thousand nodes at most, else it gives up), keeps per file only what the other side can meet,
//! and tries every choice of the pawn that left for each pair that passed. It runs only where the
//! cheaper rules found nothing and the spare captures cannot pay for every pair.

mod accounts;
mod door;
pub(crate) mod items;
pub(crate) mod landings;
mod late;
mod matching;
mod timing;
#[cfg(test)]
mod timing_games;

use shakmaty::{Bitboard, ByColor, Color, File};

use self::accounts::{accounts, Account};
use self::items::{items, sort_for_enumeration, Item, Place};
pub(crate) use self::late::LateMemo;
pub(crate) use self::matching::{add_crossings, unmatched_captures, OrdersMemo};
use crate::known::Known;
use crate::promotion::{missing_only, NONE};
use crate::reasons::Reasons;
use crate::text::{color_adj, plural, squares_text};
use crate::types::{Reason, ReasonCode};

/// Appends a [`ReasonCode::CapturesUnaccounted`] reason if no account of both sides' pawns fits
/// the units each side is missing.
pub(crate) fn global_accounting(known: &Known<'_>, out: &mut Reasons) {
    let Some(budget) = budgets(known) else {
        return;
    };
    let pairs = possible_pairs(known);
    if pairs == 0 {
        return;
    }
    // Each pair costs at most two more captures to one side: with that many to spare, no need.
    let spare = |c: Color| budget.get(c) - u32::from(known.captures.get(c).by_pawns);
    if spare(Color::White).max(spare(Color::Black)) >= 2 * pairs && !test_switch::ungated() {
        return;
    }
    // Sorted copies: the enumeration wants its own order.
    let (Some(white), Some(black)) = (items(known, Color::White), items(known, Color::Black))
    else {
        return;
    };
    let (mut white, mut black) = (white.to_vec(), black.to_vec());
    sort_for_enumeration(Color::White, &mut white);
    sort_for_enumeration(Color::Black, &mut black);
    let files = stay_files(&white) & stay_files(&black);
    if files == 0 {
        return;
    }
    let (Some(wa), Some(ba)) = (
        accounts(Color::White, &white, files, budget.white),
        accounts(Color::Black, &black, files, budget.black),
    ) else {
        return;
    };
    test_switch::count_run();
    let mut worst: Option<Shortfall> = None;
    for a in &wa {
        for b in &ba {
            let s = shortfall(a, b, budget);
            if s.over == 0 {
                return;
            }
            if worst.as_ref().is_none_or(|w| s.over < w.over) {
                worst = Some(s);
            }
        }
    }
    out.add_built(ReasonCode::CapturesUnaccounted, || {
        reason(known, &white, &black, worst.as_ref())
    });
}

/// The most captures each side's pawns can have made: the units the other side misses, less the
/// captures its pieces made; `None` if a side has too many pawns or the pieces alone overspend
/// (other rules say so).
fn budgets(known: &Known<'_>) -> Option<ByColor<u32>> {
    let board = known.pos.board();
    let mut out = ByColor::<u32>::default();
    for c in Color::ALL {
        let budget = known.missing(c.other()).checked_sub(known.by_pieces(c))?;
        if board.by_piece(c.pawn()).count() > 8
            || u32::from(known.captures.get(c).by_pawns) > budget
        {
            return None;
        }
        *out.get_mut(c) = budget;
    }
    Some(out)
}

/// The files on which a white and a black pawn can have stayed and passed each other, cheaply
/// bounded: both sides have a pawn on the file (the white one above) or promoted units.
fn possible_pairs(known: &Known<'_>) -> u32 {
    let board = known.pos.board();
    let promotes = |c: Color| known.promoted.get(c).total > 0;
    File::ALL
        .into_iter()
        .filter(|&f| {
            let on = |c: Color| board.by_piece(c.pawn()) & Bitboard::from_file(f);
            let (w, b) = (on(Color::White), on(Color::Black));
            let passed = match (w.last(), b.first()) {
                (Some(top), Some(bottom)) => top.rank() > bottom.rank(),
                _ => false,
            };
            passed
                || (promotes(Color::White) && (b.any() || promotes(Color::Black)))
                || (promotes(Color::Black) && w.any())
        })
        .count() as u32
}

/// The files (as a mask) on which some pawn of `items` can have stayed at no capture.
fn stay_files(items: &[Item]) -> u8 {
    items.iter().fold(0, |mask, item| {
        item.costs
            .iter()
            .enumerate()
            .filter(|(_, c)| c.base == 0)
            .fold(mask, |m, (g, _)| m | 1 << g)
    })
}

/// How far the best choice for one pair of accounts overspends, with what it needs.
struct Shortfall {
    /// Captures over the budgets, summed over both sides (0: the accounts fit).
    over: u32,
    /// The captures each side's pawns then need.
    need: ByColor<u32>,
    /// The white and black pawns (item indices) that passed each other on a file.
    passed: Vec<(u8, u8)>,
}

/// The cheapest way for the accounts `a` (White) and `b` (Black) to let the pawns that passed each
/// other by: for each such pair, one of them pays its `extra`.
fn shortfall(a: &Account, b: &Account, budget: ByColor<u32>) -> Shortfall {
    let passed: Vec<_> = a
        .stayers
        .iter()
        .zip(b.stayers.iter())
        .filter_map(|(w, k)| match (w, k) {
            (Some(w), Some(k)) if w.height > k.height => Some((*w, *k)),
            _ => None,
        })
        .collect();
    let mut best = Shortfall {
        over: NONE,
        need: ByColor::default(),
        passed: passed.iter().map(|(w, k)| (w.item, k.item)).collect(),
    };
    for choice in 0u32..1 << passed.len() {
        let mut need = ByColor {
            white: a.cost,
            black: b.cost,
        };
        for (i, (w, k)) in passed.iter().enumerate() {
            if choice & 1 << i != 0 {
                need.white = need.white.saturating_add(w.extra);
            } else {
                need.black = need.black.saturating_add(k.extra);
            }
        }
        let over = need
            .white
            .saturating_sub(budget.white)
            .saturating_add(need.black.saturating_sub(budget.black));
        if over < best.over {
            best.over = over;
            best.need = need;
        }
    }
    best
}

/// The pawn `item` of `color` in words, and the squares the words name.
fn pawn_words(color: Color, item: &Item) -> (String, Bitboard) {
    match item.place {
        Place::Board(sq) => (
            format!("the {} pawn on {sq}", color_adj(color)),
            Bitboard::from_square(sq),
        ),
        Place::Promoted { units, .. } => (
            format!(
                "the {} pawn that promoted to {}",
                color_adj(color),
                if units.more_than_one() {
                    format!("one of the units on {}", squares_text(units))
                } else {
                    format!("the unit on {}", squares_text(units))
                }
            ),
            units,
        ),
    }
}

/// The [`ReasonCode::CapturesUnaccounted`] reason, from the account that came closest (`None`:
/// some side's pawns fit no assignment within its budget at all).
fn reason(known: &Known<'_>, white: &[Item], black: &[Item], worst: Option<&Shortfall>) -> Reason {
    let mut squares = Bitboard::EMPTY;
    let mut pairs = Vec::new();
    for &(w, b) in worst.map_or(&[][..], |s| &s.passed[..]) {
        let (Some(w), Some(b)) = (white.get(usize::from(w)), black.get(usize::from(b))) else {
            continue;
        };
        let (ww, ws) = pawn_words(Color::White, w);
        let (bw, bs) = pawn_words(Color::Black, b);
        squares |= ws | bs;
        pairs.push(format!("{ww} and {bw}"));
    }
    let need = match worst {
        Some(s) if !pairs.is_empty() => format!(
            "but pawns of both colours that stay on their file never pass each other, so in each \
             of these pairs one left its file by capturing: {}; with that the cheapest account \
             needs {} capture{} by white pawns and {} by black pawns",
            pairs.join("; "),
            s.need.white,
            plural(s.need.white),
            s.need.black
        ),
        _ => "but no assignment fits even before the pawns that passed each other".to_string(),
    };
    let budget = |c: Color| missing_only(c.other(), known.missing(c.other()), known.by_pieces(c));
    Reason::new(
        ReasonCode::CapturesUnaccounted,
        format!(
            "the pawns of both sides, on the board and those that promoted, need their own start \
             files and captures for their walks around the units that never moved, {need}; {} \
             and {}",
            budget(Color::White),
            budget(Color::Black)
        ),
        squares,
    )
}

/// A switch for the unit tests that lifts the gates on spare captures, so that the enumeration runs
/// on every position with a possible pair and the matching of [`matching`] wherever some missing
/// unit cannot have died anywhere, and counts of their runs; all do nothing outside tests.
pub(super) mod test_switch {
    #[cfg(test)]
    thread_local! {
        static UNGATED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        static RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static MATCHINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static TIMED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static PROMOTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static ACCOUNTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static STRAYS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Counts one matched leaf whose missing pawns needed some captures to reach theirs (in unit
    /// tests).
    pub(super) fn count_strays() {
        #[cfg(test)]
        STRAYS.with(|r| r.set(r.get() + 1));
    }

    /// Counts one matching run per account of the victim's pawns whose missing pawns it placed
    /// by their start files (in unit tests).
    pub(super) fn count_pawn_account() {
        #[cfg(test)]
        ACCOUNTS.with(|r| r.set(r.get() + 1));
    }

    /// Counts one choice of a start file for a pawn that promoted whose crossings are ordered
    /// against a single step (in unit tests).
    pub(super) fn count_promoted_timed() {
        #[cfg(test)]
        PROMOTED.with(|r| r.set(r.get() + 1));
    }

    /// The matchings, the timed ones and the promoted pawns' ordered choices counted so far on
    /// this thread.
    #[cfg(test)]
    pub(super) fn counts() -> (u64, u64, u64) {
        (
            MATCHINGS.with(std::cell::Cell::get),
            TIMED.with(std::cell::Cell::get),
            PROMOTED.with(std::cell::Cell::get),
        )
    }

    /// Counts one matching in which some capture came before a pawn's single step (in unit
    /// tests).
    pub(super) fn count_timed() {
        #[cfg(test)]
        TIMED.with(|r| r.set(r.get() + 1));
    }

    /// Counts one matching of missing units with captures (in unit tests).
    pub(super) fn count_matching() {
        #[cfg(test)]
        MATCHINGS.with(|r| r.set(r.get() + 1));
    }

    /// Whether a unit test lifted the gate on this thread.
    pub(super) fn ungated() -> bool {
        #[cfg(test)]
        return UNGATED.with(std::cell::Cell::get);
        #[cfg(not(test))]
        false
    }

    /// Counts one run of the enumeration (in unit tests).
    pub(super) fn count_run() {
        #[cfg(test)]
        RUNS.with(|r| r.set(r.get() + 1));
    }

    /// Analyses every position of the games `game(0..games)` with the gates lifted, asserting
    /// that neither the accounting nor the matching calls one illegal; returns how many there were.
    #[cfg(test)]
    pub(super) fn ungated_on_games(
        games: u64,
        game: impl Fn(u64) -> retrace_testkit::Game,
    ) -> usize {
        use crate::{Analyzer, ReasonCode};
        UNGATED.with(|u| u.set(true));
        let mut analyzer = Analyzer::new();
        let mut positions = 0;
        for seed in 0..games {
            for pos in game(seed)
                .positions
                .iter()
                .map(retrace_testkit::retro_position)
            {
                positions += 1;
                let a = analyzer.analyze(&pos);
                assert!(
                    !a.has(ReasonCode::CapturesUnaccounted) && !a.has(ReasonCode::CaptureUnmatched),
                    "false illegal (seed {seed}): {:?}",
                    a.reasons
                );
            }
        }
        UNGATED.with(|u| u.set(false));
        positions
    }

    #[cfg(test)]
    #[test]
    fn never_false_on_random_games_even_ungated() {
        let games = if cfg!(debug_assertions) { 20 } else { 1000 };
        ungated_on_games(games, |seed| {
            retrace_testkit::random_game(seed, 40 + (seed as usize * 37) % 260)
        });
        // The enumeration really ran on legal positions with pawns that may have passed (some
        // 9,000 times in release).
        let runs = RUNS.with(std::cell::Cell::get);
        assert!(cfg!(debug_assertions) || runs > 1_000, "{runs} runs");
        // The matching of missing units with captures really ran on positions where some missing
        // unit can only have died in part of the board (some 240,000 times in release).
        let matchings = MATCHINGS.with(std::cell::Cell::get);
        let timed = TIMED.with(std::cell::Cell::get);
        let accounts = ACCOUNTS.with(std::cell::Cell::get);
        let strays = STRAYS.with(std::cell::Cell::get);
        eprintln!(
            "{runs} enumerations, {matchings} matchings, {timed} of them timed, {accounts} \
             accounts of the victim's pawns placing its missing pawns, {strays} matchings whose \
             missing pawns needed captures to reach theirs"
        );
        // Some 15 leaves in release (the accounts run only where the plain lists were matched by
        // a search); the pawn-exchange games reach a few more.
        assert!(cfg!(debug_assertions) || strays > 5, "{strays} strays");
        // The missing pawns were placed by the victim's accounts on many of those positions.
        assert!(
            cfg!(debug_assertions) || accounts > 1_000,
            "{accounts} accounts"
        );
        assert!(
            cfg!(debug_assertions) || matchings > 1_000,
            "{matchings} matchings"
        );
    }

    /// Games in which pawns capture pieces and step once from their start squares far more often
    /// than anything else: the positions where the matching orders captures against single steps
    /// ([`super::matching`]'s timing), which the games above rarely reach. The matching runs
    /// ungated on every position, and must never call one illegal.
    #[cfg(test)]
    #[test]
    fn never_false_on_pawn_capture_games_with_timing() {
        use shakmaty::{Move, Position, Rank, Role};
        let weight = |pos: &shakmaty::Chess, m: Move| match m {
            Move::Normal {
                promotion: Some(_), ..
            } => 300,
            Move::Normal {
                role: Role::Pawn,
                capture: Some(_),
                ..
            } => 300,
            Move::Normal {
                role: Role::Pawn,
                from,
                to,
                ..
            } => {
                let second = pos.turn().relative_rank(Rank::Second);
                match (from.rank() == second, from.rank().distance(to.rank())) {
                    (true, 1) => 40,
                    (_, 2) => 1,
                    _ => 20,
                }
            }
            Move::Normal {
                capture: Some(_), ..
            } => 8,
            _ => 4,
        };
        let before = (
            MATCHINGS.with(std::cell::Cell::get),
            TIMED.with(std::cell::Cell::get),
        );
        let strays_before = STRAYS.with(std::cell::Cell::get);
        let games = if cfg!(debug_assertions) { 20 } else { 1500 };
        let positions = ungated_on_games(games, |seed| {
            retrace_testkit::random_game_with(seed, 40 + (seed as usize * 7) % 160, weight)
        });
        let matchings = MATCHINGS.with(std::cell::Cell::get) - before.0;
        let timed = TIMED.with(std::cell::Cell::get) - before.1;
        let strays = STRAYS.with(std::cell::Cell::get) - strays_before;
        eprintln!(
            "{positions} positions, {matchings} matchings, {timed} of them timed, {strays} whose \
             missing pawns needed captures to reach theirs"
        );
        // Some 200 of the matchings in release order captures against steps.
        assert!(cfg!(debug_assertions) || timed > 100, "{timed} timed");
    }

    /// Games in which pawns capture often and pieces almost never do: the victim's missing pawns
    /// then died as pawns after walks of their own, where the matching counts their captures
    /// together against the account of the pawns on the board. The matching runs ungated on
    /// every position, and must never call one illegal.
    #[cfg(test)]
    #[test]
    fn never_false_on_pawn_exchange_games() {
        use shakmaty::{Move, Role};
        let weight = |_: &shakmaty::Chess, m: Move| match m {
            Move::Normal {
                role: Role::Pawn,
                capture: Some(_),
                ..
            } => 400,
            Move::Normal {
                role: Role::Pawn, ..
            } => 30,
            Move::Normal {
                capture: Some(_), ..
            } => 1,
            _ => 6,
        };
        let before = STRAYS.with(std::cell::Cell::get);
        let games = if cfg!(debug_assertions) { 20 } else { 1500 };
        let positions = ungated_on_games(games, |seed| {
            retrace_testkit::random_game_with(seed, 30 + (seed as usize * 11) % 120, weight)
        });
        let strays = STRAYS.with(std::cell::Cell::get) - before;
        eprintln!("{positions} positions, {strays} matchings whose missing pawns needed captures");
        // Some 23 in release: thin, but each is a leaf where the shared spare was really weighed.
        assert!(cfg!(debug_assertions) || strays > 10, "{strays} strays");
    }

    /// Arbitrary boards (see `tests/arbitrary.rs`) with the gates lifted: the enumeration and the
    /// matching run on far odder inputs than games give (more than 16 units, nine queens, kings
    /// side by side), and must not panic.
    #[cfg(test)]
    mod arbitrary {
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(retrace_testkit::arbitrary_config())]

            #[test]
            fn arbitrary_positions_ungated(case in retrace_testkit::arbitrary_position()) {
                super::UNGATED.with(|u| u.set(true));
                let analysis = crate::Analyzer::new().analyze(&case.pos);
                let _ = crate::unit_facts(&case.pos);
                super::UNGATED.with(|u| u.set(false));
                prop_assert!(analysis
                    .reasons
                    .iter()
                    .all(|r| retrace_testkit::well_formed_message(&r.message)));
            }
        }
    }
}
