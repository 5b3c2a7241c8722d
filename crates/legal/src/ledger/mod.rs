//! The history ledger (issue 25): who captured whom, and on which file, when one side's pawns
//! need all but a few of the captures it made.
//!
//! # The argument (pawns that passed, and where their captures landed)
//!
//! Let `T` (the taker) be a side and `V` (the victim) the other. Every unit `V` misses was
//! captured once by `T`, and every capture of `T` took one, so `T` made exactly `missing(V)`
//! captures: `by_pieces(T)` of them with pieces, of originals of `V` at home in pens (no pawn
//! among them), and the other `m = missing(V) - by_pieces(T)`; `V`'s pawns made at most
//! `b = missing(T) - by_pieces(V)`.
//!
//! Each pawn of either side on the board, and one pawn per promoted unit the side must have
//! (on the promotion squares its unit can have come from, see [`crate::accounting`]'s items), started
//! on its own file `g` and made at least `base(g)` captures on its walk around the walls; one
//! that left `g` at some moment made at least `leave(g)`. Fix the start files a game gives them
//! (the ledger tries every assignment within the budgets). A white and a black pawn that both
//! started on one file, could both have stayed on it (`base = 0`), and where the white one stands
//! above the black one (a promoted pawn above every rank) passed each other, so one of them left
//! the file: a pawn blocks another of the other colour on its file (the accounting's proof). For
//! each such pair, charge `leave` to the one that left (the ledger tries each choice), `base` to
//! every other pawn. In the game each pawn made at least its charge.
//!
//! Let the charges of `T` sum to `m - k`. Then `T`'s pawns of the account made at most `k`
//! captures beyond their charges, and all of those `m` captures but `k` at most were made by
//! them within their charges (for `k = 0`: its pieces and its pawns no longer on the board made
//! no other).
//! A pawn from file `g` that made `c` captures and ended on file `e` changed files `c` times, so
//! every file it entered, where each of its captures landed (an en-passant capture too), lies
//! within `|f - g| + |f - e| <= c`; so the game's captures map one to one onto *slots*: `charge`
//! slots per pawn, each on the files within `charge + k` of that walk, and `k` slots anywhere.
//!
//! Now take a start file `g` of `V` that no pawn of the account uses: its pawn is not on the
//! board, and made at most `s = b - (V's charges)` captures. If no walk around the walls from `g`
//! reaches a promotion square within `s` captures, it never promoted, so it was captured as a
//! pawn, on a file within `s` of `g`. Each of `T`'s captures took one unit: the pawns that died
//! so must be matched one to one with slots whose files reach theirs (the other missing units of
//! `V` may take the slots left, whatever they are). If that matching fails in every assignment
//! and choice within the budgets, no game reaches the position. (With `k` at least the number of
//! such dead pawns it cannot fail, and the ledger stops.)
//!
//! # An example (the other side of a published problem, with a last move of Black taken back)
//!
//! `4nQrQ/2pppppK/2pR4/8/8/PP6/b1PPkPP1/nN1brqqN`: White misses four units and Black one, the
//! bishop of f8, which never moved (its neighbours e7 and g7 never did) and died at home to a
//! white piece: White's pawns made no capture. So no white pawn ever left its file, White's
//! second queen was promoted by the h-pawn on the h-file, and the white e-pawn, walled by the
//! e7-pawn, never promoted: it died as a pawn on the e-file. Black has two queens and two light
//! bishops: its a- and h-pawns both promoted. The black h-pawn passed the white h-pawn on their
//! file, so it left it and came back (two captures, the g-pawns never moved), the a-pawn passed
//! the white a3-pawn (one capture at least) and the b-pawn reached c6 (one): four captures, all
//! Black made, on the b-, c-, g- and h-files. None took the white e-pawn on the e-file.

use shakmaty::{Bitboard, ByColor, Color, File, Rank};

mod gates;
mod home;
mod locked;

use crate::accounting::items::{items, Item, Place};
use crate::geometry::TimedList;
use crate::known::Known;
use crate::promotion::{walls_walks, Walks, NONE, NO_WALK};
use crate::reasons::Reasons;
use crate::text::{color_adj, color_name, plural};
use crate::types::{Reason, ReasonCode};

/// The most assignment nodes one side's enumeration may visit; beyond it the ledger gives up.
const NODE_LIMIT: u32 = 4096;

/// The most assignments kept per side; beyond them the ledger gives up.
const ASSIGNMENT_LIMIT: usize = 256;

/// The most combinations (a pair of assignments and a choice of the pawns that left) weighed;
/// beyond them the ledger gives up.
const COMBINATION_LIMIT: u32 = 20_000;

/// The most choices of which of the victim's pawns outside its account promoted weighed, over
/// all combinations; beyond them the ledger gives up.
const SUBSET_LIMIT: u32 = 20_000;

/// The most choices that fit the counts checked against the gates ([`gates`]), over all
/// combinations; beyond them the ledger gives up.
const GATE_LIMIT: u32 = 512;

/// The most slots of one item, or captures to spare, listed (see [`slots_of`]).
const SLOTS: u32 = 16;

/// One side's pawns given start files: the file of each item, and the captures at `base` cost.
#[derive(Clone, Copy, Debug)]
struct Assignment {
    /// The start file of each item (by index), as a file number.
    files: [u8; 8],
    /// The start files used, a bit per file.
    used: u8,
}

/// What a failing combination says, for the message.
#[derive(Clone, Copy, Debug)]
struct Witness {
    /// The start files of the victim's pawns that died as pawns, a bit per file.
    dead: u8,
    /// The files where the taker's captures can have landed, a bit per file.
    landed: u8,
    /// The captures the taker made, less those its pieces made in pens.
    captures: u32,
    /// The captures its pieces made in pens.
    pens: u32,
    /// The captures beyond those its pawns need, which may have landed anywhere.
    free: u32,
    /// Whether some pawns of the two sides passed each other on a file in it.
    passed: bool,
    /// The start files (a bit per file) of dead pawns that could each have promoted alone
    /// within the victim's spare captures, but not all together.
    short: u8,
    /// The victim's captures beyond those its account's pawns need.
    spare: u32,
    /// The start files (a bit per file) of the taker's pawns that died as pawns off their files
    /// ([`strays`]).
    strays: u8,
    /// The captures those made on their way, out of the taker's captures to spare.
    stray_captures: u32,
}

/// What a failing combination of pawns locked on their files says, for the message.
#[derive(Clone, Copy, Debug)]
struct Locked {
    /// The files whose two pawns never left them, a bit per file.
    files: u8,
    /// The files where each side's captures can have landed, a bit per file.
    landed: ByColor<u8>,
    /// The captures each side made, less those its pieces made in pens.
    captures: ByColor<u32>,
    /// The captures each side has beyond those its pawns' walks need.
    spare: ByColor<u32>,
}

/// How every combination failed: the taker's captures cannot take the victim's dead pawns, or
/// (in some combination) a file's two locked pawns cannot have died there.
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// The plain matching of the victim's dead pawns failed in every combination.
    Unmatched(Witness),
    /// Some combination failed only for pawns locked on their files.
    Locked(Locked),
    /// Some combination fitted every count but failed the gates ([`gates`]); `mixed` when
    /// others failed for the reasons above.
    Shut { shuts: gates::Shuts, mixed: bool },
    /// Some combination failed only for a piece shut out by pawns that died at home ([`home`]),
    /// with the captures the taker made beyond the pens'.
    ShutOut(home::ShutOut, u32),
}

/// Appends a [`ReasonCode::LedgerUnmatched`] or [`ReasonCode::LedgerLockedFile`] reason if some side's pawns need all but a few of
/// the captures it made, and those cannot each have taken a pawn of the other side that died
/// on its file.
pub(crate) fn ledger(known: &Known<'_>, out: &mut Reasons) {
    for taker in Color::ALL {
        match side(known, taker) {
            Some(Failure::Unmatched(w)) => {
                out.add_built(ReasonCode::LedgerUnmatched, || reason(taker, &w));
                return;
            }
            Some(Failure::Locked(l)) => {
                out.add_built(ReasonCode::LedgerLockedFile, || locked_reason(&l));
                return;
            }
            Some(Failure::Shut { shuts, mixed }) => {
                out.add_built(ReasonCode::LedgerGate, || {
                    gates::reason(taker, &shuts, mixed)
                });
                return;
            }
            Some(Failure::ShutOut(o, captures)) => {
                out.add_built(ReasonCode::LedgerUnmatched, || {
                    shut_reason(taker, &o, captures)
                });
                return;
            }
            None => {}
        }
    }
}

/// The witness that `taker`'s captures, all made by its pawns, cannot have taken the victim's
/// pawns that died as pawns; `None` when some combination fits or the ledger gives up.
fn side(known: &Known<'_>, taker: Color) -> Option<Failure> {
    let victim = taker.other();
    let mut budget = ByColor { white: 0, black: 0 };
    *budget.get_mut(taker) = known.missing(victim).checked_sub(known.by_pieces(taker))?;
    *budget.get_mut(victim) = known.missing(taker).checked_sub(known.by_pieces(victim))?;
    let board = known.pos.board();
    if Color::ALL
        .iter()
        .any(|&c| u32::from(known.captures.get(c).by_pawns) > *budget.get(c))
    {
        return None;
    }
    // The cheap gate: the victim has a pawn to account for that is not on the board, and the
    // taker's pawns can need all its captures only if some pawns passed each other, or the
    // captures its pawns on the board leave are fewer than the pawns the victim misses, the
    // taker misses pawns too and the victim's pawns on the board may need every capture it
    // made (where the taker's dead pawns spend its captures to spare, see [`strays`]).
    let pawns = board.by_piece(victim.pawn()).count();
    let left = |c: Color| {
        budget
            .get(c)
            .saturating_sub(u32::from(known.captures.get(c).by_pawns))
    };
    let strays_may_count = (left(taker) as usize) < 8 - pawns.min(8)
        && left(victim) == 0
        && board.by_piece(taker.pawn()).count() < 8;
    if pawns >= 8 || !(may_pass(known) || strays_may_count) {
        return None;
    }
    let items = ByColor {
        white: items(known, Color::White)?,
        black: items(known, Color::Black)?,
    };
    if items.get(victim).len() >= 8 {
        return None;
    }
    let assignments = ByColor {
        white: assignments(items.get(Color::White), budget.white)?,
        black: assignments(items.get(Color::Black), budget.black)?,
    };
    let walks = walls_walks(victim, known.statics, known.walks);
    let taker_walks = walls_walks(taker, known.statics, known.walks);
    let mut combinations = 0u32;
    let mut subsets = 0u32;
    let mut witness = None;
    let mut locked_witness = None;
    let mut shuts = gates::Shuts::default();
    let mut gate_checks = 0u32;
    let mut shut_witness = None;
    for a in assignments.get(Color::White) {
        for b in assignments.get(Color::Black) {
            let pairs = passing_pairs(&items, a, b);
            // The combination's cuts and the victim's pens, once a choice fits the counts.
            let mut gate: Option<(TimedList, gates::Pens)> = None;
            for choice in 0u32..1 << pairs.len() {
                combinations += 1;
                if combinations > COMBINATION_LIMIT {
                    return None;
                }
                let charges = charges(&items, a, b, &pairs, choice);
                let need = |c: Color| {
                    charges
                        .get(c)
                        .iter()
                        .fold(0u32, |s, &x| s.saturating_add(x))
                };
                if need(Color::White) > budget.white || need(Color::Black) > budget.black {
                    continue;
                }
                let free = budget.get(taker) - need(taker);
                let own = if taker.is_white() { a } else { b };
                let other = if taker.is_white() { b } else { a };
                let spare = budget.get(victim) - need(victim);
                let blocked = never_left(items.get(taker), own, charges.get(taker), free);
                let costs = promotion_costs(victim, other.used, &walks, blocked);
                // The victim's pawns outside its account that can promote within its spare
                // captures, each alone: some of them promoted, paying for it from that spare,
                // the others died as pawns (see [`died_as_pawns`]).
                let promotable = (0..8usize)
                    .filter(|&g| costs[g] <= spare)
                    .fold(0u8, |m, g| m | 1 << g);
                let weigh = Weigh {
                    known,
                    items: &items,
                    taker,
                    a,
                    b,
                    charges: &charges,
                    budget,
                    free,
                    spare,
                    taker_walks: &taker_walks,
                    passed: !pairs.is_empty(),
                };
                let mut subset = promotable;
                loop {
                    let paid = (0..8usize)
                        .filter(|&g| subset & 1 << g != 0)
                        .fold(0u32, |s, g| s.saturating_add(costs[g]));
                    if paid <= spare {
                        subsets += 1;
                        if subsets > SUBSET_LIMIT {
                            return None;
                        }
                        let dead = died_as_pawns(!other.used & !subset, spare - paid);
                        match weigh.verdict(&dead, promotable & !subset, subset == 0) {
                            Verdict::Fits => {
                                gate_checks += 1;
                                if gate_checks > GATE_LIMIT {
                                    return None;
                                }
                                let (cuts, pens) = gate.get_or_insert_with(|| {
                                    let cuts = gates::cuts(known, &items, a, b);
                                    let pens = gates::Pens::new(known, victim, &cuts);
                                    (cuts, pens)
                                });
                                let check = gates::Check {
                                    known,
                                    items: &items,
                                    taker,
                                    a,
                                    b,
                                    charges: &charges,
                                    budget,
                                    cuts,
                                    pens,
                                };
                                match check.shut(subset, &dead) {
                                    None => return None,
                                    Some(s) => shuts.add(s),
                                }
                            }
                            Verdict::Fails => {}
                            Verdict::Unmatched(w) => {
                                // The plainer sentence (no pawn short of captures) first.
                                if witness.is_none_or(|o: Witness| o.short != 0 && w.short == 0) {
                                    witness = Some(w);
                                }
                            }
                            Verdict::Locked(l) => {
                                locked_witness.get_or_insert(l);
                            }
                            Verdict::ShutOut(o) => {
                                shut_witness.get_or_insert((o, *weigh.budget.get(taker)));
                            }
                        }
                    }
                    if subset == 0 {
                        break;
                    }
                    subset = (subset - 1) & promotable;
                }
            }
        }
    }
    let mixed = locked_witness.is_some() || witness.is_some() || shut_witness.is_some();
    match (locked_witness, witness, shut_witness) {
        _ if shuts.any() => Some(Failure::Shut { shuts, mixed }),
        (Some(l), ..) => Some(Failure::Locked(l)),
        (None, Some(w), _) => Some(Failure::Unmatched(w)),
        (None, None, Some((o, captures))) => Some(Failure::ShutOut(o, captures)),
        (None, None, None) => None,
    }
}

/// What one combination's weighing of a choice of dead pawns says.
enum Verdict {
    /// Some game may fit it.
    Fits,
    /// No game fits it, with nothing worth saying (more dead pawns than captures).
    Fails,
    /// The taker's captures cannot take the victim's dead pawns.
    Unmatched(Witness),
    /// The taker's captures can, but not with the pawns locked on their files as well.
    Locked(Locked),
    /// The taker's captures can, but a pawn of the victim died at home and walls in a piece
    /// ([`home`]).
    ShutOut(home::ShutOut),
}

/// One combination of the ledger (start files `a` and `b`, and the charges their choice of the
/// pawns that left gives), weighed for each choice of the victim's pawns that died as pawns.
struct Weigh<'a, 'k> {
    known: &'a Known<'k>,
    items: &'a ByColor<&'a [Item]>,
    taker: Color,
    a: &'a Assignment,
    b: &'a Assignment,
    charges: &'a ByColor<Vec<u32>>,
    /// The captures each side's pawns made (the pens' taken off).
    budget: ByColor<u32>,
    /// The taker's captures beyond its account's charges.
    free: u32,
    /// The victim's captures beyond its account's charges.
    spare: u32,
    taker_walks: &'a Walks,
    /// Whether the combination has pawns that passed each other.
    passed: bool,
}

impl Weigh<'_, '_> {
    /// Whether the victim's pawns `dead` (each its start file's bit and the files where it can
    /// have died) can each have been taken by a capture of the taker, and the pawns locked on
    /// their files got by each other; `short` names the pawns among them that could have
    /// promoted alone (for the message).
    fn verdict(&self, dead: &[(u8, u8)], short: u8, none_promoted: bool) -> Verdict {
        let (taker, victim) = (self.taker, self.taker.other());
        let (own, other) = if taker.is_white() {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        };
        let spare = self.spare;
        if dead.len() as u32 > *self.budget.get(taker) {
            // More pawns died as pawns than units are missing: no game, whatever the rest.
            return Verdict::Fails;
        }
        let lock = locked::files(self.a.used, self.b.used);
        // The taker's own pawns that died as pawns, and the victim's captures that took them.
        let own_blocked = never_left(
            self.items.get(victim),
            other,
            self.charges.get(victim),
            spare,
        );
        let own_dead = dead_pawns(taker, own.used, self.free, self.taker_walks, own_blocked);
        let other_slots = if own_dead.is_empty() && lock == 0 {
            Vec::new()
        } else {
            slots_of(
                victim,
                self.items.get(victim),
                other,
                self.charges.get(victim),
                spare,
            )
        };
        // Those of them that died off their files spent some of the captures to spare there.
        // (Where they cannot, other rules speak: the ledger then weighs the combination as if
        // they could, which only allows more.)
        let strays = strays(&own_dead, &other_slots)
            .filter(|s| s.captures <= self.free)
            .unwrap_or_default();
        let free = self.free - strays.captures;
        if strays.captures > 0 {
            count_strayed();
        }
        // The captures to spare can take every dead pawn, or the taker's slots can.
        let slots = if (free as usize) < dead.len() || lock != 0 {
            let mut slots = slots_of(
                taker,
                self.items.get(taker),
                own,
                self.charges.get(taker),
                free,
            );
            slots.extend_from_slice(&strays.slots);
            slots
        } else {
            Vec::new()
        };
        let plain = (free as usize) >= dead.len() || {
            count_weighed();
            matches(dead, &slots)
        };
        if !plain {
            let dead_files = dead.iter().fold(0, |m, d| m | d.0);
            return Verdict::Unmatched(Witness {
                dead: dead_files,
                landed: landed(&slots),
                captures: *self.budget.get(taker),
                pens: self.known.by_pieces(taker),
                free,
                passed: self.passed,
                short: short & dead_files,
                spare,
                strays: strays.files,
                stray_captures: strays.captures,
            });
        }
        // A victim that promoted nothing may have lost a pawn at home, walling its pieces in.
        if none_promoted
            && !slots.is_empty()
            && self
                .items
                .get(victim)
                .iter()
                .all(|i| matches!(i.place, Place::Board(_)))
        {
            let walks = home::Walks {
                color: taker,
                items: self.items.get(taker),
                asg: own,
                charges: self.charges.get(taker),
                slots: &slots,
            };
            if let Some(o) = home::shut_out(self.known, victim, dead, &walks) {
                count_shut();
                return Verdict::ShutOut(o);
            }
        }
        if lock == 0 {
            return Verdict::Fits;
        }
        // A file whose pawn is already proven dead on it (it cannot promote) is settled by that
        // death: the lock asks nothing more there.
        let start_files = |d: &[(u8, u8)]| d.iter().fold(0u8, |m, x| m | x.0);
        let lock = lock & !start_files(dead) & !start_files(&own_dead);
        if lock == 0 {
            return Verdict::Fits;
        }
        let victim_deaths = locked::Deaths {
            dead,
            slots: &slots,
        };
        let taker_deaths = locked::Deaths {
            dead: &own_dead,
            slots: &other_slots,
        };
        let (white, black) = if taker.is_white() {
            (taker_deaths, victim_deaths)
        } else {
            (victim_deaths, taker_deaths)
        };
        count_locked();
        if locked::fits(lock, white, black) {
            return Verdict::Fits;
        }
        let (white_slots, black_slots, white_spare, black_spare) = if taker.is_white() {
            (&slots, &other_slots, free, spare)
        } else {
            (&other_slots, &slots, spare, free)
        };
        Verdict::Locked(Locked {
            files: lock,
            landed: ByColor {
                white: landed(white_slots),
                black: landed(black_slots),
            },
            captures: self.budget,
            spare: ByColor {
                white: white_spare,
                black: black_spare,
            },
        })
    }
}

/// The files (a bit per file) where some of `slots` can have landed.
fn landed(slots: &[u8]) -> u8 {
    slots
        .iter()
        .filter(|&&s| s != u8::MAX)
        .fold(0, |m, &s| m | s)
}

#[cfg(test)]
thread_local! {
    static WEIGHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static LOCKED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static STRAYED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static SHUT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static WALLED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts one combination whose taker's dead pawns spent captures to spare reaching the
/// victim's captures ([`strays`]) (in unit tests).
fn count_strayed() {
    #[cfg(test)]
    STRAYED.with(|w| w.set(w.get() + 1));
}

/// Counts one combination whose dead pawns were matched with the taker's captures (in unit
/// tests).
fn count_weighed() {
    #[cfg(test)]
    WEIGHED.with(|w| w.set(w.get() + 1));
}

/// Counts one combination that failed for a piece shut out by pawns that died at home (in unit
/// tests).
fn count_shut() {
    #[cfg(test)]
    SHUT.with(|w| w.set(w.get() + 1));
}

/// Counts one combination where a victim's pawn died at home and walled its pieces ([`home`])
/// (in unit tests).
fn count_walled() {
    #[cfg(test)]
    WALLED.with(|w| w.set(w.get() + 1));
}

/// Counts one combination whose locked files were weighed (in unit tests).
fn count_locked() {
    #[cfg(test)]
    LOCKED.with(|w| w.set(w.get() + 1));
}

/// Whether pawns of both sides can have passed each other on some file: both sides have a pawn
/// on it (the white one above), or a side has promoted and the other a pawn or a promotion too.
fn may_pass(known: &Known<'_>) -> bool {
    let board = known.pos.board();
    let promotes = |c: Color| known.promoted.get(c).total > 0;
    File::ALL.into_iter().any(|f| {
        let on = |c: Color| board.by_piece(c.pawn()) & Bitboard::from_file(f);
        let (w, b) = (on(Color::White), on(Color::Black));
        let passed = matches!((w.last(), b.first()), (Some(t), Some(u)) if t.rank() > u.rank());
        passed
            || (promotes(Color::White) && (b.any() || promotes(Color::Black)))
            || (promotes(Color::Black) && w.any())
    })
}

/// Every assignment of `items` to distinct start files whose `base` costs fit `budget`; `None`
/// past the limits.
fn assignments(items: &[Item], budget: u32) -> Option<Vec<Assignment>> {
    fn visit(
        items: &[Item],
        k: usize,
        cost: u32,
        budget: u32,
        now: Assignment,
        nodes: &mut u32,
        out: &mut Vec<Assignment>,
    ) -> bool {
        *nodes += 1;
        if *nodes > NODE_LIMIT {
            return false;
        }
        let Some(item) = items.get(k) else {
            out.push(now);
            return out.len() <= ASSIGNMENT_LIMIT;
        };
        for (g, c) in item.costs.iter().enumerate() {
            if now.used & 1 << g != 0 || c.base == NONE || cost + c.base > budget {
                continue;
            }
            let mut next = now;
            next.files[k] = g as u8;
            next.used |= 1 << g;
            if !visit(items, k + 1, cost + c.base, budget, next, nodes, out) {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    let mut nodes = 0;
    let start = Assignment {
        files: [0; 8],
        used: 0,
    };
    visit(items, 0, 0, budget, start, &mut nodes, &mut out).then_some(out)
}

/// The white and black items (indices) on one start file that could both have stayed on it, the
/// white one above the black one: one of each such pair left its file.
fn passing_pairs(items: &ByColor<&[Item]>, a: &Assignment, b: &Assignment) -> Vec<(usize, usize)> {
    let stayer = |c: Color, asg: &Assignment, g: u8| {
        items
            .get(c)
            .iter()
            .enumerate()
            .find(|(i, it)| asg.files[*i] == g && it.costs[usize::from(g)].base == 0)
            .map(|(i, it)| (i, it.height(c)))
    };
    (0..8u8)
        .filter_map(|g| {
            let (w, wh) = stayer(Color::White, a, g)?;
            let (k, kh) = stayer(Color::Black, b, g)?;
            (wh > kh).then_some((w, k))
        })
        .collect()
}

/// Each item's charge: `base` from its start file, and `leave` for the pawn of a passing pair
/// that `choice` (a bit per pair: set, the white one) says left.
fn charges(
    items: &ByColor<&[Item]>,
    a: &Assignment,
    b: &Assignment,
    pairs: &[(usize, usize)],
    choice: u32,
) -> ByColor<Vec<u32>> {
    let base = |c: Color, asg: &Assignment| -> Vec<u32> {
        items
            .get(c)
            .iter()
            .enumerate()
            .map(|(i, it)| it.costs[usize::from(asg.files[i])].base)
            .collect()
    };
    let mut out = ByColor {
        white: base(Color::White, a),
        black: base(Color::Black, b),
    };
    for (p, &(w, k)) in pairs.iter().enumerate() {
        if choice & 1 << p != 0 {
            out.white[w] = items.white[w].costs[usize::from(a.files[w])].leave;
        } else {
            out.black[k] = items.black[k].costs[usize::from(b.files[k])].leave;
        }
    }
    out
}

/// The taker's captures, one per unit of each item's charge, each as the files (a bit per file)
/// where it can have landed: within `|f - g| + |f - e| <= c + free` of the start file `g` and an
/// end file `e` (an item may have made up to `free` captures beyond its charge), on `g` itself
/// only with two more (a capture lands on the start file only once the pawn left it and came
/// back), and `free` more that can have landed anywhere (by a piece, a pawn no longer on the
/// board, or an item beyond its charge).
///
/// A pawn of `color` on the board that changed as many files as it advanced ranks captured on
/// every move, so exactly once onto each file between its start file and its file now (a
/// capture is a move of one rank up), whatever is to spare: its slots are those files, one each.
fn slots_of(color: Color, items: &[Item], asg: &Assignment, charges: &[u32], free: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let c = charges[i];
        if c == 0 {
            continue;
        }
        if let Some(files) = every_move(color, item, asg.files[i], c) {
            out.extend(files);
            continue;
        }
        let mask = item_files(item, asg.files[i], c.saturating_add(free));
        // At most twelve dead pawns take a slot (eight proven, four of locked files, see
        // [`locked`]) and four captures to spare are spent leaving locked files: more slots of
        // one item, or more to spare, change nothing.
        for _ in 0..c.min(SLOTS) {
            out.push(mask);
        }
    }
    out.extend(std::iter::repeat_n(u8::MAX, free.min(SLOTS) as usize));
    out
}

/// For a pawn of `color` on the board from the start file `start`, charged `charge`, that changed
/// as many files as it advanced ranks (so captured on every move, `charge` times): the file of
/// each capture (a bit each), in order; `None` otherwise.
fn every_move(
    color: Color,
    item: &Item,
    start: u8,
    charge: u32,
) -> Option<impl Iterator<Item = u8>> {
    let Place::Board(end) = item.place else {
        return None;
    };
    let (e, s) = (end.file() as u8, start);
    let n = e.abs_diff(s);
    let advance = (color.relative_rank(end.rank()) as u32).checked_sub(1)?;
    (n > 0 && u32::from(n) == advance && charge == u32::from(n)).then(|| {
        (1..=n).map(move |k| {
            if e > s {
                1u8 << (s + k)
            } else {
                1u8 << (s - k)
            }
        })
    })
}

/// The files (a bit per file) where the captures of `item`, from the start file `start`, can have
/// landed when it made at most `most` of them: within `|f - g| + |f - e| <= most` of the start
/// file `g` and an end file `e`, on `g` itself only with two more (a capture lands on the start
/// file only once the pawn left it and came back: two captures beyond the distance to its end).
fn item_files(item: &Item, start: u8, most: u32) -> u8 {
    let ends = match item.place {
        Place::Board(sq) => 1u8 << sq.file() as u8,
        Place::Promoted { squares, .. } => {
            squares.into_iter().fold(0, |m, q| m | 1 << q.file() as u8)
        }
    };
    let g = i32::from(start);
    (0..8i32)
        .filter(|&f| {
            (0..8i32).filter(|e| ends & 1 << e != 0).any(|e| {
                let back = if f == g { 2 } else { 0 };
                ((f - g).abs() + (f - e).abs() + back) as u32 <= most
            })
        })
        .fold(0u8, |m, f| m | 1 << f)
}

/// The fewest captures with which the pawn of `color` from each start file outside `used`
/// reached a promotion square ([`NONE`] for a file of `used`, or when no walk around the walls
/// reaches one).
///
/// On a file of `blocked` the other side's pawn from that file never left it (see
/// [`never_left`]): a pawn of `color` from there promoted only after leaving the file, so only
/// with a capture at least, and on its own file only with two (out and back).
///
/// Proof of the blocked case: the two pawns of file `g` start with the white one below the black
/// one, and while both are on `g` that order holds (a pawn's step, single or double, needs the
/// squares it crosses and lands on empty). The other side's pawn stands on `g` from the start
/// until now (on the board) or until its promotion (it never captured, so never left `g`). A
/// pawn of `color` that promoted without leaving `g` reached its last rank, beyond the other one:
/// either while that one still stood on `g` (the order broke), or after that one promoted,
/// which itself reached its last rank beyond the pawn of `color` still on `g` (the order broke).
fn promotion_costs(color: Color, used: u8, walks: &Walks, blocked: u8) -> [u32; 8] {
    let eighth = Bitboard::from_rank(color.relative_rank(Rank::Eighth));
    std::array::from_fn(|g| {
        if used & 1 << g != 0 {
            return NONE;
        }
        let need = |q: shakmaty::Square| match blocked & 1 << g != 0 {
            false => 0,
            true if q.file() as usize == g => 2,
            true => 1,
        };
        eighth
            .into_iter()
            .filter_map(|q| {
                let w = walks[g][usize::from(q)];
                (w != NO_WALK).then(|| u32::from(w).max(need(q)))
            })
            .min()
            .unwrap_or(NONE)
    })
}

/// The pawns of the start files `files` (a bit per file), taken as died as pawns with at most
/// `spare` captures made: each with its start file's bit and the files (a bit per file) within
/// `spare` of it where it can have died (each capture changes its file by one).
fn died_as_pawns(files: u8, spare: u32) -> Vec<(u8, u8)> {
    (0..8usize)
        .filter(|&g| files & 1 << g != 0)
        .map(|g| {
            let mask = (0..8usize)
                .filter(|&f| (f as i64 - g as i64).unsigned_abs() <= u64::from(spare))
                .fold(0u8, |m, f| m | 1 << f);
            (1u8 << g, mask)
        })
        .collect()
}

/// The pawns of `color` that died as pawns whatever the others did: one per start file outside
/// `used` from which no walk reaches a promotion square within `spare` captures (see
/// [`promotion_costs`]), with the files within `spare` of it where it can have died.
///
/// For the victim the ledger asks more (see [`side`]): its pawns outside the account each
/// either promoted, paying its cost out of the same `spare`, or died as a pawn, so it weighs
/// each choice of those that promoted whose costs fit together, the others dead with the
/// captures left.
fn dead_pawns(color: Color, used: u8, spare: u32, walks: &Walks, blocked: u8) -> Vec<(u8, u8)> {
    let costs = promotion_costs(color, used, walks, blocked);
    let files = (0..8usize)
        .filter(|&g| used & 1 << g == 0 && costs[g] > spare)
        .fold(0u8, |m, g| m | 1 << g);
    died_as_pawns(files, spare)
}

/// The captures the taker's pawns that died as pawns made to reach the victim's captures that
/// took them ([`strays`]).
#[derive(Clone, Debug, Default)]
struct Strays {
    /// How many, at least: each is one of the taker's captures to spare.
    captures: u32,
    /// One slot per such capture: the files (a bit per file) where it can have landed.
    slots: Vec<u8>,
    /// The start files (a bit per file) of the pawns that made them.
    files: u8,
}

/// The captures the taker's own pawns `dead` (each its start file's bit and the files within
/// its reach, see [`dead_pawns`]) made to reach the victim's captures `victim_slots` ([`slots_of`]
/// of the victim's account: a mask of files each, [`u8::MAX`] for one that can have landed
/// anywhere); `None` if some dead pawn has no file within its reach where one of those landed.
///
/// Proof. A pawn of the taker that died as a pawn was taken by a capture of the victim that
/// landed where it stood: not by one its pieces made of originals shut in at home (those took
/// pieces), so by one of the captures the victim's slots stand for, one to one, each on the files
/// of its slot. So it died on a file `f` of the union of those masks within its reach, and if it
/// started on `g` it captured at least `|f - g|` times, each time entering the next file on its
/// way: one capture landed on each file at distance `1..=d` from `g` on the side of `f`, with `d`
/// the least distance from `g` to such a file. Those pawns are not in the taker's account, so
/// their captures are among the captures to spare (the account's pawns make their charges at
/// least, the pens' captures take originals), which they leave fewer by as many, and each lands
/// within its slot's files. Summing over the dead pawns (each died on its own square, a capture
/// apiece) is sound whatever the victim's captures were: each distance is a least one.
fn strays(dead: &[(u8, u8)], victim_slots: &[u8]) -> Option<Strays> {
    let mut out = Strays::default();
    if dead.is_empty() || victim_slots.contains(&u8::MAX) {
        return Some(out);
    }
    let files = landed(victim_slots);
    for &(start, reach) in dead {
        let g = start.trailing_zeros() as i32;
        let near = reach & files;
        if near == 0 {
            return None;
        }
        let d = (0..8i32)
            .filter(|f| near & 1 << f != 0)
            .map(|f| (f - g).unsigned_abs())
            .min()
            .unwrap_or(0);
        if d == 0 {
            continue;
        }
        let mut mask = 0u8;
        let below = near & ((1u8 << g) - 1);
        let above = near & !((2u16 << g) - 1) as u8;
        for k in 1..=d as i32 {
            if below != 0 && g - k >= 0 {
                mask |= 1 << (g - k);
            }
            if above != 0 && g + k < 8 {
                mask |= 1 << (g + k);
            }
        }
        out.captures += d;
        out.files |= start;
        out.slots
            .extend(std::iter::repeat_n(mask, d.min(SLOTS) as usize));
    }
    Some(out)
}

/// The start files (a bit per file) of the pawns of an account that never left them. Each pawn
/// of the account made its charge and at most `free` captures more (all of them together make at
/// most `free` beyond their charges), and a pawn changes files only by capturing, one file a
/// capture. So a pawn charged nothing never left its file when `free` is zero; and one standing
/// on the board on its start file never left it when it has at most one capture beyond its
/// charge of zero, since leaving and coming back takes two. (A promoted pawn may have spent one
/// to promote beside its file, so it needs `free` zero.)
fn never_left(items: &[Item], asg: &Assignment, charges: &[u32], free: u32) -> u8 {
    items
        .iter()
        .zip(charges)
        .zip(asg.files)
        .filter(|((item, &c), g)| {
            c == 0
                && match item.place {
                    Place::Board(sq) => free <= 1 && sq.file() as u8 == *g,
                    Place::Promoted { .. } => free == 0,
                }
        })
        .fold(0, |m, (_, g)| m | 1 << g)
}

/// Whether each dead pawn can be given its own slot whose files meet its files.
fn matches(dead: &[(u8, u8)], slots: &[u8]) -> bool {
    matching(dead.len(), slots.len(), |u, s| slots[s] & dead[u].1 != 0)
}

/// Whether each of `left` items can be given its own of `right` items it `fits` (augmenting
/// paths).
fn matching(left: usize, right: usize, fits: impl Fn(usize, usize) -> bool) -> bool {
    fn augment(
        u: usize,
        right: usize,
        fits: &impl Fn(usize, usize) -> bool,
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for s in 0..right {
            if seen[s] || !fits(u, s) {
                continue;
            }
            seen[s] = true;
            if owner[s].is_none_or(|o| augment(o, right, fits, owner, seen)) {
                owner[s] = Some(u);
                return true;
            }
        }
        false
    }
    if left > right {
        return false;
    }
    let mut owner = vec![None; right];
    (0..left).all(|u| {
        let mut seen = vec![false; right];
        augment(u, right, &fits, &mut owner, &mut seen)
    })
}

/// The files of the mask `m` in words ("the e-file", "the b- and c-files").
fn files_words(m: u8) -> String {
    let names: Vec<String> = File::ALL
        .into_iter()
        .filter(|&f| m & 1 << f as u8 != 0)
        .map(|f| format!("{}", f.char()))
        .collect();
    match names.as_slice() {
        [] => "no file".to_string(),
        [one] => format!("the {one}-file"),
        [rest @ .., last] => format!("the {}- and {last}-files", rest.join("-, ")),
    }
}

/// The [`ReasonCode::LedgerUnmatched`] reason for `taker`.
fn reason(taker: Color, w: &Witness) -> Reason {
    let victim = taker.other();
    let dead_files = files_words(w.dead);
    let passed = if w.passed {
        ", once the pawns of both colours that passed each other on a file are charged the \
         captures that let one of them by"
    } else {
        ""
    };
    let dead = w.dead.count_ones();
    let (they, them, as_pawns) = if dead == 1 {
        ("it was", "its file", "a pawn")
    } else {
        ("they were", "their files", "pawns")
    };
    let strays = if w.strays == 0 {
        String::new()
    } else {
        let n = w.strays.count_ones();
        format!(
            " (its pawn{} from {}, which died as {} off {} where {} captures landed, took \
             {} of those to spare on {} way there)",
            plural(n),
            files_words(w.strays),
            if n == 1 { "a pawn" } else { "pawns" },
            if n == 1 { "its file" } else { "their files" },
            color_adj(victim),
            w.stray_captures,
            if n == 1 { "its" } else { "their" },
        )
    };
    let need = if w.free == 0 {
        format!(
            "need every one of them{passed}{strays}: its pieces captured nothing{}, and those \
             captures landed only on {}",
            if w.pens == 0 { "" } else { " else" },
            files_words(w.landed)
        )
    } else {
        format!(
            "need all but {} of them{passed}{strays}, and those landed only on {}",
            w.free,
            files_words(w.landed)
        )
    };
    let where_none = if w.free == 0 {
        format!("where no {} capture landed", color_adj(taker))
    } else {
        format!(
            "on {them}, where fewer {} captures can have landed than pawns died",
            color_adj(taker)
        )
    };
    let besides = if w.pens == 0 {
        String::new()
    } else {
        format!(
            " besides the {} its pieces made of originals shut in at home",
            w.pens
        )
    };
    let why = if w.short == 0 {
        format!(
            "but the {} pawn{} from {dead_files} can neither have promoted nor have left {them} \
             with the captures {} has to spare, so {they} captured as {as_pawns} {where_none}",
            color_adj(victim),
            plural(dead),
            color_name(victim),
        )
    } else {
        format!(
            "but the {} capture{} {} has to spare cannot pay for the promotions of all its \
             other pawns (one that got by a {} pawn which never left its file first left its \
             own, by a capture), and in every choice of those that promoted, the others (such \
             as the {} pawn{} from {dead_files}) died as pawns {where_none}",
            w.spare,
            plural(w.spare),
            color_name(victim),
            color_adj(taker),
            color_adj(victim),
            plural(dead),
        )
    };
    Reason::new(
        ReasonCode::LedgerUnmatched,
        format!(
            "{} made {} capture{}{besides}, and its pawns' walks from their start files {need}; \
             {why}",
            color_name(taker),
            w.captures,
            plural(w.captures),
        ),
        Bitboard::EMPTY,
    )
}

/// The [`ReasonCode::LedgerUnmatched`] reason for a piece of the victim shut out by its pawns
/// that died at home ([`home`]).
fn shut_reason(taker: Color, o: &home::ShutOut, captures: u32) -> Reason {
    let victim = taker.other();
    let n = o.walls.count();
    let files = o
        .walls
        .into_iter()
        .fold(0u8, |m, sq| m | 1 << sq.file() as u8);
    Reason::new(
        ReasonCode::LedgerUnmatched,
        format!(
            "{} made {captures} capture{} beyond those its pieces made of originals shut in at \
             home, and the {} pawns that died as pawns can be taken by them only if the {} \
             pawn{} from {}, with no capture to spare, {} taken on {} by the last capture of the \
             {} pawn{} that captured on every move and {} there now: {} died there without \
             ever moving, and {} held all game; {} promoted nothing, but its {} on {} cannot \
             have come there from a home of its kind",
            color_name(taker),
            plural(captures),
            color_adj(victim),
            color_adj(victim),
            plural(n),
            files_words(files),
            if n == 1 { "was" } else { "were" },
            crate::text::squares_text(o.walls),
            color_adj(taker),
            plural(n),
            if n == 1 { "stands" } else { "stand" },
            if n == 1 { "it" } else { "they" },
            if n == 1 {
                "that square was"
            } else {
                "those squares were"
            },
            color_name(victim),
            retrace_unmove::role_name(o.role),
            o.piece,
        ),
        o.walls.with(o.piece),
    )
}

/// The [`ReasonCode::LedgerLockedFile`] reason.
fn locked_reason(l: &Locked) -> Reason {
    let count = l.files.count_ones();
    let (pair, them, one) = if count == 1 {
        ("the white and the black pawn", "it", "one of them was")
    } else {
        (
            "the white and the black pawns",
            "them",
            "one pawn of each file was",
        )
    };
    let (need, how) = if l.spare.white == 0 && l.spare.black == 0 {
        (
            "need every one of them".to_string(),
            format!(
                "never left {them} and could not pass each other: {one} captured as a pawn on \
                 its file"
            ),
        )
    } else {
        (
            format!(
                "need all but {} of White's and {} of Black's",
                l.spare.white, l.spare.black
            ),
            format!(
                "could pass each other only if one of them left by one of those, landing beside \
                 {them}, or {one} captured as a pawn on its file; no such choice fits"
            ),
        )
    };
    Reason::new(
        ReasonCode::LedgerLockedFile,
        format!(
            "White made {} capture{} and Black {} beyond those its pieces made of originals shut \
             in at home, and the walks of their pawns from their start files {need}, so {pair} \
             from {} {how}; but White's captures landed only on {}, Black's only on {}",
            l.captures.white,
            plural(l.captures.white),
            l.captures.black,
            files_words(l.files),
            files_words(l.landed.white),
            files_words(l.landed.black),
        ),
        Bitboard::EMPTY,
    )
}

#[cfg(test)]
mod tests {
    use shakmaty::{Move, Role};

    use super::*;
    use crate::{Analyzer, ReasonCode};

    /// Analyses every position of `games` games of `game` with only the ledger deciding (the
    /// accounting's and the matching's rules off, so that the ledger sees the positions they
    /// would have settled too), asserting that it never calls one illegal; returns the positions.
    fn never_false_on(games: u64, game: impl Fn(u64) -> retrace_testkit::Game) -> usize {
        let mut analyzer = Analyzer::with_options(crate::AnalyzerOptions {
            accounting: false,
            matching: false,
            ..crate::AnalyzerOptions::default()
        });
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
                    !a.has(ReasonCode::LedgerUnmatched) && !a.has(ReasonCode::LedgerLockedFile),
                    "false illegal (seed {seed}): {} {:?}",
                    pos.fen(),
                    a.reasons
                );
            }
        }
        positions
    }

    /// Games where pawns capture, promote and step far more often than anything else moves, the
    /// positions where a side's pawns can need every capture it made; the ledger weighs them and
    /// must never call one illegal. `RETRACE_LEDGER_GAMES` sets the number of games for a longer
    /// run by hand.
    #[test]
    fn never_false_on_pawn_capture_games() {
        let weight = |_: &shakmaty::Chess, m: Move| match m {
            Move::Normal {
                promotion: Some(_), ..
            } => 300,
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
            } => 2,
            _ => 6,
        };
        let games = std::env::var("RETRACE_LEDGER_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(if cfg!(debug_assertions) { 20 } else { 3000 });
        let before = WEIGHED.with(std::cell::Cell::get);
        let locked_before = LOCKED.with(std::cell::Cell::get);
        let strayed_before = STRAYED.with(std::cell::Cell::get);
        let walled_before = WALLED.with(std::cell::Cell::get);
        let positions = never_false_on(games, |seed| {
            retrace_testkit::random_game_with(seed, 30 + (seed as usize * 13) % 170, weight)
        });
        let weighed = WEIGHED.with(std::cell::Cell::get) - before;
        let locked = LOCKED.with(std::cell::Cell::get) - locked_before;
        let strayed = STRAYED.with(std::cell::Cell::get) - strayed_before;
        let walled = WALLED.with(std::cell::Cell::get) - walled_before;
        eprintln!(
            "{positions} positions, {weighed} combinations weighed by the ledger, {locked} with \
             pawns locked on their files, {strayed} whose taker's dead pawns spent captures to \
             spare, {walled} with a victim's pawn dead at home"
        );
        // The captures the taker's dead pawns spent were weighed on legal positions too.
        assert!(cfg!(debug_assertions) || strayed > 100, "{strayed} strayed");
        // And walls of pawns dead at home were raised on legal positions (thin: a few per
        // thousand games; `RETRACE_LEDGER_GAMES=20000` gives some fifty), never calling one
        // illegal.
        assert!(cfg!(debug_assertions) || walled > 0, "{walled} walled");
        // The matching of dead pawns with the pawns' captures really ran on legal positions.
        assert!(cfg!(debug_assertions) || weighed > 100, "{weighed} weighed");
        // And the locked files were weighed on legal positions, never calling one illegal.
        assert!(cfg!(debug_assertions) || locked > 100, "{locked} locked");
    }

    /// Plain random games.
    #[test]
    fn never_false_on_random_games() {
        let games = if cfg!(debug_assertions) { 20 } else { 1000 };
        never_false_on(games, |seed| {
            retrace_testkit::random_game(seed, 40 + (seed as usize * 37) % 260)
        });
    }

    #[test]
    fn files_are_named_as_a_composer_would() {
        assert_eq!(files_words(0b1_0000), "the e-file");
        assert_eq!(files_words(0b110), "the b- and c-files");
        assert_eq!(files_words(0b1100_0110), "the b-, c-, g- and h-files");
    }

    #[test]
    fn a_capture_lands_on_the_start_file_only_after_a_round_trip() {
        use crate::pawn_items::Cost;
        let item = Item {
            place: Place::Board(shakmaty::Square::C3),
            costs: [Cost { base: 0, leave: 1 }; 8],
        };
        let from_e = Assignment {
            files: [4, 0, 0, 0, 0, 0, 0, 0],
            used: 1 << 4,
        };
        // From the e-file to c3 in two captures: they landed on the d- and c-files.
        assert_eq!(
            slots_of(Color::White, &[item], &from_e, &[2], 0),
            vec![0b1100, 0b1100]
        );
        // With two more, one may have landed back on the e-file (or on the b- or f-file).
        assert_eq!(
            slots_of(Color::White, &[item], &from_e, &[4], 0)[0],
            0b11_1110
        );
        // A capture to spare is not enough for the round trip (it may land anywhere itself).
        assert_eq!(
            slots_of(Color::White, &[item], &from_e, &[2], 1),
            vec![0b1100, 0b1100, u8::MAX]
        );
    }

    #[test]
    fn a_pawn_behind_one_that_never_left_its_file_must_leave_its_own() {
        use shakmaty::Square;
        // Walks with no walls: from file g to a last-rank square on file f, |f - g| captures.
        let mut walks: Walks = [[NO_WALK; 64]; 8];
        for (g, row) in walks.iter_mut().enumerate() {
            for f in 0..8usize {
                let q = Square::from_coords(File::new(f as u32), Rank::First);
                row[usize::from(q)] = f.abs_diff(g) as u8;
            }
        }
        // Black's a-pawn alone promotes straight, for nothing; behind a white a-pawn that never
        // left its file it needs a capture (b1), and two to promote on its own file.
        let free = promotion_costs(Color::Black, 0b1111_1110, &walks, 0);
        assert_eq!(free[0], 0);
        assert_eq!(free[1], NONE);
        let blocked = promotion_costs(Color::Black, 0b1111_1110, &walks, 1);
        assert_eq!(blocked[0], 1);
        // With no capture to spare it is dead; with one it may have promoted.
        assert_eq!(dead_pawns(Color::Black, 0b1111_1110, 0, &walks, 1).len(), 1);
        assert!(dead_pawns(Color::Black, 0b1111_1110, 1, &walks, 1).is_empty());
    }

    #[test]
    fn only_a_pawn_with_no_capture_to_make_never_left_its_file() {
        use crate::pawn_items::Cost;
        let on = |sq| Item {
            place: Place::Board(sq),
            costs: [Cost { base: 0, leave: 2 }; 8],
        };
        let items = [on(shakmaty::Square::A4), on(shakmaty::Square::C3)];
        let asg = Assignment {
            files: [0, 1, 0, 0, 0, 0, 0, 0],
            used: 0b11,
        };
        // a4 charged nothing stayed on the a-file with one capture to spare (out and back takes
        // two); c3 came from the b-file, charged one.
        assert_eq!(never_left(&items, &asg, &[0, 1], 1), 0b1);
        assert_eq!(never_left(&items, &asg, &[0, 1], 2), 0);
        // A promoted pawn charged nothing may have spent a capture to promote beside its file.
        let promoted = Item {
            place: Place::Promoted {
                units: Bitboard::from_square(shakmaty::Square::D1),
                squares: Bitboard::from_rank(Rank::Eighth),
            },
            costs: [Cost { base: 0, leave: 1 }; 8],
        };
        let one = Assignment {
            files: [0; 8],
            used: 1,
        };
        assert_eq!(never_left(&[promoted], &one, &[0], 0), 0b1);
        assert_eq!(never_left(&[promoted], &one, &[0], 1), 0);
    }

    #[test]
    fn a_dead_pawn_needs_a_slot_on_its_files() {
        let dead = [(1 << 4, 1 << 4)];
        assert!(!matches(&dead, &[0b110, 0b1100_0000]));
        assert!(matches(&dead, &[0b110, 0b1_1000]));
        // Two dead pawns on one file need two captures there.
        let two = [(1 << 4, 1 << 4), (1 << 3, 1 << 4)];
        assert!(!matches(&two, &[1 << 4, 0b11]));
        assert!(matches(&two, &[1 << 4, 1 << 4]));
    }
}
