//! Hostile XML inputs for the XML5 tokenizer (issue 26): each gives the right tokens, whole and
//! fed in chunks, with errors off and on, in time linear in its size. No timing is asserted: the
//! sizes are chosen so that a quadratic path would make these tests run for minutes instead of
//! about a second. perf's hostile run measures the throughput of the same shapes.

use tagstream::xml5::Tokenizer;
use tagstream::{Options, ParseError, TextKind, Token};

/// A token, decoded, in a chunking-independent shape (adjacent text of one kind merged).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    Start(String, Vec<(String, String)>, bool),
    End(String),
    Comment(String),
    Text(TextKind, String),
    Pi(String, String),
    Doctype(Option<String>),
    Raw(Vec<u8>),
}

fn shape(token: &Token<'_>) -> Shape {
    match token {
        Token::StartTag(t) => Shape::Start(
            t.name().to_owned(),
            t.attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            t.self_closing(),
        ),
        Token::EndTag(t) => Shape::End(t.name().to_owned()),
        Token::Comment(c) => Shape::Comment(c.data().to_owned()),
        Token::Text(t) => Shape::Text(t.kind(), t.text().to_owned()),
        Token::ProcessingInstruction(p) => Shape::Pi(p.target().to_owned(), p.data().to_owned()),
        Token::Doctype(d) => Shape::Doctype(d.name().map(str::to_owned)),
        Token::Raw(r) => Shape::Raw(r.raw().to_vec()),
    }
}

fn push(out: &mut Vec<Shape>, token: &Token<'_>) {
    match (out.last_mut(), shape(token)) {
        (Some(Shape::Text(k, s)), Shape::Text(kind, more)) if *k == kind => s.push_str(&more),
        (_, next) => out.push(next),
    }
}

/// Tokens and errors of `input`, whole (`chunk` `None`) or fed in chunks of `chunk` bytes.
fn run(input: &[u8], options: &Options, chunk: Option<usize>) -> (Vec<Shape>, Vec<ParseError>) {
    let mut tokenizer = Tokenizer::new(options.clone());
    let mut out = Vec::new();
    match chunk {
        None => tokenizer.tokenize(input).for_each(|t| push(&mut out, &t)),
        Some(size) => {
            for piece in input.chunks(size) {
                tokenizer.feed(piece).for_each(|t| push(&mut out, &t));
            }
            tokenizer.finish().for_each(|t| push(&mut out, &t));
        }
    }
    (out, tokenizer.take_errors())
}

/// Whole, in 4 KiB chunks and (for inputs up to 256 KiB) one byte at a time, with errors off and
/// on: the same tokens and errors every time. Returns the tokens and the errors.
fn consistent(input: &[u8]) -> (Vec<Shape>, Vec<ParseError>) {
    let (whole, none) = run(input, &Options::new(), None);
    assert!(none.is_empty(), "errors with errors off");
    let options = Options::new().errors(true).max_errors(usize::MAX);
    let reference = run(input, &options, None);
    assert_eq!(reference.0, whole, "errors on changed the tokens");
    let mut sizes = vec![4096];
    if input.len() <= 256 * 1024 {
        sizes.push(1);
    }
    for size in sizes {
        assert_eq!(
            run(input, &Options::new(), Some(size)).0,
            whole,
            "chunks of {size}"
        );
        let chunked = run(input, &options, Some(size));
        assert_eq!(chunked.0, whole, "chunks of {size}, errors on");
        assert_eq!(chunked.1, reference.1, "errors, chunks of {size}");
    }
    reference
}

fn repeated(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

fn wrapped(before: &[u8], fill: &[u8], count: usize, after: &[u8]) -> Vec<u8> {
    let mut v = before.to_vec();
    for _ in 0..count {
        v.extend_from_slice(fill);
    }
    v.extend_from_slice(after);
    v
}

fn text(s: &str) -> Shape {
    Shape::Text(TextKind::Data, s.to_owned())
}

#[test]
fn a_ten_megabyte_name_is_one_start_tag() {
    let input = wrapped(b"<", b"N", 10 << 20, b" a='1'/>");
    let (tokens, errors) = consistent(&input);
    let [Shape::Start(name, attributes, true)] = &tokens[..] else {
        panic!("{:?}", &tokens[..tokens.len().min(2)])
    };
    assert_eq!(
        (name.len(), &attributes[..]),
        (10 << 20, &[("a".into(), "1".into())][..])
    );
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_hundred_thousand_distinct_attributes_are_kept() {
    let mut input = b"<e".to_vec();
    for i in 0..100_000 {
        input.extend_from_slice(format!(" a{i}='{i}'").as_bytes());
    }
    input.extend_from_slice(b">x</e>");
    let (tokens, errors) = consistent(&input);
    let Shape::Start(_, attributes, false) = &tokens[0] else {
        panic!("{:?}", tokens[0])
    };
    assert_eq!(attributes.len(), 100_000);
    assert_eq!(attributes[99_999], ("a99999".into(), "99999".into()));
    assert_eq!(&tokens[1..], [text("x"), Shape::End("e".into())]);
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_hundred_thousand_repeats_of_one_attribute_keep_the_first() {
    let input = wrapped(b"<e a='first'", b" a='again'", 100_000, b"/>");
    let (tokens, errors) = consistent(&input);
    assert_eq!(
        tokens,
        [Shape::Start(
            "e".into(),
            vec![("a".into(), "first".into())],
            true
        )]
    );
    assert_eq!(errors.len(), 100_000, "one duplicate-attribute error each");
}

#[test]
fn a_hundred_thousand_nested_elements() {
    let mut input = repeated(b"<d>", 300_000);
    input.extend(repeated(b"</d>", 400_000));
    let (tokens, errors) = consistent(&input);
    assert_eq!(tokens.len(), 200_000);
    assert_eq!(tokens[99_999], Shape::Start("d".into(), vec![], false));
    assert_eq!(tokens[100_000], Shape::End("d".into()));
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn constructs_left_open_to_the_end_of_input_end_there() {
    let big = 1 << 20;
    let cdata = wrapped(b"<![CDATA[", b"x", big, b"");
    let (tokens, errors) = consistent(&cdata);
    assert_eq!(tokens, [Shape::Text(TextKind::Cdata, "x".repeat(big))]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let pi = wrapped(b"<?target ", b"x", big, b"");
    let (tokens, errors) = consistent(&pi);
    assert_eq!(tokens, [Shape::Pi("target".into(), "x".repeat(big))]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let comment = wrapped(b"<!--", b"-x", big / 2, b"");
    let (tokens, errors) = consistent(&comment);
    assert!(
        matches!(&tokens[..], [Shape::Comment(c)] if c.len() == big),
        "{:?}",
        tokens.len()
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    let doctype = wrapped(b"<!DOCTYPE d [", b"<!ENTITY e 'v'>", big / 16, b"");
    let (tokens, errors) = consistent(&doctype);
    assert!(
        matches!(&tokens[..], [Shape::Doctype(Some(n))] if n == "d"),
        "{tokens:?}"
    );
    assert!(!errors.is_empty());
}

/// Whether `tokens` are one text token equal to `want` (without printing megabytes on failure).
fn is_text(tokens: &[Shape], want: &str) -> bool {
    matches!(tokens, [Shape::Text(TextKind::Data, got)] if got == want)
}

#[test]
fn ampersand_storms() {
    let amps = wrapped(b"", b"&amp;", 1 << 18, b"");
    assert!(is_text(&consistent(&amps).0, &"&".repeat(1 << 18)));
    let bare = wrapped(b"", b"&", 1 << 20, b"");
    assert!(is_text(&consistent(&bare).0, &"&".repeat(1 << 20)));
    let unknown = wrapped(b"", b"&abcdefghijklmnopqrstuvwxyz;", 1 << 15, b"");
    assert!(is_text(
        &consistent(&unknown).0,
        std::str::from_utf8(&unknown).unwrap()
    ));
    let in_values = wrapped(b"<e a='", b"&amp;", 1 << 18, b"'/>");
    let (tokens, _) = consistent(&in_values);
    let Shape::Start(_, attributes, true) = &tokens[0] else {
        panic!("not an empty tag")
    };
    assert!(
        attributes[0].1 == "&".repeat(1 << 18),
        "the value decodes to its ampersands"
    );
}

#[test]
fn short_end_tag_storms() {
    let input = wrapped(b"<a>", b"</>", 1 << 18, b"");
    let (tokens, errors) = consistent(&input);
    assert_eq!(tokens.len(), 1 + (1 << 18));
    assert!(tokens[1..].iter().all(|t| *t == Shape::End(String::new())));
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn reference_and_tag_opener_storms() {
    let (tokens, errors) = consistent(&b"&#".repeat(1 << 19));
    assert!(is_text(&tokens, &"&#".repeat(1 << 19)));
    assert_eq!(
        errors.len(),
        1 << 19,
        "one error per reference without digits"
    );
    let (tokens, errors) = consistent(&b"<".repeat(1 << 18));
    assert!(is_text(&tokens, &"<".repeat(1 << 18)));
    assert_eq!(
        errors.len(),
        1 << 18,
        "one error per `<` that opens nothing"
    );
}

#[test]
fn constructs_left_open_with_near_endings() {
    // Fills that keep almost ending the construct: `]` in CDATA, `?` in a PI, `-` and `<!` in a
    // comment, quotes and comments in an internal subset.
    for (open, fill) in [
        (&b"<![CDATA["[..], &b"]x"[..]),
        (b"<?pi ", b"?x"),
        (b"<!--", b"-x<!"),
        (b"<!DOCTYPE d [", b"'x'<!--"),
    ] {
        let input = [open, &fill.repeat(1 << 18)].concat();
        let (tokens, errors) = consistent(&input);
        assert_eq!((tokens.len(), errors.len()), (1, 1), "{open:?}");
    }
}
