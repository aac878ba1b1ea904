//! The memory limits' contract (`Options::max_carry`, `Options::max_arena`), checked by comparing
//! a run with limits against the same run without them.
//!
//! `tagstream::LimitError` promises: the tokens before its `offset` were all handed out, nothing
//! was cut short, and the token at `offset` and everything after it are not produced; the stream
//! stays stopped. `Options::max_carry` adds that a token is carried, and so can trip the limit,
//! only while it is unfinished: decided text is never carried.

use tagstream::html5lib::Html5libToken;
use tagstream::{Limit, LimitError, ParseError, Span};

use crate::case::Limits;
use crate::check::Bytes;
use crate::drive::{Outcome, assert_same, same_list};

/// `got`, a run with `limits`, against `want`, the same run without: the same outcome, or a stop
/// at a limit that keeps the contract (errors compared only when `errors`).
pub fn assert_same_or_stopped(
    what: &str,
    want: &Outcome,
    got: &Outcome,
    input: &[u8],
    limits: Limits,
    errors: bool,
) {
    let Some(e) = got.limit else {
        return assert_same(what, want, got, errors);
    };
    let what = &format!("{what}, stopped at {e:?}");
    assert!(want.limit.is_none(), "{what}: the reference run has limits");
    let max = match e.limit {
        Limit::Carry => limits.carry,
        Limit::Arena => limits.arena,
    };
    assert!(
        e.needed > e.max && e.max == max && e.offset <= input.len(),
        "{what}: the error does not fit the limits {limits:?}"
    );
    same_list(
        what,
        "spans",
        &cut_spans(what, &want.spans, e.offset),
        &got.spans,
    );
    assert_token_prefix(what, &want.tokens, &got.tokens);
    if errors {
        assert_errors_before(what, &want.errors, &got.errors, e.offset);
    }
    // Which tokens the simulator was unsure about is not recorded: a prefix has no more.
    assert!(
        got.ambiguous <= want.ambiguous,
        "{what}: ambiguous_count {} after the stop, {} in the whole run",
        got.ambiguous,
        want.ambiguous
    );
    if e.limit == Limit::Carry {
        assert_carried_one_unfinished_token(what, &want.spans, input, e);
    }
}

/// The spans of a run stopped at `offset`: those that start before it, a text span that straddles
/// it shortened to end there. A token of another kind may not straddle it (it would have been
/// handed out cut short, or a token before the offset would be missing).
fn cut_spans(
    what: &str,
    spans: &[(&'static str, Span)],
    offset: usize,
) -> Vec<(&'static str, Span)> {
    let mut out = Vec::new();
    for &(kind, span) in spans.iter().take_while(|(_, s)| s.start < offset) {
        if span.end <= offset {
            out.push((kind, span));
            continue;
        }
        assert_eq!(
            kind, "text",
            "{what}: the stop cuts a {kind} token {span:?}"
        );
        out.push((
            kind,
            Span {
                start: span.start,
                end: offset,
            },
        ));
    }
    out
}

/// The stopped run's html5lib tokens are the whole run's first ones; the last may be a text cut
/// short (a prefix of the whole run's text token there).
fn assert_token_prefix(what: &str, want: &[Html5libToken], got: &[Html5libToken]) {
    let Some((last, before)) = got.split_last() else {
        return;
    };
    assert!(
        got.len() <= want.len(),
        "{what}: more tokens than the whole run"
    );
    same_list(what, "tokens", &want[..before.len()], before);
    let full = &want[before.len()];
    let cut_text = matches!(
        (full, last),
        (Html5libToken::Character(a), Html5libToken::Character(b)) if a.starts_with(b.as_str())
    );
    assert!(
        last == full || cut_text,
        "{what}: last token {last:?} is not the whole run's {full:?} or a text prefix of it"
    );
}

/// Errors before the stop are the whole run's; any reported at or after it (for bytes the
/// tokenizer read before stopping) are among the whole run's too.
fn assert_errors_before(what: &str, want: &[ParseError], got: &[ParseError], offset: usize) {
    let before = |errors: &[ParseError]| -> Vec<ParseError> {
        errors
            .iter()
            .filter(|e| e.offset < offset)
            .copied()
            .collect()
    };
    same_list(what, "errors before the stop", &before(want), &before(got));
    for e in got.iter().filter(|e| e.offset >= offset) {
        assert!(
            want.contains(e),
            "{what}: error {e:?} is not the whole run's"
        );
    }
}

/// `Limit::Carry`: no limit error unless one token is larger than the limit. The carried bytes,
/// from `e.offset`, belong to the one unfinished token there (`T`, the whole run's token that holds
/// the offset):
/// - not text: `T` reaches at least `e.needed` bytes past the offset;
/// - text: it is carried only while undecided, for a possible character reference (`&`, then
///   name characters or digits: numeric references may be arbitrarily long), a possible end tag
///   name (`</` and letters), or a CR (whose LF may follow): never past ASCII whitespace.
///   Checked on the carried bytes but the first (a CR, say) and the last (`needed` may count the
///   one byte the tokenizer wanted to add, unseen by it, which may be anything);
/// - no token holds the offset: the rest of the input is dropped at its end (an unclosed tag, for
///   example), and the stop only came sooner.
fn assert_carried_one_unfinished_token(
    what: &str,
    spans: &[(&'static str, Span)],
    input: &[u8],
    e: LimitError,
) {
    let Some(&(kind, t)) = spans
        .iter()
        .find(|(_, s)| s.start <= e.offset && e.offset < s.end)
    else {
        return;
    };
    if kind != "text" {
        assert!(
            t.end - e.offset >= e.needed,
            "{what}: needs {} bytes but the {kind} token {t:?} at the offset has only {}",
            e.needed,
            t.end - e.offset
        );
        return;
    }
    let end = (e.offset + e.needed).min(input.len());
    let inner = &input[(e.offset + 1).min(end)..(e.offset + e.needed - 1).min(end)];
    assert!(
        !inner.iter().any(u8::is_ascii_whitespace),
        "{what}: decided text carried (whitespace inside the carried bytes {:?})",
        Bytes(&input[e.offset..end])
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Case;
    use crate::drive::{run_chunked, run_whole, run_whole_limited};

    /// A case with flags `flags | 128`, limits nibble `k`, no pause, the given chunk lengths.
    fn limited(flags: u8, k: u8, chunks: &[u8], doc: &[u8]) -> Case {
        let mut bytes = vec![flags | 128, 0, 0, 0, k << 4, chunks.len() as u8];
        bytes.extend_from_slice(chunks);
        bytes.extend_from_slice(doc);
        Case::parse(&bytes)
    }

    fn long_comment() -> Vec<u8> {
        let mut doc = b"<p>before</p><!--".to_vec();
        doc.resize(doc.len() + 100, b'x');
        doc.extend_from_slice(b"--><p>after</p>");
        doc
    }

    #[test]
    fn the_limits_nibble_decodes_as_documented() {
        let c = Case::parse(&[128, 0, 0, 0, 0x9 << 4 | 5]);
        assert_eq!(c.config.pause, Some(5));
        let limits = Limits {
            carry: 32,
            arena: 512 << 4,
        };
        assert_eq!(c.config.limits, Some(limits));
        let options = format!("{:?}", c.config.limited_options());
        assert!(options.contains("carry: 32, arena: 8192"), "{options}");
        assert!(format!("{:?}", c.config.options()).contains(&format!("{}", usize::MAX)));
        // Without flag 128 the nibble means nothing; 0 is no pause.
        let c = Case::parse(&[1, 0, 0, 0, 0xF0]);
        assert_eq!((c.config.pause, c.config.limits), (None, None));
        assert_eq!(
            Limits::from_nibble(0),
            Limits {
                carry: 8,
                arena: 512
            }
        );
        assert_eq!(
            Limits::from_nibble(15),
            Limits {
                carry: 512,
                arena: 32 << 10
            }
        );
    }

    #[test]
    fn a_long_comment_cut_by_chunks_trips_the_carry_limit() {
        let doc = long_comment();
        for (k, chunk) in [(0, 16), (1, 40), (1, 7)] {
            let case = limited(1 | 32, k, &[chunk], &doc);
            crate::chunks(&case);
            let e = run_chunked(&case).limit.expect("the comment is carried");
            assert_eq!((e.limit, e.offset), (Limit::Carry, 13), "{case:?}");
        }
    }

    #[test]
    fn plain_text_with_lone_lts_never_trips_the_carry_limit() {
        // Each `<` is followed by a space in the same chunk: only whole runs of text end chunks.
        let mut doc = b"<p>".to_vec();
        for _ in 0..20 {
            doc.extend_from_slice(b"a < b");
            doc.resize(doc.len() + 45, b'x');
        }
        for chunk in [10, 25, 50, 127] {
            let case = limited(1, 0, &[chunk], &doc);
            crate::chunks(&case);
            assert_eq!(run_chunked(&case).limit, None, "{case:?}");
        }
    }

    /// Found with this harness: text carried from a chunk's end (a CR, a possible character
    /// reference, a lone `<`, a possible end tag) was extended with the next chunk's text,
    /// decided or not, until a token came out, so a run of plain text longer than `max_carry`
    /// after it stopped the stream there.
    #[test]
    fn a_text_tail_carried_into_a_long_run_of_text_never_trips_the_carry_limit() {
        for (doc, first) in [
            (&b"a\r\nb c d e f"[..], 2),
            (b"a&am b c d e f", 4),
            (b"a< b c d e f g", 2),
        ] {
            let case = limited(0, 0, &[first, 127], doc);
            crate::chunks(&case);
            assert_eq!(run_chunked(&case).limit, None, "{case:?}");
        }
        // RCDATA after `<title>`: `</ti` may be the end tag; `x` decides it is text.
        let mut bytes = vec![128, 1, 3, 0, 0, 3, 6, 1, 127];
        bytes.extend_from_slice(b"ab</tix b c d e f g");
        crate::chunks(&Case::parse(&bytes));
    }

    #[test]
    fn attribute_lists_trip_the_arena_limit_at_a_token_boundary() {
        let doc = b"<i a=1 b=2 c=3 d=4 e=5>t".repeat(200);
        // Carry 512 bytes (never reached), arena 2 KiB.
        let case = limited(0, 7, &[], &doc);
        crate::tokenize(&case);
        let e = run_whole_limited(&case)
            .limit
            .expect("the arena outgrows 2 KiB");
        assert_eq!(e.limit, Limit::Arena);
        assert!(matches!(e.offset % 24, 0 | 23), "at a token's start: {e:?}");
        // Fed in 64-byte chunks, the arena is reset at every feed and holds.
        let case = limited(0, 7, &[64], &doc);
        crate::chunks(&case);
        assert_eq!(run_chunked(&case).limit, None);
    }

    /// The whole run of `doc` as if it had stopped at `e` (each run the same up to the offset).
    fn stopped_at(doc: &[u8], e: LimitError) -> (Outcome, Outcome) {
        let case = limited(0, 0, &[], doc);
        let whole = run_whole(&case);
        let cut = run_whole(&limited(0, 0, &[], &doc[..e.offset]));
        let stopped = Outcome {
            limit: Some(e),
            ..cut
        };
        (whole, stopped)
    }

    fn carry(needed: usize, offset: usize) -> LimitError {
        LimitError {
            limit: Limit::Carry,
            max: 8,
            needed,
            offset,
        }
    }

    #[test]
    fn a_stop_inside_an_unfinished_token_keeps_the_contract() {
        let doc = b"<p>a &CounterClockwiseContourIntegral; b</p><!-- long comment -->";
        let limits = Limits::from_nibble(0);
        let (whole, stopped) = stopped_at(doc, carry(9, 44));
        assert_same_or_stopped("comment", &whole, &stopped, doc, limits, true);
        // Text carried from a possible character reference.
        let (whole, stopped) = stopped_at(doc, carry(20, 5));
        assert_same_or_stopped("reference", &whole, &stopped, doc, limits, true);
    }

    #[test]
    #[should_panic(expected = "decided text carried")]
    fn decided_text_carried_breaks_the_contract() {
        let doc = b"<p>a < b and more plain text</p>";
        let (whole, stopped) = stopped_at(doc, carry(12, 5));
        assert_same_or_stopped(
            "lone <",
            &whole,
            &stopped,
            doc,
            Limits::from_nibble(0),
            true,
        );
    }

    #[test]
    #[should_panic(expected = "the stop cuts a start tag")]
    fn a_token_cut_short_breaks_the_contract() {
        let doc = b"<p>a</p><a href=x>b</a>";
        let (whole, mut stopped) = stopped_at(doc, carry(9, 10));
        stopped.spans = whole.spans[..2].to_vec();
        assert_same_or_stopped("tag", &whole, &stopped, doc, Limits::from_nibble(0), true);
    }

    #[test]
    #[should_panic(expected = "has only 8")]
    fn a_small_token_carried_breaks_the_contract() {
        let doc = b"<p>a</p><a href>b</a>";
        let (whole, stopped) = stopped_at(doc, carry(9, 8));
        assert_same_or_stopped("tag", &whole, &stopped, doc, Limits::from_nibble(0), true);
    }
}
