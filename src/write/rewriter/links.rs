//! [`Rewrite::absolutize_links`]: the URLs `tagstream links` knows, written absolute (feature
//! `extract`).

use std::io::Write;

use super::{Markup, Rewrite};
use crate::extract::LinkExtractor;
use crate::write::WriteError;

impl<'t, W: Write, T: Markup<'t>> Rewrite<'_, 't, W, T> {
    /// Give the token just handed out to `links` (every token, in order: it follows `<base>`,
    /// `<template>` and SVG) and, if it is a start tag holding URLs, write them resolved against
    /// the page URL and the document's `<base href>` as far as the document has shown it
    /// ([`LinkExtractor::resolve_so_far`]; a `<base href>` itself against the page URL, as the
    /// document reads it): each URL inside its attribute value (a `srcset` candidate, the URL in
    /// a refresh `content`) replaced, everything else of the tag as written. URLs that do not
    /// resolve stay as they are. `links` keeps no link (memory stays flat on a long stream) and
    /// allocates nothing once its buffers have grown; URLs already in the form the URL parser
    /// writes, and plain relative ones, are written without parsing them.
    ///
    /// ```
    /// use tagstream::extract::{LinkExtractor, Url};
    /// use tagstream::write::Rewriter;
    /// use tagstream::{Options, Tokenizer};
    ///
    /// let mut links = LinkExtractor::new(Url::parse("https://example.com/a/").ok());
    /// let mut tokenizer = Tokenizer::new(Options::new().lossless(true));
    /// let mut out = Vec::new();
    /// let mut rewriter = Rewriter::new(&mut out);
    /// let mut rewrite = rewriter.rewrite(tokenizer.tokenize(b"<img src=x.png alt=x.png title='t'>"));
    /// while rewrite.next()?.is_some() {
    ///     rewrite.absolutize_links(&mut links)?;
    /// }
    /// drop(rewrite);
    /// rewriter.finish()?;
    /// assert_eq!(out, b"<img src=https://example.com/a/x.png alt=x.png title='t'>");
    /// # Ok::<(), tagstream::write::WriteError>(())
    /// ```
    pub fn absolutize_links(&mut self, links: &mut LinkExtractor) -> Result<(), WriteError> {
        let Some(token) = self.current.filter(|_| !self.decided) else {
            return Ok(());
        };
        let new_values = links.absolutized(&token);
        if new_values.is_empty() {
            return Ok(());
        }
        let mut edit = self.edit()?;
        for (name, value) in new_values.iter() {
            edit.set_attribute(name, value);
        }
        edit.apply()
    }
}
