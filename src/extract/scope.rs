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

#[cfg(test)]
mod tests {
    use crate::Token;

    /// The namespace `Simulator::observe` gives each start tag of `html`, as `name:ns`, and
    /// whether each text is foreign content's, as `text:true` (or `text:false`).
    fn observed(html: &str) -> Vec<String> {
        let mut observer = crate::html::simulator::Simulator::new(true, false);
        let mut tokenizer = crate::Tokenizer::default();
        let mut seen = Vec::new();
        for token in tokenizer.tokenize(html.as_bytes()) {
            let foreign_text = observer.text_in_foreign_content();
            match (&token, observer.observe(&token)) {
                (Token::StartTag(tag), Some(ns)) => seen.push(format!("{}:{ns:?}", tag.name())),
                (Token::Text(_), _) => seen.push(format!("text:{foreign_text}")),
                _ => {}
            }
        }
        seen
    }

    #[test]
    fn observe_gives_the_namespace_the_tree_builder_inserts_in() {
        let cases: &[(&str, &[&str])] = &[
            // The common state (the fast path), then foreign content and its breakouts.
            (
                "<body><p>x<svg><a/><script>y</script><p>",
                &[
                    "body:Html",
                    "p:Html",
                    "text:false",
                    "svg:Svg",
                    "a:Svg",
                    "script:Svg",
                    "text:true",
                    "p:Html",
                ],
            ),
            // Integration points: HTML inside, the current node's namespace again after.
            (
                "<svg><foreignObject><b>x</b><svg><use/></svg></foreignObject><g>y",
                &[
                    "svg:Svg",
                    "foreignobject:Svg",
                    "b:Html",
                    "text:false",
                    "svg:Svg",
                    "use:Svg",
                    "g:Svg",
                    "text:true",
                ],
            ),
            (
                "<math><mi>x<mglyph/><b></b></mi><annotation-xml><svg/></annotation-xml>\
                 <annotation-xml encoding=TEXT/HTML><i>z",
                &[
                    "math:MathMl",
                    "mi:MathMl",
                    "text:false",
                    "mglyph:MathMl",
                    "b:Html",
                    "annotation-xml:MathMl",
                    "svg:Svg",
                    "annotation-xml:MathMl",
                    "i:Html",
                    "text:false",
                ],
            ),
            // `font` breaks out only with color, face or size.
            (
                "<svg><font/><font size=2>",
                &["svg:Svg", "font:Svg", "font:Html"],
            ),
        ];
        for (html, expected) in cases {
            assert_eq!(observed(html), *expected, "{html}");
        }
    }

    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;
    use crate::{Options, Tokenizer};

    /// Elements counted by (namespace, lowercase name).
    type Counts = BTreeMap<(&'static str, String), usize>;

    /// The SVG and MathML elements of an html5lib-tests tree (`| <svg name>`, `| <math name>`).
    fn tree_foreign_elements(document: &str) -> Counts {
        let mut counts = Counts::new();
        for line in document.lines() {
            let Some(node) = line.strip_prefix('|').map(str::trim_start) else {
                continue;
            };
            for (prefix, ns) in [("<svg ", "svg"), ("<math ", "math")] {
                if let Some(name) = node.strip_prefix(prefix).and_then(|r| r.strip_suffix('>')) {
                    *counts.entry((ns, name.to_ascii_lowercase())).or_default() += 1;
                }
            }
        }
        counts
    }

    /// The start tags of `data` whose element [`Scope`] puts in SVG or MathML; `None` when the
    /// tokenizer's simulator is unsure of a token (then so may the observer be).
    fn observed_foreign_elements(data: &str, scripting: bool) -> Option<Counts> {
        let mut scope = Scope::default();
        let mut tokenizer = Tokenizer::new(Options::new().scripting(scripting));
        let mut tokens = tokenizer.tokenize(data.as_bytes());
        let mut counts = Counts::new();
        while let Some(token) = tokens.next() {
            if tokens.ambiguity().is_some() {
                return None;
            }
            scope.update(&token);
            let ns = match scope.namespace() {
                Namespace::Html => continue,
                Namespace::Svg => "svg",
                Namespace::MathMl => "math",
            };
            if let Token::StartTag(tag) = &token {
                *counts.entry((ns, tag.name().to_owned())).or_default() += 1;
            }
        }
        Some(counts)
    }

    /// The non-fragment cases of an html5lib-tests `.dat` file: (data, scripting, tree).
    fn document_cases(dat: &str) -> impl Iterator<Item = (&str, bool, &str)> {
        dat.split("#data\n").skip(1).filter_map(|case| {
            let (data, rest) = case.split_once("\n#errors\n")?;
            let (head, document) = rest.split_once("#document\n")?;
            (!head.contains("#document-fragment\n")).then_some((
                data,
                head.contains("#script-on\n"),
                document,
            ))
        })
    }

    /// Every SVG and MathML element of html5lib-tests' expected trees is one the observer put
    /// in that namespace, and the other way round. Documents with a `<frameset>` are left out:
    /// it drops the body with the foreign elements already in it, or ignores them.
    #[test]
    fn namespaces_agree_with_the_html5lib_trees() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/html5lib-tests/tree-construction");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "dat"))
            .collect();
        paths.sort();
        let (mut checked, mut failures) = (0, Vec::new());
        for path in paths {
            let dat = std::fs::read_to_string(&path).unwrap();
            for (data, scripting, document) in document_cases(&dat) {
                if data.contains("<frameset") {
                    continue;
                }
                let Some(observed) = observed_foreign_elements(data, scripting) else {
                    continue;
                };
                checked += 1;
                let expected = tree_foreign_elements(document);
                if observed != expected {
                    failures.push(format!("{data:?}: {observed:?}, tree {expected:?}"));
                }
            }
        }
        assert!(checked > 1000, "{checked} documents checked");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
