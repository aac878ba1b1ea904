//! Where a token sits, as far as the extractors care: inside `<template>` contents, inside SVG or
//! MathML. The tokenizer's simulator already chose the right text states; this only counts the
//! start and end tags of those subtrees (it does not model the tree builder's implied closes and
//! breakouts, which conforming documents do not rely on).

use crate::Token;

/// Depths of the open `<template>` (HTML) and `<svg>`/`<math>` elements.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scope {
    template: u32,
    foreign: u32,
}

impl Scope {
    /// Account for `token`; call it for every token, before looking at the token.
    pub(crate) fn update(&mut self, token: &Token<'_>) {
        match token {
            Token::StartTag(tag) => match tag.name() {
                "svg" | "math" if !tag.self_closing() => self.foreign += 1,
                "template" if self.foreign == 0 => self.template += 1,
                _ => {}
            },
            Token::EndTag(tag) => match tag.name() {
                "svg" | "math" => self.foreign = self.foreign.saturating_sub(1),
                "template" if self.foreign == 0 => self.template = self.template.saturating_sub(1),
                _ => {}
            },
            _ => {}
        }
    }

    /// Inside the contents of an HTML `<template>` (inert: not rendered, not fetched).
    pub(crate) fn in_template(&self) -> bool {
        self.template > 0
    }

    /// Inside an SVG or MathML subtree (`<title>` and `<base>` there are not the HTML ones).
    pub(crate) fn in_foreign(&self) -> bool {
        self.foreign > 0
    }
}
