//! The XML5 tokenizer: the streaming driver ([`crate::tokenizer`]) for the XML5 dialect.

use std::iter::FusedIterator;

use crate::error::{DroppedErrors, LimitError, ParseError, Position};
use crate::options::Options;
use crate::span::Span;
use crate::token::Token;
use crate::tokenizer::{Pull, Stream};

use super::dialect::Xml5;

/// An XML5 tokenizer for whole documents or chunked streams: [`crate::Tokenizer`]'s twin for
/// XML5 (see the [module docs](crate::xml5) for the tokens and errors). It owns the arena that decoded
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

    /// Feed the last chunk and end the stream in one go (for the transcoder).
    #[cfg(feature = "encoding")]
    pub(crate) fn feed_last<'t>(&'t mut self, chunk: &'t [u8]) -> Tokens<'t> {
        Tokens {
            inner: self.inner.feed_last(chunk),
        }
    }

    /// The first stream offset the tokenizer still holds (for the transcoder's offset map).
    #[cfg(feature = "encoding")]
    pub(crate) fn retained_from(&self) -> usize {
        self.inner.retained_from()
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

impl<'t> Tokens<'t> {
    /// [`Iterator::next`], inlined into the caller's loop whatever its size: the tree stage's.
    #[inline(always)]
    pub(crate) fn next_inlined(&mut self) -> Option<Token<'t>> {
        self.inner.next_token()
    }

    /// The names the document declares (the internal subset's general entities, sorted, no
    /// repeats), read by the tree stage at the DOCTYPE: from here to the end of the stream a
    /// reference to one is not a character reference to the tokenizer (no error; left as text
    /// for the stage to resolve).
    pub(crate) fn declare_names<'a>(&mut self, names: impl IntoIterator<Item = &'a [u8]>) {
        self.inner.lexer_mut().declared.set(names);
    }

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
