//! [`TagEdit`]: a start tag rewritten from its raw bytes, changed only where asked.

use std::io::Write;
use std::ops::Range;

use super::super::check::{check_attribute_name, check_nul, check_tag_name};
use super::super::error::{Place as At, Refusal, WriteError};
use super::super::escape::{Escapes, escape_into, escape_xml_into, needs_quotes};
use super::super::options::QuoteAttrValues;
use super::sink::Sink;
use super::{Markup, Rewrite};
use crate::{Attribute, Span, StartTag};

/// One change asked of a tag; its strings are ranges of [`EditBuffers::strings`].
#[derive(Clone, Debug)]
enum Change {
    Rename(Range<usize>),
    Set(Range<usize>, Range<usize>),
    RenameAttribute(Range<usize>, Range<usize>),
    Remove(Range<usize>),
    SelfClosing(bool),
}

/// Changes to the start tag a [`Rewrite`] just handed out, written by [`TagEdit::apply`]: the
/// tag's raw bytes with only the changed parts replaced (an untouched attribute keeps its bytes,
/// a changed value its quote character). Names compare as the tokenizer gives them (HTML:
/// ASCII lowercase; an attribute name given in another case still finds it); when a name
/// appears twice, the first one, the one the tokenizer keeps, is changed.
///
/// Dropped without [`apply`](TagEdit::apply), it changes nothing: the tag is still undecided.
pub struct TagEdit<'a, 't, W: Write> {
    out: &'a mut Sink<W>,
    scratch: &'a mut Vec<u8>,
    decided: &'a mut bool,
    tag: StartTag<'t>,
    /// Whether `/>` means something here (foreign content, XML5).
    foreign: bool,
    xml: bool,
    /// The changes asked, and their strings: the rewriter's, reused from edit to edit.
    buffers: &'a mut EditBuffers,
}

/// What a [`TagEdit`] collects, kept by the rewriter so that an edit allocates nothing once they
/// have grown.
#[derive(Default)]
pub(super) struct EditBuffers {
    changes: Vec<Change>,
    strings: String,
}

impl<'a, 't, W: Write> TagEdit<'a, 't, W> {
    pub(super) fn new<T: Markup<'t>>(
        rewrite: &'a mut Rewrite<'_, 't, W, T>,
        tag: StartTag<'t>,
        foreign: bool,
    ) -> TagEdit<'a, 't, W> {
        let r = &mut *rewrite.rewriter;
        r.edits.changes.clear();
        r.edits.strings.clear();
        TagEdit {
            out: &mut r.out,
            scratch: &mut r.scratch,
            decided: &mut rewrite.decided,
            tag,
            foreign,
            xml: T::XML,
            buffers: &mut r.edits,
        }
    }

    /// Write the tag under another name.
    pub fn rename(&mut self, name: &str) -> &mut Self {
        let name = self.keep(name);
        self.buffers.changes.push(Change::Rename(name));
        self
    }

    /// Give attribute `name` the value `value` (escaped for its quotes); added at the end of
    /// the tag if it has none.
    pub fn set_attribute(&mut self, name: &str, value: &str) -> &mut Self {
        let (name, value) = (self.keep(name), self.keep(value));
        self.buffers.changes.push(Change::Set(name, value));
        self
    }

    /// Write attribute `name` under the name `new`, its value as it is.
    pub fn rename_attribute(&mut self, name: &str, new: &str) -> &mut Self {
        let (name, new) = (self.keep(name), self.keep(new));
        self.buffers
            .changes
            .push(Change::RenameAttribute(name, new));
        self
    }

    /// Leave attribute `name` out (with the whitespace before it).
    pub fn remove_attribute(&mut self, name: &str) -> &mut Self {
        let name = self.keep(name);
        self.buffers.changes.push(Change::Remove(name));
        self
    }

    /// Write the tag with (or without) `/` before its `>`: on SVG and MathML elements and in
    /// XML5, where it closes the element; refused on HTML elements, where it means nothing.
    pub fn self_closing(&mut self, on: bool) -> &mut Self {
        self.buffers.changes.push(Change::SelfClosing(on));
        self
    }

    /// Write the tag with its changes, instead of the token. Refused (nothing written, the tag
    /// still undecided) for a name that would not read back as itself, or `/>` on an HTML
    /// element.
    pub fn apply(&mut self) -> Result<(), WriteError> {
        let at = super::Location::Offset(self.tag.span().start);
        let refused = |refusal| WriteError::Refused { refusal, at };
        self.check().map_err(refused)?;
        let mut bytes = std::mem::take(&mut *self.scratch);
        bytes.clear();
        self.write_into(&mut bytes);
        let written = self.out.write_new(&bytes);
        *self.scratch = bytes;
        *self.decided = true;
        Ok(written?)
    }

    fn keep(&mut self, s: &str) -> Range<usize> {
        let start = self.buffers.strings.len();
        self.buffers.strings.push_str(s);
        start..self.buffers.strings.len()
    }

    fn str(&self, range: &Range<usize>) -> &str {
        &self.buffers.strings[range.clone()]
    }

    /// Every new name reads back as itself; `/>` only where it means something; no U+0000 in a
    /// value (the tokenizer reads U+FFFD there).
    fn check(&self) -> Result<(), Refusal> {
        for change in &self.buffers.changes {
            match change {
                Change::Rename(name) => check_tag_name(self.str(name))?,
                Change::RenameAttribute(_, new) => check_attribute_name(self.str(new))?,
                Change::Set(name, value) => {
                    check_attribute_name(self.str(name))?;
                    check_nul(self.str(value), At::AttributeValue)?;
                }
                Change::SelfClosing(_) if !self.foreign => {
                    return Err(Refusal::SelfClosing {
                        element: self.tag.name().to_owned(),
                    });
                }
                Change::SelfClosing(_) | Change::Remove(_) => {}
            }
        }
        Ok(())
    }

    /// The last change asked of attribute `attribute`, if any.
    fn change_of(&self, attribute: &Attribute<'_>) -> Option<&Change> {
        let name = attribute.name();
        let is = |n: &Range<usize>| self.same(self.str(n), name);
        self.buffers.changes.iter().rev().find(|c| match c {
            Change::Set(n, _) | Change::RenameAttribute(n, _) | Change::Remove(n) => is(n),
            _ => false,
        })
    }

    /// The edited tag: raw bytes from the tag, changed parts written anew.
    fn write_into(&self, out: &mut Vec<u8>) {
        let raw = self.tag.raw();
        let base = self.tag.span().start;
        let name = self.tag.name_span();
        out.extend_from_slice(&raw[..name.start - base]);
        match self.buffers.changes.iter().rev().find_map(|c| match c {
            Change::Rename(n) => Some(n),
            _ => None,
        }) {
            Some(n) => out.extend_from_slice(self.str(n).as_bytes()),
            None => out.extend_from_slice(self.tag.raw_name()),
        }
        let mut at = name.end;
        // The tokenizer keeps the first of the attributes of one name: each name is here once.
        for attribute in self.tag.attributes() {
            let Some(change) = self.change_of(&attribute) else {
                continue;
            };
            let span = Span {
                end: attribute_end(&attribute, raw, base),
                ..attribute.span()
            };
            out.extend_from_slice(&raw[at - base..span.start - base]);
            match change {
                Change::Remove(_) => {
                    // The whitespace before it goes with it.
                    trim_space_end(out);
                }
                Change::RenameAttribute(_, new) => {
                    out.extend_from_slice(self.str(new).as_bytes());
                    let name_end = attribute.name_span().end;
                    out.extend_from_slice(&raw[name_end - base..attribute.span().end - base]);
                }
                Change::Set(_, value) => {
                    out.extend_from_slice(attribute.raw_name());
                    self.write_value(out, self.str(value), quote_of(&attribute, raw, base));
                }
                Change::Rename(_) | Change::SelfClosing(_) => {}
            }
            at = span.end;
        }
        out.extend_from_slice(&raw[at - base..]);
        self.append_new_attributes(out);
        self.close(out);
    }

    fn same(&self, a: &str, b: &str) -> bool {
        if self.xml {
            a == b
        } else {
            a.eq_ignore_ascii_case(b)
        }
    }

    /// Attributes set that the tag did not have, before its `/>` or `>` (in the order asked).
    fn append_new_attributes(&self, out: &mut Vec<u8>) {
        let end = self.attributes_end(out);
        // The tag's end goes after the added attributes: moved there at the end, in place.
        let tail = out.len() - end;
        let mut added: Vec<&str> = Vec::new();
        for change in &self.buffers.changes {
            let Change::Set(name, value) = change else {
                continue;
            };
            let name = self.str(name);
            let present = self.tag.attributes().any(|a| self.same(a.name(), name));
            if present || added.iter().any(|n| self.same(n, name)) {
                continue;
            }
            let value = self
                .buffers
                .changes
                .iter()
                .rev()
                .find_map(|c| match c {
                    Change::Set(n, v) if self.same(self.str(n), name) => Some(v),
                    _ => None,
                })
                .map_or(self.str(value), |v| self.str(v));
            out.push(b' ');
            out.extend_from_slice(name.as_bytes());
            self.write_value(out, value, Some(b'"'));
            added.push(name);
        }
        out[end..].rotate_left(tail);
    }

    /// `=` and the value, quoted with `quote` (`None`: unquoted if it can be, else `"`).
    fn write_value(&self, out: &mut Vec<u8>, value: &str, quote: Option<u8>) {
        let escapes = Escapes {
            angle: true,
            quote: None,
            cr: true,
        };
        let quote = match quote {
            Some(q) => Some(q),
            None if self.xml || needs_quotes(value, QuoteAttrValues::Spec, escapes) => Some(b'"'),
            None => None,
        };
        out.push(b'=');
        out.extend(quote);
        if self.xml {
            escape_xml_into(out, value, quote);
        } else {
            escape_into(out, value, Escapes { quote, ..escapes });
        }
        out.extend(quote);
    }

    /// Apply the last self-closing change to the tag's end in `out`.
    fn close(&self, out: &mut Vec<u8>) {
        let Some(on) = self.buffers.changes.iter().rev().find_map(|c| match c {
            Change::SelfClosing(on) => Some(*on),
            _ => None,
        }) else {
            return;
        };
        let gt = gt_at(out);
        match (on, self.tag.self_closing()) {
            (true, false) => {
                let spaced = gt > 0 && super::super::check::is_space(out[gt - 1]);
                let slash: &[u8] = if spaced { b"/" } else { b" /" };
                out.splice(gt..gt, slash.iter().copied());
            }
            // A self-closing tag ends in `/>`.
            (false, true) => {
                out.remove(gt - 1);
            }
            _ => {}
        }
    }

    /// Where attributes added to the tag in `out` go: before its `/>` or `>`, or at its end
    /// when the end of input cut it off.
    fn attributes_end(&self, out: &[u8]) -> usize {
        let gt = gt_at(out);
        if self.tag.self_closing() && gt < out.len() {
            gt - 1
        } else {
            gt
        }
    }
}

/// The index of the tag's final `>` in `out` (its length when the end of input cut it off).
fn gt_at(out: &[u8]) -> usize {
    match out.last() {
        Some(b'>') => out.len() - 1,
        _ => out.len(),
    }
}

/// Where `attribute` ends in the tag's `raw` bytes (which start at `base`): its span's end, or,
/// when its value is missing after an `=` (`<a href=>`), after that `=` (and the spaces around
/// it), which the span leaves out: an edit that rewrites or removes the attribute must not
/// leave it behind.
fn attribute_end(attribute: &Attribute<'_>, raw: &[u8], base: usize) -> usize {
    let end = attribute.span().end;
    if attribute.quote().is_some() || !attribute.value_span().is_empty() {
        return end;
    }
    let space = |b: &&u8| super::super::check::is_space(**b);
    let rest = &raw[end - base..];
    let before = rest.iter().take_while(space).count();
    if rest.get(before) != Some(&b'=') {
        return end;
    }
    let after = rest[before + 1..].iter().take_while(space).count();
    end + before + 1 + after
}

/// The quote character of an attribute's value as written (`None`: unquoted or no value).
fn quote_of(attribute: &Attribute<'_>, raw: &[u8], base: usize) -> Option<u8> {
    let value = attribute.value_span();
    let before = value.start.checked_sub(1)?;
    if before < attribute.name_span().end {
        return None;
    }
    match raw[before - base] {
        q @ (b'"' | b'\'') => Some(q),
        _ => None,
    }
}

fn trim_space_end(out: &mut Vec<u8>) {
    while out
        .last()
        .is_some_and(|&b| super::super::check::is_space(b))
    {
        out.pop();
    }
}
