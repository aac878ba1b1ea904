//! [`Options::lossless`]: the raw bytes of everything the iterator yields, concatenated, are the
//! input — for HTML and XML5, whole, one byte at a time, at every split of a short input, in random
//! chunks, and with pauses (the iterator dropped after every k items, resumed by empty feeds) — and
//! the tokens are the ones the tokenizer gives without it (the raw items only fill the gaps).
//!
//! Random chunkings come from the fixed-seed PRNG of `tests/common`; `TAGSTREAM_PROPTEST_CASES`
//! raises the number of cases.

mod common;

use std::path::PathBuf;

use common::{Rng, even_cuts, native_or_miri, proptest_cases, random_cuts};
use tagstream::{Options, Span, Token, Tokenizer, xml5};

/// One item as the property compares it: its kind (and for text, its decoded text), its span.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    what: String,
    span: Span,
}

fn item(token: &Token<'_>) -> Item {
    let what = match token {
        Token::Text(t) => format!("text {}", t.text()),
        Token::StartTag(t) => format!("<{} {}>", t.name(), t.attributes().count()),
        Token::EndTag(t) => format!("</{}>", t.name()),
        Token::Comment(c) => format!("<!--{}-->", c.data()),
        Token::Doctype(d) => format!("doctype {:?}", d.name()),
        Token::ProcessingInstruction(pi) => format!("<?{} {}>", pi.target(), pi.data()),
        Token::Raw(_) => "raw".to_owned(),
    };
    Item {
        what,
        span: token.span(),
    }
}

/// What one run handed out: the items, and the bytes of their raw slices, concatenated.
#[derive(Default)]
struct Run {
    items: Vec<Item>,
    bytes: Vec<u8>,
}

impl Run {
    fn push(&mut self, token: &Token<'_>) {
        self.items.push(item(token));
        self.bytes.extend_from_slice(token.raw());
    }

    /// The tokens other than raw items, text merged (seams split text differently).
    fn tokens(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for item in self.items.iter().filter(|i| i.what != "raw") {
            match (out.last_mut(), item.what.strip_prefix("text ")) {
                (Some(last), Some(text)) if last.starts_with("text ") => last.push_str(text),
                _ => out.push(item.what.clone()),
            }
        }
        out
    }

    /// Every item starts where the one before it ended, from 0 to `len`.
    fn contiguity(&self, len: usize) -> Result<(), String> {
        let mut at = 0;
        for item in &self.items {
            if item.span.start != at {
                return Err(format!("{item:?} does not start at {at}"));
            }
            at = item.span.end;
        }
        if at != len {
            return Err(format!("the items end at {at}, the input at {len}"));
        }
        Ok(())
    }
}

/// A dialect's tokenizer, driven the same way for both.
trait Drive {
    fn run(&mut self, input: &[u8], cuts: &[usize], pause_every: Option<usize>) -> Run;
}

/// Pull at most `limit` items from `tokens` into `run`; returns how many.
fn pull<'t>(tokens: impl Iterator<Item = Token<'t>>, limit: Option<usize>, run: &mut Run) -> usize {
    let mut n = 0;
    for token in tokens.take(limit.unwrap_or(usize::MAX)) {
        run.push(&token);
        n += 1;
    }
    n
}

macro_rules! drive {
    ($tokenizer:ty) => {
        impl Drive for $tokenizer {
            fn run(&mut self, input: &[u8], cuts: &[usize], pause_every: Option<usize>) -> Run {
                let mut run = Run::default();
                let mut start = 0;
                for &end in cuts.iter().chain(std::iter::once(&input.len())) {
                    pull(self.feed(&input[start..end]), pause_every, &mut run);
                    if pause_every.is_some() {
                        while pull(self.feed(&[]), pause_every, &mut run) > 0 {}
                    }
                    start = end;
                }
                while pull(self.finish(), pause_every, &mut run) > 0 && pause_every.is_some() {}
                run
            }
        }
    };
}

drive!(Tokenizer);
drive!(xml5::Tokenizer);

/// Check `input` under `cuts` (and pauses) against the whole run without lossless.
fn check(
    name: &str,
    input: &[u8],
    plain: &Run,
    lossless: &mut dyn Drive,
    cuts: &[usize],
    pause_every: Option<usize>,
) -> Result<(), String> {
    let run = lossless.run(input, cuts, pause_every);
    let how = format!("{name}, cuts {cuts:?}, pausing every {pause_every:?}");
    run.contiguity(input.len())
        .map_err(|e| format!("{how}: {e}"))?;
    if run.bytes != input {
        return Err(format!("{how}: the raw bytes differ from the input"));
    }
    let (got, expected) = (run.tokens(), plain.tokens());
    if got != expected {
        let at = got
            .iter()
            .zip(&expected)
            .take_while(|(a, b)| a == b)
            .count();
        return Err(format!(
            "{how}: token {at} differs: lossless {:?}, plain {:?}",
            got.get(at),
            expected.get(at)
        ));
    }
    Ok(())
}

/// Every chunking and pause pattern of the property on one input; returns the failures.
fn all_chunkings(
    name: &str,
    input: &[u8],
    plain: &mut dyn Drive,
    lossless: &mut dyn Drive,
    rng: &mut Rng,
) -> Vec<String> {
    let whole = plain.run(input, &[], None);
    let mut plans: Vec<(Vec<usize>, Option<usize>)> = vec![
        (vec![], None),
        (even_cuts(input.len(), 1), None),
        (even_cuts(input.len(), 4096), None),
        (vec![], Some(1)),
        (even_cuts(input.len(), 7), Some(2)),
    ];
    if input.len() <= 200 {
        plans.extend((1..input.len()).map(|i| (vec![i], None)));
        plans.extend((1..input.len()).map(|i| (vec![i], Some(1))));
    }
    for _ in 0..proptest_cases(native_or_miri(8, 1), 1) {
        let pause = rng.chance(1, 2).then(|| rng.range(1, 4));
        plans.push((random_cuts(rng, input.len()), pause));
    }
    plans
        .iter()
        .filter_map(|(cuts, pause)| check(name, input, &whole, lossless, cuts, *pause).err())
        .collect()
}

/// Markup whose bytes the standards drop, or that likes to fall on a seam.
const HTML_SNIPPETS: &[&str] = &[
    "\u{FEFF}<p>bom</p>",
    "\u{FEFF}",
    "\u{FEFF}\u{FEFF}x",
    "a</>b</></>c",
    "</>",
    "<svg><![CDATA[x]]><![CDATA[]]>y</svg>",
    "<svg><![CDATA[ a ]] ]]> b ]]></svg>",
    "<svg><![CDATA[unterminated",
    "<math><![CDATA[\r\n\0]]></math><![CDATA[in html]]>",
    "a<div class=x",
    "a<div class=\"x",
    "a<div class='x' ",
    "x</p",
    "x</p ",
    "<",
    "</",
    "<!",
    "<!-",
    "<!--",
    "<!DOCTYPE html",
    "<?pi data",
    "<p/>\r\n\r\n\r<br\r\n/>\0\0<a\0b>",
    "<title>a</> </title></><textarea>\n\nx</textarea>",
    "<script>a</script <p></script><style></></style>",
    "<pre>\n\nx</pre><listing>\ny</listing>",
    "<plaintext></plaintext><b>",
    "&amp &#x41; &notit; &#0;</>&",
    "\u{80}\u{FFFF}\u{10FFFF} bad \u{7F}",
];

/// Bytes that are not UTF-8, which the tokenizer hands through as they are.
const INVALID_UTF8: &[&[u8]] = &[b"a\xFFb</>\xC3", b"<p \xE2\x82>\xF0\x9F\x98", b"\xEF\xBB"];

const XML_SNIPPETS: &[&str] = &[
    "\u{FEFF}<?xml version='1.0'?><a/>",
    "<a></><b/></b></>",
    "<a><![CDATA[x]]><![CDATA[]]></a>",
    "<![CDATA[unterminated",
    "<a b='c",
    "<a b",
    "</a",
    "<!DOCTYPE x [<!ENTITY e ']>'><!-- ] -->]><x>&e;</x>",
    "<!DOCTYPE x [ unterminated",
    "<?pi",
    "<!-- x",
    "<a>\r\n\0&amp;&#0;</a>",
];

fn samples(extension: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("datasets/samples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{extension} samples in {}",
        dir.display()
    );
    files
        .into_iter()
        .map(|p| {
            let mut bytes = std::fs::read(&p).expect("read sample");
            bytes.truncate(native_or_miri(usize::MAX, 256));
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

fn html_inputs() -> Vec<(String, Vec<u8>)> {
    let snippets = HTML_SNIPPETS.iter().map(|s| s.as_bytes());
    let mut inputs: Vec<(String, Vec<u8>)> = snippets
        .chain(INVALID_UTF8.iter().copied())
        .map(|s| (format!("{:?}", String::from_utf8_lossy(s)), s.to_vec()))
        .collect();
    inputs.extend(samples("html"));
    inputs
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failures, the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

fn html_options() -> [Options; 3] {
    [
        Options::new(),
        Options::new().errors(true),
        Options::new().strip_bom(false).simulate(false),
    ]
}

#[test]
fn html_raw_bytes_reproduce_the_input_under_any_chunking() {
    let mut rng = Rng::new(0x1055);
    let mut failures = Vec::new();
    for options in html_options() {
        let mut plain = Tokenizer::new(options.clone());
        let mut lossless = Tokenizer::new(options.lossless(true));
        for (name, input) in html_inputs() {
            failures.extend(all_chunkings(
                &name,
                &input,
                &mut plain,
                &mut lossless,
                &mut rng,
            ));
        }
    }
    report(failures);
}

#[test]
fn xml5_raw_bytes_reproduce_the_input_under_any_chunking() {
    let mut rng = Rng::new(0x1056);
    let mut inputs: Vec<(String, Vec<u8>)> = XML_SNIPPETS
        .iter()
        .chain(HTML_SNIPPETS)
        .map(|s| (format!("{s:?}"), s.as_bytes().to_vec()))
        .collect();
    inputs.extend(INVALID_UTF8.iter().map(|s| (format!("{s:?}"), s.to_vec())));
    inputs.extend(samples("xml"));
    inputs.extend(samples("svg"));
    let mut failures = Vec::new();
    for options in [Options::new(), Options::new().errors(true)] {
        let mut plain = xml5::Tokenizer::new(options.clone());
        let mut lossless = xml5::Tokenizer::new(options.lossless(true));
        for (name, input) in &inputs {
            failures.extend(all_chunkings(
                name,
                input,
                &mut plain,
                &mut lossless,
                &mut rng,
            ));
        }
    }
    report(failures);
}

#[test]
fn the_dropped_bytes_come_out_as_raw_items_in_place() {
    let input = "\u{FEFF}a</>b<svg><![CDATA[c]]></svg><p";
    let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    let items: Vec<(String, String)> = tokenizer
        .tokenize(input.as_bytes())
        .map(|t| {
            let kind = match t {
                Token::Raw(_) => "raw",
                Token::Text(_) => "text",
                Token::StartTag(_) => "start",
                Token::EndTag(_) => "end",
                _ => "other",
            };
            (
                kind.to_owned(),
                String::from_utf8_lossy(t.raw()).into_owned(),
            )
        })
        .collect();
    let expected = [
        ("raw", "\u{FEFF}"),
        ("text", "a"),
        ("raw", "</>"),
        ("text", "b"),
        ("start", "<svg>"),
        ("raw", "<![CDATA["),
        ("text", "c"),
        ("raw", "]]>"),
        ("end", "</svg>"),
        ("raw", "<p"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(k, r)| ((*k).to_owned(), (*r).to_owned()))
        .collect();
    assert_eq!(items, expected);
}

#[test]
fn off_by_default_no_raw_items() {
    let mut tokenizer = Tokenizer::default();
    let raw = tokenizer
        .tokenize("\u{FEFF}a</><p".as_bytes())
        .filter(|t| matches!(t, Token::Raw(_)))
        .count();
    assert_eq!(raw, 0);
}

/// The corpus, when fetched (`datasets/fetch-corpus.sh`): whole, in 4 KiB chunks and one
/// random chunking per page.
#[test]
fn corpus_pages_reproduce_byte_for_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("datasets/corpus not fetched: skipped");
        return;
    };
    let mut rng = Rng::new(0x1057);
    let mut plain = Tokenizer::default();
    let mut lossless = Tokenizer::new(Options::new().lossless(true));
    let mut failures = Vec::new();
    let mut pages = 0;
    for entry in entries.take(native_or_miri(usize::MAX, 0)) {
        let path = entry.expect("entry").path();
        let Ok(input) = std::fs::read(&path) else {
            continue;
        };
        pages += 1;
        let whole = plain.run(&input, &[], None);
        let cuts = [
            vec![],
            even_cuts(input.len(), 4096),
            random_cuts(&mut rng, input.len()),
        ];
        for cuts in &cuts {
            if let Err(e) = check(
                &path.display().to_string(),
                &input,
                &whole,
                &mut lossless,
                cuts,
                None,
            ) {
                failures.push(e);
            }
        }
    }
    eprintln!("{pages} corpus pages checked");
    report(failures);
}
