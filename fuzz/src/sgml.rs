//! Target `sgml`: the SGML note's lexer (`tagstream::sgml`) on any bytes. The case's header gives
//! normalization (its `errors` flag), memory limits and the chunking with its pauses (see
//! [`crate::case`]); the other fields are ignored.
//!
//! Checked: no panic; lossless (the spans of all lexemes tile the input, each lexeme's raw bytes
//! are the input's; a problem's message and an omitted attribute name are the only empty
//! lexemes that carry no bytes); every event of the problem channel starts with its message,
//! whose text is the problem's; without normalization every other lexeme's text is its raw bytes
//! (UTF-8 permitting), with it the same but ASCII-lowercased for names; and the same events
//! (data merged) whole and fed in the case's chunks with its pauses, or a prefix of them when a
//! memory limit stopped the chunked run.

use tagstream::sgml::{Channel, Event, Events, LexemeKind, SgmlOptions, Tokenizer};
use tagstream::{Options, Span};

use crate::case::Case;
use crate::drive::same_list;

/// One event in a chunking-independent shape: its channel and its lexemes' kinds, spans and raw
/// bytes (their text is checked per lexeme).
type Shape = (Channel, Vec<(LexemeKind, Span, Vec<u8>)>);

/// The target: see the module docs.
pub fn sgml(case: &Case) {
    let input = &case.data[..];
    let sgml = SgmlOptions {
        normalize: case.config.errors,
    };
    let mut tokenizer = Tokenizer::new(Options::new().strip_bom(false), sgml);
    let mut whole = Vec::new();
    let mut lexemes = Vec::new();
    for event in tokenizer.tokenize(input) {
        check_event(&event, input, sgml.normalize);
        lexemes.extend(event.lexemes().iter().map(|l| (l.span(), l.raw())));
        record(&mut whole, &event);
    }
    check_lossless(&mut lexemes, input);

    let options = match case.config.limits {
        Some(l) => Options::new().max_carry(l.carry).max_arena(l.arena),
        None => Options::new(),
    };
    let mut tokenizer = Tokenizer::new(options.strip_bom(false), sgml);
    let mut chunked = Vec::new();
    let pause = case.config.pause;
    for (start, end) in case.cuts() {
        pull(
            &mut tokenizer,
            Some(&input[start..end]),
            pause,
            &mut chunked,
            input,
            sgml.normalize,
        );
    }
    pull(
        &mut tokenizer,
        None,
        pause,
        &mut chunked,
        input,
        sgml.normalize,
    );
    if tokenizer.limit_error().is_some() {
        // Stopped at a memory limit: what it gave is a prefix of the whole run's (the last data
        // event may be cut short).
        let n = chunked.len().saturating_sub(1).min(whole.len());
        same_list("stopped run", "events", &whole[..n], &chunked[..n]);
        return;
    }
    same_list("whole vs chunked", "events", &whole, &chunked);
}

/// Feed `chunk` (`None`: finish) and take its events; after a pause, resume with empty feeds
/// until quiet.
fn pull(
    tokenizer: &mut Tokenizer,
    chunk: Option<&[u8]>,
    pause: Option<usize>,
    out: &mut Vec<Shape>,
    input: &[u8],
    normalize: bool,
) {
    let mut open = |tokenizer: &mut Tokenizer, chunk: Option<&[u8]>| -> usize {
        let events: Events<'_> = match chunk {
            Some(bytes) => tokenizer.feed(bytes),
            None => tokenizer.finish(),
        };
        let mut n = 0;
        for event in events.take(pause.unwrap_or(usize::MAX)) {
            check_event(&event, input, normalize);
            record(out, &event);
            n += 1;
        }
        n
    };
    open(tokenizer, chunk);
    if pause.is_none() {
        return;
    }
    let resume = chunk.map(|_| &[][..]);
    for _ in 0..input.len() + 2 {
        if open(tokenizer, resume) == 0 {
            return;
        }
    }
    panic!("empty feeds keep yielding events");
}

/// Add `event`'s shape to `out`, joining data that touches the data before it.
fn record(out: &mut Vec<Shape>, event: &Event<'_>) {
    let lexemes: Vec<_> = (event.lexemes().iter())
        .map(|l| (l.kind(), l.span(), l.raw().to_vec()))
        .collect();
    if let (Channel::Primary, [(LexemeKind::Data, span, text)]) = (event.channel(), &lexemes[..])
        && let Some((Channel::Primary, last)) = out.last_mut()
        && let [(LexemeKind::Data, previous, joined)] = &mut last[..]
        && previous.end == span.start
    {
        previous.end = span.end;
        joined.extend_from_slice(text);
        return;
    }
    out.push((event.channel(), lexemes));
}

/// The per-event checks (see the module docs), `normalize` as the tokenizer reads.
fn check_event(event: &Event<'_>, input: &[u8], normalize: bool) {
    assert!(!event.lexemes().is_empty(), "an empty event");
    for lexeme in event.lexemes() {
        let span = lexeme.span();
        assert!(span.end <= input.len(), "{span:?} past the input");
        assert_eq!(
            lexeme.raw(),
            &input[span.range()],
            "raw bytes of {lexeme:?}"
        );
        match lexeme.problem_kind() {
            Some(problem) => {
                assert!(span.is_empty(), "a message with bytes: {lexeme:?}");
                assert_eq!(lexeme.text(), problem.message());
            }
            None => {
                let raw = String::from_utf8_lossy(lexeme.raw());
                let names = matches!(
                    lexeme.kind(),
                    LexemeKind::Start
                        | LexemeKind::End
                        | LexemeKind::AttrName
                        | LexemeKind::Name
                        | LexemeKind::MarkupDecl
                );
                let want = if normalize && names {
                    raw.to_ascii_lowercase()
                } else {
                    raw.into_owned()
                };
                assert_eq!(lexeme.text(), want, "text of {lexeme:?}");
                let may_be_empty = matches!(lexeme.kind(), LexemeKind::AttrName | LexemeKind::Data);
                assert!(may_be_empty || !span.is_empty(), "an empty {lexeme:?}");
            }
        }
    }
    if event.channel() == Channel::Problem {
        let first = &event.lexemes()[0];
        assert!(
            first.problem_kind().is_some(),
            "a problem event without its message"
        );
        assert_eq!(event.problem(), first.problem_kind());
    }
}

/// The spans of all lexemes tile the input.
fn check_lossless(lexemes: &mut [(Span, &[u8])], input: &[u8]) {
    lexemes.sort_by_key(|(span, _)| span.start);
    let mut at = 0;
    for (span, _) in lexemes.iter().filter(|(span, _)| !span.is_empty()) {
        assert_eq!(span.start, at, "a gap or an overlap at {at}");
        at = span.end;
    }
    assert_eq!(at, input.len(), "the lexemes end at {at}");
}
