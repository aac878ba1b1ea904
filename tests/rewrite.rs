//! The streaming rewriter ([`tagstream::write::Rewriter`]): with no change the output is the
//! input, byte for byte, for HTML and XML5 under any chunking; random edit scripts give exactly
//! an independent splice of the input at the edited spans; tag edits keep untouched bytes;
//! inserted text is escaped for where it lands or refused; whole elements are removed or
//! unwrapped as the tokenizer sees them end.

mod common;

use std::path::PathBuf;

use common::{Rng, even_cuts, native_or_miri, proptest_cases, random_cuts};
use tagstream::write::{Refusal, Rewriter, WriteError};
use tagstream::{Options, Token, Tokenizer, xml5};

/// What a test does with each token.
type Decide<'a> = dyn FnMut(&mut Step<'_, '_>) -> Result<(), WriteError> + 'a;

/// One token and the rewrite it came from, for a decision.
struct Step<'s, 'r> {
    token: Token<'s>,
    rewrite: &'r mut dyn Decider,
}

/// The decisions a test makes, over either dialect's [`tagstream::write::Rewrite`].
trait Decider {
    fn pass(&mut self) -> Result<(), WriteError>;
    fn drop_it(&mut self);
    fn replace_html(&mut self, html: &str) -> Result<(), WriteError>;
    fn before_html(&mut self, html: &str) -> Result<(), WriteError>;
    fn after_html(&mut self, html: &str);
}

macro_rules! decider {
    ($tokens:ident) => {
        impl<'t, W: std::io::Write> Decider for tagstream::write::Rewrite<'_, 't, W, $tokens<'t>> {
            fn pass(&mut self) -> Result<(), WriteError> {
                tagstream::write::Rewrite::pass(self)
            }
            fn drop_it(&mut self) {
                self.discard()
            }
            fn replace_html(&mut self, html: &str) -> Result<(), WriteError> {
                tagstream::write::Rewrite::replace_html(self, html)
            }
            fn before_html(&mut self, html: &str) -> Result<(), WriteError> {
                self.insert_before_html(html)
            }
            fn after_html(&mut self, html: &str) {
                self.insert_after_html(html)
            }
        }
    };
}

use tagstream::Tokens as HtmlTokens;
use xml5::Tokens as XmlTokens;

decider!(HtmlTokens);
decider!(XmlTokens);

/// Rewrite `input` fed in `cuts` (HTML, or XML5 with `xml`), deciding with `decide`.
fn rewrite(input: &[u8], cuts: &[usize], xml: bool, decide: &mut Decide<'_>) -> Vec<u8> {
    rewrite_where(input, cuts, xml, &|_| true, decide)
}

/// Which tokens a rewrite hands out ([`tagstream::write::Rewrite::next_where`]).
type Wanted = dyn Fn(&Token<'_>) -> bool;

/// [`rewrite`], handed only the tokens `wanted` accepts.
fn rewrite_where(
    input: &[u8],
    cuts: &[usize],
    xml: bool,
    wanted: &Wanted,
    decide: &mut Decide<'_>,
) -> Vec<u8> {
    let options = Options::new().lossless(true);
    let mut rewriter = Rewriter::new(Vec::new());
    let mut start = 0;
    let ends = cuts.iter().copied().chain(std::iter::once(input.len()));
    if xml {
        let mut tokenizer = xml5::Tokenizer::new(options);
        for end in ends {
            run_xml(
                rewriter.rewrite(tokenizer.feed(&input[start..end])),
                wanted,
                decide,
            );
            start = end;
        }
        run_xml(rewriter.rewrite(tokenizer.finish()), wanted, decide);
    } else {
        let mut tokenizer = Tokenizer::new(options);
        for end in ends {
            run_html(
                rewriter.rewrite(tokenizer.feed(&input[start..end])),
                wanted,
                decide,
            );
            start = end;
        }
        run_html(rewriter.rewrite(tokenizer.finish()), wanted, decide);
    }
    rewriter.finish().expect("flush")
}

macro_rules! runner {
    ($name:ident, $tokens:ident) => {
        fn $name<'t>(
            mut rewrite: tagstream::write::Rewrite<'_, 't, Vec<u8>, $tokens<'t>>,
            wanted: &Wanted,
            decide: &mut Decide<'_>,
        ) {
            while let Some(token) = rewrite.next_where(|t| wanted(t)).expect("rewrite") {
                let mut step = Step {
                    token,
                    rewrite: &mut rewrite,
                };
                decide(&mut step).expect("decision");
            }
        }
    };
}

runner!(run_html, HtmlTokens);
runner!(run_xml, XmlTokens);

fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("datasets/samples")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let mut bytes = std::fs::read(&p).expect("sample");
            bytes.truncate(native_or_miri(usize::MAX, 256));
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

const HOSTILE: &[&[u8]] = &[
    b"\xEF\xBB\xBF<p>bom</p>",
    b"a</>b<svg><![CDATA[x]]></svg><div class=x",
    b"<title>a</> </title><script>a</script <p></script><plaintext></plaintext>",
    b"<p/>\r\n\r\r\n<br\r\n/>\0\0<a\0b>\xFF\xC3",
    b"<!--x<!DOCTYPE html<?pi",
    b"<a></><b/></b></>",
];

#[test]
fn no_change_copies_the_input_byte_for_byte_under_any_chunking() {
    let mut rng = Rng::new(0x5e1f);
    let mut inputs = samples();
    inputs.extend(
        HOSTILE
            .iter()
            .map(|b| (format!("{:?}", String::from_utf8_lossy(b)), b.to_vec())),
    );
    for (name, input) in &inputs {
        for xml in [false, true] {
            let mut plans = vec![
                vec![],
                even_cuts(input.len(), 1),
                even_cuts(input.len(), 4096),
            ];
            plans.extend((0..proptest_cases(4, 1)).map(|_| random_cuts(&mut rng, input.len())));
            for cuts in &plans {
                let out = rewrite(input, cuts, xml, &mut |_| Ok(()));
                assert!(
                    out == *input,
                    "{name} (xml {xml}) cuts {cuts:?}: output differs"
                );
            }
        }
    }
}

#[test]
fn corpus_pages_pass_through_byte_for_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("datasets/corpus not fetched: skipped");
        return;
    };
    let mut rng = Rng::new(0x5e20);
    let mut pages = 0;
    for entry in entries.take(native_or_miri(usize::MAX, 0)) {
        let input = std::fs::read(entry.expect("entry").path()).expect("page");
        for cuts in [
            even_cuts(input.len(), 4096),
            random_cuts(&mut rng, input.len()),
        ] {
            assert!(rewrite(&input, &cuts, false, &mut |_| Ok(())) == input);
        }
        pages += 1;
    }
    eprintln!("{pages} corpus pages");
}

/// A random decision per token, and the output it must give: the input's bytes at each token's
/// span (or the replacement, or nothing), with the insertions around them.
#[test]
fn random_edit_scripts_splice_the_input_at_the_edited_spans() {
    let mut rng = Rng::new(0x5e21);
    let inputs: Vec<(String, Vec<u8>)> = samples();
    for (name, input) in &inputs {
        for xml in [false, true] {
            for case in 0..proptest_cases(6, 1) {
                let cuts = random_cuts(&mut rng, input.len());
                let mut expected = Vec::new();
                let mut choices = Rng::new(case as u64 * 31 + 7);
                let mut decide = |step: &mut Step<'_, '_>| {
                    let span = step.token.span();
                    let n = choices.below(10);
                    if n == 0 {
                        step.rewrite.before_html("[b]")?;
                        expected.extend_from_slice(b"[b]");
                    }
                    match n {
                        1 => step.rewrite.drop_it(),
                        2 => {
                            step.rewrite.replace_html("[r]")?;
                            expected.extend_from_slice(b"[r]");
                        }
                        3 => {
                            step.rewrite.pass()?;
                            expected.extend_from_slice(&input[span.range()]);
                        }
                        _ => expected.extend_from_slice(&input[span.range()]),
                    }
                    if n == 4 {
                        step.rewrite.after_html("[a]");
                        expected.extend_from_slice(b"[a]");
                    }
                    Ok(())
                };
                let out = rewrite(input, &cuts, xml, &mut decide);
                assert!(
                    out == expected,
                    "{name} (xml {xml}) case {case}: output is not the splice"
                );
            }
        }
    }
}

#[test]
fn tokens_not_wanted_are_passed_without_being_handed_out() {
    let mut rng = Rng::new(0x3e7e);
    // Wanted: start tags, and every third other token by where it starts.
    let wanted = |token: &Token<'_>| {
        matches!(token, Token::StartTag(_)) || token.span().start.is_multiple_of(3)
    };
    let mut passed = 0;
    for (name, input) in &samples() {
        for xml in [false, true] {
            for case in 0..proptest_cases(4, 1) {
                let cuts = random_cuts(&mut rng, input.len());
                let mut handed = Vec::new();
                let mut choices = Rng::new(case as u64 * 17 + 3);
                let mut decide = |step: &mut Step<'_, '_>| {
                    assert!(
                        wanted(&step.token),
                        "{name}: a token not wanted was handed out"
                    );
                    handed.push(step.token.span());
                    match choices.below(3) {
                        0 => step.rewrite.drop_it(),
                        1 => step.rewrite.replace_html("[r]")?,
                        _ => {}
                    }
                    Ok(())
                };
                let out = rewrite_where(input, &cuts, xml, &wanted, &mut decide);
                // Replay the same decisions on every token, passing the ones not handed out.
                let mut handed = handed.into_iter().peekable();
                let mut choices = Rng::new(case as u64 * 17 + 3);
                let mut replay = |step: &mut Step<'_, '_>| {
                    if handed.peek() != Some(&step.token.span()) {
                        assert!(
                            !wanted(&step.token),
                            "{name}: a wanted token was not handed out"
                        );
                        passed += 1;
                        return step.rewrite.pass();
                    }
                    handed.next();
                    match choices.below(3) {
                        0 => step.rewrite.drop_it(),
                        1 => step.rewrite.replace_html("[r]")?,
                        _ => {}
                    }
                    Ok(())
                };
                let expected = rewrite(input, &cuts, xml, &mut replay);
                assert!(
                    handed.next().is_none(),
                    "{name} (xml {xml}) case {case}: tokens differ"
                );
                assert!(
                    out == expected,
                    "{name} (xml {xml}) case {case}: next_where differs from next"
                );
            }
        }
    }
    assert!(
        passed > 0,
        "every token was wanted: the test checks nothing"
    );
}

/// Rewrite an HTML document whole with `f` deciding through the real [`Rewrite`] API.
type HtmlRewrite<'r, 't> = tagstream::write::Rewrite<'r, 't, Vec<u8>, HtmlTokens<'t>>;

fn html(
    input: &str,
    mut f: impl for<'r, 't> FnMut(Token<'t>, &mut HtmlRewrite<'r, 't>) -> Result<(), WriteError>,
) -> Result<String, WriteError> {
    let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    let mut rewriter = Rewriter::new(Vec::new());
    {
        let mut rewrite = rewriter.rewrite(tokenizer.tokenize(input.as_bytes()));
        while let Some(token) = rewrite.next()? {
            f(token, &mut rewrite)?;
        }
    }
    Ok(String::from_utf8(rewriter.finish()?).unwrap())
}

fn start_named(token: &Token<'_>, name: &str) -> bool {
    matches!(token, Token::StartTag(t) if t.name() == name)
}

#[test]
fn a_tag_edit_keeps_every_untouched_byte() {
    let input = "<A  Href='x'\tTITLE=\"t\"  data-x=1 checked>text</A>";
    let out = html(input, |t, r| {
        if start_named(&t, "a") {
            r.edit()?
                .set_attribute("href", "it's \"here\" & <there>")
                .set_attribute("title", "new")
                .remove_attribute("data-x")
                .set_attribute("rel", "next")
                .apply()?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(
        out,
        "<A  Href='it&#39;s \"here\" &amp; &lt;there&gt;'\tTITLE=\"new\" checked rel=\"next\">text</A>"
    );
    let out = html("<b id=1 x=\"2\"/>", |t, r| {
        if start_named(&t, "b") {
            r.edit()?
                .rename("strong")
                .rename_attribute("x", "y")
                .set_attribute("id", "a b")
                .apply()?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, "<strong id=\"a b\" y=\"2\"/>");
}

#[test]
fn an_edit_of_an_attribute_whose_value_is_missing_after_its_equals_sign_leaves_no_equals_sign() {
    let edit = |input: &str, set: bool| {
        html(input, |t, r| {
            if start_named(&t, "a") {
                let mut edit = r.edit()?;
                if set {
                    edit.set_attribute("href", "x");
                } else {
                    edit.remove_attribute("href");
                }
                edit.apply()?;
            }
            Ok(())
        })
        .unwrap()
    };
    assert_eq!(edit("<a href=>t</a>", true), "<a href=x>t</a>");
    assert_eq!(edit("<a href = >t</a>", true), "<a href=x>t</a>");
    assert_eq!(edit("<a b href=>t</a>", false), "<a b>t</a>");
    assert_eq!(edit("<a href= >t</a>", false), "<a>t</a>");
    assert_eq!(edit("<a href>t</a>", true), "<a href=x>t</a>");
    assert_eq!(edit("<a href b=1>t</a>", true), "<a href=x b=1>t</a>");
}

#[test]
fn self_closing_only_where_it_means_something() {
    let out = html("<svg><circle r=1></circle></svg><div>", |t, r| {
        if start_named(&t, "circle") {
            r.edit()?.self_closing(true).apply()?;
        }
        if let Token::StartTag(tag) = t
            && tag.name() == "div"
        {
            let refused = r.edit()?.self_closing(true).apply().unwrap_err();
            assert!(matches!(
                refused.refusal(),
                Some(Refusal::SelfClosing { .. })
            ));
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, "<svg><circle r=1 /></circle></svg><div>");
    let out = html("<svg><path d=x/></svg>", |t, r| {
        if start_named(&t, "path") {
            r.edit()?
                .self_closing(false)
                .set_attribute("fill", "red")
                .apply()?;
        }
        Ok(())
    })
    .unwrap();
    // `d=x/` is an unquoted value `x/`, not a self-closing tag.
    assert_eq!(out, "<svg><path d=x/ fill=\"red\"></svg>");
}

#[test]
fn names_that_would_not_read_back_are_refused_and_nothing_is_written() {
    let out = html("<p a=1>", |t, r| {
        if start_named(&t, "p") {
            for bad in ["", "1p", "p q", "p/"] {
                let e = r.edit()?.rename(bad).apply().unwrap_err();
                assert!(matches!(e.refusal(), Some(Refusal::TagName(_))), "{bad}");
            }
            let e = r.edit()?.set_attribute("a b", "1").apply().unwrap_err();
            assert!(matches!(e.refusal(), Some(Refusal::AttributeName(_))));
            let e = r.edit()?.set_attribute("a", "\0").apply().unwrap_err();
            assert!(matches!(e.refusal(), Some(Refusal::Nul(_))));
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, "<p a=1>");
    let e = html("text", |_, r| r.edit().map(|_| ())).unwrap_err();
    assert!(matches!(e.refusal(), Some(Refusal::NotAStartTag)));
}

/// Insert `text` after the first token for which `at` holds; the output, or the refusal.
fn insert_after(
    input: &str,
    at: impl Fn(&Token<'_>) -> bool,
    text: &str,
) -> Result<String, WriteError> {
    let mut done = false;
    html(input, |t, r| {
        if !done && at(&t) {
            done = true;
            r.insert_after_text(text)?;
        }
        Ok(())
    })
}

#[test]
fn inserted_text_is_escaped_for_where_it_lands() {
    let tricky = "a<b>&c\u{A0}\r";
    let cases: [(&str, &str, &str); 4] = [
        ("<p>", "p", "<p>a&lt;b&gt;&amp;c&nbsp;&#13;"),
        ("<title>", "title", "<title>a&lt;b&gt;&amp;c&nbsp;&#13;"),
        (
            "<svg><![CDATA[x]]></svg>",
            "svg",
            "<svg>a&lt;b&gt;&amp;c&nbsp;&#13;<![CDATA[x]]></svg>",
        ),
        (
            "<textarea>",
            "textarea",
            "<textarea>a&lt;b&gt;&amp;c&nbsp;&#13;",
        ),
    ];
    for (input, name, expected) in cases {
        let out = insert_after(input, |t| start_named(t, name), tricky).unwrap();
        assert_eq!(out, expected, "{input}");
    }
    // Raw text: as it is, when it cannot end the element.
    let out = insert_after(
        "<script></script>",
        |t| start_named(t, "script"),
        "if (a < b && c > d) {}",
    )
    .unwrap();
    assert_eq!(out, "<script>if (a < b && c > d) {}</script>");
    // Inside a CDATA section: as it is.
    let out = insert_after(
        "<svg><![CDATA[x]]></svg>",
        |t| matches!(t, Token::Text(_)),
        "a<b&",
    )
    .unwrap();
    assert_eq!(out, "<svg><![CDATA[xa<b&]]></svg>");
}

#[test]
fn inserted_text_that_would_not_read_back_is_refused() {
    let refusal = |input: &str, name: &str, text: &str| {
        insert_after(input, |t| start_named(t, name), text)
            .unwrap_err()
            .refusal()
            .cloned()
    };
    let end = |e: &str| {
        Some(Refusal::EndTagInRawText {
            element: e.to_owned(),
        })
    };
    assert_eq!(
        refusal("<script></script>", "script", "x</script>"),
        end("script")
    );
    assert_eq!(
        refusal("<script></script>", "script", "x</SCRIPT "),
        end("script")
    );
    assert_eq!(
        refusal("<script></script>", "script", "x</scr"),
        end("script")
    );
    assert_eq!(
        refusal("<script></script>", "script", "<!--"),
        Some(Refusal::ScriptEscape)
    );
    assert_eq!(
        refusal("<style></style>", "style", "</style/"),
        end("style")
    );
    assert_eq!(
        refusal("<xmp></xmp>", "xmp", "a\0"),
        Some(Refusal::Nul(tagstream::write::Place::Text(
            tagstream::TextKind::Rawtext
        )))
    );
    assert!(matches!(
        refusal("<style></style>", "style", "a\r"),
        Some(Refusal::CarriageReturn(_))
    ));
    assert!(matches!(
        refusal("<title></title>", "title", "\0"),
        Some(Refusal::Nul(_))
    ));
    let cdata = |text: &str| {
        insert_after(
            "<svg><![CDATA[x]]></svg>",
            |t| matches!(t, Token::Text(_)),
            text,
        )
        .unwrap_err()
        .refusal()
        .cloned()
    };
    assert_eq!(cdata("]]>"), Some(Refusal::CdataEnd));
    assert_eq!(cdata("a]"), Some(Refusal::CdataEnd));
    // Refused text leaves the output as it was.
    let mut tried = false;
    let out = html("<script>a</script>", |t, r| {
        if start_named(&t, "script") {
            tried = r.insert_after_text("</script>").is_err();
        }
        Ok(())
    })
    .unwrap();
    assert!(tried);
    assert_eq!(out, "<script>a</script>");
}

#[test]
fn xml5_text_and_values_use_the_predefined_entities() {
    let input = b"<a x='1'>t<![CDATA[c]]></a>";
    let mut tokenizer = xml5::Tokenizer::new(Options::new().lossless(true));
    let mut rewriter = Rewriter::new(Vec::new());
    {
        let mut rewrite = rewriter.rewrite(tokenizer.tokenize(input));
        while let Some(token) = rewrite.next().unwrap() {
            match token {
                Token::StartTag(_) => {
                    rewrite
                        .edit()
                        .unwrap()
                        .set_attribute("x", "'\u{A0}<")
                        .self_closing(false)
                        .apply()
                        .unwrap();
                    rewrite.insert_after_text("&\u{A0}<>\r").unwrap();
                }
                Token::Text(t) if t.text() == "c" => {
                    assert!(rewrite.insert_after_text("]]>").is_err());
                    rewrite.insert_after_text("<&").unwrap();
                }
                _ => {}
            }
        }
    }
    let out = String::from_utf8(rewriter.finish().unwrap()).unwrap();
    assert_eq!(
        out,
        "<a x='&apos;\u{A0}&lt;'>&amp;\u{A0}&lt;&gt;&#13;t<![CDATA[c<&]]></a>"
    );
}

/// Remove every element named `name` (first occurrence only with `once`).
fn remove(input: &str, name: &str) -> String {
    html(input, |t, r| {
        if start_named(&t, name) {
            r.remove_element()?;
        }
        Ok(())
    })
    .unwrap()
}

#[test]
fn remove_element_drops_it_with_its_content_as_the_tokenizer_sees_it_end() {
    assert_eq!(remove("a<script>x</p></script>b", "script"), "ab");
    assert_eq!(remove("a<title><b></title>b", "title"), "ab");
    assert_eq!(
        remove("a<div>1<div>2</div>3</div>b</div>c", "div"),
        "ab</div>c"
    );
    assert_eq!(remove("a<img src=x>b", "img"), "ab");
    assert_eq!(remove("<svg>a<g/>b<g>c</g>d</svg>", "g"), "<svg>abd</svg>");
    assert_eq!(remove("a<p>never closed", "p"), "a");
    assert_eq!(remove("a<plaintext></plaintext>b", "plaintext"), "a");
    // Across feeds: the element spans many chunks.
    let input = b"<ul><li>1<script>a</li></script><li>2</ul>x";
    let out = rewrite(input, &even_cuts(input.len(), 3), false, &mut |step| {
        if matches!(step.token, Token::StartTag(t) if t.name() == "ul") {
            step.rewrite.drop_it();
        }
        Ok(())
    });
    assert_eq!(out, b"<li>1<script>a</li></script><li>2</ul>x");
}

#[test]
fn unwrap_element_keeps_the_content_and_strip_comments_drops_comments() {
    let out = html("<p>a<b>x<b>y</b>z</b>c</p>", |t, r| {
        if let Token::StartTag(tag) = t
            && tag.name() == "b"
            && tag.attributes().count() == 0
            && r.edit().is_ok()
        {
            r.unwrap_element()?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, "<p>axyzc</p>");
    let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    let mut rewriter = Rewriter::new(Vec::new()).strip_comments(true);
    {
        let mut rewrite = rewriter.rewrite(tokenizer.tokenize(b"a<!-- x -->b<!---->c"));
        while let Some(token) = rewrite.next().unwrap() {
            assert!(!matches!(token, Token::Comment(_)));
        }
    }
    assert_eq!(rewriter.finish().unwrap(), b"abc");
}

#[test]
fn replace_text_escapes_for_the_place_of_the_token() {
    let out = html("<p>old</p><title>t</title>", |t, r| {
        if let Token::Text(text) = t {
            r.replace_text(&format!("<{}>", text.text()))?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(out, "<p>&lt;old&gt;</p><title>&lt;t&gt;</title>");
}
