//! DOCTYPE states (HTML Standard §13.2.5.53–68): name, PUBLIC/SYSTEM keywords, identifiers, bogus.
//!
//! The name and both identifiers are contiguous runs of the source, recorded as spans; a missing one
//! stays `None` (the standard's "missing", unlike an empty `""`).

use super::{Flow, Machine, State, is_whitespace, lookahead};
use crate::error::ErrorCode;
use crate::scan::{find2, find3};
use crate::span::{DoctypeRecord, Record, Span, Window};

impl Machine {
    /// Emit the DOCTYPE in progress; the token ends at `end`.
    fn emit_doctype(&mut self, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        self.emit_token(Record::doctype(span), end)
    }

    /// Emit the DOCTYPE at the `>` under the cursor.
    fn emit_doctype_here(&mut self) -> Flow {
        self.emit_doctype(self.pos + 1)
    }

    /// EOF in a DOCTYPE: eof-in-doctype, force-quirks, emit, stop.
    fn eof_in_doctype(&mut self, b: &Window) -> Flow {
        self.error(ErrorCode::EofInDoctype, b.end());
        self.doctype.force_quirks = true;
        let flow = self.emit_doctype(b.end());
        self.state = State::Eof;
        flow
    }

    /// Force quirks and continue in the bogus DOCTYPE state (reconsuming), after `code` if any.
    fn switch_to_bogus_doctype(&mut self, code: Option<ErrorCode>, quirks: bool) -> Flow {
        if let Some(code) = code {
            self.error_here(code);
        }
        self.doctype.force_quirks |= quirks;
        self.state = State::BogusDoctype;
        Flow::Continue
    }

    /// The byte under the cursor after skipping whitespace, or the flow at the end of the window.
    fn after_whitespace(&mut self, b: &Window) -> Result<Option<u8>, Flow> {
        self.skip_whitespace(b);
        self.current(b)
    }

    /// §13.2.5.53 DOCTYPE state.
    pub(super) fn doctype_state(&mut self, b: &Window) -> Flow {
        self.doctype = DoctypeRecord::default();
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(c)) => {
                if is_whitespace(c) {
                    self.pos += 1;
                } else if c != b'>' {
                    self.error_here(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                }
                self.state = State::BeforeDoctypeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.54 Before DOCTYPE name state.
    pub(super) fn before_doctype_name_state(&mut self, b: &Window) -> Flow {
        match self.after_whitespace(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::MissingDoctypeName);
                self.doctype.force_quirks = true;
                self.emit_doctype_here()
            }
            Ok(Some(_)) => {
                self.doctype.name = Some(Span::empty(self.pos));
                self.state = State::DoctypeName;
                Flow::Continue
            }
        }
    }

    /// §13.2.5.55 DOCTYPE name state.
    pub(super) fn doctype_name_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let stop = rest
            .iter()
            .position(|&c| is_whitespace(c) || c == b'>' || (c == 0 && self.config.errors));
        let Some(i) = stop else {
            self.pos = b.end();
            self.set_doctype_name_end();
            return if b.eof {
                self.eof_in_doctype(b)
            } else {
                Flow::NeedMore
            };
        };
        self.pos += i;
        self.set_doctype_name_end();
        match rest[i] {
            0 => {
                self.error_here(ErrorCode::UnexpectedNullCharacter);
                self.pos += 1;
                Flow::Continue
            }
            b'>' => self.emit_doctype_here(),
            _ => {
                self.pos += 1;
                self.state = State::AfterDoctypeName;
                Flow::Continue
            }
        }
    }

    fn set_doctype_name_end(&mut self) {
        if let Some(name) = &mut self.doctype.name {
            name.end = self.pos;
        }
    }

    /// §13.2.5.56 After DOCTYPE name state.
    pub(super) fn after_doctype_name_state(&mut self, b: &Window) -> Flow {
        match self.after_whitespace(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype_here(),
            Ok(Some(_)) => {
                let public = lookahead(b, self.pos, b"PUBLIC", true);
                let system = lookahead(b, self.pos, b"SYSTEM", true);
                match (public, system) {
                    (None, _) | (_, None) => Flow::NeedMore,
                    (Some(true), _) => self.after_keyword(State::AfterDoctypePublicKeyword),
                    (_, Some(true)) => self.after_keyword(State::AfterDoctypeSystemKeyword),
                    _ => self.switch_to_bogus_doctype(
                        Some(ErrorCode::InvalidCharacterSequenceAfterDoctypeName),
                        true,
                    ),
                }
            }
        }
    }

    fn after_keyword(&mut self, state: State) -> Flow {
        self.pos += 6;
        self.state = state;
        Flow::Continue
    }

    /// Open a quoted identifier (public or system) at the quote under the cursor.
    fn open_identifier(&mut self, public: bool, quote: u8) -> Flow {
        self.pos += 1;
        let id = Some(Span::empty(self.pos));
        self.state = match (public, quote) {
            (true, b'"') => State::DoctypePublicIdentifierDoubleQuoted,
            (true, _) => State::DoctypePublicIdentifierSingleQuoted,
            (false, b'"') => State::DoctypeSystemIdentifierDoubleQuoted,
            (false, _) => State::DoctypeSystemIdentifierSingleQuoted,
        };
        if public {
            self.doctype.public_id = id;
        } else {
            self.doctype.system_id = id;
        }
        Flow::Continue
    }

    /// §13.2.5.57/63 After DOCTYPE public / system keyword states.
    pub(super) fn after_doctype_keyword_state(&mut self, b: &Window, public: bool) -> Flow {
        let (missing_ws, before) = if public {
            (
                ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
                State::BeforeDoctypePublicIdentifier,
            )
        } else {
            (
                ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
                State::BeforeDoctypeSystemIdentifier,
            )
        };
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(c)) if is_whitespace(c) => {
                self.pos += 1;
                self.state = before;
                Flow::Continue
            }
            Ok(Some(q @ (b'"' | b'\''))) => {
                self.error_here(missing_ws);
                self.open_identifier(public, q)
            }
            other => self.no_identifier(b, public, other),
        }
    }

    /// §13.2.5.58/64 Before DOCTYPE public / system identifier states.
    pub(super) fn before_doctype_identifier_state(&mut self, b: &Window, public: bool) -> Flow {
        match self.after_whitespace(b) {
            Err(flow) => flow,
            Ok(Some(q @ (b'"' | b'\''))) => self.open_identifier(public, q),
            other => self.no_identifier(b, public, other),
        }
    }

    /// Where an identifier should start but `c` came instead (`>`, EOF or anything else).
    fn no_identifier(&mut self, b: &Window, public: bool, c: Result<Option<u8>, Flow>) -> Flow {
        let (missing, missing_quote) = if public {
            (
                ErrorCode::MissingDoctypePublicIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
            )
        } else {
            (
                ErrorCode::MissingDoctypeSystemIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
            )
        };
        match c {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => {
                self.error_here(missing);
                self.doctype.force_quirks = true;
                self.emit_doctype_here()
            }
            Ok(Some(_)) => self.switch_to_bogus_doctype(Some(missing_quote), true),
        }
    }

    /// §13.2.5.59/60/65/66 DOCTYPE public / system identifier (double- / single-quoted) states.
    pub(super) fn doctype_identifier_state(&mut self, b: &Window, public: bool, quote: u8) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find3(quote, b'>', 0, rest)
        } else {
            find2(quote, b'>', rest)
        };
        let end = hit.map_or(b.end(), |i| self.pos + i);
        let id = if public {
            &mut self.doctype.public_id
        } else {
            &mut self.doctype.system_id
        };
        if let Some(id) = id {
            id.end = end;
        }
        self.pos = end;
        let Some(i) = hit else {
            return if b.eof {
                self.eof_in_doctype(b)
            } else {
                Flow::NeedMore
            };
        };
        match rest[i] {
            0 => {
                self.error_here(ErrorCode::UnexpectedNullCharacter);
                self.pos += 1;
                Flow::Continue
            }
            b'>' => {
                self.error_here(if public {
                    ErrorCode::AbruptDoctypePublicIdentifier
                } else {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                });
                self.doctype.force_quirks = true;
                self.emit_doctype_here()
            }
            _ => {
                self.pos += 1;
                self.state = if public {
                    State::AfterDoctypePublicIdentifier
                } else {
                    State::AfterDoctypeSystemIdentifier
                };
                Flow::Continue
            }
        }
    }

    /// §13.2.5.61 After DOCTYPE public identifier state.
    pub(super) fn after_doctype_public_identifier_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(Some(c)) if is_whitespace(c) => {
                self.pos += 1;
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
                Flow::Continue
            }
            Ok(Some(q @ (b'"' | b'\''))) => {
                self.error_here(
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                );
                self.open_identifier(false, q)
            }
            other => self.end_after_public_identifier(b, other),
        }
    }

    /// §13.2.5.62 Between DOCTYPE public and system identifiers state.
    pub(super) fn between_doctype_public_and_system_identifiers_state(
        &mut self,
        b: &Window,
    ) -> Flow {
        match self.after_whitespace(b) {
            Err(flow) => flow,
            Ok(Some(q @ (b'"' | b'\''))) => self.open_identifier(false, q),
            other => self.end_after_public_identifier(b, other),
        }
    }

    /// `>`, EOF or anything else after a public identifier.
    fn end_after_public_identifier(&mut self, b: &Window, c: Result<Option<u8>, Flow>) -> Flow {
        match c {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype_here(),
            Ok(Some(_)) => self.switch_to_bogus_doctype(
                Some(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier),
                true,
            ),
        }
    }

    /// §13.2.5.67 After DOCTYPE system identifier state.
    pub(super) fn after_doctype_system_identifier_state(&mut self, b: &Window) -> Flow {
        match self.after_whitespace(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype_here(),
            Ok(Some(_)) => self.switch_to_bogus_doctype(
                Some(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier),
                false,
            ),
        }
    }

    /// §13.2.5.68 Bogus DOCTYPE state.
    pub(super) fn bogus_doctype_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let hit = if self.config.errors {
            find2(b'>', 0, rest)
        } else {
            crate::scan::find1(b'>', rest)
        };
        let Some(i) = hit else {
            self.pos = b.end();
            if !b.eof {
                return Flow::NeedMore;
            }
            let flow = self.emit_doctype(b.end());
            self.state = State::Eof;
            return flow;
        };
        self.pos += i;
        if rest[i] == 0 {
            self.error_here(ErrorCode::UnexpectedNullCharacter);
            self.pos += 1;
            return Flow::Continue;
        }
        self.emit_doctype_here()
    }
}
