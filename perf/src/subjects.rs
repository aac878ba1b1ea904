//! The contestants. Each one tokenizes every page of the corpus as its own document, consumes every
//! token into a checksum (so the compiler cannot drop any work) and switches text states after the
//! same start tags, the way a tree builder would in HTML content:
//!
//! | after the start tag                              | text state   |
//! |--------------------------------------------------|--------------|
//! | `script`                                         | script data  |
//! | `style`, `xmp`, `iframe`, `noembed`, `noframes`  | RAWTEXT      |
//! | `textarea`, `title`                              | RCDATA       |
//! | `plaintext`                                      | PLAINTEXT    |
//!
//! This is naive (it ignores foreign content, `noscript`, and the tree builder's other rules), but it
//! is the same for every subject. tagstream's built-in tree-builder simulator (on by default) does it
//! for tagstream; the peers do it by hand.

use std::cell::Cell;

use crate::corpus::Corpus;

/// What one pass over the corpus produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The subject's own sum over every token (see [`SUBJECTS`] for what each one adds up).
    pub checksum: u64,
    /// Parse errors reported (tagstream-errors, html5ever, html5gum), or pages on which lol_html
    /// bailed out (should be 0).
    pub errors: u64,
}

/// A contestant, holding whatever it reuses between documents.
pub trait Subject {
    fn run(&mut self, corpus: &Corpus) -> Outcome;
}

/// Every subject: name, and what it does and sums.
pub const SUBJECTS: &[(&str, &str)] = &[
    (
        "tagstream",
        "every token; tag names via raw_name(), attribute names and values via their spans, text \
         by span; nothing decoded; errors off. Sum: name lengths + attribute count + attribute \
         name/value span lengths + text/comment/doctype/PI span lengths",
    ),
    (
        "tagstream-sgml",
        "the SGML note's lexical mode (tagstream::sgml, normalization off) over the same pages: \
         every event, every lexeme's span taken. Sum: lexeme span lengths + lexeme \
         count; plus the problems (errors and limitations) reported",
    ),
    (
        "tagstream-decode",
        "every token decoded: text(), tag name(), attribute name() and value(), comment data(), \
         doctype name(), PI target()/data(). Sum: decoded lengths + attribute count",
    ),
    (
        "tagstream-errors",
        "as `tagstream`, with Options::errors(true). Sum: as `tagstream`; plus the parse errors",
    ),
    (
        "tagstream-chunks",
        "as `tagstream`, fed in 4 KiB chunks through feed()/finish(). Sum: as `tagstream` (text \
         split at chunk seams adds up to the same)",
    ),
    (
        "tagstream-lossless",
        "every item with Options::lossless(true) (the raw items too), each item's raw() taken, as \
         a writer that copies the input through does. Sum: raw() lengths (= the corpus bytes)",
    ),
    (
        "tagstream-passthrough",
        "write::Rewriter over a lossless tokenizer wanting no token (Rewrite::next_where turning \
         every one down, so each is passed): the input copied through to a sink, as lol_html-bare \
         with no handlers. Sum: output bytes (= the corpus bytes)",
    ),
    (
        "tagstream-rewrite",
        "write::Rewriter over a lossless tokenizer, every token handed out by Rewrite::next and \
         passed (its raw bytes copied to a sink). Sum: output bytes (= the corpus bytes)",
    ),
    (
        "tagstream-absolutize",
        "as `tagstream-rewrite` (scripting flag on: <noscript> holds text, as lol_html reads it), \
         with Rewrite::absolutize_links on every token (every URL `tagstream links` knows, \
         resolved against the page URL and <base href>). Sum: output bytes",
    ),
    (
        "lol_html-absolutize",
        "HtmlRewriter with element handlers doing what absolutize_links does (the same elements \
         and attributes by namespace, <base href>, srcset and refresh URLs in place; references \
         decoded, & escaped) with the url crate, output to a sink; --check-absolutize holds both \
         outputs to the same tokens. Sum: output bytes",
    ),
    (
        "tagstream-serialize",
        "Tokenizer (simulator on) into write::Serializer with the default options, output to a \
         sink (every page is written back whole: the corpus has no refused token in it). Sum: \
         output bytes",
    ),
    (
        "html5ever",
        "html5ever::tokenizer::Tokenizer with a TokenSink that returns RawData/Plaintext after the \
         start tags above (default TokenizerOpts, input pre-made as StrTendril). Sum: tag name \
         lengths + attribute count + attribute name/value lengths + character/comment lengths + \
         doctype name lengths + NUL tokens; plus ParseError tokens",
    ),
    (
        "html5gum",
        "html5gum CallbackEmitter (borrowed, decoded strings); the callback hands back the new \
         state at CloseStartTag and the loop calls Tokenizer::set_state. Sum: as html5ever; plus \
         Error events",
    ),
    (
        "html5gum-iter",
        "html5gum's default iterator (Tokenizer::new(&str), DefaultEmitter, owned Token enums), \
         set_state after the start tags above. Sum: as html5ever; plus Error tokens",
    ),
    (
        "lol_html",
        "HtmlRewriter with element!(\"*\") and text!(\"*\") handlers, strict mode off, output \
         discarded. Sum: elements + attribute count + attribute name/value span lengths + text \
         chunk lengths + output bytes",
    ),
    (
        "lol_html-bare",
        "HtmlRewriter with no handlers (it only scans for what it would rewrite), output \
         discarded. Sum: output bytes (= input bytes)",
    ),
    (
        "lol_html-bare-chunks",
        "as `lol_html-bare`, written in 4 KiB chunks: the reference for what chunking costs a \
         streaming peer. Sum: as `lol_html-bare`",
    ),
];

/// Which race: HTML pages (the default) or XML files (`--xml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Html,
    Xml,
}

impl Dialect {
    /// The race's subjects: name, and what each does and sums.
    pub fn subjects(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Dialect::Html => SUBJECTS,
            Dialect::Xml => crate::xml_subjects::SUBJECTS,
        }
    }

    /// The subject every other is compared with in the table.
    pub fn base(self) -> &'static str {
        match self {
            Dialect::Html => "tagstream",
            Dialect::Xml => "tagstream-xml5",
        }
    }

    /// Build one of the race's subjects by name (`None` for an unknown name).
    pub fn make(self, name: &str, corpus: &Corpus, chunk_size: usize) -> Option<Box<dyn Subject>> {
        match self {
            Dialect::Html => make(name, corpus, chunk_size),
            Dialect::Xml => crate::xml_subjects::make(name, corpus, chunk_size),
        }
    }
}

/// Build an HTML subject by name (`None` for an unknown name).
pub fn make(name: &str, corpus: &Corpus, chunk_size: usize) -> Option<Box<dyn Subject>> {
    Some(match name {
        "tagstream" => Box::new(tagstream::spans(false)),
        "tagstream-decode" => Box::new(tagstream::decoded()),
        "tagstream-errors" => Box::new(tagstream::spans(true)),
        "tagstream-chunks" => Box::new(tagstream::Chunks::new(chunk_size)),
        "tagstream-lossless" => Box::new(tagstream::lossless()),
        "tagstream-sgml" => Box::new(sgml::Sgml::default()),
        "html5ever" => Box::new(html5ever_tok::Html5ever::new(corpus)),
        "html5gum" => Box::new(html5gum_tok::Callback),
        "html5gum-iter" => Box::new(html5gum_tok::Iter),
        "lol_html" => Box::new(lol::LolHtml {
            handlers: true,
            chunk_size: None,
        }),
        "lol_html-bare" => Box::new(lol::LolHtml {
            handlers: false,
            chunk_size: None,
        }),
        "lol_html-bare-chunks" => Box::new(lol::LolHtml {
            handlers: false,
            chunk_size: Some(chunk_size),
        }),
        other => return crate::write_subjects::make(other),
    })
}

/// The naive text-state switch, on a lowercase tag name.
#[inline]
fn switch_for(lowercase_name: &[u8]) -> Option<Switch> {
    match lowercase_name {
        b"script" => Some(Switch::ScriptData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(Switch::Rawtext),
        b"textarea" | b"title" => Some(Switch::Rcdata),
        b"plaintext" => Some(Switch::Plaintext),
        _ => None,
    }
}

/// The same on a tag name as written (ASCII case-insensitive, no allocation).
#[inline]
fn switch_for_raw(raw: &[u8]) -> Option<Switch> {
    let n = raw.len();
    if !(3..=9).contains(&n) {
        return None;
    }
    let mut lower = [0u8; 9];
    for (d, s) in lower.iter_mut().zip(raw) {
        *d = s.to_ascii_lowercase();
    }
    switch_for(&lower[..n])
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Switch {
    ScriptData,
    Rawtext,
    Rcdata,
    Plaintext,
}

pub use tagstream::{consume_spans, drain};

mod sgml {
    use super::{Corpus, Outcome, Subject};
    use tagstream::sgml::{Channel, Events, Tokenizer};

    /// `tagstream-sgml`: whole pages through the SGML lexer.
    #[derive(Default)]
    pub struct Sgml {
        tokenizer: Tokenizer,
    }

    impl Subject for Sgml {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let (mut sum, mut problems) = (0, 0);
            for page in &corpus.pages {
                let (s, p) = drain(self.tokenizer.tokenize(&page.bytes));
                sum += s;
                problems += p;
            }
            Outcome {
                checksum: sum,
                errors: problems,
            }
        }
    }

    /// Every lexeme's span of every event: the sum of span lengths, plus one a lexeme; and the
    /// problems. Out of line, as `tagstream::drain` is.
    #[inline(never)]
    fn drain(events: Events<'_>) -> (u64, u64) {
        let (mut sum, mut problems) = (0, 0);
        for event in events {
            problems += u64::from(event.channel() == Channel::Problem);
            for lexeme in event.lexemes() {
                let span = lexeme.span();
                sum += (span.end - span.start) as u64 + 1;
            }
        }
        (sum, problems)
    }
}

mod tagstream {
    use super::{Outcome, Subject, Switch, switch_for, switch_for_raw};
    use crate::corpus::Corpus;
    use tagstream::{Options, TextKind, Token, Tokenizer, Tokens};

    fn kind(s: Switch) -> TextKind {
        match s {
            Switch::ScriptData => TextKind::ScriptData,
            Switch::Rawtext => TextKind::Rawtext,
            Switch::Rcdata => TextKind::Rcdata,
            Switch::Plaintext => TextKind::Plaintext,
        }
    }

    /// Default consumption: spans and raw names only, nothing decoded.
    #[inline(always)]
    pub fn consume_spans(token: &Token<'_>, sum: &mut u64) -> Option<TextKind> {
        match token {
            Token::StartTag(tag) => {
                let name = tag.raw_name();
                let attributes = tag.attributes();
                let mut s = name.len() as u64 + attributes.len() as u64;
                for a in attributes {
                    s += a.name_span().len() as u64 + a.value_span().len() as u64;
                }
                *sum += s;
                switch_for_raw(name).map(kind)
            }
            Token::EndTag(tag) => {
                *sum += tag.raw_name().len() as u64;
                None
            }
            Token::Text(t) => {
                *sum += t.span().len() as u64;
                None
            }
            Token::Comment(c) => {
                *sum += c.data_span().len() as u64;
                None
            }
            Token::Doctype(d) => {
                *sum += d.span().len() as u64;
                None
            }
            Token::ProcessingInstruction(p) => {
                *sum += p.span().len() as u64;
                None
            }
            Token::Raw(r) => {
                *sum += r.span().len() as u64;
                None
            }
        }
    }

    /// Decoding consumption: every string decoded to `&str`.
    #[inline(always)]
    fn consume_decoded(token: &Token<'_>, sum: &mut u64) -> Option<TextKind> {
        match token {
            Token::StartTag(tag) => {
                let name = tag.name();
                let attributes = tag.attributes();
                let mut s = name.len() as u64 + attributes.len() as u64;
                for a in attributes {
                    s += a.name().len() as u64 + a.value().len() as u64;
                }
                *sum += s;
                switch_for(name.as_bytes()).map(kind)
            }
            Token::EndTag(tag) => {
                *sum += tag.name().len() as u64;
                None
            }
            Token::Text(t) => {
                *sum += t.text().len() as u64;
                None
            }
            Token::Comment(c) => {
                *sum += c.data().len() as u64;
                None
            }
            Token::Doctype(d) => {
                *sum += d.name().map_or(0, str::len) as u64;
                None
            }
            Token::ProcessingInstruction(p) => {
                *sum += (p.target().len() + p.data().len()) as u64;
                None
            }
            Token::Raw(r) => {
                *sum += r.raw().len() as u64;
                None
            }
        }
    }

    /// Hand every token of `tokens` to `consume`, and return the sum it made. The whole-page and
    /// the chunked subjects both run this one loop, out of line, so that their code per token is
    /// the same machine code: inlined into two differently shaped loops, it compiled differently
    /// (about one instruction a token apart), and their ratio measured the compiler's loop
    /// layout as well as the seams.
    #[inline(never)]
    pub fn drain<C>(mut tokens: Tokens<'_>, consume: &C) -> u64
    where
        C: Fn(&Token<'_>, &mut u64) -> Option<TextKind>,
    {
        // A local sum, kept in a register: through a reference it was stored at every token.
        let mut sum = 0;
        // Iterated through a reference: `for token in tokens` moved the iterator (some 240
        // bytes) into the loop with a call to `memcpy` at every feed.
        for token in tokens.by_ref() {
            let _switch_done_by_the_simulator = consume(&token, &mut sum);
        }
        sum
    }

    /// `tagstream` (errors off) and `tagstream-errors`: spans and raw names.
    pub fn spans(errors: bool) -> impl Subject {
        Whole::new(Options::new().errors(errors), consume_spans)
    }

    /// `tagstream-lossless`: every byte handed out, each item's raw bytes taken.
    pub fn lossless() -> impl Subject {
        Whole::new(Options::new().lossless(true), |token, sum| {
            *sum += token.raw().len() as u64;
            None
        })
    }

    /// `tagstream-decode`: every string decoded.
    pub fn decoded() -> impl Subject {
        Whole::new(Options::new(), consume_decoded)
    }

    /// Whole pages, each token handed to `consume`; the parse errors counted when they are on.
    struct Whole<C> {
        tokenizer: Tokenizer,
        consume: C,
    }

    impl<C: Fn(&Token<'_>, &mut u64) -> Option<TextKind>> Whole<C> {
        fn new(options: Options, consume: C) -> Whole<C> {
            Whole {
                tokenizer: Tokenizer::new(options),
                consume,
            }
        }
    }

    impl<C: Fn(&Token<'_>, &mut u64) -> Option<TextKind>> Subject for Whole<C> {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut sum = 0;
            let mut errors = 0;
            for page in &corpus.pages {
                sum += drain(self.tokenizer.tokenize(&page.bytes), &self.consume);
                // Stored and counted past `Options::max_errors`: every error.
                errors += self.tokenizer.errors().len() as u64;
                errors += self.tokenizer.dropped_errors().total();
            }
            Outcome {
                checksum: sum,
                errors,
            }
        }
    }

    pub struct Chunks {
        tokenizer: Tokenizer,
        chunk_size: usize,
    }

    impl Chunks {
        pub fn new(chunk_size: usize) -> Chunks {
            Chunks {
                tokenizer: Tokenizer::new(Options::new()),
                chunk_size,
            }
        }
    }

    impl Subject for Chunks {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut sum = 0;
            for page in &corpus.pages {
                self.tokenizer.reset();
                for chunk in page.bytes.chunks(self.chunk_size) {
                    sum += drain(self.tokenizer.feed(chunk), &consume_spans);
                }
                sum += drain(self.tokenizer.finish(), &consume_spans);
            }
            Outcome {
                checksum: sum,
                errors: 0,
            }
        }
    }
}

mod html5ever_tok {
    use super::{Cell, Outcome, Subject, Switch, switch_for};
    use crate::corpus::Corpus;
    use html5ever::TokenizerResult;
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::states::RawKind;
    use html5ever::tokenizer::{
        BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };

    #[derive(Default)]
    struct Sink {
        sum: Cell<u64>,
        errors: Cell<u64>,
    }

    impl Sink {
        #[inline(always)]
        fn add(&self, n: usize) {
            self.sum.set(self.sum.get() + n as u64);
        }
    }

    impl TokenSink for Sink {
        type Handle = ();

        fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
            match token {
                Token::TagToken(tag) => {
                    let mut n = tag.name.len() + tag.attrs.len();
                    for a in &tag.attrs {
                        n += a.name.local.len() + a.value.len();
                    }
                    self.add(n);
                    if tag.kind == TagKind::StartTag {
                        // The tree builder compares atoms; matching the name's text is as cheap.
                        match switch_for(tag.name.as_bytes()) {
                            Some(Switch::ScriptData) => {
                                return TokenSinkResult::RawData(RawKind::ScriptData);
                            }
                            Some(Switch::Rawtext) => {
                                return TokenSinkResult::RawData(RawKind::Rawtext);
                            }
                            Some(Switch::Rcdata) => {
                                return TokenSinkResult::RawData(RawKind::Rcdata);
                            }
                            Some(Switch::Plaintext) => return TokenSinkResult::Plaintext,
                            None => {}
                        }
                    }
                }
                Token::CharacterTokens(t) => self.add(t.len()),
                Token::NullCharacterToken => self.add(1),
                Token::CommentToken(c) => self.add(c.len()),
                Token::DoctypeToken(d) => self.add(d.name.as_ref().map_or(0, |n| n.len())),
                Token::ParseError(_) => self.errors.set(self.errors.get() + 1),
                Token::EOFToken => {}
            }
            TokenSinkResult::Continue
        }
    }

    pub struct Html5ever {
        /// The pages as tendrils, made once: each pass clones them (a reference count), so the
        /// pass times only the tokenizer.
        inputs: Vec<StrTendril>,
    }

    impl Html5ever {
        pub fn new(corpus: &Corpus) -> Html5ever {
            Html5ever {
                inputs: corpus
                    .pages
                    .iter()
                    .map(|p| StrTendril::from_slice(p.as_str()))
                    .collect(),
            }
        }
    }

    impl Subject for Html5ever {
        fn run(&mut self, _corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for input in &self.inputs {
                let tokenizer = Tokenizer::new(Sink::default(), TokenizerOpts::default());
                let queue = BufferQueue::default();
                queue.push_back(input.clone());
                // Only Done can come back here (the sink never asks for scripts or encodings),
                // but keep feeding until the queue is empty to be sure.
                loop {
                    let done = matches!(tokenizer.feed(&queue), TokenizerResult::Done);
                    if done || queue.is_empty() {
                        break;
                    }
                }
                tokenizer.end();
                out.checksum += tokenizer.sink.sum.get();
                out.errors += tokenizer.sink.errors.get();
            }
            out
        }
    }
}

mod html5gum_tok {
    use super::{Outcome, Subject, Switch, switch_for};
    use crate::corpus::Corpus;
    use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
    use html5gum::{Span, State, Token, Tokenizer};

    fn state(name: &[u8]) -> Option<State> {
        switch_for(name).map(|s| match s {
            Switch::ScriptData => State::ScriptData,
            Switch::Rawtext => State::RawText,
            Switch::Rcdata => State::RcData,
            Switch::Plaintext => State::PlainText,
        })
    }

    pub struct Callback;

    impl Subject for Callback {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut sum = 0u64;
            let mut errors = 0u64;
            for page in &corpus.pages {
                let mut pending: Option<State> = None;
                let emitter = CallbackEmitter::new(
                    |event: CallbackEvent<'_>, _span: Span<()>| -> Option<State> {
                        match event {
                            CallbackEvent::OpenStartTag { name } => {
                                sum += name.len() as u64;
                                pending = state(name);
                            }
                            CallbackEvent::AttributeName { name } => sum += name.len() as u64 + 1,
                            CallbackEvent::AttributeValue { value } => sum += value.len() as u64,
                            // Hand the new state to the loop below, which sets it.
                            CallbackEvent::CloseStartTag { .. } => return pending.take(),
                            CallbackEvent::EndTag { name } => sum += name.len() as u64,
                            CallbackEvent::String { value } => sum += value.len() as u64,
                            CallbackEvent::Comment { value } => sum += value.len() as u64,
                            CallbackEvent::Doctype { name, .. } => sum += name.len() as u64,
                            CallbackEvent::Error(_) => errors += 1,
                        }
                        None
                    },
                );
                let mut tokenizer = Tokenizer::new_with_emitter(page.as_str(), emitter);
                while let Some(result) = tokenizer.next() {
                    let Ok(next) = result;
                    tokenizer.set_state(next);
                }
            }
            Outcome {
                checksum: sum,
                errors,
            }
        }
    }

    pub struct Iter;

    impl Subject for Iter {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut sum = 0u64;
            let mut errors = 0u64;
            for page in &corpus.pages {
                let mut tokenizer = Tokenizer::new(page.as_str());
                while let Some(result) = tokenizer.next() {
                    let Ok(token) = result;
                    match token {
                        Token::StartTag(tag) => {
                            let mut n = tag.name.len() + tag.attributes.len();
                            for (k, v) in &tag.attributes {
                                n += k.len() + v.len();
                            }
                            sum += n as u64;
                            if let Some(s) = state(&tag.name) {
                                tokenizer.set_state(s);
                            }
                        }
                        Token::EndTag(tag) => sum += tag.name.len() as u64,
                        Token::String(s) => sum += s.len() as u64,
                        Token::Comment(c) => sum += c.len() as u64,
                        Token::Doctype(d) => sum += d.name.len() as u64,
                        Token::Error(_) => errors += 1,
                    }
                }
            }
            Outcome {
                checksum: sum,
                errors,
            }
        }
    }
}

mod lol {
    use super::{Outcome, Subject};
    use crate::corpus::Corpus;
    use lol_html::{HtmlRewriter, Settings, element, text};

    pub struct LolHtml {
        pub handlers: bool,
        /// Write each page in chunks of this size instead of whole.
        pub chunk_size: Option<usize>,
    }

    impl Subject for LolHtml {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                let mut elements = 0u64;
                let mut text = 0u64;
                let mut output = 0u64;
                let mut settings = Settings::new().with_strict(false);
                if self.handlers {
                    settings = settings
                        .append_element_content_handler(element!("*", |el| {
                            let attributes = el.attributes();
                            let mut n = 1 + attributes.len();
                            for a in attributes {
                                n += a.name_source_location().map_or(0, |l| l.bytes().len());
                                n += a.value_source_location().map_or(0, |l| l.bytes().len());
                            }
                            elements += n as u64;
                            Ok(())
                        }))
                        .append_element_content_handler(text!("*", |t| {
                            text += t.as_str().len() as u64;
                            Ok(())
                        }));
                }
                let ok = {
                    let mut rewriter =
                        HtmlRewriter::new(settings, |c: &[u8]| output += c.len() as u64);
                    let chunk_size = self.chunk_size.unwrap_or(page.bytes.len().max(1));
                    page.bytes
                        .chunks(chunk_size)
                        .all(|chunk| rewriter.write(chunk).is_ok())
                        && rewriter.end().is_ok()
                };
                out.errors += u64::from(!ok);
                out.checksum += elements + text + output;
            }
            out
        }
    }
}
