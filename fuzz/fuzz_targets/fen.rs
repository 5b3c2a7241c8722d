#![no_main]

use libfuzzer_sys::fuzz_target;
use retrace_unmove::{
    shakmaty::{CastlingMode, Chess, Color, FromSetup, Position, PositionError},
    Retraction, RetroPosition,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for side in [None, Some(Color::White), Some(Color::Black)] {
        match RetroPosition::parse(text, side) {
            Ok(pos) => check(&pos),
            // Error messages are user-facing: formatting them must not panic either.
            Err(e) => drop(e.to_string()),
        }
    }
});

/// Retracts every retraction and checks that each predecessor survives a FEN round trip.
fn check(pos: &RetroPosition) {
    roundtrip(pos);
    let retractions = pos.retractions();
    assert_eq!(
        retractions.len() as u64,
        pos.count_retractions(),
        "count differs for {}",
        pos.fen()
    );
    let check = pos.is_check();
    for r in retractions {
        let text = r.to_notation(check);
        assert_eq!(
            pos.parse_retraction(&text),
            Ok(r),
            "{text} in {}",
            pos.fen()
        );
        let before = pos.retract(r);
        assert_eq!(
            before.zobrist(),
            before.zobrist_from_scratch(),
            "{text} from {}",
            pos.fen()
        );
        roundtrip(&before);
        replay(pos, &before, r);
        // The predecessor is a new, unfuzzed kind of position: generation there must not panic.
        let _ = before.count_retractions();
        if before.forced_double_step().is_some() {
            // After an en passant retraction only the double step is legal: follow it too.
            for r2 in before.retractions() {
                roundtrip(&before.retract(r2));
            }
        }
    }
}

fn roundtrip(pos: &RetroPosition) {
    let fen = pos.fen();
    let again = match RetroPosition::from_fen(&fen) {
        Ok(again) => again,
        Err(e) => panic!("own FEN {fen} does not parse: {e}"),
    };
    assert_eq!(
        again.zobrist(),
        pos.zobrist(),
        "zobrist differs after round trip of {fen}"
    );
    assert!(again == *pos, "position differs after round trip of {fen}");
}

/// Plays `r` forward with shakmaty from `before`: it must be legal there and lead back to `pos`.
fn replay(pos: &RetroPosition, before: &RetroPosition, r: Retraction) {
    // Uncaptures can leave more material than a game allows, and shakmaty rejects some checks
    // retro play cannot rule out: those predecessors are skipped, not judged.
    let Ok(chess) = Chess::from_setup(before.to_setup(), CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
    else {
        return;
    };
    let m = r.forward();
    assert!(
        chess.is_legal(m),
        "{r} is not legal forward in {}",
        before.fen()
    );
    let after = chess.play(m).expect("legal move plays");
    assert_eq!(
        after.board(),
        pos.board(),
        "{r} from {} does not lead back to {}",
        before.fen(),
        pos.fen()
    );
}
