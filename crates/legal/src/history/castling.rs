//! Promotions past units that never moved: a king whose castling right freezes it checks every
//! pawn next to it, a rook frozen in its corner closes that promotion square, and pawns that can
//! have made no capture came straight to their squares (Sherlock L05, L06 and L08).
//!
//! [`crate::promotion`] already walks the pawns that promoted to their promotion squares around
//! the static squares (units that never moved, among them the king and rooks a castling right
//! freezes) and counts the captures the walks need. Two more facts sharpen those walks.
//!
//! *A king that never moved.* If the king of `them` is static on its home square, a pawn of `us`
//! on one of the two squares from which it attacks that square (d7 and f7 for a black king on e8)
//! gave check the moment it arrived. A pawn's check cannot be blocked and the king cannot move (it
//! never moved), so `them` captured the pawn with the very next move, or the game ended there (the
//! pawn is then still on the square). Either way no pawn ever moved on from that square: for the
//! walks of `us` it is as closed as a static square. Sherlock L08 (`r3k3/ppp1p1pp/8/8/8/8/8/R1R1K2R
//! b q -`): Black may castle queen-side, so Ke8 and Ra8 never moved; White has three rooks, so one
//! was promoted; of the promotion squares a8 and e8 are frozen, b8 and h8 are reached only from
//! a7, b7, c7, g7 and h7, where black pawns never moved, and c8, d8, f8 and g8 only from d7 or f7,
//! the two squares next to the king. No white pawn ever promoted: illegal.
//!
//! *Pawns that can have made no capture.* The pawns of a side made at most as many captures as the
//! other side is missing units, less the captures proven made by pieces. When that is zero, every
//! pawn of the side stands on its own file and came straight: a pawn on its third rank stood on its
//! second rank until its one move and on its third after it, so no pawn ever moved between the two
//! squares (the pawn timing of [`crate::statics`], which alone cannot tell a straight step from a
//! capture). Sherlock L05 (`rnbqkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w K -`): Black has all 16
//! units, so White made no capture and g3 came from g2. Bc8 never moved (b7 and d7 never did), so
//! the light bishop on d5 was promoted, by the g-pawn, the only black pawn missing, on a light
//! square: not b1 or d1 (only a2 to e2 lead there, and White's pawns there never moved), not h1
//! (White may castle king-side: Rh1 never moved). So on f1, from g2, entered from f3 or h3 (g3 to g2
//! crosses the white g-pawn's move): the g-pawn changed files three times, three captures, but
//! White is missing only two units. Without the castling right it promotes on h1 after one capture
//! (Sherlock L07, legal). L06 is the same with Bc8 missing: it never moved, and on c8 only a knight
//! can capture it, so White's one capture was made by a piece and its pawns made none.
//!
//! Both facts hold in every game, so the walks they close are closed in every game, and a lower
//! bound computed with them stays a lower bound. The rule runs only when a side has promoted units
//! and one of the facts applies (a static enemy king, or a side whose pawns made no capture), and
//! only when nothing else has proven the position illegal.

use retrace_unmove::pawn_forward;
use shakmaty::{attacks, Bitboard, Color, Rank, Square};

use crate::known::Known;
use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, squares_text};
use crate::{
    geometry::{promotion_squares, Timed, TimedList},
    promotion::{self, Demand},
    statics::Statics,
    types::{Reason, ReasonCode},
};

/// Squares from which a pawn of `us` would check the king of the other side when that king never
/// moved (is static on its home square), with the king's square; empty if the king may have moved.
#[must_use]
pub(crate) fn checking_squares(known: &Known<'_>, us: Color) -> (Bitboard, Option<Square>) {
    let fixed = known.statics.fixed;
    match known.pos.board().king_of(us.other()) {
        Some(king) if fixed.contains(king) => {
            (attacks::pawn_attacks(us.other(), king) & !fixed, Some(king))
        }
        _ => (Bitboard::EMPTY, None),
    }
}

/// The pawns on their third rank of every side whose pawns can have made no capture, each with the
/// second-rank square straight behind it: added to `timed`. Returns the pawns added.
fn straight_steps(known: &Known<'_>, timed: &mut TimedList) -> Bitboard {
    let board = known.pos.board();
    let mut added = Bitboard::EMPTY;
    for color in Color::ALL {
        if known.missing(color.other()) > known.by_pieces(color) {
            continue;
        }
        let third = Bitboard::from_rank(color.relative_rank(Rank::Third));
        let back = -pawn_forward(color);
        for to in board.by_piece(color.pawn()) & third {
            let Some(from) = to.offset(back) else {
                continue;
            };
            // A static pawn behind it would make the position contradictory; others say so.
            if known.statics.fixed.contains(from) {
                continue;
            }
            if timed.push(Timed { color, from, to }) {
                added.add(to);
            }
        }
    }
    added
}

/// Appends a [`ReasonCode::PromotionsNeedCaptures`] reason for each side whose promoted units need
/// more captures (or paths that do not exist) once the two facts of the module close the walks.
pub(crate) fn promotions(known: &Known<'_>, out: &mut Reasons) {
    if !out.is_empty() || Color::ALL.iter().all(|&c| known.promoted.get(c).total == 0) {
        return;
    }
    let board = known.pos.board();
    let mut timed = known.statics.timed;
    let straight = straight_steps(known, &mut timed);
    for us in Color::ALL {
        let promoted = known.promoted.get(us);
        let pawns = board.by_piece(us.pawn());
        // Too many promoted units for the missing pawns: too_many_promotions says it already.
        if promoted.total == 0 || pawns.count() + promoted.total as usize > 8 {
            continue;
        }
        let (dead, king) = checking_squares(known, us);
        if dead.is_empty() && straight.is_empty() {
            continue;
        }
        let fixed = known.statics.fixed | dead;
        let usable = promotion_squares(us, fixed);
        let mut demands = promotion::demands(known.pos, known.statics, us);
        for d in &mut demands {
            d.squares &= usable;
        }
        let walls = Statics {
            fixed,
            timed,
            ..Statics::default()
        };
        let found = promotion::min_captures(us, pawns, &demands, &walls, false, known.walks);
        let by_pieces = known.by_pieces(us);
        let missing = known.missing(us.other());
        if found.is_some_and(|c| c + by_pieces <= missing) {
            continue;
        }
        let facts = Facts {
            dead,
            king,
            straight,
            timed: &timed,
        };
        out.add_built(ReasonCode::PromotionsNeedCaptures, || {
            reason(known, us, &demands, &facts, found)
        });
    }
}

/// What closed the walks, for the message.
struct Facts<'a> {
    dead: Bitboard,
    king: Option<Square>,
    straight: Bitboard,
    timed: &'a TimedList,
}

// Long by design: it only writes the rule's sentence, one clause per fact the rule used (dead
// pawns, straight steps per colour, captures), in the order the proof uses them.
/// The reason for `us`: the demands, the facts used, the captures needed (`None`: no path).
fn reason(
    known: &Known<'_>,
    us: Color,
    demands: &[Demand],
    facts: &Facts<'_>,
    found: Option<u32>,
) -> Reason {
    let them = us.other();
    let (mut parts, mut squares) = promotion::describe_demands(demands);
    if let (Some(king), true) = (facts.king, facts.dead.any()) {
        squares |= facts.dead.with(king);
        parts.push(format!(
            "the {} king on {king} never moved, so a {} pawn on {} checked it on arrival and was \
             captured at once (a pawn's check is met only by capturing it when the king cannot \
             move): no pawn ever moved on from there",
            color_adj(them),
            color_adj(us),
            squares_text(facts.dead).replace(" and ", " or ")
        ));
    }
    for color in Color::ALL {
        let mine: Vec<Timed> = facts
            .timed
            .iter()
            .filter(|t| t.color == color && facts.straight.contains(t.to))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let steps: Vec<String> = mine
            .iter()
            .map(|t| {
                squares.add(t.from);
                squares.add(t.to);
                format!("{} from {}", t.to, t.from)
            })
            .collect();
        let missing = known.missing(color.other());
        let why = match missing {
            0 => format!("{} has all its units", color_name(color.other())),
            1 => format!(
                "the one unit {} is missing was captured by a piece",
                color_name(color.other())
            ),
            n => format!(
                "the {n} units {} is missing were captured by pieces",
                color_name(color.other())
            ),
        };
        parts.push(format!(
            "the {} pawns can have made no capture ({why}), so each came straight ({}) and no \
             pawn ever passed between those squares",
            color_adj(color),
            steps.join(", ")
        ));
    }
    let missing = known.missing(them);
    let by_pieces = known.by_pieces(us);
    let need = promotion::captures_needed_text(found);
    Reason::new(
        ReasonCode::PromotionsNeedCaptures,
        format!(
            "{} has promoted units ({}); {need}, but {}",
            color_name(us),
            parts.join("; "),
            promotion::missing_only(them, missing, by_pieces)
        ),
        squares,
    )
}
