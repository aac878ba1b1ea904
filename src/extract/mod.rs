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
mod scope;
mod syntax;
mod text;

pub use links::{Link, LinkExtractor, RawLink, links, tag_links};
pub use syntax::{ImageCandidate, Refresh, parse_refresh, parse_srcset};
pub use text::{PageText, TextExtractor, TextOptions, text};
/// The URL type links resolve to (the [`url`](https://docs.rs/url) crate's), re-exported.
pub use url::Url;
