//! The vocabulary of a resumable state machine, shared by the dialects' lexers: what a state
//! function tells its run loop, the lookahead for a keyword that a window may cut off, where a
//! chunk seam may cut pending text, and the watch on a numeric character reference a seam left open.

use crate::refs::charref::{self, CharRef, CharRefOutcome};
use crate::refs::entities;
use crate::scan::{find1, find1_from};
use crate::span::{TextKind, Window};

/// What a state function tells the driver loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep going: the state or position changed.
    Continue,
    /// A record is ready in the lexer's output slot.
    Emit,
    /// The window ended before the state could decide; feed more bytes.
    NeedMore,
}

/// Whether the window at `pos` starts with `word` (ASCII case-insensitively when `fold`): `Some(true)`
/// or `Some(false)` once decided, `None` when the window ends first and more input may come.
pub(crate) fn lookahead(b: &Window, pos: usize, word: &[u8], fold: bool) -> Option<bool> {
    let rest = b.rest(pos);
    let n = rest.len().min(word.len());
    let same = if fold {
        rest[..n].eq_ignore_ascii_case(&word[..n])
    } else {
        rest[..n] == word[..n]
    };
    if !same {
        Some(false)
    } else if n == word.len() {
        Some(true)
    } else if b.eof {
        Some(false)
    } else {
        None
    }
}

/// Whether the end of window `b`, which is not the last, cuts off the tag whose `<` is at window
/// index `lt`: no `>` follows it in the window. The lanes then wait at the `<` for the next chunk
/// (the machine's cut-tag state) instead of leaving the tag to the state functions, which would
/// only read on to the window's end: no tag state emits anything before a `>`. The driver then
/// carries the tag's bytes up to [`cut_tag_end`] and a lane lexes it whole.
#[inline]
pub(crate) fn tag_cut_off(b: &Window, lt: usize) -> bool {
    !b.eof && find1_from(b'>', b.bytes, lt).is_none()
}

/// Where a tag that a seam cut off may end in the next `chunk`: the index of its first `>`. A
/// guess that only decides how much is copied (a `>` in a quoted value ends it too early): the
/// lane lexes the tag again and finds out.
#[inline]
pub(crate) fn cut_tag_end(chunk: &[u8]) -> Option<usize> {
    find1(b'>', chunk)
}

/// A numeric character reference that a seam left open (at a seam, or in a character reference
/// state): its `&`, and how far its digits were checked. Its digits can run on without end:
/// [`OpenReference::still_open`] judges only the bytes that came since the last check, where
/// looking at all of them at every seam would cost time quadratic in their number.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OpenReference(Option<(usize, usize)>);

impl OpenReference {
    /// Whether a reference is being watched.
    #[inline(always)]
    pub(crate) fn is_open(&self) -> bool {
        self.0.is_some()
    }

    /// Watch the reference at `amp`, checked up to `checked` (`None`: watch none).
    #[inline]
    pub(crate) fn watch(&mut self, at: Option<(usize, usize)>) {
        self.0 = at;
    }

    /// The character reference state (HTML §13.2.5.72–80, which XML5 follows) at the `&` at
    /// `amp`: `None` while the window does not hold enough of it to decide (watching a numeric one
    /// whose digits run to its end), else what [`charref`] makes of it.
    pub(crate) fn read(
        &mut self,
        b: &Window,
        amp: usize,
        in_attribute: bool,
    ) -> Option<CharRefOutcome> {
        if !b.eof && self.is_open() && self.still_open(b, amp, b.end()) {
            return None;
        }
        let s = b.rest(amp);
        match charref::character_reference(s, in_attribute, b.eof) {
            CharRef::NeedMore => {
                self.watch(s.starts_with(b"&#").then_some((amp, b.end())));
                None
            }
            CharRef::Done(outcome) => {
                self.watch(None);
                Some(outcome)
            }
        }
    }

    /// Whether the reference watched at `amp` still runs on with digits up to `limit`, judging
    /// only the bytes since the last check (and moving the check to `limit` if so).
    pub(crate) fn still_open(&mut self, b: &Window, amp: usize, limit: usize) -> bool {
        let Some((open, checked)) = self.0 else {
            return false;
        };
        if open != amp || checked > limit || checked < b.base {
            return false;
        }
        let hex = matches!(b.at(amp + 2), Some(b'x' | b'X'));
        let new = &b.bytes[checked - b.base..limit - b.base];
        let digits = new.iter().all(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        });
        if digits {
            self.0 = Some((amp, limit));
        }
        digits
    }
}

/// How much of pending `text` may be emitted at a chunk seam without changing its decoding: all of it
/// except a trailing CR (a CRLF pair may be split), an incomplete UTF-8 sequence, or (in data and
/// RCDATA) a character reference that the next bytes could still change.
pub(crate) fn safe_cut(text: &[u8], kind: TextKind) -> usize {
    let n = text.len();
    let Some(&last) = text.last() else {
        return 0;
    };
    if last == b'\r' {
        return n - 1;
    }
    // Text that ends in an ASCII byte ends between characters.
    if last >= 0x80
        && let Some(start) = incomplete_utf8_tail(text)
    {
        return start;
    }
    if matches!(kind, TextKind::Data | TextKind::Rcdata)
        && let Some(amp) = open_reference_start(text)
    {
        return amp;
    }
    n
}

/// How many bytes at the end of `text` begin a UTF-8 sequence it does not finish: what a lexer
/// holds back at a chunk seam as a character the next chunk may finish (0 when `text` ends
/// between characters). The XML5 tree stage asks the same to know where the tokenizer stopped.
pub(crate) fn cut_character_len(text: &[u8]) -> usize {
    incomplete_utf8_tail(text).map_or(0, |start| text.len() - start)
}

/// Start of a UTF-8 sequence that `text` ends in the middle of.
fn incomplete_utf8_tail(text: &[u8]) -> Option<usize> {
    let n = text.len();
    let lead = (n.saturating_sub(4)..n)
        .rev()
        .find(|&i| text[i] & 0xC0 != 0x80)?;
    let need = match text[lead] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    (n - lead < need).then_some(lead)
}

/// Start (the `&`) of a character reference at the end of `text` whose meaning depends on bytes not
/// seen yet: `&`, `&#`, `&#x`, digits that may continue, or a name that may grow into a longer one.
fn open_reference_start(text: &[u8]) -> Option<usize> {
    // Text mostly ends in a space, a newline or punctuation, which no open reference ends in.
    let last = *text.last()?;
    if !(last.is_ascii_alphanumeric() || last == b'&' || last == b'#') {
        return None;
    }
    let n = text.len();
    let p = text
        .iter()
        .rposition(|c| !c.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1);
    let run = n - p;
    let word = &text[p..];
    if p >= 2 && text[p - 1] == b'#' && text[p - 2] == b'&' {
        let digits = match word.first() {
            Some(b'x' | b'X') => word[1..].iter().all(u8::is_ascii_hexdigit),
            _ => word.iter().all(u8::is_ascii_digit),
        };
        return digits.then_some(p - 2);
    }
    if p >= 1 && text[p - 1] == b'#' && run == 0 {
        return (p >= 2 && text[p - 2] == b'&').then(|| p - 2);
    }
    if p >= 1 && text[p - 1] == b'&' {
        let open = run == 0 || entities::match_named(word, false) == entities::NamedMatch::NeedMore;
        return open.then_some(p - 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_cut_at_the_end_is_counted_and_a_whole_one_is_not() {
        let cases: [(&[u8], usize); 11] = [
            (b"", 0),
            (b"ab", 0),
            (b"a\xC3", 1),
            ("a\u{e9}".as_bytes(), 0),
            (b"\xE2\x82", 2),
            ("\u{20ac}".as_bytes(), 0),
            (b"\x9F\x98", 0),
            (b"\xF0\x9F\x98", 3),
            (b"a\xFF", 0),
            // Not UTF-8's lead bytes, but held back all the same (the decoder decides).
            (b"a\xF7", 1),
            (b"\xF7\xF7\xF7\xF7", 1),
        ];
        for (text, cut) in cases {
            assert_eq!(cut_character_len(text), cut, "{text:?}");
        }
    }

    #[test]
    fn seams_never_split_what_decodes_together() {
        assert_eq!(safe_cut(b"abc\r", TextKind::Data), 3);
        assert_eq!(safe_cut(b"ab\xE2\x82", TextKind::Rawtext), 2);
        assert_eq!(safe_cut(b"ab\xE2\x82\xAC", TextKind::Rawtext), 5);
        assert_eq!(safe_cut(b"x &am", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &amp;", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &#", TextKind::Rcdata), 2);
        assert_eq!(safe_cut(b"x &#x1F", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &#12z", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &am", TextKind::ScriptData), 5);
        assert_eq!(safe_cut(b"x &zzzz", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &amp ", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &#12.", TextKind::Data), 7);
        assert_eq!(safe_cut(b"", TextKind::Data), 0);
    }
}
