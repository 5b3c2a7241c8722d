//! A direct-mapped memo: a table of a fixed number of slots, each holding the last key that
//! hashed to it with its value. A lookup compares the whole key, so a hit answers exactly as the
//! computation would; a miss computes and overwrites the slot. The table never grows, and its
//! slots are made on first use, so an owner that is never asked costs nothing.

/// A direct-mapped memo of `1 << BITS` slots from keys `K` to values `V`.
#[derive(Clone, Debug)]
pub(crate) struct DirectMap<K, V, const BITS: u32> {
    slots: Vec<Option<(K, V)>>,
}

impl<K, V, const BITS: u32> Default for DirectMap<K, V, BITS> {
    fn default() -> Self {
        DirectMap { slots: Vec::new() }
    }
}

impl<K: Copy + Eq, V: Clone, const BITS: u32> DirectMap<K, V, BITS> {
    /// The value of `key` (whose hash is `hash`), from its slot when the slot holds `key`, else
    /// made by `make` and kept there in place of what the slot held.
    pub(crate) fn get_or_make(&mut self, hash: u64, key: K, make: impl FnOnce() -> V) -> &mut V {
        if self.slots.is_empty() {
            self.slots = vec![None; 1 << BITS];
        }
        // Fibonacci hashing: the top bits of the product depend on every bit of `hash`.
        let index = (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize;
        let slot = &mut self.slots[index & ((1 << BITS) - 1)];
        if !matches!(slot, Some((k, _)) if *k == key) {
            *slot = None;
        }
        &mut slot.get_or_insert_with(|| (key, make())).1
    }
}

/// A hash of the 64-bit words `words`, for [`DirectMap::get_or_make`].
pub(crate) fn hash_words(words: &[u64]) -> u64 {
    words.iter().fold(0xcbf2_9ce4_8422_2325, |h, &w| {
        (h ^ w).wrapping_mul(0x0100_0000_01b3).rotate_left(23)
    })
}
