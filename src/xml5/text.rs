//! Text states: the data state and the tag state reached from it (XML5 draft §1.3.1–3). The
//! character reference states are the machine's (see `machine.rs`).
//!
//! Text is never copied: the machine only moves `pos` over it and remembers where the pending text
//! started. A text record ends where a token starts, at the end of input, or at a chunk seam.

use super::machine::{Flow, Machine, State, is_space};
use crate::error::ErrorCode;
use crate::scan::{find1, find2};
use crate::span::Window;

impl Machine {
    /// §1.3.1 Data state: a run of text up to `<` (and, with errors on, `&`).
    pub(super) fn data_state(&mut self, b: &Window) -> Flow {
        let errors = self.errors_on;
        let found = self.skip_to(b, |rest| {
            if errors {
                find2(b'<', b'&', rest)
            } else {
                find1(b'<', rest)
            }
        });
        match found {
            Err(flow) => flow,
            Ok(None) => {
                self.state = State::Eof;
                let end = b.end();
                if self.flush_text(end, end) {
                    Flow::Emit
                } else {
                    Flow::Continue
                }
            }
            Ok(Some(b'<')) => {
                self.mark = self.pos;
                self.pos += 1;
                self.state = State::Tag;
                // Straight on, not round the run loop.
                self.tag_state(b)
            }
            Ok(Some(_)) => {
                self.begin_character_reference(State::Data);
                Flow::Continue
            }
        }
    }

    /// §1.3.3 Tag state: after `<`, what it opens. A `<` that opens nothing stays text.
    pub(super) fn tag_state(&mut self, b: &Window) -> Flow {
        let c = match self.current(b) {
            Err(flow) => return flow,
            Ok(None) => {
                self.error_here(ErrorCode::EofBeforeTagName);
                self.state = State::Data;
                return Flow::Continue;
            }
            Ok(Some(c)) => c,
        };
        if is_space(c) || matches!(c, b':' | b'<' | b'>') {
            self.error_here(ErrorCode::InvalidFirstCharacterOfTagName);
            self.state = State::Data;
            return Flow::Continue;
        }
        if c == b'/' {
            self.pos += 1;
            self.state = State::EndTag;
            return Flow::Continue;
        }
        if self.begin_token(self.mark) {
            return Flow::Emit;
        }
        let at = self.pos;
        self.pos += 1;
        match c {
            b'?' => self.state = State::Pi,
            b'!' => self.state = State::MarkupDeclaration,
            _ => {
                self.begin_start_tag(at);
                // Straight on, not round the run loop.
                return self.tag_name_state(b);
            }
        }
        Flow::Continue
    }
}
