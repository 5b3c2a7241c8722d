//! The published proof games of positions/corpora/published-problems.jsonl and a budgeted search
//! for them; shared by the proof-game test and the proof-game benchmark.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc,
    },
    time::Duration,
};

use retrace_search::{game_score, proof_games, LegalPruner, ProofGameParams, ProofGames};
use retrace_unmove::{Retraction, RetroPosition};
use serde_json::Value;
use shakmaty::{Chess, Position};

/// One published proof game.
pub struct Published {
    pub id: String,
    pub pos: RetroPosition,
    pub plies: u32,
    /// The source says the game is unique.
    pub unique: bool,
    /// The source says no shorter game reaches the position ("shortest proof game").
    #[allow(dead_code)]
    pub shortest: bool,
    /// The published game, its moves in SAN without check marks.
    pub game: Vec<String>,
}

/// The proof games of the corpus, in file order.
pub fn load() -> Vec<Published> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/published-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the corpus is in positions/corpora");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .filter(|p| p["stipulation"] == "proof_game")
        .map(|p| {
            let text = |field: &str| p[field].as_str().unwrap_or_default().to_owned();
            let fen = format!("{} {} - -", text("board"), text("side_to_move"));
            let unique = text("stipulation_text").contains("unique")
                || text("notes").contains("unique solution");
            Published {
                id: text("id"),
                pos: RetroPosition::from_fen(&fen).expect("a proof-game position sets up"),
                plies: p["n"].as_u64().expect("n") as u32,
                unique,
                shortest: text("stipulation_text").starts_with("Shortest"),
                game: moves_of(&text("answer")),
            }
        })
        .collect()
}

/// The moves of a game score (`1. e4 e5 2.Qh5`), without numbers and check or mate marks.
pub fn moves_of(score: &str) -> Vec<String> {
    score
        .split_whitespace()
        .map(|w| w.rsplit('.').next().unwrap_or(w))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches(['+', '#']).to_owned())
        .collect()
}

/// The games of `plies` plies that reach `pos`, within `max_nodes` nodes and `timeout`.
#[allow(dead_code)]
pub fn search(
    pos: &RetroPosition,
    plies: u32,
    max_solutions: Option<usize>,
    max_nodes: Option<u64>,
    timeout: Option<Duration>,
) -> ProofGames {
    let cancel = Arc::new(AtomicBool::new(false));
    let (done, finished) = mpsc::channel::<()>();
    let watchdog = timeout.map(|timeout| {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            if finished.recv_timeout(timeout) == Err(mpsc::RecvTimeoutError::Timeout) {
                cancel.store(true, Ordering::Relaxed);
            }
        })
    });
    let params = ProofGameParams {
        plies,
        max_solutions,
        max_nodes,
        cancel: Some(cancel),
        ..ProofGameParams::default()
    };
    let found = proof_games(pos, params, &LegalPruner::new());
    drop(done);
    if let Some(watchdog) = watchdog {
        let _ = watchdog.join();
    }
    found
}

/// Whether `line` (last move first) is `game`, move for move.
#[allow(dead_code)]
pub fn is_game(pos: &RetroPosition, line: &[Retraction], game: &[String]) -> bool {
    game_score(pos, line).is_ok_and(|score| moves_of(&score) == game)
}

/// Plays `line` (last move first) forward from the initial array with shakmaty, and checks that
/// the game is legal and ends in `pos`.
#[allow(dead_code)]
pub fn replays_from_the_initial_array(
    pos: &RetroPosition,
    line: &[Retraction],
) -> Result<(), String> {
    let mut game = Chess::default();
    for r in line.iter().rev() {
        let m = r.forward();
        if !game.is_legal(m) {
            return Err(format!("{r} is not legal in {:?}", game.board()));
        }
        game.play_unchecked(m);
    }
    if game.board() == pos.board() && game.turn() == pos.to_move() {
        Ok(())
    } else {
        Err("the game does not end in the position".to_owned())
    }
}
