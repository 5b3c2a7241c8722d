//! Deductions of a retro solver (issue 11): walls in time made of pawns that moved once or never,
//! pens and the promoted units that cannot leave them, units that stand where they cannot have
//! entered, and captures counted with the pawns' walks. Each position was built for the issue; each
//! comes with a legal near miss that the analysis must leave alone.

mod support;

use retrace_legal::ReasonCode::*;
use shakmaty::Square;
use support::{assert_illegal, assert_legal};

/// b7, d7, e7 and h7 never moved; a6 came from a7, so b6 came from c7 and h6 from g7 (g7 is the
/// only origin left): at every moment each square of the sixth rank was attacked or occupied.
#[test]
fn king_behind_pawns_that_moved_once() {
    let a = assert_illegal("2k5/Kp1pp2p/pp5p/8/8/8/8/8 w - -", KingNoPath);
    let squares = &a.reasons[0].squares;
    assert!(squares.contains(&Square::B6) && squares.contains(&Square::C7));
    // c6 instead of b6: it came straight from c7, and b6 opens once a7 and c7 have moved.
    assert_legal("2k5/Kp1pp2p/p1p4p/8/8/8/8/8 w - -");
    // Without the pawn on d7, e6 is open and the king walks round by d7 and c8.
    assert_legal("2k5/Kp2p2p/pp5p/8/8/8/8/8 w - -");
}

/// Three white rooks, no white pawn: one was promoted, but every promotion square lies in a pen of
/// the eighth rank with dead ends b7, d7 and g7 that no rook ever leaves.
#[test]
fn promoted_rook_shut_in_the_pen_of_its_promotion() {
    assert_illegal(
        "4k3/p1p1pp1p/1p1p2p1/4R3/3RR3/8/8/4K3 b - -",
        NoPromotionSquare,
    );
    // g5 instead of g6: the g-pawn moved twice, so g6 and g7 open the pen after it passed.
    assert_legal("4k3/p1p1pp1p/1p1p4/4R1p1/3RR3/8/8/4K3 b - -");
    // Two rooks only: both can be originals.
    assert_legal("4k3/p1p1pp1p/1p1p2p1/4R3/3R4/8/8/4K3 b - -");
}

/// The bishop on b1 can only have been promoted there (a2 is a dead end once a2xb3 was played),
/// from a2: a black pawn walked to the a-file and captured on b1, two captures for one missing unit.
#[test]
fn unit_promoted_where_it_stands_is_charged_its_walk() {
    let a = assert_illegal(
        "8/p6k/8/8/8/1P1P1P2/NPP1BRPP/1bKR1QBN w - -",
        PromotionsNeedCaptures,
    );
    assert!(a.reasons[0].message.contains("b1"));
    // The simpler case stays proven.
    assert_illegal(
        "7k/p7/8/8/8/1P6/NPPPPPPP/RbBQKB1R w - -",
        PromotionsNeedCaptures,
    );
    // White misses three units (a pawn, the g1 knight and the dark bishop): a3 and b1 can be the
    // squares of the two captures.
    assert_legal("8/p6k/8/8/8/1P1P1P2/NPP1BRPP/1bKR1Q2 w - -");
}

/// g7 never moved, so h6 came from h7 in one move: the white pawn on h7 arrived after it, and not
/// from h6, so by a capture; but Black has all sixteen units.
#[test]
fn pawn_on_a_square_an_enemy_pawn_left_arrived_by_a_capture() {
    assert_illegal(
        "rnbqkbnr/pppppppP/7p/8/8/8/PPPP4/4K3 b - -",
        PawnWalksNeedCaptures,
    );
    // Black misses its b8 knight: g6xh7 took it there.
    assert_legal("r1bqkbnr/pppppppP/7p/8/8/8/PPPP4/4K3 b - -");
    // h5 instead of h6: the h-pawn may have made two moves, but a white pawn on h7 still passed
    // it, which the crossing rule counts; with a black unit missing it is legal.
    assert_legal("r1bqkbnr/pppppppP/8/7p/8/8/PPPP4/4K3 b - -");
}

/// White's rooks never left the first rank and b2, d2 and g2 (b3, d3 and g3 came from there in
/// one move, a2, c2, e2, f2 and h2 never moved), so both were captured there; no black pawn can
/// have captured there (all eight are on the board, far away), so pieces did: with h7xg6 that is
/// three captures for two missing units.
#[test]
fn missing_units_captured_in_their_pen_are_counted_with_pawn_captures() {
    let a = assert_illegal(
        "rnbqkbnr/ppppppp1/6p1/8/8/1P1P2P1/P1P1PP1P/1NBQKBN1 b - -",
        TooManyCaptures,
    );
    assert_eq!(a.captures.black.total, 3);
    // White misses its b1 knight too: three captures are possible.
    assert_legal("rnbqkbnr/ppppppp1/6p1/8/8/1P1P2P1/P1P1PP1P/2BQKBN1 b - -");
    // d4 instead of d3: the pen opens on d2 and d3 once the d-pawn made two moves.
    assert_legal("rnbqkbnr/ppppppp1/6p1/8/3P4/1P4P1/P1P1PP1P/1NBQKBN1 b - -");
    // With a black pawn missing, it may have captured in the pen before it was taken.
    assert_legal("rnbqkbnr/pppppp2/6p1/8/8/1P1P2P1/P1P1PP1P/1NBQKBN1 b - -");
}

/// a2, b2, c2, d2 and the bishop on c1 never moved, so a rook on a1 or b1 never left those two
/// squares, where only the rook of a1 started (no white promotion square opens into them).
#[test]
fn pen_holds_at_most_the_rooks_that_started_in_it() {
    assert_illegal("4k3/8/8/8/8/8/PPPP4/RRBK4 b - -", CrowdedHomePen);
    // One rook: the a1 rook went to b1 once the knight had left.
    assert_legal("4k3/8/8/8/8/8/PPPP4/1RBK4 b - -");
    // Without the b-pawn the pen opens at b2: the h1 rook can have come in.
    assert_legal("4k3/8/8/8/8/8/P1PP4/RRBK4 b - -");
}

/// White's three rooks need a promotion, which only the h-pawn can have made, without a capture
/// (Black has all sixteen units): straight up the h-file, past Black's h-pawn, which came from h7
/// (g7 never moved) without leaving the file either (White misses no unit). Two pawns that stay on
/// one file never pass each other.
#[test]
fn pawns_of_both_sides_accounted_together() {
    let a = assert_illegal(
        "rnbqkbnr/ppppppp1/8/7p/3R4/8/PPPPPPP1/RNBQKBNR b - -",
        CapturesUnaccounted,
    );
    assert!(a.reasons[0].squares.contains(&Square::H5));
    // The same with colours swapped: Black's a-pawn promoted on a1 past White's a-pawn on a4.
    assert_illegal(
        "rnbqkbnr/1ppppppp/8/8/P2r4/8/1PPPPPPP/RNBQKBNR w - -",
        CapturesUnaccounted,
    );
    // Black misses both knights: hxg5 and gxh7 let White's h-pawn by (g7 and f7 never moved).
    assert_legal("r1bqkb1r/ppppppp1/8/7p/3R4/8/PPPPPPP1/RNBQKBNR b - -");
    // White misses both knights: Black's h-pawn can have left its file and come back (h7xg6,
    // g6xh5) once White's pawn was past, so Black pays for the pair.
    assert_legal("rnbqkbnr/ppppppp1/8/7p/3R4/8/PPPPPPP1/R1BQKB1R b - -");
    // Black's h-pawn is gone (captured on h4): the h-file was free.
    assert_legal("rnbqkbnr/ppppppp1/8/8/3R4/8/PPPPPPP1/RNBQKBNR b - -");
}

/// Which capture took each missing unit (issue 11, item 4): Black misses only its a8 rook, which
/// never left a8 and b8 (a7, b7 and c8 never moved, c8 held by b7 and d7), so it died there; White
/// made exactly one capture, and its pawns need one, e3 from d2 (f2 and e2 never moved): that
/// capture landed on e3, where the rook never was.
#[test]
fn missing_rook_shut_in_a_corner_was_never_captured() {
    let a = assert_illegal(
        "2bqkbnr/pp1ppppp/n7/2p5/8/4P3/PPP1PPP1/RNBQKBNR w - -",
        CaptureUnmatched,
    );
    let squares = &a.reasons[0].squares;
    assert!(squares.contains(&Square::E3) && squares.contains(&Square::A8));
    // Colours swapped.
    assert_illegal(
        "rnbqkbnr/ppp1ppp1/4p3/8/2P5/N7/PP1PPPPP/2BQKBNR b - -",
        CaptureUnmatched,
    );
    // Black also misses the g8 knight: e3 took it, and a white knight took the rook on b8.
    assert_legal("2bqkb1r/pp1ppppp/n7/2p5/8/4P3/PPP1PPP1/RNBQKBNR w - -");
    assert_legal("rnbqkbnr/ppp1ppp1/4p3/8/2P5/N7/PP1PPPPP/2BQKB1R b - -");
}

/// Black misses the a8 rook (shut in a8 and b8) and its dark-squared bishop (e7 moved, so it left
/// f8, but only ever on dark squares). White made two captures: d3, from c2 or e2, on a light
/// square, and one more. The rook needs the other one, and d3 cannot have taken the bishop.
#[test]
fn missing_bishop_needs_a_capture_on_its_colour() {
    assert_illegal(
        "2bqk1nr/pp1p1ppp/n3p3/2p5/8/3P4/PP1P1PPP/RNBQKBNR w - -",
        CaptureUnmatched,
    );
    assert_illegal(
        "rnbqkbnr/pp1p1ppp/3p4/8/2P5/N3P3/PP1P1PPP/2BQK1NR b - -",
        CaptureUnmatched,
    );
    // e3 (from d2) instead: a dark square, where the bishop may have died.
    assert_legal("2bqk1nr/pp1p1ppp/n3p3/2p5/8/4P3/PPP1PPP1/RNBQKBNR w - -");
    assert_legal("rnbqkbnr/ppp1ppp1/4p3/8/2P5/N3P3/PP1P1PPP/2BQK1NR b - -");
}

/// White misses its a-pawn and the h1 rook (shut in g1 and h1 by f1, g2 and h2, which never moved).
/// Black has all sixteen units, so White's pawns made no capture: the a-pawn never left the a-file
/// nor promoted (a7 never moved). Black made two captures, h7xg6 and one more; the rook needs the
/// other, and the a-pawn never stood on g6.
#[test]
fn missing_pawn_died_on_its_file() {
    let a = assert_illegal(
        "rnbqkbnr/ppppppp1/6p1/8/8/5P2/1PPPP1PP/RNBQKBN1 w - -",
        CaptureUnmatched,
    );
    assert!(a.reasons[0].squares.contains(&Square::G6));
    assert_illegal(
        "rnbqkbn1/1pppp1pp/5p2/8/8/6P1/PPPPPPP1/RNBQKBNR b - -",
        CaptureUnmatched,
    );
    // b7xa6 instead: the a-pawn may have died on a6.
    assert_legal("rnbqkbnr/p1pppppp/p7/8/8/5P2/1PPPP1PP/RNBQKBN1 w - -");
    assert_legal("rnbqkbn1/1pppp1pp/5p2/8/8/P7/P1PPPPPP/RNBQKBNR b - -");
}

/// When each capture was made (issue 11, item 4): White's pawn on c7 came from h2 by five captures,
/// on g3, f4, e5, d6 and c7 in that order, one for each unit Black misses. It stood on d6 and left
/// it by d6xc7 before Black's d7-d6, so all five captures came before that move. Until then the
/// c8 bishop could not leave (b7 never moved, d7 held its pawn), so the a8 rook never left a8 and
/// b8, where none of the captures landed. With b6 instead of b7, the bishop went out by b7 and the
/// rook by c8 to c7, where d6xc7 took it: the game below reaches that position.
#[test]
fn captures_before_a_single_step_took_only_what_could_reach_them() {
    let a = assert_illegal(
        "2b1kb2/ppP1ppp1/2pp4/7p/8/8/PPPPPPP1/RNBQKBNR b - -",
        CaptureUnmatched,
    );
    let squares = &a.reasons[0].squares;
    assert!([Square::A8, Square::D6, Square::C7, Square::D7]
        .iter()
        .all(|s| squares.contains(s)));
    assert!(a.reasons[0].message.contains("before d7-d6"));
    // Without the timing, the matching finds a capture for every unit.
    let mut untimed = retrace_legal::Analyzer::with_options(retrace_legal::AnalyzerOptions {
        timing: false,
        ..retrace_legal::AnalyzerOptions::default()
    });
    let a = untimed.analyze(&support::pos(
        "2b1kb2/ppP1ppp1/2pp4/7p/8/8/PPPPPPP1/RNBQKBNR b - -",
    ));
    assert!(a.reasons.is_empty(), "{:?}", a.reasons);
    // Colours swapped.
    assert_illegal(
        "rnbqkbnr/ppppppp1/8/8/7P/2PP4/PPp1PPP1/2B1KB2 w - -",
        CaptureUnmatched,
    );
    assert_legal("rnbqkbnr/ppppppp1/8/8/7P/1PPP4/P1p1PPP1/2B1KB2 w - -");
    let near = "2b1kb2/p1P1ppp1/1ppp4/7p/8/8/PPPPPPP1/RNBQKBNR b - -";
    assert_legal(near);
    let game = "Na3 Nh6 Nb1 Nf5 Na3 Ng3 hxg3 c6 Nb1 Qc7 Na3 Qf4 gxf4 h5 Nb1 Rh6 Na3 Re6 Nb1 Re5 \
                fxe5 Na6 Na3 Nc5 Nb1 Ne4 Na3 Nd6 exd6 b6 Nb1 Bb7 Na3 Rc8 Nb1 Rc7 dxc7 Bc8 Na3 d6 \
                Nb1";
    assert!(near.starts_with(&support::play(game)));
}

/// Units behind a door (issue 11, item 4): White's pawn on c7 came from h2 by five captures, on g3,
/// f4, e5, d6 and c7, one for each unit Black misses, all before Black's d7-d6 (it left d6 by
/// d6xc7 first; with c7xd6 and d7xc6 instead it would have landed on c7 both before and after
/// c7xd6). The bishop on b8 came in by c7 (a7 never moved), so before the pawn did; the king on a8
/// came by b8, so before the bishop. Until d7-d6 the c8 bishop could not leave, so the a8 rook had
/// only a8 and b8, and the king passing b8 to a8 found it gone: it was captured there, before
/// d7-d6, where none of the five captures landed. In the game below the white bishop took it on
/// b8, a sixth capture.
#[test]
fn units_behind_a_door_came_in_before_it_closed() {
    let a = assert_illegal(
        "kBb2b1r/ppP1p1p1/2pp4/7p/3P4/PPNQPN2/2PK1PP1/R4B2 w - -",
        CaptureUnmatched,
    );
    let message = &a.reasons[0].message;
    assert!(message.contains("the black king on a8 came in before the pawn on c7"));
    assert!(message.contains("rook from a8 could only stand on a8 and b8"));
    // Retractor 2's D-123 after f2xRg3 is taken back: the same door, with the black pawn on c2
    // and the bishop on b1 doing the same on White's side.
    assert_illegal(
        "kB3b2/ppP1p1p1/2pp4/8/8/2PP2r1/PPp1PPP1/Kb3B2 w - -",
        CaptureUnmatched,
    );
    // Colours swapped.
    let a = assert_illegal(
        "r4b2/2pk1pp1/ppnqpn2/3p4/7P/2PP4/PPp1P1P1/KbB2B1R b - -",
        CaptureUnmatched,
    );
    assert!(a.reasons[0]
        .message
        .contains("rook from a1 could only stand on a1 and b1"));
    assert_legal("r4b1r/2pk1pp1/1pnqpn2/3p4/p6P/2PP4/PPp1P1P1/KbB2B2 b - -");
    let near = "kBb2b2/ppP1p1p1/2pp4/P6p/3P4/1PNQPN2/2PK1PP1/R4B1R w - -";
    assert_legal(near);
    let game =
        "d4 c6 Bf4 Na6 e3 Rb8 Bxb8 Qb6 Bd6 h5 Bb4 Kd8 Nf3 Kc7 Nc3 Kb8 a3 Ka8 Bd6 Nf6 Bb8 Ne4 \
                b3 Ng3 hxg3 f5 Qd3 f4 gxf4 Rh6 Kd2 Re6 a4 Re5 fxe5 Qc7 a5 Qd6 exd6 Nc7 dxc7 d6";
    assert!(near.starts_with(&support::play(game)));
}

/// Which pawn is missing, counted with the victim's pawns (issue 11, item 3). White misses its f1
/// bishop (e2-e3 let it out) and one pawn; Black has all sixteen units, so White's pawns made no
/// capture: b3 came from b2, and the missing pawn is the a-pawn, which never left the a-file nor
/// promoted (a7 never moved). Black made exactly two captures, c7xb6 on a dark square and one more:
/// the light-squared bishop needs the other, and the a-pawn never stood on b6. Any start file of a
/// pawn that has gone, taken together, would let it die on b6.
#[test]
fn missing_pawn_is_the_one_the_pawns_on_the_board_leave() {
    let a = assert_illegal(
        "rnbqkbnr/pp1ppppp/1p6/8/8/1P2P3/2PP1PPP/RNBQK1NR w - -",
        CaptureUnmatched,
    );
    assert!(a.reasons[0].message.contains("pawn from the a-file"));
    assert!(a.reasons[0].squares.contains(&Square::B6));
    // Colours swapped.
    assert_illegal(
        "rnbqk1nr/2pp1ppp/1p2p3/8/8/1P6/PP1PPPPP/RNBQKBNR b - -",
        CaptureUnmatched,
    );
    // The dark-squared bishop is missing instead: c7xb6 took it, a piece the a-pawn on its file.
    let near = "rnbqkbnr/pp1ppppp/1p6/8/8/1P6/2PPPPPP/RN1QKBNR w - -";
    assert_legal(near);
    let game = "b3 Nc6 Bb2 Nb8 Ba3 Nc6 Bc5 Nb8 Bb6 cxb6 a4 Nc6 a5 Nxa5 Nc3 Nc6 Nb1 Nb8";
    assert!(near.starts_with(&support::play(game)));
}

/// The missing pawns' captures counted together (issue 11, item 3). White misses its a- and
/// h-pawns, and Black only its g8 knight, so White made one capture. Black made exactly two,
/// c7xb6 and f7xg6 (a7, b7, d7, e7, g7 and h7 never moved), one for each white pawn: the a-pawn
/// died on b6 and the h-pawn on g6, a capture each to get there (neither can have promoted: a7
/// and h7 block their files, and every way round needs more captures), two in all.
#[test]
fn missing_pawns_share_their_spare_captures() {
    let fen = "rnbqkb1r/pp1pp1pp/1p4p1/8/8/8/1PPPPPP1/RNBQKBNR w - -";
    let a = assert_illegal(fen, CaptureUnmatched);
    assert!(a.reasons[0].message.contains("need 2 captures together"));
    // Colours swapped.
    assert_illegal(
        "rnbqkbnr/1pppppp1/8/8/8/1P4P1/PP1PP1PP/RNBQKB1R b - -",
        CaptureUnmatched,
    );
    // Black misses both knights: White made two captures, a5xb6 and h5xg6.
    let near = "r1bqkb1r/pp1pp1pp/1p4p1/8/8/8/1PPPPPP1/RNBQKBNR w - -";
    assert_legal(near);
    let game = "a4 Nc6 a5 Ne5 Nc3 Nc4 Nb1 Nb6 axb6 cxb6 h4 Nf6 h5 Nd5 Nf3 Nf4 Ng1 Ng6 hxg6 fxg6";
    assert!(near.starts_with(&support::play(game)));
}

/// A promoted unit does not leave every missing pawn free to have died anywhere. White's h-pawn
/// promoted (a third rook) and its a- and b-pawns are missing; Black misses nothing, so White
/// captured nothing, and a7 and b7 never moved: those pawns never left their files nor
/// promoted, so each died on its own file. Black made exactly two captures, one h7xg6 (c7 to
/// g7 never moved), which cannot have taken either.
#[test]
fn missing_pawns_of_a_side_that_promoted_died_on_their_files() {
    let a = assert_illegal(
        "rnbqkbn1/ppppppp1/6p1/7r/2R5/8/2PPPPP1/RNBQKBNR w - -",
        CaptureUnmatched,
    );
    assert!(a.reasons[0].message.contains("pawn from the a-file"));
    assert!(a.reasons[0].squares.contains(&Square::G6));
    // Colours swapped.
    assert_illegal(
        "rnbqkbnr/2ppppp1/8/2r5/7R/6P1/PPPPPPP1/RNBQKBN1 b - -",
        CaptureUnmatched,
    );
    // The g-pawn is missing instead of the a-pawn: h7xg6 took it, a rook the a-pawn on its file.
    let near = "rnbqkbn1/ppppppp1/6p1/7r/2R5/8/1PPPPP2/RNBQKBNR b - -";
    assert_legal(near);
    let game = "g4 Nf6 g5 Nh5 g6 hxg6 a4 Nf6 a5 Rh5 a6 Ra5 h4 Rxa6 h5 Ng8 h6 Ra5 h7 Rh5 h8=R Ra5 \
                R8h4 Rh5 Rc4";
    assert!(near.starts_with(&support::play(game)));
}
