//! The arena proof: a tokenizer reused on the same page makes at most one global allocation the
//! second time (the arena keeps only its largest chunk on reset, so it may grow once more to hold a
//! whole pass in one chunk) and none at all from then on, even with every text, name and attribute
//! value decoded.
//!
//! A counting global allocator wraps the system one; this file holds one test so that no other test
//! thread allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use tagstream::{Options, Token, Tokenizer};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds the `GlobalAlloc` contract;
// the counter has no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Tokenize `page` decoding everything; returns (tokens, bytes of decoded text) as a checksum.
fn pass(tokenizer: &mut Tokenizer, page: &[u8]) -> (usize, usize) {
    let (mut tokens, mut bytes) = (0, 0);
    for token in tokenizer.tokenize(page) {
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
        };
    }
    (tokens, bytes)
}

/// Allocations made by `f`.
fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn reused_tokenizer_stops_allocating() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/samples/");
    for name in ["article.html", "forms.html", "scripts.html", "edge.html"] {
        let page = std::fs::read(format!("{dir}{name}")).expect("sample page");
        for options in [Options::new(), Options::new().errors(true)] {
            let mut tokenizer = Tokenizer::new(options);
            let first = pass(&mut tokenizer, &page);
            assert!(first.0 > 50, "{name}: too few tokens to prove anything");
            let mut again = (0, 0);
            let second = allocations_during(|| again = pass(&mut tokenizer, &page));
            assert_eq!(first, again, "{name}");
            assert!(
                second <= 1,
                "{name}: {second} allocations in the second pass"
            );
            let third = allocations_during(|| again = pass(&mut tokenizer, &page));
            assert_eq!(first, again, "{name}");
            assert_eq!(
                third, 0,
                "{name}: {third} allocations in the third pass over {} tokens",
                again.0
            );
        }
    }
}
