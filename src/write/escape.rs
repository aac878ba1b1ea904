//! Escaping text and attribute values by where they land, and choosing how a value is quoted
//! (§13.1.2.3 and the HTML Standard's "escaping a string" in §13.3, "Serializing HTML
//! fragments": `&`, U+00A0, and in attribute mode `"`, in text mode `<` and `>`; since 2025 `<`
//! and `>` in attribute mode too).

use super::check::is_space;
use super::options::{Quote, QuoteAttrValues};

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

/// Append `text` to `out` with `&`, U+00A0 and what `escapes` says replaced by references.
pub(crate) fn escape_into(out: &mut Vec<u8>, text: &str, escapes: Escapes) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let replacement: Option<&[u8]> = match b {
            b'&' => Some(b"&amp;"),
            b'<' if escapes.angle => Some(b"&lt;"),
            b'>' if escapes.angle => Some(b"&gt;"),
            b'\r' if escapes.cr => Some(b"&#13;"),
            b'"' if escapes.quote == Some(b'"') => Some(b"&quot;"),
            b'\'' if escapes.quote == Some(b'\'') => Some(b"&#39;"),
            0xC2 if bytes.get(i + 1) == Some(&0xA0) => Some(b"&nbsp;"),
            _ => None,
        };
        if let Some(r) = replacement {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(r);
            i += if b == 0xC2 { 2 } else { 1 };
            start = i;
        } else {
            i += 1;
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Whether `value` must be quoted: it is empty, or holds a character the unquoted syntax cannot
/// (§13.1.2.3; `<` and `>` only when written literally, and `>` always, see
/// [`QuoteAttrValues::Spec`]; a carriage return only when written literally), or one of the
/// legacy set.
pub(crate) fn needs_quotes(value: &str, when: QuoteAttrValues, escapes: Escapes) -> bool {
    if value.is_empty() || when == QuoteAttrValues::Always {
        return true;
    }
    let spec = |b: u8| match b {
        b'\r' => !escapes.cr,
        b'<' => !escapes.angle,
        b'"' | b'\'' | b'=' | b'`' | b'>' => true,
        _ => is_space(b),
    };
    if value.bytes().any(spec) {
        return true;
    }
    when == QuoteAttrValues::Legacy && value.chars().any(is_legacy_quoted)
}

/// html5lib's "legacy" extra quoting characters: controls, `/`, U+00A0 and the Unicode spaces.
fn is_legacy_quoted(c: char) -> bool {
    matches!(c, '\0'..='\x20' | '/' | '\u{A0}' | '\u{1680}' | '\u{180E}' | '\u{180F}'
        | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// The quote for `value`: the preferred one, or (`best`) the other when only the preferred one
/// appears in the value.
pub(crate) fn choose_quote(value: &str, preferred: Quote, best: bool) -> u8 {
    if best {
        match (value.contains('"'), value.contains('\'')) {
            (false, true) => return b'"',
            (true, false) => return b'\'',
            _ => {}
        }
    }
    preferred.byte()
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
