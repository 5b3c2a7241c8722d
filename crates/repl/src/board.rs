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
                        Some(Color::White) => cell.bright_white().bold(),
                        Some(Color::Black) => cell.black(),
                        None => cell.normal(),
                    };
                    let cell = if sq.is_light() {
                        cell.on_truecolor(240, 217, 181)
                    } else {
                        cell.on_truecolor(181, 136, 99)
                    };
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
