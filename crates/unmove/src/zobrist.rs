//! Zobrist keys for the whole retro state.
//!
//! The board, and the side that is to move, use shakmaty's own keys; the state only retro play has
//! (never-moved units, a forced double step, the uncapture policy) uses keys generated here, so two
//! positions with the same board but a different retro state never share a key.

use shakmaty::{
    zobrist::{Zobrist64, ZobristValue},
    Color, File, Piece, Square,
};

/// SplitMix64 step, used only to fill the tables at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

static FROZEN: [u64; 64] = table(0x7265_7472_6163_6531);
/// Index 0: White may not uncapture; index 1: Black may not.
static NO_UNCAPTURE: [u64; 2] = table(0x7265_7472_6163_6532);

#[inline]
pub(crate) fn piece(square: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(square, piece).0
}

/// Key for "White retracts" (so Black is to move).
#[inline]
pub(crate) fn white_retracts() -> u64 {
    Zobrist64::zobrist_for_white_turn().0
}

#[inline]
pub(crate) fn frozen(square: Square) -> u64 {
    FROZEN[square.to_usize()]
}

#[inline]
pub(crate) fn promoted(square: Square) -> u64 {
    Zobrist64::zobrist_for_promoted(square).0
}

/// The forced double step is fixed by its file once the retracting side is known.
#[inline]
pub(crate) fn forced_double_step(file: File) -> u64 {
    Zobrist64::zobrist_for_en_passant_file(file).0
}

#[inline]
pub(crate) fn no_uncapture(color: Color) -> u64 {
    NO_UNCAPTURE[color as usize]
}
