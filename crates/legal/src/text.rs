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
    join_and(&names)
}

/// Squares written as `a1, b2 or c3` for messages.
#[must_use]
pub fn squares_or(squares: Bitboard) -> String {
    squares_text(squares).replace(" and ", " or ")
}

/// Parts written as `x, y and z` for messages.
#[must_use]
pub fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
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
