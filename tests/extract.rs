//! `tagstream::extract` on the committed samples: the exact links and text, whole and streamed.
#![cfg(feature = "extract")]

use std::path::Path;

use tagstream::extract::{
    self, Link, LinkExtractor, PageText, TextExtractor, TextOptions, Url, parse_refresh,
    parse_srcset,
};
use tagstream::{Span, Tokenizer};

const PAGE_URL: &str = "https://example.com/site/page.html";

fn sample(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn page_url() -> Url {
    Url::parse(PAGE_URL).unwrap()
}

/// The links of `datasets/samples/links.html` at PAGE_URL: (element, attribute, url as written,
/// resolved, in template). The `<base href>` near the end applies to every link before it too.
const EXPECTED_LINKS: &[(&str, &str, &str, &str, bool)] = &[
    (
        "meta",
        "content",
        "../refresh/target.html",
        "https://cdn.example/base/refresh/target.html",
        false,
    ),
    (
        "link",
        "href",
        "css/site.css",
        "https://cdn.example/base/dir/css/site.css",
        false,
    ),
    (
        "script",
        "src",
        "/js/app.js",
        "https://cdn.example/js/app.js",
        false,
    ),
    (
        "a",
        "href",
        "../up/one.html",
        "https://cdn.example/base/up/one.html",
        false,
    ),
    (
        "a",
        "href",
        "/search?q=fish&chips&copy=2",
        "https://cdn.example/search?q=fish&chips&copy=2",
        false,
    ),
    (
        "a",
        "href",
        "https://other.example/x",
        "https://other.example/x",
        false,
    ),
    (
        "img",
        "src",
        "img/a.png",
        "https://cdn.example/base/dir/img/a.png",
        false,
    ),
    (
        "img",
        "srcset",
        "img/a,small.png",
        "https://cdn.example/base/dir/img/a,small.png",
        false,
    ),
    (
        "img",
        "srcset",
        "img/a,large.png",
        "https://cdn.example/base/dir/img/a,large.png",
        false,
    ),
    (
        "img",
        "srcset",
        "/w.png",
        "https://cdn.example/w.png",
        false,
    ),
    (
        "source",
        "srcset",
        "img/hero.webp",
        "https://cdn.example/base/dir/img/hero.webp",
        false,
    ),
    (
        "source",
        "srcset",
        "img/hero@2x.webp",
        "https://cdn.example/base/dir/img/hero@2x.webp",
        false,
    ),
    (
        "form",
        "action",
        "submit.php",
        "https://cdn.example/base/dir/submit.php",
        false,
    ),
    (
        "object",
        "data",
        "movie.swf",
        "https://cdn.example/base/dir/movie.swf",
        false,
    ),
    (
        "iframe",
        "src",
        "frame.html",
        "https://cdn.example/base/dir/frame.html",
        false,
    ),
    (
        "a",
        "href",
        "svg-link.html",
        "https://cdn.example/base/dir/svg-link.html",
        false,
    ),
    (
        "a",
        "href",
        "tpl/inert.html",
        "https://cdn.example/base/dir/tpl/inert.html",
        true,
    ),
    (
        "base",
        "href",
        "/in-template-base/",
        "https://example.com/in-template-base/",
        true,
    ),
    (
        "a",
        "href",
        "noscript.html",
        "https://cdn.example/base/dir/noscript.html",
        false,
    ),
    (
        "video",
        "src",
        "media/clip.mp4",
        "https://cdn.example/base/dir/media/clip.mp4",
        false,
    ),
    (
        "track",
        "src",
        "media/subs.vtt",
        "https://cdn.example/base/dir/media/subs.vtt",
        false,
    ),
    (
        "base",
        "href",
        "https://cdn.example/base/dir/",
        "https://cdn.example/base/dir/",
        false,
    ),
    (
        "a",
        "href",
        "after-base.html",
        "https://cdn.example/base/dir/after-base.html",
        false,
    ),
    (
        "base",
        "href",
        "/second-base/",
        "https://example.com/second-base/",
        false,
    ),
];

fn link_rows(links: &[Link]) -> Vec<(&str, &str, &str, &str, bool)> {
    links
        .iter()
        .map(|l| {
            let resolved = l.resolved.as_ref().map_or("(none)", Url::as_str);
            (
                l.element,
                l.attribute,
                l.url.as_str(),
                resolved,
                l.in_template,
            )
        })
        .collect()
}

#[test]
fn links_of_the_sample_page() {
    let found = extract::links(&sample("links.html"), Some(&page_url()));
    assert_eq!(link_rows(&found), EXPECTED_LINKS);
}

#[test]
fn link_spans_are_the_urls_bytes_or_the_decoded_value() {
    let html = sample("links.html");
    let found = extract::links(&html, Some(&page_url()));
    let source = |span: Span| String::from_utf8_lossy(&html[span.range()]).into_owned();
    for link in &found {
        let written = source(link.span);
        if link.url.contains("&copy") {
            // The value had a character reference: the span is the whole raw value.
            assert_eq!(written, "/search?q=fish&amp;chips&copy=2");
        } else {
            assert_eq!(written, link.url, "{link:?}");
        }
    }
}

#[test]
fn links_without_a_page_url_resolve_only_under_the_base() {
    let html = b"<a href=rel.html>a</a><a href=https://a.example/abs>b</a>";
    let found = extract::links(html, None);
    let resolved: Vec<Option<&str>> = found
        .iter()
        .map(|l| l.resolved.as_ref().map(Url::as_str))
        .collect();
    assert_eq!(resolved, [None, Some("https://a.example/abs")]);
    let with_base = extract::links(b"<a href=../x>a</a><base href=http://b.example/c/d/>", None);
    assert_eq!(
        with_base[0].resolved.as_ref().unwrap().as_str(),
        "http://b.example/c/x"
    );
}

#[test]
fn a_base_that_does_not_parse_or_is_data_falls_back_to_the_page_url() {
    for base in ["http://[bad", "data:text/html,x", "javascript:void(0)"] {
        let html = format!("<base href='{base}'><a href=x.html>x</a>");
        let found = extract::links(html.as_bytes(), Some(&page_url()));
        assert_eq!(
            found[1].resolved.as_ref().unwrap().as_str(),
            "https://example.com/site/x.html",
            "base {base}"
        );
    }
}

#[test]
fn svg_base_and_template_base_do_not_set_the_base() {
    let html = b"<svg><base href=http://svg.example/></base></svg><a href=x>x</a>";
    let found = extract::links(html, Some(&page_url()));
    assert_eq!(
        found.last().unwrap().resolved.as_ref().unwrap().as_str(),
        "https://example.com/site/x"
    );
}

/// A link as (element, attribute, url).
type LinkName<'a> = (&'static str, &'static str, &'a str);

/// (element, attribute, url) of every link of `html`.
fn link_names(html: &str) -> Vec<(&'static str, &'static str, String)> {
    extract::links(html.as_bytes(), Some(&page_url()))
        .into_iter()
        .map(|l| (l.element, l.attribute, l.url))
        .collect()
}

#[test]
fn links_follow_the_element_namespace() {
    let owned = |rows: &[LinkName<'_>]| -> Vec<_> {
        rows.iter().map(|&(e, a, u)| (e, a, u.to_owned())).collect()
    };
    let cases: &[(&str, &[LinkName<'_>])] = &[
        // HTML rules do not apply to SVG elements of the same names.
        (
            "<svg><iframe src=/if></iframe><script src=/s></script><video src=/v /><link href=/l>\
             </svg><math><iframe src=/mif></iframe></math>",
            &[],
        ),
        // SVG's own: href, else xlink:href; href wins when both are given.
        (
            "<svg><a xlink:href=/xa><text>x</text></a><image href=/i.png xlink:href=/old.png />\
             <use xlink:href=/u.svg#i /><feImage href=/f.png /><script href=/s.js></script></svg>",
            &[
                ("a", "xlink:href", "/xa"),
                ("image", "href", "/i.png"),
                ("use", "xlink:href", "/u.svg#i"),
                ("feImage", "href", "/f.png"),
                ("script", "href", "/s.js"),
            ],
        ),
        // In-document references and xlink:href on HTML elements are not links.
        (
            "<svg><linearGradient href=#g /><textPath href=#p /></svg><a xlink:href=/x>x</a>",
            &[],
        ),
        // MathML: href on its elements.
        (
            "<math href=/m><mi href=/mi>x</mi><a href=/a>y</a><mtext src=/no>z</mtext></math>",
            &[
                ("math", "href", "/m"),
                ("mi", "href", "/mi"),
                ("a", "href", "/a"),
            ],
        ),
        // Integration points and breakout tags bring HTML back; the end of svg too.
        (
            "<svg><foreignObject><img src=/fo.png><svg><a href=/inner /></svg></foreignObject>\
             <desc><a href=/desc>d</a></desc><p><img src=/out.png></svg><script src=/after.js></script>\
             <math><embed src=/e.swf></math>",
            &[
                ("img", "src", "/fo.png"),
                ("a", "href", "/inner"),
                ("a", "href", "/desc"),
                ("img", "src", "/out.png"),
                ("script", "src", "/after.js"),
                ("embed", "src", "/e.swf"),
            ],
        ),
        (
            "<math><annotation-xml encoding=text/html><a href=/h>h</a></annotation-xml>\
             <annotation-xml><a href=/m /></annotation-xml><mi><img src=/mi.png></mi></math>",
            &[
                ("a", "href", "/h"),
                ("a", "href", "/m"),
                ("img", "src", "/mi.png"),
            ],
        ),
    ];
    for (html, expected) in cases {
        assert_eq!(link_names(html), owned(expected), "{html}");
    }
}

#[test]
fn only_an_html_base_sets_the_base_url() {
    let resolved = |html: &str| {
        let found = extract::links(html.as_bytes(), Some(&page_url()));
        found.last().unwrap().resolved.as_ref().unwrap().to_string()
    };
    // An SVG or MathML `base` is no base element (and no link).
    assert_eq!(
        resolved(
            "<svg><base href=http://svg.example/ /></svg>\
             <math><base href=http://m.example/ /></math><a href=x>x</a>"
        ),
        "https://example.com/site/x"
    );
    // One inside an integration point is HTML.
    assert_eq!(
        resolved(
            "<svg><foreignObject><base href=http://fo.example/d/></foreignObject></svg>\
             <a href=x>x</a>"
        ),
        "http://fo.example/d/x"
    );
}

#[test]
fn just_found_gives_each_tags_links_as_pushed() {
    let html = b"<svg><script src=/no href=/s.js /></svg><img src=a.png srcset='b.png 2x'><p>";
    let mut extractor = LinkExtractor::new(None);
    let mut found = Vec::new();
    for token in Tokenizer::default().tokenize(html) {
        extractor.push(&token);
        found.push(extractor.just_found().len());
    }
    assert_eq!(found, [0, 1, 0, 2, 0]);
    let urls: Vec<String> = extractor.finish().into_iter().map(|l| l.url).collect();
    assert_eq!(urls, ["/s.js", "a.png", "b.png"]);
}

#[test]
fn script_contents_and_comments_hold_no_links_scripting_on_hides_noscript() {
    let html = br#"<script>document.write("<a href='/x'>")</script><!--<img src=y>-->
        <noscript><img src=/pixel.gif></noscript><svg><script>"<a href=/svg-script>"</script></svg>"#;
    let found = extract::links(html, Some(&page_url()));
    // SVG <script> is not a raw-text element: its contents are markup, so that <a> is a tag.
    assert_eq!(
        link_rows(&found),
        [
            (
                "img",
                "src",
                "/pixel.gif",
                "https://example.com/pixel.gif",
                false
            ),
            (
                "a",
                "href",
                "/svg-script",
                "https://example.com/svg-script",
                false
            ),
        ]
    );
    let mut extractor = LinkExtractor::new(Some(page_url()));
    let mut tokenizer = Tokenizer::new(tagstream::Options::new().scripting(true));
    tokenizer.tokenize(html).for_each(|t| extractor.push(&t));
    assert_eq!(
        extractor.finish().len(),
        1,
        "noscript is raw text with scripting on"
    );
}

#[test]
fn drain_ready_hands_out_links_once_the_base_is_known() {
    let mut extractor = LinkExtractor::new(Some(page_url()));
    let mut tokenizer = Tokenizer::default();
    for token in tokenizer.feed(b"<a href=a>1</a>") {
        extractor.push(&token);
    }
    assert_eq!(
        extractor.drain_ready().count(),
        0,
        "the base is not known yet"
    );
    for token in tokenizer.feed(b"<base href=/b/><a href=c>2</a>") {
        extractor.push(&token);
    }
    let ready: Vec<String> = extractor
        .drain_ready()
        .map(|l| l.resolved.unwrap().to_string())
        .collect();
    assert_eq!(
        ready,
        [
            "https://example.com/b/a",
            "https://example.com/b/",
            "https://example.com/b/c"
        ]
    );
    tokenizer.finish().for_each(|t| extractor.push(&t));
    assert!(extractor.finish().is_empty());
}

#[test]
fn srcset_follows_the_standard() {
    let urls = |s| parse_srcset(s).iter().map(|c| c.url).collect::<Vec<_>>();
    assert_eq!(urls("a.png"), ["a.png"]);
    // A comma inside a URL is part of it; only one that ends the URL separates.
    assert_eq!(urls(" a.png,b.png , c.png 2x"), ["a.png,b.png", "c.png"]);
    assert_eq!(
        urls("data:image/png;base64,iVBO= 1x, b.png 2x"),
        ["data:image/png;base64,iVBO=", "b.png"]
    );
    assert_eq!(urls("a,,, b"), ["a", "b"], "trailing commas end a URL");
    assert_eq!(
        urls("a.png 100w 50h, b.png 50h, c.png 1x 100w, d.png 1.5x"),
        ["a.png", "d.png"]
    );
    assert_eq!(
        urls("a.png foo(1, 2) 1x, b.png"),
        ["b.png"],
        "commas inside parens stay in the descriptor"
    );
    assert_eq!(
        urls("a.png .5x, b.png 1.x, c.png 1e2x, d.png +1x, e.png -1x"),
        ["a.png", "c.png"]
    );
    assert_eq!(urls("a.png 0w, b.png 01w"), ["b.png"]);
    assert!(parse_srcset(" , ").is_empty());
}

#[test]
fn srcset_and_refresh_take_any_text_and_return_slices_of_it() {
    let inputs = [
        "a.png 1é, b 2ü",
        "é 1x,ü",
        "x 1ü",
        "0;url='é",
        "5é; url=ü",
        "1 u\u{0301}rl=x",
    ];
    for input in inputs {
        for (end, _) in input.char_indices().chain([(input.len(), ' ')]) {
            let prefix = &input[..end];
            for candidate in parse_srcset(prefix) {
                assert!(prefix.contains(candidate.url), "{prefix:?}: {candidate:?}");
            }
            if let Some(url) = parse_refresh(prefix).and_then(|r| r.url) {
                assert!(prefix.contains(url), "{prefix:?}: {url:?}");
            }
        }
    }
    assert_eq!(
        parse_srcset("a.png 1é, b.png")[0].url,
        "b.png",
        "a non-ASCII unit is invalid"
    );
}

#[test]
fn refresh_follows_the_standard() {
    let url = |s| parse_refresh(s).map(|r| r.url);
    assert_eq!(url("0; url=/a"), Some(Some("/a")));
    assert_eq!(url("0;URL = \"/b\" trailing\"x"), Some(Some("/b")));
    assert_eq!(url("3,/c"), Some(Some("/c")));
    assert_eq!(url("1.5 /d"), Some(Some("/d")));
    assert_eq!(url(".5; /e"), Some(Some("/e")));
    assert_eq!(
        url("0; urn:x"),
        Some(Some("urn:x")),
        "`u` without `rl` is part of the URL"
    );
    assert_eq!(
        url("0; url /f"),
        Some(Some("url /f")),
        "`url` without `=` too"
    );
    assert_eq!(url("5"), Some(None));
    assert_eq!(url("5x; /g"), None);
    assert_eq!(url("; /h"), None);
}

const EXPECTED_TEXT: &str = "Menu Cod & chips, £8. Haddock on\u{a0}Fridays. Salt Vinegar Enable JavaScript \
     Mon Closed Tue 12–22 Fish & <chips> Your order keep this";

const EXPECTED_BLOCKS: &str = "Menu\nCod & chips, £8.\nHaddock on\u{a0}Fridays.\nSalt\nVinegar\n\
     Enable JavaScript\nMon Closed\nTue 12–22\nFish & <chips> Your order\nkeep this";

#[test]
fn text_of_the_sample_page() {
    let page = extract::text(&sample("text.html"), TextOptions::new());
    assert_eq!(page.title.as_deref(), Some("Fish & Chips"));
    assert_eq!(page.description.as_deref(), Some("The best fish in town."));
    assert_eq!(page.text, EXPECTED_TEXT);
}

#[test]
fn text_with_blocks_and_scripting() {
    let html = sample("text.html");
    assert_eq!(
        extract::text(&html, TextOptions::new().blocks(true)).text,
        EXPECTED_BLOCKS
    );
    let scripted = extract::text(&html, TextOptions::new().scripting(true)).text;
    assert_eq!(scripted, EXPECTED_TEXT.replace("Enable JavaScript ", ""));
}

#[test]
fn text_of_pages_without_title_and_with_an_unclosed_one() {
    assert_eq!(extract::text(b"<p>x", TextOptions::new()).title, None);
    assert_eq!(
        extract::text(b"<title>a\n b", TextOptions::new())
            .title
            .as_deref(),
        Some("a b")
    );
    let page = extract::text(b"<title>one</title><title>two</title>z", TextOptions::new());
    assert_eq!(
        (page.title.as_deref(), page.text.as_str()),
        (Some("one"), "z")
    );
    let xmp = extract::text(
        b"<xmp><b>shown</b></xmp><iframe><p>hidden</iframe>",
        TextOptions::new(),
    );
    assert_eq!(xmp.text, "<b>shown</b>");
}

#[test]
fn text_drops_nul_where_the_tree_builder_does_and_replaces_it_in_foreign_content() {
    let text = |html: &[u8]| extract::text(html, TextOptions::new()).text;
    assert_eq!(text(b"<p>a\0b \0 c\0"), "ab c", "HTML content: dropped");
    assert_eq!(text(b"<table><td>a\0b</table>x\0"), "ab x");
    assert_eq!(
        text(b"<textarea>a\0b</textarea><xmp>c\0d</xmp><plaintext>e\0f"),
        "a\u{FFFD}b c\u{FFFD}d e\u{FFFD}f",
        "RCDATA, RAWTEXT, PLAINTEXT: the tokenizer's U+FFFD"
    );
    assert_eq!(
        text(b"<svg><text>a\0b<![CDATA[c\0d]]></text></svg>"),
        "a\u{FFFD}bc\u{FFFD}d",
        "SVG content and CDATA sections: U+FFFD"
    );
    assert_eq!(
        text(
            b"<svg><foreignObject>a\0b</foreignObject></svg>\
              <math><mi>c\0d</mi><mrow>e\0f</mrow></math>"
        ),
        "ab cde\u{FFFD}f",
        "integration points: the insertion modes' rule"
    );
    let title = extract::text(b"<title>a\0b</title>", TextOptions::new()).title;
    assert_eq!(title.as_deref(), Some("a\u{FFFD}b"));
}

#[test]
fn form_controls_and_embedded_content_separate_words_other_inline_elements_do_not() {
    let text = |html: &str| extract::text(html.as_bytes(), TextOptions::new()).text;
    let cases = [
        (
            "<button>All Methods</button><button>Instance Methods</button>",
            "All Methods Instance Methods",
        ),
        ("Search<input>Go<input type=HIDDEN>ne", "Search Gone"),
        ("a<select><option>b</select>c", "a b c"),
        (
            "a<textarea>b</textarea>c<meter>d</meter>e<progress>f</progress>g",
            "a b c d e f g",
        ),
        (
            "Home<img src=sep.gif>About<embed src=x>Contact",
            "Home About Contact",
        ),
        ("x<svg><text>y</text></svg>z<iframe>w</iframe>v", "x y z v"),
        (
            "<b>a</b><i>b</i><span>c</span><a href=#>d</a><label>e</label>",
            "abcde",
        ),
        ("<button>a</button> <button>b</button>", "a b"),
    ];
    for (html, expected) in cases {
        assert_eq!(text(html), expected, "{html}");
    }
    let blocks = extract::text(
        b"<p>a</p><button>b</button>",
        TextOptions::new().blocks(true),
    );
    assert_eq!(blocks.text, "a\nb", "a block boundary stays a newline");
}

#[test]
fn take_text_streams_without_losing_separators() {
    let mut extractor = TextExtractor::new(TextOptions::new());
    let mut tokenizer = Tokenizer::default();
    let mut streamed = String::new();
    for chunk in [&b"<p>one "[..], b"two</p>", b"<p>three"] {
        tokenizer.feed(chunk).for_each(|t| extractor.push(&t));
        streamed.push_str(&extractor.take_text());
    }
    tokenizer.finish().for_each(|t| extractor.push(&t));
    streamed.push_str(&extractor.finish().text);
    assert_eq!(streamed, "one two three");
}

/// Links and text of `html` fed in chunks of `size` bytes, or whole with `None`.
fn extract_all(html: &[u8], size: Option<usize>, options: TextOptions) -> (Vec<Link>, PageText) {
    let mut links = LinkExtractor::new(Some(page_url()));
    let mut text = TextExtractor::new(options);
    let mut tokenizer = Tokenizer::new(options.tokenizer_options());
    let mut found = Vec::new();
    let Some(size) = size else {
        for token in tokenizer.tokenize(html) {
            links.push(&token);
            text.push(&token);
        }
        return (links.finish(), text.finish());
    };
    for chunk in html.chunks(size) {
        for token in tokenizer.feed(chunk) {
            links.push(&token);
            text.push(&token);
        }
        found.extend(links.drain_ready());
    }
    for token in tokenizer.finish() {
        links.push(&token);
        text.push(&token);
    }
    found.extend(links.finish());
    (found, text.finish())
}

#[test]
fn extraction_in_1_and_7_byte_chunks_equals_the_whole_document() {
    let names = [
        "links.html",
        "text.html",
        "article.html",
        "edge.html",
        "forms.html",
        "scripts.html",
    ];
    for name in names {
        let html = sample(name);
        for options in [
            TextOptions::new(),
            TextOptions::new().blocks(true).scripting(true),
        ] {
            let whole = extract_all(&html, None, options);
            assert!(!whole.1.text.is_empty(), "{name}");
            for size in [1, 7] {
                assert_eq!(
                    extract_all(&html, Some(size), options),
                    whole,
                    "{name} in {size}-byte chunks"
                );
            }
        }
    }
}

/// `html` rewritten with [`tagstream::write::Rewrite::absolutize_links`] at `page`, fed in
/// chunks of `chunk` bytes.
fn absolutized(html: &[u8], page: &str, chunk: usize) -> String {
    use tagstream::Options;
    use tagstream::write::Rewriter;
    let mut links = LinkExtractor::new(Url::parse(page).ok());
    let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    let mut rewriter = Rewriter::new(Vec::new());
    for part in html.chunks(chunk.max(1)) {
        let mut rewrite = rewriter.rewrite(tokenizer.feed(part));
        while rewrite.next().unwrap().is_some() {
            rewrite.absolutize_links(&mut links).unwrap();
        }
    }
    let mut rewrite = rewriter.rewrite(tokenizer.finish());
    while rewrite.next().unwrap().is_some() {
        rewrite.absolutize_links(&mut links).unwrap();
    }
    drop(rewrite);
    String::from_utf8(rewriter.finish().unwrap()).unwrap()
}

#[test]
fn absolutize_links_resolves_a_base_href_against_the_page_url() {
    let html = b"<a href=x><base href='sub/'><a href=y><base href=other/><img src=i>";
    assert_eq!(
        absolutized(html, PAGE_URL, usize::MAX),
        "<a href=https://example.com/site/x><base href='https://example.com/site/sub/'>\
         <a href=https://example.com/site/sub/y><base href=https://example.com/site/other/>\
         <img src=https://example.com/site/sub/i>"
    );
}

#[test]
fn absolutize_links_replaces_each_url_and_keeps_the_rest_of_the_value() {
    let html = "<img srcset=' a.png 1x,b&amp;c.png 2x ,, bad.png 0w' src=\"&#32;c d.png \">\
        <meta http-equiv=Refresh content='5; url=\"next.html\"'><meta content=x.html>\
        <svg><use xlink:href=#icon /><a href=s xlink:href=t /><script src=n /></svg>\
        <a href=javascript:void(0)>j</a><a href='https://EXAMPLE.com:443/%2e/x'>u</a>\
        <a href='http://[::1'>bad</a><form action=?q=é>";
    assert_eq!(
        absolutized(html.as_bytes(), PAGE_URL, usize::MAX),
        "<img srcset=' https://example.com/site/a.png 1x,https://example.com/site/b&amp;c.png 2x ,, bad.png 0w' \
         src=\" https://example.com/site/c%20d.png \">\
         <meta http-equiv=Refresh content='5; url=\"https://example.com/site/next.html\"'><meta content=x.html>\
         <svg><use xlink:href=https://example.com/site/page.html#icon /><a href=https://example.com/site/s xlink:href=t />\
         <script src=n /></svg>\
         <a href=javascript:void(0)>j</a><a href='https://example.com/x'>u</a>\
         <a href='http://[::1'>bad</a><form action=\"https://example.com/site/page.html?q=%C3%A9\">"
    );
}

#[test]
fn absolutize_links_keeps_the_urls_before_and_after_the_one_that_changes() {
    let html = b"<img srcset='https://cdn.test/a.png 1x, b.png 2x, //cdn.test/c.png 3x'>";
    assert_eq!(
        absolutized(html, PAGE_URL, usize::MAX),
        "<img srcset='https://cdn.test/a.png 1x, https://example.com/site/b.png 2x, \
         https://cdn.test/c.png 3x'>"
    );
    let html = b"<img srcset='https://cdn.test/a.png 1x, mailto:x 2x' src=https://cdn.test/>";
    assert_eq!(
        absolutized(html, PAGE_URL, usize::MAX),
        std::str::from_utf8(html).unwrap()
    );
}

/// Every link the rewriter writes is what [`LinkExtractor::resolve_so_far`] (the URL parser)
/// gives for it, on every sample, whole and in chunks: the URLs written without parsing agree
/// with the parser.
#[test]
fn absolutize_links_writes_what_the_parser_resolves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/samples");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty());
    for path in pages {
        let html = std::fs::read(&path).unwrap();
        let mut expected = Vec::new();
        let mut extractor = LinkExtractor::new(Some(page_url()));
        for token in Tokenizer::default().tokenize(&html) {
            extractor.push(&token);
            for link in extractor.just_found() {
                let resolved = match link.element {
                    "base" => page_url().join(&link.url).ok(),
                    _ => extractor.resolve_so_far(&link.url),
                };
                expected.push(resolved.map_or(link.url.clone(), String::from));
            }
            extractor.forget_found();
        }
        for chunk in [usize::MAX, 7] {
            let out = absolutized(&html, PAGE_URL, chunk);
            let written: Vec<String> = extract::links(out.as_bytes(), None)
                .into_iter()
                .map(|l| l.url)
                .collect();
            assert_eq!(written, expected, "{}", path.display());
        }
    }
}
