//! The contestants of the XML race (`--xml`). Each one tokenizes every file of the corpus as its
//! own document and consumes every token into a checksum (so the compiler cannot drop any work).
//! XML has no text states to switch. The tree subjects (issue 29) go further: namespaces
//! resolved (`tagstream-xml5-tree-events`, `quick-xml-ns`) or a whole tree built per document and
//! walked (`tagstream-xml5-tree`, `xml5ever-tree`); they live in `xml_tree_subjects.rs`.
//!
//! quick-xml stops at the first error, so the race runs every subject over the files it reads
//! whole ([`quick_xml_reads_whole`]); the subjects but quick-xml's then run again over all files.

use std::cell::Cell;

use crate::corpus::{Corpus, Page};
use crate::subjects::{Outcome, Subject};
use crate::xml_tree_subjects as tree;

/// Every XML subject: name, and what it does and sums.
pub const SUBJECTS: &[(&str, &str)] = &[
    (
        "tagstream-xml5",
        "tagstream::xml5::Tokenizer::tokenize (errors off), one tokenizer reused across files; \
         every token; tag names via raw_name(), attribute names and values via their spans, \
         text by span; nothing decoded. Sum: name lengths + attribute count + attribute \
         name/value span lengths + text/comment/doctype/PI span lengths",
    ),
    (
        "tagstream-xml5-decoded",
        "every token decoded: text(), tag name(), attribute name() and value(), comment data(), \
         doctype name()/public_id()/system_id(), PI target()/data(). Sum: decoded lengths + \
         attribute count",
    ),
    (
        "tagstream-xml5-errors",
        "as `tagstream-xml5`, with Options::errors(true). Sum: as `tagstream-xml5`; plus the \
         parse errors",
    ),
    (
        "tagstream-xml5-chunks",
        "as `tagstream-xml5`, fed in 4 KiB chunks through feed()/finish(). Sum: as \
         `tagstream-xml5` (text split at chunk seams adds up to the same)",
    ),
    (
        "quick-xml",
        "quick_xml::Reader over the file's bytes (a slice: borrowed events), default Config, \
         read_event() to Eof; attributes iterated (with its default checks). Sum: tag name \
         lengths + attribute count + attribute key/value lengths (raw) + the raw lengths of \
         text, CDATA, comment, DOCTYPE, PI, XML declaration and general reference events; plus \
         files it stopped on with an error (0 on the files it reads whole)",
    ),
    (
        "xml5ever",
        "xml5ever::tokenizer::XmlTokenizer with a TokenSink that only counts (no tree builder), \
         default XmlTokenizerOpts, input pre-made as StrTendril (lossy for the files that are \
         not UTF-8). Sum: tag name lengths (prefix:local) + attribute count + attribute \
         name/value lengths + character/comment lengths + PI target/data lengths + doctype name \
         lengths + NUL tokens; plus ParseError tokens (xml5ever always reports them)",
    ),
    (
        "tagstream-xml5-tree-events",
        "tagstream::xml5::tree::Parser (errors off), one parser reused across files, \
         Events::next_event to the end: namespaces resolved, the tree stage's structure. Sum: \
         per start its name's local/prefix/namespace lengths + depth + per kept attribute its \
         local/prefix/namespace lengths + value() length + 1; per end its local length + depth; \
         decoded text/comment/PI/doctype-name lengths",
    ),
    (
        "tagstream-xml5-tree",
        "tagstream::xml5::tree::TreeBuilder: the whole Document built per file (one Parser \
         reused, a new TreeBuilder::with_capacity(file length) each file, as Document::parse \
         does but for the parser), then walked (descendants()). Sum: per element its \
         local/prefix/namespace lengths + per attribute local/prefix/namespace/value lengths + 1; \
         text/comment/PI/doctype-name lengths",
    ),
    (
        "quick-xml-ns",
        "quick_xml::NsReader over the file's bytes, default Config, read_resolved_event() to \
         Eof: element namespaces resolved, every attribute's with resolve_attribute(), values \
         normalized_value(XML 1.0) (references resolved), text xml10_content(), general \
         references resolved (character or predefined). Sum: as `tagstream-xml5-tree-events` \
         (its own depth count); plus files it stopped on with an error",
    ),
    (
        "xml5ever-tree",
        "xml5ever::driver::parse_document into markup5ever_rcdom's RcDom (0.40.1+unofficial, \
         the servo repository's RcDom published for 0.40), default XmlParseOpts, input \
         pre-made as StrTendril (lossy for the files that are not UTF-8), then walked. Sum: \
         as `tagstream-xml5-tree` (namespaces, local names, prefixes, attribute values, text, \
         comments, PIs, doctype names)",
    ),
];

/// Build an XML subject by name (`None` for an unknown name).
pub fn make(name: &str, corpus: &Corpus, chunk_size: usize) -> Option<Box<dyn Subject>> {
    Some(match name {
        "tagstream-xml5" => Box::new(xml5::spans(false)),
        "tagstream-xml5-decoded" => Box::new(xml5::decoded()),
        "tagstream-xml5-errors" => Box::new(xml5::spans(true)),
        "tagstream-xml5-chunks" => Box::new(xml5::Chunks::new(chunk_size)),
        "quick-xml" => Box::new(quick::QuickXml),
        "xml5ever" => Box::new(xml5ever_tok::Xml5ever::new(corpus)),
        "tagstream-xml5-tree-events" => Box::new(tree::TreeEvents::new()),
        "tagstream-xml5-tree" => Box::new(tree::TreeDocument::new()),
        "quick-xml-ns" => Box::new(tree::QuickXmlNs),
        "xml5ever-tree" => Box::new(tree::Xml5everTree::new(corpus)),
        _ => return None,
    })
}

/// quick-xml reads the page to `Eof` without an error (the race's set of files).
pub fn quick_xml_reads_whole(page: &Page) -> bool {
    quick::read(&page.bytes).is_ok()
}

mod xml5 {
    use super::{Outcome, Subject};
    use crate::corpus::Corpus;
    use tagstream::Options;
    use tagstream::Token;
    use tagstream::xml5::{Tokenizer, Tokens};

    /// Default consumption: spans and raw names only, nothing decoded.
    #[inline(always)]
    fn consume_spans(token: &Token<'_>, sum: &mut u64) {
        *sum += match token {
            Token::StartTag(tag) => {
                let attributes = tag.attributes();
                let mut s = tag.raw_name().len() + attributes.len();
                for a in attributes {
                    s += a.name_span().len() + a.value_span().len();
                }
                s
            }
            Token::EndTag(tag) => tag.raw_name().len(),
            Token::Text(t) => t.span().len(),
            Token::Comment(c) => c.data_span().len(),
            Token::Doctype(d) => d.span().len(),
            Token::ProcessingInstruction(p) => p.span().len(),
            Token::Raw(r) => r.span().len(),
        } as u64;
    }

    /// Decoding consumption: every string decoded to `&str`.
    #[inline(always)]
    fn consume_decoded(token: &Token<'_>, sum: &mut u64) {
        let len = |s: Option<&str>| s.map_or(0, str::len);
        *sum += match token {
            Token::StartTag(tag) => {
                let attributes = tag.attributes();
                let mut s = tag.name().len() + attributes.len();
                for a in attributes {
                    s += a.name().len() + a.value().len();
                }
                s
            }
            Token::EndTag(tag) => tag.name().len(),
            Token::Text(t) => t.text().len(),
            Token::Comment(c) => c.data().len(),
            Token::Doctype(d) => len(d.name()) + len(d.public_id()) + len(d.system_id()),
            Token::ProcessingInstruction(p) => p.target().len() + p.data().len(),
            Token::Raw(r) => r.raw().len(),
        } as u64;
    }

    /// Hand every token of `tokens` to `consume` and return the sum it made: one loop, out of
    /// line, for the whole-file and the chunked subjects alike (as the HTML race's `drain`).
    #[inline(never)]
    fn drain<C: Fn(&Token<'_>, &mut u64)>(mut tokens: Tokens<'_>, consume: &C) -> u64 {
        let mut sum = 0;
        for token in tokens.by_ref() {
            consume(&token, &mut sum);
        }
        sum
    }

    /// `tagstream-xml5` (errors off) and `tagstream-xml5-errors`: spans and raw names.
    pub fn spans(errors: bool) -> impl Subject {
        Whole {
            tokenizer: Tokenizer::new(Options::new().errors(errors)),
            consume: consume_spans,
        }
    }

    /// `tagstream-xml5-decoded`: every string decoded.
    pub fn decoded() -> impl Subject {
        Whole {
            tokenizer: Tokenizer::new(Options::new()),
            consume: consume_decoded,
        }
    }

    /// Whole files, each token handed to `consume`; the parse errors counted when they are on.
    struct Whole<C> {
        tokenizer: Tokenizer,
        consume: C,
    }

    impl<C: Fn(&Token<'_>, &mut u64)> Subject for Whole<C> {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                out.checksum += drain(self.tokenizer.tokenize(&page.bytes), &self.consume);
                // Stored and counted past `Options::max_errors`: every error.
                out.errors += self.tokenizer.errors().len() as u64;
                out.errors += self.tokenizer.dropped_errors().total();
            }
            out
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

mod quick {
    use super::{Outcome, Subject};
    use crate::corpus::Corpus;
    use quick_xml::Reader;
    use quick_xml::events::Event;

    pub struct QuickXml;

    impl Subject for QuickXml {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                match read(&page.bytes) {
                    Ok(sum) => out.checksum += sum,
                    Err(_) => out.errors += 1,
                }
            }
            out
        }
    }

    /// Every event of one document, to `Eof`, consumed into a sum; the first error ends it.
    pub fn read(bytes: &[u8]) -> Result<u64, quick_xml::Error> {
        let mut reader = Reader::from_reader(bytes);
        let mut sum = 0u64;
        loop {
            match reader.read_event()? {
                Event::Start(tag) | Event::Empty(tag) => {
                    let mut n = tag.name().as_ref().len();
                    for attribute in tag.attributes() {
                        let attribute = attribute?;
                        n += 1 + attribute.key.as_ref().len() + attribute.value.len();
                    }
                    sum += n as u64;
                }
                Event::End(tag) => sum += tag.name().as_ref().len() as u64,
                Event::Eof => return Ok(sum),
                // Text, CDATA, comment, DOCTYPE, PI, declaration, reference: their raw bytes.
                other => sum += other.len() as u64,
            }
        }
    }
}

mod xml5ever_tok {
    use super::{Cell, Outcome, Subject};
    use crate::corpus::Corpus;
    use xml5ever::QualName;
    use xml5ever::buffer_queue::BufferQueue;
    use xml5ever::tendril::StrTendril;
    use xml5ever::tokenizer::{ProcessResult, Token, TokenSink, XmlTokenizer, XmlTokenizerOpts};

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

    /// `prefix:local` as written.
    fn name_len(name: &QualName) -> usize {
        name.local.len() + name.prefix.as_ref().map_or(0, |p| p.len() + 1)
    }

    impl TokenSink for Sink {
        type Handle = ();

        fn process_token(&self, token: Token) -> ProcessResult<()> {
            match token {
                Token::Tag(tag) => {
                    let mut n = name_len(&tag.name) + tag.attrs.len();
                    for a in &tag.attrs {
                        n += name_len(&a.name) + a.value.len();
                    }
                    self.add(n);
                }
                Token::Characters(t) => self.add(t.len()),
                Token::NullCharacter => self.add(1),
                Token::Comment(c) => self.add(c.len()),
                Token::ProcessingInstruction(pi) => self.add(pi.target.len() + pi.data.len()),
                Token::Doctype(d) => self.add(d.name.as_ref().map_or(0, |n| n.len())),
                Token::ParseError(_) => self.errors.set(self.errors.get() + 1),
                Token::EndOfFile => {}
            }
            ProcessResult::Continue
        }
    }

    pub struct Xml5ever {
        /// The files as tendrils, made once: each pass clones them (a reference count), so the
        /// pass times only the tokenizer.
        inputs: Vec<StrTendril>,
    }

    impl Xml5ever {
        pub fn new(corpus: &Corpus) -> Xml5ever {
            Xml5ever {
                inputs: corpus
                    .pages
                    .iter()
                    .map(|p| StrTendril::from_slice(p.as_str()))
                    .collect(),
            }
        }
    }

    impl Subject for Xml5ever {
        fn run(&mut self, _corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for input in &self.inputs {
                let tokenizer = XmlTokenizer::new(Sink::default(), XmlTokenizerOpts::default());
                let queue = BufferQueue::default();
                queue.push_back(input.clone());
                // The sink never asks for a script, so one feed runs the queue dry.
                let _ = tokenizer.feed(&queue);
                tokenizer.end();
                out.checksum += tokenizer.sink.sum.get();
                out.errors += tokenizer.sink.errors.get();
            }
            out
        }
    }
}
