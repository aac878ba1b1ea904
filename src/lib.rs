//! # tagstream
//!
//! A spec-exact, streaming, zero-copy HTML tokenizer.
//!
//! - **Spec-exact**: every state of the WHATWG HTML tokenizer (including the 2026 processing
//!   instructions), every parse-error code with its line and column; the html5lib-tests tokenizer
//!   suite passes.
//! - **Zero-copy**: tokens are byte spans into the input; names, values and text are decoded on demand,
//!   borrowed when nothing changes, written into a bulk-reset arena when something does.
//! - **Streaming**: feed chunks of any size, down to one byte; the tokens are the same as for the whole
//!   input, and only the bytes of an unfinished token are carried between chunks.
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
//! Data flows one way: [`input`](crate::Tokenizer) bytes are validated as UTF-8 incrementally; the
//! machine (one function per spec state) records spans; tokens decode lazily. See [`Tokenizer`] for
//! streaming and pausing, [`Options`] for errors and initial states, [`simulator`] for the
//! tree-builder feedback that is on by default, and [`html5lib`] for the html5lib-tests token
//! shapes. With the `extract` feature (off by default), [`extract`] finds the links and the
//! visible text of pages.

#[cfg(feature = "encoding")]
pub mod encoding;
mod error;
#[cfg(feature = "extract")]
pub mod extract;
pub mod html5lib;
mod input;
mod machine;
mod scan;
pub mod simulator;
mod token;
mod tokenizer;
mod word;

pub use error::{
    DroppedErrors, ErrorCode, Limit, LimitError, ParseError, Position, UnknownErrorCode,
};
pub use simulator::Ambiguity;
pub use token::{
    Attribute, Attributes, Comment, Doctype, EndTag, ProcessingInstruction, Span, StartTag, Text,
    TextKind, Token,
};
pub use tokenizer::{Options, Tokenizer, Tokens};

/// Hooks for the fuzz targets in `fuzz/` (feature `fuzzing`), not part of the API: the crate-private
/// SIMD scanner checked against its scalar oracle on any bytes.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::scan::oracle::check as scanner_agrees_with_scalar;
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
