//! Lazy decoding of token parts: from the raw bytes of a span to the string the HTML Standard's
//! tokenizer would have built.
//!
//! The result is borrowed from the input when nothing changes (the common case: one pass over the
//! part finds it ASCII with no byte to change; other text needs a UTF-8 check too). Otherwise it is
//! built once in the bumpalo arena: character references resolved, NUL replaced, CR and CRLF turned
//! into LF, names lowercased, invalid UTF-8 replaced by U+FFFD (one per maximal invalid subpart).

use bumpalo::Bump;
use bumpalo::collections::{String as BumpString, Vec as BumpVec};

use std::ops::Range;

use crate::input::{push_lossy, valid_str};
use crate::refs::charref::{CharRef, character_reference};
use crate::scan::{Changes, each_change, short_unchanged_span, unchanged_span};

/// What a part of a token needs done to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Resolve character references; `Some(true)` with the attribute-value rules.
    pub(crate) refs: Option<bool>,
    /// Keep U+0000 as it is (data and CDATA text) instead of replacing it with U+FFFD.
    pub(crate) keep_nul: bool,
    /// The bytes these rules change (capital letters are lowercased for names), which with the
    /// non-ASCII ones are those the check for an unchanged part looks for.
    pub(crate) changes: Changes,
}

/// Tag, attribute and DOCTYPE names.
pub(crate) const NAME: Rules = Rules {
    refs: None,
    keep_nul: false,
    changes: Changes::Name,
};
/// Attribute values.
pub(crate) const ATTRIBUTE_VALUE: Rules = Rules {
    refs: Some(true),
    keep_nul: false,
    changes: Changes::References,
};
/// Comments, DOCTYPE identifiers, PI targets and data, and raw text (RAWTEXT, script, PLAINTEXT, RCDATA
/// without references).
pub(crate) const PLAIN: Rules = Rules {
    refs: None,
    keep_nul: false,
    changes: Changes::Plain,
};

/// Decode `window[start..end]` under `rules`, borrowing when nothing changes.
///
/// Inlined, so that each caller's constant `rules` pick one check for an unchanged part (most
/// parts are: a short name costs one block test); the decoding itself is out of line.
#[inline(always)]
pub(crate) fn decode<'a>(
    window: &'a [u8],
    start: usize,
    end: usize,
    rules: Rules,
    arena: &'a Bump,
) -> &'a str {
    match unchanged_span(window, start, end, rules.changes) {
        Ok(unchanged) => unchanged,
        Err(first) => decode_changed(window, start..end, first, rules, arena),
    }
}

/// [`decode`] under [`PLAIN`], for XML5's names: a short name that decoding leaves as it is (most
/// are) costs one block test, with no register saved and no frame; anything else goes to
/// [`decode_plain_long`] in a tail call, whose arguments all go in registers.
#[inline(always)]
pub(crate) fn decode_plain<'a>(
    window: &'a [u8],
    start: usize,
    end: usize,
    arena: &'a Bump,
) -> &'a str {
    match short_unchanged_span(window, start, end, PLAIN.changes) {
        Some(unchanged) => unchanged,
        None => decode_plain_long(window, start, end, arena),
    }
}

/// [`decode`] under [`PLAIN`]: a name longer than a block, near the window's end, or changed.
#[inline(never)]
fn decode_plain_long<'a>(window: &'a [u8], start: usize, end: usize, arena: &'a Bump) -> &'a str {
    decode(window, start, end, PLAIN, arena)
}

/// Decode the part `window[part]`, whose first byte that is not ASCII or that `rules` change is
/// `window[first]`.
///
/// The changes are applied to the bytes as they are, and the result is checked to be UTF-8 once.
/// Should it not be, the input was not either, and the result is decoded once more, each maximal
/// invalid subpart replaced: the same ones as in the input, as a change only ever replaces an ASCII
/// byte (or a reference's ASCII bytes) with whole code points, or drops the CR of a CRLF, so that no
/// invalid subpart grows or shrinks.
#[inline(never)]
fn decode_changed<'a>(
    window: &'a [u8],
    part: Range<usize>,
    first: usize,
    rules: Rules,
    arena: &'a Bump,
) -> &'a str {
    let (mut part, mut first) = (part, first);
    // Text between two tags is often a line break and an indent: a CRLF that starts a part decodes
    // as the part from its LF on, which then often needs no change.
    if first == part.start && window.get(first..first + 2) == Some(b"\r\n") {
        part.start += 1;
        match unchanged_span(window, part.start, part.end, rules.changes) {
            Ok(unchanged) => return unchanged,
            Err(bad) => first = bad,
        }
    }
    let bytes = apply_changes(window, part, first, rules, arena);
    valid_str(bytes).unwrap_or_else(|| lossy(bytes, arena))
}

/// `window[part]` with the changes `rules` make, looked for from `window[first]` on: as bytes in the
/// arena, or the part itself when there are none.
#[inline(always)]
fn apply_changes<'a>(
    window: &'a [u8],
    part: Range<usize>,
    first: usize,
    rules: Rules,
    arena: &'a Bump,
) -> &'a [u8] {
    let mut out: Option<BumpVec<u8>> = None;
    let mut done = part.start;
    each_change(window, first, part.end, rules.changes, |at| {
        // A character reference covers no byte that changes, so none is skipped here; the test
        // keeps the output exact should one ever do.
        if at >= done {
            // Room for the whole part, a few replacements that are longer than their source, and
            // the 16 bytes `copy_run` may copy past a run.
            let out = out.get_or_insert_with(|| BumpVec::with_capacity_in(part.len() + 24, arena));
            copy_run(out, window, done..at);
            done = at + decode_special(&window[at..part.end], rules, out);
        }
    });
    match out {
        None => &window[part],
        Some(mut out) => {
            copy_run(&mut out, window, done..part.end);
            out.into_bump_slice()
        }
    }
}

/// Appends `window[run]` to `out`. Most runs between two changes are short: those are copied as one
/// block of 16 bytes, the bytes past the run then cut off again, instead of a call to `memcpy`.
#[inline(always)]
fn copy_run(out: &mut BumpVec<u8>, window: &[u8], run: Range<usize>) {
    match window.get(run.start..run.start + 16) {
        Some(block) if run.len() <= 16 => {
            let len = out.len();
            out.extend_from_slice_copy(block);
            out.truncate(len + run.len());
        }
        _ => out.extend_from_slice_copy(&window[run]),
    }
}

/// `bytes`, which are not valid UTF-8, as text in the arena: each maximal invalid subpart replaced
/// with U+FFFD.
fn lossy<'a>(bytes: &[u8], arena: &'a Bump) -> &'a str {
    // Each replacement character takes 3 bytes for at least 1 input byte.
    let mut out = BumpString::with_capacity_in(bytes.len() + bytes.len() / 2 + 3, arena);
    push_lossy(bytes, &mut out);
    out.into_bump_str()
}

/// Decode the special byte at the start of `s` into `out`; returns how many bytes it covered. The
/// CR of a CRLF is dropped: the LF that stays is the first byte of the next run.
#[inline(always)]
fn decode_special(s: &[u8], rules: Rules, out: &mut BumpVec<u8>) -> usize {
    match s[0] {
        b'\r' if s.get(1) == Some(&b'\n') => {}
        b'\r' => out.push(b'\n'),
        0 if rules.keep_nul => out.push(0),
        0 => out.extend_from_slice_copy("\u{FFFD}".as_bytes()),
        b'&' => return decode_reference(s, rules.refs == Some(true), out),
        c => out.push(c.to_ascii_lowercase()),
    }
    1
}

/// Resolve the character reference at the start of `s` (which is the whole rest of the part, so the
/// part's end is the end of input for the reference).
#[inline(never)]
fn decode_reference(s: &[u8], in_attribute: bool, out: &mut BumpVec<u8>) -> usize {
    match character_reference(s, in_attribute, true) {
        CharRef::Done(outcome) => {
            match outcome.value {
                Some(replacement) => replacement.push_to(out),
                None => out.extend_from_slice_copy(&s[..outcome.len]),
            }
            outcome.len.max(1)
        }
        CharRef::NeedMore => {
            out.push(b'&');
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refs::charref::Replacement;
    use crate::span::TextKind;

    const DATA: Rules = Rules {
        refs: Some(false),
        keep_nul: true,
        changes: Changes::References,
    };

    /// A whole slice decoded.
    fn decode<'a>(raw: &'a [u8], rules: Rules, arena: &'a Bump) -> &'a str {
        super::decode(raw, 0, raw.len(), rules, arena)
    }

    fn is_borrowed(raw: &[u8], s: &str) -> bool {
        std::ptr::eq(raw.as_ptr(), s.as_ptr())
    }

    #[test]
    fn unchanged_parts_are_borrowed() {
        let arena = Bump::new();
        let raw = "plain text, ünïcödé".as_bytes();
        let s = decode(raw, DATA, &arena);
        assert_eq!(s, "plain text, ünïcödé");
        assert!(is_borrowed(raw, s));
        assert_eq!(
            arena.allocated_bytes_including_metadata(),
            arena.allocated_bytes_including_metadata()
        );
        // A part whose only change is the CRLF it starts with is its bytes from the LF on.
        let raw = b"\r\n    ";
        let s = decode(raw, DATA, &arena);
        assert_eq!(s, "\n    ");
        assert!(is_borrowed(&raw[1..], s));
    }

    #[test]
    fn changes_are_applied() {
        let arena = Bump::new();
        assert_eq!(
            decode(b"a&amp;b&notit;\r\nc\rd\0", DATA, &arena),
            "a&b\u{AC}it;\nc\nd\0"
        );
        assert_eq!(
            decode(b"x=&amp&notx&not=", ATTRIBUTE_VALUE, &arena),
            "x=&&notx&not="
        );
        assert_eq!(decode(b"DiV\0", NAME, &arena), "div\u{FFFD}");
        assert_eq!(
            decode(b"a\xE2\x82b\xFF", PLAIN, &arena),
            "a\u{FFFD}b\u{FFFD}"
        );
        assert_eq!(
            decode(b"&#x110000;&#0;&#x80;", DATA, &arena),
            "\u{FFFD}\u{FFFD}\u{20AC}"
        );
        assert_eq!(
            decode(
                b"\xE2&amp;\x82\r\n\xC3\r\xA9&#xE9;\xA9\0\xF0\x9F",
                DATA,
                &arena
            ),
            "\u{FFFD}&\u{FFFD}\n\u{FFFD}\n\u{FFFD}\u{E9}\u{FFFD}\0\u{FFFD}"
        );
    }

    /// The obviously correct decoder: byte by byte, the bytes between two changes decoded on their
    /// own.
    fn oracle(raw: &[u8], rules: Rules) -> String {
        let mut out = String::new();
        let (mut run, mut i) = (0, 0);
        while i < raw.len() {
            let c = raw[i];
            let changed = c == 0
                || c == b'\r'
                || (c == b'&' && rules.refs.is_some())
                || (c.is_ascii_uppercase() && rules.changes == Changes::Name);
            if !changed {
                i += 1;
                continue;
            }
            out.push_str(&String::from_utf8_lossy(&raw[run..i]));
            i += match c {
                b'\r' => {
                    out.push('\n');
                    if raw.get(i + 1) == Some(&b'\n') { 2 } else { 1 }
                }
                0 => {
                    out.push(if rules.keep_nul { '\0' } else { '\u{FFFD}' });
                    1
                }
                b'&' => match character_reference(&raw[i..], rules.refs == Some(true), true) {
                    CharRef::Done(outcome) => {
                        match outcome.value {
                            Some(Replacement::Named(text)) => out.push_str(text),
                            Some(Replacement::Char(c)) => out.push(c),
                            None => {
                                out.push_str(&String::from_utf8_lossy(&raw[i..i + outcome.len]))
                            }
                        }
                        outcome.len.max(1)
                    }
                    CharRef::NeedMore => unreachable!("the part ends the input"),
                },
                c => {
                    out.push(char::from(c.to_ascii_lowercase()));
                    1
                }
            };
            run = i;
        }
        out.push_str(&String::from_utf8_lossy(&raw[run..]));
        out
    }

    #[test]
    fn random_parts_decode_as_the_oracle_does_at_every_place_in_a_window() {
        let alphabet: &[&[u8]] = &[
            b"a",
            b"Z",
            b"\r",
            b"\n",
            b"\r\n",
            b"\0",
            b"&",
            b"&amp;",
            b"&amp",
            b"&#",
            b"&#x",
            b"&#x41;",
            b"&#128;",
            b"&not",
            b"&notin;",
            b"=",
            b";",
            b"\xC3\xA9",
            b"\xE2\x82",
            b"\xE2\x82\xAC",
            b"\xF0\x9F\x98\x80",
            b"\xFF",
            b"\x80",
            b"\xC3",
            b" ",
        ];
        let all = [
            DATA,
            ATTRIBUTE_VALUE,
            NAME,
            PLAIN,
            TextKind::Rcdata.rules(),
            TextKind::Cdata.rules(),
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        // Under Miri, which runs the tests about a thousand times slower, fewer windows.
        for _ in 0..if cfg!(miri) { 20 } else { 3000 } {
            let raw: Vec<u8> = (0..next(24))
                .flat_map(|_| alphabet[next(alphabet.len())].iter().copied())
                .collect();
            let (before, after) = (next(20), next(20));
            let mut window = vec![b'x'; before];
            window.extend(&raw);
            window.extend(vec![b'&'; after]);
            let arena = Bump::new();
            for rules in all {
                let got = super::decode(&window, before, before + raw.len(), rules, &arena);
                assert_eq!(got, oracle(&raw, rules), "{rules:?} {raw:?}");
            }
        }
    }
}
