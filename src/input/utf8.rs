//! UTF-8 validity of a chunked byte stream ([`Utf8Stream`]) and of a byte span ([`valid_str`]), and
//! lossy decoding of byte spans into text ([`push_lossy`]).
//!
//! The tokenizer works on raw bytes and hands out `&str` slices of them; it may only do so without
//! copying when the bytes are valid UTF-8. [`Utf8Stream`] answers "is everything fed so far valid?"
//! incrementally, at the cost of one SIMD validation per chunk. When a span is not valid, the
//! decoding functions replace each maximal invalid subpart with one U+FFFD, exactly as the WHATWG
//! Encoding Standard's UTF-8 decoder (and std's `utf8_chunks`) do.

use bumpalo::collections::String as BumpString;

use super::decoder::incomplete_tail_len;

/// Incremental UTF-8 validation of a stream fed in chunks of any size.
///
/// A code point split between two chunks is fine: its first bytes are kept (at most 3) until the
/// next chunk completes it. A sequence still incomplete when the input ends is invalid, which
/// [`finish`](Self::finish) reports. Once invalid, the stream stays invalid (later chunks are not
/// looked at).
///
/// Cost: a chunk that is valid and continues no pending sequence costs one `simdutf8` call (plus a
/// look at its last three bytes); a pending sequence costs one more call on at most 4 bytes.
#[derive(Clone, Debug)]
pub(crate) struct Utf8Stream {
    valid: bool,
    pending: [u8; 4],
    pending_len: u8,
}

impl Default for Utf8Stream {
    fn default() -> Self {
        Self::new()
    }
}

impl Utf8Stream {
    /// A stream that has seen no byte yet (and so is valid).
    pub(crate) const fn new() -> Self {
        Utf8Stream {
            valid: true,
            pending: [0; 4],
            pending_len: 0,
        }
    }

    /// Adds the next chunk of the stream. Returns whether everything seen so far is valid UTF-8,
    /// counting an incomplete sequence at the end of `chunk` as valid for now (the next chunk must
    /// complete it).
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> bool {
        if !self.valid {
            return false;
        }
        let mut rest = chunk;
        if self.pending_len > 0 {
            let p = usize::from(self.pending_len);
            let take = (4 - p).min(rest.len());
            let mut tmp = self.pending;
            tmp[p..p + take].copy_from_slice(&rest[..take]);
            match simdutf8::compat::from_utf8(&tmp[..p + take]) {
                Ok(_) => rest = &rest[take..],
                // The pending sequence is a strict prefix of a code point, so anything valid covers
                // that whole code point: go on after what is known valid.
                Err(e) if e.valid_up_to() > 0 => rest = &rest[e.valid_up_to() - p..],
                Err(e) if e.error_len().is_none() && take == rest.len() => {
                    // Still incomplete (the chunk was too short to finish it).
                    self.pending = tmp;
                    self.pending_len = (p + take) as u8;
                    return true;
                }
                Err(_) => return self.invalid(),
            }
            self.pending_len = 0;
        }
        let (body, tail) = rest.split_at(rest.len() - incomplete_tail_len(rest));
        // A body that ends before a lead byte (or at the chunk's end with no incomplete tail) can
        // only fail on a real error, so the faster `basic` validator is enough.
        if simdutf8::basic::from_utf8(body).is_err() {
            return self.invalid();
        }
        if !tail.is_empty() {
            match simdutf8::compat::from_utf8(tail) {
                Err(e) if e.valid_up_to() == 0 && e.error_len().is_none() => {
                    self.pending[..tail.len()].copy_from_slice(tail);
                    self.pending_len = tail.len() as u8;
                }
                // A tail is shorter than its lead byte announces, so it never validates whole.
                Ok(_) => {}
                Err(_) => return self.invalid(),
            }
        }
        true
    }

    /// Ends the stream: a sequence still pending is incomplete, hence invalid. Returns whether the
    /// whole stream was valid UTF-8. Feeding after `finish` starts afresh from a code point
    /// boundary (the validity seen so far is kept).
    pub(crate) fn finish(&mut self) -> bool {
        if self.pending_len > 0 {
            self.pending_len = 0;
            self.valid = false;
        }
        self.valid
    }

    /// Whether everything fed so far is valid, an incomplete sequence at the end counting as valid
    /// (as [`feed`](Self::feed) returns it).
    pub(crate) fn is_valid(&self) -> bool {
        self.valid
    }

    fn invalid(&mut self) -> bool {
        self.valid = false;
        self.pending_len = 0;
        false
    }
}

/// `bytes` as a `&str` when they are valid UTF-8: ASCII checked word by word, anything else by
/// simdutf8.
pub(crate) fn valid_str(bytes: &[u8]) -> Option<&str> {
    crate::scan::ascii_str(bytes).or_else(|| simdutf8::basic::from_utf8(bytes).ok())
}

/// Appends `bytes` to `out` as text, each maximal invalid subpart replaced with one U+FFFD (the
/// WHATWG UTF-8 decoder's output). The bytes are decoded on their own: a sequence cut at either
/// end of `bytes` is an error here even if the stream around it completes it.
pub(crate) fn push_lossy(bytes: &[u8], out: &mut BumpString<'_>) {
    match valid_str(bytes) {
        Some(s) => out.push_str(s),
        None => push_slow(bytes, out),
    }
}

fn push_slow(bytes: &[u8], out: &mut BumpString<'_>) {
    // std's chunks follow the same "maximal subpart" practice: each invalid part is one error.
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push('\u{FFFD}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{cases, samples, splits, xorshift};
    use bumpalo::Bump;

    /// `bytes` decoded by [`push_lossy`] on its own.
    fn lossy(bytes: &[u8], arena: &Bump) -> String {
        let mut out = BumpString::new_in(arena);
        push_lossy(bytes, &mut out);
        out.as_str().to_owned()
    }

    #[test]
    fn stream_validity_at_every_split() {
        for s in samples() {
            let whole = std::str::from_utf8(&s);
            for chunks in splits(&s) {
                let mut st = Utf8Stream::new();
                let mut fed = 0;
                for c in &chunks {
                    fed += c.len();
                    let got = st.feed(c);
                    // Valid so far = the prefix is valid up to an incomplete (not invalid) end.
                    let want = match std::str::from_utf8(&s[..fed]) {
                        Ok(_) => true,
                        Err(e) => e.error_len().is_none(),
                    };
                    assert_eq!(got, want, "{s:02X?} split {chunks:02X?}");
                    assert_eq!(st.is_valid(), want);
                }
                assert_eq!(st.finish(), whole.is_ok(), "{s:02X?} split {chunks:02X?}");
                assert_eq!(st.is_valid(), whole.is_ok());
            }
        }
    }

    #[test]
    fn stream_every_code_point_split_everywhere() {
        let mut buf = [0u8; 4];
        // Every 97th code point; under Miri, which runs the tests about a thousand times slower,
        // every 16411th.
        let step = if cfg!(miri) { 16411 } else { 97 };
        for c in (0..=0x10FFFFu32).step_by(step).filter_map(char::from_u32) {
            let b = c.encode_utf8(&mut buf).as_bytes();
            for i in 0..=b.len() {
                let mut st = Utf8Stream::new();
                assert!(st.feed(&b[..i]));
                assert!(st.feed(&b[i..]));
                assert!(st.finish());
            }
        }
    }

    #[test]
    fn invalid_stays_invalid_and_empty_chunks_are_harmless() {
        let mut st = Utf8Stream::new();
        assert!(st.feed(b""));
        assert!(st.feed(b"\xE2"));
        assert!(st.feed(b""));
        assert!(st.feed(b"\x82"));
        assert!(!st.feed(b"a"));
        assert!(!st.feed(b"all fine now"));
        assert!(!st.finish());

        let mut st = Utf8Stream::new();
        assert!(st.feed(b"x\xF0"));
        assert!(!st.finish());
    }

    #[test]
    fn random_streams_match_std() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        let alphabet = b"a\r\n\x80\x9F\xA0\xBF\xC2\xC3\xDF\xE0\xE2\xED\xEF\xF0\xF4\xF5\xFF";
        for _ in 0..cases(3000, 100) {
            let len = (xorshift(&mut rng) % 24) as usize;
            let s: Vec<u8> = (0..len)
                .map(|_| alphabet[(xorshift(&mut rng) % alphabet.len() as u64) as usize])
                .collect();
            let mut st = Utf8Stream::new();
            let mut i = 0;
            while i < s.len() {
                let n = 1 + (xorshift(&mut rng) % 5) as usize;
                let end = (i + n).min(s.len());
                st.feed(&s[i..end]);
                i = end;
            }
            assert_eq!(st.finish(), std::str::from_utf8(&s).is_ok(), "{s:02X?}");
        }
    }

    #[test]
    fn lossy_matches_std_and_borrows_valid_input() {
        let arena = Bump::new();
        for s in samples() {
            assert_eq!(lossy(&s, &arena), String::from_utf8_lossy(&s), "{s:02X?}");
            let valid = valid_str(&s);
            assert_eq!(valid, std::str::from_utf8(&s).ok(), "{s:02X?}");
            if let Some(valid) = valid {
                assert!(
                    std::ptr::eq(valid.as_ptr(), s.as_ptr()),
                    "valid input is borrowed"
                );
            }
            let mut out = BumpString::from_str_in("<", &arena);
            push_lossy(&s, &mut out);
            push_lossy(b">", &mut out);
            assert_eq!(out.as_str(), format!("<{}>", String::from_utf8_lossy(&s)));
        }
    }

    #[test]
    fn lossy_replaces_maximal_subparts() {
        let arena = Bump::new();
        let r = "\u{FFFD}";
        let cases: &[(&[u8], String)] = &[
            (b"\x80", r.to_string()),
            (b"\xC2", r.to_string()),
            (b"\xE2\x82", r.to_string()),
            (b"\xF0\x9F\x98", r.to_string()),
            (b"\xC0\x80", r.repeat(2)),
            (b"\xC1\x80", r.repeat(2)),
            (b"\xE0\x80\x80", r.repeat(3)),
            (b"\xED\xA0\x80", r.repeat(3)),
            (b"\xF4\x90\x80\x80", r.repeat(4)),
            (b"\xF5\x80\x80\x80", r.repeat(4)),
            (b"\xFF\xFE", r.repeat(2)),
            (b"a\xE2\x82b", format!("a{r}b")),
            (b"a\xF0\x9F\x98b\xF0\x9F\x98\x80", format!("a{r}b😀")),
        ];
        for (bytes, want) in cases {
            assert_eq!(&lossy(bytes, &arena), want, "{bytes:02X?}");
        }
    }
}
