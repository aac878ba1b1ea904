//! The XML race's tree subjects (issue 29): namespaces resolved while streaming
//! (`tagstream-xml5-tree-events` against quick-xml's `NsReader`), and a whole tree built per
//! document (`tagstream-xml5-tree` against xml5ever's tree builder into markup5ever_rcdom's
//! `RcDom`). Named and described in `xml_subjects::SUBJECTS`.
//!
//! The event subjects sum what a namespace-aware consumer reads: every element's expanded name
//! and depth, every attribute's expanded name and value with its references resolved, text,
//! comments, PIs. The tree subjects build the tree and then walk it, summing the same names and
//! strings; the walk is the same small share of both.

use std::borrow::Cow;

use crate::corpus::Corpus;
use crate::subjects::{Outcome, Subject};

/// The lengths of a name's local part, prefix and namespace, as one number.
#[inline(always)]
fn name_sum(local: &str, prefix: Option<&str>, namespace: Option<&str>) -> u64 {
    (local.len() + prefix.map_or(0, str::len) + namespace.map_or(0, str::len)) as u64
}

pub use tagstream_tree::{TreeDocument, TreeEvents};

mod tagstream_tree {
    use super::{Corpus, Outcome, Subject, name_sum};
    use tagstream::Options;
    use tagstream::xml5::tree::{
        Document, Event, Events, NodeKind, Parser, TreeBuilder, TreeOptions,
    };

    /// `tagstream-xml5-tree-events`: one parser reused across files, every event summed.
    pub struct TreeEvents {
        parser: Parser,
    }

    impl TreeEvents {
        pub fn new() -> TreeEvents {
            TreeEvents {
                parser: Parser::new(Options::new(), TreeOptions::new()),
            }
        }
    }

    impl Subject for TreeEvents {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                out.checksum += drain(self.parser.parse(&page.bytes));
            }
            out
        }
    }

    /// Every event of one document into a sum: out of line, as the tokenizer subjects' `drain`.
    #[inline(never)]
    fn drain(mut events: Events<'_>) -> u64 {
        let mut sum = 0;
        while let Some(event) = events.next_event() {
            sum += event_sum(&event);
        }
        sum
    }

    #[inline(always)]
    fn event_sum(event: &Event<'_, '_>) -> u64 {
        match event {
            Event::Start(start) => {
                let name = start.name();
                let mut s =
                    name_sum(name.local, name.prefix, name.namespace) + start.depth() as u64;
                for attribute in start.attributes() {
                    let n = attribute.name();
                    s += name_sum(n.local, n.prefix, n.namespace)
                        + attribute.value().len() as u64
                        + 1;
                }
                s
            }
            Event::End(end) => (end.name().local.len() + end.depth()) as u64,
            Event::Text(text) => text.text().len() as u64,
            Event::Comment(comment) => comment.data().len() as u64,
            Event::ProcessingInstruction(pi) => (pi.target().len() + pi.data().len()) as u64,
            Event::Doctype(doctype) => doctype.name().map_or(0, str::len) as u64,
        }
    }

    /// `tagstream-xml5-tree`: one parser reused across files, a new document built for each (its
    /// builder sized from the file's length, as `Document::parse` sizes it) and walked.
    pub struct TreeDocument {
        parser: Parser,
    }

    impl TreeDocument {
        pub fn new() -> TreeDocument {
            TreeDocument {
                parser: Parser::new(Options::new(), TreeOptions::new()),
            }
        }
    }

    impl Subject for TreeDocument {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                let mut builder = TreeBuilder::with_capacity(page.bytes.len());
                self.parser
                    .parse(&page.bytes)
                    .for_each_event(|event| builder.push(&event));
                out.checksum += walk(&builder.finish(&mut self.parser));
            }
            out
        }
    }

    /// The names and strings of every node of `doc`.
    #[inline(never)]
    fn walk(doc: &Document) -> u64 {
        let mut sum = 0;
        for node in doc.document().descendants() {
            sum += match node.kind() {
                NodeKind::Element(element) => {
                    let name = element.name();
                    let mut s = name_sum(name.local, name.prefix, name.namespace);
                    for (n, value) in element.attributes() {
                        s += name_sum(n.local, n.prefix, n.namespace) + value.len() as u64 + 1;
                    }
                    s
                }
                NodeKind::Text(s) | NodeKind::Comment(s) => s.len() as u64,
                NodeKind::ProcessingInstruction { target, data } => {
                    (target.len() + data.len()) as u64
                }
                NodeKind::Doctype { name, .. } => name.map_or(0, str::len) as u64,
                NodeKind::Document => 0,
            };
        }
        sum
    }
}

pub use quick_ns::QuickXmlNs;

mod quick_ns {
    use super::{Corpus, Cow, Outcome, Subject, name_sum};
    use quick_xml::NsReader;
    use quick_xml::XmlVersion;
    use quick_xml::escape::resolve_predefined_entity;
    use quick_xml::events::attributes::Attribute;
    use quick_xml::events::{BytesRef, BytesStart, Event};
    use quick_xml::name::ResolveResult;

    pub struct QuickXmlNs;

    impl Subject for QuickXmlNs {
        fn run(&mut self, corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for page in &corpus.pages {
                match read(&page.bytes) {
                    Ok(sum) => out.checksum += sum,
                    // A namespace error (`xmlns:xml="…"` and the like): 7 of the W3C files.
                    Err(_) => out.errors += 1,
                }
            }
            out
        }
    }

    /// The namespace a resolution gives, as a string (an unknown prefix: none).
    fn namespace<'a>(resolved: &'a ResolveResult<'_>) -> Option<&'a str> {
        match resolved {
            ResolveResult::Bound(ns) => Some(ns.as_ref()),
            ResolveResult::Unbound | ResolveResult::Unknown(_) => None,
        }
    }

    /// Every resolved event of one document, to `Eof`, into a sum; the first error ends it.
    #[inline(never)]
    pub fn read(bytes: &[u8]) -> Result<u64, quick_xml::Error> {
        let mut reader = NsReader::from_reader(bytes);
        let mut sum = 0u64;
        let mut depth = 0u64;
        loop {
            let (resolved, event) = reader.read_resolved_event()?;
            let ns_len = namespace(&resolved).map_or(0, str::len) as u64;
            drop(resolved);
            match event {
                Event::Start(tag) => {
                    depth += 1;
                    sum += element_sum(&reader, &tag, depth)? + ns_len;
                }
                // A start and an end at once, as tagstream's events have it.
                Event::Empty(tag) => {
                    let end = tag.local_name().as_ref().len() as u64 + depth + 1;
                    sum += element_sum(&reader, &tag, depth + 1)? + ns_len + end;
                }
                Event::End(tag) => {
                    sum += tag.local_name().as_ref().len() as u64 + depth;
                    depth -= 1;
                }
                Event::Text(text) => sum += text.xml10_content().len() as u64,
                Event::CData(cdata) => sum += cdata.len() as u64,
                Event::Comment(comment) => sum += comment.len() as u64,
                Event::PI(pi) => sum += pi.len() as u64,
                Event::DocType(doctype) => sum += doctype.len() as u64,
                Event::GeneralRef(reference) => sum += reference_len(&reference) as u64,
                Event::Decl(_) => {}
                Event::Eof => return Ok(sum),
            }
        }
    }

    /// A start tag's name and its attributes, namespaces resolved and values normalized.
    #[inline(always)]
    fn element_sum(
        reader: &NsReader<&[u8]>,
        tag: &BytesStart<'_>,
        depth: u64,
    ) -> Result<u64, quick_xml::Error> {
        let name = tag.name();
        let mut s = name_sum(
            name.local_name().as_ref(),
            name.prefix().as_ref().map(|p| p.as_ref()),
            None,
        ) + depth;
        for attribute in tag.attributes() {
            s += attribute_sum(reader, &attribute?)?;
        }
        Ok(s)
    }

    #[inline(always)]
    fn attribute_sum(
        reader: &NsReader<&[u8]>,
        attribute: &Attribute<'_>,
    ) -> Result<u64, quick_xml::Error> {
        let (resolved, local) = reader.resolver().resolve_attribute(attribute.key);
        let prefix = attribute.key.prefix();
        // A reference to an entity quick-xml does not know (one declared in the DTD) is the
        // caller's to resolve: counted as written, not an end.
        let value: Cow<'_, str> = attribute
            .normalized_value(XmlVersion::Implicit1_0)
            .unwrap_or_else(|_| attribute.value.clone());
        Ok(name_sum(
            local.as_ref(),
            prefix.as_ref().map(|p| p.as_ref()),
            namespace(&resolved),
        ) + value.len() as u64
            + 1)
    }

    /// The length of what a general reference stands for: a character or a predefined entity
    /// (others, which quick-xml leaves to the caller, and bad character references count as
    /// their name).
    fn reference_len(reference: &BytesRef<'_>) -> usize {
        let name: &str = reference;
        match reference.resolve_char_ref() {
            Ok(Some(c)) => c.len_utf8(),
            Ok(None) => resolve_predefined_entity(name).map_or(name.len(), str::len),
            Err(_) => name.len(),
        }
    }
}

pub use xml5ever_tree::Xml5everTree;

mod xml5ever_tree {
    use super::{Corpus, Outcome, Subject, name_sum};
    use markup5ever_rcdom::{Handle, NodeData, RcDom};
    use xml5ever::QualName;
    use xml5ever::driver::{XmlParseOpts, parse_document};
    use xml5ever::tendril::{StrTendril, TendrilSink};

    pub struct Xml5everTree {
        /// The files as tendrils, made once: each pass clones them (a reference count).
        inputs: Vec<StrTendril>,
    }

    impl Xml5everTree {
        pub fn new(corpus: &Corpus) -> Xml5everTree {
            Xml5everTree {
                inputs: corpus
                    .pages
                    .iter()
                    .map(|p| StrTendril::from_slice(p.as_str()))
                    .collect(),
            }
        }
    }

    impl Subject for Xml5everTree {
        fn run(&mut self, _corpus: &Corpus) -> Outcome {
            let mut out = Outcome::default();
            for input in &self.inputs {
                let dom =
                    parse_document(RcDom::default(), XmlParseOpts::default()).one(input.clone());
                out.checksum += walk(&dom.document);
                out.errors += dom.errors.borrow().len() as u64;
            }
            out
        }
    }

    fn qual_sum(name: &QualName) -> u64 {
        let namespace: &str = &name.ns;
        name_sum(
            &name.local,
            name.prefix.as_deref(),
            (!namespace.is_empty()).then_some(namespace),
        )
    }

    /// The names and strings of every node below `document`, with a stack (no recursion).
    #[inline(never)]
    fn walk(document: &Handle) -> u64 {
        let mut sum = 0;
        let mut stack: Vec<Handle> = document.children.borrow().iter().rev().cloned().collect();
        while let Some(node) = stack.pop() {
            sum += match &node.data {
                NodeData::Element { name, attrs, .. } => {
                    let mut s = qual_sum(name);
                    for attribute in attrs.borrow().iter() {
                        s += qual_sum(&attribute.name) + attribute.value.len() as u64 + 1;
                    }
                    s
                }
                NodeData::Text { contents } => contents.borrow().len() as u64,
                NodeData::Comment { contents } => contents.len() as u64,
                NodeData::ProcessingInstruction { target, contents } => {
                    (target.len() + contents.len()) as u64
                }
                NodeData::Doctype { name, .. } => name.len() as u64,
                NodeData::Document => 0,
            };
            stack.extend(node.children.borrow().iter().rev().cloned());
        }
        sum
    }
}
