//! Comment states: bogus comment, markup declaration open, and the comment states with their
//! less-than-sign and end states (HTML Standard §13.2.5.41–52).
//!
//! A comment's data is always one contiguous run of the source (from `tok.name_start` to just before
//! its closing `-->`, `--!>` or `>`), so it is recorded as a span. The comment less-than-sign states
//! only raise nested-comment; with errors off the comment state skips straight to the next `-`.

use super::{Flow, Machine, State, lookahead};
use crate::error::ErrorCode;
use crate::scan::{find1, find2, find3};
use crate::span::{Record, Span, TextKind, Window};

impl Machine {
    /// Start a bogus comment whose data begins at `data_start`; the cursor byte is reconsumed.
    pub(super) fn begin_bogus_comment(&mut self, data_start: usize) {
        self.tok.name_start = data_start;
        self.state = State::BogusComment;
    }

    /// Emit the comment in progress; its data ends at `data_end`, the token at `end`.
    fn emit_comment(&mut self, data_end: usize, end: usize) -> Flow {
        let data = Span {
            start: self.tok.name_start,
            end: data_end.max(self.tok.name_start),
        };
        let span = Span {
            start: self.tok.start,
            end,
        };
        self.emit_token(Record::comment(span, data), end)
    }

    /// EOF in a comment: eof-in-comment, emit it with data ending `held` bytes before the end (the
    /// dashes or `--!` the state was holding back), then stop.
    fn eof_in_comment(&mut self, b: &Window, held: usize) -> Flow {
        self.error(ErrorCode::EofInComment, b.end());
        let flow = self.emit_comment(b.end().saturating_sub(held), b.end());
        self.state = State::Eof;
        flow
    }

    /// §13.2.5.41 Bogus comment state.
    pub(super) fn bogus_comment_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find2(b'>', 0, rest)
        } else {
            find1(b'>', rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            if !b.eof {
                return Flow::NeedMore;
            }
            let flow = self.emit_comment(b.end(), b.end());
            self.state = State::Eof;
            return flow;
        };
        self.pos += i;
        if rest[i] == 0 {
            self.error_here(ErrorCode::UnexpectedNullCharacter);
            self.pos += 1;
            return Flow::Continue;
        }
        self.emit_comment(self.pos, self.pos + 1)
    }

    /// §13.2.5.42 Markup declaration open state (the cursor is just past `<!`, `mark` on the `<`).
    pub(super) fn markup_declaration_open_state(&mut self, b: &Window) -> Flow {
        // The three words start with different bytes: the first byte picks the one to look for.
        let candidate: Option<(&[u8], bool, u8)> = match b.rest(self.pos).first() {
            Some(b'-') => Some((b"--", false, 0)),
            Some(b'D' | b'd') => Some((b"DOCTYPE", true, 1)),
            Some(b'[') => Some((b"[CDATA[", false, 2)),
            Some(_) => None,
            None if b.eof => None,
            None => return Flow::NeedMore,
        };
        let which = match candidate.map(|(word, fold, w)| (lookahead(b, self.pos, word, fold), w)) {
            Some((None, _)) => return Flow::NeedMore,
            Some((Some(true), w)) => Some(w),
            _ => None,
        };
        let emitted = match which {
            Some(2) if self.cdata_allowed => {
                self.pos += 7;
                let emitted = self.flush_text(self.mark, self.pos);
                self.set_text_state(TextKind::Cdata);
                return Machine::flow(emitted);
            }
            _ => self.begin_token(self.mark),
        };
        match which {
            Some(0) => {
                self.pos += 2;
                self.tok.name_start = self.pos;
                self.state = State::CommentStart;
            }
            Some(1) => {
                self.pos += 7;
                self.state = State::Doctype;
            }
            Some(_) => {
                // Reported at the last character of `[CDATA[`, the one being consumed.
                self.error(ErrorCode::CdataInHtmlContent, self.pos + 6);
                self.begin_bogus_comment(self.pos);
                self.pos += 7;
            }
            None => {
                self.error_here(ErrorCode::IncorrectlyOpenedComment);
                self.begin_bogus_comment(self.pos);
            }
        }
        Machine::flow(emitted)
    }

    /// §13.2.5.43 Comment start state.
    pub(super) fn comment_start_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'-')) => {
                self.pos += 1;
                self.state = State::CommentStartDash;
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_comment(self.tok.name_start, self.pos + 1)
            }
            Ok(_) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.44 Comment start dash state.
    pub(super) fn comment_start_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 1),
            Ok(Some(b'-')) => {
                self.pos += 1;
                self.state = State::CommentEnd;
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_comment(self.tok.name_start, self.pos + 1)
            }
            Ok(_) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.45 Comment state. With errors on, a NUL, and a `<` whose comment less-than sign
    /// states lead straight back here (see [`Machine::pass_comment_less_than_sign`]), are passed
    /// over in a loop of its own, out of line: most comments have neither.
    pub(super) fn comment_state(&mut self, b: &Window) -> Flow {
        match self.comment_step(b, self.pos) {
            Ok(flow) => flow,
            Err(next) => self.comment_steps(b, next),
        }
    }

    /// [`Machine::comment_state`] from `pos` on, for as long as it stays in the comment state.
    #[inline(never)]
    fn comment_steps(&mut self, b: &Window, mut pos: usize) -> Flow {
        loop {
            match self.comment_step(b, pos) {
                Ok(flow) => return flow,
                Err(next) => pos = next,
            }
        }
    }

    /// The comment state at `pos`: what to do next, or `Err(offset)` when the state goes on at
    /// that offset (a NUL or a `<` passed over).
    #[inline(always)]
    fn comment_step(&mut self, b: &Window, pos: usize) -> Result<Flow, usize> {
        let rest = b.rest(pos);
        let hit = if self.config.errors {
            find3(b'-', b'<', 0, rest)
        } else {
            find1(b'-', rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            return Ok(if b.eof {
                self.eof_in_comment(b, 0)
            } else {
                Flow::NeedMore
            });
        };
        let at = pos + i;
        match rest[i] {
            b'-' => self.state = State::CommentEndDash,
            b'<' => match self.pass_comment_less_than_sign(&rest[i + 1..], at) {
                Some(next) => return Err(next),
                None => self.state = State::CommentLessThanSign,
            },
            _ => {
                self.error(ErrorCode::UnexpectedNullCharacter, at);
                return Err(at + 1);
            }
        }
        self.pos = at + 1;
        Ok(Flow::Continue)
    }

    /// The comment less-than sign states (§13.2.5.46–49) run ahead from the `<` at `at`, followed
    /// by `after`, in the cases where they end by reconsuming a byte in the comment state: `<` then
    /// anything but `!` (a second `<` starts the same states again), and a nested `<!--` then
    /// anything but `>`, `-` or `!` (nested-comment; the comment end state hands that byte back).
    /// Returns the offset of the byte to reconsume, or `None` (with nothing done) when the states
    /// must run one by one.
    #[inline(always)]
    fn pass_comment_less_than_sign(&mut self, after: &[u8], at: usize) -> Option<usize> {
        match after {
            [b'!', b'-', b'-', c, ..] if !matches!(c, b'>' | b'-' | b'!') => {
                self.error(ErrorCode::NestedComment, at + 4);
                Some(at + 4)
            }
            [c, ..] if *c != b'!' => Some(at + 1),
            _ => None,
        }
    }

    /// §13.2.5.46 Comment less-than sign state.
    pub(super) fn comment_less_than_sign_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(b'!')) => {
                self.pos += 1;
                self.state = State::CommentLessThanSignBang;
                Flow::Continue
            }
            Ok(Some(b'<')) => {
                self.pos += 1;
                Flow::Continue
            }
            Ok(_) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.47 Comment less-than sign bang state.
    pub(super) fn comment_less_than_sign_bang_state(&mut self, b: &Window) -> Flow {
        self.comment_dash_or(b, State::CommentLessThanSignBangDash, State::Comment)
    }

    /// §13.2.5.48 Comment less-than sign bang dash state.
    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self, b: &Window) -> Flow {
        self.comment_dash_or(
            b,
            State::CommentLessThanSignBangDashDash,
            State::CommentEndDash,
        )
    }

    /// Consume a `-` into `then`, or reconsume in `otherwise`.
    fn comment_dash_or(&mut self, b: &Window, then: State, otherwise: State) -> Flow {
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

    /// §13.2.5.49 Comment less-than sign bang dash dash state.
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None | Some(b'>')) => {
                self.state = State::CommentEnd;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.error_here(ErrorCode::NestedComment);
                self.state = State::CommentEnd;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.50 Comment end dash state.
    pub(super) fn comment_end_dash_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 1),
            Ok(Some(b'-')) => {
                self.pos += 1;
                self.state = State::CommentEnd;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.51 Comment end state.
    pub(super) fn comment_end_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 2),
            Ok(Some(b'>')) => self.emit_comment(self.pos - 2, self.pos + 1),
            Ok(Some(b'!')) => {
                self.pos += 1;
                self.state = State::CommentEndBang;
                Flow::Continue
            }
            Ok(Some(b'-')) => {
                // Each `-` stays in this state: a run of them is one step.
                self.pos += b.run_of(b'-', self.pos);
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.52 Comment end bang state.
    pub(super) fn comment_end_bang_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_comment(b, 3),
            Ok(Some(b'-')) => {
                self.pos += 1;
                self.state = State::CommentEndDash;
                Flow::Continue
            }
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::IncorrectlyClosedComment);
                self.emit_comment(self.pos - 3, self.pos + 1)
            }
            Ok(Some(_)) => {
                self.state = State::Comment;
                Flow::Continue
            }
        }
    }
}
