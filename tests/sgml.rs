//! The SGML note's lexical mode (issue 28): the note's worked examples in its own listing format,
//! every example line of its construct sections classified as the note classifies it, the rules
//! the issue names lexeme by lexeme, losslessness (the spans of all lexemes tile the input), the
//! same events for every chunking (every split, byte by byte, paused, random chunks, the corpus,
//! the hostile inputs of issues 5, 25 and 26), linear time on long constructs in small chunks,
//! `max_carry`, and the W3C's real SGML files.

mod common;
#[path = "../benches/common/hostile.rs"]
#[allow(dead_code)]
mod hostile;

use std::path::PathBuf;

use common::Rng;
use tagstream::Options;
use tagstream::sgml::{Channel, Event, LexemeKind, Problem, SgmlOptions, Tokenizer, write_listing};

/// A tokenizer that strips no byte order mark: every byte is in a lexeme.
fn tokenizer(normalize: bool) -> Tokenizer {
    Tokenizer::new(Options::new().strip_bom(false), SgmlOptions { normalize })
}

fn events<'t>(tokenizer: &'t mut Tokenizer, input: &'t [u8]) -> Vec<Event<'t>> {
    tokenizer.tokenize(input).collect()
}

fn listing(input: &str) -> String {
    let mut out = String::new();
    for event in events(&mut tokenizer(true), input.as_bytes()) {
        write_listing(&event, &mut out);
    }
    out
}

/// `(kind, raw)` of every lexeme of every event, one list per event.
fn lexemes(input: &str, normalize: bool) -> Vec<Vec<(LexemeKind, String)>> {
    let mut t = tokenizer(normalize);
    let events = events(&mut t, input.as_bytes());
    let lexeme = |l: &tagstream::sgml::Lexeme| (l.kind(), l.text().into_owned());
    events
        .iter()
        .map(|e| e.lexemes().iter().map(lexeme).collect())
        .collect()
}

// ---- the note's worked examples, in its listing format ------------------------------------------

/// "The API to the Lexical Analyzer", first example. The note says "six strings" and lists eight,
/// and calls the quoted value a Name Token: by its rules it is a Literal, quotes included.
#[test]
fn worked_example_start_tag() {
    let expected = "\
Start Tag: `<xx'
  Attr Name: `'
  Name: `val1'
  Attr Name: `'
  Name: `val2'
  Attr Name: `attr3'
  Literal: `\".76meters\"'
  Tag Close: `>'
";
    assert_eq!(listing("<xX val1 val2 aTTr3=\".76meters\">"), expected);
}

#[test]
fn worked_example_doctype() {
    let expected = "\
[Aux Markup]
Markup Decl: `<!doctype'
  Name: `foo'
  Comment: `--my document type--'
  Name: `system'
  Literal: `\"abc\"'
  Tag Close: `>'
";
    assert_eq!(
        listing("<!Doctype Foo --my document type-- System \"abc\">"),
        expected
    );
}

/// "Errors and Limitations": six callbacks, as listed, plus the two lexemes the note's listing
/// leaves out, `]]` and `>`, which must belong to some lexeme for the view to be lossless.
#[test]
fn worked_example_errors_and_limitations() {
    let note = "\
!!Error!!: `bad character in tag'
  Data: `?'
Start Tag: `<tag'
  Attr Name: `xxx'
  Name Token: `yyy'
  Tag Close: `>'
Data: `xxx '
!!Limitation!!: `marked sections not supported'
  Data: `<!['
!!Limitation!!: `declaration subset: skipping'
  Data: `IGNORE[ a<b>c'
Data: ` zzz'
";
    let ours = listing("<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz");
    let extra = "  Subset Close: `]]'\n  Markup Decl Close: `>'\n";
    assert_eq!(ours.replacen(extra, "", 1), note);
    assert!(ours.contains(extra), "{ours}");
    let callbacks = events(
        &mut tokenizer(true),
        b"<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz",
    )
    .len();
    assert_eq!(callbacks, 6);
}

// ---- every example line of the construct sections, classified ---------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Markup, no problem reported.
    Markup,
    /// Data only.
    NoMarkup,
    /// At least one error reported, no limitation.
    Error,
    /// An error the note says this lexer does not report: markup, no problem.
    Unreported,
    /// At least one limitation reported.
    Limitation,
}

use Class::*;

/// The note's examples, section by section, as its text classifies them.
const EXAMPLES: &[(&str, Class)] = &[
    // Markup Declarations.
    ("<!doctype foo>", Markup),
    ("<!doctype bar system \"abcdef\">", Markup),
    (
        "<!doctype BaZ public \"-//owner//DTD description//EN\">",
        Markup,
    ),
    (
        "<!doctype BAZ Public \"-//owner//DTD desc//EN\" \"sysid\">",
        Markup,
    ),
    ("another way to escape < and &: <<!>xxx &<!>abc;", Markup),
    ("<!-- xyz -->", Markup),
    ("<!-- xyz -- --def-->", Markup),
    ("<!---- ---- ---->", Markup),
    ("<!doctype foo --my document type-- system \"abc\">", Markup),
    ("<! doctype> <!,doctype> <!23>", NoMarkup),
    ("<!- xxx -> <!-> <!-!>", NoMarkup),
    ("<!doctype xxx,yyy>", Error),
    ("<!usemap map1>", Error),
    ("<!-- comment-- xxx>", Error),
    ("<!-- comment -- ->", Error),
    ("<!doctype foo foo foo>", Unreported),
    ("<!doctype foo 23 17>", Unreported),
    ("<!junk decl>", Unreported),
    ("<!doctype doc [ <!element doc - - ANY> ]>", Limitation),
    ("<!doctype doc  %stuff >", Limitation),
    ("<![ IGNORE [ lkjsdflkj sdflkj sdflkj  ]]>", Limitation),
    ("<![ CDATA [ lskdjf lskdjf lksjdf ]]>", Limitation),
    // Tags.
    ("<x> yyy </X>", Markup),
    ("<abc.DEF   > ggg </abc.def >", Markup),
    ("<A>abc def <b>xxx</b>def</a>", Markup),
    ("<A>abc def <b>xxxdef</a>", Markup),
    ("< x > <324 </234>", NoMarkup),
    ("<==> < b>", NoMarkup),
    ("<%%%> <---> <...> <--->", NoMarkup),
    ("<xyz!> <abc/>", Error),
    ("</xxx/> <xyz&def> <abc_def>", Error),
    ("<> xyz </>", Limitation),
    ("<xxx<yyy> </yyy</xxx>", Limitation),
    // Attributes.
    ("<x attr=\"val\">", Markup),
    ("<x ATTR =\"val\" val>", Markup),
    ("<y aTTr1= \"val1\">", Markup),
    ("<td WIDTH=12pt>", Markup),
    (
        "<yy attr1='xyz' attr2=\"def\" attr3='xy\"z' attr4=\"abc'def\">",
        Markup,
    ),
    ("<xx abc='abc&#34;def'>", Markup),
    ("<xx aBC=\"fred &amp; barney\">", Markup),
    ("<z attr1 = val1 attr2 = 23 attr3 = 'abc'>", Markup),
    ("<xx val1 val2 attr3=.76meters>", Markup),
    (
        "<a href=foo.html> ..</a> <a href=foo-bar.html>..</a>",
        Markup,
    ),
    ("<x attr = abc$#@>", Error),
    ("<y attr1,attr2>", Error),
    ("<tt =xyz>", Error),
    ("<z attr += 2>", Error),
    ("<xx attr=50%>", Error),
    ("<a href=http://foo/bar/>", Error),
    (
        "<a href=\"http://foo/bar/> ... </a> ... <a href=\"xyz\">...</a>",
        Error,
    ),
    ("<xx \"abc\">", Error),
    ("<xxx abc=>", Error),
    // Character References and Entity References.
    ("&#38; &#200;", Markup),
    ("&amp; &ouml;", Markup),
    ("&#38 &#200,xxx", Markup),
    ("&amp &abc() &xy12/..\\", Markup),
    ("To illustrate the X tag, write &lt;X&gt;", Markup),
    ("a & b, a &# b", NoMarkup),
    ("a &, b &. c", NoMarkup),
    ("a &#-xx &100", NoMarkup),
    ("&#2000000; &#20.7 &#20-35", Error),
    // Processing Instructions.
    ("<?style tt = font courier>", Markup),
    ("<?page break>", Markup),
    ("<?experiment> ... <?/experiment> ", Markup),
    // Differences from Basic SGML: named character references.
    ("&#RS &#RE;", Limitation),
    ("&#SPACE;", Limitation),
    // The memo instance.
    (
        "<!doctype memo system>\n<Date numeric=\"1994-06-12\"> \n<To>Third Floor\n<p>Please limit coffee breaks to 10 minutes.\n<Closing>The Management\n",
        Markup,
    ),
];

fn classify(input: &str) -> Class {
    let mut t = tokenizer(false);
    let events = events(&mut t, input.as_bytes());
    let problems: Vec<Problem> = events.iter().filter_map(Event::problem).collect();
    let markup = events.iter().any(|e| {
        e.channel() != Channel::Primary || e.lexemes().iter().any(|l| l.kind() != LexemeKind::Data)
    });
    if problems.iter().any(|p| p.is_limitation()) {
        Limitation
    } else if !problems.is_empty() {
        Error
    } else if markup {
        Markup
    } else {
        NoMarkup
    }
}

#[test]
fn every_example_is_classified_as_the_note_says() {
    let mut wrong = Vec::new();
    for &(input, class) in EXAMPLES {
        let expected = if class == Unreported { Markup } else { class };
        let got = classify(input);
        if got != expected {
            wrong.push(format!("{input:?}: {class:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---- the rules, lexeme by lexeme ---------------------------------------------------------------

use LexemeKind as K;

fn kinds(input: &str) -> Vec<Vec<(LexemeKind, String)>> {
    let drop_space = |e: Vec<(LexemeKind, String)>| e.into_iter().filter(|l| l.0 != K::S).collect();
    lexemes(input, true).into_iter().map(drop_space).collect()
}

fn ev(lexemes: &[(LexemeKind, &str)]) -> Vec<(LexemeKind, String)> {
    lexemes.iter().map(|&(k, t)| (k, t.to_string())).collect()
}

#[test]
fn comment_declarations_hold_zero_or_more_comments() {
    assert_eq!(
        kinds("<!---- ---- ---->"),
        [ev(&[
            (K::MarkupDecl, "<!"),
            (K::Comment, "----"),
            (K::Comment, "----"),
            (K::Comment, "----"),
            (K::Mdc, ">")
        ])]
    );
    assert_eq!(kinds("<!>"), [ev(&[(K::MarkupDecl, "<!"), (K::Mdc, ">")])]);
    assert_eq!(
        kinds("<!-- xyz -- --def-->"),
        [ev(&[
            (K::MarkupDecl, "<!"),
            (K::Comment, "-- xyz --"),
            (K::Comment, "--def--"),
            (K::Mdc, ">")
        ])]
    );
}

#[test]
fn an_omitted_attribute_name_is_reported_as_such() {
    assert_eq!(
        kinds("<x ATTR =\"val\" val>"),
        [ev(&[
            (K::Start, "<x"),
            (K::AttrName, "attr"),
            (K::Vi, "="),
            (K::Literal, "\"val\""),
            (K::AttrName, ""),
            (K::Name, "val"),
            (K::Tagc, ">"),
        ])]
    );
}

#[test]
fn declaration_parameters_are_separate_lexemes() {
    assert_eq!(
        kinds("<!doctype foo 23 17 1a 'x'>"),
        [ev(&[
            (K::MarkupDecl, "<!doctype"),
            (K::Name, "foo"),
            (K::Number, "23"),
            (K::Number, "17"),
            (K::Nmtoken, "1a"),
            (K::Literal, "'x'"),
            (K::Tagc, ">"),
        ])]
    );
}

#[test]
fn references_end_at_refc_record_end_or_non_name_character() {
    assert_eq!(
        kinds("&#38;&amp\nx&abc()"),
        [
            ev(&[(K::NumCharRef, "&#38"), (K::Refc, ";")]),
            ev(&[(K::GeRef, "&amp"), (K::Refc, "\n")]),
            ev(&[(K::Data, "x")]),
            ev(&[(K::GeRef, "&abc")]),
            ev(&[(K::Data, "()")]),
        ]
    );
    assert_eq!(
        kinds("&#38\r\n")[0],
        ev(&[(K::NumCharRef, "&#38"), (K::Refc, "\r\n")])
    );
}

#[test]
fn record_ends_stay_in_the_data() {
    assert_eq!(
        kinds("a\nb\r\n<p>\n"),
        [
            ev(&[(K::Data, "a\nb\r\n")]),
            ev(&[(K::Start, "<p"), (K::Tagc, ">")]),
            ev(&[(K::Data, "\n")])
        ]
    );
}

#[test]
fn normalization_lowercases_names_but_not_entity_names_or_values() {
    let normalized = kinds("<P CLASS=Big>&Ouml;</P>");
    assert_eq!(
        normalized,
        [
            ev(&[
                (K::Start, "<p"),
                (K::AttrName, "class"),
                (K::Vi, "="),
                (K::Nmtoken, "Big"),
                (K::Tagc, ">")
            ]),
            ev(&[(K::GeRef, "&Ouml"), (K::Refc, ";")]),
            ev(&[(K::End, "</p"), (K::Tagc, ">")]),
        ]
    );
    for event in events(
        &mut tokenizer(false),
        b"<P CLASS=Big>&Ouml;</P><!DOCTYPE HTML>",
    ) {
        for lexeme in event.lexemes() {
            assert_eq!(lexeme.text().as_bytes(), lexeme.raw());
        }
    }
}

#[test]
fn problems_carry_the_offending_text_and_recovery_goes_on() {
    let mut t = tokenizer(false);
    let events = events(&mut t, b"<xx attr=50%>t");
    assert_eq!(events[0].problem(), Some(Problem::BadCharacterInTag));
    assert_eq!(events[0].lexemes()[1].raw(), b"%");
    assert_eq!(events[1].lexemes().last().unwrap().kind(), K::Tagc);
    assert_eq!(events[2].lexemes()[0].raw(), b"t");
}

#[test]
fn unfinished_constructs_at_the_end_of_input_are_reported_and_kept() {
    for (input, problem) in [
        ("<a href", Problem::EofInTag),
        ("<a href='x", Problem::EofInLiteral),
        ("<!doctype x", Problem::EofInDeclaration),
        ("<!-- x", Problem::EofInComment),
        ("<?pi", Problem::EofInPi),
    ] {
        let mut t = tokenizer(false);
        let events = events(&mut t, input.as_bytes());
        assert!(
            events.iter().any(|e| e.problem() == Some(problem)),
            "{input}"
        );
        assert_lossless(input.as_bytes(), &events);
    }
}

// ---- lossless ----------------------------------------------------------------------------------

/// The spans of all lexemes tile the input, and their raw bytes are the input's.
fn assert_lossless(input: &[u8], events: &[Event]) {
    let mut all: Vec<_> = events
        .iter()
        .flat_map(|e| e.lexemes().iter().copied())
        .collect();
    all.sort_by_key(|l| l.span().start);
    let mut at = 0;
    for lexeme in &all {
        assert_eq!(
            lexeme.span().start,
            at,
            "gap or overlap at {at} in {:?}",
            String::from_utf8_lossy(&input[..input.len().min(200)])
        );
        assert_eq!(lexeme.raw(), &input[lexeme.span().range()]);
        at = lexeme.span().end;
    }
    assert_eq!(at, input.len());
}

#[test]
fn every_example_is_lossless() {
    for &(input, _) in EXAMPLES {
        assert_lossless(
            input.as_bytes(),
            &events(&mut tokenizer(false), input.as_bytes()),
        );
    }
}

#[test]
fn random_markup_is_lossless() {
    let alphabet = b"<>!?-&#;=\"' \n\r[]%/aZ09._,";
    let mut rng = Rng::new(28);
    for _ in 0..common::proptest_cases(3000, 100) {
        let len = rng.below(40);
        let input: Vec<u8> = (0..len).map(|_| *rng.pick(alphabet)).collect();
        assert_lossless(&input, &events(&mut tokenizer(false), &input));
    }
}

#[test]
fn corpus_pages_are_lossless() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("datasets/corpus not fetched: skipped");
        return;
    };
    for entry in entries
        .flatten()
        .take(common::native_or_miri(usize::MAX, 2))
    {
        let input = std::fs::read(entry.path()).unwrap();
        assert_lossless(&input, &events(&mut tokenizer(false), &input));
    }
}

/// Each error and limitation, from an input that brings it, with its code, message and kind.
#[test]
fn every_problem_is_reported_somewhere() {
    let cases: &[(&str, Problem)] = &[
        ("<xyz!>", Problem::BadCharacterInTag),
        ("<xx \"abc\">", Problem::LiteralWithoutName),
        ("<xxx abc=>", Problem::MissingAttributeValue),
        ("<!doctype xxx,yyy>", Problem::BadCharacterInDeclaration),
        (
            "<!-- comment-- xxx>",
            Problem::BadCharacterInCommentDeclaration,
        ),
        ("<!usemap map1>", Problem::ShortReferenceDeclaration),
        ("&#20.7", Problem::BadCharacterInReference),
        ("&#2000000;", Problem::CharacterNumberOutOfRange),
        ("<a", Problem::EofInTag),
        ("<!doctype", Problem::EofInDeclaration),
        ("<!--", Problem::EofInComment),
        ("<a b='", Problem::EofInLiteral),
        ("<?", Problem::EofInPi),
        ("<![ IGNORE [ x ]]>", Problem::MarkedSection),
        ("<!doctype d [ ]>", Problem::DeclarationSubset),
        ("<!doctype d %e;>", Problem::ParameterEntityReference),
        ("&#SPACE;", Problem::NamedCharacterReference),
        ("<a<b>", Problem::UnclosedTag),
        ("<>", Problem::EmptyStartTag),
        ("</>", Problem::EmptyEndTag),
    ];
    assert_eq!(cases.len(), Problem::ALL.len());
    for &(input, problem) in cases {
        let mut t = tokenizer(false);
        let events = events(&mut t, input.as_bytes());
        let event = events.iter().find(|e| e.problem() == Some(problem));
        let event = event.unwrap_or_else(|| panic!("{input}: no {}", problem.code()));
        let message = &event.lexemes()[0];
        let kind = if problem.is_limitation() {
            K::Limitation
        } else {
            K::Error
        };
        assert_eq!(
            (message.kind(), message.text().as_ref()),
            (kind, problem.message())
        );
        assert!(message.raw().is_empty() && message.span().is_empty());
        assert_eq!(event.lexemes()[1].kind(), K::Data);
    }
    let codes: std::collections::HashSet<_> = Problem::ALL.iter().map(|p| p.code()).collect();
    assert_eq!(codes.len(), Problem::ALL.len());
}

#[test]
fn problems_have_lines_and_columns() {
    let input = b"<p>\n  <x ?>\n&#2000000;";
    let mut tokenizer = Tokenizer::default();
    let mut events = tokenizer.tokenize(input);
    let mut found = Vec::new();
    while let Some(event) = events.next() {
        if let Some(problem) = event.problem() {
            let at = events.position(event.lexemes()[1].span().start).unwrap();
            found.push((problem, at.line, at.col));
        }
    }
    assert_eq!(
        found,
        [
            (Problem::BadCharacterInTag, 2, 6),
            (Problem::CharacterNumberOutOfRange, 3, 1)
        ]
    );
}

// ---- streaming: the same events for every chunking ---------------------------------------------

type Shape = (Channel, Vec<(LexemeKind, tagstream::Span, Vec<u8>)>);

/// What is compared: each event's channel and lexemes, data events that touch joined (a seam may
/// split data).
fn push_shape(out: &mut Vec<Shape>, event: &Event) {
    let lexemes: Vec<_> = (event.lexemes().iter())
        .map(|l| (l.kind(), l.span(), l.raw().to_vec()))
        .collect();
    if let (Channel::Primary, [(K::Data, span, raw)]) = (event.channel(), &lexemes[..])
        && let Some((Channel::Primary, last)) = out.last_mut()
        && let [(K::Data, previous, bytes)] = &mut last[..]
        && previous.end == span.start
    {
        previous.end = span.end;
        bytes.extend_from_slice(raw);
        return;
    }
    out.push((event.channel(), lexemes));
}

/// The events of `input` fed in `chunks`; with `pause`, the iterator is dropped after every
/// event and the stream resumed with an empty feed.
fn streamed(input: &[u8], cuts: &[usize], pause: bool) -> Vec<Shape> {
    let mut tokenizer = tokenizer(false);
    let mut out = Vec::new();
    let mut from = 0;
    for &to in cuts.iter().chain([&input.len()]) {
        let chunk = &input[from..to];
        from = to;
        let mut events = tokenizer.feed(chunk);
        if pause {
            if let Some(event) = events.next() {
                push_shape(&mut out, &event);
            }
            drop(events);
            while let Some(event) = tokenizer.feed(&[]).next() {
                push_shape(&mut out, &event);
            }
        } else {
            events.for_each(|e| push_shape(&mut out, &e));
        }
    }
    tokenizer.finish().for_each(|e| push_shape(&mut out, &e));
    out
}

fn whole(input: &[u8]) -> Vec<Shape> {
    let mut out = Vec::new();
    for event in tokenizer(false).tokenize(input) {
        push_shape(&mut out, &event);
    }
    out
}

#[test]
fn examples_are_the_same_at_every_split_and_byte_by_byte() {
    for &(input, _) in EXAMPLES {
        let input = input.as_bytes();
        let expected = whole(input);
        let bytes: Vec<usize> = (1..input.len()).collect();
        assert_eq!(
            streamed(input, &bytes, false),
            expected,
            "{input:?} byte by byte"
        );
        assert_eq!(streamed(input, &bytes, true), expected, "{input:?} paused");
        for cut in 0..=input.len() {
            assert_eq!(
                streamed(input, &[cut], false),
                expected,
                "{input:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn random_markup_is_the_same_in_random_chunks() {
    let alphabet = b"<>!?-&#;=\"' \n\r[]%/aZ09._,";
    let mut rng = Rng::new(280);
    for _ in 0..common::proptest_cases(500, 20) {
        let len = rng.below(60);
        let input: Vec<u8> = (0..len).map(|_| *rng.pick(alphabet)).collect();
        let cuts = common::random_cuts(&mut rng, input.len());
        let pause = rng.chance(1, 2);
        assert_eq!(
            streamed(&input, &cuts, pause),
            whole(&input),
            "{input:?} {cuts:?}"
        );
    }
}

#[test]
fn corpus_pages_are_the_same_in_chunks() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("datasets/corpus not fetched: skipped");
        return;
    };
    let mut rng = Rng::new(2028);
    for entry in entries.flatten().take(common::native_or_miri(40, 1)) {
        let input = std::fs::read(entry.path()).unwrap();
        let expected = whole(&input);
        for size in [1024, 4096] {
            let cuts = common::even_cuts(input.len(), size);
            assert_eq!(streamed(&input, &cuts, false), expected, "{entry:?} {size}");
        }
        let cuts = common::random_cuts(&mut rng, input.len());
        assert_eq!(
            streamed(&input, &cuts, true),
            expected,
            "{entry:?} {cuts:?}"
        );
    }
}

// ---- hostile inputs: linear time ---------------------------------------------------------------

/// Long constructs, whole and fed in 64-byte chunks: the same events, in time linear in their
/// size. No time is asserted: a path that read a cut construct again at every chunk would take
/// minutes at these sizes instead of well under a second.
#[test]
fn long_constructs_in_small_chunks_are_read_in_linear_time() {
    let size = common::native_or_miri(1 << 20, 1 << 10);
    let fill = |unit: &str| unit.repeat(size / unit.len());
    let inputs = [
        format!("<!--{}-->", fill("x- ")),
        format!("<!--{}-->", fill(">")),
        format!("<a {}>", fill("b='>' ")),
        format!("<!doctype d {}>", fill("-- c -- ")),
        format!("<a {}>", fill("b=c ")),
        format!("<a b=\"{}\">", fill("x> ")),
        format!("<![ IGNORE [{}]]>", fill("<p>x ")),
        format!("<?{}>", fill("pi ")),
        fill("a < b & c <! d &# e\r\n"),
        format!("<!-- {}", fill("x")),
    ];
    for input in inputs {
        let input = input.as_bytes();
        let expected = whole(input);
        let cuts = common::even_cuts(input.len(), 64);
        assert_eq!(streamed(input, &cuts, false), expected);
        let mut rng = Rng::new(input.len() as u64);
        let cuts = common::random_cuts(&mut rng, input.len());
        assert_eq!(streamed(input, &cuts, false), expected);
    }
}

/// The hostile inputs of issues 5, 25 and 26 (`benches/common/hostile.rs`, HTML's and XML's),
/// at a two-hundredth of full size: lossless, and the same whole, in 4 KiB chunks and in random
/// chunks.
#[test]
fn hostile_inputs_are_lossless_and_the_same_in_chunks() {
    let divisor = common::native_or_miri(200, 20_000);
    let mut rng = Rng::new(2828);
    for case in hostile::CASES.iter().chain(hostile::XML_CASES) {
        let input = case.input(divisor);
        let mut t = tokenizer(false);
        assert_lossless(&input, &events(&mut t, &input));
        let expected = whole(&input);
        let cuts = common::even_cuts(input.len(), 4096);
        assert_eq!(streamed(&input, &cuts, false), expected, "{}", case.name);
        let cuts = common::random_cuts(&mut rng, input.len());
        assert_eq!(streamed(&input, &cuts, false), expected, "{}", case.name);
    }
}

// ---- real SGML: the W3C's DTDs, entity sets and catalogs ---------------------------------------

/// Every file of Debian's w3c-sgml-lib (`datasets/fetch-sgml-lib.sh`, or `$TAGSTREAM_SGML_LIB`):
/// lossless, the same in 4 KiB and in random chunks. The problems found are printed by kind and
/// code (run with `--nocapture` to see them): DTDs are full of what the note declines (parameter
/// entities, marked sections, groups in declarations).
#[test]
fn real_sgml_files_are_lossless_and_chunk_invariant() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = match std::env::var_os("TAGSTREAM_SGML_LIB") {
        Some(dir) => root.join(dir),
        None => root.join("datasets/sgml-lib"),
    };
    if !dir.is_dir() {
        eprintln!(
            "{} not fetched (datasets/fetch-sgml-lib.sh): skipped",
            dir.display()
        );
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_none_or(|e| e != "gz") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut counts = std::collections::BTreeMap::new();
    let mut rng = Rng::new(8879);
    for path in files.iter().take(common::native_or_miri(usize::MAX, 2)) {
        let input = std::fs::read(path).unwrap();
        let mut t = tokenizer(false);
        let events = events(&mut t, &input);
        assert_lossless(&input, &events);
        for problem in events.iter().filter_map(Event::problem) {
            let kind = if problem.is_limitation() {
                "limitation"
            } else {
                "error"
            };
            *counts.entry((kind, problem.code())).or_insert(0usize) += 1;
        }
        let expected = whole(&input);
        let cuts = common::even_cuts(input.len(), 4096);
        assert_eq!(
            streamed(&input, &cuts, false),
            expected,
            "{}",
            path.display()
        );
        let cuts = common::random_cuts(&mut rng, input.len());
        assert_eq!(
            streamed(&input, &cuts, true),
            expected,
            "{}",
            path.display()
        );
    }
    println!("{} files; problems by kind and code:", files.len());
    for ((kind, code), n) in &counts {
        println!("  {kind} {code}: {n}");
    }
}

/// A short construct a seam cuts goes out with the chunk that ends it, not later.
#[test]
fn a_cut_tag_goes_out_with_the_chunk_that_ends_it() {
    let mut tokenizer = tokenizer(false);
    assert_eq!(tokenizer.feed(b"x <p class=a").count(), 1);
    let kinds: Vec<_> = tokenizer
        .feed(b"b>")
        .map(|e| e.lexemes()[0].kind())
        .collect();
    assert_eq!(kinds, [K::Start]);
    let kinds: Vec<_> = tokenizer
        .feed(b" &amp")
        .map(|e| e.lexemes()[0].kind())
        .collect();
    assert_eq!(kinds, [K::Data]);
    let kinds: Vec<_> = tokenizer
        .feed(b"; y")
        .map(|e| e.lexemes()[0].kind())
        .collect();
    assert_eq!(kinds, [K::GeRef, K::Data]);
    assert_eq!(tokenizer.finish().count(), 0);
}

/// `max_carry` bounds what an unfinished construct may hold: the stream stops there, with what
/// came before it handed out.
#[test]
fn a_construct_longer_than_max_carry_stops_the_stream() {
    let input = format!("<p>x<!-- {} -->", "y".repeat(10_000));
    let options = Options::new().max_carry(1024);
    let mut tokenizer = Tokenizer::new(options, SgmlOptions::default());
    let mut kinds = Vec::new();
    for chunk in input.as_bytes().chunks(100) {
        kinds.extend(tokenizer.feed(chunk).map(|e| e.lexemes()[0].kind()));
    }
    kinds.extend(tokenizer.finish().map(|e| e.lexemes()[0].kind()));
    assert_eq!(kinds, [K::Start, K::Data]);
    let error = tokenizer.limit_error().expect("stopped");
    assert_eq!((error.max, error.offset), (1024, 4));
}

/// A seam does not split a character's bytes between two data events.
#[test]
fn a_seam_does_not_split_a_character_in_data() {
    let input = "a £ € 😀<p>é&amp;ü".as_bytes();
    for cut in 0..=input.len() {
        let mut tokenizer = tokenizer(false);
        let mut raws: Vec<Vec<u8>> = Vec::new();
        for chunk in [&input[..cut], &input[cut..]] {
            raws.extend(
                tokenizer
                    .feed(chunk)
                    .flat_map(|e| e.lexemes().iter().map(|l| l.raw().to_vec())),
            );
        }
        raws.extend(
            tokenizer
                .finish()
                .flat_map(|e| e.lexemes().iter().map(|l| l.raw().to_vec())),
        );
        assert!(
            raws.iter().all(|raw| std::str::from_utf8(raw).is_ok()),
            "cut at {cut}: {raws:?}"
        );
        assert_eq!(raws.concat(), input);
    }
}
