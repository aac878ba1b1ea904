//! Independent oracles and the per-token invariants.
//!
//! Nothing here calls into tagstream's internals: positions and the decodings that involve no
//! character reference are recomputed from the standard's rules, straight from the input bytes.

use std::collections::HashMap;
use std::fmt;

use tagstream::{Position, Span, TextKind, Token};

/// Bytes printed as an escaped byte string (for reproducing a failure by hand).
#[derive(PartialEq, Eq)]
pub struct Bytes<'a>(pub &'a [u8]);

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// The line and column of every offset `0..=input.len()` as a tokenizer that strips a leading
/// byte order mark (`Options::strip_bom`, on in the harness) counts them: line 1, column 1 is
/// after the mark (whose own three offsets, in no token, get that position too).
pub fn positions(input: &[u8]) -> Vec<Position> {
    match input.strip_prefix(b"\xEF\xBB\xBF") {
        Some(text) => {
            let mut out = vec![Position { line: 1, col: 1 }; 3];
            out.extend(positions_in_text(text));
            out
        }
        None => positions_in_text(input),
    }
}

/// The line and column of every offset `0..=input.len()`, by the rules `tagstream::Position`
/// documents: lines end at LF, CR or CRLF (one newline, sitting at the end of its line; the LF of
/// a CRLF maps to its CR); columns count UTF-16 units, one per maximal invalid UTF-8 subpart; an
/// offset inside a character maps to the character's start; the end maps to where a next character
/// would be.
fn positions_in_text(input: &[u8]) -> Vec<Position> {
    let mut out = Vec::with_capacity(input.len() + 1);
    let (mut line, mut col) = (1u64, 1u64);
    let mut after_cr: Option<Position> = None;
    // One unit: `len` bytes, `width` UTF-16 units, and which newline it is, if any.
    let mut unit = |len: usize, width: u64, c: Option<char>, out: &mut Vec<Position>| {
        if c == Some('\n')
            && let Some(cr) = after_cr.take()
        {
            out.push(cr);
            return;
        }
        let here = Position { line, col };
        out.extend(std::iter::repeat_n(here, len));
        after_cr = None;
        match c {
            Some('\n') => (line, col) = (line + 1, 1),
            Some('\r') => {
                (line, col) = (line + 1, 1);
                after_cr = Some(here);
            }
            _ => col += width,
        }
    };
    for chunk in input.utf8_chunks() {
        for c in chunk.valid().chars() {
            unit(c.len_utf8(), c.len_utf16() as u64, Some(c), &mut out);
        }
        if !chunk.invalid().is_empty() {
            unit(chunk.invalid().len(), 1, None, &mut out);
        }
    }
    out.push(Position { line, col });
    debug_assert_eq!(out.len(), input.len() + 1);
    out
}

/// A tag, attribute or DOCTYPE name as the standard builds it: ASCII uppercase lowercased, NUL to
/// U+FFFD (names never hold whitespace, so newlines need no care).
pub fn name_oracle(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .replace('\0', "\u{FFFD}")
        .to_ascii_lowercase()
}

/// Characters taken as written: newlines normalized (CRLF and CR to LF), invalid UTF-8 to U+FFFD,
/// NUL to U+FFFD unless `keep_nul`.
pub fn plain_oracle(raw: &[u8], keep_nul: bool) -> String {
    let s = String::from_utf8_lossy(raw)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    if keep_nul {
        s
    } else {
        s.replace('\0', "\u{FFFD}")
    }
}

/// The decoded text of a text token, when the standard's rule needs no character reference
/// (`None` when the raw text has a `&` in a state that resolves them).
pub fn text_oracle(raw: &[u8], kind: TextKind) -> Option<String> {
    match kind {
        TextKind::Data | TextKind::Rcdata if raw.contains(&b'&') => None,
        // The data state emits U+0000 as is (the tree builder deals with it); so does CDATA.
        TextKind::Data | TextKind::Cdata => Some(plain_oracle(raw, true)),
        TextKind::Rcdata | TextKind::Rawtext | TextKind::ScriptData | TextKind::Plaintext => {
            Some(plain_oracle(raw, false))
        }
    }
}

/// The kind of a token, for span records.
pub fn kind_name(token: &Token<'_>) -> &'static str {
    match token {
        Token::Doctype(_) => "doctype",
        Token::StartTag(_) => "start tag",
        Token::EndTag(_) => "end tag",
        Token::Comment(_) => "comment",
        Token::Text(_) => "text",
        Token::ProcessingInstruction(_) => "pi",
        Token::Raw(_) => "raw",
    }
}

/// Checks one token against the input it came from (`input` is the whole stream, so spans index it
/// directly). `prev_end` is where the previous token ended. Panics with a description on any
/// violation.
pub fn check_token(token: &Token<'_>, input: &[u8], prev_end: usize) {
    let span = token.span();
    let kind = kind_name(token);
    let inside = |what: &str, part: Span, outer: Span| {
        assert!(
            part.start <= part.end && outer.start <= part.start && part.end <= outer.end,
            "{kind}: {what} span {part:?} is not inside {outer:?}"
        );
    };
    let raw_is = |what: &str, part: Span, raw: &[u8]| {
        assert_eq!(
            Bytes(raw),
            Bytes(&input[part.range()]),
            "{kind}: raw {what} differs from the input at {part:?}"
        );
    };
    let tag_name_is = |name_span: Span, raw: &[u8], name: &str, what: &str| {
        inside("name", name_span, span);
        raw_is("name", name_span, raw);
        assert!(
            raw.first().is_some_and(u8::is_ascii_alphabetic),
            "a tag name starts with an ASCII letter: {:?}",
            Bytes(raw)
        );
        assert_eq!(name, name_oracle(raw), "{what}");
    };
    assert!(
        span.start < span.end && span.end <= input.len(),
        "{kind}: span {span:?} is empty or outside the input (length {})",
        input.len()
    );
    assert!(
        span.start >= prev_end,
        "{kind}: span {span:?} starts before the previous token's end {prev_end}"
    );
    raw_is("token", span, token.raw());
    match token {
        Token::Text(t) => {
            raw_is("text", t.span(), t.raw());
            let text = t.text();
            if let Some(want) = text_oracle(t.raw(), t.kind()) {
                assert_eq!(text, want, "text ({:?}) decodes wrongly", t.kind());
            }
        }
        Token::StartTag(tag) => {
            let name_span = tag.name_span();
            tag_name_is(name_span, tag.raw_name(), tag.name(), "tag name");
            assert_eq!(input[span.start], b'<');
            assert_eq!(input[span.end - 1], b'>');
            let mut seen = HashMap::new();
            let mut after = name_span.end;
            let attributes = tag.attributes();
            let count = attributes.len();
            for a in attributes {
                let (n, v, whole) = (a.name_span(), a.value_span(), a.span());
                inside("attribute", whole, span);
                inside("attribute name", n, whole);
                inside("attribute value", v, whole);
                assert!(
                    n.start >= after && !n.is_empty(),
                    "attribute name {n:?} is empty or starts before {after}"
                );
                assert!(
                    v.start >= n.end,
                    "attribute value {v:?} before its name {n:?}"
                );
                raw_is("attribute", whole, a.raw());
                raw_is("attribute name", n, a.raw_name());
                raw_is("attribute value", v, a.raw_value());
                let name = a.name();
                assert_eq!(name, name_oracle(a.raw_name()), "attribute name");
                if let Some(first) = seen.insert(name, a.raw_name()) {
                    panic!(
                        "duplicate attribute {name:?} kept ({:?} after {:?})",
                        Bytes(a.raw_name()),
                        Bytes(first)
                    );
                }
                let _ = a.value();
                if let Some(q) = a.quote() {
                    let q = q as u8;
                    assert!(
                        v.start > 0 && input[v.start - 1] == q && input.get(v.end) == Some(&q),
                        "attribute value {v:?} is not between {:?} quotes",
                        q as char
                    );
                } else if !v.is_empty() {
                    assert!(
                        !matches!(input[v.start], b'"' | b'\''),
                        "unquoted value {v:?} starts with a quote"
                    );
                }
                after = whole.end;
            }
            // Lookup by name finds each attribute (names are unique, so it finds that one).
            for a in tag.attributes() {
                let found = tag.attribute(a.name()).map(|f| f.name_span());
                assert_eq!(found, Some(a.name_span()), "attribute({:?})", a.name());
            }
            assert_eq!(seen.len(), count);
        }
        Token::EndTag(tag) => {
            let name_span = tag.name_span();
            tag_name_is(name_span, tag.raw_name(), tag.name(), "end tag name");
            assert_eq!(&input[span.start..span.start + 2], b"</");
            assert_eq!(input[span.end - 1], b'>');
        }
        Token::Comment(c) => {
            inside("data", c.data_span(), span);
            raw_is("data", c.data_span(), c.raw_data());
            assert_eq!(c.data(), plain_oracle(c.raw_data(), false), "comment data");
            assert_eq!(input[span.start], b'<');
        }
        Token::Doctype(d) => {
            let parts = [
                ("name", d.name_span(), d.name()),
                ("public id", d.public_id_span(), d.public_id()),
                ("system id", d.system_id_span(), d.system_id()),
            ];
            let mut after = span.start;
            for (what, part, value) in parts {
                assert_eq!(
                    part.is_some(),
                    value.is_some(),
                    "doctype {what}: span vs value"
                );
                if let (Some(part), Some(value)) = (part, value) {
                    inside(what, part, span);
                    assert!(part.start >= after, "doctype {what} {part:?} out of order");
                    after = part.end;
                    let raw = &input[part.range()];
                    let want = if what == "name" {
                        name_oracle(raw)
                    } else {
                        plain_oracle(raw, false)
                    };
                    assert_eq!(value, want, "doctype {what}");
                }
            }
            let _ = d.force_quirks();
        }
        Token::ProcessingInstruction(pi) => {
            let (target, data) = (pi.target_span(), pi.data_span());
            inside("target", target, span);
            inside("data", data, span);
            assert!(
                data.start >= target.end,
                "PI data {data:?} before its target {target:?}"
            );
            raw_is("data", data, pi.raw_data());
            assert_eq!(
                pi.target(),
                plain_oracle(&input[target.range()], false),
                "PI target"
            );
            assert_eq!(pi.data(), plain_oracle(pi.raw_data(), false), "PI data");
            assert_eq!(&input[span.start..span.start + 2], b"<?");
        }
        // Its raw bytes were checked above: that is all it has.
        Token::Raw(_) => {}
    }
}
