//! Tag states: start, empty and end tags and their attributes (XML5 draft §1.3.4–6, 24–32), and
//! the table that finds repeated attribute names in linear time.
//!
//! Names keep their case and are compared as written. The first of two attributes with the same
//! name wins; the repeat is a `duplicate-attribute` error and is dropped with its value.

use std::hash::BuildHasher;

use super::{Flow, Machine, State, is_space};
use crate::error::ErrorCode;
use crate::scan::{self, find1, find2};
use crate::span::{AttrRecord, Record, Span, Window};
use crate::word::WordHash;

/// Up to this many attributes, a new name is compared with each kept one; past it, through the
/// hash table.
const LINEAR: usize = 8;

/// Finds whether an attribute's name repeats a kept one: by comparing with each for small tags,
/// through an open-addressing hash table of indexes into the attribute list for large ones (a
/// table whose size follows the tag's attribute count, so clearing it costs what the tag did).
#[derive(Default)]
pub(crate) struct NameTable {
    /// Empty while not in use; else a power of two of slots, each 0 or a kept index plus one.
    slots: Vec<u32>,
    /// Keyed per tokenizer, so that no input can choose colliding names.
    hasher: WordHash,
}

impl NameTable {
    /// Forget the last tag's names (keeps the allocation).
    pub(super) fn clear(&mut self) {
        self.slots.clear();
    }

    /// Whether the name at `name` repeats one of `kept`'s; if not, it is recorded as the next
    /// one (index `kept.len()`), which the caller pushes.
    fn repeats(&mut self, kept: &[AttrRecord], name: Span, b: &Window) -> bool {
        let bytes = b.slice(name);
        if kept.len() < LINEAR {
            return kept.iter().any(|a| b.slice(a.name) == bytes);
        }
        if (kept.len() + 1) * 2 > self.slots.len() {
            self.rebuild(kept, b);
        }
        let mask = self.slots.len() - 1;
        let mut at = self.hasher.hash_one(bytes) as usize & mask;
        loop {
            match self.slots[at] {
                0 => {
                    self.slots[at] = kept.len() as u32 + 1;
                    return false;
                }
                slot if b.slice(kept[slot as usize - 1].name) == bytes => return true,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Make the table four times as large as `kept`, with all of them in it.
    fn rebuild(&mut self, kept: &[AttrRecord], b: &Window) {
        let size = (kept.len() * 4).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, 0);
        let mask = size - 1;
        for (i, a) in kept.iter().enumerate() {
            let mut at = self.hasher.hash_one(b.slice(a.name)) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = i as u32 + 1;
        }
    }
}

/// A byte that ends a tag name: whitespace, `/` or `>`.
pub(super) fn ends_tag_name(c: u8) -> bool {
    is_space(c) || c == b'/' || c == b'>'
}

/// The index of the first byte of `rest` that `ends` says ends a name, `ends` being true for
/// whitespace and at most `a`, `b`, `c`: found 16 bytes at a time by the scanner, which stops
/// at a superset (every control and non-ASCII byte), each checked here.
#[inline]
pub(super) fn find_name_end(
    rest: &[u8],
    [a, b, c]: [u8; 3],
    ends: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut at = 0;
    loop {
        let i = at + scan::find_name_end(a, b, c, &rest[at..])?;
        if ends(rest[i]) {
            return Some(i);
        }
        at = i + 1;
    }
}

impl Machine {
    /// A start tag begins at `tok.start`, its name at `name_start`: the tag name state is next.
    pub(super) fn begin_start_tag(&mut self, name_start: usize) {
        self.tok.name_start = name_start;
        self.clear_attributes();
        self.state = State::TagName;
    }

    /// Forget the last tag's attributes.
    pub(super) fn clear_attributes(&mut self) {
        self.attrs.clear();
        self.names.clear();
        self.current_attr = None;
    }

    /// Emit the start (or empty) tag in progress, which ends before `end`.
    fn emit_start_tag(&mut self, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        let name = Span {
            start: self.tok.name_start,
            end: self.tok.name_end,
        };
        let record = Record::start_tag(span, name, self.tok.self_closing);
        self.emit_token(record, end)
    }

    /// The end of input inside a tag: an error, and the tag goes out as it is.
    fn eof_in_tag(&mut self, b: &Window) -> Flow {
        self.error(ErrorCode::EofInTag, b.end());
        if self.tok.is_end_tag {
            self.emit_end_tag(b.end())
        } else {
            self.emit_start_tag(b.end())
        }
    }

    /// Emit the end tag in progress, which ends before `end`.
    fn emit_end_tag(&mut self, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        let name = Span {
            start: self.tok.name_start,
            end: self.tok.name_end,
        };
        self.emit_token(Record::end_tag(span, name), end)
    }

    /// §1.3.4 End tag state: after `</`. `</>` is a short end tag (an end tag with no name);
    /// `</` followed by whitespace, `<` or `:` stays text.
    pub(super) fn end_tag_state(&mut self, b: &Window) -> Flow {
        let c = match self.current(b) {
            Err(flow) => return flow,
            Ok(None) => {
                self.error_here(ErrorCode::EofBeforeTagName);
                self.state = State::Data;
                return Flow::Continue;
            }
            Ok(Some(c)) => c,
        };
        if is_space(c) || c == b'<' || c == b':' {
            self.error_here(ErrorCode::InvalidFirstCharacterOfTagName);
            self.state = State::Data;
            return Flow::Continue;
        }
        if self.begin_token(self.mark) {
            return Flow::Emit;
        }
        self.tok.is_end_tag = true;
        self.tok.name_start = self.pos;
        if c == b'>' {
            self.tok.name_end = self.pos;
            return self.emit_end_tag(self.pos + 1);
        }
        self.pos += 1;
        self.state = State::EndTagName;
        self.end_tag_name_state(b)
    }

    /// §1.3.5 End tag name state.
    pub(super) fn end_tag_name_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| {
            find_name_end(rest, [b'/', b'>', b'>'], ends_tag_name)
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        self.tok.name_end = self.pos;
        match c {
            None => self.eof_in_tag(b),
            Some(b'>') => self.emit_end_tag(self.pos + 1),
            Some(c) => {
                if c == b'/' {
                    self.error_here(ErrorCode::EndTagWithTrailingSolidus);
                }
                self.pos += 1;
                self.state = State::EndTagNameAfter;
                Flow::Continue
            }
        }
    }

    /// §1.3.6 End tag name after state: every character but whitespace before `>` is an error.
    pub(super) fn end_tag_name_after_state(&mut self, b: &Window) -> Flow {
        loop {
            match self.current(b) {
                Err(flow) => return flow,
                Ok(None) => return self.eof_in_tag(b),
                Ok(Some(b'>')) => return self.emit_end_tag(self.pos + 1),
                Ok(Some(c)) => {
                    if !is_space(c) {
                        self.error_here(ErrorCode::EndTagWithAttributes);
                    }
                    self.pos += 1;
                }
            }
        }
    }

    /// §1.3.24 Tag name state.
    pub(super) fn tag_name_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| {
            find_name_end(rest, [b'/', b'>', b'>'], ends_tag_name)
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        self.tok.name_end = self.pos;
        match c {
            None => self.eof_in_tag(b),
            Some(b'>') => self.emit_start_tag(self.pos + 1),
            Some(b'/') => self.go_empty_tag(),
            Some(_) => {
                self.pos += 1;
                self.state = State::TagAttributeNameBefore;
                self.tag_attribute_name_before_state(b)
            }
        }
    }

    /// The tag attribute name and unquoted value states emit "the current token as start tag
    /// token" (§1.3.27, 32): a `/` earlier in the tag not followed by `>` (an error) does not make
    /// it an empty tag there.
    fn as_start_tag(&mut self) {
        self.tok.self_closing = false;
    }

    /// `/` in a tag: it is an empty tag from now on; the empty tag state says whether `>` follows.
    fn go_empty_tag(&mut self) -> Flow {
        self.tok.self_closing = true;
        self.pos += 1;
        self.state = State::EmptyTag;
        Flow::Continue
    }

    /// §1.3.25 Empty tag state. At the end of input, the tag attribute name before state reports
    /// it again (two errors, as xml5lib-tests expect).
    pub(super) fn empty_tag_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'>')) => self.emit_start_tag(self.pos + 1),
            Ok(None) => {
                self.error_here(ErrorCode::EofInTag);
                self.state = State::TagAttributeNameBefore;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.error_here(ErrorCode::UnexpectedSolidusInTag);
                self.state = State::TagAttributeNameBefore;
                Flow::Continue
            }
        }
    }

    /// §1.3.26 Tag attribute name before state.
    pub(super) fn tag_attribute_name_before_state(&mut self, b: &Window) -> Flow {
        loop {
            match self.current(b) {
                Err(flow) => return flow,
                Ok(None) => return self.eof_in_tag(b),
                Ok(Some(b'>')) => return self.emit_start_tag(self.pos + 1),
                Ok(Some(b'/')) => return self.go_empty_tag(),
                Ok(Some(b':')) => {
                    self.error_here(ErrorCode::ColonBeforeAttribute);
                    self.pos += 1;
                }
                Ok(Some(c)) if is_space(c) => self.pos += 1,
                Ok(Some(_)) => {
                    self.begin_attribute();
                    return self.tag_attribute_name_state(b);
                }
            }
        }
    }

    /// Start a new attribute whose name begins with the current input character.
    fn begin_attribute(&mut self) {
        self.tok.data_start = self.pos;
        self.pos += 1;
        self.state = State::TagAttributeName;
    }

    /// §1.3.27 Tag attribute name state. Leaving it, the name is compared with the kept ones.
    pub(super) fn tag_attribute_name_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| {
            find_name_end(rest, [b'/', b'>', b'='], |c| ends_tag_name(c) || c == b'=')
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        self.finish_attribute_name(b);
        match c {
            None => {
                self.as_start_tag();
                self.eof_in_tag(b)
            }
            Some(b'>') => {
                self.as_start_tag();
                self.emit_start_tag(self.pos + 1)
            }
            Some(b'/') => self.go_empty_tag(),
            Some(b'=') => {
                self.pos += 1;
                self.state = State::TagAttributeValueBefore;
                self.tag_attribute_value_before_state(b)
            }
            Some(_) => {
                self.pos += 1;
                self.state = State::TagAttributeNameAfter;
                Flow::Continue
            }
        }
    }

    /// The attribute name from `tok.data_start` to the current position is complete: keep it,
    /// unless it repeats a kept one.
    pub(super) fn finish_attribute_name(&mut self, b: &Window) {
        let name = Span {
            start: self.tok.data_start,
            end: self.pos,
        };
        if self.names.repeats(&self.attrs, name, b) {
            self.error_here(ErrorCode::DuplicateAttribute);
            self.current_attr = None;
        } else {
            self.current_attr = Some(self.attrs.len());
            self.attrs.push(AttrRecord::without_value(name));
        }
    }

    /// The value of the attribute in progress (if it is kept).
    pub(super) fn set_value(&mut self, end: usize, quote: u8) {
        if let Some(attr) = self.current_attr.and_then(|i| self.attrs.get_mut(i)) {
            attr.value = Span {
                start: self.tok.data_start,
                end,
            };
            attr.quote = quote;
        }
    }

    /// §1.3.28 Tag attribute name after state.
    pub(super) fn tag_attribute_name_after_state(&mut self, b: &Window) -> Flow {
        loop {
            match self.current(b) {
                Err(flow) => return flow,
                Ok(None) => return self.eof_in_tag(b),
                Ok(Some(b'>')) => return self.emit_start_tag(self.pos + 1),
                Ok(Some(b'/')) => return self.go_empty_tag(),
                Ok(Some(b'=')) => {
                    self.pos += 1;
                    self.state = State::TagAttributeValueBefore;
                    return Flow::Continue;
                }
                Ok(Some(c)) if is_space(c) => self.pos += 1,
                Ok(Some(_)) => {
                    self.begin_attribute();
                    return Flow::Continue;
                }
            }
        }
    }

    /// §1.3.29 Tag attribute value before state.
    pub(super) fn tag_attribute_value_before_state(&mut self, b: &Window) -> Flow {
        loop {
            let c = match self.current(b) {
                Err(flow) => return flow,
                Ok(None) => return self.eof_in_tag(b),
                Ok(Some(c)) => c,
            };
            self.state = match c {
                b'>' => return self.emit_start_tag(self.pos + 1),
                c if is_space(c) => {
                    self.pos += 1;
                    continue;
                }
                b'"' => State::TagAttributeValueDoubleQuoted,
                b'\'' => State::TagAttributeValueSingleQuoted,
                _ => {
                    // Reconsumed in the unquoted value state.
                    self.tok.data_start = self.pos;
                    self.state = State::TagAttributeValueUnquoted;
                    return Flow::Continue;
                }
            };
            self.pos += 1;
            self.tok.data_start = self.pos;
            return self.tag_attribute_value_quoted_state(b, c);
        }
    }

    /// §1.3.30 Tag attribute value double quoted state and §1.3.31 its single-quoted twin.
    pub(super) fn tag_attribute_value_quoted_state(&mut self, b: &Window, quote: u8) -> Flow {
        let errors = self.errors_on;
        let found = self.skip_to(b, |rest| {
            if errors {
                find2(quote, b'&', rest)
            } else {
                find1(quote, rest)
            }
        });
        match found {
            Err(flow) => flow,
            Ok(None) => {
                self.set_value(b.end(), quote);
                self.eof_in_tag(b)
            }
            Ok(Some(b'&')) => {
                self.begin_character_reference(self.state);
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.set_value(self.pos, quote);
                self.pos += 1;
                self.state = State::TagAttributeNameBefore;
                Flow::Continue
            }
        }
    }

    /// §1.3.32 Tag attribute value unquoted state.
    pub(super) fn tag_attribute_value_unquoted_state(&mut self, b: &Window) -> Flow {
        let errors = self.errors_on;
        let found = self.skip_to(b, |rest| {
            rest.iter()
                .position(|&c| is_space(c) || c == b'>' || (errors && c == b'&'))
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        if c == Some(b'&') {
            self.begin_character_reference(State::TagAttributeValueUnquoted);
            return Flow::Continue;
        }
        self.set_value(self.pos, 0);
        match c {
            None => {
                self.as_start_tag();
                self.eof_in_tag(b)
            }
            Some(b'>') => {
                self.as_start_tag();
                self.emit_start_tag(self.pos + 1)
            }
            Some(_) => {
                self.pos += 1;
                self.state = State::TagAttributeNameBefore;
                Flow::Continue
            }
        }
    }
}
