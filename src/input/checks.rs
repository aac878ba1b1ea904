//! The input-stream checks of the HTML Standard's "Preprocessing the input stream" (§13.2.3.5):
//! [`InputChecker`] reports every control character and noncharacter in the stream.
//!
//! These errors are about the decoded characters, not the tokenizer's state, so they are found by a
//! separate pass over the raw bytes, chunk by chunk, reported by the offset of each offending
//! character's first byte. The tokenizer merges them, in offset order, with its own errors.
//!
//! - `control-character-in-input-stream`: U+0001–U+0008, U+000B, U+000E–U+001F, U+007F–U+009F
//!   (the controls other than ASCII whitespace — TAB, LF, FF, CR — and U+0000, which the tokenizer
//!   reports itself where it matters).
//! - `noncharacter-in-input-stream`: U+FDD0–U+FDEF and the last two code points of every plane,
//!   U+xFFFE and U+xFFFF for planes 0 to 16.
//! - `surrogate-in-input-stream` cannot happen: UTF-8 cannot encode a surrogate. The bytes that
//!   would (ED A0–BF xx) are invalid UTF-8 that the decoder turns into U+FFFDs, which are no error
//!   of this kind; this checker never reports it.
//!
//! Invalid UTF-8 never causes a report: only complete, valid sequences are looked at.

use std::collections::VecDeque;

use super::decoder::{Decoded, Utf8Decoder};
use crate::error::ErrorCode;

/// Byte classes for the scan: most bytes need no look at all.
const SKIP: u8 = 0;
/// An ASCII control to report (it is always a character on its own, even after invalid bytes).
const CONTROL: u8 = 1;
/// A lead byte that can start a reportable character: C2 (C2 80–9F are U+0080–U+009F), EF (EF B7
/// 90–AF are U+FDD0–U+FDEF, EF BF BE/BF are U+FFFE/U+FFFF), F0–F4 (the planes' noncharacters).
const LEAD: u8 = 2;

const fn class_of(b: u8) -> u8 {
    match b {
        0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F => CONTROL,
        0xC2 | 0xEF | 0xF0..=0xF4 => LEAD,
        _ => SKIP,
    }
}

static CLASS: [u8; 256] = {
    let mut table = [SKIP; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = class_of(i as u8);
        i += 1;
    }
    table
};

/// The error, if any, that the input-stream checks give code point `cp`.
fn check(cp: u32) -> Option<ErrorCode> {
    match cp {
        0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F..=0x9F => {
            Some(ErrorCode::ControlCharacterInInputStream)
        }
        0xFDD0..=0xFDEF => Some(ErrorCode::NoncharacterInInputStream),
        _ if cp & 0xFFFE == 0xFFFE => Some(ErrorCode::NoncharacterInInputStream),
        _ => None,
    }
}

/// Whether byte `b` is not [`SKIP`], computed without the table so that [`skip`] can test a whole
/// block with vector instructions.
#[inline(always)]
fn flagged(b: u8) -> bool {
    (b < 0x20) & (b != 0) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r')
        | (b == 0x7F)
        | (b == 0xC2)
        | (b == 0xEF)
        | (b.wrapping_sub(0xF0) < 5)
}

/// Block size for [`skip`].
const BLOCK: usize = 32;

/// The index of the first byte at or after `i` that is not [`SKIP`] (or `bytes.len()`): blocks of
/// [`BLOCK`] bytes with nothing flagged are passed over whole (the test vectorizes), then the
/// class table finds the byte inside the block.
#[inline]
fn skip(bytes: &[u8], mut i: usize) -> usize {
    while let Some(block) = bytes.get(i..i + BLOCK) {
        let mut any = false;
        for &b in block {
            any |= flagged(b);
        }
        if any {
            break;
        }
        i += BLOCK;
    }
    while let Some(&b) = bytes.get(i) {
        if CLASS[usize::from(b)] != SKIP {
            return i;
        }
        i += 1;
    }
    i
}

/// Finds the control characters and noncharacters in a byte stream fed in chunks (see the
/// [module docs](self)), reporting each as `(offset of its first byte, code)`, in stream order.
///
/// A character cut by a chunk seam is kept (its decoder state, at most 3 bytes' worth) until the
/// next chunk completes or breaks it. Cost: 32-byte blocks holding none of the bytes that may start
/// an error (ASCII controls other than whitespace and NUL, DEL, C2, EF, F0–F4) are passed over with
/// one vectorized test each; only the sequences those bytes start are decoded.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputChecker {
    /// A reportable-looking sequence cut by the end of the last chunk.
    dec: Utf8Decoder,
    /// Stream offset of that sequence's first byte.
    start: usize,
}

impl InputChecker {
    /// A checker at the start of a stream.
    pub(crate) const fn new() -> Self {
        InputChecker {
            dec: Utf8Decoder::new(),
            start: 0,
        }
    }

    /// Checks the next chunk, whose first byte is at stream offset `base` (chunks must come in
    /// order, without gaps). Appends the errors found to `out`, in offset order; an error for a
    /// character that starts in an earlier chunk comes first. Stops right after the character
    /// whose error fills `out` to `cap` errors: returns how many bytes of `chunk` it read (all,
    /// unless it stopped there); the rest is to be fed again, as the next chunk.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        base: usize,
        out: &mut VecDeque<(usize, ErrorCode)>,
        cap: usize,
    ) -> usize {
        if out.len() >= cap {
            return 0;
        }
        let mut i = 0;
        if self.dec.is_pending() {
            debug_assert_eq!(
                base,
                self.start + self.dec.pending_len(),
                "chunks fed out of order"
            );
            while i < chunk.len() {
                match self.dec.push(chunk[i]) {
                    Decoded::Pending => i += 1,
                    Decoded::Char(cp) => {
                        i += 1;
                        if let Some(code) = check(cp) {
                            out.push_back((self.start, code));
                        }
                        break;
                    }
                    // Invalid: nothing to report, and the byte is looked at afresh below.
                    Decoded::InvalidRetry | Decoded::Invalid => break,
                }
            }
            if self.dec.is_pending() {
                return i;
            }
        }
        loop {
            if out.len() >= cap {
                return i;
            }
            i = skip(chunk, i);
            let Some(&b) = chunk.get(i) else { return i };
            if CLASS[usize::from(b)] == CONTROL {
                out.push_back((base + i, ErrorCode::ControlCharacterInInputStream));
                i += 1;
                continue;
            }
            // A lead byte: decode its sequence. A non-continuation byte always starts a
            // character (or an error), whatever came before, so this is exact.
            let start = i;
            let mut dec = Utf8Decoder::new();
            let _ = dec.push(b);
            i += 1;
            loop {
                let Some(&c) = chunk.get(i) else {
                    self.dec = dec;
                    self.start = base + start;
                    return i;
                };
                match dec.push(c) {
                    Decoded::Pending => i += 1,
                    Decoded::Char(cp) => {
                        i += 1;
                        if let Some(code) = check(cp) {
                            out.push_back((base + start, code));
                        }
                        break;
                    }
                    // Invalid sequence: no report; byte `i` is looked at afresh.
                    Decoded::InvalidRetry | Decoded::Invalid => break,
                }
            }
        }
    }

    /// Ends the stream. A sequence still cut short is invalid UTF-8, not a control or
    /// noncharacter, so there is nothing to report; the checker is reset for a new stream.
    pub(crate) fn finish(&mut self) {
        *self = Self::new();
    }

    /// Stream offset of a character cut by the end of the last chunk, whose error (if any) is not
    /// known yet. Every error before it has been reported.
    pub(crate) fn undecided_from(&self) -> Option<usize> {
        self.dec.is_pending().then_some(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{
        TRICKY, cases, code_points, random_bytes, reference_units, samples, splits, xorshift,
    };
    use ErrorCode::{ControlCharacterInInputStream as Ctrl, NoncharacterInInputStream as NonChar};

    /// The reports for `bytes`, from std's decoding and the spec's ranges, written out afresh.
    fn reference(bytes: &[u8]) -> Vec<(usize, ErrorCode)> {
        let mut out = Vec::new();
        for (start, end, c) in reference_units(bytes) {
            let cp = c as u32;
            if c == '\u{FFFD}' && bytes[start..end] != *"\u{FFFD}".as_bytes() {
                continue; // an invalid sequence
            }
            let control = (0x01..=0x1F).contains(&cp) && !matches!(c, '\t' | '\n' | '\x0C' | '\r')
                || (0x7F..=0x9F).contains(&cp);
            let nonchar = (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFF) >= 0xFFFE;
            if control {
                out.push((start, Ctrl));
            } else if nonchar {
                out.push((start, NonChar));
            }
        }
        out
    }

    fn run(chunks: &[&[u8]]) -> Vec<(usize, ErrorCode)> {
        let mut checker = InputChecker::new();
        let mut out = VecDeque::new();
        let mut base = 0;
        for c in chunks {
            assert_eq!(checker.feed(c, base, &mut out, usize::MAX), c.len());
            base += c.len();
        }
        checker.finish();
        out.into()
    }

    #[test]
    fn class_table_and_ranges() {
        for b in 0..=255u8 {
            let expect = match b {
                0x00 | b'\t' | b'\n' | 0x0C | b'\r' => SKIP,
                0x01..=0x1F | 0x7F => CONTROL,
                0xC2 | 0xEF | 0xF0..=0xF4 => LEAD,
                _ => SKIP,
            };
            assert_eq!(CLASS[usize::from(b)], expect, "{b:02X}");
        }
        assert_eq!(check(0), None);
        assert_eq!(check(0x0C), None);
        assert_eq!(check(0x0B), Some(Ctrl));
        assert_eq!(check(0x80), Some(Ctrl));
        assert_eq!(check(0xA0), None);
        assert_eq!(check(0xFDCF), None);
        assert_eq!(check(0xFDD0), Some(NonChar));
        assert_eq!(check(0xFDEF), Some(NonChar));
        assert_eq!(check(0xFDF0), None);
        assert_eq!(check(0xFFFD), None);
        for plane in 0..=16u32 {
            assert_eq!(check(plane << 16 | 0xFFFE), Some(NonChar));
            assert_eq!(check(plane << 16 | 0xFFFF), Some(NonChar));
            assert_eq!(check(plane << 16 | 0xFFFD), None);
        }
    }

    #[test]
    fn block_test_agrees_with_table() {
        for b in 0..=255u8 {
            assert_eq!(flagged(b), CLASS[usize::from(b)] != SKIP, "{b:02X}");
        }
        // A flagged byte at every place of a long run is found, and nothing before it. Under Miri:
        // fewer lengths and flagged bytes, each searched for from the start and from its place.
        let lens: &[usize] = if cfg!(miri) {
            &[0, 1, 33, 64]
        } else {
            &[0, 1, 31, 32, 33, 64, 100]
        };
        let flags: &[u8] = if cfg!(miri) {
            &[0x01, 0xF4]
        } else {
            &[0x01, 0x7F, 0xC2, 0xEF, 0xF4]
        };
        for &len in lens {
            let mut v = vec![b'a'; len];
            assert_eq!(skip(&v, 0), len);
            for at in 0..len {
                for &f in flags {
                    v[at] = f;
                    let froms = if cfg!(miri) {
                        vec![0, at]
                    } else {
                        (0..=at).collect()
                    };
                    for from in froms {
                        assert_eq!(skip(&v, from), at);
                    }
                    v[at] = 0xE9;
                }
            }
        }
    }

    #[test]
    fn every_code_point() {
        // All scalar values (under Miri, those of `code_points`) in one stream, in one chunk and in
        // 7-byte chunks.
        let s: String = code_points().into_iter().collect();
        let want = reference(s.as_bytes());
        assert_eq!(want.len(), 27 + 33 + 32 + 34, "controls and noncharacters");
        assert_eq!(run(&[s.as_bytes()]), want);
        let chunks: Vec<&[u8]> = s.as_bytes().chunks(7).collect();
        assert_eq!(run(&chunks), want);
    }

    #[test]
    fn every_split_of_samples() {
        for s in samples() {
            let want = reference(&s);
            for chunks in splits(&s) {
                assert_eq!(run(&chunks), want, "{s:02X?} {chunks:02X?}");
            }
        }
    }

    #[test]
    fn invalid_utf8_never_reports() {
        let cases: &[&[u8]] = &[
            b"\xC2",
            b"\xC2\x7F",
            b"\xC2\xC2\x80",
            b"\x80\x9F",
            b"\xC1\x9F",
            b"\xC0\x80",
            b"\xE0\x80\x80",
            b"\xED\xA0\x80",
            b"\xED\xBF\xBF",
            b"\xEF\xB7",
            b"\xEF\xBF",
            b"\xF0\x8F\xBF\xBF",
            b"\xF0\x9F\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF4\x9F\xBF\xBF",
            b"\xF5\x8F\xBF\xBF",
            b"\xFF\xFE",
        ];
        for &s in cases {
            let want: Vec<_> = reference(s);
            for chunks in splits(s) {
                assert_eq!(run(&chunks), want, "{s:02X?} {chunks:02X?}");
            }
            // Nothing in these is a valid control or noncharacter, except a DEL or a C2 80 after a
            // lone C2.
            let expect: &[(usize, ErrorCode)] = match s {
                b"\xC2\x7F" | b"\xC2\xC2\x80" => &[(1, Ctrl)],
                _ => &[],
            };
            assert_eq!(want, expect, "{s:02X?}");
        }
        assert_eq!(run(&[b"\xEF\xB7\x90", b"\x01"]), [(0, NonChar), (3, Ctrl)]);
        assert_eq!(run(&[b"\xEF\xB7", b"\x01"]), [(2, Ctrl)]);
        assert_eq!(
            run(&[b"\xF0\x9F", b"\xBF", b"\xBFz\x7F"]),
            [(0, NonChar), (5, Ctrl)]
        );
        assert_eq!(run(&[b"a\xC2", b"", b"\x85"]), [(1, Ctrl)]);
        assert_eq!(run(&[b"a\xC2", b"\x0B"]), [(2, Ctrl)]);
    }

    #[test]
    fn random_streams() {
        let mut rng = 0x0123_4567_89AB_CDEFu64;
        let mut alphabet = TRICKY.to_vec();
        alphabet.extend_from_slice(b"\xB7\x90\xAF\x85\x8F\x00\x1F\x0E");
        for _ in 0..cases(5000, 50) {
            let len = (xorshift(&mut rng) % 40) as usize;
            let s = random_bytes(&mut rng, &alphabet, len);
            let mut chunks = Vec::new();
            let mut i = 0;
            while i < s.len() {
                let end = (i + 1 + xorshift(&mut rng) as usize % 6).min(s.len());
                chunks.push(&s[i..end]);
                i = end;
            }
            assert_eq!(run(&chunks), reference(&s), "{s:02X?} {chunks:02X?}");
        }
    }

    /// Fed with a cap, taking one error whenever it stops and feeding the rest again, the checker
    /// finds what it finds uncapped, and never holds more than the cap.
    #[test]
    fn a_capped_feed_stops_and_resumes_exactly() {
        let mut rng = 0x0F1E_2D3C_4B5A_6978u64;
        let mut alphabet = TRICKY.to_vec();
        alphabet.extend_from_slice(b"\x01\x7F\xC2\x85\xEF\xB7\x90\xBF\xBE");
        for _ in 0..cases(2000, 20) {
            let len = (xorshift(&mut rng) % 60) as usize;
            let s = random_bytes(&mut rng, &alphabet, len);
            let cap = 1 + xorshift(&mut rng) as usize % 3;
            let mut checker = InputChecker::new();
            let (mut out, mut taken) = (VecDeque::new(), Vec::new());
            let mut base = 0;
            for chunk in s.chunks(1 + xorshift(&mut rng) as usize % 7) {
                let mut rest = chunk;
                loop {
                    let read = checker.feed(rest, base, &mut out, cap);
                    assert!(out.len() <= cap);
                    base += read;
                    rest = &rest[read..];
                    if rest.is_empty() {
                        break;
                    }
                    taken.push(out.pop_front().expect("stopped with a full queue"));
                }
            }
            taken.extend(out);
            assert_eq!(taken, reference(&s), "{s:02X?}, cap {cap}");
        }
    }

    #[test]
    fn long_text_with_sparse_errors() {
        let mut s = String::new();
        let lines: usize = cases(500, 20);
        for i in 0..lines {
            s.push_str("<div class=\"x\">Grüße, 世界 😀 text text text</div>\n\t");
            if i % 97 == 0 {
                s.push('\u{7}');
            }
            if i % 131 == 0 {
                s.push('\u{FFFF}');
            }
            if i % 151 == 0 {
                s.push('\u{9F}');
            }
        }
        let want = reference(s.as_bytes());
        assert_eq!(
            want.len(),
            lines.div_ceil(97) + lines.div_ceil(131) + lines.div_ceil(151)
        );
        assert_eq!(run(&[s.as_bytes()]), want);
        for size in [1, 2, 3, 5, 8, 13, 64, 1000] {
            let chunks: Vec<&[u8]> = s.as_bytes().chunks(size).collect();
            assert_eq!(run(&chunks), want, "chunk size {size}");
        }
    }
}
