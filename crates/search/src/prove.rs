//! [`prove`]: is there a history of N plies at all, and when there is none, how deep each last
//! move survived.

use std::sync::{atomic::AtomicBool, Arc};

use retrace_legal::Reason;
use retrace_unmove::{Retraction, RetroPosition};

use crate::{
    engine::Search, facts::LostRights, GameFacts, Pruner, SolveParams, PROVE_CLOSURE_NODES,
};

/// The outcome of [`prove`]. Only lines that repeat no position (the position itself included)
/// count as histories: a history that repeats a position can be cut short, so depth reached by
/// shuffling proves nothing, and a legal position always has repetition-free histories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A repetition-free history of the requested length, last move first.
    History(Vec<Retraction>),
    /// No repetition-free history is that long: the position is illegal (or needs a longer
    /// look).
    NoHistory {
        /// Each last move tried, with how long its longest repetition-free line lasted.
        tries: Vec<Try>,
        /// The longest repetition-free line found, last move first (empty when every last move
        /// leads to an illegal position, or when the closure answered).
        longest: Vec<Retraction>,
        /// False when the node budget or cancellation cut the search short.
        complete: bool,
        /// The proof that every line of retractions from the position repeats or dies in a
        /// finite set ([`Pruner::closure_reason`]), when that answered before any search.
        closure: Option<Reason>,
    },
}

/// A last move tried by [`prove`] that did not lead to a history of the requested length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Try {
    /// The last move tried.
    pub retraction: Retraction,
    /// The plies of its longest repetition-free line (1 = the move itself and nothing before
    /// it; 0 = the move leads to an illegal position).
    pub survived: u32,
    /// Whether some line one ply longer was cut because it repeated a position: the move's lines
    /// go on only by repeating, where they do not die.
    pub repeats: bool,
    /// Whether the move leads at once to a position the costlier verdict (the cage attempt)
    /// proves illegal, rather than the analysis.
    pub caged: bool,
    /// What cut the move's lines short.
    pub cut: Cut,
}

/// What cut the lines of a last move that [`prove`] tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cut {
    /// The move leads at once to a position the analysis proves illegal.
    Illegal,
    /// The move leads at once to a position in a cage ([`Pruner::deep_reason`]).
    Cage,
    /// The move leads into a closure: every line of retractions from the position it leads to
    /// repeats or dies in a finite set ([`Pruner::closure_reason`]).
    Closure,
    /// The search: every line of the move died or repeated within [`Try::survived`] plies.
    Depth,
    /// The FEN's fields read exactly ([`GameFacts`]): the move is a double step that would have
    /// allowed the en passant capture the field denies, or it leads at once to a position where a
    /// castling right the FEN lost can no longer be explained (its king and rook never moved).
    Fact,
}

impl Cut {
    /// A stable lowercase name (for JSON): `illegal`, `cage`, `closure`, `depth` or `fact`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Cut::Illegal => "illegal",
            Cut::Cage => "cage",
            Cut::Closure => "closure",
            Cut::Depth => "depth",
            Cut::Fact => "fact",
        }
    }
}

/// Looks for a history `max_depth` plies deep, or shows that every history dies earlier.
///
/// ```
/// use retrace_search::{prove, LegalPruner, Proof};
/// use retrace_unmove::RetroPosition;
///
/// // After 1. e4 a history of two plies exists (the pawn's double step, and a move before it).
/// let pos =
///     RetroPosition::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1").unwrap();
/// assert!(matches!(prove(&pos, 2, &LegalPruner::new(), None), Proof::History(_)));
/// ```
pub fn prove<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
) -> Proof {
    prove_within(pos, max_depth, pruner, cancel, None)
}

/// As [`prove`], giving up (with an incomplete answer) after visiting `max_nodes` nodes.
pub fn prove_within<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
) -> Proof {
    prove_counted(pos, max_depth, pruner, cancel, max_nodes).0
}

/// As [`prove_within`], with the nodes the search visited (so that callers asking several
/// questions can share one node budget between them).
pub fn prove_counted<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    cancel: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
) -> (Proof, u64) {
    prove_with_facts(
        pos,
        max_depth,
        pruner,
        GameFacts::default(),
        cancel,
        max_nodes,
    )
}

/// As [`prove_counted`], with the FEN's castling and en passant fields read as `facts` says
/// (`check --exact-fen --prove`): a castling right the FEN lacks while its king and rook stand at
/// home was lost, so no line may reach a position where both never moved (a line may still end
/// before it explains the loss: the king or rook may have moved earlier); `-` for en passant rules
/// out the double steps that would have allowed an en passant capture as the last move. Each move
/// ruled out is a [`Try`] with [`Cut::Fact`]. The clocks of `facts` are not read here.
pub fn prove_with_facts<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    facts: GameFacts,
    cancel: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
) -> (Proof, u64) {
    let facts = GameFacts {
        exact_castling: facts.exact_castling,
        exact_en_passant: facts.exact_en_passant,
        ..GameFacts::default()
    };
    let params = SolveParams {
        depth: 0,
        extra: 0,
        cancel,
        max_nodes,
        facts,
        ..SolveParams::default()
    };
    let mut search = Search::new(pruner, params);
    let proof = prove_in(pos, max_depth, &mut search);
    (proof, search.nodes())
}

/// As [`prove_within`], with the nodes visited; `repetition_free: false` counts every line as a
/// history, as the search did before issue 17 (unsound as evidence: for benchmarks and
/// comparisons only, behind the `bench` feature).
#[cfg(feature = "bench")]
pub fn prove_measured<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    pruner: &P,
    max_nodes: Option<u64>,
    repetition_free: bool,
) -> (Proof, u64) {
    let params = SolveParams {
        depth: 0,
        extra: 0,
        max_nodes,
        ..SolveParams::default()
    };
    let mut search = Search::new(pruner, params);
    if !repetition_free {
        search.count_every_line();
    }
    let proof = prove_in(pos, max_depth, &mut search);
    (proof, search.nodes())
}

/// [`prove_within`] with a search set up.
fn prove_in<P: Pruner>(
    pos: &RetroPosition,
    max_depth: u32,
    search: &mut Search<'_, '_, P>,
) -> Proof {
    let pruner = search.pruner();
    let lost = search.root_lost(pos);
    let illegal = pruner.is_illegal(pos) || lost.stranded(pos);
    if max_depth == 0 || illegal {
        return if max_depth == 0 && !illegal {
            Proof::History(Vec::new())
        } else {
            Proof::NoHistory {
                tries: Vec::new(),
                longest: Vec::new(),
                complete: true,
                closure: None,
            }
        };
    }
    // A closed position has long lines that only go round: no search can tell them from a
    // history, the closure can.
    if let Some(reason) = pruner.closure_reason(pos, search.nodes_left(), search.cancel_flag()) {
        let tries = pos
            .retractions()
            .into_iter()
            .map(|r| {
                let illegal = pruner.is_illegal(&pos.retract(r));
                Try {
                    retraction: r,
                    survived: 0,
                    repeats: false,
                    caged: false,
                    // The position it leads to is a node of the closure, proven with it.
                    cut: if illegal { Cut::Illegal } else { Cut::Closure },
                }
            })
            .collect();
        return Proof::NoHistory {
            tries,
            longest: Vec::new(),
            complete: true,
            closure: Some(reason),
        };
    }
    // The root's facts about units travel down every line (the closure above was asked of the
    // position as given, so that it finds `check`'s verdict in the store's cache).
    let mut root = pos.clone();
    pruner.mark_facts(&mut root);
    let pos = &root;
    // The position itself is the root of every line: no line may come back to it.
    search.enter(pos, lost, 1);
    let mut tries = Vec::new();
    let mut best: Option<(Retraction, RetroPosition, LostRights, u32)> = None;
    for r in pos.retractions() {
        let child = pos.retract(r);
        let after = lost.after(pos, r);
        if !search.allowed(pos, r, 1) || after.stranded(&child) {
            tries.push(Try {
                retraction: r,
                survived: 0,
                repeats: false,
                caged: false,
                cut: Cut::Fact,
            });
            continue;
        }
        let illegal = pruner.is_illegal(&child);
        if illegal || pruner.deep_reason(&child).is_some() {
            tries.push(Try {
                retraction: r,
                survived: 0,
                repeats: false,
                caged: !illegal,
                cut: if illegal { Cut::Illegal } else { Cut::Cage },
            });
            continue;
        }
        // The longest survival of this move, found by deepening until the line dies.
        let mut survived = 1;
        let mut repeats = false;
        while survived < max_depth {
            search.clear_repeats();
            let deeper = search.has_checked_history(&child, survived, 2, after);
            repeats = search.repeated();
            if !deeper {
                break;
            }
            survived += 1;
        }
        if survived == max_depth && search.has_checked_history(&child, max_depth - 1, 2, after) {
            // The line is repetition-free, but a closed position's lines go round without
            // repeating for as long as the closure is large: only a move out of every closure
            // is evidence.
            let quarter = PROVE_CLOSURE_NODES / 4;
            let left = search.nodes_left().map_or(quarter, |l| l.min(quarter));
            if pruner
                .closure_reason(&child, Some(left), search.cancel_flag())
                .is_some()
            {
                tries.push(Try {
                    retraction: r,
                    survived: 0,
                    repeats,
                    caged: false,
                    cut: Cut::Closure,
                });
                continue;
            }
            let mut line = vec![r];
            line.extend(search.witness(&child, max_depth - 1, 2, after));
            return Proof::History(line);
        }
        tries.push(Try {
            retraction: r,
            survived,
            repeats,
            caged: false,
            cut: Cut::Depth,
        });
        if best.as_ref().is_none_or(|b| b.3 < survived) {
            best = Some((r, child, after, survived));
        }
        if search.stopped() {
            break;
        }
    }
    let longest = best
        .map(|(r, child, after, survived)| {
            let mut line = vec![r];
            line.extend(search.witness(&child, survived - 1, 2, after));
            line
        })
        .unwrap_or_default();
    Proof::NoHistory {
        tries,
        longest,
        complete: !search.stopped(),
        closure: None,
    }
}
