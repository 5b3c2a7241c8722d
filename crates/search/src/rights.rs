//! Castling and en passant rights, and partial retro analysis (PRA): which rights may a position
//! still have, and which only some of them at a time?
//!
//! A castling right is a set of units that never moved (the king and the rook); an en passant
//! right says the last move was a pawn's double step. Asking for a set of rights at once freezes
//! all their units in one position, so the question "may these rights all be kept?" is the
//! question "is the position with all those units frozen legal?", which the static analysis and
//! the search for a history ([`crate::prove`]) already answer: every composer's argument (a unit
//! that must have passed through a frozen unit's home, a last move forced by a frozen king and
//! rook, the tempo the side with the right cannot spare, the captures a frozen rook cannot have
//! made) is a contradiction of that frozen position, found either by a rule of the analysis or by
//! the retractions running out.
//!
//! The answers follow the Codex conventions:
//! - castling is allowed unless it is proven impossible: a right is [`RightVerdict::Impossible`]
//!   only with a proof, and [`RightVerdict::Possible`] means "not proven impossible";
//! - an en passant capture is allowed only if the double step is proven to have been the last
//!   move: [`EpVerdict::Proven`] when every other last move leads to a position proven illegal
//!   (and the double step itself does not).
//!
//! The composers' arguments, as they show in [`Why::code`] (each has a trigger, its colour swap and
//! a near miss in `positions/rights.toml`, tested by `crates/search/tests/rights.rs`):
//! - *the last move forced by a frozen king and rook*: with the right's units frozen, the side
//!   that moved last has no unit left that can have made the move (`no_retraction`), or every
//!   last move it has leads to a position proven illegal (`predecessors_illegal`), or every line of
//!   retractions dies (`no_history`). Loyd 1859 (`r3k3/p1p5/Q3K3/8/8/8/8/8 w`): Black moved last;
//!   the pawns a7 and c7 stand on their home squares, so never moved; so the king or the a8-rook
//!   moved last, and Black's O-O-O is impossible. The near miss moves the c-pawn to c6: c7-c6 may
//!   have been the last move. Dawson 1913 takes one ply more: with White's king and rook frozen,
//!   White's last move was made by a unit Black then captured, and no black unit can have made
//!   that capture.
//! - *partial retro analysis*: the same argument with the units of two rights frozen at once, when
//!   either alone leaves the side a unit to have moved last. With only its king, its two rooks and
//!   pawns at home, the side that moved last moved the king or a rook: it keeps at most one of
//!   O-O and O-O-O (`r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w`: `kq` exclusive; the near miss adds
//!   a knight on b8, which may have moved last).
//! - *the e.p. capture proven by the last move* (`no_last_move`): every last move but the double
//!   step leads to a position proven illegal. Amelung 1897 (`7R/7p/5P1k/4PKpP/8/8/8/8 w`): the
//!   black king cannot have come from g7, where the pawn on f6 checked it with no white move to
//!   have given that check, nor from g6 or h5; h7 and g5 are the only other black units, and
//!   g6-g5 would have left the white king in check from g6; so the last move was g7-g5. The near
//!   miss takes the f6 pawn away: Kg7-h6 may have been the last move.
//! - *a promotion the frozen king could not have answered* (`promotion_checked_frozen_king`, in
//!   `retrace-legal`): a rook or queen on the board that can only have been promoted beside the
//!   king a right freezes checked it there with no answer, so with the right the promotion had
//!   nowhere to happen (Kryštufek 1986, once the a4-rook is known to be promoted; the trigger,
//!   its colour swap and near misses are in the rule's own documentation).
//! - *captures the frozen units leave no room for* (`capture_unmatched`, in `retrace-legal`):
//!   with both sides' rights, the units a frozen king and rook shut in their corner died there,
//!   taken by pieces, so the other side's pawn captures must have taken the rest, and a promotion
//!   that had to pass a square a frozen king guards came too late to be one of them (Hazebrouck
//!   1968: White's O-O and Black's O-O exclude each other; its colour swap and the near misses
//!   with one right each are in `positions/illegal.toml` and `positions/legal.toml`).
//! - *tempo* (`tempo`, in `retrace-legal`): with the rights' units frozen, a side whose other
//!   pieces never moved or were shut in by pawns' single steps moved only pawns after the last of
//!   those steps, too few moves for what the other side's units needed through the gate that step
//!   opened (`r1bqkb1r/ppppp1pp/5p2/8/3BB3/1P4P1/P1PPPP1P/n3K2n b`: `kq` exclusive; the near
//!   miss with the f-pawn on f5 keeps both, by a game in `crates/search/tests/rights.rs`). Deeper
//!   tempo, where the frozen side's pieces are taken in the window, is found by the closure's
//!   tempo search (`closure`, Sherlock's L51).
//! - *gates that closed* (`ledger_gate`, in `retrace-legal`): in each account of both sides'
//!   pawns, a pawn on its third rank on its own file came in one step, so the gate between the two
//!   squares never opened; the originals such steps pen in (a rook behind a6, c6 and d6) force
//!   promotions, and a promoted pawn's captures each took a unit that can have stood there
//!   (Kryštufek 1986, Black's O-O given Ke8 and Rh1: the white h-pawn promoted on f8 by g7xf8,
//!   and Black's captured units leave only a knight for the dark squares of its camp).
//! - *captures a frozen rook cannot have made* and the deeper tempo arguments are found as far as
//!   the static rules (the parity rule, the capture accounting and matching, the rule on
//!   promotions past a frozen king or rook, the ledger) and the search reach with the units
//!   frozen; the deeper forms are not found yet (Troitzky 1913 in `positions/rights.toml` is
//!   marked `unproven`; as transcribed, played games in `crates/search/tests/rights.rs` keep
//!   White's O-O in Kryštufek 1986 and end with b6-b5 in Troitzky 1913, so those parts of the
//!   composers' answers must never be given there).
//!
//! With several castling rights, [`rights`] also lists every set of them that may be kept together
//! (each with the en passant capture proven given that set: with more units frozen, fewer last
//! moves remain), and every set that is impossible only jointly (each of its proper subsets is
//! possible): partial retro analysis, where "if White may castle O-O-O, Black's king has moved".

use std::{
    cell::Cell,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
};

use retrace_cage::CageStore;
use retrace_legal::Reason;
use retrace_unmove::{castling_squares, RetroPosition};
use shakmaty::{Bitboard, CastlingSide, Color, Rank, Role, Square};

use crate::{prove_counted, LegalPruner, Proof};

/// One castling right: a colour and a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRight {
    /// The side that may castle.
    pub color: Color,
    /// Which castling.
    pub side: CastlingSide,
}

impl CastlingRight {
    /// The four rights in FEN order: `K`, `Q`, `k`, `q`.
    pub const ALL: [CastlingRight; 4] = [
        CastlingRight::new(Color::White, CastlingSide::KingSide),
        CastlingRight::new(Color::White, CastlingSide::QueenSide),
        CastlingRight::new(Color::Black, CastlingSide::KingSide),
        CastlingRight::new(Color::Black, CastlingSide::QueenSide),
    ];

    /// The right of `color` to castle on `side`.
    #[must_use]
    pub const fn new(color: Color, side: CastlingSide) -> CastlingRight {
        CastlingRight { color, side }
    }

    /// The FEN letter: `K`, `Q`, `k` or `q`.
    #[must_use]
    pub fn letter(self) -> char {
        let c = match self.side {
            CastlingSide::KingSide => 'k',
            CastlingSide::QueenSide => 'q',
        };
        if self.color.is_white() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// The squares of the king and the rook the right freezes.
    #[must_use]
    pub fn squares(self) -> Bitboard {
        let (king, rook) = castling_squares(self.color, self.side);
        Bitboard::from_square(king).with(rook)
    }

    /// Whether the right is geometrically present on `pos`: its king and rook stand at home.
    #[must_use]
    pub fn is_present(self, pos: &RetroPosition) -> bool {
        let (king, rook) = castling_squares(self.color, self.side);
        let board = pos.board();
        board.piece_at(king) == Some(self.color.king())
            && board.piece_at(rook) == Some(self.color.rook())
    }
}

/// A set of castling rights, as a bit per right of [`CastlingRight::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RightSet(u8);

impl RightSet {
    /// No right.
    pub const EMPTY: RightSet = RightSet(0);

    /// The set with `right` added.
    #[must_use]
    pub fn with(self, right: CastlingRight) -> RightSet {
        RightSet(self.0 | Self::bit(right))
    }

    /// Whether `right` is in the set.
    #[must_use]
    pub fn contains(self, right: CastlingRight) -> bool {
        self.0 & Self::bit(right) != 0
    }

    /// Whether every right of `self` is in `other`.
    #[must_use]
    pub fn is_subset(self, other: RightSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The number of rights.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights, in FEN order.
    pub fn iter(self) -> impl Iterator<Item = CastlingRight> {
        CastlingRight::ALL
            .into_iter()
            .filter(move |&r| self.contains(r))
    }

    /// The FEN castling field: the letters in FEN order, or `-`.
    #[must_use]
    pub fn fen(self) -> String {
        if self.is_empty() {
            "-".to_owned()
        } else {
            self.iter().map(CastlingRight::letter).collect()
        }
    }

    /// The units the rights freeze.
    #[must_use]
    pub fn squares(self) -> Bitboard {
        self.iter()
            .fold(Bitboard::EMPTY, |acc, r| acc | r.squares())
    }

    fn bit(right: CastlingRight) -> u8 {
        let i = CastlingRight::ALL
            .iter()
            .position(|&r| r == right)
            .unwrap_or(0);
        1 << i
    }
}

/// Why a set of rights (or a position with them) cannot occur.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// A stable code: a [`retrace_legal::ReasonCode`] name, `no_history` (every line of
    /// retractions died or repeated within the plies searched) or `no_last_move` (with the
    /// rights' units frozen, every last move but the double step is impossible; for an en
    /// passant proof).
    pub code: &'static str,
    /// The argument in words.
    pub message: String,
}

impl Why {
    fn from_reason(reason: &Reason, units: &str) -> Why {
        Why {
            code: reason.code.as_str(),
            message: format!("with {units}: {}", reason.message),
        }
    }
}

/// The verdict on one castling right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RightVerdict {
    /// Not proven impossible: under the convention, the right is kept.
    Possible,
    /// Proven impossible: the king or the rook has moved.
    Impossible(Why),
}

/// The verdict on one en passant capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpVerdict {
    /// The double step was the last move: every other last move is impossible.
    Proven(Why),
    /// Some other last move is not proven impossible (or the double step itself is).
    NotProven,
}

/// A set of castling rights that may be kept together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PossibleSet {
    /// The rights kept (exactly these; the others are lost).
    pub castling: RightSet,
    /// The en passant capture proven given these rights, if one is.
    pub en_passant: Option<Square>,
    /// Why the set stands: what was found, and the en passant proof.
    pub why: String,
}

/// A combination of rights that is impossible although each of its proper parts is possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    /// The castling rights of the combination.
    pub castling: RightSet,
    /// The en passant capture of the combination, if it is part of it.
    pub en_passant: Option<Square>,
    /// The proof that they cannot all hold.
    pub reason: Why,
}

/// The answer of [`rights`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rights {
    /// Each castling right geometrically present, in FEN order, with its verdict.
    pub castling: Vec<(CastlingRight, RightVerdict)>,
    /// Each en passant capture geometrically present (the square the capturing pawn goes to),
    /// with its verdict given no castling right (so true whatever rights are kept).
    pub en_passant: Vec<(Square, EpVerdict)>,
    /// Every set of the present castling rights that is not proven impossible, smallest first.
    pub sets: Vec<PossibleSet>,
    /// Every combination proven impossible whose proper parts are each possible: pairs and
    /// larger sets of castling rights, and a castling set with an en passant capture.
    pub exclusive: Vec<Exclusion>,
    /// False when some search was cut short by its node budget or the cancel flag (a verdict
    /// "possible" or "not proven" might then be proven with more time).
    pub complete: bool,
}

/// How hard [`rights`] looks.
#[derive(Clone, Debug)]
pub struct RightsParams {
    /// Plies of history the search looks for before it calls a set possible (the deeper, the
    /// more tempo arguments it finds).
    pub depth: u32,
    /// Nodes each search may visit.
    pub max_nodes: u64,
    /// Nodes all the searches of one question may visit together (a position with four rights
    /// and en passant captures asks up to a few hundred questions); once spent, what is left is
    /// answered "possible" or "not proven" and the answer is incomplete.
    pub total_nodes: u64,
    /// Stops the searches soon after it is set.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RightsParams {
    fn default() -> Self {
        RightsParams {
            depth: 6,
            max_nodes: 200_000,
            total_nodes: 4_000_000,
            cancel: None,
        }
    }
}

/// The castling rights and en passant captures of `pos`'s board and side to move, each judged,
/// with the sets of rights that may be kept together (see the [module](self) documentation).
///
/// `pos`'s own castling rights and en passant square are ignored (they are what is asked); its
/// other marks (units the user says never moved, promoted units) are kept as facts.
///
/// ```
/// use retrace_search::rights::{rights, RightVerdict, RightsParams};
/// use retrace_unmove::RetroPosition;
///
/// // Black's pawns a7 and c7 never moved, so Black's last move was by the king or the rook.
/// let pos = RetroPosition::from_fen("r3k3/p1p5/Q3K3/8/8/8/8/8 w - -").unwrap();
/// let answer = rights(&pos, &RightsParams::default(), None);
/// assert!(matches!(answer.castling[0].1, RightVerdict::Impossible(_)));
/// ```
#[must_use]
pub fn rights(pos: &RetroPosition, params: &RightsParams, cages: Option<&CageStore>) -> Rights {
    let judge = Judge {
        base: pos,
        params,
        pruner: match cages {
            Some(store) => LegalPruner::with_cages(store),
            None => LegalPruner::new(),
        },
        cages,
        spent: Cell::new(0),
    };
    let mut complete = true;
    let present: Vec<CastlingRight> = CastlingRight::ALL
        .into_iter()
        .filter(|r| r.is_present(pos))
        .collect();
    let eps = ep_candidates(pos);
    // Every subset of the present rights, smallest first, so a set with an impossible part is
    // known to be impossible before it is asked.
    let mut subsets: Vec<RightSet> = (0u32..1 << present.len())
        .map(|mask| {
            present
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .fold(RightSet::EMPTY, |s, (_, &r)| s.with(r))
        })
        .collect();
    subsets.sort_by_key(|s| (s.len(), *s));
    let mut impossible: Vec<RightSet> = Vec::new();
    let mut sets = Vec::new();
    let mut exclusive = Vec::new();
    let mut castling = Vec::new();
    let mut en_passant = Vec::new();
    for set in subsets {
        if impossible.iter().any(|s| s.is_subset(set)) {
            continue;
        }
        let verdict = judge.set(set, None);
        complete &= verdict.complete;
        if let Some(why) = verdict.impossible {
            if set.len() == 1 {
                castling.extend(
                    set.iter()
                        .map(|r| (r, RightVerdict::Impossible(why.clone()))),
                );
            } else if !set.is_empty() {
                exclusive.push(Exclusion {
                    castling: set,
                    en_passant: None,
                    reason: why,
                });
            }
            impossible.push(set);
            continue;
        }
        if set.len() == 1 {
            castling.extend(set.iter().map(|r| (r, RightVerdict::Possible)));
        }
        let mut why = verdict.found;
        let mut proven = None;
        for &ep in &eps {
            let (ep_verdict, ep_complete, joint) = judge.en_passant(set, ep);
            complete &= ep_complete;
            if let Some(reason) = joint {
                // Possible without the rights (the empty set is asked first), impossible with.
                if !set.is_empty() && en_passant.iter().any(|(s, _)| *s == ep) {
                    exclusive.push(Exclusion {
                        castling: set,
                        en_passant: Some(ep),
                        reason,
                    });
                }
            }
            if let EpVerdict::Proven(proof) = &ep_verdict {
                why = format!("{why}; {}", proof.message);
                proven = Some(ep);
            }
            if set.is_empty() {
                en_passant.push((ep, ep_verdict));
            }
        }
        sets.push(PossibleSet {
            castling: set,
            en_passant: proven,
            why,
        });
    }
    castling.sort_by_key(|(r, _)| RightSet::EMPTY.with(*r).0);
    Rights {
        castling,
        en_passant,
        sets,
        exclusive,
        complete,
    }
}

/// The verdict on one combination of rights.
struct SetVerdict {
    /// The proof that the combination cannot occur, if one was found.
    impossible: Option<Why>,
    /// What was found otherwise, in words.
    found: String,
    /// Whether no search was cut short.
    complete: bool,
}

/// The questions [`rights`] asks, with what they share.
struct Judge<'a, 'c> {
    base: &'a RetroPosition,
    params: &'a RightsParams,
    pruner: LegalPruner<'c>,
    cages: Option<&'c CageStore>,
    /// Nodes the searches visited so far.
    spent: Cell<u64>,
}

impl Judge<'_, '_> {
    /// The base position with the units of `set` frozen and, with `ep`, the double step past
    /// `ep` forced as the last move; `None` when the base forbids it (a user's mark on the pawn).
    fn position(&self, set: RightSet, ep: Option<Square>) -> Option<RetroPosition> {
        let base = self.base;
        let fen = format!(
            "{} {} {} {}",
            base.board().board_fen(),
            base.to_move().char(),
            set.fen(),
            ep.map_or_else(|| "-".to_owned(), |s| s.to_string()),
        );
        let mut pos = RetroPosition::from_fen(&fen).ok()?;
        for square in base.frozen() {
            pos.mark_frozen(square).ok()?;
        }
        for square in base.promoted() {
            pos.mark_promoted(square).ok()?;
        }
        for color in Color::ALL {
            pos.set_uncaptures_allowed(color, base.uncaptures_allowed(color));
        }
        Some(pos)
    }

    /// Whether the position with `set` (and `ep`) can occur.
    fn set(&self, set: RightSet, ep: Option<Square>) -> SetVerdict {
        let units = describe(set, ep);
        let Some(pos) = self.position(set, ep) else {
            return SetVerdict {
                impossible: Some(Why {
                    code: "no_double_step",
                    message: "the pawn is marked as never having moved".to_owned(),
                }),
                found: String::new(),
                complete: true,
            };
        };
        self.judge(&pos, &units, self.params.depth)
    }

    /// The static analysis, then the search for a history `depth` plies deep, of `pos`.
    fn judge(&self, pos: &RetroPosition, units: &str, depth: u32) -> SetVerdict {
        let analysis = match self.cages {
            Some(store) => retrace_cage::analyze_thoroughly(pos, store),
            None => retrace_legal::analyze(pos),
        };
        if let Some(reason) = analysis.reasons.first() {
            return SetVerdict {
                impossible: Some(Why::from_reason(reason, units)),
                found: String::new(),
                complete: true,
            };
        }
        let left = self.params.total_nodes.saturating_sub(self.spent.get());
        let cancelled = self
            .params
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        if left == 0 || cancelled {
            return SetVerdict {
                impossible: None,
                found: "not searched: the node budget is spent".to_owned(),
                complete: false,
            };
        }
        let (proof, nodes) = prove_counted(
            pos,
            depth,
            &self.pruner,
            self.params.cancel.clone(),
            Some(self.params.max_nodes.min(left)),
        );
        self.spent.set(self.spent.get() + nodes);
        match proof {
            Proof::History(line) => SetVerdict {
                impossible: None,
                found: format!(
                    "a history of {} plies found ({})",
                    line.len(),
                    crate::line_notation(pos, &line).join(" ")
                ),
                complete: true,
            },
            Proof::NoHistory {
                complete: true,
                closure,
                ..
            } => SetVerdict {
                impossible: Some(match closure {
                    Some(reason) => Why::from_reason(&reason, units),
                    None => Why {
                        code: "no_history",
                        message: format!(
                            "with {units}, every line of retractions dies within {depth} \
                             plies"
                        ),
                    },
                }),
                found: String::new(),
                complete: true,
            },
            Proof::NoHistory { tries, .. } => SetVerdict {
                impossible: None,
                found: format!(
                    "no contradiction found (search cut short after {} last moves)",
                    tries.len()
                ),
                complete: false,
            },
        }
    }

    /// Whether, given `set`, the double step past `ep` is proven to have been the last move; with
    /// the completeness of the searches, and the proof that the double step itself is impossible
    /// given `set`, if found.
    fn en_passant(&self, set: RightSet, ep: Square) -> (EpVerdict, bool, Option<Why>) {
        let joint = self.set(set, Some(ep));
        if let Some(why) = joint.impossible {
            return (EpVerdict::NotProven, joint.complete, Some(why));
        }
        let mut complete = joint.complete;
        let Some(pos) = self.position(set, None) else {
            return (EpVerdict::NotProven, complete, None);
        };
        let pawn = ep_pawn(pos.retracting(), ep);
        let units = describe(set, None);
        let mut refuted = Vec::new();
        for r in pos.retractions() {
            let double_step = matches!(
                r.forward(),
                shakmaty::Move::Normal { role: Role::Pawn, from, to, .. }
                    if to == pawn && from.rank().distance(to.rank()) == 2
            );
            if double_step {
                continue;
            }
            let child = pos.retract(r);
            let text = pos.notation(r);
            let verdict = self.judge(&child, &units, self.params.depth.saturating_sub(1).max(1));
            complete &= verdict.complete;
            match verdict.impossible {
                Some(why) => refuted.push(format!("{text}: {}", why.code)),
                None => return (EpVerdict::NotProven, complete, None),
            }
        }
        let message = if refuted.is_empty() {
            format!("e.p. {ep} proven: the double step is the only last move")
        } else {
            format!(
                "e.p. {ep} proven: every other last move is impossible ({})",
                refuted.join(", ")
            )
        };
        (
            EpVerdict::Proven(Why {
                code: "no_last_move",
                message,
            }),
            complete,
            None,
        )
    }
}

/// The square of the pawn that made the double step past `ep`, for the side `mover`.
fn ep_pawn(mover: Color, ep: Square) -> Square {
    let rank = if mover.is_white() {
        Rank::Fourth
    } else {
        Rank::Fifth
    };
    Square::from_coords(ep.file(), rank)
}

/// The en passant captures geometrically present: for each pawn of the retracting side on its
/// fourth rank with the two squares behind it empty and a pawn of the side to move beside it, the
/// square the capture goes to.
fn ep_candidates(pos: &RetroPosition) -> Vec<Square> {
    let mover = pos.retracting();
    let board = pos.board();
    let fourth = if mover.is_white() {
        Rank::Fourth
    } else {
        Rank::Fifth
    };
    let (passed, start) = if mover.is_white() {
        (Rank::Third, Rank::Second)
    } else {
        (Rank::Sixth, Rank::Seventh)
    };
    let mut out = Vec::new();
    for pawn in board.by_piece(mover.pawn()) & Bitboard::from_rank(fourth) {
        let ep = Square::from_coords(pawn.file(), passed);
        let home = Square::from_coords(pawn.file(), start);
        if board.occupied().contains(ep) || board.occupied().contains(home) {
            continue;
        }
        let beside = [pawn.file().offset(-1), pawn.file().offset(1)]
            .into_iter()
            .flatten()
            .map(|f| Square::from_coords(f, fourth));
        if beside
            .into_iter()
            .any(|s| board.piece_at(s) == Some(mover.other().pawn()))
        {
            out.push(ep);
        }
    }
    out
}

/// The assumption of a combination in words ("K and k kept (e1, h1, e8, h8 never moved)").
fn describe(set: RightSet, ep: Option<Square>) -> String {
    let mut parts = Vec::new();
    if !set.is_empty() {
        let squares: Vec<String> = set.squares().into_iter().map(|s| s.to_string()).collect();
        parts.push(format!(
            "{} kept ({} never moved)",
            set.fen(),
            squares.join(", ")
        ));
    }
    if let Some(ep) = ep {
        parts.push(format!("the double step past {ep} as the last move"));
    }
    if parts.is_empty() {
        parts.push("no castling right".to_owned());
    }
    parts.join(" and ")
}
