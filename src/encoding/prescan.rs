//! The HTML Standard's prescan: a byte-level look for `<meta charset>`, `<meta http-equiv
//! content>` and XML declarations in the first bytes of a document, before anything is decoded
//! (<https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding>).
//!
//! Every step below is named as the standard names it. Running out of bytes anywhere (including
//! inside "get an attribute") makes the prescan fail: a declaration cut off by the end of the
//! prescanned bytes declares nothing.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// What the prescan makes of the bytes it is given: the encoding a `<meta>` or an XML declaration
/// declares, or `None`.
///
/// The standard encourages user agents to prescan only the first 1024 bytes; [`sniff`] passes
/// exactly those, `prescan` itself scans everything it is given. As the standard says, a meta
/// declaring UTF-16 means UTF-8 (the bytes were readable as ASCII) and x-user-defined means
/// windows-1252.
///
/// ```
/// use tagstream::encoding::prescan;
/// let html = br#"<!-- <meta charset="koi8-r"> --><meta http-equiv="Content-Type"
///                content="text/html; charset=Shift_JIS">"#;
/// assert_eq!(prescan(html).unwrap().name(), "Shift_JIS");
/// assert_eq!(prescan(b"<meta charset=utf-16le>").unwrap().name(), "UTF-8");
/// assert_eq!(prescan(b"<p>no declaration</p>"), None);
/// ```
///
/// [`sniff`]: crate::encoding::sniff
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    utf16_xml_declaration(bytes)
        .or_else(|| prescan_markup(bytes))
        .or_else(|| xml_encoding(bytes))
}

/// "Prescan for UTF-16 XML declarations": `<?x` in UTF-16LE or UTF-16BE at the very start.
pub(crate) fn utf16_xml_declaration(bytes: &[u8]) -> Option<&'static Encoding> {
    match bytes {
        [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, ..] => Some(UTF_16LE),
        [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78, ..] => Some(UTF_16BE),
        _ => None,
    }
}

/// The bytes the prescan reads, and where it is. Every method returns `None` when it runs out of
/// bytes, which aborts the whole prescan.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

/// The standard's byte-level whitespace: 0x09, 0x0A, 0x0C, 0x0D, 0x20.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

impl Cursor<'_> {
    fn byte(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn rest(&self) -> &[u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// Advance to the first byte at or after the current one that matches `stop`.
    fn advance_to(&mut self, stop: impl Fn(u8) -> bool) -> Option<u8> {
        let skip = self.rest().iter().position(|&b| stop(b))?;
        self.pos += skip;
        self.byte()
    }
}

/// The prescan's loop over markup (steps "Loop" to "Next byte").
fn prescan_markup(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut c = Cursor { bytes, pos: 0 };
    while c.pos < bytes.len() {
        let rest = c.rest();
        if rest.starts_with(b"<!--") {
            skip_comment(&mut c)?;
        } else if starts_meta(rest) {
            if let Some(encoding) = meta(&mut c)? {
                return Some(encoding);
            }
        } else if starts_tag(rest) {
            skip_tag(&mut c)?;
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            c.advance_to(|b| b == b'>')?;
        }
        // "Next byte".
        c.pos += 1;
    }
    None
}

/// `<!--`: to the `>` of the first `-->`, whose dashes may be those of `<!--` itself.
fn skip_comment(c: &mut Cursor<'_>) -> Option<()> {
    let body = c.rest().get(2..)?;
    let end = body.windows(3).position(|w| w == b"-->")?;
    c.pos += 2 + end + 2;
    Some(())
}

/// Case-insensitive `<meta` followed by whitespace or `/`.
fn starts_meta(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// `<` or `</` followed by an ASCII letter.
fn starts_tag(rest: &[u8]) -> bool {
    let name = if rest.starts_with(b"</") {
        rest.get(2)
    } else {
        rest.get(1).filter(|_| rest.first() == Some(&b'<'))
    };
    name.is_some_and(u8::is_ascii_alphabetic)
}

/// Any other tag: past its name, then past all its attributes (to its `>`).
fn skip_tag(c: &mut Cursor<'_>) -> Option<()> {
    c.advance_to(|b| is_space(b) || b == b'>')?;
    while get_attribute(c)?.is_some() {}
    Some(())
}

/// The `<meta` steps: its attributes, then "Processing". `Some(None)` when this meta declares
/// nothing usable and the prescan goes on.
fn meta(c: &mut Cursor<'_>) -> Option<Option<&'static Encoding>> {
    c.pos += 5;
    let mut declaration = MetaDeclaration::default();
    let mut seen: Vec<Vec<u8>> = Vec::new();
    while let Some(attribute) = get_attribute(c)? {
        if seen.contains(&attribute.name) {
            continue;
        }
        declaration.add(&attribute);
        seen.push(attribute.name);
    }
    Some(declaration.processing())
}

/// The variables of the `<meta` steps: got pragma, need pragma and charset.
#[derive(Default)]
struct MetaDeclaration {
    got_pragma: bool,
    need_pragma: Option<bool>,
    /// `None`: null; `Some(None)`: failure (an unknown label).
    charset: Option<Option<&'static Encoding>>,
}

impl MetaDeclaration {
    /// Step "Run the appropriate step from the following list".
    fn add(&mut self, attribute: &SniffedAttribute) {
        match attribute.name.as_slice() {
            b"http-equiv" => self.got_pragma |= attribute.value == b"content-type",
            b"content" if self.charset.is_none() => {
                if let Some(encoding) = extract_from_content(&attribute.value) {
                    self.charset = Some(Some(encoding));
                    self.need_pragma = Some(true);
                }
            }
            b"charset" => {
                self.charset = Some(Encoding::for_label(&attribute.value));
                self.need_pragma = Some(false);
            }
            _ => {}
        }
    }

    /// Step "Processing".
    fn processing(&self) -> Option<&'static Encoding> {
        let need_pragma = self.need_pragma?;
        if need_pragma && !self.got_pragma {
            return None;
        }
        Some(declared_by_meta(self.charset??))
    }
}

/// A meta that declares UTF-16 was read as ASCII, so it means UTF-8; x-user-defined means
/// windows-1252 (the prescan's last steps, and the same rule in "change the encoding").
pub(crate) fn declared_by_meta(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// An attribute as "get an attribute" returns it: name and value with ASCII upper case lowered.
struct SniffedAttribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// "Get an attribute": `Some(None)` when there is none (at a `>`), `None` when out of bytes.
fn get_attribute(c: &mut Cursor<'_>) -> Option<Option<SniffedAttribute>> {
    if c.advance_to(|b| !is_space(b) && b != b'/')? == b'>' {
        return Some(None);
    }
    let mut attribute = SniffedAttribute {
        name: Vec::new(),
        value: Vec::new(),
    };
    loop {
        match c.byte()? {
            b'=' if !attribute.name.is_empty() => {
                c.pos += 1;
                break;
            }
            b if is_space(b) => {
                // "Spaces": an `=` may still follow.
                if c.advance_to(|b| !is_space(b))? != b'=' {
                    return Some(Some(attribute));
                }
                c.pos += 1;
                break;
            }
            b'/' | b'>' => return Some(Some(attribute)),
            b => attribute.name.push(b.to_ascii_lowercase()),
        }
        c.pos += 1;
    }
    attribute_value(c, &mut attribute.value)?;
    Some(Some(attribute))
}

/// "Get an attribute", from the step labelled "Value": quoted, empty (at `>`) or unquoted.
fn attribute_value(c: &mut Cursor<'_>, value: &mut Vec<u8>) -> Option<()> {
    let first = c.advance_to(|b| !is_space(b))?;
    if first == b'>' {
        return Some(());
    }
    if first == b'"' || first == b'\'' {
        c.pos += 1;
        let len = c.rest().iter().position(|&b| b == first)?;
        value.extend(c.rest()[..len].iter().map(u8::to_ascii_lowercase));
        c.pos += len + 1;
        return Some(());
    }
    let len = c.rest().iter().position(|&b| is_space(b) || b == b'>')?;
    value.extend(c.rest()[..len].iter().map(u8::to_ascii_lowercase));
    c.pos += len;
    Some(())
}

/// The "algorithm for extracting a character encoding from a meta element", on a `content`
/// value: `charset`, optional whitespace, `=`, then a quoted or bare label.
/// (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element>)
pub(crate) fn extract_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    let value = loop {
        let found = find_ignore_ascii_case(&content[pos..], b"charset")?;
        pos += found + b"charset".len();
        pos += count_leading(&content[pos..], u8::is_ascii_whitespace);
        if content.get(pos) == Some(&b'=') {
            pos += 1;
            break &content[pos..];
        }
    };
    let value = &value[count_leading(value, u8::is_ascii_whitespace)..];
    let label = match value.first()? {
        &quote @ (b'"' | b'\'') => {
            let len = value[1..].iter().position(|&b| b == quote)?;
            &value[1..1 + len]
        }
        _ => {
            let len = count_leading(value, |&b| !b.is_ascii_whitespace() && b != b';');
            &value[..len]
        }
    };
    Encoding::for_label(label)
}

/// "Get an XML encoding": the `encoding` of an `<?xml …?>` declaration at the very start, when
/// no meta declared one.
pub(crate) fn xml_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    let declaration = bytes.strip_prefix(b"<?xml")?;
    let declaration = &declaration[..declaration.iter().position(|&b| b == b'>')?];
    let after = find(declaration, b"encoding")? + b"encoding".len();
    let rest = &declaration[after..];
    let rest = rest
        .get(count_leading(rest, |&b| b <= 0x20)..)?
        .strip_prefix(b"=")?;
    let rest = &rest[count_leading(rest, |&b| b <= 0x20)..];
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let label = &rest[..rest.iter().position(|&b| b == quote)?];
    if label.iter().any(|&b| b <= 0x20) {
        return None;
    }
    let encoding = Encoding::for_label(label)?;
    Some(if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    })
}

fn count_leading(bytes: &[u8], pred: impl Fn(&u8) -> bool) -> usize {
    bytes.iter().take_while(|b| pred(b)).count()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn find_ignore_ascii_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, ISO_8859_2, SHIFT_JIS, WINDOWS_1251};

    #[test]
    fn get_an_attribute_rules() {
        assert_eq!(prescan(b"<meta charset=iso8859-2>"), Some(ISO_8859_2));
        assert_eq!(prescan(b"<META CHARSET = 'EUC-JP' >"), Some(EUC_JP));
        assert_eq!(
            prescan(b"<meta charset=\"iso8859-2>"),
            None,
            "unclosed quote"
        );
        assert_eq!(prescan(b"<meta charset=euc-jp"), None, "out of bytes");
        assert_eq!(
            prescan(b"<meta/charset=euc-jp/>"),
            None,
            "`/` is part of the value"
        );
        assert_eq!(prescan(b"<meta/charset=euc-jp >"), Some(EUC_JP));
        assert_eq!(
            prescan(b"<meta charset=x charset=euc-jp>"),
            None,
            "first wins"
        );
    }

    #[test]
    fn pragma_rules() {
        let content = b"<meta content='text/html; charset=windows-1251' http-equiv=Content-Type>";
        assert_eq!(prescan(content), Some(WINDOWS_1251));
        assert_eq!(
            prescan(b"<meta content='text/html; charset=windows-1251'>"),
            None
        );
        let both =
            b"<meta charset=shift_jis content='charset=windows-1251' http-equiv=content-type>";
        assert_eq!(
            prescan(both),
            Some(SHIFT_JIS),
            "charset before content wins"
        );
    }

    #[test]
    fn markup_skipped() {
        assert_eq!(
            prescan(b"<!--><meta charset=euc-jp>"),
            Some(EUC_JP),
            "<!--> is a whole comment"
        );
        assert_eq!(prescan(b"<!-- <meta charset=euc-jp> -->"), None);
        assert_eq!(prescan(b"<p title='<meta charset=euc-jp>'>"), None);
        assert_eq!(
            prescan(b"</p><? <meta charset=euc-jp> ><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
        assert_eq!(prescan(b"<x-meta charset=euc-jp>"), None);
    }

    #[test]
    fn extraction_from_content() {
        assert_eq!(
            extract_from_content(b"text/html; CHARSET = \"euc-jp\""),
            Some(EUC_JP)
        );
        assert_eq!(
            extract_from_content(b"charset;charset=shift_jis;x"),
            Some(SHIFT_JIS)
        );
        assert_eq!(
            extract_from_content(b"charset='euc-jp"),
            None,
            "unmatched quote"
        );
        assert_eq!(extract_from_content(b"charset="), None);
    }

    #[test]
    fn xml_declarations() {
        assert_eq!(prescan(b"<\0?\0x\0m\0l\0"), Some(UTF_16LE));
        assert_eq!(prescan(b"\0<\0?\0x\0m\0l"), Some(UTF_16BE));
        assert_eq!(
            prescan(b"<?xml version='1.0' encoding='windows-1251'?>"),
            Some(WINDOWS_1251)
        );
        assert_eq!(prescan(b"<?xml encoding=\"utf-16\"?>"), Some(UTF_8));
        assert_eq!(prescan(b"<?xml encoding=\"euc-jp \"?>"), None);
        assert_eq!(prescan(b" <?xml encoding=\"euc-jp\"?>"), None);
    }
}
