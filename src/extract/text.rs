//! Visible text: what a reader sees of a page, in document order, whitespace collapsed, plus its
//! title and meta description.
//!
//! Words are separated where a reader sees them apart:
//!
//! - whitespace in the text, and block boundaries (see [`tag_gap`]): the start and end of a
//!   paragraph, heading, list item, table row or cell, `<br>`, …;
//! - the edges of atomic inline boxes (see [`tag_gap`]): form controls (`button`,
//!   `select`, `textarea`, `input` but `type=hidden`, `meter`, `progress`) and embedded content
//!   (`img`, `svg`, `canvas`, `video`, `iframe`, `embed`, `object`). A browser draws each as a box
//!   of its own, so `<button>All</button><button>New</button>` reads "All New", not "AllNew"
//!   (`innerText` would run them together; what one sees does not).
//!
//! Other inline elements separate nothing: `<b>a</b><i>b</i>` is "ab", as it renders.
//!
//! U+0000 is shown as a browser's tree builder leaves it: dropped from text the insertion modes
//! take (HTML content, integration points), U+FFFD in SVG and MathML content and in CDATA
//! sections there; the tokenizer already turned it into U+FFFD in RCDATA, raw text and
//! PLAINTEXT.

use super::scope::Scope;
use crate::html::simulator::Namespace;
use crate::{Options, StartTag, TextKind, Token, Tokenizer};

/// What the text extractor should do.
///
/// ```
/// use tagstream::extract::TextOptions;
/// let options = TextOptions::new().blocks(true).scripting(true);
/// # let _ = options;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    blocks: bool,
    scripting: bool,
}

impl TextOptions {
    /// The defaults: block boundaries as spaces, scripting off.
    pub fn new() -> TextOptions {
        TextOptions::default()
    }

    /// Separate blocks (paragraphs, headings, list items, table rows, `<br>`, …) by a newline
    /// instead of a space.
    pub fn blocks(mut self, on: bool) -> TextOptions {
        self.blocks = on;
        self
    }

    /// Read the page as a browser with scripting on does: `<noscript>` contents are then raw
    /// text, not shown. Off (the default), they are markup and their text is shown.
    pub fn scripting(mut self, on: bool) -> TextOptions {
        self.scripting = on;
        self
    }

    /// The tokenizer options that go with these (the simulator on, with this scripting flag).
    pub fn tokenizer_options(&self) -> Options {
        Options::new().scripting(self.scripting)
    }
}

/// The text of a page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageText {
    /// The first `<title>`'s text, whitespace stripped and collapsed (as `document.title`);
    /// `None` without a title element.
    pub title: Option<String>,
    /// The first `<meta name=description>`'s content, whitespace stripped and collapsed.
    pub description: Option<String>,
    /// The visible text not yet taken with [`TextExtractor::take_text`].
    pub text: String,
}

/// The separator owed before the next word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Gap {
    #[default]
    None,
    Space,
    Line,
}

/// Who owns the RCDATA or RAWTEXT text that follows a start tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RawOwner {
    /// `<textarea>`, `<xmp>`: shown.
    Shown,
    /// The first `<title>`.
    Title,
    /// `<style>`, `<iframe>`, `<noembed>`, `<noframes>`, `<noscript>` with scripting, later
    /// titles: not shown.
    #[default]
    Hidden,
}

/// Collects the visible text of one document from its tokens, whole or fed chunk by chunk.
///
/// Text is shown unless it is inside `script`, `style`, `template`, `iframe`, `noembed`,
/// `noframes`, `noscript` (with scripting on), `title` (reported apart), or SVG/MathML `script`,
/// `style`, `title` and `desc`; comments are never text. Runs of ASCII whitespace become one space (or one
/// newline at a block boundary with [`TextOptions::blocks`]); there is none at the start or end.
/// `&nbsp;` stays U+00A0, as in CSS. Form controls (`<button>`, `<input>`, `<select>`, …) and
/// embedded content (`<img>`, `<svg>`, `<iframe>`, …) are boxes of their own and separate the
/// words around them by a space; other inline elements separate nothing (`<b>a</b><i>b</i>` is
/// "ab"). U+0000 is dropped, as the tree builder drops it, but in SVG and MathML content, where
/// it is U+FFFD.
///
/// ```
/// use tagstream::extract::{TextExtractor, TextOptions};
/// use tagstream::Tokenizer;
///
/// let options = TextOptions::new().blocks(true);
/// let mut extractor = TextExtractor::new(options);
/// let mut tokenizer = Tokenizer::new(options.tokenizer_options());
/// let html = b"<title> A  page </title><h1>Fish &amp;\n chips</h1><script>x()</script><p>Daily";
/// for chunk in html.chunks(5) {
///     tokenizer.feed(chunk).for_each(|token| extractor.push(&token));
/// }
/// tokenizer.finish().for_each(|token| extractor.push(&token));
/// let page = extractor.finish();
/// assert_eq!(page.title.as_deref(), Some("A page"));
/// assert_eq!(page.text, "Fish & chips\nDaily");
/// ```
#[derive(Debug, Default)]
pub struct TextExtractor {
    blocks: bool,
    scope: Scope,
    raw_owner: RawOwner,
    /// Depth of the elements open inside SVG or MathML whose text is not shown.
    foreign_hidden: u32,
    text: String,
    /// Something was written (and maybe taken) already: separators go between words only.
    started: bool,
    gap: Gap,
    /// The first title's raw text while it is open, then its final form.
    title: Option<String>,
    title_open: bool,
    description: Option<String>,
}

impl TextExtractor {
    /// An extractor with these options.
    pub fn new(options: TextOptions) -> TextExtractor {
        TextExtractor {
            blocks: options.blocks,
            ..TextExtractor::default()
        }
    }

    /// Take the next token of the document (every token, in order).
    pub fn push(&mut self, token: &Token<'_>) {
        self.scope.update(token);
        match token {
            Token::Text(text) => self.push_text(text.kind(), text.text()),
            Token::StartTag(tag) => self.start_tag(tag),
            Token::EndTag(tag) => self.end_tag(tag.name()),
            Token::Doctype(_)
            | Token::Comment(_)
            | Token::ProcessingInstruction(_)
            | Token::Raw(_) => {}
        }
    }

    fn start_tag(&mut self, tag: &StartTag<'_>) {
        let name = tag.name();
        let html = self.scope.namespace() == Namespace::Html;
        self.raw_owner = match name {
            "textarea" | "xmp" => RawOwner::Shown,
            "title" if self.title.is_none() && html => {
                self.title = Some(String::new());
                self.title_open = true;
                RawOwner::Title
            }
            _ => RawOwner::Hidden,
        };
        if !html && hidden_in_foreign(name) && !tag.self_closing() {
            self.foreign_hidden += 1;
        }
        if name == "meta" && self.description.is_none() && !self.scope.in_template() {
            self.description = meta_description(tag);
        }
        if name == "input" && shown_input(tag) {
            self.gap = self.gap.max(Gap::Space);
        }
        self.boundary(name);
    }

    fn end_tag(&mut self, name: &str) {
        match name {
            "title" if self.title_open => {
                self.title_open = false;
                self.title = self.title.as_deref().map(collapse);
            }
            _ if self.foreign_hidden > 0 && hidden_in_foreign(name) => self.foreign_hidden -= 1,
            _ => {}
        }
        self.boundary(name);
    }

    /// A block element or atomic inline box starts or ends: words on either side are
    /// separated.
    fn boundary(&mut self, name: &str) {
        if let Some(gap) = tag_gap(name) {
            let gap = if self.blocks { gap } else { Gap::Space };
            self.gap = self.gap.max(gap);
        }
    }

    fn push_text(&mut self, kind: TextKind, text: &str) {
        if self.scope.in_template() || self.foreign_hidden > 0 {
            return;
        }
        let shown = match kind {
            TextKind::Data | TextKind::Plaintext | TextKind::Cdata => true,
            TextKind::Rcdata | TextKind::Rawtext => self.raw_owner == RawOwner::Shown,
            TextKind::ScriptData => false,
        };
        if shown {
            // U+0000 as the tree builder leaves it (see the module docs); the tokenizer keeps
            // it in data and CDATA sections only.
            let foreign = kind == TextKind::Cdata || self.scope.in_foreign_text();
            self.push_words(text, if foreign { "\u{FFFD}" } else { "" });
        } else if kind == TextKind::Rcdata && self.title_open {
            self.title.get_or_insert_default().push_str(text);
        }
    }

    /// Append `text` with its whitespace runs collapsed into the pending gap and each U+0000
    /// replaced by `nul`. One pass over the bytes: the ASCII whitespace and NUL bytes it splits
    /// at are never inside a UTF-8 sequence.
    fn push_words(&mut self, text: &str, nul: &str) {
        let mut start = 0;
        for (at, byte) in text.bytes().enumerate() {
            if byte.is_ascii_whitespace() {
                self.push_word(&text[start..at]);
                self.gap = self.gap.max(Gap::Space);
            } else if byte == 0 {
                self.push_word(&text[start..at]);
                self.push_word(nul);
            } else {
                continue;
            }
            start = at + 1;
        }
        self.push_word(&text[start..]);
    }

    /// Append `word` (or part of one), after the pending gap.
    fn push_word(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        match self.gap {
            _ if !self.started => {}
            Gap::None => {}
            Gap::Space => self.text.push(' '),
            Gap::Line => self.text.push('\n'),
        }
        self.gap = Gap::None;
        self.started = true;
        self.text.push_str(word);
    }

    /// The visible text collected so far (not yet taken).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Take the visible text collected so far, to write it out while the document streams in.
    /// The separator before the next word (if any) is kept for the next piece.
    pub fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// The end of the document: the title, description and the text not taken yet.
    pub fn finish(self) -> PageText {
        let title = match self.title {
            Some(raw) if self.title_open => Some(collapse(&raw)),
            title => title,
        };
        PageText {
            title,
            description: self.description,
            text: self.text,
        }
    }
}

/// SVG and MathML elements whose text is not shown: scripts, style sheets, and the `title` and
/// `desc` of SVG (tooltips and descriptions for assistive technology).
fn hidden_in_foreign(name: &str) -> bool {
    matches!(name, "script" | "style" | "title" | "desc")
}

/// The content of `<meta name=description content=…>`, collapsed.
fn meta_description(meta: &StartTag<'_>) -> Option<String> {
    let name = meta.attribute("name")?;
    if !name.value().eq_ignore_ascii_case("description") {
        return None;
    }
    meta.attribute("content").map(|c| collapse(c.value()))
}

/// Strip and collapse ASCII whitespace.
fn collapse(text: &str) -> String {
    text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

/// The separator an element's start or end tag puts between words: a block element's, from the
/// HTML Standard's rendering section (elements displayed as blocks, list items, table parts);
/// on one line, a table cell's and an atomic inline box's (form controls and embedded content:
/// see the module docs; `input` has its own test, [`shown_input`]).
fn tag_gap(name: &str) -> Option<Gap> {
    match name {
        "td" | "th" => Some(Gap::Space),
        "button" | "select" | "textarea" | "meter" | "progress" | "img" | "svg" | "canvas"
        | "video" | "iframe" | "embed" | "object" => Some(Gap::Space),
        "address" | "article" | "aside" | "blockquote" | "body" | "br" | "caption" | "center"
        | "dd" | "details" | "dialog" | "dir" | "div" | "dl" | "dt" | "fieldset" | "figcaption"
        | "figure" | "footer" | "form" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "header"
        | "hgroup" | "hr" | "html" | "legend" | "li" | "listing" | "main" | "menu" | "nav"
        | "ol" | "optgroup" | "option" | "p" | "plaintext" | "pre" | "search" | "section"
        | "summary" | "table" | "tbody" | "tfoot" | "thead" | "tr" | "ul" | "xmp" => {
            Some(Gap::Line)
        }
        _ => None,
    }
}

/// Whether `input` is drawn: an atomic inline box ([`tag_gap`]) unless `type=hidden`.
fn shown_input(input: &StartTag<'_>) -> bool {
    !input
        .attribute("type")
        .is_some_and(|t| t.value().eq_ignore_ascii_case("hidden"))
}

/// The text of a whole document.
///
/// ```
/// use tagstream::extract::{text, TextOptions};
///
/// let html = b"<meta name=Description content=' Fresh  fish '><p>Hello<!-- x --> <b>world</b></p>\
///              <template><p>later</p></template><style>p{}</style><p>Bye";
/// let page = text(html, TextOptions::new());
/// assert_eq!(page.description.as_deref(), Some("Fresh fish"));
/// assert_eq!(page.title, None);
/// assert_eq!(page.text, "Hello world Bye");
/// ```
pub fn text(html: &[u8], options: TextOptions) -> PageText {
    let mut extractor = TextExtractor::new(options);
    let mut tokenizer = Tokenizer::new(options.tokenizer_options());
    for token in tokenizer.tokenize(html) {
        extractor.push(&token);
    }
    extractor.finish()
}
