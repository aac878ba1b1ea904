//! The arena proof: a tokenizer reused on the same page makes at most one global allocation the
//! second time (the arena keeps only its largest chunk on reset, so it may grow once more to hold a
//! whole pass in one chunk) and none at all from then on, even with every text, name and attribute
//! value decoded. The same for the XML5 tokenizer on the XML samples, and for the XML5 tree stage
//! (names, namespaces and attributes resolved, errors taken) on them.
//!
//! dhat's allocator counts the allocations of every thread (reallocations count as new blocks), so
//! this file runs without the test harness (`harness = false` in Cargo.toml): no harness thread can
//! allocate while it counts, as one did once on a loaded machine.

use tagstream::xml5::tree::{Event, Events, Parser, QName, TreeOptions};
use tagstream::{Options, Token, Tokenizer, xml5};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Decode every token of a pass; returns (tokens, bytes of decoded text) as a checksum.
fn pass<'t>(all: impl Iterator<Item = Token<'t>>) -> (usize, usize) {
    let (mut tokens, mut bytes) = (0, 0);
    for token in all {
        tokens += 1;
        bytes += match token {
            Token::StartTag(tag) => {
                tag.name().len()
                    + tag
                        .attributes()
                        .map(|a| a.name().len() + a.value().len())
                        .sum::<usize>()
            }
            Token::EndTag(tag) => tag.name().len(),
            Token::Text(text) => text.text().len(),
            Token::Comment(c) => c.data().len(),
            Token::Doctype(d) => d.name().map_or(0, str::len),
            Token::ProcessingInstruction(pi) => pi.target().len() + pi.data().len(),
            Token::Raw(r) => r.raw().len(),
        };
    }
    (tokens, bytes)
}

/// Allocations made by `f` (a heap profiler must be running).
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = dhat::HeapStats::get().total_blocks;
    f();
    dhat::HeapStats::get().total_blocks - before
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/samples/");
    for name in ["article.html", "forms.html", "scripts.html", "edge.html"] {
        let page = std::fs::read(format!("{dir}{name}")).expect("sample page");
        for options in [Options::new(), Options::new().errors(true)] {
            let mut tokenizer = Tokenizer::new(options);
            stops_allocating(name, |first| *first = pass(tokenizer.tokenize(&page)));
        }
    }
    println!("alloc: a reused tokenizer stops allocating (4 pages, errors off and on): ok");
    let samples = ["feed.xml", "icons.svg"].map(|name| {
        let page = std::fs::read(format!("{dir}{name}")).expect("sample document");
        (name, page)
    });
    for (name, page) in samples.into_iter().chain([("generated", xml_document())]) {
        for options in [Options::new(), Options::new().errors(true)] {
            let mut tokenizer = xml5::Tokenizer::new(options);
            stops_allocating(name, |first| *first = pass(tokenizer.tokenize(&page)));
        }
    }
    println!(
        "alloc: a reused XML5 tokenizer stops allocating (3 documents, errors off and on): ok"
    );
    let samples = ["feed.xml", "icons.svg"].map(|name| {
        let page = std::fs::read(format!("{dir}{name}")).expect("sample document");
        (name, page)
    });
    for (name, page) in samples
        .into_iter()
        .chain([("generated", namespaced_document())])
    {
        for options in [Options::new(), Options::new().errors(true)] {
            let mut parser = Parser::new(options, TreeOptions::new());
            stops_allocating(name, |first| *first = tree_pass(parser.parse(&page)));
        }
    }
    println!(
        "alloc: a reused XML5 tree stage stops allocating (3 documents, errors off and on): ok"
    );
}

/// Every event of a pass, names, namespaces and attributes read, errors taken; returns (events,
/// bytes read) as a checksum.
fn tree_pass(mut events: Events<'_>) -> (usize, usize) {
    let (mut count, mut bytes) = (0, 0);
    while let Some(event) = events.next_event() {
        count += 1;
        let name_len = |n: QName<'_>| n.namespace.map_or(0, str::len) + n.local.len();
        bytes += match event {
            Event::Start(start) => {
                name_len(start.name())
                    + start
                        .attributes()
                        .map(|a| name_len(a.name()) + a.value().len())
                        .sum::<usize>()
            }
            Event::End(end) => name_len(end.name()) + end.depth(),
            Event::Text(text) => text.text().len(),
            _ => 1,
        };
        count += events.drain_tree_errors().count();
    }
    (count, bytes)
}

/// An XML document with every kind of token, many attributes, and parts that decode changed.
fn xml_document() -> Vec<u8> {
    let mut doc = String::from("<?xml version='1.0'?><!DOCTYPE r [<!ENTITY e 'x'>]><r>");
    for i in 0..40 {
        let attributes: Vec<String> = (0..i % 12).map(|k| format!("k{k}='v'")).collect();
        doc.push_str(&format!(
            "<item id='{i}' Name=\"a&amp;b\" {}><!-- c{i} --><![CDATA[x\r\ny]]>t&lt;{i}\0</item><e/></>",
            attributes.join(" ")
        ));
    }
    doc.push_str("</r>");
    doc.into_bytes()
}

/// An XML document for the tree stage: declarations on many elements (some undeclaring, some
/// repeated), prefixed attributes, a repeated expanded name, mismatched and stray end tags.
fn namespaced_document() -> Vec<u8> {
    let mut doc = String::from("<?xml version='1.0'?><r xmlns='urn:r' xmlns:p='urn:p'>");
    for i in 0..40 {
        doc.push_str(&format!(
            "<p:item id='{i}' xmlns:q{}='urn:q' q{0}:a='1' p:b='2'><q{0}:x xmlns=''>t</q{0}:x>\
             <y xmlns:p='' p:c='3' xml:lang='en'/><z xmlns:s='urn:p' p:d='1' s:d='2'><w></z></nope></p:item>",
            i % 3
        ));
    }
    doc.push_str("</r><!-- after -->");
    doc.into_bytes()
}

/// Three passes of `run` (which stores its checksum): at most one allocation in the second, none
/// in the third.
fn stops_allocating(name: &str, mut run: impl FnMut(&mut (usize, usize))) {
    let mut first = (0, 0);
    let counted = allocations_during(|| run(&mut first));
    assert!(first.0 > 50, "{name}: too few tokens to prove anything");
    assert!(
        counted > 0,
        "{name}: the first pass's allocations were not counted"
    );
    let mut again = (0, 0);
    let second = allocations_during(|| run(&mut again));
    assert_eq!(first, again, "{name}");
    assert!(
        second <= 1,
        "{name}: {second} allocations in the second pass"
    );
    let third = allocations_during(|| run(&mut again));
    assert_eq!(first, again, "{name}");
    assert_eq!(
        third, 0,
        "{name}: {third} allocations in the third pass over {} tokens",
        again.0
    );
}
