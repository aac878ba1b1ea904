//! Where text written between two tokens lands, and how text is escaped (or refused) there.

use super::super::check::{check_cdata, check_cr, check_nul, is_space};
use super::super::error::{Place as At, Refusal};
use super::super::escape::{Escapes, escape_into, escape_xml_into};
use crate::{TextKind, Token};

/// Where text written now lands: the tokenizer's text state, the raw text element it is in (for
/// the end tag it must not hold), and whether the tree is in foreign content.
#[derive(Clone, Debug, Default)]
pub(super) struct Place {
    kind: TextKind,
    element: String,
    pub(super) foreign: bool,
}

impl Place {
    /// Move past `token`, after which text lands in `after` (the tokenizer's text state and
    /// foreign flag, see [`super::Markup::after`]). Inlined: for most tokens it is two stores.
    #[inline(always)]
    pub(super) fn follow(&mut self, token: &Token<'_>, (kind, foreign): (TextKind, bool)) {
        let names_element = kind != TextKind::Data && kind != TextKind::Cdata;
        match token {
            Token::Raw(_) => self.follow_raw(token),
            Token::StartTag(_) if names_element => self.enter(token, kind, foreign),
            _ => {
                self.kind = kind;
                self.foreign = foreign;
            }
        }
    }

    /// A raw item changes nothing but the CDATA section it opens or closes (the tokenizer may
    /// have read on past it).
    #[cold]
    fn follow_raw(&mut self, token: &Token<'_>) {
        if let Token::Raw(raw) = token {
            if raw.raw().starts_with(b"<![CDATA[") {
                self.kind = TextKind::Cdata;
            } else if raw.raw() == b"]]>" {
                self.kind = TextKind::Data;
            }
        }
    }

    /// After a start tag whose element's text is raw text or RCDATA: remember its name, the end
    /// tag inserted text must not hold.
    #[cold]
    fn enter(&mut self, token: &Token<'_>, kind: TextKind, foreign: bool) {
        self.kind = kind;
        self.foreign = foreign;
        if let Token::StartTag(tag) = token {
            self.element.clear();
            self.element.push_str(tag.name());
        }
    }

    /// Append `text` to `out`, escaped for this place (`xml`: XML5's escaping), or say why it
    /// cannot land here as itself.
    pub(super) fn escape(&self, text: &str, xml: bool, out: &mut Vec<u8>) -> Result<(), Refusal> {
        let at = At::Text(self.kind);
        match self.kind {
            TextKind::Cdata => {
                check_cr(text, at)?;
                check_cdata(text)?;
                if text.ends_with(']') {
                    // With the `]]>` or `>` that may follow, it would end the section.
                    return Err(Refusal::CdataEnd);
                }
                if xml {
                    check_nul(text, at)?;
                }
                out.extend_from_slice(text.as_bytes());
            }
            _ if xml => {
                check_nul(text, at)?;
                escape_xml_into(out, text, None);
            }
            TextKind::Data | TextKind::Rcdata => {
                if self.kind == TextKind::Rcdata {
                    check_nul(text, at)?;
                }
                let escapes = Escapes {
                    angle: true,
                    quote: None,
                    cr: true,
                };
                escape_into(out, text, escapes);
            }
            TextKind::Rawtext | TextKind::ScriptData | TextKind::Plaintext => {
                check_nul(text, at)?;
                check_cr(text, at)?;
                self.check_raw(text)?;
                out.extend_from_slice(text.as_bytes());
            }
        }
        Ok(())
    }

    /// Raw text must not end its element, nor (in a script) enter the escape states.
    fn check_raw(&self, text: &str) -> Result<(), Refusal> {
        if self.kind == TextKind::Plaintext {
            return Ok(());
        }
        if ends_element(text, &self.element) {
            return Err(Refusal::EndTagInRawText {
                element: self.element.clone(),
            });
        }
        let lower = text.to_ascii_lowercase();
        if self.kind == TextKind::ScriptData
            && (lower.contains("<!--") || lower.contains("<script"))
        {
            return Err(Refusal::ScriptEscape);
        }
        Ok(())
    }
}

/// Whether `text` holds `</element` followed by a character that ends a tag name (ASCII
/// case-insensitively), or ends with a start of it that the bytes after the insertion could
/// complete.
fn ends_element(text: &str, element: &str) -> bool {
    let bytes = text.as_bytes();
    let name = element.as_bytes();
    memchr::memmem::find_iter(bytes, b"</").any(|at| {
        let rest = &bytes[at + 2..];
        if rest.len() <= name.len() {
            return name[..rest.len()].eq_ignore_ascii_case(rest);
        }
        rest[..name.len()].eq_ignore_ascii_case(name)
            && (is_space(rest[name.len()]) || matches!(rest[name.len()], b'/' | b'>'))
    }) || bytes.ends_with(b"<")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_tags_and_their_starts_end_a_raw_text_element() {
        for text in ["</script>", "a</SCRIPT ", "x</script/", "</scr", "</", "a<"] {
            assert!(ends_element(text, "script"), "{text}");
        }
        for text in ["</scripts>", "</style>", "<script>", "a < b", ""] {
            assert!(!ends_element(text, "script"), "{text}");
        }
    }
}
