//! DOCTYPE states (XML5 draft §1.3.36–51), as xml5lib-tests expects them, and the internal subset.
//!
//! The name is ASCII-lowercased when decoded (as the draft says). The keywords `PUBLIC` and
//! `SYSTEM` are matched ASCII case-insensitively. Beyond the draft, a `[` after the name or after
//! the system identifier opens the internal subset, kept whole as one span up to its `]` (a `]`
//! inside a quoted literal or a comment does not end it) for a tree stage to parse.

use super::{Flow, Machine, State, is_doctype_space};
use crate::error::ErrorCode;
use crate::lex::lookahead;
use crate::scan::{ByteSet, find_in_set, find1, find2};
use crate::span::{Record, Span, Window};

/// What the internal subset state stops at outside literals and comments.
const SUBSET_STOPS: ByteSet = ByteSet::of(b"\"']<");

/// In the internal subset, `subset_quote` while inside a comment.
const IN_COMMENT: u8 = b'-';

impl Machine {
    /// Emit the DOCTYPE in progress, which ends before `end`.
    fn emit_doctype(&mut self, end: usize) -> Flow {
        let span = Span {
            start: self.tok.start,
            end,
        };
        self.emit_token(Record::doctype(span), end)
    }

    /// The end of input in a DOCTYPE: an error, and it goes out as it is.
    fn eof_in_doctype(&mut self, b: &Window) -> Flow {
        self.error(ErrorCode::EofInDoctype, b.end());
        self.emit_doctype(b.end())
    }

    /// An error at the current input character, then the bogus DOCTYPE state.
    fn go_bogus_doctype(&mut self, code: ErrorCode) -> Flow {
        self.error_here(code);
        self.state = State::BogusDoctype;
        Flow::Continue
    }

    /// Skip DOCTYPE whitespace: the first other byte, or the end of the window.
    fn skip_doctype_space(&mut self, b: &Window) -> Result<Option<u8>, Flow> {
        self.skip_to(b, |rest| rest.iter().position(|&c| !is_doctype_space(c)))
    }

    /// §1.3.36 DOCTYPE state: after `<!DOCTYPE`.
    pub(super) fn doctype_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(c)) => {
                if is_doctype_space(c) {
                    self.pos += 1;
                } else {
                    self.error_here(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                }
                self.state = State::BeforeDoctypeName;
                Flow::Continue
            }
        }
    }

    /// §1.3.37 Before DOCTYPE name state.
    pub(super) fn before_doctype_name_state(&mut self, b: &Window) -> Flow {
        match self.skip_doctype_space(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => {
                self.error_here(ErrorCode::MissingDoctypeName);
                self.emit_doctype(self.pos + 1)
            }
            Ok(Some(_)) => {
                self.tok.name_start = self.pos;
                self.pos += 1;
                self.state = State::DoctypeName;
                Flow::Continue
            }
        }
    }

    /// §1.3.38 DOCTYPE name state.
    pub(super) fn doctype_name_state(&mut self, b: &Window) -> Flow {
        let found = self.skip_to(b, |rest| {
            rest.iter().position(|&c| is_doctype_space(c) || c == b'>')
        });
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        self.doctype.name = Some(Span {
            start: self.tok.name_start,
            end: self.pos,
        });
        match c {
            None => self.eof_in_doctype(b),
            Some(b'>') => self.emit_doctype(self.pos + 1),
            Some(_) => {
                self.pos += 1;
                self.state = State::AfterDoctypeName;
                Flow::Continue
            }
        }
    }

    /// §1.3.39 After DOCTYPE name state.
    pub(super) fn after_doctype_name_state(&mut self, b: &Window) -> Flow {
        let c = match self.skip_doctype_space(b) {
            Err(flow) => return flow,
            Ok(None) => return self.eof_in_doctype(b),
            Ok(Some(c)) => c,
        };
        match c {
            b'>' => return self.emit_doctype(self.pos + 1),
            b'[' => return self.begin_internal_subset(),
            _ => {}
        }
        let keywords = [
            (&b"PUBLIC"[..], State::AfterDoctypePublicKeyword),
            (b"SYSTEM", State::AfterDoctypeSystemKeyword),
        ];
        for (word, next) in keywords {
            match lookahead(b, self.pos, word, true) {
                None => return Flow::NeedMore,
                Some(false) => {}
                Some(true) => {
                    self.pos += word.len();
                    self.state = next;
                    return Flow::Continue;
                }
            }
        }
        self.go_bogus_doctype(ErrorCode::InvalidCharacterSequenceAfterDoctypeName)
    }

    /// §1.3.40 After DOCTYPE public keyword state and §1.3.41 its system twin.
    pub(super) fn after_doctype_keyword_state(&mut self, b: &Window, public: bool) -> Flow {
        let (missing_space, missing_id, missing_quote, before) = if public {
            (
                ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
                ErrorCode::MissingDoctypePublicIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
                State::BeforeDoctypePublicIdentifier,
            )
        } else {
            (
                ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
                ErrorCode::MissingDoctypeSystemIdentifier,
                ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
                State::BeforeDoctypeSystemIdentifier,
            )
        };
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(c)) if is_doctype_space(c) => {
                self.pos += 1;
                self.state = before;
                Flow::Continue
            }
            Ok(Some(quote @ (b'"' | b'\''))) => {
                self.error_here(missing_space);
                self.open_identifier(public, quote)
            }
            Ok(Some(b'>')) => {
                self.error_here(missing_id);
                self.emit_doctype(self.pos + 1)
            }
            Ok(Some(_)) => self.go_bogus_doctype(missing_quote),
        }
    }

    /// §1.3.43 Before DOCTYPE public identifier state and §1.3.42 its system twin.
    pub(super) fn before_doctype_identifier_state(&mut self, b: &Window, public: bool) -> Flow {
        let (missing_id, missing_quote) = if public {
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
        match self.skip_doctype_space(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(quote @ (b'"' | b'\''))) => self.open_identifier(public, quote),
            Ok(Some(b'>')) => {
                self.error_here(missing_id);
                self.emit_doctype(self.pos + 1)
            }
            Ok(Some(_)) => self.go_bogus_doctype(missing_quote),
        }
    }

    /// The `quote` under the cursor opens the public or system identifier: it is the empty string
    /// (not missing) until its closing quote.
    fn open_identifier(&mut self, public: bool, quote: u8) -> Flow {
        self.pos += 1;
        self.tok.data_start = self.pos;
        let empty = Some(Span::empty(self.pos));
        self.state = match (public, quote) {
            (true, b'"') => State::DoctypePublicIdentifierDoubleQuoted,
            (true, _) => State::DoctypePublicIdentifierSingleQuoted,
            (false, b'"') => State::DoctypeSystemIdentifierDoubleQuoted,
            (false, _) => State::DoctypeSystemIdentifierSingleQuoted,
        };
        if public {
            self.doctype.public_id = empty;
        } else {
            self.doctype.system_id = empty;
        }
        Flow::Continue
    }

    /// §1.3.44–45 DOCTYPE public identifier (quoted) states and §1.3.48–49 their system twins.
    pub(super) fn doctype_identifier_state(&mut self, b: &Window, public: bool, quote: u8) -> Flow {
        let found = self.skip_to(b, |rest| find2(quote, b'>', rest));
        let c = match found {
            Err(flow) => return flow,
            Ok(c) => c,
        };
        let id = Some(Span {
            start: self.tok.data_start,
            end: self.pos,
        });
        if public {
            self.doctype.public_id = id;
        } else {
            self.doctype.system_id = id;
        }
        match c {
            None => self.eof_in_doctype(b),
            Some(b'>') => {
                self.error_here(if public {
                    ErrorCode::AbruptDoctypePublicIdentifier
                } else {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                });
                self.emit_doctype(self.pos + 1)
            }
            Some(_) => {
                self.pos += 1;
                self.state = if public {
                    State::AfterDoctypePublicIdentifier
                } else {
                    State::AfterDoctypeSystemIdentifiers
                };
                Flow::Continue
            }
        }
    }

    /// §1.3.46 After DOCTYPE public identifier state.
    pub(super) fn after_doctype_public_identifier_state(&mut self, b: &Window) -> Flow {
        match self.current(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(c)) if is_doctype_space(c) => {
                self.pos += 1;
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
                Flow::Continue
            }
            Ok(Some(quote @ (b'"' | b'\''))) => {
                self.error_here(
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                );
                self.open_identifier(false, quote)
            }
            Ok(Some(b'>')) => self.emit_doctype(self.pos + 1),
            Ok(Some(_)) => {
                self.go_bogus_doctype(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier)
            }
        }
    }

    /// §1.3.47 Between DOCTYPE public and system identifiers state.
    pub(super) fn between_doctype_public_and_system_identifiers_state(
        &mut self,
        b: &Window,
    ) -> Flow {
        match self.skip_doctype_space(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype(self.pos + 1),
            Ok(Some(quote @ (b'"' | b'\''))) => self.open_identifier(false, quote),
            Ok(Some(_)) => {
                self.go_bogus_doctype(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier)
            }
        }
    }

    /// §1.3.50 After DOCTYPE system identifiers state.
    pub(super) fn after_doctype_system_identifiers_state(&mut self, b: &Window) -> Flow {
        match self.skip_doctype_space(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype(self.pos + 1),
            Ok(Some(b'[')) => self.begin_internal_subset(),
            Ok(Some(_)) => {
                self.go_bogus_doctype(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier)
            }
        }
    }

    /// The `[` under the cursor opens the internal subset.
    fn begin_internal_subset(&mut self) -> Flow {
        self.tok.data_start = self.pos;
        self.subset_quote = 0;
        self.pos += 1;
        self.state = State::DoctypeInternalSubset;
        Flow::Continue
    }

    /// DOCTYPE internal subset state (not in the draft): up to the `]` that closes the subset,
    /// stepping over quoted literals and comments.
    pub(super) fn doctype_internal_subset_state(&mut self, b: &Window) -> Flow {
        let quote = self.subset_quote;
        let found = match quote {
            0 => self.skip_to(b, |rest| find_in_set(&SUBSET_STOPS, rest)),
            IN_COMMENT => self.skip_to(b, |rest| find1(b'>', rest)),
            _ => self.skip_to(b, |rest| find1(quote, rest)),
        };
        let c = match found {
            Err(flow) => return flow,
            Ok(None) => {
                self.doctype.internal_subset = Some(Span {
                    start: self.tok.data_start,
                    end: b.end(),
                });
                return self.eof_in_doctype(b);
            }
            Ok(Some(c)) => c,
        };
        match (quote, c) {
            (0, b']') => {
                self.pos += 1;
                self.doctype.internal_subset = Some(Span {
                    start: self.tok.data_start,
                    end: self.pos,
                });
                self.state = State::AfterDoctypeInternalSubset;
            }
            (0, b'<') => match lookahead(b, self.pos, b"<!--", false) {
                None => return Flow::NeedMore,
                Some(true) => {
                    self.pos += 4;
                    self.subset_quote = IN_COMMENT;
                }
                Some(false) => self.pos += 1,
            },
            (0, _) => {
                self.pos += 1;
                self.subset_quote = c;
            }
            (IN_COMMENT, _) => {
                let closes = b.at(self.pos - 1) == Some(b'-') && b.at(self.pos - 2) == Some(b'-');
                self.pos += 1;
                if closes {
                    self.subset_quote = 0;
                }
            }
            _ => {
                self.pos += 1;
                self.subset_quote = 0;
            }
        }
        Flow::Continue
    }

    /// After DOCTYPE internal subset state (not in the draft): only whitespace before `>`.
    pub(super) fn after_doctype_internal_subset_state(&mut self, b: &Window) -> Flow {
        match self.skip_doctype_space(b) {
            Err(flow) => flow,
            Ok(None) => self.eof_in_doctype(b),
            Ok(Some(b'>')) => self.emit_doctype(self.pos + 1),
            Ok(Some(_)) => {
                self.go_bogus_doctype(ErrorCode::UnexpectedCharacterAfterDoctypeInternalSubset)
            }
        }
    }

    /// §1.3.51 Bogus DOCTYPE state: everything up to `>` or the end of input.
    pub(super) fn bogus_doctype_state(&mut self, b: &Window) -> Flow {
        match self.skip_to(b, |rest| find1(b'>', rest)) {
            Err(flow) => flow,
            Ok(None) => self.emit_doctype(b.end()),
            Ok(Some(_)) => self.emit_doctype(self.pos + 1),
        }
    }
}
