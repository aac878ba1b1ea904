//! Tree-builder feedback: switching the text state after any token, text tokens included, gives
//! exactly what a fresh tokenizer started in that state at the point after that token gives.
//!
//! The machine lexes ahead in places (a tag right after the text it ends comes out of the same
//! step); feedback must undo that and lex those bytes again in the new state. The oracle here is
//! independent of that machinery: tokenize once, cut the input after token k, and tokenize the rest
//! from scratch in the new state.

use tagstream::html5lib::{Html5libToken, push};
use tagstream::{Options, Span, TextKind, Token, Tokenizer};

/// (html5lib-shaped tokens, spans) of `input` with errors `errors`, switching to `state` (last
/// start tag `last`) right after token `k`.
fn with_switch(
    input: &[u8],
    errors: bool,
    k: usize,
    state: TextKind,
    last: &str,
) -> Vec<Html5libToken> {
    let mut tokenizer = Tokenizer::new(Options::new().simulate(false).errors(errors));
    let mut out = Vec::new();
    let mut tokens = tokenizer.tokenize(input);
    let mut i = 0;
    while let Some(token) = tokens.next() {
        push(&mut out, token);
        if i == k {
            tokens.set_last_start_tag(last);
            tokens.set_text_state(state);
        }
        i += 1;
    }
    out
}

/// The same, built from two independent runs: the first k+1 tokens, then a fresh tokenizer in
/// `state` over the rest of the input (from where token k+1 starts).
fn oracle(input: &[u8], k: usize, state: TextKind, last: &str) -> Vec<Html5libToken> {
    let mut tokenizer = Tokenizer::new(Options::new().simulate(false));
    let spans: Vec<Span> = tokenizer.tokenize(input).map(|t| t.span()).collect();
    let mut out = Vec::new();
    let mut first = Tokenizer::new(Options::new().simulate(false));
    first
        .tokenize(input)
        .take(k + 1)
        .for_each(|t| push(&mut out, t));
    let rest = spans.get(k + 1).map_or(input.len(), |s| s.start);
    let options = Options::new()
        .simulate(false)
        .initial_state(state)
        .last_start_tag(last);
    let mut second = Tokenizer::new(options);
    second
        .tokenize(&input[rest..])
        .for_each(|t: Token<'_>| push(&mut out, t));
    out
}

const INPUTS: &[&str] = &[
    "a<b>c</b>d<i x=1 y='2'>e</i>",
    "text<title>x &amp; <b>y</b></title>after",
    "<p>one</p>two<script>if (a<b) {}</script>three",
    "x</>y<a>z",
    "<div class=a id=b>t<!-- c -->u<br/>v</div>",
    "lead <span data-x=\"1\">mid</span> tail <em>end",
];

#[test]
fn switching_after_any_token_equals_a_fresh_start_in_that_state() {
    let states = [
        (TextKind::Rawtext, "b"),
        (TextKind::Rcdata, "title"),
        (TextKind::ScriptData, "script"),
        (TextKind::Plaintext, "p"),
        (TextKind::Data, "x"),
    ];
    let mut failures = Vec::new();
    for input in INPUTS {
        let count = Tokenizer::new(Options::new().simulate(false))
            .tokenize(input.as_bytes())
            .count();
        for k in 0..count {
            for &(state, last) in &states {
                let want = oracle(input.as_bytes(), k, state, last);
                for errors in [false, true] {
                    let got = with_switch(input.as_bytes(), errors, k, state, last);
                    if got != want {
                        failures.push(format!(
                            "{input:?}, switch to {state:?} after token {k} (errors {errors}):\n  want {want:?}\n  got  {got:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
