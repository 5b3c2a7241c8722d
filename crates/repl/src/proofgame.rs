//! `proofgame`: the games of exactly N moves from the initial array that reach a position, asked
//! as composers ask it ("proof game in 3.5 moves"), printed forward as game scores.
//!
//! The subcommand and the REPL command share the parsing of the length, the search and the
//! report; only where the position comes from and where the answer goes differ.

use crate::args::KEPT_SOLUTIONS;
use retrace_cage::CageStore;
use retrace_legal::text::color_name;
use retrace_search::{
    proof_games, shortest_proof_games, side_to_move_after, to_pgn_tagged, LegalPruner,
    ProofGameParams, ProofGames, ShortestProofGames,
};
use retrace_unmove::{Retraction, RetroPosition};

/// The longest proof game asked for, in plies: longer ones never finish.
pub const MAX_PLIES: u32 = 128;

/// The longest length a search for the shortest games tries unless told: 30 moves, in plies.
pub const DEFAULT_LONGEST: u32 = 60;

/// A game length as composers write it: `N` moves (2N plies) or `N.5` moves (2N+1 plies, Black to
/// move at the end).
pub fn parse_moves(text: &str) -> Result<u32, String> {
    let text = text.trim();
    let (whole, half) = match text.split_once('.') {
        Some((whole, "5")) => (whole, 1),
        Some(_) => return Err(format!("'{text}' is not a move count: use N or N.5")),
        None => (text, 0),
    };
    whole
        .parse::<u32>()
        .ok()
        .and_then(|n| n.checked_mul(2))
        .map(|p| p + half)
        .filter(|&p| p <= MAX_PLIES)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a move count from 0 to {}: use N or N.5",
                MAX_PLIES / 2
            )
        })
}

/// A game length in plies.
pub fn parse_plies(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&p| p <= MAX_PLIES)
        .ok_or_else(|| format!("plies '{text}' must be a whole number from 0 to {MAX_PLIES}"))
}

/// A length in plies as composers write it: 7 plies is "3.5 moves".
#[must_use]
pub fn moves_text(plies: u32) -> String {
    let moves = if plies.is_multiple_of(2) {
        (plies / 2).to_string()
    } else {
        format!("{}.5", plies / 2)
    };
    format!(
        "{moves} move{} ({plies} pl{})",
        if plies == 2 { "" } else { "s" },
        if plies == 1 { "y" } else { "ies" }
    )
}

/// A full FEN from a board field alone: the side to move follows from the length of the game.
#[must_use]
pub fn complete_fen(fen: &str, plies: u32) -> String {
    if fen.split_ascii_whitespace().count() == 1 {
        let side = match side_to_move_after(plies) {
            shakmaty::Color::White => "w",
            shakmaty::Color::Black => "b",
        };
        format!("{} {side}", fen.trim())
    } else {
        fen.to_owned()
    }
}

/// The FENs a search for the shortest games asks: a board field alone with each side to move, a
/// full FEN as it is.
#[must_use]
pub fn shortest_fens(fen: &str) -> Vec<String> {
    let (even, odd) = (complete_fen(fen, 0), complete_fen(fen, 1));
    if even == odd {
        vec![even]
    } else {
        vec![even, odd]
    }
}

/// Refuses a position whose side to move cannot be to move after `plies` plies.
pub fn check_side(pos: &RetroPosition, plies: u32) -> Result<(), String> {
    let expected = side_to_move_after(plies);
    if pos.to_move() == expected {
        Ok(())
    } else {
        Err(format!(
            "after {} {} is to move, but in this position {} is",
            moves_text(plies),
            color_name(expected),
            color_name(pos.to_move())
        ))
    }
}

/// The options of one proof-game search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Request {
    /// The length of the games; with `shortest`, the longest length tried.
    pub plies: u32,
    /// Whether the shortest games are sought, each length in turn up to `plies`.
    pub shortest: bool,
    pub max: Option<usize>,
    pub max_nodes: Option<u64>,
    /// The position's missing castling rights were lost.
    pub exact_castling: bool,
}

impl Request {
    /// The search parameters of this request, the rest (cancel flag, progress) from `params`.
    fn params<'a>(&self, params: ProofGameParams<'a>) -> ProofGameParams<'a> {
        ProofGameParams {
            plies: self.plies,
            max_solutions: self.max,
            keep: Some(KEPT_SOLUTIONS),
            max_nodes: self.max_nodes,
            exact_castling: self.exact_castling,
            ..params
        }
    }
}

/// Runs the search for `request` on `pos` (whose side to move fits the length).
pub fn search(
    pos: &RetroPosition,
    request: Request,
    cages: &CageStore,
    params: ProofGameParams<'_>,
) -> ProofGames {
    proof_games(pos, request.params(params), &LegalPruner::with_cages(cages))
}

/// Runs the search for the shortest games of `request` (up to `request.plies`) to one of
/// `positions` (one board, with one side to move or each).
pub fn search_shortest(
    positions: &[RetroPosition],
    request: Request,
    cages: &CageStore,
    params: ProofGameParams<'_>,
) -> ShortestProofGames {
    shortest_proof_games(
        positions,
        request.params(params),
        &LegalPruner::with_cages(cages),
    )
}

/// The position of `positions` whose side to move fits a game of `plies` plies (the first when
/// none does, which a search that found no game may leave).
#[must_use]
pub fn fitting(positions: &[RetroPosition], plies: u32) -> Option<&RetroPosition> {
    positions
        .iter()
        .find(|pos| pos.to_move() == side_to_move_after(plies))
        .or(positions.first())
}

/// The games as PGN, one record each, numbered in the Round tag.
pub fn pgn(pos: &RetroPosition, games: &[Vec<Retraction>]) -> Result<String, String> {
    let mut text = String::new();
    for (i, line) in games.iter().enumerate() {
        let record = to_pgn_tagged(pos, line, "Retrace proof game", &(i + 1).to_string())
            .map_err(|e| format!("a game found: {e}"))?;
        text.push_str(&record);
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_counts_read_as_composers_write_them() {
        assert_eq!(parse_moves("3.5"), Ok(7));
        assert_eq!(parse_moves("12"), Ok(24));
        assert_eq!(parse_moves("0.5"), Ok(1));
        for bad in ["3.4", "x", "-1", "3.", "65", "1e3"] {
            assert!(parse_moves(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_plies("7"), Ok(7));
        assert!(parse_plies("999").is_err());
        assert_eq!(moves_text(7), "3.5 moves (7 plies)");
    }
}
