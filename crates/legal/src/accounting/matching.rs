//! Which capture took each missing unit, and where (issue 11, item 4's second half): the units a
//! side misses matched one to one with the captures the other side made, none meaning illegal.
//!
//! # The argument
//!
//! Let `V` (the victim) miss `b` units. Each was captured once, by the other side `S` (the taker),
//! and every capture of `S` took one of them, so `S` made exactly `b` captures and there is a
//! one-to-one map from `V`'s missing units to `S`'s captures, each unit taken on a square where it
//! stood. The rule builds sets that hold for every game and finds no such map.
//!
//! *Where each missing unit can have died.* A unit only ever stood on squares it can reach from
//! its start by its own steps through squares that are not static (occupied by a unit that never
//! moved, the whole game), never along the move of a pawn of known history (see
//! [`crate::geometry::step`]); an original piece from its home square, so a bishop stays on its
//! colour, a rook in a back-rank pen stays in it. For each kind (bishops by square colour) the
//! originals missing are at least the homes of the kind less the units of the kind on the board
//! not proven promoted; when every original of a kind is missing each gets the region of its own
//! home, otherwise each gets the union of the regions of the kind's homes (more squares only allow
//! more). When `V` can have promoted no pawn at all (below), its units on the board are all
//! originals, so exactly `8 - pawns` pawns are missing, each dead as a pawn: on ranks 2 to 7, at
//! most `spare` files from a start file whose pawn is not still on its square (a pawn that changed
//! files captured, and `V`'s pawns on the board already need all but `spare` of the captures the
//! units `S` misses allow), at least as many ranks up as files across. Any other missing unit may
//! have died anywhere. `V` promoted nothing when it has no promoted unit to account for and no
//! walk around the walls to a promotion square needs at most `spare` captures (the promoting pawn
//! is not one of those on the board, whose captures cost at least the fewest of any assignment;
//! sharper, it started on a file that the start files of the pawns on the board leave free in
//! some assignment within the budget, with the captures that assignment leaves).
//!
//! *Where a walk's captures landed.* Each capture of a pawn of `V` took a unit of `S` standing on
//! its landing square, which is missing now. When `S` has its eight pawns on the board it promoted
//! nothing, so its missing units are originals of the kinds it has fewer of than homes, and each
//! stood only in the region of a home of its kind (a bishop on its colour): the walks that decide
//! whether `V` promoted land their captures only there ([`capture_landings`]). So a side that
//! lost only a light bishop never let a pawn of the other side promote by a capture on a dark
//! square. (The sharper look at `V`'s promotions, landings and free files together, is a gate's
//! worth of work: it runs only where those landings bound something and the plain lists would
//! say nothing of a `V` that may have promoted, yet something of one that did not.)
//!
//! *Which pawns are missing.* Sharper: each game gives `V`'s pawns on the board and the pawns of
//! the promoted units `V` must have (one each, on the promotion squares its unit can have come
//! from, as in [`super::items`]) distinct start files, a set `A` whose walks around the walls
//! cost at least `c(A)` captures (the cheapest assignment onto exactly `A`). Every capture of
//! `V`'s pawns took a unit `S` misses, and `V`'s pieces made the captures the pens prove, so
//! `V`'s pawns made at most `budget` captures, and the other pawns, one per start file outside
//! `A`, at most `spare(A) = budget - c(A)` together. When no walk from a file outside `A` reaches
//! a promotion square within `spare(A)`, none of those pawns promoted, so exactly the counted
//! units were promoted and each of those pawns died as a pawn: one from file `g` on a square at
//! most `spare(A)` files from `g` and at least as many ranks up as files across, and it captured
//! at least `|f - g|` times to die on file `f`, so the distances to the captures that took them
//! sum to at most `spare(A)`. Otherwise they are units that may have died anywhere. Where the
//! lists above were matched by a search, or said nothing of a victim with a promoted unit on
//! the board, whose missing pawns they leave dead anywhere (elsewhere the sharper lists are not
//! tried: a gate that keeps the cost down), the rule runs once per set `A` within the budget (sets that give the
//! same lists once), and holds only if every set fails; at a leaf whose matching succeeds, it also asks that each such pawn's nearest
//! capture (of the leaf's captures that can have taken it) leave the sum within `spare(A)`. This
//! is where the two sides' pawns are counted together: the victim's pawn structure says which of
//! its pawns are gone and how far they can have strayed, the taker's says where its captures
//! landed.
//!
//! *Where each capture can have landed.* Fix the start file of every pawn of `S` on the board and
//! of one pawn per promoted unit `S` must have (any game fixes them; the rule tries every choice
//! within `S`'s capture budget). A pawn that went from file `g` to file `f`, `n` files away,
//! landed a capture on each file between, the last time it entered that file: entering the `k`-th
//! file needed `k` captures before (so at least `k` ranks up from its second rank) and `n - k`
//! after (so at least `n - k` ranks below where it ended, or below the last rank for a pawn that
//! promoted, on one of its promotion squares). Those are `n` distinct captures with known landing
//! squares; no static square is one (its unit is never taken). Every other capture of `S` (a piece's,
//! a pawn's detour, a pawn that is gone) landed where a piece of `S` can ever have stood (a flood
//! by king and knight steps from the squares its pieces start, stand or promote on, through
//! squares that are not static) or where a pawn of `S` can have landed ([`pawn_landings`]). An
//! en-passant capture lands behind its victim, a pawn that has just made a double step on its own
//! file, on a square of that pawn's region as well.
//!
//! If for every choice no perfect matching exists between the `b` missing units and the `b`
//! captures (a unit matches a capture whose landing squares meet its region), no game reaches the
//! position. By Hall's theorem a failure has a witness: some missing units whose possible captures
//! are fewer than they, which the reason names.
//!
//! The choices are enumerated like the accounting's (branch and bound within a node limit, else
//! the rule gives up); each is matched by augmenting paths over at most 16 units.
//!
//! *When.* With timing on, each crossing also knows the single steps of pawns of known history
//! it came before, and a unit can only be matched with such a capture where it can have stood
//! before those steps ([`timing`], with its proof). A choice whose crossings contradict the order
//! of a step is no game. The base search uses the pawns whose origin is known; if it matches, the
//! search is repeated in each branch of the victim's pawns on their third rank with several
//! origins ([`history::branches`]), and the rule holds only if every branch fails.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use super::door::{self, Displaced};
use super::items::{items, Item, Place};
use super::landings::{capture_landings, promotion_walks, KINDS};
use super::late::{self, promotes_within};
use super::timing::{self, Moves};
use crate::history;
use crate::known::Known;
use crate::pawns::{assignment_table_of, FILES_IN};
use crate::promotion::{landing_walks, walls_walks, walls_walks_around, Walks, NONE, NO_WALK};
use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, join_and, plural, squares_or, squares_text};
use crate::types::{Reason, ReasonCode};
use crate::{
    geometry::{flood, homes, promotion_squares, region_cut, Timed, TimedList},
    statics::{one_step_origins, pawn_landings},
};

/// The most assignment nodes visited per search; beyond it the rule gives up.
const NODE_LIMIT: u32 = 4096;

/// The most branches of the victim's pawn histories searched; beyond them the rule gives up.
const MAX_BRANCHES: usize = 8;

/// The most accounts of the victim's pawns matched one by one; beyond them the rule matches the
/// missing pawns against every start file at once.
const MAX_ACCOUNTS: usize = 16;

#[cfg(test)]
#[path = "matching_games.rs"]
mod games;

/// A missing unit of the victim and the squares where it can have died.
#[derive(Clone, Copy, Debug)]
struct Victim {
    /// What it is, for the message ("rook from h8", "pawn").
    role: Role,
    /// Its home squares (candidates when the original is not known), empty for a pawn or a unit
    /// of unknown kind.
    homes: Bitboard,
    /// The squares where it can have been captured.
    region: Bitboard,
    /// For a pawn of one account of the victim's pawns, the file it started on.
    file: Option<File>,
    /// For a pawn of one account that may have promoted only late ([`late`]), the file it
    /// started on and the squares of the other side's pawns whose moves came first.
    late: Option<(File, Bitboard)>,
}

/// The capture slots of one pawn of the taker from one start file: the landing squares of each
/// file crossing, in order.
#[derive(Clone, Copy, Debug, Default)]
struct Crossings {
    /// The captures of the pawn's cheapest walk from this file.
    cost: u32,
    /// How many crossings (`n`).
    len: usize,
    /// The landing squares of the `k`-th crossing.
    land: [Bitboard; 7],
    /// Where the pawn stands (`None` for a pawn that promoted).
    end: Option<Square>,
    /// The pawn moves of known history each crossing came before ([`timing`]).
    before: [Moves; 7],
}

/// Appends a [`ReasonCode::CaptureUnmatched`] reason for a side whose missing units cannot each be
/// given a capture of the other side; with `timing`, the captures are also ordered against the
/// single steps of pawns of known history ([`timing`]); with `accounts`, each account of the
/// victim's pawns on the board places its missing pawns.
pub(crate) fn unmatched_captures(
    known: &Known<'_>,
    timing: bool,
    accounts: bool,
    out: &mut Reasons,
) {
    for victim in Color::ALL {
        if let Some(witness) = side(known, victim, timing, accounts) {
            out.add_built(ReasonCode::CaptureUnmatched, || {
                reason(known, victim, &witness)
            });
            return;
        }
    }
}

/// The missing units of `victim` that no choice lets be matched (Hall's witness of the first
/// choice tried), with the squares their captures can have landed on; `None` if some choice
/// matches, or the rule gives up.
struct Witness {
    /// The units that cannot all be given captures.
    victims: Vec<Victim>,
    /// How many captures can take them.
    captures: usize,
    /// The landing squares of the pawns' file changes, in that choice.
    crossings: Bitboard,
    /// How many file changes there are.
    changes: usize,
    /// The pawn moves that some of those captures came before, and the landing squares of those
    /// captures.
    early: Vec<Timed>,
    /// The landing squares of the captures that came before a move of `early`.
    early_squares: Bitboard,
    /// The witness's originals pushed out of their pens ([`door`]), with the door and the move.
    pushed: Vec<(Displaced, Square, Timed)>,
    /// When every unit has a capture but the missing pawns' walks to theirs need more captures
    /// together than their account leaves: those captures, and the spare ones.
    strays: Option<(u32, u32)>,
}

/// How one search over the start files ended.
enum Outcome {
    /// Some choice matches every missing unit with a capture.
    Found,
    /// The node limit was reached.
    GaveUp,
    /// No choice matches; the witness of the first one tried, if any was tried.
    Failed(Option<Witness>),
}

/// What every search of one side shares: the victims, the captures outside the crossings, the
/// crossings before timing, and the counts.
struct Setup<'a> {
    known: &'a Known<'a>,
    victim: Color,
    victims: Vec<Victim>,
    /// The captures the victim's pawns that died as pawns (those of [`Victim::file`]) can have
    /// made together, in the account of the victim's pawns that placed them.
    pawn_spare: Option<u32>,
    free: Bitboard,
    plain: &'a [[Option<Crossings>; 8]],
    missing: usize,
    budget: u32,
}

/// What the searches of one victim share whatever its list of missing units: where the taker's
/// pieces and pawns can have captured, and its crossings with their order. Made once for
/// [`side`]'s several lists ([`Taker::of`]).
struct Taker {
    budget: u32,
    free: Bitboard,
    orders: Rc<Orders>,
}

/// The taker's crossings, the pawn moves of known history they are ordered against (none
/// without timing) and that order: they read only the taker's pawns to account for, the static
/// squares and the pawns of known history, so the analyser keeps them ([`OrdersMemo`]).
struct Orders {
    plain: Vec<[Option<Crossings>; 8]>,
    base: Vec<Timed>,
    table: Vec<[Option<Crossings>; 8]>,
}

impl Taker {
    /// The facts of `victim`'s taker, with the order against the pawns of known history when
    /// `timing`; `None` where the matching cannot run (too many captures by pieces, or too many
    /// pawns to account for).
    fn of(known: &Known<'_>, victim: Color, timing: bool) -> Option<Taker> {
        let taker = victim.other();
        let budget = known.missing(victim).checked_sub(known.by_pieces(taker))?;
        let free = piece_reach(known, taker)
            | pawn_landings(
                known.pos.board(),
                known.statics.fixed,
                &known.statics.timed,
                taker,
            );
        let list = items(known, taker)?;
        let orders = known.orders.get(known, taker, timing, list);
        Some(Taker {
            budget,
            free,
            orders,
        })
    }
}

impl Orders {
    /// The orders of `taker` whose pawns to account for are `list`, made afresh.
    fn new(known: &Known<'_>, taker: Color, timing: bool, list: &[Item]) -> Orders {
        let plain = crossings(known, taker, list);
        let base: Vec<Timed> = if timing {
            known.statics.timed.iter().collect()
        } else {
            Vec::new()
        };
        let table = timed_table(taker, &plain, &base);
        Orders { plain, base, table }
    }
}

/// What [`Orders`] read: the taker, the static squares, the pawns of known history, whether they
/// order the crossings, and the taker's pawns to account for.
struct OrdersKey {
    taker: Color,
    fixed: Bitboard,
    timed: TimedList,
    timing: bool,
    items: Vec<Item>,
}

/// The analyser's memo of [`Orders`] by what they read ([`OrdersKey`]): inside a search most
/// positions share their pawns with the position before. Owned by an `Analyzer`, lent to the
/// rules of one analysis; a slot holds the latest key that hashed to it.
#[derive(Default)]
pub(crate) struct OrdersMemo {
    slots: RefCell<Vec<OrdersSlot>>,
}

/// An [`OrdersMemo`] slot: the key and the orders.
type OrdersSlot = Option<(OrdersKey, Rc<Orders>)>;

/// Slots of the [`OrdersMemo`] (a power of two).
const ORDERS_SLOTS: usize = 1 << 8;

impl OrdersMemo {
    /// The orders of `taker` whose pawns to account for are `list`, from the memo when it has
    /// them.
    fn get(&self, known: &Known<'_>, taker: Color, timing: bool, list: &[Item]) -> Rc<Orders> {
        let (fixed, timed) = (known.statics.fixed, known.statics.timed);
        let hash = list
            .iter()
            .map(|item| match item.place {
                Place::Board(sq) => u64::from(sq),
                Place::Promoted { units, squares } => u64::from(units) ^ u64::from(squares),
            })
            .chain(
                timed
                    .iter()
                    .map(|t| u64::from(t.from) << 8 ^ u64::from(t.to)),
            )
            .fold(
                u64::from(fixed) ^ (taker as u64) << 1 ^ u64::from(timing),
                |h, w| (h ^ w).wrapping_mul(0x0100_0000_01b3),
            )
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let index = (hash >> 56) as usize % ORDERS_SLOTS;
        let Ok(mut slots) = self.slots.try_borrow_mut() else {
            return Rc::new(Orders::new(known, taker, timing, list));
        };
        if slots.is_empty() {
            slots.resize_with(ORDERS_SLOTS, || None);
        }
        if let Some(Some((k, orders))) = slots.get(index) {
            if k.taker == taker
                && k.fixed == fixed
                && k.timed == timed
                && k.timing == timing
                && k.items == list
            {
                return Rc::clone(orders);
            }
        }
        let orders = Rc::new(Orders::new(known, taker, timing, list));
        if let Some(slot) = slots.get_mut(index) {
            let key = OrdersKey {
                taker,
                fixed,
                timed,
                timing,
                items: list.to_vec(),
            };
            *slot = Some((key, Rc::clone(&orders)));
        }
        orders
    }
}

/// The crossings `plain` of `taker` with their order against the pawn moves `moves`
/// ([`timing::crossing_order`]): a start file whose crossings contradict that order is dropped.
fn timed_table(
    taker: Color,
    plain: &[[Option<Crossings>; 8]],
    moves: &[Timed],
) -> Vec<[Option<Crossings>; 8]> {
    plain
        .iter()
        .map(|row| {
            row.map(|c| {
                let mut c = c?;
                c.before = timing::crossing_order(taker, c.end, &c.land[..c.len], moves)?;
                Some(c)
            })
        })
        .collect()
}

impl Setup<'_> {
    /// The crossings with their order against the pawn moves `moves` ([`timing::crossing_order`]):
    /// a start file whose crossings contradict that order is dropped.
    fn timed_table(&self, moves: &[Timed]) -> Vec<[Option<Crossings>; 8]> {
        timed_table(self.victim.other(), self.plain, moves)
    }

    /// Runs the search over `table`, whose crossings are ordered against `moves`.
    fn search(&self, table: &[[Option<Crossings>; 8]], moves: &[Timed]) -> Outcome {
        let mut search = Search {
            setup: self,
            table,
            moves,
            early: Vec::new(),
            nodes: 0,
            slots: Vec::with_capacity(16),
            doors: Vec::new(),
            witness: None,
            found: false,
            gave_up: false,
        };
        search.visit(0, 0, 0);
        if search.found {
            Outcome::Found
        } else if search.gave_up {
            Outcome::GaveUp
        } else {
            Outcome::Failed(search.witness)
        }
    }
}

/// Whether `table` orders some crossing against a move of index `from` or more, or drops a start
/// file `than` keeps.
fn timed_beyond(
    table: &[[Option<Crossings>; 8]],
    than: &[[Option<Crossings>; 8]],
    from: usize,
) -> bool {
    let mask: Moves = !((1u32 << from) - 1) as Moves;
    table.iter().zip(than).any(|(row, than_row)| {
        row.iter().zip(than_row).any(|(c, p)| match (c, p) {
            (Some(c), _) => c.before.iter().any(|m| m & mask != 0),
            (None, p) => p.is_some(),
        })
    })
}

/// Runs the rule for `victim`'s missing units (see the module documentation): first with the
/// pawns of known history alone, then, if that matches and `timing` is on, in each branch of the
/// victim's pawns with several one-step origins whose moves order some crossing.
fn side(known: &Known<'_>, victim: Color, timing: bool, accounts: bool) -> Option<Witness> {
    let taker = victim.other();
    let missing = known.missing(victim);
    if missing == 0 || missing > 15 {
        return None;
    }
    // The captures left over in the cheapest account of the taker's pawns: if they are enough
    // for every missing unit that is not free to have died anywhere, the matching cannot fail
    // (short of regions no piece reaches, which the rule then leaves alone).
    let room = if super::test_switch::ungated() {
        0
    } else {
        (missing as usize)
            .saturating_sub(usize::from(known.captures.get(taker).by_pawns))
            .saturating_sub(known.promoted.get(taker).total as usize)
    };
    let mut lists = VictimLists {
        known,
        victim,
        missing,
        room,
        made: Vec::new(),
    };
    // Where the victim has a promoted unit, the plain lists leave its pawns free to have died
    // anywhere, which the accounts sharpen: they run even where the plain lists said nothing.
    let promoted = has_promoted(known, victim);
    let mut promotes = promoted || can_promote(known, victim);
    // The sharper look at the victim's promotions (where their captures landed, which start
    // files its pawns on the board leave free) runs only where the cheap lists give up on a
    // victim that may have promoted, the other side's missing units bound where its captures
    // landed, and the lists would not give up on a victim that promoted nothing.
    if promotes && !promoted && lists.plain(true).is_none() {
        let landing = capture_landings(known, victim);
        if landing != Bitboard::FULL
            && lists.plain(false).is_some()
            && !promotes_in_accounts(known, victim, landing)
        {
            promotes = false;
        }
    }
    // A victim whose promotions can only have come late ([`late`]): the accounts place them.
    // (Asked only where the answer matters: the walks it looks at are costly.)
    let late = || promotes && !promoted && accounts && only_late(known, victim);
    // The taker's facts, made by the first list that needs them and shared by the others.
    let shared = OnceCell::new();
    if let Some(plain) = lists.plain(promotes).cloned() {
        match side_with(known, victim, timing, plain, None, &shared) {
            Verdict::Proven(witness) => return Some(witness),
            Verdict::Open if !promoted && !late() => return None,
            Verdict::Open | Verdict::Matched => {}
        }
    } else if !promoted && !late() {
        return None;
    }
    // Only where the cheaper lists were matched by a search, or said nothing of a victim with a
    // promoted unit: every game follows one account of the victim's pawns, and the rule
    // holds if each account fails.
    if !accounts {
        return None;
    }
    let mut first = None;
    for (victims, spare) in pawn_accounts(&mut lists)? {
        match side_with(known, victim, timing, victims, spare, &shared) {
            Verdict::Proven(witness) => {
                first.get_or_insert(witness);
            }
            Verdict::Matched | Verdict::Open => return None,
        }
    }
    first
}

/// What [`side_with`] found.
enum Verdict {
    /// No game: the witness.
    Proven(Witness),
    /// A search matched every missing unit with a capture.
    Matched,
    /// Nothing searched to the end (a gate, a limit, or nothing that can fail).
    Open,
}

/// The lists of [`victims`] of one side, each made at most once, keyed by its `promotes` and
/// `dead`.
struct VictimLists<'a> {
    known: &'a Known<'a>,
    victim: Color,
    missing: u32,
    room: usize,
    made: Vec<Made>,
}

/// One list of [`VictimLists`]: the `promotes` and `dead` it was made with, and what [`victims`]
/// gave.
struct Made {
    promotes: bool,
    dead: usize,
    list: Option<Vec<Victim>>,
}

impl VictimLists<'_> {
    /// [`victims`] with `promotes` and `dead`.
    fn get(&mut self, promotes: bool, dead: usize) -> Option<&Vec<Victim>> {
        let at = match self
            .made
            .iter()
            .position(|m| m.promotes == promotes && m.dead == dead)
        {
            Some(at) => at,
            None => {
                let list = victims(
                    self.known,
                    self.victim,
                    self.missing,
                    self.room,
                    promotes,
                    dead,
                );
                self.made.push(Made {
                    promotes,
                    dead,
                    list,
                });
                self.made.len() - 1
            }
        };
        self.made[at].list.as_ref()
    }

    /// [`victims`] as the rule has always made them: with the missing pawns dead as pawns when
    /// `victim` cannot have promoted, else with them promoted or dead anywhere.
    fn plain(&mut self, promotes: bool) -> Option<&Vec<Victim>> {
        let dead = if promotes {
            0
        } else {
            8usize.saturating_sub(self.known.pos.board().by_piece(self.victim.pawn()).count())
        };
        self.get(promotes, dead)
    }
}

/// The missing units of `victim` once more, one list per set of start files the victim's pawns on
/// the board can leave free within its captures: each missing pawn then started on a file of
/// that set and died, as a pawn unless a walk from the set promotes within the captures the set
/// leaves spare, within those spare captures (see the module documentation); `None` where the
/// victim has promoted units, or the sets are too many or none, or a list says nothing more than
/// [`victims`] can (its gate).
fn pawn_accounts(lists: &mut VictimLists<'_>) -> Option<Vec<(Vec<Victim>, Option<u32>)>> {
    let (known, victim) = (lists.known, lists.victim);
    let list = items(known, victim)?;
    let dead = 8usize.checked_sub(list.len())?;
    if dead == 0 {
        return None;
    }
    let promoted = list.len() > known.pos.board().by_piece(victim.pawn()).count();
    // The cheap gate first: without it no list can fail (a list with promotions is gated harder).
    let as_pawns = lists.get(promoted, dead)?.clone();
    let pieces = as_pawns.len().checked_sub(dead)?;
    let budget = known
        .missing(victim.other())
        .checked_sub(known.by_pieces(victim))?;
    let cost = |k: usize, g: i32| {
        let base = list.get(k)?.costs.get(usize::try_from(g).ok()?)?.base;
        (base != NONE).then(|| base.min(30) as u8)
    };
    let table = assignment_table_of(list.len(), cost)?;
    // No pawn of the victim moved on from a square where it checks a king that never moved
    // (asked only where a promotion can be late, for speed: fewer walls only allow more);
    // without such walls, its captures land only where the other side's missing units stood.
    let walls = if late::possible(known, victim) {
        late::check_walls(known, victim)
    } else {
        Bitboard::EMPTY
    };
    let walks = if walls.is_empty() {
        promotion_walks(known, victim)
    } else {
        walls_walks_around(victim, known.statics, walls, known.walks)
    };
    let mut out: Vec<(Vec<Victim>, Option<u32>)> = Vec::new();
    for (used, &c) in table.iter().enumerate() {
        let c = u32::from(c);
        if usize::from(FILES_IN[used]) != list.len() || c > budget {
            continue;
        }
        let spare = budget - c;
        let free = File::ALL
            .into_iter()
            .filter(|&g| used & 1 << g as usize == 0);
        let mut list = as_pawns.clone();
        let mut placed = true;
        for (v, g) in list[pieces..].iter_mut().zip(free) {
            v.region = pawn_region_from(known, victim, g, spare);
            v.file = Some(g);
            if !promotes_within(victim, &walks[g as usize], spare) {
                continue;
            }
            // It may have promoted: only late, after a move of the taker's pawns, or anywhere.
            match late::late(known, victim, g, spare, walls, &walks, v.region) {
                Some(l) if !promoted => {
                    v.region = l.region;
                    v.file = None;
                    v.late = Some((g, l.after));
                }
                _ => {
                    placed = false;
                    break;
                }
            }
        }
        let entry = if placed {
            super::test_switch::count_pawn_account();
            (list, Some(spare))
        } else {
            (lists.plain(true)?.clone(), None)
        };
        let same = |other: &(Vec<Victim>, Option<u32>)| {
            other.1 == entry.1
                && other.0.len() == entry.0.len()
                && other.0.iter().zip(&entry.0).all(|(a, b)| {
                    a.role == b.role && a.region == b.region && a.file == b.file && a.late == b.late
                })
        };
        if !out.iter().any(same) {
            out.push(entry);
        }
        if out.len() > MAX_ACCOUNTS {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// For each set of start files (a bit per file) of `victim`'s pawns on the board, the fewest
/// captures of their walks around the walls onto exactly that set; and the most captures the
/// victim's pawns can have made (the units the other side misses, less the captures the pens
/// prove of the victim's pieces). `None` when a pawn has no cost list or all eight are on the
/// board (no pawn is missing). The game checks of `matching_games.rs` use it to test the costs
/// [`pawn_accounts`] enumerates (for pawns on the board only) against the games played, and
/// [`promotes_in_accounts`] looks for a start file such a set leaves free.
fn pawn_sets(known: &Known<'_>, victim: Color) -> Option<([u8; 256], u32)> {
    let budget = known
        .missing(victim.other())
        .checked_sub(known.by_pieces(victim))?;
    let list = items(known, victim)?;
    let pawns = known.pos.board().by_piece(victim.pawn());
    if list.len() != pawns.count() || pawns.count() == 8 {
        return None;
    }
    let cost = |k: usize, g: i32| {
        let base = list.get(k)?.costs.get(usize::try_from(g).ok()?)?.base;
        (base != NONE).then(|| base.min(30) as u8)
    };
    Some((assignment_table_of(list.len(), cost)?, budget))
}

/// [`side`] with the missing units `victims`.
fn side_with(
    known: &Known<'_>,
    victim: Color,
    timing: bool,
    victims: Vec<Victim>,
    pawn_spare: Option<u32>,
    shared: &OnceCell<Option<Taker>>,
) -> Verdict {
    let taker = victim.other();
    let missing = known.missing(victim);
    let all = !known.statics.fixed;
    let everywhere = victims.iter().all(|v| all.is_subset(v.region));
    let timing =
        timing && (known.promoted.get(taker).total > 0 || may_order(known.pos.board(), taker));
    if everywhere && !timing {
        return Verdict::Open;
    }
    let Some(facts) = shared
        .get_or_init(|| Taker::of(known, victim, timing))
        .as_ref()
    else {
        return Verdict::Open;
    };
    let setup = Setup {
        known,
        victim,
        victims,
        pawn_spare,
        free: facts.free,
        plain: &facts.orders.plain,
        missing: missing as usize,
        budget: facts.budget,
    };
    let (base, table) = (&facts.orders.base, &facts.orders.table);
    // With every victim free to die anywhere and no crossing ordered, the matching succeeds.
    let mut matched = Verdict::Open;
    if !everywhere || timed_beyond(table, setup.plain, 0) {
        match setup.search(table, base) {
            Outcome::Found => matched = Verdict::Matched,
            Outcome::GaveUp | Outcome::Failed(None) => return Verdict::Open,
            Outcome::Failed(Some(witness)) => return Verdict::Proven(witness),
        }
    }
    if !timing || !may_branch(known, victim, setup.plain) {
        return matched;
    }
    // Each game follows one branch: the rule holds if every branch fails.
    let mut witness = None;
    let branches = history::branches(known, victim);
    // A branch with no pawn beyond those known is the search above.
    if branches.iter().any(|moves| moves.len() == base.len()) {
        return matched;
    }
    for (run, moves) in branches.iter().enumerate() {
        if run == MAX_BRANCHES {
            return matched;
        }
        let table_b = setup.timed_table(moves);
        if !timed_beyond(&table_b, table, base.len()) {
            // Ordered as without the branch's pawns, which matched (or could not fail).
            return matched;
        }
        match setup.search(&table_b, moves) {
            Outcome::Found => return Verdict::Matched,
            Outcome::GaveUp => return Verdict::Open,
            Outcome::Failed(w) => {
                if witness.is_none() {
                    witness = w;
                }
            }
        }
    }
    witness.map_or(Verdict::Open, Verdict::Proven)
}

/// Whether a branch of `victim`'s pawns on their third rank can order a crossing of `plain` that
/// the pawns of known history do not: some crossing lands only on the square of such a pawn or
/// on one of the squares it can have come from, or some pawn of the taker ends on its file.
fn may_branch(known: &Known<'_>, victim: Color, plain: &[[Option<Crossings>; 8]]) -> bool {
    let mut singles = Bitboard::EMPTY;
    let mut ends = Bitboard::EMPTY;
    for c in plain.iter().flatten().flatten() {
        for l in &c.land[..c.len] {
            if let Some(s) = l.single_square() {
                singles.add(s);
            }
        }
        if let Some(e) = c.end {
            ends |= Bitboard::from_file(e.file());
        }
    }
    let board = known.pos.board();
    let thirds =
        board.by_piece(victim.pawn()) & Bitboard::from_rank(victim.relative_rank(Rank::Third));
    thirds.into_iter().any(|to| {
        let origins =
            one_step_origins(board, known.statics.fixed, to).map_or(Bitboard::EMPTY, |o| o.1);
        origins.more_than_one() && (ends.contains(to) || (singles & origins.with(to)).any())
    })
}

/// Whether some crossing of `taker`'s pawns on the board can be ordered against a single step
/// ([`timing::crossing_order`]): a pawn that stood on the square a pawn on its third rank stepped
/// onto went on past it, so some pawn of `taker` stands further up the board than that square
/// (or promoted, which the caller asks apart).
fn may_order(board: &shakmaty::Board, taker: Color) -> bool {
    let thirds = (board.by_piece(Color::White.pawn()) & Bitboard::from_rank(Rank::Third))
        | (board.by_piece(Color::Black.pawn()) & Bitboard::from_rank(Rank::Sixth));
    let up = |sq: Square| taker.relative_rank(sq.rank());
    let Some(lowest) = thirds.into_iter().map(up).min() else {
        return false;
    };
    board
        .by_piece(taker.pawn())
        .into_iter()
        .any(|q| up(q) > lowest)
}

/// The missing units of `victim` with their regions, `missing` in all, the last `dead` of them
/// pawns that died as pawns: without `promotes`, all its missing pawns (`victim` promoted
/// nothing); with it, others may be promoted units, or dead anywhere. `None` if the counts
/// contradict (other rules say so), or if at most `room` of them can have a region smaller than
/// the board (the gate of [`side`]).
fn victims(
    known: &Known<'_>,
    victim: Color,
    missing: u32,
    room: usize,
    promotes: bool,
    dead: usize,
) -> Option<Vec<Victim>> {
    let board = known.pos.board();
    let statics = known.statics;
    let open = !statics.fixed;
    let mut out = Vec::with_capacity(missing as usize);
    // The kinds with originals gone: the homes not known to hold theirs, the units that can be
    // originals, and how many originals are gone at least.
    let mut gone_kinds = Vec::with_capacity(KINDS.len());
    let mut bounded = dead;
    for (role, colour) in KINDS {
        let units = board.by_piece(role.of(victim)) & colour;
        let home = homes(victim, role) & colour & !statics.never_moved;
        let candidates = units & !statics.promoted & !statics.never_moved;
        if !promotes && units.count() > (homes(victim, role) & colour).count() {
            return None;
        }
        let gone = home.count().saturating_sub(candidates.count());
        if gone > 0 {
            bounded += home.count();
            gone_kinds.push((role, home, candidates, gone));
        }
    }
    if bounded <= room {
        return None;
    }
    for (role, home, candidates, gone) in gone_kinds {
        let region = |h: Square| region_cut(role, h, open, Bitboard::EMPTY, 64, &statics.timed);
        // A home whose region holds no unit of the kind that can be an original lost its original.
        let mut others = Bitboard::EMPTY;
        let mut union = Bitboard::EMPTY;
        let mut sure = 0;
        for h in home {
            let r = region(h);
            if (r & candidates).is_empty() {
                sure += 1;
                out.push(Victim {
                    role,
                    homes: Bitboard::from_square(h),
                    region: r,
                    file: None,
                    late: None,
                });
            } else {
                others.add(h);
                union |= r;
            }
        }
        out.extend((sure..gone).map(|_| Victim {
            role,
            homes: others,
            region: union,
            file: None,
            late: None,
        }));
    }
    let rest = (missing as usize).checked_sub(out.len())?;
    let pawn = |region| Victim {
        role: Role::Pawn,
        homes: Bitboard::EMPTY,
        region,
        file: None,
        late: None,
    };
    if promotes {
        out.extend((dead..rest).map(|_| Victim {
            role: Role::King,
            homes: Bitboard::EMPTY,
            region: Bitboard::FULL,
            file: None,
            late: None,
        }));
        out.extend((0..dead.min(rest)).map(|_| pawn(Bitboard::FULL)));
        if dead > rest {
            return None;
        }
    } else {
        let pawns = 8usize.checked_sub(board.by_piece(victim.pawn()).count())?;
        if pawns != rest || dead != rest {
            return None;
        }
        // When the pawns on the board certainly took all start files but as many as are
        // missing, each missing pawn is the one of its own file (and is named so).
        let taken = on_board_files(known, victim);
        let free: Vec<File> = File::ALL
            .into_iter()
            .filter(|&g| taken & (1 << g as u8) == 0)
            .collect();
        if free.len() == rest {
            let spare = spare(known, victim).unwrap_or(8);
            out.extend(free.into_iter().map(|g| Victim {
                file: Some(g),
                ..pawn(pawn_region_from(known, victim, g, spare))
            }));
        } else {
            let region = pawn_region(known, victim);
            out.extend((0..rest).map(|_| pawn(region)));
        }
    }
    Some(out)
}

/// The captures `color`'s pawns can make beyond those its pawns on the board need: the units the
/// other side misses, less the captures of `color`'s pieces the pens prove, less the fewest
/// captures of its pawns; `None` if those already overspend.
fn spare(known: &Known<'_>, color: Color) -> Option<u32> {
    known
        .missing(color.other())
        .checked_sub(known.by_pieces(color))?
        .checked_sub(u32::from(known.captures.get(color).by_pawns))
}

/// Whether `color` has a unit on the board known to be promoted (by count or where it stands).
fn has_promoted(known: &Known<'_>, color: Color) -> bool {
    known.promoted.get(color).total > 0
        || (known.statics.promoted & known.pos.board().by_color(color)).any()
}

/// Whether every pawn of `color` that can have promoted (see [`can_promote`], with the walls of
/// [`late::check_walls`]) can only have done so late ([`late::late`]).
fn only_late(known: &Known<'_>, color: Color) -> bool {
    if !late::possible(known, color) {
        return false;
    }
    let Some(spare) = spare(known, color) else {
        return false;
    };
    let walls = late::check_walls(known, color);
    let walks = walls_walks_around(color, known.statics, walls, known.walks);
    let second = color.relative_rank(Rank::Second);
    File::ALL.into_iter().all(|g| {
        known
            .statics
            .never_moved
            .contains(Square::from_coords(g, second))
            || !promotes_within(color, &walks[g as usize], spare)
            || late::late(known, color, g, spare, walls, &walks, Bitboard::EMPTY).is_some()
    })
}

/// Whether `color` can have promoted a pawn at some moment (see the module documentation), as
/// cheaply as the walks around the walls tell.
fn can_promote(known: &Known<'_>, color: Color) -> bool {
    if has_promoted(known, color) {
        return true;
    }
    let Some(spare) = spare(known, color) else {
        return true;
    };
    promotes_from_free_file(
        known,
        color,
        &walls_walks(color, known.statics, known.walks),
        spare,
    )
}

/// Whether a pawn of `color` not on the board (its start square holds no pawn that never moved)
/// can reach a promotion square by `walks` with at most `spare` captures.
fn promotes_from_free_file(known: &Known<'_>, color: Color, walks: &Walks, spare: u32) -> bool {
    let second = color.relative_rank(Rank::Second);
    walks.iter().zip(File::ALL).any(|(from, g)| {
        !known
            .statics
            .never_moved
            .contains(Square::from_coords(g, second))
            && promotes_within(color, from, spare)
    })
}

/// Whether `color`, with no promoted unit on the board, can have promoted a pawn, sharper than
/// [`can_promote`]: its captures landed on `landing`, where the other side's missing units stood
/// ([`capture_landings`]), and the pawns on the board took the start files of some set within the
/// budget, the pawn that promoted a file outside it, with the captures the set leaves.
fn promotes_in_accounts(known: &Known<'_>, color: Color, landing: Bitboard) -> bool {
    let Some(spare) = spare(known, color) else {
        return true;
    };
    let walks = landing_walks(color, known.statics, landing, known.walks);
    if !promotes_from_free_file(known, color, &walks, spare) {
        return false;
    }
    let Some((table, budget)) = pawn_sets(known, color) else {
        return true;
    };
    let pawns = known.pos.board().by_piece(color.pawn()).count() as u32;
    table.iter().enumerate().any(|(used, &c)| {
        let c = u32::from(c);
        u32::from(FILES_IN[used]) == pawns
            && c <= budget
            && File::ALL.into_iter().any(|g| {
                used & 1 << g as usize == 0
                    && promotes_within(color, &walks[g as usize], budget - c)
            })
    })
}

/// The squares where a pawn of `color` that never promoted can have stood: ranks 2 to 7, a file
/// at most `spare` away from a start file whose pawn is not on the board ([`on_board_files`]), at
/// least as many ranks up as files across; never a static square.
fn pawn_region(known: &Known<'_>, color: Color) -> Bitboard {
    let spare = spare(known, color).unwrap_or(8);
    let taken = on_board_files(known, color);
    File::ALL
        .into_iter()
        .filter(|&g| taken & (1 << g as u8) == 0)
        .fold(Bitboard::EMPTY, |out, g| {
            out | pawn_region_from(known, color, g, spare)
        })
}

/// The squares where a pawn of `color` from file `g` that never promoted and made at most `spare`
/// captures can have stood: ranks 2 to 7, at most `spare` files from `g`, at least as many ranks up
/// as files across; never a static square.
fn pawn_region_from(known: &Known<'_>, color: Color, g: File, spare: u32) -> Bitboard {
    let spare = spare.min(8) as i32;
    let mut out = Bitboard::EMPTY;
    for f in File::ALL {
        let across = (f as i32 - g as i32).abs();
        if across > spare {
            continue;
        }
        for up in across..6 {
            let rank = color.relative_rank(Rank::new(1 + up as u32));
            out.add(Square::from_coords(f, rank));
        }
    }
    out & !known.statics.fixed
}

/// The start files (a bit per file) whose pawn is certainly one of `color`'s pawns on the board,
/// so that no missing pawn started there. Each pawn on the board started on its own file: a file
/// whose start square holds a pawn that never moved is that pawn's; a pawn elsewhere started at
/// most as many files away as it advanced ranks and as the other side misses units (a file change
/// is a capture), on a file no other pawn certainly took. A pawn left with one such file took it,
/// and the files taken so grow until nothing changes. Sound whatever the other pawns did, since
/// the start files of the pawns on the board are distinct.
fn on_board_files(known: &Known<'_>, color: Color) -> u8 {
    let board = known.pos.board();
    let second = color.relative_rank(Rank::Second);
    let captures = known.missing(color.other()) as i32;
    let pawns = board.by_piece(color.pawn());
    let mut taken: u8 = 0;
    let mut placed = Bitboard::EMPTY;
    for sq in pawns & known.statics.never_moved & Bitboard::from_rank(second) {
        taken |= 1 << sq.file() as u8;
        placed.add(sq);
    }
    loop {
        let before = taken;
        for sq in pawns & !placed {
            let reach = crate::pawns::advance(color, sq).min(captures);
            let mut only = None;
            let mut count = 0;
            for g in File::ALL {
                let across = (g as i32 - sq.file() as i32).abs();
                if across <= reach && taken & (1 << g as u8) == 0 {
                    only = Some(g);
                    count += 1;
                }
            }
            if let (1, Some(g)) = (count, only) {
                taken |= 1 << g as u8;
                placed.add(sq);
            }
        }
        if taken == before {
            return taken;
        }
    }
}

/// The squares a piece of `color` can ever have stood on: flooded by king and knight steps from
/// the squares its pieces start, stand and promote on, through squares that are not static.
fn piece_reach(known: &Known<'_>, color: Color) -> Bitboard {
    let board = known.pos.board();
    let open = !known.statics.fixed;
    let starts = Bitboard::from_rank(color.backrank());
    let mut seen = (starts
        | (board.by_color(color) & !board.pawns())
        | promotion_squares(color, known.statics.fixed))
        & open;
    loop {
        let next = flood(Role::King, seen, open) | flood(Role::Knight, seen, open);
        if next == seen {
            return seen;
        }
        seen = next;
    }
}

/// For each pawn `taker` must account for (on the board, or one per promoted unit it must have),
/// `list`, its crossings from each start file (`None` where it cannot have started).
fn crossings(known: &Known<'_>, taker: Color, list: &[Item]) -> Vec<[Option<Crossings>; 8]> {
    let walks = walls_walks(taker, known.statics, known.walks);
    let fixed = known.statics.fixed;
    list.iter()
        .map(|item| {
            std::array::from_fn(|g| {
                let cost = item.costs[g].base;
                if cost == NONE {
                    return None;
                }
                let mut c = Crossings {
                    cost,
                    ..Crossings::default()
                };
                match item.place {
                    Place::Board(sq) => {
                        c.end = Some(sq);
                        c.len = (sq.file() as usize).abs_diff(g);
                        add_crossings(taker, g, sq, c.len, &mut c.land);
                    }
                    Place::Promoted { squares, .. } => {
                        let ends: Vec<Square> = squares
                            .into_iter()
                            .filter(|&q| walks[g][usize::from(q)] != NO_WALK)
                            .collect();
                        c.len = ends
                            .iter()
                            .map(|q| (q.file() as usize).abs_diff(g))
                            .min()
                            .unwrap_or(0);
                        for &q in &ends {
                            let n = (q.file() as usize).abs_diff(g);
                            let mut land = [Bitboard::EMPTY; 7];
                            add_crossings(taker, g, q, n, &mut land);
                            for (slot, l) in c.land.iter_mut().zip(land).take(c.len) {
                                *slot |= l;
                            }
                        }
                    }
                }
                for l in &mut c.land {
                    *l &= !fixed;
                }
                Some(c)
            })
        })
        .collect()
}

/// The square of a pawn whose last crossing landed only where it stands, with the moves that
/// crossing came before, if any ([`door`]).
fn door_of(c: &Crossings) -> Option<(Square, Moves)> {
    let end = c.end?;
    let last = c.len.checked_sub(1)?;
    let before = c.before[last];
    (before != 0 && c.land[last] == Bitboard::from_square(end)).then_some((end, before))
}

/// Adds to `land[k - 1]` the squares where a pawn of `color` from file `g` that ended on `end`
/// (`n` files away) can have entered the `k`-th file between for the last time.
pub(crate) fn add_crossings(
    color: Color,
    g: usize,
    end: Square,
    n: usize,
    land: &mut [Bitboard; 7],
) {
    let top = color.relative_rank(end.rank()) as usize;
    let right = end.file() as usize > g;
    for k in 1..=n.min(7) {
        let file = if right { g + k } else { g - k };
        let (lo, hi) = (1 + k, top.saturating_sub(n - k));
        for r in lo..=hi.min(7) {
            let rank = color.relative_rank(Rank::new(r as u32));
            land[k - 1].add(Square::from_coords(File::new(file as u32), rank));
        }
    }
}

/// The enumeration of start files and the matching at each leaf.
struct Search<'a> {
    setup: &'a Setup<'a>,
    table: &'a [[Option<Crossings>; 8]],
    /// The pawn moves of known history the crossings are ordered against.
    moves: &'a [Timed],
    /// The regions of the victims before a move: its index, the squares captures can land on
    /// that the walls depend on, and one region per victim.
    early: Vec<(usize, Bitboard, Vec<Bitboard>)>,
    nodes: u32,
    /// The landing squares of the crossings chosen so far, with the moves each came before.
    slots: Vec<(Bitboard, Moves)>,
    /// The squares of the chosen pawns whose last crossing landed only there, before the moves
    /// given ([`door`]).
    doors: Vec<(Square, Moves)>,
    witness: Option<Witness>,
    found: bool,
    gave_up: bool,
}

impl Search<'_> {
    /// Chooses start files for the pawns from `k` on, not in `used`, at `cost` captures so far.
    fn visit(&mut self, k: usize, used: u8, cost: u32) {
        if self.found || self.gave_up {
            return;
        }
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.gave_up = true;
            return;
        }
        let table = self.table;
        let Some(row) = table.get(k) else {
            self.leaf();
            return;
        };
        for (g, c) in row.iter().enumerate() {
            let Some(c) = c else { continue };
            if used & 1 << g != 0 || cost + c.cost > self.setup.budget {
                continue;
            }
            if c.end.is_none() && c.before.iter().any(|&m| m != 0) {
                super::test_switch::count_promoted_timed();
            }
            let (len, doors) = (self.slots.len(), self.doors.len());
            self.slots
                .extend(c.land[..c.len].iter().copied().zip(c.before));
            if let Some(door) = door_of(c) {
                self.doors.push(door);
            }
            self.visit(k + 1, used | 1 << g, cost + c.cost);
            self.slots.truncate(len);
            self.doors.truncate(doors);
        }
    }

    /// The regions of the victims before the move of index `i`, when captures can land on
    /// `capturable` (computed once per pair).
    fn early(&mut self, i: usize, capturable: Bitboard) -> usize {
        let setup = self.setup;
        let key = capturable & Bitboard::from_rank(setup.victim.backrank());
        if let Some(at) = self.early.iter().position(|(j, k, _)| *j == i && *k == key) {
            return at;
        }
        let statics = setup.known.statics;
        let walls = timing::walls_before(setup.victim, statics.fixed, self.moves[i], key);
        let regions = setup
            .victims
            .iter()
            .map(|v| match v.role {
                // A pawn or a unit of unknown kind keeps its region.
                Role::Pawn | Role::King => v.region,
                _ => v.region & timing::region_before(setup.victim, v.homes, walls, &statics.timed),
            })
            .collect();
        self.early.push((i, key, regions));
        self.early.len() - 1
    }

    /// The originals of the victim that the units behind the doors of the chosen pawns pushed out
    /// before a move ([`door`]), each with the index of the victim it is (the one of its kind
    /// whose homes are fewest among those that hold its home), the door and the move; when
    /// captures can land on `capturable`.
    fn displaced(&self, capturable: Bitboard) -> Vec<(usize, Displaced, Square, Timed)> {
        let setup = self.setup;
        let statics = setup.known.statics;
        let board = setup.known.pos.board();
        let key = capturable & Bitboard::from_rank(setup.victim.backrank());
        let mut homes: Vec<Bitboard> = setup.victims.iter().map(|v| v.homes).collect();
        let mut out: Vec<(usize, Displaced, Square, Timed)> = Vec::new();
        for &(e, bits) in &self.doors {
            let early = door::early(board, statics.fixed, e);
            for i in (0..16).filter(|i| bits & 1 << i != 0) {
                let Some(&t) = self.moves.get(i) else {
                    continue;
                };
                let walls = timing::walls_before(setup.victim, statics.fixed, t, key);
                let found = door::displaced(
                    board,
                    statics.fixed,
                    early,
                    setup.victim,
                    walls,
                    &statics.timed,
                );
                for d in found {
                    if out.iter().any(|p| p.1.home == d.home) {
                        continue;
                    }
                    let j = (0..homes.len())
                        .filter(|&j| setup.victims[j].role == d.role && homes[j].contains(d.home))
                        .min_by_key(|&j| homes[j].count());
                    if let Some(j) = j {
                        homes[j] = Bitboard::from_square(d.home);
                        out.push((j, d, e, t));
                    }
                }
            }
        }
        out
    }

    /// When the missing pawns placed by an account of the victim's pawns need more captures
    /// together than the account leaves, to reach the nearest capture each can have died by (a
    /// pawn from file `g` that died on file `f` captured at least `|f - g|` times): those captures
    /// and the spare ones. `slots` are the captures of the leaf, `per_slot` the regions before
    /// the moves some of them preceded.
    fn strays(
        &self,
        slots: &[(Bitboard, Moves)],
        per_slot: &[Option<Vec<Bitboard>>],
    ) -> Option<(u32, u32)> {
        let setup = self.setup;
        let spare = setup.pawn_spare?;
        let mut need = 0u32;
        for (i, v) in setup.victims.iter().enumerate() {
            let Some(g) = v.file else { continue };
            let nearest = slots
                .iter()
                .zip(per_slot)
                .filter_map(|(s, r)| {
                    let region = r.as_ref().map_or(v.region, |r| r[i]);
                    (s.0 & region)
                        .into_iter()
                        .map(|q| q.file().distance(g))
                        .min()
                })
                .min()?;
            need += nearest;
        }
        if need > 0 {
            super::test_switch::count_strays();
        }
        (need > spare).then_some((need, spare))
    }

    /// Matches the victims with the chosen crossings and the other captures.
    fn leaf(&mut self) {
        let setup = self.setup;
        if self.slots.len() > setup.missing {
            return;
        }
        super::test_switch::count_matching();
        let mut slots = self.slots.clone();
        slots.resize(setup.missing, (setup.free, 0));
        let timed = slots.iter().fold(0, |m, s| m | s.1);
        // The regions each slot's victim must lie in: its own, or before the moves it preceded.
        let mut regions: Vec<Bitboard> = setup.victims.iter().map(|v| v.region).collect();
        let mut per_slot: Vec<Option<Vec<Bitboard>>> = vec![None; slots.len()];
        let capturable = slots.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.0);
        if timed != 0 {
            super::test_switch::count_timed();
            for (slot, out) in slots.iter().zip(per_slot.iter_mut()) {
                if slot.1 == 0 {
                    continue;
                }
                let mut r = regions.clone();
                for i in (0..16).filter(|i| slot.1 & 1 << i != 0) {
                    let at = self.early(i, capturable);
                    for (x, e) in r.iter_mut().zip(&self.early[at].2) {
                        *x &= *e;
                    }
                }
                *out = Some(r);
            }
        }
        // The originals the units behind a door pushed out died in their pens before a move.
        let pushed = if self.doors.is_empty() {
            Vec::new()
        } else {
            self.displaced(capturable)
        };
        for (j, d, ..) in &pushed {
            regions[*j] &= d.region;
            for r in per_slot.iter_mut().flatten() {
                r[*j] &= d.region;
            }
        }
        let adjacency: Vec<u32> = (0..setup.victims.len())
            .map(|v| {
                slots
                    .iter()
                    .zip(&per_slot)
                    .enumerate()
                    .filter(|(_, (s, r))| {
                        let region = r.as_ref().map_or(regions[v], |r| r[v]);
                        (region & s.0).any()
                    })
                    .fold(0u32, |m, (i, _)| m | 1 << i)
            })
            .collect();
        match hall_witness(&adjacency, slots.len()) {
            None => match self.strays(&slots, &per_slot) {
                None => self.found = true,
                Some(strays) => {
                    if self.witness.is_none() {
                        let victims: Vec<Victim> = setup
                            .victims
                            .iter()
                            .filter(|v| v.file.is_some())
                            .copied()
                            .collect();
                        self.witness = Some(Witness {
                            victims,
                            captures: slots.len(),
                            crossings: self.slots.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.0),
                            changes: self.slots.len(),
                            early: Vec::new(),
                            early_squares: Bitboard::EMPTY,
                            pushed: Vec::new(),
                            strays: Some(strays),
                        });
                    }
                }
            },
            Some((units, captures)) => {
                if self.witness.is_none() {
                    let in_witness = |j: usize| units & 1 << j != 0;
                    let victims: Vec<Victim> = (0..setup.victims.len())
                        .filter(|&i| in_witness(i))
                        .map(|i| match pushed.iter().find(|p| p.0 == i) {
                            Some((_, d, ..)) => Victim {
                                role: d.role,
                                homes: Bitboard::from_square(d.home),
                                region: d.region,
                                file: None,
                                late: None,
                            },
                            None => setup.victims[i],
                        })
                        .collect();
                    // The captures the witness's units could reach but for the moves they preceded.
                    let cut: Vec<usize> = (0..slots.len())
                        .filter(|&s| captures & 1 << s == 0 && slots[s].1 != 0)
                        .filter(|&s| {
                            let plain = (0..setup.victims.len())
                                .filter(|i| units & 1 << i != 0)
                                .fold(Bitboard::EMPTY, |acc, i| acc | setup.victims[i].region);
                            (plain & slots[s].0).any()
                        })
                        .collect();
                    let early: Moves = cut.iter().fold(0, |m, &s| m | slots[s].1);
                    self.witness = Some(Witness {
                        victims,
                        captures: captures.count_ones() as usize,
                        crossings: self.slots.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.0),
                        changes: self.slots.len(),
                        early: (0..16)
                            .filter(|i| early & 1 << i != 0)
                            .filter_map(|i| self.moves.get(i).copied())
                            .collect(),
                        early_squares: cut.iter().fold(Bitboard::EMPTY, |acc, &s| acc | slots[s].0),
                        pushed: pushed
                            .iter()
                            .filter(|p| in_witness(p.0))
                            .map(|&(_, d, e, t)| (d, e, t))
                            .collect(),
                        strays: None,
                    });
                }
            }
        }
    }
}

/// A maximum matching of the units (rows of `adjacency`, a mask of slots each) into `slots` slots
/// by augmenting paths; `None` if every unit is matched, else Hall's witness: the units reachable
/// by alternating paths from an unmatched one (a mask) and their slots (a mask), fewer than they.
fn hall_witness(adjacency: &[u32], slots: usize) -> Option<(u32, u32)> {
    let mut owner: Vec<Option<usize>> = vec![None; slots];
    for u in 0..adjacency.len() {
        let mut seen = 0u32;
        if !augment(u, adjacency, &mut owner, &mut seen) {
            // The units and slots this failed search reached form the witness.
            let units = owner
                .iter()
                .enumerate()
                .filter(|(s, _)| seen & 1 << s != 0)
                .filter_map(|(_, o)| *o)
                .fold(1u32 << u, |m, o| m | 1 << o);
            return Some((units, seen));
        }
    }
    None
}

/// Tries to match unit `u`, moving earlier units along an augmenting path; `seen` collects the
/// slots visited.
fn augment(u: usize, adjacency: &[u32], owner: &mut [Option<usize>], seen: &mut u32) -> bool {
    for s in 0..owner.len() {
        if adjacency[u] & 1 << s == 0 || *seen & 1 << s != 0 {
            continue;
        }
        *seen |= 1 << s;
        let free = match owner[s] {
            None => true,
            Some(o) => augment(o, adjacency, owner, seen),
        };
        if free {
            owner[s] = Some(u);
            return true;
        }
    }
    false
}

/// The unit `v` in words.
fn victim_words(color: Color, v: &Victim) -> String {
    let adj = color_adj(color);
    match v.role {
        Role::Pawn => match v.file {
            Some(f) => format!(
                "the {adj} pawn from the {}-file ({}'s pawns on the board leave that start file \
                 free, and it cannot have promoted{})",
                f.char(),
                color_name(color),
                if v.region.into_iter().all(|s| s.file() == f) {
                    " nor left it"
                } else {
                    ""
                }
            ),
            None => match v.late {
                Some((f, after)) => format!(
                    "the {adj} pawn from the {}-file or the unit it promoted to (it can only \
                     have promoted after the {} pawn{} now on {} moved, and never stood there)",
                    f.char(),
                    color_adj(color.other()),
                    if after.more_than_one() { "s" } else { "" },
                    squares_text(after)
                ),
                None => format!("a {adj} pawn"),
            },
        },
        Role::King => format!("a {adj} unit"),
        role => {
            let name = retrace_unmove::role_name(role);
            if v.homes.more_than_one() {
                format!("a {adj} {name} (from {})", squares_or(v.homes))
            } else {
                format!("the {adj} {name} from {}", squares_text(v.homes))
            }
        }
    }
}

/// The single step `t` in words (`d7-d6`, `c7xd6`).
fn move_words(t: &Timed) -> String {
    let sep = if t.from.file() == t.to.file() {
        '-'
    } else {
        'x'
    };
    format!("{}{sep}{}", t.from, t.to)
}

/// The originals of the witness pushed out of their pens ([`door`]), in words (empty if none).
fn pushed_words(board: &shakmaty::Board, victim: Color, w: &Witness) -> String {
    w.pushed
        .iter()
        .map(|(d, door, t)| {
            let by = board.piece_at(d.by).map_or_else(
                || "unit".to_string(),
                |p| {
                    format!(
                        "{} {}",
                        color_adj(p.color),
                        retrace_unmove::role_name(p.role)
                    )
                },
            );
            format!(
                "; the {by} on {} came in before the pawn on {door} arrived and so before {}, \
                 when the {} {} from {} could only stand on {}, so it was captured there",
                d.by,
                move_words(t),
                color_adj(victim),
                retrace_unmove::role_name(d.role),
                d.home,
                squares_text(d.region)
            )
        })
        .collect()
}

/// The order of the witness's captures against pawn moves, in words (empty if none mattered).
fn early_words(w: &Witness) -> String {
    if w.early.is_empty() {
        return String::new();
    }
    let moves: Vec<String> = w.early.iter().map(move_words).collect();
    let froms = w
        .early
        .iter()
        .fold(Bitboard::EMPTY, |acc, t| acc.with(t.from));
    format!(
        " by then: the captures on {} were made before {} (a pawn that stood where a pawn later \
         stepped left first), while {} still held {}",
        squares_text(w.early_squares),
        join_and(&moves),
        squares_text(froms),
        if w.early.len() == 1 {
            "its pawn"
        } else {
            "their pawns"
        }
    )
}

/// The [`ReasonCode::CaptureUnmatched`] reason for `victim`.
fn reason(known: &Known<'_>, victim: Color, w: &Witness) -> Reason {
    let units: Vec<String> = w.victims.iter().map(|v| victim_words(victim, v)).collect();
    let missing = known.missing(victim);
    let taker = victim.other();
    let changes = if w.changes == 0 {
        String::new()
    } else {
        format!(
            "; its pawns' changes of file are {} of them, landing on {}",
            w.changes,
            squares_text(w.crossings)
        )
    };
    let lacking = match w.strays {
        Some((need, spare)) => format!(
            "the walks of {} to the captures that can have taken them need {need} capture{} \
             together, and {}'s pawns on the board leave only {spare}",
            join_and(&units),
            plural(need),
            color_name(victim)
        ),
        None => format!(
            "{} of those captures can have landed where {} can have died{}{}",
            match w.captures {
                0 => "none".to_string(),
                n => format!("only {n}"),
            },
            join_and(&units),
            early_words(w),
            pushed_words(known.pos.board(), victim, w)
        ),
    };
    Reason::new(
        ReasonCode::CaptureUnmatched,
        format!(
            "{} misses {missing} unit{}, so {} made exactly {missing} capture{}, one for each, \
             where it stood{changes}; but in every account of {}'s pawns, {lacking}",
            color_name(victim),
            plural(missing),
            color_name(taker),
            plural(missing),
            color_name(taker),
        ),
        w.crossings
            | w.early
                .iter()
                .fold(Bitboard::EMPTY, |acc, t| acc.with(t.from))
            | w.victims
                .iter()
                .fold(Bitboard::EMPTY, |acc, v| acc | v.homes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hall_witness_names_units_with_too_few_slots() {
        // Three units, three slots: units 0 and 2 can only take slot 1.
        assert_eq!(
            hall_witness(&[0b010, 0b111, 0b010], 3),
            Some((0b101, 0b010))
        );
        // If no unit takes slot 2, three units share two slots; if unit 1 can, unit 2 takes slot 0
        // once unit 1 moves on to slot 2 along an augmenting path.
        assert_eq!(
            hall_witness(&[0b010, 0b011, 0b011], 3),
            Some((0b111, 0b011))
        );
        assert_eq!(hall_witness(&[0b010, 0b111, 0b011], 3), None);
        // A unit with no slot at all is its own witness.
        assert_eq!(hall_witness(&[0b1, 0b0], 2), Some((0b10, 0)));
    }

    #[test]
    fn crossings_land_between_the_ranks_the_advance_allows() {
        let mut land = [Bitboard::EMPTY; 7];
        // A white pawn from the b-file on d5: c3 or c4, then d4 or d5.
        add_crossings(Color::White, 1, Square::D5, 2, &mut land);
        assert_eq!(land[0], Bitboard::from_square(Square::C3) | Square::C4);
        assert_eq!(land[1], Bitboard::from_square(Square::D4) | Square::D5);
        // A black pawn from the h-file on g6 captured on g6 only.
        let mut land = [Bitboard::EMPTY; 7];
        add_crossings(Color::Black, 7, Square::G6, 1, &mut land);
        assert_eq!(land[0], Bitboard::from_square(Square::G6));
    }
}
