//! Writing HTML: a [`Serializer`] from tokens to HTML text, following the HTML Standard §13.1
//! "Writing HTML documents" (spec/000 in the project's references) and the escaping of §13.3
//! "Serializing HTML fragments".
//!
//! Give it tokens — by method ([`Serializer::start_tag`], [`Serializer::text`], …) or as the
//! [`Tokenizer`](crate::Tokenizer)'s [`Token`](crate::Token)s ([`Serializer::write_token`]) — and
//! it writes them to any [`std::io::Write`]:
//!
//! - text escaped by where it lands (§13.1.2, §13.1.3): `&`, `<`, `>` and U+00A0 in data and
//!   RCDATA (`title`, `textarea`); raw text (`script`, `style`, …) and PLAINTEXT as they are; the
//!   serializer tracks the text state from the tags it writes (HTML elements only: `<svg><style>`
//!   is not raw text);
//! - attribute values (§13.1.2.3) in the unquoted, single- or double-quoted syntax
//!   ([`QuoteAttrValues`]), with `&`, U+00A0, `<`, `>` and the quote escaped;
//! - void elements (§13.1.2) without end tags; `/` before `>` on self-closing tags (on foreign
//!   elements, the only ones where it means something, or as the token had it, see
//!   [`SerializerOptions::keep_self_closing`]);
//! - DOCTYPEs (§13.1.1) with their identifiers, comments (§13.1.6), CDATA sections (§13.1.5) and
//!   processing instructions (`<?target data?>`, 2026);
//! - optional tags (§13.1.2.4) omitted when asked ([`SerializerOptions::omit_optional_tags`]),
//!   streaming: a tag that may be omitted waits for the next token, and
//!   [`Serializer::finish`] decides the last one.
//!
//! ## What comes back
//!
//! With [`SerializerOptions::new`], what the serializer writes tokenizes back to the tokens it
//! was given (with the tree-builder simulator on, as html5lib-tests shapes them: adjacent text
//! merged), up to ASCII case in names. A token that cannot be written that way is refused with a
//! [`WriteError::Refused`] naming the [`Refusal`] and the token's [`Location`], and nothing of it
//! is written: a comment holding `-->` or `--!>` or starting with `>` or `->` (§13.1.6), raw text holding its own end tag (§13.1.2.6), a CDATA
//! section holding `]]>`, a DOCTYPE identifier holding both quotes, U+0000 where the tokenizer
//! reads U+FFFD (RCDATA, raw text, attribute values, comments), a carriage return where no
//! character reference can stand for it (it reads back as a line feed; in data and attribute
//! values it is written `&#13;`), a tag name or attribute name the tokenizer would read
//! differently, a repeated attribute, markup inside raw text. [`SerializerOptions::lossy`]
//! writes them changed instead, and says how.
//!
//! Where the text state depends on more than the tags themselves, the serializer trusts what it
//! is told: the [`Namespace`] of each start tag (an SVG `style` holds markup, an HTML one raw
//! text), that a [`cdata`](Serializer::cdata) section is inside foreign content (elsewhere it
//! reads back as a bogus comment), and that raw text elements are not inside a `frameset` (where
//! the tree builder ignores them). [`Serializer::write_token`] takes the text state of each text
//! from the token itself. A U+FEFF starting the output is written `&#xFEFF;`, so that it is not
//! taken for a byte order mark.
//!
//! ## Rewriting, and other encodings
//!
//! The [`Rewriter`] copies a document through byte for byte except where its consumer changes
//! something (see [`Rewrite`]); [`Rewrite::next_where`] passes the tokens a consumer does not
//! want without handing them out. Both write UTF-8, except that a rewriter of the tokens of a
//! [`Transcoder`](crate::encoding::Transcoder) (with its offset map on) writes the input's own
//! bytes back and encodes what it makes in the input's encoding; [`Encode`] does that for any
//! writer, such as a serializer's output.
//!
//! ```
//! use tagstream::write::{Namespace, Serializer, SerializerOptions};
//!
//! let mut out = Vec::new();
//! let options = SerializerOptions::new().omit_optional_tags(true);
//! let mut s = Serializer::new(&mut out, options);
//! s.start_tag("ul", &[])?;
//! for item in ["fish & chips", "tea"] {
//!     s.start_tag("li", &[])?;
//!     s.text(item)?;
//!     s.end_tag("li")?;
//! }
//! s.end_tag("ul")?;
//! s.start_tag_in(Namespace::Svg, "circle", &[("r", "2")], true)?;
//! assert!(s.comment("a --> b").is_err());
//! s.finish()?;
//! assert_eq!(out, b"<ul><li>fish &amp; chips<li>tea</ul><circle r=2 />");
//! # Ok::<(), tagstream::write::WriteError>(())
//! ```

mod check;
mod elements;
#[cfg(feature = "encoding")]
mod encode;
mod error;
mod escape;
mod optional;
mod options;
mod rewriter;
mod serializer;
mod tokens;

#[cfg(feature = "encoding")]
pub use encode::Encode;
pub use error::{Location, Place, Refusal, WriteError};
pub use options::{Quote, QuoteAttrValues, SerializerOptions};
pub use rewriter::{Markup, Rewrite, Rewriter, TagEdit};
pub use serializer::{Doctype, Namespace, Serializer};
