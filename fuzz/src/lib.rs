//! The harness the fuzz targets share (`fuzz_targets/*.rs` are one line each).
//!
//! - [`case`]: how a fuzz input decodes into options, a run plan and a document.
//! - [`check`]: per-token invariants and independent oracles (positions, names, plain text).
//! - [`drive`]: running tagstream whole or chunked, with feedback and pauses, into an [`Outcome`].
//! - [`limits`]: the memory limits' contract, a run with limits against one without.
//! - [`lossless`]: every byte handed out (`Options::lossless`), HTML and XML5.
//! - [`reference`]: html5ever's tokenizer in the same token shapes.
//! - [`write`]: the rewriter (no change = the input; splices) and the serializer (round trip).
//! - [`xml5`]: the XML5 tokenizer's target (no panic, per-token checks, chunk invariance).
//! - [`xml5_tree`]: the XML5 tree stage's target (no panic, balanced events, chunk invariance of
//!   the events, errors and tree, the depth limit).
//! - [`sgml`]: the SGML lexer's target (no panic, lossless, per-event checks, chunk invariance).
//!
//! Only tagstream's public API is used, and for the `scan` target its `fuzzing` feature's hook into
//! the crate-private scanner.

pub mod case;
pub mod check;
pub mod drive;
pub mod limits;
pub mod lossless;
pub mod reference;
pub mod sgml;
pub mod write;
pub mod xml5;
pub mod xml5_tree;

use tagstream::html5lib::Html5libToken;
use tagstream::{Limit, Position};

pub use case::{Case, Config};
pub use drive::{Outcome, assert_same, run_chunked, run_whole, run_whole_limited};

/// Target `tokenize`: any bytes, any options. Tokenizing must not panic, and every token must pass
/// [`check::check_token`] (spans inside the input, ordered, non-overlapping; parts inside their
/// token; raw accessors equal to input slices; decoded values equal to the oracles where the
/// standard's rule needs no character reference; positions equal to the oracle's). Turning errors
/// and position tracking on or off must not change the tokens. With memory limits (flag 128), the
/// run with them gives the same, or stops at the arena limit (a whole document carries nothing)
/// as [`limits::assert_same_or_stopped`] says.
pub fn tokenize(case: &Case) {
    let first = run_whole(case);
    let mut flipped = case.clone();
    flipped.config.errors = !case.config.errors;
    flipped.config.track_positions = !case.config.track_positions;
    let second = run_whole(&flipped);
    assert_same("errors and positions toggled", &first, &second, false);
    if let Some(limits) = case.config.limits {
        let limited = run_whole_limited(case);
        if let Some(e) = limited.limit {
            assert_eq!(e.limit, Limit::Arena, "a whole document stopped at {e:?}");
        }
        limits::assert_same_or_stopped(
            "whole with limits",
            &first,
            &limited,
            &case.data,
            limits,
            true,
        );
    }
}

/// Target `chunks`: the same bytes fed in the case's chunks (empty feeds included), pausing and
/// resuming as it says, give the same tokens (text merged), spans (text merged) and errors (code,
/// offset, line, column) as the whole input. With memory limits (flag 128) on the chunked run
/// only, it gives the same or stops at a limit as [`limits::assert_same_or_stopped`] says.
pub fn chunks(case: &Case) {
    let whole = run_whole(case);
    let chunked = run_chunked(case);
    match case.config.limits {
        Some(limits) => limits::assert_same_or_stopped(
            "whole vs chunked with limits",
            &whole,
            &chunked,
            &case.data,
            limits,
            true,
        ),
        None => assert_same("whole vs chunked", &whole, &chunked, true),
    }
}

/// The needles the tokenizer searches for most, in threes.
const NEEDLES: [[u8; 3]; 4] = [
    [b'<', b'&', b'\r'],
    [b'"', b'&', 0],
    [b'\'', b'>', b'/'],
    [b'-', b'=', b'<'],
];

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Target `scan`: the SIMD scanner, directly and through its effect.
/// - Directly: every search of `src/scan` against its scalar oracle on the document's bytes, at
///   every start in its first 64 bytes and every end in its last 64, with the needles the
///   tokenizer uses and three of the document's own bytes (`tagstream::fuzzing`).
/// - Through its effect: the document behind 1 to 64 bytes of plain text (every alignment of a
///   64-byte block, and every length of the first text run across the 16-byte block the scanner
///   tests inline) must give the document's own tokens, spans and errors, shifted.
pub fn scan(case: &Case) {
    let data = &case.data;
    if let (Some(&first), Some(&last)) = (data.first(), data.last()) {
        let own = [first, data[data.len() / 2], last];
        for needles in NEEDLES.into_iter().chain([own]) {
            tagstream::fuzzing::scanner_agrees_with_scalar(data, needles);
        }
    }
    // ASCII whitespace other than newlines: plain text to the tokenizer in every text state, and
    // nothing to the tree-builder simulator (whitespace before anything else is ignored or kept
    // without changing the insertion mode), so the prefix changes no decision.
    let pad: Vec<u8> = b" \t\x0c  \t\x0c\x0c"
        .iter()
        .cycle()
        .take(64)
        .copied()
        .collect();
    // A leading byte order mark is stripped (`Options::strip_bom`), but behind the padding it is
    // text: the property is about the document without it.
    let document = Case {
        config: case.config.clone(),
        data: case.data.strip_prefix(BOM).unwrap_or(&case.data).to_vec(),
    };
    let base = run_whole(&document);
    // One tokenizer for all paddings: `tokenize` resets it and keeps its buffers and arena.
    let mut tokenizer = tagstream::Tokenizer::new(case.config.options());
    for n in 1..=pad.len() {
        let pad = &pad[..n];
        let mut data = pad.to_vec();
        data.extend_from_slice(&document.data);
        let padded = Case {
            config: case.config.clone(),
            data,
        };
        let got = drive::run_whole_unchecked(&mut tokenizer, &padded);
        assert_same(
            &format!("behind {n} bytes of text"),
            &shift(&base, pad),
            &got,
            true,
        );
    }
}

/// What a run of the document behind `pad` (ASCII text, no newline, one column a byte) must give.
fn shift(outcome: &Outcome, pad: &[u8]) -> Outcome {
    let n = pad.len();
    let mut tokens = vec![Html5libToken::Character(
        String::from_utf8(pad.to_vec()).expect("ASCII"),
    )];
    for t in &outcome.tokens {
        match (tokens.last_mut(), t) {
            (Some(Html5libToken::Character(prev)), Html5libToken::Character(s)) => prev.push_str(s),
            _ => tokens.push(t.clone()),
        }
    }
    let mut spans = vec![("text", tagstream::Span { start: 0, end: n })];
    for &(kind, s) in &outcome.spans {
        let s = tagstream::Span {
            start: s.start + n,
            end: s.end + n,
        };
        match spans.last_mut() {
            Some((last, prev)) if kind == "text" && *last == "text" && prev.end == s.start => {
                prev.end = s.end
            }
            _ => spans.push((kind, s)),
        }
    }
    let errors = outcome
        .errors
        .iter()
        .map(|e| {
            let mut e = *e;
            e.offset += n;
            if e.position.line == 1 {
                e.position = Position {
                    line: 1,
                    col: e.position.col + n as u64,
                };
            }
            e
        })
        .collect();
    Outcome {
        tokens,
        errors,
        spans,
        valid_utf8: outcome.valid_utf8,
        ambiguous: outcome.ambiguous,
        limit: outcome.limit,
    }
}

/// Target `html5ever`: differential against html5ever 0.40's tokenizer on valid UTF-8 (the input,
/// decoded lossily), with the same text-state switching on both sides, tagstream in legacy
/// processing-instruction mode (html5ever predates PIs). Known html5ever deviations from the
/// standard are skipped by [`known_html5ever_deviation`]; every one of them has a regression test of
/// tagstream's behaviour in `tests/regressions.rs`.
pub fn html5ever(case: &Case) {
    let text = String::from_utf8_lossy(&case.data).into_owned();
    let mut config = case.config.clone();
    config.legacy_pi = true;
    // Feedback html5ever's sink cannot mirror: arbitrary switches (no way back to data or into CDATA).
    config.switch = None;
    // The simulator (once it exists) would switch states by its own rules, which the sink does not
    // play; the naive feedback of bit 8 is what both sides share.
    config.simulate = false;
    // Only names a tokenizer can emit as the last start tag (lowercase, no NUL): what a misuse
    // such as `last_start_tag("SCRIPT")` means is each library's own choice (tagstream matches it
    // case-insensitively, html5ever never), not the standard's.
    if config
        .last_start_tag
        .is_some_and(|t| check::name_oracle(t.as_bytes()) != t)
    {
        config.last_start_tag = None;
    }
    let theirs = reference::html5ever_tokens(&text, &config);
    let case = Case {
        config,
        data: text.into_bytes(),
    };
    let ours = run_whole(&case).tokens;
    if ours == theirs {
        return;
    }
    if let Some(_class) = known_html5ever_deviation(&case) {
        return;
    }
    let i = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
    panic!(
        "tagstream and html5ever differ at token {i}:\n  tagstream {:?}\n  html5ever {:?}\n  \
         all tagstream {ours:?}\n  all html5ever {theirs:?}",
        ours.get(i),
        theirs.get(i)
    );
}

/// Inputs on which html5ever 0.40 is known to deviate from the standard (triaged by hand; each
/// class has a regression test of tagstream's side in `tests/regressions.rs`). Returns the class.
pub fn known_html5ever_deviation(case: &Case) -> Option<&'static str> {
    let _ = case;
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagstream::TextKind;

    fn case(header: &[u8], doc: &str) -> Case {
        let mut bytes = header.to_vec();
        if bytes.len() < 6 {
            bytes.resize(6, 0);
        }
        bytes.extend_from_slice(doc.as_bytes());
        Case::parse(&bytes)
    }

    #[test]
    fn the_header_decodes_as_documented() {
        let c = Case::parse(&[1 | 8, 3, 1, 0, 0, 2, 0, 200, b'<', b'a']);
        assert!(c.config.errors && c.config.feedback && !c.config.legacy_pi);
        assert_eq!(c.config.initial_state, TextKind::ScriptData);
        assert_eq!(c.config.last_start_tag, Some("script"));
        assert_eq!(c.config.chunks, [0, (200 - 127) * 64]);
        assert_eq!(c.data, b"<a");
        let empty = Case::parse(b"");
        assert_eq!(empty.config, Case::parse(&[0; 6]).config);
        assert!(empty.data.is_empty());
        // One byte at a time by default; empty feeds alone do not loop forever.
        assert_eq!(case(&[], "abc").cuts(), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(
            Case::parse(&[0, 0, 0, 0, 0, 1, 0, b'x']).cuts(),
            [(0, 0), (0, 1)]
        );
    }

    #[test]
    fn the_position_oracle_follows_the_documented_rules() {
        let p = check::positions(b"ab\ncd\r\nx\ry\xF0\x9F\x98\x80z\xFFw");
        let at = |i: usize| (p[i].line, p[i].col);
        assert_eq!([at(0), at(2), at(3)], [(1, 1), (1, 3), (2, 1)]);
        assert_eq!([at(5), at(6), at(7)], [(2, 3), (2, 3), (3, 1)]); // CRLF: the LF is the CR's
        assert_eq!([at(8), at(9)], [(3, 2), (4, 1)]); // lone CR
        assert_eq!([at(10), at(12), at(14)], [(4, 2), (4, 2), (4, 4)]); // inside an astral char
        assert_eq!([at(15), at(16), at(17)], [(4, 5), (4, 6), (4, 7)]); // \xFF is one unit; end
        // A leading byte order mark is stripped: columns count from after it; a second is text.
        let p = check::positions(b"\xEF\xBB\xBF\xEF\xBB\xBFa");
        let at = |i: usize| (p[i].line, p[i].col);
        assert_eq!(
            [at(0), at(3), at(6), at(7)],
            [(1, 1), (1, 1), (1, 2), (1, 3)]
        );
    }

    #[test]
    fn html5ever_reference_shapes_tokens_like_html5lib() {
        let c = case(
            &[8],
            "<!DOCTYPE html><a B=c>x\0y</A><script><b>&amp;</script><!--z-->\r\n",
        );
        let want = [
            "Doctype { name: Some(\"html\"), public_id: None, system_id: None, correctness: true }",
            "StartTag { name: \"a\", attributes: [(\"b\", \"c\")], self_closing: false }",
            "Character(\"x\\0y\")",
            "EndTag { name: \"a\" }",
            "StartTag { name: \"script\", attributes: [], self_closing: false }",
            "Character(\"<b>&amp;\")",
            "EndTag { name: \"script\" }",
            "Comment(\"z\")",
            "Character(\"\\n\")",
        ];
        let got = reference::html5ever_tokens(std::str::from_utf8(&c.data).unwrap(), &c.config);
        let got: Vec<String> = got.iter().map(|t| format!("{t:?}")).collect();
        assert_eq!(got, want);
        html5ever(&c);
    }

    #[test]
    fn every_target_passes_on_a_few_documents() {
        for doc in [
            "",
            "<p class=a>x &amp; y</p>",
            "<title>a</title><script><!--<script>",
            "\r\n\0",
            "\u{FEFF}foo\u{FEFF}bar",
        ] {
            for header in [&[][..], &[1], &[1 | 8 | 32, 1, 3, 9, 2, 3, 1, 0, 130]] {
                let c = case(header, doc);
                eprintln!("{c:?}");
                tokenize(&c);
                chunks(&c);
                html5ever(&c);
                scan(&c);
            }
        }
    }
}
