//! The board as text: Unicode pieces on coloured squares for a terminal, ASCII otherwise.

use colored::Colorize;
use retrace_unmove::RetroPosition;
use shakmaty::{Color, File, Piece, Rank, Role, Square};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unicode pieces on coloured squares.
    Terminal,
    /// Letters and dots, no colour: for pipes, files and NO_COLOR.
    Plain,
}

impl Style {
    /// The style for standard output: plain unless it is a terminal and NO_COLOR is unset.
    #[must_use]
    pub fn detect() -> Style {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        if std::io::stdout().is_terminal() && !no_color {
            Style::Terminal
        } else {
            Style::Plain
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
                Style::Terminal => {
                    let cell = match piece {
                        Some(p) => format!(" {} ", symbol(p)),
                        None => "   ".to_owned(),
                    };
                    let cell = match piece.map(|p| p.color) {
                        Some(Color::White) => cell
                            .truecolor(WHITE_PIECE.0, WHITE_PIECE.1, WHITE_PIECE.2)
                            .bold(),
                        Some(Color::Black) => {
                            cell.truecolor(BLACK_PIECE.0, BLACK_PIECE.1, BLACK_PIECE.2)
                        }
                        None => cell.normal(),
                    };
                    let (r, g, b) = if sq.is_light() {
                        LIGHT_SQUARE
                    } else {
                        DARK_SQUARE
                    };
                    let cell = cell.on_truecolor(r, g, b);
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
            Style::Terminal => format!(" {} ", f.char()),
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
}
