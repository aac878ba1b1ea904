//! The html5ever side: its tokenizer driving its full `TreeBuilder` (over markup5ever_rcdom), with
//! a token sink in between that records every token the tree builder receives.

use std::cell::RefCell;
use std::fmt::Write as _;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Namespace, ns};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use tagstream_differential::{Tok, push};

/// Records each token, then hands it to the tree builder (and answers the tokenizer's CDATA
/// question from it).
struct Recorder<S> {
    inner: S,
    tokens: RefCell<Vec<Tok>>,
}

impl<S: TokenSink> TokenSink for Recorder<S> {
    type Handle = S::Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<S::Handle> {
        let tok = match &token {
            Token::DoctypeToken(d) => Some(Tok::Doctype {
                name: d.name.as_ref().map(|s| s.to_string()),
                public_id: d.public_id.as_ref().map(|s| s.to_string()),
                system_id: d.system_id.as_ref().map(|s| s.to_string()),
                force_quirks: d.force_quirks,
            }),
            Token::TagToken(tag) => Some(match tag.kind {
                TagKind::StartTag => Tok::StartTag {
                    name: tag.name.to_string(),
                    attributes: tag
                        .attrs
                        .iter()
                        .map(|a| (a.name.local.to_string(), a.value.to_string()))
                        .collect(),
                    self_closing: tag.self_closing,
                },
                TagKind::EndTag => Tok::EndTag(tag.name.to_string()),
            }),
            Token::CommentToken(c) => Some(Tok::Comment(c.to_string())),
            Token::CharacterTokens(t) => Some(Tok::Text(t.to_string())),
            Token::NullCharacterToken => Some(Tok::Text("\0".to_owned())),
            Token::EOFToken | Token::ParseError(_) => None,
        };
        if let Some(tok) = tok {
            push(&mut self.tokens.borrow_mut(), tok);
        }
        self.inner.process_token(token, line_number)
    }

    fn end(&self) {
        self.inner.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// What html5ever did with one document.
pub struct Parsed {
    /// The tokens its tree builder received.
    pub tokens: Vec<Tok>,
    /// The tree, in html5lib-tests' `#document` format.
    pub tree: String,
}

/// Parse `input` with html5ever's tokenizer and tree builder, whole.
pub fn html5ever(input: &str, scripting: bool) -> Parsed {
    let opts = TreeBuilderOpts {
        scripting_enabled: scripting,
        ..TreeBuilderOpts::default()
    };
    let recorder = Recorder {
        inner: TreeBuilder::new(RcDom::default(), opts),
        tokens: RefCell::new(Vec::new()),
    };
    let tokenizer = Tokenizer::new(recorder, TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(input));
    // `Script` results pause for a script to run, `EncodingIndicator` for `<meta charset>`: the
    // input is already decoded, and there is no script to run; go on.
    while !matches!(tokenizer.feed(&queue), html5ever::TokenizerResult::Done) {}
    tokenizer.end();
    let recorder = tokenizer.sink;
    let mut tree = String::new();
    for child in recorder.inner.sink.document.children.borrow().iter() {
        serialize(&mut tree, 0, child);
    }
    Parsed {
        tokens: recorder.tokens.into_inner(),
        tree: tree.trim_end_matches('\n').to_owned(),
    }
}

/// One node and its descendants in the `#document` format (`| ` plus two spaces per level).
fn serialize(out: &mut String, depth: usize, node: &Handle) {
    let indent = format!("| {}", "  ".repeat(depth));
    match &node.data {
        NodeData::Document => {}
        NodeData::Doctype {
            name,
            public_id,
            system_id,
        } => {
            if public_id.is_empty() && system_id.is_empty() {
                let _ = writeln!(out, "{indent}<!DOCTYPE {name}>");
            } else {
                let _ = writeln!(
                    out,
                    "{indent}<!DOCTYPE {name} \"{public_id}\" \"{system_id}\">"
                );
            }
        }
        NodeData::Text { contents } => {
            let _ = writeln!(out, "{indent}\"{}\"", contents.borrow());
        }
        NodeData::Comment { contents } => {
            let _ = writeln!(out, "{indent}<!-- {contents} -->");
        }
        NodeData::ProcessingInstruction { target, contents } => {
            let _ = writeln!(out, "{indent}<?{target} {contents}>");
        }
        NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } => {
            let _ = writeln!(out, "{indent}<{}{}>", prefix(&name.ns), name.local);
            let mut attrs: Vec<(String, String)> = attrs
                .borrow()
                .iter()
                .map(|a| {
                    let key = match a.name.ns {
                        ns!(xlink) => format!("xlink {}", a.name.local),
                        ns!(xml) => format!("xml {}", a.name.local),
                        ns!(xmlns) => format!("xmlns {}", a.name.local),
                        _ => a.name.local.to_string(),
                    };
                    (key, a.value.to_string())
                })
                .collect();
            attrs.sort();
            for (k, v) in attrs {
                let _ = writeln!(out, "{indent}  {k}=\"{v}\"");
            }
            if let Some(contents) = template_contents.borrow().as_ref() {
                let _ = writeln!(out, "{indent}  content");
                for child in contents.children.borrow().iter() {
                    serialize(out, depth + 2, child);
                }
            }
        }
    }
    for child in node.children.borrow().iter() {
        serialize(out, depth + 1, child);
    }
}

fn prefix(ns: &Namespace) -> &'static str {
    match *ns {
        ns!(svg) => "svg ",
        ns!(mathml) => "math ",
        _ => "",
    }
}
