//! The direct lane (errors off): text and the common shapes of start, empty and end tags lexed
//! straight from the window, each in one call, without the run loop or records.
//!
//! It mirrors these states, which are its oracle: the data state (§1.3.1), the tag state (§1.3.3),
//! the end tag and end tag name states (§1.3.4–5), the tag name state (§1.3.24), the empty tag
//! state (§1.3.25, for `/>` only), and the tag attribute name before, name, value before and
//! quoted value states (§1.3.26–31) for attributes written `name="value"` or `name='value'`.
//! Anything else (another shape, the end of input) is left to the state functions, which start
//! over at the tag's `<`: the lane changes nothing before it knows the whole token. A tag that
//! the end of a window cuts off (or a `<` that ends it) waits in [`State::TagCut`] at its `<` for
//! the next chunk, which the driver carries it into, and the lane lexes it whole from there.
//! `tests/xml5lib.rs` and `tests/xml5.rs` check that tokens are the same with errors off (the
//! lane) and on (the states only), under every chunking.

use super::tag::{ends_tag_name, find_name_end};
use super::{Machine, State, is_space};
use crate::lex::tag_cut_off;
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
            // The cold functions answer in a flag and the lexeme is built here: one that
            // returned a lexeme through memory made the lane's every lexeme go that way.
            if self.text_ends_input(b) {
                return Lexeme::Text(self.lane_text_to(b.end()));
            }
            return Lexeme::Elsewhere;
        };
        let lt = start + i;
        let lexeme = match b.at(lt + 1) {
            Some(b'/') => self.lane_end_tag(b, lt),
            Some(c) if starts_lane_tag(c) => self.lane_start_tag(b, lt),
            _ => None,
        };
        // The machine's `pos` moved over attribute names: back where it was.
        self.pos = start;
        let Some((tag, end)) = lexeme else {
            if !self.waits_at_cut_tag(b, lt) || lt == self.text_start {
                return Lexeme::Elsewhere;
            }
            return Lexeme::Text(self.lane_text_to(lt));
        };
        if lt == self.text_start {
            return self.lane_leave_at(tag, end);
        }
        // The text before the tag goes out first; the tag is for the next call.
        self.lane_tag = Some((lt, tag, end));
        Lexeme::Text(self.lane_text_to(lt))
    }

    /// The pending text, up to `end`, is handed out; the machine reads on from there.
    #[inline(always)]
    fn lane_text_to(&mut self, end: usize) -> Span {
        let text = Span {
            start: self.text_start,
            end,
        };
        self.pos = end;
        self.text_start = end;
        text
    }

    /// No `<` up to the end of the window: whether the pending text runs to the end of input and
    /// is the last token (the machine is then done). Otherwise the machine stands at the window's
    /// end, where the state functions would have read to, and the seam decides how much of the
    /// text can go out now. Out of line: once a window, where a `<` ends most searches.
    #[cold]
    #[inline(never)]
    fn text_ends_input(&mut self, b: &Window) -> bool {
        let end = b.end();
        self.pos = end;
        let last = b.eof && self.text_start < end;
        if last {
            self.state = State::Eof;
        }
        last
    }

    /// The lane did not lex the tag at `lt`: whether the machine waits at its `<` in
    /// [`State::TagCut`], at the text's end, for the next chunk, which brings the whole tag for
    /// the lane to lex in one go ([`Machine::resume_cut_tag`]). It waits when the end of the
    /// window cut the tag off ([`tag_cut_off`]), or ends at its `<` (the next chunk tells what that
    /// opens); the text before the `<` goes out first: nothing before a `<` decodes differently
    /// for what follows it. Otherwise (the text runs on past the `<`, or the tag is not for the
    /// lane) the state functions read on from the machine's position.
    #[cold]
    #[inline(never)]
    fn waits_at_cut_tag(&mut self, b: &Window, lt: usize) -> bool {
        let for_lane = b.at(lt + 1).is_none_or(starts_lane_tag);
        let waits = for_lane && tag_cut_off(b, lt - b.base);
        if waits {
            self.state = State::TagCut;
            self.pos = lt;
        }
        waits
    }

    /// Whether the state functions would read nothing more from `b` (errors off): the lane left
    /// the data state at the end of a window that is not the last, or waits at a cut tag.
    pub(crate) fn waits_for_next_chunk(&self, b: &Window) -> bool {
        !self.errors_on
            && !b.eof
            && (self.state == State::TagCut || (self.state == State::Data && self.pos == b.end()))
    }

    /// Whether the machine waits at the `<` of a cut tag ([`Machine::waits_at_cut_tag`]); if so,
    /// it is back in the data state at that `<`.
    pub(crate) fn resume_cut_tag(&mut self) -> bool {
        let cut = self.state == State::TagCut;
        if cut {
            self.state = State::Data;
        }
        cut
    }

    /// Wait at the `<` of the cut tag again, the chunk having brought no end for it
    /// ([`Machine::resume_cut_tag`] undone).
    pub(crate) fn wait_for_cut_tag_again(&mut self) {
        self.state = State::TagCut;
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
    /// and where it ends. Out of line: inlined into the driver's token loop, with its name scan,
    /// it made fewer instructions but a slower loop.
    #[inline(never)]
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

/// Whether `c` after a `<` makes it a tag for the lane: a start tag's name (the tag state's
/// anything else), or `/`, an end tag.
#[inline(always)]
fn starts_lane_tag(c: u8) -> bool {
    !(is_space(c) || matches!(c, b':' | b'<' | b'>' | b'?' | b'!'))
}

#[cfg(test)]
mod tests {
    use super::super::{Machine, State};
    use crate::span::{Lexeme, Span, Window};

    /// The lane over `bytes` (not the end of input) from the start: what it hands out first, and
    /// where the machine then stands.
    fn first(bytes: &[u8]) -> (Lexeme, State, usize) {
        let mut machine = Machine::new(false, 0);
        let b = Window {
            bytes,
            base: 0,
            eof: false,
        };
        let lexeme = machine.lex_lane(&b);
        (lexeme, machine.state, machine.pos)
    }

    #[test]
    fn the_lane_waits_at_a_tag_the_window_cuts_off() {
        let text = |end| Lexeme::Text(Span { start: 0, end });
        // A start or end tag cut off, or a `<` or `</` that ends the window: the text before
        // it goes out, and the machine waits at the `<`.
        for (bytes, lt) in [
            (&b"ab<c d='e"[..], 2),
            (b"ab<c", 2),
            (b"ab</c", 2),
            (b"ab<", 2),
            (b"ab</", 2),
        ] {
            assert_eq!(first(bytes), (text(lt), State::TagCut, lt), "{bytes:?}");
        }
        // With no text before it, nothing goes out.
        assert_eq!(first(b"<c d"), (Lexeme::Elsewhere, State::TagCut, 0));
        // The machine then reads the tag whole from the next window.
        let mut machine = Machine::new(false, 0);
        let cut = Window {
            bytes: b"<c d",
            base: 0,
            eof: false,
        };
        machine.lex_lane(&cut);
        assert!(machine.waits_for_next_chunk(&cut));
        assert!(machine.resume_cut_tag());
        let whole = Window {
            bytes: b"<c d='e'>",
            base: 0,
            eof: false,
        };
        let name = Span { start: 1, end: 2 };
        let span = Span { start: 0, end: 9 };
        let tag = Lexeme::StartTag {
            span,
            name,
            self_closing: false,
        };
        assert_eq!(machine.lex_lane(&whole), tag);
        assert_eq!(machine.attrs.len(), 1);
        // A `<` that opens no tag, a tag with its `>` in the window, a PI or markup declaration,
        // the end of input: the state functions read them.
        for bytes in [&b"ab< c"[..], b"ab<c d=e>", b"ab<?p", b"ab<!--"] {
            assert_eq!(
                first(bytes),
                (Lexeme::Elsewhere, State::Data, 0),
                "{bytes:?}"
            );
        }
        // Text to the window's end: the machine stands there, for the seam to flush it.
        assert_eq!(first(b"abc"), (Lexeme::Elsewhere, State::Data, 3));
    }
}
