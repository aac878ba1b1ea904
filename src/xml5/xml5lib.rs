//! Tokens in the shapes of xml5lib-tests (`tokenizer/*.test`), for conformance runners.
//!
//! [`run`] tokenizes an input exactly as the library does for any user (optionally fed in chunks)
//! and returns the suite's `output` list: owned tokens, each parse error as an entry of its own
//! just before the token it was found for, and adjacent text merged into one `Character` entry
//! unless an error stands between. The CLI's `--xml5lib` mode and the project's conformance tests
//! both use it, so both see the library itself.
//!
//! ```
//! use tagstream::Options;
//! use tagstream::xml5::xml5lib::{Xml5libToken, run};
//!
//! let output = run(b"<a x='1'/></>&#0;", &Options::new().errors(true), None);
//! assert_eq!(output, [
//!     Xml5libToken::EmptyTag { name: "a".into(), attributes: vec![("x".into(), "1".into())] },
//!     Xml5libToken::ShortTag,
//!     Xml5libToken::ParseError,
//!     Xml5libToken::Character("\u{FFFD}".into()),
//! ]);
//! ```

use crate::{Options, Token};

use super::{Tokenizer, Tokens};

/// One entry of an xml5lib-tests `output` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Xml5libToken {
    /// `"ParseError"`
    ParseError,
    /// `["StartTag", name, {attributes}]` (attributes in source order)
    StartTag {
        name: String,
        attributes: Vec<(String, String)>,
    },
    /// `["EmptyTag", name, {attributes}]`: `<name …/>`
    EmptyTag {
        name: String,
        attributes: Vec<(String, String)>,
    },
    /// `["EndTag", name]`
    EndTag(String),
    /// `["ShortTag", ""]`: XML5's short end tag `</>`
    ShortTag,
    /// `["PI", target, data]`
    Pi { target: String, data: String },
    /// `["Comment", data]`
    Comment(String),
    /// `["Character", data]`, adjacent ones merged
    Character(String),
    /// `["DOCTYPE", name, publicId, systemId]`
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
    },
}

/// Tokenize `input` with `options`, whole (`chunk_size` `None`) or fed `chunk_size` bytes at a
/// time, into the suite's `output` list (errors appear only when `options` has them on).
pub fn run(input: &[u8], options: &Options, chunk_size: Option<usize>) -> Vec<Xml5libToken> {
    let mut tokenizer = Tokenizer::new(options.clone());
    let mut output = Vec::new();
    match chunk_size {
        None => take(&mut output, tokenizer.tokenize(input)),
        Some(size) => {
            for chunk in input.chunks(size.max(1)) {
                take(&mut output, tokenizer.feed(chunk));
            }
            take(&mut output, tokenizer.finish());
        }
    }
    output
}

/// [`run`] with `input` split at the given offsets (each chunk fed separately).
pub fn run_split(input: &[u8], options: &Options, splits: &[usize]) -> Vec<Xml5libToken> {
    let mut tokenizer = Tokenizer::new(options.clone());
    let mut output = Vec::new();
    let mut start = 0;
    for &end in splits.iter().chain(std::iter::once(&input.len())) {
        take(&mut output, tokenizer.feed(&input[start..end]));
        start = end;
    }
    take(&mut output, tokenizer.finish());
    output
}

/// Every token of `tokens`, each after the errors found for it, then the errors left.
pub fn take(output: &mut Vec<Xml5libToken>, mut tokens: Tokens<'_>) {
    while let Some(token) = tokens.next() {
        let errors = tokens.drain_errors().count();
        output.extend(std::iter::repeat_n(Xml5libToken::ParseError, errors));
        push(output, &token);
    }
    let errors = tokens.drain_errors().count();
    output.extend(std::iter::repeat_n(Xml5libToken::ParseError, errors));
}

/// Append `token` in the suite's shape, merging text into a `Character` entry just before it.
pub fn push(output: &mut Vec<Xml5libToken>, token: &Token<'_>) {
    let attributes = |tag: &crate::StartTag<'_>| {
        tag.attributes()
            .map(|a| (a.name().to_owned(), a.value().to_owned()))
            .collect()
    };
    let shaped = match token {
        Token::Text(text) => {
            if let Some(Xml5libToken::Character(prev)) = output.last_mut() {
                prev.push_str(text.text());
                return;
            }
            Xml5libToken::Character(text.text().to_owned())
        }
        Token::StartTag(tag) if tag.self_closing() => Xml5libToken::EmptyTag {
            name: tag.name().to_owned(),
            attributes: attributes(tag),
        },
        Token::StartTag(tag) => Xml5libToken::StartTag {
            name: tag.name().to_owned(),
            attributes: attributes(tag),
        },
        Token::EndTag(tag) if tag.name_span().is_empty() => Xml5libToken::ShortTag,
        Token::EndTag(tag) => Xml5libToken::EndTag(tag.name().to_owned()),
        Token::Comment(c) => Xml5libToken::Comment(c.data().to_owned()),
        Token::ProcessingInstruction(pi) => Xml5libToken::Pi {
            target: pi.target().to_owned(),
            data: pi.data().to_owned(),
        },
        Token::Doctype(d) => Xml5libToken::Doctype {
            name: d.name().map(str::to_owned),
            public_id: d.public_id().map(str::to_owned),
            system_id: d.system_id().map(str::to_owned),
        },
        // Bytes the draft drops have no shape; text around them stays one character entry.
        Token::Raw(_) => return,
    };
    output.push(shaped);
}
