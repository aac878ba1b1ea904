//! lol_html absolutizing links as `Rewrite::absolutize_links` does, with element handlers: the
//! same elements and attributes by namespace (the tables of src/extract/links.rs, mirrored here
//! as lol_html selectors), the same base URL (the first HTML `<base href>`, resolved against the
//! page URL, unless that fails or gives `data:` or `javascript:`; a `<base href>` itself against
//! the page URL), each URL inside its value (a `srcset` candidate, the URL of a refresh
//! `content`) replaced by the url crate's resolution and the rest of the value kept.
//!
//! lol_html hands attribute values out as written, character references and all (its issue
//! #131), and escapes only `"` in a value it writes: the handler decodes the references of a
//! value that has any (with tagstream's tokenizer, the one decoder at hand that follows the
//! HTML Standard's rules for attribute values) and escapes `&` in what it writes, so that both
//! outputs read back as the same tokens (`--check-absolutize`). Not mirrored: `<template>`
//! (a `<base>` inside one does not set the base URL for tagstream); the check shows whether a
//! page needs it.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HandlerResult, HtmlRewriter, Selector, Settings};
use tagstream::extract::{Url, parse_refresh, parse_srcset};
use tagstream::{Token, Tokenizer};

const HTML_NS: &str = "http://www.w3.org/1999/xhtml";
const SVG_NS: &str = "http://www.w3.org/2000/svg";
const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";

/// Where the URL is in an attribute value.
#[derive(Clone, Copy)]
enum Kind {
    /// The whole value, ASCII whitespace around it trimmed.
    Whole,
    /// Each image candidate's URL.
    Srcset,
    /// The URL of a `<meta http-equiv=refresh>` `content`.
    Refresh,
}

/// The HTML elements with URL attributes (links.rs `HTML_LINKS`).
const HTML: &[(&str, &[(&str, Kind)])] = &[
    ("a", &[("href", Kind::Whole)]),
    ("area", &[("href", Kind::Whole)]),
    ("audio", &[("src", Kind::Whole)]),
    ("base", &[("href", Kind::Whole)]),
    ("embed", &[("src", Kind::Whole)]),
    ("form", &[("action", Kind::Whole)]),
    ("iframe", &[("src", Kind::Whole)]),
    ("img", &[("src", Kind::Whole), ("srcset", Kind::Srcset)]),
    ("link", &[("href", Kind::Whole)]),
    ("meta", &[("content", Kind::Refresh)]),
    ("object", &[("data", Kind::Whole)]),
    ("script", &[("src", Kind::Whole)]),
    ("source", &[("src", Kind::Whole), ("srcset", Kind::Srcset)]),
    ("track", &[("src", Kind::Whole)]),
    ("video", &[("src", Kind::Whole)]),
];

/// The SVG elements whose `href`, else `xlink:href`, is a URL (links.rs `SVG_LINKS`), lowercase
/// as lol_html names them.
const SVG: &[&str] = &["a", "feimage", "image", "script", "use"];

/// The MathML elements whose `href` is a URL (links.rs `MATHML_LINKS`).
const MATHML: &[&str] = &[
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

/// The selector of every element that may hold a URL: `element[attribute]` for each pair of the
/// tables (lol_html matches names in any namespace; the handler checks it).
fn selector() -> Selector {
    let mut parts: Vec<String> = HTML
        .iter()
        .flat_map(|(element, attributes)| {
            attributes
                .iter()
                .map(move |(attribute, _)| format!("{element}[{attribute}]"))
        })
        .collect();
    for element in SVG {
        parts.push(format!("{element}[href]"));
        parts.push(format!("{element}[xlink\\:href]"));
    }
    parts.extend(MATHML.iter().map(|element| format!("{element}[href]")));
    parts.join(", ").parse().expect("a valid selector")
}

/// The peer, holding its selector (parsed once) and the decoder it reuses between pages.
pub struct LolAbsolutizer {
    selector: Selector,
    decoder: RefCell<Tokenizer>,
}

impl LolAbsolutizer {
    pub fn new() -> LolAbsolutizer {
        LolAbsolutizer {
            selector: selector(),
            decoder: RefCell::new(Tokenizer::default()),
        }
    }

    /// Rewrite `page` with lol_html, its URLs resolved against `page_url` and its `<base href>`;
    /// the output goes to `sink`. `false` when lol_html bailed out.
    pub fn rewrite(&self, page: &[u8], page_url: &Url, sink: impl FnMut(&[u8])) -> bool {
        let document = Document {
            page: page_url,
            base: RefCell::new(page_url.clone()),
            seen_base: Cell::new(false),
            decoder: &self.decoder,
        };
        let handlers = ElementContentHandlers::default()
            .element(|el: &mut Element<'_, '_>| document.absolutize(el));
        let settings = Settings::new()
            .with_strict(false)
            .append_element_content_handler((Cow::Borrowed(&self.selector), handlers));
        let mut rewriter = HtmlRewriter::new(settings, sink);
        rewriter.write(page).is_ok() && rewriter.end().is_ok()
    }
}

/// What the handler follows in one document.
struct Document<'a> {
    page: &'a Url,
    /// The base URL so far: the page URL until the first `<base href>`.
    base: RefCell<Url>,
    seen_base: Cell<bool>,
    decoder: &'a RefCell<Tokenizer>,
}

impl Document<'_> {
    /// Resolve the URLs of `el`, if its name and namespace say it has any.
    fn absolutize(&self, el: &mut Element<'_, '_>) -> HandlerResult {
        let name = el.tag_name();
        match el.namespace_uri() {
            HTML_NS => {
                let Some((_, attributes)) = HTML.iter().find(|(e, _)| *e == name) else {
                    return Ok(());
                };
                if name == "meta" && !is_refresh(el) {
                    return Ok(());
                }
                if name == "base" {
                    return self.base_href(el);
                }
                let base = self.base.borrow();
                for &(attribute, kind) in *attributes {
                    self.rewrite_attribute(el, attribute, kind, &base)?;
                }
                Ok(())
            }
            SVG_NS if SVG.contains(&name.as_str()) => {
                let attribute = if el.has_attribute("href") {
                    "href"
                } else {
                    "xlink:href"
                };
                self.rewrite_attribute(el, attribute, Kind::Whole, &self.base.borrow())
            }
            MATHML_NS if MATHML.contains(&name.as_str()) => {
                self.rewrite_attribute(el, "href", Kind::Whole, &self.base.borrow())
            }
            _ => Ok(()),
        }
    }

    /// A `<base href>`: resolved against the page URL; the first one sets the base URL.
    fn base_href(&self, el: &mut Element<'_, '_>) -> HandlerResult {
        if !self.seen_base.replace(true) {
            let href = el.get_attribute("href").unwrap_or_default();
            let href = self.decoded(&href);
            *self.base.borrow_mut() = match self.page.join(trim_html_space(&href)) {
                Ok(url) if !matches!(url.scheme(), "data" | "javascript") => url,
                _ => self.page.clone(),
            };
        }
        self.rewrite_attribute(el, "href", Kind::Whole, self.page)
    }

    /// Replace each URL of attribute `name` (where `kind` says) by its resolution against
    /// `base`, if any changes.
    fn rewrite_attribute(
        &self,
        el: &mut Element<'_, '_>,
        name: &str,
        kind: Kind,
        base: &Url,
    ) -> HandlerResult {
        let Some(raw) = el.get_attribute(name) else {
            return Ok(());
        };
        let value = self.decoded(&raw);
        let urls: Vec<&str> = match kind {
            Kind::Whole => vec![trim_html_space(&value)],
            Kind::Srcset => parse_srcset(&value).iter().map(|c| c.url).collect(),
            Kind::Refresh => parse_refresh(&value)
                .and_then(|r| r.url)
                .into_iter()
                .collect(),
        };
        let mut new = String::with_capacity(value.len() + 32);
        let mut done = 0;
        let mut changed = false;
        for url in urls {
            let at = url.as_ptr().addr() - value.as_ptr().addr();
            new.push_str(&value[done..at]);
            match base.join(url) {
                Ok(resolved) => {
                    changed |= resolved.as_str() != url;
                    new.push_str(resolved.as_str());
                }
                Err(_) => new.push_str(url),
            }
            done = at + url.len();
        }
        if !changed {
            return Ok(());
        }
        new.push_str(&value[done..]);
        let written = if new.contains('&') {
            Cow::Owned(new.replace('&', "&amp;"))
        } else {
            Cow::Borrowed(new.as_str())
        };
        el.set_attribute(name, &written)?;
        Ok(())
    }

    /// `raw`, an attribute value as written, with its character references decoded (and CR,
    /// NUL as the tokenizer reads them): by reading it back in a one-attribute tag.
    fn decoded<'v>(&self, raw: &'v str) -> Cow<'v, str> {
        if !raw.contains(['&', '\r', '\0']) {
            return Cow::Borrowed(raw);
        }
        let tag = format!("<a v=\"{}\">", raw.replace('"', "&quot;"));
        let mut decoder = self.decoder.borrow_mut();
        let value = match decoder.tokenize(tag.as_bytes()).next() {
            Some(Token::StartTag(a)) => a.attribute("v").map(|v| v.value().to_owned()),
            _ => None,
        };
        Cow::Owned(value.unwrap_or_else(|| raw.to_owned()))
    }
}

/// Whether a `<meta>` has `http-equiv=refresh` (ASCII case-insensitive).
fn is_refresh(el: &Element<'_, '_>) -> bool {
    el.get_attribute("http-equiv")
        .is_some_and(|v| v.eq_ignore_ascii_case("refresh"))
}

/// `s` without ASCII whitespace around it.
fn trim_html_space(s: &str) -> &str {
    s.trim_matches(['\t', '\n', '\x0C', '\r', ' '])
}
