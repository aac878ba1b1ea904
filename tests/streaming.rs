//! Streaming properties: the tokens (html5lib-shaped, text merged) and the errors do not depend on
//! how the input is chunked, or on pausing (dropping the iterator early) and resuming with empty
//! feeds; spans stay inside the input, increasing and non-overlapping; and a start tag with 100,000
//! attributes is handled in linear time, whole and chunked. (The bounded carry on a long document is
//! measured in `tests/memory.rs`.)
//!
//! Random chunkings come from a fixed-seed xorshift PRNG; `TAGSTREAM_PROPTEST_CASES` raises the
//! number of cases. Under Miri, which runs the tests about a thousand times slower, every test
//! takes a smaller corpus (the start of each sample, every fifth snippet) and fewer chunkings and
//! pauses ([`native_or_miri`]).

mod common;

use std::path::PathBuf;

use common::{
    Outcome, Plan, Rng, check_span_order, even_cuts, merged_spans, native_or_miri, proptest_cases,
    random_cuts, run_cuts, run_whole, show,
};
use tagstream::{ErrorCode, Options, Position, Token, Tokenizer};

// ---- inputs -------------------------------------------------------------------------------------

/// The sample documents (under Miri, the first 128 bytes of each).
fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("datasets/samples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "samples missing in {}", dir.display());
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let mut bytes = std::fs::read(&p).expect("read sample");
            bytes.truncate(native_or_miri(usize::MAX, 128));
            (name, bytes)
        })
        .collect()
}

/// Inputs whose interesting bytes like to fall on a seam.
const SNIPPETS: &[&str] = &[
    // CRLF and lone CR
    "a\r\nb\r\n\r\nc\rd\r\r\ne\r",
    "<p title=\"x\r\ny\">\r\n</p>\r",
    "<!--\r\n-->\r<?pi a\r\nb?>\r\n",
    // character references
    "x&amp;y&#x1F600;z&notit;w&amp",
    "&notin; &notit; &not &no &#128; &#x110000; &#55296; &#0; &#65 &#x41 &#; &#x; &",
    "<a href='?a=1&amp;b=2&copy=3&#x41;&notit;&lt' title=&gt;&quot>",
    "&AElig;&AMP;&ampx;&amp;amp;&Amp;&lt3&gt=",
    // comments
    "<!-- a -- b --!> c --> d",
    "<!---><!----><!--><!-- x --!><!-- <!-- nested --> -->",
    "<!--->x<!---!>y--><!----!>z<!-- --->w<!--<!-->v<!-- -!> --!-> -- >--->u<!-",
    // `<` inside a comment followed by every kind of byte, nested `<!--` followed by every kind
    // of byte, and a line break among the nested-comment errors
    "<!--a<b<<c<!d<!-e<!--f<!--<!--\0<!--\n<!--\r\n<!--é<!--<-->g<!--<!--!-->h<!--<!--->i<!-->",
    // comments the end of input cuts off: the dashes of a possible end are dropped
    "x<!-- a -",
    "x<!-- a --",
    "x<!-- a --!",
    "x<!-- a ---",
    "x<!-- a --!-",
    "x<!-- a -!",
    "x<!---",
    "x<!----",
    "x<!--",
    "x<!-- a<!-",
    "x<!-- a<!--",
    "x<!-- a<!",
    "x<!-- a --!--!",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD\" 'sys.dtd'><!doctype x><!DOCTYPE>",
    // script escapes
    "<script><!--<script>x</script>--></script>y",
    "<script><!--<SCRipt/>a</scRIPT >b<!--<scripts>c</scrip\t><scriptx d</scripting>--></script>",
    "<script>a<!--b<script>c</script>d-->e</script><p>",
    "<script>if (a<b && c>d) { s = \"</scr\" + \"ipt>\"; }</script>",
    "<script><!-- </SCRIPT --></script>",
    "<script></script><script src=x></script ><script>a</scriptx></script\t><script>b</script/>",
    "<script>a<!-x<!b<!--c--></script><SCRIPT>d</Script><script>e</scrip></script",
    // RCDATA, RAWTEXT, PLAINTEXT
    "<title>&amp;<b></title ></title><textarea>\r\n&lt;</textarea>",
    "<style>a > b { content: \"</style\" }</style><xmp><p></xmp>",
    "<title></title><textarea>a</textarea1></textarea><style></STYLE x=y>",
    "<plaintext><a></plaintext>&amp;",
    // attributes
    "<a b=c d='e' f=\"g\" h i=j&amp;k l=\"&#x1F600;\" b=dup>",
    "<a\tb\nc\x0Cd /><br/><a/b/c><a =x><a \"b'=c>",
    // past 8 attributes, repeats are dropped (and reported) when the tag is complete or the
    // machine stops: their errors must fall between the others where they belong
    "<a a1=1 a2=2 a3=3 a4=4 a5=5 a6=6 a7=7 a8=8 a9=9 A1=x a9=\"\0\" a10='&amp' a2 b\0c=1 b\0C=2 \
     a10 \u{e9}=1 \u{c9}=2 \u{e9}=3 a11=x\"y a12=\"q\"a13 a3 a12=&notit; a14 / a1>",
    "</a b1 b2 b3 b4 b5 b6 b7 b8 b9 B1 b2=x b10 b10><p c1 c2 c3 c4 c5 c6 c7 c8 c9 c1 c1 c1>",
    "x<a b1 b2 b3 b4 b5 b6 b7 b8 b9 b1 b\0 b10 b\0 b2",
    // an end tag's attributes, checked for repeats only when the machine reads on: a seam right
    // after it, then markup that the state functions read first
    "</a b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b1><!x></a b1 b2 b3 b4 b5 b6 b7 b8 b9 b1>\0<?x>",
    // tags a seam may cut off: `>` inside quoted values, tags back to back, end tags, and a tag
    // still open when a later `>` comes
    "x<a title=\"1>2\" b='3>4' c=5>y<b>z</b><img src=a alt=\">\"/><i\n>",
    "<p><a href=\"/a?b=c>d\">e</a><br/><a\tb=\"f\"></a ><q x='>'y>>",
    // multibyte
    "é€😀<é a=é é=😀>é€😀</é><!--é€😀--><?t é€😀?>",
    // processing instructions
    "<?pi x?><?pi x??><?xml x?><?a$b><? x><?x",
    // NUL and controls
    "a\0b<a\0 b\0=c\0><!--\0--><?t \0?>\x01\x7F",
    // stray markup
    "a<b <3 </> <>x</ y <#hash> <--> &;",
    // comments a seam cuts off wait for the chunk that ends them: `>` inside one, `--!>` and
    // `<!--!>` (where a `>` after dashes is not the end), and a `<` or `</` that a window ends in
    // waits to see what it opens (text, a tag, after a reference the `<` ends)
    "<!-- a > b -- > c --!> d<!--!> e --><!-- f ---><!-- g --!--> h",
    "a < b </ c x &amp< d &am</ e <</p><<!--x--><</</>",
];

/// The snippets (under Miri, every fifth).
fn snippets() -> impl Iterator<Item = &'static str> {
    SNIPPETS.iter().copied().step_by(native_or_miri(1, 5))
}

/// Snippets that want CDATA sections allowed.
const CDATA_SNIPPETS: &[&str] = &[
    "<![CDATA[ a ]] ]]> b ]]>",
    "<![CDATA[]]><![CDATA[x]]]><![CDATA[\r\n\0]]>",
    "<![CDATA[unterminated",
];

fn plan() -> Plan {
    Plan::new(Options::new().errors(true)).feedback(true)
}

/// Errors off: the direct lane lexes plain text and tags, and a tag a seam cuts off waits, unread,
/// for the chunk that brings its end.
fn quiet_plan() -> Plan {
    Plan::new(Options::new()).feedback(true)
}

fn cdata_plan() -> Plan {
    Plan::new(Options::new().errors(true).cdata_allowed(true)).feedback(true)
}

/// All inputs with their plan: each sample and snippet with errors off and on (under Miri, off and
/// on by turns).
fn corpus() -> Vec<(String, Vec<u8>, Plan)> {
    let snippets = snippets().map(|s| (show(s.as_bytes()), s.as_bytes().to_vec()));
    let mut all: Vec<(String, Vec<u8>, Plan)> = Vec::new();
    for (i, (name, bytes)) in samples().into_iter().chain(snippets).enumerate() {
        if !cfg!(miri) || i % 2 == 0 {
            all.push((format!("{name} (errors off)"), bytes.clone(), quiet_plan()));
        }
        if !cfg!(miri) || i % 2 == 1 {
            all.push((name, bytes, plan()));
        }
    }
    for s in CDATA_SNIPPETS {
        all.push((show(s.as_bytes()), s.as_bytes().to_vec(), cdata_plan()));
    }
    all
}

/// Compare a chunked (or paused) run with the whole run; returns a failure message.
fn compare(name: &str, how: &str, input: &[u8], whole: &Outcome, got: &Outcome) -> Option<String> {
    if !got.violations.is_empty() {
        return Some(format!("{name} {how}: {:?}", got.violations));
    }
    if let Err(e) = check_span_order(&got.spans, input.len()) {
        return Some(format!("{name} {how}: {e}"));
    }
    if got.tokens != whole.tokens {
        let i = got
            .tokens
            .iter()
            .zip(&whole.tokens)
            .position(|(a, b)| a != b)
            .unwrap_or(got.tokens.len().min(whole.tokens.len()));
        return Some(format!(
            "{name} {how}: tokens differ at #{i}: {:?}\n    whole: {:?}",
            got.tokens.get(i),
            whole.tokens.get(i)
        ));
    }
    if got.errors != whole.errors {
        let i = got
            .errors
            .iter()
            .zip(&whole.errors)
            .position(|(a, b)| a != b)
            .unwrap_or(got.errors.len().min(whole.errors.len()));
        return Some(format!(
            "{name} {how}: errors differ at #{i}: {:?}\n    whole: {:?}",
            got.errors.get(i),
            whole.errors.get(i)
        ));
    }
    if merged_spans(&got.spans) != merged_spans(&whole.spans) {
        return Some(format!("{name} {how}: spans differ from the whole run's"));
    }
    if got.valid_utf8 != whole.valid_utf8 {
        return Some(format!("{name} {how}: is_valid_utf8 differs"));
    }
    None
}

fn whole_checked(name: &str, input: &[u8], plan: &Plan) -> Outcome {
    let whole = run_whole(input, plan);
    assert!(
        whole.violations.is_empty(),
        "{name}: {:?}",
        whole.violations
    );
    check_span_order(&whole.spans, input.len()).unwrap_or_else(|e| panic!("{name}: {e}"));
    whole
}

// ---- chunking -----------------------------------------------------------------------------------

/// With errors off the lanes lex text, plain tags and raw text ahead of the state functions; with
/// errors on only the state functions run. Both must give the same tokens and spans.
#[test]
fn the_lanes_give_the_state_functions_tokens() {
    let inputs = samples()
        .into_iter()
        .chain(snippets().map(|s| (show(s.as_bytes()), s.as_bytes().to_vec())));
    for (name, input) in inputs {
        let lanes = whole_checked(&name, &input, &quiet_plan());
        let states = whole_checked(&name, &input, &plan());
        assert_eq!(lanes.tokens, states.tokens, "{name}");
        assert_eq!(lanes.spans, states.spans, "{name}");
    }
}

#[test]
fn random_chunkings_give_the_same_tokens_errors_and_spans() {
    let mut rng = Rng::new(0x0005_7EA3);
    let cases = proptest_cases(40, 1);
    let mut failures = Vec::new();
    let mut runs = 0;
    for (name, input, plan) in corpus() {
        let whole = whole_checked(&name, &input, &plan);
        let mut chunkings: Vec<(String, Vec<usize>)> = Vec::new();
        for &size in native_or_miri(&[1, 2, 3, 7, 64, 4096][..], &[7]) {
            chunkings.push((format!("in chunks of {size}"), even_cuts(input.len(), size)));
        }
        for _ in 0..cases {
            let cuts = random_cuts(&mut rng, input.len());
            chunkings.push((format!("cut at {cuts:?}"), cuts));
        }
        for (how, cuts) in chunkings {
            runs += 1;
            if let Some(f) = compare(&name, &how, &input, &whole, &run_cuts(&input, &cuts, &plan)) {
                failures.push(f);
                break;
            }
        }
    }
    assert!(runs > native_or_miri(100, 30));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn snippets_split_everywhere() {
    let mut rng = Rng::new(0xC0FF_EE00);
    let triples = proptest_cases(30, 2);
    let mut failures = Vec::new();
    let all = snippets()
        .map(|s| (s, plan()))
        .chain(snippets().map(|s| (s, quiet_plan())))
        .chain(CDATA_SNIPPETS.iter().map(|&s| (s, cdata_plan())));
    for (s, plan) in all {
        let input = s.as_bytes();
        let name = show(input);
        let whole = whole_checked(&name, input, &plan);
        // Cut at every offset (under Miri, every twelfth).
        let mut chunkings: Vec<Vec<usize>> = (1..input.len())
            .step_by(native_or_miri(1, 12))
            .map(|at| vec![at])
            .collect();
        for _ in 0..triples {
            let mut cuts: Vec<usize> = (0..2).map(|_| rng.range(1, input.len() - 1)).collect();
            cuts.sort_unstable();
            cuts.dedup();
            chunkings.push(cuts);
        }
        for cuts in chunkings {
            if let Some(f) = compare(
                &name,
                &format!("cut at {cuts:?}"),
                input,
                &whole,
                &run_cuts(input, &cuts, &plan),
            ) {
                failures.push(f);
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A comment or tag that many chunks cut is carried on unread from seam to seam until the chunk
/// that ends it (errors off; the state functions read it with errors on): the tokens are the whole
/// run's, whether the end is at a chunk's start, in the middle, or right after a seam cuts `--`,
/// `--!` or `--` `>` apart.
#[test]
fn comments_and_tags_longer_than_many_chunks() {
    let filler = "x-y <b> -> ->".repeat(native_or_miri(40, 4));
    let inputs = [
        format!("a<!--{filler}-->b<!--{filler}--!>c<!--{filler}---->d"),
        format!("<p title=\"{filler}\" x='>'>t</p a=\"{filler}\">"),
        format!("<!-- {filler}"),
        format!("<a b=\"{filler}"),
    ];
    for input in &inputs {
        let input = input.as_bytes();
        let name = show(&input[..20]);
        for plan in [quiet_plan(), plan()] {
            let whole = whole_checked(&name, input, &plan);
            for size in [1, 2, 3, 5, 16, 61, 256] {
                let cuts: Vec<usize> = (size..input.len()).step_by(size).collect();
                let got = run_cuts(input, &cuts, &plan);
                let how = format!("in chunks of {size}");
                if let Some(failure) = compare(&name, &how, input, &whole, &got) {
                    panic!("{failure}");
                }
            }
        }
    }
}

/// A `<` that ends a chunk waits for the next one (which tells whether it opens a tag), but the
/// text after it is handed out as it comes, not carried on as a cut tag would be.
#[test]
fn a_less_than_sign_at_a_seam_does_not_hold_back_the_text_after_it() {
    let mut tokenizer = Tokenizer::default();
    let rest = " b".repeat(100);
    let mut text = String::new();
    for chunk in ["a <", &rest, &rest, "c <", &rest] {
        let before = text.len();
        for token in tokenizer.feed(chunk.as_bytes()) {
            if let Token::Text(t) = token {
                text.push_str(t.text());
            }
        }
        if chunk == rest {
            assert!(text.len() - before >= rest.len(), "held back: {text:?}");
        }
    }
    tokenizer.finish().for_each(drop);
    assert_eq!(text, format!("a <{}c <{rest}", rest.repeat(2)));
}

/// A tag or comment a seam cut off, whose end comes in a chunk the consumer paused in before
/// reading a token: the next feed hands it out, and the tokens after it, even when that feed
/// brings no end of its own (the paused chunk's bytes were kept unread, and the end is among them).
#[test]
fn a_cut_token_ended_in_a_paused_chunk_is_not_held_back() {
    let cases = [
        (["x<!--a", "b-->c<p>", "d"], "comment ab"),
        (["x<a", "b>c<p>", "d"], "tag ab"),
    ];
    for errors in [false, true] {
        for (chunks, cut) in cases {
            let mut tokenizer = Tokenizer::new(Options::new().errors(errors));
            let mut seen = Vec::new();
            let mut pull = |tokens: tagstream::Tokens<'_>| {
                for token in tokens {
                    seen.push(match token {
                        Token::Comment(c) => format!("comment {}", c.data()),
                        Token::Text(t) => format!("text {}", t.text()),
                        Token::StartTag(t) => format!("tag {}", t.name()),
                        other => format!("{other:?}"),
                    });
                }
            };
            pull(tokenizer.feed(chunks[0].as_bytes()));
            // Paused before its first token.
            drop(tokenizer.feed(chunks[1].as_bytes()));
            pull(tokenizer.feed(chunks[2].as_bytes()));
            let expected = ["text x", cut, "text c", "tag p", "text d"];
            assert_eq!(seen, expected, "{chunks:?}, errors {errors}");
            tokenizer.finish().for_each(drop);
        }
    }
}

#[test]
fn spans_are_inside_the_input_increasing_and_non_overlapping() {
    for (name, input, plan) in corpus() {
        let whole = whole_checked(&name, &input, &plan);
        assert!(!whole.spans.is_empty() || input.is_empty(), "{name}");
        for s in &whole.spans {
            assert!(s.span.end <= input.len(), "{name}: {s:?}");
            for p in &s.parts {
                assert!(
                    s.span.start <= p.start && p.start <= p.end && p.end <= s.span.end,
                    "{name}: part {p:?} of {s:?}"
                );
            }
            // Parts in source order (attribute name before its value, and so on).
            assert!(
                s.parts.windows(2).all(|w| w[0].end <= w[1].start),
                "{name}: parts out of order in {s:?}"
            );
        }
    }
}

// ---- pause and resume ---------------------------------------------------------------------------

/// Feed `input` in chunks at `cuts`; in the feed of chunk `pause_chunk`, pull `k` tokens and drop
/// the iterator, then feed empty chunks until one yields nothing, then go on.
fn run_paused_once(
    input: &[u8],
    cuts: &[usize],
    plan: &Plan,
    pause_chunk: usize,
    k: usize,
) -> Outcome {
    let mut tokenizer = Tokenizer::new(plan.options.clone());
    let mut out = Outcome::default();
    let mut start = 0;
    for (i, &end) in cuts.iter().chain(std::iter::once(&input.len())).enumerate() {
        let limit = (i == pause_chunk).then_some(k);
        common::consume(
            tokenizer.feed(&input[start..end]),
            input,
            plan,
            limit,
            &mut out,
        );
        if limit.is_some() {
            let mut empties = 0;
            while common::consume(tokenizer.feed(&[]), input, plan, None, &mut out) > 0 {
                empties += 1;
                assert!(empties < 3, "empty feeds keep yielding");
            }
        }
        start = end;
    }
    common::consume(tokenizer.finish(), input, plan, None, &mut out);
    out.errors = tokenizer.take_errors();
    out.valid_utf8 = tokenizer.is_valid_utf8();
    out
}

#[test]
fn pausing_after_every_k_tokens_of_a_whole_feed() {
    let mut failures = Vec::new();
    for (name, input, plan) in corpus() {
        let whole = whole_checked(&name, &input, &plan);
        // Upper bound: the number of tokens when fed whole (text may split into more at seams).
        // Under Miri: a pause after half of them.
        let total = run_cuts(&input, &[], &plan).pulled;
        let pauses = native_or_miri((0..=total).collect(), vec![total / 2]);
        for k in pauses {
            let got = run_paused_once(&input, &[], &plan, 0, k);
            if let Some(f) = compare(
                &name,
                &format!("paused after {k} tokens"),
                &input,
                &whole,
                &got,
            ) {
                failures.push(f);
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pausing_inside_random_chunks() {
    let mut rng = Rng::new(0x9A05_E000);
    let cases = proptest_cases(40, 1);
    let mut failures = Vec::new();
    for (name, input, plan) in corpus() {
        let whole = whole_checked(&name, &input, &plan);
        for _ in 0..cases {
            let cuts = random_cuts(&mut rng, input.len());
            let chunk = rng.below(cuts.len() + 1);
            let k = rng.range(0, 6);
            let got = run_paused_once(&input, &cuts, &plan, chunk, k);
            let how = format!("cut at {cuts:?}, paused after {k} tokens of chunk {chunk}");
            if let Some(f) = compare(&name, &how, &input, &whole, &got) {
                failures.push(f);
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pausing_every_k_tokens_throughout() {
    let mut rng = Rng::new(0x0E7E_4BEE);
    let mut failures = Vec::new();
    for (name, input, plan) in corpus() {
        let whole = whole_checked(&name, &input, &plan);
        for &k in native_or_miri(&[1, 2, 3, 5, 8][..], &[2]) {
            let chunkings = [
                Vec::new(),
                even_cuts(input.len(), 16),
                random_cuts(&mut rng, input.len()),
            ];
            // Under Miri: the random chunking only.
            for cuts in native_or_miri(&chunkings[..], &chunkings[2..]) {
                let got = run_cuts(&input, cuts, &plan.clone().pause_every(k));
                let how = format!("pausing every {k} tokens, cut at {cuts:?}");
                if let Some(f) = compare(&name, &how, &input, &whole, &got) {
                    failures.push(f);
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `finish` returns the same `Tokens` iterator as `feed`, whose docs say dropping it early pauses
/// and the next call resumes: after a paused `finish`, calling `finish` again must yield the rest.
#[test]
fn pausing_inside_finish_resumes() {
    let input = b"<a>b<c>d<e>f";
    let all: Vec<String> = {
        let mut tokenizer = Tokenizer::default();
        tokenizer
            .tokenize(input)
            .map(|t| format!("{t:?}"))
            .collect()
    };
    for k in 0..=all.len() {
        let mut tokenizer = Tokenizer::default();
        let mut got: Vec<String> = Vec::new();
        // Feed without pulling anything, so that every token comes out of `finish`.
        drop(tokenizer.feed(input));
        got.extend(tokenizer.finish().take(k).map(|t| format!("{t:?}")));
        got.extend(tokenizer.finish().map(|t| format!("{t:?}")));
        assert_eq!(
            got, all,
            "finish paused after {k} tokens, then finish again"
        );
    }
}

// ---- a start tag with 100,000 attributes ----------------------------------------------------------

/// Attributes in the big tag: 100,000 (50 under Miri, whose list still outgrows the arena's first
/// chunk of 512 bytes).
const ATTRS: usize = if cfg!(miri) { 50 } else { 100_000 };

/// The chunk size of the chunked runs: 4 KiB (128 bytes under Miri, so that the smaller tag still
/// spans several).
const CHUNK: usize = if cfg!(miri) { 128 } else { 4096 };

fn many_attributes(same_name: bool) -> Vec<u8> {
    let mut tag = String::from("<x");
    for i in 0..ATTRS {
        if same_name {
            tag.push_str(&format!(" a={i}"));
        } else {
            tag.push_str(&format!(" a{i}={i}"));
        }
    }
    tag.push_str(">after");
    tag.into_bytes()
}

/// Run `input` whole or in chunks of [`CHUNK`] bytes; check the one start tag with `check`, return
/// the errors.
fn with_big_tag(
    input: &[u8],
    errors: bool,
    chunked: bool,
    check: impl Fn(&tagstream::StartTag<'_>),
) -> Vec<tagstream::ParseError> {
    // Every error kept: the tags here bring more than the default cap.
    let options = Options::new().errors(errors).max_errors(usize::MAX);
    let mut tokenizer = Tokenizer::new(options);
    let mut tags = 0;
    let mut text = String::new();
    let mut see = |t: Token<'_>| match t {
        Token::StartTag(tag) => {
            tags += 1;
            check(&tag);
        }
        Token::Text(t) => text.push_str(t.text()),
        other => panic!("unexpected {other:?}"),
    };
    if chunked {
        for chunk in input.chunks(CHUNK) {
            tokenizer.feed(chunk).for_each(&mut see);
        }
        tokenizer.finish().for_each(&mut see);
    } else {
        tokenizer.tokenize(input).for_each(&mut see);
    }
    assert_eq!((tags, text.as_str()), (1, "after"));
    tokenizer.take_errors()
}

#[test]
fn hundred_thousand_distinct_attributes_kept_in_order() {
    let input = many_attributes(false);
    for chunked in [false, true] {
        for errors in [false, true] {
            let errs = with_big_tag(&input, errors, chunked, |tag| {
                assert_eq!(tag.attributes().len(), ATTRS);
                for (i, a) in tag.attributes().enumerate() {
                    assert_eq!(a.raw_name(), format!("a{i}").as_bytes());
                    assert_eq!(a.value(), i.to_string());
                }
                // Lookup by name finds the last one too.
                let last = format!("a{}", ATTRS - 1);
                assert_eq!(
                    tag.attribute(&last).map(|a| a.value()),
                    Some((ATTRS - 1).to_string().as_str())
                );
            });
            assert!(
                errs.is_empty(),
                "chunked {chunked}: {:?}",
                &errs[..errs.len().min(3)]
            );
        }
    }
}

#[test]
fn hundred_thousand_same_name_attributes_keep_the_first() {
    let input = many_attributes(true);
    for chunked in [false, true] {
        for errors in [false, true] {
            let errs = with_big_tag(&input, errors, chunked, |tag| {
                let attrs: Vec<(&str, &str)> =
                    tag.attributes().map(|a| (a.name(), a.value())).collect();
                assert_eq!(attrs, [("a", "0")]);
            });
            if errors {
                assert_eq!(errs.len(), ATTRS - 1, "chunked {chunked}");
                assert!(errs.iter().all(|e| e.code == ErrorCode::DuplicateAttribute));
                // Each at the `=` after the repeated name, in order.
                assert!(errs.windows(2).all(|w| w[0].offset < w[1].offset));
                assert_eq!(input[errs[0].offset], b'=');
                assert_eq!(errs[0].position.line, 1);
            } else {
                assert!(errs.is_empty());
            }
        }
    }
}

/// Before its first token and after, a chunk's positions reach its last byte, also when the chunk
/// ends in a tag it cuts off (which goes into the next feed).
#[test]
fn positions_reach_the_end_of_a_chunk_whose_tag_it_cuts_off() {
    let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
    let mut tokens = tokenizer.feed(b"a\n<b c");
    assert_eq!(tokens.position(5), Some(Position { line: 2, col: 4 }));
    assert!(matches!(tokens.next(), Some(Token::Text(_))));
    assert_eq!(tokens.position(5), Some(Position { line: 2, col: 4 }));
}

/// Every token's first and last byte have a line and column while streaming, the same as for the
/// whole document — also for tokens finished in the carried bytes and the text let out at a seam.
#[test]
fn positions_of_every_token_are_known_while_streaming() {
    let doc = "<p>one\ntwo</p>\n<a\nhref=x>three\r\nfour</a><!--\nc-->😀\n<b>five</b>".as_bytes();
    let mut whole = Tokenizer::new(Options::new().track_positions(true));
    let mut expected = Vec::new();
    let mut tokens = whole.tokenize(doc);
    while let Some(token) = tokens.next() {
        let span = token.span();
        for offset in span.start..span.end {
            expected.push((offset, tokens.position(offset)));
        }
    }
    // Every chunk size (under Miri, every seventh).
    for size in (1..=doc.len()).step_by(native_or_miri(1, 7)) {
        let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
        let mut seen = Vec::new();
        for chunk in doc.chunks(size).map(Some).chain([None]) {
            let mut tokens = match chunk {
                Some(chunk) => tokenizer.feed(chunk),
                None => tokenizer.finish(),
            };
            while let Some(token) = tokens.next() {
                let span = token.span();
                for offset in [span.start, span.end - 1] {
                    seen.push((offset, tokens.position(offset)));
                }
            }
        }
        for (offset, position) in seen {
            assert!(
                position.is_some(),
                "chunks of {size}: offset {offset} has no position"
            );
            assert!(
                expected.contains(&(offset, position)),
                "chunks of {size}: offset {offset} at {position:?}"
            );
        }
    }
}
