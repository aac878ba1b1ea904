//! Processing-instruction states (HTML Standard since 2026-06-25, §13.2.5.72–76; see
//! ../shared/spec/processing-instructions.md): `<?target data>` becomes a PI token.
//!
//! Target and data are contiguous runs of the source. A target that is not a valid name, or is `xml`
//! / `xml-stylesheet`, turns the token into a bogus comment whose data starts at the `?`. With
//! `legacy_pi` the tag open state never gets here: `<?` is a bogus comment as before 2026.

use super::{Flow, Machine, State, is_whitespace};
use crate::error::ErrorCode;
use crate::scan::{find2, find3};
use crate::span::{Record, Span, Window};

impl Machine {
    /// EOF anywhere in a PI: eof-in-processing-instruction, and nothing is emitted for it.
    fn eof_in_processing_instruction(&mut self, b: &Window) -> Flow {
        self.error(ErrorCode::EofInProcessingInstruction, b.end());
        self.drop_token_at_eof(b)
    }

    /// Give up on the PI: `code`, then a bogus comment from the `?` on, reconsuming the cursor byte.
    fn processing_instruction_to_bogus_comment(&mut self, code: ErrorCode) -> Flow {
        self.error_here(code);
        self.begin_bogus_comment(self.tok.start + 1);
        Flow::Continue
    }

    /// Processing instruction open state (the cursor is just past `<?`).
    pub(super) fn processing_instruction_open_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_processing_instruction(b),
            Ok(Some(c)) if c.is_ascii_alphabetic() || c == b'_' => {
                self.tok.name_start = self.pos;
                self.state = State::ProcessingInstructionTarget;
                Flow::Continue
            }
            Ok(Some(_)) => self.processing_instruction_to_bogus_comment(
                ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
            ),
        }
    }

    /// Processing instruction target state.
    pub(super) fn processing_instruction_target_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let run = rest
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            .count();
        self.pos += run;
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_processing_instruction(b),
            Ok(Some(c)) if is_whitespace(c) || c == b'?' || c == b'>' => {
                let target = &b.rest(self.tok.name_start)[..self.pos - self.tok.name_start];
                if target.eq_ignore_ascii_case(b"xml")
                    || target.eq_ignore_ascii_case(b"xml-stylesheet")
                {
                    return self.processing_instruction_to_bogus_comment(
                        ErrorCode::DisallowedProcessingInstructionTarget,
                    );
                }
                self.tok.name_end = self.pos;
                self.state = State::AfterProcessingInstructionTarget;
                Flow::Continue
            }
            Ok(Some(_)) => self.processing_instruction_to_bogus_comment(
                ErrorCode::InvalidProcessingInstructionTarget,
            ),
        }
    }

    /// After processing instruction target state.
    pub(super) fn after_processing_instruction_target_state(&mut self, b: &Window) -> Flow {
        self.skip_whitespace(b);
        match self.current(b) {
            Err(flow) => flow,
            Ok(_) => {
                self.tok.data_start = self.pos;
                self.state = State::ProcessingInstructionData;
                Flow::Continue
            }
        }
    }

    /// Processing instruction data state.
    pub(super) fn processing_instruction_data_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find3(b'?', b'>', 0, rest)
        } else {
            find2(b'?', b'>', rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            return if b.eof {
                self.eof_in_processing_instruction(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        match rest[i] {
            b'?' => {
                self.pos += 1;
                self.state = State::ProcessingInstructionQuestionable;
                Flow::Continue
            }
            b'>' => self.emit_processing_instruction(self.pos),
            _ => {
                self.error_here(ErrorCode::UnexpectedNullCharacter);
                self.pos += 1;
                Flow::Continue
            }
        }
    }

    /// Processing instruction questionable state (just after a `?` in the data).
    pub(super) fn processing_instruction_questionable_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_processing_instruction(b),
            Ok(Some(b'>')) => self.emit_processing_instruction(self.pos - 1),
            Ok(Some(_)) => {
                self.state = State::ProcessingInstructionData;
                Flow::Continue
            }
        }
    }

    /// Emit the PI whose data ends at `data_end`, at the `>` under the cursor.
    fn emit_processing_instruction(&mut self, data_end: usize) -> Flow {
        let end = self.pos + 1;
        let record = Record::pi(
            Span {
                start: self.tok.start,
                end,
            },
            Span {
                start: self.tok.name_start,
                end: self.tok.name_end,
            },
            Span {
                start: self.tok.data_start,
                end: data_end.max(self.tok.data_start),
            },
        );
        self.emit_token(record, end)
    }
}
