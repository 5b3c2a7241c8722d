//! The FEN's castling and en passant fields read exactly (`check --exact-fen`, the REPL's
//! `check exact-fen`, `prove N exact-fen` and `solve N exact-fen`): a castling right the FEN lacks
//! was lost, and `-` for en passant says no en passant capture was legal. `solve --exact-fen` reads
//! them the same way, through [`crate::args::SolveRequest::facts`].

use retrace_cage::{analyze_thoroughly, CageStore};
use retrace_legal::{Analysis, Reason};
use retrace_search::{fact_reasons, GameFacts, LegalPruner};
use retrace_unmove::{FenFacts, RetroPosition};

/// The facts `--exact-fen` reads from a FEN whose fields are as `read` says: a field written
/// `?` stays unknown. Without `exact`, none.
#[must_use]
pub fn facts(exact: bool, read: &FenFacts) -> GameFacts {
    GameFacts {
        exact_castling: exact && read.castling_known,
        exact_en_passant: exact && read.ep_known,
        ..GameFacts::default()
    }
}

/// The facts the REPL reads from its current position when asked to read it exactly: both
/// fields, as `show` prints them.
#[must_use]
pub fn repl_facts(exact: bool) -> GameFacts {
    facts(
        exact,
        &FenFacts {
            castling_known: true,
            ep_known: true,
            ..FenFacts::default()
        },
    )
}

/// `check`'s analysis (the static rules, the user's cages and the automatic cage attempt), with
/// the reasons the exact fields add ([`reasons`]).
#[must_use]
pub fn analyze(pos: &RetroPosition, cages: &CageStore, facts: GameFacts) -> Analysis {
    let mut analysis = analyze_thoroughly(pos, cages);
    analysis.reasons.extend(reasons(pos, cages, facts));
    analysis
}

/// The reasons the exact fields of `facts` add to the analysis ([`fact_reasons`], judging the
/// last moves with the user's cages); none when neither field is read exactly.
#[must_use]
pub fn reasons(pos: &RetroPosition, cages: &CageStore, facts: GameFacts) -> Vec<Reason> {
    if !(facts.exact_castling || facts.exact_en_passant) {
        return Vec::new();
    }
    fact_reasons(pos, facts, &LegalPruner::with_cages(cages))
}
