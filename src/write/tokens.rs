//! [`Serializer::write_token`]: the tokenizer's [`Token`]s, decoded, written back as HTML (the
//! HTML tokenizer's data text and attributes straight from the input where that is the same).

use std::io::Write;

use super::error::WriteError;
use super::serializer::{Doctype, Namespace, Origin, Serializer};
use crate::{StartTag, Text, Token};

impl<W: Write> Serializer<W> {
    /// Write a token from a [`Tokenizer`](crate::Tokenizer) by its decoded parts (names, values,
    /// text): text in the state its [`kind`](crate::Text::kind) says (a CDATA section for
    /// [`TextKind::Cdata`](crate::TextKind::Cdata)), a start tag self-closing as it was. A refused
    /// token's [`Location`](super::Location) is its offset in the input.
    ///
    /// Tokens from a tokenizer never put markup inside raw text, so where the serializer's
    /// tracking says a tag lands in raw text, the element was foreign content (`<svg><style>`)
    /// and the tracking is corrected instead of the tag refused.
    ///
    /// ```
    /// use tagstream::Tokenizer;
    /// use tagstream::write::{Serializer, SerializerOptions};
    ///
    /// let mut out = Vec::new();
    /// let mut serializer = Serializer::new(&mut out, SerializerOptions::new());
    /// let mut tokenizer = Tokenizer::default();
    /// for token in tokenizer.tokenize(b"<P CLASS='x'>Fish &amp; chips<br/><script>a<b</script>") {
    ///     serializer.write_token(&token).unwrap();
    /// }
    /// serializer.finish().unwrap();
    /// assert_eq!(out, b"<p class=x>Fish &amp; chips<br /><script>a<b</script>");
    /// ```
    pub fn write_token(&mut self, token: &Token<'_>) -> Result<(), WriteError> {
        self.locate(Some(token.span().start));
        self.origin = if token.source().is_xml() {
            Origin::XmlToken
        } else {
            Origin::HtmlToken
        };
        let result = self.token(token);
        self.origin = Origin::Caller;
        result
    }

    fn token(&mut self, token: &Token<'_>) -> Result<(), WriteError> {
        match token {
            Token::StartTag(tag) => self.start_tag_token(tag),
            Token::EndTag(tag) => self.end(tag.name()),
            Token::Text(text) => self.text_token(text),
            Token::Comment(comment) => self.comment_token(comment.data()),
            Token::Doctype(d) => self.doctype_token(&Doctype {
                name: d.name(),
                public_id: d.public_id(),
                system_id: d.system_id(),
                force_quirks: d.force_quirks(),
            }),
            Token::ProcessingInstruction(pi) => self.pi(pi.target(), pi.data()),
            // Bytes that mean nothing to the tokenizer (`Options::lossless`): not written.
            Token::Raw(_) => Ok(()),
        }
    }

    /// Text: HTML data text in data goes on as the input has it, decoded by the writer together
    /// with escaping; other text decoded first.
    fn text_token(&mut self, text: &Text<'_>) -> Result<(), WriteError> {
        if self.origin == Origin::HtmlToken && self.writes_data_as_is(text.kind()) {
            // Text decodes to nothing only when it is nothing.
            if text.raw().is_empty() {
                return Ok(());
            }
            return self.emit_data(*text);
        }
        self.text_of_kind(text.text(), text.kind())
    }

    /// A start tag: from the HTML tokenizer and written as it is, straight from the token; else
    /// its attributes gathered in the reused allocation. Out of line: the other tokens' path stays
    /// short.
    #[inline(never)]
    fn start_tag_token(&mut self, tag: &StartTag<'_>) -> Result<(), WriteError> {
        let name = tag.name();
        if self.origin == Origin::HtmlToken && !self.rewrites_attributes(name) {
            debug_assert!({
                let pairs: Vec<_> = tag.attributes().map(|a| (a.name(), a.value())).collect();
                self.check_names(name, &pairs).is_ok()
            });
            return self.start_from_token(name, tag);
        }
        let mut attributes = recycle(std::mem::take(&mut self.spare_attributes));
        attributes.extend(tag.attributes().map(|a| (a.name(), a.value())));
        let result = self.start(Namespace::Html, name, &attributes, tag.self_closing());
        self.spare_attributes = recycle(attributes);
        result
    }
}

/// `pairs` emptied, its allocation handed on for pairs of another lifetime: the standard library
/// collects a mapped `vec::IntoIter` into the vector it came from when the items have the same
/// layout, so a tag's attribute list costs no allocation once the first tag has grown it.
fn recycle<'b>(mut pairs: Vec<(&str, &str)>) -> Vec<(&'b str, &'b str)> {
    pairs.clear();
    pairs.into_iter().map(|_| ("", "")).collect()
}
