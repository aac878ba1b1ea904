//! CDATA section states (XML5 draft §1.3.21–23). The section's content is text of kind
//! [`TextKind::Cdata`](crate::TextKind::Cdata); its `<![CDATA[` and `]]>` belong to no token.
//! At the end of input the brackets a possible `]]>` began are dropped, as xml5lib-tests expect.

use super::{Flow, Machine, State};
use crate::error::ErrorCode;
use crate::scan::find1;
use crate::span::Window;

impl Machine {
    /// §1.3.21 CDATA state.
    pub(super) fn cdata_state(&mut self, b: &Window) -> Flow {
        match self.skip_to(b, |rest| find1(b']', rest)) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_cdata(b, b.end()),
            Ok(Some(_)) => {
                self.mark = self.pos;
                self.pos += 1;
                self.state = State::CdataBracket;
                Flow::Continue
            }
        }
    }

    /// §1.3.22 CDATA bracket state: after one `]`.
    pub(super) fn cdata_bracket_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_cdata(b, self.mark),
            Ok(Some(b']')) => {
                self.pos += 1;
                self.state = State::CdataEnd;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.state = State::Cdata;
                Flow::Continue
            }
        }
    }

    /// §1.3.23 CDATA end state: after `]]` (the last two of a run of `]`, from `mark`).
    pub(super) fn cdata_end_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_cdata(b, self.mark),
            Ok(Some(b'>')) => self.end_text_run(self.mark, self.pos + 1),
            Ok(Some(b']')) => {
                self.mark += 1;
                self.pos += 1;
                Flow::Continue
            }
            Ok(Some(_)) => {
                self.state = State::Cdata;
                Flow::Continue
            }
        }
    }

    /// The end of input inside a CDATA section: the content up to `end` goes out.
    fn eof_in_cdata(&mut self, b: &Window, end: usize) -> Flow {
        self.error(ErrorCode::EofInCdata, b.end());
        self.end_text_run(end, b.end())
    }
}
