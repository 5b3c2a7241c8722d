//! Facts about units travel from the root of a search down every line (issue 11, "identity that
//! travels"): [`Pruner::mark_facts`] marks them on the root, the marks move with their units
//! through every retraction, and each node is judged with them.

use std::cell::RefCell;

use retrace_search::{solve, LegalPruner, Pruner, SolveParams};
use retrace_testkit::pos;
use retrace_unmove::{Retraction, RetroPosition};
use shakmaty::{Bitboard, Color, Role, Square};

/// The legality analysis, recording the promoted marks of every position it is asked about.
struct Spy<'a> {
    inner: LegalPruner<'static>,
    seen: &'a RefCell<Vec<RetroPosition>>,
}

impl Pruner for Spy<'_> {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        self.seen.borrow_mut().push(pos.clone());
        self.inner.is_illegal(pos)
    }

    fn mark_facts(&self, pos: &mut RetroPosition) {
        self.inner.mark_facts(pos);
    }
}

/// The rook on a8 is proven promoted (its region is a8 and b8, behind black pawns and a bishop
/// that never moved): the mark goes with it to b8 when it is retracted there, and leaves it when
/// it is unpromoted to the pawn on c7 that captured on b8.
#[test]
fn a_promoted_rook_keeps_its_mark_until_it_unpromotes() {
    let root = pos("R1b1k3/pp1p4/8/8/8/8/8/4K3 b - - 0 1");
    let params = || SolveParams {
        depth: 3,
        extra: 0,
        ..SolveParams::default()
    };
    let seen = RefCell::new(Vec::new());
    let spy = Spy {
        inner: LegalPruner::new(),
        seen: &seen,
    };
    let found = solve(&root, params(), &spy);
    assert!(found.complete && found.count > 0);
    let seen = seen.into_inner();
    let white_rooks = |p: &RetroPosition| p.board().by_piece(Color::White.rook());
    // Every mark is on the rook; the rook on b8 carries it; the pawn it came from does not.
    assert!(seen.iter().all(|p| p.promoted().is_subset(white_rooks(p))));
    assert!(seen
        .iter()
        .any(|p| p.promoted() == Bitboard::from_square(Square::B8)));
    let unpromoted = |p: &RetroPosition| {
        white_rooks(p).is_empty() && p.board().piece_at(Square::C7) == Some(Color::White.pawn())
    };
    assert!(seen
        .iter()
        .any(|p| unpromoted(p) && p.promoted().is_empty()));
    // Near miss: with the facts off, nothing is marked anywhere, and the solutions are the same.
    let plain = RefCell::new(Vec::new());
    let spy = Spy {
        inner: LegalPruner::new().with_unit_facts(false),
        seen: &plain,
    };
    let without = solve(&root, params(), &spy);
    assert!(plain.into_inner().iter().all(|p| p.promoted().is_empty()));
    assert_eq!(without.lines, found.lines);
}

/// The analysis with a fact it cannot see for itself, stipulated by the problem: the bishop on b5
/// was promoted (a light-squared bishop whose original may still have reached b5, so the board
/// alone does not show it).
struct Stipulated {
    inner: LegalPruner<'static>,
    promoted: Square,
}

impl Pruner for Stipulated {
    fn is_illegal(&self, pos: &RetroPosition) -> bool {
        self.inner.is_illegal(pos)
    }

    fn mark_facts(&self, pos: &mut RetroPosition) {
        self.inner.mark_facts(pos);
        pos.mark_promoted(self.promoted)
            .expect("the stipulated unit is a piece");
    }
}

/// Whether the second retraction of `line` uncaptures a unit of `role`.
fn second_uncaptures(line: &[Retraction], role: Role) -> bool {
    line.get(1).and_then(|r| r.uncaptured()) == Some(role)
}

/// A travelling fact kills candidates the search without it keeps. White has seven pawns and a
/// light-squared bishop. Once it is known to be promoted, no earlier position can hold eight
/// white pawns: after White's retraction (the bishop's own among them, the mark moving with it),
/// Black's king may not uncapture a white pawn on e7, as the search without the fact lets it.
/// Near miss: uncapturing a knight leaves seven pawns for one promotion, and stays.
#[test]
fn a_travelling_fact_kills_the_uncapture_of_a_pawn_after_the_unit_moved() {
    let root = pos("8/4k3/8/1B6/8/8/PPPP1PPP/4K3 b - - 0 1");
    let params = || SolveParams {
        depth: 2,
        ..SolveParams::default()
    };
    let plain = solve(&root, params(), &LegalPruner::new());
    let stipulated = solve(
        &root,
        params(),
        &Stipulated {
            inner: LegalPruner::new(),
            promoted: Square::B5,
        },
    );
    assert!(plain.complete && stipulated.complete);
    let bishop_then = |lines: &[Vec<Retraction>], role: Role| {
        lines
            .iter()
            .filter(|l| l[0].forward().role() == Role::Bishop && second_uncaptures(l, role))
            .count()
    };
    assert!(bishop_then(&plain.lines, Role::Pawn) > 0);
    assert_eq!(bishop_then(&stipulated.lines, Role::Pawn), 0);
    assert!(!stipulated
        .lines
        .iter()
        .any(|l| second_uncaptures(l, Role::Pawn)));
    assert!(bishop_then(&stipulated.lines, Role::Knight) > 0);
    // Every line the fact kills is one the plain search keeps.
    assert!(stipulated.lines.iter().all(|l| plain.lines.contains(l)));
    assert!(stipulated.count < plain.count);
}
