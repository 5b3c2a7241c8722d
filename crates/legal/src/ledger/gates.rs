//! Gates that closed (issue 25, item 3): in one combination of the ledger, the pawns standing on
//! their third rank on their own start files came there in one step, which shuts gates for good;
//! the originals the closed gates pen in never left their pens, and a promoted pawn's walk must
//! capture where some unit of the other side can have stood.
//!
//! # The argument
//!
//! Fix a combination of the ledger (start files for every pawn of both accounts, within the
//! captures each side made; see [`super`]), and the victim `V`'s pawns outside its account that
//! promoted (the others died as pawns, each within the captures left to it).
//!
//! 1. **A pawn on its third rank on its own start file came in one step.** Leaving its file takes
//!    a capture and coming back another, and each capture advances it a rank, so a pawn one rank
//!    from its start square on its own file made no capture: it stood on its start square until
//!    its one move and on its present square since. No unit ever moved between the two
//!    squares (nor slid over both): the gate between them was never open. These steps join the
//!    statics' pawns of known history as the combination's *cuts*.
//! 2. **Originals shut in by the cuts never left their pens.** For each class of `V`'s pieces
//!    (queens, rooks, knights, bishops of each colour), the pen of a home square is the region
//!    flooded from it by steps of the role through squares that are not static, never along a
//!    cut. An original stays in its pen all game, so the units of the class on the board that are
//!    originals match, one to one, homes whose pens hold them: at most a maximum matching `m` of
//!    them. The other `n - m` are promoted. So `V` has at least `sum(n - m)` promoted units on the
//!    board; its account already holds one pawn per promoted unit it must have (the demands), and
//!    each promoted unit beyond those came from a pawn outside the account: the combination's
//!    choice of those that promoted must be as large.
//! 3. **Each capture of the taker's promoting pawn took a unit of `V` that could stand there.**
//!    `V`'s captured units are: its missing originals (of each class, `homes - (n - p)` where `p`
//!    of its `n` units on the board are promoted, each inside its pen); its promoted units that
//!    were captured (at most the promotions beyond those on the board); and its pawns that died
//!    as pawns (each on the files within the captures it had, never on its first or last rank).
//!    The taker's pawn that promoted to one of its units walked from its start square to a
//!    promotion square of the unit: straight steps onto squares that are not static, never along
//!    a cut, never onto a square from which it checked `V`'s king that never moved (it was taken
//!    at once, [`crate::history::checking_squares`]); captures onto squares that are not static,
//!    at most the taker's captures less those its other pawns are charged. Each capture took a
//!    distinct captured unit of `V` that can have stood on its square. If no walk of the pawn has
//!    its captures matched so, in any choice of which originals are missing, the combination has
//!    no game.
//!
//! Each fact holds in every game the combination describes, so a combination that fails them
//! has no game; the ledger reports the position illegal only if every combination fails.
//!
//! # A problem it decides (Kryštufek, 100 mal Kniffel-Schach no. 36, 1986)
//!
//! `4k2r/1pQqp3/p1pp1Bp1/P6p/rnP1P3/2bB4/1P1P1PP1/1N2K2R`, given that Ke8 and Rh1 never moved:
//! may Black castle king-side? Then Rh8 never moved either. White's b2 and d2 never moved, so the
//! c1 bishop never left c1 and is gone (taken there by a piece: a pawn reaches c1 only from b2 or
//! d2): the dark bishop on f6 is promoted, by the h-pawn, White's only missing pawn. Black made
//! three captures, one of them on c1: two by pawns at most. In every account:
//! - if Black's c- and d-pawns stand on their own files (c6, d6 from c7, d7 in one step each, and
//!   a6 from a7: b7 never moved), the a8-rook's pen is a8-d8, a7, c7, d7 (e8 and e7 never moved):
//!   the rook on a4 is promoted, so Black's missing pawn promoted, and Black's units captured are
//!   the a8-rook (in its pen), a knight and the c8 bishop (light squares only);
//! - otherwise the c- and d-pawns crossed (two captures, all Black's pawns have), and Black's
//!   captured units are a knight, the light bishop and its missing pawn, which died as a pawn on
//!   its file.
//!
//! White's h-pawn promoted on a dark square: h8 is held by the rook, d8 and b8 lie five captures
//! away, so f8, entered only by g7xf8 (f7 checks the king on e8, e7 never moved). If Black's
//! g-pawn stands on g6 it came from g7 in one step, so the white pawn reached g7 by a capture
//! too: two captures on dark squares of Black's camp, where of Black's captured units only the
//! knight can have stood. If the pawn on g6 came from f7 or h7 (one capture), Black's pawns have
//! one capture left: the c- and d-pawns stand on their files, and the promotion the a4-rook needs
//! costs two more (f2, g2 and Rh1 never moved; e1 is reached from the f-pawn only with the
//! g-pawn on h5, itself a capture). No combination has a game: Black may not castle. Without the
//! given Rh1 (it may have left h1), Black's g-pawn promotes on h1 after one capture, and the
//! position stands.

use shakmaty::{Bitboard, ByColor, Color, File, Rank, Role, Square};

use super::Assignment;
use crate::accounting::items::{Item, Place};
use crate::class::classes;
use crate::geometry::{region_cut, Timed, TimedList};
use crate::known::Known;
use crate::text::{color_adj, color_name, squares_text};
use crate::types::{Reason, ReasonCode};

/// The roles of the classes of [`classes`], in their order.
const ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Bishop,
];

/// The most walk nodes one check visits; beyond it the check gives up (the combination fits).
const WALK_NODES: u32 = 4096;

/// The combination's cuts: the statics' pawns of known history and, for each side, its pawns on
/// their third rank whose start file (in `a` for White, `b` for Black) is their own file.
pub(super) fn cuts(
    known: &Known<'_>,
    items: &ByColor<&[Item]>,
    a: &Assignment,
    b: &Assignment,
) -> TimedList {
    let mut out = known.statics.timed;
    for (color, asg) in [(Color::White, a), (Color::Black, b)] {
        let third = color.relative_rank(Rank::Third);
        let second = color.relative_rank(Rank::Second);
        for (item, &g) in items.get(color).iter().zip(asg.files.iter()) {
            let Place::Board(to) = item.place else {
                continue;
            };
            if to.rank() == third && to.file() as u8 == g {
                let from = Square::from_coords(to.file(), second);
                // A pawn listed already keeps its history; a full list only loses strength.
                let _ = out.push(Timed { color, from, to });
            }
        }
    }
    out
}

/// One class of the victim's pieces in a combination: its units, its homes whose original may be
/// gone (with their pens), and how many of its units must be promoted.
#[derive(Clone, Copy, Debug, Default)]
struct ClassPens {
    /// Units of the class on the board.
    units: u32,
    /// Home squares of the class.
    homes: u32,
    /// The homes whose original may be missing, each with its pen (at most two).
    open: [Option<Bitboard>; 2],
    /// Units of the class on the board that are promoted in every game of the combination.
    promoted: u32,
}

/// The victim's pens in a combination (fact 2 of the module).
#[derive(Clone, Copy, Debug)]
pub(super) struct Pens {
    classes: [ClassPens; 5],
}

impl Pens {
    /// The pens of `color`'s originals with the walls of `known` and the cuts `cuts`.
    pub(super) fn new(known: &Known<'_>, color: Color, cuts: &TimedList) -> Pens {
        let fixed = known.statics.fixed;
        let stuck = *known.statics.stuck_missing.get(color);
        let mut out = [ClassPens::default(); 5];
        for ((class, role), slot) in classes(known.pos, color)
            .iter()
            .zip(ROLES)
            .zip(out.iter_mut())
        {
            let mut pens = [None; 2];
            let mut matchable: [Bitboard; 2] = [Bitboard::EMPTY; 2];
            let mut k = 0;
            for home in class.originals {
                // A static unit of the class at home is its original, on the board for good.
                if fixed.contains(home) && class.units.contains(home) {
                    continue;
                }
                let pen = region_cut(role, home, !fixed, Bitboard::EMPTY, 64, cuts).with(home);
                if let (Some(p), Some(m)) = (pens.get_mut(k), matchable.get_mut(k)) {
                    *p = Some(pen);
                    // An original proven gone matches no unit on the board.
                    *m = if stuck.contains(home) {
                        Bitboard::EMPTY
                    } else {
                        class.units & pen
                    };
                }
                k += 1;
            }
            let statics_home = (class.originals & class.units & fixed).count() as u32;
            let units = class.units.count() as u32;
            let matched = statics_home + max_matching(matchable);
            *slot = ClassPens {
                units,
                homes: class.originals.count() as u32,
                open: pens,
                promoted: units.saturating_sub(matched),
            };
        }
        Pens { classes: out }
    }

    /// The victim's units on the board that are promoted in every game of the combination.
    pub(super) fn promoted(&self) -> u32 {
        self.classes.iter().map(|c| c.promoted).sum()
    }

    /// The choices of the victim's captured units (each as the squares where it can have stood),
    /// given its promotions `promotions` (in its account and outside it) of which `demands` are
    /// its account's, and its pawns `dead` that died as pawns (start file bit, files reached).
    fn victims(
        &self,
        color: Color,
        promotions: u32,
        demands: u32,
        dead: &[(u8, u8)],
    ) -> Vec<Vec<Bitboard>> {
        let forced = self.promoted();
        let mut common = Vec::new();
        // Promoted units captured: at most the promotions beyond those on the board.
        let captured = promotions.saturating_sub(forced.max(demands));
        common.extend(std::iter::repeat_n(Bitboard::FULL, captured as usize));
        let inner = !(Bitboard::from_rank(color.relative_rank(Rank::First))
            | Bitboard::from_rank(color.relative_rank(Rank::Eighth)));
        for &(_, files) in dead {
            let squares = File::ALL
                .into_iter()
                .filter(|&f| files & 1 << f as u8 != 0)
                .fold(Bitboard::EMPTY, |m, f| m | Bitboard::from_file(f));
            common.push(squares & inner);
        }
        // Each class: its missing originals, `homes - (units - p)` with `p` promoted on the board.
        let mut out = vec![common];
        for c in &self.classes {
            let others = forced - c.promoted;
            let most = c.units.min(promotions.saturating_sub(others));
            let missing = (c.homes + most).saturating_sub(c.units) as usize;
            let open: Vec<Bitboard> = c.open.iter().flatten().copied().collect();
            if missing == 0 || open.is_empty() {
                continue;
            }
            if missing >= open.len() {
                for alt in &mut out {
                    alt.extend(open.iter().copied());
                }
            } else {
                // One of two homes: either original may be the missing one.
                out = out
                    .into_iter()
                    .flat_map(|alt| {
                        open.iter().map(move |&pen| {
                            let mut v = alt.clone();
                            v.push(pen);
                            v
                        })
                    })
                    .collect();
            }
        }
        out
    }
}

/// The largest number of distinct units matched to distinct homes, home `k` taking a unit of
/// `m[k]`.
fn max_matching(m: [Bitboard; 2]) -> u32 {
    let [a, b] = m;
    if a.any() && b.any() && (a | b).more_than_one() {
        2
    } else {
        u32::from((a | b).any())
    }
}

/// What the taker's promoting pawn must do in one combination (fact 3 of the module).
pub(super) struct Walk<'a> {
    /// The taker.
    pub color: Color,
    /// The combination's cuts.
    pub cuts: &'a TimedList,
    /// Squares no pawn of the taker stands on (static) or moves on from (checking the victim's
    /// king that never moved).
    pub fixed: Bitboard,
    /// Squares where a pawn of the taker checks the victim's king that never moved.
    pub dead: Bitboard,
}

impl Walk<'_> {
    /// Whether a pawn of the taker from `file` reaches a square of `squares` with at most `cap`
    /// captures, each matched to its own unit of some choice of `choices` that can have stood
    /// on its square. Gives up (true) past [`WALK_NODES`] nodes.
    fn fits(&self, file: u8, squares: Bitboard, cap: u32, choices: &[Vec<Bitboard>]) -> bool {
        let Some(file) = File::ALL.get(usize::from(file)).copied() else {
            return true;
        };
        let start = Square::from_coords(file, self.color.relative_rank(Rank::Second));
        let reach = choices
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |m, &s| m | s);
        let mut search = Search {
            walk: self,
            squares,
            cap,
            choices,
            reach,
            landings: Vec::new(),
            nodes: 0,
        };
        search.visit(start)
    }

    /// Whether no unit ever moved between `a` and `b` (a cut of the combination).
    fn cut(&self, a: Square, b: Square) -> bool {
        self.cuts
            .iter()
            .any(|t| (t.from == a && t.to == b) || (t.from == b && t.to == a))
    }
}

/// The depth-first walk of [`Walk::fits`].
struct Search<'w, 'a> {
    walk: &'w Walk<'a>,
    squares: Bitboard,
    cap: u32,
    choices: &'w [Vec<Bitboard>],
    reach: Bitboard,
    landings: Vec<Square>,
    nodes: u32,
}

impl Search<'_, '_> {
    /// Whether the pawn on `sq` (with the captures of `landings` made) can go on to promote.
    fn visit(&mut self, sq: Square) -> bool {
        self.nodes += 1;
        if self.nodes > WALK_NODES {
            return true;
        }
        let color = self.walk.color;
        let up = if color.is_white() { 1 } else { -1 };
        let last = color.relative_rank(Rank::Eighth);
        for df in [0, -1, 1] {
            let Some(to) = sq.offset(up * 8 + df) else {
                continue;
            };
            if (i32::from(to.file() as u8) - i32::from(sq.file() as u8)).abs() != df.abs()
                || self.walk.fixed.contains(to)
                || self.walk.dead.contains(to)
                || self.walk.cut(sq, to)
            {
                continue;
            }
            let capture = df != 0;
            if capture && (self.landings.len() as u32 >= self.cap || !self.reach.contains(to)) {
                continue;
            }
            if capture {
                self.landings.push(to);
            }
            let ok = if to.rank() == last {
                self.squares.contains(to) && self.matched()
            } else {
                self.visit(to)
            };
            if capture {
                self.landings.pop();
            }
            if ok {
                return true;
            }
        }
        false
    }

    /// Whether the captures made can each be given its own unit of some choice.
    fn matched(&self) -> bool {
        self.choices
            .iter()
            .any(|units| assign(&self.landings, units))
    }
}

/// Whether each landing can be given its own unit whose squares hold it.
fn assign(landings: &[Square], units: &[Bitboard]) -> bool {
    super::matching(landings.len(), units.len(), |u, s| {
        units[s].contains(landings[u])
    })
}

/// Why a combination fails the gates, for the message.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shut {
    /// The victim has more promoted units on the board than its pawns can have promoted.
    Promotions { promoted: u32 },
    /// The taker's pawn that promoted to one of `units` has no walk whose captures took units.
    Walk { units: Bitboard, squares: Bitboard },
}

/// Why the combinations failing the gates failed, for the message: the first of each kind.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Shuts {
    /// Promoted units on the board beyond the victim's promotions.
    promotions: Option<u32>,
    /// The taker's promoted units and their promotion squares that no walk reaches.
    walk: Option<(Bitboard, Bitboard)>,
}

impl Shuts {
    /// Records one failing combination.
    pub(super) fn add(&mut self, shut: Shut) {
        match shut {
            Shut::Promotions { promoted } => {
                self.promotions.get_or_insert(promoted);
            }
            Shut::Walk { units, squares } => {
                self.walk.get_or_insert((units, squares));
            }
        }
    }

    /// Whether some combination failed the gates.
    pub(super) fn any(&self) -> bool {
        self.promotions.is_some() || self.walk.is_some()
    }
}

/// The gate check of one combination and one choice of the victim's promotions: `None` if it
/// passes.
pub(super) struct Check<'a> {
    pub known: &'a Known<'a>,
    pub items: &'a ByColor<&'a [Item]>,
    pub taker: Color,
    pub a: &'a Assignment,
    pub b: &'a Assignment,
    pub charges: &'a ByColor<Vec<u32>>,
    pub budget: ByColor<u32>,
    pub cuts: &'a TimedList,
    pub pens: &'a Pens,
}

impl Check<'_> {
    /// Checks the choice `promoted` of the victim's pawns outside its account that promoted, the
    /// others (`dead`) died as pawns.
    pub(super) fn shut(&self, promoted: u8, dead: &[(u8, u8)]) -> Option<Shut> {
        let victim = self.taker.other();
        let demands = self
            .items
            .get(victim)
            .iter()
            .filter(|i| matches!(i.place, Place::Promoted { .. }))
            .count() as u32;
        let promotions = demands + promoted.count_ones();
        let forced = self.pens.promoted();
        if forced > promotions {
            return Some(Shut::Promotions { promoted: forced });
        }
        let own = if self.taker.is_white() {
            self.a
        } else {
            self.b
        };
        let charges = self.charges.get(self.taker);
        let total: u32 = charges.iter().sum();
        let taker_items = self.items.get(self.taker);
        if !taker_items
            .iter()
            .any(|i| matches!(i.place, Place::Promoted { .. }))
        {
            return None;
        }
        let choices = self.pens.victims(victim, promotions, demands, dead);
        let (dead_squares, _) = crate::history::checking_squares(self.known, self.taker);
        let walk = Walk {
            color: self.taker,
            cuts: self.cuts,
            fixed: self.known.statics.fixed,
            dead: dead_squares,
        };
        for ((item, &g), &c) in taker_items.iter().zip(own.files.iter()).zip(charges) {
            let Place::Promoted { units, squares } = item.place else {
                continue;
            };
            let cap = self.budget.get(self.taker).saturating_sub(total - c);
            if !walk.fits(g, squares, cap, &choices) {
                return Some(Shut::Walk { units, squares });
            }
        }
        None
    }
}

/// The [`ReasonCode::LedgerGate`] reason for `taker`, from the combinations that failed the
/// gates (`mixed`: others failed for the ledger's other reasons).
pub(super) fn reason(taker: Color, shuts: &Shuts, mixed: bool) -> Reason {
    let victim = taker.other();
    let mut parts = Vec::new();
    let mut squares = Bitboard::EMPTY;
    if let Some(promoted) = shuts.promotions {
        parts.push(format!(
            "the originals those steps and the units that never moved shut in never left their \
             pens, so at least {promoted} of {}'s units on the board {} promoted, more than \
             its pawns can have promoted with the captures it has left",
            color_name(victim),
            if promoted == 1 { "is" } else { "are" }
        ));
    }
    if let Some((units, to)) = shuts.walk {
        squares |= units | to;
        parts.push(format!(
            "the {} pawn that promoted to the unit on {} reached {} only by captures on \
             squares where none of {}'s captured units can have stood (each capture took its \
             own: an original inside its pen, a bishop on its colour, a pawn on the files its \
             captures reach), never stepping between those squares nor onto a square from \
             which it checked a king that never moved",
            color_adj(taker),
            squares_text(units).replace(" and ", " or "),
            squares_text(to).replace(" and ", " or "),
            color_name(victim)
        ));
    }
    let what = match parts.as_slice() {
        [one] => one.clone(),
        _ => format!("either {}", parts.join("; or ")),
    };
    let others = if mixed {
        " (in the others the captures cannot have taken the pawns that died as pawns)"
    } else {
        ""
    };
    Reason::new(
        ReasonCode::LedgerGate,
        format!(
            "in every account of both sides' pawns that fits the captures each made{others}, \
             the pawns standing on their third rank on their own files came there in one step, \
             so no unit ever passed between those two squares; and {what}"
        ),
        squares,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk of Kryštufek 36's white h-pawn: e7, e8 and h8 static, f7 and d7 checking the
    /// king on e8.
    fn walk(cuts: &TimedList) -> Walk<'_> {
        Walk {
            color: Color::White,
            cuts,
            fixed: Bitboard::from_square(Square::E7)
                .with(Square::E8)
                .with(Square::H8),
            dead: Bitboard::from_square(Square::F7).with(Square::D7),
        }
    }

    const H: u8 = 7;

    #[test]
    fn a_promotion_by_capture_beside_a_static_king_needs_a_unit_on_each_landing() {
        let f8 = Bitboard::from_square(Square::F8);
        let none = TimedList::default();
        // Straight up the g-file and g7xf8: one capture on the way (h-file to g-file), one on f8.
        let knight = vec![vec![Bitboard::FULL]];
        let two = vec![vec![Bitboard::FULL, Bitboard::FULL]];
        assert!(!walk(&none).fits(H, f8, 3, &knight));
        assert!(walk(&none).fits(H, f8, 3, &two));
        // Too few captures allowed.
        assert!(!walk(&none).fits(H, f8, 1, &two));
        // A unit that can stand only on light squares takes no capture on f8 (dark).
        let light = vec![vec![Bitboard::LIGHT_SQUARES, Bitboard::LIGHT_SQUARES]];
        assert!(!walk(&none).fits(H, f8, 3, &light));
        // One light unit for hxg on a light square and a knight for f8.
        let mixed = vec![vec![Bitboard::LIGHT_SQUARES, Bitboard::FULL]];
        assert!(walk(&none).fits(H, f8, 3, &mixed));
    }

    #[test]
    fn a_pawn_that_came_in_one_step_shuts_the_file_behind_it() {
        let f8 = Bitboard::from_square(Square::F8);
        let mut cuts = TimedList::default();
        assert!(cuts.push(Timed {
            color: Color::Black,
            from: Square::G7,
            to: Square::G6,
        }));
        // g6-g7 never happened: the pawn reached g7 by a capture (dark), then took on f8 (dark).
        let mixed = vec![vec![Bitboard::LIGHT_SQUARES, Bitboard::FULL]];
        assert!(!walk(&cuts).fits(H, f8, 3, &mixed));
        let dark = vec![vec![Bitboard::DARK_SQUARES, Bitboard::FULL]];
        assert!(walk(&cuts).fits(H, f8, 3, &dark));
        // Either of two choices of the missing originals may be the one.
        let choices = vec![
            vec![Bitboard::LIGHT_SQUARES, Bitboard::FULL],
            vec![Bitboard::DARK_SQUARES, Bitboard::FULL],
        ];
        assert!(walk(&cuts).fits(H, f8, 3, &choices));
    }

    #[test]
    fn two_homes_match_two_units_only_if_each_pen_holds_a_different_one() {
        let a = Bitboard::from_square(Square::A4);
        let b = Bitboard::from_square(Square::H8);
        assert_eq!(max_matching([a, b]), 2);
        assert_eq!(max_matching([a, a]), 1);
        assert_eq!(max_matching([a | b, Bitboard::EMPTY]), 1);
        assert_eq!(max_matching([Bitboard::EMPTY; 2]), 0);
    }
}
