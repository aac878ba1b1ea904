//! Running tagstream on a case, whole or chunked, with every per-token check and the feedback the
//! case asks for, into an [`Outcome`] that runs can be compared by.

use tagstream::html5lib::{Html5libToken, push};
use tagstream::{ParseError, Position, Span, TextKind, Token, Tokenizer, Tokens};

use crate::case::{Case, Config, Switch};
use crate::check::{check_token, kind_name, positions};

/// What a run produced, in the chunking-independent view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Tokens in html5lib shape, adjacent text merged.
    pub tokens: Vec<Html5libToken>,
    /// Parse errors in stream order.
    pub errors: Vec<ParseError>,
    /// Token kinds and spans, adjacent text spans merged.
    pub spans: Vec<(&'static str, Span)>,
    /// `Tokenizer::is_valid_utf8` at the end.
    pub valid_utf8: Option<bool>,
    /// Tokens the tree-builder simulator was unsure about (`Tokenizer::ambiguous_count`).
    pub ambiguous: u64,
}

/// The text state a tree builder switches to after this (HTML) start tag.
pub fn text_state_after(name: &str) -> Option<TextKind> {
    Some(match name {
        "script" => TextKind::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => TextKind::Rawtext,
        "title" | "textarea" => TextKind::Rcdata,
        "plaintext" => TextKind::Plaintext,
        _ => return None,
    })
}

struct Run<'a> {
    input: &'a [u8],
    config: &'a Config,
    /// The position oracle (empty when `checks` is off).
    positions: &'a [Position],
    /// Fed in chunks (not `tokenize`).
    streaming: bool,
    /// Check every token and error (off: only record, for runs that are compared with a checked one).
    checks: bool,
    out: Outcome,
    prev_end: usize,
    non_text: usize,
    cdata: bool,
    /// Tokens for which `Tokens::ambiguity` said something.
    ambiguities: u64,
}

impl<'a> Run<'a> {
    fn new(
        input: &'a [u8],
        config: &'a Config,
        positions: &'a [Position],
        streaming: bool,
        checks: bool,
    ) -> Run<'a> {
        Run {
            input,
            config,
            positions,
            streaming,
            checks,
            out: Outcome::default(),
            prev_end: 0,
            non_text: 0,
            cdata: config.cdata_allowed,
            ambiguities: 0,
        }
    }

    /// Pull tokens (at most `limit`), checking and recording each; returns how many.
    fn consume(&mut self, mut tokens: Tokens<'_>, limit: Option<usize>) -> usize {
        let mut n = 0;
        while limit.is_none_or(|k| n < k) {
            let Some(token) = tokens.next() else { break };
            n += 1;
            self.record(&token, &mut tokens);
            self.feedback(&token, &mut tokens);
        }
        n
    }

    fn record(&mut self, token: &Token<'_>, tokens: &mut Tokens<'_>) {
        let span = token.span();
        if self.checks {
            self.check(token, tokens);
        }
        self.prev_end = span.end;
        let kind = kind_name(token);
        match self.out.spans.last_mut() {
            Some((last, s)) if kind == "text" && *last == "text" && s.end == span.start => {
                s.end = span.end;
            }
            _ => self.out.spans.push((kind, span)),
        }
        push(&mut self.out.tokens, *token);
        if tokens.ambiguity().is_some() {
            self.ambiguities += 1;
        }
        assert_eq!(
            tokens.ambiguous_count(),
            self.ambiguities,
            "Tokens::ambiguous_count"
        );
    }

    /// The per-token checks, and the token's positions against the oracle.
    fn check(&self, token: &Token<'_>, tokens: &mut Tokens<'_>) {
        check_token(token, self.input, self.prev_end);
        if self.streaming && !self.config.positions_while_streaming() {
            return;
        }
        let span = token.span();
        let positions = self.positions;
        // Whole or streamed: the first and last byte of the token just handed out have their
        // positions.
        for offset in [span.start, span.end - 1] {
            let got = tokens.position(offset);
            assert_eq!(
                got,
                Some(positions[offset]),
                "position of offset {offset} (token {span:?})"
            );
        }
    }

    /// Tree-builder feedback: the naive text-state switch, then the case's switch plan.
    fn feedback(&mut self, token: &Token<'_>, tokens: &mut Tokens<'_>) {
        if self.config.feedback
            && let Token::StartTag(tag) = token
            && let Some(state) = text_state_after(tag.name())
        {
            tokens.set_text_state(state);
        }
        if matches!(token, Token::Text(_)) {
            return;
        }
        self.non_text += 1;
        if let Some((every, switch)) = self.config.switch
            && self.non_text.is_multiple_of(every)
        {
            match switch {
                Switch::State { state, tag } => {
                    tokens.set_last_start_tag(tag);
                    tokens.set_text_state(state);
                }
                Switch::ToggleCdata => {
                    self.cdata = !self.cdata;
                    tokens.set_cdata_allowed(self.cdata);
                }
                Switch::LastStartTag(tag) => tokens.set_last_start_tag(tag),
            }
        }
    }

    fn finish(mut self, tokenizer: &mut Tokenizer) -> Outcome {
        self.out.errors = tokenizer.take_errors();
        self.out.valid_utf8 = tokenizer.is_valid_utf8();
        self.out.ambiguous = tokenizer.ambiguous_count();
        assert_eq!(
            self.out.ambiguous, self.ambiguities,
            "Tokenizer::ambiguous_count"
        );
        if !self.config.simulate {
            assert_eq!(self.ambiguities, 0, "ambiguities with the simulator off");
        }
        if self.checks {
            check_errors(
                &self.out.errors,
                self.input,
                self.positions,
                self.config.errors,
            );
        }
        let valid = std::str::from_utf8(self.input).is_ok();
        assert_eq!(
            self.out.valid_utf8,
            self.config.validates_utf8().then_some(valid),
            "is_valid_utf8"
        );
        self.out
    }
}

/// Errors: none when off; otherwise inside the input, in stream order, at the oracle's positions.
fn check_errors(errors: &[ParseError], input: &[u8], positions: &[Position], on: bool) {
    if !on {
        assert!(
            errors.is_empty(),
            "errors reported with errors off: {errors:?}"
        );
        return;
    }
    let mut last = 0;
    for e in errors {
        assert!(e.offset <= input.len(), "error {e:?} past the end of input");
        assert!(
            e.offset >= last,
            "error {e:?} out of stream order (after offset {last})"
        );
        last = e.offset;
        assert_eq!(e.position, positions[e.offset], "position of error {e:?}");
    }
}

/// Tokenize `case.data` whole with [`Tokenizer::tokenize`], checking everything.
pub fn run_whole(case: &Case) -> Outcome {
    whole(&mut Tokenizer::new(case.config.options()), case, true)
}

/// The same without the per-token and error checks (for runs compared with a checked one), on a
/// tokenizer made with `case.config.options()` and reused (`tokenize` resets it).
pub fn run_whole_unchecked(tokenizer: &mut Tokenizer, case: &Case) -> Outcome {
    whole(tokenizer, case, false)
}

fn whole(tokenizer: &mut Tokenizer, case: &Case, checks: bool) -> Outcome {
    let input = &case.data[..];
    let positions = if checks { positions(input) } else { Vec::new() };
    let mut run = Run::new(input, &case.config, &positions, false, checks);
    run.consume(tokenizer.tokenize(input), None);
    run.finish(tokenizer)
}

/// Feed `case.data` in the case's chunks, pausing as it says, then finish.
pub fn run_chunked(case: &Case) -> Outcome {
    let input = &case.data[..];
    let positions = positions(input);
    let config = &case.config;
    let mut tokenizer = Tokenizer::new(config.options());
    let mut run = Run::new(input, config, &positions, true, true);
    let pause = config.pause;
    // After a paused feed: resume with empty feeds (or `finish` again at the end) until quiet.
    let resume = |run: &mut Run<'_>, tokenizer: &mut Tokenizer, finished: bool| {
        let mut rounds = 0;
        loop {
            let tokens = if finished {
                tokenizer.finish()
            } else {
                tokenizer.feed(&[])
            };
            if run.consume(tokens, pause) == 0 {
                break;
            }
            rounds += 1;
            assert!(
                rounds <= input.len() + 2,
                "empty feeds keep yielding tokens"
            );
        }
    };
    for (start, end) in case.cuts() {
        run.consume(tokenizer.feed(&input[start..end]), pause);
        if pause.is_some() {
            resume(&mut run, &mut tokenizer, false);
        }
    }
    run.consume(tokenizer.finish(), pause);
    if pause.is_some() {
        resume(&mut run, &mut tokenizer, true);
    }
    run.finish(&mut tokenizer)
}

/// Panics unless two runs agree (errors only when `errors`), naming the first difference.
pub fn assert_same(what: &str, want: &Outcome, got: &Outcome, errors: bool) {
    fn first<T: PartialEq + std::fmt::Debug>(what: &str, field: &str, a: &[T], b: &[T]) {
        if a == b {
            return;
        }
        let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        panic!(
            "{what}: {field} differ at {i} (lengths {} and {}):\n  want {:?}\n  got  {:?}\n  \
             all want {a:?}\n  all got  {b:?}",
            a.len(),
            b.len(),
            a.get(i),
            b.get(i)
        );
    }
    first(what, "tokens", &want.tokens, &got.tokens);
    first(what, "spans", &want.spans, &got.spans);
    if errors {
        first(what, "errors", &want.errors, &got.errors);
    }
    // `valid_utf8` is checked against `std::str::from_utf8` in each run (it is `None` in runs
    // that do not validate).
    assert_eq!(want.ambiguous, got.ambiguous, "{what}: ambiguous_count");
}
