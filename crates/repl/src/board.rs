//! The board as text: Unicode pieces on coloured squares for a terminal, ASCII otherwise.

use colored::Colorize;
use retrace_unmove::RetroPosition;
use shakmaty::{Color, File, Piece, Rank, Role, Square};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unicode pieces on coloured squares, in the colours the terminal can show.
    Terminal(Depth),
    /// Letters and dots, no colour: for pipes, files, `NO_COLOR` and `TERM=dumb`.
    Plain,
}

/// How many colours a terminal shows, as its environment says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    TrueColor,
    /// The xterm 256-colour palette (`TERM` names a `256color` terminal).
    Ansi256,
    /// The 16 basic colours, which every colour terminal has.
    Ansi16,
}

impl Depth {
    /// The depth that `COLORTERM` and `TERM` announce (`None`: no colour at all, `TERM=dumb`).
    #[must_use]
    pub fn from_env(colorterm: Option<&str>, term: Option<&str>) -> Option<Depth> {
        if matches!(colorterm, Some("truecolor" | "24bit")) {
            Some(Depth::TrueColor)
        } else if term == Some("dumb") {
            None
        } else if term.is_some_and(|t| t.contains("256color")) {
            Some(Depth::Ansi256)
        } else {
            Some(Depth::Ansi16)
        }
    }
}

impl Style {
    /// The style for standard output: plain unless it is a colour terminal and `NO_COLOR` is
    /// unset.
    #[must_use]
    pub fn detect() -> Style {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let var = |name| std::env::var(name).ok();
        let depth = Depth::from_env(var("COLORTERM").as_deref(), var("TERM").as_deref());
        match depth {
            Some(depth) if std::io::stdout().is_terminal() && !no_color => Style::Terminal(depth),
            _ => Style::Plain,
        }
    }
}

/// An sRGB colour.
type Rgb = (u8, u8, u8);

/// The squares and pieces of the terminal board, all given explicitly so that the board reads
/// the same in light and dark terminals. Chosen so that each piece colour stands out from both
/// square colours by a contrast ratio of at least 3:1 (WCAG's minimum for graphics; the test
/// below computes it): white pieces on light squares were about 1.3:1 before.
const LIGHT_SQUARE: Rgb = (168, 140, 104);
const DARK_SQUARE: Rgb = (124, 92, 64);
const WHITE_PIECE: Rgb = (255, 255, 255);
const BLACK_PIECE: Rgb = (0, 0, 0);

/// The colour of `rgb` at `depth`. On 256 colours, the nearest entry of the xterm palette's
/// 6x6x6 cube; on 16, the board's own choice for each of its four colours (a 16-colour palette is
/// the terminal's, so only distinct names can be promised: light squares yellow, dark squares
/// red, pieces bright white and black).
fn at_depth(rgb: Rgb, depth: Depth) -> colored::Color {
    match depth {
        Depth::TrueColor => colored::Color::TrueColor {
            r: rgb.0,
            g: rgb.1,
            b: rgb.2,
        },
        Depth::Ansi256 => {
            // The cube's levels are 0, 95, 135, 175, 215, 255.
            let level = |c: u8| match c {
                0..=47 => 0,
                48..=114 => 1,
                _ => (c - 35) / 40,
            };
            colored::Color::AnsiColor(16 + 36 * level(rgb.0) + 6 * level(rgb.1) + level(rgb.2))
        }
        Depth::Ansi16 => match rgb {
            LIGHT_SQUARE => colored::Color::Yellow,
            DARK_SQUARE => colored::Color::Red,
            WHITE_PIECE => colored::Color::BrightWhite,
            _ => colored::Color::Black,
        },
    }
}

fn symbol(piece: Piece) -> char {
    // The filled shapes for both sides read best on coloured squares; colour tells them apart.
    match piece.role {
        Role::King => '♚',
        Role::Queen => '♛',
        Role::Rook => '♜',
        Role::Bishop => '♝',
        Role::Knight => '♞',
        Role::Pawn => '♟',
    }
}

/// The diagram of `pos`, White at the bottom unless `flipped`.
#[must_use]
pub fn draw(pos: &RetroPosition, style: Style, flipped: bool) -> String {
    let board = pos.board();
    let mut ranks: Vec<Rank> = Rank::ALL.to_vec();
    let mut files: Vec<File> = File::ALL.to_vec();
    if flipped {
        files.reverse();
    } else {
        ranks.reverse();
    }
    let mut text = String::new();
    for rank in &ranks {
        text.push_str(&format!("{} ", rank.char()));
        for file in &files {
            let sq = Square::from_coords(*file, *rank);
            let piece = board.piece_at(sq);
            match style {
                Style::Plain => {
                    text.push(' ');
                    text.push(piece.map_or('.', Piece::char));
                }
                Style::Terminal(depth) => {
                    let cell = match piece {
                        Some(p) => format!(" {} ", symbol(p)),
                        None => "   ".to_owned(),
                    };
                    let cell = match piece.map(|p| p.color) {
                        Some(Color::White) => cell.color(at_depth(WHITE_PIECE, depth)).bold(),
                        Some(Color::Black) => cell.color(at_depth(BLACK_PIECE, depth)),
                        None => cell.normal(),
                    };
                    let square = if sq.is_light() {
                        LIGHT_SQUARE
                    } else {
                        DARK_SQUARE
                    };
                    let cell = cell.on_color(at_depth(square, depth));
                    text.push_str(&cell.to_string());
                }
            }
        }
        text.push('\n');
    }
    let letters: Vec<String> = files
        .iter()
        .map(|f| match style {
            Style::Plain => format!(" {}", f.char()),
            Style::Terminal(_) => format!(" {} ", f.char()),
        })
        .collect();
    text.push_str(&format!("  {}\n", letters.concat()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance((r, g, b): Rgb) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    fn contrast(a: Rgb, b: Rgb) -> f64 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    #[test]
    fn every_piece_stands_out_from_every_square() {
        for piece in [WHITE_PIECE, BLACK_PIECE] {
            for square in [LIGHT_SQUARE, DARK_SQUARE] {
                let ratio = contrast(piece, square);
                assert!(ratio >= 3.0, "{piece:?} on {square:?}: {ratio:.2}:1");
            }
        }
        // The old light square failed: the test can fail.
        assert!(contrast(WHITE_PIECE, (240, 217, 181)) < 1.5);
        // The squares still tell apart.
        assert!(contrast(LIGHT_SQUARE, DARK_SQUARE) >= 1.5);
    }

    /// Light and dark squares are told apart at every depth, and the pieces from both (with
    /// `TERM=xterm-256color` and no `COLORTERM` every square used to come out the same grey).
    #[test]
    fn squares_differ_at_every_depth() {
        for depth in [Depth::TrueColor, Depth::Ansi256, Depth::Ansi16] {
            let light = at_depth(LIGHT_SQUARE, depth);
            let dark = at_depth(DARK_SQUARE, depth);
            assert_ne!(light, dark, "{depth:?}");
            for piece in [WHITE_PIECE, BLACK_PIECE] {
                let piece = at_depth(piece, depth);
                assert_ne!(piece, light, "{depth:?}");
                assert_ne!(piece, dark, "{depth:?}");
            }
        }
        // The 256-colour escapes are fixed codes, whatever the environment.
        assert_ne!(
            at_depth(LIGHT_SQUARE, Depth::Ansi256).to_bg_str(),
            at_depth(DARK_SQUARE, Depth::Ansi256).to_bg_str()
        );
        assert_eq!(
            at_depth((255, 255, 255), Depth::Ansi256),
            colored::Color::AnsiColor(231)
        );
        assert_eq!(
            at_depth((0, 0, 0), Depth::Ansi256),
            colored::Color::AnsiColor(16)
        );
    }

    #[test]
    fn depth_follows_the_environment() {
        let d = Depth::from_env;
        assert_eq!(d(Some("truecolor"), Some("xterm")), Some(Depth::TrueColor));
        assert_eq!(d(Some("24bit"), None), Some(Depth::TrueColor));
        assert_eq!(d(None, Some("xterm-256color")), Some(Depth::Ansi256));
        assert_eq!(d(None, Some("screen-256color")), Some(Depth::Ansi256));
        assert_eq!(d(None, Some("xterm")), Some(Depth::Ansi16));
        assert_eq!(d(None, Some("linux")), Some(Depth::Ansi16));
        assert_eq!(d(None, Some("dumb")), None);
    }
}
