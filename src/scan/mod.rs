//! Scanner: finds the next byte that matters in a run of bytes that do not.
//!
//! Every hot state of the machine loops over bytes it merely skips (text, attribute values, comment
//! bodies, raw text) until it meets a byte of a small set. This module answers "where is the next byte of
//! set X" as fast as the hardware allows. Today it delegates to `memchr` (itself SIMD with runtime
//! dispatch) for sets of up to three bytes and to a 256-entry class table otherwise. It is the one module
//! where `unsafe` may appear when hand-written SIMD lands; the scalar functions here stay as its oracle.

/// A set of bytes, as a 256-entry membership table, built at compile time.
#[derive(Clone, Copy)]
pub(crate) struct ByteSet([bool; 256]);

impl ByteSet {
    /// The set holding exactly `bytes`.
    pub(crate) const fn of(bytes: &[u8]) -> ByteSet {
        let mut table = [false; 256];
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        ByteSet(table)
    }

    /// This set plus every byte in `lo..=hi`.
    pub(crate) const fn with_range(self, lo: u8, hi: u8) -> ByteSet {
        let mut table = self.0;
        let mut b = lo as usize;
        while b <= hi as usize {
            table[b] = true;
            b += 1;
        }
        ByteSet(table)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub(crate) const fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

/// Index of the first byte of `hay` that is in `set`.
#[inline]
pub(crate) fn find_in_set(set: &ByteSet, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| set.contains(b))
}

/// Index of the first `a` in `hay`.
#[inline]
pub(crate) fn find1(a: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr(a, hay)
}

/// Index of the first `a` or `b` in `hay`.
#[inline]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr2(a, b, hay)
}

/// Index of the first `a`, `b` or `c` in `hay`.
#[inline]
pub(crate) fn find3(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr3(a, b, c, hay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_search_matches_a_naive_scan() {
        let set = ByteSet::of(b"<>&").with_range(0, 8);
        let hay = b"abc def\x09ghi&<";
        assert_eq!(find_in_set(&set, hay), Some(11));
        assert_eq!(find_in_set(&set, b"plain"), None);
        assert_eq!(find3(b'x', b'y', b'<', hay), Some(12));
    }
}
