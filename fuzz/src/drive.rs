//! Running tagstream on a case, whole or chunked, with every per-token check and the feedback the
//! case asks for, into an [`Outcome`] that runs can be compared by.

use tagstream::html5lib::{Html5libToken, push};
use tagstream::{LimitError, ParseError, Position, Span, TextKind, Token, Tokenizer, Tokens};

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
    /// The memory limit the run stopped at (`Tokenizer::limit_error`).
    pub limit: Option<LimitError>,
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
    /// The input the tokenizer was given when it stopped at a memory limit (or at the end): bytes
    /// fed, and whether the end of input was.
    accepted: (usize, bool),
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
            accepted: (input.len(), true),
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
        assert_eq!(
            tokenizer.limit_error(),
            self.out.limit,
            "Tokenizer::limit_error changed after the stop"
        );
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
        self.check_valid_utf8();
        self.out
    }

    /// `is_valid_utf8` against `std::str::from_utf8`. After a stop at a memory limit only the
    /// bytes given before it are certain to have been checked: their verdict must show, and
    /// valid input must stay valid; bytes fed after the stop may or may not count.
    fn check_valid_utf8(&self) {
        let got = self.out.valid_utf8;
        if !self.config.validates_utf8() {
            assert_eq!(got, None, "is_valid_utf8 without validation");
            return;
        }
        let (fed, eof) = self.accepted;
        let invalid_before_stop = match std::str::from_utf8(&self.input[..fed]) {
            Ok(_) => false,
            // An incomplete sequence at the end of what was fed is invalid only at the end of input.
            Err(e) => e.error_len().is_some() || eof,
        };
        if invalid_before_stop {
            assert_eq!(
                got,
                Some(false),
                "is_valid_utf8 (invalid before byte {fed})"
            );
        } else if std::str::from_utf8(self.input).is_ok() {
            assert_eq!(got, Some(true), "is_valid_utf8 (valid input)");
        }
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

/// [`run_whole`] with the case's memory limits ([`Config::limited_options`]). A stopped tokenizer
/// hands out nothing more, not even from `finish`.
pub fn run_whole_limited(case: &Case) -> Outcome {
    let mut tokenizer = Tokenizer::new(case.config.limited_options());
    let out = whole(&mut tokenizer, case, true);
    assert_eq!(tokenizer.finish().count(), 0, "tokens after the end");
    out
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
    run.out.limit = tokenizer.limit_error();
    run.finish(tokenizer)
}

/// Feed `case.data` in the case's chunks, pausing as it says, then finish; with the case's memory
/// limits, if it has any. Once a limit stopped the stream, no feed (nor `finish`) hands out
/// another token.
pub fn run_chunked(case: &Case) -> Outcome {
    let input = &case.data[..];
    let positions = positions(input);
    let config = &case.config;
    let mut tokenizer = Tokenizer::new(config.limited_options());
    let mut run = Run::new(input, config, &positions, true, true);
    for (start, end) in case.cuts() {
        run.pull(&mut tokenizer, Some(&input[start..end]), end);
    }
    run.pull(&mut tokenizer, None, input.len());
    run.finish(&mut tokenizer)
}

impl Run<'_> {
    /// Feed `chunk` (`None`: finish), whose end is stream offset `fed`, and consume its tokens;
    /// after a pause, resume with empty feeds (or `finish` again at the end) until quiet. Notes
    /// the first stop at a memory limit, and checks that nothing comes after one.
    fn pull(&mut self, tokenizer: &mut Tokenizer, chunk: Option<&[u8]>, fed: usize) {
        let pause = self.config.pause;
        let mut yielded = self.consume(open(tokenizer, chunk), pause);
        if pause.is_some() {
            let resume = chunk.map(|_| &[][..]);
            let mut rounds = 0;
            loop {
                let n = self.consume(open(tokenizer, resume), pause);
                if n == 0 {
                    break;
                }
                yielded += n;
                rounds += 1;
                assert!(
                    rounds <= self.input.len() + 2,
                    "empty feeds keep yielding tokens"
                );
            }
        }
        if let Some(e) = self.out.limit {
            assert_eq!(yielded, 0, "tokens after the stop at {e:?}");
        } else if let Some(e) = tokenizer.limit_error() {
            self.out.limit = Some(e);
            self.accepted = (fed, chunk.is_none());
        }
    }
}

/// Feed `chunk`, or finish (`None`).
fn open<'t>(tokenizer: &'t mut Tokenizer, chunk: Option<&'t [u8]>) -> Tokens<'t> {
    match chunk {
        Some(bytes) => tokenizer.feed(bytes),
        None => tokenizer.finish(),
    }
}

/// Panics unless `a` and `b` (the `field` of two runs) are equal, naming the first difference.
pub fn same_list<T: PartialEq + std::fmt::Debug>(what: &str, field: &str, a: &[T], b: &[T]) {
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

/// Panics unless two runs agree (errors only when `errors`), naming the first difference.
pub fn assert_same(what: &str, want: &Outcome, got: &Outcome, errors: bool) {
    same_list(what, "tokens", &want.tokens, &got.tokens);
    same_list(what, "spans", &want.spans, &got.spans);
    if errors {
        same_list(what, "errors", &want.errors, &got.errors);
    }
    // `valid_utf8` is checked against `std::str::from_utf8` in each run (it is `None` in runs
    // that do not validate).
    assert_eq!(want.ambiguous, got.ambiguous, "{what}: ambiguous_count");
    assert_eq!(want.limit, got.limit, "{what}: limit_error");
}
