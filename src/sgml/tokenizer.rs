//! The SGML tokenizer: the streaming driver ([`crate::tokenizer`]) for the SGML dialect, yielding
//! the note's events.

use std::iter::FusedIterator;

use crate::error::{LimitError, Position};
use crate::options::Options;
use crate::span::Span;
use crate::token::Token;
use crate::tokenizer::{Pull, Stream};

use super::dialect::Sgml;
use super::event::Event;
use super::machine::SgmlOptions;

/// The SGML lexer for whole documents or chunked streams (see the [module docs](super)): the
/// same streaming, pausing, memory limits and positions as [`crate::Tokenizer`], yielding
/// [`Event`]s. The events do not depend on the chunking, but for data, which a chunk seam may
/// split into two events.
///
/// Of [`Options`], it reads `track_positions`, `validate_utf8`, `strip_bom` (a stripped byte
/// order mark is in no lexeme: [`Tokenizer::bom`] says where it was), `max_carry` and
/// `max_arena`; parse errors are the note's problems, events of their own, so `errors` is
/// ignored, and so is `lossless` (the events are lossless by themselves).
///
/// ```
/// use tagstream::Options;
/// use tagstream::sgml::{Channel, LexemeKind, SgmlOptions, Tokenizer};
///
/// let mut tokenizer = Tokenizer::new(Options::new(), SgmlOptions { normalize: true });
/// let mut starts = Vec::new();
/// for chunk in [&b"<P Align=cen"[..], b"ter>&amp;x"] {
///     for event in tokenizer.feed(chunk) {
///         let first = &event.lexemes()[0];
///         if first.kind() == LexemeKind::Start {
///             starts.push((first.text().into_owned(), event.lexemes().len()));
///         }
///     }
/// }
/// tokenizer.finish().for_each(drop);
/// assert_eq!(starts, [("<p".to_string(), 6)]);
///
/// let events: Vec<_> = tokenizer.tokenize(b"<P Align=center>&amp;x").collect();
/// let tag = events[0].lexemes();
/// assert_eq!((tag[0].text(), tag[0].raw()), ("<p".into(), &b"<P"[..]));
/// assert_eq!((tag[2].kind(), tag[2].text().as_ref()), (LexemeKind::AttrName, "align"));
/// assert_eq!((tag[4].kind(), tag[4].raw()), (LexemeKind::Nmtoken, &b"center"[..]));
/// let reference = events[1].lexemes();
/// assert_eq!((reference[0].kind(), reference[1].raw()), (LexemeKind::GeRef, &b";"[..]));
/// assert_eq!(events[2].channel(), Channel::Primary);
/// ```
pub struct Tokenizer {
    inner: Stream<Sgml>,
}

impl Default for Tokenizer {
    fn default() -> Tokenizer {
        Tokenizer::new(Options::default(), SgmlOptions::default())
    }
}

impl Tokenizer {
    /// A tokenizer at the start of a stream.
    pub fn new(options: Options, sgml: SgmlOptions) -> Tokenizer {
        let mut inner: Stream<Sgml> = Stream::new(options.errors(false).lossless(false));
        inner.lexer_mut().set_options(sgml);
        Tokenizer { inner }
    }

    /// Start over with a new stream, keeping the allocations.
    pub fn reset(&mut self) {
        self.inner.reset()
    }

    /// Lex `input` as one complete document.
    pub fn tokenize<'t>(&'t mut self, input: &'t [u8]) -> Events<'t> {
        Events {
            inner: self.inner.tokenize(input),
        }
    }

    /// Feed the next chunk of a stream (see [`crate::Tokenizer::feed`]).
    pub fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Events<'t> {
        Events {
            inner: self.inner.feed(chunk),
        }
    }

    /// The stream is over: yields the events still pending (see [`crate::Tokenizer::finish`]).
    pub fn finish(&mut self) -> Events<'_> {
        Events {
            inner: self.inner.finish(),
        }
    }

    /// Where the byte order mark that [`Options::strip_bom`] stripped was, if there was one.
    pub fn bom(&self) -> Option<Span> {
        self.inner.bom()
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

/// The events of one document or one fed chunk; see [`Tokenizer`].
pub struct Events<'t> {
    inner: Pull<'t, Sgml>,
}

impl Events<'_> {
    /// Line and column of a stream offset the tokenizer still holds (see
    /// [`crate::Tokens::position`]): a problem's offending text, say.
    ///
    /// ```
    /// use tagstream::sgml::Tokenizer;
    ///
    /// let mut tokenizer = Tokenizer::default();
    /// let mut events = tokenizer.tokenize(b"<p>\n<x ?>");
    /// let problem = events.find(|e| e.problem().is_some()).unwrap();
    /// let at = events.position(problem.lexemes()[1].span().start).unwrap();
    /// assert_eq!((at.line, at.col), (2, 4));
    /// ```
    pub fn position(&mut self, offset: usize) -> Option<Position> {
        self.inner.position(offset)
    }
}

impl<'t> Iterator for Events<'t> {
    type Item = Event<'t>;

    fn next(&mut self) -> Option<Event<'t>> {
        let Token::Text(text) = self.inner.next_token()? else {
            unreachable!("the SGML lexer makes text records only, and lossless is off")
        };
        let lexer = self.inner.lexer_ref();
        let (bytes, base, arena) = (text.raw(), text.span().start, text.src.arena);
        let normalize = lexer.options().normalize;
        let (channel, lexemes) = lexer.current();
        Some(Event::new(channel, lexemes, bytes, base, normalize, arena))
    }
}

impl FusedIterator for Events<'_> {}
