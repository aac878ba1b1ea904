//! The XML5 tokenizer beyond what xml5lib-tests covers: spans of every token kind, case-preserved
//! names, the short end tag, CDATA as text of its own kind, the DOCTYPE's internal subset, NUL,
//! parse-error codes with their lines and columns, and the same tokens whatever the chunking.
//! Hostile inputs are in `tests/hostile_xml5.rs`.

use tagstream::{ErrorCode, Options, Position, Span, TextKind, Token, Tokenizer, xml5};

/// The span of the first occurrence of `needle` in `input`.
fn find(input: &[u8], needle: &str) -> Span {
    let needle = needle.as_bytes();
    let start = (0..=input.len() - needle.len())
        .find(|&i| &input[i..i + needle.len()] == needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the input"));
    Span {
        start,
        end: start + needle.len(),
    }
}

const DOCUMENT: &str = concat!(
    "<?xml version='1.0'?>",
    "<!DOCTYPE Svg SYSTEM 'svg.dtd' [<!ENTITY e ']>'><!-- ] -->]>",
    r#"<Svg viewBox="0 0 1 1" xml:lang='en'>"#,
    "a &amp; b",
    "<![CDATA[<raw> &amp;]]>",
    "<!-- note -->",
    "<G/>",
    "</Svg>",
    "</>"
);

#[test]
fn spans_of_every_token_kind() {
    let input = DOCUMENT.as_bytes();
    let mut tokenizer = xml5::Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    assert_eq!(tokens.len(), 9, "{tokens:?}");

    let Token::ProcessingInstruction(pi) = tokens[0] else {
        panic!("{:?}", tokens[0])
    };
    assert_eq!(pi.span(), find(input, "<?xml version='1.0'?>"));
    assert_eq!((pi.target(), pi.data()), ("xml", "version='1.0'"));
    assert_eq!(pi.target_span(), find(input, "xml"));
    assert_eq!(pi.data_span(), find(input, "version='1.0'"));

    let Token::Doctype(d) = tokens[1] else {
        panic!("{:?}", tokens[1])
    };
    let subset = "[<!ENTITY e ']>'><!-- ] -->]";
    assert_eq!(
        d.span(),
        find(
            input,
            "<!DOCTYPE Svg SYSTEM 'svg.dtd' [<!ENTITY e ']>'><!-- ] -->]>"
        )
    );
    assert_eq!((d.name(), d.raw_name()), (Some("svg"), Some(&b"Svg"[..])));
    assert_eq!((d.public_id(), d.system_id()), (None, Some("svg.dtd")));
    assert_eq!(d.system_id_span(), Some(find(input, "svg.dtd")));
    assert_eq!(d.raw_internal_subset(), Some(subset.as_bytes()));
    assert_eq!(d.internal_subset_span(), Some(find(input, subset)));

    let Token::StartTag(tag) = tokens[2] else {
        panic!("{:?}", tokens[2])
    };
    assert_eq!(
        tag.span(),
        find(input, r#"<Svg viewBox="0 0 1 1" xml:lang='en'>"#)
    );
    let name = find(input, "<Svg viewBox").start + 1;
    assert_eq!(
        tag.name_span(),
        Span {
            start: name,
            end: name + 3
        }
    );
    let attrs: Vec<_> = tag
        .attributes()
        .map(|a| (a.name(), a.value(), a.quote()))
        .collect();
    assert_eq!(
        attrs,
        [
            ("viewBox", "0 0 1 1", Some('"')),
            ("xml:lang", "en", Some('\''))
        ]
    );
    let view_box = tag.attribute("viewBox").unwrap();
    assert_eq!(view_box.name_span(), find(input, "viewBox"));
    assert_eq!(view_box.value_span(), find(input, "0 0 1 1"));
    assert_eq!(view_box.span(), find(input, r#"viewBox="0 0 1 1""#));

    let Token::Text(text) = tokens[3] else {
        panic!("{:?}", tokens[3])
    };
    assert_eq!(
        (text.text(), text.raw(), text.kind()),
        ("a & b", &b"a &amp; b"[..], TextKind::Data)
    );
    assert_eq!(text.span(), find(input, "a &amp; b"));

    let Token::Text(cdata) = tokens[4] else {
        panic!("{:?}", tokens[4])
    };
    assert_eq!(
        (cdata.text(), cdata.kind()),
        ("<raw> &amp;", TextKind::Cdata)
    );
    assert_eq!(cdata.span(), find(input, "<raw> &amp;"));

    let Token::Comment(c) = tokens[5] else {
        panic!("{:?}", tokens[5])
    };
    assert_eq!(
        (c.data(), c.span()),
        (" note ", find(input, "<!-- note -->"))
    );
    assert_eq!(c.data_span(), find(input, " note "));

    let Token::StartTag(empty) = tokens[6] else {
        panic!("{:?}", tokens[6])
    };
    assert!(empty.self_closing());
    assert_eq!((empty.name(), empty.span()), ("G", find(input, "<G/>")));

    let Token::EndTag(end) = tokens[7] else {
        panic!("{:?}", tokens[7])
    };
    assert_eq!((end.name(), end.span()), ("Svg", find(input, "</Svg>")));

    let Token::EndTag(short) = tokens[8] else {
        panic!("{:?}", tokens[8])
    };
    assert_eq!((short.name(), short.raw()), ("", &b"</>"[..]));
    assert_eq!(short.span(), find(input, "</>"));
    assert_eq!(short.name_span(), Span::empty(input.len() - 1));
}

#[test]
fn names_keep_their_case_where_html_lowercases_them() {
    let input = b"<Feed xmlns:Atom='x'><Atom:Entry Lang='EN'/></Feed>";
    let mut xml = xml5::Tokenizer::default();
    let names: Vec<String> = xml
        .tokenize(input)
        .map(|t| match t {
            Token::StartTag(tag) => {
                let attrs: Vec<_> = tag.attributes().map(|a| a.name().to_owned()).collect();
                format!("{} {}", tag.name(), attrs.join(","))
            }
            Token::EndTag(tag) => format!("/{}", tag.name()),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["Feed xmlns:Atom", "Atom:Entry Lang", "/Feed"]);
    let mut html = Tokenizer::default();
    let Some(Token::StartTag(tag)) = html.tokenize(input).next() else {
        panic!()
    };
    assert_eq!(tag.name(), "feed");
}

#[test]
fn attributes_repeat_only_with_the_same_case() {
    let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(true));
    let Some(Token::StartTag(tag)) = tokenizer.tokenize(b"<a x='1' X='2' x='3'>").next() else {
        panic!()
    };
    let attrs: Vec<_> = tag.attributes().map(|a| (a.name(), a.value())).collect();
    assert_eq!(attrs, [("x", "1"), ("X", "2")]);
    let codes: Vec<_> = tokenizer
        .errors()
        .iter()
        .map(|e| (e.code, e.offset))
        .collect();
    assert_eq!(codes, [(ErrorCode::DuplicateAttribute, 16)]);
}

#[test]
fn nul_becomes_the_replacement_character() {
    let input = b"a\0b<![CDATA[c\0d]]><n\0 v='\0'/>";
    let mut tokenizer = xml5::Tokenizer::default();
    let parts: Vec<String> = tokenizer
        .tokenize(input)
        .map(|t| match t {
            Token::Text(text) => text.text().to_owned(),
            Token::StartTag(tag) => format!(
                "{}={}",
                tag.name(),
                tag.attributes().next().unwrap().value()
            ),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(parts, ["a\u{FFFD}b", "c\u{FFFD}d", "n\u{FFFD}=\u{FFFD}"]);
}

/// Every error of `input` as (code, line, column).
fn errors(input: &[u8]) -> Vec<(ErrorCode, u64, u64)> {
    let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(true));
    tokenizer.tokenize(input).for_each(drop);
    tokenizer
        .errors()
        .iter()
        .map(|e| (e.code, e.position.line, e.position.col))
        .collect()
}

#[test]
fn parse_errors_have_codes_lines_and_columns() {
    use ErrorCode::*;
    assert_eq!(errors(b"<a>\n</a x>"), [(EndTagWithAttributes, 2, 5)]);
    assert_eq!(errors(b"<a :b='1'>"), [(ColonBeforeAttribute, 1, 4)]);
    assert_eq!(errors(b"x\n< y"), [(InvalidFirstCharacterOfTagName, 2, 2)]);
    assert_eq!(errors(b"</a/>"), [(EndTagWithTrailingSolidus, 1, 4)]);
    assert_eq!(errors(b"<a/ b>"), [(UnexpectedSolidusInTag, 1, 4)]);
    assert_eq!(
        errors(b"<? x?>"),
        [(InvalidFirstCharacterOfProcessingInstructionTarget, 1, 3)]
    );
    assert_eq!(errors(b"<?pi\ndata"), [(EofInProcessingInstruction, 2, 5)]);
    assert_eq!(errors(b"<![CDATA[x"), [(EofInCdata, 1, 11)]);
    assert_eq!(errors(b"<!x>"), [(IncorrectlyOpenedComment, 1, 3)]);
    assert_eq!(errors(b"<!-->"), [(AbruptClosingOfEmptyComment, 1, 5)]);
    assert_eq!(errors(b"<!-- <!-- -->"), [(NestedComment, 1, 10)]);
    assert_eq!(errors(b"<!-- x --!>"), [(IncorrectlyClosedComment, 1, 11)]);
    assert_eq!(errors(b"<!-- x"), [(EofInComment, 1, 7)]);
    assert_eq!(errors(b"<a b='1' b='2'>"), [(DuplicateAttribute, 1, 11)]);
    assert_eq!(errors(b"<a"), [(EofInTag, 1, 3)]);
    assert_eq!(
        errors(b"<!DOCTYPE a [] x>"),
        [(UnexpectedCharacterAfterDoctypeInternalSubset, 1, 16)]
    );
    assert_eq!(errors(b"<!DOCTYPE a [x"), [(EofInDoctype, 1, 15)]);
    assert_eq!(errors(b"&#0;"), [(NullCharacterReference, 1, 5)]);
    assert_eq!(
        errors(b"<a b='&amp'>"),
        [(MissingSemicolonAfterCharacterReference, 1, 11)]
    );
    assert_eq!(errors(b"a\x01"), [(ControlCharacterInInputStream, 1, 2)]);
}

#[test]
fn errors_are_off_by_default() {
    let mut tokenizer = xml5::Tokenizer::default();
    assert_eq!(
        tokenizer
            .tokenize(b"<a b='1' b='2'></a x><![CDATA[")
            .count(),
        2
    );
    assert!(tokenizer.errors().is_empty());
}

#[test]
fn positions_of_tokens() {
    let input = "<r>\n  <é/>\n</r>".as_bytes();
    let mut tokenizer = xml5::Tokenizer::default();
    let mut tokens = tokenizer.tokenize(input);
    let mut at = Vec::new();
    while let Some(token) = tokens.next() {
        if !matches!(token, Token::Text(_)) {
            at.push(tokens.position(token.span().start).unwrap());
        }
    }
    let expected = [(1, 1), (2, 3), (3, 1)].map(|(line, col)| Position { line, col });
    assert_eq!(at, expected);
}

/// The tokens of `chunks` fed in turn, as text (adjacent text merged), with the errors
/// (errors on) or without (errors off: the direct lane lexes text and plain tags).
fn tokens(chunks: &[&[u8]], errors: bool) -> (Vec<String>, Vec<(ErrorCode, usize)>) {
    let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(errors).max_errors(usize::MAX));
    let mut out: Vec<String> = Vec::new();
    let mut push = |token: Token<'_>| {
        let s = match token {
            Token::Text(t) => {
                let s = format!("text {:?} {}", t.kind(), t.text());
                if let Some(last) = out
                    .last_mut()
                    .filter(|l| l.starts_with(&s[..s.len() - t.text().len()]))
                {
                    last.push_str(t.text());
                    return;
                }
                s
            }
            Token::StartTag(t) => {
                let a: Vec<_> = t
                    .attributes()
                    .map(|a| format!("{}={}@{:?}", a.name(), a.value(), a.span()))
                    .collect();
                format!(
                    "start {} {:?} {} {}",
                    t.name(),
                    t.span(),
                    t.self_closing(),
                    a.join(" ")
                )
            }
            Token::EndTag(t) => format!("end {} {:?}", t.name(), t.span()),
            Token::Comment(c) => format!("comment {} {:?}", c.data(), c.span()),
            Token::ProcessingInstruction(p) => {
                format!("pi {} {} {:?}", p.target(), p.data(), p.span())
            }
            Token::Doctype(d) => format!(
                "doctype {:?} {:?} {:?} {:?} {:?}",
                d.name(),
                d.public_id(),
                d.system_id(),
                d.raw_internal_subset(),
                d.span()
            ),
            Token::Raw(r) => format!("raw {:?} {:?}", r.raw(), r.span()),
        };
        out.push(s);
    };
    for chunk in chunks {
        tokenizer.feed(chunk).for_each(&mut push);
    }
    tokenizer.finish().for_each(&mut push);
    let errors = tokenizer
        .errors()
        .iter()
        .map(|e| (e.code, e.offset))
        .collect();
    (out, errors)
}

#[test]
fn the_tokens_do_not_depend_on_the_chunking() {
    let documents: [&[u8]; 6] = [
        DOCUMENT.as_bytes(),
        b"<a x='&#x41;&amp' y=&lt;z>t&#65;&notit; \r\n&\xC3\xA9</a><b/></>",
        b"<!DOCTYPE r PUBLIC 'p' \"s\" [<!-- ']' --><!ATTLIST r a CDATA '&lt;'>]><r/>",
        b"<!-- a <!-- b -- c --!> <![CDATA[ x ]]] ]]> <?t d ?? e?>< </ <:a",
        b"<x a=1 a=2 :b c/ d><?pi unfinished",
        "<ü ä='ö'>ß<![CDATA[€]]>".as_bytes(),
    ];
    for input in documents {
        let whole = tokens(&[input], true);
        let mut chunkings: Vec<(String, Vec<&[u8]>)> = (1..8)
            .map(|size| (format!("chunks of {size}"), input.chunks(size).collect()))
            .collect();
        for at in 1..input.len() {
            let (a, b) = input.split_at(at);
            chunkings.push((format!("split at {at}"), vec![a, b]));
        }
        chunkings.push(("whole".into(), vec![input]));
        for (how, chunks) in chunkings {
            assert_eq!(tokens(&chunks, true), whole, "{how}: {input:?}");
            let (lane, errors) = tokens(&chunks, false);
            assert_eq!(
                (&lane, errors.len()),
                (&whole.0, 0),
                "{how}, errors off: {input:?}"
            );
        }
    }
}

/// What each feed of `chunks` hands out (errors off: the lane), as text and tag names.
fn per_feed(chunks: &[&[u8]]) -> Vec<Vec<String>> {
    let mut tokenizer = xml5::Tokenizer::new(Options::new());
    let name = |token: Token<'_>| match token {
        Token::Text(t) => format!("text {}", t.text()),
        Token::StartTag(t) => format!("start {} {}", t.name(), t.attributes().count()),
        Token::EndTag(t) => format!("end {}", t.name()),
        other => format!("{other:?}"),
    };
    let mut feeds: Vec<Vec<String>> = chunks
        .iter()
        .map(|chunk| tokenizer.feed(chunk).map(name).collect())
        .collect();
    feeds.push(tokenizer.finish().map(name).collect());
    feeds
}

#[test]
fn a_tag_a_seam_cuts_waits_for_its_end_and_is_the_same_tag() {
    let attributes: Vec<String> = (0..64).map(|i| format!("a{i}='{i}'")).collect();
    let long = format!("<long {}>", attributes.join(" "));
    let input = format!(
        "text<a x='1' y=\"2\">t</a>{long}u</long><b/>< c<:d</ e<?p ?><!--c--><f g='>'>\r\n<h>"
    );
    let input = input.as_bytes();
    let whole = tokens(&[input], true);
    let mut chunkings: Vec<(String, Vec<&[u8]>)> = [1, 2, 3, 7, 16, 100]
        .iter()
        .map(|&size| (format!("chunks of {size}"), input.chunks(size).collect()))
        .collect();
    for at in 1..input.len() {
        let (a, b) = input.split_at(at);
        chunkings.push((format!("split at {at}"), vec![a, b]));
    }
    for (how, chunks) in chunkings {
        assert_eq!(tokens(&chunks, true), whole, "{how}");
        assert_eq!(tokens(&chunks, false).0, whole.0, "{how}, errors off");
    }
    // The text before a cut tag goes out at once; the tag, whole, with the chunk that ends it.
    assert_eq!(
        per_feed(&[b"text<a x='1", b"' y=\"2\">", b"t"]),
        [vec!["text text"], vec!["start a 2"], vec!["text t"], vec![]]
    );
    // A tag longer than a chunk: carried on whole through the chunks that do not end it.
    let chunks: Vec<&[u8]> = long.as_bytes().chunks(16).collect();
    let mut expected = vec![Vec::<String>::new(); chunks.len() + 1];
    expected[chunks.len() - 1] = vec!["start long 64".to_string()];
    assert_eq!(per_feed(&chunks), expected);
    // A `<` that ends a chunk: the next one tells what it opens.
    assert_eq!(
        per_feed(&[b"x<", b"a>"]),
        [vec!["text x"], vec!["start a 0"], vec![]]
    );
    assert_eq!(
        per_feed(&[b"x<", b" y"]),
        [vec!["text x"], vec!["text < y"], vec![]]
    );
    assert_eq!(
        per_feed(&[b"x</", b"a>"]),
        [vec!["text x"], vec!["end a"], vec![]]
    );
}

#[test]
fn a_numeric_reference_cut_by_many_seams_decodes_whole() {
    let mut input = b"a&#".to_vec();
    input.extend(std::iter::repeat_n(b'0', 1 << 20));
    input.extend(b"65;b");
    for errors in [false, true] {
        let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(errors));
        let mut text = String::new();
        for chunk in input.chunks(4096) {
            for token in tokenizer.feed(chunk) {
                let Token::Text(t) = token else {
                    panic!("{token:?}")
                };
                text.push_str(t.text());
            }
        }
        for token in tokenizer.finish() {
            let Token::Text(t) = token else {
                panic!("{token:?}")
            };
            text.push_str(t.text());
        }
        assert_eq!(text, "aAb");
        assert!(tokenizer.errors().is_empty());
    }
}

#[test]
fn a_solidus_not_followed_by_gt_is_an_error_and_the_draft_decides_the_kind() {
    // §1.3.27: the tag attribute name state emits a start tag; §1.3.26 emits the current token,
    // which the `/` made an empty tag.
    for (input, self_closing) in [
        (&b"<a/ b>"[..], false),
        (b"<a/ >", true),
        (b"<a b/ c='1'>", true),
    ] {
        let mut tokenizer = xml5::Tokenizer::new(Options::new().errors(true));
        let Some(Token::StartTag(tag)) = tokenizer.tokenize(input).next() else {
            panic!()
        };
        assert_eq!(tag.self_closing(), self_closing, "{input:?}");
        let codes: Vec<_> = tokenizer.errors().iter().map(|e| e.code).collect();
        assert_eq!(codes, [ErrorCode::UnexpectedSolidusInTag], "{input:?}");
    }
}

/// Pieces that random documents are made of: every byte the states look at, and the openings and
/// closings of every token kind.
const PIECES: &[&[u8]] = &[
    b"<",
    b">",
    b"/",
    b"?",
    b"!",
    b"-",
    b"[",
    b"]",
    b"=",
    b"'",
    b"\"",
    b"&",
    b"#",
    b"x",
    b";",
    b" ",
    b"\n",
    b"\r",
    b"a",
    b"B",
    b":",
    b"\0",
    b"1",
    b"amp",
    b"lt;",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<!DOCTYPE",
    b"PUBLIC",
    b"SYSTEM",
    b"<?",
    b"?>",
    b"\xC3\xA9",
    b"\xE2\x82",
    b"\xAC",
    b"</",
    b"/>",
    b"&#x",
    b"&#",
];

#[test]
fn random_documents_give_the_same_tokens_under_every_chunking_lane_or_not() {
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    for _ in 0..3000 {
        let input: Vec<u8> = (0..random() % 24)
            .flat_map(|_| PIECES[random() % PIECES.len()].iter().copied())
            .collect();
        let whole = tokens(&[&input], true);
        let mut chunkings = vec![input.chunks(1).collect::<Vec<_>>(), vec![&input[..]]];
        chunkings.extend((1..input.len()).map(|at| {
            let (a, b) = input.split_at(at);
            vec![a, b]
        }));
        for chunks in chunkings {
            assert_eq!(tokens(&chunks, true), whole, "{input:?} in {chunks:?}");
            let (lane, errors) = tokens(&chunks, false);
            assert_eq!(
                (&lane, errors.len()),
                (&whole.0, 0),
                "errors off: {input:?} in {chunks:?}"
            );
        }
    }
}

/// A whole document in another encoding: the BOM, else the XML declaration's `encoding`, else
/// UTF-8 (the encoding module's sniffing, with UTF-8 as the default), decoded, then tokenized.
#[cfg(feature = "encoding")]
#[test]
fn documents_in_the_encoding_their_declaration_or_bom_names() {
    use tagstream::encoding::decode_document;
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        "<?xml version='1.0'?><p>é</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    let documents: [(&[u8], &str); 4] = [
        (
            b"<?xml version='1.0' encoding='windows-1252'?><p>caf\xE9</p>",
            "windows-1252",
        ),
        (
            b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><p>\x82\xA0</p>",
            "Shift_JIS",
        ),
        (&utf16, "UTF-16LE"),
        ("<?xml version='1.0'?><p>é</p>".as_bytes(), "UTF-8"),
    ];
    let expected = ["caf\u{E9}", "\u{3042}", "\u{E9}", "\u{E9}"];
    for ((bytes, name), text) in documents.into_iter().zip(expected) {
        let (decoded, sniffed) = decode_document(bytes, None, encoding_rs::UTF_8);
        assert_eq!(sniffed.encoding.name(), name);
        let mut tokenizer = xml5::Tokenizer::default();
        let texts: Vec<String> = tokenizer
            .tokenize(&decoded)
            .filter_map(|t| match t {
                Token::Text(t) => Some(t.text().to_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(texts, [text], "{name}");
    }
}

#[test]
fn a_quoted_value_cut_by_the_end_of_input_has_no_closing_quote() {
    // Found by the xml5 fuzz target: the attribute's span reached one past the input.
    let input = b"<h&= a&al'ng='>";
    let mut tokenizer = xml5::Tokenizer::default();
    let Some(Token::StartTag(tag)) = tokenizer.tokenize(input).next() else {
        panic!("no start tag")
    };
    let attribute = tag.attributes().next().expect("one attribute");
    assert_eq!((attribute.name(), attribute.value()), ("a&al'ng", ">"));
    assert_eq!(attribute.span(), Span { start: 5, end: 15 });
    assert_eq!(attribute.raw(), b"a&al'ng='>");
}
