//! The accelerated path through text and tags (errors off).
//!
//! Most of a page is text and tags like `<name attr="value" attr=value attr>` or `</name>`. This
//! path runs the data, tag open, end tag open, tag name and attribute states (§13.2.5.1, 6–8,
//! 32–39) in one loop over the window, with the same transitions and the same actions as the state
//! functions, but without returning to the dispatcher between them; the text before a tag and the
//! tag itself come out of one step (see `Machine::push_record`). At the first byte it does not handle
//! (`<!`, `<?`, `/` not followed by `>`, `=` where a name should start, the end of the window) it
//! stops in the state the standard would be in, and the state functions take over from exactly
//! there. With errors on it is not used: the state functions report what this loop skips over.

use super::tag::{ATTR_NAME_STOP, TAG_NAME_STOP, UNQUOTED_STOP};
use super::{Buf, Flow, Machine, State, is_whitespace, skip_whitespace};
use crate::scan::{ByteSet, find_in_set, find1};
use crate::token::Span;

/// The bytes that end an attribute name (`ATTR_NAME_STOP`), and those that make a name decode to
/// something else than itself up to case (NUL and non-ASCII).
const PLAIN_ATTR_NAME_STOP: ByteSet = ByteSet::of(b"\t\n\x0C\r />=\0").with_range(0x80, 0xFF);

impl Machine {
    /// Continue in `state` at stream offset `pos` with the state functions (after handing out the
    /// text this step emitted, if any).
    fn hand_over(&mut self, state: State, pos: usize) -> Flow {
        self.state = state;
        self.pos = pos;
        self.flow_out()
    }

    /// Accelerated data state: skip text to the next `<` that opens a start or end tag, and read
    /// the tag.
    pub(super) fn data_fast(&mut self, b: &Buf) -> Flow {
        let bytes = b.bytes;
        let mut i = self.pos - b.base;
        loop {
            let Some(n) = find1(b'<', &bytes[i..]) else {
                return self.end_of_text(b);
            };
            let lt = i + n;
            self.mark = b.base + lt;
            match bytes.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => return self.tag_fast(b, lt, false),
                Some(b'/') if bytes.get(lt + 2).is_some_and(u8::is_ascii_alphabetic) => {
                    return self.tag_fast(b, lt, true);
                }
                Some(c) if !matches!(c, b'!' | b'/' | b'?') => i = lt + 1,
                _ => return self.hand_over(State::TagOpen, b.base + lt + 1),
            }
        }
    }

    /// Accelerated tag open, end tag open and tag name states, for the tag whose `<` is at window
    /// index `lt` and whose name starts with a letter.
    fn tag_fast(&mut self, b: &Buf, lt: usize, is_end_tag: bool) -> Flow {
        let bytes = b.bytes;
        self.begin_tag(b.base + lt, is_end_tag);
        let name = lt + 2 + usize::from(is_end_tag);
        let Some(n) = find_in_set(&TAG_NAME_STOP, &bytes[name..]) else {
            return self.hand_over(State::TagName, b.end());
        };
        let i = name + n;
        self.tok.name_end = b.base + i;
        match bytes[i] {
            b'>' => self.end_tag_at(b, i),
            b'/' => self.solidus_at(b, i, State::TagName),
            _ => {
                self.pos = b.base + i + 1;
                self.attributes_fast(b)
            }
        }
    }

    /// The tag ends with the `>` at window index `i`.
    fn end_tag_at(&mut self, b: &Buf, i: usize) -> Flow {
        self.pos = b.base + i;
        self.emit_tag()
    }

    /// A `/` at window index `i`, in `state`: `/>` ends a self-closing tag; anything else goes to the
    /// state functions.
    fn solidus_at(&mut self, b: &Buf, i: usize, state: State) -> Flow {
        if b.bytes.get(i + 1) == Some(&b'>') {
            self.tok.self_closing = true;
            return self.end_tag_at(b, i + 1);
        }
        self.hand_over(state, b.base + i)
    }

    /// Accelerated §13.2.5.32–39, entered in the before attribute name state at `self.pos`.
    pub(super) fn attributes_fast(&mut self, b: &Buf) -> Flow {
        let (bytes, base) = (b.bytes, b.base);
        let mut i = self.pos - base;
        loop {
            // Before attribute name.
            i = skip_whitespace(bytes, i);
            let Some(&c) = bytes.get(i) else {
                return self.hand_over(State::BeforeAttributeName, base + i);
            };
            match c {
                b'>' => return self.end_tag_at(b, i),
                b'/' => return self.solidus_at(b, i, State::BeforeAttributeName),
                b'=' => return self.hand_over(State::BeforeAttributeName, base + i),
                _ => {}
            }
            // Attribute name: names of plain ASCII are kept here; others go to the state functions.
            let Some(n) = find_in_set(&PLAIN_ATTR_NAME_STOP, &bytes[i + 1..]) else {
                self.tok.data_start = base + i;
                return self.hand_over(State::AttributeName, b.end());
            };
            let name = Span {
                start: base + i,
                end: base + i + 1 + n,
            };
            let plain_start = c != 0 && c < 0x80;
            i += 1 + n;
            if !ATTR_NAME_STOP.contains(bytes[i]) || !plain_start {
                self.tok.data_start = name.start;
                return self.hand_over(State::AttributeName, name.end);
            }
            self.attrs.add_plain(name, b);
            let mut c = bytes[i];
            if is_whitespace(c) {
                // After attribute name.
                i = skip_whitespace(bytes, i);
                let Some(&next) = bytes.get(i) else {
                    return self.hand_over(State::AfterAttributeName, base + i);
                };
                c = next;
                if !matches!(c, b'=' | b'>' | b'/') {
                    continue;
                }
            }
            match c {
                b'>' => return self.end_tag_at(b, i),
                b'/' => return self.solidus_at(b, i, State::AfterAttributeName),
                _ => {}
            }
            // Before attribute value.
            i = skip_whitespace(bytes, i + 1);
            let Some(&q) = bytes.get(i) else {
                return self.hand_over(State::BeforeAttributeValue, base + i);
            };
            match q {
                b'"' | b'\'' => match self.quoted_value_fast(b, i, q) {
                    Ok(next) => i = next,
                    Err(flow) => return flow,
                },
                b'>' => return self.end_tag_at(b, i),
                _ => {
                    // Attribute value (unquoted).
                    let Some(n) = find_in_set(&UNQUOTED_STOP, &bytes[i..]) else {
                        self.tok.data_start = base + i;
                        return self.hand_over(State::AttributeValueUnquoted, b.end());
                    };
                    self.attrs.set_value(
                        Span {
                            start: base + i,
                            end: base + i + n,
                        },
                        0,
                    );
                    i += n;
                    if bytes[i] == b'>' {
                        return self.end_tag_at(b, i);
                    }
                    i += 1;
                }
            }
        }
    }

    /// Attribute value (quoted) from the quote at window index `i`, then the after attribute value
    /// (quoted) state. `Ok` with where the before attribute name state continues, or `Err` with the
    /// flow when the tag ended or the state functions take over.
    fn quoted_value_fast(&mut self, b: &Buf, i: usize, quote: u8) -> Result<usize, Flow> {
        let (bytes, base) = (b.bytes, b.base);
        let start = i + 1;
        let Some(n) = find1(quote, &bytes[start..]) else {
            self.tok.data_start = base + start;
            let state = if quote == b'"' {
                State::AttributeValueDoubleQuoted
            } else {
                State::AttributeValueSingleQuoted
            };
            return Err(self.hand_over(state, b.end()));
        };
        self.attrs.set_value(
            Span {
                start: base + start,
                end: base + start + n,
            },
            quote,
        );
        let after = start + n + 1;
        match bytes.get(after) {
            None => Err(self.hand_over(State::AfterAttributeValueQuoted, base + after)),
            Some(b'>') => Err(self.end_tag_at(b, after)),
            Some(b'/') => Err(self.solidus_at(b, after, State::AfterAttributeValueQuoted)),
            Some(&c) if is_whitespace(c) => Ok(after + 1),
            Some(_) => Ok(after),
        }
    }
}
