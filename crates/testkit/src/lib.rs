//! Test support: random legal games that reach the rules retro play gets wrong most easily.
//!
//! Uniformly random games almost never promote, capture en passant or castle, so the generator of
//! these games weights moves: promotions (underpromotions above all), en passant, castling and
//! captures are much more likely than quiet moves, and pawn pushes more likely than piece moves.
//! Every move is drawn from shakmaty's legal move list, so every position is reachable.

use rand::{rngs::SmallRng, Rng, SeedableRng};
use retrace_unmove::RetroPosition;
use shakmaty::{
    fen::Fen, san::SanPlus, Bitboard, CastlingSide, Chess, Color, EnPassantMode, Move, Position,
    Role, Square,
};

/// A game from the initial position: `positions[i + 1]` is `positions[i]` after `moves[i]`.
#[derive(Clone, Debug)]
pub struct Game {
    pub positions: Vec<Chess>,
    pub moves: Vec<Move>,
}

/// How much more likely a move is than a quiet piece move.
fn weight(pos: &Chess, m: Move) -> u32 {
    match m {
        Move::EnPassant { .. } => 400,
        Move::Castle { .. } => 200,
        Move::Normal {
            promotion: Some(Role::Queen),
            ..
        } => 150,
        Move::Normal {
            promotion: Some(_), ..
        } => 300,
        Move::Normal {
            capture: Some(_),
            role: Role::Pawn,
            ..
        } => 60,
        Move::Normal {
            capture: Some(_), ..
        } => 30,
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } => {
            // Double steps create en passant chances; advanced pawns head for promotion.
            let advanced = pos.turn().relative_rank(to.rank()) as u32;
            if from.rank().distance(to.rank()) == 2 {
                25
            } else {
                6 + 3 * advanced
            }
        }
        _ => 4,
    }
}

/// A random legal game of at most `max_plies` plies, the same for the same `seed`.
#[must_use]
pub fn random_game(seed: u64, max_plies: usize) -> Game {
    random_game_with(seed, max_plies, weight)
}

/// A random legal game of at most `max_plies` plies whose moves are drawn with the weights
/// `weight` gives (for a test that needs other events to be common), the same for the same `seed`.
#[must_use]
pub fn random_game_with(seed: u64, max_plies: usize, weight: impl Fn(&Chess, Move) -> u32) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Chess::default();
    let mut game = Game {
        positions: vec![pos.clone()],
        moves: Vec::new(),
    };
    for _ in 0..max_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let total: u32 = moves.iter().map(|&m| weight(&pos, m)).sum();
        let mut pick = rng.gen_range(0..total);
        let mut chosen = moves[0];
        for &m in &moves {
            let w = weight(&pos, m);
            if pick < w {
                chosen = m;
                break;
            }
            pick -= w;
        }
        pos.play_unchecked(chosen);
        game.moves.push(chosen);
        game.positions.push(pos.clone());
    }
    game
}

/// The game of a published score (`1. e4 e5 2.Qh5`: move numbers glued on or not, check marks
/// allowed) replayed from the initial position; a move that does not parse or play panics with the
/// score's word (a test's own data).
#[must_use]
pub fn replay_score(score: &str) -> Game {
    try_replay_score(score).unwrap_or_else(|word| panic!("{word} does not play in {score}"))
}

/// [`replay_score`], or the first word that does not parse or play.
pub fn try_replay_score(score: &str) -> Result<Game, String> {
    let mut pos = Chess::default();
    let mut game = Game {
        positions: vec![pos.clone()],
        moves: Vec::new(),
    };
    let words = score
        .split_whitespace()
        .map(|w| w.rsplit('.').next().unwrap_or(w))
        .filter(|w| !w.is_empty());
    for word in words {
        let m = SanPlus::from_ascii(word.as_bytes())
            .ok()
            .and_then(|san| san.san.to_move(&pos).ok())
            .ok_or_else(|| word.to_string())?;
        pos.play_unchecked(m);
        game.moves.push(m);
        game.positions.push(pos.clone());
    }
    Ok(game)
}

/// The games of the published proof games of the corpus (`positions/corpora`), with their ids:
/// each answer replayed by shakmaty, kept when it ends on the problem's board (real games of
/// composers, rich in promotions, castling and en passant).
#[must_use]
pub fn published_proof_games() -> Vec<(String, Game)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../positions/corpora/published-problems.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|p| p["stipulation"] == "proof_game")
        .filter_map(|p| {
            let game = try_replay_score(p["answer"].as_str()?).ok()?;
            let last = game.positions.last()?;
            let board = p["board"].as_str()?;
            (last.board().board_fen().to_string() == board)
                .then(|| (p["id"].as_str().unwrap_or("?").to_string(), game))
        })
        .collect()
}

fn corpus(name: &str) -> Vec<serde_json::Value> {
    let path = format!(
        "{}/../../positions/corpora/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

fn corpus_text<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

/// Every legal position of the corpora (`positions/corpora`), with its id: every proof-game
/// position and every other published problem that states a side to move, Sherlock's positions
/// marked legal, Chass's problems (each has solutions), and Retractor 2's problems for the side
/// that retracts (both sides for `both`). A rule that calls one of them illegal is unsound.
#[must_use]
pub fn legal_corpus_positions() -> Vec<(String, RetroPosition)> {
    let mut out = Vec::new();
    for p in corpus("published-problems.jsonl") {
        let stipulation = corpus_text(&p, "stipulation");
        // `other` positions may be incomplete on purpose, `illegal` ones are not legal.
        let Some(side) = p["side_to_move"].as_str() else {
            continue;
        };
        if stipulation == "other" || stipulation == "illegal" {
            continue;
        }
        // Kniffel problems print an incomplete diagram on purpose (a unit fell off the board);
        // their notes say so, and the diagram as printed is illegal.
        if p["notes"]
            .as_str()
            .is_some_and(|n| n.contains("incomplete"))
        {
            continue;
        }
        let fen = format!("{} {side} - -", corpus_text(&p, "board"));
        // A few problems leave a unit out of the diagram (the answer says where it stands); only
        // the proof games must all set up.
        match RetroPosition::parse(&fen, None) {
            Ok(pos) => out.push((corpus_text(&p, "id").to_owned(), pos)),
            Err(e) => assert!(stipulation != "proof_game", "{fen}: {e}"),
        }
    }
    for p in corpus("sherlock-legality.jsonl") {
        if p["expected"] == "Legal" {
            out.push((
                corpus_text(&p, "id").to_owned(),
                corpus_setup(corpus_text(&p, "fen"), None),
            ));
        }
    }
    for p in corpus("chass-problems.jsonl") {
        out.push((
            corpus_text(&p, "id").to_owned(),
            corpus_setup(corpus_text(&p, "fen"), None),
        ));
    }
    for p in corpus("retractor-problems.jsonl") {
        let sides: &[Color] = match corpus_text(&p, "retract") {
            "w" => &[Color::White],
            "b" => &[Color::Black],
            _ => &[Color::White, Color::Black],
        };
        for &side in sides {
            let pos = corpus_setup(corpus_text(&p, "board"), Some(side));
            out.push((
                format!("{} ({side:?} retracts)", corpus_text(&p, "id")),
                pos,
            ));
        }
    }
    out
}

fn corpus_setup(fen: &str, retract: Option<Color>) -> RetroPosition {
    RetroPosition::parse(fen, retract).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The position of a test's FEN, which must set up (a test's own data, so a bad one panics with
/// the FEN and why).
#[must_use]
pub fn pos(fen: &str) -> RetroPosition {
    RetroPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The retro position of a real game position: castling rights and the en passant square (written
/// whenever the last move was a double step) become retro facts, as a FEN would give them.
#[must_use]
pub fn retro_position(pos: &Chess) -> RetroPosition {
    let fen = Fen::from_position(pos, EnPassantMode::Always).to_string();
    match RetroPosition::from_fen(&fen) {
        Ok(retro) => retro,
        Err(err) => panic!("a reachable position must set up ({fen}): {err}"),
    }
}

/// Positions spread along the random game of `seed` (up to `max_plies`): about four, from a
/// quarter of the way in to the end, so that they have pieces off the board to uncapture.
#[must_use]
pub fn positions_along(seed: u64, max_plies: usize) -> Vec<RetroPosition> {
    let game = random_game(seed, max_plies);
    let step = (game.positions.len() / 4).max(1);
    game.positions
        .iter()
        .skip(step)
        .step_by(step)
        .map(retro_position)
        .collect()
}

/// Squares that a move of `m` by `color` empties or fills (for "never moved" bookkeeping: a unit
/// on a square no move of a game touched never moved).
#[must_use]
pub fn move_squares(m: &Move, color: Color) -> Bitboard {
    match *m {
        Move::Normal { from, to, .. } => Bitboard::from_square(from).with(to),
        Move::EnPassant { from, to } => Bitboard::from_square(from)
            .with(to)
            .with(Square::from_coords(to.file(), from.rank())),
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            Bitboard::from_square(king)
                .with(rook)
                .with(side.king_to(color))
                .with(side.rook_to(color))
        }
        Move::Put { .. } => Bitboard::EMPTY,
    }
}

/// Counts of the rare events in a set of games, so tests can show the bias worked.
#[derive(Clone, Copy, Debug, Default)]
pub struct Coverage {
    pub en_passant: usize,
    pub castling: usize,
    pub promotions: usize,
    pub underpromotions: usize,
    pub captures: usize,
}

impl Coverage {
    pub fn add(&mut self, game: &Game) {
        for &m in &game.moves {
            match m {
                Move::EnPassant { .. } => self.en_passant += 1,
                Move::Castle { .. } => self.castling += 1,
                Move::Normal {
                    promotion, capture, ..
                } => {
                    if let Some(role) = promotion {
                        self.promotions += 1;
                        if role != Role::Queen {
                            self.underpromotions += 1;
                        }
                    }
                    if capture.is_some() {
                        self.captures += 1;
                    }
                }
                Move::Put { .. } => {}
            }
        }
    }
}

mod arbitrary;
pub use arbitrary::{arbitrary_position, well_formed_message, ArbitraryPosition};

/// The board field of a FEN turned upside down with its colours swapped: the position seen from
/// the other side, for a rule's colour-swap test.
#[must_use]
pub fn swapped_board(board: &str) -> String {
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    ranks.join("/")
}

/// A FEN castling field (or any run of castling letters) with its colours swapped, in FEN order:
/// `Kq` becomes `Qk`; `-` stays.
#[must_use]
pub fn swapped_castling(letters: &str) -> String {
    if letters == "-" {
        return letters.to_owned();
    }
    let mut swapped: Vec<char> = letters
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    swapped.sort_by_key(|c| "KQkq".find(*c));
    swapped.into_iter().collect()
}

/// The proptest settings of the arbitrary-position tests: 2,000 cases in release builds, 200 in
/// debug ones, and no failure files written into the source tree.
#[must_use]
pub fn arbitrary_config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: if cfg!(debug_assertions) { 200 } else { 2_000 },
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}
