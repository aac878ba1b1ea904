//! Crawler helpers on the pull iterator: the links a page references and its visible text
//! (feature `extract`, off by default: it adds the `url` crate).
//!
//! Both extractors are structs you push every token into, in order, so they work the same on a
//! whole document ([`Tokenizer::tokenize`](crate::Tokenizer::tokenize)) and on a stream fed chunk
//! by chunk ([`Tokenizer::feed`](crate::Tokenizer::feed)): they keep only what they report, never
//! the document. They rely on correct tokenization rather than on guesses: with the tokenizer's
//! tree-builder simulator (on by default), the contents of `<script>`, `<style>`, comments and the
//! other raw-text elements never look like tags, so a `"<a href=…>"` inside a script string is not
//! a link, and `<![CDATA[…]]>` inside SVG is text.
//!
//! - [`links()`] / [`LinkExtractor`]: every URL, resolved with the [`url`] crate against the page
//!   URL and the document's `<base href>`; [`tag_links`] gives the URLs of one start tag without
//!   copying; [`parse_srcset`] and [`parse_refresh`] are the HTML Standard's micro-syntaxes.
//! - [`text()`] / [`TextExtractor`]: visible text, title and meta description.
//! - [`page`] (with the `encoding` feature too): either of them for a page in any encoding, sniffed
//!   as a browser does and read again when a late `<meta>` changes it; what the CLI's `links` and
//!   `text` and the Python bindings run per document.
//!
//! # Which attributes are links
//!
//! That depends on the element's namespace, as the tree builder decides it: the extractors
//! follow the tokens with a tree-builder simulator of their own, so an element inside `<svg>` is
//! an SVG element until a breakout tag (`<p>`, `<img>`, …) or an integration point
//! (`<foreignObject>`, `<desc>`, SVG `<title>`; MathML `<mi>`, `<annotation-xml
//! encoding=text/html>`, …) brings HTML back.
//!
//! - HTML elements: `a`, `area`, `base`, `link` `href`; `audio`, `embed`, `iframe`, `script`,
//!   `track`, `video` `src`; `img`, `source` `src` and `srcset`; `form` `action`; `object`
//!   `data`; `meta http-equiv=refresh` `content`. Only these: an SVG `<script src>`,
//!   `<iframe>` or `<base>` loads nothing, and an SVG `<base>` does not change the document's
//!   base URL.
//! - SVG elements that reference a resource by URL, in SVG 2's `href` or, without it, the older
//!   `xlink:href` (`href` wins when both are given): `a` (a hyperlink), `image` and `feImage`
//!   (images), `script` (a script), `use` (an SVG document or element it copies). The
//!   attribute is reported as written, `"href"` or `"xlink:href"`; the element as SVG spells it
//!   (`"feImage"`). The other SVG `href`s (gradients, patterns, `textPath`, `mpath`, filters,
//!   animations) point at elements of the same document and are left out.
//! - MathML elements: `href`, a hyperlink, on MathML Core's elements and its `a` (Firefox also
//!   follows `href` on the others, as MathML 3 defined it).
//!
//! A link's kind is told by its element and attribute: an HTML `<script>` has `src`, an SVG one
//! `href`; `image`, `feImage`, `use` and the MathML names are their namespace's only.
//!
//! ```
//! use tagstream::extract::{self, TextOptions, Url};
//!
//! let html = br#"<title>Menu</title><base href="https://example.com/menu/">
//!                <p>Fish &amp; chips: <a href="../order?dish=1&amp;size=2">order</a></p>"#;
//! let links = extract::links(html, None);
//! assert_eq!(links[1].resolved, Url::parse("https://example.com/order?dish=1&size=2").ok());
//! let page = extract::text(html, TextOptions::new());
//! assert_eq!((page.title.as_deref(), page.text.as_str()), (Some("Menu"), "Fish & chips: order"));
//! ```

mod links;
#[cfg(feature = "encoding")]
pub mod page;
mod resolve;
mod scope;
mod syntax;
mod text;

pub use links::{Link, LinkExtractor, RawLink, links, tag_links};
pub use syntax::{ImageCandidate, Refresh, parse_refresh, parse_srcset};
pub use text::{PageText, TextExtractor, TextOptions, text};
/// The URL type links resolve to (the [`url`](https://docs.rs/url) crate's), re-exported.
pub use url::Url;
