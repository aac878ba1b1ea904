//! The tokenizer state machine: the states of WHATWG HTML §13.2.5, resumable at every byte.
//!
//! The machine reads a [`Window`] (a window of the input stream at an absolute offset) and records what it
//! finds as [`Record`]s: byte spans plus flags, never copied text. It returns after every record, when it
//! needs bytes the window does not hold yet, or at the end of input. All of its state lives in
//! [`Machine`], so the next call continues exactly where the last one stopped, whatever the chunking.
//! Only bytes from [`Machine::retention`] on are ever looked at again.
//!
//! States are grouped by family, each in its own file and named as in the standard:
//! `text` (data, RCDATA, RAWTEXT, script data and its escapes, PLAINTEXT, CDATA),
//! `tag` (tags and attributes), `comment`, `doctype`, `pi` (processing instructions). The
//! character reference states are [`crate::refs`]'s, shared with the token decoders.
//!
//! With parse errors off, the machine only stops at bytes that change the token structure; character
//! references, NUL and CR are left to the decoders in [`crate::token`]. With errors on, it also stops at
//! those bytes to report their errors where the standard does.

mod comment;
mod doctype;
mod lane;
mod pi;
mod tag;
mod text;

use crate::error::{ErrorCode, FoundErrors};
use crate::lex::OpenReference;
pub(crate) use crate::lex::{Flow, lookahead};
use crate::scan;
use crate::span::{DoctypeRecord, Kind, Record, Span, TextKind, Window};

pub(crate) use tag::Attrs;

/// Every tokenizer state of the HTML Standard (§13.2.5.1–80, plus the 2026 processing-instruction
/// states), named as there. `Eof` is where the machine rests once it has emitted the end of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Data,
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
    TagOpen,
    EndTagOpen,
    TagName,
    RcdataLessThanSign,
    RcdataEndTagOpen,
    RcdataEndTagName,
    RawtextLessThanSign,
    RawtextEndTagOpen,
    RawtextEndTagName,
    ScriptDataLessThanSign,
    ScriptDataEndTagOpen,
    ScriptDataEndTagName,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedLessThanSign,
    ScriptDataEscapedEndTagOpen,
    ScriptDataEscapedEndTagName,
    ScriptDataDoubleEscapeStart,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessThanSign,
    ScriptDataDoubleEscapeEnd,
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueDoubleQuoted,
    AttributeValueSingleQuoted,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
    BogusComment,
    MarkupDeclarationOpen,
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
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierDoubleQuoted,
    DoctypePublicIdentifierSingleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    DoctypeSystemIdentifierDoubleQuoted,
    DoctypeSystemIdentifierSingleQuoted,
    AfterDoctypeSystemIdentifier,
    BogusDoctype,
    CdataSection,
    CdataSectionBracket,
    CdataSectionEnd,
    /// Character reference state (and the named/numeric states after it, run by [`crate::refs::charref`]).
    CharacterReference,
    AmbiguousAmpersand,
    ProcessingInstructionOpen,
    ProcessingInstructionTarget,
    AfterProcessingInstructionTarget,
    ProcessingInstructionData,
    ProcessingInstructionQuestionable,
    /// Not a state of the standard: the data state waiting at the `<` of a tag or comment that
    /// the end of the window cuts off (or of a `<` or `</` it ends in), left unread until the
    /// next chunk brings its end (see [`Machine::wait_for_cut_tag`]).
    TagCut,
    Eof,
}

/// The machine's fixed settings.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Config {
    /// Detect and record parse errors.
    pub(crate) errors: bool,
    /// `<?` opens a bogus comment (before 2026) instead of a processing instruction.
    pub(crate) legacy_pi: bool,
    /// How many errors the machine keeps for the driver to take (`Options::max_errors`).
    pub(crate) max_errors: usize,
}

/// A short name kept beside the machine: the last start tag's name (as written), or the temporary
/// buffer of the script-data double-escape states (lowercased).
#[derive(Clone, Debug, Default)]
pub(crate) struct ShortName {
    /// The name, when it is at most 16 bytes long: its first `len` bytes.
    short: [u8; 16],
    len: usize,
    /// The name, when it is longer.
    long: Vec<u8>,
    /// Not empty, and every byte an ASCII letter (which setting bit 5 lowercases).
    letters: bool,
}

impl ShortName {
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.letters = false;
    }

    /// Append a letter, lowercased. Only the first seven are kept: enough to tell "script" from
    /// anything longer.
    pub(crate) fn push_lower(&mut self, b: u8) {
        debug_assert!(b.is_ascii_alphabetic(), "only letters are pushed");
        self.letters = true;
        if self.len < 7 {
            self.short[self.len] = b.to_ascii_lowercase();
            self.len += 1;
        }
    }

    /// Append letters, lowercased (see [`ShortName::push_lower`]).
    pub(crate) fn extend_lower(&mut self, letters: &[u8]) {
        for &c in letters {
            self.push_lower(c);
        }
    }

    /// Set the name as written (it is compared ASCII case-insensitively).
    pub(crate) fn set(&mut self, name: &[u8]) {
        self.len = name.len();
        self.letters = !name.is_empty() && name.iter().all(u8::is_ascii_alphabetic);
        match self.short.get_mut(..name.len()) {
            Some(short) => short.copy_from_slice(name),
            None => {
                self.long.clear();
                self.long.extend_from_slice(name);
            }
        }
    }

    /// Set the name as written to `window[start..end]`. This runs at every seam (see
    /// [`Machine::resolve_last_start_tag`]): a name of up to 16 bytes with 16 bytes of the window
    /// from its start is copied and checked as one block, with no call and no loop whose exit
    /// depends on its length.
    #[inline(always)]
    pub(crate) fn set_in(&mut self, window: &[u8], start: usize, end: usize) {
        let len = end - start;
        let block = window
            .get(start..start + 16)
            .and_then(|b| <&[u8; 16]>::try_from(b).ok());
        let Some(block) = block.filter(|_| len <= 16) else {
            return self.set(&window[start..end]);
        };
        self.short = *block;
        self.len = len;
        let name_lanes = (1u32 << len) - 1;
        self.letters = len != 0 && scan::letter_lanes(block) & name_lanes == name_lanes;
    }

    /// Whether `name` is this name in any ASCII case, both all letters (the only names an end
    /// tag name state reads).
    pub(crate) fn is_letters_as(&self, name: &[u8]) -> bool {
        let bytes = self.as_bytes();
        self.letters
            && name.len() == bytes.len()
            && name.iter().zip(bytes).all(|(a, b)| a | 0x20 == b | 0x20)
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.short.get(..self.len).unwrap_or(&self.long)
    }
}

/// The resumable tokenizer state machine.
pub(crate) struct Machine {
    pub(crate) config: Config,
    pub(crate) state: State,
    /// Where a character reference returns to (the spec's return state).
    return_state: State,
    /// Stream offset of the next byte to consume.
    pub(crate) pos: usize,
    /// Start of text not yet emitted; equals the start of the token in progress when there is one.
    text_start: usize,
    /// The kind of the pending text.
    text_kind: TextKind,
    /// Start of an undecided lookahead (`<` of a possible end tag, `]` of a possible CDATA end,
    /// `&` of a character reference being checked, `<` of a markup declaration).
    mark: usize,
    /// The token in progress, when the state is inside one.
    tok: Tok,
    /// The attributes of the tag in progress (or just emitted).
    pub(crate) attrs: Attrs,
    /// The DOCTYPE in progress, or just emitted.
    pub(crate) doctype: DoctypeRecord,
    /// The name of the last start tag emitted (for "appropriate end tag token"), once resolved.
    last_start_tag: ShortName,
    /// The span of the last start tag's name while it is only known by position: it is copied
    /// into `last_start_tag` when a text state that needs it is entered, or before its bytes go.
    last_start_tag_span: Option<Span>,
    /// The stream offset of the `<` of a tag the lane found right after text it handed out, and
    /// whether it is an end tag: when the lane is next called there, it lexes the tag without
    /// looking for it again (the bytes at an offset never change, so the offset alone says the
    /// finding still holds).
    pub(crate) known_tag: (usize, bool),
    /// The standard's temporary buffer, used by the script-data double-escape states.
    temp: ShortName,
    /// Whether `<![CDATA[` opens a CDATA section (the adjusted current node is not HTML).
    cdata_allowed: bool,
    /// Parse errors found since the driver last took them: (stream offset, code), at most
    /// [`Config::max_errors`], the others counted.
    pub(crate) errors: FoundErrors,
    /// The record just emitted (valid when a step returns [`Flow::Emit`]). Not an `Option`: taking
    /// it out of one cost a copy and a test more per token.
    out: Record,
    /// Where the last record handed out lets lexing resume: a consumer's feedback rewinds here.
    resume: usize,
    /// A numeric character reference left open at the last seam: (its `&`, how far its digits were
    /// checked).
    open_numeric_reference: OpenReference,
}

/// The tag, comment, DOCTYPE or processing instruction in progress.
#[derive(Clone, Copy, Debug, Default)]
struct Tok {
    start: usize,
    is_end_tag: bool,
    self_closing: bool,
    /// Tag name, comment data or PI target start.
    name_start: usize,
    name_end: usize,
    /// Attribute name or value start; PI data start.
    data_start: usize,
}

impl Machine {
    pub(crate) fn new(config: Config) -> Machine {
        Machine {
            config,
            state: State::Data,
            return_state: State::Data,
            pos: 0,
            text_start: 0,
            text_kind: TextKind::Data,
            mark: 0,
            tok: Tok::default(),
            attrs: Attrs::default(),
            doctype: DoctypeRecord::default(),
            last_start_tag: ShortName::default(),
            last_start_tag_span: None,
            known_tag: (usize::MAX, false),
            temp: ShortName::default(),
            cdata_allowed: false,
            errors: FoundErrors::new(config.max_errors),
            out: Record::text(Span::default(), TextKind::Data, 0),
            resume: 0,
            open_numeric_reference: OpenReference::default(),
        }
    }

    /// Back to the start of a new stream in the data state, keeping allocations.
    pub(crate) fn reset(&mut self) {
        self.set_text_state(TextKind::Data);
        self.pos = 0;
        self.text_start = 0;
        self.mark = 0;
        self.last_start_tag.clear();
        self.last_start_tag_span = None;
        self.known_tag = (usize::MAX, false);
        self.cdata_allowed = false;
        self.errors.clear();
        self.attrs.clear();
        self.resume = 0;
        self.open_numeric_reference.watch(None);
    }

    /// Start reading the stream at `offset` instead of 0, before anything is read: the bytes
    /// before it (a byte order mark) belong to no token.
    pub(crate) fn start_at(&mut self, offset: usize) {
        debug_assert_eq!(self.pos, 0, "the machine has read nothing yet");
        self.pos = offset;
        self.text_start = offset;
        self.mark = offset;
        self.resume = offset;
    }

    /// Switch to one of the text states between tokens (tree-builder feedback). Whatever was lexed
    /// ahead of the last record handed out (a tag not handed out yet, a token begun) is dropped and
    /// lexed again in the new state, as the standard's tokenizer would only then reach it. (With
    /// errors on, errors already reported for bytes lexed ahead stay reported; the machine only
    /// lexes ahead of text tokens, and tree builders switch states after start tags.)
    pub(crate) fn switch_text_state(&mut self, kind: TextKind) {
        self.pos = self.resume;
        self.text_start = self.resume;
        self.set_text_state(kind);
    }

    /// [`Machine::switch_text_state`] after a token from the window `last` (the iterator's
    /// feedback): the last start tag's name is kept from its bytes first, since the window may go
    /// before the appropriate end tag comes.
    pub(crate) fn switch_text_state_after(&mut self, kind: TextKind, last: Option<&Window>) {
        if let Some(window) = last {
            self.resolve_last_start_tag(window);
        }
        self.switch_text_state(kind);
    }

    /// Switch to one of the text states.
    /// The text state the machine reads text in now (after any switch the last token brought).
    pub(crate) fn text_kind(&self) -> TextKind {
        self.text_kind
    }

    pub(crate) fn set_text_state(&mut self, kind: TextKind) {
        self.state = match kind {
            TextKind::Data => State::Data,
            TextKind::Rcdata => State::Rcdata,
            TextKind::Rawtext => State::Rawtext,
            TextKind::ScriptData => State::ScriptData,
            TextKind::Plaintext => State::Plaintext,
            TextKind::Cdata => State::CdataSection,
        };
        self.text_kind = kind;
    }

    /// Set the name of the last start tag (tree-builder feedback, or a test's `lastStartTag`).
    pub(crate) fn set_last_start_tag(&mut self, name: &[u8]) {
        self.last_start_tag_span = None;
        self.last_start_tag.set(name);
    }

    /// Copy the last start tag's name out of `b` if it is still only known by position (call
    /// before entering a text state that compares end tags with it, and before `b`'s bytes go).
    #[inline(never)]
    pub(crate) fn resolve_last_start_tag(&mut self, b: &Window) {
        self.resolve_last_start_tag_inline(b);
    }

    /// [`Machine::resolve_last_start_tag`], inlined where a seam runs it: every seam does, and
    /// the call cost more than the copy.
    #[inline(always)]
    pub(crate) fn resolve_last_start_tag_inline(&mut self, b: &Window) {
        // Read, and cleared only when it was set (no three-word write of `None` over `None`).
        if let Some(span) = self.last_start_tag_span {
            self.last_start_tag_span = None;
            if span.start >= b.base && span.end <= b.end() {
                let (start, end) = (span.start - b.base, span.end - b.base);
                self.last_start_tag.set_in(b.bytes, start, end);
            }
        }
    }

    /// Allow or forbid CDATA sections (the adjusted current node is not / is in the HTML namespace).
    /// Whether CDATA sections are allowed: the adjusted current node is foreign (SVG or MathML).
    pub(crate) fn cdata_allowed(&self) -> bool {
        self.cdata_allowed
    }

    pub(crate) fn set_cdata_allowed(&mut self, allowed: bool) {
        self.cdata_allowed = allowed;
    }

    /// The earliest stream offset the machine may still need.
    pub(crate) fn retention(&self) -> usize {
        self.resume.min(self.text_start)
    }

    /// Whether the state functions would read nothing more from `b` (errors off): a lane left the
    /// data state, RCDATA, RAWTEXT or script data at the end of a window that is not the last
    /// (none of them holds anything back there but its text), or waits at a cut tag. A window
    /// that ends in `<` or `</` where the lane left the data state waits there too: the next chunk
    /// tells what that opens, so the machine waits at the `<` for it, as at a cut tag
    /// ([`State::TagCut`]).
    pub(crate) fn waits_for_next_chunk(&mut self, b: &Window) -> bool {
        if self.config.errors || b.eof {
            return false;
        }
        // Compares, not a `match`: that compiled to a jump table, an indirect jump that every
        // seam took cold.
        if self.state == State::TagCut {
            return true;
        }
        if !self.in_lane_text_state() {
            return false;
        }
        if self.pos == b.end() {
            return true;
        }
        let cut = self.state == State::Data && matches!(b.rest(self.pos), b"<" | b"</");
        if cut {
            self.state = State::TagCut;
        }
        cut
    }

    /// Whether the machine is in the data state, RCDATA, RAWTEXT or script data: the states a
    /// lane reads text in to the end of a window, where the pending text reaches `pos`. One
    /// compare (their discriminants are 0 to 3), where a `match` over states compiled to a jump
    /// table that the seams took cold.
    #[inline(always)]
    fn in_lane_text_state(&self) -> bool {
        matches!(
            self.state,
            State::Data | State::Rcdata | State::Rawtext | State::ScriptData
        )
    }

    /// Whether the machine has reached the end of input and handed out every record.
    pub(crate) fn is_done(&self) -> bool {
        self.state == State::Eof
    }

    /// Run until a record is emitted (`Some`), or the window is exhausted or the input over (`None`;
    /// [`Machine::is_done`] tells which).
    #[inline(never)]
    pub(crate) fn run(&mut self, b: &Window) -> Option<Record> {
        loop {
            match self.step(b) {
                Flow::Continue => {}
                Flow::Emit => {
                    self.settle_attributes(b);
                    return Some(self.hand_out(self.out));
                }
                Flow::NeedMore => {
                    self.settle_attributes(b);
                    return None;
                }
            }
        }
    }

    /// A record leaves the machine: a start tag becomes the last start tag.
    #[inline(always)]
    fn hand_out(&mut self, record: Record) -> Record {
        self.resume = record.resume;
        if let Kind::StartTag { .. } = record.kind {
            self.last_start_tag_span = Some(record.part);
        }
        record
    }

    /// One state's worth of work.
    #[inline(always)]
    fn step(&mut self, b: &Window) -> Flow {
        match self.state {
            State::Data => self.data_state(b),
            _ => self.step_other(b),
        }
    }

    /// One state's worth of work, for every state but data (kept out of line so that the data
    /// state's hot path stays small).
    #[inline(never)]
    fn step_other(&mut self, b: &Window) -> Flow {
        use State::*;
        match self.state {
            Data => self.data_state(b),
            Rcdata => self.rcdata_state(b),
            Rawtext => self.rawtext_state(b),
            ScriptData => self.script_data_state(b),
            Plaintext => self.plaintext_state(b),
            TagOpen => self.tag_open_state(b),
            EndTagOpen => self.end_tag_open_state(b),
            TagName => self.tag_name_state(b),
            RcdataLessThanSign => self.raw_less_than_sign_state(b, Rcdata, RcdataEndTagOpen),
            RcdataEndTagOpen => self.raw_end_tag_open_state(b, Rcdata, RcdataEndTagName),
            RcdataEndTagName => self.raw_end_tag_name_state(b, Rcdata),
            RawtextLessThanSign => self.raw_less_than_sign_state(b, Rawtext, RawtextEndTagOpen),
            RawtextEndTagOpen => self.raw_end_tag_open_state(b, Rawtext, RawtextEndTagName),
            RawtextEndTagName => self.raw_end_tag_name_state(b, Rawtext),
            ScriptDataLessThanSign => self.script_data_less_than_sign_state(b),
            ScriptDataEndTagOpen => {
                self.raw_end_tag_open_state(b, ScriptData, ScriptDataEndTagName)
            }
            ScriptDataEndTagName => self.raw_end_tag_name_state(b, ScriptData),
            ScriptDataEscapeStart => self.script_data_escape_start_state(b),
            ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(b),
            ScriptDataEscaped => self.script_data_escaped_state(b),
            ScriptDataEscapedDash => self.script_data_escaped_dash_state(b),
            ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(b),
            ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(b),
            ScriptDataEscapedEndTagOpen => {
                self.raw_end_tag_open_state(b, ScriptDataEscaped, ScriptDataEscapedEndTagName)
            }
            ScriptDataEscapedEndTagName => self.raw_end_tag_name_state(b, ScriptDataEscaped),
            ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(b),
            ScriptDataDoubleEscaped => self.script_data_double_escaped_state(b),
            ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(b),
            ScriptDataDoubleEscapedDashDash => self.script_data_double_escaped_dash_dash_state(b),
            ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state(b)
            }
            ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(b),
            BeforeAttributeName => self.before_attribute_name_state(b),
            AttributeName => self.attribute_name_state(b),
            AfterAttributeName => self.after_attribute_name_state(b),
            BeforeAttributeValue => self.before_attribute_value_state(b),
            AttributeValueDoubleQuoted => self.attribute_value_quoted_state(b, b'"'),
            AttributeValueSingleQuoted => self.attribute_value_quoted_state(b, b'\''),
            AttributeValueUnquoted => self.attribute_value_unquoted_state(b),
            AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(b),
            SelfClosingStartTag => self.self_closing_start_tag_state(b),
            BogusComment => self.bogus_comment_state(b),
            MarkupDeclarationOpen => self.markup_declaration_open_state(b),
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
            Doctype => self.doctype_state(b),
            BeforeDoctypeName => self.before_doctype_name_state(b),
            DoctypeName => self.doctype_name_state(b),
            AfterDoctypeName => self.after_doctype_name_state(b),
            AfterDoctypePublicKeyword => self.after_doctype_keyword_state(b, true),
            AfterDoctypeSystemKeyword => self.after_doctype_keyword_state(b, false),
            BeforeDoctypePublicIdentifier => self.before_doctype_identifier_state(b, true),
            BeforeDoctypeSystemIdentifier => self.before_doctype_identifier_state(b, false),
            DoctypePublicIdentifierDoubleQuoted => self.doctype_identifier_state(b, true, b'"'),
            DoctypePublicIdentifierSingleQuoted => self.doctype_identifier_state(b, true, b'\''),
            DoctypeSystemIdentifierDoubleQuoted => self.doctype_identifier_state(b, false, b'"'),
            DoctypeSystemIdentifierSingleQuoted => self.doctype_identifier_state(b, false, b'\''),
            AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(b),
            BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state(b)
            }
            AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(b),
            BogusDoctype => self.bogus_doctype_state(b),
            CdataSection => self.cdata_section_state(b),
            CdataSectionBracket => self.cdata_section_bracket_state(b),
            CdataSectionEnd => self.cdata_section_end_state(b),
            CharacterReference => self.character_reference_state(b),
            AmbiguousAmpersand => self.ambiguous_ampersand_state(b),
            ProcessingInstructionOpen => self.processing_instruction_open_state(b),
            ProcessingInstructionTarget => self.processing_instruction_target_state(b),
            AfterProcessingInstructionTarget => self.after_processing_instruction_target_state(b),
            ProcessingInstructionData => self.processing_instruction_data_state(b),
            ProcessingInstructionQuestionable => self.processing_instruction_questionable_state(b),
            TagCut | Eof => Flow::NeedMore,
        }
    }

    // ---- shared actions -------------------------------------------------------------------------

    /// Record a parse error at stream offset `at` (when errors are on).
    #[inline]
    pub(crate) fn error(&mut self, code: ErrorCode, at: usize) {
        if self.config.errors {
            self.errors.push(at, code);
        }
    }

    /// Record the parse error `code` at every offset in `at` (when errors are on).
    pub(crate) fn error_run(&mut self, code: ErrorCode, at: std::ops::Range<usize>) {
        if self.config.errors {
            self.errors.push_run(code, at);
        }
    }

    /// The NUL under the cursor and the NULs right after it (errors on): one
    /// unexpected-null-character each, recorded and stepped over at once (a storm of them costs
    /// no state dispatch per NUL).
    pub(crate) fn step_over_nulls(&mut self, b: &Window) {
        let run = b.run_of(0, self.pos);
        self.error_run(ErrorCode::UnexpectedNullCharacter, self.pos..self.pos + run);
        self.pos += run;
    }

    /// Record a parse error at the current input character.
    #[inline]
    pub(crate) fn error_here(&mut self, code: ErrorCode) {
        let at = self.pos;
        self.error(code, at);
    }

    /// The byte at the current position, or what to do at the end of the window: `Err(NeedMore)`
    /// when more input may come, `Ok(None)` at the end of input.
    #[inline]
    pub(crate) fn current(&self, b: &Window) -> Result<Option<u8>, Flow> {
        match b.at(self.pos) {
            Some(c) => Ok(Some(c)),
            None if b.eof => Ok(None),
            None => Err(Flow::NeedMore),
        }
    }

    /// Emit the pending text `[text_start, end)` if it is not empty; the next text starts at `next`.
    /// Returns whether a record was produced.
    pub(crate) fn flush_text(&mut self, end: usize, next: usize) -> bool {
        match self.take_text(end, next) {
            Some(record) => {
                self.push_record(record);
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

    /// Put an emitted record out (one per step).
    fn push_record(&mut self, record: Record) {
        self.out = record;
    }

    /// Start a token at `start` (the `<`), first emitting the text before it.
    pub(crate) fn begin_token(&mut self, start: usize) -> bool {
        self.tok = Tok {
            start,
            ..Tok::default()
        };
        self.flush_text(start, start)
    }

    /// Emit `record`, which ends just before `end`; continue in the data state.
    pub(crate) fn emit_token(&mut self, record: Record, end: usize) -> Flow {
        self.push_record(record);
        self.pos = end;
        self.text_start = end;
        self.state = State::Data;
        self.text_kind = TextKind::Data;
        Flow::Emit
    }

    /// The end of input inside a token that the standard drops (EOF in tag, in PI): nothing is
    /// emitted for it, the machine is done.
    pub(crate) fn drop_token_at_eof(&mut self, b: &Window) -> Flow {
        self.pos = b.end();
        self.text_start = b.end();
        self.state = State::Eof;
        Flow::Continue
    }

    /// `Flow::Emit` when `emitted`, else `Flow::Continue`.
    #[inline]
    pub(crate) fn flow(emitted: bool) -> Flow {
        if emitted { Flow::Emit } else { Flow::Continue }
    }

    /// At the end of a window that is not the end of input: emit the pending text up to the last
    /// point where cutting cannot change how it decodes (not inside a character reference, a CRLF
    /// pair or a UTF-8 sequence). Returns the record, if any.
    #[inline]
    pub(crate) fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        // Pending text reaches `pos` or `mark` at most: nothing to look at when it starts there
        // (as at the `<` of a tag the seam cut off).
        if self.text_start >= self.pos.max(self.mark) {
            return None;
        }
        self.flush_pending_text_at_seam(b)
    }

    /// [`Machine::flush_text_at_seam`] when some text may be pending.
    #[inline(never)]
    fn flush_pending_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        let limit = self.pending_text_limit()?.min(b.end());
        if limit <= self.text_start
            || (self.open_numeric_reference.is_open()
                && self
                    .open_numeric_reference
                    .still_open(b, self.text_start, limit))
        {
            return None;
        }
        let text = &b.bytes[self.text_start - b.base..limit - b.base];
        let cut = self.text_start + crate::lex::safe_cut(text, self.text_kind);
        let numeric = cut < limit && b.rest(cut).starts_with(b"&#");
        self.open_numeric_reference
            .watch(numeric.then_some((cut, limit)));
        // Built where it is returned, not through the machine's output slot.
        self.take_text(cut, cut).map(|r| self.hand_out(r))
    }

    /// How far pending text reaches in the current state, or `None` inside a token.
    #[inline(always)]
    fn pending_text_limit(&self) -> Option<usize> {
        // The states most seams find first, without the jump table of the full `match`.
        if self.in_lane_text_state() {
            return Some(self.pos);
        }
        self.pending_text_limit_in_other_states()
    }

    /// [`Machine::pending_text_limit`], the full `match` (asked only in the other states).
    #[inline(never)]
    fn pending_text_limit_in_other_states(&self) -> Option<usize> {
        use State::*;
        match self.state {
            Data
            | TagCut
            | Rcdata
            | Rawtext
            | ScriptData
            | Plaintext
            | CdataSection
            | ScriptDataEscapeStart
            | ScriptDataEscapeStartDash
            | ScriptDataEscaped
            | ScriptDataEscapedDash
            | ScriptDataEscapedDashDash
            | ScriptDataDoubleEscapeStart
            | ScriptDataDoubleEscaped
            | ScriptDataDoubleEscapedDash
            | ScriptDataDoubleEscapedDashDash
            | ScriptDataDoubleEscapedLessThanSign
            | ScriptDataDoubleEscapeEnd => Some(self.pos),
            TagOpen
            | EndTagOpen
            | MarkupDeclarationOpen
            | RcdataLessThanSign
            | RcdataEndTagOpen
            | RcdataEndTagName
            | RawtextLessThanSign
            | RawtextEndTagOpen
            | RawtextEndTagName
            | ScriptDataLessThanSign
            | ScriptDataEndTagOpen
            | ScriptDataEndTagName
            | ScriptDataEscapedLessThanSign
            | ScriptDataEscapedEndTagOpen
            | ScriptDataEscapedEndTagName
            | CdataSectionBracket
            | CdataSectionEnd => Some(self.mark),
            CharacterReference if !self.in_attribute() => Some(self.mark),
            AmbiguousAmpersand if !self.in_attribute() => Some(self.pos),
            _ => None,
        }
    }

    /// Enter the character reference state from `return_state` at the `&` under the cursor (errors
    /// on only: with errors off the decoders resolve references).
    pub(crate) fn begin_character_reference(&mut self, return_state: State) {
        self.return_state = return_state;
        self.mark = self.pos;
        self.state = State::CharacterReference;
    }

    /// The return state is an attribute value state.
    fn in_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// §13.2.5.72 Character reference state, through the numeric and named states (see [`crate::lex::OpenReference::read`]):
    /// only their errors matter here; the decoders produce the replacement text.
    fn character_reference_state(&mut self, b: &Window) -> Flow {
        let in_attribute = self.in_attribute();
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

    /// §13.2.5.74 Ambiguous ampersand state.
    fn ambiguous_ampersand_state(&mut self, b: &Window) -> Flow {
        let rest = b.rest(self.pos);
        let run = rest
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

/// ASCII whitespace as the tokenizer sees it: TAB, LF, FF, space, and CR (which preprocessing turns
/// into LF).
#[inline(always)]
pub(crate) fn is_whitespace(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r')
}

/// Index of the first non-whitespace byte of `bytes` at or after `i`.
#[inline]
pub(crate) fn skip_whitespace(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_whitespace(bytes[i]) {
        i += 1;
    }
    i
}
