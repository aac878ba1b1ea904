//! Memory with parse errors on, measured with dhat's heap statistics: error storms of a few
//! megabytes (NUL in text, NUL in a tag name, control characters, unterminated tags) keep the
//! tokenizer's live memory under the bound `Options::max_errors` documents (96 bytes per error of
//! the cap: 6 MiB by default), whole or fed in chunks; uncapped they would hold hundreds of
//! megabytes. One test in this file, so that no other test thread allocates while it measures.

mod common;

use common::heap::peak_during;
use tagstream::{Options, Tokenizer};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// The errors `input` brings (stored plus dropped), whole or in 64 KiB chunks.
fn count_errors(input: &[u8], chunked: bool) -> u64 {
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    let mut stored = 0;
    if chunked {
        for chunk in input.chunks(64 << 10) {
            tokenizer.feed(chunk).for_each(drop);
            stored += tokenizer.drain_errors().count() as u64;
        }
        tokenizer.finish().for_each(drop);
    } else {
        tokenizer.tokenize(input).for_each(drop);
    }
    stored += tokenizer.drain_errors().count() as u64;
    stored + tokenizer.dropped_errors().total()
}

#[test]
fn error_storms_stay_under_the_default_bound() {
    const SIZE: usize = 4 << 20;
    let storms: [(&str, Vec<u8>, u64); 4] = [
        ("nul-text", vec![0; SIZE], SIZE as u64),
        (
            "nul-tag-name",
            [&b"<a"[..], &vec![0; SIZE], b">"].concat(),
            SIZE as u64,
        ),
        ("controls", vec![1; SIZE], SIZE as u64),
        // One tag: in each `<a b=1 ` after the first, `<a` is an attribute name with a `<` in it
        // (unexpected-character-in-attribute-name) and, from the third on, both names repeat
        // (2 × duplicate-attribute); eof-in-tag at the end.
        (
            "unterminated",
            b"<a b=1 ".repeat(SIZE / 7),
            3 * (SIZE / 7) as u64 - 3,
        ),
    ];
    // The documented bound (Options::max_errors), and room for the tokenizer's other buffers.
    let bound = Options::DEFAULT_MAX_ERRORS * 96 + (1 << 20);
    for (name, input, errors) in storms {
        for chunked in [false, true] {
            let (found, peak) = peak_during(|| count_errors(&input, chunked));
            assert_eq!(found, errors, "{name}, chunked {chunked}");
            // Chunked, a tag that spans the storm is carried whole, in two buffers that grow by
            // doubling (the carry, which `Options::max_carry` bounds, not the errors).
            let carried = if chunked && name == "nul-tag-name" {
                4 * SIZE
            } else {
                0
            };
            assert!(
                peak < bound + carried,
                "{name}, chunked {chunked}: {found} errors peaked at {peak} live bytes"
            );
        }
    }
}
