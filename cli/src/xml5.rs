//! `tagstream tokens --dialect xml5`: XML through [`tagstream::xml5::Tokenizer`], printed as the
//! HTML tokens are (JSON lines, the same shapes), or with `--xml5lib` as one xml5lib-tests object.
//!
//! xml5lib-tests places each parse error inline, where xml5ever emits it; here an error goes
//! before the token it was found for (the errors the iterator holds after yielding a token), and
//! text tokens are merged into one `["Character", data]` unless an error stands between them.
//!
//! ```text
//! $ printf '<a x="1"/></><![CDATA[c]]>&#0;' | tagstream tokens --dialect xml5 --xml5lib
//! {"output":[["EmptyTag","a",{"x":"1"}],["ShortTag",""],["Character","c"],"ParseError",["Character","�"]]}
//! ```

use std::io::{Read, Write};

use serde_json::{Value, json};
use tagstream::xml5::{Tokenizer, Tokens};
use tagstream::{Options, Token};

use crate::{CliError, Object, array, error_json, print_dropped, read_chunk, token_json};

/// Feed the input chunk by chunk, printing each token (and, with `errors`, the parse errors found
/// for it after it) as it comes.
pub(crate) fn stream_tokens(
    input: &mut dyn Read,
    name: &str,
    errors: bool,
    chunk_size: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let mut tokenizer = Tokenizer::new(Options::new().errors(errors));
    let mut buf = vec![0; chunk_size];
    loop {
        let n = read_chunk(input, &mut buf).map_err(|source| CliError::Input {
            name: name.to_owned(),
            source,
        })?;
        print_tokens(tokenizer.feed(&buf[..n]), out)?;
        if n < buf.len() {
            // A short read is the end of the input.
            print_tokens(tokenizer.finish(), out)?;
            return Ok(print_dropped(&tokenizer.dropped_errors(), out)?);
        }
    }
}

/// Print every token of one feed, each followed by the parse errors found for it.
fn print_tokens(mut tokens: Tokens<'_>, out: &mut impl Write) -> std::io::Result<()> {
    while let Some(token) = tokens.next() {
        writeln!(out, "{}", token_json(&token, None, &|span| span))?;
        for e in tokens.drain_errors() {
            writeln!(out, "{}", error_json(&e, e.offset))?;
        }
    }
    for e in tokens.drain_errors() {
        writeln!(out, "{}", error_json(&e, e.offset))?;
    }
    Ok(())
}

/// `--xml5lib`: `input` tokenized with errors on, whole (`chunk_size` `None`) or fed
/// `chunk_size` bytes at a time, printed as one `{"output": [...]}` object.
pub(crate) fn xml5lib_mode(
    input: &[u8],
    chunk_size: Option<usize>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    let mut output = Output::default();
    match chunk_size {
        None => output.take(tokenizer.tokenize(input)),
        Some(n) => {
            for chunk in input.chunks(n) {
                output.take(tokenizer.feed(chunk));
            }
            output.take(tokenizer.finish());
        }
    }
    let mut result = Object::new().raw("output", &array(output.entries.iter().map(Entry::json)));
    let dropped = tokenizer.dropped_errors().total();
    if dropped > 0 {
        // More errors in one token than the cap: counted, not listed.
        result = result.field("errors_dropped", dropped);
    }
    writeln!(out, "{}", result.finish())?;
    Ok(())
}

/// One entry of xml5lib-tests' `output`.
enum Entry {
    /// `"ParseError"`.
    Error,
    /// `["Character", data]`, grown while text follows text.
    Character(String),
    /// Any other token, serialized.
    Token(String),
}

impl Entry {
    fn json(&self) -> String {
        match self {
            Entry::Error => Value::from("ParseError").to_string(),
            Entry::Character(data) => json!(["Character", data]).to_string(),
            Entry::Token(json) => json.clone(),
        }
    }
}

/// The `output` list as it grows.
#[derive(Default)]
struct Output {
    entries: Vec<Entry>,
}

impl Output {
    /// Every token of `tokens`, each after the errors found for it, then the errors left.
    fn take(&mut self, mut tokens: Tokens<'_>) {
        while let Some(token) = tokens.next() {
            self.errors(tokens.drain_errors().count());
            self.push(entry(&token));
        }
        self.errors(tokens.drain_errors().count());
    }

    fn errors(&mut self, n: usize) {
        self.entries.extend((0..n).map(|_| Entry::Error));
    }

    /// Text joins the text just before it; anything else is an entry of its own.
    fn push(&mut self, entry: Entry) {
        match (self.entries.last_mut(), entry) {
            (Some(Entry::Character(data)), Entry::Character(more)) => data.push_str(&more),
            (_, entry) => self.entries.push(entry),
        }
    }
}

/// A token in xml5lib-tests' shape; attributes keep their source order.
fn entry(token: &Token<'_>) -> Entry {
    let json = match token {
        Token::Text(text) => return Entry::Character(text.text().to_owned()),
        Token::StartTag(tag) => {
            let kind = if tag.self_closing() {
                "EmptyTag"
            } else {
                "StartTag"
            };
            let attributes = tag
                .attributes()
                .fold(Object::new(), |o, a| o.field(a.name(), a.value()))
                .finish();
            format!("[\"{kind}\",{},{attributes}]", Value::from(tag.name()))
        }
        // The short end tag `</>`: an end tag with no name.
        Token::EndTag(tag) if tag.name_span().is_empty() => json!(["ShortTag", ""]).to_string(),
        Token::EndTag(tag) => json!(["EndTag", tag.name()]).to_string(),
        Token::Comment(c) => json!(["Comment", c.data()]).to_string(),
        Token::ProcessingInstruction(pi) => json!(["PI", pi.target(), pi.data()]).to_string(),
        Token::Doctype(d) => json!(["DOCTYPE", d.name(), d.public_id(), d.system_id()]).to_string(),
    };
    Entry::Token(json)
}
