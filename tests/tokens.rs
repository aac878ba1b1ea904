//! The token API: spans of every token kind and part, raw versus decoded accessors, decoded strings
//! borrowed from the input when nothing changes, `TextKind` in every text state (from
//! `Options::initial_state` and from `Tokens::set_text_state` between tokens), CDATA sections, and
//! `Tokens::position`.

mod common;

use tagstream::{Options, Position, Span, TextKind, Token, Tokenizer};

/// The span of the `nth` (0-based) occurrence of `needle` in `input`.
fn find(input: &[u8], needle: &str, nth: usize) -> Span {
    let needle = needle.as_bytes();
    let start = (0..=input.len() - needle.len())
        .filter(|&i| &input[i..i + needle.len()] == needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in the input"));
    Span {
        start,
        end: start + needle.len(),
    }
}

fn slice(input: &[u8], span: Span) -> &[u8] {
    &input[span.range()]
}

/// Whether `s` points into `input`.
fn borrowed(input: &[u8], s: &str) -> bool {
    let range = input.as_ptr_range();
    let p = s.as_ptr();
    !s.is_empty() && range.start <= p && p < range.end
}

const DOCUMENT: &str = concat!(
    r#"<!DOCTYPE html PUBLIC "-//W3C//DTD X//EN" 'sys.dtd'>"#,
    r#"<a href="x" title='y' data-z=w checked>"#,
    "text &amp; more",
    "</a>",
    "<!-- note -->",
    "<?pi some data?>",
    "<br/>",
    "tail"
);

#[test]
fn spans_of_every_token_kind() {
    let input = DOCUMENT.as_bytes();
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    assert_eq!(tokens.len(), 8, "{tokens:?}");

    let Token::Doctype(d) = tokens[0] else {
        panic!("{:?}", tokens[0])
    };
    let whole = find(
        input,
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD X//EN" 'sys.dtd'>"#,
        0,
    );
    assert_eq!(d.span(), whole);
    assert_eq!(tokens[0].span(), whole);
    assert_eq!(d.name_span(), Some(find(input, "html", 0)));
    assert_eq!(
        d.public_id_span(),
        Some(find(input, "-//W3C//DTD X//EN", 0))
    );
    assert_eq!(d.system_id_span(), Some(find(input, "sys.dtd", 0)));
    assert_eq!(d.name(), Some("html"));
    assert_eq!(d.public_id(), Some("-//W3C//DTD X//EN"));
    assert_eq!(d.system_id(), Some("sys.dtd"));
    assert!(!d.force_quirks());

    let Token::StartTag(a) = tokens[1] else {
        panic!("{:?}", tokens[1])
    };
    let tag = find(input, r#"<a href="x" title='y' data-z=w checked>"#, 0);
    assert_eq!(a.span(), tag);
    assert_eq!(tokens[1].raw(), slice(input, tag));
    assert_eq!(a.name_span(), Span::empty(tag.start + 1).extend(1));
    let attrs: Vec<_> = a.attributes().collect();
    assert_eq!(attrs.len(), 4);
    assert_eq!(a.attributes().len(), 4);
    // href="x": the value span excludes the quotes, the attribute span includes them.
    assert_eq!(attrs[0].name_span(), find(input, "href", 0));
    assert_eq!(attrs[0].value_span(), find(input, "x\"", 0).shrink_end(1));
    assert_eq!(attrs[0].span(), find(input, r#"href="x""#, 0));
    assert_eq!(attrs[0].raw(), br#"href="x""#);
    assert_eq!(attrs[0].quote(), Some('"'));
    assert_eq!(attrs[1].value_span(), find(input, "y'", 0).shrink_end(1));
    assert_eq!(attrs[1].raw(), b"title='y'");
    assert_eq!(attrs[1].quote(), Some('\''));
    assert_eq!(attrs[2].name_span(), find(input, "data-z", 0));
    assert_eq!(attrs[2].value_span(), find(input, "w ", 0).shrink_end(1));
    assert_eq!(attrs[2].raw(), b"data-z=w");
    assert_eq!(attrs[2].quote(), None);
    // An attribute without a value: empty value span at the name's end.
    let checked = find(input, "checked", 0);
    assert_eq!(attrs[3].name_span(), checked);
    assert_eq!(attrs[3].value_span(), Span::empty(checked.end));
    assert_eq!(attrs[3].span(), checked);
    assert_eq!(attrs[3].value(), "");
    assert_eq!(attrs[3].raw_value(), b"");
    assert_eq!(attrs[3].quote(), None);

    let Token::Text(t) = tokens[2] else {
        panic!("{:?}", tokens[2])
    };
    assert_eq!(t.span(), find(input, "text &amp; more", 0));
    assert_eq!(t.raw(), b"text &amp; more");
    assert_eq!(t.text(), "text & more");
    assert_eq!(t.kind(), TextKind::Data);

    let Token::EndTag(e) = tokens[3] else {
        panic!("{:?}", tokens[3])
    };
    assert_eq!(e.span(), find(input, "</a>", 0));
    assert_eq!(
        e.name_span(),
        find(input, "</a>", 0).shrink_start(2).shrink_end(1)
    );

    let Token::Comment(c) = tokens[4] else {
        panic!("{:?}", tokens[4])
    };
    assert_eq!(c.span(), find(input, "<!-- note -->", 0));
    assert_eq!(c.data_span(), find(input, " note ", 0));
    assert_eq!(c.raw_data(), b" note ");

    let Token::ProcessingInstruction(p) = tokens[5] else {
        panic!("{:?}", tokens[5])
    };
    assert_eq!(p.span(), find(input, "<?pi some data?>", 0));
    assert_eq!(p.target_span(), find(input, "pi ", 0).shrink_end(1));
    assert_eq!(p.data_span(), find(input, "some data", 0));

    let Token::StartTag(br) = tokens[6] else {
        panic!("{:?}", tokens[6])
    };
    assert_eq!(br.span(), find(input, "<br/>", 0));
    assert!(br.self_closing());
    assert_eq!(br.name(), "br");

    assert_eq!(tokens[7].span(), find(input, "tail", 0));
    assert_eq!(tokens[7].span().end, input.len());

    // The raw bytes at every token's span.
    for t in &tokens {
        assert_eq!(t.raw(), slice(input, t.span()));
    }
}

/// Small helpers on `Span` for readable expectations.
trait SpanExt {
    fn extend(self, n: usize) -> Span;
    fn shrink_start(self, n: usize) -> Span;
    fn shrink_end(self, n: usize) -> Span;
}

impl SpanExt for Span {
    fn extend(self, n: usize) -> Span {
        Span {
            start: self.start,
            end: self.end + n,
        }
    }
    fn shrink_start(self, n: usize) -> Span {
        Span {
            start: self.start + n,
            end: self.end,
        }
    }
    fn shrink_end(self, n: usize) -> Span {
        Span {
            start: self.start,
            end: self.end - n,
        }
    }
}

#[test]
fn spans_of_unusual_tokens() {
    let input = b"<!foo><!--><!DOCTYPE><!doctype x PUBLIC \"\"></3 a></b c=d></e/>";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    assert_eq!(tokens.len(), 7, "{tokens:?}");
    // Bogus comment `<!foo>`: data `foo`.
    let Token::Comment(c) = tokens[0] else {
        panic!()
    };
    assert_eq!(c.span(), find(input, "<!foo>", 0));
    assert_eq!(c.raw_data(), b"foo");
    assert_eq!(c.data_span(), find(input, "foo", 0));
    // Abruptly closed `<!-->`: empty data.
    let Token::Comment(c) = tokens[1] else {
        panic!()
    };
    assert_eq!(c.span(), find(input, "<!-->", 0));
    assert!(c.data_span().is_empty());
    assert_eq!(c.data(), "");
    // `<!DOCTYPE>`: no name, force-quirks.
    let Token::Doctype(d) = tokens[2] else {
        panic!()
    };
    assert_eq!(d.span(), find(input, "<!DOCTYPE>", 0));
    assert_eq!((d.name(), d.name_span()), (None, None));
    assert!(d.force_quirks());
    // `PUBLIC ""`: an empty public id, present, with an empty span between the quotes.
    let Token::Doctype(d) = tokens[3] else {
        panic!()
    };
    assert_eq!(d.public_id(), Some(""));
    let q = find(input, "\"\"", 0);
    assert_eq!(d.public_id_span(), Some(Span::empty(q.start + 1)));
    assert_eq!(d.system_id(), None);
    // `</3 a>`: a bogus comment from the `3`.
    let Token::Comment(c) = tokens[4] else {
        panic!()
    };
    assert_eq!(c.span(), find(input, "</3 a>", 0));
    assert_eq!(c.data(), "3 a");
    // An end tag with attributes: the span covers them, the name is just the name.
    let Token::EndTag(e) = tokens[5] else {
        panic!()
    };
    assert_eq!(e.span(), find(input, "</b c=d>", 0));
    assert_eq!(e.raw_name(), b"b");
    // A self-closing end tag.
    let Token::EndTag(e) = tokens[6] else {
        panic!()
    };
    assert_eq!(e.span(), find(input, "</e/>", 0));
    assert_eq!(e.name(), "e");
}

#[test]
fn raw_and_decoded_text() {
    let input = b"a &lt; b &#x41;&#66; &notit; &amp x\r\ny\rz";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    assert_eq!(tokens.len(), 1);
    let Token::Text(t) = tokens[0] else { panic!() };
    assert_eq!(t.raw(), input);
    assert_eq!(t.text(), "a < b AB \u{AC}it; & x\ny\nz");
}

#[test]
fn raw_and_decoded_attribute_values() {
    let input = b"<a href=\"?a=1&amp;b=2&lang=en&not=1&copy\" t='&#x1F600;&#0;' u=x&gt\r\n v=\"1\r\n2\rz\">";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::StartTag(a) = tokens[0] else {
        panic!()
    };
    let href = a.attribute("href").expect("href");
    assert_eq!(href.raw_value(), b"?a=1&amp;b=2&lang=en&not=1&copy");
    // `&not=` stays literal in an attribute (historical rule); `&copy` before the quote resolves.
    assert_eq!(href.value(), "?a=1&b=2&lang=en&not=1\u{A9}");
    let t = a.attribute("t").expect("t");
    assert_eq!(t.value(), "\u{1F600}\u{FFFD}");
    let u = a.attribute("u").expect("u");
    assert_eq!(u.raw_value(), b"x&gt");
    assert_eq!(u.value(), "x>");
    let v = a.attribute("v").expect("v");
    assert_eq!(v.raw_value(), b"1\r\n2\rz");
    assert_eq!(v.value(), "1\n2\nz");
}

#[test]
fn names_are_lowercased_and_raw_names_kept() {
    let input = b"<!DOCTYPE HtMl><DIV CLASS=x Data-Foo=Y></DIV>";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::Doctype(d) = tokens[0] else {
        panic!()
    };
    assert_eq!(d.name(), Some("html"));
    assert_eq!(slice(input, d.name_span().unwrap()), b"HtMl");
    let Token::StartTag(div) = tokens[1] else {
        panic!()
    };
    assert_eq!((div.name(), div.raw_name()), ("div", &b"DIV"[..]));
    assert!(!borrowed(input, div.name()));
    let names: Vec<(&str, &[u8], &str)> = div
        .attributes()
        .map(|a| (a.name(), a.raw_name(), a.value()))
        .collect();
    assert_eq!(
        names,
        [
            ("class", &b"CLASS"[..], "x"),
            ("data-foo", &b"Data-Foo"[..], "Y")
        ]
    );
    assert!(div.attribute("class").is_some());
    assert!(
        div.attribute("CLASS").is_none(),
        "lookup is by the lowercase name"
    );
    let Token::EndTag(end) = tokens[2] else {
        panic!()
    };
    assert_eq!((end.name(), end.raw_name()), ("div", &b"DIV"[..]));
}

#[test]
fn nul_is_replaced_per_context() {
    for (kind, want) in [
        (TextKind::Data, "a\0b"),
        (TextKind::Rcdata, "a\u{FFFD}b"),
        (TextKind::Rawtext, "a\u{FFFD}b"),
        (TextKind::ScriptData, "a\u{FFFD}b"),
        (TextKind::Plaintext, "a\u{FFFD}b"),
        (TextKind::Cdata, "a\0b"),
    ] {
        let mut tokenizer = Tokenizer::new(Options::new().simulate(false).initial_state(kind));
        let tokens: Vec<Token<'_>> = tokenizer.tokenize(b"a\0b").collect();
        let text: String = tokens
            .iter()
            .map(|t| {
                let Token::Text(t) = t else {
                    panic!("{kind:?}: {t:?}")
                };
                assert_eq!(t.kind(), kind);
                t.text()
            })
            .collect();
        assert_eq!(text, want, "{kind:?}");
    }
    let input = b"<a\0b c\0d=e\0f><!--g\0h--><!DOCTYPE i\0j>";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::StartTag(a) = tokens[0] else {
        panic!()
    };
    assert_eq!(a.name(), "a\u{FFFD}b");
    assert_eq!(a.raw_name(), b"a\0b");
    let attr = a.attributes().next().unwrap();
    assert_eq!((attr.name(), attr.value()), ("c\u{FFFD}d", "e\u{FFFD}f"));
    let Token::Comment(c) = tokens[1] else {
        panic!()
    };
    assert_eq!((c.data(), c.raw_data()), ("g\u{FFFD}h", &b"g\0h"[..]));
    let Token::Doctype(d) = tokens[2] else {
        panic!()
    };
    assert_eq!(d.name(), Some("i\u{FFFD}j"));
}

#[test]
fn crlf_becomes_lf_everywhere() {
    let input = b"a\r\nb\rc<!--d\r\ne\rf--><x y='g\r\nh'>";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::Text(t) = tokens[0] else { panic!() };
    assert_eq!((t.text(), t.raw()), ("a\nb\nc", &b"a\r\nb\rc"[..]));
    let Token::Comment(c) = tokens[1] else {
        panic!()
    };
    assert_eq!((c.data(), c.raw_data()), ("d\ne\nf", &b"d\r\ne\rf"[..]));
    let Token::StartTag(x) = tokens[2] else {
        panic!()
    };
    assert_eq!(x.attribute("y").unwrap().value(), "g\nh");
}

#[test]
fn duplicate_attributes_keep_the_first() {
    let input = b"<a x=1 X=2 y=3 x=4 Y>";
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::StartTag(a) = tokens[0] else {
        panic!()
    };
    let attrs: Vec<(&str, &str, Span)> = a
        .attributes()
        .map(|a| (a.name(), a.value(), a.name_span()))
        .collect();
    assert_eq!(
        attrs,
        [
            ("x", "1", Span { start: 3, end: 4 }),
            ("y", "3", Span { start: 11, end: 12 })
        ]
    );
    drop(tokens);
    let errors: Vec<(&str, usize, Position)> = tokenizer
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset, e.position))
        .collect();
    // Reported at the character after the repeated name, as html5lib-tests place them.
    let at = |offset: usize| Position {
        line: 1,
        col: offset as u64 + 1,
    };
    assert_eq!(
        errors,
        [
            ("duplicate-attribute", 8, at(8)),
            ("duplicate-attribute", 16, at(16)),
            ("duplicate-attribute", 20, at(20)),
        ]
    );
}

#[test]
fn unchanged_parts_are_borrowed_from_the_input() {
    let input = "<div id=main class=\"x y\" title='z'>plain text, ünïcödé<!-- c --><?pi d?></div>"
        .as_bytes();
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::StartTag(div) = tokens[0] else {
        panic!()
    };
    assert!(borrowed(input, div.name()));
    assert!(std::ptr::eq(div.name().as_ptr(), &input[1]));
    for a in div.attributes() {
        assert!(borrowed(input, a.name()), "{a:?}");
        assert!(borrowed(input, a.value()), "{a:?}");
        assert_eq!(a.value().as_bytes(), a.raw_value());
        assert!(std::ptr::eq(a.value().as_ptr(), a.raw_value().as_ptr()));
    }
    let Token::Text(t) = tokens[1] else { panic!() };
    assert!(std::ptr::eq(t.text().as_ptr(), &input[t.span().start]));
    assert_eq!(t.text().len(), t.span().len());
    let Token::Comment(c) = tokens[2] else {
        panic!()
    };
    assert!(std::ptr::eq(c.data().as_ptr(), &input[c.data_span().start]));
    let Token::ProcessingInstruction(p) = tokens[3] else {
        panic!()
    };
    assert!(borrowed(input, p.target()) && borrowed(input, p.data()));
    let Token::EndTag(e) = tokens[4] else {
        panic!()
    };
    assert!(borrowed(input, e.name()));

    // Anything that changes is not borrowed.
    let input = b"<DIV A=&amp;>x&lt;y\r\n";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::StartTag(div) = tokens[0] else {
        panic!()
    };
    assert!(!borrowed(input, div.name()));
    let a = div.attributes().next().unwrap();
    assert!(!borrowed(input, a.name()) && !borrowed(input, a.value()));
    let Token::Text(t) = tokens[1] else { panic!() };
    assert_eq!(t.text(), "x<y\n");
    assert!(!borrowed(input, t.text()));

    // Streaming: text decoded from a chunk read in place points into that chunk.
    let chunk = b"<p>hello streaming world</p>";
    let mut tokenizer = Tokenizer::default();
    for t in tokenizer.feed(chunk) {
        if let Token::Text(t) = t {
            assert!(borrowed(chunk, t.text()), "{t:?}");
        }
    }
}

#[test]
fn text_kind_from_the_initial_state() {
    for (kind, input, last, want) in [
        (TextKind::Data, "a&amp;<b>", None, "a&"),
        (
            TextKind::Rcdata,
            "a&amp;<b></title>",
            Some("title"),
            "a&<b>",
        ),
        (
            TextKind::Rawtext,
            "a&amp;<b></style>",
            Some("style"),
            "a&amp;<b>",
        ),
        (
            TextKind::ScriptData,
            "a&amp;<!--<b>--></script>",
            Some("script"),
            "a&amp;<!--<b>-->",
        ),
        (
            TextKind::Plaintext,
            "a&amp;<b></plaintext>",
            None,
            "a&amp;<b></plaintext>",
        ),
        (TextKind::Cdata, "a&amp;<b>]]>c", None, "a&amp;<b>"),
    ] {
        let mut options = Options::new().simulate(false).initial_state(kind);
        if let Some(last) = last {
            options = options.last_start_tag(last);
        }
        let mut tokenizer = Tokenizer::new(options);
        let tokens: Vec<Token<'_>> = tokenizer.tokenize(input.as_bytes()).collect();
        let Token::Text(t) = tokens[0] else {
            panic!("{kind:?}: {tokens:?}")
        };
        assert_eq!((t.kind(), t.text()), (kind, want), "{kind:?}: {tokens:?}");
        // What follows the text is back in the data state.
        if let Some(last) = last {
            let Token::EndTag(e) = tokens.last().unwrap() else {
                panic!("{kind:?}: {tokens:?}")
            };
            assert_eq!(e.name(), last);
        }
        if kind == TextKind::Cdata {
            let Token::Text(after) = tokens.last().unwrap() else {
                panic!("{tokens:?}")
            };
            assert_eq!((after.kind(), after.text()), (TextKind::Data, "c"));
        }
    }
}

/// Tokenize with the tree-builder feedback of `common`, returning each token's debug form.
fn with_feedback(input: &str) -> Vec<(String, Option<TextKind>)> {
    let mut tokenizer = Tokenizer::new(Options::new().simulate(false));
    let mut tokens = tokenizer.tokenize(input.as_bytes());
    let mut out = Vec::new();
    while let Some(token) = tokens.next() {
        match token {
            Token::Text(t) => out.push((t.text().to_owned(), Some(t.kind()))),
            Token::StartTag(tag) => {
                out.push((format!("<{}>", tag.name()), None));
                if let Some(state) = common::text_state_after(tag.name()) {
                    tokens.set_text_state(state);
                }
            }
            Token::EndTag(tag) => out.push((format!("</{}>", tag.name()), None)),
            other => out.push((format!("{other:?}"), None)),
        }
    }
    out
}

#[test]
fn text_kind_after_set_text_state_between_tokens() {
    let t = |s: &str, k: TextKind| (s.to_owned(), Some(k));
    let tag = |s: &str| (s.to_owned(), None);
    assert_eq!(
        with_feedback(r#"<script>if (a < b) { x = "</div>"; }</script><p>x</p>"#),
        [
            tag("<script>"),
            t(r#"if (a < b) { x = "</div>"; }"#, TextKind::ScriptData),
            tag("</script>"),
            tag("<p>"),
            t("x", TextKind::Data),
            tag("</p>"),
        ]
    );
    assert_eq!(
        with_feedback("<title>&amp;<b></titlex></title>"),
        [
            tag("<title>"),
            t("&<b></titlex>", TextKind::Rcdata),
            tag("</title>"),
        ]
    );
    assert_eq!(
        with_feedback("<style>&amp;<!--</style>"),
        [
            tag("<style>"),
            t("&amp;<!--", TextKind::Rawtext),
            tag("</style>"),
        ]
    );
    assert_eq!(
        with_feedback("<script><!--<script></script>--></script>"),
        [
            tag("<script>"),
            t("<!--<script></script>-->", TextKind::ScriptData),
            tag("</script>"),
        ]
    );
    assert_eq!(
        with_feedback("<plaintext></plaintext>&amp;"),
        [
            tag("<plaintext>"),
            t("</plaintext>&amp;", TextKind::Plaintext),
        ]
    );

    // Between feeds, on the tokenizer.
    let mut tokenizer = Tokenizer::new(Options::new().simulate(false));
    let mut got = Vec::new();
    for t in tokenizer.feed(b"<script>") {
        got.push(format!("{t:?}"));
    }
    tokenizer.set_text_state(TextKind::ScriptData);
    let mut texts = Vec::new();
    for chunk in [&b"a</div>"[..], b"b</script><i>c"] {
        for t in tokenizer.feed(chunk) {
            match t {
                Token::Text(t) => texts.push((t.text().to_owned(), t.kind())),
                other => got.push(format!("{other:?}")),
            }
        }
    }
    for t in tokenizer.finish() {
        match t {
            Token::Text(t) => texts.push((t.text().to_owned(), t.kind())),
            other => got.push(format!("{other:?}")),
        }
    }
    let script: String = texts
        .iter()
        .filter(|(_, k)| *k == TextKind::ScriptData)
        .map(|(s, _)| s.as_str())
        .collect();
    assert_eq!(script, "a</div>b");
    assert_eq!(
        texts.last().map(|(s, k)| (s.as_str(), *k)),
        Some(("c", TextKind::Data))
    );
    assert_eq!(got.len(), 3, "{got:?}");

    // set_last_start_tag decides which end tag closes RCDATA (`tokenize` would reset it: feed).
    let mut tokenizer = Tokenizer::new(
        Options::new()
            .simulate(false)
            .initial_state(TextKind::Rcdata),
    );
    tokenizer.set_last_start_tag("textarea");
    let mut out: Vec<String> = tokenizer
        .feed(b"</title></textarea>")
        .map(|t| format!("{t:?}"))
        .collect();
    out.extend(tokenizer.finish().map(|t| format!("{t:?}")));
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].contains("</title>") && out[0].contains("Rcdata"),
        "{out:?}"
    );
    assert!(
        out[1].starts_with("EndTag") && out[1].contains("textarea"),
        "{out:?}"
    );
}

#[test]
fn cdata_sections_with_and_without_permission() {
    let input = b"<![CDATA[a<b>\0]]c]]>d";
    let mut tokenizer = Tokenizer::new(
        Options::new()
            .simulate(false)
            .errors(true)
            .cdata_allowed(true),
    );
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let texts: Vec<(String, TextKind, Span)> = tokens
        .iter()
        .map(|t| {
            let Token::Text(t) = t else {
                panic!("{tokens:?}")
            };
            (t.text().to_owned(), t.kind(), t.span())
        })
        .collect();
    assert_eq!(
        texts,
        [
            (
                "a<b>\0]]c".to_owned(),
                TextKind::Cdata,
                find(input, "a<b>\0]]c", 0)
            ),
            ("d".to_owned(), TextKind::Data, find(input, "d", 0)),
        ]
    );
    drop(tokens);
    assert!(tokenizer.errors().is_empty(), "{:?}", tokenizer.errors());

    // Not allowed: a bogus comment, with cdata-in-html-content.
    let mut tokenizer = Tokenizer::new(Options::new().errors(true));
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input).collect();
    let Token::Comment(c) = tokens[0] else {
        panic!("{tokens:?}")
    };
    assert_eq!(c.data(), "[CDATA[a<b");
    assert_eq!(c.span(), find(input, "<![CDATA[a<b>", 0));
    drop(tokens);
    let codes: Vec<(&str, usize)> = tokenizer
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset))
        .collect();
    // At the second `[`, after `[CDATA[` was matched (as html5lib-tests place it).
    assert_eq!(codes[0], ("cdata-in-html-content", 8));

    // Allowed from a point on, with feedback between tokens (as in `<svg>`).
    let input = b"<![CDATA[x]]><svg><![CDATA[y]]></svg>";
    let mut tokenizer = Tokenizer::default();
    let mut tokens = tokenizer.tokenize(input);
    let mut got = Vec::new();
    while let Some(t) = tokens.next() {
        match t {
            Token::StartTag(tag) if tag.name() == "svg" => tokens.set_cdata_allowed(true),
            Token::EndTag(tag) if tag.name() == "svg" => tokens.set_cdata_allowed(false),
            _ => {}
        }
        got.push(format!("{t:?}"));
    }
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[0].starts_with("Comment"), "{got:?}");
    assert!(
        got[2].contains("\"y\"") && got[2].contains("Cdata"),
        "{got:?}"
    );
}

/// The position of `offset` in valid UTF-8 `input`, computed naively: lines end at LF, CR or CRLF
/// (whose LF maps to the CR), columns count UTF-16 units, an offset inside a character maps to
/// where it starts.
fn reference_position(input: &[u8], offset: usize) -> Position {
    let text = std::str::from_utf8(input).expect("valid UTF-8");
    let mut offset = offset.min(input.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    if offset > 0 && input.get(offset) == Some(&b'\n') && input[offset - 1] == b'\r' {
        offset -= 1;
    }
    let (mut line, mut col) = (1, 1);
    let mut prev = '\0';
    for c in text[..offset].chars() {
        match c {
            '\r' => (line, col) = (line + 1, 1),
            '\n' if prev == '\r' => {}
            '\n' => (line, col) = (line + 1, 1),
            c => col += c.len_utf16() as u64,
        }
        prev = c;
    }
    Position { line, col }
}

const POSITIONS_INPUT: &str = "ab\ncd\r\nef\rg😀h";

/// (offset, expected position) for `POSITIONS_INPUT`.
fn position_table() -> Vec<(usize, Option<Position>)> {
    let pos = |line, col| Some(Position { line, col });
    vec![
        (0, pos(1, 1)),
        (2, pos(1, 3)), // the LF ends line 1
        (3, pos(2, 1)),
        (5, pos(2, 3)), // the CR of a CRLF
        (6, pos(2, 3)), // its LF is the same character
        (7, pos(3, 1)),
        (9, pos(3, 3)),  // a lone CR
        (10, pos(4, 1)), // g
        (11, pos(4, 2)), // 😀 takes two UTF-16 units
        (12, pos(4, 2)), // inside 😀: where it starts
        (15, pos(4, 4)), // h
        (16, pos(4, 5)), // the end of input
        (17, None),
    ]
}

#[test]
fn reference_positions_agree_with_the_table() {
    let input = POSITIONS_INPUT.as_bytes();
    for (offset, want) in position_table() {
        if offset <= input.len() {
            assert_eq!(
                Some(reference_position(input, offset)),
                want,
                "offset {offset}"
            );
        }
    }
}

#[test]
fn positions_of_offsets() {
    let input = POSITIONS_INPUT.as_bytes();
    let mut tokenizer = Tokenizer::default();
    let mut tokens = tokenizer.tokenize(input);
    for (offset, want) in position_table() {
        assert_eq!(tokens.position(offset), want, "offset {offset}");
    }
    // Asking again, backwards.
    assert_eq!(tokens.position(3), Some(Position { line: 2, col: 1 }));
    assert_eq!(tokens.position(0), Some(Position { line: 1, col: 1 }));
    // Between tokens of a whole document, every offset is held.
    let input = b"ab\ncd<p>ef\r\ngh<i>jk";
    let mut tokenizer = Tokenizer::default();
    let mut tokens = tokenizer.tokenize(input);
    for _ in 0..5 {
        assert!(tokens.next().is_some());
        for offset in 0..=input.len() {
            assert_eq!(
                tokens.position(offset),
                Some(reference_position(input, offset)),
                "offset {offset}"
            );
        }
    }
}

/// `tokenize` holds the whole document until its `Tokens` is dropped, and `Options::track_positions`
/// says whole documents can always map offsets: that must still hold once the last token was read.
#[test]
fn positions_of_a_whole_document_after_its_last_token() {
    let input = POSITIONS_INPUT.as_bytes();
    let mut tokenizer = Tokenizer::default();
    let mut tokens = tokenizer.tokenize(input);
    assert_eq!(tokens.by_ref().count(), 1);
    assert!(tokens.next().is_none());
    for (offset, want) in position_table() {
        assert_eq!(
            tokens.position(offset),
            want,
            "offset {offset} after the last token"
        );
    }
}

/// While streaming, `position` answers for the bytes still held and `None` for the others; it must
/// never give a wrong position.
#[test]
fn streaming_positions_are_right_or_none() {
    let input = b"ab\ncd<p>ef\r\ngh<i>jk\nlm<!-- n\no -->p";
    // Under Miri, which runs the tests about a thousand times slower, three of the chunk sizes.
    let sizes = if cfg!(miri) {
        vec![2, 5, 13]
    } else {
        vec![1, 2, 3, 5, 8, 13, input.len()]
    };
    for chunk_size in sizes {
        let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
        let mut fed = 0;
        let mut wrong = Vec::new();
        let mut check = |tokens: &mut tagstream::Tokens<'_>, fed: usize, when: &str| {
            for offset in 0..=fed {
                let got = tokens.position(offset);
                if got.is_some_and(|p| p != reference_position(&input[..fed], offset)) {
                    wrong.push(format!(
                        "{when}: position({offset}) = {got:?}, not {:?}",
                        reference_position(&input[..fed], offset)
                    ));
                }
            }
        };
        for chunk in input.chunks(chunk_size) {
            fed += chunk.len();
            let mut tokens = tokenizer.feed(chunk);
            check(&mut tokens, fed, "before the first token");
            while let Some(t) = tokens.next() {
                check(&mut tokens, fed, &format!("after {:?}", t.span()));
            }
            check(&mut tokens, fed, "after the last token of the feed");
            drop(tokens);
            let mut tokens = tokenizer.feed(&[]);
            check(&mut tokens, fed, "in an empty feed");
        }
        assert!(
            wrong.is_empty(),
            "chunks of {chunk_size}:\n{}",
            wrong.join("\n")
        );
    }
    // The current chunk is held; a flushed earlier chunk is not.
    let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
    tokenizer.feed(b"abc\n").for_each(drop);
    let mut tokens = tokenizer.feed(b"de\nf");
    assert_eq!(tokens.position(5), Some(Position { line: 2, col: 2 }));
    assert_eq!(tokens.position(7), Some(Position { line: 3, col: 1 }));
    assert_eq!(tokens.position(1), None);
}

/// Minimal cases of the property above: at each step every offset fed so far is asked in turn
/// (answers may depend on what was asked before), and each answer must be `None` or right. All
/// wrong answers are reported at once.
#[test]
fn streaming_positions_minimal_cases() {
    fn sweep(
        tokens: &mut tagstream::Tokens<'_>,
        input: &[u8],
        fed: usize,
        when: &str,
    ) -> Vec<String> {
        (0..=fed)
            .filter_map(|offset| {
                let got = tokens.position(offset);
                let want = reference_position(&input[..fed], offset);
                got.is_some_and(|p| p != want)
                    .then(|| format!("{when}: position({offset}) = {got:?}, want None or {want:?}"))
            })
            .collect()
    }
    let mut wrong = Vec::new();
    for chunks in [&[&b"a\r"[..], b"\nb"][..], &[b"ab\ncd", b"<p>e"]] {
        let input = chunks.concat();
        let mut tokenizer = Tokenizer::new(Options::new().track_positions(true));
        let mut fed = 0;
        for (i, chunk) in chunks.iter().enumerate() {
            fed += chunk.len();
            let mut tokens = tokenizer.feed(chunk);
            let name = format!("{:?}, feed {}", String::from_utf8_lossy(&input), i + 1);
            wrong.extend(sweep(&mut tokens, &input, fed, &format!("{name}, first")));
            while let Some(t) = tokens.next() {
                let when = format!("{name}, after {:?}", t.span());
                wrong.extend(sweep(&mut tokens, &input, fed, &when));
            }
            wrong.extend(sweep(
                &mut tokens,
                &input,
                fed,
                &format!("{name}, at its end"),
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_part_has_its_raw_bytes_beside_its_decoding() {
    let input =
        b"<!DOCTYPE HTML PUBLIC \"-//A&amp;\" 'S'><?Style-Sheet href=x?><A B=1></A><!--c-->";
    let mut tokenizer = Tokenizer::default();
    let tokens: Vec<Token> = tokenizer.tokenize(input).collect();
    let Token::Doctype(d) = tokens[0] else {
        panic!("{:?}", tokens[0])
    };
    assert_eq!(d.name(), Some("html"));
    assert_eq!(d.raw_name(), Some(&b"HTML"[..]));
    assert_eq!(d.raw_public_id(), Some(&b"-//A&amp;"[..]));
    assert_eq!(
        d.public_id(),
        Some("-//A&amp;"),
        "no references in DOCTYPE identifiers"
    );
    assert_eq!(d.raw_system_id(), Some(&b"S"[..]));
    let Token::ProcessingInstruction(pi) = tokens[1] else {
        panic!("{:?}", tokens[1])
    };
    assert_eq!(pi.raw_target(), b"Style-Sheet");
    assert_eq!(slice(input, pi.target_span()), pi.raw_target());
    // Every token's own `raw` is `Token::raw`, its span's bytes.
    for token in &tokens {
        let own = match token {
            Token::Doctype(t) => t.raw(),
            Token::StartTag(t) => t.raw(),
            Token::EndTag(t) => t.raw(),
            Token::Comment(t) => t.raw(),
            Token::Text(t) => t.raw(),
            Token::ProcessingInstruction(t) => t.raw(),
            Token::Raw(t) => t.raw(),
        };
        assert_eq!(own, token.raw());
        assert_eq!(own, slice(input, token.span()));
    }
    let mut tokenizer = Tokenizer::default();
    let missing = tokenizer.tokenize(b"<!DOCTYPE>").next().map(|t| match t {
        Token::Doctype(d) => (d.raw_name(), d.raw_public_id(), d.raw_system_id()),
        other => panic!("{other:?}"),
    });
    assert_eq!(missing, Some((None, None, None)));
}

/// The start tags' names a stream of tokens holds.
fn start_tags(tokens: tagstream::Tokens<'_>) -> Vec<String> {
    tokens
        .filter_map(|t| match t {
            Token::StartTag(tag) => Some(tag.name().to_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn feed_after_finish_starts_a_new_document() {
    let mut tokenizer = Tokenizer::new(Options::new().errors(true).track_positions(true));
    assert_eq!(start_tags(tokenizer.feed(b"<a>\n<b")), ["a"]);
    assert!(start_tags(tokenizer.finish()).is_empty());
    assert_eq!(tokenizer.take_errors().len(), 1, "eof-in-tag");
    // The new document starts at offset 0, line 1, in the data state, with no errors.
    let mut tokens = tokenizer.feed(b"<i>");
    let token = tokens.next().expect("a token");
    assert_eq!(token.span(), Span { start: 0, end: 3 });
    assert_eq!(tokens.position(0), Some(Position { line: 1, col: 1 }));
    drop(tokens);
    assert!(start_tags(tokenizer.finish()).is_empty());
    assert!(tokenizer.errors().is_empty());
    // After `tokenize` too.
    assert_eq!(start_tags(tokenizer.tokenize(b"<p>")), ["p"]);
    assert_eq!(start_tags(tokenizer.feed(b"<q>")), ["q"]);
}

#[test]
fn finish_again_resumes_a_paused_finish_then_yields_nothing() {
    let mut tokenizer = Tokenizer::default();
    let mut tokens = tokenizer.feed(b"<a><b><c><d>");
    assert!(tokens.next().is_some());
    drop(tokens);
    // The paused feed's tokens come out of `finish`; paused again, the next `finish` resumes.
    let mut tokens = tokenizer.finish();
    assert!(tokens.next().is_some());
    drop(tokens);
    assert_eq!(start_tags(tokenizer.finish()), ["c", "d"]);
    assert!(start_tags(tokenizer.finish()).is_empty());
}
