//! The serializer's refusals (one test per [`Refusal`] case, with where it was and what
//! [`SerializerOptions::lossy`] writes instead, read back through the tokenizer) and the options
//! the html5lib-tests suite does not reach.

use tagstream::html5lib::{Html5libToken, run};
use tagstream::write::{
    Doctype, Location, Namespace, Place, Refusal, Serializer, SerializerOptions, WriteError,
};
use tagstream::{Options, TextKind};

type S<'a> = Serializer<&'a mut Vec<u8>>;

/// Calls that end in a refused token.
type Calls = fn(&mut S<'_>) -> Result<(), WriteError>;

/// What `f` writes with `options`, after `finish`.
fn written(options: SerializerOptions, f: impl FnOnce(&mut S<'_>)) -> String {
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, options);
    f(&mut s);
    s.finish().unwrap();
    drop(s);
    String::from_utf8(out).unwrap()
}

/// The refusal `f`'s last call returns, with its location; nothing of the refused token is
/// written (checked: the output is what the calls before it wrote).
fn refusal(f: impl Fn(&mut S<'_>) -> Result<(), WriteError>) -> (Refusal, Location) {
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, SerializerOptions::new());
    let error = f(&mut s).expect_err("refused");
    s.finish().unwrap();
    drop(s);
    let before = String::from_utf8(out).unwrap();
    match error {
        WriteError::Refused { refusal, at } => {
            assert!(
                !before.contains("REFUSED"),
                "refused token written: {before}"
            );
            (refusal, at)
        }
        other => panic!("not a refusal: {other}"),
    }
}

/// `f` in lossy mode: the output.
fn lossy(f: impl FnOnce(&mut S<'_>)) -> String {
    written(SerializerOptions::new().lossy(true), f)
}

fn tokens(html: &str) -> Vec<Html5libToken> {
    run(html.as_bytes(), &Options::new(), None).output
}

fn comment(data: &str) -> Html5libToken {
    Html5libToken::Comment(data.into())
}

fn chars(data: &str) -> Html5libToken {
    Html5libToken::Character(data.into())
}

// ---- comments (§13.1.6) ------------------------------------------------------------------------

#[test]
fn comments_that_would_not_read_back_are_refused() {
    for (text, rule) in [
        (">REFUSED", ">"),
        ("->REFUSED", "->"),
        ("a-->REFUSED", "-->"),
        ("a--!>REFUSED", "--!>"),
    ] {
        let (why, at) = refusal(|s| {
            s.start_tag("p", &[])?;
            s.comment(text)
        });
        assert_eq!(why, Refusal::Comment { rule }, "{text:?}");
        assert_eq!(at, Location::Index(1));
    }
}

#[test]
fn comments_the_rules_allow_are_written() {
    let out = written(SerializerOptions::new(), |s| {
        for text in TEXTS {
            s.comment(text).unwrap();
        }
    });
    // §13.1.6 forbids `<!--` inside and `<!-` at the end too, but they read back as written.
    const TEXTS: [&str; 9] = [
        "", "-", "a--b", "a<!", "<!- x", "--!", "a -- > b", "a<!--b", "a<!-",
    ];
    let expected: Vec<_> = TEXTS.into_iter().map(comment).collect();
    assert_eq!(tokens(&out), expected);
}

/// Every string of up to five fragments as comment text: accepted, it reads back as itself; lossy,
/// it is always written and reads back as one comment.
#[test]
fn comments_read_back_as_written() {
    const FRAGMENTS: &[&str] = &["<", "!", "-", ">", "a", "<!--", "-->", "--!>", "<!-"];
    let mut texts = vec![String::new()];
    for _ in 0..5 {
        let longer: Vec<String> = texts
            .iter()
            .flat_map(|t| FRAGMENTS.iter().map(move |f| format!("{t}{f}")))
            .collect();
        texts.extend(longer);
    }
    texts.sort();
    texts.dedup();
    for text in &texts {
        let mut out = Vec::new();
        let mut s = Serializer::new(&mut out, SerializerOptions::new());
        let accepted = s.comment(text).is_ok();
        s.finish().unwrap();
        drop(s);
        if accepted {
            assert_eq!(
                tokens(std::str::from_utf8(&out).unwrap()),
                [comment(text)],
                "{text:?}"
            );
        }
        let out = lossy(|s| s.comment(text).unwrap());
        let read = tokens(&out);
        assert!(
            matches!(read[..], [Html5libToken::Comment(_)]),
            "{text:?}: {out:?}"
        );
    }
}

#[test]
fn lossy_comments_are_broken_by_spaces_and_read_back_as_one_comment() {
    let out = lossy(|s| {
        for text in [">a", "->a", "a<!--b", "a-->b", "a--!>b", "a<!-"] {
            s.comment(text).unwrap();
        }
    });
    let expected: Vec<_> = [" >a", " ->a", "a<!--b", "a-- >b", "a--! >b", "a<!-"]
        .into_iter()
        .map(comment)
        .collect();
    assert_eq!(tokens(&out), expected);
}

// ---- raw text (§13.1.2.6) ----------------------------------------------------------------------

#[test]
fn raw_text_holding_its_end_tag_is_refused() {
    for (element, text) in [
        ("script", "a</script>REFUSED"),
        ("script", "a</SCRIPT REFUSED"),
        ("script", "a</script/REFUSED"),
        ("style", "a</style\tREFUSED"),
        ("xmp", "a</xmp\nREFUSED"),
        ("iframe", "</iframe\x0CREFUSED"),
    ] {
        let (why, _) = refusal(|s| {
            s.start_tag(element, &[])?;
            s.text(text)
        });
        let expected = Refusal::EndTagInRawText {
            element: element.into(),
        };
        assert_eq!(why, expected, "{text:?}");
    }
}

#[test]
fn raw_text_without_an_end_tag_is_written_as_it_is() {
    let out = written(SerializerOptions::new(), |s| {
        s.start_tag("script", &[]).unwrap();
        s.text("a</scripts> && b < c </script").unwrap();
        s.end_tag("script").unwrap();
        s.start_tag("title", &[]).unwrap();
        s.text("</title> & <b>").unwrap();
        s.end_tag("title").unwrap();
    });
    assert_eq!(
        out,
        "<script>a</scripts> && b < c </script</script><title>&lt;/title&gt; &amp; &lt;b&gt;</title>"
    );
}

#[test]
fn script_end_tags_follow_the_escape_states() {
    // Inside `<!-- <script>`, `</script>` only leaves the double escaped state.
    let text = "<!-- <script>x</script> -->";
    let out = written(SerializerOptions::new(), |s| {
        s.start_tag("script", &[]).unwrap();
        s.text(text).unwrap();
        s.end_tag("script").unwrap();
    });
    assert_eq!(tokens(&out)[1], chars(text));
    // Left double escaped, the end tag would not end the script.
    let (why, at) = refusal(|s| {
        s.start_tag("script", &[])?;
        s.text("<!-- <script>")?;
        s.end_tag("script")
    });
    assert_eq!((why, at), (Refusal::ScriptNotClosable, Location::Index(2)));
    // Split across texts, the states carry over.
    let (why, _) = refusal(|s| {
        s.start_tag("script", &[])?;
        s.text("<!-")?;
        s.text("- <scr")?;
        s.text("ipt>")?;
        s.end_tag("script")
    });
    assert_eq!(why, Refusal::ScriptNotClosable);
    let (why, _) = refusal(|s| {
        s.start_tag("script", &[])?;
        s.text("a </scr")?;
        s.text("ipt>")
    });
    let end_tag = Refusal::EndTagInRawText {
        element: "script".into(),
    };
    assert_eq!(why, end_tag);
}

#[test]
fn an_end_tag_split_across_texts_is_refused() {
    let (why, at) = refusal(|s| {
        s.start_tag("style", &[])?;
        s.text("a</sty")?;
        s.text("le\nREFUSED")
    });
    let end_tag = Refusal::EndTagInRawText {
        element: "style".into(),
    };
    assert_eq!((why, at), (end_tag, Location::Index(2)));
    let out = lossy(|s| {
        s.start_tag("style", &[]).unwrap();
        s.text("a</sty").unwrap();
        s.text("le>b").unwrap();
    });
    assert_eq!(out, "<style>a</sty\\le>b");
}

/// Every string of up to four fragments, as script and as style text: accepted exactly when
/// `<element>text</element>` reads back as that text inside that element (the refusals are
/// needed, and the acceptances right).
#[test]
fn raw_text_is_refused_exactly_when_it_would_not_read_back() {
    const FRAGMENTS: &[&str] = &[
        "<", "/", "!--", "-", ">", "script", " ", "<script", "</script", "-->", "x", "</style",
    ];
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .flat_map(|t| FRAGMENTS.iter().map(move |f| format!("{t}{f}")))
            .collect();
        texts.extend(longer);
    }
    texts.sort();
    texts.dedup();
    for element in ["script", "style"] {
        for text in texts.iter().filter(|t| !t.is_empty()) {
            let html = format!("<{element}>{text}</{element}>");
            let reads_back = tokens(&html)
                == [
                    Html5libToken::StartTag {
                        name: element.into(),
                        attributes: vec![],
                        self_closing: false,
                    },
                    chars(text),
                    Html5libToken::EndTag {
                        name: element.into(),
                    },
                ];
            let mut out = Vec::new();
            let mut s = Serializer::new(&mut out, SerializerOptions::new());
            s.start_tag(element, &[]).unwrap();
            let accepted = s.text(text).is_ok() && s.end_tag(element).is_ok();
            assert_eq!(accepted, reads_back, "{html:?}");
        }
    }
}

#[test]
fn lossy_raw_text_escapes_the_solidus() {
    let out = lossy(|s| {
        s.start_tag("script", &[]).unwrap();
        s.text("var s = '</script>';").unwrap();
        s.end_tag("script").unwrap();
    });
    assert_eq!(out, "<script>var s = '<\\/script>';</script>");
}

// ---- CDATA (§13.1.5) ---------------------------------------------------------------------------

#[test]
fn cdata_holding_its_end_is_refused_and_lossy_splits_it() {
    let (why, _) = refusal(|s| {
        s.start_tag_in(Namespace::Svg, "svg", &[], false)?;
        s.cdata("a]]>REFUSED")
    });
    assert_eq!(why, Refusal::CdataEnd);
    let out = lossy(|s| {
        s.start_tag_in(Namespace::Svg, "svg", &[], false).unwrap();
        s.cdata("a]]>b").unwrap();
    });
    assert_eq!(out, "<svg><![CDATA[a]]]]><![CDATA[>b]]>");
    assert_eq!(tokens(&out)[1], chars("a]]>b"));
}

// ---- DOCTYPE (§13.1.1) -------------------------------------------------------------------------

#[test]
fn doctypes_that_cannot_read_back_are_refused() {
    let html = |public_id, system_id| Doctype {
        public_id,
        system_id,
        ..Doctype::html()
    };
    for d in [
        html(Some("a\"b'c"), None),
        html(None, Some("a\"b'c")),
        html(Some("a>b"), None),
        Doctype {
            name: Some("a b"),
            ..Doctype::html()
        },
        Doctype {
            name: None,
            system_id: Some("x"),
            ..Doctype::default()
        },
        Doctype {
            name: None,
            force_quirks: false,
            ..Doctype::default()
        },
    ] {
        let (why, _) = refusal(|s| s.doctype(&d));
        assert!(matches!(why, Refusal::Doctype { .. }), "{d:?}: {why:?}");
    }
}

#[test]
fn doctypes_read_back_with_their_force_quirks_flag() {
    let cases = [
        (Some("html"), None, None),
        (Some("html"), Some("p\"x"), None),
        (Some("html"), None, Some("s'y")),
        (Some("html"), Some("p"), Some("s")),
    ];
    for quirks in [false, true] {
        for (name, public_id, system_id) in cases {
            let d = Doctype {
                name,
                public_id,
                system_id,
                force_quirks: quirks,
            };
            let out = written(SerializerOptions::new(), |s| s.doctype(&d).unwrap());
            let expected = Html5libToken::Doctype {
                name: name.map(Into::into),
                public_id: public_id.map(Into::into),
                system_id: system_id.map(Into::into),
                correctness: !quirks,
            };
            assert_eq!(tokens(&out), [expected], "{out}");
        }
    }
    let out = written(SerializerOptions::new(), |s| {
        s.doctype(&Doctype {
            force_quirks: true,
            ..Doctype::default()
        })
        .unwrap()
    });
    assert_eq!(out, "<!DOCTYPE>");
}

#[test]
fn lossy_doctype_identifiers_lose_what_cannot_be_quoted() {
    let out = lossy(|s| {
        s.doctype(&Doctype {
            public_id: Some("a\"b'c>"),
            ..Doctype::html()
        })
        .unwrap()
    });
    assert_eq!(out, "<!DOCTYPE html PUBLIC \"a'b'c\">");
}

// ---- characters the tokenizer changes ----------------------------------------------------------

#[test]
fn nul_is_refused_where_it_reads_back_as_u_fffd() {
    let cases: [(Place, Calls); 6] = [
        (Place::AttributeValue, |s| s.start_tag("p", &[("a", "\0")])),
        (Place::Text(TextKind::Rcdata), |s| {
            s.start_tag("title", &[])?;
            s.text("\0")
        }),
        (Place::Text(TextKind::ScriptData), |s| {
            s.start_tag("script", &[])?;
            s.text("\0")
        }),
        (Place::Text(TextKind::Plaintext), |s| {
            s.start_tag("plaintext", &[])?;
            s.text("\0")
        }),
        (Place::Comment, |s| s.comment("\0")),
        (Place::Doctype, |s| {
            s.doctype(&Doctype {
                system_id: Some("\0"),
                ..Doctype::html()
            })
        }),
    ];
    for (place, f) in cases {
        assert_eq!(refusal(f).0, Refusal::Nul(place));
    }
    // In data and CDATA sections U+0000 reads back as itself.
    let out = written(SerializerOptions::new(), |s| {
        s.text("a\0").unwrap();
        s.start_tag_in(Namespace::MathMl, "math", &[], false)
            .unwrap();
        s.cdata("b\0").unwrap();
    });
    assert_eq!(tokens(&out)[0], chars("a\0"));
    let out = lossy(|s| {
        s.start_tag("title", &[]).unwrap();
        s.text("\0").unwrap();
    });
    assert_eq!(out, "<title>\u{FFFD}");
}

#[test]
fn carriage_returns_are_references_or_refused() {
    let out = written(SerializerOptions::new(), |s| {
        s.start_tag("p", &[("a", "x\ry")]).unwrap();
        s.text("1\r\n2").unwrap();
    });
    assert_eq!(out, "<p a=x&#13;y>1&#13;\n2");
    let cases: [(Place, Calls); 5] = [
        (Place::Text(TextKind::Rawtext), |s| {
            s.start_tag("style", &[])?;
            s.text("\r")
        }),
        (Place::Text(TextKind::Cdata), |s| s.cdata("\r")),
        (Place::Comment, |s| s.comment("\r")),
        (Place::Doctype, |s| {
            s.doctype(&Doctype {
                public_id: Some("\r"),
                ..Doctype::html()
            })
        }),
        (Place::ProcessingInstruction, |s| {
            s.processing_instruction("a", "x\r")
        }),
    ];
    for (place, f) in cases {
        assert_eq!(refusal(f).0, Refusal::CarriageReturn(place));
    }
    let out = lossy(|s| {
        s.start_tag("style", &[]).unwrap();
        s.text("a\r\nb\rc").unwrap();
    });
    assert_eq!(out, "<style>a\nb\nc");
    let compat = SerializerOptions::new().html5lib_compat(true);
    let out = written(compat, |s| {
        s.start_tag("style", &[]).unwrap();
        s.text("a\rb").unwrap();
    });
    assert_eq!(out, "<style>a\rb");
}

// ---- names -------------------------------------------------------------------------------------

#[test]
fn tag_names_the_tokenizer_reads_differently_are_refused_even_when_lossy() {
    for name in ["", "1a", "a b", "a/b", "a>b", "a\0"] {
        for options in [
            SerializerOptions::new(),
            SerializerOptions::new().lossy(true),
        ] {
            let mut out = Vec::new();
            let mut s = Serializer::new(&mut out, options);
            let start = s.start_tag(name, &[]).unwrap_err();
            assert_eq!(start.refusal(), Some(&Refusal::TagName(name.into())));
            let end = s.end_tag(name).unwrap_err();
            assert_eq!(end.refusal(), Some(&Refusal::TagName(name.into())));
        }
    }
}

#[test]
fn attribute_names_the_tokenizer_reads_differently_are_refused() {
    for name in ["", "a b", "a=b", "a/b", "a>b", "a\0"] {
        let (why, _) = refusal(|s| s.start_tag("p", &[("ok", "1"), (name, "REFUSED")]));
        assert_eq!(why, Refusal::AttributeName(name.into()));
    }
    // A leading `=` and quotes are taken into the name.
    let out = written(SerializerOptions::new(), |s| {
        s.start_tag("p", &[("=a", "1"), ("\"b", "2")]).unwrap()
    });
    let expected = Html5libToken::StartTag {
        name: "p".into(),
        attributes: vec![("=a".into(), "1".into()), ("\"b".into(), "2".into())],
        self_closing: false,
    };
    assert_eq!(tokens(&out), [expected]);
}

#[test]
fn repeated_attributes_are_refused_and_lossy_drops_the_repeat() {
    let (why, _) = refusal(|s| s.start_tag("p", &[("id", "a"), ("ID", "REFUSED")]));
    assert_eq!(why, Refusal::DuplicateAttribute("ID".into()));
    let out = lossy(|s| s.start_tag("p", &[("id", "a"), ("ID", "b")]).unwrap());
    assert_eq!(out, "<p id=a>");
}

// ---- markup where it would be text -------------------------------------------------------------

#[test]
fn markup_inside_raw_text_rcdata_and_plaintext_is_refused() {
    let element = |e: &str| Refusal::MarkupInText { element: e.into() };
    let (why, _) = refusal(|s| {
        s.start_tag("script", &[])?;
        s.start_tag("b", &[])
    });
    assert_eq!(why, element("script"));
    let (why, _) = refusal(|s| {
        s.start_tag("title", &[])?;
        s.comment("REFUSED")
    });
    assert_eq!(why, element("title"));
    let (why, _) = refusal(|s| {
        s.start_tag("plaintext", &[])?;
        s.end_tag("plaintext")
    });
    assert_eq!(why, element("plaintext"));
    let (why, _) = refusal(|s| {
        s.start_tag("xmp", &[])?;
        s.cdata("REFUSED")
    });
    assert_eq!(why, element("xmp"));
    // Foreign elements of those names hold markup.
    let out = written(SerializerOptions::new(), |s| {
        s.start_tag_in(Namespace::Svg, "style", &[], false).unwrap();
        s.start_tag_in(Namespace::Svg, "g", &[], true).unwrap();
        s.text("a<b").unwrap();
    });
    assert_eq!(out, "<style><g />a&lt;b");
}

// ---- processing instructions -------------------------------------------------------------------

#[test]
fn processing_instructions_that_cannot_read_back_are_refused() {
    for (target, data) in [
        ("1x", ""),
        ("xml", "v"),
        ("XML-stylesheet", ""),
        ("a$", ""),
        ("a", "x>y"),
        ("a", " x"),
    ] {
        let (why, _) = refusal(|s| s.processing_instruction(target, data));
        assert!(
            matches!(why, Refusal::ProcessingInstruction { .. }),
            "{target} {data}"
        );
    }
    let out = written(SerializerOptions::new(), |s| {
        s.processing_instruction("php", "echo 1 ?").unwrap();
        s.processing_instruction("t", "").unwrap();
    });
    assert_eq!(out, "<?php echo 1 ??><?t?>");
    let expected = [
        Html5libToken::ProcessingInstruction {
            target: "php".into(),
            data: "echo 1 ?".into(),
        },
        Html5libToken::ProcessingInstruction {
            target: "t".into(),
            data: "".into(),
        },
    ];
    assert_eq!(tokens(&out), expected);
}

// ---- where ------------------------------------------------------------------------------------

#[test]
fn tokens_from_a_tokenizer_are_located_by_offset() {
    // HTML's tokenizer makes no token the serializer refuses; XML5's processing instruction
    // data may hold `>`, which an HTML processing instruction cannot.
    let input = b"<p>a</p><?pi a>b?><p>b";
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, SerializerOptions::new());
    let mut tokenizer = tagstream::xml5::Tokenizer::default();
    let mut errors = Vec::new();
    for token in tokenizer.tokenize(input) {
        if let Err(e) = s.write_token(&token) {
            errors.push(e.location());
        }
    }
    s.finish().unwrap();
    drop(s);
    assert_eq!(errors, [Some(Location::Offset(8))]);
    assert_eq!(out, b"<p>a</p><p>b");
}

#[test]
fn a_tokenizers_attribute_values_hold_no_nul_so_write_token_does_not_look() {
    // `write_token` skips the U+0000 check of attribute values: decoding replaced each one, raw or
    // as a reference, with U+FFFD, in HTML and in XML5.
    let input = "<p a=\"x\0y\" b='&#0;' c=\0 d=&#x0;>";
    let mut html = tagstream::Tokenizer::default();
    let mut xml = tagstream::xml5::Tokenizer::default();
    let tokens = html
        .tokenize(input.as_bytes())
        .chain(xml.tokenize(input.as_bytes()));
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, SerializerOptions::new());
    for token in tokens {
        if let tagstream::Token::StartTag(tag) = &token {
            assert_eq!(tag.attributes().len(), 4);
            assert!(tag.attributes().all(|a| !a.value().contains('\0')));
        }
        s.write_token(&token).unwrap();
    }
    s.finish().unwrap();
    drop(s);
    let one = "<p a=x\u{FFFD}y b=\u{FFFD} c=\u{FFFD} d=\u{FFFD}>";
    assert_eq!(String::from_utf8(out).unwrap(), format!("{one}{one}"));
}

#[test]
fn output_errors_are_io_errors() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::StorageFull.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut s = Serializer::new(Full, SerializerOptions::new());
    s.text("x").unwrap();
    assert!(matches!(s.finish(), Err(WriteError::Io(_))));
}

// ---- options the suite does not reach ----------------------------------------------------------

#[test]
fn optional_tags_wait_for_the_next_token() {
    let out = written(SerializerOptions::new().omit_optional_tags(true), |s| {
        s.start_tag("html", &[]).unwrap();
        s.start_tag("body", &[]).unwrap();
        s.start_tag("p", &[]).unwrap();
        s.text("a").unwrap();
        s.end_tag("p").unwrap();
        s.start_tag("main", &[]).unwrap();
        s.start_tag("p", &[]).unwrap();
        s.end_tag("p").unwrap();
        s.end_tag("main").unwrap();
        s.start_tag("a", &[]).unwrap();
        s.start_tag("p", &[]).unwrap();
        s.end_tag("p").unwrap();
        s.end_tag("a").unwrap();
        s.end_tag("body").unwrap();
        s.end_tag("html").unwrap();
    });
    assert_eq!(out, "<p>a<main><p></main><a><p></p></a>");
}

#[test]
fn the_charset_is_injected_within_the_first_1024_bytes_of_the_head() {
    let options = SerializerOptions::new().inject_meta_charset(Some("utf-8"));
    let long = "x".repeat(2000);
    let out = written(options.clone(), |s| {
        s.start_tag("head", &[]).unwrap();
        s.start_tag("title", &[]).unwrap();
        s.text(&long).unwrap();
        s.end_tag("title").unwrap();
        s.start_tag("meta", &[("charset", "latin1")]).unwrap();
        s.end_tag("head").unwrap();
    });
    let expected =
        format!("<head><meta charset=utf-8><title>{long}</title><meta charset=utf-8></head>");
    assert_eq!(out, expected);
    // No `</head>`: the body start tag ends the head.
    let out = written(options, |s| {
        s.start_tag("head", &[]).unwrap();
        s.start_tag("body", &[]).unwrap();
    });
    assert_eq!(out, "<head><meta charset=utf-8><body>");
}

#[test]
fn whitespace_is_collapsed_across_texts_but_not_in_pre() {
    let out = written(SerializerOptions::new().strip_whitespace(true), |s| {
        s.text("a \n").unwrap();
        s.text("\t b").unwrap();
        s.start_tag("pre", &[]).unwrap();
        s.start_tag("br", &[]).unwrap();
        s.text(" \n x").unwrap();
        s.end_tag("pre").unwrap();
        s.text("  c").unwrap();
    });
    assert_eq!(out, "a b<pre><br> \n x</pre> c");
}

#[test]
fn pre_newline_doubles_a_leading_newline_for_tree_text() {
    let write = |s: &mut S<'_>| {
        s.start_tag("pre", &[]).unwrap();
        s.text("\nx").unwrap();
        s.end_tag("pre").unwrap();
        s.start_tag("textarea", &[]).unwrap();
        s.text("y").unwrap();
    };
    assert_eq!(
        written(SerializerOptions::new(), write),
        "<pre>\nx</pre><textarea>y"
    );
    let tree = SerializerOptions::new().pre_newline(true);
    assert_eq!(written(tree, write), "<pre>\n\nx</pre><textarea>y");
}

#[test]
fn solidus_where_it_means_something() {
    let write = |s: &mut S<'_>| {
        s.start_tag_in(Namespace::Html, "div", &[], true).unwrap();
        s.start_tag_in(Namespace::Html, "br", &[("a", "x")], true)
            .unwrap();
        s.start_tag_in(Namespace::Svg, "path", &[("d", "M0")], true)
            .unwrap();
    };
    assert_eq!(
        written(SerializerOptions::new(), write),
        "<div /><br a=x /><path d=M0 />"
    );
    let spec_only = SerializerOptions::new()
        .keep_self_closing(false)
        .space_before_trailing_solidus(false);
    assert_eq!(written(spec_only, write), "<div><br a=x><path d=M0 />");
    let void_solidus = SerializerOptions::new()
        .keep_self_closing(false)
        .use_trailing_solidus(true)
        .space_before_trailing_solidus(false);
    assert_eq!(written(void_solidus, write), "<div><br a=x /><path d=M0 />");
}

#[test]
fn boolean_attributes_are_minimized_only_when_the_value_allows() {
    let options = SerializerOptions::new().minimize_boolean_attributes(true);
    let out = written(options, |s| {
        s.start_tag(
            "input",
            &[("disabled", ""), ("checked", "CHECKED"), ("required", "no")],
        )
        .unwrap();
        s.start_tag("div", &[("disabled", "")]).unwrap();
    });
    assert_eq!(
        out,
        "<input disabled checked required=no><div disabled=\"\">"
    );
}

#[test]
fn a_leading_u_feff_is_written_as_a_reference() {
    let out = written(SerializerOptions::new(), |s| {
        s.text("\u{FEFF}a\u{FEFF}").unwrap();
    });
    assert_eq!(out, "&#xFEFF;a\u{FEFF}");
    let read = run(out.as_bytes(), &Options::new(), None).output;
    assert_eq!(read, [chars("\u{FEFF}a\u{FEFF}")]);
}

#[test]
fn text_in_a_state_the_caller_knows() {
    let out = written(SerializerOptions::new(), |s| {
        s.text_in("a<b", TextKind::Rawtext).unwrap();
        s.text_in("c<d", TextKind::Data).unwrap();
        s.text_in("e", TextKind::Cdata).unwrap();
    });
    assert_eq!(out, "a<bc&lt;d<![CDATA[e]]>");
}
