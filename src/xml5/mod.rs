//! XML5: the XML5 draft's tokenizer (spec/002 §1.3) on the shared streaming driver.
//!
//! XML5 reads any XML, well-formed or not, the way HTML's tokenizer reads any HTML: it never
//! stops, it reports what is wrong. [`Tokenizer`] is its public face, with the same streaming,
//! pausing, limits, positions and parse errors as [`crate::Tokenizer`], and the same [`Token`](crate::Token)s:
//!
//! | XML5 token | [`Token`](crate::Token) |
//! |---|---|
//! | start tag `<a x="1">` | [`Token::StartTag`](crate::Token::StartTag) |
//! | empty tag `<a/>` | [`Token::StartTag`](crate::Token::StartTag) with [`StartTag::self_closing`](crate::StartTag::self_closing) |
//! | end tag `</a>` | [`Token::EndTag`](crate::Token::EndTag) |
//! | short end tag `</>` | [`Token::EndTag`](crate::Token::EndTag) with an empty name |
//! | character data | [`Token::Text`](crate::Token::Text) of [`TextKind::Data`](crate::TextKind::Data) |
//! | CDATA section `<![CDATA[…]]>` | [`Token::Text`](crate::Token::Text) of [`TextKind::Cdata`](crate::TextKind::Cdata) (its content) |
//! | processing instruction `<?t d?>`, XML declaration | [`Token::ProcessingInstruction`](crate::Token::ProcessingInstruction) (target `xml` for the declaration) |
//! | comment | [`Token::Comment`](crate::Token::Comment) |
//! | DOCTYPE, with its internal subset | [`Token::Doctype`](crate::Token::Doctype) ([`Doctype::raw_internal_subset`](crate::Doctype::raw_internal_subset)) |
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
//! Of [`Options`](crate::Options), XML5 reads the general fields: `errors`, `max_errors`, `track_positions`,
//! `validate_utf8`, `strip_bom`, `max_carry`, `max_arena`. The HTML-only ones (initial state,
//! last start tag, CDATA permission, legacy processing instructions, simulation, scripting) are
//! ignored.
//!
//! Parse errors ([`Options::errors`](crate::Options::errors)) reuse HTML's codes where XML5 does what HTML does; two
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

pub(crate) mod dialect;
pub(crate) mod machine;
mod tokenizer;
pub mod tree;
pub mod xml5lib;

pub use tokenizer::{Tokenizer, Tokens};
