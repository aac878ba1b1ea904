//! Which tokens can be written so that they tokenize back to themselves: one check per rule of
//! §13.1 (and of the tokenizer where the section is silent), each beside what
//! [`SerializerOptions::lossy`](super::SerializerOptions::lossy) writes instead.

use std::borrow::Cow;

use super::error::{Place, Refusal};
use crate::TextKind;
use crate::scan::{ByteSet, find1, find3};

/// ASCII whitespace as the tokenizer reads it before newline normalization.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// A tag name reads back as itself (ASCII-lowercased) when it starts with an ASCII letter (else
/// `<` is text) and holds no whitespace, `/` or `>` (which end it) nor U+0000.
pub(crate) fn check_tag_name(name: &str) -> Result<(), Refusal> {
    const ENDS_NAME: ByteSet = ByteSet::of(b"\t\n\x0C\r />\0");
    let ok = match name.as_bytes() {
        [] => false,
        [first, rest @ ..] => {
            first.is_ascii_alphabetic() && !rest.iter().any(|&b| ENDS_NAME.contains(b))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(Refusal::TagName(name.to_owned()))
    }
}

/// An attribute name reads back as itself when it is not empty and holds no whitespace, `/`, `>`
/// or U+0000, nor `=` after its first character (a first `=` is taken into the name).
pub(crate) fn check_attribute_name(name: &str) -> Result<(), Refusal> {
    const ENDS_NAME: ByteSet = ByteSet::of(b"\t\n\x0C\r />\0");
    const ENDS_NAME_AFTER_FIRST: ByteSet = ByteSet::of(b"\t\n\x0C\r />\0=");
    let ok = match name.as_bytes() {
        [] => false,
        [first, rest @ ..] => {
            !ENDS_NAME.contains(*first) && !rest.iter().any(|&b| ENDS_NAME_AFTER_FIRST.contains(b))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(Refusal::AttributeName(name.to_owned()))
    }
}

/// The index of the first attribute whose name repeats an earlier one (ASCII
/// case-insensitively): the tokenizer drops it. Pairwise for a few attributes, through a set of
/// the lowercased names for many (so that a tag with thousands stays linear).
#[inline]
pub(crate) fn first_duplicate(attributes: &[(&str, &str)]) -> Option<usize> {
    if attributes.len() <= 16 {
        return (1..attributes.len()).find(|&i| {
            attributes[..i]
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(attributes[i].0))
        });
    }
    first_duplicate_of_many(attributes)
}

/// [`first_duplicate`] among more than a few attributes.
fn first_duplicate_of_many(attributes: &[(&str, &str)]) -> Option<usize> {
    let mut seen = std::collections::HashSet::with_capacity(attributes.len());
    attributes
        .iter()
        .position(|(n, _)| !seen.insert(n.to_ascii_lowercase()))
}

/// U+0000 in `text` at `place`, where the tokenizer reads U+FFFD.
pub(crate) fn check_nul(text: &str, place: Place) -> Result<(), Refusal> {
    if find1(0, text.as_bytes()).is_some() {
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

/// What lossy mode writes for raw text that would end its element (§13.1.2.6), and where that
/// leaves `scan`: `<\/` for each `</` that starts the end tag, and a `\` first if the text
/// completes an end tag begun by the text before it.
pub(crate) fn fix_raw_text(
    text: &str,
    scan: RawScan,
    element: &str,
    script: bool,
) -> (Cow<'static, str>, RawScan) {
    let mut rest = text;
    let mut fixed = String::with_capacity(text.len() + 1);
    while let Some(at) = end_tag_in(rest, element) {
        fixed.push_str(&rest[..at]);
        fixed.push_str("<\\/");
        rest = &rest[at + 2..];
    }
    fixed.push_str(rest);
    let mut after = scan;
    if after.scan(&fixed, element, script).is_err() {
        fixed.insert(0, '\\');
        after = scan;
        let _ = after.scan(&fixed, element, script);
    }
    (Cow::Owned(fixed), after)
}

/// §13.1.6 "Comments", as far as reading back needs it: the text must not start with `>` or `->`
/// (which end the comment at once) nor contain `-->` or `--!>`. §13.1.6 also forbids `<!--`
/// inside and `<!-` at the end; those read back unchanged (a parse error, no more), so they are
/// written: a page's comment holding an old commented-out comment round-trips.
pub(crate) fn check_comment(text: &str) -> Result<(), Refusal> {
    let rule = if text.starts_with('>') {
        ">"
    } else if text.starts_with("->") {
        "->"
    } else if let Some(s) = comment_end_inside(text.as_bytes()) {
        s
    } else {
        return Ok(());
    };
    Err(Refusal::Comment { rule })
}

/// `-->` if `text` holds it, else `--!>` if it holds that: one pass over the `>`s, each looked at
/// with the bytes before it.
fn comment_end_inside(text: &[u8]) -> Option<&'static str> {
    let mut bang = false;
    for at in memchr::memchr_iter(b'>', text) {
        let before = &text[..at];
        if before.ends_with(b"--") {
            return Some("-->");
        }
        bang |= before.ends_with(b"--!");
    }
    bang.then_some("--!>")
}

/// [`check_comment`]'s lossy counterpart: a space breaks each offending string.
pub(crate) fn fix_comment(text: &str) -> Cow<'_, str> {
    if check_comment(text).is_ok() {
        return Cow::Borrowed(text);
    }
    let mut fixed = text.replace("-->", "-- >").replace("--!>", "--! >");
    if fixed.starts_with('>') || fixed.starts_with("->") {
        fixed.insert(0, ' ');
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

/// Whether `</element` would end a raw text element, followed across the texts given for it
/// (an end tag may be split between two): the RAWTEXT state for raw text elements, and for
/// `script` the script data states (§13.2.5.4 and the "script data escaped" states after it):
/// `<!--` enters the escaped states, `<script` + a tag-ending character there enters the double
/// escaped ones, whose `</script` only leaves them, and `-->` goes back to plain script data.
/// For scripts this is exact where §13.1.2.6's rule (no `</script` at all) is conservative: a
/// script holding `<!-- <script></script> -->` reads back as itself, and is written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RawScan {
    mode: ScriptMode,
    /// Consecutive `-` just before (in the escaped modes), for `-->`.
    dashes: u8,
    /// After a `<`: how many bytes since, and which patterns they may still start.
    open: bool,
    len: usize,
    alive: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ScriptMode {
    #[default]
    Data,
    Escaped,
    DoubleEscaped,
}

/// `<!--`: script data enters the escaped states.
const ESCAPE: u8 = 1;
/// `</element` + a tag-ending character.
const END_TAG: u8 = 2;
/// `<script` + a tag-ending character: the escaped states enter the double escaped ones.
const START_TAG: u8 = 4;

impl RawScan {
    /// Follow `text` in the element `element` (a script if `script`); `Err` if it ends the
    /// element.
    pub(crate) fn scan(&mut self, text: &str, element: &str, script: bool) -> Result<(), ()> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !self.open {
                // Outside a pattern only `<` matters (and `-`, `>` in the escaped states).
                let skip = match self.mode {
                    ScriptMode::Data => find1(b'<', &bytes[i..]),
                    _ => find3(b'<', b'-', b'>', &bytes[i..]),
                };
                let Some(skip) = skip else {
                    self.dashes = 0;
                    break;
                };
                if skip > 0 {
                    self.dashes = 0;
                }
                i += skip;
            }
            self.step(bytes[i], element.as_bytes(), script)?;
            i += 1;
        }
        Ok(())
    }

    /// Whether the element's end tag written now ends it (not in the double escaped states).
    pub(crate) fn closes(&self) -> bool {
        self.mode != ScriptMode::DoubleEscaped
    }

    fn step(&mut self, b: u8, element: &[u8], script: bool) -> Result<(), ()> {
        if !self.open {
            self.plain(b, script);
            return Ok(());
        }
        let k = self.len;
        self.len += 1;
        let mut alive = 0;
        let mut found = 0;
        let mut follow = |pattern: u8, at: Option<u8>, len: usize| {
            if self.alive & pattern == 0 {
            } else if let Some(c) = at {
                if b.eq_ignore_ascii_case(&c) {
                    alive |= pattern;
                }
            } else if k == len && (is_space(b) || matches!(b, b'/' | b'>')) {
                found = pattern;
            }
        };
        follow(ESCAPE, b"!--".get(k).copied(), 3);
        // With no element (no start tag yet), no end tag is appropriate.
        if !element.is_empty() {
            let end_at = if k == 0 {
                Some(b'/')
            } else {
                element.get(k - 1).copied()
            };
            follow(END_TAG, end_at, element.len() + 1);
        }
        follow(START_TAG, b"script".get(k).copied(), 6);
        if alive & ESCAPE != 0 && k == 2 {
            (alive, found) = (0, ESCAPE);
        }
        self.alive = alive;
        match found {
            ESCAPE => {
                self.mode = ScriptMode::Escaped;
                self.dashes = 2;
            }
            END_TAG if self.mode == ScriptMode::DoubleEscaped => self.mode = ScriptMode::Escaped,
            END_TAG => return Err(()),
            START_TAG => self.mode = ScriptMode::DoubleEscaped,
            _ if alive != 0 => return Ok(()),
            // Not a pattern: this byte is text again (and may be a `<`).
            _ => {
                self.open = false;
                return self.step(b, element, script);
            }
        }
        self.open = false;
        Ok(())
    }

    /// A byte outside any pattern.
    fn plain(&mut self, b: u8, script: bool) {
        match b {
            b'<' => {
                self.open = true;
                self.len = 0;
                self.alive = END_TAG;
                if script {
                    self.alive |= match self.mode {
                        ScriptMode::Data => ESCAPE,
                        ScriptMode::Escaped => START_TAG,
                        ScriptMode::DoubleEscaped => 0,
                    };
                }
                self.dashes = 0;
            }
            b'-' => self.dashes = self.dashes.saturating_add(1),
            b'>' if self.dashes >= 2 => {
                self.mode = ScriptMode::Data;
                self.dashes = 0;
            }
            _ => self.dashes = 0,
        }
    }
}
