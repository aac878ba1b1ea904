//! Helpers shared by the integration tests: a reproducible PRNG for property tests, a driver that runs
//! the tokenizer over any chunking (optionally with minimal tree-builder feedback and with pauses),
//! and snapshots of what it produced (html5lib-shaped tokens, errors, spans) with every raw slice
//! checked against the input on the way.
//!
//! Each test binary compiles this module separately and uses part of it.
#![allow(dead_code)]

pub mod data;
pub mod heap;
pub mod xml5_events;

use tagstream::html5lib::{Html5libToken, push};
use tagstream::{Options, ParseError, Span, TextKind, Token, Tokenizer, Tokens};

// ---- PRNG ---------------------------------------------------------------------------------------

/// xorshift64*: tiny, fast, and reproducible from a fixed seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Scramble the seed so that small seeds give unrelated streams; never zero.
        Rng((seed ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The number of random cases a property test runs: `native` (`miri` under Miri), or
/// `TAGSTREAM_PROPTEST_CASES`.
pub fn proptest_cases(native: usize, miri: usize) -> usize {
    match std::env::var("TAGSTREAM_PROPTEST_CASES") {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("TAGSTREAM_PROPTEST_CASES={v:?} is not a number")),
        Err(_) => native_or_miri(native, miri),
    }
}

/// `native`, or `miri` when the tests run under Miri (`tools/miri.sh`), which runs them about a
/// thousand times slower: the size of an input, a number of cases or a list of chunk sizes that
/// an exhaustive test cuts down there.
pub fn native_or_miri<T>(native: T, miri: T) -> T {
    if cfg!(miri) { miri } else { native }
}

/// Random cut points for `len` bytes: chunk sizes mostly in `1..=64`, sometimes large.
pub fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        let size = match rng.below(20) {
            0 => rng.range(65, 4096),
            1 => rng.range(4097, 70_000),
            _ => rng.range(1, 64),
        };
        at += size;
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

/// Cut points every `size` bytes.
pub fn even_cuts(len: usize, size: usize) -> Vec<usize> {
    (1..).map(|i| i * size).take_while(|&at| at < len).collect()
}

// ---- tree-builder feedback ------------------------------------------------------------------------

/// The text state a tree builder switches to after this start tag (HTML namespace only).
pub fn text_state_after(name: &str) -> Option<TextKind> {
    Some(match name {
        "script" => TextKind::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => TextKind::Rawtext,
        "title" | "textarea" => TextKind::Rcdata,
        "plaintext" => TextKind::Plaintext,
        _ => return None,
    })
}

// ---- the driver ---------------------------------------------------------------------------------

/// One token's spans: its own and those of its parts, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanRecord {
    pub kind: &'static str,
    pub span: Span,
    pub parts: Vec<Span>,
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Tokens in html5lib shape, adjacent text merged.
    pub tokens: Vec<Html5libToken>,
    pub errors: Vec<ParseError>,
    /// Spans of every token, in emission order (text not merged).
    pub spans: Vec<SpanRecord>,
    /// Raw slices that did not match the input at their spans, spans outside their token, etc.
    pub violations: Vec<String>,
    /// Number of tokens pulled.
    pub pulled: usize,
    /// Whether the whole input was valid UTF-8, per the tokenizer.
    pub valid_utf8: Option<bool>,
}

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub options: Options,
    /// Switch text states after script/style/title/… start tags, naively, by hand (with the
    /// built-in tree-builder simulator off).
    pub feedback: bool,
    /// Pull at most this many tokens from each iterator before dropping it (pausing), then resume
    /// with empty feeds until one yields nothing.
    pub pause_every: Option<usize>,
}

impl Plan {
    pub fn new(options: Options) -> Plan {
        Plan {
            options,
            feedback: false,
            pause_every: None,
        }
    }

    /// Naive switching by hand instead of the built-in simulator (on turns the simulator off).
    pub fn feedback(mut self, on: bool) -> Plan {
        self.feedback = on;
        if on {
            self.options = self.options.simulate(false);
        }
        self
    }

    pub fn pause_every(mut self, k: usize) -> Plan {
        self.pause_every = Some(k);
        self
    }
}

/// Tokenize `input` whole with [`Tokenizer::tokenize`].
pub fn run_whole(input: &[u8], plan: &Plan) -> Outcome {
    let mut tokenizer = Tokenizer::new(plan.options.clone());
    let mut out = Outcome::default();
    let tokens = tokenizer.tokenize(input);
    consume(tokens, input, plan, None, &mut out);
    out.errors = tokenizer.take_errors();
    out.valid_utf8 = tokenizer.is_valid_utf8();
    out
}

/// Feed `input` cut at `cuts` (increasing offsets), then finish.
pub fn run_cuts(input: &[u8], cuts: &[usize], plan: &Plan) -> Outcome {
    let mut tokenizer = Tokenizer::new(plan.options.clone());
    let mut out = Outcome::default();
    let mut start = 0;
    for &end in cuts.iter().chain(std::iter::once(&input.len())) {
        let chunk = &input[start..end];
        consume(
            tokenizer.feed(chunk),
            input,
            plan,
            plan.pause_every,
            &mut out,
        );
        if plan.pause_every.is_some() {
            resume_until_quiet(&mut tokenizer, input, plan, &mut out);
        }
        start = end;
    }
    consume(tokenizer.finish(), input, plan, None, &mut out);
    out.errors = tokenizer.take_errors();
    out.valid_utf8 = tokenizer.is_valid_utf8();
    out
}

/// After a paused feed: empty feeds, each pulling at most `k` tokens, until one yields nothing.
fn resume_until_quiet(tokenizer: &mut Tokenizer, input: &[u8], plan: &Plan, out: &mut Outcome) {
    let mut feeds = 0;
    while consume(tokenizer.feed(&[]), input, plan, plan.pause_every, out) > 0 {
        feeds += 1;
        assert!(feeds <= input.len() + 2, "empty feeds keep yielding tokens");
    }
}

/// Pull tokens (at most `limit`), recording them; returns how many were pulled.
pub fn consume(
    mut tokens: Tokens<'_>,
    input: &[u8],
    plan: &Plan,
    limit: Option<usize>,
    out: &mut Outcome,
) -> usize {
    let mut n = 0;
    while limit.is_none_or(|k| n < k) {
        let Some(token) = tokens.next() else { break };
        n += 1;
        record(token, input, out);
        if plan.feedback
            && let Token::StartTag(tag) = token
            && let Some(state) = text_state_after(tag.name())
        {
            tokens.set_text_state(state);
        }
    }
    out.pulled += n;
    n
}

/// Record `token`: its html5lib shape and its spans, checking every raw slice against the input.
pub fn record(token: Token<'_>, input: &[u8], out: &mut Outcome) {
    let span = token.span();
    let mut check = |what: &str, span: Span, raw: &[u8]| {
        if span.start > span.end || span.end > input.len() {
            out.violations
                .push(format!("{what} span {span:?} is outside the input"));
        } else if &input[span.range()] != raw {
            out.violations.push(format!(
                "{what} raw {:?} differs from the input at {span:?}: {:?}",
                String::from_utf8_lossy(raw),
                String::from_utf8_lossy(&input[span.range()])
            ));
        }
    };
    check("token", span, token.raw());
    let (kind, parts): (&'static str, Vec<Span>) = match token {
        Token::Text(t) => {
            check("text", t.span(), t.raw());
            ("text", vec![])
        }
        Token::StartTag(t) => {
            check("start tag name", t.name_span(), t.raw_name());
            let mut parts = vec![t.name_span()];
            for a in t.attributes() {
                check("attribute name", a.name_span(), a.raw_name());
                check("attribute value", a.value_span(), a.raw_value());
                check("attribute", a.span(), a.raw());
                parts.push(a.name_span());
                parts.push(a.value_span());
            }
            ("start tag", parts)
        }
        Token::EndTag(t) => {
            check("end tag name", t.name_span(), t.raw_name());
            ("end tag", vec![t.name_span()])
        }
        Token::Comment(c) => {
            check("comment data", c.data_span(), c.raw_data());
            ("comment", vec![c.data_span()])
        }
        Token::Doctype(d) => (
            "doctype",
            [d.name_span(), d.public_id_span(), d.system_id_span()]
                .into_iter()
                .flatten()
                .collect(),
        ),
        Token::ProcessingInstruction(p) => {
            check("pi data", p.data_span(), p.raw_data());
            ("pi", vec![p.target_span(), p.data_span()])
        }
        Token::Raw(_) => ("raw", vec![]),
    };
    for part in &parts {
        if part.start < span.start || part.end > span.end || part.start > part.end {
            out.violations.push(format!(
                "{kind} part {part:?} is outside its token {span:?}"
            ));
        }
    }
    out.spans.push(SpanRecord { kind, span, parts });
    push(&mut out.tokens, token);
}

/// Non-text spans as they are, adjacent text spans merged: the chunking-independent view.
pub fn merged_spans(spans: &[SpanRecord]) -> Vec<SpanRecord> {
    let mut merged: Vec<SpanRecord> = Vec::new();
    for s in spans {
        if s.kind == "text"
            && let Some(prev) = merged.last_mut()
            && prev.kind == "text"
            && prev.span.end == s.span.start
        {
            prev.span.end = s.span.end;
            continue;
        }
        merged.push(s.clone());
    }
    merged
}

/// Spans in emission order must be inside the input, increasing and non-overlapping.
pub fn check_span_order(spans: &[SpanRecord], len: usize) -> Result<(), String> {
    let mut prev_end = 0;
    for (i, s) in spans.iter().enumerate() {
        if s.span.end > len {
            return Err(format!(
                "token {i} ({}) span {:?} ends past {len}",
                s.kind, s.span
            ));
        }
        if s.span.start < prev_end {
            return Err(format!(
                "token {i} ({}) span {:?} starts before the previous token's end {prev_end}",
                s.kind, s.span
            ));
        }
        if s.span.is_empty() {
            return Err(format!(
                "token {i} ({}) has an empty span {:?}",
                s.kind, s.span
            ));
        }
        prev_end = s.span.end;
    }
    Ok(())
}

/// A short, printable rendering of an input for failure messages.
pub fn show(input: &[u8]) -> String {
    let s = String::from_utf8_lossy(input);
    if s.len() > 120 {
        let cut = (0..=120)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{:?}… ({} bytes)", &s[..cut], input.len())
    } else {
        format!("{s:?}")
    }
}
