//! Processing instruction states (XML5 draft §1.3.7–11). The XML declaration is a processing
//! instruction with target `xml`.
//!
//! The data is every byte from the first one after the target's whitespace to the `?` of the
//! closing `?>`, as XML 1.0 has it: a `?` inside the data stays (`<?xml ?m?>` has data `?m`).
//! xml5lib-tests expects `m` there (its one disputed case); the draft's pi after state appends
//! the `?` too.

use super::{Flow, Machine, State, is_space};
use crate::error::ErrorCode;
use crate::scan::find1;
use crate::span::{Record, Span, Window};

impl Machine {
    /// §1.3.7 Pi state: after `<?`. Whitespace (or the end of input) there makes a bogus comment.
    pub(super) fn pi_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(c) => {
                self.tok.name_start = self.pos;
                match c {
                    Some(c) if !is_space(c) => {
                        self.pos += 1;
                        self.state = State::PiTarget;
                    }
                    Some(_) => {
                        self.error_here(
                            ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
                        );
                        self.state = State::BogusComment;
                    }
                    None => {
                        self.error_here(ErrorCode::EofInProcessingInstruction);
                        self.state = State::BogusComment;
                    }
                }
                Flow::Continue
            }
        }
    }

    /// §1.3.8 Pi target state.
    pub(super) fn pi_target_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| {
            rest.iter().position(|&c| is_space(c) || c == b'?')
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        self.tok.name_end = self.pos;
        self.tok.data_start = self.pos;
        match c {
            None => self.eof_in_pi(b, b.end()),
            Some(b'?') => {
                self.pos += 1;
                self.state = State::PiAfter;
                Flow::Continue
            }
            Some(_) => {
                self.pos += 1;
                self.state = State::PiTargetAfter;
                Flow::Continue
            }
        }
    }

    /// §1.3.9 Pi target after state.
    pub(super) fn pi_target_after_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| rest.iter().position(|&c| !is_space(c)));
        match found {
            Err(flow) => flow,
            Ok(None) => {
                self.tok.data_start = b.end();
                self.eof_in_pi(b, b.end())
            }
            Ok(Some(_)) => {
                self.tok.data_start = self.pos;
                self.state = State::PiData;
                Flow::Continue
            }
        }
    }

    /// §1.3.10 Pi data state.
    pub(super) fn pi_data_state(&mut self, b: &Window) -> Flow {
        match self.skip_to(b, |rest| find1(b'?', rest)) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_pi(b, b.end()),
            Ok(Some(_)) => {
                self.pos += 1;
                self.state = State::PiAfter;
                Flow::Continue
            }
        }
    }

    /// §1.3.11 Pi after state: after a `?`.
    pub(super) fn pi_after_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_pi(b, b.end() - 1),
            Ok(Some(b'>')) => self.emit_pi(self.pos - 1, self.pos + 1),
            Ok(Some(b'?')) => {
                self.pos += 1;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.state = State::PiData;
                Flow::Continue
            }
        }
    }

    /// The end of input inside a processing instruction: an error, and it goes out with its data
    /// up to `data_end`.
    fn eof_in_pi(&mut self, b: &Window, data_end: usize) -> Flow {
        self.error(ErrorCode::EofInProcessingInstruction, b.end());
        self.emit_pi(data_end, b.end())
    }

    /// Emit the processing instruction in progress, its data ending at `data_end`, the token before
    /// `end`.
    fn emit_pi(&mut self, data_end: usize, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        let target = Span {
            start: self.tok.name_start,
            end: self.tok.name_end,
        };
        let data = Span {
            start: self.tok.data_start,
            end: data_end.max(self.tok.data_start),
        };
        self.emit_token(Record::pi(span, target, data), end)
    }
}
