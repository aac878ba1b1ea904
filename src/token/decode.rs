//! Lazy decoding of token parts: from the raw bytes of a span to the string the HTML Standard's
//! tokenizer would have built.
//!
//! The result is borrowed from the input when nothing changes (the common case: one scan for special
//! bytes and one UTF-8 check). Otherwise it is built once in the bumpalo arena: character references
//! resolved, NUL replaced, CR and CRLF turned into LF, names lowercased, invalid UTF-8 replaced by
//! U+FFFD (one per maximal invalid subpart).

use bumpalo::Bump;
use bumpalo::collections::String as BumpString;

use crate::input::{decode_lossy, push_lossy};
use crate::machine::charref::{CharRef, character_reference};
use crate::scan::{ByteSet, Changes, find_in_set, find2, find3, unchanged_span};

/// What a part of a token needs done to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Resolve character references; `Some(true)` with the attribute-value rules.
    pub(crate) refs: Option<bool>,
    /// Keep U+0000 as it is (data and CDATA text) instead of replacing it with U+FFFD.
    pub(crate) keep_nul: bool,
    /// Lowercase ASCII letters (tag, attribute and DOCTYPE names).
    pub(crate) lower: bool,
    /// The bytes these rules change (with non-ASCII ones), for the check for an unchanged part.
    pub(crate) changes: Changes,
}

/// Tag, attribute and DOCTYPE names.
pub(crate) const NAME: Rules = Rules {
    refs: None,
    keep_nul: false,
    lower: true,
    changes: Changes::Name,
};
/// Attribute values.
pub(crate) const ATTRIBUTE_VALUE: Rules = Rules {
    refs: Some(true),
    keep_nul: false,
    lower: false,
    changes: Changes::References,
};
/// Comments, DOCTYPE identifiers, PI targets and data, and raw text (RAWTEXT, script, PLAINTEXT, RCDATA
/// without references).
pub(crate) const PLAIN: Rules = Rules {
    refs: None,
    keep_nul: false,
    lower: false,
    changes: Changes::Plain,
};

const SPECIAL_NAME: ByteSet = ByteSet::of(b"\0\r").with_range(b'A', b'Z');

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
        Some(unchanged) => unchanged,
        None => decode_changed(&window[start..end], rules, arena),
    }
}

/// Decode `raw`, which holds a byte that `rules` change or one that is not ASCII.
#[inline(never)]
fn decode_changed<'a>(raw: &'a [u8], rules: Rules, arena: &'a Bump) -> &'a str {
    let Some(first) = find_special(raw, rules) else {
        return decode_lossy(raw, arena);
    };
    let mut out = BumpString::with_capacity_in(raw.len() + 8, arena);
    push_lossy(&raw[..first], &mut out);
    let mut i = first;
    while i < raw.len() {
        i += decode_special(&raw[i..], rules, &mut out);
        let next = find_special(&raw[i..], rules).map_or(raw.len(), |n| i + n);
        push_lossy(&raw[i..next], &mut out);
        i = next;
    }
    out.into_bump_str()
}

/// Index of the first byte of `raw` that decoding under `rules` changes (or may change).
#[inline]
fn find_special(raw: &[u8], rules: Rules) -> Option<usize> {
    if rules.lower {
        find_in_set(&SPECIAL_NAME, raw)
    } else if rules.refs.is_some() {
        find3(0, b'\r', b'&', raw)
    } else {
        find2(0, b'\r', raw)
    }
}

/// Decode the special byte at the start of `s` into `out`; returns how many bytes it covered.
fn decode_special(s: &[u8], rules: Rules, out: &mut BumpString) -> usize {
    match s[0] {
        b'\r' => {
            out.push('\n');
            if s.get(1) == Some(&b'\n') { 2 } else { 1 }
        }
        0 => {
            out.push(if rules.keep_nul { '\0' } else { '\u{FFFD}' });
            1
        }
        b'&' => decode_reference(s, rules.refs == Some(true), out),
        c => {
            out.push(char::from(c.to_ascii_lowercase()));
            1
        }
    }
}

/// Resolve the character reference at the start of `s` (which is the whole rest of the part, so the
/// part's end is the end of input for the reference).
fn decode_reference(s: &[u8], in_attribute: bool, out: &mut BumpString) -> usize {
    match character_reference(s, in_attribute, true) {
        CharRef::Done(outcome) => {
            match outcome.value {
                Some(replacement) => replacement.push_to(out),
                None => push_lossy(&s[..outcome.len], out),
            }
            outcome.len.max(1)
        }
        CharRef::NeedMore => {
            out.push('&');
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: Rules = Rules {
        refs: Some(false),
        keep_nul: true,
        lower: false,
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
    }
}
