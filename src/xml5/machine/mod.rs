//! The XML5 tokenizer state machine (spec/002 §1.3), resumable at every byte.
//!
//! As HTML's machine (`crate::html::machine`), it reads a [`Window`] of the stream and records what it
//! finds as [`Record`]s (spans, never copied text); all of its state lives in [`Machine`], so the
//! next call goes on exactly where the last one stopped, whatever the chunking. It returns after
//! every record, when the window ends before a state can decide, or at the end of input.
//!
//! The states are grouped by family, each in its own file and named as the draft names them:
//! `text` (data, tag, end tag, character references), `tag` (tag names and attributes), `pi`,
//! `comment` (markup declaration, comments, bogus comment), `cdata`, `doctype`. Where the draft
//! and xml5lib-tests disagree, the states do what the suite expects (each such state says so).
//!
//! Long runs (text, attribute values, comments, CDATA, PI data, bogus comments and DOCTYPEs) are
//! skipped with the SIMD scanner. With parse errors off, character references, NUL and CR are
//! left to the decoders; with errors on, the machine also stops at `&` to report a reference's
//! errors where the draft does.

mod cdata;
mod comment;
mod declared;
mod doctype;
mod lane;
mod pi;
mod tag;
mod text;

use crate::error::{ErrorCode, FoundErrors};
pub(crate) use crate::lex::Flow;
use crate::lex::{OpenReference, safe_cut};
use crate::span::{AttrRecord, DoctypeRecord, Lexeme, Record, Span, TextKind, Window};

use declared::Reference;
pub(crate) use declared::{Declared, MAX_DECLARED_NAME};
use tag::NameTable;

/// Every state of the XML5 draft's tokenizer (§1.3.1–51), named as there, with the states the
/// suite adds: the comment start states (as HTML's), the ambiguous ampersand state (HTML's
/// character references), and the internal subset of a DOCTYPE. `TagCut` is where the machine
/// waits at a tag a seam cut off, and `Eof` where it rests once the input is over and everything
/// handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    Data,
    CharacterReferenceInData,
    Tag,
    EndTag,
    EndTagName,
    EndTagNameAfter,
    Pi,
    PiTarget,
    PiTargetAfter,
    PiData,
    PiAfter,
    MarkupDeclaration,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentLessThanSign,
    CommentLessThanSignBang,
    CommentLessThanSignBangDash,
    CommentLessThanSignBangDashDash,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    Cdata,
    CdataBracket,
    CdataEnd,
    TagName,
    EmptyTag,
    TagAttributeNameBefore,
    TagAttributeName,
    TagAttributeNameAfter,
    TagAttributeValueBefore,
    TagAttributeValueDoubleQuoted,
    TagAttributeValueSingleQuoted,
    TagAttributeValueUnquoted,
    CharacterReferenceInAttributeValue,
    AmbiguousAmpersand,
    BogusComment,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierSingleQuoted,
    DoctypePublicIdentifierDoubleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    DoctypeSystemIdentifierSingleQuoted,
    DoctypeSystemIdentifierDoubleQuoted,
    AfterDoctypeSystemIdentifiers,
    DoctypeInternalSubset,
    AfterDoctypeInternalSubset,
    BogusDoctype,
    /// Not the draft's: the data state at the `<` of a tag the end of a window cut off, waiting
    /// for the next chunk to bring its end (see `lane.rs`), so that the lane lexes it whole.
    TagCut,
    Eof,
}

/// The tag, comment, processing instruction or DOCTYPE in progress, as offsets.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tok {
    /// The `<`.
    pub(super) start: usize,
    /// Tag name or PI target start; comment data start.
    pub(super) name_start: usize,
    pub(super) name_end: usize,
    /// Attribute name or value start; PI data start.
    pub(super) data_start: usize,
    pub(super) is_end_tag: bool,
    pub(super) self_closing: bool,
}

/// The resumable XML5 state machine.
pub(crate) struct Machine {
    pub(crate) errors_on: bool,
    pub(super) state: State,
    /// Where a character reference returns to.
    pub(super) return_state: State,
    /// Stream offset of the next byte to consume.
    pub(crate) pos: usize,
    /// Start of text not yet emitted; the start of the token in progress when there is one.
    pub(crate) text_start: usize,
    /// The kind of the pending text (data, or a CDATA section's content).
    pub(super) text_kind: TextKind,
    /// Start of an undecided lookahead: the `<` of a possible tag, the `&` of a reference, the
    /// `]` of a possible CDATA end.
    pub(super) mark: usize,
    pub(super) tok: Tok,
    /// The attributes of the tag in progress (or just emitted).
    pub(crate) attrs: Vec<AttrRecord>,
    /// Finds repeated attribute names.
    pub(super) names: NameTable,
    /// The attribute in progress, by index in `attrs`; `None` when it repeats a kept one
    /// (or before the first).
    pub(super) current_attr: Option<usize>,
    /// The DOCTYPE in progress, or just emitted.
    pub(crate) doctype: DoctypeRecord,
    /// Inside the internal subset: the quote of the literal being read, or 0.
    pub(super) subset_quote: u8,
    /// A numeric character reference left open at the last seam: (its `&`, how far its digits
    /// were checked), so that the next seam checks only the bytes that came since.
    open_numeric_reference: OpenReference,
    /// A tag the lane lexed after text it handed out: its `<`, the tag, and its end (see
    /// `lane.rs`); its attributes are in `attrs`.
    pub(super) lane_tag: Option<(usize, Lexeme, usize)>,
    /// Parse errors found since the driver last took them.
    pub(crate) errors: FoundErrors,
    /// The names the document declares (for the tree stage): no character references here.
    pub(crate) declared: Declared,
    /// The record just emitted (valid when a step returns [`Flow::Emit`]).
    out: Record,
}

impl Machine {
    pub(crate) fn new(errors_on: bool, max_errors: usize) -> Machine {
        Machine {
            errors_on,
            state: State::Data,
            return_state: State::Data,
            pos: 0,
            text_start: 0,
            text_kind: TextKind::Data,
            mark: 0,
            tok: Tok::default(),
            attrs: Vec::new(),
            names: NameTable::default(),
            current_attr: None,
            doctype: DoctypeRecord::default(),
            subset_quote: 0,
            open_numeric_reference: OpenReference::default(),
            lane_tag: None,
            errors: FoundErrors::new(max_errors),
            declared: Declared::default(),
            out: Record::text(Span::default(), TextKind::Data, 0),
        }
    }

    /// Back to the start of a new stream in the data state, keeping allocations.
    pub(crate) fn reset(&mut self) {
        self.state = State::Data;
        self.text_kind = TextKind::Data;
        self.pos = 0;
        self.text_start = 0;
        self.mark = 0;
        self.errors.clear();
        self.attrs.clear();
        self.names.clear();
        self.current_attr = None;
        self.open_numeric_reference.watch(None);
        self.lane_tag = None;
        self.declared.clear();
    }

    /// Start reading the stream at `offset` (after a stripped byte order mark).
    pub(crate) fn start_at(&mut self, offset: usize) {
        self.pos = offset;
        self.text_start = offset;
        self.mark = offset;
    }

    /// Whether the input is over and every record handed out.
    pub(crate) fn is_done(&self) -> bool {
        self.state == State::Eof
    }

    /// Run until a record is emitted (`Some`), or the window is read or the input over (`None`).
    pub(crate) fn run(&mut self, b: &Window) -> Option<Record> {
        loop {
            match self.step(b) {
                Flow::Continue => {}
                Flow::Emit => return Some(self.out),
                Flow::NeedMore => return None,
            }
        }
    }

    /// One state's worth of work.
    fn step(&mut self, b: &Window) -> Flow {
        use State::*;
        match self.state {
            Data => self.data_state(b),
            CharacterReferenceInData | CharacterReferenceInAttributeValue => {
                self.character_reference_state(b)
            }
            AmbiguousAmpersand => self.ambiguous_ampersand_state(b),
            Tag => self.tag_state(b),
            EndTag => self.end_tag_state(b),
            EndTagName => self.end_tag_name_state(b),
            EndTagNameAfter => self.end_tag_name_after_state(b),
            Pi => self.pi_state(b),
            PiTarget => self.pi_target_state(b),
            PiTargetAfter => self.pi_target_after_state(b),
            PiData => self.pi_data_state(b),
            PiAfter => self.pi_after_state(b),
            MarkupDeclaration => self.markup_declaration_state(b),
            CommentStart => self.comment_start_state(b),
            CommentStartDash => self.comment_start_dash_state(b),
            Comment => self.comment_state(b),
            CommentLessThanSign => self.comment_less_than_sign_state(b),
            CommentLessThanSignBang => self.comment_less_than_sign_bang_state(b),
            CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(b),
            CommentLessThanSignBangDashDash => self.comment_less_than_sign_bang_dash_dash_state(b),
            CommentEndDash => self.comment_end_dash_state(b),
            CommentEnd => self.comment_end_state(b),
            CommentEndBang => self.comment_end_bang_state(b),
            Cdata => self.cdata_state(b),
            CdataBracket => self.cdata_bracket_state(b),
            CdataEnd => self.cdata_end_state(b),
            TagName => self.tag_name_state(b),
            EmptyTag => self.empty_tag_state(b),
            TagAttributeNameBefore => self.tag_attribute_name_before_state(b),
            TagAttributeName => self.tag_attribute_name_state(b),
            TagAttributeNameAfter => self.tag_attribute_name_after_state(b),
            TagAttributeValueBefore => self.tag_attribute_value_before_state(b),
            TagAttributeValueDoubleQuoted => self.tag_attribute_value_quoted_state(b, b'"'),
            TagAttributeValueSingleQuoted => self.tag_attribute_value_quoted_state(b, b'\''),
            TagAttributeValueUnquoted => self.tag_attribute_value_unquoted_state(b),
            BogusComment => self.bogus_comment_state(b),
            Doctype => self.doctype_state(b),
            BeforeDoctypeName => self.before_doctype_name_state(b),
            DoctypeName => self.doctype_name_state(b),
            AfterDoctypeName => self.after_doctype_name_state(b),
            AfterDoctypePublicKeyword => self.after_doctype_keyword_state(b, true),
            AfterDoctypeSystemKeyword => self.after_doctype_keyword_state(b, false),
            BeforeDoctypePublicIdentifier => self.before_doctype_identifier_state(b, true),
            BeforeDoctypeSystemIdentifier => self.before_doctype_identifier_state(b, false),
            DoctypePublicIdentifierSingleQuoted => self.doctype_identifier_state(b, true, b'\''),
            DoctypePublicIdentifierDoubleQuoted => self.doctype_identifier_state(b, true, b'"'),
            DoctypeSystemIdentifierSingleQuoted => self.doctype_identifier_state(b, false, b'\''),
            DoctypeSystemIdentifierDoubleQuoted => self.doctype_identifier_state(b, false, b'"'),
            AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(b),
            BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state(b)
            }
            AfterDoctypeSystemIdentifiers => self.after_doctype_system_identifiers_state(b),
            DoctypeInternalSubset => self.doctype_internal_subset_state(b),
            AfterDoctypeInternalSubset => self.after_doctype_internal_subset_state(b),
            BogusDoctype => self.bogus_doctype_state(b),
            TagCut | Eof => Flow::NeedMore,
        }
    }

    // ---- shared actions -------------------------------------------------------------------------

    /// Record a parse error at stream offset `at` (when errors are on).
    #[inline]
    pub(super) fn error(&mut self, code: ErrorCode, at: usize) {
        if self.errors_on {
            self.errors.push(at, code);
        }
    }

    /// Record a parse error at the current input character.
    #[inline]
    pub(super) fn error_here(&mut self, code: ErrorCode) {
        self.error(code, self.pos);
    }

    /// The byte at the current position, or what to do at the end of the window: `Err(NeedMore)`
    /// when more input may come, `Ok(None)` at the end of input.
    #[inline]
    pub(super) fn current(&self, b: &Window) -> Result<Option<u8>, Flow> {
        match b.at(self.pos) {
            Some(c) => Ok(Some(c)),
            None if b.eof => Ok(None),
            None => Err(Flow::NeedMore),
        }
    }

    /// Move to the first byte from the current position on that `stop` finds in the rest of the
    /// window (an index there): `Ok(Some(byte))`, or at the end of the window `Ok(None)` at the
    /// end of input, `Err(NeedMore)` before it (the position is then the window's end).
    #[inline]
    pub(super) fn skip_to(
        &mut self,
        b: &Window,
        stop: impl FnOnce(&[u8]) -> Option<usize>,
    ) -> Result<Option<u8>, Flow> {
        let rest = b.rest(self.pos);
        match stop(rest) {
            Some(i) => {
                self.pos += i;
                Ok(Some(rest[i]))
            }
            None => {
                self.pos = b.end();
                self.current(b)
            }
        }
    }

    /// Emit the pending text `[text_start, end)` if it is not empty; the next text starts at `next`.
    /// Returns whether a record was produced.
    pub(super) fn flush_text(&mut self, end: usize, next: usize) -> bool {
        match self.take_text(end, next) {
            Some(record) => {
                self.out = record;
                true
            }
            None => false,
        }
    }

    /// The record of the pending text `[text_start, end)` if it is not empty; the next text starts
    /// at `next`.
    fn take_text(&mut self, end: usize, next: usize) -> Option<Record> {
        let start = self.text_start;
        self.text_start = next;
        (end > start).then(|| Record::text(Span { start, end }, self.text_kind, next))
    }

    /// A token starts at `start` (its `<`): emit the pending text before it first. Returns whether
    /// text went out; the caller then returns [`Flow::Emit`] without moving, and comes back here
    /// at the next step, when there is no text left to emit.
    pub(super) fn begin_token(&mut self, start: usize) -> bool {
        if self.flush_text(start, start) {
            return true;
        }
        self.tok = Tok {
            start,
            ..Tok::default()
        };
        false
    }

    /// Emit `record`, which ends just before `end`; continue in the data state.
    pub(super) fn emit_token(&mut self, record: Record, end: usize) -> Flow {
        self.out = record;
        self.pos = end;
        self.text_start = end;
        self.state = State::Data;
        self.text_kind = TextKind::Data;
        Flow::Emit
    }

    /// Emit the text pending before `end` (if any), which `next` follows, and go on in the data
    /// state from `next` (the end of a CDATA section, the end of input inside one).
    pub(super) fn end_text_run(&mut self, end: usize, next: usize) -> Flow {
        let emitted = self.flush_text(end, next);
        self.pos = next;
        self.state = State::Data;
        self.text_kind = TextKind::Data;
        if emitted { Flow::Emit } else { Flow::Continue }
    }

    /// At the end of a window that is not the end of input: emit the pending text up to the last
    /// point where cutting cannot change how it decodes (not inside a character reference, a CRLF
    /// pair or a UTF-8 sequence).
    pub(crate) fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        let limit = self.pending_text_limit()?.min(b.end());
        if limit <= self.text_start
            || self
                .open_numeric_reference
                .still_open(b, self.text_start, limit)
        {
            return None;
        }
        let text = &b.bytes[self.text_start - b.base..limit - b.base];
        let cut = self.text_start + safe_cut(text, self.text_kind);
        let numeric = cut < limit && b.rest(cut).starts_with(b"&#");
        self.open_numeric_reference
            .watch(numeric.then_some((cut, limit)));
        self.take_text(cut, cut)
    }

    /// How far pending text reaches in the current state, or `None` inside a token.
    fn pending_text_limit(&self) -> Option<usize> {
        use State::*;
        match self.state {
            Data | TagCut | Cdata => Some(self.pos),
            Tag | EndTag | CharacterReferenceInData | CdataBracket | CdataEnd => Some(self.mark),
            AmbiguousAmpersand if self.return_state == Data => Some(self.pos),
            _ => None,
        }
    }

    // ---- character references -------------------------------------------------------------------

    /// Enter the character reference state at the `&` under the cursor, to come back to `from`
    /// (errors on only: with errors off the decoders resolve references).
    pub(super) fn begin_character_reference(&mut self, from: State) {
        self.return_state = from;
        self.mark = self.pos;
        self.state = if from == State::Data {
            State::CharacterReferenceInData
        } else {
            State::CharacterReferenceInAttributeValue
        };
    }

    /// §1.3.2 Character reference in data state and §1.3.33 Character reference in attribute
    /// value state, by the suite: HTML's character reference states ([`crate::lex::OpenReference::read`]), whose errors
    /// are recorded here; the decoders produce the replacement text.
    fn character_reference_state(&mut self, b: &Window) -> Flow {
        if !self.declared.is_empty() {
            match self.declared.reference_at(b, self.mark) {
                Reference::Declared(len) => {
                    self.pos = self.mark + len;
                    self.state = self.return_state;
                    return Flow::Continue;
                }
                Reference::NeedMore => return Flow::NeedMore,
                Reference::Other => {}
            }
        }
        let in_attribute = self.return_state != State::Data;
        let Some(outcome) = self.open_numeric_reference.read(b, self.mark, in_attribute) else {
            return Flow::NeedMore;
        };
        for (code, at) in outcome.errors.into_iter().flatten() {
            self.error(code, self.mark + at);
        }
        self.pos = self.mark + outcome.len;
        self.state = if outcome.ambiguous {
            State::AmbiguousAmpersand
        } else {
            self.return_state
        };
        Flow::Continue
    }

    /// HTML's ambiguous ampersand state, which the suite's references follow.
    fn ambiguous_ampersand_state(&mut self, b: &Window) -> Flow {
        let run = b
            .rest(self.pos)
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        self.pos += run;
        match self.current(b) {
            Err(flow) => flow,
            Ok(c) => {
                if c == Some(b';') {
                    self.error_here(ErrorCode::UnknownNamedCharacterReference);
                }
                self.state = self.return_state;
                Flow::Continue
            }
        }
    }
}

/// Whitespace in XML5's tag and PI states: TAB, LF, space, and CR (which the input stream turns
/// into LF).
#[inline(always)]
pub(super) fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\r' | b' ')
}

/// Whitespace in the DOCTYPE states: [`is_space`] and FF.
#[inline(always)]
pub(super) fn is_doctype_space(c: u8) -> bool {
    is_space(c) || c == b'\x0C'
}
