//! Processing instructions (HTML Standard since 2026-06-25, whatwg/html commit 320c05f).
//!
//! Two parts:
//!
//! - **The WPT tree tests** (`processing-instructions.dat`, vendored in `tests/data/wpt-parsing`, or
//!   from `$WPT_PARSING_DIR`). They are tree-construction
//!   tests, so the expected *tokens* are derived from each `#document`: its PI, comment and text
//!   nodes, in tree order, must be exactly the PI, comment and character tokens of the input (a
//!   minimal tree-builder feedback switches to script data / RAWTEXT / RCDATA after `<script>`,
//!   `<style>`, `<textarea>`, `<title>`), and the start tags must appear, in order, among the tree's
//!   elements (which also holds the implied `html`, `head`, `body`, `tbody`). Every case is also fed
//!   one byte at a time and split in two at every offset, and run in legacy mode, where each `<?` that
//!   is not inside text must become a bogus comment running from the `?` to the next `>`, with
//!   `unexpected-question-mark-instead-of-tag-name` at the `?`.
//!
//!   **Escapes.** As `SOURCE.txt` says, the WPT runner decodes `\t \n \r \f \uXXXX` in `#data`
//!   (a `\uD83D\uDE80` pair is one character). The same escapes are decoded in `#document` lines
//!   too: the one place they occur there, `<?something ?\t   ??>`, is the PI whose data is
//!   `?<TAB>   ?` (the input `<?something ?\t   ??>` has no backslash after decoding, so a literal
//!   backslash in the tree would be unreachable). The tree serializes a PI as `<?target data?>`
//!   with one space, or `<?target?>` when the data is empty; the data itself starts after the
//!   whitespace that follows the target, so `<?hey   there?>` and `<?hey\tthere=1?>` show one space.
//!
//! - **Hand-written cases** for the examples of processing-instructions.md and for the choices it
//!   leaves open, each with exact tokens, spans, error codes and positions (errors on), and each also
//!   checked under every two-chunk split and one byte at a time:
//!   U+0000 in PI data → U+FFFD and `unexpected-null-character` (as in comments); EOF anywhere in a
//!   PI → nothing emitted, `eof-in-processing-instruction` at the end; the target is kept as written
//!   (no lowercasing); `<?xml …?>` → the comment `?xml …?`.

mod common;

use common::data::data_file;
use common::{Outcome, Plan, merged_spans, run_cuts, run_whole, show};
use tagstream::html5lib::Html5libToken;
use tagstream::{ErrorCode, Options, ParseError, Span, TextKind, Token, Tokenizer};

// ---- the .dat file ------------------------------------------------------------------------------

/// One `#data` / `#document` case.
struct DatCase {
    /// 1-based line of `#data` in the file.
    line: usize,
    /// The input, escapes decoded.
    data: String,
    /// The tree's lines without their `| ` prefix, escapes decoded.
    document: Vec<String>,
}

/// Decode the WPT runner's escapes: `\t \n \r \f` and `\uXXXX` (surrogate pairs combined).
fn decode_escapes(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut pending_high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{000C}'),
            Some('u') => {
                chars.next();
                let hex: String = chars.by_ref().take(4).collect();
                let unit = u32::from_str_radix(&hex, 16).expect("\\u escape");
                if (0xD800..0xDC00).contains(&unit) {
                    pending_high = Some(unit);
                } else if (0xDC00..0xE000).contains(&unit) {
                    let high = pending_high.take().expect("low surrogate after a high one");
                    let cp = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
                    out.push(char::from_u32(cp).expect("valid pair"));
                } else {
                    out.push(char::from_u32(unit).expect("valid code point"));
                }
                continue;
            }
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    assert!(pending_high.is_none(), "unpaired high surrogate in {s:?}");
    out
}

fn parse_dat(text: &str) -> Vec<DatCase> {
    let mut cases = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "#data" {
            i += 1;
            continue;
        }
        let line = i + 1;
        i += 1;
        let mut data = Vec::new();
        while i < lines.len() && !lines[i].starts_with('#') {
            data.push(lines[i]);
            i += 1;
        }
        // Skip to #document (an #errors section, if any, is not used).
        while i < lines.len() && lines[i] != "#document" && lines[i] != "#data" {
            i += 1;
        }
        let mut document: Vec<String> = Vec::new();
        if i < lines.len() && lines[i] == "#document" {
            i += 1;
            while i < lines.len() && lines[i] != "#data" {
                let l = lines[i];
                if let Some(node) = l.strip_prefix("| ") {
                    document.push(decode_escapes(node));
                } else if !l.is_empty() {
                    // A text or comment node that spans lines.
                    let last = document.last_mut().expect("continuation line");
                    last.push('\n');
                    last.push_str(&decode_escapes(l));
                } else if i + 1 < lines.len() && !lines[i + 1].starts_with("#data") {
                    // An empty line inside a multi-line node.
                    if let Some(last) = document.last_mut() {
                        last.push('\n');
                    }
                }
                i += 1;
            }
        }
        cases.push(DatCase {
            line,
            data: decode_escapes(&data.join("\n")),
            document,
        });
    }
    cases
}

/// The leaves of a tree (PI, comment and text nodes in tree order) and the names of its elements.
fn tree_expectations(document: &[String]) -> (Vec<Html5libToken>, Vec<String>) {
    let mut leaves = Vec::new();
    let mut elements = Vec::new();
    for node in document {
        let node = node.trim_start_matches(' ');
        if let Some(inner) = node
            .strip_prefix("<!-- ")
            .and_then(|n| n.strip_suffix(" -->"))
        {
            leaves.push(Html5libToken::Comment(inner.to_owned()));
        } else if let Some(inner) = node.strip_prefix("<?").and_then(|n| n.strip_suffix("?>")) {
            let (target, data) = inner.split_once(' ').unwrap_or((inner, ""));
            leaves.push(Html5libToken::ProcessingInstruction {
                target: target.to_owned(),
                data: data.to_owned(),
            });
        } else if let Some(inner) = node.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
            leaves.push(Html5libToken::Character(inner.to_owned()));
        } else if node.starts_with("<!DOCTYPE") {
            // Not a leaf we compare; none in this file.
        } else if let Some(inner) = node.strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
            elements.push(inner.rsplit(' ').next().unwrap_or(inner).to_owned());
        }
        // `content` (template contents) and attribute lines are neither.
    }
    (leaves, elements)
}

fn is_leaf(t: &Html5libToken) -> bool {
    matches!(
        t,
        Html5libToken::Comment(_)
            | Html5libToken::Character(_)
            | Html5libToken::ProcessingInstruction { .. }
    )
}

/// Every token with its span (text not merged), for the legacy-mode check.
fn tokens_with_spans(
    input: &[u8],
    options: &Options,
) -> (Vec<(Span, Html5libToken)>, Vec<ParseError>) {
    // Switching by hand below: the bare tokenizer.
    let mut tokenizer = Tokenizer::new(options.clone().simulate(false));
    let mut out = Vec::new();
    let mut tokens = tokenizer.tokenize(input);
    while let Some(token) = tokens.next() {
        let mut one = Vec::new();
        tagstream::html5lib::push(&mut one, token);
        out.push((token.span(), one.pop().expect("one token")));
        if let Token::StartTag(tag) = token
            && let Some(state) = common::text_state_after(tag.name())
        {
            tokens.set_text_state(state);
        }
    }
    drop(tokens);
    (out, tokenizer.take_errors())
}

/// Comment data as the tokenizer produces it from raw bytes: CR/CRLF → LF, NUL → U+FFFD.
fn comment_data(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}")
}

const PI_CODES: &[ErrorCode] = &[
    ErrorCode::EofInProcessingInstruction,
    ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
    ErrorCode::DisallowedProcessingInstructionTarget,
    ErrorCode::InvalidProcessingInstructionTarget,
];

/// Check one .dat case; returns the failures found.
fn check_dat_case(case: &DatCase) -> Vec<String> {
    let mut failures = Vec::new();
    let input = case.data.as_bytes();
    let name = format!("line {}: {}", case.line, show(input));
    let (expected_leaves, elements) = tree_expectations(&case.document);

    // Default mode, whole.
    let plan = Plan::new(Options::new().errors(true)).feedback(true);
    let whole = run_whole(input, &plan);
    if !whole.violations.is_empty() {
        failures.push(format!("{name}: span violations {:?}", whole.violations));
    }
    let leaves: Vec<Html5libToken> = whole
        .tokens
        .iter()
        .filter(|t| is_leaf(t))
        .cloned()
        .collect();
    if leaves != expected_leaves {
        failures.push(format!(
            "{name}: tokens {leaves:?}\n    expected (from the tree) {expected_leaves:?}"
        ));
    }
    let start_tags: Vec<&str> = whole
        .tokens
        .iter()
        .filter_map(|t| match t {
            Html5libToken::StartTag { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let mut rest = elements.iter();
    if !start_tags.iter().all(|tag| rest.by_ref().any(|e| e == tag)) {
        failures.push(format!(
            "{name}: start tags {start_tags:?} are not in the tree's elements {elements:?} in order"
        ));
    }
    if let Some(e) = whole
        .errors
        .iter()
        .find(|e| e.code == ErrorCode::UnexpectedQuestionMarkInsteadOfTagName)
    {
        failures.push(format!("{name}: legacy error in default mode: {e:?}"));
    }

    // Default mode, chunked: one byte at a time and every two-chunk split.
    let mut chunkings: Vec<Vec<usize>> = vec![(1..input.len()).collect()];
    chunkings.extend((1..input.len()).map(|at| vec![at]));
    for cuts in &chunkings {
        let split = run_cuts(input, cuts, &plan);
        if split.tokens != whole.tokens || split.errors != whole.errors {
            failures.push(format!(
                "{name}: fed with cuts {cuts:?} gives {:?} / {:?}\n    whole gives {:?} / {:?}",
                split.tokens, split.errors, whole.tokens, whole.errors
            ));
            break;
        }
    }

    // Legacy mode: every `<?` outside text is a bogus comment up to the next `>`.
    let legacy_options = Options::new()
        .errors(true)
        .legacy_processing_instructions(true);
    let (legacy, legacy_errors) = tokens_with_spans(input, &legacy_options);
    if legacy
        .iter()
        .any(|(_, t)| matches!(t, Html5libToken::ProcessingInstruction { .. }))
    {
        failures.push(format!("{name}: legacy mode produced a PI: {legacy:?}"));
    }
    if let Some(e) = legacy_errors.iter().find(|e| PI_CODES.contains(&e.code)) {
        failures.push(format!("{name}: legacy mode reported a PI error: {e:?}"));
    }
    let default_text: Vec<Span> = whole
        .spans
        .iter()
        .filter(|s| s.kind == "text")
        .map(|s| s.span)
        .collect();
    for s in (0..input.len().saturating_sub(1)).filter(|&i| &input[i..i + 2] == b"<?") {
        let covers = |span: &Span| span.start <= s && s < span.end;
        if default_text.iter().any(covers) {
            if !legacy
                .iter()
                .any(|(span, t)| matches!(t, Html5libToken::Character(_)) && covers(span))
            {
                failures.push(format!(
                    "{name}: `<?` at {s} is text by default but not in legacy mode"
                ));
            }
            continue;
        }
        let gt = input[s + 2..]
            .iter()
            .position(|&c| c == b'>')
            .map(|i| s + 2 + i);
        let end = gt.map_or(input.len(), |g| g + 1);
        let data = comment_data(&input[s + 1..gt.unwrap_or(input.len())]);
        let want = (Span { start: s, end }, Html5libToken::Comment(data));
        if !legacy.contains(&want) {
            failures.push(format!(
                "{name}: legacy mode: expected {want:?} among {legacy:?}"
            ));
        }
        if !legacy_errors.iter().any(|e| {
            e.code == ErrorCode::UnexpectedQuestionMarkInsteadOfTagName && e.offset == s + 1
        }) {
            failures.push(format!(
                "{name}: legacy mode: no unexpected-question-mark-instead-of-tag-name at {} in {legacy_errors:?}",
                s + 1
            ));
        }
    }
    failures
}

#[test]
fn wpt_processing_instructions_dat() {
    let path = data_file(
        "WPT_PARSING_DIR",
        "wpt-parsing",
        "processing-instructions.dat",
    );
    let text = std::fs::read_to_string(&path).expect("read processing-instructions.dat");
    let cases = parse_dat(&text);
    assert_eq!(
        cases.len(),
        text.lines().filter(|l| *l == "#data").count(),
        "every #data parsed"
    );
    assert!(
        cases.len() >= 100,
        "only {} cases in {}",
        cases.len(),
        path.display()
    );
    let mut pis = 0;
    let mut failures = Vec::new();
    let mut failed = 0;
    for case in &cases {
        pis += tree_expectations(&case.document)
            .0
            .iter()
            .filter(|t| matches!(t, Html5libToken::ProcessingInstruction { .. }))
            .count();
        let found = check_dat_case(case);
        failed += usize::from(!found.is_empty());
        failures.extend(found);
    }
    assert!(
        pis >= 50,
        "the trees hold only {pis} PIs: is the parser right?"
    );
    assert!(
        failures.is_empty(),
        "{failed} of {} cases failed:\n{}",
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn escapes_are_decoded_like_the_wpt_runner() {
    assert_eq!(decode_escapes(r"<?hey\tthere=1?>"), "<?hey\tthere=1?>");
    assert_eq!(decode_escapes(r"a\nb\rc\fd"), "a\nb\rc\u{C}d");
    assert_eq!(decode_escapes(r"<?\u0665-star>"), "<?\u{665}-star>");
    assert_eq!(decode_escapes(r"\uD83D\uDE80-launch"), "\u{1F680}-launch");
    assert_eq!(decode_escapes(r"x\y"), r"x\y");
    let (leaves, elements) = tree_expectations(&[
        "<html>".into(),
        "  <body>".into(),
        "    <?something ?\t   ??>".into(),
        "    <?good?>".into(),
        "    <!-- ?  -->".into(),
        "    \" ?>\"".into(),
    ]);
    assert_eq!(elements, ["html", "body"]);
    assert_eq!(
        leaves,
        [
            pi("something", "?\t   ?"),
            pi("good", ""),
            comment("? "),
            text(" ?>")
        ]
    );
}

// ---- hand-written cases ---------------------------------------------------------------------------

fn pi(target: &str, data: &str) -> Html5libToken {
    Html5libToken::ProcessingInstruction {
        target: target.into(),
        data: data.into(),
    }
}

fn comment(data: &str) -> Html5libToken {
    Html5libToken::Comment(data.into())
}

fn text(data: &str) -> Html5libToken {
    Html5libToken::Character(data.into())
}

/// An expected error: code, byte offset, line, column.
type Err = (&'static str, usize, u64, u64);

fn errors_of(errors: &[ParseError]) -> Vec<(String, usize, u64, u64)> {
    errors
        .iter()
        .map(|e| {
            (
                e.code.as_str().to_owned(),
                e.offset,
                e.position.line,
                e.position.col,
            )
        })
        .collect()
}

/// Tokenize `input` (errors on; legacy PIs when `legacy`) and compare the tokens, their spans and the
/// errors; then check that every two-chunk split and one byte at a time give the same.
fn check(
    input: &[u8],
    legacy: bool,
    expected: &[(Html5libToken, std::ops::Range<usize>)],
    errors: &[Err],
) {
    let options = Options::new()
        .errors(true)
        .legacy_processing_instructions(legacy);
    let plan = Plan::new(options);
    let whole = run_whole(input, &plan);
    check_outcome(input, &whole, expected, errors, "whole");
    let mut chunkings: Vec<Vec<usize>> = vec![(1..input.len()).collect()];
    chunkings.extend((1..input.len()).map(|at| vec![at]));
    for cuts in chunkings {
        let split = run_cuts(input, &cuts, &plan);
        assert!(
            split.violations.is_empty(),
            "{}: {:?}",
            show(input),
            split.violations
        );
        assert_eq!(
            (&split.tokens, &split.errors),
            (&whole.tokens, &whole.errors),
            "{} fed with cuts {cuts:?}",
            show(input)
        );
        assert_eq!(
            merged_spans(&split.spans),
            merged_spans(&whole.spans),
            "{} fed with cuts {cuts:?}: spans",
            show(input)
        );
    }
}

fn check_outcome(
    input: &[u8],
    out: &Outcome,
    expected: &[(Html5libToken, std::ops::Range<usize>)],
    errors: &[Err],
    how: &str,
) {
    let name = show(input);
    assert!(out.violations.is_empty(), "{name}: {:?}", out.violations);
    let spans = merged_spans(&out.spans);
    assert_eq!(
        spans.len(),
        out.tokens.len(),
        "{name}: text tokens that do not touch"
    );
    let got: Vec<(Html5libToken, std::ops::Range<usize>)> = out
        .tokens
        .iter()
        .cloned()
        .zip(spans.iter().map(|s| s.span.range()))
        .collect();
    assert_eq!(got, expected, "{name} ({how}): tokens and spans");
    let want: Vec<(String, usize, u64, u64)> = errors
        .iter()
        .map(|&(c, o, l, col)| (c.to_owned(), o, l, col))
        .collect();
    assert_eq!(errors_of(&out.errors), want, "{name} ({how}): errors");
}

/// The one token of `input`, tokenized whole with errors on.
fn with_only_token(input: &[u8], f: impl FnOnce(Token<'_>)) {
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    assert_eq!(tokens.len(), 1, "{}: {tokens:?}", show(input));
    f(tokens[0]);
}

#[test]
fn spec_examples() {
    check(b"<?good?>", false, &[(pi("good", ""), 0..8)], &[]);
    check(b"<?hey?there>", false, &[(pi("hey", "?there"), 0..12)], &[]);
    check(
        b"<?something x >",
        false,
        &[(pi("something", "x "), 0..15)],
        &[],
    );
    check(
        b"<?t d > ?>",
        false,
        &[(pi("t", "d "), 0..7), (text(" ?>"), 7..10)],
        &[],
    );
    check(
        br#"<?xml version="1.0"?>"#,
        false,
        &[(comment(r#"?xml version="1.0"?"#), 0..21)],
        &[("disallowed-processing-instruction-target", 5, 1, 6)],
    );
    check(
        b"<? ",
        false,
        &[(comment("? "), 0..3)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        b"<?a$>",
        false,
        &[(comment("?a$"), 0..5)],
        &[("invalid-processing-instruction-target", 3, 1, 4)],
    );
}

#[test]
fn target_and_data_spans() {
    with_only_token(b"<?target \t\n data here?>", |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.target(), "target");
        assert_eq!(p.target_span(), Span { start: 2, end: 8 });
        // The data excludes the whitespace after the target and the final `?`.
        assert_eq!(p.data(), "data here");
        assert_eq!(p.raw_data(), b"data here");
        assert_eq!(p.data_span(), Span { start: 12, end: 21 });
        assert_eq!(p.span(), Span { start: 0, end: 23 });
    });
    with_only_token(b"<?good?>", |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.raw_data(), b"");
        assert!(p.data_span().is_empty());
        assert_eq!(p.target_span(), Span { start: 2, end: 6 });
    });
    // A `?` not before `>` belongs to the data; the final one does not.
    with_only_token(b"<?t a?b??>", |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.data(), "a?b?");
        assert_eq!(p.data_span(), Span { start: 4, end: 8 });
    });
}

#[test]
fn data_edge_cases() {
    check(b"<?t d??>", false, &[(pi("t", "d?"), 0..8)], &[]);
    check(b"<?t d?x?>", false, &[(pi("t", "d?x"), 0..9)], &[]);
    check(b"<?t ??>", false, &[(pi("t", "?"), 0..7)], &[]);
    check(b"<?t >", false, &[(pi("t", ""), 0..5)], &[]);
    check(b"<?t?>", false, &[(pi("t", ""), 0..5)], &[]);
    check(b"<?t>", false, &[(pi("t", ""), 0..4)], &[]);
    check(b"<?t d-->", false, &[(pi("t", "d--"), 0..8)], &[]);
    check(b"<?t a<b>", false, &[(pi("t", "a<b"), 0..8)], &[]);
    check(b"<?t &amp;?>", false, &[(pi("t", "&amp;"), 0..11)], &[]);
    check(
        b"<?t '>'?>",
        false,
        &[(pi("t", "'"), 0..6), (text("'?>"), 6..9)],
        &[],
    );
    check(
        b"<?a><?b c><?d?>",
        false,
        &[
            (pi("a", ""), 0..4),
            (pi("b", "c"), 4..10),
            (pi("d", ""), 10..15),
        ],
        &[],
    );
    check(
        "<?t é😀?>".as_bytes(),
        false,
        &[(pi("t", "é😀"), 0..12)],
        &[],
    );
}

#[test]
fn whitespace_after_the_target_is_skipped_and_newlines_normalized() {
    check(
        b"<?hey \t\n\x0C\r\n there?>",
        false,
        &[(pi("hey", "there"), 0..19)],
        &[],
    );
    check(
        b"<?hey\rthere=1?>",
        false,
        &[(pi("hey", "there=1"), 0..15)],
        &[],
    );
    check(
        b"<?a b\r\nc\rd?>",
        false,
        &[(pi("a", "b\nc\nd"), 0..12)],
        &[],
    );
    with_only_token(b"<?a b\r\nc\rd?>", |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.raw_data(), b"b\r\nc\rd");
    });
    // An error after the newlines is on line 2.
    check(
        b"<?hey \t\n\x0Cthere\0?>",
        false,
        &[(pi("hey", "there\u{FFFD}"), 0..17)],
        &[("unexpected-null-character", 14, 2, 7)],
    );
}

#[test]
fn nul_in_pi_data_is_replaced_with_an_error() {
    check(
        b"<?t a\0b?>",
        false,
        &[(pi("t", "a\u{FFFD}b"), 0..9)],
        &[("unexpected-null-character", 5, 1, 6)],
    );
    with_only_token(b"<?t a\0b?>", |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.raw_data(), b"a\0b");
        assert_eq!(p.data(), "a\u{FFFD}b");
    });
    check(
        b"<?t \0?>",
        false,
        &[(pi("t", "\u{FFFD}"), 0..7)],
        &[("unexpected-null-character", 4, 1, 5)],
    );
    // Just after a `?` (the questionable state reconsumes it in the data state).
    check(
        b"<?t ?\0?>",
        false,
        &[(pi("t", "?\u{FFFD}"), 0..8)],
        &[("unexpected-null-character", 5, 1, 6)],
    );
    check(
        b"<?t \0\0>",
        false,
        &[(pi("t", "\u{FFFD}\u{FFFD}"), 0..7)],
        &[
            ("unexpected-null-character", 4, 1, 5),
            ("unexpected-null-character", 5, 1, 6),
        ],
    );
    // In the target: not a target character, so a bogus comment, whose state replaces the NUL.
    check(
        b"<?a\0>",
        false,
        &[(comment("?a\u{FFFD}"), 0..5)],
        &[
            ("invalid-processing-instruction-target", 3, 1, 4),
            ("unexpected-null-character", 3, 1, 4),
        ],
    );
    check(
        b"<?\0>",
        false,
        &[(comment("?\u{FFFD}"), 0..4)],
        &[
            (
                "invalid-first-character-of-processing-instruction-target",
                2,
                1,
                3,
            ),
            ("unexpected-null-character", 2, 1, 3),
        ],
    );
}

#[test]
fn eof_in_a_pi_emits_nothing() {
    for input in [
        &b"<?"[..],
        b"<?start",
        b"<?start?",
        b"<?start ",
        b"<?start data",
        b"<?start ? ?",
        b"<?s d?",
        b"<?s-_9",
    ] {
        let len = input.len();
        check(
            input,
            false,
            &[],
            &[("eof-in-processing-instruction", len, 1, len as u64 + 1)],
        );
    }
    // After a newline: the end of input is at the start of line 2.
    check(
        b"<?s \r\n",
        false,
        &[],
        &[("eof-in-processing-instruction", 6, 2, 1)],
    );
    // A NUL is reported, then the end of input.
    check(
        b"<?s \0",
        false,
        &[],
        &[
            ("unexpected-null-character", 4, 1, 5),
            ("eof-in-processing-instruction", 5, 1, 6),
        ],
    );
    // The text before is still emitted; positions count lines and UTF-16 units.
    check(
        b"ab<?x y",
        false,
        &[(text("ab"), 0..2)],
        &[("eof-in-processing-instruction", 7, 1, 8)],
    );
    check(
        b"a\n<?x\ny",
        false,
        &[(text("a\n"), 0..2)],
        &[("eof-in-processing-instruction", 7, 3, 2)],
    );
    check(
        "😀<?x é".as_bytes(),
        false,
        &[(text("😀"), 0..4)],
        &[("eof-in-processing-instruction", 10, 1, 8)],
    );
}

#[test]
fn targets_keep_their_case() {
    check(
        b"<?XyZ-_9 DaTa?>",
        false,
        &[(pi("XyZ-_9", "DaTa"), 0..15)],
        &[],
    );
    let input = b"<?UPPER Case>";
    with_only_token(input, |t| {
        let Token::ProcessingInstruction(p) = t else {
            panic!("{t:?}")
        };
        assert_eq!(p.target(), "UPPER");
        // Unchanged, so borrowed from the input.
        assert!(std::ptr::eq(p.target().as_ptr(), input[2..].as_ptr()));
    });
}

#[test]
fn xml_and_xml_stylesheet_targets_are_comments() {
    check(
        b"<?xml?>",
        false,
        &[(comment("?xml?"), 0..7)],
        &[("disallowed-processing-instruction-target", 5, 1, 6)],
    );
    check(
        b"<?xml>",
        false,
        &[(comment("?xml"), 0..6)],
        &[("disallowed-processing-instruction-target", 5, 1, 6)],
    );
    check(
        b"<?XML\n?>",
        false,
        &[(comment("?XML\n?"), 0..8)],
        &[("disallowed-processing-instruction-target", 5, 1, 6)],
    );
    check(
        br#"<?Xml-StyleSheet href="a.css"?>"#,
        false,
        &[(comment(r#"?Xml-StyleSheet href="a.css"?"#), 0..31)],
        &[("disallowed-processing-instruction-target", 16, 1, 17)],
    );
    // Near misses are ordinary targets.
    for target in [
        "xmlx",
        "xm",
        "xml_",
        "xml-style",
        "xml-stylesheet-x",
        "x-xml",
        "xml-",
    ] {
        let input = format!("<?{target}?>");
        check(
            input.as_bytes(),
            false,
            &[(pi(target, ""), 0..input.len())],
            &[],
        );
    }
}

#[test]
fn invalid_targets_are_comments() {
    check(
        b"<?>",
        false,
        &[(comment("?"), 0..3)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        b"<?-x>",
        false,
        &[(comment("?-x"), 0..5)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        b"<?1st>",
        false,
        &[(comment("?1st"), 0..6)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        b"<??>",
        false,
        &[(comment("??"), 0..4)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        "<?é>".as_bytes(),
        false,
        &[(comment("?é"), 0..5)],
        &[(
            "invalid-first-character-of-processing-instruction-target",
            2,
            1,
            3,
        )],
    );
    check(
        "<?aé>".as_bytes(),
        false,
        &[(comment("?aé"), 0..6)],
        &[("invalid-processing-instruction-target", 3, 1, 4)],
    );
    check(
        b"<?a:b c?>",
        false,
        &[(comment("?a:b c?"), 0..9)],
        &[("invalid-processing-instruction-target", 3, 1, 4)],
    );
    // The bogus comment ends at the first `>`, even inside what looks like PI data.
    check(
        b"<?a.b ?> x>",
        false,
        &[(comment("?a.b ?"), 0..8), (text(" x>"), 8..11)],
        &[("invalid-processing-instruction-target", 3, 1, 4)],
    );
}

#[test]
fn control_characters_in_pi_data_are_input_stream_errors() {
    check(
        b"<?t \x01?>",
        false,
        &[(pi("t", "\x01"), 0..7)],
        &[("control-character-in-input-stream", 4, 1, 5)],
    );
}

#[test]
fn legacy_mode_makes_bogus_comments() {
    check(
        br#"<?xml version="1.0"?>"#,
        true,
        &[(comment(r#"?xml version="1.0"?"#), 0..21)],
        &[("unexpected-question-mark-instead-of-tag-name", 1, 1, 2)],
    );
    check(
        b"<?good?>",
        true,
        &[(comment("?good?"), 0..8)],
        &[("unexpected-question-mark-instead-of-tag-name", 1, 1, 2)],
    );
    check(
        b"<?t d > ?>",
        true,
        &[(comment("?t d "), 0..7), (text(" ?>"), 7..10)],
        &[("unexpected-question-mark-instead-of-tag-name", 1, 1, 2)],
    );
    // No eof-in-processing-instruction: a bogus comment at EOF is emitted without an error.
    check(
        b"<?",
        true,
        &[(comment("?"), 0..2)],
        &[("unexpected-question-mark-instead-of-tag-name", 1, 1, 2)],
    );
    check(
        b"<?start data",
        true,
        &[(comment("?start data"), 0..12)],
        &[("unexpected-question-mark-instead-of-tag-name", 1, 1, 2)],
    );
    check(
        b"<?a\0>",
        true,
        &[(comment("?a\u{FFFD}"), 0..5)],
        &[
            ("unexpected-question-mark-instead-of-tag-name", 1, 1, 2),
            ("unexpected-null-character", 3, 1, 4),
        ],
    );
}

#[test]
fn text_states_and_other_contexts_are_unaffected() {
    for kind in [
        TextKind::Rcdata,
        TextKind::Rawtext,
        TextKind::ScriptData,
        TextKind::Plaintext,
        TextKind::Cdata,
    ] {
        let options = Options::new()
            .simulate(false)
            .errors(true)
            .initial_state(kind);
        let mut tokenizer = Tokenizer::new(options);
        let tokens: Vec<(Html5libToken, TextKind)> = tokenizer
            .tokenize(b"<?x?>")
            .map(|t| {
                let Token::Text(text) = t else {
                    panic!("{kind:?}: {t:?}")
                };
                (Html5libToken::Character(text.text().into()), text.kind())
            })
            .collect();
        assert_eq!(tokens, [(text("<?x?>"), kind)], "{kind:?}");
        let errors = tokenizer.take_errors();
        assert!(
            errors.iter().all(|e| !PI_CODES.contains(&e.code)),
            "{kind:?}: {errors:?}"
        );
    }
    // With tree-builder feedback after the start tag.
    for (open, close) in [
        ("<script>", "</script>"),
        ("<style>", "</style>"),
        ("<title>", "</title>"),
        ("<textarea>", "</textarea>"),
    ] {
        let input = format!("{open}<?x y?>{close}");
        let out = run_whole(input.as_bytes(), &Plan::new(Options::new()).feedback(true));
        assert_eq!(out.tokens[1], text("<?x y?>"), "{input}");
        assert_eq!(out.tokens.len(), 3, "{input}: {:?}", out.tokens);
    }
    // Inside an attribute value and inside a comment.
    let out = run_whole(
        br#"<a title="<?x?>"><!--<?y?>-->"#,
        &Plan::new(Options::new()),
    );
    assert_eq!(
        out.tokens,
        [
            Html5libToken::StartTag {
                name: "a".into(),
                attributes: vec![("title".into(), "<?x?>".into())],
                self_closing: false,
            },
            comment("<?y?>"),
        ]
    );
}
