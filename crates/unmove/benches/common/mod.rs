//! Positions shared by the criterion bench and the `perft_table` example, so both measure the same
//! trees.

use retrace_unmove::{
    shakmaty::{fen::Fen, CastlingMode, Chess, Color},
    RetroPosition,
};

/// A benchmark position and the depths at which each perft takes roughly 10-100 ms. Retro trees
/// grow at a very different rate from forward ones (uncaptures multiply them), so each perft gets
/// its own depth.
pub struct BenchPosition {
    pub name: &'static str,
    pub fen: &'static str,
    pub retro_depth: u32,
    /// Retro depth with uncaptures forbidden for both sides.
    pub quiet_depth: u32,
    pub forward_depth: u32,
}

pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "opening",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        retro_depth: 5,
        quiet_depth: 8,
        forward_depth: 5,
    },
    BenchPosition {
        name: "middlegame (castling rights)",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        retro_depth: 3,
        quiet_depth: 5,
        forward_depth: 4,
    },
    BenchPosition {
        name: "endgame",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        retro_depth: 4,
        quiet_depth: 6,
        forward_depth: 5,
    },
    BenchPosition {
        name: "promoted pieces",
        fen: "3qk2q/8/8/8/8/8/8/QQ2K2N w - - 0 1",
        retro_depth: 3,
        quiet_depth: 5,
        forward_depth: 4,
    },
    BenchPosition {
        name: "en passant square",
        fen: "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        retro_depth: 5,
        quiet_depth: 7,
        forward_depth: 5,
    },
    BenchPosition {
        name: "sparse retro problem",
        fen: "k7/2K5/8/8/8/8/8/1B6 b - - 0 1",
        retro_depth: 4,
        quiet_depth: 8,
        forward_depth: 8,
    },
];

impl BenchPosition {
    pub fn retro(&self) -> RetroPosition {
        RetroPosition::from_fen(self.fen).expect("bench FEN is a valid retro position")
    }

    /// The retro position with uncaptures forbidden for both sides.
    pub fn retro_quiet(&self) -> RetroPosition {
        let mut pos = self.retro();
        for color in Color::ALL {
            pos.set_uncaptures_allowed(color, false);
        }
        pos
    }

    pub fn forward(&self) -> Chess {
        let fen: Fen = self.fen.parse().expect("bench FEN parses");
        fen.into_position(CastlingMode::Standard)
            .expect("bench FEN is legal for shakmaty")
    }
}
