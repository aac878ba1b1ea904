//! From offsets in the decoded UTF-8 back to offsets in the original bytes.
//!
//! UTF-8 input is fed as it is, so the two differ only by the BOM ([`Offsets::Shift`]). Decoded
//! input is recorded as it is decoded ([`Offsets::Runs`]): a run is `count` groups in a row that
//! each took the same number of original bytes and gave the same number of UTF-8 bytes (ASCII is
//! 1→1, a Shift_JIS kanji 2→3, a windows-1252 `é` 1→2), so ordinary text needs few runs. A group is
//! what one call of the decoder turned out: one character for well-formed input, which makes the
//! map exact at every character boundary. Malformed input can make one call emit U+FFFD for the
//! bytes before and then a character for the byte just read: two groups. Where one call emits
//! several characters otherwise, offsets inside the group map to its start.
//!
//! Runs the tokenizer can no longer hand out are forgotten at each feed, so the map stays as
//! small as the tokenizer's own buffers.

use std::collections::VecDeque;

/// U+FFFD in UTF-8.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// How decoded offsets relate to original ones.
pub(crate) enum Offsets {
    /// Not tracked (decoded input, mapping not asked for).
    Off,
    /// Original = decoded + this (UTF-8 fed as it is: the BOM's length).
    Shift(usize),
    Runs(OffsetMap),
}

/// The pieces to decode `bytes` in, one decoder call each, so that an [`OffsetMap`] recording
/// every call maps exactly at every character boundary: one byte at a time, except runs of
/// ASCII after an ASCII byte in an ASCII-compatible encoding, which go at once. `after_ascii`:
/// the byte before `bytes` was ASCII; [`MappedPieces::after_ascii`] tells it for the next call.
///
/// ```
/// use tagstream::encoding::mapped_pieces;
/// let pieces: Vec<&[u8]> = mapped_pieces(b"ab\xE9cd", true, true).collect();
/// assert_eq!(pieces, [&b"ab"[..], b"\xE9", b"c", b"d"]);
/// ```
pub fn mapped_pieces(bytes: &[u8], ascii_compatible: bool, after_ascii: bool) -> MappedPieces<'_> {
    MappedPieces {
        rest: bytes,
        ascii_compatible,
        after_ascii,
    }
}

/// The pieces of [`mapped_pieces`].
#[derive(Clone, Debug)]
pub struct MappedPieces<'a> {
    rest: &'a [u8],
    ascii_compatible: bool,
    after_ascii: bool,
}

impl MappedPieces<'_> {
    /// Whether the last byte handed out (or, before any, the one before the bytes) is ASCII.
    pub fn after_ascii(&self) -> bool {
        self.after_ascii
    }
}

impl<'a> Iterator for MappedPieces<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let run = if self.ascii_compatible && self.after_ascii {
            self.rest.iter().take_while(|b| b.is_ascii()).count()
        } else {
            0
        };
        let (piece, rest) = self.rest.split_at_checked(run.max(1))?;
        self.rest = rest;
        self.after_ascii = piece[piece.len() - 1].is_ascii();
        Some(piece)
    }
}

/// `count` groups from decoded offset `decoded` and original offset `original`, each of
/// `original_width` original bytes and `decoded_width` UTF-8 bytes.
#[derive(Clone, Copy, Debug)]
struct Run {
    decoded: usize,
    original: usize,
    decoded_width: usize,
    original_width: usize,
    count: usize,
}

impl Run {
    fn decoded_end(&self) -> usize {
        self.decoded + self.decoded_width * self.count
    }
}

/// A map from offsets in decoded UTF-8 back to offsets in the original bytes, recorded decoder
/// call by decoder call (see the module docs of `encoding/offsets.rs`): what the [`Transcoder`]
/// keeps with [`map_offsets`], for a caller that decodes by itself. Record every call's input
/// and output, a non-ASCII byte at a time, and offsets map exactly at every character boundary.
///
/// ```
/// use tagstream::encoding::OffsetMap;
///
/// // windows-1252 after a 0-byte BOM: "caf" as it is, then "\xE9" decoded to "é" (2 bytes).
/// let mut map = OffsetMap::new(0);
/// map.record_ascii(3);
/// map.record(b"\xE9", "é".as_bytes());
/// map.record(b"!", b"!");
/// assert_eq!(map.original(5), Some(4));
/// assert_eq!(map.original(6), Some(5));
/// ```
///
/// [`Transcoder`]: super::Transcoder
/// [`map_offsets`]: super::Transcoder::map_offsets
#[derive(Debug)]
pub struct OffsetMap {
    runs: VecDeque<Run>,
    decoded_end: usize,
    original_end: usize,
    /// Original bytes the decoder took without output yet (the start of a character).
    pending: usize,
}

impl OffsetMap {
    /// An empty map whose first decoded byte comes from original offset `original` (after a BOM).
    pub fn new(original: usize) -> OffsetMap {
        OffsetMap {
            runs: VecDeque::new(),
            decoded_end: 0,
            original_end: original,
            pending: 0,
        }
    }

    /// One decoder call turned the original bytes `piece` into the UTF-8 bytes `out`.
    pub fn record(&mut self, piece: &[u8], out: &[u8]) {
        if out.is_empty() {
            self.pending += piece.len();
        } else if self.pending == 0 && out == piece && piece.is_ascii() {
            self.record_ascii(piece.len());
        } else if let Some(rest) = self.after_replacement(out) {
            // An error for the pending bytes, then `piece` read afresh (the decoders' "prepend").
            let pending = std::mem::take(&mut self.pending);
            self.push(pending, REPLACEMENT.len(), 1);
            self.push(piece.len(), rest.len(), 1);
        } else {
            let original = std::mem::take(&mut self.pending) + piece.len();
            self.push(original, out.len(), 1);
        }
    }

    /// `len` ASCII bytes that needed no decoder call: each its own decoding.
    pub fn record_ascii(&mut self, len: usize) {
        debug_assert_eq!(
            self.pending, 0,
            "ASCII passes through only between characters"
        );
        if len > 0 {
            self.push(1, 1, len);
        }
    }

    /// What follows a leading U+FFFD in `out`, when pending bytes can have caused it.
    fn after_replacement<'o>(&self, out: &'o [u8]) -> Option<&'o [u8]> {
        let rest = out.strip_prefix(REPLACEMENT)?;
        (self.pending > 0 && !rest.is_empty()).then_some(rest)
    }

    fn push(&mut self, original_width: usize, decoded_width: usize, count: usize) {
        match self.runs.back_mut() {
            Some(last)
                if last.original_width == original_width && last.decoded_width == decoded_width =>
            {
                last.count += count;
            }
            _ => self.runs.push_back(Run {
                decoded: self.decoded_end,
                original: self.original_end,
                decoded_width,
                original_width,
                count,
            }),
        }
        self.decoded_end += decoded_width * count;
        self.original_end += original_width * count;
    }

    /// Forget the runs that end at or before decoded offset `offset`.
    pub fn forget_before(&mut self, offset: usize) {
        while self.runs.front().is_some_and(|r| r.decoded_end() <= offset) {
            self.runs.pop_front();
        }
    }

    /// The original offset of the start of the group holding decoded offset `offset`, or the
    /// end of everything recorded for the offset one past it; `None` for an offset forgotten
    /// or not recorded yet.
    pub fn original(&self, offset: usize) -> Option<usize> {
        if offset == self.decoded_end {
            return Some(self.original_end);
        }
        let i = self.runs.partition_point(|r| r.decoded_end() <= offset);
        let run = self.runs.get(i).filter(|r| r.decoded <= offset)?;
        let k = (offset - run.decoded) / run.decoded_width;
        Some(run.original + k * run.original_width)
    }
}

impl Offsets {
    /// The original offset of decoded offset `offset`: exact at every group boundary (every
    /// character boundary of well-formed input); inside a group, the group's start, so that
    /// mapped spans stay ordered.
    pub(crate) fn original(&self, offset: usize) -> Option<usize> {
        match self {
            Offsets::Off => None,
            Offsets::Shift(shift) => Some(offset + shift),
            Offsets::Runs(runs) => runs.original(offset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_and_map() {
        let mut runs = OffsetMap::new(3);
        runs.record(b"<p>a", b"<p>a"); // original 3..7, decoded 0..4
        runs.record(b"\x93", b""); // a Shift_JIS lead byte
        runs.record(b"\xFA", "日".as_bytes());
        runs.record(b"\x96", b"");
        runs.record(b"\x7B", "本".as_bytes());
        runs.record(b"<", b"<");
        assert_eq!(runs.runs.len(), 3);
        let map = Offsets::Runs(runs);
        assert_eq!(map.original(0), Some(3));
        assert_eq!(map.original(4), Some(7));
        assert_eq!(map.original(7), Some(9));
        assert_eq!(map.original(8), Some(9), "inside a character: its start");
        assert_eq!(map.original(10), Some(11));
        assert_eq!(map.original(11), Some(12), "the end of what was recorded");
        assert_eq!(map.original(12), None);
    }

    #[test]
    fn an_error_and_the_byte_read_afresh_are_two_groups() {
        let mut runs = OffsetMap::new(0);
        runs.record(b"\x86", b"");
        runs.record(b"<", "\u{FFFD}<".as_bytes());
        let map = Offsets::Runs(runs);
        assert_eq!(map.original(3), Some(1));
    }

    #[test]
    fn forgotten_offsets_are_unknown() {
        let mut runs = OffsetMap::new(0);
        runs.record(&[b'a'; 10], &[b'a'; 10]);
        runs.record(b"\xE9", "é".as_bytes());
        runs.record(&[b'a'; 10], &[b'a'; 10]);
        runs.forget_before(12);
        let map = Offsets::Runs(runs);
        assert_eq!(map.original(5), None);
        assert_eq!(map.original(12), Some(11));
    }
}
