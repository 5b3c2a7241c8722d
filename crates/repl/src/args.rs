//! The arguments both front ends take, with one set of limits: the subcommands (`cli`, parsed by
//! clap) and the REPL's words (`session`) build the same requests from them, and these requests
//! build the search's parameters, so a `solve` asks the same question from either side.

use std::sync::{atomic::AtomicBool, Arc};

use clap::ValueEnum;
use retrace_cage::CageStore;
use retrace_search::{GameFacts, LegalPruner, SolveParams, DEFAULT_EXTRA, SEARCH_CAGE_LIMITS};
use retrace_unmove::{FenFacts, RetroPosition};
use shakmaty::{ByColor, Color, Square};

/// Deepest retraction search (`solve`, `prove`, `check --prove`) either front end accepts.
pub const MAX_SOLVE_DEPTH: u32 = 64;

/// Deepest retro perft the command line accepts: deeper never finishes on real positions.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The solutions a `solve` keeps to show and to step into (the first ones found): the rest are
/// counted, not kept, so memory stays bounded however many there are. `--jsonl` streams them all
/// instead.
pub const KEPT_SOLUTIONS: usize = 1000;

/// Whose uncaptures `solve --no-uncapture` (REPL: `no-uncapture`) forbids.
// The variants have no doc comments: clap would turn them into a longer `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Uncapturers {
    #[value(alias = "w")]
    White,
    #[value(alias = "b")]
    Black,
    Both,
}

impl Uncapturers {
    /// Whether each side's uncaptures are forbidden.
    #[must_use]
    pub fn forbidden(self) -> ByColor<bool> {
        ByColor {
            white: matches!(self, Uncapturers::White | Uncapturers::Both),
            black: matches!(self, Uncapturers::Black | Uncapturers::Both),
        }
    }
}

/// A position as the user set it up, read once: the position with its marks, and what the FEN's
/// text says beyond the position (its clocks, and whether its castling and en passant fields
/// were given), which some questions read as facts.
#[derive(Clone, Debug)]
pub struct Setup {
    pub pos: RetroPosition,
    pub facts: FenFacts,
}

impl Setup {
    /// Reads `fen` (a full FEN, or a board field alone with `retract`), then marks the units of
    /// `frozen` as never moved and those of `promoted` as promoted pieces.
    pub fn parse(
        fen: &str,
        retract: Option<Color>,
        frozen: &[Square],
        promoted: &[Square],
    ) -> Result<Setup, String> {
        let mut pos = RetroPosition::parse(fen, retract).map_err(|e| e.to_string())?;
        for &sq in frozen {
            pos.mark_never_moved(sq).map_err(|e| e.to_string())?;
        }
        for &sq in promoted {
            mark_promoted(&mut pos, sq)?;
        }
        Ok(Setup {
            pos,
            facts: FenFacts::parse(fen),
        })
    }
}

/// Marks the unit on `square` as a promoted piece, as a person means it: a unit also marked as
/// never having moved (by the user, or by a castling right) is an original unit, so both marks
/// together are refused (the generator's own `mark_promoted` accepts them, for its tests).
pub fn mark_promoted(pos: &mut RetroPosition, square: Square) -> Result<(), String> {
    if pos.frozen().contains(square) {
        return Err(format!(
            "cannot mark {square} as promoted: it is marked as never having moved, so it is an \
             original unit"
        ));
    }
    pos.mark_promoted(square).map_err(|e| e.to_string())
}

/// A count of `--max` (REPL: `max`): at least 1, since a search stopped before its first
/// solution answers nothing.
pub fn parse_max(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("max '{text}' must be a whole number from 1 on")),
    }
}

/// A side as both front ends spell it: `w`, `b`, `white` or `black`, in any case.
pub fn parse_color(text: &str) -> Result<Color, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        other => Err(format!("'{other}' is not a side: use w or b")),
    }
}

/// The side's letter in FENs and JSON answers: `w` or `b`.
#[must_use]
pub fn side_letter(color: Color) -> &'static str {
    match color {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// A depth of retraction from 0 to [`MAX_SOLVE_DEPTH`] (clap checks the same range on the
/// command line).
pub fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_SOLVE_DEPTH => Ok(n),
        _ => Err(format!(
            "depth '{text}' must be a whole number from 0 to {MAX_SOLVE_DEPTH}"
        )),
    }
}

/// The question of one `solve`, from either front end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveRequest {
    /// Plies to retract.
    pub depth: u32,
    /// Further plies that must still be retractable after them.
    pub extra: u32,
    /// Stop after this many solutions.
    pub max: Option<usize>,
    /// Stop after visiting this many nodes.
    pub max_nodes: Option<u64>,
    /// Whose uncaptures are forbidden.
    pub no_uncapture: ByColor<bool>,
    /// Whether candidate lines go through the automatic cage attempt (off to see the candidates
    /// a cage kills).
    pub auto_cages: bool,
    /// Read the FEN's castling and en passant fields as complete (in the REPL, those of the
    /// current position as `show` prints them).
    pub exact_fen: bool,
    /// Read the FEN's clocks as facts (command line only).
    pub game_clocks: bool,
}

impl SolveRequest {
    /// `depth` plies with every other option at its default.
    #[must_use]
    pub fn new(depth: u32) -> SolveRequest {
        SolveRequest {
            depth,
            extra: DEFAULT_EXTRA,
            max: None,
            max_nodes: None,
            no_uncapture: ByColor::default(),
            auto_cages: true,
            exact_fen: false,
            game_clocks: false,
        }
    }

    /// The REPL's `solve N [extra E] [max M] [nodes K] [no-uncapture white|black|both]
    /// [auto-cages on|off] [exact-fen]`.
    pub fn parse_words(args: &str) -> Result<SolveRequest, String> {
        let usage = "usage: solve N [extra E] [max M] [nodes K] [no-uncapture white|black|both] \
                     [auto-cages on|off] [exact-fen]";
        let mut words = args.split_whitespace();
        let mut request = SolveRequest::new(parse_depth(words.next().ok_or(usage)?)?);
        while let Some(word) = words.next() {
            if word == "exact-fen" {
                request.exact_fen = true;
                continue;
            }
            let value = words.next().ok_or(usage)?;
            match word {
                "extra" => request.extra = parse_depth(value)?,
                "max" => request.max = Some(parse_max(value)?),
                "nodes" => request.max_nodes = Some(parse_count("nodes", value)?),
                "no-uncapture" => {
                    request.no_uncapture = Uncapturers::from_str(value, false)
                        .map_err(|_| usage)?
                        .forbidden();
                }
                "auto-cages" => {
                    request.auto_cages = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(usage.into()),
                    }
                }
                _ => return Err(usage.into()),
            }
        }
        Ok(request)
    }

    /// What the set-up's FEN says beyond the position, as far as the request reads it: with
    /// `exact_fen`, its castling and en passant fields; with `game_clocks`, its clocks (an error
    /// when the move number leaves too few plies for the depth).
    pub fn facts(&self, setup: &Setup) -> Result<GameFacts, String> {
        let (pos, read) = (&setup.pos, &setup.facts);
        let mut facts = crate::exact::facts(self.exact_fen, read);
        if self.game_clocks {
            facts.halfmove_clock = read.halfmove_clock;
            if let Some(plies) = read.plies_since_start(pos.to_move()) {
                if plies < u64::from(self.depth) {
                    return Err(format!(
                        "the move number says {plies} plies were played: cannot retract {}",
                        self.depth
                    ));
                }
                facts.plies_since_start = (plies == u64::from(self.depth)).then_some(self.depth);
            }
        }
        Ok(facts)
    }

    /// The search's parameters for this request, keeping the first `keep` solutions; the caller
    /// adds its hooks (progress, a stream of solutions) to what this returns.
    #[must_use]
    pub fn params<'a>(
        &self,
        facts: GameFacts,
        cancel: Arc<AtomicBool>,
        keep: usize,
    ) -> SolveParams<'a> {
        SolveParams {
            depth: self.depth,
            extra: self.extra,
            max_solutions: self.max,
            max_nodes: self.max_nodes,
            no_uncapture: self.no_uncapture,
            facts,
            cancel: Some(cancel),
            keep: Some(keep),
            ..SolveParams::default()
        }
    }

    /// The pruner for this request: the analysis with the user's `cages`, and the automatic cage
    /// attempt unless the request turned it off, stopped by `cancel` (Ctrl-C).
    #[must_use]
    pub fn pruner<'a>(&self, cages: &'a CageStore, cancel: Arc<AtomicBool>) -> LegalPruner<'a> {
        LegalPruner::with_cages(cages)
            .with_cage_finding(self.auto_cages.then_some(SEARCH_CAGE_LIMITS))
            .with_cancel(cancel)
    }
}

/// A count the REPL reads after a keyword (`max 3`, `nodes 5000`).
fn parse_count<N: std::str::FromStr>(what: &str, value: &str) -> Result<N, String> {
    value
        .parse()
        .map_err(|_| format!("{what} '{value}' is not a number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repl_words_build_the_request_the_command_line_would() {
        let request =
            SolveRequest::parse_words("3 extra 1 max 2 exact-fen nodes 50 no-uncapture w")
                .expect("a request");
        assert_eq!(
            request,
            SolveRequest {
                extra: 1,
                max: Some(2),
                max_nodes: Some(50),
                no_uncapture: Uncapturers::White.forbidden(),
                exact_fen: true,
                ..SolveRequest::new(3)
            }
        );
        assert!(
            !SolveRequest::parse_words("2 auto-cages off")
                .expect("a request")
                .auto_cages
        );
        for bad in [
            "",
            "65",
            "2 extra",
            "2 bogus 1",
            "2 no-uncapture x",
            "2 max -1",
        ] {
            assert!(SolveRequest::parse_words(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sides_and_depths() {
        assert_eq!(parse_color(" White "), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert!(parse_color("x").is_err());
        assert_eq!(parse_depth("64"), Ok(MAX_SOLVE_DEPTH));
        assert!(parse_depth("65").is_err() && parse_depth("-1").is_err());
    }
}
