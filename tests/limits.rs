//! Memory limits (`Options::max_carry`, `Options::max_arena`): a stream that would need more stops
//! with a typed error at the token that did not fit — every token before it handed out whole,
//! none after it, nothing cut short — and the tokenizer is ready for the next document after a
//! reset.
//!
//! Under Miri, which runs the tests about a thousand times slower, the documents are smaller and
//! the limits with them (the constants below).

use tagstream::{Limit, LimitError, Options, Token, Tokenizer};

/// The long comment's length, and a carry limit it passes: 100,000 bytes and 16 KiB (4,000 bytes
/// and 1 KiB under Miri).
const LONG: usize = if cfg!(miri) { 4_000 } else { 100_000 };
const SMALL_CARRY: usize = if cfg!(miri) { 1024 } else { 16 * 1024 };

/// The chunk size of streamed runs: 4 KiB (256 bytes under Miri, so that the documents still take
/// many feeds).
const CHUNK: usize = if cfg!(miri) { 256 } else { 4096 };

/// Tags in the attribute-heavy document, and an arena limit that the whole document passes but
/// no chunk of [`CHUNK`] bytes does: 20,000 and 256 KiB (60 and 8 KiB under Miri).
const TAGS: usize = if cfg!(miri) { 60 } else { 20_000 };
const MAX_ARENA: usize = if cfg!(miri) { 8 * 1024 } else { 256 * 1024 };

/// A token as kind and span, comparable across runs.
fn shape(token: &Token<'_>) -> (&'static str, usize, usize) {
    let kind = match token {
        Token::StartTag(_) => "start",
        Token::EndTag(_) => "end",
        Token::Text(_) => "text",
        Token::Comment(_) => "comment",
        Token::Doctype(_) => "doctype",
        Token::ProcessingInstruction(_) => "pi",
        Token::Raw(_) => "raw",
    };
    (kind, token.span().start, token.span().end)
}

/// Feed `input` in chunks of `size` bytes, then finish; the tokens' shapes (text merged).
fn stream(
    tokenizer: &mut Tokenizer,
    input: &[u8],
    size: usize,
) -> Vec<(&'static str, usize, usize)> {
    let mut out = Vec::new();
    for chunk in input.chunks(size) {
        out.extend(tokenizer.feed(chunk).map(|t| shape(&t)));
    }
    out.extend(tokenizer.finish().map(|t| shape(&t)));
    merge_text(out)
}

fn merge_text(shapes: Vec<(&'static str, usize, usize)>) -> Vec<(&'static str, usize, usize)> {
    let mut merged: Vec<(&'static str, usize, usize)> = Vec::new();
    for s in shapes {
        match merged.last_mut() {
            Some(last) if last.0 == "text" && s.0 == "text" && last.2 == s.1 => last.2 = s.2,
            _ => merged.push(s),
        }
    }
    merged
}

fn whole(input: &[u8]) -> Vec<(&'static str, usize, usize)> {
    let mut tokenizer = Tokenizer::default();
    merge_text(tokenizer.tokenize(input).map(|t| shape(&t)).collect())
}

/// `<p>before</p>`, a comment of `len` bytes, `<p>after</p>`.
fn long_comment(len: usize) -> Vec<u8> {
    let mut doc = b"<p>before</p><!--".to_vec();
    doc.resize(doc.len() + len, b'x');
    doc.extend_from_slice(b"--><p>after</p>");
    doc
}

#[test]
fn a_token_longer_than_max_carry_stops_the_stream_before_it() {
    let doc = long_comment(LONG);
    let mut tokenizer = Tokenizer::new(Options::new().max_carry(SMALL_CARRY));
    let tokens = stream(&mut tokenizer, &doc, CHUNK);
    assert_eq!(
        tokens,
        whole(&doc)[..3],
        "everything before the comment, nothing after"
    );
    let error = tokenizer.limit_error().expect("the limit was hit");
    assert_eq!(error.limit, Limit::Carry);
    assert_eq!(error.max, SMALL_CARRY);
    assert_eq!(error.offset, 13, "the comment's `<`");
    assert!(error.needed > error.max);
    assert_eq!(tokenizer.finish().count(), 0, "stays stopped");
    assert_eq!(tokenizer.limit_error(), Some(error));
    // A feed after `finish` starts a new stream, with no limit error.
    assert_eq!(tokenizer.feed(b"<b>more</b>").count(), 3);
    assert_eq!(tokenizer.limit_error(), None);
}

#[test]
fn a_stopped_stream_stays_stopped_until_it_is_finished() {
    let doc = long_comment(LONG);
    let mut tokenizer = Tokenizer::new(Options::new().max_carry(SMALL_CARRY));
    for chunk in doc.chunks(CHUNK) {
        tokenizer.feed(chunk).for_each(drop);
    }
    let error = tokenizer.limit_error().expect("the limit was hit");
    assert_eq!(tokenizer.feed(b"<b>more</b>").count(), 0);
    assert_eq!(tokenizer.finish().count(), 0);
    assert_eq!(tokenizer.limit_error(), Some(error));
}

#[test]
fn a_token_within_max_carry_streams_as_the_whole_input() {
    let doc = long_comment(LONG);
    // Under Miri no small chunks: each would copy the unfinished comment again.
    let sizes: &[usize] = if cfg!(miri) {
        &[64, CHUNK]
    } else {
        &[1, 7, 4096, 65536]
    };
    for &size in sizes {
        let mut tokenizer = Tokenizer::new(Options::new().max_carry(128 * 1024));
        assert_eq!(
            stream(&mut tokenizer, &doc, size),
            whole(&doc),
            "chunks of {size}"
        );
        assert_eq!(tokenizer.limit_error(), None);
    }
}

#[test]
fn a_limit_hit_at_the_first_seam_is_reported_there() {
    // The comment is unfinished at the end of the first chunk already.
    let doc = long_comment(100);
    let mut tokenizer = Tokenizer::new(Options::new().max_carry(32));
    let first: Vec<_> = tokenizer.feed(&doc[..64]).map(|t| shape(&t)).collect();
    assert_eq!(merge_text(first), whole(&doc)[..3]);
    let error = tokenizer.limit_error().unwrap();
    assert_eq!(
        (error.limit, error.offset, error.needed),
        (Limit::Carry, 13, 64 - 13)
    );
}

#[test]
fn reset_makes_a_stopped_tokenizer_ready_for_the_next_document() {
    let mut tokenizer = Tokenizer::new(Options::new().max_carry(1024));
    let doc = long_comment(10_000);
    stream(&mut tokenizer, &doc, 512);
    assert!(tokenizer.limit_error().is_some());
    tokenizer.reset();
    assert_eq!(tokenizer.limit_error(), None);
    let small = b"<ul><li>one<li>two</ul>";
    assert_eq!(stream(&mut tokenizer, small, 5), whole(small));
    assert_eq!(
        merge_text(tokenizer.tokenize(&doc).map(|t| shape(&t)).collect()),
        whole(&doc)
    );
}

#[test]
fn bytes_kept_for_a_pause_do_not_count_against_max_carry() {
    let doc: Vec<u8> = b"<p class=a>text</p>".repeat(if cfg!(miri) { 50 } else { 1000 });
    let mut tokenizer = Tokenizer::new(Options::new().max_carry(64));
    let mut tokens = Vec::new();
    // Take one token per feed: every pause keeps the rest of the chunk.
    let mut tokens_of_feed: Vec<_> = tokenizer.feed(&doc).take(1).map(|t| shape(&t)).collect();
    while !tokens_of_feed.is_empty() {
        tokens.append(&mut tokens_of_feed);
        tokens_of_feed = tokenizer.feed(b"").take(1).map(|t| shape(&t)).collect();
    }
    tokens.extend(tokenizer.finish().map(|t| shape(&t)));
    assert_eq!(tokenizer.limit_error(), None);
    assert_eq!(merge_text(tokens), whole(&doc));
}

/// [`TAGS`] start tags with five attributes each: each tag's attribute list goes into the arena.
fn attribute_heavy() -> Vec<u8> {
    b"<i a=1 b=2 c=3 d=4 e=5>".repeat(TAGS)
}

#[test]
fn an_arena_past_max_arena_stops_a_whole_document_at_a_token_boundary() {
    let doc = attribute_heavy();
    let mut tokenizer = Tokenizer::new(Options::new().max_arena(MAX_ARENA));
    let tokens: Vec<_> = tokenizer.tokenize(&doc).map(|t| shape(&t)).collect();
    let all = whole(&doc);
    assert!(
        !tokens.is_empty() && tokens.len() < all.len(),
        "{} of {}",
        tokens.len(),
        all.len()
    );
    assert!(
        tokens == all[..tokens.len()],
        "a prefix of the tokens, each whole"
    );
    let error = tokenizer.limit_error().unwrap();
    assert_eq!(error.limit, Limit::Arena);
    assert_eq!(
        error.offset,
        tokens.last().unwrap().2,
        "right after the last token"
    );
    assert!(error.needed > error.max);
}

#[test]
fn streaming_resets_the_arena_at_every_feed_so_max_arena_holds() {
    let doc = attribute_heavy();
    // A 4 KiB chunk holds ~180 tags: ~36 KB of attribute lists per feed.
    let mut tokenizer = Tokenizer::new(Options::new().max_arena(MAX_ARENA));
    let tokens = stream(&mut tokenizer, &doc, CHUNK);
    assert_eq!(tokenizer.limit_error(), None);
    assert!(tokens == whole(&doc), "{} tokens", tokens.len());
}

#[test]
fn the_error_says_which_limit_and_where() {
    let error = LimitError {
        limit: Limit::Carry,
        max: 1024,
        needed: 5000,
        offset: 42,
    };
    assert_eq!(
        error.to_string(),
        "memory limit at byte 42: the unfinished token to carry over needs 5000 bytes, more than \
         the limit of 1024"
    );
    let error = LimitError {
        limit: Limit::Arena,
        ..error
    };
    assert!(
        error
            .to_string()
            .contains("the token arena needs 5000 bytes")
    );
}

#[test]
fn text_after_a_last_lone_lt_is_not_carried_past_max_carry() {
    // Each chunk's last `<` is text with no `>` after it: nothing needs to be carried there, so
    // however small the limit, the text never trips it.
    let mut doc = b"<p>".to_vec();
    for _ in 0..if cfg!(miri) { 10 } else { 50 } {
        doc.extend_from_slice(b"a < b");
        doc.resize(doc.len() + 95, b'x');
    }
    let limits: &[usize] = if cfg!(miri) {
        &[16, 100, 101]
    } else {
        &[16, 40, 64, 99, 100, 101, 300]
    };
    for &limit in limits {
        let mut tokenizer = Tokenizer::new(Options::new().max_carry(limit));
        assert_eq!(stream(&mut tokenizer, &doc, 100), whole(&doc), "{limit}");
        assert_eq!(tokenizer.limit_error(), None, "{limit}");
    }
}

#[test]
fn text_after_an_undecided_text_tail_is_not_carried_past_max_carry() {
    // A chunk ends in text whose end is not decided yet (a CR before a possible LF, a possible
    // character reference, a lone `<`, a possible end tag in RCDATA): those bytes are carried.
    // The next chunk's long run of plain text decides them, and must go out as text instead of
    // counting against the limit (found by the fuzz harness's limits property).
    let text = b"plain text, ".repeat(2_000);
    for tail in [&b"line\r"[..], b"a&am", b"a<", b"</ti"] {
        let mut doc = b"<title>".to_vec();
        doc.extend_from_slice(tail);
        doc.extend_from_slice(&text);
        doc.extend_from_slice(b"</title>");
        let cut = 7 + tail.len();
        let mut tokenizer = Tokenizer::new(Options::new().max_carry(16 * 1024));
        let mut out: Vec<_> = tokenizer.feed(&doc[..cut]).map(|t| shape(&t)).collect();
        // The rest in one feed: more text than the limit follows the tail.
        out.extend(tokenizer.feed(&doc[cut..]).map(|t| shape(&t)));
        out.extend(tokenizer.finish().map(|t| shape(&t)));
        let tail = String::from_utf8_lossy(tail);
        assert_eq!(tokenizer.limit_error(), None, "{tail:?}");
        assert_eq!(merge_text(out), whole(&doc), "{tail:?}");
    }
}
