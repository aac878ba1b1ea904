//! XML5: the XML5 draft's tokenizer (spec/002 §1.3) on the shared streaming driver.
//!
//! XML5 reads any XML, well-formed or not, the way HTML's tokenizer reads any HTML: it never
//! stops, it reports what is wrong. [`Tokenizer`] is its public face, with the same streaming,
//! pausing, limits, positions and parse errors as [`crate::Tokenizer`], and the same [`Token`]s:
//!
//! | XML5 token | [`Token`] |
//! |---|---|
//! | start tag `<a x="1">` | [`Token::StartTag`] |
//! | empty tag `<a/>` | [`Token::StartTag`] with [`StartTag::self_closing`](crate::StartTag::self_closing) |
//! | end tag `</a>` | [`Token::EndTag`] |
//! | short end tag `</>` | [`Token::EndTag`] with an empty name |
//! | character data | [`Token::Text`] of [`TextKind::Data`](crate::TextKind::Data) |
//! | CDATA section `<![CDATA[…]]>` | [`Token::Text`] of [`TextKind::Cdata`](crate::TextKind::Cdata) (its content) |
//! | processing instruction `<?t d?>`, XML declaration | [`Token::ProcessingInstruction`] (target `xml` for the declaration) |
//! | comment | [`Token::Comment`] |
//! | DOCTYPE, with its internal subset | [`Token::Doctype`] ([`Doctype::raw_internal_subset`](crate::Doctype::raw_internal_subset)) |
//!
//! Names keep their case (the DOCTYPE name is ASCII-lowercased, as the draft says); character
//! references use HTML's named table (with its legacy names and attribute rule) and numeric rules;
//! NUL becomes U+FFFD; CR and CRLF become LF.
//!
//! Bytes in another encoding (feature `encoding`): for a whole document,
//! `tagstream::encoding::decode_document(bytes, None, encoding_rs::UTF_8)` decodes it by its BOM,
//! else by its XML declaration's `encoding` (the encoding module's prescan reads it), else as
//! UTF-8, ready for [`Tokenizer::tokenize`]. (The streaming transcoder is HTML's for now.)
//!
//! Of [`Options`], XML5 reads the general fields: `errors`, `max_errors`, `track_positions`,
//! `validate_utf8`, `strip_bom`, `max_carry`, `max_arena`. The HTML-only ones (initial state,
//! last start tag, CDATA permission, legacy processing instructions, simulation, scripting) are
//! ignored.
//!
//! Parse errors ([`Options::errors`]) reuse HTML's codes where XML5 does what HTML does; two
//! are XML5's own. Each comes with its offset and line and column. The codes XML5 reports:
//!
//! | code | when |
//! |---|---|
//! | `invalid-first-character-of-tag-name` | `<` or `</` followed by whitespace, `:`, `<` (or `>` after `<`): text |
//! | `eof-before-tag-name` | the input ends after `<` or `</` |
//! | `eof-in-tag` | the input ends in a tag (it is emitted as it is) |
//! | `end-tag-with-trailing-solidus` | `/` after an end tag's name |
//! | `end-tag-with-attributes` | each character but whitespace between an end tag's name and `>` |
//! | `unexpected-solidus-in-tag` | `/` in a start tag not followed by `>` |
//! | `colon-before-attribute` | `:` where an attribute name would start (XML5's own) |
//! | `duplicate-attribute` | an attribute name repeats one of the tag's (the first wins) |
//! | `invalid-first-character-of-processing-instruction-target` | whitespace after `<?`: a bogus comment |
//! | `eof-in-processing-instruction` | the input ends in a processing instruction (or after `<?`) |
//! | `incorrectly-opened-comment` | `<!` not followed by `--`, `[CDATA[` or `DOCTYPE`: a bogus comment |
//! | `abrupt-closing-of-empty-comment` | `<!-->` or `<!--->` |
//! | `nested-comment` | `<!--` inside a comment |
//! | `incorrectly-closed-comment` | a comment closed by `--!>` |
//! | `eof-in-comment` | the input ends in a comment |
//! | `eof-in-cdata` | the input ends in a CDATA section |
//! | `eof-in-doctype` | the input ends in a DOCTYPE |
//! | `missing-whitespace-before-doctype-name`, `missing-doctype-name`, `invalid-character-sequence-after-doctype-name`, `missing-whitespace-after-doctype-public-keyword`, `missing-whitespace-after-doctype-system-keyword`, `missing-doctype-public-identifier`, `missing-doctype-system-identifier`, `missing-quote-before-doctype-public-identifier`, `missing-quote-before-doctype-system-identifier`, `abrupt-doctype-public-identifier`, `abrupt-doctype-system-identifier`, `missing-whitespace-between-doctype-public-and-system-identifiers`, `unexpected-character-after-doctype-system-identifier` | as in HTML's DOCTYPE states |
//! | `unexpected-character-after-doctype-internal-subset` | anything but whitespace between the internal subset's `]` and `>` (XML5's own) |
//! | `missing-semicolon-after-character-reference`, `unknown-named-character-reference`, `absence-of-digits-in-numeric-character-reference`, `null-character-reference`, `character-reference-outside-unicode-range`, `surrogate-character-reference`, `noncharacter-character-reference`, `control-character-reference` | character references, as in HTML |
//! | `control-character-in-input-stream`, `noncharacter-in-input-stream` | the input stream, as in HTML |
//!
//! ```
//! use tagstream::{Token, xml5};
//!
//! let mut tokenizer = xml5::Tokenizer::default();
//! let mut seen = Vec::new();
//! for token in tokenizer.tokenize(b"<?xml version='1.0'?><svg viewBox='0 0 1 1'><g/></></svg>") {
//!     seen.push(match token {
//!         Token::ProcessingInstruction(pi) => format!("pi {}", pi.target()),
//!         Token::StartTag(t) if t.self_closing() => format!("empty {}", t.name()),
//!         Token::StartTag(t) => format!("start {} {}", t.name(), t.attribute("viewBox").unwrap().value()),
//!         Token::EndTag(t) => format!("end {:?}", t.name()),
//!         _ => "other".to_string(),
//!     });
//! }
//! assert_eq!(seen, ["pi xml", "start svg 0 0 1 1", "empty g", "end \"\"", "end \"svg\""]);
//! ```

mod cdata;
mod comment;
mod doctype;
mod lane;
mod machine;
mod pi;
mod tag;
mod text;

use std::iter::FusedIterator;

use crate::dialect::{Dialect, Lexer};
use crate::error::{DroppedErrors, FoundErrors, LimitError, ParseError, Position};
use crate::feedback::Feedback;
use crate::machine::Attrs;
use crate::options::Options;
use crate::span::{DoctypeRecord, Kind, Lexeme, Record, Span, Window};
use crate::token::{EndTag, StartTag, Text, Token};
use crate::tokenizer::{Pull, Stream};

use machine::Machine;

/// The XML5 dialect.
pub(crate) struct Xml5;

impl Dialect for Xml5 {
    type Lexer = Machine;
    type Stage = NoStage;
    const XML: bool = true;

    fn lexer(options: &Options) -> Machine {
        Machine::new(options.errors, options.max_errors)
    }

    fn stage(_: &Options) -> NoStage {
        NoStage
    }
}

/// XML5's tree stage until the namespace and tree stage takes its place: it looks at no token.
pub(crate) struct NoStage;

impl Feedback for NoStage {
    type Lexer = Machine;

    #[inline(always)]
    fn wants(&self, _: Kind, _: Span, _: &[u8], _: usize) -> bool {
        false
    }

    #[inline(always)]
    fn wants_record(&self, _: Kind, _: Span, _: &[u8], _: usize) -> bool {
        false
    }

    fn lets_pass(&self, _: Span) -> bool {
        true
    }

    fn start_tag<'t>(&mut self, tag: StartTag<'t>, _: &mut Machine) -> Option<Token<'t>> {
        Some(Token::StartTag(tag))
    }

    fn end_tag<'t>(&mut self, tag: EndTag<'t>, _: &mut Machine) -> Option<Token<'t>> {
        Some(Token::EndTag(tag))
    }

    fn text<'t>(&mut self, text: Text<'t>, _: &mut Machine) -> Option<Token<'t>> {
        Some(Token::Text(text))
    }

    fn token(&mut self, _: &Token<'_>, _: &mut Machine) {}

    fn reset(&mut self) {}
}

/// XML5 has one fast lane (see `lane.rs`) and no cut-token rule: a token a seam cuts is carried
/// and read on by the state functions.
impl Lexer for Machine {
    fn reset(&mut self, _: &Options) {
        Machine::reset(self);
    }

    fn start_at(&mut self, offset: usize) {
        Machine::start_at(self, offset);
    }

    #[inline(always)]
    fn errors_on(&self) -> bool {
        self.errors_on
    }

    #[inline(always)]
    fn errors(&self) -> &FoundErrors {
        &self.errors
    }

    #[inline(always)]
    fn errors_mut(&mut self) -> &mut FoundErrors {
        &mut self.errors
    }

    #[inline(always)]
    fn run(&mut self, b: &Window) -> Option<Record> {
        Machine::run(self, b)
    }

    #[inline(always)]
    fn is_done(&self) -> bool {
        Machine::is_done(self)
    }

    #[inline(always)]
    fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn retention(&self) -> usize {
        self.text_start
    }

    #[inline(always)]
    fn attrs(&self) -> &Attrs {
        &self.attrs
    }

    #[inline(always)]
    fn doctype(&self) -> &DoctypeRecord {
        &self.doctype
    }

    fn flush_text_at_seam(&mut self, b: &Window) -> Option<Record> {
        Machine::flush_text_at_seam(self, b)
    }

    fn keep_at_seam(&mut self, _: &Window) {}

    fn keep_at_seam_inline(&mut self, _: &Window) {}

    fn waits_for_next_chunk(&mut self, _: &Window) -> bool {
        false
    }

    fn settle_before_seam(&mut self, _: &Window) {}

    fn resume_cut_token(&mut self) -> bool {
        false
    }

    fn wait_for_cut_token_again(&mut self) {}

    fn cut_token_end(_: &[u8], _: &[u8]) -> Option<usize> {
        None
    }

    #[inline(always)]
    fn lane_open(&self) -> bool {
        Machine::lane_open(self)
    }

    #[inline(always)]
    fn lex_lane(&mut self, b: &Window) -> Lexeme {
        Machine::lex_lane(self, b)
    }

    #[inline(always)]
    fn raw_lane_open(&self) -> bool {
        false
    }

    fn lex_raw_lane(&mut self, _: &Window) -> Lexeme {
        Lexeme::Elsewhere
    }
}

/// An XML5 tokenizer for whole documents or chunked streams: [`crate::Tokenizer`]'s twin for
/// XML5 (see the [module docs](self) for the tokens and errors). It owns the arena that decoded
/// strings and attribute lists live in, reset at every feed.
///
/// ```
/// use tagstream::{Options, Token, xml5};
/// let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(true));
/// let mut names = Vec::new();
/// for chunk in [&b"<Feed><En"[..], b"try a='1' a='2'/></Feed>"] {
///     for token in tokenizer.feed(chunk) {
///         if let Token::StartTag(tag) = token {
///             names.push(tag.name().to_string());
///         }
///     }
/// }
/// tokenizer.finish().for_each(drop);
/// assert_eq!(names, ["Feed", "Entry"]);
/// assert_eq!(tokenizer.errors()[0].code.as_str(), "duplicate-attribute");
/// ```
pub struct Tokenizer {
    inner: Stream<Xml5>,
}

impl Default for Tokenizer {
    fn default() -> Tokenizer {
        Tokenizer::new(Options::default())
    }
}

impl Tokenizer {
    /// A tokenizer at the start of a stream.
    pub fn new(options: Options) -> Tokenizer {
        Tokenizer {
            inner: Stream::new(options),
        }
    }

    /// Start over with a new stream, keeping the allocations.
    pub fn reset(&mut self) {
        self.inner.reset()
    }

    /// Tokenize `input` as one complete document (see [`crate::Tokenizer::tokenize`]).
    pub fn tokenize<'t>(&'t mut self, input: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.tokenize(input),
        }
    }

    /// Feed the next chunk of a stream (see [`crate::Tokenizer::feed`]).
    pub fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.feed(chunk),
        }
    }

    /// The stream is over: yields the tokens still pending (see [`crate::Tokenizer::finish`]).
    pub fn finish(&mut self) -> Tokens<'_> {
        Tokens {
            inner: self.inner.finish(),
        }
    }

    /// Where the byte order mark that [`Options::strip_bom`] stripped was, if there was one.
    pub fn bom(&self) -> Option<Span> {
        self.inner.bom()
    }

    /// The parse errors reported and not taken yet, in stream order.
    pub fn errors(&self) -> &[ParseError] {
        self.inner.errors()
    }

    /// Take the parse errors reported so far.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.inner.take_errors()
    }

    /// Take the parse errors reported so far, keeping the allocation.
    pub fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.inner.drain_errors()
    }

    /// The parse errors past [`Options::max_errors`], counted by code.
    pub fn dropped_errors(&self) -> DroppedErrors {
        self.inner.dropped_errors()
    }

    /// The memory limit the stream stopped at, if it did (see [`crate::Tokenizer::limit_error`]).
    pub fn limit_error(&self) -> Option<LimitError> {
        self.inner.limit_error()
    }

    /// Whether every byte fed so far was valid UTF-8, when checked (see
    /// [`crate::Tokenizer::is_valid_utf8`]).
    pub fn is_valid_utf8(&self) -> Option<bool> {
        self.inner.is_valid_utf8()
    }
}

/// The tokens of one document or one fed chunk; see [`Tokenizer`].
pub struct Tokens<'t> {
    inner: Pull<'t, Xml5>,
}

impl Tokens<'_> {
    /// The parse errors reported and not taken yet, in stream order.
    pub fn errors(&self) -> &[ParseError] {
        self.inner.errors()
    }

    /// Take the parse errors reported so far.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.inner.take_errors()
    }

    /// Take the parse errors reported so far, keeping the allocation: called between tokens,
    /// the errors found while producing the last one.
    pub fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.inner.drain_errors()
    }

    /// The parse errors past [`Options::max_errors`], counted by code.
    pub fn dropped_errors(&self) -> DroppedErrors {
        self.inner.dropped_errors()
    }

    /// Line and column of a stream offset the tokenizer still holds (see
    /// [`crate::Tokens::position`]).
    pub fn position(&mut self, offset: usize) -> Option<Position> {
        self.inner.position(offset)
    }

    /// Where the stripped byte order mark was, if there was one.
    pub fn bom(&self) -> Option<Span> {
        self.inner.bom()
    }
}

impl<'t> Iterator for Tokens<'t> {
    type Item = Token<'t>;

    #[inline]
    fn next(&mut self) -> Option<Token<'t>> {
        self.inner.next_token()
    }
}

impl FusedIterator for Tokens<'_> {}
