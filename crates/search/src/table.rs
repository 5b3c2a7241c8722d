//! A transposition table keyed on the full retro state and a remaining depth.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

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

/// Entries beyond which the table is cleared rather than allowed to eat the machine's memory.
const CAPACITY: usize = 1 << 22;

/// Maps a key and a remaining depth to a value (by default whether something exists).
pub(crate) struct Table<V = bool> {
    map: KeyMap<V>,
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

    pub(crate) fn get(&self, key: u64, depth: u32) -> Option<V> {
        self.map.get(&slot(key, depth)).copied()
    }

    pub(crate) fn insert(&mut self, key: u64, depth: u32, value: V) {
        if self.map.len() >= CAPACITY {
            self.map.clear();
        }
        self.map.insert(slot(key, depth), value);
    }
}

impl<V> Table<V> {
    /// Forgets the entry of `key` at `depth`.
    pub(crate) fn forget(&mut self, key: u64, depth: u32) {
        self.map.remove(&slot(key, depth));
    }
}
