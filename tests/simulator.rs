//! The tree-builder simulator (on by default): text states, foreign content and its integration
//! points, breakout tags, self-closing foreign elements, templates, framesets, the scripting flag,
//! CDATA permission, ambiguity flags, and independence from chunking.
//!
//! The differential test against html5ever's full tree builder lives in `tests/differential/`.

use tagstream::{Ambiguity, Options, TextKind, Token, Tokenizer};

/// A compact rendering: `<a>`, `</a>`, text as `kind:"text"` (`d`, `rc`, `raw`, `sd`, `pt`,
/// `cd`), comments as `<!--data-->`; adjacent text of one kind merged.
fn render(options: Options, input: &str) -> Vec<String> {
    let mut tokenizer = Tokenizer::new(options);
    let mut out = Rendering::default();
    tokenizer
        .tokenize(input.as_bytes())
        .for_each(|t| out.push(t));
    out.lines
}

/// [`render`] of `input` fed in the pieces that cutting it at `cuts` makes, then finished; and how
/// many tokens the simulator flagged as ambiguous.
fn render_fed(options: Options, input: &str, cuts: &[usize]) -> (Vec<String>, usize) {
    let mut tokenizer = Tokenizer::new(options);
    let mut out = Rendering::default();
    let mut flagged = 0;
    let mut take = |mut tokens: tagstream::Tokens<'_>| {
        while let Some(t) = tokens.next() {
            flagged += usize::from(tokens.ambiguity().is_some());
            out.push(t);
        }
    };
    let mut from = 0;
    for &at in cuts.iter().chain([&input.len()]) {
        take(tokenizer.feed(&input.as_bytes()[from..at]));
        from = at;
    }
    take(tokenizer.finish());
    (out.lines, flagged)
}

/// The lines of a rendering, and the kind of the text on its last line, if it is text.
#[derive(Default)]
struct Rendering {
    lines: Vec<String>,
    last_text: Option<TextKind>,
}

impl Rendering {
    fn push(&mut self, token: Token<'_>) {
        let (s, kind) = match token {
            Token::StartTag(t) => (
                format!("<{}{}>", t.name(), if t.self_closing() { "/" } else { "" }),
                None,
            ),
            Token::EndTag(t) => (format!("</{}>", t.name()), None),
            Token::Comment(c) => (format!("<!--{}-->", c.data()), None),
            Token::Text(t) => (t.text().to_owned(), Some(t.kind())),
            Token::Doctype(_) => ("<!DOCTYPE>".to_owned(), None),
            Token::ProcessingInstruction(p) => (format!("<?{}>", p.target()), None),
            Token::Raw(r) => (format!("raw {:?}", r.raw()), None),
        };
        match (kind, self.lines.last_mut()) {
            (Some(k), Some(prev)) if self.last_text == Some(k) => {
                let body = prev.split_once(':').map(|(_, b)| b).unwrap_or_default();
                let body: String = serde_json::from_str(body).unwrap();
                *prev = format!("{}:{:?}", kind_name(k), body + &s);
            }
            (Some(k), _) => self.lines.push(format!("{}:{:?}", kind_name(k), s)),
            (None, _) => self.lines.push(s),
        }
        self.last_text = kind;
    }
}

fn kind_name(kind: TextKind) -> &'static str {
    match kind {
        TextKind::Data => "d",
        TextKind::Rcdata => "rc",
        TextKind::Rawtext => "raw",
        TextKind::ScriptData => "sd",
        TextKind::Plaintext => "pt",
        TextKind::Cdata => "cd",
    }
}

fn sim(input: &str) -> Vec<String> {
    render(Options::new(), input)
}

fn scripting(input: &str) -> Vec<String> {
    render(Options::new().scripting(true), input)
}

/// The kind of the text that follows the first token of `input` (which must be followed by
/// `a<b>c`): whether `<b>` came out as a tag tells the state.
fn state_after(options: Options, open: &str) -> Option<TextKind> {
    let input = format!("{open}a<b>c");
    let mut tokenizer = Tokenizer::new(options);
    let tokens: Vec<Token<'_>> = tokenizer.tokenize(input.as_bytes()).collect();
    match tokens.iter().rev().find_map(|t| match t {
        Token::Text(t) if t.text().starts_with('a') || t.text().contains("a<b>") => Some(*t),
        _ => None,
    }) {
        Some(t) if t.text().contains("<b>") => Some(t.kind()),
        Some(_) => None,
        None => panic!("{open}: {tokens:?}"),
    }
}

#[test]
fn text_state_elements_switch() {
    for (tag, kind) in [
        ("title", TextKind::Rcdata),
        ("textarea", TextKind::Rcdata),
        ("style", TextKind::Rawtext),
        ("xmp", TextKind::Rawtext),
        ("iframe", TextKind::Rawtext),
        ("noembed", TextKind::Rawtext),
        ("noframes", TextKind::Rawtext),
        ("script", TextKind::ScriptData),
        ("plaintext", TextKind::Plaintext),
    ] {
        for open in [format!("<{tag}>"), format!("<{}>", tag.to_uppercase())] {
            assert_eq!(state_after(Options::new(), &open), Some(kind), "{open}");
            assert_eq!(
                state_after(Options::new().simulate(false), &open),
                None,
                "{open} without the simulator"
            );
        }
    }
    // The appropriate end tag is the one of the start tag just seen.
    assert_eq!(
        sim("<title>a</textarea>b</title>c"),
        ["<title>", "rc:\"a</textarea>b\"", "</title>", "d:\"c\""]
    );
    assert_eq!(
        sim("<script>if (a<b) x = '</style>';</script>x"),
        [
            "<script>",
            "sd:\"if (a<b) x = '</style>';\"",
            "</script>",
            "d:\"x\""
        ]
    );
    assert_eq!(
        sim("<plaintext></plaintext><b>"),
        ["<plaintext>", "pt:\"</plaintext><b>\""]
    );
}

#[test]
fn noscript_follows_the_scripting_flag() {
    assert_eq!(
        sim("<noscript><img src=x></noscript>"),
        ["<noscript>", "<img>", "</noscript>"]
    );
    assert_eq!(
        scripting("<noscript><img src=x></noscript>"),
        ["<noscript>", "raw:\"<img src=x>\"", "</noscript>"]
    );
    // Inside SVG, noscript is an SVG element either way.
    assert_eq!(
        scripting("<svg><noscript><b>"),
        ["<svg>", "<noscript>", "<b>"]
    );
}

#[test]
fn foreign_content_has_no_text_states() {
    for tag in [
        "style", "script", "title", "textarea", "xmp", "iframe", "noembed", "noframes",
    ] {
        for root in ["svg", "math"] {
            let open = format!("<{root}><{tag}>");
            assert_eq!(state_after(Options::new(), &open), None, "{open}");
        }
    }
    // Back in HTML after the foreign element closes.
    assert_eq!(
        state_after(Options::new(), "<svg></svg><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(Options::new(), "<SVG></Svg><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(Options::new(), "<math></math><script>"),
        Some(TextKind::ScriptData)
    );
    // An end tag pops every foreign element above the one it names.
    assert_eq!(
        state_after(Options::new(), "<svg><g><a></svg><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(state_after(Options::new(), "<svg><g></g><style>"), None);
    // An end tag naming no open element is ignored.
    assert_eq!(state_after(Options::new(), "<svg><g></path><style>"), None);
}

#[test]
fn self_closing_foreign_elements_are_closed_at_once() {
    assert_eq!(
        state_after(Options::new(), "<svg/><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(Options::new(), "<math/><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(state_after(Options::new(), "<svg><path/><style>"), None);
    assert_eq!(
        state_after(Options::new(), "<svg><foreignObject/><style>"),
        None
    );
    // Self-closing HTML elements are not closed (the flag is ignored on non-void HTML).
    assert_eq!(
        state_after(Options::new(), "<div/><style>"),
        Some(TextKind::Rawtext)
    );
}

#[test]
fn html_integration_points() {
    for ip in [
        "<svg><foreignObject>",
        "<svg><desc>",
        "<svg><title>",
        "<svg><foreignobject>",
        "<math><annotation-xml encoding=\"text/html\">",
        "<math><annotation-xml encoding='APPLICATION/XHTML+XML'>",
    ] {
        let open = format!("{ip}<style>");
        assert_eq!(
            state_after(Options::new(), &open),
            Some(TextKind::Rawtext),
            "{open}"
        );
        // HTML elements inside stay HTML until closed; then the foreign context is back.
        let nested = format!("{ip}<div></div><style>");
        assert_eq!(
            state_after(Options::new(), &nested),
            Some(TextKind::Rawtext),
            "{nested}"
        );
    }
    // Not integration points.
    for not in [
        "<math><annotation-xml>",
        "<math><annotation-xml encoding=\"image/svg+xml\">",
        "<svg><annotation-xml encoding=\"text/html\">",
        "<math><foreignObject>",
        "<math><desc>",
        "<svg><mi>",
    ] {
        let open = format!("{not}<style>");
        assert_eq!(state_after(Options::new(), &open), None, "{open}");
    }
    // Closing the integration point returns to foreign content.
    assert_eq!(
        state_after(Options::new(), "<svg><desc></desc><style>"),
        None
    );
    // annotation-xml takes <svg> as SVG.
    assert_eq!(
        sim("<math><annotation-xml><svg><![CDATA[x]]></svg></annotation-xml>"),
        [
            "<math>",
            "<annotation-xml>",
            "<svg>",
            "cd:\"x\"",
            "</svg>",
            "</annotation-xml>"
        ]
    );
}

#[test]
fn mathml_text_integration_points() {
    for mi in ["mi", "mo", "mn", "ms", "mtext"] {
        let open = format!("<math><{mi}><textarea>");
        assert_eq!(
            state_after(Options::new(), &open),
            Some(TextKind::Rcdata),
            "{open}"
        );
        // mglyph and malignmark stay MathML there.
        for glyph in ["mglyph", "malignmark"] {
            let open = format!("<math><{mi}><{glyph}><style>");
            assert_eq!(state_after(Options::new(), &open), None, "{open}");
        }
    }
    // `<svg>` in a text integration point is SVG (HTML rules insert it).
    assert_eq!(state_after(Options::new(), "<math><mi><svg><style>"), None);
    assert_eq!(
        state_after(Options::new(), "<math><mi><svg></svg><style>"),
        Some(TextKind::Rawtext)
    );
}

#[test]
fn breakout_start_tags_leave_foreign_content() {
    let breakouts = [
        "b",
        "big",
        "blockquote",
        "body",
        "br",
        "center",
        "code",
        "dd",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "hr",
        "i",
        "img",
        "li",
        "listing",
        "menu",
        "meta",
        "nobr",
        "ol",
        "p",
        "pre",
        "ruby",
        "s",
        "small",
        "span",
        "strong",
        "strike",
        "sub",
        "sup",
        "table",
        "tt",
        "u",
        "ul",
        "var",
    ];
    for tag in breakouts {
        for root in ["svg", "math"] {
            let input = format!("<{root}><g><{tag}><![CDATA[x]]>");
            let out = sim(&input);
            assert_eq!(out.last().unwrap(), "<!--[CDATA[x]]-->", "{input}: {out:?}");
        }
    }
    for font in ["<font color=red>", "<font face=x>", "<font SIZE=1>"] {
        let input = format!("<svg>{font}<![CDATA[x]]>");
        assert_eq!(sim(&input).last().unwrap(), "<!--[CDATA[x]]-->", "{input}");
    }
    for not in [
        "font",
        "font id=x",
        "a",
        "g",
        "section",
        "frameset",
        "select",
    ] {
        let input = format!("<svg><{not}><![CDATA[x]]>");
        assert_eq!(sim(&input).last().unwrap(), "cd:\"x\"", "{input}");
    }
    // `</p>` and `</br>` break out too.
    assert_eq!(
        state_after(Options::new(), "<svg><g></p><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(Options::new(), "<math></br><style>"),
        Some(TextKind::Rawtext)
    );
    // Breakout stops at an integration point.
    assert_eq!(
        sim("<svg><desc><svg><p></desc><![CDATA[x]]>"),
        [
            "<svg>",
            "<desc>",
            "<svg>",
            "<p>",
            "</desc>",
            "<!--[CDATA[x]]-->"
        ]
    );
}

#[test]
fn cdata_sections_only_in_foreign_content() {
    assert_eq!(sim("<![CDATA[x]]>"), ["<!--[CDATA[x]]-->"]);
    assert_eq!(sim("<svg><![CDATA[a<b>]]>"), ["<svg>", "cd:\"a<b>\""]);
    assert_eq!(sim("<math><![CDATA[a]]>"), ["<math>", "cd:\"a\""]);
    // The adjusted current node of an integration point is foreign: CDATA is allowed there...
    assert_eq!(
        sim("<svg><foreignObject><![CDATA[a]]>"),
        ["<svg>", "<foreignobject>", "cd:\"a\""]
    );
    // ... but not inside an HTML element in it.
    assert_eq!(
        sim("<svg><foreignObject><div><![CDATA[a]]>"),
        ["<svg>", "<foreignobject>", "<div>", "<!--[CDATA[a]]-->"]
    );
    assert_eq!(
        sim("<svg></svg><![CDATA[a]]>"),
        ["<svg>", "</svg>", "<!--[CDATA[a]]-->"]
    );
    // Without the simulator, only `Options::cdata_allowed` decides.
    assert_eq!(
        render(Options::new().simulate(false), "<svg><![CDATA[a]]>"),
        ["<svg>", "<!--[CDATA[a]]-->"]
    );
}

#[test]
fn templates() {
    assert_eq!(
        state_after(Options::new(), "<template><style>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(Options::new(), "<template><div><textarea>"),
        Some(TextKind::Rcdata)
    );
    // A template whose first element is <col> ignores everything but <col> and <template>.
    assert_eq!(state_after(Options::new(), "<template><col><style>"), None);
    assert_eq!(
        state_after(Options::new(), "<template><col><svg><style>"),
        None
    );
    assert_eq!(
        state_after(Options::new(), "<template><col></template><style>"),
        Some(TextKind::Rawtext)
    );
    // </template> closes foreign content opened in the template.
    assert_eq!(
        state_after(Options::new(), "<template><svg><g></template><style>"),
        Some(TextKind::Rawtext)
    );
    // An svg template is not an HTML template.
    assert_eq!(
        state_after(
            Options::new(),
            "<template><svg><template></template><style>"
        ),
        None
    );
    // In a template directly, an end tag other than </template> cannot close the svg.
    assert_eq!(
        state_after(Options::new(), "<div><template><svg></div><style>"),
        None
    );
}

#[test]
fn framesets_ignore_text_state_elements() {
    assert_eq!(state_after(Options::new(), "<frameset><script>"), None);
    assert_eq!(
        state_after(Options::new(), "<frameset><noframes>"),
        Some(TextKind::Rawtext)
    );
    assert_eq!(
        state_after(
            Options::new(),
            "<head><title>t</title></head><frameset></frameset><style>"
        ),
        None
    );
    assert_eq!(state_after(Options::new(), "<frameset><svg><style>"), None);
    // Once the body has content, <frameset> is ignored.
    assert_eq!(
        state_after(Options::new(), "x<frameset><script>"),
        Some(TextKind::ScriptData)
    );
    assert_eq!(
        state_after(Options::new(), "<img><frameset><script>"),
        Some(TextKind::ScriptData)
    );
    assert_eq!(
        state_after(Options::new(), "<body><frameset><script>"),
        Some(TextKind::ScriptData)
    );
    // Whitespace and elements that leave frameset-ok alone do not.
    assert_eq!(
        state_after(Options::new(), " \n<div><frameset><script>"),
        None
    );
    assert_eq!(state_after(Options::new(), "&#32;<frameset><script>"), None);
    assert_eq!(
        state_after(Options::new(), "&nbsp;<frameset><script>"),
        Some(TextKind::ScriptData)
    );
}

/// (tokens, ambiguity of each token) for `input`.
fn flags(input: &str) -> (Vec<String>, Vec<Option<Ambiguity>>) {
    flags_with(Options::new(), input)
}

/// [`flags`] with `options`.
fn flags_with(options: Options, input: &str) -> (Vec<String>, Vec<Option<Ambiguity>>) {
    let mut tokenizer = Tokenizer::new(options);
    let mut tokens = tokenizer.tokenize(input.as_bytes());
    let mut out = (Vec::new(), Vec::new());
    while let Some(t) = tokens.next() {
        out.0.push(format!("{t:?}"));
        out.1.push(tokens.ambiguity());
    }
    let count = tokens.ambiguous_count();
    drop(tokens);
    assert_eq!(count, tokenizer.ambiguous_count());
    assert_eq!(
        count as usize,
        out.1.iter().filter(|a| a.is_some()).count(),
        "{input}"
    );
    out
}

#[test]
fn ambiguous_tokens_are_flagged() {
    use Ambiguity::*;
    for (input, at, why) in [
        ("<svg><path></div>", 2, ForeignEndTag),
        ("<div><svg></div>", 2, ForeignEndTag),
        ("<svg></span>", 1, ForeignEndTag),
        ("<table><tr><td><svg><desc><td>", 5, TableInForeignContent),
        ("<table><svg><foreignObject><tr>", 3, TableInForeignContent),
        (
            "<svg><foreignObject><p><i></p>",
            4,
            MisnestedHtmlInForeignContent,
        ),
        ("<svg><desc><form>", 2, MisnestedHtmlInForeignContent),
    ] {
        let (tokens, got) = flags(input);
        assert_eq!(got[at], Some(why), "{input}: {tokens:?} {got:?}");
        assert_eq!(
            got.iter().filter(|a| a.is_some()).count(),
            1,
            "{input}: {got:?}"
        );
    }
    // Unambiguous: closing what is open, table tags with no table open, HTML content.
    for input in [
        "<svg><g></g></svg><div></div>",
        "<svg><desc><td></desc></svg>",
        "<div><svg></svg></div>",
        "<svg><foreignObject><div><span></span></div></foreignObject></svg>",
        "<table><tr><td>x</td></tr></table><p><script></script>",
        "<template><svg></template>",
    ] {
        let (_, got) = flags(input);
        assert!(got.iter().all(Option::is_none), "{input}: {got:?}");
    }
    // Without the simulator nothing is flagged.
    let mut tokenizer = Tokenizer::new(Options::new().simulate(false));
    let mut tokens = tokenizer.tokenize(b"<svg></div>");
    while tokens.next().is_some() {
        assert_eq!(tokens.ambiguity(), None);
    }
}

/// Past 512 open elements the simulator pushes no more (each step walks at most that many), and
/// says so: the first start tag it leaves out is flagged, and foreign content stays in force.
#[test]
fn deep_nesting_is_bounded_and_flagged() {
    let input = format!(
        "{}<![CDATA[<x>]]>{}",
        "<svg>".repeat(600),
        "</g>".repeat(600)
    );
    let (tokens, got) = flags(&input);
    assert!(got[..512].iter().all(Option::is_none), "{:?}", &got[..512]);
    assert_eq!(got[512], Some(Ambiguity::DeepNesting));
    // The CDATA section is still one (the current node is an `svg` element).
    assert!(tokens[600].contains("Cdata"), "{}", tokens[600]);
    // The same with HTML inside an integration point.
    let input = format!("<svg><foreignObject>{}", "<div>".repeat(600));
    let (_, got) = flags(&input);
    assert_eq!(got[512], Some(Ambiguity::DeepNesting));
    assert!(got[..512].iter().all(Option::is_none));
}

/// Past the bound, foreign content still looks at every start tag: those that break out of it
/// (in any case, `font` with its attributes) do, and the others keep it, flagged unless they
/// are self-closing.
#[test]
fn past_the_bound_start_tags_still_break_out() {
    let deep = "<svg><math>".repeat(300);
    // The direct lane's way, and the state functions' (errors on).
    for options in [Options::new(), Options::new().errors(true)] {
        let flags = |input: &str| flags_with(options.clone(), input).1;
        for (tag, stays) in [
            ("<b>", false),
            ("<DIV>", false),
            ("<font color=red >", false),
            ("<font>", true),
            ("<svg>", true),
            ("<MATH>", true),
            ("<annotation-xml>", true),
            ("<foreignobject>", true),
            ("<x-long-custom-element>", true),
        ] {
            let got = flags(&format!("{deep}{tag}<![CDATA[x]]>"));
            assert_eq!(got[600], stays.then_some(Ambiguity::DeepNesting), "{tag}");
            assert_eq!(cdata_after(&format!("{deep}{tag}")), stays, "{tag}");
            // Self-closing, the element is not pushed anyway: not flagged.
            let closed = tag.replace('>', "/>");
            assert_eq!(flags(&format!("{deep}{closed}"))[600], None, "{closed}");
        }
        // A name at the very end of the input (no 8 bytes of window after its start).
        assert_eq!(
            flags(&format!("{deep}<g>"))[600],
            Some(Ambiguity::DeepNesting)
        );
    }
}

/// Whether a CDATA section after `input` is one (the adjusted current node is foreign).
fn cdata_after(input: &str) -> bool {
    let tokens = sim(&format!("{input}<![CDATA[x]]>"));
    tokens.last().is_some_and(|t| t == "cd:\"x\"")
}

/// The ambiguity of the last token of `input`, and how many tokens were ambiguous.
fn last_flag(input: &str) -> (Option<Ambiguity>, usize) {
    let (_, got) = flags(input);
    (
        got[got.len() - 1],
        got.iter().filter(|a| a.is_some()).count(),
    )
}

/// An end tag in foreign content finds the open element of its name whatever the length of the
/// names (the simulator counts the open names by length, the long ones together), after pops
/// and pushes, under more elements than it compares one by one.
#[test]
fn foreign_end_tags_find_names_of_every_length() {
    let above: String = (0..20).map(|i| format!("<k{i}>")).collect();
    for len in [1, 2, 30, 31, 32, 40] {
        let name = "q".repeat(len);
        let other = "r".repeat(len);
        let open = format!("<svg><{name}>{above}");
        // Closed with what is above it, and only once.
        assert_eq!(last_flag(&format!("{open}</{name}>")), (None, 0), "{len}");
        let twice = format!("{open}</{name}></{name}>");
        assert_eq!(last_flag(&twice).0, Some(Ambiguity::ForeignEndTag), "{len}");
        // Another name of the same length is no match.
        let same_length = format!("{open}</{other}>");
        assert_eq!(last_flag(&same_length).0, Some(Ambiguity::ForeignEndTag));
        // Popped by an end tag below it, then pushed again: found again.
        let again = format!("<svg><g><{name}>{above}</g><{name}>{above}</{name}>");
        assert_eq!(last_flag(&again), (None, 0), "{len}");
        assert!(cdata_after(&again), "{len}");
    }
    // The names of 31 bytes and more share a count: an open 40-byte name makes a 31-byte one
    // looked up, not found.
    let long = format!("<svg><{}>{above}", "q".repeat(40));
    let shorter = format!("{long}</{}>", "q".repeat(31));
    assert_eq!(last_flag(&shorter).0, Some(Ambiguity::ForeignEndTag));
}

/// HTML inside an integration point follows the same steps inside a template (where the
/// document is still in its head) as in the body: start tags with rules of their own, end tags
/// that close what is open, and end tags that close nothing.
#[test]
fn integration_points_inside_templates_follow_the_body_rules() {
    let cases: [(&str, bool, Option<Ambiguity>); 8] = [
        ("<span></span>", true, None),
        ("<span>", false, None),
        ("<p><span></p>", true, None),
        ("<span></p>", false, None),
        ("<span></x>", false, None),
        (
            "<li><a><li>",
            false,
            Some(Ambiguity::MisnestedHtmlInForeignContent),
        ),
        ("<a><tr>", false, None),
        ("<p><div></div></p><li></li>", true, None),
    ];
    for prefix in ["<template>", "<body>", "<template><template>"] {
        for (html, cdata, flag) in cases {
            let input = format!("{prefix}<svg><foreignObject>{html}");
            assert_eq!(cdata_after(&input), cdata, "{input}");
            assert_eq!(last_flag(&input).0, flag, "{input}");
        }
    }
}

/// Deep stacks, with the depth bound (512) crossed: what the simulator finds without walking
/// the stack (the nearest special element, scope boundary, foreign element; the topmost open
/// element of a name) is what a walk finds, at every depth.
#[test]
fn end_tags_find_their_element_at_any_depth() {
    // `</svg>` closes one svg each; the last of the 512 kept open ends foreign content.
    let svgs = "<svg>".repeat(600);
    for closed in [1, 2, 100, 511, 512, 600] {
        let input = format!("{svgs}{}", "</svg>".repeat(closed));
        assert_eq!(cdata_after(&input), closed < 512, "{closed}");
    }
    // Foreign elements of 600 names (the last 89 past the bound): each end tag closes down to
    // its element, any case; the next end tag of a closed or never pushed name is ambiguous.
    let names: String = (0..600).map(|i| format!("<x{i}>")).collect();
    for at in [0, 7, 300, 509] {
        let input = format!("<svg>{names}</X{at}>");
        assert_eq!(last_flag(&input), (None, 89), "{at}");
        let closed = format!("{input}</x{}>", at + 1);
        assert_eq!(last_flag(&closed).0, Some(Ambiguity::ForeignEndTag), "{at}");
        if at > 0 {
            let below = format!("{input}</x{}>", at - 1);
            assert_eq!(last_flag(&below).0, None, "{at}");
        }
    }
    let never_pushed = format!("<svg>{names}</x511>");
    assert_eq!(last_flag(&never_pushed).0, Some(Ambiguity::ForeignEndTag));
    // `</p>` finds its `p` under any number of elements that are no scope boundary, and not
    // past one (`object`) or a `button`.
    let ip = "<svg><foreignObject>";
    for depth in [0, 1, 8, 9, 300, 508, 509, 600] {
        let spans = "<span>".repeat(depth);
        assert!(cdata_after(&format!("{ip}<p>{spans}</p>")), "{depth}");
        assert!(cdata_after(&format!("{ip}<p>{spans}</h2><h1>{spans}</h2>")));
        for stop in ["<object>", "<button>"] {
            assert!(!cdata_after(&format!("{ip}<p>{stop}{spans}</p>")), "{stop}");
        }
        // "Any other end tag" stops at the first special element.
        let divs = "<div>".repeat(depth);
        assert_eq!(
            cdata_after(&format!("{ip}<span>{divs}</span>")),
            depth == 0,
            "{depth}"
        );
        // <li> closes the open `li` under `div`s, not past a `section`: then `</li>` closes
        // the new one, unless it was past the bound, and `</li>` closes the old one.
        let li = format!("{ip}<li>{divs}<li></li>");
        assert!(cdata_after(&li), "{depth}");
        let sectioned = format!("{ip}<li><section>{divs}<li></li>");
        assert_eq!(cdata_after(&sectioned), 4 + depth >= 512, "{depth}");
        // An open `a` is misnested under the `div`s.
        let a = format!("{ip}<a>{divs}<a>");
        let want = if depth == 0 {
            None
        } else {
            Some(Ambiguity::MisnestedHtmlInForeignContent)
        };
        assert_eq!(last_flag(&a).0, want, "{depth}");
    }
    // An `a` open outside the integration point on top is not found from inside it.
    let outer_a = format!("{ip}<a>{}{ip}<a>", "<div>".repeat(300));
    assert_eq!(last_flag(&outer_a), (None, 0));
}

/// Templates and tables under deep foreign content: a table tag inside an integration point
/// looks at the table bound of the innermost template below the foreign content, however many
/// templates there are, and `</template>` closes everything above the template.
#[test]
fn deep_templates_and_tables_around_foreign_content() {
    let templates = "<template>".repeat(300);
    let ip = "<svg><foreignObject>";
    // No table open: `<tr>` is ignored.
    let input = format!("{templates}{ip}<tr>");
    assert_eq!(last_flag(&input), (None, 0));
    assert!(cdata_after(&input));
    // A table in the innermost template: ambiguous, and the stack is closed.
    let input = format!("{templates}<table>{ip}<tr>");
    assert_eq!(
        last_flag(&input),
        (Some(Ambiguity::TableInForeignContent), 1)
    );
    assert!(!cdata_after(&input));
    // A table in an outer template only: the innermost one has none.
    let input = format!("<template><table>{templates}{ip}<tr>");
    assert_eq!(last_flag(&input), (None, 0));
    // `</template>` under 400 HTML elements in an integration point closes them all.
    let input = format!("<template>{ip}{}</template>", "<div>".repeat(400));
    assert!(!cdata_after(&input));
    assert!(cdata_after(&format!("{ip}{input}")));
}

const SNIPPETS: &[&str] = &[
    "<!DOCTYPE html><html><head><title>a &amp; b</title><style>p{}</style><script>if(a<b){}</script></head><body><p>x</p></body></html>",
    "<svg viewBox='0 0 1 1'><title>t<b></title><style>a<b></style><path d=M0/><![CDATA[<x>]]></svg><style>a<b></style>",
    "<math><mi>x<textarea>a<b></textarea></mi><annotation-xml encoding=text/html><xmp><i></xmp></annotation-xml></math><![CDATA[c]]>",
    "<template><col><style>a<b></template><noscript><p></noscript>",
    "<frameset><script>a<b><noframes><i></noframes></frameset>",
    "<svg><foreignObject><p><i></p>a</foreignObject><g></div><script>x<y</script>",
    "<table><tr><td><svg><desc><td><textarea>a<b></textarea>",
];

#[test]
fn the_simulator_does_not_depend_on_chunking() {
    for &input in SNIPPETS {
        for options in [Options::new(), Options::new().scripting(true)] {
            let whole = render(options.clone(), input);
            let (_, whole_flags) = flags(input);
            for size in [1, 2, 3, 7, 64] {
                let cuts: Vec<usize> = (size..input.len()).step_by(size).collect();
                // Text split at seams is merged again by the rendering.
                let (fed, flagged) = render_fed(options.clone(), input, &cuts);
                assert_eq!(fed, whole, "{input} in {size}-byte chunks");
                assert_eq!(
                    flagged,
                    whole_flags.iter().filter(|f| f.is_some()).count(),
                    "{input} in {size}-byte chunks"
                );
            }
        }
    }
}

#[test]
fn a_cut_start_tag_of_a_text_state_element_reads_on_in_place() {
    // Errors off, a start tag that a seam cuts off waits for the chunk that ends it and is lexed
    // whole from a copy; when the simulator switches to a text state there, the rest of the
    // chunk is read in place from the raw lane. One cut at every offset.
    let input = "<p>x<script src=\"a.js\" async></script><script>a<b</script><textarea rows=2>a \
                 &amp; <b></textarea><title x=1>t</title><style id=s>p>q{}</style><iframe \
                 src=x>a<b</iframe><i>y";
    let whole = sim(input);
    for cut in 1..input.len() {
        assert_eq!(
            render_fed(Options::new(), input, &[cut]).0,
            whole,
            "cut at {cut}"
        );
    }
}

#[test]
fn a_reused_tokenizer_starts_each_document_afresh() {
    let mut tokenizer = Tokenizer::default();
    assert_eq!(tokenizer.tokenize(b"<svg><g><frameset>").count(), 3);
    let tokens: Vec<String> = tokenizer
        .tokenize(b"<![CDATA[x]]><script>a<b></script>")
        .map(|t| format!("{t:?}"))
        .collect();
    assert!(tokens[0].starts_with("Comment"), "{tokens:?}");
    assert!(tokens[2].contains("ScriptData"), "{tokens:?}");
    assert_eq!(tokenizer.ambiguous_count(), 0);
}

#[test]
fn pausing_keeps_the_feedback() {
    // Stop pulling right after <script>: the switch happened before the token was handed out.
    let mut tokenizer = Tokenizer::default();
    let first = tokenizer
        .feed(b"<script>a<b>")
        .next()
        .map(|t| format!("{t:?}"));
    assert!(first.unwrap().starts_with("StartTag"));
    let mut text = String::new();
    for chunk in [&b""[..], b"c</script>"] {
        for t in tokenizer.feed(chunk) {
            if let Token::Text(t) = t {
                assert_eq!(t.kind(), TextKind::ScriptData);
                text.push_str(t.text());
            }
        }
    }
    tokenizer.finish().for_each(drop);
    assert_eq!(text, "a<b>c");
}
