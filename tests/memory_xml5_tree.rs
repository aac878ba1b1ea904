//! The XML5 tree stage's streaming memory, measured with dhat's heap statistics: a long document
//! (namespace declarations on every element, some undeclaring, prefixed attributes, a stretch of
//! 200 elements closed by one end tag, stray and mismatched end tags) fed in 4 KiB chunks keeps
//! the parser's live memory small, and the same for a document ten times longer: nothing grows
//! with the document, only with its nesting (and its internal subset: the document declares
//! entities, used in text and attribute values, one with markup). One test in this file, so that no other test thread
//! allocates while it measures.

mod common;

use common::heap::peak_during;
use tagstream::Options;
use tagstream::xml5::tree::{Event, Parser, TreeOptions};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// About `size` bytes: a root with many children, each declaring prefixes (new ones every
/// time, which the scope must forget), using them, undeclaring, and closing with stray and
/// mismatched end tags.
fn long_document(size: usize) -> Vec<u8> {
    let mut doc = String::from(
        "<?xml version='1.0'?><!DOCTYPE root [<!ENTITY e '<b>&amp;x</b>'><!ENTITY u 'urn:p'>]>\
         <root xmlns='urn:root' xmlns:p='&u;'>",
    );
    let mut n = 0;
    while doc.len() < size {
        n += 1;
        doc.push_str(&format!(
            "<p:item xmlns:q{n}='urn:q{n}' q{n}:a='{n}' p:b='x'><q{n}:c xmlns:p='' p:d='&u;'>text {n} &e; more\
             </q{n}:c><e xmlns=''><f/></nope></e><g><h><i>deep</g><!-- c {n} --></p:item>\n"
        ));
        if n % 500 == 0 {
            // A deep stretch, 200 elements, closed by one (mismatched) end tag.
            doc.push_str("<d0>");
            doc.push_str(&"<d>".repeat(199));
            doc.push_str("</d0>");
        }
    }
    doc.push_str("</root>");
    doc.into_bytes()
}

/// Stream `input` in 4 KiB chunks with errors on (taken as they come); returns (events, errors,
/// elements started) and the peak of live heap bytes while it ran.
fn stream(input: &[u8]) -> ((usize, usize, usize), usize) {
    peak_during(|| {
        let mut parser = Parser::new(Options::new().errors(true), TreeOptions::new());
        let (mut events, mut errors, mut starts) = (0, 0, 0);
        let mut take = |mut e: tagstream::xml5::tree::Events<'_>| {
            while let Some(event) = e.next_event() {
                events += 1;
                if let Event::Start(start) = &event {
                    starts += 1;
                    events += start.attributes().count();
                }
                errors += e.drain_tree_errors().count();
                errors += e.drain_errors().count();
            }
        };
        for chunk in input.chunks(4096) {
            take(parser.feed(chunk));
        }
        take(parser.finish());
        (events, errors, starts)
    })
}

#[test]
fn streaming_memory_does_not_grow_with_the_document() {
    let small = long_document(512 << 10);
    let large = long_document(5 << 20);
    let ((events, errors, starts), small_peak) = stream(&small);
    assert!(
        starts > 10_000 && errors > 2_500,
        "{starts} elements, {errors} errors"
    );
    assert!(events > starts);
    let ((_, _, large_starts), large_peak) = stream(&large);
    assert!(large_starts > 9 * starts);
    // Chunk, carry, arena, the open elements and the bindings in scope: tens of KiB at most.
    assert!(
        small_peak < 256 << 10,
        "512 KiB peaked at {small_peak} live bytes"
    );
    assert!(
        large_peak < small_peak + (64 << 10),
        "5 MiB peaked at {large_peak} live bytes, 512 KiB at {small_peak}"
    );
}
