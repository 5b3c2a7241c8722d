//! Proof games from both ends: positions reachable from the initial array in a few plies, built
//! forward with shakmaty, for the backward search to meet.

use std::collections::{HashMap, HashSet};

use retrace_unmove::RetroPosition;
use shakmaty::{Bitboard, Board, Chess, Color, EnPassantMode, Position, Square};

/// What a forward position must show to stand for a retro position with the same board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Meta {
    /// Castling rights, as rook squares.
    rights: Bitboard,
    /// The en passant square, when the last move was a double step.
    ep: Option<Square>,
}

/// Every position reachable from the initial array in exactly `plies` plies, for each `plies` up to
/// a depth.
pub(crate) struct ForwardLayers {
    layers: Vec<HashMap<(Board, Color), HashSet<Meta>>>,
}

impl ForwardLayers {
    /// Positions reachable in 0 to `depth` plies (the work grows about thirtyfold a ply).
    pub(crate) fn build(depth: u32) -> ForwardLayers {
        let mut layers = vec![HashMap::new(); depth as usize + 1];
        let mut frontier = vec![Chess::default()];
        for (ply, layer) in layers.iter_mut().enumerate() {
            let mut seen: HashSet<(Board, Color, Meta)> = HashSet::new();
            let mut next = Vec::new();
            for pos in &frontier {
                let meta = Meta {
                    rights: pos.castles().castling_rights(),
                    ep: pos.ep_square(EnPassantMode::Always),
                };
                layer
                    .entry((pos.board().clone(), pos.turn()))
                    .or_insert_with(HashSet::new)
                    .insert(meta);
                if ply < depth as usize {
                    for m in &pos.legal_moves() {
                        let mut child = pos.clone();
                        child.play_unchecked(*m);
                        let key = (
                            child.board().clone(),
                            child.turn(),
                            Meta {
                                rights: child.castles().castling_rights(),
                                ep: child.ep_square(EnPassantMode::Always),
                            },
                        );
                        if seen.insert(key) {
                            next.push(child);
                        }
                    }
                }
            }
            frontier = next;
        }
        ForwardLayers { layers }
    }

    /// Whether some game reaches `pos` from the initial array in exactly `plies` plies, with its
    /// frozen king and rook still able to castle, the rights in `lost` gone, and a forced double
    /// step as its last move. `None` when `pos` carries facts a forward position cannot show (user
    /// marks), so the caller must search instead.
    pub(crate) fn reaches(&self, pos: &RetroPosition, plies: u32, lost: Bitboard) -> Option<bool> {
        let layer = self.layers.get(plies as usize)?;
        let held = pos.castling_rights();
        let castling_units = held | castling_kings(held);
        if pos.promoted().any() || !(pos.frozen() & !castling_units).is_empty() {
            return None;
        }
        let Some(metas) = layer.get(&(pos.board().clone(), pos.to_move())) else {
            return Some(false);
        };
        let ep = pos.ep_square();
        Some(metas.iter().any(|m| {
            held.is_subset(m.rights) && (m.rights & lost).is_empty() && (ep.is_none() || m.ep == ep)
        }))
    }
}

/// The king squares that go with castling rights given as rook squares.
fn castling_kings(rights: Bitboard) -> Bitboard {
    rights
        .into_iter()
        .map(|rook| Square::from_coords(shakmaty::File::E, rook.rank()))
        .collect()
}
