//! Facts about single units (issue 11, "identity that travels"): the units a position proves
//! promoted or never moved, each with its reason, and which of them a search marks on its root.
//! Each fact comes with a near miss where it does not hold.

use retrace_legal::{unit_facts, FactKind, FactReason, UnitFacts};
use retrace_testkit::pos;
use shakmaty::{Bitboard, Square};

/// The fact about the unit on `sq`, if any.
fn fact(facts: &UnitFacts, sq: Square) -> Option<(FactKind, FactReason)> {
    facts
        .iter()
        .find(|f| f.square == sq)
        .map(|f| (f.kind, f.reason))
}

/// Pawns on their second rank, an original walled in by them, a castling right and a closed
/// back-rank segment full of its originals: each never moved, for its own reason.
#[test]
fn never_moved_units_with_their_reasons() {
    use FactKind::NeverMoved;
    // c1 and f1 are walled by b2, d2 and e2, g2; d1 and e1 fill the segment between them.
    let facts = unit_facts(&pos("4k3/8/8/8/8/8/1PPPPPP1/2BQKB2 w - - 0 1"));
    assert_eq!(
        fact(&facts, Square::B2),
        Some((NeverMoved, FactReason::PawnAtHome))
    );
    assert_eq!(
        fact(&facts, Square::C1),
        Some((NeverMoved, FactReason::Walled))
    );
    assert_eq!(
        fact(&facts, Square::D1),
        Some((NeverMoved, FactReason::ClosedSegment))
    );
    assert_eq!(
        fact(&facts, Square::E1),
        Some((NeverMoved, FactReason::ClosedSegment))
    );
    // Near miss: without the pawn on e2 the segment is open and f1 is not walled; c1 still is.
    let facts = unit_facts(&pos("4k3/8/8/8/8/8/1PPP1PP1/2BQKB2 w - - 0 1"));
    assert_eq!(
        fact(&facts, Square::C1),
        Some((NeverMoved, FactReason::Walled))
    );
    for sq in [Square::D1, Square::E1, Square::F1] {
        assert_eq!(fact(&facts, sq), None, "{sq}");
    }
    // A castling right freezes its king and rook.
    let facts = unit_facts(&pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
    assert_eq!(
        fact(&facts, Square::H1),
        Some((NeverMoved, FactReason::Marked))
    );
    assert_eq!(
        fact(&pos_facts("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), Square::H1),
        None
    );
}

fn pos_facts(fen: &str) -> UnitFacts {
    unit_facts(&pos(fen))
}

/// A rook behind black pawns on a7, b7 and d7 and a bishop on c8 walled by them: its region is a8
/// and b8, which holds no rook's home, and a pawn reaches b8 from c7, so it was promoted there.
#[test]
fn a_rook_in_a_pen_it_cannot_have_entered_was_promoted() {
    let facts = pos_facts("R1b1k3/pp1p4/8/8/8/8/8/4K3 b - - 0 1");
    let rook = facts.iter().find(|f| f.square == Square::A8).copied();
    let rook = rook.expect("a fact about the rook");
    assert_eq!(
        (rook.kind, rook.reason, rook.from),
        (
            FactKind::Promoted,
            FactReason::NoPathFromHome,
            Bitboard::from_square(Square::B8)
        )
    );
    assert_eq!(facts.promoted(), Bitboard::from_square(Square::A8));
    // Near miss: without d7 the bishop on c8 may have moved, and the rook's region runs out of
    // the corner to the rest of the board.
    let facts = pos_facts("R1b1k3/pp6/8/8/8/8/8/4K3 b - - 0 1");
    assert!(facts.promoted().is_empty());
    // A unit the user marks promoted is a fact too.
    let mut marked = pos("4k3/8/8/8/3Q4/8/8/4K3 b - - 0 1");
    marked.mark_promoted(Square::D4).expect("a queen");
    assert_eq!(
        fact(&unit_facts(&marked), Square::D4),
        Some((FactKind::Promoted, FactReason::Marked))
    );
}

/// What a search marks: every promoted unit, and the units that never moved other than pawns (which
/// never retract from their second rank), kings and rooks on their corners (a never-moved king and
/// rook at home would read as a castling right the FEN does not state).
#[test]
fn marks_leave_the_castling_rights_as_they_are() {
    // The knight on b1 is marked never moved, so the rook on a1 is walled by it and a2, and the
    // king and queen fill the segment between the walled bishops.
    let mut p = pos("4k3/8/8/8/8/8/PPPPPPPP/RNBQKB2 w - - 0 1");
    p.mark_never_moved(Square::B1).expect("a knight at home");
    let facts = unit_facts(&p);
    assert_eq!(
        fact(&facts, Square::A1),
        Some((FactKind::NeverMoved, FactReason::Walled))
    );
    assert_eq!(
        fact(&facts, Square::E1),
        Some((FactKind::NeverMoved, FactReason::ClosedSegment))
    );
    let marked = facts.mark(&mut p);
    assert_eq!(
        marked,
        Bitboard::from_square(Square::C1)
            .with(Square::D1)
            .with(Square::F1)
    );
    assert!(p.castling_rights().is_empty());
    // Marking twice marks nothing new.
    assert!(unit_facts(&p).mark(&mut p).is_empty());
}
