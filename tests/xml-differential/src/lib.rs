//! tagstream's XML5 tree (`tagstream::xml5::tree::Document`) against a strict XML 1.0 parser on
//! well-formed documents: both trees are reduced to what XML 1.0 and Namespaces in XML define
//! for a well-formed document — elements by expanded name, attributes by expanded name with
//! their values, text after references are expanded — and compared. See the README.
//!
//! The oracle is [roxmltree](https://crates.io/crates/roxmltree) 0.21, not quick-xml's
//! `NsReader`, because a tree is what is compared and roxmltree does the XML 1.0 work the
//! comparison needs where quick-xml leaves it to its caller: it rejects documents that are not
//! well-formed or not namespace-well-formed (quick-xml reads many of them without an error), it
//! expands the internal subset's general entities — markup in their values included — in text
//! and attribute values (quick-xml hands out a `GeneralRef` event and leaves expansion to the
//! caller), it normalizes attribute values (XML 1.0 §3.3.3) and line ends (§2.11), and it merges
//! text, CDATA sections and expanded references into one text node. It never fetches an
//! external entity (none is given to it).
//!
//! What is compared, on both sides: the root element and everything below it: elements, text,
//! comments and processing instructions (target and data). Namespace
//! declarations, which tagstream keeps as attributes in the XMLNS namespace
//! (`tagstream::xml5::tree::XMLNS_NAMESPACE`) and roxmltree keeps apart, are compared as the
//! bindings in scope on each element (tagstream's computed from the declarations of the
//! element and its ancestors). Attributes are compared as a set.

use std::fmt;
use std::path::{Path, PathBuf};

mod entities;
mod kinds;

pub use kinds::{Explanation, Kind, explain, kinds};

use tagstream::xml5::tree::{Document, Node, NodeKind, XMLNS_NAMESPACE};

/// An expanded name: namespace (a URI, `None` for none) and local part.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Name {
    pub namespace: Option<String>,
    pub local: String,
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{{{ns}}}{}", self.local),
            None => f.write_str(&self.local),
        }
    }
}

/// An element: its expanded name, the namespace bindings in scope on it, its attributes
/// (sorted by name) and its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub name: Name,
    /// (prefix, URI), `None` for the default namespace, sorted; without the `xml` prefix's
    /// fixed binding and without undeclarations (`xmlns=""`, `xmlns:p=""`).
    pub namespaces: Vec<(Option<String>, String)>,
    pub attributes: Vec<(Name, String)>,
    pub children: Vec<Item>,
}

/// The namespace bindings in scope, as [`Element::namespaces`] lists them.
type Scope = std::collections::BTreeMap<Option<String>, String>;

fn listed(scope: &Scope) -> Vec<(Option<String>, String)> {
    scope
        .iter()
        .filter(|(prefix, uri)| !uri.is_empty() && prefix.as_deref() != Some("xml"))
        .map(|(p, u)| (p.clone(), u.clone()))
        .collect()
}

/// A piece of an element's content: an element, text (adjacent text joined), a comment or a
/// processing instruction (target, data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Element(Element),
    Text(String),
    Comment(String),
    Pi(String, String),
}

/// Build the content list: text joined to the text before it.
#[derive(Default)]
struct Content(Vec<Item>);

impl Content {
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        match self.0.last_mut() {
            Some(Item::Text(t)) => t.push_str(s),
            _ => self.0.push(Item::Text(s.to_owned())),
        }
    }

    fn push(&mut self, item: Item) {
        self.0.push(item);
    }
}

/// tagstream's tree of `input` (XML5 tree construction, default options): its root element,
/// `None` if it has none.
pub fn tagstream_tree(input: &[u8]) -> Option<Element> {
    let doc = Document::parse(input);
    doc.root_element()
        .map(|root| tagstream_element(root, &Scope::new()))
}

/// The element at `node`, in the scope of its parent's bindings (`outer`): its own
/// declarations are its attributes in the XMLNS namespace (`xmlns` for the default one).
fn tagstream_element(node: Node<'_>, outer: &Scope) -> Element {
    let element = node.element().expect("an element node");
    let qname = element.name();
    let mut scope = outer.clone();
    for (n, uri) in element.attributes() {
        if n.namespace == Some(XMLNS_NAMESPACE) {
            let prefix = n.prefix.map(|_| n.local.to_owned());
            scope.insert(prefix, uri.to_owned());
        }
    }
    let mut attributes: Vec<(Name, String)> = element
        .attributes()
        .filter(|(n, _)| n.namespace != Some(XMLNS_NAMESPACE))
        .map(|(n, v)| (name(n.namespace, n.local), v.to_owned()))
        .collect();
    attributes.sort();
    let mut content = Content::default();
    for child in node.children() {
        match child.kind() {
            NodeKind::Element(_) => content.push(Item::Element(tagstream_element(child, &scope))),
            NodeKind::Text(s) => content.text(s),
            NodeKind::Comment(s) => content.push(Item::Comment(s.to_owned())),
            NodeKind::ProcessingInstruction { target, data } => {
                content.push(Item::Pi(target.to_owned(), data.to_owned()))
            }
            NodeKind::Document | NodeKind::Doctype { .. } => {}
        }
    }
    Element {
        name: name(qname.namespace, qname.local),
        namespaces: listed(&scope),
        attributes,
        children: content.0,
    }
}

fn name(namespace: Option<&str>, local: &str) -> Name {
    Name {
        namespace: namespace.map(str::to_owned),
        local: local.to_owned(),
    }
}

/// The oracle's tree of `input`: roxmltree with the DTD allowed (its internal subset read, no
/// external entity fetched); its error if it rejects the document.
pub fn oracle_tree(input: &str) -> Result<Element, roxmltree::Error> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(input, options)?;
    Ok(oracle_element(doc.root_element()))
}

/// roxmltree gives the namespace of an element in the scope of `xmlns=""` as `Some("")`; that
/// declaration means no default namespace (Namespaces in XML 1.0 §6.2), which is `None` here.
fn oracle_namespace(namespace: Option<&str>) -> Option<&str> {
    namespace.filter(|ns| !ns.is_empty())
}

fn oracle_element(node: roxmltree::Node<'_, '_>) -> Element {
    let tag = node.tag_name();
    let mut attributes: Vec<(Name, String)> = node
        .attributes()
        .map(|a| {
            (
                name(oracle_namespace(a.namespace()), a.name()),
                a.value().to_owned(),
            )
        })
        .collect();
    attributes.sort();
    let mut content = Content::default();
    for child in node.children() {
        if child.is_element() {
            content.push(Item::Element(oracle_element(child)));
        } else if child.is_text() {
            content.text(child.text().unwrap_or(""));
        } else if child.is_comment() {
            content.push(Item::Comment(child.text().unwrap_or("").to_owned()));
        } else if let Some(pi) = child.pi() {
            let data = pi.value.unwrap_or("").to_owned();
            content.push(Item::Pi(pi.target.to_owned(), data));
        }
    }
    let scope: Scope = node
        .namespaces()
        .map(|ns| (ns.name().map(str::to_owned), ns.uri().to_owned()))
        .collect();
    Element {
        name: name(oracle_namespace(tag.namespace()), tag.name()),
        namespaces: listed(&scope),
        attributes,
        children: content.0,
    }
}

/// Where two trees first differ: the path of element names down to it, and what differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The elements from the root down to the one where they differ (names as `{ns}local`).
    pub path: Vec<String>,
    pub what: What,
}

/// What differs at [`Difference::path`]; `ours` is tagstream's, `theirs` the oracle's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// The element's expanded name.
    Name { ours: Name, theirs: Name },
    /// The namespace bindings in scope.
    Namespaces {
        ours: Vec<(Option<String>, String)>,
        theirs: Vec<(Option<String>, String)>,
    },
    /// The attributes (all of them, as sorted lists).
    Attributes {
        ours: Vec<(Name, String)>,
        theirs: Vec<(Name, String)>,
    },
    /// The content, from the first item that differs in kind or text (`None`: no more items).
    Content {
        index: usize,
        ours: Option<Item>,
        theirs: Option<Item>,
    },
}

/// The first difference of `ours` from `theirs` in document order, `None` if they are equal.
pub fn first_difference(ours: &Element, theirs: &Element) -> Option<Difference> {
    let mut path = vec![ours.name.to_string()];
    let what = differ(ours, theirs, &mut path)?;
    Some(Difference { path, what })
}

fn differ(ours: &Element, theirs: &Element, path: &mut Vec<String>) -> Option<What> {
    if ours.name != theirs.name {
        return Some(What::Name {
            ours: ours.name.clone(),
            theirs: theirs.name.clone(),
        });
    }
    if ours.namespaces != theirs.namespaces {
        return Some(What::Namespaces {
            ours: ours.namespaces.clone(),
            theirs: theirs.namespaces.clone(),
        });
    }
    if ours.attributes != theirs.attributes {
        return Some(What::Attributes {
            ours: ours.attributes.clone(),
            theirs: theirs.attributes.clone(),
        });
    }
    let len = ours.children.len().max(theirs.children.len());
    for index in 0..len {
        match (ours.children.get(index), theirs.children.get(index)) {
            (Some(Item::Element(a)), Some(Item::Element(b))) => {
                path.push(a.name.to_string());
                if let Some(what) = differ(a, b, path) {
                    return Some(what);
                }
                path.pop();
            }
            (a, b) if a == b => {}
            (a, b) => {
                return Some(What::Content {
                    index,
                    ours: a.cloned(),
                    theirs: b.cloned(),
                });
            }
        }
    }
    None
}

/// The W3C suite's documents compared, from its flattened catalog (`xmlconf-flattened.xml`):
/// (test id, path). Those the catalog calls well-formed (`TYPE` `valid` or `invalid`: validity
/// is not compared), that need no external entity (`ENTITIES="none"`), of XML 1.0 (not the 1.1
/// tests: roxmltree reads 1.0), namespace-well-formed (not `NAMESPACE="no"`), and meant for the
/// fifth edition (no `EDITION`, or one that lists 5).
pub fn xmlconf_documents(dir: &Path) -> Vec<(String, PathBuf)> {
    let catalog = dir.join("xmlconf-flattened.xml");
    let text =
        std::fs::read_to_string(&catalog).unwrap_or_else(|e| panic!("{}: {e}", catalog.display()));
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, options)
        .unwrap_or_else(|e| panic!("{}: {e}", catalog.display()));
    doc.descendants()
        .filter(|n| n.has_tag_name("TEST") && wanted(*n))
        .map(|n| {
            let id = n.attribute("ID").unwrap_or("?").to_owned();
            (id, dir.join(base(n)).join(n.attribute("URI").unwrap_or("")))
        })
        .collect()
}

fn wanted(test: roxmltree::Node<'_, '_>) -> bool {
    let attribute = |name| test.attribute(name).unwrap_or("");
    matches!(attribute("TYPE"), "valid" | "invalid")
        && attribute("ENTITIES") == "none"
        && !attribute("RECOMMENDATION").contains("1.1")
        && attribute("VERSION") != "1.1"
        && attribute("NAMESPACE") != "no"
        && test
            .attribute("EDITION")
            .is_none_or(|e| e.split(' ').any(|e| e == "5"))
}

/// The folder a catalog entry's `URI` is relative to: its ancestors' `xml:base`, joined.
fn base(test: roxmltree::Node<'_, '_>) -> PathBuf {
    let mut bases: Vec<&str> = test
        .ancestors()
        .filter_map(|a| a.attribute((roxmltree::NS_XML_URI, "base")))
        .collect();
    bases.reverse();
    bases.iter().collect()
}
