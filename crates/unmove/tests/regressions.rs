//! Bugs found by the other test files, each kept with the exact input that showed it.

use retrace_unmove::{NotationError, Retraction, RetroPosition};
use shakmaty::Color;

/// Found by `bad_input.rs` (proptest, input "\n"): a syntax error quoted the input verbatim, so a
/// newline in it split the message over two lines. Fixed in `retraction.rs` by escaping the text.
#[test]
fn syntax_error_with_a_newline_stays_one_line() {
    for text in ["\n", "Nb8-c6\nNg8-f6", "e7-\re5", "Nb8-\u{2028}c6"] {
        let err = Retraction::parse(text, Color::Black).expect_err(text);
        let message = err.to_string();
        assert!(
            !message.contains('\n') && !message.contains('\r'),
            "{message:?}"
        );
        assert!(matches!(err, NotationError::Syntax { .. }));
        let pos = RetroPosition::from_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        )
        .unwrap();
        let message = pos.parse_retraction(text).expect_err(text).to_string();
        assert!(
            !message.contains('\n') && !message.contains('\r'),
            "{message:?}"
        );
    }
    // The escaped text still says what was typed.
    let message = Retraction::parse("Nb8-c6\nNg8-f6", Color::Black)
        .unwrap_err()
        .to_string();
    assert!(message.contains(r"Nb8-c6\nNg8-f6"), "{message}");
}
