//! A streaming rewriter: the input copied through byte for byte, except where the consumer asks
//! for a change.
//!
//! The consumer pulls the tokens of a lossless tokenizer ([`Options::lossless`]) through a
//! [`Rewrite`] and, for the token it was just given, says what to write: [`pass`](Rewrite::pass)
//! (its raw bytes, the default when it says nothing), [`discard`](Rewrite::discard),
//! [`replace_html`](Rewrite::replace_html) or [`replace_text`](Rewrite::replace_text), an
//! [`edit`](Rewrite::edit) of a start tag (rename it; set, rename or remove attributes;
//! self-closing on foreign elements), and insertions before or after it. Whole elements:
//! [`remove_element`](Rewrite::remove_element) (the element and its content, raw text elements
//! included: the tokenizer's own view of where they end), [`unwrap_element`](Rewrite::unwrap_element)
//! (its tags, not its content), and [`Rewriter::strip_comments`]; with feature `extract`,
//! `Rewrite::absolutize_links` (every URL `tagstream links` knows, written absolute).
//!
//! Untouched bytes are copied raw, never re-serialized: the output differs from the input only
//! where an edit was made. An edited tag keeps the raw bytes of its untouched attributes, and a
//! changed value keeps its attribute's quote character. Inserted text is escaped for where it
//! lands — data and RCDATA (`&`, `<`, `>`, U+00A0 and CR as references), an attribute value in
//! its quote style, XML5 text (the predefined entities) — and text that cannot be written there so
//! that it reads back as itself (a raw text element's end tag, `]]>` in a CDATA section, U+0000
//! where the tokenizer reads U+FFFD…) is refused with a [`WriteError::Refused`], never written.
//!
//! Memory: the tokenizer's own bounds, one token held back (the one the consumer is deciding
//! about), and buffers for what is inserted, reused from token to token.
//!
//! ```
//! use tagstream::{Options, Token, Tokenizer};
//! use tagstream::write::Rewriter;
//!
//! let input = b"<p class=a>Hi<!-- note --><script>x()</script><img src=a.png></p>";
//! let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
//! let mut out = Vec::new();
//! let mut rewriter = Rewriter::new(&mut out);
//! let mut rewrite = rewriter.rewrite(tokenizer.tokenize(input));
//! while let Some(token) = rewrite.next()? {
//!     match token {
//!         Token::Comment(_) => rewrite.discard(),
//!         Token::StartTag(tag) if tag.name() == "script" => rewrite.remove_element()?,
//!         Token::StartTag(tag) if tag.name() == "img" => {
//!             rewrite.edit()?.set_attribute("alt", "a \"cat\"").apply()?;
//!             rewrite.insert_after_text("<- a cat")?;
//!         }
//!         _ => {}
//!     }
//! }
//! drop(rewrite);
//! rewriter.finish()?;
//! assert_eq!(out, b"<p class=a>Hi<img src=a.png alt=\"a &quot;cat&quot;\">&lt;- a cat</p>");
//! # Ok::<(), tagstream::write::WriteError>(())
//! ```
//!
//! [`Options::lossless`]: crate::Options::lossless

mod edit;
#[cfg(feature = "extract")]
mod links;
mod place;
mod sink;

use std::io::Write;

use super::error::{Location, Refusal, WriteError};
use crate::span::Span;
use crate::token::Source;
use crate::{TextKind, Token};

use edit::EditBuffers;
pub use edit::TagEdit;
use place::Place;
use sink::Sink;

/// The tokens a [`Rewrite`] reads: an HTML [`Tokens`](crate::Tokens) or an XML5
/// [`xml5::Tokens`](crate::xml5::Tokens), from a tokenizer with
/// [`Options::lossless`](crate::Options::lossless).
pub trait Markup<'t>: Iterator<Item = Token<'t>> + sealed::Sealed {
    /// Whether the tokens are XML5 (XML's escaping, names as written, no void elements).
    #[doc(hidden)]
    const XML: bool;

    /// Where text written right after `token` (just handed out) lands, and whether the tree is
    /// then in foreign (SVG, MathML) content.
    #[doc(hidden)]
    fn after(&self, token: &Token<'t>) -> (TextKind, bool);

    /// Whether the tokens were decoded from the input by a transcoder: the rewriter then
    /// writes the input's own bytes back (see [`Rewriter`]).
    #[doc(hidden)]
    const DECODED: bool = false;

    /// The chunk this feed was given, as it came (decoded tokens).
    #[doc(hidden)]
    fn input(&self) -> &'t [u8] {
        &[]
    }

    /// A decoded offset in offsets of the input (decoded tokens).
    #[doc(hidden)]
    fn original_offset(&self, _offset: usize) -> Option<usize> {
        None
    }

    /// The encoding the tokens were decoded from, once decided (decoded tokens).
    #[cfg(feature = "encoding")]
    #[doc(hidden)]
    fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        None
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::Tokens<'_> {}
    impl Sealed for crate::xml5::Tokens<'_> {}
    #[cfg(feature = "encoding")]
    impl<T: crate::encoding::Tokenize> Sealed for crate::encoding::DecodedTokens<'_, T> {}
}

#[cfg(feature = "encoding")]
impl<'t, T> Markup<'t> for crate::encoding::DecodedTokens<'t, T>
where
    T: crate::encoding::Tokenize,
    T::Tokens<'t>: Markup<'t>,
{
    const XML: bool = <T::Tokens<'t> as Markup<'t>>::XML;
    const DECODED: bool = true;

    fn after(&self, token: &Token<'t>) -> (TextKind, bool) {
        (**self).after(token)
    }

    fn input(&self) -> &'t [u8] {
        crate::encoding::DecodedTokens::input(self)
    }

    fn original_offset(&self, offset: usize) -> Option<usize> {
        crate::encoding::DecodedTokens::original_offset(self, offset)
    }

    fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        crate::encoding::DecodedTokens::encoding(self)
    }
}

impl<'t> Markup<'t> for crate::Tokens<'t> {
    const XML: bool = false;

    fn after(&self, token: &Token<'t>) -> (TextKind, bool) {
        let foreign = self.in_foreign_content();
        match token {
            // The machine may have read on past a text (to the end tag that ended it).
            Token::Text(text) => (text.kind(), foreign),
            _ => (self.text_state(), foreign),
        }
    }
}

impl<'t> Markup<'t> for crate::xml5::Tokens<'t> {
    const XML: bool = true;

    fn after(&self, token: &Token<'t>) -> (TextKind, bool) {
        match token {
            Token::Text(text) => (text.kind(), true),
            _ => (TextKind::Data, true),
        }
    }
}

/// Writes a rewritten document to `W`, across the feeds of one stream (see the module docs).
pub struct Rewriter<W: Write> {
    out: Sink<W>,
    /// Where text written now lands.
    place: Place,
    strip_comments: bool,
    /// The element being removed with its content.
    removing: Option<Open>,
    /// Elements whose end tag is being dropped ([`Rewrite::unwrap_element`]), innermost last.
    unwrapping: Vec<Open>,
    /// What goes after the token being decided.
    after: Vec<u8>,
    /// Scratch for escaping and edited tags.
    scratch: Vec<u8>,
    /// What tag edits collect, reused.
    edits: EditBuffers,
    /// A write error from a [`Rewrite`] dropped with a token undecided, reported next.
    deferred: Option<std::io::Error>,
}

/// An element whose end the rewriter looks for.
#[derive(Debug)]
struct Open {
    /// Its name as the tokenizer gives it (HTML: lowercase).
    name: String,
    /// Start tags of the same name opened inside it and not closed.
    depth: usize,
    /// Its text is raw text or RCDATA: the next end tag ends it (the tokenizer emits no other).
    raw: bool,
}

impl<W: Write> Rewriter<W> {
    /// A rewriter writing to `out`.
    pub fn new(out: W) -> Rewriter<W> {
        Rewriter {
            out: Sink::new(out),
            place: Place::default(),
            strip_comments: false,
            removing: None,
            unwrapping: Vec::new(),
            after: Vec::new(),
            scratch: Vec::new(),
            edits: EditBuffers::default(),
            deferred: None,
        }
    }

    /// Drop every comment without handing it to the consumer.
    pub fn strip_comments(mut self, on: bool) -> Rewriter<W> {
        self.strip_comments = on;
        self
    }

    /// Rewrite the tokens of one feed (or a whole document): see [`Rewrite`].
    pub fn rewrite<'t, T: Markup<'t>>(&mut self, tokens: T) -> Rewrite<'_, 't, W, T> {
        #[cfg(feature = "encoding")]
        if T::DECODED {
            self.out.fed(tokens.input(), tokens.encoding());
            // The bytes before the first token (a byte order mark), once the map knows them.
            let started = tokens.original_offset(0).map(|first| self.out.start(first));
            if let Some(Err(e)) = started {
                self.deferred = Some(e);
            }
        }
        Rewrite {
            rewriter: self,
            tokens,
            current: None,
            decided: true,
            after_current: (TextKind::Data, false),
            run: None,
            seen: 0,
        }
    }

    /// The end of the document: flush the output. (A [`Rewrite`] writes its last token when
    /// its `next` returns `None`, or when it is dropped.)
    pub fn finish(mut self) -> Result<W, WriteError> {
        if let Some(e) = self.deferred.take() {
            return Err(WriteError::Io(e));
        }
        self.out.out.flush()?;
        Ok(self.out.out)
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out.out
    }
}

/// The tokens of one feed, each decided by the consumer as it comes (see the module docs).
///
/// [`next`](Rewrite::next) writes the token given before it (passed, unless decided otherwise)
/// and hands out the next one; the methods act on the token last handed out.
pub struct Rewrite<'r, 't, W: Write, T: Markup<'t>> {
    rewriter: &'r mut Rewriter<W>,
    tokens: T,
    /// The token last handed out.
    current: Option<Token<'t>>,
    /// Whether `current` has been written (or dropped) already.
    decided: bool,
    /// Where text lands after `current`, and whether that is foreign content.
    after_current: (TextKind, bool),
    /// Bytes passed and not written yet: consecutive passed tokens of one buffer are written
    /// with one call.
    run: Option<(&'t Source<'t>, Span)>,
    /// Decoded tokens ([`Markup::DECODED`]): where the last token handed out or dropped ends.
    seen: usize,
}

impl<'t, W: Write, T: Markup<'t>> Rewrite<'_, 't, W, T> {
    /// Write the last token (passed, unless decided otherwise) and what goes after it, then hand
    /// out the next token; `None` at the end of the feed. Tokens inside an element being
    /// removed, end tags of unwrapped elements and (with [`Rewriter::strip_comments`]) comments
    /// are dropped without being handed out; raw items ([`Token::Raw`]) are handed out like any
    /// token.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Token<'t>>, WriteError> {
        self.next_where(|_| true)
    }

    /// [`next`](Rewrite::next) for the tokens `wanted` accepts: the others are passed (their raw
    /// bytes copied) without being handed out, as if the consumer had said nothing about them.
    /// The way through a document when only some tokens matter; with nothing wanted, the input
    /// streams through at the tokenizer's speed.
    ///
    /// ```
    /// use tagstream::{Options, Token, Tokenizer};
    /// use tagstream::write::Rewriter;
    ///
    /// let input = b"<p>Hi <b>there</b><img src=a.png></p>";
    /// let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    /// let mut out = Vec::new();
    /// let mut rewriter = Rewriter::new(&mut out);
    /// let mut rewrite = rewriter.rewrite(tokenizer.tokenize(input));
    /// let images = |token: &Token<'_>| matches!(token, Token::StartTag(tag) if tag.name() == "img");
    /// while let Some(_img) = rewrite.next_where(images)? {
    ///     rewrite.edit()?.set_attribute("alt", "").apply()?;
    /// }
    /// drop(rewrite);
    /// rewriter.finish()?;
    /// assert_eq!(out, b"<p>Hi <b>there</b><img src=a.png alt=\"\"></p>");
    /// # Ok::<(), tagstream::write::WriteError>(())
    /// ```
    #[inline]
    pub fn next_where(
        &mut self,
        mut wanted: impl FnMut(&Token<'t>) -> bool,
    ) -> Result<Option<Token<'t>>, WriteError> {
        self.settle()?;
        if let Some(e) = self.rewriter.deferred.take() {
            return Err(WriteError::Io(e));
        }
        while let Some(token) = self.tokens.next() {
            if T::DECODED {
                self.seen = token.span().end;
            }
            let after = self.tokens.after(&token);
            if self.skips(&token, after.1) {
                self.rewriter.place.follow(&token, after);
                continue;
            }
            if !wanted(&token) {
                self.rewriter.place.follow(&token, after);
                self.pass_bytes(token.source(), token.span())?;
                continue;
            }
            self.current = Some(token);
            self.decided = false;
            self.after_current = after;
            return Ok(Some(token));
        }
        self.flush()?;
        if T::DECODED {
            self.let_input_go();
        }
        Ok(None)
    }

    /// At the end of a feed of decoded tokens: the input bytes before the end of the last token
    /// are written or passed over.
    #[cold]
    fn let_input_go(&mut self) {
        #[cfg(feature = "encoding")]
        if let Some(end) = self.tokens.original_offset(self.seen) {
            self.rewriter.out.done_before(end);
        }
    }

    /// Write the token's raw bytes (what [`next`](Rewrite::next) does when nothing was decided).
    pub fn pass(&mut self) -> Result<(), WriteError> {
        match self.undecided() {
            Some(token) => self.pass_bytes(token.source(), token.span()),
            None => Ok(()),
        }
    }

    /// Add `span` of `src` to the run of passed bytes not written yet: where they follow the run
    /// in the same buffer (nearly always), by moving its end.
    #[inline(always)]
    fn pass_bytes(&mut self, src: &'t Source<'t>, span: Span) -> Result<(), WriteError> {
        match &mut self.run {
            Some((run_src, run)) if std::ptr::eq(*run_src, src) && run.end == span.start => {
                run.end = span.end;
                Ok(())
            }
            _ => self.start_run(src, span),
        }
    }

    /// Write the run of passed bytes and start another at `span` of `src`.
    #[inline(never)]
    fn start_run(&mut self, src: &'t Source<'t>, span: Span) -> Result<(), WriteError> {
        self.flush()?;
        self.run = Some((src, span));
        Ok(())
    }

    /// Write nothing for the token (what goes after it is still written).
    pub fn discard(&mut self) {
        self.undecided();
    }

    /// Write `html` as it is instead of the token.
    pub fn replace_html(&mut self, html: &str) -> Result<(), WriteError> {
        if self.undecided().is_some() {
            self.write(html.as_bytes())?;
        }
        Ok(())
    }

    /// Write `text`, escaped for where the token was, instead of the token. Refused (nothing
    /// written, the token still undecided) when it cannot land there as itself.
    pub fn replace_text(&mut self, text: &str) -> Result<(), WriteError> {
        if self.decided {
            return Ok(());
        }
        self.escape_here(text)?;
        self.undecided();
        self.write_scratch()
    }

    /// Write `html` as it is before the token.
    pub fn insert_before_html(&mut self, html: &str) -> Result<(), WriteError> {
        self.write(html.as_bytes())
    }

    /// Write `text` before the token, escaped for where it lands (see the module docs).
    pub fn insert_before_text(&mut self, text: &str) -> Result<(), WriteError> {
        self.escape_here(text)?;
        self.write_scratch()
    }

    /// Write `html` as it is after the token (after what replaces it, if anything).
    pub fn insert_after_html(&mut self, html: &str) {
        self.rewriter.after.extend_from_slice(html.as_bytes());
    }

    /// Write `text` after the token, escaped for where it lands then.
    pub fn insert_after_text(&mut self, text: &str) -> Result<(), WriteError> {
        let mut place = self.rewriter.place.clone();
        if let Some(token) = self.current {
            place.follow(&token, self.after_current);
        }
        let at = self.location();
        let mut after = std::mem::take(&mut self.rewriter.after);
        let result = place.escape(text, T::XML, &mut after);
        self.rewriter.after = after;
        result.map_err(|refusal| WriteError::Refused { refusal, at })
    }

    /// Edit the start tag just handed out: see [`TagEdit`]. Refused for other tokens.
    pub fn edit(&mut self) -> Result<TagEdit<'_, 't, W>, WriteError> {
        let tag = self.undecided_start_tag()?;
        let foreign = T::XML || self.after_current.1 || self.rewriter.place.foreign;
        self.flush()?;
        Ok(TagEdit::new(self, tag, foreign))
    }

    /// Drop the start tag just handed out, its element's content and its end tag: up to the
    /// next end tag when the tokenizer reads the element's text as raw text or RCDATA
    /// (`script`, `style`, `title`, …: the tokenizer emits no other end tag there); just the tag
    /// for a void or self-closing foreign element; otherwise up to its end tag, counting the
    /// elements of the same name opened inside it; to the end of input if it has none.
    pub fn remove_element(&mut self) -> Result<(), WriteError> {
        let open = self.open_element()?;
        self.undecided();
        if let Some(open) = open {
            self.rewriter.removing = Some(open);
        }
        Ok(())
    }

    /// Drop the start tag just handed out and its element's end tag, keeping what is between.
    pub fn unwrap_element(&mut self) -> Result<(), WriteError> {
        let open = self.open_element()?;
        self.undecided();
        if let Some(open) = open {
            // The enclosing unwrapped elements counted it among theirs: it is tracked apart.
            for outer in &mut self.rewriter.unwrapping {
                if outer.matches(&open.name, T::XML) {
                    outer.depth = outer.depth.saturating_sub(1);
                }
            }
            self.rewriter.unwrapping.push(open);
        }
        Ok(())
    }

    /// The token last handed out, if the consumer has not decided about it yet.
    fn undecided(&mut self) -> Option<Token<'t>> {
        if self.decided {
            return None;
        }
        self.decided = true;
        self.current
    }

    /// Write the last token if undecided, what goes after it, and follow where text lands.
    #[inline(always)]
    fn settle(&mut self) -> Result<(), WriteError> {
        let Some(token) = &self.current else {
            return Ok(());
        };
        self.rewriter.place.follow(token, self.after_current);
        if !self.decided {
            self.decided = true;
            let (src, span) = (token.source(), token.span());
            self.pass_bytes(src, span)?;
        }
        self.current = None;
        if self.rewriter.after.is_empty() {
            return Ok(());
        }
        self.write_after()
    }

    /// Write what goes after the last token.
    #[inline(never)]
    fn write_after(&mut self) -> Result<(), WriteError> {
        self.flush()?;
        let written = self.rewriter.out.write_new(&self.rewriter.after);
        self.rewriter.after.clear();
        Ok(written?)
    }

    /// Write the passed bytes not written yet.
    fn flush(&mut self) -> Result<(), WriteError> {
        if let Some((src, span)) = self.run.take() {
            if T::DECODED {
                return self.write_input(span);
            }
            self.rewriter.out.out.write_all(src.raw(span))?;
        }
        Ok(())
    }

    /// Write the input bytes the decoded `span` stands for (see [`Rewriter`]).
    #[cold]
    fn write_input(&mut self, span: Span) -> Result<(), WriteError> {
        #[cfg(feature = "encoding")]
        {
            let original = |offset| {
                self.tokens
                    .original_offset(offset)
                    .ok_or(WriteError::Unmapped { at: offset })
            };
            let (from, to) = (original(span.start)?, original(span.end)?);
            self.rewriter.out.write_original(from, to)?;
        }
        #[cfg(not(feature = "encoding"))]
        let _ = span;
        Ok(())
    }

    /// Write `bytes` after what was passed before.
    fn write(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.flush()?;
        Ok(self.rewriter.out.write_new(bytes)?)
    }

    /// Whether `token` is dropped without being handed out (inside a removal, an unwrapped end
    /// tag, a stripped comment); `foreign`: whether the tree is in foreign content after it.
    #[inline]
    fn skips(&mut self, token: &Token<'t>, foreign: bool) -> bool {
        let r = &mut *self.rewriter;
        if r.removing.is_none() && r.unwrapping.is_empty() && !r.strip_comments {
            return false;
        }
        if let Some(open) = &mut r.removing {
            if open.ends_at(token, T::XML, foreign) {
                r.removing = None;
            }
            return true;
        }
        if unwrapped_end(&mut r.unwrapping, token, T::XML, foreign) {
            return true;
        }
        r.strip_comments && matches!(token, Token::Comment(_))
    }

    /// The start tag just handed out, if it is one and still undecided (what element edits
    /// act on).
    fn undecided_start_tag(&self) -> Result<crate::StartTag<'t>, WriteError> {
        match (self.current, self.decided) {
            (Some(Token::StartTag(tag)), false) => Ok(tag),
            _ => Err(self.refused(Refusal::NotAStartTag)),
        }
    }

    /// The element the start tag just handed out opens, if it has content to look for the end
    /// of (`None`: a void or self-closing foreign element, the tag alone).
    fn open_element(&self) -> Result<Option<Open>, WriteError> {
        let tag = self.undecided_start_tag()?;
        let (kind, _) = self.after_current;
        let foreign = T::XML || self.rewriter.place.foreign;
        let alone = closes_itself(tag.self_closing(), T::XML, foreign)
            || (!T::XML && !foreign && super::elements::is_void(tag.name()));
        Ok((!alone).then(|| Open {
            name: tag.name().to_owned(),
            depth: 0,
            raw: kind != TextKind::Data && kind != TextKind::Cdata,
        }))
    }

    /// Escape `text` for where text lands now into the scratch buffer.
    fn escape_here(&mut self, text: &str) -> Result<(), WriteError> {
        let at = self.location();
        let r = &mut *self.rewriter;
        r.scratch.clear();
        r.place
            .escape(text, T::XML, &mut r.scratch)
            .map_err(|refusal| WriteError::Refused { refusal, at })
    }

    fn write_scratch(&mut self) -> Result<(), WriteError> {
        self.flush()?;
        Ok(self.rewriter.out.write_new(&self.rewriter.scratch)?)
    }

    /// Where the token being decided starts.
    fn location(&self) -> Location {
        Location::Offset(self.current.map_or(0, |t| t.span().start))
    }

    fn refused(&self, refusal: Refusal) -> WriteError {
        WriteError::Refused {
            refusal,
            at: self.location(),
        }
    }
}

impl<'t, W: Write, T: Markup<'t>> Drop for Rewrite<'_, 't, W, T> {
    /// The feed is left before its end (or at it): write the last token if undecided, and what
    /// goes after it. A write error is reported by the next call on the rewriter.
    fn drop(&mut self) {
        if let Err(WriteError::Io(e)) = self.settle().and_then(|()| self.flush()) {
            self.rewriter.deferred = Some(e);
        }
    }
}

impl Open {
    /// Whether an element named `name` counts as one of this element's kind (in XML5, where
    /// `</>` closes any element, every element does).
    fn matches(&self, name: &str, xml: bool) -> bool {
        xml || name == self.name
    }

    /// Whether `token` ends this element (`foreign`: the tree is in foreign content after it).
    fn ends_at(&mut self, token: &Token<'_>, xml: bool, foreign: bool) -> bool {
        match token {
            Token::EndTag(_) if self.raw => true,
            Token::StartTag(tag) if !self.raw && self.matches(tag.name(), xml) => {
                if !closes_itself(tag.self_closing(), xml, foreign) {
                    self.depth += 1;
                }
                false
            }
            Token::EndTag(tag) if self.matches(tag.name(), xml) => {
                if self.depth == 0 {
                    return true;
                }
                self.depth -= 1;
                false
            }
            _ => false,
        }
    }
}

/// Whether a start tag with `/` before its `>` leaves nothing open: in XML5 and foreign content.
fn closes_itself(self_closing: bool, xml: bool, foreign: bool) -> bool {
    self_closing && (xml || foreign)
}

/// Follow `token` through the unwrapped elements (innermost last): whether it is the end tag of
/// one of them, which is then dropped.
fn unwrapped_end(unwrapping: &mut Vec<Open>, token: &Token<'_>, xml: bool, foreign: bool) -> bool {
    match token {
        Token::StartTag(tag) if !closes_itself(tag.self_closing(), xml, foreign) => {
            for open in unwrapping.iter_mut().filter(|o| !o.raw) {
                if open.matches(tag.name(), xml) {
                    open.depth += 1;
                }
            }
            false
        }
        Token::EndTag(tag) => {
            let Some(i) = unwrapping
                .iter()
                .rposition(|o| o.raw || o.matches(tag.name(), xml))
            else {
                return false;
            };
            if unwrapping[i].raw || unwrapping[i].depth == 0 {
                unwrapping.remove(i);
                return true;
            }
            for open in unwrapping.iter_mut().filter(|o| o.matches(tag.name(), xml)) {
                open.depth = open.depth.saturating_sub(1);
            }
            false
        }
        _ => false,
    }
}
