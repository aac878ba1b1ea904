//! Hostile inputs (issue 5): each gives the right tokens, whole and fed in small chunks, and in
//! time linear in its size. No timing is asserted; the sizes are chosen so that a quadratic path
//! would make these tests run for minutes instead of well under a second. `benches/` measures the
//! throughput of the same shapes.

use tagstream::html5lib::{Html5libToken, run};
use tagstream::{ErrorCode, Options};

fn repeated(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

fn wrapped(before: &[u8], fill: u8, size: usize, after: &[u8]) -> Vec<u8> {
    let mut v = before.to_vec();
    v.extend(std::iter::repeat_n(fill, size));
    v.extend_from_slice(after);
    v
}

/// Whole, in 4 KiB chunks and (for inputs up to 256 KiB) one byte at a time, with errors off and
/// on: the same tokens and errors every time. Returns the tokens.
fn consistent(input: &[u8]) -> Vec<Html5libToken> {
    let whole = run(input, &Options::new(), None).output;
    for errors in [false, true] {
        // Every error kept: a storm in one token brings more than the default cap.
        let options = Options::new().errors(errors).max_errors(usize::MAX);
        let reference = run(input, &options, None);
        assert_eq!(reference.output, whole);
        let mut sizes = vec![4096];
        if input.len() <= 256 * 1024 {
            sizes.push(1);
        }
        for size in sizes {
            let chunked = run(input, &options, Some(size));
            assert_eq!(chunked.output, whole, "chunks of {size}, errors {errors}");
            assert_eq!(chunked.errors, reference.errors, "chunks of {size}");
        }
    }
    whole
}

fn text(s: &str) -> Html5libToken {
    Html5libToken::Character(s.to_owned())
}

#[test]
fn a_long_numeric_reference_is_read_once() {
    let input = wrapped(b"&#x", b'0', 200_000, b"41;z");
    assert_eq!(consistent(&input), [text("Az")]);
    let input = wrapped(b"a&#", b'0', 200_000, b"");
    assert_eq!(consistent(&input), [text("a\u{FFFD}")]);
}

#[test]
fn long_values_comments_and_doctypes_are_one_token() {
    let value = wrapped(b"<a b=\"", b'x', 1 << 20, b"\">");
    let tokens = consistent(&value);
    let Html5libToken::StartTag { attributes, .. } = &tokens[0] else {
        panic!("{tokens:?}")
    };
    assert_eq!(attributes[0].1.len(), 1 << 20);
    let comment = wrapped(b"<!--", b'-', 1 << 20, b"->");
    assert!(
        matches!(&consistent(&comment)[..], [Html5libToken::Comment(c)] if c.len() == (1 << 20) - 1)
    );
    let doctype = wrapped(b"<!DOCTYPE ", b'x', 1 << 20, b">");
    assert!(
        matches!(&consistent(&doctype)[..], [Html5libToken::Doctype { name: Some(n), .. }] if n.len() == 1 << 20)
    );
}

#[test]
fn ampersand_storms() {
    let runs = repeated(b"&abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ;", 1 << 18);
    assert_eq!(
        consistent(&runs),
        [text(std::str::from_utf8(&runs).unwrap())]
    );
    let amps = repeated(b"&amp", 1 << 18);
    assert_eq!(consistent(&amps), [text(&"&".repeat(1 << 16))]);
    let errors = run(&amps, &Options::new().errors(true), Some(4096)).errors;
    assert_eq!(errors.len(), 1 << 16);
    assert!(
        errors
            .iter()
            .all(|e| e.code == ErrorCode::MissingSemicolonAfterCharacterReference)
    );
}

#[test]
fn tag_and_comment_openers_repeated() {
    let closers = repeated(b"</", 1 << 18);
    let tokens = consistent(&closers);
    assert_eq!(tokens.len(), 1);
    let openers = repeated(b"<!--", 1 << 18);
    assert_eq!(consistent(&openers).len(), 1);
    let nested = repeated(b"<svg><math>", 11 * 20_000);
    assert_eq!(consistent(&nested).len(), 40_000);
}

/// Nesting deeper than the simulator follows (512 elements): the tokens are the tokenizer's, the
/// same whole, in chunks and byte by byte, and each end tag still finds no open element cheaply.
#[test]
fn deep_foreign_and_integration_point_nesting() {
    let depth = 20_000;
    let foreign = [b"<svg>".repeat(depth), b"</x>".repeat(depth)].concat();
    assert_eq!(consistent(&foreign).len(), 2 * depth);
    let divs = [&b"<svg><foreignObject>"[..], &b"<div>".repeat(depth)].concat();
    assert_eq!(consistent(&divs).len(), depth + 2);
}

/// Tags that once sent the simulator down its stack, up to 512 frames each: end tags of names
/// no open element has under 600 distinctly named foreign elements, and list items, links,
/// `</p>`, table tags and other end tags under 400 HTML elements and 200 templates around an
/// integration point. The same tokens whole, in chunks and byte by byte.
#[test]
fn tags_under_deep_stacks_of_many_names() {
    let names: String = (0..600).map(|i| format!("<x{i}>")).collect();
    let named = [format!("<svg>{names}"), "</y>".repeat(10_000)].concat();
    assert_eq!(consistent(named.as_bytes()).len(), 1 + 600 + 10_000);
    let steps = [
        "<template>".repeat(200),
        "<svg><foreignObject>".to_owned(),
        "<span>".repeat(400),
        "<li></p><a><tr></x>".repeat(4_000),
    ]
    .concat();
    assert_eq!(
        consistent(steps.as_bytes()).len(),
        200 + 2 + 400 + 5 * 4_000
    );
}

#[test]
fn nul_cr_and_invalid_utf8_storms() {
    let nuls = repeated(b"\0", 1 << 18);
    assert_eq!(consistent(&nuls), [text(&"\0".repeat(1 << 18))]);
    let crs = repeated(b"\r\r\n", 3 << 16);
    assert_eq!(consistent(&crs), [text(&"\n\n".repeat(1 << 16))]);
    let invalid = repeated(
        b"\x80\xC0\xE0\x80\xF0\x80\x80\xED\xA0\x80\xF4\x90\xFF",
        13 << 14,
    );
    let Html5libToken::Character(decoded) = &consistent(&invalid)[0] else {
        panic!()
    };
    assert_eq!(decoded.as_str(), String::from_utf8_lossy(&invalid));
}

/// Issue 25's error storms in tags: NULs in a tag name, an attribute name and values (reported as
/// a run, one error each), and unterminated tags that make one tag of repeating attributes (the
/// lane leaves it to the state functions early, with the same outcome).
#[test]
fn nul_and_unterminated_tag_storms() {
    const N: usize = 1 << 16;
    let nul = "\u{FFFD}".repeat(N);
    let errors_of = |input: &[u8]| {
        let options = Options::new().errors(true).max_errors(usize::MAX);
        run(input, &options, None).errors
    };
    let tag_name = wrapped(b"<a", 0, N, b">x");
    let Html5libToken::StartTag { name, .. } = &consistent(&tag_name)[0] else {
        panic!()
    };
    assert_eq!(*name, format!("a{nul}"));
    let errors = errors_of(&tag_name);
    assert_eq!(errors.len(), N);
    assert!(
        errors
            .iter()
            .enumerate()
            .all(|(i, e)| e.offset == 2 + i && e.code == ErrorCode::UnexpectedNullCharacter)
    );

    for (before, after, name_nuls) in [
        (&b"<a b"[..], &b"=1>"[..], true),
        (b"<a b=\"", b"\">", false),
        (b"<a b=", b">", false),
    ] {
        let input = wrapped(before, 0, N, after);
        let tokens = consistent(&input);
        let Html5libToken::StartTag { attributes, .. } = &tokens[0] else {
            panic!("{tokens:?}")
        };
        let (name, value) = &attributes[0];
        assert_eq!(
            *name,
            if name_nuls {
                format!("b{nul}")
            } else {
                "b".into()
            }
        );
        assert_eq!(*value, if name_nuls { "1".into() } else { nul.clone() });
        assert_eq!(errors_of(&input).len(), N, "{before:?}");
    }

    // 20,000 `<a b=1 `: one tag, never ended; with a `>` after it, one tag with two attributes.
    let unterminated = b"<a b=1 ".repeat(20_000);
    assert_eq!(consistent(&unterminated), []);
    let after_text = [&b"x"[..], &unterminated].concat();
    assert_eq!(consistent(&after_text), [text("x")]);
    let errors = errors_of(&unterminated);
    assert_eq!(errors.len(), 3 * 20_000 - 3);
    assert_eq!(errors.last().map(|e| e.code), Some(ErrorCode::EofInTag));
    let ended = [&unterminated[..], b">"].concat();
    let Html5libToken::StartTag { attributes, .. } = &consistent(&ended)[0] else {
        panic!()
    };
    let kept = [
        ("b".to_owned(), "1".to_owned()),
        ("<a".to_owned(), String::new()),
    ];
    assert_eq!(attributes, &kept);
}

/// Found by `cargo fuzz` (tokenize target): with errors off, the accelerated attribute path took a
/// name whose first byte is invalid UTF-8 for plain ASCII, so two names that both decode to U+FFFD
/// were both kept. The first wins, as with errors on.
#[test]
fn names_that_decode_alike_are_duplicates_with_errors_off_too() {
    for input in [
        &b"<a \x80 \x81>"[..],
        b"<a \xD5a=x \xF4a=y>",
        b"<a \x80\x80 \x81\x81>",
    ] {
        let tokens = consistent(input);
        let Html5libToken::StartTag { attributes, .. } = &tokens[0] else {
            panic!("{tokens:?}")
        };
        assert_eq!(attributes.len(), 1, "{input:?}: {attributes:?}");
    }
}

/// Past eight attributes a tag's repeats are found in batches (when the tag ends or the input
/// stops); their duplicate-attribute errors still come in stream order among the tag's other errors,
/// and the first of each name is kept, whole and chunked.
#[test]
fn many_attributes_with_repeats_keep_the_first_and_report_in_order() {
    let mut input = b"<p".to_vec();
    let mut expected_errors = Vec::new();
    let mut kept: Vec<(String, String)> = Vec::new();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for i in 0..3000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = if i < 20 { i } else { x % 1200 };
        let name = if x.is_multiple_of(5) {
            format!("N{k}")
        } else {
            format!("n{k}")
        };
        input.push(b' ');
        input.extend_from_slice(name.as_bytes());
        let name_end = input.len();
        let lower = name.to_ascii_lowercase();
        let repeat = kept.iter().any(|(n, _)| *n == lower);
        if repeat {
            expected_errors.push((ErrorCode::DuplicateAttribute, name_end));
        }
        let value = if x.is_multiple_of(7) {
            input.extend_from_slice(b"=\"a");
            expected_errors.push((ErrorCode::UnexpectedNullCharacter, input.len()));
            input.extend_from_slice(b"\0b\"");
            "a\u{FFFD}b".to_string()
        } else {
            input.extend_from_slice(format!("=v{i}").as_bytes());
            format!("v{i}")
        };
        if !repeat {
            kept.push((lower, value));
        }
    }
    input.push(b'>');
    let tokens = consistent(&input);
    let Html5libToken::StartTag { attributes, .. } = &tokens[0] else {
        panic!("{:?}", &tokens[..1])
    };
    assert_eq!(attributes, &kept);
    let errors: Vec<_> = run(&input, &Options::new().errors(true), None)
        .errors
        .iter()
        .map(|e| (e.code, e.offset))
        .collect();
    assert_eq!(errors, expected_errors);
}
