//! The direct lane (errors off): text and the common shapes of start, empty and end tags lexed
//! straight from the window, each in one call, without the run loop or records.
//!
//! It mirrors these states, which are its oracle: the data state (§1.3.1), the tag state (§1.3.3),
//! the end tag and end tag name states (§1.3.4–5), the tag name state (§1.3.24), the empty tag
//! state (§1.3.25, for `/>` only), and the tag attribute name before, name, value before and
//! quoted value states (§1.3.26–31) for attributes written `name="value"` or `name='value'`.
//! Anything else (another shape, a tag the window cuts off, the end of input) is left to the
//! state functions, which start over at the tag's `<`: the lane changes nothing before it knows
//! the whole token. `tests/xml5lib.rs` and `tests/xml5.rs` check that tokens are the same with
//! errors off (the lane) and on (the states only), under every chunking.

use super::machine::{Machine, State, is_space};
use super::tag::{ends_tag_name, find_name_end};
use crate::scan::find1;
use crate::span::{Lexeme, Span, Window};

impl Machine {
    /// Whether the lane may lex the next token: the machine is in the data state.
    pub(crate) fn lane_open(&self) -> bool {
        self.state == State::Data
    }

    /// The next token lexed straight from `b`: the text before a tag, or the tag; or
    /// [`Lexeme::Elsewhere`] for the state functions. Inlined with the tag functions into the
    /// driver, which builds the token where it is returned: a lexeme handed back through memory
    /// was read back in 16-byte pieces right after being written in 8-byte ones, a
    /// store-forwarding stall that took a fifth of the time.
    #[inline(always)]
    pub(crate) fn lex_lane(&mut self, b: &Window) -> Lexeme {
        if let Some((lt, tag, end)) = self.lane_tag.take()
            && lt == self.pos
        {
            return self.lane_leave_at(tag, end);
        }
        let start = self.pos;
        let Some(i) = find1(b'<', b.rest(start)) else {
            return Lexeme::Elsewhere;
        };
        let lt = start + i;
        let lexeme = match b.at(lt + 1) {
            Some(b'/') => self.lane_end_tag(b, lt),
            Some(c) if !(is_space(c) || matches!(c, b':' | b'<' | b'>' | b'?' | b'!')) => {
                self.lane_start_tag(b, lt)
            }
            _ => None,
        };
        // The machine's `pos` moved over attribute names: back where it was.
        self.pos = start;
        let Some((tag, end)) = lexeme else {
            // The text runs on past the `<` (or the tag is not for the lane): the state
            // functions read it whole.
            return Lexeme::Elsewhere;
        };
        if lt == self.text_start {
            return self.lane_leave_at(tag, end);
        }
        // The text before the tag goes out first; the tag is for the next call.
        self.lane_tag = Some((lt, tag, end));
        let text = Span {
            start: self.text_start,
            end: lt,
        };
        self.pos = lt;
        self.text_start = lt;
        Lexeme::Text(text)
    }

    /// Hand out `tag`, which ends before `end`, and read on from there.
    #[inline(always)]
    fn lane_leave_at(&mut self, tag: Lexeme, end: usize) -> Lexeme {
        self.pos = end;
        self.text_start = end;
        tag
    }

    /// `</name>` at `lt`, and where it ends.
    #[inline(always)]
    fn lane_end_tag(&mut self, b: &Window, lt: usize) -> Option<(Lexeme, usize)> {
        let first = b.at(lt + 2)?;
        if is_space(first) || matches!(first, b'<' | b':' | b'>') {
            return None;
        }
        let rest = b.rest(lt + 3);
        let end = lt + 3 + find_name_end(rest, [b'/', b'>', b'>'], ends_tag_name)?;
        if b.at(end)? != b'>' {
            return None;
        }
        let span = Span {
            start: lt,
            end: end + 1,
        };
        let name = Span { start: lt + 2, end };
        Some((Lexeme::EndTag { span, name }, end + 1))
    }

    /// `<name attr="value" …>` or `…/>` at `lt`, and where it ends; its attributes go into the
    /// attribute list.
    #[inline(always)]
    fn lane_start_tag(&mut self, b: &Window, lt: usize) -> Option<(Lexeme, usize)> {
        let name_start = lt + 1;
        let mut at = name_start
            + 1
            + find_name_end(b.rest(name_start + 1), [b'/', b'>', b'>'], ends_tag_name)?;
        let name = Span {
            start: name_start,
            end: at,
        };
        self.clear_attributes();
        loop {
            let c = b.at(at)?;
            if is_space(c) {
                at += 1;
                continue;
            }
            let self_closing = match c {
                b'>' => false,
                b'/' if b.at(at + 1)? == b'>' => {
                    at += 1;
                    true
                }
                b'/' | b':' | b'=' => return None,
                _ => {
                    at = self.lane_attribute(b, at)?;
                    continue;
                }
            };
            let span = Span {
                start: lt,
                end: at + 1,
            };
            let tag = Lexeme::StartTag {
                span,
                name,
                self_closing,
            };
            return Some((tag, at + 1));
        }
    }

    /// `name="value"` or `name='value'` at `at`: recorded (unless its name repeats a kept one),
    /// and where it ends.
    fn lane_attribute(&mut self, b: &Window, at: usize) -> Option<usize> {
        let ends = |c| ends_tag_name(c) || c == b'=';
        let name_end = at + 1 + find_name_end(b.rest(at + 1), [b'/', b'>', b'='], ends)?;
        let quote = match (b.at(name_end)?, b.at(name_end + 1)?) {
            (b'=', quote @ (b'"' | b'\'')) => quote,
            _ => return None,
        };
        let value_start = name_end + 2;
        let value_end = value_start + find1(quote, b.rest(value_start))?;
        self.tok.data_start = at;
        self.pos = name_end;
        self.finish_attribute_name(b);
        self.tok.data_start = value_start;
        self.set_value(value_end, quote);
        Some(value_end + 1)
    }
}
