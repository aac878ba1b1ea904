//! Tokens in the shapes of html5lib-tests (`tokenizer/*.test`), for conformance runners.
//!
//! [`run`] tokenizes an input exactly as the library does for any user (optionally fed in chunks) and
//! returns owned tokens with adjacent text merged, plus the parse errors. The CLI's `--html5lib` mode
//! and the project's conformance tests both use it, so both see the library itself.
//!
//! ```
//! use tagstream::html5lib::{Html5libToken, run};
//! use tagstream::Options;
//! let result = run(b"<b>x</b>", &Options::new().errors(true), None);
//! assert_eq!(result.output[1], Html5libToken::Character("x".into()));
//! assert!(result.errors.is_empty());
//! ```

use crate::{Ambiguity, DroppedErrors, Options, ParseError, TextKind, Token, Tokenizer, Tokens};

/// One token as html5lib-tests writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Html5libToken {
    /// `["DOCTYPE", name, publicId, systemId, correctness]` (`correctness` = not force-quirks).
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        correctness: bool,
    },
    /// `["StartTag", name, {attributes}, true?]`
    StartTag {
        name: String,
        attributes: Vec<(String, String)>,
        self_closing: bool,
    },
    /// `["EndTag", name]`
    EndTag { name: String },
    /// `["Comment", data]`
    Comment(String),
    /// `["Character", data]`, adjacent ones merged.
    Character(String),
    /// `["ProcessingInstruction", target, data]` (not in html5lib-tests, which predate PIs).
    ProcessingInstruction { target: String, data: String },
}

/// The output of [`run`].
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// Tokens with adjacent character tokens merged.
    pub output: Vec<Html5libToken>,
    /// Parse errors in stream order (empty unless `options` had errors on), taken after every
    /// token: all of them unless one token brought more than [`Options::max_errors`].
    pub errors: Vec<ParseError>,
    /// The errors past [`Options::max_errors`] (in one token), counted but not in `errors`.
    pub dropped: DroppedErrors,
    /// The tokens the tree-builder simulator was unsure about (see [`Tokens::ambiguity`]): the
    /// index in `output` of the token, and why. Empty with [`Options::simulate`] off.
    pub ambiguous: Vec<(usize, Ambiguity)>,
}

/// The tokenizer state named as html5lib-tests name it (`"Data state"`, `"PLAINTEXT state"`,
/// `"RCDATA state"`, `"RAWTEXT state"`, `"Script data state"`, `"CDATA section state"`).
pub fn state_from_name(name: &str) -> Option<TextKind> {
    Some(match name {
        "Data state" => TextKind::Data,
        "PLAINTEXT state" => TextKind::Plaintext,
        "RCDATA state" => TextKind::Rcdata,
        "RAWTEXT state" => TextKind::Rawtext,
        "Script data state" => TextKind::ScriptData,
        "CDATA section state" => TextKind::Cdata,
        _ => return None,
    })
}

/// A tokenizer for html5lib-tests' inputs, which are decoded text already: a U+FEFF at their
/// start is a character (`domjs.test` expects it), so no byte order mark is stripped
/// ([`Options::strip_bom`]).
fn html5lib_tokenizer(options: &Options) -> Tokenizer {
    Tokenizer::new(options.clone().strip_bom(false))
}

/// Tokenize `input` with `options`, whole (`chunk_size` `None`) or fed `chunk_size` bytes at a time.
pub fn run(input: &[u8], options: &Options, chunk_size: Option<usize>) -> Run {
    let mut tokenizer = html5lib_tokenizer(options);
    let mut run = Run::default();
    match chunk_size {
        None => run.take(tokenizer.tokenize(input)),
        Some(size) => {
            for chunk in input.chunks(size.max(1)) {
                run.take(tokenizer.feed(chunk));
            }
            run.take(tokenizer.finish());
        }
    }
    run.errors.extend(tokenizer.drain_errors());
    run.dropped = tokenizer.dropped_errors();
    run
}

impl Run {
    /// Push every token, noting the ambiguous ones, and take the errors as they come.
    fn take(&mut self, mut tokens: Tokens<'_>) {
        while let Some(token) = tokens.next() {
            push(&mut self.output, token);
            if let Some(why) = tokens.ambiguity() {
                self.ambiguous.push((self.output.len() - 1, why));
            }
            self.errors.extend(tokens.drain_errors());
        }
        self.errors.extend(tokens.drain_errors());
    }
}

/// Run `input` split at the given offsets (each chunk fed separately).
pub fn run_split(input: &[u8], options: &Options, splits: &[usize]) -> Run {
    let mut tokenizer = html5lib_tokenizer(options);
    let mut run = Run::default();
    let mut start = 0;
    for &end in splits.iter().chain(std::iter::once(&input.len())) {
        run.take(tokenizer.feed(&input[start..end]));
        start = end;
    }
    run.take(tokenizer.finish());
    run.errors.extend(tokenizer.drain_errors());
    run.dropped = tokenizer.dropped_errors();
    run
}

/// Append `token` in html5lib shape, merging text into a preceding character token.
pub fn push(output: &mut Vec<Html5libToken>, token: Token<'_>) {
    let shaped = match token {
        Token::Text(text) => {
            if let Some(Html5libToken::Character(prev)) = output.last_mut() {
                prev.push_str(text.text());
                return;
            }
            Html5libToken::Character(text.text().to_owned())
        }
        Token::Doctype(d) => Html5libToken::Doctype {
            name: d.name().map(str::to_owned),
            public_id: d.public_id().map(str::to_owned),
            system_id: d.system_id().map(str::to_owned),
            correctness: !d.force_quirks(),
        },
        Token::StartTag(tag) => Html5libToken::StartTag {
            name: tag.name().to_owned(),
            attributes: tag
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            self_closing: tag.self_closing(),
        },
        Token::EndTag(tag) => Html5libToken::EndTag {
            name: tag.name().to_owned(),
        },
        Token::Comment(c) => Html5libToken::Comment(c.data().to_owned()),
        Token::ProcessingInstruction(pi) => Html5libToken::ProcessingInstruction {
            target: pi.target().to_owned(),
            data: pi.data().to_owned(),
        },
        // Bytes the standard drops have no shape; text around them stays one character token.
        Token::Raw(_) => return,
    };
    output.push(shaped);
}
