//! Which tokens can be written so that they tokenize back to themselves: one check per rule of
//! §13.1 (and of the tokenizer where the section is silent), each beside what
//! [`SerializerOptions::lossy`](super::SerializerOptions::lossy) writes instead.

use std::borrow::Cow;

use super::error::{Place, Refusal};
use crate::TextKind;
use crate::scan::{find1, find3};

/// ASCII whitespace as the tokenizer reads it before newline normalization.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// A tag name reads back as itself (ASCII-lowercased) when it starts with an ASCII letter (else
/// `<` is text) and holds no whitespace, `/` or `>` (which end it) nor U+0000.
pub(crate) fn check_tag_name(name: &str) -> Result<(), Refusal> {
    let ok = name.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && !name
            .bytes()
            .any(|b| is_space(b) || matches!(b, b'/' | b'>' | 0));
    if ok {
        Ok(())
    } else {
        Err(Refusal::TagName(name.to_owned()))
    }
}

/// An attribute name reads back as itself when it is not empty and holds no whitespace, `/`, `>`
/// or U+0000, nor `=` after its first character (a first `=` is taken into the name).
pub(crate) fn check_attribute_name(name: &str) -> Result<(), Refusal> {
    let bytes = name.as_bytes();
    let ok = !bytes.is_empty()
        && !bytes
            .iter()
            .any(|&b| is_space(b) || matches!(b, b'/' | b'>' | 0))
        && !bytes[1..].contains(&b'=');
    if ok {
        Ok(())
    } else {
        Err(Refusal::AttributeName(name.to_owned()))
    }
}

/// The index of the first attribute whose name repeats an earlier one (ASCII
/// case-insensitively): the tokenizer drops it. Pairwise for a few attributes, through a set of
/// the lowercased names for many (so that a tag with thousands stays linear).
pub(crate) fn first_duplicate(attributes: &[(&str, &str)]) -> Option<usize> {
    if attributes.len() <= 16 {
        return (1..attributes.len()).find(|&i| {
            attributes[..i]
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(attributes[i].0))
        });
    }
    let mut seen = std::collections::HashSet::with_capacity(attributes.len());
    attributes
        .iter()
        .position(|(n, _)| !seen.insert(n.to_ascii_lowercase()))
}

/// U+0000 in `text` at `place`, where the tokenizer reads U+FFFD.
pub(crate) fn check_nul(text: &str, place: Place) -> Result<(), Refusal> {
    if text.contains('\0') {
        Err(Refusal::Nul(place))
    } else {
        Ok(())
    }
}

/// A carriage return in `text` at `place`, where the tokenizer reads a line feed and no
/// character reference can stand for it.
pub(crate) fn check_cr(text: &str, place: Place) -> Result<(), Refusal> {
    if text.contains('\r') {
        Err(Refusal::CarriageReturn(place))
    } else {
        Ok(())
    }
}

/// [`check_nul`] and [`check_cr`]'s lossy counterpart: U+0000 as U+FFFD, CR as LF (`cr_ok`: CR kept).
pub(crate) fn fix_chars(text: &str, cr_ok: bool) -> Cow<'_, str> {
    if !text.contains('\0') && (cr_ok || !text.contains('\r')) {
        return Cow::Borrowed(text);
    }
    let fixed = text.replace('\0', "\u{FFFD}");
    Cow::Owned(if cr_ok {
        fixed
    } else {
        fixed.replace("\r\n", "\n").replace('\r', "\n")
    })
}

/// Where `text` holds `</` + `element` + a character that ends a tag name (§13.1.2.6), ASCII
/// case-insensitively: the offset of the `<`.
fn end_tag_in(text: &str, element: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let n = element.len();
    memchr::memmem::find_iter(bytes, b"</").find(|&at| {
        let name = &bytes[at + 2..];
        name.len() > n
            && name[..n].eq_ignore_ascii_case(element.as_bytes())
            && (is_space(name[n]) || matches!(name[n], b'>' | b'/'))
    })
}

/// §13.1.2.6 for the text of raw text element `element` (RCDATA is escaped, so only raw text and
/// script data need it).
pub(crate) fn check_raw_text(text: &str, element: &str) -> Result<(), Refusal> {
    match end_tag_in(text, element) {
        Some(_) => Err(Refusal::EndTagInRawText {
            element: element.to_owned(),
        }),
        None => Ok(()),
    }
}

/// [`check_raw_text`]'s lossy counterpart: `<\/` for each `</` that starts the end tag.
pub(crate) fn fix_raw_text<'t>(text: &'t str, element: &str) -> Cow<'t, str> {
    let mut rest = text;
    let mut out = String::new();
    while let Some(at) = end_tag_in(rest, element) {
        out.push_str(&rest[..at]);
        out.push_str("<\\/");
        rest = &rest[at + 2..];
    }
    if out.is_empty() {
        return Cow::Borrowed(text);
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// §13.1.6 "Comments": the text must not start with `>` or `->`, contain `<!--`, `-->` or `--!>`,
/// nor end with `<!-`.
pub(crate) fn check_comment(text: &str) -> Result<(), Refusal> {
    let rule = if text.starts_with('>') {
        ">"
    } else if text.starts_with("->") {
        "->"
    } else if let Some(s) = ["<!--", "-->", "--!>"]
        .into_iter()
        .find(|s| text.contains(s))
    {
        s
    } else if text.ends_with("<!-") {
        "<!-"
    } else {
        return Ok(());
    };
    Err(Refusal::Comment { rule })
}

/// [`check_comment`]'s lossy counterpart: a space breaks each offending string.
pub(crate) fn fix_comment(text: &str) -> Cow<'_, str> {
    if check_comment(text).is_ok() {
        return Cow::Borrowed(text);
    }
    let mut fixed = text
        .replace("-->", "-- >")
        .replace("--!>", "--! >")
        .replace("<!--", "<!- -");
    if fixed.starts_with('>') || fixed.starts_with("->") {
        fixed.insert(0, ' ');
    }
    if fixed.ends_with("<!-") {
        fixed.push(' ');
    }
    Cow::Owned(fixed)
}

/// §13.1.5: CDATA section text must not contain `]]>`.
pub(crate) fn check_cdata(text: &str) -> Result<(), Refusal> {
    if text.contains("]]>") {
        Err(Refusal::CdataEnd)
    } else {
        Ok(())
    }
}

/// A DOCTYPE name reads back as itself when it holds no whitespace or `>` and is not empty.
pub(crate) fn check_doctype_name(name: &str) -> Result<(), Refusal> {
    if name.is_empty() || name.bytes().any(|b| is_space(b) || b == b'>') {
        Err(Refusal::Doctype {
            what: "name is empty or holds whitespace or \">\"",
        })
    } else {
        Ok(())
    }
}

/// The quote for a DOCTYPE identifier: `"` unless it holds one; refused when it holds both kinds
/// or `>` (which ends the DOCTYPE inside the identifier).
pub(crate) fn doctype_quote(id: &str) -> Result<u8, Refusal> {
    if id.contains('>') {
        return Err(Refusal::Doctype {
            what: "identifier holds \">\"",
        });
    }
    match (id.contains('"'), id.contains('\'')) {
        (true, true) => Err(Refusal::Doctype {
            what: "identifier holds both quote characters",
        }),
        (true, false) => Ok(b'\''),
        _ => Ok(b'"'),
    }
}

/// [`doctype_quote`]'s lossy counterpart: `>` dropped, `"` made `'` when both quotes are there.
pub(crate) fn fix_doctype_id(id: &str) -> Cow<'_, str> {
    if doctype_quote(id).is_ok() {
        return Cow::Borrowed(id);
    }
    let fixed = id.replace('>', "");
    Cow::Owned(if fixed.contains('"') && fixed.contains('\'') {
        fixed.replace('"', "'")
    } else {
        fixed
    })
}

/// A processing instruction (HTML Standard 2026) reads back as itself when its target is an ASCII
/// letter or `_` followed by ASCII alphanumerics, `-` and `_`, is not `xml` or `xml-stylesheet`
/// (those become comments), and its data holds no `>` (it is written `<?target data?>`, so `?`
/// anywhere in the data is fine).
pub(crate) fn check_processing_instruction(target: &str, data: &str) -> Result<(), Refusal> {
    let bytes = target.as_bytes();
    let target_ok = bytes
        .first()
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
        && !target.eq_ignore_ascii_case("xml")
        && !target.eq_ignore_ascii_case("xml-stylesheet");
    if !target_ok {
        return Err(Refusal::ProcessingInstruction {
            what: "target is not a name the tokenizer reads as one",
        });
    }
    if data.contains('>') {
        return Err(Refusal::ProcessingInstruction {
            what: "data holds \">\"",
        });
    }
    if data.starts_with(|c: char| c.is_ascii() && is_space(c as u8)) {
        return Err(Refusal::ProcessingInstruction {
            what: "data starts with whitespace, which the tokenizer skips",
        });
    }
    check_nul(data, Place::ProcessingInstruction)?;
    check_cr(data, Place::ProcessingInstruction)
}

/// Whether `kind` is text whose markup characters are taken literally.
pub(crate) fn is_raw(kind: TextKind) -> bool {
    matches!(
        kind,
        TextKind::Rawtext | TextKind::ScriptData | TextKind::Plaintext
    )
}

/// The script data states that decide whether `</script` ends a script (§13.2.5.4 and the
/// "script data escaped" states after it), followed across the texts of one `script` element:
/// `<!--` enters the escaped states, `<script` + a tag-ending character there enters the double
/// escaped ones, whose `</script` only leaves them, and `-->` goes back to plain script data.
/// This is exact where §13.1.2.6's rule (no `</script` at all) is conservative: a script holding
/// `<!-- <script></script> -->` reads back as itself, and is written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ScriptScan {
    mode: ScriptMode,
    /// Consecutive `-` just before (in the escaped modes), for `-->`.
    dashes: u8,
    /// After a `<`: the bytes since, which may still start `!--`, `/script` or `script` (and the
    /// character after them), with how many there are.
    open: bool,
    held: [u8; 8],
    len: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ScriptMode {
    #[default]
    Data,
    Escaped,
    DoubleEscaped,
}

/// What the bytes after a `<` are, so far.
enum Lt {
    /// Still a prefix of a pattern.
    Open,
    /// `!--` (enters the escaped states from script data).
    Escape,
    /// `/script` + a tag-ending character.
    EndTag,
    /// `script` + a tag-ending character.
    StartTag,
    /// None of them.
    Nothing,
}

impl ScriptScan {
    /// Follow `text`; `Err` if it holds an end tag that would end the script.
    pub(crate) fn scan(&mut self, text: &str) -> Result<(), ()> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !self.open {
                // Outside a pattern only `<` matters (and `-`, `>` in the escaped states).
                let skip = match self.mode {
                    ScriptMode::Data => find1(b'<', &bytes[i..]),
                    _ => find3(b'<', b'-', b'>', &bytes[i..]),
                };
                let Some(skip) = skip else { break };
                if skip > 0 {
                    self.dashes = 0;
                }
                i += skip;
            }
            self.step(bytes[i])?;
            i += 1;
        }
        if !self.open && bytes.last().is_some_and(|&b| b != b'-') {
            self.dashes = 0;
        }
        Ok(())
    }

    /// Whether `</script>` written now ends the script (not in the double escaped states).
    pub(crate) fn closes(&self) -> bool {
        self.mode != ScriptMode::DoubleEscaped
    }

    fn step(&mut self, b: u8) -> Result<(), ()> {
        if !self.open {
            return self.plain(b);
        }
        self.held[usize::from(self.len)] = b;
        self.len += 1;
        match self.classify() {
            Lt::Open => return Ok(()),
            Lt::Escape => {
                self.mode = ScriptMode::Escaped;
                self.dashes = 2;
            }
            Lt::EndTag => match self.mode {
                ScriptMode::DoubleEscaped => self.mode = ScriptMode::Escaped,
                _ => return Err(()),
            },
            Lt::StartTag => self.mode = ScriptMode::DoubleEscaped,
            Lt::Nothing => {
                // Not a pattern: the bytes after `<` are text again, and may start one.
                let (held, len) = (self.held, usize::from(self.len));
                self.reset();
                return held[..len].iter().try_for_each(|&b| self.step(b));
            }
        }
        self.reset();
        Ok(())
    }

    /// A byte outside any pattern.
    fn plain(&mut self, b: u8) -> Result<(), ()> {
        match b {
            b'<' => {
                self.open = true;
                self.dashes = 0;
            }
            b'-' => self.dashes = self.dashes.saturating_add(1),
            b'>' if self.dashes >= 2 => {
                self.mode = ScriptMode::Data;
                self.dashes = 0;
            }
            _ => self.dashes = 0,
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.open = false;
        self.len = 0;
    }

    fn classify(&self) -> Lt {
        let seen = &self.held[..usize::from(self.len)];
        let matches = |pattern: &[u8]| {
            let n = seen.len().min(pattern.len());
            seen[..n].eq_ignore_ascii_case(&pattern[..n])
        };
        let ends_tag = |b: u8| is_space(b) || matches!(b, b'/' | b'>');
        let tag = |pattern: &[u8], found: Lt| {
            if !matches(pattern) {
                Lt::Nothing
            } else if seen.len() <= pattern.len() {
                Lt::Open
            } else if ends_tag(seen[pattern.len()]) {
                found
            } else {
                Lt::Nothing
            }
        };
        if self.mode == ScriptMode::Data && matches(b"!--") {
            return if seen.len() == 3 {
                Lt::Escape
            } else {
                Lt::Open
            };
        }
        match tag(b"/script", Lt::EndTag) {
            Lt::Nothing if self.mode == ScriptMode::Escaped => tag(b"script", Lt::StartTag),
            other => other,
        }
    }
}
