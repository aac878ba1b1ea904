//! [`Rewrite::absolutize_links`]: the URLs `tagstream links` knows, written absolute (feature
//! `extract`).

use std::io::Write;

use super::{Markup, Rewrite};
use crate::Token;
use crate::extract::LinkExtractor;
use crate::write::WriteError;

impl<'t, W: Write, T: Markup<'t>> Rewrite<'_, 't, W, T> {
    /// Give the token just handed out to `links` (every token, in order: it follows `<base>`,
    /// `<template>` and SVG) and, if it is a start tag holding URLs, write them resolved against
    /// the page URL and the document's `<base href>` as far as the document has shown it
    /// ([`LinkExtractor::resolve_so_far`]): each URL inside its attribute value (a `srcset`
    /// candidate, the URL in a refresh `content`) replaced, everything else of the tag as
    /// written. URLs that do not resolve stay as they are. The links found are let go of
    /// ([`LinkExtractor::forget_found`]): memory stays flat on a long stream.
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
        links.push(&token);
        let result = match token {
            Token::StartTag(tag) if !links.just_found().is_empty() => {
                let mut edit = self.edit()?;
                let mut done: Vec<&str> = Vec::new();
                for attribute in tag.attributes() {
                    let name = attribute.name();
                    if done.contains(&name) {
                        continue;
                    }
                    done.push(name);
                    let value = attribute.value();
                    if let Some(new) = resolved_value(value, name, links) {
                        edit.set_attribute(name, &new);
                    }
                }
                edit.apply()
            }
            _ => Ok(()),
        };
        links.forget_found();
        result
    }
}

/// `value` of attribute `name` with each URL `links` just found in it resolved; `None` when
/// nothing changes.
fn resolved_value(value: &str, name: &str, links: &LinkExtractor) -> Option<String> {
    let mut new = String::with_capacity(value.len() + 32);
    let mut rest = value;
    for link in links.just_found().iter().filter(|l| l.attribute == name) {
        let (Some(resolved), Some(at)) = (links.resolve_so_far(&link.url), rest.find(&link.url))
        else {
            continue;
        };
        new.push_str(&rest[..at]);
        new.push_str(resolved.as_str());
        rest = &rest[at + link.url.len()..];
    }
    new.push_str(rest);
    (new != value).then_some(new)
}
