//! Text states: data, RCDATA, RAWTEXT, script data (with all its escape states), PLAINTEXT and CDATA
//! sections, plus the tag-open states reached from them (HTML Standard §13.2.5.1–31, 69–71).
//!
//! Text is never copied: the machine only moves `pos` over it and remembers where the pending text
//! started. A text record ends where a real token starts, at the end of input, or at a chunk seam
//! (see [`safe_cut`]).

use super::{Flow, Machine, State, is_whitespace};
use crate::error::ErrorCode;
use crate::refs::entities;
use crate::scan::{find1, find2, find3};
use crate::span::{TextKind, Window};

impl Machine {
    /// Pending text ran to the end of the window: at the end of input emit it and stop.
    pub(super) fn end_of_text(&mut self, b: &Window) -> Flow {
        self.pos = b.end();
        if !b.eof {
            return Flow::NeedMore;
        }
        self.state = State::Eof;
        Machine::flow(self.flush_text(b.end(), b.end()))
    }

    /// A NUL in a text state (errors on): report it and the NULs right after it, one error each,
    /// and step over them all.
    fn text_nulls(&mut self, b: &Window) -> Flow {
        self.step_over_nulls(b);
        Flow::Continue
    }

    /// Position of the next `<`, `&` or NUL (errors on) or of the next `<` (errors off).
    fn find_text_stop(&self, rest: &[u8], refs: bool) -> Option<usize> {
        match (self.config.errors, refs) {
            (true, true) => find3(b'<', b'&', 0, rest),
            (true, false) => find2(b'<', 0, rest),
            (false, _) => find1(b'<', rest),
        }
    }

    /// §13.2.5.1 Data state.
    pub(super) fn data_state(&mut self, b: &Window) -> Flow {
        self.text_state(b, true, State::Data, State::TagOpen)
    }

    /// §13.2.5.2 RCDATA state.
    pub(super) fn rcdata_state(&mut self, b: &Window) -> Flow {
        self.text_state(b, true, State::Rcdata, State::RcdataLessThanSign)
    }

    /// §13.2.5.3 RAWTEXT state.
    pub(super) fn rawtext_state(&mut self, b: &Window) -> Flow {
        self.text_state(b, false, State::Rawtext, State::RawtextLessThanSign)
    }

    /// §13.2.5.4 Script data state.
    pub(super) fn script_data_state(&mut self, b: &Window) -> Flow {
        self.text_state(b, false, State::ScriptData, State::ScriptDataLessThanSign)
    }

    /// The four text states that differ only in where `<` leads and whether `&` starts a reference.
    fn text_state(&mut self, b: &Window, refs: bool, this: State, on_lt: State) -> Flow {
        let rest = b.rest(self.pos);
        let Some(i) = self.find_text_stop(rest, refs) else {
            return self.end_of_text(b);
        };
        self.pos += i;
        match rest[i] {
            b'<' => {
                self.mark = self.pos;
                self.pos += 1;
                self.state = on_lt;
                if on_lt == State::TagOpen {
                    // Straight into the tag, not round the run loop.
                    return self.tag_open(b);
                }
                Flow::Continue
            }
            b'&' => {
                // Straight into the character reference state (errors on only), not round the
                // run loop: a page of references is a page of errors to check.
                self.begin_character_reference(this);
                self.character_reference_state(b)
            }
            _ => self.text_nulls(b),
        }
    }

    /// §13.2.5.5 PLAINTEXT state.
    pub(super) fn plaintext_state(&mut self, b: &Window) -> Flow {
        if self.config.errors
            && let Some(i) = find1(0, b.rest(self.pos))
        {
            self.pos += i;
            return self.text_nulls(b);
        }
        self.end_of_text(b)
    }

    /// §13.2.5.6 Tag open state, where the driver loop resumes it (at a window's end).
    #[inline(never)]
    pub(super) fn tag_open_state(&mut self, b: &Window) -> Flow {
        self.tag_open(b)
    }

    /// §13.2.5.6 Tag open state, inlined into the data state, which goes straight on into it.
    #[inline(always)]
    fn tag_open(&mut self, b: &Window) -> Flow {
        let c = match self.current(b) {
            Ok(c) => c,
            Err(flow) => return flow,
        };
        match c {
            Some(b'!') => {
                self.pos += 1;
                self.state = State::MarkupDeclarationOpen;
                Flow::Continue
            }
            Some(b'/') => {
                self.pos += 1;
                self.state = State::EndTagOpen;
                self.end_tag_open_state(b)
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let emitted = self.begin_tag(self.mark, false);
                self.state = State::TagName;
                self.tag_name_unless(emitted, b)
            }
            Some(b'?') => self.question_mark_after_tag_open(),
            None => {
                self.error_here(ErrorCode::EofBeforeTagName);
                self.state = State::Data;
                Flow::Continue
            }
            Some(_) => {
                self.error_here(ErrorCode::InvalidFirstCharacterOfTagName);
                self.state = State::Data;
                Flow::Continue
            }
        }
    }

    /// In the tag name state: go on reading the tag at once, unless the text before it was
    /// `emitted` (then the driver hands that out first).
    #[inline(always)]
    fn tag_name_unless(&mut self, emitted: bool, b: &Window) -> Flow {
        if emitted {
            return Flow::Emit;
        }
        self.tag_name(b)
    }

    /// `<?`: a processing instruction (today's standard) or a bogus comment (before 2026).
    fn question_mark_after_tag_open(&mut self) -> Flow {
        let emitted = self.begin_token(self.mark);
        if self.config.legacy_pi {
            self.error_here(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName);
            self.begin_bogus_comment(self.pos);
        } else {
            self.pos += 1;
            self.state = State::ProcessingInstructionOpen;
        }
        Machine::flow(emitted)
    }

    /// §13.2.5.7 End tag open state.
    pub(super) fn end_tag_open_state(&mut self, b: &Window) -> Flow {
        let c = match self.current(b) {
            Ok(c) => c,
            Err(flow) => return flow,
        };
        match c {
            Some(c) if c.is_ascii_alphabetic() => {
                let emitted = self.begin_tag(self.mark, true);
                self.state = State::TagName;
                self.tag_name_unless(emitted, b)
            }
            Some(b'>') => {
                self.error_here(ErrorCode::MissingEndTagName);
                self.pos += 1;
                self.state = State::Data;
                Machine::flow(self.flush_text(self.mark, self.pos))
            }
            None => {
                self.error_here(ErrorCode::EofBeforeTagName);
                self.state = State::Data;
                Flow::Continue
            }
            Some(_) => {
                self.error_here(ErrorCode::InvalidFirstCharacterOfTagName);
                let emitted = self.begin_token(self.mark);
                self.begin_bogus_comment(self.pos);
                Machine::flow(emitted)
            }
        }
    }

    /// §13.2.5.9/12/15 RCDATA, RAWTEXT and script data less-than sign states (script data has its
    /// own function because `<!` matters there).
    pub(super) fn raw_less_than_sign_state(
        &mut self,
        b: &Window,
        text: State,
        open: State,
    ) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = open;
                Flow::Continue
            }
            Ok(_) => {
                self.state = text;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.10/13/16/24 RCDATA, RAWTEXT, script data (escaped) end tag open states.
    pub(super) fn raw_end_tag_open_state(&mut self, b: &Window, text: State, name: State) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(c)) if c.is_ascii_alphabetic() => {
                self.tok.name_start = self.pos;
                self.state = name;
                Flow::Continue
            }
            Ok(_) => {
                self.state = text;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.11/14/17/25 RCDATA, RAWTEXT, script data (escaped) end tag name states.
    pub(super) fn raw_end_tag_name_state(&mut self, b: &Window, text: State) -> Flow {
        let rest = b.rest(self.pos);
        let run = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        self.pos += run;
        let c = match self.current(b) {
            Ok(c) => c,
            Err(flow) => return flow,
        };
        let ends_name = matches!(c, Some(c) if is_whitespace(c) || c == b'/' || c == b'>');
        if ends_name && self.is_appropriate_end_tag(b) {
            // The end tag is real: emit the text before it and let the tag name state finish it.
            let (lt, name_start) = (self.mark, self.tok.name_start);
            let emitted = self.begin_tag(lt, true);
            self.tok.name_start = name_start;
            self.state = State::TagName;
            return self.tag_name_unless(emitted, b);
        }
        self.state = text;
        Flow::Continue
    }

    /// Whether the end tag name being read matches the last start tag (§13.2.5 "appropriate end tag").
    fn is_appropriate_end_tag(&self, b: &Window) -> bool {
        let name = &b.rest(self.tok.name_start)[..self.pos - self.tok.name_start];
        self.last_start_tag.is_letters_as(name)
    }

    /// §13.2.5.15 Script data less-than sign state.
    pub(super) fn script_data_less_than_sign_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::ScriptDataEndTagOpen;
                Flow::Continue
            }
            Ok(Some(b'!')) => {
                self.pos += 1;
                self.state = State::ScriptDataEscapeStart;
                Flow::Continue
            }
            Ok(_) => {
                self.state = State::ScriptData;
                Flow::Continue
            }
        }
    }

    /// Consume the current byte if it is `-` and go to `then`; otherwise reconsume in `otherwise`.
    fn dash_or(&mut self, b: &Window, then: State, otherwise: State) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'-')) => {
                self.pos += 1;
                self.state = then;
                Flow::Continue
            }
            Ok(_) => {
                self.state = otherwise;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.18 Script data escape start state.
    pub(super) fn script_data_escape_start_state(&mut self, b: &Window) -> Flow {
        self.dash_or(b, State::ScriptDataEscapeStartDash, State::ScriptData)
    }

    /// §13.2.5.19 Script data escape start dash state.
    pub(super) fn script_data_escape_start_dash_state(&mut self, b: &Window) -> Flow {
        self.dash_or(b, State::ScriptDataEscapedDashDash, State::ScriptData)
    }

    /// §13.2.5.20 Script data escaped state, and (with `double`) §13.2.5.27 script data double
    /// escaped state: skip to the next `-`, `<` (or NUL).
    fn escaped_run(&mut self, b: &Window, double: bool) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find3(b'-', b'<', 0, rest)
        } else {
            find2(b'-', b'<', rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            return self.eof_in_script_comment_like_text(b);
        };
        self.pos += i;
        self.escaped_char(rest[i], double)
    }

    /// A `-`, `<` or NUL in one of the script data (double) escaped states.
    fn escaped_char(&mut self, c: u8, double: bool) -> Flow {
        let (dash, lt, plain) = if double {
            (
                State::ScriptDataDoubleEscapedDash,
                State::ScriptDataDoubleEscapedLessThanSign,
                State::ScriptDataDoubleEscaped,
            )
        } else {
            (
                State::ScriptDataEscapedDash,
                State::ScriptDataEscapedLessThanSign,
                State::ScriptDataEscaped,
            )
        };
        match c {
            b'-' => self.state = dash,
            b'<' => {
                self.mark = self.pos;
                self.state = lt;
            }
            _ => {
                self.error_here(ErrorCode::UnexpectedNullCharacter);
                self.state = plain;
            }
        }
        self.pos += 1;
        Flow::Continue
    }

    /// EOF in script data escaped or double escaped states.
    fn eof_in_script_comment_like_text(&mut self, b: &Window) -> Flow {
        if b.eof {
            self.error(ErrorCode::EofInScriptHtmlCommentLikeText, b.end());
        }
        self.end_of_text(b)
    }

    pub(super) fn script_data_escaped_state(&mut self, b: &Window) -> Flow {
        self.escaped_run(b, false)
    }

    /// §13.2.5.21/22 Script data escaped dash (dash) states, and the double-escaped twins
    /// §13.2.5.28/29: `dashes` is how many `-` were just seen.
    fn escaped_dash(&mut self, b: &Window, double: bool, dashes: u8) -> Flow {
        let c = match self.current(b) {
            Ok(Some(c)) => c,
            Ok(None) => return self.eof_in_script_comment_like_text(b),
            Err(flow) => return flow,
        };
        let plain = if double {
            State::ScriptDataDoubleEscaped
        } else {
            State::ScriptDataEscaped
        };
        match c {
            b'-' if dashes == 1 => {
                self.pos += 1;
                self.state = if double {
                    State::ScriptDataDoubleEscapedDashDash
                } else {
                    State::ScriptDataEscapedDashDash
                };
                Flow::Continue
            }
            b'-' => {
                self.pos += 1;
                Flow::Continue
            }
            b'>' if dashes == 2 => {
                self.pos += 1;
                self.state = State::ScriptData;
                Flow::Continue
            }
            b'<' | 0 => self.escaped_char(c, double),
            _ => {
                self.state = plain;
                Flow::Continue
            }
        }
    }

    pub(super) fn script_data_escaped_dash_state(&mut self, b: &Window) -> Flow {
        self.escaped_dash(b, false, 1)
    }

    pub(super) fn script_data_escaped_dash_dash_state(&mut self, b: &Window) -> Flow {
        self.escaped_dash(b, false, 2)
    }

    /// §13.2.5.23 Script data escaped less-than sign state.
    pub(super) fn script_data_escaped_less_than_sign_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'/')) => {
                self.pos += 1;
                self.state = State::ScriptDataEscapedEndTagOpen;
                Flow::Continue
            }
            Ok(Some(c)) if c.is_ascii_alphabetic() => {
                self.temp.clear();
                self.state = State::ScriptDataDoubleEscapeStart;
                Flow::Continue
            }
            Ok(_) => {
                self.state = State::ScriptDataEscaped;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.26 Script data double escape start state, and (`end`) §13.2.5.31 script data double
    /// escape end state: collect letters into the temporary buffer and compare it with "script".
    /// The letters are compared where they are when the name ends in the window (the usual case);
    /// only a name the window's end cuts goes into the temporary buffer.
    fn double_escape_boundary(&mut self, b: &Window, end: bool) -> Flow {
        let rest = b.rest(self.pos);
        let n = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        let letters = &rest[..n];
        self.pos += n;
        let c = match self.current(b) {
            Ok(c) => c,
            Err(flow) => {
                self.temp.extend_lower(letters);
                return flow;
            }
        };
        let (escaped, double) = (State::ScriptDataEscaped, State::ScriptDataDoubleEscaped);
        let (if_script, otherwise) = if end {
            (escaped, double)
        } else {
            (double, escaped)
        };
        match c {
            Some(c) if is_whitespace(c) || c == b'/' || c == b'>' => {
                self.pos += 1;
                self.state = if self.temp_then_is_script(letters) {
                    if_script
                } else {
                    otherwise
                };
            }
            _ => self.state = otherwise,
        }
        Flow::Continue
    }

    /// Whether the temporary buffer followed by `letters` is "script" (in any case).
    fn temp_then_is_script(&mut self, letters: &[u8]) -> bool {
        if self.temp.as_bytes().is_empty() {
            // Letters only: setting bit 5 lowercases them.
            return <[u8; 6]>::try_from(letters).is_ok_and(|w| w.map(|c| c | 0x20) == *b"script");
        }
        self.temp.extend_lower(letters);
        self.temp.as_bytes() == b"script"
    }

    pub(super) fn script_data_double_escape_start_state(&mut self, b: &Window) -> Flow {
        self.double_escape_boundary(b, false)
    }

    pub(super) fn script_data_double_escaped_state(&mut self, b: &Window) -> Flow {
        self.escaped_run(b, true)
    }

    pub(super) fn script_data_double_escaped_dash_state(&mut self, b: &Window) -> Flow {
        self.escaped_dash(b, true, 1)
    }

    pub(super) fn script_data_double_escaped_dash_dash_state(&mut self, b: &Window) -> Flow {
        self.escaped_dash(b, true, 2)
    }

    /// §13.2.5.30 Script data double escaped less-than sign state.
    pub(super) fn script_data_double_escaped_less_than_sign_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'/')) => {
                self.temp.clear();
                self.pos += 1;
                self.state = State::ScriptDataDoubleEscapeEnd;
                Flow::Continue
            }
            Ok(_) => {
                self.state = State::ScriptDataDoubleEscaped;
                Flow::Continue
            }
        }
    }

    pub(super) fn script_data_double_escape_end_state(&mut self, b: &Window) -> Flow {
        self.double_escape_boundary(b, true)
    }

    /// §13.2.5.69 CDATA section state.
    pub(super) fn cdata_section_state(&mut self, b: &Window) -> Flow {
        let Some(i) = find1(b']', b.rest(self.pos)) else {
            if b.eof {
                self.error(ErrorCode::EofInCdata, b.end());
            }
            return self.end_of_text(b);
        };
        self.pos += i;
        self.mark = self.pos;
        self.pos += 1;
        self.state = State::CdataSectionBracket;
        Flow::Continue
    }

    /// §13.2.5.70 CDATA section bracket state.
    pub(super) fn cdata_section_bracket_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b']')) => {
                self.pos += 1;
                self.state = State::CdataSectionEnd;
                Flow::Continue
            }
            Ok(_) => {
                self.state = State::CdataSection;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.71 CDATA section end state.
    pub(super) fn cdata_section_end_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b']')) => {
                self.mark += 1;
                self.pos += 1;
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.pos += 1;
                let emitted = self.flush_text(self.mark, self.pos);
                self.set_text_state(TextKind::Data);
                Machine::flow(emitted)
            }
            Ok(_) => {
                self.state = State::CdataSection;
                Flow::Continue
            }
        }
    }
}

/// How much of pending `text` may be emitted at a chunk seam without changing its decoding: all of it
/// except a trailing CR (a CRLF pair may be split), an incomplete UTF-8 sequence, or (in data and
/// RCDATA) a character reference that the next bytes could still change.
pub(crate) fn safe_cut(text: &[u8], kind: TextKind) -> usize {
    let n = text.len();
    let Some(&last) = text.last() else {
        return 0;
    };
    if last == b'\r' {
        return n - 1;
    }
    // Text that ends in an ASCII byte ends between characters.
    if last >= 0x80
        && let Some(start) = incomplete_utf8_tail(text)
    {
        return start;
    }
    if matches!(kind, TextKind::Data | TextKind::Rcdata)
        && let Some(amp) = open_reference_start(text)
    {
        return amp;
    }
    n
}

/// Start of a UTF-8 sequence that `text` ends in the middle of.
fn incomplete_utf8_tail(text: &[u8]) -> Option<usize> {
    let n = text.len();
    let lead = (n.saturating_sub(4)..n)
        .rev()
        .find(|&i| text[i] & 0xC0 != 0x80)?;
    let need = match text[lead] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    (n - lead < need).then_some(lead)
}

/// Start (the `&`) of a character reference at the end of `text` whose meaning depends on bytes not
/// seen yet: `&`, `&#`, `&#x`, digits that may continue, or a name that may grow into a longer one.
fn open_reference_start(text: &[u8]) -> Option<usize> {
    // Text mostly ends in a space, a newline or punctuation, which no open reference ends in.
    let last = *text.last()?;
    if !(last.is_ascii_alphanumeric() || last == b'&' || last == b'#') {
        return None;
    }
    let n = text.len();
    let p = text
        .iter()
        .rposition(|c| !c.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1);
    let run = n - p;
    let word = &text[p..];
    if p >= 2 && text[p - 1] == b'#' && text[p - 2] == b'&' {
        let digits = match word.first() {
            Some(b'x' | b'X') => word[1..].iter().all(u8::is_ascii_hexdigit),
            _ => word.iter().all(u8::is_ascii_digit),
        };
        return digits.then_some(p - 2);
    }
    if p >= 1 && text[p - 1] == b'#' && run == 0 {
        return (p >= 2 && text[p - 2] == b'&').then(|| p - 2);
    }
    if p >= 1 && text[p - 1] == b'&' {
        let open = run == 0 || entities::match_named(word, false) == entities::NamedMatch::NeedMore;
        return open.then_some(p - 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seams_never_split_what_decodes_together() {
        assert_eq!(safe_cut(b"abc\r", TextKind::Data), 3);
        assert_eq!(safe_cut(b"ab\xE2\x82", TextKind::Rawtext), 2);
        assert_eq!(safe_cut(b"ab\xE2\x82\xAC", TextKind::Rawtext), 5);
        assert_eq!(safe_cut(b"x &am", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &amp;", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &#", TextKind::Rcdata), 2);
        assert_eq!(safe_cut(b"x &#x1F", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &#12z", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &", TextKind::Data), 2);
        assert_eq!(safe_cut(b"x &am", TextKind::ScriptData), 5);
        assert_eq!(safe_cut(b"x &zzzz", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &amp ", TextKind::Data), 7);
        assert_eq!(safe_cut(b"x &#12.", TextKind::Data), 7);
        assert_eq!(safe_cut(b"", TextKind::Data), 0);
    }
}
