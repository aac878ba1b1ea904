//! Target `lossless`: [`Options::lossless`] on any bytes, HTML and XML5. The case's header gives
//! the options and the chunking with its pauses (see [`crate::case`]; no memory limits: bytes
//! after a limit are not handed out).
//!
//! Checked: no panic; every item starts where the one before it ended, the last one ends at the
//! input's end, and the raw bytes of all items, concatenated, are the input; the tokens other than
//! raw items (kinds and spans, adjacent text merged) are the ones a whole run without lossless
//! gives.

use tagstream::{Options, Span, Token, Tokenizer, xml5};

use crate::case::Case;
use crate::check::kind_name;
use crate::drive::same_list;

/// What a run handed out: each item's kind and span, and their raw bytes, concatenated.
#[derive(Default)]
struct Items {
    items: Vec<(&'static str, Span)>,
    bytes: Vec<u8>,
}

impl Items {
    fn push(&mut self, token: &Token<'_>) {
        self.items.push((kind_name(token), token.span()));
        self.bytes.extend_from_slice(token.raw());
    }

    /// The items other than raw ones, adjacent text merged (seams cut text differently).
    fn tokens(&self) -> Vec<(&'static str, Span)> {
        let mut out: Vec<(&'static str, Span)> = Vec::new();
        for &(kind, span) in self.items.iter().filter(|(kind, _)| *kind != "raw") {
            match out.last_mut() {
                Some((last, prev))
                    if *last == "text" && kind == "text" && prev.end == span.start =>
                {
                    prev.end = span.end;
                }
                _ => out.push((kind, span)),
            }
        }
        out
    }
}

/// Pull at most `limit` items into `items`; returns how many.
fn pull<'t>(
    tokens: impl Iterator<Item = Token<'t>>,
    limit: Option<usize>,
    items: &mut Items,
) -> usize {
    let mut n = 0;
    for token in tokens.take(limit.unwrap_or(usize::MAX)) {
        items.push(&token);
        n += 1;
    }
    n
}

macro_rules! runs {
    ($whole:ident, $chunked:ident, $tokenizer:ty) => {
        fn $whole(case: &Case, options: Options) -> Items {
            let mut items = Items::default();
            pull(
                <$tokenizer>::new(options).tokenize(&case.data),
                None,
                &mut items,
            );
            items
        }

        fn $chunked(case: &Case, options: Options) -> Items {
            let mut tokenizer = <$tokenizer>::new(options);
            let (mut items, pause) = (Items::default(), case.config.pause);
            for (start, end) in case.cuts() {
                pull(tokenizer.feed(&case.data[start..end]), pause, &mut items);
                while pause.is_some() && pull(tokenizer.feed(&[]), pause, &mut items) > 0 {}
            }
            while pull(tokenizer.finish(), pause, &mut items) > 0 && pause.is_some() {}
            items
        }
    };
}

runs!(html_whole, html_chunked, Tokenizer);
runs!(xml5_whole, xml5_chunked, xml5::Tokenizer);

/// The target: see the module docs.
pub fn lossless(case: &Case) {
    let options = case.config.options();
    let plain = html_whole(case, options.clone());
    check(
        "html whole",
        case,
        &plain,
        &html_whole(case, options.clone().lossless(true)),
    );
    check(
        "html chunked",
        case,
        &plain,
        &html_chunked(case, options.lossless(true)),
    );
    let options = Options::new().errors(case.config.errors);
    let plain = xml5_whole(case, options.clone());
    check(
        "xml5 whole",
        case,
        &plain,
        &xml5_whole(case, options.clone().lossless(true)),
    );
    check(
        "xml5 chunked",
        case,
        &plain,
        &xml5_chunked(case, options.lossless(true)),
    );
}

fn check(what: &str, case: &Case, plain: &Items, lossless: &Items) {
    let mut at = 0;
    for &(kind, span) in &lossless.items {
        assert_eq!(
            span.start, at,
            "{what}: {kind} {span:?} does not start where the last item ended"
        );
        at = span.end;
    }
    assert_eq!(
        at,
        case.data.len(),
        "{what}: the items end before the input"
    );
    assert!(
        lossless.bytes == case.data,
        "{what}: the raw bytes differ from the input"
    );
    same_list(what, "tokens", &plain.tokens(), &lossless.tokens());
}
