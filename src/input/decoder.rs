//! The byte-at-a-time UTF-8 decoder of the WHATWG Encoding Standard (§4.1.1 "UTF-8 decoder"), and
//! small byte-counting helpers shared by the other input modules.
//!
//! The bulk paths of this module's siblings validate with simdutf8 and never decode byte by byte;
//! [`Utf8Decoder`] is their exact slow path for invalid input, and the way they carry a code point
//! that a chunk seam cut in two. Its error behaviour is the standard's: every *maximal subpart* of
//! an ill-formed sequence (the longest prefix of a well-formed sequence, or one byte when no
//! well-formed sequence starts there) is one error, i.e. one U+FFFD. This is the same practice as
//! std's `<[u8]>::utf8_chunks()` and `String::from_utf8_lossy`, which the tests check it against.

/// What one byte did to a [`Utf8Decoder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoded {
    /// The byte was taken into a multi-byte sequence that is still incomplete.
    Pending,
    /// The byte completed this code point (which starts at the sequence's first byte).
    Char(u32),
    /// The byte is an error on its own (a lone continuation byte or a byte that never starts a
    /// sequence: C0, C1, F5–FF). It was consumed; it decodes to one U+FFFD.
    Invalid,
    /// The byte cannot continue the pending sequence: the pending bytes (which do not include this
    /// one) are one error, one U+FFFD. The decoder is reset and **the byte must be pushed again**.
    InvalidRetry,
}

/// The WHATWG UTF-8 decoder's state: the code point built so far, how many continuation bytes it
/// still needs, and the range the next continuation byte must fall in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Utf8Decoder {
    cp: u32,
    needed: u8,
    seen: u8,
    lower: u8,
    upper: u8,
}

impl Default for Utf8Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Utf8Decoder {
    /// A decoder between sequences.
    pub(crate) const fn new() -> Self {
        Utf8Decoder {
            cp: 0,
            needed: 0,
            seen: 0,
            lower: 0x80,
            upper: 0xBF,
        }
    }

    /// Whether a multi-byte sequence is started and not yet complete.
    #[inline]
    pub(crate) fn is_pending(&self) -> bool {
        self.needed != 0
    }

    /// How many bytes the pending sequence holds (0 when none is pending, else 1–3).
    #[inline]
    pub(crate) fn pending_len(&self) -> usize {
        if self.needed == 0 {
            0
        } else {
            1 + self.seen as usize
        }
    }

    /// Whether `b` would extend the pending sequence (false when none is pending). When it would
    /// not, the pending bytes are one error that ends before `b`.
    #[inline]
    pub(crate) fn accepts(&self, b: u8) -> bool {
        self.needed != 0 && (self.lower..=self.upper).contains(&b)
    }

    /// Feeds one byte (the standard's handler, with "restore byte to the stream" surfacing as
    /// [`Decoded::InvalidRetry`]).
    #[inline]
    pub(crate) fn push(&mut self, b: u8) -> Decoded {
        if self.needed == 0 {
            match b {
                0x00..=0x7F => Decoded::Char(u32::from(b)),
                0xC2..=0xDF => {
                    self.needed = 1;
                    self.cp = u32::from(b & 0x1F);
                    Decoded::Pending
                }
                0xE0..=0xEF => {
                    if b == 0xE0 {
                        self.lower = 0xA0;
                    } else if b == 0xED {
                        // Surrogates (U+D800–U+DFFF) would be ED A0..BF xx: not UTF-8.
                        self.upper = 0x9F;
                    }
                    self.needed = 2;
                    self.cp = u32::from(b & 0x0F);
                    Decoded::Pending
                }
                0xF0..=0xF4 => {
                    if b == 0xF0 {
                        self.lower = 0x90;
                    } else if b == 0xF4 {
                        self.upper = 0x8F;
                    }
                    self.needed = 3;
                    self.cp = u32::from(b & 0x07);
                    Decoded::Pending
                }
                _ => Decoded::Invalid,
            }
        } else if !(self.lower..=self.upper).contains(&b) {
            *self = Self::new();
            Decoded::InvalidRetry
        } else {
            self.lower = 0x80;
            self.upper = 0xBF;
            self.cp = (self.cp << 6) | u32::from(b & 0x3F);
            self.seen += 1;
            if self.seen == self.needed {
                let cp = self.cp;
                *self = Self::new();
                Decoded::Char(cp)
            } else {
                Decoded::Pending
            }
        }
    }
}

/// Whether `b` is a UTF-8 continuation byte (10xxxxxx).
#[inline]
pub(crate) const fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The UTF-16 length of the code point `cp` (2 outside the Basic Multilingual Plane, else 1).
#[inline]
pub(crate) const fn utf16_width(cp: u32) -> u64 {
    if cp >= 0x1_0000 { 2 } else { 1 }
}

/// The number of UTF-16 code units in `bytes`, which must be valid UTF-8: one per non-continuation
/// byte, plus one more per 4-byte lead byte. Counts into `u8` lanes, 127 bytes (at most 254) at a
/// time, which auto-vectorizes well.
#[inline]
pub(crate) fn utf16_len_valid(bytes: &[u8]) -> u64 {
    let mut total = 0;
    for chunk in bytes.chunks(127) {
        let mut n = 0u8;
        for &b in chunk {
            n += u8::from(!is_continuation(b)) + u8::from(b >= 0xF0);
        }
        total += u64::from(n);
    }
    total
}

/// The number of UTF-16 code units `bytes` decodes to with the WHATWG decoder, each error (each
/// maximal invalid subpart, including an incomplete sequence at the end) counting as one U+FFFD.
pub(crate) fn utf16_len_lossy(bytes: &[u8]) -> u64 {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return utf16_len_valid(bytes);
    }
    let mut dec = Utf8Decoder::new();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        match dec.push(bytes[i]) {
            Decoded::Pending => i += 1,
            Decoded::Char(cp) => {
                n += utf16_width(cp);
                i += 1;
            }
            Decoded::Invalid => {
                n += 1;
                i += 1;
            }
            Decoded::InvalidRetry => n += 1,
        }
    }
    n + u64::from(dec.is_pending())
}

/// Length (0–3) of the incomplete multi-byte sequence at the end of `bytes`: the bytes from the
/// last lead byte on, when that lead byte announces more bytes than follow it. Only lead bytes and
/// lengths are looked at; whether those bytes are a *valid* prefix is for the caller to check.
/// Splitting there leaves a body that ends at a character boundary whenever the input is valid.
#[inline]
pub(crate) fn incomplete_tail_len(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for i in 1..=n.min(3) {
        let b = bytes[n - i];
        if !is_continuation(b) {
            let width = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xFF => 4,
                _ => 1,
            };
            return if width > i { i } else { 0 };
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::code_points;

    /// Decodes `bytes` with [`Utf8Decoder`] into a string (errors as U+FFFD).
    fn decode(bytes: &[u8]) -> String {
        let mut dec = Utf8Decoder::new();
        let mut out = String::new();
        let mut i = 0;
        while i < bytes.len() {
            match dec.push(bytes[i]) {
                Decoded::Pending => i += 1,
                Decoded::Char(cp) => {
                    out.push(char::from_u32(cp).unwrap());
                    i += 1;
                }
                Decoded::Invalid => {
                    out.push('\u{FFFD}');
                    i += 1;
                }
                Decoded::InvalidRetry => out.push('\u{FFFD}'),
            }
        }
        if dec.is_pending() {
            out.push('\u{FFFD}');
        }
        out
    }

    const INTERESTING: &[u8] = &[
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
        0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
    ];

    /// Bytes for Miri (which runs the tests about a thousand times slower) to combine into 3- and
    /// 4-byte strings instead of [`INTERESTING`]: ASCII, a continuation byte, and the 3- and 4-byte
    /// lead bytes whose second byte has a range of its own.
    const FEW: &[u8] = &[0x41, 0x80, 0xE0, 0xF0];

    #[test]
    fn matches_std_lossy_on_all_short_sequences() {
        // Every 1- and 2-byte string, and every 3- and 4-byte string over the interesting bytes;
        // under Miri, the 2-byte strings over the interesting bytes and the longer ones over
        // `FEW`.
        let (pairs, longer): (Vec<u8>, &[u8]) = if cfg!(miri) {
            (INTERESTING.to_vec(), FEW)
        } else {
            ((0..=255).collect(), INTERESTING)
        };
        for &a in &pairs {
            assert_eq!(decode(&[a]), String::from_utf8_lossy(&[a]));
            for &b in &pairs {
                assert_eq!(
                    decode(&[a, b]),
                    String::from_utf8_lossy(&[a, b]),
                    "{a:02X} {b:02X}"
                );
            }
        }
        for &a in longer {
            for &b in longer {
                for &c in longer {
                    let s = [a, b, c];
                    assert_eq!(decode(&s), String::from_utf8_lossy(&s), "{s:02X?}");
                    for &d in longer {
                        let s = [a, b, c, d, b'z'];
                        assert_eq!(decode(&s), String::from_utf8_lossy(&s), "{s:02X?}");
                        assert_eq!(
                            utf16_len_lossy(&s),
                            decode(&s).encode_utf16().count() as u64
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn maximal_subparts() {
        let cases: &[(&[u8], &str)] = &[
            (b"\x80", "\u{FFFD}"),
            (b"\xC2", "\u{FFFD}"),
            (b"\xE2\x82", "\u{FFFD}"),
            (b"\xF0\x9F\x98", "\u{FFFD}"),
            (b"\xC0\x80", "\u{FFFD}\u{FFFD}"),
            (b"\xC1\xBF", "\u{FFFD}\u{FFFD}"),
            (b"\xE0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
            (b"\xED\xA0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
            (b"\xF0\x80\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            (b"\xF4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            (b"\xF5\x80", "\u{FFFD}\u{FFFD}"),
            (b"\xE1\x80A", "\u{FFFD}A"),
            (b"\xF1\x80\x80A", "\u{FFFD}A"),
            (b"\xF1\x80\x80\xF1\x80\x80\x80", "\u{FFFD}\u{40000}"),
            (b"\xEF\xBF\xBF", "\u{FFFF}"),
            (b"\xF4\x8F\xBF\xBF", "\u{10FFFF}"),
        ];
        for &(bytes, want) in cases {
            assert_eq!(decode(bytes), want, "{bytes:02X?}");
        }
    }

    #[test]
    fn every_scalar_value_round_trips() {
        let mut buf = [0u8; 4];
        let mut dec = Utf8Decoder::new();
        for c in code_points() {
            let s = c.encode_utf8(&mut buf);
            let bytes = s.as_bytes();
            for (i, &b) in bytes.iter().enumerate() {
                let want = if i + 1 == bytes.len() {
                    Decoded::Char(c as u32)
                } else {
                    Decoded::Pending
                };
                if i > 0 {
                    assert!(dec.accepts(b));
                    assert_eq!(dec.pending_len(), i);
                }
                assert_eq!(dec.push(b), want);
            }
            assert!(!dec.is_pending());
            assert_eq!(utf16_len_valid(bytes), c.len_utf16() as u64);
            assert_eq!(utf16_width(c as u32), c.len_utf16() as u64);
        }
    }

    #[test]
    fn tail_lengths() {
        assert_eq!(incomplete_tail_len(b""), 0);
        assert_eq!(incomplete_tail_len(b"abc"), 0);
        assert_eq!(incomplete_tail_len(b"a\xC3"), 1);
        assert_eq!(incomplete_tail_len(b"a\xC3\xA9"), 0);
        assert_eq!(incomplete_tail_len(b"\xE2\x82"), 2);
        assert_eq!(incomplete_tail_len(b"\xE2\x82\xAC"), 0);
        assert_eq!(incomplete_tail_len(b"\xF0\x9F\x98"), 3);
        assert_eq!(incomplete_tail_len(b"\xF0\x9F\x98\x80"), 0);
        assert_eq!(incomplete_tail_len(b"\x80\x80\x80"), 0);
        assert_eq!(incomplete_tail_len(b"\xF0\x80\x80\x80"), 0);
        assert_eq!(incomplete_tail_len(b"\xFF"), 1);
        // Every prefix of a valid string splits into a valid body and an incomplete tail.
        let s = "aé€😀\u{10FFFF}z".as_bytes();
        for end in 0..=s.len() {
            let t = incomplete_tail_len(&s[..end]);
            assert!(std::str::from_utf8(&s[..end - t]).is_ok(), "end {end}");
            let err = std::str::from_utf8(&s[..end]).err();
            assert_eq!(t, err.map_or(0, |e| end - e.valid_up_to()));
        }
    }
}
