//! Target `xml5_tree`: the XML5 tree stage (`tagstream::xml5::tree`) on any bytes, with the
//! header's errors flag, chunks and pauses (the other header fields ignored; no memory limits:
//! the tree stage's own limit, the depth, is exercised instead).
//!
//! Checked: no panic; the events balanced (every start has its end, at the same depth, in
//! nesting order; depths count the open elements); the same events (text merged), tree-stage
//! errors (positions where both runs have one), the tokenizer's errors the document keeps
//! (before a depth limit's stop), document tree (in the xml5lib-tests format) and depth error whole, fed in the case's
//! chunks with its pauses, and with errors toggled (the tree and events only); and with a depth
//! limit of 4, the same again whole and chunked, and a tree that is the unlimited one cut at the
//! limit's start tag. Fed in chunks without pauses, the stage records the tokens it takes
//! (`Events::recording`): each input token once, in order, as the tokenizer alone makes them
//! from the same chunks (adjacent text merged: the names the subset declares, which the
//! tokenizer alone does not know, may move where a seam cuts text).

use tagstream::xml5::Tokenizer;
use tagstream::xml5::tree::{
    DepthError, Document, Event, Events, Parser, TreeBuilder, TreeError, TreeErrorCode,
    TreeOptions, xml5lib_tree,
};

use tagstream::{ErrorCode, Options, Span, Token};

use crate::case::Case;
use crate::drive::same_list;

/// What a run produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// One line per event, text merged.
    pub events: Vec<String>,
    pub errors: Vec<TreeError>,
    /// The tokenizer's errors the document kept: code and offset.
    pub parse_errors: Vec<(ErrorCode, usize)>,
    pub tree: String,
    pub depth_error: Option<DepthError>,
}

/// The target: see the module docs.
pub fn xml5_tree(case: &Case) {
    for max_depth in [TreeOptions::DEFAULT_MAX_DEPTH, 4] {
        let tree = || TreeOptions::new().max_depth(max_depth);
        let options = || Options::new().errors(case.config.errors);
        let whole = run(case, options(), tree(), false);
        let chunked = run(case, options(), tree(), true);
        same_list("whole vs chunked", "events", &whole.events, &chunked.events);
        same_list(
            "whole vs chunked",
            "errors",
            &located(&whole.errors),
            &located(&chunked.errors),
        );
        for (w, c) in whole.errors.iter().zip(&chunked.errors) {
            // An end-of-input error may have no position when streamed (see TreeError::position).
            if let (Some(w), Some(c)) = (w.position, c.position) {
                assert_eq!(w, c, "whole vs chunked: position of {:?}", w);
            }
        }
        same_list(
            "whole vs chunked",
            "tokenizer errors",
            &whole.parse_errors,
            &chunked.parse_errors,
        );
        assert_eq!(whole.tree, chunked.tree, "whole vs chunked: tree");
        assert_eq!(whole.depth_error, chunked.depth_error);
        let toggled = run(
            case,
            Options::new().errors(!case.config.errors),
            tree(),
            false,
        );
        same_list("errors toggled", "events", &whole.events, &toggled.events);
        assert_eq!(whole.tree, toggled.tree, "errors toggled: tree");
        if !case.config.errors {
            assert!(whole.errors.is_empty(), "errors off: {:?}", whole.errors);
            assert!(
                whole.parse_errors.is_empty(),
                "errors off: {:?}",
                whole.parse_errors
            );
        }
    }
}

/// The errors' codes and offsets.
fn located(errors: &[TreeError]) -> Vec<(TreeErrorCode, usize)> {
    errors.iter().map(|e| (e.code, e.offset)).collect()
}

/// Parse the case's document whole, or in its chunks with its pauses.
fn run(case: &Case, options: Options, tree: TreeOptions, chunked: bool) -> Outcome {
    let input = &case.data[..];
    let mut parser = Parser::new(options.clone(), tree);
    let mut builder = TreeBuilder::new();
    let mut recorder = Recorder::default();
    let recording = chunked && case.config.pause.is_none();
    if chunked {
        for (start, end) in case.cuts() {
            let events = parser.feed(&input[start..end]);
            let events = if recording {
                events.recording()
            } else {
                events
            };
            recorder.take(events, &mut builder, case.config.pause);
            if case.config.pause.is_some() {
                // Resume with empty feeds until quiet.
                for _ in 0..input.len() + 2 {
                    if recorder.take(parser.feed(&[]), &mut builder, case.config.pause) == 0 {
                        break;
                    }
                }
            }
        }
        let events = parser.finish();
        let events = if recording {
            events.recording()
        } else {
            events
        };
        recorder.take(events, &mut builder, None);
    } else {
        recorder.take(parser.parse(input), &mut builder, None);
    }
    assert!(
        recorder.open.is_empty(),
        "open at the end: {:?}",
        recorder.open
    );
    if recording {
        let tokens = tokenized(case, options);
        assert_eq!(
            merged_text(&recorder.pulled),
            merged_text(&tokens),
            "the record vs the tokenizer alone"
        );
    }
    let document: Document = builder.finish(&mut parser);
    Outcome {
        events: recorder.events,
        errors: document.errors().to_vec(),
        parse_errors: document
            .parse_errors()
            .iter()
            .map(|e| (e.code, e.offset))
            // Past a depth limit's stop the input is not read, but for the record, which takes
            // the feed's tokens left (so the errors found there depend on the chunks).
            .filter(|&(_, offset)| document.depth_error().is_none_or(|d| offset < d.offset))
            .collect(),
        tree: xml5lib_tree(&document),
        depth_error: document.depth_error(),
    }
}

#[derive(Default)]
struct Recorder {
    events: Vec<String>,
    /// The names of the open elements, to check each end against.
    open: Vec<String>,
    /// The tokens the stage took, when recording: kind and span.
    pulled: Vec<(String, Span)>,
}

impl Recorder {
    /// Take at most `limit` events, checking and recording each; returns how many.
    fn take(
        &mut self,
        mut events: Events<'_>,
        builder: &mut TreeBuilder,
        limit: Option<usize>,
    ) -> usize {
        let mut n = 0;
        while limit.is_none_or(|k| n < k) {
            let Some(event) = events.next_event() else {
                break;
            };
            n += 1;
            self.check(&event, events_open(&event, self.open.len()));
            builder.push(&event);
            self.record(&event);
            self.pulled
                .extend(events.take_pulled().map(|p| token_key(&p.token)));
        }
        self.pulled
            .extend(events.take_pulled().map(|p| token_key(&p.token)));
        n
    }

    fn check(&mut self, event: &Event<'_, '_>, expected_depth: Option<usize>) {
        match event {
            Event::Start(start) => {
                self.open.push(start.name().to_string());
                assert_eq!(Some(start.depth()), expected_depth, "start depth");
            }
            Event::End(end) => {
                assert_eq!(Some(end.depth()), expected_depth, "end depth");
                let name = self.open.pop().expect("an end with no open element");
                assert_eq!(name, end.name().to_string(), "ends in nesting order");
            }
            _ => {}
        }
    }

    fn record(&mut self, event: &Event<'_, '_>) {
        let line = match event {
            Event::Start(start) => {
                let name = start.name();
                let attributes: Vec<String> = start
                    .attributes()
                    .map(|a| format!("{:?}{}={:?}", a.name().namespace, a.name(), a.value()))
                    .collect();
                format!("+{:?}{name} {attributes:?}", name.namespace)
            }
            Event::End(end) => format!("-{} {:?}", end.name(), end.cause()),
            Event::Text(text) => {
                if let Some(last) = self.events.last_mut().filter(|l| l.starts_with('"')) {
                    last.push_str(text.text());
                    return;
                }
                format!("\"{}", text.text())
            }
            Event::Comment(c) => format!("#{}", c.data()),
            Event::ProcessingInstruction(pi) => format!("?{} {}", pi.target(), pi.data()),
            Event::Doctype(d) => format!("!{:?}", d.name()),
        };
        self.events.push(line);
    }
}

/// The depth a start or end event must have with `open` elements open before it.
fn events_open(event: &Event<'_, '_>, open: usize) -> Option<usize> {
    match event {
        Event::Start(_) => Some(open + 1),
        Event::End(_) => Some(open),
        _ => None,
    }
}

/// A token's kind (a text's with its text kind) and span.
fn token_key(token: &Token<'_>) -> (String, Span) {
    let kind = match token {
        Token::Text(text) => format!("text {:?}", text.kind()),
        _ => format!("{:?}", std::mem::discriminant(token)),
    };
    (kind, token.span())
}

/// `tokens` with each run of adjacent texts of one kind as one.
fn merged_text(tokens: &[(String, Span)]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::with_capacity(tokens.len());
    for (kind, span) in tokens {
        if let Some((last, at)) = out.last_mut()
            && last == kind
            && kind.starts_with("text")
            && at.end == span.start
        {
            at.end = span.end;
            continue;
        }
        out.push((kind.clone(), *span));
    }
    out
}

/// The tokens of the XML5 tokenizer alone, fed the case's chunks.
fn tokenized(case: &Case, options: Options) -> Vec<(String, Span)> {
    let input = &case.data[..];
    let mut tokenizer = Tokenizer::new(options);
    let mut out = Vec::new();
    for (start, end) in case.cuts() {
        out.extend(tokenizer.feed(&input[start..end]).map(|t| token_key(&t)));
    }
    out.extend(tokenizer.finish().map(|t| token_key(&t)));
    out
}
