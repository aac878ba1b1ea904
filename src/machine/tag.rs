//! Tag states: tag name, the attribute states and self-closing start tag (HTML Standard §13.2.5.8,
//! 32–40), and the attribute list with its duplicate check.
//!
//! Attribute names and values are recorded as spans. The standard drops a repeated attribute name
//! (first wins); [`Attrs`] finds repeats in amortized O(1) per attribute with a hash table keyed by
//! the decoded (lowercased) name, so a tag with 100,000 attributes costs 100,000 steps, not 10^10.

use super::{Buf, Flow, Machine, Record, State, is_whitespace, skip_whitespace};
use crate::error::ErrorCode;
use crate::scan::{ByteSet, find_in_set, find1, find3};
use crate::token::{AttrRecord, Span};

const WS: &[u8] = b"\t\n\x0C\r ";
/// Bytes that end a tag name run; with errors on, NUL stops the run too.
pub(super) const TAG_NAME_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r />");
const TAG_NAME_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r />\0");
/// Bytes that end an attribute name run (errors add the ones that raise
/// unexpected-character-in-attribute-name).
pub(super) const ATTR_NAME_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r />=");
const ATTR_NAME_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r />=\0\"'<");
/// Bytes that end an unquoted attribute value run.
pub(super) const UNQUOTED_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r >");
const UNQUOTED_STOP_ERRORS: ByteSet = ByteSet::of(b"\t\n\x0C\r >&\0\"'<=`");

/// Up to this many attributes with plain ASCII names, repeats are found by comparing names directly.
const LINEAR_LIMIT: usize = 8;

/// The attributes of the tag in progress, and what finds repeated names.
///
/// Small tags whose names are plain ASCII (the common case) compare raw names case-insensitively.
/// Past [`LINEAR_LIMIT`] attributes, or at the first name with NUL or non-ASCII bytes, every kept
/// name gets a [`Key`] and is found again through a hash table: plain names stay where they are in
/// the input (compared ASCII case-insensitively, hashed lowercased on the fly), others are decoded
/// once into `names`. A plain name never equals another one: it decodes to ASCII, they do not.
pub(crate) struct Attrs {
    /// Attributes kept so far, in source order.
    pub(crate) list: Vec<AttrRecord>,
    /// Whether `list` is still compared directly (no hash table yet).
    linear: bool,
    /// The decoded names of the keys that are not plain, concatenated.
    names: Vec<u8>,
    /// The names of the first `keys.len()` kept attributes, with their hashes.
    keys: Vec<(Key, u64)>,
    /// Open addressing with linear probing over [`Slot`]s; slots of older generations are empty.
    table: Vec<u64>,
    /// The current generation: never 0, so a zeroed slot is empty.
    generation: u16,
    /// Whether any attribute was started on this tag (kept or not).
    pub(crate) any: bool,
    /// The attribute in progress is a repeat and is not recorded.
    dropping: bool,
}

impl Default for Attrs {
    fn default() -> Attrs {
        Attrs {
            list: Vec::new(),
            linear: true,
            names: Vec::new(),
            keys: Vec::new(),
            table: Vec::new(),
            generation: 1,
            any: false,
            dropping: false,
        }
    }
}

/// A kept attribute's name, as the hash table compares it.
#[derive(Clone, Copy)]
enum Key {
    /// ASCII without NUL: the raw name, compared ASCII case-insensitively.
    Plain(Span),
    /// Anything else: its decoded form, `names[start..end]`.
    Decoded(u32, u32),
}

/// A hash table slot, packed into 8 bytes (the table of a tag with 100,000 attributes is zeroed and
/// walked, so its size counts): the generation (16 bits), 16 bits of the key's hash that the slot
/// index does not use, to skip most other keys without looking at them, and the key's index.
struct Slot;

impl Slot {
    fn pack(generation: u16, hash: u64, index: usize) -> u64 {
        (u64::from(generation) << 48) | (hash >> 48 << 32) | index as u64
    }

    fn generation(slot: u64) -> u16 {
        (slot >> 48) as u16
    }

    /// Whether a slot holds a key whose hash may be `hash`.
    fn may_be(slot: u64, hash: u64) -> bool {
        (slot >> 32) as u16 == (hash >> 48) as u16
    }

    fn index(slot: u64) -> usize {
        slot as u32 as usize
    }
}

impl Attrs {
    /// Forget the previous tag's attributes (keeps allocations). Nothing to do when it had none.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.any {
            self.reset();
        }
    }

    fn reset(&mut self) {
        self.list.clear();
        self.any = false;
        self.dropping = false;
        self.linear = true;
        if !self.keys.is_empty() {
            self.names.clear();
            self.keys.clear();
            self.generation = self.generation.wrapping_add(1);
            if self.generation == 0 {
                self.table.fill(0);
                self.generation = 1;
            }
        }
    }

    /// The attribute whose name is at `span` in `b` is complete: keep it unless its decoded name
    /// repeats an earlier one. Returns `false` for a repeat.
    fn add(&mut self, span: Span, b: &Buf) -> bool {
        let name = b.slice(span);
        self.any = true;
        self.linear &= self.list.len() < LINEAR_LIMIT && is_plain(name);
        let repeat = if self.linear {
            self.list
                .iter()
                .any(|a| a.name.len() == name.len() && b.slice(a.name).eq_ignore_ascii_case(name))
        } else {
            self.find_or_key(span, b)
        };
        self.dropping = repeat;
        if !repeat {
            self.list.push(AttrRecord {
                name: span,
                value: Span::empty(span.end),
                quote: 0,
            });
        }
        !repeat
    }

    /// [`Attrs::add`] for a name known to be ASCII without NUL (the accelerated path's names).
    #[inline]
    pub(crate) fn add_plain(&mut self, span: Span, b: &Buf) -> bool {
        if !self.linear || self.list.len() >= LINEAR_LIMIT {
            return self.add(span, b);
        }
        let name = b.slice(span);
        self.any = true;
        let repeat = self
            .list
            .iter()
            .any(|a| a.name.len() == name.len() && b.slice(a.name).eq_ignore_ascii_case(name));
        self.dropping = repeat;
        if !repeat {
            let value = Span::empty(span.end);
            self.list.push(AttrRecord {
                name: span,
                value,
                quote: 0,
            });
        }
        !repeat
    }

    /// Hashed lookup: key every kept attribute not keyed yet, then look the name at `span` up;
    /// when it is new, it stays keyed (for the attribute about to be pushed).
    fn find_or_key(&mut self, span: Span, b: &Buf) -> bool {
        while self.keys.len() < self.list.len() {
            let kept = self.list[self.keys.len()].name;
            self.key_and_find(kept, b);
        }
        let repeat = self.key_and_find(span, b);
        if repeat && let Some((Key::Decoded(start, _), _)) = self.keys.pop() {
            self.names.truncate(start as usize);
        }
        repeat
    }

    /// Key the name at `span` and find it in the table: `true` if an earlier key is the same name,
    /// else the new key is placed in the table.
    fn key_and_find(&mut self, span: Span, b: &Buf) -> bool {
        let raw = b.slice(span);
        let key = if is_plain(raw) {
            (
                Key::Plain(span),
                hash(raw.iter().map(u8::to_ascii_lowercase)),
            )
        } else {
            let start = self.names.len();
            push_decoded_name(&mut self.names, raw);
            let decoded = &self.names[start..];
            let end = self.names.len() as u32;
            (
                Key::Decoded(start as u32, end),
                hash(decoded.iter().copied()),
            )
        };
        self.keys.push(key);
        self.find_or_insert(self.keys.len() - 1, b)
    }

    /// Probe for key `i` with `hash`: `true` when an earlier key has the same name, else key `i`
    /// takes the first free slot (one probe sequence for both).
    fn find_or_insert(&mut self, i: usize, b: &Buf) -> bool {
        if self.table.len() < 2 * (i + 2) {
            self.grow();
        }
        let (key, hash) = self.keys[i];
        let mask = self.table.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.table[at];
            if Slot::generation(slot) != self.generation {
                self.table[at] = Slot::pack(self.generation, hash, i);
                return false;
            }
            if Slot::may_be(slot, hash) {
                let (other, other_hash) = self.keys[Slot::index(slot)];
                if other_hash == hash && self.same_name(other, key, b) {
                    return true;
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Double the table (at least 64 slots), placing the current generation's slots again.
    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(64);
        let old = std::mem::replace(&mut self.table, vec![0; size]);
        let mask = size - 1;
        for slot in old {
            if Slot::generation(slot) == self.generation {
                let mut at = self.keys[Slot::index(slot)].1 as usize & mask;
                while Slot::generation(self.table[at]) == self.generation {
                    at = (at + 1) & mask;
                }
                self.table[at] = slot;
            }
        }
    }

    /// Whether two keys are the same attribute name.
    fn same_name(&self, a: Key, other: Key, b: &Buf) -> bool {
        match (a, other) {
            (Key::Plain(x), Key::Plain(y)) => {
                x.len() == y.len() && b.slice(x).eq_ignore_ascii_case(b.slice(y))
            }
            (Key::Decoded(s1, e1), Key::Decoded(s2, e2)) => {
                self.names[s1 as usize..e1 as usize] == self.names[s2 as usize..e2 as usize]
            }
            _ => false,
        }
    }

    /// The value of the attribute in progress (if it is kept).
    pub(super) fn set_value(&mut self, value: Span, quote: u8) {
        if let Some(last) = self.list.last_mut().filter(|_| !self.dropping) {
            last.value = value;
            last.quote = quote;
        }
    }
}

/// Whether `name` decodes to itself up to ASCII case: ASCII without NUL.
fn is_plain(name: &[u8]) -> bool {
    name.iter().all(|&c| c.wrapping_sub(1) < 0x7F)
}

/// An attribute name as the tree sees it: ASCII lowercased, NUL as U+FFFD, invalid UTF-8 as U+FFFD.
fn push_decoded_name(out: &mut Vec<u8>, raw: &[u8]) {
    if is_plain(raw) {
        out.extend(raw.iter().map(u8::to_ascii_lowercase));
        return;
    }
    for chunk in raw.utf8_chunks() {
        for &c in chunk.valid().as_bytes() {
            match c {
                0 => out.extend_from_slice("\u{FFFD}".as_bytes()),
                _ => out.push(c.to_ascii_lowercase()),
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
}

/// FNV-1a, then a multiply to spread the low bits the table uses.
fn hash(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7
}

impl Machine {
    /// A start or end tag begins at `start` (its `<`): emit pending text first.
    pub(super) fn begin_tag(&mut self, start: usize, is_end_tag: bool) -> bool {
        let emitted = self.begin_token(start);
        self.tok.is_end_tag = is_end_tag;
        self.tok.name_start = start + 1 + usize::from(is_end_tag);
        self.attrs.clear();
        emitted
    }

    /// The tag ends with the `>` under the cursor: emit it.
    pub(super) fn emit_tag(&mut self) -> Flow {
        let end = self.pos + 1;
        let span = Span {
            start: self.tok.start,
            end,
        };
        let name = Span {
            start: self.tok.name_start,
            end: self.tok.name_end,
        };
        if self.tok.is_end_tag {
            if self.attrs.any {
                self.error_here(ErrorCode::EndTagWithAttributes);
            }
            if self.tok.self_closing {
                self.error_here(ErrorCode::EndTagWithTrailingSolidus);
            }
            return self.emit_token(Record::end_tag(span, name), end);
        }
        let self_closing = self.tok.self_closing;
        self.emit_token(Record::start_tag(span, name, self_closing), end)
    }

    /// EOF inside a tag: eof-in-tag, and the tag is dropped.
    fn eof_in_tag(&mut self, b: &Buf) -> Flow {
        self.error(ErrorCode::EofInTag, b.end());
        self.drop_token_at_eof(b)
    }

    /// §13.2.5.8 Tag name state.
    pub(super) fn tag_name_state(&mut self, b: &Buf) -> Flow {
        let stop = if self.config.errors {
            &TAG_NAME_STOP_ERRORS
        } else {
            &TAG_NAME_STOP
        };
        let rest = b.rest(self.pos);
        let Some(i) = find_in_set(stop, rest) else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_tag(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        match rest[i] {
            0 => {
                self.error_here(ErrorCode::UnexpectedNullCharacter);
                self.pos += 1;
                return Flow::Continue;
            }
            b'/' => self.state = State::SelfClosingStartTag,
            b'>' => {
                self.tok.name_end = self.pos;
                return self.emit_tag();
            }
            _ => self.state = State::BeforeAttributeName,
        }
        self.tok.name_end = self.pos;
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.32 Before attribute name state.
    pub(super) fn before_attribute_name_state(&mut self, b: &Buf) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(None | Some(b'/' | b'>')) => {
                self.state = State::AfterAttributeName;
                Flow::Continue
            }
            Ok(Some(b'=')) => {
                self.error_here(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                self.tok.data_start = self.pos;
                self.pos += 1;
                self.state = State::AttributeName;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.tok.data_start = self.pos;
                self.state = State::AttributeName;
                Flow::Continue
            }
        }
    }

    /// Skip ASCII whitespace at the cursor.
    pub(super) fn skip_whitespace(&mut self, b: &Buf) {
        self.pos = b.base + skip_whitespace(b.bytes, self.pos - b.base);
    }

    /// Leaving the attribute name state: the name is complete; check it against the others.
    pub(super) fn finish_attribute_name(&mut self, b: &Buf) {
        let span = Span {
            start: self.tok.data_start,
            end: self.pos,
        };
        if !self.attrs.add(span, b) {
            self.error_here(ErrorCode::DuplicateAttribute);
        }
    }

    /// §13.2.5.33 Attribute name state (the attribute's name starts at `tok.data_start`).
    pub(super) fn attribute_name_state(&mut self, b: &Buf) -> Flow {
        let stop = if self.config.errors {
            &ATTR_NAME_STOP_ERRORS
        } else {
            &ATTR_NAME_STOP
        };
        let rest = b.rest(self.pos);
        let Some(i) = find_in_set(stop, rest) else {
            self.pos = b.end();
            if !b.eof {
                return Flow::NeedMore;
            }
            self.finish_attribute_name(b);
            self.state = State::AfterAttributeName;
            return Flow::Continue;
        };
        self.pos += i;
        match rest[i] {
            0 => self.error_here(ErrorCode::UnexpectedNullCharacter),
            b'"' | b'\'' | b'<' => self.error_here(ErrorCode::UnexpectedCharacterInAttributeName),
            b'=' => {
                self.finish_attribute_name(b);
                self.state = State::BeforeAttributeValue;
            }
            _ => {
                self.finish_attribute_name(b);
                self.state = State::AfterAttributeName;
                return Flow::Continue;
            }
        }
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.34 After attribute name state.
    pub(super) fn after_attribute_name_state(&mut self, b: &Buf) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::SelfClosingStartTag;
                Flow::Continue
            }
            Ok(Some(b'=')) => {
                self.pos += 1;
                self.state = State::BeforeAttributeValue;
                Flow::Continue
            }
            Ok(Some(b'>')) => self.emit_tag(),
            Ok(Some(_)) => {
                self.tok.data_start = self.pos;
                self.state = State::AttributeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.35 Before attribute value state.
    pub(super) fn before_attribute_value_state(&mut self, b: &Buf) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(q @ (b'"' | b'\''))) => {
                self.pos += 1;
                self.tok.data_start = self.pos;
                self.state = if q == b'"' {
                    State::AttributeValueDoubleQuoted
                } else {
                    State::AttributeValueSingleQuoted
                };
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::MissingAttributeValue);
                self.emit_tag()
            }
            Ok(_) => {
                self.tok.data_start = self.pos;
                self.state = State::AttributeValueUnquoted;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.36/37 Attribute value (double-quoted / single-quoted) states.
    pub(super) fn attribute_value_quoted_state(&mut self, b: &Buf, quote: u8) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find3(quote, b'&', 0, rest)
        } else {
            find1(quote, rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_tag(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        match rest[i] {
            b'&' => {
                self.begin_character_reference(self.state);
                return Flow::Continue;
            }
            0 => self.error_here(ErrorCode::UnexpectedNullCharacter),
            _ => {
                let value = Span {
                    start: self.tok.data_start,
                    end: self.pos,
                };
                self.attrs.set_value(value, quote);
                self.state = State::AfterAttributeValueQuoted;
            }
        }
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.38 Attribute value (unquoted) state.
    pub(super) fn attribute_value_unquoted_state(&mut self, b: &Buf) -> Flow {
        let stop = if self.config.errors {
            &UNQUOTED_STOP_ERRORS
        } else {
            &UNQUOTED_STOP
        };
        let rest = b.rest(self.pos);
        let Some(i) = find_in_set(stop, rest) else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_tag(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        let c = rest[i];
        if WS.contains(&c) || c == b'>' {
            let value = Span {
                start: self.tok.data_start,
                end: self.pos,
            };
            self.attrs.set_value(value, 0);
            if c == b'>' {
                return self.emit_tag();
            }
            self.state = State::BeforeAttributeName;
        } else if c == b'&' {
            self.begin_character_reference(State::AttributeValueUnquoted);
            return Flow::Continue;
        } else if c == 0 {
            self.error_here(ErrorCode::UnexpectedNullCharacter);
        } else {
            self.error_here(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
        }
        self.pos += 1;
        Flow::Continue
    }

    /// §13.2.5.39 After attribute value (quoted) state.
    pub(super) fn after_attribute_value_quoted_state(&mut self, b: &Buf) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(c)) if is_whitespace(c) => {
                self.pos += 1;
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::SelfClosingStartTag;
                Flow::Continue
            }
            Ok(Some(b'>')) => self.emit_tag(),
            Ok(Some(_)) => {
                self.error_here(ErrorCode::MissingWhitespaceBetweenAttributes);
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.40 Self-closing start tag state.
    pub(super) fn self_closing_start_tag_state(&mut self, b: &Buf) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_tag(b),
            Ok(Some(b'>')) => {
                self.tok.self_closing = true;
                self.emit_tag()
            }
            Ok(Some(_)) => {
                self.error_here(ErrorCode::UnexpectedSolidusInTag);
                self.state = State::BeforeAttributeName;
                Flow::Continue
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Add each name of `names` (laid out in one buffer) and return which were kept.
    fn kept(attrs: &mut Attrs, names: &[&str]) -> Vec<bool> {
        let joined = names.concat();
        let b = Buf {
            bytes: joined.as_bytes(),
            base: 0,
            eof: true,
        };
        let mut start = 0;
        names
            .iter()
            .map(|n| {
                let span = Span {
                    start,
                    end: start + n.len(),
                };
                start += n.len();
                attrs.add(span, &b)
            })
            .collect()
    }

    #[test]
    fn repeats_are_found_in_small_and_large_tags() {
        let mut attrs = Attrs::default();
        for round in 0..2 {
            attrs.clear();
            let mut names: Vec<String> = (0..1000).map(|i| format!("a{i}")).collect();
            names.extend(["A999".into(), "a0".into(), "b".into()]);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let kept = kept(&mut attrs, &names);
            assert!(kept[..1000].iter().all(|&k| k), "round {round}");
            assert_eq!(kept[1000..], [false, false, true]);
            assert_eq!(attrs.list.len(), 1001);
        }
        attrs.clear();
        assert_eq!(
            kept(&mut attrs, &["x", "Y", "X", "y", "\0", "\u{FFFD}"]),
            [true, true, false, false, true, false]
        );
        attrs.clear();
        let names: Vec<String> = (0..20)
            .flat_map(|i| [format!("n{i}"), "N0".into()])
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let kept = kept(&mut attrs, &names);
        assert!(kept.iter().step_by(2).all(|&k| k));
        assert!(kept.iter().skip(3).step_by(2).all(|&k| !k));
    }
}
