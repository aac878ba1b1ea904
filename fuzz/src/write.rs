//! Target `write`: the rewriter and the serializer (src/write/) on any bytes. The case's header
//! gives the chunking and the simulator flag (see [`crate::case`]); the document is HTML, and
//! XML5 for the rewriter too.
//!
//! Checked: no panic; a rewrite that changes nothing gives the input, byte for byte, under the
//! case's chunking, also through a transcoder in an encoding the case picks (the input's own
//! bytes written back); a rewrite whose decisions (derived from the document's bytes) pass, discard,
//! replace or insert around tokens gives exactly the splice of the input they describe, and one
//! that also edits tags, inserts text and removes or unwraps elements never panics and writes only
//! what reads back (a refused change leaves the token undecided); a serialization of the
//! document's tokens that the serializer accepts tokenizes back to the same tokens (html5lib
//! shapes, simulator on), and serializing that output again gives the same bytes.

use tagstream::encoding::{DecodedTokens, Transcoder};
use tagstream::html5lib::{Html5libToken, push};
use tagstream::write::{Markup, Rewrite, Rewriter, Serializer, SerializerOptions};
use tagstream::{Options, Token, Tokenizer, xml5};

use crate::case::Case;
use crate::drive::same_list;

/// The target: see the module docs.
pub fn write(case: &Case) {
    for xml in [false, true] {
        let unchanged = rewrite(case, xml, |_, _, _| {});
        assert!(
            unchanged.0 == case.data,
            "xml {xml}: a rewrite with no change differs from the input"
        );
        let (out, expected) = rewrite(case, xml, splice);
        assert!(
            out == expected,
            "xml {xml}: the output is not the splice of the input"
        );
        rewrite(case, xml, edit);
    }
    decoded(case);
    round_trip(case);
}

/// A decision for one token (its index, the input): writes into the splice it must give.
type Decide = fn(usize, &[u8], &mut Step<'_>);

/// The decisions a [`Decide`] can take, over either dialect's rewrite.
pub struct Step<'a> {
    token: Token<'a>,
    actions: Vec<Action>,
    expected: &'a mut Vec<u8>,
}

enum Action {
    Discard,
    ReplaceHtml(&'static str),
    BeforeHtml(&'static str),
    AfterHtml(&'static str),
    Text(&'static str),
    SetAttribute(&'static str, &'static str),
    SelfClosing,
    Remove,
    Unwrap,
}

/// Rewrite the case's document (HTML, or XML5) fed in its chunks, deciding with `decide`;
/// returns the output and the splice the decisions describe.
fn rewrite(case: &Case, xml: bool, decide: Decide) -> (Vec<u8>, Vec<u8>) {
    let options = Options::new().lossless(true).simulate(case.config.simulate);
    let mut rewriter = Rewriter::new(Vec::new());
    let mut expected = Vec::new();
    let mut index = 0;
    let data = &case.data;
    // The same feeds for either dialect's tokenizer (a closure cannot be generic over both).
    macro_rules! drive {
        ($tokenizer:expr) => {{
            let mut tokenizer = $tokenizer;
            for (start, end) in case.cuts() {
                let tokens = rewriter.rewrite(tokenizer.feed(&data[start..end]));
                run(tokens, data, &mut index, &mut expected, decide);
            }
            let tokens = rewriter.rewrite(tokenizer.finish());
            run(tokens, data, &mut index, &mut expected, decide);
        }};
    }
    if xml {
        drive!(xml5::Tokenizer::new(options));
    } else {
        drive!(Tokenizer::new(options));
    }
    (
        rewriter.finish().expect("a Vec takes every write"),
        expected,
    )
}

fn run<'t, T: Markup<'t>>(
    mut rewrite: Rewrite<'_, 't, Vec<u8>, T>,
    data: &[u8],
    index: &mut usize,
    expected: &mut Vec<u8>,
    decide: Decide,
) {
    // Some tokens are not wanted (by where they start): they are passed as they are. (Decoded
    // tokens' spans are not offsets in `data`; their splice is not checked.)
    let wanted = |token: &Token<'_>, expected: &mut Vec<u8>| {
        let span = token.span();
        let wanted = !pick(span.start, data).is_multiple_of(4);
        if !wanted && let Some(raw) = data.get(span.range()) {
            expected.extend_from_slice(raw);
        }
        wanted
    };
    while let Some(token) = rewrite
        .next_where(|token| wanted(token, expected))
        .expect("a Vec takes every write")
    {
        let mut step = Step {
            token,
            actions: Vec::new(),
            expected,
        };
        decide(*index, data, &mut step);
        *index += 1;
        for action in step.actions {
            // Refusals are allowed (they leave the token undecided); panics are not.
            let _ = match action {
                Action::Discard => {
                    rewrite.discard();
                    Ok(())
                }
                Action::ReplaceHtml(html) => rewrite.replace_html(html),
                Action::BeforeHtml(html) => rewrite.insert_before_html(html),
                Action::AfterHtml(html) => {
                    rewrite.insert_after_html(html);
                    Ok(())
                }
                Action::Text(text) => rewrite
                    .insert_before_text(text)
                    .and_then(|()| rewrite.insert_after_text(text)),
                Action::SetAttribute(name, value) => rewrite.edit().and_then(|mut e| {
                    e.set_attribute(name, value)
                        .rename_attribute("id", "x-id")
                        .apply()
                }),
                Action::SelfClosing => rewrite
                    .edit()
                    .and_then(|mut e| e.self_closing(true).apply()),
                Action::Remove => rewrite.remove_element(),
                Action::Unwrap => rewrite.unwrap_element(),
            };
        }
    }
}

/// The document in an encoding the case's first byte picks, through a transcoder: a rewrite
/// that changes nothing writes the input back byte for byte; one that edits never panics.
fn decoded(case: &Case) {
    const LABELS: [&str; 8] = [
        "windows-1252",
        "shift_jis",
        "utf-16le",
        "utf-16be",
        "iso-2022-jp",
        "euc-kr",
        "gb18030",
        "big5",
    ];
    let data = &case.data;
    let label = data.first().map(|&b| LABELS[usize::from(b) % LABELS.len()]);
    for decide in [None, Some(edit as Decide)] {
        let options = Options::new().lossless(true).simulate(case.config.simulate);
        let mut transcoder = Transcoder::new(options)
            .map_offsets(true)
            .transport_label(label.unwrap_or("utf-8"));
        let mut rewriter = Rewriter::new(Vec::new());
        let (mut index, mut expected) = (0, Vec::new());
        for (start, end) in case.cuts() {
            let tokens = rewriter.rewrite(transcoder.feed(&data[start..end]));
            run_decoded(tokens, data, &mut index, &mut expected, decide);
        }
        let tokens = rewriter.rewrite(transcoder.finish());
        run_decoded(tokens, data, &mut index, &mut expected, decide);
        let out = rewriter
            .finish()
            .expect("a Vec takes every write, offsets are mapped");
        if decide.is_none() {
            assert!(
                out == *data,
                "{label:?}: a rewrite of decoded tokens with no change differs from the input"
            );
        }
    }
}

/// [`run`] for decoded tokens: every token handed out, decided by `decide` if any.
fn run_decoded<'t>(
    mut rewrite: Rewrite<'_, 't, Vec<u8>, DecodedTokens<'t>>,
    data: &[u8],
    index: &mut usize,
    expected: &mut Vec<u8>,
    decide: Option<Decide>,
) {
    let Some(decide) = decide else {
        while rewrite.next().expect("offsets are mapped").is_some() {}
        return;
    };
    run(rewrite, data, index, expected, decide);
}

/// A byte of the document, picked by the token's index: the fuzzer steers the decisions.
fn pick(index: usize, data: &[u8]) -> u8 {
    data.get(index.wrapping_mul(7) % data.len().max(1))
        .copied()
        .unwrap_or(0)
        ^ index as u8
}

/// Pass, discard, replace or insert HTML around the token; record the splice.
fn splice(index: usize, data: &[u8], step: &mut Step<'_>) {
    let raw = &data[step.token.span().range()];
    match pick(index, data) % 6 {
        0 => step.actions.push(Action::Discard),
        1 => {
            step.actions.push(Action::ReplaceHtml("<r>"));
            step.expected.extend_from_slice(b"<r>");
        }
        2 => {
            step.actions.push(Action::BeforeHtml("[b]"));
            step.expected.extend_from_slice(b"[b]");
            step.expected.extend_from_slice(raw);
        }
        3 => {
            step.actions.push(Action::AfterHtml("[a]"));
            step.expected.extend_from_slice(raw);
            step.expected.extend_from_slice(b"[a]");
        }
        _ => step.expected.extend_from_slice(raw),
    }
}

/// Everything else: text insertions in every context, attribute edits, self-closing, removal
/// and unwrapping (no expected output: no panic, refusals allowed).
fn edit(index: usize, data: &[u8], step: &mut Step<'_>) {
    const TEXTS: [&str; 4] = ["a<b>&\u{A0}\r", "</script>", "]]>", "\0x"];
    let b = pick(index, data);
    let action = match b % 8 {
        0 => Action::Text(TEXTS[usize::from(b >> 3) % TEXTS.len()]),
        1 => Action::SetAttribute("data-f", "'\"<&>\u{A0}"),
        2 if matches!(step.token, Token::StartTag(_)) => Action::SelfClosing,
        3 if matches!(step.token, Token::StartTag(_)) => Action::Remove,
        4 if matches!(step.token, Token::StartTag(_)) => Action::Unwrap,
        _ => return,
    };
    step.actions.push(action);
}

/// Serialize the document's tokens; if every one was accepted, the output reads back as them.
fn round_trip(case: &Case) {
    let Some(first) = serialize(&case.data) else {
        return;
    };
    let again = serialize(&first).expect("written output is accepted again");
    assert!(
        again == first,
        "a second serialization differs from the first"
    );
    same_list("round trip", "tokens", &shapes(&case.data), &shapes(&first));
}

fn serialize(input: &[u8]) -> Option<Vec<u8>> {
    let mut serializer = Serializer::new(Vec::new(), SerializerOptions::new());
    let mut tokenizer = Tokenizer::default();
    for token in tokenizer.tokenize(input) {
        serializer.write_token(&token).ok()?;
    }
    serializer.finish().ok()?;
    Some(serializer.into_inner())
}

fn shapes(input: &[u8]) -> Vec<Html5libToken> {
    let mut out = Vec::new();
    for token in Tokenizer::default().tokenize(input) {
        push(&mut out, token);
    }
    out
}
