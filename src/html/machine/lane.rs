//! The direct lane: text and plain tags lexed straight into [`Lexeme`]s (errors off).
//!
//! Most of a page is text and tags like `<name attr="value" attr=value attr>` or `</name>`. In the
//! data state, with parse errors off, the iterator asks this lane first: it runs the data, tag open,
//! end tag open, tag name and attribute states (§13.2.5.1, 6–8, 32–39) in one loop over the window,
//! with the same transitions and actions as the state functions, and hands back the finished
//! token's spans without going through the machine's records. At the first thing it does not handle
//! (`<!` other than a comment, `<?`, `</` without a letter, `/` not followed by `>`, `=` where a
//! name should start, a name with NUL or non-ASCII bytes, the end of the window) it gives up with
//! the machine in the data state at that tag's `<`, and the state functions take over from exactly
//! there. Each byte is therefore read at most twice, and the tokens are the state functions'
//! tokens.
//!
//! The raw lane does the same for RCDATA, RAWTEXT and script data (§13.2.5.2–4, 9–17): it looks
//! at each `<` once to tell text from the appropriate end tag, instead of stepping through the
//! less-than sign, end tag open and end tag name states, and leaves `<!--` in script data (the
//! escape states) to the state functions. Comments are read in one pass as well, to the first
//! `-->` or `--!>` (§13.2.5.42–52).
//!
//! The state functions are the lanes' oracle: with parse errors on, no lane runs, so the same
//! input with errors on and off must give the same tokens. `tests/html5lib.rs` checks the suite's
//! tokens with errors off (lanes) as well as on, whole and split at every offset, and the fuzz
//! target `tokenize` toggles errors on every input (fuzz/src/lib.rs).

use super::tag::{ATTR_NAME_STOP, TAG_NAME_STOP, UNQUOTED_STOP};
use super::{Machine, ShortName, State, is_whitespace, skip_whitespace};
use crate::lex::tag_cut_off;
use crate::scan::{find_in_set, find_name_end, find1};
use crate::span::{AttrRecord, Lexeme, Span, TextKind, Window, run_of};

/// What follows a `<` in RCDATA, RAWTEXT or script data, as the raw lane sees it.
enum RawLookahead {
    /// The `<` is text.
    Text,
    /// The `<` opens the appropriate end tag; `closed`: its name ends at `>`.
    EndTag { closed: bool },
    /// The state functions decide: `<!--` in script data (the escape states), or the window
    /// ends before it is clear.
    States,
}

/// Why a tag left the lane: the state functions redo it from its `<`.
struct GiveUp;

impl Machine {
    /// Whether the next token may come from the lane: data state, errors off.
    #[inline(always)]
    pub(crate) fn lane_open(&self) -> bool {
        self.state == State::Data && !self.config.errors
    }

    /// §13.2.5.1 Data state with errors off: the next text or plain tag, or [`Lexeme::Elsewhere`].
    #[inline]
    pub(crate) fn lex_lane(&mut self, b: &Window) -> Lexeme {
        // After text that ended at a tag, the tag is where the text ended: no need to find it.
        let (lt, is_end_tag) = if self.known_tag.0 == self.pos {
            (self.pos - b.base, self.known_tag.1)
        } else {
            match self.find_tag(b) {
                Ok(tag) => tag,
                Err(lexeme) => return lexeme,
            }
        };
        self.lane_text_or_tag(b, lt, is_end_tag)
    }

    /// The window index of the next `<` that opens a tag whose name starts with a letter, and
    /// whether it is an end tag; or what to hand out when something else comes first.
    #[inline(always)]
    fn find_tag(&mut self, b: &Window) -> Result<(usize, bool), Lexeme> {
        let bytes = b.bytes;
        let mut i = self.pos - b.base;
        loop {
            // Tags back to back need no search.
            let n = if bytes.get(i) == Some(&b'<') {
                0
            } else {
                match find1(b'<', &bytes[i..]) {
                    Some(n) => n,
                    None => return Err(self.lane_end_of_text(b)),
                }
            };
            let lt = i + n;
            let is_end_tag = match bytes.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => false,
                Some(b'/') if bytes.get(lt + 2).is_some_and(u8::is_ascii_alphabetic) => true,
                // `<!` and `<?` always start a token (comment, DOCTYPE, CDATA, processing
                // instruction), so the text ends here; `</` without a letter may not.
                Some(b'!' | b'?') => return Err(self.lane_text_or_comment(b, lt)),
                Some(b'/') | None => return Err(self.elsewhere(b.base + lt)),
                Some(_) => {
                    i = lt + 1;
                    continue;
                }
            };
            return Ok((lt, is_end_tag));
        }
    }

    /// No `<` up to the end of the window: at the end of input the pending text is the last
    /// token; otherwise the state functions decide how much of it can go out now.
    fn lane_end_of_text(&mut self, b: &Window) -> Lexeme {
        let end = b.end();
        if b.eof && self.text_start < end {
            self.state = State::Eof;
            return Lexeme::Text(self.lane_text_to(end));
        }
        self.elsewhere(end)
    }

    /// The lane gave up on the tag at window index `lt`: if the end of the window cuts it off
    /// (no `>` after it, more input to come), wait in [`State::TagCut`] at its `<` instead of
    /// lexing half of it now. No tag state emits anything before a `>`, so the state functions
    /// would only have read on to the end of the window; the next chunk brings the whole tag,
    /// for the lane to lex in one go ([`Machine::resume_cut_tag`]).
    #[cold]
    #[inline(never)]
    fn wait_for_cut_tag(&mut self, b: &Window, lt: usize) {
        if tag_cut_off(b, lt) {
            self.state = State::TagCut;
        }
    }

    /// Whether the machine waits at the `<` of a cut tag ([`Machine::wait_for_cut_tag`]); if so,
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

    /// The state functions continue in the data state at `pos`.
    fn elsewhere(&mut self, pos: usize) -> Lexeme {
        self.pos = pos;
        Lexeme::Elsewhere
    }

    /// Hand out the pending text that ends at the `<!` or `<?` at window index `lt`, or else
    /// the comment that opens there, or continue elsewhere.
    fn lane_text_or_comment(&mut self, b: &Window, lt: usize) -> Lexeme {
        let at = b.base + lt;
        if self.text_start < at {
            return Lexeme::Text(self.lane_text_to(at));
        }
        self.lane_comment(b, lt)
    }

    /// §13.2.5.42–52 with errors off, from the markup declaration open state: the comment that
    /// opens at window index `lt`, if it is one and ends in the window or at the end of input;
    /// if the window cuts it off, it waits for the next chunk in [`State::TagCut`]; otherwise
    /// the state functions go on from its `<`. It ends at the first `-->` or `--!>`
    /// after `<!--`, or at once in `<!-->` and `<!--->`: each way through the comment states
    /// reaches the comment end state at the second dash of `--` and leaves it only at `>` (or
    /// `!>`) or at a byte that is data.
    #[inline(never)]
    fn lane_comment(&mut self, b: &Window, lt: usize) -> Lexeme {
        let bytes = b.bytes;
        let start = lt + 4;
        if bytes.get(lt + 1..start) != Some(b"!--") {
            return self.elsewhere(b.base + lt);
        }
        // Where the data ends, and the comment (one past its `>`, or the end of input).
        let (data_end, end) = match &bytes[start..] {
            [b'>', ..] => (start, start + 1),
            [b'-', b'>', ..] => (start, start + 2),
            rest => match comment_end(rest) {
                Some((data_end, gt)) => (start + data_end, start + gt + 1),
                None if b.eof => {
                    self.state = State::Eof;
                    (start + comment_data_at_eof(rest), bytes.len())
                }
                // The window cuts the comment off: no comment state emits anything before its
                // end, so it waits for the next chunk as a cut tag does.
                None => {
                    self.state = State::TagCut;
                    return self.elsewhere(b.base + lt);
                }
            },
        };
        let span = Span {
            start: b.base + lt,
            end: b.base + end,
        };
        let data = Span {
            start: b.base + start,
            end: b.base + data_end,
        };
        self.lane_advance(span.end);
        Lexeme::Comment { span, data }
    }

    /// A tag opens at window index `lt`: the pending text before it, or else the tag.
    #[inline(always)]
    fn lane_text_or_tag(&mut self, b: &Window, lt: usize, is_end_tag: bool) -> Lexeme {
        let at = b.base + lt;
        if self.text_start < at {
            // The text first, then (at the next call) the tag itself.
            self.known_tag = (at, is_end_tag);
            return Lexeme::Text(self.lane_text_to(at));
        }
        match self.lane_tag(b, lt, is_end_tag) {
            Ok(lexeme) => lexeme,
            Err(GiveUp) => {
                // The state functions lex the tag again; what the lane recorded goes.
                self.attrs.clear();
                self.wait_for_cut_tag(b, lt);
                self.elsewhere(at)
            }
        }
    }

    /// The pending text, up to stream offset `end`, is handed out.
    #[inline(always)]
    fn lane_text_to(&mut self, end: usize) -> Span {
        let text = Span {
            start: self.text_start,
            end,
        };
        self.lane_advance(end);
        text
    }

    /// Everything up to `end` has been handed out.
    #[inline(always)]
    fn lane_advance(&mut self, end: usize) {
        self.pos = end;
        self.text_start = end;
        self.resume = end;
    }

    /// Whether the next token may come from the raw lane: RCDATA, RAWTEXT or script data (not
    /// its escaped states), errors off.
    #[inline(always)]
    pub(crate) fn raw_lane_open(&self) -> bool {
        matches!(
            self.state,
            State::Rcdata | State::Rawtext | State::ScriptData
        ) && !self.config.errors
    }

    /// §13.2.5.2–4 RCDATA, RAWTEXT and script data states with errors off, with their less-than
    /// sign, end tag open and end tag name states (§13.2.5.9–17) decided by looking ahead at each
    /// `<`: the pending text up to the appropriate end tag ([`Lexeme::RawText`]), or with no text
    /// before it, the end tag itself when its name ends at `>`. The machine is left in the data
    /// state at the end tag's `<` or after it (in the data state the tag reads as it does from
    /// the end tag name state: its name is all letters and ends at whitespace, `/` or `>`).
    /// [`Lexeme::Elsewhere`]: the state functions go on from the machine's position (`<!--` in
    /// script data, a window that ends too soon to tell, an end tag with more than its name).
    pub(crate) fn lex_raw_lane(&mut self, b: &Window) -> Lexeme {
        let bytes = b.bytes;
        let script = self.state == State::ScriptData;
        let mut i = self.pos - b.base;
        loop {
            let Some(n) = find1(b'<', &bytes[i..]) else {
                return self.elsewhere(b.end());
            };
            let lt = i + n;
            match raw_lookahead(&bytes[lt + 1..], &self.last_start_tag, script) {
                RawLookahead::Text => i = lt + 1,
                RawLookahead::EndTag { closed } => return self.raw_end_tag(b.base + lt, closed),
                RawLookahead::States => return self.elsewhere(b.base + lt),
            }
        }
    }

    /// The appropriate end tag opens at stream offset `at` (`closed`: `>` follows its name): the
    /// machine goes to the data state there, and the lane hands out the text before the tag, or
    /// else the tag.
    fn raw_end_tag(&mut self, at: usize, closed: bool) -> Lexeme {
        let kind = self.text_kind;
        self.set_text_state(TextKind::Data);
        if self.text_start < at {
            self.known_tag = (at, true);
            return Lexeme::RawText(self.lane_text_to(at), kind);
        }
        if !closed {
            return self.elsewhere(at);
        }
        let name = Span {
            start: at + 2,
            end: at + 2 + self.last_start_tag.as_bytes().len(),
        };
        let span = Span {
            start: at,
            end: name.end + 1,
        };
        self.lane_advance(span.end);
        Lexeme::EndTag { span, name }
    }

    /// Tag open, end tag open and tag name states (§13.2.5.6–8) for the tag at window index `lt`
    /// whose name starts with a letter.
    fn lane_tag(&mut self, b: &Window, lt: usize, is_end_tag: bool) -> Result<Lexeme, GiveUp> {
        let bytes = b.bytes;
        self.attrs.clear();
        let name_start = lt + 1 + usize::from(is_end_tag);
        // Tag names with control or non-ASCII bytes are the state functions' to read.
        let n = find_name_end(b'/', b'>', b'>', &bytes[name_start + 1..]).ok_or(GiveUp)?;
        let name_end = name_start + 1 + n;
        let (close, self_closing) = match bytes[name_end] {
            b'>' => (name_end, false),
            b'/' => (self.lane_solidus(bytes, name_end)?, true),
            c if TAG_NAME_STOP.contains(c) => self.lane_attributes(b, name_end + 1)?,
            _ => return Err(GiveUp),
        };
        let span = Span {
            start: b.base + lt,
            end: b.base + close + 1,
        };
        let name = Span {
            start: b.base + name_start,
            end: b.base + name_end,
        };
        self.lane_advance(span.end);
        if is_end_tag {
            return Ok(Lexeme::EndTag { span, name });
        }
        self.settle_attributes(b);
        self.last_start_tag_span = Some(name);
        Ok(Lexeme::StartTag {
            span,
            name,
            self_closing,
        })
    }

    /// The tag being lexed has many repeated attributes
    /// ([`LANE_LOOK_AHEAD`](super::tag::LANE_LOOK_AHEAD)): whether no `>` follows window index
    /// `i`, so that it cannot end in this window. At the end of input the tag is then dropped
    /// here (eof-in-tag, with nothing to hand out: errors are off in the lane), and the state
    /// functions find the machine done; otherwise they read the tag.
    #[cold]
    #[inline(never)]
    fn lane_tag_cannot_end(&mut self, b: &Window, i: usize) -> bool {
        if find1(b'>', &b.bytes[i..]).is_some() {
            return false;
        }
        if b.eof {
            self.drop_token_at_eof(b);
        }
        true
    }

    /// A `/` at window index `i` (§13.2.5.40): `/>` closes a self-closing tag at `i + 1`.
    fn lane_solidus(&self, bytes: &[u8], i: usize) -> Result<usize, GiveUp> {
        match bytes.get(i + 1) {
            Some(b'>') => Ok(i + 1),
            _ => Err(GiveUp),
        }
    }

    /// §13.2.5.32–39 from the before attribute name state at window index `i`: the index of the
    /// tag's `>` and whether the tag is self-closing.
    fn lane_attributes(&mut self, b: &Window, mut i: usize) -> Result<(usize, bool), GiveUp> {
        let bytes = b.bytes;
        loop {
            // Before attribute name.
            i = skip_whitespace(bytes, i);
            let c = *bytes.get(i).ok_or(GiveUp)?;
            match c {
                b'>' => return Ok((i, false)),
                b'/' => return Ok((self.lane_solidus(bytes, i)?, true)),
                b'=' | 0 | 0x80.. => return Err(GiveUp),
                _ => {}
            }
            // Attribute name: plain ASCII names only (no control bytes, no NUL).
            let n = find_name_end(b'/', b'>', b'=', &bytes[i + 1..]).ok_or(GiveUp)?;
            let name = Span {
                start: b.base + i,
                end: b.base + i + 1 + n,
            };
            i += 1 + n;
            let mut c = bytes[i];
            if !ATTR_NAME_STOP.contains(c) {
                return Err(GiveUp);
            }
            if is_whitespace(c) {
                // After attribute name.
                i = skip_whitespace(bytes, i);
                c = *bytes.get(i).ok_or(GiveUp)?;
            }
            // Each way on ends at a `>`, a `/`, or the next name, which the before attribute name
            // state at the loop's top takes: so there is one place that records the attribute.
            let record = if c == b'=' {
                // Before attribute value. Mostly `"` follows `=` at once: that case is tested
                // first, not dispatched with the others.
                i += 1;
                let (value, quote, next) = if bytes.get(i) == Some(&b'"') {
                    lane_quoted_value(b, i, b'"')?
                } else {
                    i = skip_whitespace(bytes, i);
                    match *bytes.get(i).ok_or(GiveUp)? {
                        b'>' => (Span::empty(name.end), 0, i),
                        // One arm per quote, so that each search has its needle as a constant.
                        b'"' => lane_quoted_value(b, i, b'"')?,
                        b'\'' => lane_quoted_value(b, i, b'\'')?,
                        _ => lane_unquoted_value(b, i)?,
                    }
                };
                i = next;
                AttrRecord { name, value, quote }
            } else {
                AttrRecord::without_value(name)
            };
            if self.attrs.add_unchecked(record, b) && self.lane_tag_cannot_end(b, i) {
                return Err(GiveUp);
            }
        }
    }
}

/// Attribute value (quoted) from the quote at window index `i` (§13.2.5.36–37), then the after
/// attribute value (quoted) state (§13.2.5.39): the value, its quote, and where the before
/// attribute name state goes on.
#[inline(always)]
fn lane_quoted_value(b: &Window, i: usize, quote: u8) -> Result<(Span, u8, usize), GiveUp> {
    let bytes = b.bytes;
    let start = i + 1;
    let n = find1(quote, &bytes[start..]).ok_or(GiveUp)?;
    let value = Span {
        start: b.base + start,
        end: b.base + start + n,
    };
    let after = start + n + 1;
    match bytes.get(after) {
        // `>`, `/` and whitespace are the before attribute name state's to handle; anything
        // else starts the next attribute (missing-whitespace-between-attributes).
        Some(_) => Ok((value, quote, after)),
        None => Err(GiveUp),
    }
}

/// §13.2.5.38 Attribute value (unquoted) from window index `i`: the value, no quote, and where the
/// before attribute name state goes on.
#[inline(always)]
fn lane_unquoted_value(b: &Window, i: usize) -> Result<(Span, u8, usize), GiveUp> {
    let n = find_in_set(&UNQUOTED_STOP, &b.bytes[i..]).ok_or(GiveUp)?;
    let value = Span {
        start: b.base + i,
        end: b.base + i + n,
    };
    Ok((value, 0, i + n))
}

/// What the `<` before `after` starts in RCDATA, RAWTEXT or script data (`script`), given the
/// last start tag's name `last` (§13.2.5.9–17): an end tag only if its name, all letters, is
/// `last` and whitespace, `/` or `>` follows it.
fn raw_lookahead(after: &[u8], last: &ShortName, script: bool) -> RawLookahead {
    match after.first() {
        Some(b'/') => {
            let Some(&[ref name @ .., next]) = after.get(1..last.as_bytes().len() + 2) else {
                return RawLookahead::States;
            };
            let appropriate =
                last.is_letters_as(name) && (is_whitespace(next) || next == b'/' || next == b'>');
            if appropriate {
                RawLookahead::EndTag {
                    closed: next == b'>',
                }
            } else {
                RawLookahead::Text
            }
        }
        Some(b'!') if script => match after.get(1..3) {
            Some(b"--") | None => RawLookahead::States,
            Some(_) => RawLookahead::Text,
        },
        Some(_) => RawLookahead::Text,
        None => RawLookahead::States,
    }
}

/// How much of `rest`, the comment's bytes after `<!--` up to the end of input, is its data: the
/// comment states hold back the dashes of a possible end (`-`, `--`, `--!`) until the next byte,
/// and at the end of input they drop them (§13.2.5.43–52, end of file).
fn comment_data_at_eof(rest: &[u8]) -> usize {
    let held = if rest.ends_with(b"--!") {
        3
    } else if rest.ends_with(b"--") {
        2
    } else {
        usize::from(rest.ends_with(b"-"))
    };
    rest.len() - held
}

/// In comment data `data`, where the first `-->` or `--!>` starts and the index of its `>`. A run
/// of dashes is one step (the comment end state stays put on each dash after the second).
fn comment_end(data: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    loop {
        let dash = i + find1(b'-', &data[i..])?;
        if data.get(dash + 1) != Some(&b'-') {
            i = dash + 1;
            continue;
        }
        let after = dash + 2 + run_of(b'-', &data[dash + 2..]);
        match data.get(after..) {
            Some([b'>', ..]) => return Some((after - 2, after)),
            Some([b'!', b'>', ..]) => return Some((after - 2, after + 1)),
            _ => i = after,
        }
    }
}
