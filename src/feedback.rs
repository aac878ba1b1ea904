//! The seam between the lexer and a tree stage: the interface the iterator calls between tokens.
//!
//! Some markup cannot be lexed alone: HTML's tree builder switches the tokenizer to RCDATA after
//! `<title>` and allows CDATA sections only in SVG and MathML. A stage that follows the tree
//! without building it (the tree-builder simulator for HTML; for XML5 the namespace and tree stage)
//! implements [`Feedback`]; [`Tokens`](crate::Tokens) asks it about each token before handing the
//! token out, lets it see the ones it wants, and gives it the lexer to switch (a switch after a
//! token may need the token's bytes: the token brings its source). The iterator itself
//! knows no tree rule: what a stage looks at and what it changes are the stage's.
//!
//! The methods that see a token take it by value and return it, so that a fast path builds the
//! token once, where it is handed out (a token built in a temporary and copied out was read back
//! in 16-byte pieces right after being written in 8-byte ones, a store-forwarding stall).

use std::marker::PhantomData;

use crate::span::{Kind, Span};
use crate::token::{EndTag, StartTag, Text, Token};

/// A tree stage between the lexer and the caller (see the module docs).
///
/// Every token asks [`Feedback::wants`] (or [`Feedback::wants_record`]) first: a few
/// instructions, inlined on every path. Only the tokens it wants go to the other methods.
pub(crate) trait Feedback {
    /// The lexer this stage switches.
    type Lexer;

    /// Whether a token of `kind` whose name (of a tag) or data is `part` (its bytes at stream
    /// offset `base` in `bytes`) needs a look.
    fn wants(&self, kind: Kind, part: Span, bytes: &[u8], base: usize) -> bool;

    /// [`Feedback::wants`] for a token built from the machine's records, which has not been
    /// through [`Feedback::lets_pass`].
    fn wants_record(&self, kind: Kind, part: Span, bytes: &[u8], base: usize) -> bool;

    /// Whether an end tag that [`Feedback::wants`] still needs no look after all; asked before
    /// the tag is built.
    fn lets_pass(&self, name: Span) -> bool;

    /// See a start tag that [`Feedback::wants`], switch the lexer if needed, and hand the tag
    /// back as the token to give out.
    fn start_tag<'t>(&mut self, tag: StartTag<'t>, lexer: &mut Self::Lexer) -> Option<Token<'t>>;

    /// [`Feedback::start_tag`] for an end tag.
    fn end_tag<'t>(&mut self, tag: EndTag<'t>, lexer: &mut Self::Lexer) -> Option<Token<'t>>;

    /// [`Feedback::start_tag`] for text.
    fn text<'t>(&mut self, text: Text<'t>, lexer: &mut Self::Lexer) -> Option<Token<'t>>;

    /// See any token that [`Feedback::wants`], already built (the way of the tokens made from the
    /// machine's records).
    fn token(&mut self, token: &Token<'_>, lexer: &mut Self::Lexer);

    /// Back to the start of a document, keeping allocations.
    fn reset(&mut self);
}

/// A stage that looks at no token: XML5's until its namespace and tree stage, SGML's (the note's
/// lexer has no tree feedback).
pub(crate) struct NoStage<L>(PhantomData<L>);

impl<L> Default for NoStage<L> {
    fn default() -> Self {
        NoStage(PhantomData)
    }
}

impl<L> Feedback for NoStage<L> {
    type Lexer = L;

    #[inline(always)]
    fn wants(&self, _: Kind, _: Span, _: &[u8], _: usize) -> bool {
        false
    }

    #[inline(always)]
    fn wants_record(&self, _: Kind, _: Span, _: &[u8], _: usize) -> bool {
        false
    }

    fn lets_pass(&self, _: Span) -> bool {
        true
    }

    fn start_tag<'t>(&mut self, tag: StartTag<'t>, _: &mut L) -> Option<Token<'t>> {
        Some(Token::StartTag(tag))
    }

    fn end_tag<'t>(&mut self, tag: EndTag<'t>, _: &mut L) -> Option<Token<'t>> {
        Some(Token::EndTag(tag))
    }

    fn text<'t>(&mut self, text: Text<'t>, _: &mut L) -> Option<Token<'t>> {
        Some(Token::Text(text))
    }

    fn token(&mut self, _: &Token<'_>, _: &mut L) {}

    fn reset(&mut self) {}
}
