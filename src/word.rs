//! Short byte strings read as little-endian `u64` words, for the code that compares or hashes
//! names eight bytes at a time: attribute names (`src/html/machine/tag.rs`) and the tag names the
//! simulator knows (`src/html/simulator.rs`). Bytes past the string are zero in the word. The pieces
//! both of their hashes are made of are here too: the case fold, the mixer and its constants,
//! and random keys; and [`WordHash`], the keyed hash of names as written for hash tables
//! (XML5's attribute names, the tree stage's prefixes and deep element names).

use std::hash::{BuildHasher, Hasher};

/// `0x20` in every byte: OR-ing it into a word folds ASCII case (and merges some other pairs of
/// bytes, which only costs a comparison now and then: equal names still hash equally).
pub(crate) const FOLD: u64 = 0x2020_2020_2020_2020;
/// `LOW_BYTES[n]` is the mask of the low `n` bytes of a word (`n` in 0..=8): one load and an
/// `and` where shifting by a variable count takes five instructions.
pub(crate) static LOW_BYTES: [u64; 9] = {
    let mut masks = [0; 9];
    let mut n = 1;
    while n <= 8 {
        masks[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    masks
};
/// Odd constants for [`fold_multiply`].
pub(crate) const K0: u64 = 0x9E37_79B9_7F4A_7C15;
pub(crate) const K1: u64 = 0xD6E8_FEB8_6659_FD93;

/// The 128-bit product of `a` and `b`, its halves XORed: a cheap mixer of both.
#[inline(always)]
pub(crate) fn fold_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    product as u64 ^ (product >> 64) as u64
}

/// `N` random keys for a hash of names, from the standard library's per-process random hash
/// keys (a fresh `RandomState` each call), so that a page cannot pick names that all fall in one
/// place of a table.
pub(crate) fn random_keys<const N: usize>() -> [u64; N] {
    use std::hash::BuildHasher;
    let state = std::collections::hash_map::RandomState::new();
    std::array::from_fn(|i| state.hash_one(i))
}

/// Up to 8 bytes as a little-endian word, zero beyond them: two or three loads that may
/// overlap, no loop.
#[inline(always)]
pub(crate) fn word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let byte = |i: usize| u64::from(bytes[i]) << (8 * i);
    let four = |i: usize| {
        let four: [u8; 4] = bytes[i..i + 4].try_into().expect("four bytes");
        u64::from(u32::from_le_bytes(four)) << (8 * i)
    };
    match n {
        0 => 0,
        1..=3 => byte(0) | byte(n / 2) | byte(n - 1),
        4..=7 => four(0) | four(n - 4),
        _ => u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes")),
    }
}

/// The first `n` (at most 8) bytes of `bytes` as a little-endian word, zero beyond them: one load
/// and a mask when `bytes` goes on for 8 bytes (a name inside its window usually does).
#[inline(always)]
pub(crate) fn prefix_word(bytes: &[u8], n: usize) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(&eight) => {
            let mask = if n == 8 { u64::MAX } else { (1 << (8 * n)) - 1 };
            u64::from_le_bytes(eight) & mask
        }
        None => word(&bytes[..n]),
    }
}

/// A keyed hash of short strings for hash tables of names as written: words of the string
/// folded in with [`fold_multiply`] under per-process random keys, so that a document cannot pick
/// names that all collide. Names are a few bytes, and the standard library's SipHash cost more
/// than the rest of a lookup (XML5's attribute names: 0.19 instructions a byte of the XML race).
#[derive(Clone)]
pub(crate) struct WordHash {
    keys: [u64; 2],
}

impl WordHash {
    pub(crate) fn new() -> WordHash {
        WordHash {
            keys: random_keys(),
        }
    }
}

impl Default for WordHash {
    fn default() -> WordHash {
        WordHash::new()
    }
}

impl BuildHasher for WordHash {
    type Hasher = WordHasher;

    fn build_hasher(&self) -> WordHasher {
        WordHasher {
            state: self.keys[0],
            key: self.keys[1] | 1,
        }
    }
}

/// The state of one [`WordHash`].
pub(crate) struct WordHasher {
    state: u64,
    key: u64,
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            self.state = fold_multiply(self.state ^ word(chunk), self.key);
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.state = fold_multiply(self.state ^ u64::from(byte), K1);
    }

    fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_hashes_tell_names_apart_and_agree_on_equal_ones() {
        let hash = WordHash::new();
        let names = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "abcdefgh",
            "abcdefghi",
            "abcdefgi",
            "xmlns",
        ];
        for a in names {
            assert_eq!(hash.hash_one(a), hash.hash_one(String::from(a)));
            for b in names {
                if a != b {
                    assert_ne!(hash.hash_one(a), hash.hash_one(b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn words_are_the_bytes_little_endian_with_zeros_above() {
        let bytes = b"abcdefghij";
        for start in 0..bytes.len() {
            for n in 0..=8.min(bytes.len() - start) {
                let part = &bytes[start..start + n];
                let mut eight = [0; 8];
                eight[..n].copy_from_slice(part);
                let want = u64::from_le_bytes(eight);
                assert_eq!(word(part), want, "{part:?}");
                assert_eq!(prefix_word(&bytes[start..], n), want, "{part:?}");
            }
        }
    }
}
