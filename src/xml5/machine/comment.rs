//! Markup declaration, comment and bogus comment states (XML5 draft §1.3.12–20, 34), with the
//! comment start states of HTML that xml5lib-tests follows (`<!-->` and `<!--->` are empty
//! comments and an error).
//!
//! A comment's data is one span: from after `<!--` to the dashes (and `!`) that close it, or at the
//! end of input to the dashes the state it ends in has not appended yet.

use super::{Flow, Machine, State};
use crate::error::ErrorCode;
use crate::lex::lookahead;
use crate::scan::{find1, find2};
use crate::span::{DoctypeRecord, Record, Span, TextKind, Window};

impl Machine {
    /// §1.3.12 Markup declaration state: after `<!`. The keywords are matched ASCII
    /// case-insensitively, as xml5lib-tests expects.
    pub(super) fn markup_declaration_state(&mut self, b: &Window) -> Flow {
        for (word, fold) in [(&b"--"[..], false), (b"[CDATA[", true), (b"DOCTYPE", true)] {
            match lookahead(b, self.pos, word, fold) {
                None => return Flow::NeedMore,
                Some(false) => continue,
                Some(true) => {
                    self.pos += word.len();
                    self.state = match word[0] {
                        b'-' => {
                            self.tok.name_start = self.pos;
                            State::CommentStart
                        }
                        b'[' => {
                            self.text_start = self.pos;
                            self.text_kind = TextKind::Cdata;
                            State::Cdata
                        }
                        _ => {
                            self.doctype = DoctypeRecord::default();
                            State::Doctype
                        }
                    };
                    return Flow::Continue;
                }
            }
        }
        self.error_here(ErrorCode::IncorrectlyOpenedComment);
        self.tok.name_start = self.pos;
        self.state = State::BogusComment;
        Flow::Continue
    }

    /// Emit the comment in progress, its data ending at `data_end`, the token before `end`.
    fn emit_comment(&mut self, data_end: usize, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        let data = Span {
            start: self.tok.name_start,
            end: data_end.max(self.tok.name_start),
        };
        self.emit_token(Record::comment(span, data), end)
    }

    /// The end of input in a comment: an error, and the comment goes out without the `held`
    /// dashes (and `!`) at its end.
    fn eof_in_comment(&mut self, b: &Window, held: usize) -> Flow {
        self.error(ErrorCode::EofInComment, b.end());
        self.emit_comment(b.end().saturating_sub(held), b.end())
    }

    /// Reconsume the current input character in `state`.
    fn reconsume_in(&mut self, state: State) -> Flow {
        self.state = state;
        Flow::Continue
    }

    /// Consume the current input character and go to `state`.
    fn consume_to(&mut self, state: State) -> Flow {
        self.pos += 1;
        self.state = state;
        Flow::Continue
    }

    /// Comment start state (HTML's, as the suite expects).
    pub(super) fn comment_start_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 0),
            Ok(Some(b'-')) => self.consume_to(State::CommentStartDash),
            Ok(Some(b'>')) => self.abrupt_closing_of_empty_comment(),
            Ok(Some(_)) => self.reconsume_in(State::Comment),
        }
    }

    /// Comment start dash state (HTML's, as the suite expects).
    pub(super) fn comment_start_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 1),
            Ok(Some(b'-')) => self.consume_to(State::CommentEnd),
            Ok(Some(b'>')) => self.abrupt_closing_of_empty_comment(),
            Ok(Some(_)) => self.reconsume_in(State::Comment),
        }
    }

    /// `<!-->` or `<!--->`: an empty comment, and an error.
    fn abrupt_closing_of_empty_comment(&mut self) -> Flow {
        self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
        self.emit_comment(self.tok.name_start, self.pos + 1)
    }

    /// §1.3.13 Comment state.
    pub(super) fn comment_state(&mut self, b: &Window) -> Flow {
        match self.skip_to(b, |rest| find2(b'<', b'-', rest)) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 0),
            Ok(Some(b'<')) => self.consume_to(State::CommentLessThanSign),
            Ok(Some(_)) => self.consume_to(State::CommentEndDash),
        }
    }

    /// §1.3.14 Comment less-than sign state.
    pub(super) fn comment_less_than_sign_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'!')) => self.consume_to(State::CommentLessThanSignBang),
            Ok(Some(b'<')) => self.consume_to(State::CommentLessThanSign),
            Ok(_) => self.reconsume_in(State::Comment),
        }
    }

    /// §1.3.15 Comment less-than sign bang state.
    pub(super) fn comment_less_than_sign_bang_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'-')) => self.consume_to(State::CommentLessThanSignBangDash),
            Ok(_) => self.reconsume_in(State::Comment),
        }
    }

    /// §1.3.16 Comment less-than sign bang dash state.
    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'-')) => self.consume_to(State::CommentLessThanSignBangDashDash),
            Ok(_) => self.reconsume_in(State::CommentEndDash),
        }
    }

    /// §1.3.17 Comment less-than sign bang dash dash state: `<!--` inside a comment.
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None | Some(b'>')) => self.reconsume_in(State::CommentEnd),
            Ok(Some(_)) => {
                self.error_here(ErrorCode::NestedComment);
                self.reconsume_in(State::CommentEnd)
            }
        }
    }

    /// §1.3.18 Comment end dash state.
    pub(super) fn comment_end_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 1),
            Ok(Some(b'-')) => self.consume_to(State::CommentEnd),
            Ok(Some(_)) => self.reconsume_in(State::Comment),
        }
    }

    /// §1.3.19 Comment end state: after `--`.
    pub(super) fn comment_end_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 2),
            Ok(Some(b'>')) => self.emit_comment(self.pos - 2, self.pos + 1),
            Ok(Some(b'!')) => self.consume_to(State::CommentEndBang),
            Ok(Some(b'-')) => self.consume_to(State::CommentEnd),
            Ok(Some(_)) => self.reconsume_in(State::Comment),
        }
    }

    /// §1.3.20 Comment end bang state: after `--!`.
    pub(super) fn comment_end_bang_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 3),
            Ok(Some(b'-')) => self.consume_to(State::CommentEndDash),
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::IncorrectlyClosedComment);
                self.emit_comment(self.pos - 3, self.pos + 1)
            }
            Ok(Some(_)) => self.reconsume_in(State::Comment),
        }
    }

    /// §1.3.34 Bogus comment state: everything up to `>` or the end of input.
    pub(super) fn bogus_comment_state(&mut self, b: &Window) -> Flow {
        match self.skip_to(b, |rest| find1(b'>', rest)) {
            Err(flow) => flow,
            Ok(None) => self.emit_comment(b.end(), b.end()),
            Ok(Some(_)) => self.emit_comment(self.pos, self.pos + 1),
        }
    }
}
