//! The last two stages: optional-tag omission (§13.1.2.4, one tag held back until the next token
//! decides it) and the writer, which escapes by context into a buffer.

use std::io::Write;

use super::super::check::{self, is_raw};
use super::super::elements::{eats_leading_newline, is_boolean_attribute, is_void};
use super::super::escape::{
    Escapes, escape_into, needs_quotes, plain_value_into, quote_into, raw_data_into, raw_name_into,
    raw_value_into,
};
use super::super::optional::{self, Next};
use super::{AttrList, Doctype, Item, Namespace, Serializer};
use crate::token::Source;
use crate::{Attribute, Text, TextKind};

/// A tag held back by optional-tag omission.
#[derive(Clone, Copy)]
pub(super) enum Pending {
    Start {
        name: &'static str,
        after_omitted_end: Option<&'static str>,
    },
    End(&'static str),
}

/// How many bytes the writer gathers before it writes them to the output.
pub(super) const FLUSH_AT: usize = 64 * 1024;

/// The buffer's size from the start: room for [`FLUSH_AT`] bytes and the item that crosses it, so
/// that it is not grown (and copied) on the way there, for every document.
pub(super) const BUFFER_CAPACITY: usize = FLUSH_AT + 16 * 1024;

impl<W: Write> Serializer<W> {
    // ---- stage 2: optional tags -----------------------------------------------------------------

    #[inline(always)]
    pub(super) fn omit_stage(&mut self, item: Item<'_>) {
        if self.options.omit_optional_tags {
            self.omit_optional(item);
        } else {
            self.write_item(item);
        }
    }

    /// [`SerializerOptions::omit_optional_tags`](super::SerializerOptions::omit_optional_tags):
    /// settle the tag held back, and hold this one back if it may be omitted.
    fn omit_optional(&mut self, item: Item<'_>) {
        let omitted_end = self.settle_pending(next_of(item));
        match item {
            Item::Start {
                name,
                attributes,
                self_closing: false,
                namespace: Namespace::Html,
            } if attributes.is_empty()
                && let Some(name) = optional::find(optional::OPTIONAL_START, name) =>
            {
                self.pending = Some(Pending::Start {
                    name,
                    after_omitted_end: omitted_end,
                });
            }
            Item::End(name) if let Some(name) = optional::find(optional::OPTIONAL_END, name) => {
                self.pending = Some(Pending::End(name));
            }
            _ => self.write_item(item),
        }
    }

    /// Decide the held-back tag now that `next` is known; returns the end tag's name if it was
    /// omitted.
    pub(super) fn settle_pending(&mut self, next: Next<'_>) -> Option<&'static str> {
        match self.pending.take()? {
            Pending::Start {
                name,
                after_omitted_end,
            } => {
                let html5lib = self.options.html5lib_compat;
                if !optional::may_omit_start(name, next, after_omitted_end, html5lib) {
                    self.write_item(Item::Start {
                        name,
                        attributes: AttrList::Pairs(&[]),
                        self_closing: false,
                        namespace: Namespace::Html,
                    });
                }
                None
            }
            Pending::End(name) => {
                if optional::may_omit_end(name, next, self.options.html5lib_compat) {
                    return Some(name);
                }
                self.write_item(Item::End(name));
                None
            }
        }
    }

    // ---- stage 3: the writer --------------------------------------------------------------------

    /// Inlined, so that where the kind of `item` is known the match on it folds away.
    #[inline(always)]
    fn write_item(&mut self, item: Item<'_>) {
        let eater = self.newline_eater;
        self.newline_eater = false;
        match item {
            Item::Start {
                name,
                attributes,
                self_closing,
                namespace,
            } => {
                self.write_start(name, attributes, self_closing, namespace);
                self.newline_eater = self.options.pre_newline
                    && namespace == Namespace::Html
                    && eats_leading_newline(name);
            }
            Item::End(name) => {
                self.buf.extend_from_slice(b"</");
                self.buf.extend_from_slice(name.as_bytes());
                self.buf.push(b'>');
            }
            Item::Text(text, kind) => {
                if eater && text.starts_with('\n') {
                    self.buf.push(b'\n');
                }
                self.write_text(text, kind);
            }
            Item::Data(text) => {
                if eater && text.text().starts_with('\n') {
                    self.buf.push(b'\n');
                }
                self.write_data(text);
            }
            Item::Comment(text) => {
                self.buf.extend_from_slice(b"<!--");
                self.buf.extend_from_slice(text.as_bytes());
                self.buf.extend_from_slice(b"-->");
            }
            Item::Doctype(d) => self.write_doctype(&d),
            Item::Pi(target, data) => {
                self.buf.extend_from_slice(b"<?");
                self.buf.extend_from_slice(target.as_bytes());
                if !data.is_empty() {
                    self.buf.push(b' ');
                    self.buf.extend_from_slice(data.as_bytes());
                }
                self.buf.extend_from_slice(b"?>");
            }
        }
        self.started = true;
    }

    fn write_start(
        &mut self,
        name: &str,
        attributes: AttrList<'_>,
        self_closing: bool,
        namespace: Namespace,
    ) {
        self.buf.push(b'<');
        self.buf.extend_from_slice(name.as_bytes());
        let mut last_unquoted = false;
        match attributes {
            AttrList::Pairs(pairs) => {
                for (attr, value) in pairs {
                    self.buf.push(b' ');
                    self.buf.extend_from_slice(attr.as_bytes());
                    last_unquoted = self.write_value(name, attr, value);
                }
            }
            AttrList::Token(tag) => {
                for attribute in tag.attributes() {
                    last_unquoted = self.write_token_attribute(name, tag.src, &attribute);
                }
            }
        }
        let o = &self.options;
        let foreign = namespace != Namespace::Html;
        // The option first: most tags are not looked up.
        let void = o.use_trailing_solidus && !foreign && is_void(name);
        let solidus = (self_closing && (o.keep_self_closing || foreign)) || void;
        if solidus {
            if o.space_before_trailing_solidus || last_unquoted {
                self.buf.push(b' ');
            }
            self.buf.push(b'/');
        }
        self.buf.push(b'>');
    }

    /// An attribute of a tag from the HTML tokenizer: its value's bytes as the input has them
    /// where they are what [`write_value`](Self::write_value) would write for the decoded value
    /// ([`raw_value_into`]; unless boolean attributes are minimized, which looks at the value
    /// first), else the value decoded and written by it. Whether the value was written unquoted.
    fn write_token_attribute(
        &mut self,
        element: &str,
        src: &Source<'_>,
        attribute: &Attribute<'_>,
    ) -> bool {
        self.buf.push(b' ');
        if !raw_name_into(&mut self.buf, src.bytes, src.range(attribute.name_span())) {
            self.buf.extend_from_slice(attribute.name().as_bytes());
        }
        let o = &self.options;
        if !o.minimize_boolean_attributes {
            self.buf.push(b'=');
            let raw = src.range(attribute.value_span());
            let (when, quote) = (o.quote_attr_values, o.quote_char);
            if let Some(unquoted) = raw_value_into(&mut self.buf, src.bytes, raw, when, quote) {
                return unquoted;
            }
            self.buf.pop();
        }
        self.write_value(element, attribute.name(), attribute.value())
    }

    /// The `=value` after an attribute's name (nothing for a minimized boolean attribute), quoted
    /// and escaped as the options say; whether it was written unquoted.
    fn write_value(&mut self, element: &str, attr: &str, value: &str) -> bool {
        let o = &self.options;
        let boolean = o.minimize_boolean_attributes
            && is_boolean_attribute(element, attr, o.html5lib_compat)
            && (o.html5lib_compat || value.is_empty() || value.eq_ignore_ascii_case(attr));
        if boolean {
            return false;
        }
        self.buf.push(b'=');
        if plain_value_into(&mut self.buf, value, o.quote_attr_values) {
            return true;
        }
        let mut escapes = Escapes {
            angle: o.escape_lt_in_attrs,
            quote: None,
            cr: !o.html5lib_compat,
        };
        if needs_quotes(value, o.quote_attr_values, escapes) {
            quote_into(
                &mut self.buf,
                value,
                escapes,
                o.quote_char,
                o.use_best_quote_char,
            );
            false
        } else {
            // Unquoted: no quote, `<`, `>`, whitespace or `=` is left in the value.
            escapes.angle = true;
            escape_into(&mut self.buf, value, escapes);
            true
        }
    }

    /// HTML data text as the input has it, decoded and escaped in one pass where it can be (not
    /// first in the output, where a U+FEFF is escaped).
    fn write_data(&mut self, text: Text<'_>) {
        let raw = text.src.range(text.span);
        if !(self.started && raw_data_into(&mut self.buf, text.src.bytes, raw)) {
            self.write_text(text.text(), TextKind::Data);
        }
    }

    fn write_text(&mut self, text: &str, kind: TextKind) {
        let o = &self.options;
        let cr = !o.html5lib_compat;
        match kind {
            TextKind::Cdata => {
                self.buf.extend_from_slice(b"<![CDATA[");
                let split = text.replace("]]>", "]]]]><![CDATA[>");
                self.buf.extend_from_slice(split.as_bytes());
                self.buf.extend_from_slice(b"]]>");
            }
            k if is_raw(k) && !o.escape_rcdata => self.buf.extend_from_slice(text.as_bytes()),
            _ => {
                let escapes = Escapes {
                    angle: true,
                    quote: None,
                    cr,
                };
                // A U+FEFF starting the output would read back as a byte order mark.
                let text = match text.strip_prefix('\u{FEFF}') {
                    Some(rest) if !self.started => {
                        self.buf.extend_from_slice(b"&#xFEFF;");
                        rest
                    }
                    _ => text,
                };
                escape_into(&mut self.buf, text, escapes);
            }
        }
    }

    fn write_doctype(&mut self, d: &Doctype<'_>) {
        let buf = &mut self.buf;
        buf.extend_from_slice(b"<!DOCTYPE");
        let Some(name) = d.name else {
            buf.push(b'>');
            return;
        };
        buf.push(b' ');
        buf.extend_from_slice(name.as_bytes());
        let mut identifier = |keyword: &[u8], id: &str, last: bool| {
            buf.extend_from_slice(keyword);
            let quote = check::doctype_quote(id).unwrap_or(b'"');
            buf.push(quote);
            buf.extend_from_slice(id.as_bytes());
            // Force-quirks: the tokenizer sets it on an identifier cut short by `>`.
            if !(last && d.force_quirks) {
                buf.push(quote);
            }
        };
        match (d.public_id, d.system_id) {
            (Some(public), system) => {
                identifier(b" PUBLIC ", public, system.is_none());
                if let Some(system) = system {
                    identifier(b" ", system, true);
                }
            }
            (None, Some(system)) => identifier(b" SYSTEM ", system, true),
            // Force-quirks: `PUBLIC` without an identifier.
            (None, None) if d.force_quirks => buf.extend_from_slice(b" PUBLIC"),
            (None, None) => {}
        }
        buf.push(b'>');
    }
}

/// What the optional-tag rules see of `item`.
fn next_of<'a>(item: Item<'a>) -> Next<'a> {
    match item {
        Item::Start { name, .. } => Next::Start(name),
        Item::End(name) => Next::End(name),
        Item::Text(text, _) => Next::Text {
            space: text.as_bytes().first().is_some_and(|&b| check::is_space(b)),
        },
        Item::Data(text) => Next::Text {
            space: text
                .text()
                .as_bytes()
                .first()
                .is_some_and(|&b| check::is_space(b)),
        },
        Item::Comment(_) => Next::Comment,
        Item::Doctype(_) | Item::Pi(..) => Next::Other,
    }
}
