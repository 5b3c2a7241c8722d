//! `solve` looks a few plies past the extra depth from the position each candidate reaches
//! (issue 25): a wrong last move whose lines all die just beyond the extra plies (a
//! retro-stalemate) falls with a `no_history` reason, and the answer stays.

use retrace_legal::ReasonCode;
use retrace_search::{solve, LegalPruner, Solutions, SolveParams, SEARCH_CAGE_LIMITS};
use retrace_unmove::RetroPosition;

/// The last moves of `solve` on `fen` (the other side's last move retracted), with the pruner the
/// command line uses.
fn solved(fen: &str) -> Solutions {
    let pos = RetroPosition::from_fen(fen).expect("a legal FEN");
    let pruner = LegalPruner::new().with_cage_finding(Some(SEARCH_CAGE_LIMITS));
    solve(&pos, SolveParams::default(), &pruner)
}

/// The first retraction of each line, in the notation of the lines.
fn last_moves(s: &Solutions) -> Vec<String> {
    s.lines.iter().map(|l| l[0].to_string()).collect()
}

/// The reason the candidate `last` fell, if it did.
fn refuted(s: &Solutions, last: &str) -> Option<ReasonCode> {
    s.refuted
        .iter()
        .find(|r| r.line[0].to_string() == last)
        .map(|r| r.reason.code)
}

/// r2-D-087 (Keym), White's last move. With Bg7-h6 taken back, White's bishop stands on g7
/// beside its king on h8, and every line of retractions from there dies within six plies (the
/// knight on h6 ends taking back a capture on g8 with check): past the three extra plies, but
/// within four more. The answer Bg7xPh6 keeps a history. The colour swap (the board turned
/// upside down, Black's last move) falls alike.
#[test]
fn a_candidate_whose_lines_die_just_past_the_extra_plies_falls() {
    let fen = "5bnK/3ppp2/5PqB/5pBr/5PbR/4PrQb/2PPRQ2/4bB1k b - - 0 1";
    let found = solved(fen);
    let lasts = last_moves(&found);
    assert!(lasts.iter().all(|m| m != "Bg7-h6"), "{lasts:?}");
    assert_eq!(refuted(&found, "Bg7-h6"), Some(ReasonCode::NoHistory));
    // The near miss: the published answer, whose position has a history.
    assert_eq!(lasts, ["Bg7xPh6"], "{lasts:?}");

    let board = retrace_testkit::swapped_board("5bnK/3ppp2/5PqB/5pBr/5PbR/4PrQb/2PPRQ2/4bB1k");
    let swapped = solved(&format!("{board} w - - 0 1"));
    let lasts = last_moves(&swapped);
    assert!(lasts.iter().all(|m| m != "Bg2-h3"), "{lasts:?}");
    assert_eq!(refuted(&swapped, "Bg2-h3"), Some(ReasonCode::NoHistory));
    assert_eq!(lasts, ["Bg2xPh3"], "{lasts:?}");
}
