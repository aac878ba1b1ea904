//! Target `xml5`: the XML5 tokenizer on any bytes. The case's header gives the options (errors,
//! positions, memory limits) and the chunking (see [`crate::case`]); the HTML-only fields are
//! ignored.
//!
//! Checked: no panic; every token's span inside the input, after the previous token's end, with
//! its raw bytes equal to the input's; every part (names, values, data, DOCTYPE parts) inside its
//! token with equal raw bytes; names kept as written (decoded equals the raw bytes wherever there
//! is nothing to decode); text, comment and PI data equal to the plain oracle wherever no
//! character reference can change them; errors in stream order at the position oracle's line and
//! column; the same tokens (text merged), spans and errors whole, fed in the case's chunks with
//! its pauses, and with errors and positions toggled.

use tagstream::xml5::{Tokenizer, Tokens};
use tagstream::{Options, ParseError, Position, Span, TextKind, Token};

use crate::case::Case;
use crate::check::{kind_name, plain_oracle, positions};
use crate::drive::same_list;

/// One token in a chunking-independent shape: everything decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Start {
        name: String,
        attributes: Vec<(String, String)>,
        empty: bool,
    },
    End(String),
    Comment(String),
    Text(TextKind, String),
    Pi(String, String),
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
    },
    /// Bytes in no token (a lossless tokenizer's raw item).
    Raw(Vec<u8>),
}

/// What a run produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub tokens: Vec<Shape>,
    /// Kinds and spans, adjacent text of one kind merged.
    pub spans: Vec<(&'static str, Span)>,
    pub errors: Vec<ParseError>,
    /// Whether the run stopped at a memory limit.
    pub stopped: bool,
}

/// The target: see the module docs.
pub fn xml5(case: &Case) {
    let whole = run_whole(case, options(case, false));
    let mut toggled = case.clone();
    toggled.config.errors = !case.config.errors;
    toggled.config.track_positions = !case.config.track_positions;
    let other = run_whole(&toggled, options(&toggled, false));
    same_list("errors toggled", "tokens", &whole.tokens, &other.tokens);
    same_list("errors toggled", "spans", &whole.spans, &other.spans);
    let chunked = run_chunked(case, options(case, true));
    if chunked.stopped {
        // A memory limit stopped the chunked run: what it gave is a prefix of the whole run's.
        let n = chunked
            .tokens
            .len()
            .saturating_sub(1)
            .min(whole.tokens.len());
        same_list(
            "stopped run",
            "tokens",
            &whole.tokens[..n],
            &chunked.tokens[..n],
        );
        return;
    }
    same_list("whole vs chunked", "tokens", &whole.tokens, &chunked.tokens);
    same_list("whole vs chunked", "spans", &whole.spans, &chunked.spans);
    same_list("whole vs chunked", "errors", &whole.errors, &chunked.errors);
}

/// The case's options for XML5; the memory limits only for a chunked run (`limited`).
fn options(case: &Case, limited: bool) -> Options {
    let c = &case.config;
    let options = Options::new()
        .errors(c.errors)
        .track_positions(c.track_positions)
        .validate_utf8(c.track_positions);
    match c.limits {
        Some(l) if limited => options.max_carry(l.carry).max_arena(l.arena),
        _ => options,
    }
}

/// Tokenize the case's document whole.
pub fn run_whole(case: &Case, options: Options) -> Outcome {
    let input = &case.data[..];
    let oracle = positions(input);
    let mut tokenizer = Tokenizer::new(options);
    let mut run = Run::new(input);
    run.consume(tokenizer.tokenize(input), None);
    run.finish(&mut tokenizer, &oracle, case.config.errors)
}

/// Feed the case's document in its chunks, pausing as it says, then finish.
pub fn run_chunked(case: &Case, options: Options) -> Outcome {
    let input = &case.data[..];
    let oracle = positions(input);
    let mut tokenizer = Tokenizer::new(options);
    let mut run = Run::new(input);
    let pause = case.config.pause;
    for (start, end) in case.cuts() {
        run.pull(&mut tokenizer, Some(&input[start..end]), pause);
    }
    run.pull(&mut tokenizer, None, pause);
    run.finish(&mut tokenizer, &oracle, case.config.errors)
}

struct Run<'a> {
    input: &'a [u8],
    prev_end: usize,
    out: Outcome,
}

impl<'a> Run<'a> {
    fn new(input: &'a [u8]) -> Run<'a> {
        Run {
            input,
            prev_end: 0,
            out: Outcome::default(),
        }
    }

    /// Feed `chunk` (`None`: finish) and consume its tokens; after a pause, resume with empty
    /// feeds until quiet.
    fn pull(&mut self, tokenizer: &mut Tokenizer, chunk: Option<&[u8]>, pause: Option<usize>) {
        self.consume(open(tokenizer, chunk), pause);
        if pause.is_none() {
            return;
        }
        let resume = chunk.map(|_| &[][..]);
        for _ in 0..self.input.len() + 2 {
            if self.consume(open(tokenizer, resume), pause) == 0 {
                return;
            }
        }
        panic!("empty feeds keep yielding tokens");
    }

    /// Pull tokens (at most `limit`), checking and recording each; returns how many.
    fn consume(&mut self, mut tokens: Tokens<'_>, limit: Option<usize>) -> usize {
        let mut n = 0;
        while limit.is_none_or(|k| n < k) {
            let Some(token) = tokens.next() else { break };
            n += 1;
            check_token(&token, self.input, self.prev_end);
            self.prev_end = token.span().end;
            self.record(&token);
        }
        n
    }

    fn record(&mut self, token: &Token<'_>) {
        let (kind, span) = (kind_name(token), token.span());
        match self.out.spans.last_mut() {
            Some((last, s)) if kind == "text" && *last == "text" && s.end == span.start => {
                s.end = span.end;
            }
            _ => self.out.spans.push((kind, span)),
        }
        let shape = shape(token);
        match (self.out.tokens.last_mut(), shape) {
            (Some(Shape::Text(k, text)), Shape::Text(kind, more)) if *k == kind => {
                text.push_str(&more)
            }
            (_, shape) => self.out.tokens.push(shape),
        }
    }

    fn finish(mut self, tokenizer: &mut Tokenizer, oracle: &[Position], on: bool) -> Outcome {
        self.out.errors = tokenizer.take_errors();
        self.out.stopped = tokenizer.limit_error().is_some();
        check_errors(&self.out.errors, self.input, oracle, on);
        self.out
    }
}

fn open<'t>(tokenizer: &'t mut Tokenizer, chunk: Option<&'t [u8]>) -> Tokens<'t> {
    match chunk {
        Some(bytes) => tokenizer.feed(bytes),
        None => tokenizer.finish(),
    }
}

/// A token's chunking-independent shape.
pub fn shape(token: &Token<'_>) -> Shape {
    match token {
        Token::StartTag(tag) => Shape::Start {
            name: tag.name().to_owned(),
            attributes: tag
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            empty: tag.self_closing(),
        },
        Token::EndTag(tag) => Shape::End(tag.name().to_owned()),
        Token::Comment(c) => Shape::Comment(c.data().to_owned()),
        Token::Text(t) => Shape::Text(t.kind(), t.text().to_owned()),
        Token::ProcessingInstruction(pi) => Shape::Pi(pi.target().to_owned(), pi.data().to_owned()),
        Token::Doctype(d) => Shape::Doctype {
            name: d.name().map(str::to_owned),
            public_id: d.public_id().map(str::to_owned),
            system_id: d.system_id().map(str::to_owned),
        },
        Token::Raw(r) => Shape::Raw(r.raw().to_vec()),
    }
}

/// A name as XML5 decodes it: as written, but for CR/CRLF, NUL and invalid UTF-8.
fn name_oracle(raw: &[u8]) -> String {
    plain_oracle(raw, false)
}

/// The per-token checks (see the module docs).
fn check_token(token: &Token<'_>, input: &[u8], prev_end: usize) {
    let span = token.span();
    let kind = kind_name(token);
    assert!(
        span.start < span.end && span.end <= input.len(),
        "{kind}: span {span:?} is empty or outside the input (length {})",
        input.len()
    );
    assert!(
        span.start >= prev_end,
        "{kind}: span {span:?} starts before the previous token's end {prev_end}"
    );
    assert_eq!(token.raw(), &input[span.range()], "{kind}: raw bytes");
    let part = |what: &str, part: Span, raw: &[u8]| {
        assert!(
            part.start <= part.end && span.start <= part.start && part.end <= span.end,
            "{kind}: {what} {part:?} is not inside {span:?}"
        );
        assert_eq!(raw, &input[part.range()], "{kind}: raw {what}");
    };
    match token {
        Token::Text(t) => {
            if t.kind() == TextKind::Cdata || !t.raw().contains(&b'&') {
                assert_eq!(
                    t.text(),
                    plain_oracle(t.raw(), false),
                    "text ({:?})",
                    t.kind()
                );
            }
        }
        Token::StartTag(tag) => {
            part("name", tag.name_span(), tag.raw_name());
            assert_eq!(tag.name(), name_oracle(tag.raw_name()), "tag name");
            for a in tag.attributes() {
                part("attribute", a.span(), a.raw());
                part("attribute name", a.name_span(), a.raw_name());
                part("attribute value", a.value_span(), a.raw_value());
                assert_eq!(a.name(), name_oracle(a.raw_name()), "attribute name");
                if !a.raw_value().contains(&b'&') {
                    assert_eq!(a.value(), plain_oracle(a.raw_value(), false), "value");
                }
            }
        }
        Token::EndTag(tag) => {
            part("name", tag.name_span(), tag.raw_name());
            assert_eq!(tag.name(), name_oracle(tag.raw_name()), "end tag name");
        }
        Token::Comment(c) => {
            part("data", c.data_span(), c.raw_data());
            assert_eq!(c.data(), plain_oracle(c.raw_data(), false), "comment data");
        }
        Token::ProcessingInstruction(pi) => {
            part("target", pi.target_span(), pi.raw_target());
            part("data", pi.data_span(), pi.raw_data());
            assert!(
                pi.data_span().start >= pi.target_span().end,
                "PI data before target"
            );
            assert_eq!(pi.data(), plain_oracle(pi.raw_data(), false), "PI data");
        }
        Token::Doctype(d) => {
            let parts = [
                ("name", d.name_span(), d.raw_name()),
                ("public id", d.public_id_span(), d.raw_public_id()),
                ("system id", d.system_id_span(), d.raw_system_id()),
            ];
            for (what, s, raw) in parts {
                assert_eq!(s.is_some(), raw.is_some(), "doctype {what}: span vs raw");
                if let (Some(s), Some(raw)) = (s, raw) {
                    part(what, s, raw);
                }
            }
            let _ = (d.name(), d.public_id(), d.system_id());
        }
        // Its raw bytes are the input's (checked with the token's): that is all it has.
        Token::Raw(_) => {}
    }
}

/// Errors: none when off; otherwise inside the input, in stream order, at the oracle's positions.
fn check_errors(errors: &[ParseError], input: &[u8], positions: &[Position], on: bool) {
    if !on {
        assert!(errors.is_empty(), "errors with errors off: {errors:?}");
        return;
    }
    let mut last = 0;
    for e in errors {
        assert!(e.offset <= input.len(), "error {e:?} past the end");
        assert!(e.offset >= last, "error {e:?} out of stream order");
        last = e.offset;
        assert_eq!(e.position, positions[e.offset], "position of error {e:?}");
    }
}
