//! `tagstream tokens --dialect sgml`: the lexical mode of the W3C Note "A Lexical Analyzer for
//! HTML and Basic SGML" through [`tagstream::sgml::Tokenizer`], one event a line as JSON, or with
//! `--sgml-listing` in the note's own listing format ([`write_listing`]).
//!
//! An event line is `{"channel", "lexemes": [{"kind", "span", "text"}, ...]}`; a lexeme whose
//! text is not its source (a name lowercased by `--normalize`; the message of a problem, whose
//! raw is `""`) also has `"raw"`; invalid UTF-8 is U+FFFD in the text, and only the span
//! says which bytes it was. A problem's event also has `"code"` and
//! the `"line"` and `"col"` of its offending text. The input's bytes are lexed as they are (the
//! note reads ASCII; other bytes are data), a byte order mark included, so that the lexemes'
//! spans tile the input.
//!
//! ```text
//! $ printf '<xX val1 aTTr3=".76meters">' | tagstream tokens --dialect sgml --sgml-listing --normalize
//! Start Tag: `<xx'
//!   Attr Name: `'
//!   Name: `val1'
//!   Attr Name: `attr3'
//!   Literal: `".76meters"'
//!   Tag Close: `>'
//! ```

use std::io::{Read, Write};

use tagstream::Options;
use tagstream::sgml::write_listing;
use tagstream::sgml::{Event, Events, Lexeme, SgmlOptions, Tokenizer};

use crate::{CliError, Object, array, each_chunk, span_json};

/// How `tokens --dialect sgml` prints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SgmlArgs {
    /// The note's `SGML_lexNorm`: names other than entity names lowercased.
    pub(crate) normalize: bool,
    /// The note's listing format instead of JSON lines.
    pub(crate) listing: bool,
}

/// Feed the input `chunk_size` bytes at a time, printing each event as it comes.
pub(crate) fn stream_events(
    input: &mut dyn Read,
    name: &str,
    args: SgmlArgs,
    chunk_size: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let options = Options::new().strip_bom(false).track_positions(true);
    let mut tokenizer = Tokenizer::new(
        options,
        SgmlOptions {
            normalize: args.normalize,
        },
    );
    each_chunk(input, name, chunk_size, |chunk, _| {
        Ok(print_events(tokenizer.feed(chunk), args, out)?)
    })?;
    print_events(tokenizer.finish(), args, out)?;
    match tokenizer.limit_error() {
        Some(e) => Err(CliError::Refused(format!("{name}: {e}"))),
        None => Ok(()),
    }
}

/// Print the events of one feed.
fn print_events(
    mut events: Events<'_>,
    args: SgmlArgs,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut text = String::new();
    while let Some(event) = events.next() {
        text.clear();
        if args.listing {
            write_listing(&event, &mut text);
        } else {
            text.push_str(&event_json(&event, &mut events));
            text.push('\n');
        }
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// One event as a JSON line's object; a problem's with its code and the line and column of its
/// offending text.
fn event_json(event: &Event<'_>, events: &mut Events<'_>) -> String {
    let mut object = Object::new().field("channel", event.channel().as_str());
    if let Some(problem) = event.problem() {
        object = object.field("code", problem.code());
        if let Some(at) = events.position(event.span().start) {
            object = object.field("line", at.line).field("col", at.col);
        }
    }
    let lexemes = array(event.lexemes().iter().map(lexeme_json));
    object.raw("lexemes", &lexemes).finish()
}

/// One lexeme: kind, span, text, and raw where the text is not the source bytes.
fn lexeme_json(lexeme: &Lexeme<'_>) -> String {
    let text = lexeme.text();
    let object = Object::new()
        .field("kind", lexeme.kind().as_str())
        .field("span", span_json(lexeme.span()))
        .field("text", text.as_ref());
    match std::str::from_utf8(lexeme.raw()) {
        Ok(raw) if raw != text => object.field("raw", raw).finish(),
        // The same, or not UTF-8 (the text has U+FFFD; the span says where the bytes are).
        _ => object.finish(),
    }
}
