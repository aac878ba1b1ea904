//! A UTF-8 byte order mark at the start of the stream (`Options::strip_bom`, on by default): exactly
//! one is stripped, at stream offset 0 only, however the first bytes are chunked; a U+FEFF at a
//! later chunk's start is text (html5ever drops it there); positions count from after it; and
//! `Tokenizer::bom` / `Tokens::bom` say where its bytes were.

use tagstream::{Options, Position, Span, Token, Tokenizer};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text, the spans and the BOM span of `input` fed in chunks cut at `cuts`.
fn fed(input: &[u8], cuts: &[usize], options: &Options) -> (String, Vec<Span>, Option<Span>) {
    let mut tokenizer = Tokenizer::new(options.clone());
    let (mut text, mut spans) = (String::new(), Vec::new());
    let mut take = |tokens: tagstream::Tokens<'_>| {
        for token in tokens {
            if let Token::Text(t) = token {
                text.push_str(t.text());
            }
            spans.push(token.span());
        }
    };
    let mut start = 0;
    for &end in cuts.iter().chain([&input.len()]) {
        take(tokenizer.feed(&input[start..end]));
        start = end;
    }
    take(tokenizer.finish());
    (text, spans, tokenizer.bom())
}

/// Every way of cutting the first five bytes of `input` into chunks (the rest in one piece).
fn cuts_of_the_start(input: &[u8]) -> Vec<Vec<usize>> {
    let head = input.len().min(5);
    (0u32..1 << (head - 1))
        .map(|mask| (1..head).filter(|i| mask & 1 << (i - 1) != 0).collect())
        .collect()
}

#[test]
fn one_leading_bom_is_stripped_however_the_start_is_chunked() {
    let input = [BOM, b"<p>x"].concat();
    for cuts in cuts_of_the_start(&input) {
        let (text, spans, bom) = fed(&input, &cuts, &Options::new());
        assert_eq!(text, "x", "cuts {cuts:?}");
        assert_eq!(spans[0], Span { start: 3, end: 6 }, "cuts {cuts:?}");
        assert_eq!(bom, Some(Span { start: 0, end: 3 }), "cuts {cuts:?}");
    }
}

#[test]
fn only_the_first_of_two_boms_is_stripped() {
    let input = [BOM, BOM, b"x"].concat();
    for cuts in cuts_of_the_start(&input) {
        let (text, _, bom) = fed(&input, &cuts, &Options::new());
        assert_eq!(text, "\u{FEFF}x", "cuts {cuts:?}");
        assert!(bom.is_some());
    }
}

#[test]
fn a_bom_at_a_later_chunk_start_is_text() {
    let input = [b"a", BOM, b"b"].concat();
    for cuts in [vec![], vec![1], vec![1, 2], vec![1, 4]] {
        let (text, _, bom) = fed(&input, &cuts, &Options::new());
        assert_eq!(text, "a\u{FEFF}b", "cuts {cuts:?}");
        assert_eq!(bom, None);
    }
}

#[test]
fn a_partial_bom_is_text() {
    // The held-back bytes go to the machine once they turn out not to be a BOM: at the next byte,
    // or at the end of input.
    for input in [
        &b"\xEF\xBBx"[..],
        b"\xEFx",
        b"\xEF\xBB",
        b"\xEF",
        b"\xEF<p>",
    ] {
        let whole = fed(input, &[], &Options::new());
        assert_eq!(whole.2, None, "{input:?}");
        assert!(whole.0.starts_with('\u{FFFD}'), "{input:?}: {:?}", whole.0);
        for cuts in cuts_of_the_start(input) {
            assert_eq!(
                fed(input, &cuts, &Options::new()),
                whole,
                "{input:?} cuts {cuts:?}"
            );
        }
    }
}

#[test]
fn a_bom_alone_gives_no_token() {
    for cuts in cuts_of_the_start(BOM) {
        let (text, spans, bom) = fed(BOM, &cuts, &Options::new());
        assert_eq!((text.as_str(), spans.len()), ("", 0), "cuts {cuts:?}");
        assert_eq!(bom, Some(Span { start: 0, end: 3 }));
    }
}

#[test]
fn strip_bom_off_keeps_it_as_text() {
    let input = [BOM, b"x"].concat();
    let (text, spans, bom) = fed(&input, &[1], &Options::new().strip_bom(false));
    assert_eq!(text, "\u{FEFF}x");
    assert_eq!(spans[0].start, 0);
    assert_eq!(bom, None);
}

#[test]
fn positions_start_after_the_bom() {
    let input = [BOM, b"<a>\n<b>"].concat();
    for cuts in cuts_of_the_start(&input) {
        let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
        let mut positions = Vec::new();
        let mut start = 0;
        for &end in cuts.iter().chain([&input.len()]) {
            let mut tokens = tokenizer.feed(&input[start..end]);
            while let Some(token) = tokens.next() {
                positions.push(tokens.position(token.span().start));
            }
            start = end;
        }
        tokenizer.finish().for_each(drop);
        let expected = [(1, 1), (1, 4), (2, 1)].map(|(line, col)| Some(Position { line, col }));
        assert_eq!(positions, expected, "cuts {cuts:?}");
    }
}

#[test]
fn errors_count_columns_after_the_bom() {
    let input = [BOM, b"</>"].concat();
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    tokenizer.tokenize(&input).for_each(drop);
    let errors = tokenizer.take_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].position, Position { line: 1, col: 3 });
    assert_eq!(errors[0].offset, 5);
}

#[test]
fn reset_looks_for_a_bom_again() {
    let input = [BOM, b"x"].concat();
    let mut tokenizer = Tokenizer::default();
    for _ in 0..2 {
        let spans: Vec<Span> = tokenizer.tokenize(&input).map(|t| t.span()).collect();
        assert_eq!(spans, [Span { start: 3, end: 4 }]);
        assert_eq!(tokenizer.bom(), Some(Span { start: 0, end: 3 }));
    }
    tokenizer.tokenize(b"y").for_each(drop);
    assert_eq!(tokenizer.bom(), None);
}

#[test]
fn a_bom_fed_alone_with_errors_on_leaves_nothing_waiting() {
    // Found by the `chunks` fuzz target: with errors on, a feed that ended right after the BOM
    // left the input checker waiting for the mark's bytes, which no window holds.
    let input = "\u{FEFF}foo\u{FEFF}bar".as_bytes();
    for size in 1..=4 {
        let mut tokenizer = Tokenizer::new(Options::new().errors(true));
        let mut text = String::new();
        for chunk in input.chunks(size).chain([&[][..]]) {
            for token in tokenizer.feed(chunk) {
                if let Token::Text(t) = token {
                    text.push_str(t.text());
                }
            }
        }
        for token in tokenizer.finish() {
            if let Token::Text(t) = token {
                text.push_str(t.text());
            }
        }
        assert_eq!(text, "foo\u{FEFF}bar", "chunks of {size}");
        assert!(tokenizer.errors().is_empty(), "chunks of {size}");
        assert_eq!(tokenizer.bom(), Some(Span { start: 0, end: 3 }));
    }
}
