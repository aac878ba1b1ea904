//! The HTML tokenizer: the streaming driver ([`crate::tokenizer`]) for the HTML dialect, with the
//! switches HTML's tree construction makes between tokens.

use std::iter::FusedIterator;

use crate::error::{DroppedErrors, LimitError, ParseError, Position};
use crate::html::dialect::Html;
use crate::html::simulator::Ambiguity;
use crate::options::Options;
use crate::span::{Span, TextKind};
use crate::token::Token;
use crate::tokenizer::{Pull, Stream};

/// A tokenizer for whole documents or chunked streams. It owns the arena that decoded strings and
/// attribute lists live in, reset in bulk at every [`feed`](Tokenizer::feed) or
/// [`tokenize`](Tokenizer::tokenize), so a tokenizer reused across documents stops allocating.
///
/// Memory: streaming, the chunk, the unfinished token carried to the next feed
/// ([`Options::max_carry`]) and the arena ([`Options::max_arena`]). With parse errors on, add the
/// errors not taken yet: at most [`Options::max_errors`] stored, and as many in each internal
/// queue, 96 bytes per error of the cap in all (6 MiB by default, whatever the input); past the
/// cap errors are only counted ([`Tokenizer::dropped_errors`]). Draining them as they come
/// ([`Tokens::drain_errors`] between tokens, [`Tokenizer::drain_errors`] after a feed) keeps
/// every one and frees their room.
///
/// Whole document:
/// ```
/// use tagstream::{Token, Tokenizer};
/// let mut tokenizer = Tokenizer::default();
/// let tags = tokenizer
///     .tokenize(b"<a href=x>1</a><b>2</b>")
///     .filter(|t| matches!(t, Token::StartTag(_)))
///     .count();
/// assert_eq!(tags, 2);
/// ```
///
/// Streaming (tokens borrow the chunk, and the carried bytes, until the next feed):
/// ```
/// use tagstream::{Options, Token, Tokenizer};
/// let mut tokenizer = Tokenizer::new(Options::default());
/// let mut text = String::new();
/// for chunk in [&b"<p>Hel"[..], b"lo &am", b"p; world</", b"p>"] {
///     for token in tokenizer.feed(chunk) {
///         if let Token::Text(t) = token {
///             text.push_str(t.text());
///         }
///     }
/// }
/// for token in tokenizer.finish() {
///     if let Token::Text(t) = token {
///         text.push_str(t.text());
///     }
/// }
/// assert_eq!(text, "Hello & world");
/// ```
pub struct Tokenizer {
    inner: Stream<Html>,
}

impl Default for Tokenizer {
    fn default() -> Tokenizer {
        Tokenizer::new(Options::default())
    }
}

impl Tokenizer {
    /// A tokenizer at the start of a stream.
    #[inline(always)]
    pub fn new(options: Options) -> Tokenizer {
        Tokenizer {
            inner: Stream::new(options),
        }
    }

    /// Start over with a new stream, keeping the allocations (arena, buffers).
    #[inline(always)]
    pub fn reset(&mut self) {
        self.inner.reset()
    }

    /// Tokenize `input` as one complete document. The tokenizer starts over by itself (no
    /// [`reset`](Tokenizer::reset) needed before, whatever it did last), and is at the end of
    /// that document afterwards: a [`feed`](Tokenizer::feed) then starts a new one.
    #[inline(always)]
    pub fn tokenize<'t>(&'t mut self, input: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.tokenize(input),
        }
    }

    /// Feed the next chunk of a stream; the iterator yields the tokens it completes.
    ///
    /// After [`finish`](Tokenizer::finish) (or [`tokenize`](Tokenizer::tokenize)) the stream is
    /// over, and `feed` starts a new one, as if [`reset`](Tokenizer::reset) had been called: the
    /// old stream's tokens that a paused `finish` had not handed out are dropped (call `finish`
    /// again to get them first).
    ///
    /// ```
    /// use tagstream::{Token, Tokenizer};
    /// let mut tokenizer = Tokenizer::default();
    /// let names = |tokens: tagstream::Tokens| {
    ///     tokens.filter_map(|t| match t {
    ///         Token::StartTag(tag) => Some(tag.name().to_owned()),
    ///         _ => None,
    ///     })
    ///     .collect::<Vec<_>>()
    /// };
    /// assert_eq!(names(tokenizer.feed(b"<a><b")), ["a"]);
    /// assert_eq!(names(tokenizer.finish()), Vec::<String>::new()); // `<b` at the end: dropped
    /// assert_eq!(names(tokenizer.feed(b"<i>")), ["i"]); // a new document
    /// ```
    #[inline]
    pub fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.feed(chunk),
        }
    }

    /// The stream is over: yields the tokens still pending. Calling it again resumes a paused
    /// `finish` (an iterator dropped early) and yields nothing after that.
    #[inline(always)]
    pub fn finish(&mut self) -> Tokens<'_> {
        Tokens {
            inner: self.inner.finish(),
        }
    }

    /// Where the byte order mark that [`Options::strip_bom`] stripped was (bytes 0 to 3 of the
    /// stream), if there was one: those bytes are in no token.
    #[inline(always)]
    pub fn bom(&self) -> Option<Span> {
        self.inner.bom()
    }

    /// Feed the last chunk and end the stream in one go ([`feed`](Tokenizer::feed) then
    /// [`finish`](Tokenizer::finish), as one iterator).
    #[cfg(feature = "encoding")]
    #[inline(always)]
    pub(crate) fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.feed_last(chunk),
        }
    }

    /// The first stream offset the tokenizer still holds (what it carries into the next feed):
    /// no token of a later feed starts before it.
    #[cfg(feature = "encoding")]
    #[inline(always)]
    pub(crate) fn retained_from(&self) -> usize {
        self.inner.retained_from()
    }

    /// The parse errors reported and not taken yet (when [`Options::errors`] is on), in stream
    /// order: at most [`Options::max_errors`].
    #[inline(always)]
    pub fn errors(&self) -> &[ParseError] {
        self.inner.errors()
    }

    /// Take the parse errors reported so far, making room for as many.
    #[inline(always)]
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.inner.take_errors()
    }

    /// Take the parse errors reported so far, in stream order, keeping the allocation: the
    /// errors a feed brought, drained after it (see also [`Tokens::drain_errors`]). Dropping the
    /// iterator removes the rest.
    ///
    /// ```
    /// use tagstream::{ErrorCode, Options, Tokenizer};
    /// let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    /// let mut codes = Vec::new();
    /// for chunk in [&b"<a b=1 b=2"[..], b"></c d>"] {
    ///     tokenizer.feed(chunk).for_each(drop);
    ///     codes.extend(tokenizer.drain_errors().map(|e| e.code));
    /// }
    /// tokenizer.finish().for_each(drop);
    /// codes.extend(tokenizer.drain_errors().map(|e| e.code));
    /// assert_eq!(codes, [ErrorCode::DuplicateAttribute, ErrorCode::EndTagWithAttributes]);
    /// ```
    #[inline(always)]
    pub fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.inner.drain_errors()
    }

    /// The parse errors found past [`Options::max_errors`] since the start of the stream,
    /// counted by code, not stored. Stored (taken or not) and dropped errors together are every
    /// parse error of the stream so far.
    #[inline(always)]
    pub fn dropped_errors(&self) -> DroppedErrors {
        self.inner.dropped_errors()
    }

    /// The memory limit ([`Options::max_carry`], [`Options::max_arena`]) the stream stopped at, if
    /// it did: the tokens before [`LimitError::offset`] were handed out, none after, and the rest
    /// of the stream (later feeds, [`finish`](Tokenizer::finish)) yields nothing. A new stream
    /// ([`Tokenizer::reset`], or a feed after `finish`) starts without it.
    #[inline(always)]
    pub fn limit_error(&self) -> Option<LimitError> {
        self.inner.limit_error()
    }

    /// Whether every byte fed so far was valid UTF-8 (invalid sequences decode to U+FFFD), when
    /// [`Options::validate_utf8`] or [`Options::errors`] is on; `None` otherwise. After a stop at a
    /// memory limit ([`Tokenizer::limit_error`]), the bytes fed later are not looked at.
    ///
    /// ```
    /// use tagstream::{Options, Tokenizer};
    /// let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    /// tokenizer.tokenize(b"caf\xE9").for_each(drop);
    /// assert_eq!(tokenizer.is_valid_utf8(), Some(false));
    /// assert_eq!(Tokenizer::default().is_valid_utf8(), None);
    /// ```
    #[inline(always)]
    pub fn is_valid_utf8(&self) -> Option<bool> {
        self.inner.is_valid_utf8()
    }

    /// How many tokens of the current document the tree-builder simulator was unsure about (see
    /// [`Tokens::ambiguity`]).
    pub fn ambiguous_count(&self) -> u64 {
        self.inner.stage().ambiguous_count()
    }

    /// Switch to a text state before the next token (tree-builder feedback between feeds).
    pub fn set_text_state(&mut self, state: TextKind) {
        self.inner.lexer_mut().switch_text_state(state);
    }

    /// Set the last start tag's name (see [`Options::last_start_tag`]).
    pub fn set_last_start_tag(&mut self, name: &str) {
        self.inner.lexer_mut().set_last_start_tag(name.as_bytes());
    }

    /// Allow or forbid CDATA sections from now on.
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.inner.lexer_mut().set_cdata_allowed(allowed);
    }
}

/// The tokens of one document or one fed chunk; see [`Tokenizer`].
pub struct Tokens<'t> {
    inner: Pull<'t, Html>,
}

impl<'t> Tokens<'t> {
    /// Switch to a text state before the next token (tree-builder feedback).
    #[inline(always)]
    pub fn set_text_state(&mut self, state: TextKind) {
        let (machine, window) = self.inner.lexer_after_token();
        machine.switch_text_state_after(state, window.as_ref());
    }

    /// The text state the tokenizer reads in after the tag, comment, DOCTYPE or processing
    /// instruction just handed out (after a `<script>` start tag, script data), as the simulator
    /// or [`Tokens::set_text_state`] decided it. (After text, the machine may already have read
    /// ahead: a text's own state is [`Text::kind`](crate::Text::kind).)
    #[inline(always)]
    pub(crate) fn text_state(&self) -> TextKind {
        self.inner.lexer_ref().text_kind()
    }

    /// Whether the token just handed out left the tree in SVG or MathML content (the adjusted
    /// current node is foreign), as the simulator decided it.
    #[inline(always)]
    pub(crate) fn in_foreign_content(&self) -> bool {
        self.inner.lexer_ref().cdata_allowed()
    }

    /// Why the tree-builder simulator was unsure about the token just handed out, if it was
    /// (always `None` with [`Options::simulate`] off).
    ///
    /// ```
    /// use tagstream::{Ambiguity, Tokenizer};
    /// let mut tokenizer = Tokenizer::default();
    /// let mut tokens = tokenizer.tokenize(b"<svg><path></div><script>");
    /// let mut why = Vec::new();
    /// while let Some(_) = tokens.next() {
    ///     why.push(tokens.ambiguity());
    /// }
    /// // `</div>` closes the svg only if a div is open around it: the simulator guesses it does.
    /// assert_eq!(why, [None, None, Some(Ambiguity::ForeignEndTag), None]);
    /// ```
    #[inline(always)]
    pub fn ambiguity(&self) -> Option<Ambiguity> {
        self.inner.stage_ref().ambiguity()
    }

    /// How many tokens of this document the simulator was unsure about so far.
    #[inline(always)]
    pub fn ambiguous_count(&self) -> u64 {
        self.inner.stage_ref().ambiguous_count()
    }

    /// Set the last start tag's name (tree-builder feedback).
    #[inline(always)]
    pub fn set_last_start_tag(&mut self, name: &str) {
        self.inner
            .lexer_after_token()
            .0
            .set_last_start_tag(name.as_bytes());
    }

    /// Allow or forbid CDATA sections from the next token on (tree-builder feedback).
    #[inline(always)]
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.inner.lexer_after_token().0.set_cdata_allowed(allowed);
    }

    /// The parse errors reported and not taken yet (when errors are on), in stream order.
    #[inline(always)]
    pub fn errors(&self) -> &[ParseError] {
        self.inner.errors()
    }

    /// Where the byte order mark that [`Options::strip_bom`] stripped was, if there was one (see
    /// [`Tokenizer::bom`]); known once the first bytes are fed.
    #[inline(always)]
    pub fn bom(&self) -> Option<Span> {
        self.inner.bom()
    }

    /// Take the parse errors reported so far, making room for as many.
    #[inline(always)]
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.inner.take_errors()
    }

    /// Take the parse errors reported so far, in stream order, keeping the allocation: called
    /// between tokens, the errors found while producing the last one (and the input-stream
    /// errors of the characters it consumed). Dropping the iterator removes the rest.
    ///
    /// ```
    /// use tagstream::{ErrorCode, Options, Token, Tokenizer};
    /// let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    /// let mut tokens = tokenizer.tokenize(b"<a b=1 b=2>x\0y</a c>");
    /// let mut seen = Vec::new();
    /// while let Some(token) = tokens.next() {
    ///     let kind = match token {
    ///         Token::StartTag(_) => "start",
    ///         Token::Text(_) => "text",
    ///         _ => "other",
    ///     };
    ///     seen.extend(tokens.drain_errors().map(|e| (kind, e.code)));
    /// }
    /// assert_eq!(
    ///     seen,
    ///     [
    ///         ("start", ErrorCode::DuplicateAttribute),
    ///         ("text", ErrorCode::UnexpectedNullCharacter),
    ///         ("other", ErrorCode::EndTagWithAttributes),
    ///     ]
    /// );
    /// ```
    #[inline(always)]
    pub fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.inner.drain_errors()
    }

    /// The parse errors found past [`Options::max_errors`] since the start of the stream,
    /// counted by code (see [`Tokenizer::dropped_errors`]).
    #[inline(always)]
    pub fn dropped_errors(&self) -> DroppedErrors {
        self.inner.dropped_errors()
    }

    /// Line and column of a stream offset that the tokenizer still holds: from the start of the
    /// unfinished bytes it carries up to the end of the buffer the last token came from (the chunk
    /// itself before the first token; the end itself only at the end of input). `None` for other
    /// offsets. While streaming this needs [`Options::track_positions`] (or errors on).
    ///
    /// ```
    /// use tagstream::{Position, Tokenizer};
    /// let mut tokenizer = Tokenizer::default();
    /// let mut tokens = tokenizer.tokenize("a\n😀<b>".as_bytes());
    /// let tag = tokens.nth(1).unwrap();
    /// assert_eq!(tokens.position(tag.span().start), Some(Position { line: 2, col: 3 }));
    /// ```
    #[inline(always)]
    pub fn position(&mut self, offset: usize) -> Option<Position> {
        self.inner.position(offset)
    }
}

impl<'t> Iterator for Tokens<'t> {
    type Item = Token<'t>;

    fn next(&mut self) -> Option<Token<'t>> {
        self.inner.next_token()
    }
}

impl FusedIterator for Tokens<'_> {}
