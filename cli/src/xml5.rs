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
use tagstream::encoding::{DecodedTokens, Encoding, Transcoder};
use tagstream::xml5::Tokenizer;
use tagstream::xml5::xml5lib::{self, Xml5libToken};
use tagstream::{Options, Span};

use crate::{
    Bom, CliError, Object, array, each_chunk, error_json, feed, print_dropped, token_json,
};

/// Feed the input chunk by chunk, printing each token (and, with `errors`, the parse errors found
/// for it after it) as it comes. The input is decoded from `encoding`, else from what the BOM or
/// the XML declaration says (UTF-8 by default); spans are byte offsets in the input.
pub(crate) fn stream_tokens(
    input: &mut dyn Read,
    name: &str,
    (errors, lossless): (bool, bool),
    encoding: Option<&'static Encoding>,
    chunk_size: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let mut transcoder =
        Transcoder::xml5(Options::new().errors(errors).lossless(lossless)).map_offsets(true);
    if let Some(encoding) = encoding {
        transcoder = transcoder.known_encoding(encoding);
    }
    let mut bom = Bom::new(lossless);
    each_chunk(input, name, chunk_size, |chunk, last| {
        Ok(print_tokens(
            feed(&mut transcoder, chunk, last),
            &mut bom,
            out,
        )?)
    })?;
    let dropped = transcoder.tokenizer().dropped_errors();
    Ok(print_dropped(&dropped, out)?)
}

/// Print every token of one feed, each followed by the parse errors found for it; spans and
/// offsets in bytes of the input.
fn print_tokens(
    mut tokens: DecodedTokens<'_, Tokenizer>,
    bom: &mut Bom,
    out: &mut impl Write,
) -> std::io::Result<()> {
    while let Some(token) = tokens.next() {
        let original = |span: Span| tokens.original_span(span).unwrap_or(span);
        bom.print_before(original(token.span()), out)?;
        writeln!(out, "{}", token_json(&token, None, &original))?;
        print_errors(&mut tokens, out)?;
    }
    print_errors(&mut tokens, out)
}

/// The parse errors the tokens hold, each at its offset in the input.
fn print_errors(
    tokens: &mut DecodedTokens<'_, Tokenizer>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    for e in tokens.take_errors() {
        let offset = tokens
            .original_span(Span::empty(e.offset))
            .map_or(e.offset, |s| s.start);
        writeln!(out, "{}", error_json(&e, offset))?;
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
    let mut output = Vec::new();
    match chunk_size {
        None => xml5lib::take(&mut output, tokenizer.tokenize(input)),
        Some(n) => {
            for chunk in input.chunks(n) {
                xml5lib::take(&mut output, tokenizer.feed(chunk));
            }
            xml5lib::take(&mut output, tokenizer.finish());
        }
    }
    let mut result = Object::new().raw("output", &array(output.iter().map(entry_json)));
    let dropped = tokenizer.dropped_errors().total();
    if dropped > 0 {
        // More errors in one token than the cap: counted, not listed.
        result = result.field("errors_dropped", dropped);
    }
    writeln!(out, "{}", result.finish())?;
    Ok(())
}

/// One entry in xml5lib-tests' JSON; attributes keep their source order.
fn entry_json(entry: &Xml5libToken) -> String {
    let attributes = |attributes: &[(String, String)]| {
        attributes
            .iter()
            .fold(Object::new(), |o, (name, value)| {
                o.field(name, value.as_str())
            })
            .finish()
    };
    match entry {
        Xml5libToken::ParseError => Value::from("ParseError").to_string(),
        Xml5libToken::StartTag {
            name,
            attributes: a,
        } => {
            format!(
                "[\"StartTag\",{},{}]",
                Value::from(name.as_str()),
                attributes(a)
            )
        }
        Xml5libToken::EmptyTag {
            name,
            attributes: a,
        } => {
            format!(
                "[\"EmptyTag\",{},{}]",
                Value::from(name.as_str()),
                attributes(a)
            )
        }
        Xml5libToken::EndTag(name) => json!(["EndTag", name]).to_string(),
        Xml5libToken::ShortTag => json!(["ShortTag", ""]).to_string(),
        Xml5libToken::Pi { target, data } => json!(["PI", target, data]).to_string(),
        Xml5libToken::Comment(data) => json!(["Comment", data]).to_string(),
        Xml5libToken::Character(data) => json!(["Character", data]).to_string(),
        Xml5libToken::Doctype {
            name,
            public_id,
            system_id,
        } => json!(["DOCTYPE", name, public_id, system_id]).to_string(),
    }
}
