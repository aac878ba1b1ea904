//! # tagstream
//!
//! A spec-exact, streaming, zero-copy HTML tokenizer, with an XML5 tokenizer on the same
//! machinery ([`xml5`]).
//!
//! - **Spec-exact**: every state of the WHATWG HTML tokenizer (including the 2026 processing
//!   instructions), every parse-error code with its line and column; the html5lib-tests tokenizer
//!   suite passes. A tree-builder [`simulator`] switches text states as a browser's tree builder
//!   would.
//! - **Zero-copy**: tokens are byte spans into the input; names, values and text are decoded on demand,
//!   borrowed when nothing changes, written into a bulk-reset arena when something does. Every
//!   decoded part has its raw bytes beside it.
//! - **Streaming**: feed chunks of any size, down to one byte; the tokens are the same as for the
//!   whole input, and only the bytes of an unfinished token are carried between chunks.
//!
//! ## A whole document
//!
//! ```
//! use tagstream::{Token, Tokenizer};
//!
//! let html = br#"<!DOCTYPE html><a href="/docs?a=1&amp;b=2">Docs</a><!-- note -->"#;
//! let mut tokenizer = Tokenizer::default();
//! for token in tokenizer.tokenize(html) {
//!     match token {
//!         Token::StartTag(tag) => {
//!             assert_eq!(tag.name(), "a");
//!             let href = tag.attribute("href").unwrap();
//!             assert_eq!(href.value(), "/docs?a=1&b=2");
//!             assert_eq!(href.raw_value(), b"/docs?a=1&amp;b=2");
//!         }
//!         Token::Text(text) => assert_eq!(text.text(), "Docs"),
//!         Token::Comment(c) => assert_eq!(c.data(), " note "),
//!         _ => {}
//!     }
//! }
//! ```
//!
//! ## A stream, with errors and memory limits
//!
//! Tokens borrow the chunk (and the bytes carried over) until the next [`Tokenizer::feed`];
//! [`Tokenizer::finish`] ends the stream, and a feed after it starts a new one. Dropping the
//! iterator early pauses: the next feed resumes there. Parse errors
//! ([`Options::errors`]) come out between tokens through [`Tokens::drain_errors`]; at most
//! [`Options::max_errors`] wait untaken, the rest are counted ([`Tokens::dropped_errors`]).
//! [`Options::max_carry`] and [`Options::max_arena`] cap what an unfinished token and the
//! decoded strings may hold: a document that needs more stops with a [`LimitError`] instead of
//! growing. With all three set, a tokenizer's memory is bounded whatever the input.
//!
//! ```
//! use tagstream::{ErrorCode, Options, Token, Tokenizer};
//!
//! let options = Options::new().errors(true).max_carry(1 << 20).max_arena(4 << 20);
//! let mut tokenizer = Tokenizer::new(options);
//! let (mut links, mut nul_errors) = (0, 0);
//! for chunk in [&b"<p>A <a hr"[..], b"ef=/x>link</a>\0 and text</p>"] {
//!     let mut tokens = tokenizer.feed(chunk);
//!     while let Some(token) = tokens.next() {
//!         if let Token::StartTag(tag) = token {
//!             links += usize::from(tag.attribute("href").is_some());
//!         }
//!         let errors = tokens.drain_errors();
//!         nul_errors += errors.filter(|e| e.code == ErrorCode::UnexpectedNullCharacter).count();
//!     }
//! }
//! let mut tokens = tokenizer.finish();
//! while tokens.next().is_some() {}
//! drop(tokens);
//! assert_eq!((links, nul_errors), (1, 1));
//! assert!(tokenizer.limit_error().is_none());
//! ```
//!
//! ## XML5
//!
//! [`xml5::Tokenizer`] reads XML the way the XML5 draft does (any input, errors reported, never a
//! stop), with the same streaming, limits, positions and [`Token`]s; names keep their case.
//!
//! ```
//! use tagstream::{Token, xml5};
//! let mut tokenizer = xml5::Tokenizer::default();
//! let names: Vec<String> = tokenizer
//!     .tokenize(b"<svg viewBox='0 0 1 1'><linearGradient/></svg>")
//!     .filter_map(|t| match t {
//!         Token::StartTag(tag) => Some(tag.name().to_owned()),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(names, ["svg", "linearGradient"]);
//! ```
//!
//! [`xml5::tree`] adds the draft's tree construction with namespaces, streaming: element starts
//! and ends with expanded names and depths (no DOM), or a small document tree built from them.
//!
//! ```
//! use tagstream::xml5::tree::Document;
//! let doc = Document::parse(b"<svg xmlns='http://www.w3.org/2000/svg'><g><rect/></svg>");
//! let root = doc.root_element().unwrap().element().unwrap();
//! assert_eq!(root.name().namespace, Some("http://www.w3.org/2000/svg"));
//! ```
//!
//! ## Writing HTML
//!
//! [`write::Serializer`] writes tokens back as HTML, by the HTML Standard's §13.1 "Writing HTML
//! documents": escaped by context, quoted as needed, optional tags omitted on request; a token
//! that would not read back as itself is refused with a [`write::WriteError`].
//!
//! ```
//! use tagstream::Tokenizer;
//! use tagstream::write::{Serializer, SerializerOptions};
//!
//! let mut out = Vec::new();
//! let mut serializer = Serializer::new(&mut out, SerializerOptions::new().omit_optional_tags(true));
//! for token in Tokenizer::default().tokenize(b"<html><body><p class=\"a\">1 &lt; 2</p></body></html>") {
//!     serializer.write_token(&token)?;
//! }
//! serializer.finish()?;
//! assert_eq!(out, b"<p class=a>1 &lt; 2");
//! # Ok::<(), tagstream::write::WriteError>(())
//! ```
//!
//! ## Features
//!
//! | feature | default | adds | gives |
//! |---|---|---|---|
//! | `extract` | off | `url` | `tagstream::extract`: links resolved as the HTML Standard says, and visible text |
//! | `encoding` | on | `encoding_rs` | `tagstream::encoding`: sniffing and streaming transcoding from any encoding |
//!
//! With `default-features = false` the library depends on memchr, bumpalo and simdutf8 only.
//!
//! ## Where to go next
//!
//! Data flows one way: input bytes are validated as UTF-8 incrementally; the machine (one function
//! per spec state) records spans; tokens decode lazily. See [`Tokenizer`] for streaming and
//! pausing, [`Options`] for errors, limits and initial states, [`Tokens::position`] for lines and
//! columns, [`simulator`] for the tree-builder feedback that is on by default, and [`html5lib`]
//! for the html5lib-tests token shapes.

// Some docs link to `encoding` items (the `Transcoder` beside the tokenizer it feeds): without
// the feature those links have nowhere to go; every other broken link still fails the default
// build's docs in CI.
#![cfg_attr(not(feature = "encoding"), allow(rustdoc::broken_intra_doc_links))]

mod dialect;
#[cfg(feature = "encoding")]
pub mod encoding;
mod error;
#[cfg(feature = "extract")]
pub mod extract;
mod feedback;
mod html;
mod input;
mod lex;
mod options;
mod refs;
mod scan;
pub mod sgml;
mod span;
#[cfg(test)]
mod testutil;
mod token;
mod tokenizer;
mod word;
pub mod write;
pub mod xml5;

pub use error::{
    DroppedErrors, ErrorCode, Limit, LimitError, ParseError, Position, UnknownErrorCode,
};
pub use html::simulator::Ambiguity;
pub use html::tokenizer::{Tokenizer, Tokens};
pub use html::{html5lib, simulator};
pub use options::Options;
pub use span::{Span, TextKind};
pub use token::{
    Attribute, Attributes, Comment, Doctype, EndTag, ProcessingInstruction, Raw, StartTag, Text,
    Token,
};

/// Hooks for the fuzz targets in `fuzz/` (feature `fuzzing`), not part of the API: the crate-private
/// SIMD scanner checked against its scalar oracle on any bytes.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::scan::oracle::check as scanner_agrees_with_scalar;
}

/// The README's examples, compiled and run as doctests. One of them extracts links and text, so
/// they run when the `extract` feature is on (as in the workspace's `cargo test`, where the CLI
/// turns it on); `cargo test -p tagstream` alone leaves them out rather than failing.
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "extract"))]
pub struct ReadmeDoctests;
