//! The words answers are written with: one home for plurals, colour names and square lists, so
//! every message of the analysis, and every front end that shows one, spells them alike.

use shakmaty::{Bitboard, Color};

/// `"s"` unless `n` is one: `format!("{n} capture{}", plural(n))`.
#[must_use]
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) {
        ""
    } else {
        "s"
    }
}

/// Colour name for messages (`White`, `Black`).
#[must_use]
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Lower-case colour name for messages (`white`, `black`).
#[must_use]
pub fn color_adj(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Squares written as `a1, b2 and c3` for messages.
#[must_use]
pub fn squares_text(squares: Bitboard) -> String {
    let names: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;

    #[test]
    fn words() {
        assert_eq!(plural(1u32), "");
        assert_eq!(plural(0u32), "s");
        assert_eq!(plural(2usize), "s");
        assert_eq!(color_name(Color::Black), "Black");
        assert_eq!(color_adj(Color::White), "white");
        let squares = Bitboard::from_square(Square::A1) | Square::B2 | Square::C3;
        assert_eq!(squares_text(squares), "a1, b2 and c3");
        assert_eq!(squares_text(Bitboard::from_square(Square::H8)), "h8");
        assert_eq!(squares_text(Bitboard::EMPTY), "");
    }
}
