//! Links: every URL a page references, with where it is written.
//!
//! [`tag_links`] finds the URLs of one start tag without copying them; [`LinkExtractor`] takes
//! every token of a document (whole or chunk by chunk), keeps track of `<base href>`,
//! `<template>` and the namespace of each element, and resolves each URL with the [`url`] crate.
//! Which attributes are URLs, by namespace, is in the [`extract`](super) module docs: the
//! lists below ([`html_links`], [`SVG_LINKS`], [`MATHML_LINKS`]) are that list.

use std::ops::Range;
use std::vec::Drain;

use url::Url;

use super::resolve::{Base, QueryEncoding, Resolution, resolve, resolve_into};
use super::scope::Scope;
use super::syntax::{parse_refresh, parse_srcset, trim_html_space};
use crate::html::simulator::Namespace;
use crate::{Attribute, Span, StartTag, Token, Tokenizer};

/// The URL attributes of HTML element `name`, with the element's name as a `&'static str`;
/// `None` for the elements that reference no URL. `srcset` holds image candidates; `content`
/// counts only on `<meta http-equiv=refresh>`. A match, not a table searched: it runs on every
/// start tag, and most are none of these.
fn html_links(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    const HREF: &[&str] = &["href"];
    const SRC: &[&str] = &["src"];
    const IMAGE: &[&str] = &["src", "srcset"];
    Some(match name {
        "a" => ("a", HREF),
        "area" => ("area", HREF),
        "audio" => ("audio", SRC),
        "base" => ("base", HREF),
        "embed" => ("embed", SRC),
        "form" => ("form", &["action"]),
        "iframe" => ("iframe", SRC),
        "img" => ("img", IMAGE),
        "link" => ("link", HREF),
        "meta" => ("meta", &["content"]),
        "object" => ("object", &["data"]),
        "script" => ("script", SRC),
        "source" => ("source", IMAGE),
        "track" => ("track", SRC),
        "video" => ("video", SRC),
        _ => return None,
    })
}

/// The SVG elements that reference a resource in `href` (or `xlink:href`): their names as the
/// tokenizer gives them (lowercase) and as SVG spells them.
const SVG_LINKS: &[(&str, &str)] = &[
    ("a", "a"),
    ("feimage", "feImage"),
    ("image", "image"),
    ("script", "script"),
    ("use", "use"),
];

/// The MathML elements whose `href` is a hyperlink: MathML Core's, and its `a`.
const MATHML_LINKS: &[&str] = &[
    "a",
    "annotation",
    "annotation-xml",
    "maction",
    "math",
    "merror",
    "mfrac",
    "mi",
    "mmultiscripts",
    "mn",
    "mo",
    "mover",
    "mpadded",
    "mphantom",
    "mprescripts",
    "mroot",
    "mrow",
    "ms",
    "mspace",
    "msqrt",
    "mstyle",
    "msub",
    "msubsup",
    "msup",
    "mtable",
    "mtd",
    "mtext",
    "mtr",
    "munder",
    "munderover",
    "none",
    "semantics",
];

/// One URL as written in a start tag, borrowed from the tokenizer's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawLink<'a> {
    /// The element name, as the DOM spells it (`"a"`, `"img"`, `"feImage"`, …).
    pub element: &'static str,
    /// The attribute name (`"href"`, `"srcset"`, `"xlink:href"`, …).
    pub attribute: &'static str,
    /// The URL with character references resolved and surrounding ASCII whitespace removed; for
    /// `srcset` one candidate's URL, for a refresh the URL part of `content`.
    pub url: &'a str,
    /// Where the URL is in the input: exactly its bytes when the attribute value contains no
    /// character reference (nothing had to be decoded), otherwise the whole attribute value.
    pub span: Span,
}

/// Call `found` for every URL `tag` references as an HTML element, in attribute order (see the
/// [`extract`](crate::extract) module docs for the elements and attributes). Nothing is copied: the URLs borrow the
/// tokenizer's input. Inside SVG or MathML the same tag names other attributes, or none: the
/// [`LinkExtractor`] follows the namespaces.
///
/// ```
/// use tagstream::extract::tag_links;
/// use tagstream::{Token, Tokenizer};
///
/// let html = br#"<img src="a.png" srcset="b.png 2x, c,d.png 3x">"#;
/// let mut tokenizer = Tokenizer::default();
/// let Some(Token::StartTag(img)) = tokenizer.tokenize(html).next() else { panic!() };
/// let mut urls = Vec::new();
/// tag_links(&img, |link| urls.push((link.attribute, link.url, &html[link.span.range()])));
/// assert_eq!(urls, [
///     ("src", "a.png", &b"a.png"[..]),
///     ("srcset", "b.png", b"b.png"),
///     ("srcset", "c,d.png", b"c,d.png"),
/// ]);
/// ```
pub fn tag_links<'a>(tag: &StartTag<'a>, mut found: impl FnMut(RawLink<'a>)) {
    html_tag_links(tag, |f| found(f.raw_link()));
}

/// One URL of a start tag, with the attribute it is in.
struct Found<'a> {
    /// As [`RawLink::element`].
    element: &'static str,
    /// As [`RawLink::attribute`].
    name: &'static str,
    /// The attribute as written.
    attribute: Attribute<'a>,
    /// Its decoded value.
    value: &'a str,
    /// The URL: a slice of `value`.
    url: &'a str,
}

impl<'a> Found<'a> {
    fn raw_link(&self) -> RawLink<'a> {
        RawLink {
            element: self.element,
            attribute: self.name,
            url: self.url,
            span: span_of(&self.attribute, self.value, self.url),
        }
    }
}

/// [`tag_links`] for an element in `namespace`, each URL with its attribute's value.
fn element_links<'a>(tag: &StartTag<'a>, namespace: Namespace, found: impl FnMut(Found<'a>)) {
    match namespace {
        Namespace::Html => html_tag_links(tag, found),
        Namespace::Svg => svg_tag_links(tag, found),
        Namespace::MathMl => mathml_tag_links(tag, found),
    }
}

/// The URLs of an HTML element.
fn html_tag_links<'a>(tag: &StartTag<'a>, mut found: impl FnMut(Found<'a>)) {
    let name = tag.name();
    let Some((element, attributes)) = html_links(name) else {
        return;
    };
    if element == "meta" && !is_refresh(tag) {
        return;
    }
    for attribute in tag.attributes() {
        let attribute_name = attribute.name();
        let Some(&static_name) = attributes.iter().find(|a| **a == attribute_name) else {
            continue;
        };
        let value = attribute.value();
        let link = |url: &'a str| Found {
            element,
            name: static_name,
            attribute,
            value,
            url,
        };
        match static_name {
            "srcset" => parse_srcset(value).iter().for_each(|c| found(link(c.url))),
            "content" => {
                if let Some(url) = parse_refresh(value).and_then(|r| r.url) {
                    found(link(url));
                }
            }
            _ => found(link(trim_html_space(value))),
        }
    }
}

/// The URL of an SVG element: its `href`, else its `xlink:href` (SVG 2).
fn svg_tag_links<'a>(tag: &StartTag<'a>, found: impl FnMut(Found<'a>)) {
    let name = tag.name();
    let Some(&(_, element)) = SVG_LINKS.iter().find(|(lower, _)| *lower == name) else {
        return;
    };
    let href = tag.attribute("href").map(|a| ("href", a));
    let chosen = href.or_else(|| tag.attribute("xlink:href").map(|a| ("xlink:href", a)));
    href_link(element, chosen, found);
}

/// The URL of a MathML element: its `href`.
fn mathml_tag_links<'a>(tag: &StartTag<'a>, found: impl FnMut(Found<'a>)) {
    let name = tag.name();
    let Some(&element) = MATHML_LINKS.iter().find(|e| **e == name) else {
        return;
    };
    href_link(element, tag.attribute("href").map(|a| ("href", a)), found);
}

/// Report `attribute` (named as given), if any, as the one URL of `element`.
fn href_link<'a>(
    element: &'static str,
    attribute: Option<(&'static str, Attribute<'a>)>,
    mut found: impl FnMut(Found<'a>),
) {
    if let Some((name, attribute)) = attribute {
        let value = attribute.value();
        let url = trim_html_space(value);
        found(Found {
            element,
            name,
            attribute,
            value,
            url,
        });
    }
}

/// Whether a `<meta>` has `http-equiv=refresh` (ASCII case-insensitive).
fn is_refresh(meta: &StartTag<'_>) -> bool {
    meta.attribute("http-equiv")
        .is_some_and(|a| a.value().eq_ignore_ascii_case("refresh"))
}

/// The span of `part`, a slice of `decoded`, `attribute`'s value: exact when the value is the
/// raw bytes themselves, the whole value's span when decoding changed it.
fn span_of(attribute: &Attribute<'_>, decoded: &str, part: &str) -> Span {
    let raw = attribute.raw_value();
    let whole = attribute.value_span();
    let raw_range = raw.as_ptr().addr()..raw.as_ptr().addr() + raw.len();
    let same_bytes = decoded.as_ptr().addr() == raw_range.start && decoded.len() == raw.len();
    if !same_bytes || !raw_range.contains(&part.as_ptr().addr()) {
        return whole;
    }
    let start = whole.start + (part.as_ptr().addr() - raw_range.start);
    Span {
        start,
        end: start + part.len(),
    }
}

/// A URL a page references, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The element name, as the DOM spells it (`"a"`, `"img"`, `"feImage"`, …).
    pub element: &'static str,
    /// The attribute name (`"href"`, `"srcset"`, `"xlink:href"`, …).
    pub attribute: &'static str,
    /// The URL as the document gives it (character references resolved, whitespace trimmed).
    pub url: String,
    /// The URL resolved against the document's base URL (for `<base>` itself: against the page
    /// URL); `None` when it does not parse, or when it is relative and no base is known.
    pub resolved: Option<Url>,
    /// Where the URL is written; see [`RawLink::span`].
    pub span: Span,
    /// Inside `<template>` contents: inert markup that scripts may clone into the page. Browsers
    /// neither render nor fetch it, so a crawler that only follows what a browser loads skips
    /// these; one that discovers URLs keeps them.
    pub in_template: bool,
}

/// Collects the links of one document from its tokens, whole or fed chunk by chunk.
///
/// The document's base URL is, as the HTML Standard says, the first `<base href>` of the
/// document (an HTML `base` element, outside `<template>`), resolved against the page URL, and it applies
/// to every link, also to those before it (as `a.href` reports them in browsers). While
/// streaming, the extractor therefore holds links back until it knows the base: once a
/// `<base href>` has been seen, [`drain_ready`](Self::drain_ready) hands out every link as soon
/// as it is found; without one, the links come out of [`finish`](Self::finish), resolved against
/// the page URL. (Browsers fetch an `<img>` or `<script>` before a later `<base>` against the page
/// URL; such pages are rare and their links are reported as the document resolves them.)
///
/// ```
/// use tagstream::extract::{LinkExtractor, Url};
/// use tagstream::Tokenizer;
///
/// let page = Url::parse("https://example.com/a/b.html").unwrap();
/// let mut extractor = LinkExtractor::new(Some(page));
/// let mut tokenizer = Tokenizer::default();
/// for chunk in [&b"<a href=../x>x</a><ba"[..], b"se href=/docs/><img src=i.png>"] {
///     for token in tokenizer.feed(chunk) {
///         extractor.push(&token);
///     }
/// }
/// tokenizer.finish().for_each(|token| extractor.push(&token));
/// let resolved: Vec<String> = extractor
///     .finish()
///     .iter()
///     .map(|link| link.resolved.as_ref().unwrap().to_string())
///     .collect();
/// assert_eq!(resolved, [
///     "https://example.com/x",              // `..` from /docs/
///     "https://example.com/docs/",          // the base itself, against the page URL
///     "https://example.com/docs/i.png",
/// ]);
/// ```
#[derive(Debug, Default)]
pub struct LinkExtractor {
    page: Option<Base>,
    /// The document base URL, once the first `<base href>` has decided it.
    base: Option<Option<Base>>,
    scope: Scope,
    links: Vec<Link>,
    /// `links[..resolved]` are resolved.
    resolved: usize,
    /// How many links the last [`push`](Self::push) found (at the end of `links`).
    last_found: usize,
    query_encoding: QueryEncoding,
    /// What [`absolutized`](Self::absolutized) gave last.
    new_values: NewValues,
}

impl LinkExtractor {
    /// An extractor for a page at `page` (`None`: only absolute URLs, or those under an absolute
    /// `<base href>`, resolve).
    pub fn new(page: Option<Url>) -> LinkExtractor {
        LinkExtractor {
            page: page.map(Base::new),
            ..LinkExtractor::default()
        }
    }

    /// The document's encoding, in which the queries of the links resolved from now on are
    /// percent-encoded (as the HTML Standard parses URLs: `?q=é` in a windows-1252 page is
    /// `?q=%E9`); their paths stay UTF-8, as do the queries of non-special schemes. Without it,
    /// UTF-8. Set it before the first token (a transcoder knows it once it has sniffed).
    ///
    /// ```
    /// use tagstream::encoding::Encoding;
    /// use tagstream::extract::{LinkExtractor, Url};
    /// use tagstream::Tokenizer;
    ///
    /// let mut extractor = LinkExtractor::new(Url::parse("https://example.com/").ok());
    /// extractor.set_encoding(Encoding::for_label(b"windows-1252").unwrap());
    /// Tokenizer::default().tokenize("<a href='/é?q=é'>".as_bytes()).for_each(|t| extractor.push(&t));
    /// let link = &extractor.finish()[0];
    /// assert_eq!(link.resolved.as_ref().unwrap().as_str(), "https://example.com/%C3%A9?q=%E9");
    /// ```
    #[cfg(feature = "encoding")]
    pub fn set_encoding(&mut self, encoding: &'static encoding_rs::Encoding) {
        self.query_encoding = QueryEncoding(Some(encoding).filter(|e| *e != encoding_rs::UTF_8));
    }

    /// Take the next token of the document (every token, in order: tags outside links matter
    /// for `<template>` and SVG).
    pub fn push(&mut self, token: &Token<'_>) {
        self.scope.update(token);
        self.last_found = 0;
        let Token::StartTag(tag) = token else {
            return;
        };
        let in_template = self.scope.in_template();
        let namespace = self.scope.namespace();
        let found_from = self.links.len();
        element_links(tag, namespace, |found| {
            let raw = found.raw_link();
            self.links.push(Link {
                element: raw.element,
                attribute: raw.attribute,
                url: raw.url.to_owned(),
                resolved: None,
                span: raw.span,
                in_template,
            });
        });
        self.last_found = self.links.len() - found_from;
        let may_set_base = self.base.is_none() && !in_template && namespace == Namespace::Html;
        if may_set_base
            && self
                .links
                .get(found_from)
                .is_some_and(|l| l.element == "base")
        {
            self.base = Some(frozen_base_url(
                &self.links[found_from].url,
                self.page.as_ref(),
                self.query_encoding,
            ));
        }
        if let Some(base) = &self.base {
            resolve_all(
                &mut self.links[self.resolved..],
                base.as_ref().map(Base::url),
                self.page.as_ref().map(Base::url),
                self.query_encoding,
            );
            self.resolved = self.links.len();
        }
    }

    /// What [`Rewrite::absolutize_links`](crate::write::Rewrite::absolutize_links) writes: take
    /// `token` as [`push`](Self::push) does, but keep no link; for a start tag, the new value of
    /// each of its attributes whose URLs resolve to something else than they are written (each
    /// URL replaced, the rest of the value as it is), resolved as
    /// [`resolve_so_far`](Self::resolve_so_far) does, a `<base href>` against the page URL.
    /// Nothing is allocated once the buffers have grown.
    pub(crate) fn absolutized(&mut self, token: &Token<'_>) -> &NewValues {
        self.scope.update(token);
        self.last_found = 0;
        self.new_values.clear();
        let Token::StartTag(tag) = token else {
            return &self.new_values;
        };
        let namespace = self.scope.namespace();
        let may_set_base = !self.scope.in_template() && namespace == Namespace::Html;
        let LinkExtractor {
            page,
            base,
            query_encoding,
            new_values,
            ..
        } = self;
        let mut current = None;
        element_links(tag, namespace, |found| {
            let against = if found.element == "base" {
                if may_set_base && base.is_none() {
                    *base = Some(frozen_base_url(found.url, page.as_ref(), *query_encoding));
                }
                page.as_ref()
            } else {
                base.as_ref().map_or(page.as_ref(), Option::as_ref)
            };
            new_values.replace(&mut current, &found, |url, out| {
                resolve_into(url, against, *query_encoding, out)
            });
        });
        new_values.finish(current);
        &self.new_values
    }

    /// The links whose resolution is final, taken out: all found so far once a `<base href>` has
    /// been seen, none before.
    pub fn drain_ready(&mut self) -> Drain<'_, Link> {
        let ready = self.resolved;
        self.resolved = 0;
        self.last_found = self.last_found.min(self.links.len() - ready);
        self.links.drain(..ready)
    }

    /// The links the last [`push`](Self::push) found, until [`drain_ready`](Self::drain_ready)
    /// takes them: for a caller that needs something of each link while its token is at hand
    /// (such as its span in the bytes before decoding), before the link comes out resolved.
    ///
    /// ```
    /// use tagstream::extract::LinkExtractor;
    /// use tagstream::Tokenizer;
    ///
    /// let mut extractor = LinkExtractor::new(None);
    /// let mut found = Vec::new();
    /// for token in Tokenizer::default().tokenize(b"<svg><a href=x /><script src=y /></svg>") {
    ///     extractor.push(&token);
    ///     found.extend(extractor.just_found().iter().map(|l| (l.element, l.attribute)));
    /// }
    /// assert_eq!(found, [("a", "href")]); // an SVG script's URL is its href, not src
    /// ```
    pub fn just_found(&self) -> &[Link] {
        &self.links[self.links.len() - self.last_found..]
    }

    /// `url` resolved against the base URL as far as the document has shown it: its first
    /// `<base href>` once seen, else the page URL. What a streaming rewriter that absolutizes
    /// links writes (it cannot wait for a `<base>` further on).
    ///
    /// ```
    /// use tagstream::extract::{LinkExtractor, Url};
    /// use tagstream::Tokenizer;
    ///
    /// let mut extractor = LinkExtractor::new(Url::parse("https://example.com/a/").ok());
    /// let mut seen = Vec::new();
    /// for token in Tokenizer::default().tokenize(b"<a href=x><base href=/b/><a href=y>") {
    ///     extractor.push(&token);
    ///     for link in extractor.just_found() {
    ///         seen.push(extractor.resolve_so_far(&link.url).unwrap().to_string());
    ///     }
    ///     extractor.forget_found();
    /// }
    /// assert_eq!(seen, ["https://example.com/a/x", "https://example.com/b/", "https://example.com/b/y"]);
    /// ```
    pub fn resolve_so_far(&self, url: &str) -> Option<Url> {
        let base = match &self.base {
            Some(base) => base.as_ref(),
            None => self.page.as_ref(),
        };
        resolve(url, base.map(Base::url), self.query_encoding)
    }

    /// Let go of the links found so far (what [`drain_ready`](Self::drain_ready) and
    /// [`finish`](Self::finish) would hand out), keeping what decides the next ones (the base URL,
    /// `<template>` and SVG scope): for a caller that takes each link from
    /// [`just_found`](Self::just_found) as it comes, so that memory stays flat on a long stream.
    pub fn forget_found(&mut self) {
        self.links.clear();
        self.resolved = 0;
        self.last_found = 0;
    }

    /// The end of the document: the links not drained yet, all resolved (against the page URL
    /// when the document had no `<base href>`).
    pub fn finish(mut self) -> Vec<Link> {
        let base = self.base.take().unwrap_or_else(|| self.page.clone());
        resolve_all(
            &mut self.links[self.resolved..],
            base.as_ref().map(Base::url),
            self.page.as_ref().map(Base::url),
            self.query_encoding,
        );
        self.links
    }
}

/// The base URL a `<base href>` gives: the href resolved against the page URL, or the page URL
/// when that fails or gives a `data:` or `javascript:` URL.
fn frozen_base_url(href: &str, page: Option<&Base>, query_encoding: QueryEncoding) -> Option<Base> {
    match resolve(href, page.map(Base::url), query_encoding) {
        Some(url) if !matches!(url.scheme(), "data" | "javascript") => Some(Base::new(url)),
        _ => page.cloned(),
    }
}

/// The new values of a start tag's attributes, one after another in one buffer, each with the
/// attribute's name (see [`LinkExtractor::absolutized`]).
#[derive(Debug, Default)]
pub(crate) struct NewValues {
    text: String,
    values: Vec<(&'static str, Range<usize>)>,
}

/// The attribute [`NewValues`] is writing.
struct Current<'a> {
    name: &'static str,
    /// The value: the URLs found in it are slices of it.
    value: &'a str,
    /// Where its new value starts in [`NewValues::text`].
    start: usize,
    /// How much of `value` is written (once `changed`) or known to stay as it is.
    done: usize,
    /// Whether a URL in it resolved to something else.
    changed: bool,
}

impl NewValues {
    fn clear(&mut self) {
        self.text.clear();
        self.values.clear();
    }

    /// Each attribute's name and new value, in the order of the tag.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values
            .iter()
            .map(|(name, range)| (*name, &self.text[range.clone()]))
    }

    /// Whether no attribute changes.
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Write the value of `found`'s attribute (`current`, or a new one) up to its URL, then the
    /// URL as `resolve` writes it (or as it is, when `resolve` writes nothing and says so). Until
    /// a URL of the attribute changes, nothing is written: most attributes keep their value.
    fn replace<'a>(
        &mut self,
        current: &mut Option<Current<'a>>,
        found: &Found<'a>,
        resolve: impl FnOnce(&str, &mut String) -> Resolution,
    ) {
        let value = found.value;
        let same = |c: &Current<'a>| {
            c.name == found.name && std::ptr::eq(c.value.as_ptr(), value.as_ptr())
        };
        if !current.as_ref().is_some_and(same) {
            self.finish(current.take());
        }
        let current = current.get_or_insert(Current {
            name: found.name,
            value,
            start: self.text.len(),
            done: 0,
            changed: false,
        });
        let url = found.url;
        let at = url.as_ptr().addr().wrapping_sub(value.as_ptr().addr());
        if at < current.done || at > value.len() || url.len() > value.len() - at {
            // Not a slice of the value after what is written: nothing the finders give.
            return;
        }
        if current.changed {
            self.text.push_str(&value[current.done..at]);
        }
        let mark = self.text.len();
        let changed = match resolve(url, &mut self.text) {
            Resolution::Appended => self.text[mark..] != *url,
            Resolution::AsWritten | Resolution::Unresolved => false,
        };
        if !changed {
            self.text.truncate(mark);
            if current.changed {
                self.text.push_str(url);
            }
        } else if !current.changed {
            // The first change: the value before it goes first.
            self.text.insert_str(mark, &value[..at]);
            current.changed = true;
        }
        current.done = at + url.len();
    }

    /// Write the rest of `current`'s value, and keep its new value if a URL in it changed.
    fn finish(&mut self, current: Option<Current<'_>>) {
        let Some(current) = current else {
            return;
        };
        if !current.changed {
            // Nothing was written for it.
            return;
        }
        self.text.push_str(&current.value[current.done..]);
        self.values
            .push((current.name, current.start..self.text.len()));
    }
}

/// Resolve `links` against the document base URL (`<base>` itself against the page URL).
fn resolve_all(
    links: &mut [Link],
    base: Option<&Url>,
    page: Option<&Url>,
    query_encoding: QueryEncoding,
) {
    for link in links {
        let against = if link.element == "base" { page } else { base };
        link.resolved = resolve(&link.url, against, query_encoding);
    }
}

/// Every link of a whole document, resolved against `page` and the document's `<base href>`.
///
/// ```
/// use tagstream::extract::{links, Url};
///
/// let html = br#"<script>var s = "<a href=/not-a-link>";</script>
///                <!-- <a href=/nor-this> --><a href="/?a=1&amp;b=2">ok</a>"#;
/// let page = Url::parse("https://example.com/").unwrap();
/// let found = links(html, Some(&page));
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].url, "/?a=1&b=2");
/// assert_eq!(found[0].resolved.as_ref().unwrap().as_str(), "https://example.com/?a=1&b=2");
/// ```
pub fn links(html: &[u8], page: Option<&Url>) -> Vec<Link> {
    let mut extractor = LinkExtractor::new(page.cloned());
    let mut tokenizer = Tokenizer::default();
    for token in tokenizer.tokenize(html) {
        extractor.push(&token);
    }
    extractor.finish()
}
