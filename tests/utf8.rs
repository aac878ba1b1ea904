//! Invalid UTF-8: every kind of bad sequence in every kind of token part.
//!
//! The rule is the WHATWG UTF-8 decoder's (and `String::from_utf8_lossy`'s): one U+FFFD per maximal
//! invalid subpart. So for any input, the decoded parts must equal the lossy decoding of their raw
//! bytes, the tokens must be exactly those of `from_utf8_lossy(input)`, and the errors must be the
//! same codes at the same lines and columns (columns count UTF-16 units, and each U+FFFD is one).
//! Raw accessors give the exact bytes, and the tokens do not depend on how the input is chunked.
//!
//! Under Miri, which runs the tests about a thousand times slower, each test checks a part of the
//! sequences in each context ([`checked_pair`]) and cuts inputs at fewer places.

mod common;

use common::{Plan, Rng, native_or_miri, proptest_cases, run_cuts, run_whole, show};
use tagstream::{Options, ParseError, TextKind, Token, Tokenizer};

/// Every kind of invalid sequence (and a few combinations).
const INVALID: &[(&str, &[u8])] = &[
    ("lone continuation 80", b"\x80"),
    ("lone continuation BF", b"\xBF"),
    ("two lone continuations", b"\x80\xBF"),
    ("truncated 2-byte C3", b"\xC3"),
    ("truncated 2-byte DF", b"\xDF"),
    ("truncated 3-byte E2", b"\xE2"),
    ("truncated 3-byte E2 82", b"\xE2\x82"),
    ("truncated 3-byte EF BF", b"\xEF\xBF"),
    ("truncated 4-byte F0", b"\xF0"),
    ("truncated 4-byte F0 9F", b"\xF0\x9F"),
    ("truncated 4-byte F0 9F 98", b"\xF0\x9F\x98"),
    ("truncated 4-byte F4 8F BF", b"\xF4\x8F\xBF"),
    ("overlong C0 80", b"\xC0\x80"),
    ("overlong C1 BF", b"\xC1\xBF"),
    ("overlong E0 80 80", b"\xE0\x80\x80"),
    ("overlong E0 9F BF", b"\xE0\x9F\xBF"),
    ("overlong F0 80 80 80", b"\xF0\x80\x80\x80"),
    ("overlong F0 8F BF BF", b"\xF0\x8F\xBF\xBF"),
    ("surrogate ED A0 80", b"\xED\xA0\x80"),
    ("surrogate ED BF BF", b"\xED\xBF\xBF"),
    ("above U+10FFFF F4 90 80 80", b"\xF4\x90\x80\x80"),
    ("F5", b"\xF5"),
    ("F5 80 80 80", b"\xF5\x80\x80\x80"),
    ("F8 88 80 80 80", b"\xF8\x88\x80\x80\x80"),
    ("FC 84 80 80 80 80", b"\xFC\x84\x80\x80\x80\x80"),
    ("FE", b"\xFE"),
    ("FF", b"\xFF"),
    ("FE FF", b"\xFE\xFF"),
    ("truncated 3-byte then valid 2-byte", b"\xE2\x82\xC3\xA9"),
    ("valid then lone continuation", b"\xC3\xA9\x80"),
    (
        "truncated 4-byte then valid 4-byte",
        b"\xF0\x9F\xF0\x9F\x98\x80",
    ),
    ("lead byte then ASCII", b"\xE2A"),
];

/// A token part's raw bytes and decoded string.
type Part = Option<(Vec<u8>, String)>;
type PartFn = fn(&[Token<'_>]) -> Part;

/// Every sequence of [`INVALID`], plus each byte F5–FF alone and before a continuation byte.
fn invalid_sequences() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = INVALID
        .iter()
        .map(|&(name, seq)| (name.to_owned(), seq.to_vec()))
        .collect();
    for b in 0xF5..=0xFF_u8 {
        all.push((format!("byte {b:02X}"), vec![b]));
        all.push((format!("byte {b:02X} then 80"), vec![b, 0x80]));
    }
    all
}

/// The contexts: a template with `{}` where `x<seq>y` goes (so the part is never empty), the
/// options, and how to get the part's raw bytes and decoded string from the tokens.
struct Context {
    name: &'static str,
    template: &'static str,
    kind: TextKind,
    cdata: bool,
    part: PartFn,
    /// The part is a name (decoded lowercase).
    lower: bool,
    /// The sequence ends the input (`x<seq>`, no `y`).
    at_end: bool,
    /// What the part holds before `x<seq>y` and after it (template text inside the part).
    prefix: &'static str,
    extra: &'static str,
}

fn text_part(tokens: &[Token<'_>]) -> Part {
    let mut raw = Vec::new();
    let mut text = String::new();
    for t in tokens {
        if let Token::Text(t) = t {
            raw.extend_from_slice(t.raw());
            text.push_str(t.text());
        }
    }
    (!raw.is_empty()).then_some((raw, text))
}

fn attr_value(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::StartTag(tag) => tag
            .attributes()
            .next()
            .map(|a| (a.raw_value().to_vec(), a.value().to_owned())),
        _ => None,
    })
}

fn attr_name(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::StartTag(tag) => tag
            .attributes()
            .next()
            .map(|a| (a.raw_name().to_vec(), a.name().to_owned())),
        _ => None,
    })
}

fn start_tag_name(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::StartTag(tag) => Some((tag.raw_name().to_vec(), tag.name().to_owned())),
        _ => None,
    })
}

fn end_tag_name(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::EndTag(tag) => Some((tag.raw_name().to_vec(), tag.name().to_owned())),
        _ => None,
    })
}

fn comment_data(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::Comment(c) => Some((c.raw_data().to_vec(), c.data().to_owned())),
        _ => None,
    })
}

fn doctype_name(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::Doctype(d) => {
            let span = d.name_span()?;
            let raw = &t.raw()[span.start - t.span().start..span.end - t.span().start];
            Some((raw.to_vec(), d.name()?.to_owned()))
        }
        _ => None,
    })
}

fn doctype_public(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::Doctype(d) => {
            let span = d.public_id_span()?;
            let raw = &t.raw()[span.start - t.span().start..span.end - t.span().start];
            Some((raw.to_vec(), d.public_id()?.to_owned()))
        }
        _ => None,
    })
}

fn pi_data(tokens: &[Token<'_>]) -> Part {
    tokens.iter().find_map(|t| match t {
        Token::ProcessingInstruction(p) => Some((p.raw_data().to_vec(), p.data().to_owned())),
        _ => None,
    })
}

const fn ctx(name: &'static str, template: &'static str, part: PartFn) -> Context {
    Context {
        name,
        template,
        kind: TextKind::Data,
        cdata: false,
        part,
        lower: false,
        at_end: false,
        prefix: "",
        extra: "",
    }
}

const fn in_state(name: &'static str, template: &'static str, kind: TextKind) -> Context {
    Context {
        name,
        template,
        kind,
        cdata: false,
        part: text_part,
        lower: false,
        at_end: false,
        prefix: "",
        extra: "",
    }
}

const CONTEXTS: &[Context] = &[
    ctx("text", "{}", text_part),
    ctx("text between tags", "<p>{}</p>", text_part),
    Context {
        at_end: true,
        ..ctx("text at the end of input", "{}", text_part)
    },
    ctx(
        "double-quoted attribute value",
        "<a title=\"{}\">",
        attr_value,
    ),
    ctx(
        "single-quoted attribute value",
        "<a title='{}'>",
        attr_value,
    ),
    ctx("unquoted attribute value", "<a title={}>", attr_value),
    Context {
        extra: "&amp;&#xE9;",
        ..ctx(
            "quoted attribute value with references",
            "<a title=\"{}&amp;&#xE9;\">",
            attr_value,
        )
    },
    Context {
        extra: "&lt;",
        ..ctx("text with a reference", "<b>{}&lt;</b>", text_part)
    },
    Context {
        lower: true,
        ..ctx("attribute name", "<a {}=1>", attr_name)
    },
    Context {
        lower: true,
        ..ctx("start tag name", "<{}>", start_tag_name)
    },
    Context {
        lower: true,
        ..ctx("end tag name", "</{}>", end_tag_name)
    },
    ctx("comment", "<!--{}-->", comment_data),
    Context {
        at_end: true,
        ..ctx("comment at the end of input", "<!--{}", comment_data)
    },
    ctx("bogus comment", "<!{}>", comment_data),
    Context {
        lower: true,
        ..ctx("doctype name", "<!DOCTYPE {}>", doctype_name)
    },
    ctx(
        "doctype public id",
        "<!DOCTYPE html PUBLIC \"{}\">",
        doctype_public,
    ),
    ctx("processing instruction data", "<?t {}?>", pi_data),
    in_state("RCDATA", "{}</title>", TextKind::Rcdata),
    in_state("RAWTEXT", "{}</style>", TextKind::Rawtext),
    in_state("script data", "{}</script>", TextKind::ScriptData),
    Context {
        prefix: "<!--",
        extra: "-->",
        ..in_state(
            "script data escaped",
            "<!--{}--></script>",
            TextKind::ScriptData,
        )
    },
    in_state("PLAINTEXT", "{}", TextKind::Plaintext),
    Context {
        cdata: true,
        ..in_state("CDATA section", "<![CDATA[{}]]>", TextKind::Data)
    },
    in_state("CDATA state", "{}]]>", TextKind::Cdata),
];

impl Context {
    fn input(&self, seq: &[u8]) -> Vec<u8> {
        let (before, after) = self.template.split_once("{}").expect("template");
        let y: &[u8] = if self.at_end { b"" } else { b"y" };
        [before.as_bytes(), b"x", seq, y, after.as_bytes()].concat()
    }

    /// The part's expected raw bytes.
    fn part(&self, seq: &[u8]) -> Vec<u8> {
        let y: &[u8] = if self.at_end { b"" } else { b"y" };
        [self.prefix.as_bytes(), b"x", seq, y, self.extra.as_bytes()].concat()
    }

    fn options(&self) -> Options {
        let options = Options::new()
            .simulate(false)
            .errors(true)
            .initial_state(self.kind)
            .cdata_allowed(self.cdata);
        match self.kind {
            TextKind::Rcdata => options.last_start_tag("title"),
            TextKind::Rawtext => options.last_start_tag("style"),
            TextKind::ScriptData => options.last_start_tag("script"),
            _ => options,
        }
    }
}

/// Whether a test checks the `i`th context with the `j`th sequence of [`invalid_sequences`]: always
/// natively; under Miri when `i + j` is a multiple of 24, the number of contexts, so that every
/// sequence occurs in one context and every context with two or three sequences.
fn checked_pair(i: usize, j: usize) -> bool {
    !cfg!(miri) || (i + j).is_multiple_of(CONTEXTS.len())
}

/// (code, line, column) of each error: what must not change when invalid bytes become U+FFFD.
fn codes_and_positions(errors: &[ParseError]) -> Vec<(String, u64, u64)> {
    errors
        .iter()
        .map(|e| (e.code.to_string(), e.position.line, e.position.col))
        .collect()
}

#[test]
fn decoded_parts_follow_the_maximal_subpart_rule() {
    let mut checked = 0;
    for (i, context) in CONTEXTS.iter().enumerate() {
        for (j, (seq_name, seq)) in invalid_sequences().iter().enumerate() {
            if !checked_pair(i, j) {
                continue;
            }
            let input = context.input(seq);
            let what = format!("{seq_name} in {}: {}", context.name, show(&input));
            let mut tokenizer = Tokenizer::new(context.options());
            let tokens: Vec<Token<'_>> = tokenizer.tokenize(&input).collect();
            let (raw, decoded) = (context.part)(&tokens)
                .unwrap_or_else(|| panic!("{what}: part not found in {tokens:?}"));
            assert_eq!(raw, context.part(seq), "{what}: raw bytes");
            let mut lossy = String::from_utf8_lossy(&raw)
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&#xE9;", "é");
            if context.lower {
                lossy.make_ascii_lowercase();
            }
            assert_eq!(decoded, lossy, "{what}: decoded");
            let replacements = decoded.matches('\u{FFFD}').count();
            assert!(replacements >= 1, "{what}: no U+FFFD in {decoded:?}");
            drop(tokens);
            assert_eq!(
                tokenizer.is_valid_utf8(),
                Some(false),
                "{what}: reported valid"
            );
            checked += 1;
        }
    }
    // Every pair; under Miri, one for each sequence.
    let sequences = invalid_sequences().len();
    assert_eq!(
        checked,
        native_or_miri(CONTEXTS.len() * sequences, sequences)
    );
}

#[test]
fn tokens_and_error_positions_equal_those_of_the_lossy_input() {
    for (i, context) in CONTEXTS.iter().enumerate() {
        for (j, (seq_name, seq)) in invalid_sequences().iter().enumerate() {
            if !checked_pair(i, j) {
                continue;
            }
            let input = context.input(seq);
            let lossy = String::from_utf8_lossy(&input).into_owned();
            let what = format!("{seq_name} in {}: {}", context.name, show(&input));
            let plan = Plan::new(context.options());
            let bad = run_whole(&input, &plan);
            let good = run_whole(lossy.as_bytes(), &plan);
            assert!(bad.violations.is_empty(), "{what}: {:?}", bad.violations);
            assert_eq!(bad.tokens, good.tokens, "{what}: tokens");
            assert_eq!(
                codes_and_positions(&bad.errors),
                codes_and_positions(&good.errors),
                "{what}: errors"
            );
            assert_eq!(bad.valid_utf8, Some(false), "{what}");
            assert_eq!(good.valid_utf8, Some(true), "{what} (lossy)");
        }
    }
}

#[test]
fn every_split_and_byte_at_a_time_gives_the_same_tokens() {
    let mut rng = Rng::new(0x5EED_0008);
    let random = proptest_cases(4, 1);
    for (i, context) in CONTEXTS.iter().enumerate() {
        for (j, (seq_name, seq)) in invalid_sequences().iter().enumerate() {
            if !checked_pair(i, j) {
                continue;
            }
            let input = context.input(seq);
            let what = format!("{seq_name} in {}: {}", context.name, show(&input));
            let plan = Plan::new(context.options());
            let whole = run_whole(&input, &plan);
            let mut chunkings: Vec<Vec<usize>> = vec![(1..input.len()).collect()];
            // A cut at every offset (under Miri, every tenth).
            let cuts = (1..input.len()).step_by(native_or_miri(1, 10));
            chunkings.extend(cuts.map(|at| vec![at]));
            for _ in 0..random {
                let mut cuts: Vec<usize> = (0..3).map(|_| rng.range(1, input.len() - 1)).collect();
                cuts.sort_unstable();
                cuts.dedup();
                chunkings.push(cuts);
            }
            for cuts in chunkings {
                let split = run_cuts(&input, &cuts, &plan);
                assert!(
                    split.violations.is_empty(),
                    "{what}: {:?}",
                    split.violations
                );
                assert_eq!(split.tokens, whole.tokens, "{what}: cuts {cuts:?}");
                assert_eq!(split.errors, whole.errors, "{what}: cuts {cuts:?}: errors");
                assert_eq!(split.valid_utf8, Some(false), "{what}: cuts {cuts:?}");
            }
        }
    }
}

/// Valid text with characters of every length, in every context, split everywhere: never a U+FFFD.
#[test]
fn valid_multibyte_characters_split_across_chunks_decode_intact() {
    let chars = "aé€😀b";
    let inputs: Vec<String> = [
        "{}",
        "<p title=\"{}\" {}=x>{}</p>",
        "<a data-{}={}>",
        "<!--{}-->",
        "<?t {}?>",
        "<!DOCTYPE {} PUBLIC '{}' '{}'>",
        "<{}>{}</{}>",
    ]
    .iter()
    .map(|t| t.replace("{}", chars))
    .collect();
    for input in &inputs {
        let input = input.as_bytes();
        let plan = Plan::new(Options::new().errors(true));
        let whole = run_whole(input, &plan);
        assert_eq!(whole.valid_utf8, Some(true));
        assert!(
            !format!("{:?}", whole.tokens).contains('\u{FFFD}'),
            "{}: {:?}",
            show(input),
            whole.tokens
        );
        // Split at every offset (under Miri, every twelfth).
        for at in (1..input.len()).step_by(native_or_miri(1, 12)) {
            for cuts in [vec![at], (at..input.len()).step_by(1).collect()] {
                let split = run_cuts(input, &cuts, &plan);
                assert_eq!(split.tokens, whole.tokens, "{}: cuts {cuts:?}", show(input));
                assert_eq!(split.errors, whole.errors, "{}: cuts {cuts:?}", show(input));
                assert_eq!(
                    split.valid_utf8,
                    Some(true),
                    "{}: cuts {cuts:?}",
                    show(input)
                );
            }
            // Each text token on its own (before merging) holds whole characters.
            let mut tokenizer = Tokenizer::new(Options::new());
            let mut pieces = Vec::new();
            for chunk in [&input[..at], &input[at..]] {
                for t in tokenizer.feed(chunk) {
                    if let Token::Text(t) = t {
                        pieces.push(t.text().to_owned());
                    }
                }
            }
            for t in tokenizer.finish() {
                if let Token::Text(t) = t {
                    pieces.push(t.text().to_owned());
                }
            }
            assert!(
                pieces.iter().all(|p| !p.contains('\u{FFFD}')),
                "{} split at {at}: {pieces:?}",
                show(input)
            );
        }
    }
}

#[test]
fn is_valid_utf8_tracks_the_whole_stream() {
    let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    assert_eq!(tokenizer.tokenize("plain é€😀".as_bytes()).count(), 1);
    assert_eq!(tokenizer.is_valid_utf8(), Some(true));
    assert_eq!(tokenizer.tokenize(b"bad \xFF").count(), 1);
    assert_eq!(tokenizer.is_valid_utf8(), Some(false));
    // `tokenize` starts over.
    assert_eq!(tokenizer.tokenize(b"good again").count(), 1);
    assert_eq!(tokenizer.is_valid_utf8(), Some(true));

    // A character split across three feeds.
    let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    let mut text = String::new();
    for chunk in [&b"a\xF0"[..], b"\x9F\x98", b"\x80b"] {
        for t in tokenizer.feed(chunk) {
            if let Token::Text(t) = t {
                text.push_str(t.text());
            }
        }
    }
    assert_eq!(
        tokenizer.is_valid_utf8(),
        Some(true),
        "every byte fed so far is valid"
    );
    for t in tokenizer.finish() {
        if let Token::Text(t) = t {
            text.push_str(t.text());
        }
    }
    assert_eq!(text, "a😀b");
    assert_eq!(tokenizer.is_valid_utf8(), Some(true));

    // An invalid byte is known at once.
    let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    tokenizer.feed(b"ok").for_each(drop);
    assert_eq!(tokenizer.is_valid_utf8(), Some(true));
    tokenizer.feed(b"\xFF").for_each(drop);
    assert_eq!(tokenizer.is_valid_utf8(), Some(false));
    tokenizer.feed(b"fine again").for_each(drop);
    tokenizer.finish().for_each(drop);
    assert_eq!(
        tokenizer.is_valid_utf8(),
        Some(false),
        "invalid once, invalid for good"
    );

    // A sequence cut short by the end of the stream.
    let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    tokenizer.feed(b"a\xE2\x82").for_each(drop);
    let tail: Vec<String> = tokenizer
        .finish()
        .filter_map(|t| match t {
            Token::Text(t) => Some(t.text().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(tokenizer.is_valid_utf8(), Some(false));
    assert_eq!(tail.concat().chars().last(), Some('\u{FFFD}'));

    // A sequence cut short by the next feed's ASCII.
    let mut tokenizer = Tokenizer::new(Options::new().validate_utf8(true));
    tokenizer.feed(b"a\xE2\x82").for_each(drop);
    tokenizer.feed(b"b").for_each(drop);
    assert_eq!(tokenizer.is_valid_utf8(), Some(false));
}

/// Expected errors: (code, offset, line, column).
fn check_errors(input: &[u8], options: Options, want: &[(&str, usize, u64, u64)]) {
    let plan = Plan::new(options);
    let whole = run_whole(input, &plan);
    let got: Vec<(String, usize, u64, u64)> = whole
        .errors
        .iter()
        .map(|e| {
            (
                e.code.to_string(),
                e.offset,
                e.position.line,
                e.position.col,
            )
        })
        .collect();
    let want: Vec<(String, usize, u64, u64)> = want
        .iter()
        .map(|&(c, o, l, col)| (c.to_owned(), o, l, col))
        .collect();
    assert_eq!(got, want, "{}", show(input));
    // Split at every offset (under Miri, every third).
    for at in (1..input.len()).step_by(native_or_miri(1, 3)) {
        let split = run_cuts(input, &[at], &plan);
        assert_eq!(split.errors, whole.errors, "{} split at {at}", show(input));
    }
    let bytes = run_cuts(input, &(1..input.len()).collect::<Vec<_>>(), &plan);
    assert_eq!(bytes.errors, whole.errors, "{} byte at a time", show(input));
}

#[test]
fn error_columns_count_utf16_units_and_one_per_invalid_subpart() {
    let on = || Options::new().errors(true);
    let nul = "unexpected-null-character";
    check_errors("é\0".as_bytes(), on(), &[(nul, 2, 1, 2)]);
    check_errors("€\0".as_bytes(), on(), &[(nul, 3, 1, 2)]);
    check_errors("😀\0".as_bytes(), on(), &[(nul, 4, 1, 3)]);
    check_errors("😀😀\0".as_bytes(), on(), &[(nul, 8, 1, 5)]);
    check_errors("a😀é€\0".as_bytes(), on(), &[(nul, 10, 1, 6)]);
    check_errors("😀\n😀\0".as_bytes(), on(), &[(nul, 9, 2, 3)]);
    check_errors("😀\r\n😀\0".as_bytes(), on(), &[(nul, 10, 2, 3)]);
    // Invalid bytes: one column per maximal invalid subpart.
    check_errors(b"\xFF\0", on(), &[(nul, 1, 1, 2)]);
    check_errors(b"\xFE\xFF\0", on(), &[(nul, 2, 1, 3)]);
    check_errors(b"\xF0\x9F\x98\0", on(), &[(nul, 3, 1, 2)]);
    check_errors(b"\xE2\x82\0", on(), &[(nul, 2, 1, 2)]);
    check_errors(b"\xC0\x80\0", on(), &[(nul, 2, 1, 3)]);
    check_errors(b"\xED\xA0\x80\0", on(), &[(nul, 3, 1, 4)]);
    check_errors(b"\xF4\x90\x80\x80\0", on(), &[(nul, 4, 1, 5)]);
    check_errors(b"\xF0\x9F\xF0\x9F\x98\x80\0", on(), &[(nul, 6, 1, 4)]);
    check_errors(b"\xE2\x82\n\xFF\0", on(), &[(nul, 4, 2, 2)]);
    // Input-stream errors after astral and invalid characters.
    check_errors(
        "😀\x01".as_bytes(),
        on(),
        &[("control-character-in-input-stream", 4, 1, 3)],
    );
    check_errors(
        b"\xFF\xEF\xBF\xBE",
        on(),
        &[("noncharacter-in-input-stream", 1, 1, 2)],
    );
    // Decoding errors are not parse errors: a surrogate's bytes are three U+FFFD, not a surrogate.
    check_errors(b"\xED\xA0\x80", on(), &[]);
    // End-of-file errors after a cut-short sequence: the U+FFFD takes its column.
    check_errors(b"<a b=\"\xE2\x82", on(), &[("eof-in-tag", 8, 1, 8)]);
    check_errors("<a b=\"😀".as_bytes(), on(), &[("eof-in-tag", 10, 1, 9)]);
    check_errors(b"<!--\xF0\x9F\x98", on(), &[("eof-in-comment", 7, 1, 6)]);
    // A tag-name error right after an astral character.
    check_errors(
        "😀<😀>".as_bytes(),
        on(),
        &[("invalid-first-character-of-tag-name", 5, 1, 4)],
    );
}

#[test]
fn invalid_bytes_in_a_long_document_at_random_places() {
    let mut rng = Rng::new(0x0BAD_F00D);
    let invalid = invalid_sequences();
    let pieces: &[&[u8]] = &[
        b"<p class=\"a\">",
        b"text ",
        b"</p>",
        b"<!-- c -->",
        b"&amp;",
        "é€😀".as_bytes(),
        b"<a href=x title='y'>",
        b"<?pi d?>",
        b"\r\n",
    ];
    for _ in 0..proptest_cases(200, 5) {
        let mut input = Vec::new();
        for _ in 0..rng.range(1, 30) {
            if rng.chance(1, 4) {
                input.extend_from_slice(&rng.pick(&invalid).1);
            } else {
                input.extend_from_slice(rng.pick::<&[u8]>(pieces));
            }
        }
        let plan = Plan::new(Options::new().errors(true));
        let whole = run_whole(&input, &plan);
        let lossy = String::from_utf8_lossy(&input).into_owned();
        let good = run_whole(lossy.as_bytes(), &plan);
        assert_eq!(whole.tokens, good.tokens, "{}", show(&input));
        assert_eq!(
            codes_and_positions(&whole.errors),
            codes_and_positions(&good.errors),
            "{}",
            show(&input)
        );
        assert_eq!(whole.valid_utf8, Some(std::str::from_utf8(&input).is_ok()));
        let cuts = common::random_cuts(&mut rng, input.len());
        let split = run_cuts(&input, &cuts, &plan);
        assert_eq!(split.tokens, whole.tokens, "{} cuts {cuts:?}", show(&input));
        assert_eq!(split.errors, whole.errors, "{} cuts {cuts:?}", show(&input));
        assert!(split.violations.is_empty(), "{:?}", split.violations);
    }
}
