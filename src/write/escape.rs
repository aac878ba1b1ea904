//! Escaping text and attribute values by where they land, and choosing how a value is quoted
//! (§13.1.2.3 and the HTML Standard's "escaping a string" in §13.3, "Serializing HTML
//! fragments": `&`, U+00A0, and in attribute mode `"`, in text mode `<` and `>`; since 2025 `<`
//! and `>` in attribute mode too).

use super::options::{Quote, QuoteAttrValues};
use crate::scan::{ByteList, each_listed, find_listed, find_listed_from, find1};

/// What one escaping pass replaces.
#[derive(Clone, Copy)]
pub(crate) struct Escapes {
    /// `<` and `>` as `&lt;` and `&gt;`.
    pub(crate) angle: bool,
    /// The quote the value is written in (escaped as `&quot;` or `&#39;`).
    pub(crate) quote: Option<u8>,
    /// A carriage return as `&#13;` (which reads back as CR; a literal one reads as LF).
    pub(crate) cr: bool,
}

/// The bytes an escaping pass stops at: `&`, the lead byte of U+00A0, and what `escapes` adds.
const fn stops(angle: bool, quote: Option<u8>, cr: bool) -> ByteList<6> {
    let mut bytes = [b'&', 0xC2, b'&', b'&', b'&', b'&'];
    if angle {
        bytes[2] = b'<';
        bytes[3] = b'>';
    }
    if let Some(q) = quote {
        bytes[4] = q;
    }
    if cr {
        bytes[5] = b'\r';
    }
    ByteList::of(bytes)
}

/// [`stops`] for every [`Escapes`], indexed by [`Escapes::index`].
const STOPS: [ByteList<6>; 12] = {
    let quotes = [None, Some(b'"'), Some(b'\'')];
    let mut table = [ByteList::of([b'&'; 6]); 12];
    let mut i = 0;
    while i < 12 {
        table[i] = stops(i & 1 != 0, quotes[(i >> 1) % 3], i >= 6);
        i += 1;
    }
    table
};

impl Escapes {
    /// This combination's place in [`STOPS`].
    fn index(self) -> usize {
        let quote = match self.quote {
            None => 0,
            Some(b'"') => 1,
            Some(_) => 2,
        };
        usize::from(self.angle) + quote * 2 + usize::from(self.cr) * 6
    }
}

/// Append `text` to `out` with `&`, U+00A0 and what `escapes` says replaced by references.
///
/// Most strings need no reference: `text` is copied first and looked at where it landed, in
/// blocks of 16 bytes with the output before it (a short string costs one block, not a loop over
/// its bytes); from the first byte to replace on, the copy is taken back and the rest escaped.
pub(crate) fn escape_into(out: &mut Vec<u8>, text: &str, escapes: Escapes) {
    escape_finding_quote(out, text, escapes);
}

/// [`escape_into`], saying whether `text` held the quote `escapes` names.
fn escape_finding_quote(out: &mut Vec<u8>, text: &str, escapes: Escapes) -> bool {
    let stops = &STOPS[escapes.index()];
    let start = out.len();
    out.extend_from_slice(text.as_bytes());
    let Some(first) = find_listed_from(stops, out, start) else {
        return false;
    };
    let mut quote_met = false;
    out.truncate(first);
    let bytes = &text.as_bytes()[first - start..];
    let mut done = 0;
    each_listed(stops, bytes, |at| {
        let (replacement, len): (&[u8], usize) = match bytes[at] {
            b'&' => (b"&amp;", 1),
            b'<' => (b"&lt;", 1),
            b'>' => (b"&gt;", 1),
            b'\r' => (b"&#13;", 1),
            b'"' => (b"&quot;", 1),
            b'\'' => (b"&#39;", 1),
            // 0xC2: U+00A0 if 0xA0 follows, else another character of U+0080..U+00BF.
            _ if bytes.get(at + 1) == Some(&0xA0) => (b"&nbsp;", 2),
            _ => return,
        };
        quote_met |= matches!(bytes[at], b'"' | b'\'');
        out.extend_from_slice(&bytes[done..at]);
        out.extend_from_slice(replacement);
        done = at + len;
    });
    out.extend_from_slice(&bytes[done..]);
    quote_met
}

/// Append `text` to `out` escaped for XML (XML5's inserted text and attribute values): `&`, `<`,
/// `>` and `quote` as predefined entities, CR as `&#13;` (a literal one reads back as a line
/// feed); U+00A0 stays (`&nbsp;` is not XML).
pub(crate) fn escape_xml_into(out: &mut Vec<u8>, text: &str, quote: Option<u8>) {
    let mut start = 0;
    for (at, &b) in text.as_bytes().iter().enumerate() {
        let replacement: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'\r' => b"&#13;",
            b'"' if quote == Some(b'"') => b"&quot;",
            b'\'' if quote == Some(b'\'') => b"&apos;",
            _ => continue,
        };
        out.extend_from_slice(&text.as_bytes()[start..at]);
        out.extend_from_slice(replacement);
        start = at + 1;
    }
    out.extend_from_slice(&text.as_bytes()[start..]);
}

/// Whether `value` must be quoted: it is empty, or holds a character the unquoted syntax cannot
/// (§13.1.2.3; `<` and `>` only when written literally, and `>` always, see
/// [`QuoteAttrValues::Spec`]; a carriage return only when written literally), or one of the
/// legacy set.
pub(crate) fn needs_quotes(value: &str, when: QuoteAttrValues, escapes: Escapes) -> bool {
    if value.is_empty() || when == QuoteAttrValues::Always {
        return true;
    }
    let quoted = &QUOTED[usize::from(escapes.angle) + 2 * usize::from(escapes.cr)];
    if find_listed(quoted, value.as_bytes()).is_some() {
        return true;
    }
    when == QuoteAttrValues::Legacy && value.chars().any(is_legacy_quoted)
}

/// Append `value` to `out` as it is, unquoted, if under `when` it needs neither quotes nor an
/// escape, as most values do; whether it did (if not, `out` is as it was, and [`needs_quotes`]
/// and the escaping decide). One test of the copy, in blocks of 16 bytes, for what both look for.
pub(crate) fn plain_value_into(out: &mut Vec<u8>, value: &str, when: QuoteAttrValues) -> bool {
    if value.is_empty() || when != QuoteAttrValues::Spec {
        return false;
    }
    let start = out.len();
    out.extend_from_slice(value.as_bytes());
    if find_listed_from(&NOT_PLAIN, out, start).is_none() {
        return true;
    }
    out.truncate(start);
    false
}

/// What makes a value need quotes or an escape, whatever the options: every byte of [`QUOTED`]
/// and of the [`STOPS`] of an unquoted value.
const NOT_PLAIN: ByteList<13> = ByteList::of(*b"\t\n\x0C\r \"'=`<>&\xC2");

/// What the unquoted syntax cannot hold: ASCII whitespace, `"`, `'`, `=`, `` ` ``, `>`, and `<`
/// unless escaped (odd indexes) and CR unless escaped (indexes 2 and 3); `>` repeated to fill a list.
const QUOTED: [ByteList<11>; 4] = [
    ByteList::of(*b"\t\n\x0C\r \"'=`><"),
    ByteList::of(*b"\t\n\x0C\r \"'=`>>"),
    ByteList::of(*b"\t\n\x0C \"'=`><>"),
    ByteList::of(*b"\t\n\x0C \"'=`>>>"),
];

/// html5lib's "legacy" extra quoting characters: controls, `/`, U+00A0 and the Unicode spaces.
fn is_legacy_quoted(c: char) -> bool {
    matches!(c, '\0'..='\x20' | '/' | '\u{A0}' | '\u{1680}' | '\u{180E}' | '\u{180F}'
        | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// Append `value` to `out` in quotes, escaped as `escapes` says and for its quote: the preferred
/// one, or (`best`) the other when only the preferred one appears in the value. Most values hold
/// no quote: the value is written in the preferred one at once, and again in the other only when
/// it turns out to hold the preferred one and not the other.
pub(crate) fn quote_into(
    out: &mut Vec<u8>,
    value: &str,
    escapes: Escapes,
    preferred: Quote,
    best: bool,
) {
    let start = out.len();
    let preferred = preferred.byte();
    let other = if preferred == b'"' { b'\'' } else { b'"' };
    let within = |quote| Escapes {
        quote: Some(quote),
        ..escapes
    };
    out.push(preferred);
    let held = escape_finding_quote(out, value, within(preferred));
    let quote = if held && best && find1(other, value.as_bytes()).is_none() {
        out.truncate(start);
        out.push(other);
        escape_into(out, value, within(other));
        other
    } else {
        preferred
    };
    out.push(quote);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str, escapes: Escapes) -> String {
        let mut out = Vec::new();
        escape_into(&mut out, text, escapes);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_escapes_amp_angles_nbsp_and_cr() {
        let text = Escapes {
            angle: true,
            quote: None,
            cr: true,
        };
        assert_eq!(
            escaped("a&b<c>d\u{A0}e\rf\"'", text),
            "a&amp;b&lt;c&gt;d&nbsp;e&#13;f\"'"
        );
    }

    #[test]
    fn what_the_output_holds_before_is_left_alone_at_every_length() {
        let text = Escapes {
            angle: true,
            quote: None,
            cr: true,
        };
        let prefix = "&<>\r&<>\r&<>\r&<>\r&<>\r";
        for before in 0..prefix.len() {
            for len in 0..40 {
                let plain = "abcdefghijklmnopqrstuvwxyz0123456789abcd";
                for at in (0..len).step_by(7).map(Some).chain([None]) {
                    let mut input = plain[..len].to_owned();
                    if let Some(at) = at {
                        input.replace_range(at..at + 1, "<");
                    }
                    let mut out = prefix.as_bytes()[..before].to_vec();
                    escape_into(&mut out, &input, text);
                    let want = format!("{}{}", &prefix[..before], input.replace('<', "&lt;"));
                    assert_eq!(String::from_utf8(out).unwrap(), want);
                }
            }
        }
    }

    #[test]
    fn the_quote_is_the_preferred_one_unless_only_it_appears() {
        let escapes = Escapes {
            angle: true,
            quote: None,
            cr: true,
        };
        let quoted = |value: &str, preferred, best| {
            let mut out = b"<a x=".to_vec();
            quote_into(&mut out, value, escapes, preferred, best);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(quoted("a b", Quote::Double, true), "<a x=\"a b\"");
        assert_eq!(quoted("a\"b", Quote::Double, true), "<a x='a\"b'");
        assert_eq!(quoted("a'b", Quote::Double, true), "<a x=\"a'b\"");
        assert_eq!(quoted("\"a'b", Quote::Double, true), "<a x=\"&quot;a'b\"");
        assert_eq!(quoted("a\"b", Quote::Double, false), "<a x=\"a&quot;b\"");
        assert_eq!(quoted("a'b", Quote::Single, true), "<a x=\"a'b\"");
        assert_eq!(quoted("a\"b", Quote::Single, true), "<a x='a\"b'");
        assert_eq!(quoted("a'b\"", Quote::Single, true), "<a x='a&#39;b\"'");
        assert_eq!(quoted("a'b", Quote::Single, false), "<a x='a&#39;b'");
    }

    #[test]
    fn attribute_escapes_only_its_quote() {
        let double = Escapes {
            angle: false,
            quote: Some(b'"'),
            cr: false,
        };
        assert_eq!(escaped("\"'<\r", double), "&quot;'<\r");
        let single = Escapes {
            quote: Some(b'\''),
            ..double
        };
        assert_eq!(escaped("\"'", single), "\"&#39;");
    }

    #[test]
    fn every_combination_escapes_exactly_its_characters() {
        for angle in [false, true] {
            for quote in [None, Some(b'"'), Some(b'\'')] {
                for cr in [false, true] {
                    let escapes = Escapes { angle, quote, cr };
                    let mut expected = String::from("&amp;&nbsp;\u{A1}");
                    expected += if angle { "&lt;&gt;" } else { "<>" };
                    expected += if cr { "&#13;" } else { "\r" };
                    expected += if quote == Some(b'"') { "&quot;" } else { "\"" };
                    expected += if quote == Some(b'\'') { "&#39;" } else { "'" };
                    assert_eq!(escaped("&\u{A0}\u{A1}<>\r\"'", escapes), expected);
                }
            }
        }
    }

    #[test]
    fn a_plain_value_is_one_that_needs_no_quotes_and_no_escape() {
        let values = [
            "a",
            "a b",
            "a=b",
            "a&b",
            "a<b",
            "a>b",
            "a\rb",
            "a\"b",
            "a'b",
            "a`b",
            "\u{A0}",
            "\u{A9}",
            "\u{E9}",
            "https://example.com/a/b.html",
            "x\tx",
            "0123456789abcdefghij",
            "0123456789abcdefghij\u{A0}",
        ];
        for value in values {
            for (angle, cr) in [(false, false), (false, true), (true, false), (true, true)] {
                let escapes = Escapes {
                    angle,
                    quote: None,
                    cr,
                };
                let mut out = b"<a x=".to_vec();
                let plain = plain_value_into(&mut out, value, QuoteAttrValues::Spec);
                let quoted = needs_quotes(value, QuoteAttrValues::Spec, escapes);
                let mut escaped = b"<a x=".to_vec();
                escape_into(
                    &mut escaped,
                    value,
                    Escapes {
                        angle: true,
                        ..escapes
                    },
                );
                let unchanged = escaped == format!("<a x={value}").into_bytes();
                // A byte 0xC2 sends even U+00A9 the long way, which writes it as it is.
                let c2 = value.as_bytes().contains(&0xC2);
                assert_eq!(plain, !quoted && unchanged && !c2, "{value:?}");
                if plain {
                    assert_eq!(out, escaped);
                } else {
                    assert_eq!(out, b"<a x=");
                }
            }
        }
    }

    #[test]
    fn quoting_follows_the_unquoted_syntax() {
        use QuoteAttrValues::*;
        let escaped = Escapes {
            angle: true,
            quote: None,
            cr: true,
        };
        let literal = Escapes {
            angle: false,
            quote: None,
            cr: false,
        };
        assert!(needs_quotes("", Spec, escaped));
        assert!(!needs_quotes("a<b", Spec, escaped));
        assert!(needs_quotes("a<b", Spec, literal));
        assert!(!needs_quotes("a\rb", Spec, escaped));
        assert!(needs_quotes("a\rb", Spec, literal));
        assert!(needs_quotes("a>b", Spec, escaped));
        assert!(!needs_quotes("a\x0Bb", Spec, escaped));
        assert!(needs_quotes("a\x0Bb", Legacy, escaped));
        assert!(needs_quotes("a/b", Legacy, escaped));
        assert!(!needs_quotes("a/b", Spec, escaped));
        assert!(needs_quotes("x", Always, escaped));
    }
}
