//! Byte offsets to line and column ([`LineCounter`]), for parse errors.
//!
//! The tokenizer reports errors by absolute byte offset; [`crate::error::Position`] wants the line
//! and column that html5lib-tests and browsers' consoles use, on the *preprocessed* input stream
//! (the one where CRLF and lone CR have become LF):
//!
//! - Lines are 1-based and end at LF, lone CR or CRLF (one newline). The newline sits at the end of
//!   the line it ends: in `"ab\ncd"`, offset 2 (the LF) is line 1 column 3, offset 3 is line 2
//!   column 1.
//! - The LF of a CRLF is not a character of its own after preprocessing: its offset maps to the
//!   CR's position.
//! - Columns are 1-based and count UTF-16 code units: a character from U+10000 up takes two, every
//!   other character one, and so does each invalid UTF-8 sequence (each maximal invalid subpart,
//!   which decodes to one U+FFFD, as in the WHATWG UTF-8 decoder).
//! - An offset inside a multi-byte character (or inside one invalid subpart) maps to where that
//!   character starts. The offset just past the last byte (where end-of-file errors are reported)
//!   maps to the position a next character would have.
//!
//! Positions are only wanted for errors, so the counter is lazy: it keeps a cursor (an offset with
//! its line, column, a pending CR and a pending partial UTF-8 sequence) and only moves it when
//! asked, over the bytes the caller still holds. Moving is cheap on valid UTF-8: newlines are
//! found and counted with `memchr`, and only the bytes after the last newline are counted for the
//! column (one UTF-16 unit per non-continuation byte, one more per 4-byte lead); invalid bytes
//! take an exact byte-by-byte path. Hostile input can have an error every byte or two: after a
//! short move the counter looks a little way ahead for the run of ASCII bytes without CR or LF
//! that starts at the cursor, and a move that stays inside that run only adds to the column.

use memchr::{memchr_iter, memchr2, memchr2_iter, memrchr2};

use super::decoder::{
    Decoded, Utf8Decoder, incomplete_tail_len, is_continuation, utf16_len_lossy, utf16_len_valid,
    utf16_width,
};
use crate::error::Position;

/// Everything needed to go on counting from one offset: the line and column there, the position of
/// the CR just before it (if the byte before was a CR: an LF here is then that CR's and takes no
/// place), and a UTF-8 sequence cut short just before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// The stream offset this state describes.
    offset: usize,
    /// 1-based line of `offset` (already counting a newline that ends just before it).
    line: u64,
    /// 1-based column of the next unit: the pending sequence's first byte if `dec` holds one, else
    /// `offset` itself.
    col: u64,
    /// `Some(position of that CR)` when the unit just before `offset` is a CR.
    cr: Option<Position>,
    /// The pending partial sequence that ends at `offset`, if any.
    dec: Utf8Decoder,
}

/// Below this many bytes, [`State::scan`] counts byte by byte instead of validating and searching
/// in bulk.
const BULK_MIN: usize = 32;

/// How far ahead of the cursor that look goes: far enough to serve many close errors, short enough
/// to cost little when none follows.
const PLAIN_LOOKAHEAD: usize = 1024;

impl State {
    const START: State = State {
        offset: 0,
        line: 1,
        col: 1,
        cr: None,
        dec: Utf8Decoder::new(),
    };

    /// The position of `self.offset`, given the byte at that offset (`None` when it is not known:
    /// the input is then taken to end there).
    fn answer(&self, next: Option<u8>) -> Position {
        let here = Position {
            line: self.line,
            col: self.col,
        };
        if self.dec.is_pending() {
            match next {
                // Inside the sequence: where it starts.
                Some(b) if self.dec.accepts(b) => here,
                // The sequence is cut short: one U+FFFD, and the offset is past it.
                _ => Position {
                    line: self.line,
                    col: self.col + 1,
                },
            }
        } else {
            match (self.cr, next) {
                (Some(cr), Some(b'\n')) => cr,
                _ => here,
            }
        }
    }

    /// Counts `bytes`, the stream's bytes from `self.offset` on, moving `self` to their end.
    /// Returns the state at the start of the last line that begins inside them, if one does.
    fn scan(&mut self, bytes: &[u8]) -> Option<State> {
        let start = self.offset;
        let mut line_start = None;
        let mut i = 0;
        // A sequence cut by the last end, or a CR whose LF may follow: settle them byte by byte.
        while i < bytes.len() && (self.dec.is_pending() || self.cr.is_some()) {
            if self.step(bytes[i], start + i, &mut line_start) {
                i += 1;
            }
        }
        let rest = &bytes[i..];
        if rest.len() < BULK_MIN {
            // A few bytes (the gap between two close errors): the exact path is cheaper than
            // setting up the bulk one.
            self.slow(rest, start + i, &mut line_start);
        } else {
            let rest_at = start + i;
            let body = &rest[..rest.len() - incomplete_tail_len(rest)];
            if simdutf8::basic::from_utf8(body).is_ok() {
                if let Some(ls) = self.bulk(body, rest_at) {
                    line_start = Some(ls);
                }
                self.slow(&rest[body.len()..], rest_at + body.len(), &mut line_start);
            } else {
                self.slow(rest, rest_at, &mut line_start);
            }
        }
        self.offset = start + bytes.len();
        line_start
    }

    /// The fast path: counts `body`, valid UTF-8 that starts at `at` and at a character boundary
    /// with no CR pending. Returns the start of the last line begun inside it.
    fn bulk(&mut self, body: &[u8], at: usize) -> Option<State> {
        let Some(n) = memrchr2(b'\n', b'\r', body) else {
            self.col += utf16_len_valid(body);
            return None;
        };
        let col_before = self.col;
        self.line += count_newlines(&body[..=n], false);
        self.col = 1 + utf16_len_valid(&body[n + 1..]);
        self.cr = None;
        if n + 1 == body.len() && body[n] == b'\r' {
            // The body ends with a CR whose LF may come next: remember where the CR is.
            let cr_col = match memrchr2(b'\n', b'\r', &body[..n]) {
                Some(m) => 1 + utf16_len_valid(&body[m + 1..n]),
                None => col_before + utf16_len_valid(&body[..n]),
            };
            self.cr = Some(Position {
                line: self.line - 1,
                col: cr_col,
            });
        }
        // Past the last newline byte there is no LF, so a CR there needs no remembering, except
        // when it ends the body.
        Some(State {
            offset: at + n + 1,
            line: self.line,
            col: 1,
            cr: self.cr,
            dec: Utf8Decoder::new(),
        })
    }

    /// The exact path: counts `bytes` (from `at`) one byte at a time.
    fn slow(&mut self, bytes: &[u8], at: usize, line_start: &mut Option<State>) {
        let mut i = 0;
        while i < bytes.len() {
            if self.step(bytes[i], at + i, line_start) {
                i += 1;
            }
        }
    }

    /// Feeds the byte at stream offset `at` to the decoder and counts what it makes. Returns
    /// whether the byte was consumed (false: the pending sequence was cut short by it and has
    /// been counted; the byte must be stepped again).
    #[inline]
    fn step(&mut self, b: u8, at: usize, line_start: &mut Option<State>) -> bool {
        match self.dec.push(b) {
            Decoded::Pending => true,
            Decoded::Char(cp) => {
                if cp == u32::from(b'\n') && self.cr.is_some() {
                    // The LF of a CRLF: no new line, no column.
                    self.cr = None;
                } else if cp == u32::from(b'\n') || cp == u32::from(b'\r') {
                    self.cr = (cp == u32::from(b'\r')).then_some(Position {
                        line: self.line,
                        col: self.col,
                    });
                    self.line += 1;
                    self.col = 1;
                    *line_start = Some(State {
                        offset: at + 1,
                        line: self.line,
                        col: 1,
                        cr: self.cr,
                        dec: Utf8Decoder::new(),
                    });
                } else {
                    self.cr = None;
                    self.col += utf16_width(cp);
                }
                true
            }
            Decoded::Invalid => {
                self.cr = None;
                self.col += 1;
                true
            }
            Decoded::InvalidRetry => {
                self.cr = None;
                self.col += 1;
                false
            }
        }
    }
}

/// Length of the run of ASCII bytes other than CR and LF that `bytes` starts with.
fn plain_run(bytes: &[u8]) -> usize {
    let line = &bytes[..memchr2(b'\n', b'\r', bytes).unwrap_or(bytes.len())];
    if line.is_ascii() {
        return line.len();
    }
    let ascii_blocks = line.chunks(16).take_while(|block| block.is_ascii()).count();
    let from = ascii_blocks * 16;
    from + line[from..].iter().take_while(|b| b.is_ascii()).count()
}

/// Number of newlines (CR, CRLF or LF) that start in `bytes`; `after_cr` tells whether the byte
/// before `bytes` is a CR (so that an LF first in `bytes` is that CR's).
fn count_newlines(bytes: &[u8], after_cr: bool) -> u64 {
    if memchr::memchr(b'\r', bytes).is_none() {
        let lfs = memchr_iter(b'\n', bytes).count() as u64;
        return if after_cr && bytes.first() == Some(&b'\n') {
            lfs - 1
        } else {
            lfs
        };
    }
    let mut n = 0;
    for p in memchr2_iter(b'\n', b'\r', bytes) {
        let prev_cr = if p == 0 {
            after_cr
        } else {
            bytes[p - 1] == b'\r'
        };
        if bytes[p] == b'\r' || !prev_cr {
            n += 1;
        }
    }
    n
}

/// Turns stream byte offsets into lines and columns (see the [module docs](self) for the rules),
/// lazily, over the bytes the caller still holds.
///
/// Every call passes `buf`, the stream bytes `[buf_base, buf_base + buf.len())` that the caller
/// still holds, and an `offset` in that range (its end included: the end of input is where
/// end-of-file errors are reported). When `offset` is `buf`'s end the input is taken to end there;
/// the answer then differs from the final one only if more input later completes a character
/// or a CRLF that `offset` cuts in two.
///
/// # Which offsets are answered exactly
///
/// The counter keeps a *cursor* (the furthest offset asked about) and a few checkpoints: the last
/// offset given to [`advance_to`](Self::advance_to), the start of the cursor's line, and where the
/// cursor was before its last move that counted more than a few ASCII bytes on its line. An answer
/// is exact for:
///
/// - any offset at or after the cursor (cost: the distance moved, which moves the cursor);
/// - any offset at or after the last [`advance_to`](Self::advance_to) offset, provided that offset
///   is still in `buf` (cost: the distance from the nearest checkpoint before it);
/// - any offset on the cursor's current line, and any offset whose line starts inside `buf` (a CR
///   or LF precedes it in `buf`), provided the cursor is inside `buf` (cost: the distance back to
///   the cursor, plus that line's length).
///
/// The caller's part of the contract: call [`advance_to`](Self::advance_to) with (at most) the new
/// start of `buf` before dropping bytes from it, and do not ask about offsets before that.
/// Offsets outside the cases above (on an earlier line whose start was dropped, and before the
/// last `advance_to`) get an answer that may be wrong, but no panic.
#[derive(Clone, Debug)]
pub(crate) struct LineCounter {
    cursor: State,
    line_start: State,
    anchor: State,
    prev: State,
    /// When at or after the cursor's offset: the cursor has no CR or partial sequence pending, and
    /// the bytes from it to here are ASCII without CR or LF (one column each). Stream bytes never
    /// change, so this stays true while the cursor moves inside that run; past it, it says nothing.
    plain_end: usize,
}

impl Default for LineCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl LineCounter {
    /// A counter at the start of the stream (offset 0, line 1, column 1).
    pub(crate) const fn new() -> Self {
        Self::starting_at(0)
    }

    /// A counter whose line 1, column 1 is stream offset `offset`: the bytes before it (a byte
    /// order mark) are not part of the text.
    pub(crate) const fn starting_at(offset: usize) -> Self {
        let start = State {
            offset,
            ..State::START
        };
        LineCounter {
            cursor: start,
            line_start: start,
            anchor: start,
            prev: start,
            plain_end: offset,
        }
    }

    /// The line and column of stream offset `offset`, which must lie in
    /// `[buf_base, buf_base + buf.len()]` (`buf` holds the stream bytes from `buf_base`). Moves the
    /// cursor to `offset` when that is further on. See the [type docs](Self) for which offsets are
    /// answered exactly.
    #[inline]
    pub(crate) fn position(&mut self, buf: &[u8], buf_base: usize, offset: usize) -> Position {
        if offset >= self.cursor.offset && offset <= self.plain_end {
            // Inside the plain run ahead of the cursor: only the column moves.
            self.cursor.col += (offset - self.cursor.offset) as u64;
            self.cursor.offset = offset;
            return Position {
                line: self.cursor.line,
                col: self.cursor.col,
            };
        }
        self.position_counted(buf, buf_base, offset)
    }

    /// [`LineCounter::position`] when the cursor cannot simply skip to `offset`.
    fn position_counted(&mut self, buf: &[u8], buf_base: usize, offset: usize) -> Position {
        let o = clamp(buf, buf_base, offset);
        let next = buf.get(o - buf_base).copied();
        if o >= self.cursor.offset {
            self.advance_cursor(buf, buf_base, o);
            self.find_plain_end(buf, buf_base);
            self.cursor.answer(next)
        } else {
            self.state_behind(buf, buf_base, o).answer(next)
        }
    }

    /// Records `offset` (in `[buf_base, buf_base + buf.len()]`) as the earliest offset that will be
    /// asked about from now on, moving the cursor there if it is further on. Call it before
    /// dropping the bytes before `offset`: later answers will not need them.
    pub(crate) fn advance_to(&mut self, buf: &[u8], buf_base: usize, offset: usize) {
        let o = clamp(buf, buf_base, offset);
        self.anchor = if o >= self.cursor.offset {
            self.advance_cursor(buf, buf_base, o);
            self.cursor
        } else {
            self.state_behind(buf, buf_base, o)
        };
    }

    /// Moves the cursor forward to `o` (at or after it).
    fn advance_cursor(&mut self, buf: &[u8], base: usize, o: usize) {
        if self.cursor.offset < base {
            // Bytes were dropped before being counted (the caller broke the contract): go on
            // from the first byte there is, as if the dropped ones had never been.
            self.cursor = State {
                offset: base,
                cr: None,
                dec: Utf8Decoder::new(),
                ..self.cursor
            };
        }
        if o > self.cursor.offset {
            self.prev = self.cursor;
            let from = self.cursor.offset - base;
            if let Some(ls) = self.cursor.scan(&buf[from..o - base]) {
                self.line_start = ls;
            }
        }
    }

    /// Sets [`LineCounter::plain_end`] to the end of the plain run that starts at the cursor, looking
    /// at most [`PLAIN_LOOKAHEAD`] bytes of `buf` ahead.
    fn find_plain_end(&mut self, buf: &[u8], base: usize) {
        if self.cursor.dec.is_pending() || self.cursor.cr.is_some() {
            return;
        }
        let Some(from) = self.cursor.offset.checked_sub(base) else {
            return;
        };
        let ahead = &buf[from..buf.len().min(from + PLAIN_LOOKAHEAD)];
        self.plain_end = self.cursor.offset + plain_run(ahead);
    }

    /// The state at `o`, which is behind the cursor (and in `buf`).
    fn state_behind(&self, buf: &[u8], base: usize, o: usize) -> State {
        let from = [self.anchor, self.line_start, self.prev]
            .into_iter()
            .filter(|s| s.offset >= base && s.offset <= o)
            .max_by_key(|s| s.offset);
        // A query a few bytes behind the cursor, on its line, is cheapest counted back from it.
        if from.is_none_or(|f| self.cursor.offset - o < o - f.offset)
            && let Some(st) = count_back(buf, base, o, self.cursor, true)
        {
            return st;
        }
        match from {
            Some(mut st) => {
                st.scan(&buf[st.offset - base..o - base]);
                st
            }
            None => self.reconstruct(buf, base, o),
        }
    }

    /// The nearest checkpoint in `[min, end of buf]`, to count back from.
    fn checkpoint_at_or_after(&self, buf: &[u8], base: usize, min: usize) -> Option<State> {
        [self.cursor, self.anchor, self.line_start, self.prev]
            .into_iter()
            .filter(|s| s.offset >= min && s.offset <= base + buf.len())
            .min_by_key(|s| s.offset)
    }

    /// The state at `o` when no checkpoint before it is usable: from the start of `o`'s line if
    /// that is in `buf` (its line number counted back from a later checkpoint), else by counting
    /// back from a later checkpoint on the same line.
    fn reconstruct(&self, buf: &[u8], base: usize, o: usize) -> State {
        let idx = o - base;
        if let Some(n) = memrchr2(b'\n', b'\r', &buf[..idx]) {
            let ls = n + 1;
            let Some(k) = self.checkpoint_at_or_after(buf, base, base + ls) else {
                return self.guess(o);
            };
            let after_cr = buf[n] == b'\r';
            let line = k
                .line
                .saturating_sub(count_newlines(&buf[ls..k.offset - base], after_cr));
            let cr = after_cr.then(|| {
                if idx == ls && buf.get(idx).is_none_or(|&b| b == b'\n') {
                    // The answer (or a later scan) may hinge on this CR's own position.
                    self.state_behind(buf, base, base + n).answer(Some(b'\r'))
                } else {
                    // Settled by the byte at `ls` before anything reads it.
                    Position {
                        line: line.saturating_sub(1),
                        col: 1,
                    }
                }
            });
            let mut st = State {
                offset: base + ls,
                line,
                col: 1,
                cr,
                dec: Utf8Decoder::new(),
            };
            st.scan(&buf[ls..idx]);
            return st;
        }
        // No line starts in buf before `o`: count back from a later checkpoint.
        let Some(k) = self.checkpoint_at_or_after(buf, base, o) else {
            return self.guess(o);
        };
        if let Some(st) = count_back(buf, base, o, k, false) {
            return st;
        }
        // An earlier line than k's, whose start is gone: the line is right, the column is a guess
        // (as if the line began at buf's start).
        let (idx, k_idx) = (o - base, k.offset - base);
        let (u, dec, _) = unit_start(buf, idx);
        let line = k
            .line
            .saturating_sub(count_newlines(&buf[idx..k_idx], false))
            .max(1);
        State {
            offset: o,
            line,
            col: 1 + utf16_len_lossy(&buf[..u]),
            cr: None,
            dec,
        }
    }

    /// A last resort when nothing is known near `o` (the caller broke the contract).
    fn guess(&self, o: usize) -> State {
        State {
            offset: o,
            cr: None,
            dec: Utf8Decoder::new(),
            ..self.cursor
        }
    }
}

/// `offset` forced into `[base, base + buf.len()]` (asking outside it is a caller bug).
fn clamp(buf: &[u8], base: usize, offset: usize) -> usize {
    debug_assert!(
        offset >= base && offset <= base + buf.len(),
        "offset {offset} outside the buffer [{base}, {}]",
        base + buf.len()
    );
    offset.clamp(base, base + buf.len())
}

/// The state at `o` counted back from a later state `k` on the same line: `None` when a newline
/// lies between them or `k` is not in `buf`, and (when `exact`) when `buf` starts too close to `o`
/// to tell where the character at `o` starts.
fn count_back(buf: &[u8], base: usize, o: usize, k: State, exact: bool) -> Option<State> {
    if k.offset < o || k.offset > base + buf.len() {
        return None;
    }
    if k.offset == o {
        return Some(k);
    }
    let (idx, k_idx) = (o - base, k.offset - base);
    // (A CR pending at k is a newline byte just before it, so this finds it too.)
    if memchr2(b'\n', b'\r', &buf[idx..k_idx]).is_some() {
        return None;
    }
    let (u, dec, known) = unit_start(buf, idx);
    if exact && !known {
        return None;
    }
    // Where k's own pending sequence (if any) starts: a unit boundary, like `u`.
    let uk = k_idx.saturating_sub(k.dec.pending_len()).max(u);
    let col = k.col.saturating_sub(utf16_len_lossy(&buf[u..uk])).max(1);
    // No CR is pending at `o`: if `buf[idx - 1]` is a CR, `buf[idx]` is no LF (no newline lies
    // between), so the CR would change nothing.
    Some(State {
        offset: o,
        line: k.line,
        col,
        cr: None,
        dec,
    })
}

/// Where the unit holding `buf[idx]` starts (or, at `buf`'s end, the pending sequence before it),
/// the decoder state after the bytes from there up to `idx`, and whether that is known for sure.
/// `(idx, empty decoder)` means `idx` is a unit boundary. A non-continuation byte always starts a
/// unit; otherwise the unit starts at most 3 bytes back at a non-continuation byte. When `buf`
/// starts closer than that with continuation bytes only, `idx` is taken as a boundary, unsure.
fn unit_start(buf: &[u8], idx: usize) -> (usize, Utf8Decoder, bool) {
    if buf.get(idx).is_some_and(|&b| !is_continuation(b)) {
        return (idx, Utf8Decoder::new(), true);
    }
    let Some(s) = (idx.saturating_sub(3)..idx)
        .rev()
        .find(|&j| !is_continuation(buf[j]))
    else {
        return (idx, Utf8Decoder::new(), idx >= 3);
    };
    let mut dec = Utf8Decoder::new();
    let mut u = s;
    for (j, &b) in buf.iter().enumerate().take(idx).skip(s) {
        loop {
            match dec.push(b) {
                Decoded::Pending => break,
                Decoded::Char(_) | Decoded::Invalid => {
                    u = j + 1;
                    break;
                }
                Decoded::InvalidRetry => u = j,
            }
        }
    }
    if dec.is_pending() {
        (u, dec, true)
    } else {
        (idx, dec, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{
        TRICKY, cases, random_bytes, reference_units, samples, splits, xorshift,
    };

    fn pos(line: u64, col: u64) -> Position {
        Position { line, col }
    }

    /// The html5lib-style position of every offset `0..=bytes.len()`, the input ending there.
    fn reference(bytes: &[u8]) -> Vec<Position> {
        let mut out = vec![pos(0, 0); bytes.len() + 1];
        let (mut line, mut col) = (1, 1);
        let mut last_cr: Option<Position> = None;
        for (start, end, c) in reference_units(bytes) {
            let here = match (c, last_cr) {
                ('\n', Some(cr)) => cr,
                _ => pos(line, col),
            };
            out[start..end].fill(here);
            match (c, last_cr) {
                ('\n', Some(_)) => last_cr = None,
                ('\r' | '\n', _) => {
                    last_cr = (c == '\r').then_some(here);
                    line += 1;
                    col = 1;
                }
                _ => {
                    last_cr = None;
                    col += c.len_utf16() as u64;
                }
            }
        }
        out[bytes.len()] = pos(line, col);
        out
    }

    /// What `position(o)` must say when the caller holds the stream up to `end` (o ≤ end): the
    /// final answer when `o < end` (it depends on bytes up to `o` only), else the answer for the
    /// input ending at `o`.
    fn expected(full: &[Position], bytes: &[u8], o: usize, end: usize) -> Position {
        if o < end {
            full[o]
        } else {
            reference(&bytes[..o])[o]
        }
    }

    #[test]
    fn reference_agrees_with_the_rules() {
        assert_eq!(
            reference(b"ab\ncd"),
            [
                pos(1, 1),
                pos(1, 2),
                pos(1, 3),
                pos(2, 1),
                pos(2, 2),
                pos(2, 3)
            ]
        );
        assert_eq!(
            reference(b"a\r\nb"),
            [pos(1, 1), pos(1, 2), pos(1, 2), pos(2, 1), pos(2, 2)]
        );
        assert_eq!(
            reference(b"\r\r\n\n"),
            [pos(1, 1), pos(2, 1), pos(2, 1), pos(3, 1), pos(4, 1)]
        );
        let emoji = "😀a".as_bytes();
        assert_eq!(
            reference(emoji),
            [
                pos(1, 1),
                pos(1, 1),
                pos(1, 1),
                pos(1, 1),
                pos(1, 3),
                pos(1, 4)
            ]
        );
        assert_eq!(
            reference(b"\xE2\x82a"),
            [pos(1, 1), pos(1, 1), pos(1, 2), pos(1, 3)]
        );
        assert_eq!(
            reference(b"\xF0\x9F\x98"),
            [pos(1, 1), pos(1, 1), pos(1, 1), pos(1, 2)]
        );
        assert_eq!(reference(b"\xC0\x80"), [pos(1, 1), pos(1, 2), pos(1, 3)]);
    }

    #[test]
    fn documented_examples() {
        let mut lc = LineCounter::new();
        let s = b"ab\ncd";
        assert_eq!(lc.position(s, 0, 2), pos(1, 3));
        assert_eq!(lc.position(s, 0, 3), pos(2, 1));
        assert_eq!(lc.position(s, 0, 5), pos(2, 3));

        // CRLF split across buffers: the CR ends one buffer; its LF starts the next.
        let mut lc = LineCounter::new();
        assert_eq!(lc.position(b"ab\r", 0, 2), pos(1, 3));
        assert_eq!(lc.position(b"ab\r", 0, 3), pos(2, 1)); // as if the input ended after the CR
        lc.advance_to(b"ab\r", 0, 3);
        assert_eq!(lc.position(b"\ncd", 3, 3), pos(1, 3)); // the LF of the CRLF: the CR's place
        assert_eq!(lc.position(b"\ncd", 3, 4), pos(2, 1));
        assert_eq!(lc.position(b"\ncd", 3, 6), pos(2, 3));

        // Supplementary characters take two columns; inside a character is its start.
        let mut lc = LineCounter::new();
        let s = "x😀y".as_bytes();
        assert_eq!(lc.position(s, 0, 3), pos(1, 2));
        assert_eq!(lc.position(s, 0, 5), pos(1, 4));
        assert_eq!(lc.position(s, 0, 6), pos(1, 5));
        assert_eq!(lc.position(s, 0, 1), pos(1, 2)); // behind the cursor
    }

    /// Feeds each split of each sample (under Miri, of every eighth), asking about every offset once
    /// it has been fed, then dropping all but the last `keep` bytes (after `advance_to`) and asking
    /// about those again.
    #[test]
    fn every_offset_of_every_split() {
        for s in samples().into_iter().step_by(cases(1, 8)) {
            let full = reference(&s);
            for chunks in splits(&s) {
                // Under Miri, which runs the tests about a thousand times slower: one byte kept.
                for keep in if cfg!(miri) {
                    vec![1]
                } else {
                    vec![0usize, 1, 3]
                } {
                    let mut lc = LineCounter::new();
                    let (mut buf, mut base, mut next_q) = (Vec::new(), 0usize, 0usize);
                    for c in &chunks {
                        buf.extend_from_slice(c);
                        let end = base + buf.len();
                        for o in next_q..=end {
                            let got = lc.position(&buf, base, o);
                            assert_eq!(
                                got,
                                expected(&full, &s, o, end),
                                "{s:02X?} {chunks:02X?} o={o}"
                            );
                        }
                        next_q = end;
                        let cut = end.saturating_sub(keep).max(base);
                        lc.advance_to(&buf, base, cut);
                        buf.drain(..cut - base);
                        base = cut;
                        for o in base..=end {
                            let got = lc.position(&buf, base, o);
                            assert_eq!(
                                got,
                                expected(&full, &s, o, end),
                                "{s:02X?} {chunks:02X?} back o={o}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Random input, random chunks, random queries anywhere at or after the last `advance_to`
    /// (so often behind the cursor), random `advance_to` and dropping.
    #[test]
    fn random_queries_within_contract() {
        let mut rng = 0x9E3779B97F4A7C15u64;
        let mut alphabet = TRICKY.to_vec();
        alphabet.extend_from_slice("é€😀".as_bytes());
        for round in 0..cases(1500, 15) {
            let len = (xorshift(&mut rng) % 60) as usize;
            let s = random_bytes(&mut rng, &alphabet, len);
            let full = reference(&s);
            let mut lc = LineCounter::new();
            let (mut buf, mut base, mut anchor, mut fed) = (Vec::new(), 0usize, 0usize, 0usize);
            while fed < s.len() || round % 2 == 0 && fed == s.len() {
                let n = 1 + (xorshift(&mut rng) % 9) as usize;
                let end = (fed + n).min(s.len());
                buf.extend_from_slice(&s[fed..end]);
                fed = end;
                for _ in 0..(xorshift(&mut rng) % 6) {
                    let o = anchor + (xorshift(&mut rng) as usize % (fed - anchor + 1));
                    let got = lc.position(&buf, base, o);
                    assert_eq!(
                        got,
                        expected(&full, &s, o, fed),
                        "{s:02X?} o={o} base={base}"
                    );
                }
                if xorshift(&mut rng).is_multiple_of(3) {
                    anchor += xorshift(&mut rng) as usize % (fed - anchor + 1);
                    lc.advance_to(&buf, base, anchor);
                    let drop = base + xorshift(&mut rng) as usize % (anchor - base + 1);
                    buf.drain(..drop - base);
                    base = drop;
                }
                if fed == s.len() {
                    break;
                }
            }
            let got = lc.position(&buf, base, s.len());
            assert_eq!(got, full[s.len()], "{s:02X?} at EOF");
        }
    }

    /// Nothing dropped: every offset is exact in any order, even before the last `advance_to`.
    #[test]
    fn any_order_when_everything_is_held() {
        let mut rng = 0xD1B54A32D192ED03u64;
        for s in samples() {
            let full = reference(&s);
            let mut lc = LineCounter::new();
            lc.advance_to(&s, 0, s.len());
            // Every offset, backwards (under Miri, every fifth).
            for o in (0..=s.len()).rev().step_by(cases(1, 5)) {
                assert_eq!(lc.position(&s, 0, o), full[o], "{s:02X?} o={o}");
            }
            for _ in 0..cases(50, 5) {
                let o = xorshift(&mut rng) as usize % (s.len() + 1);
                assert_eq!(lc.position(&s, 0, o), full[o], "{s:02X?} o={o}");
                let a = xorshift(&mut rng) as usize % (s.len() + 1);
                lc.advance_to(&s, 0, a);
            }
        }
        for _ in 0..cases(500, 10) {
            let len = (xorshift(&mut rng) % 50) as usize;
            let s = random_bytes(&mut rng, TRICKY, len);
            let full = reference(&s);
            let mut lc = LineCounter::new();
            for _ in 0..30 {
                let o = xorshift(&mut rng) as usize % (s.len() + 1);
                if xorshift(&mut rng).is_multiple_of(2) {
                    lc.advance_to(&s, 0, o);
                } else {
                    assert_eq!(lc.position(&s, 0, o), full[o], "{s:02X?} o={o}");
                }
            }
        }
    }

    /// Outside the contract (asking before the last `advance_to`, after dropping bytes): exact when
    /// the offset's line starts in the buffer or is the cursor's line.
    #[test]
    fn behind_the_anchor_on_known_lines() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        let mut alphabet = TRICKY.to_vec();
        alphabet.extend_from_slice("é€😀".as_bytes());
        alphabet.extend_from_slice(b"abcdef");
        for _ in 0..cases(2000, 6) {
            let len = 1 + (xorshift(&mut rng) % 60) as usize;
            let mut s = random_bytes(&mut rng, &alphabet, len);
            // Drop up to a clean boundary: after an ASCII byte that is not a CR.
            let drop = xorshift(&mut rng) as usize % (s.len() + 1);
            if drop > 0 {
                s[drop - 1] = b'x';
            }
            let full = reference(&s);
            let buf = &s[drop..];
            // Exact when the line of `o`'s position (for the LF of a CRLF: its CR's) starts in
            // `buf`, or is the cursor's (here: the last) line.
            let exact = |o: usize| {
                let mut idx = o - drop;
                if idx > 0 && buf.get(idx) == Some(&b'\n') && buf[idx - 1] == b'\r' {
                    idx -= 1;
                }
                memrchr2(b'\n', b'\r', &buf[..idx]).is_some()
                    || memchr2(b'\n', b'\r', &buf[idx..]).is_none()
            };
            for scenario in 0..2 {
                let mut lc = LineCounter::new();
                lc.advance_to(&s, 0, drop);
                if scenario == 1 {
                    // Leave no checkpoint before the offsets asked about but the line start.
                    let _ = lc.position(buf, drop, s.len().saturating_sub(1).max(drop));
                }
                lc.advance_to(buf, drop, s.len());
                for o in (drop..=s.len()).rev() {
                    let got = lc.position(buf, drop, o);
                    if exact(o) {
                        assert_eq!(
                            got, full[o],
                            "{s:02X?} drop={drop} o={o} scenario {scenario}"
                        );
                    } else {
                        // Best effort: at least the line is right.
                        assert_eq!(got.line, full[o].line, "{s:02X?} drop={drop} o={o}");
                    }
                }
            }
        }
    }

    #[test]
    fn short_ascii_moves_then_back() {
        // Errors a byte or two apart move the cursor by the short path; queries behind it, on its
        // line and on the line before, must still be exact.
        let s = "é\r\nab\0\0c\0d😀\0".as_bytes();
        let full = reference(s);
        let mut lc = LineCounter::new();
        for o in [4, 5, 6, 7, 9, 10] {
            assert_eq!(lc.position(s, 0, o), full[o], "o={o}");
        }
        for o in (0..=s.len()).rev() {
            assert_eq!(lc.position(s, 0, o), full[o], "o={o}");
        }
        for o in 0..=s.len() {
            assert_eq!(lc.position(&s[4..], 4, o.max(4)), full[o.max(4)], "o={o}");
        }
    }

    #[test]
    fn back_near_an_anchor_inside_a_character() {
        // The anchor (and buffer start) is inside the emoji: counting back from the cursor cannot
        // tell where the character at offset 5 starts, so the forward path must answer.
        let s = "ab😀c".as_bytes();
        let mut lc = LineCounter::new();
        lc.advance_to(s, 0, 3);
        let buf = &s[3..];
        assert_eq!(lc.position(buf, 3, 6), pos(1, 5));
        assert_eq!(lc.position(buf, 3, 5), pos(1, 3));
        assert_eq!(lc.position(buf, 3, 4), pos(1, 3));
        assert_eq!(lc.position(buf, 3, 3), pos(1, 3));
        assert_eq!(lc.position(buf, 3, 7), pos(1, 6));
    }

    #[test]
    fn dropped_bytes_never_panic() {
        // Contract broken: bytes dropped without `advance_to`. Answers may be off, but no panic.
        let s = b"one\ntwo\r\nthree \xF0\x9F\x98\x80 four\xE2\x82";
        let mut lc = LineCounter::new();
        let _ = lc.position(s, 0, 2);
        for base in [5, 9, 20, s.len()] {
            for o in base..=s.len() {
                let p = lc.position(&s[base..], base, o);
                assert!(p.line >= 1 && p.col >= 1);
            }
        }
    }

    #[test]
    fn long_lines_and_many_lines() {
        // Exercise the bulk path on larger inputs, against the reference, across 3 feeds.
        let mut s = Vec::new();
        for i in 0..cases(300, 40) {
            s.extend_from_slice(
                format!("<p id={i}>Grüße 😀 {}</p>", "x".repeat(i % 17)).as_bytes(),
            );
            s.extend_from_slice(match i % 4 {
                0 => b"\n",
                1 => b"\r\n",
                2 => b"\r",
                _ => b"",
            });
            if i % 50 == 7 {
                s.extend_from_slice(b"\xF0\x9F\x98\xFF");
            }
        }
        let full = reference(&s);
        for cuts in [[1000, 2000], [4001, 4002], [7, 9000]] {
            let mut lc = LineCounter::new();
            let mut last = 0;
            for end in [cuts[0], cuts[1], s.len()] {
                let end = end.min(s.len());
                for o in (last..=end).step_by(37) {
                    assert_eq!(lc.position(&s[..end], 0, o), expected(&full, &s, o, end));
                }
                last = end;
            }
            assert_eq!(lc.position(&s, 0, s.len()), full[s.len()]);
        }
    }

    #[test]
    fn dense_errors_across_plain_runs_and_feeds() {
        // Queries a few bytes apart (the plain-run path) over runs longer than the look ahead,
        // ending at newlines, non-ASCII and invalid bytes, with feeds ending inside runs and bytes
        // dropped behind the cursor; now and then a query goes back a little.
        let mut s = Vec::new();
        for i in 0..cases(40, 6) {
            s.extend_from_slice("<!--".repeat(i * 7 % 90).as_bytes());
            s.extend_from_slice(match i % 6 {
                0 => b"\n".as_slice(),
                1 => b"\r\n",
                2 => b"\r",
                3 => "é😀".as_bytes(),
                4 => b"\xF0\x9F\xFF",
                _ => b"",
            });
        }
        let full = reference(&s);
        let mut seed = 7;
        let mut rng = || xorshift(&mut seed);
        for feed in [97, 256, 1000, s.len()] {
            let mut lc = LineCounter::new();
            let (mut o, mut drop) = (0, 0);
            for end in (feed..s.len()).step_by(feed).chain([s.len()]) {
                while o <= end {
                    let back = if rng() % 9 == 0 {
                        rng() as usize % 5
                    } else {
                        0
                    };
                    let q = o.saturating_sub(back).max(drop);
                    let want = expected(&full, &s, q, end);
                    assert_eq!(lc.position(&s[drop..end], drop, q), want, "q={q} end={end}");
                    o += 1 + rng() as usize % 6;
                }
                o = o.min(end);
                drop = o.saturating_sub(rng() as usize % 8);
                lc.advance_to(&s[..end], 0, drop);
            }
        }
    }

    #[test]
    fn plain_runs() {
        assert_eq!(plain_run(b""), 0);
        assert_eq!(plain_run(b"abc"), 3);
        assert_eq!(plain_run(b"ab\ncd"), 2);
        assert_eq!(plain_run(b"ab\rcd"), 2);
        assert_eq!(plain_run("abcé".as_bytes()), 3);
        let long = [b"x".repeat(40), "é\n".as_bytes().to_vec()].concat();
        assert_eq!(plain_run(&long), 40);
        assert_eq!(plain_run(&b"y".repeat(300)), 300);
    }

    #[test]
    fn counting_newlines() {
        assert_eq!(count_newlines(b"", false), 0);
        assert_eq!(count_newlines(b"a\nb\n", false), 2);
        assert_eq!(count_newlines(b"\nb\n", true), 1);
        assert_eq!(count_newlines(b"\r\n\r\r\n\n", false), 4);
        assert_eq!(count_newlines(b"\n\r", true), 1);
    }
}
