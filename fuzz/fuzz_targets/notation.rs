#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use retrace_unmove::{shakmaty::Color, Retraction, RetroPosition};

/// Positions where most kinds of retraction are legal somewhere: uncastling, unpromotion, en
/// passant, a forced double step, a check to undo.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r4rk1/1pp2ppp/8/8/8/8/1PP2PPP/R4RK1 b - - 0 1",
    "1N2k3/8/3P4/8/8/8/8/4K2R b - - 0 1",
    "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1",
    "4k3/8/8/8/8/8/8/2KR4 b - - 0 1",
    "3Qk3/8/8/8/8/8/8/4K3 b - - 0 1",
    "4K3/8/8/8/8/8/8/2kr4 w - - 0 1",
];

fn positions() -> &'static [RetroPosition] {
    static POSITIONS: OnceLock<Vec<RetroPosition>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .map(|fen| RetroPosition::from_fen(fen).expect("fixed FEN parses"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for color in [Color::White, Color::Black] {
        match Retraction::parse(text, color) {
            Ok(r) => {
                let shown = r.to_string();
                assert_eq!(
                    Retraction::parse(&shown, color),
                    Ok(r),
                    "{text:?} shown as {shown}"
                );
                assert_eq!(
                    Retraction::parse(&r.to_notation(true), color),
                    Ok(r),
                    "{shown}+"
                );
            }
            Err(e) => drop(e.to_string()),
        }
    }
    for pos in positions() {
        match pos.parse_retraction(text) {
            Ok(r) => {
                assert!(pos.retractions().contains(&r));
                // A legal retraction must be one the position can take back.
                let before = pos.retract(r);
                assert_eq!(before.zobrist(), before.zobrist_from_scratch(), "{text:?}");
            }
            Err(e) => drop(e.to_string()),
        }
    }
});
