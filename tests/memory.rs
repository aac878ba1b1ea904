//! Streaming memory, measured with dhat's heap statistics: a long document fed in 4 KiB chunks gives
//! the same tokens as the whole document while the tokenizer's live memory stays a few KiB (chunk,
//! carry, arena), the carry never holding back more than the longest token. One test in this file,
//! so that no other test thread allocates while it measures.

mod common;

use std::hash::{DefaultHasher, Hasher};

use common::Rng;
use common::heap::peak_during;
use tagstream::html5lib::push;
use tagstream::{Token, Tokenizer};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// About `size` bytes of ordinary markup (no token longer than a few hundred bytes).
fn long_document(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut doc = String::from(
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=\"utf-8\"><title>Long &amp; plain</title></head><body>\n",
    );
    let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "é€", "😀", "&amp;", "&lt;", "&#x41;", "\r\n",
    ];
    let mut n = 0;
    while doc.len() < size {
        n += 1;
        doc.push_str(&format!(
            "<div class=\"c{} d\" id=d{n} data-x='{}'>\n<p>",
            n % 7,
            rng.below(1000)
        ));
        for _ in 0..rng.range(3, 25) {
            doc.push_str(rng.pick::<&str>(&words));
            doc.push(' ');
        }
        doc.push_str(&format!(
            "</p><a href=\"/p?a=1&amp;b={n}\" title='t{n}'>link {n}</a><!-- note {n} -->\
             <ul><li>one<li>two</ul><img src=x{n}.png alt=\"\"><br/><?pi {n}?>\n</div>\n"
        ));
    }
    doc.push_str("</body></html>\n");
    doc.into_bytes()
}

/// A digest of the html5lib-shaped tokens (text merged) that needs no memory beyond the longest text.
#[derive(Default)]
struct Digest {
    hasher: DefaultHasher,
    text: String,
    tokens: usize,
}

impl Digest {
    fn add(&mut self, token: Token<'_>) {
        if let Token::Text(t) = token {
            self.text.push_str(t.text());
            return;
        }
        self.flush();
        let mut one = Vec::with_capacity(1);
        push(&mut one, token);
        self.hasher.write(format!("{one:?}").as_bytes());
        self.tokens += 1;
    }

    fn flush(&mut self) {
        if !self.text.is_empty() {
            self.hasher.write(b"text:");
            self.hasher.write(self.text.as_bytes());
            self.text.clear();
            self.tokens += 1;
        }
    }

    fn finish(mut self) -> (u64, usize) {
        self.flush();
        (self.hasher.finish(), self.tokens)
    }
}

#[test]
fn two_megabytes_in_4k_chunks_keep_the_carry_bounded() {
    const CHUNK: usize = 4096;
    let input = long_document(2 << 20, 0x2000_0000);
    assert!(input.len() >= 2 << 20);
    let longest_token = 400; // generously above anything long_document writes

    let whole = {
        let mut tokenizer = Tokenizer::default();
        let mut digest = Digest::default();
        tokenizer.tokenize(&input).for_each(|t| digest.add(t));
        digest.finish()
    };

    let ((streamed, in_place, total, late), peak) = peak_during(|| {
        let mut tokenizer = Tokenizer::default();
        let mut digest = Digest::default();
        let (mut in_place, mut total, mut late) = (0usize, 0usize, 0usize);
        for (i, chunk) in input.chunks(CHUNK).enumerate() {
            let base = i * CHUNK;
            let range = chunk.as_ptr_range();
            for t in tokenizer.feed(chunk) {
                let raw = t.raw();
                total += raw.len();
                if range.contains(&raw.as_ptr()) {
                    in_place += raw.len();
                }
                // Tokens come out while their bytes are near: nothing is held back for long.
                if t.span().start + longest_token + CHUNK < base {
                    late += 1;
                }
                digest.add(t);
            }
        }
        tokenizer.finish().for_each(|t| digest.add(t));
        (digest.finish(), in_place, total, late)
    });

    assert_eq!(
        streamed, whole,
        "4 KiB chunks give the same tokens as the whole document"
    );
    assert_eq!(late, 0, "tokens emitted long after their bytes were fed");
    assert!(
        in_place * 10 >= total * 9,
        "only {in_place} of {total} token bytes were read in place from the chunks"
    );
    // Chunk, carry, arena: a few KiB. Holding the document, or a growing carry, would be megabytes.
    assert!(
        peak < 256 << 10,
        "streaming {} bytes in {CHUNK}-byte chunks peaked at {peak} live bytes",
        input.len()
    );
}
