//! Where a token sits, as far as the extractors care: the namespace of a start tag's element
//! (an `<a>` inside `<svg>` is an SVG element; a `<p>` there breaks out to HTML), whether text
//! is foreign content's, and whether it is inside `<template>` contents. A tree-builder
//! [`Simulator`] of its own follows the tokens, whatever the tokenizer's options: the same
//! rules, in one place, as the tokenizer's (integration points, breakout tags, self-closing
//! foreign elements, templates).

use crate::Token;
use crate::html::simulator::{Namespace, Simulator};

/// The tree-builder state the extractors read, after each token.
#[derive(Debug)]
pub(crate) struct Scope {
    simulator: Simulator,
    /// The namespace of the last start tag's element.
    namespace: Namespace,
}

impl Default for Scope {
    fn default() -> Scope {
        Scope {
            // The scripting flag changes text states only, which the tokens already show.
            simulator: Simulator::new(true, false),
            namespace: Namespace::Html,
        }
    }
}

impl Scope {
    /// Account for `token`; call it for every token, before looking at the token.
    pub(crate) fn update(&mut self, token: &Token<'_>) {
        self.namespace = self.simulator.observe(token).unwrap_or_default();
    }

    /// The namespace of the element of the start tag just seen (HTML after any other token).
    pub(crate) fn namespace(&self) -> Namespace {
        self.namespace
    }

    /// Whether text here is foreign content's (the current node is an SVG or MathML element,
    /// not an integration point): there U+0000 becomes U+FFFD instead of being dropped. Text
    /// opens and closes no element, so this holds for the text just seen as it did before it.
    pub(crate) fn in_foreign_text(&self) -> bool {
        self.simulator.text_in_foreign_content()
    }

    /// Inside the contents of an HTML `<template>` (inert: not rendered, not fetched).
    pub(crate) fn in_template(&self) -> bool {
        self.simulator.in_template()
    }
}
