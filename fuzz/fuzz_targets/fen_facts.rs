#![no_main]

//! `FenFacts`: the clocks and fields a FEN asserts, read from any text. Nothing may panic or wrap,
//! and what is read must agree with the text and with the position the same text sets up.

use libfuzzer_sys::fuzz_target;
use retrace_unmove::{shakmaty::Color, FenFacts, RetroPosition};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let facts = FenFacts::parse(text);
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u32>().ok());
    assert_eq!(facts.halfmove_clock, number(4), "{text:?}");
    assert_eq!(facts.fullmove, number(5).filter(|&n| n > 0), "{text:?}");
    match facts.fullmove {
        Some(n) => {
            // Exact for every u32 move number: Black to move has played one ply more.
            let white = facts
                .plies_since_start(Color::White)
                .expect("a move number");
            assert_eq!(white, 2 * (u64::from(n) - 1), "{text:?}");
            assert_eq!(facts.plies_since_start(Color::Black), Some(white + 1));
        }
        None => assert_eq!(facts.plies_since_start(Color::White), None),
    }
    // A FEN that sets up names its side to move; the facts of its own FEN are the same kind.
    if let Ok(pos) = RetroPosition::parse(text, None) {
        let again = FenFacts::parse(&pos.fen());
        let _ = again.plies_since_start(pos.to_move());
    }
});
