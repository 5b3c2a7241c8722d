//! A transposition table keyed on the full retro state and a remaining depth.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

use retrace_unmove::RetroPosition;

/// Zobrist keys are already uniformly random: hashing them again is wasted work.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by Zobrist keys, which need no further hashing.
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

/// A node's identity in the tables: its Zobrist key (mixed with whatever else the node carries,
/// such as the castling rights still to be explained) and a verification key made from other
/// bits of the position. An entry answers only a node whose verification key matches too, so two
/// positions whose 64-bit keys collide cannot share an entry: a false entry could lose a solution
/// or invent one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeKey {
    /// The Zobrist key, which places the entry.
    pub hash: u64,
    /// The verification key, which the entry keeps.
    pub check: u64,
}

impl NodeKey {
    /// The key of `pos`, its Zobrist key mixed with `extra`.
    #[inline]
    pub(crate) fn of(pos: &RetroPosition, extra: u64) -> NodeKey {
        NodeKey {
            hash: pos.zobrist() ^ extra,
            check: verification(pos),
        }
    }
}

/// A second hash of `pos`, from its board, its marks and the side retracting, computed apart from
/// the Zobrist tables (a multiply-rotate mix of the bitboards): two positions that collide in
/// both keys are what a 128-bit key would need.
#[inline]
pub(crate) fn verification(pos: &RetroPosition) -> u64 {
    const MIX: u64 = 0xff51_afd7_ed55_8ccd;
    let board = pos.board();
    let words = [
        board.white().0,
        board.pawns().0,
        board.knights().0,
        board.bishops().0,
        board.rooks().0,
        board.queens().0,
        board.kings().0,
        pos.frozen().0,
        pos.promoted().0,
        u64::from(pos.retracting().is_white()),
    ];
    words
        .iter()
        .fold(MIX, |h, &w| (h ^ w).wrapping_mul(MIX).rotate_left(31))
}

/// Entries beyond which the table is cleared rather than allowed to eat the machine's memory:
/// seven eighths of 2^22, the most a hash table of 2^22 buckets holds before it doubles (at
/// exactly 2^22 entries it had doubled to 2^23 buckets, twice the memory for an eighth more
/// entries). A full table of `bool` values then takes about 100 MB.
const CAPACITY: usize = (1 << 22) / 8 * 7;

/// Maps a node and a remaining depth to a value (by default whether something exists); each entry
/// keeps the node's verification key.
pub(crate) struct Table<V = bool> {
    map: KeyMap<(u64, V)>,
}

/// Mixes the remaining depth into the key (odd multiplier: distinct depths give distinct keys).
#[inline]
fn slot(key: u64, depth: u32) -> u64 {
    key ^ u64::from(depth).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl<V: Copy> Table<V> {
    pub(crate) fn new() -> Table<V> {
        Table {
            map: HashMap::default(),
        }
    }

    /// The value of `node` at `depth`, if an entry of the same node holds one.
    pub(crate) fn get(&self, node: NodeKey, depth: u32) -> Option<V> {
        self.map
            .get(&slot(node.hash, depth))
            .filter(|(check, _)| *check == node.check)
            .map(|&(_, value)| value)
    }

    pub(crate) fn insert(&mut self, node: NodeKey, depth: u32, value: V) {
        if self.map.len() >= CAPACITY {
            self.map.clear();
        }
        self.map.insert(slot(node.hash, depth), (node.check, value));
    }
}

impl<V> Table<V> {
    /// Forgets the entry of `node` at `depth` (whatever node holds that slot: forgetting only
    /// costs a search again).
    pub(crate) fn forget(&mut self, node: NodeKey, depth: u32) {
        self.map.remove(&slot(node.hash, depth));
    }
}

#[cfg(test)]
mod tests {
    use super::{NodeKey, Table, CAPACITY};

    /// A table filled to its capacity never doubles its buckets past 2^22: it is cleared first,
    /// so a full table of `bool` values stays near 100 MB.
    #[test]
    fn a_full_table_keeps_its_buckets() {
        let mut table = Table::<bool>::new();
        for i in 0..=CAPACITY as u64 {
            let key = NodeKey {
                hash: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                check: i,
            };
            table.insert(key, 0, true);
        }
        // Cleared once, at capacity: the last key is all it holds, in buckets that never grew.
        assert_eq!(table.map.len(), 1);
        assert!(table.map.capacity() < 1 << 22, "{}", table.map.capacity());
    }
}
