//! A small document tree built from the stage's events: nodes in one `Vec`, linked by index
//! (parent, first and last child, next sibling), their strings in one `String`. No node owns an
//! allocation; building it allocates only as those two grow. A name is kept as written, in one
//! piece; a namespace URI once for the elements and attributes in it (as far as a small cache
//! of the stage's namespace keys sees it).

use crate::error::{DroppedErrors, LimitError, ParseError};
use crate::options::Options;

use super::names::{NsKey, QName};
use super::stage::{DepthError, EntityError, Event, Parser, TreeError, TreeOptions};

/// A node's place in its [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(usize);

/// No node.
const NONE: usize = usize::MAX;

/// A string of the document: a range of [`Document::strings`].
#[derive(Clone, Copy, Debug)]
struct Str(usize, usize);

/// A name: as written (`prefix:local` or `local`), the length of its prefix (0 for none), its
/// namespace.
#[derive(Clone, Copy, Debug)]
struct NameData {
    namespace: Option<Str>,
    written: Str,
    prefix: usize,
}

#[derive(Clone, Copy, Debug)]
struct AttrData {
    name: NameData,
    value: Str,
}

#[derive(Clone, Copy, Debug)]
enum Data {
    Document,
    Element {
        name: NameData,
        /// Its attributes in [`Document::attrs`].
        attrs: (usize, usize),
    },
    Text(Str),
    Comment(Str),
    Pi {
        target: Str,
        data: Str,
    },
    Doctype {
        name: Option<Str>,
        public_id: Option<Str>,
        system_id: Option<Str>,
    },
}

#[derive(Clone, Copy, Debug)]
struct NodeData {
    data: Data,
    parent: usize,
    first_child: usize,
    last_child: usize,
    next_sibling: usize,
}

/// A parsed XML5 document: elements with their expanded names and attributes, text, comments,
/// processing instructions and the DOCTYPE, under a document node.
///
/// ```
/// use tagstream::xml5::tree::{Document, NodeKind};
///
/// let doc = Document::parse(b"<r xmlns='urn:r'><a x='1'>Hi</a><a>!</r>");
/// let root = doc.root_element().unwrap();
/// assert_eq!(root.element().unwrap().name().namespace, Some("urn:r"));
/// let names: Vec<_> = root.children().map(|a| a.element().unwrap().name().local).collect();
/// assert_eq!(names, ["a", "a"]);
/// assert_eq!(root.text_content(), "Hi!");
/// assert!(matches!(root.first_child().unwrap().children().next().unwrap().kind(), NodeKind::Text("Hi")));
/// ```
#[derive(Clone, Debug)]
pub struct Document {
    nodes: Vec<NodeData>,
    attrs: Vec<AttrData>,
    strings: String,
    errors: Vec<TreeError>,
    dropped_errors: u64,
    parse_errors: Vec<ParseError>,
    dropped_parse_errors: DroppedErrors,
    depth_error: Option<DepthError>,
    entity_error: Option<EntityError>,
    limit_error: Option<LimitError>,
}

impl Document {
    /// Parse a whole document with the default options (errors off).
    pub fn parse(input: &[u8]) -> Document {
        Document::parse_with(input, Options::default(), TreeOptions::default())
    }

    /// Parse a whole document with these options.
    pub fn parse_with(input: &[u8], options: Options, tree: TreeOptions) -> Document {
        let mut parser = Parser::new(options, tree);
        let mut builder = TreeBuilder::with_capacity(input.len());
        parser.parse(input).for_each_event(|e| builder.push(&e));
        builder.finish(&mut parser)
    }

    /// Parse a document fed chunk by chunk (the tree is the same however it is cut).
    ///
    /// ```
    /// use tagstream::Options;
    /// use tagstream::xml5::tree::{Document, TreeOptions, xml5lib_tree};
    /// let input = b"<a><b>x</b></a>";
    /// let whole = xml5lib_tree(&Document::parse(input));
    /// let bytes = Document::parse_chunks(input.chunks(1), Options::default(), TreeOptions::new());
    /// assert_eq!(xml5lib_tree(&bytes), whole);
    /// ```
    pub fn parse_chunks<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        options: Options,
        tree: TreeOptions,
    ) -> Document {
        let mut parser = Parser::new(options, tree);
        let mut builder = TreeBuilder::new();
        for chunk in chunks {
            parser.feed(chunk).for_each_event(|e| builder.push(&e));
        }
        parser.finish().for_each_event(|e| builder.push(&e));
        builder.finish(&mut parser)
    }

    /// The document node.
    pub fn document(&self) -> Node<'_> {
        self.node(NodeId(0))
    }

    /// The node with this id.
    ///
    /// An id from another document names whichever node has that place here, if any: ids are
    /// only meaningful in the document that gave them.
    pub fn node(&self, id: NodeId) -> Node<'_> {
        Node {
            doc: self,
            id: id.0.min(self.nodes.len() - 1),
        }
    }

    /// The root element, if there is one.
    pub fn root_element(&self) -> Option<Node<'_>> {
        self.document().children().find(|n| n.element().is_some())
    }

    /// The tree stage's parse errors (with errors on), in stream order; the tokenizer's are
    /// [`Document::parse_errors`].
    pub fn errors(&self) -> &[TreeError] {
        &self.errors
    }

    /// How many tree-stage errors came past [`Options::max_errors`] and were only counted (as
    /// [`Parser::dropped_errors`]).
    pub fn dropped_errors(&self) -> u64 {
        self.dropped_errors
    }

    /// The XML5 tokenizer's parse errors (with errors on), in stream order: those a
    /// [`Tokenizer`](crate::xml5::Tokenizer) reports over the same input, however it was cut,
    /// but for references to the entities the internal subset declares (the tree stage resolves
    /// them) and for the input after a limit the parser stopped at ([`Document::depth_error`],
    /// [`Document::limit_error`]: it is not read). With [`Document::errors`], every parse error
    /// of the document.
    ///
    /// ```
    /// use tagstream::Options;
    /// use tagstream::xml5::tree::{Document, TreeOptions};
    /// let input = b"<r a='1' a='2'>&nope;</q></r>";
    /// let doc = Document::parse_with(input, Options::new().errors(true), TreeOptions::new());
    /// let tokenizer: Vec<_> = doc.parse_errors().iter().map(|e| e.code.as_str()).collect();
    /// assert_eq!(tokenizer, ["duplicate-attribute", "unknown-named-character-reference"]);
    /// assert_eq!(doc.errors()[0].code.as_str(), "unmatched-end-tag");
    /// ```
    pub fn parse_errors(&self) -> &[ParseError] {
        &self.parse_errors
    }

    /// The tokenizer's parse errors past [`Options::max_errors`], counted by code (as
    /// [`Tokenizer::dropped_errors`](crate::xml5::Tokenizer::dropped_errors)).
    ///
    /// ```
    /// use tagstream::{ErrorCode, Options};
    /// use tagstream::xml5::tree::{Document, TreeOptions};
    /// let options = Options::new().errors(true).max_errors(1);
    /// let doc = Document::parse_with(b"<r>&a;&b;&c;</r>", options, TreeOptions::new());
    /// assert_eq!(doc.parse_errors().len(), 1);
    /// assert_eq!(doc.dropped_parse_errors().count(ErrorCode::UnknownNamedCharacterReference), 2);
    /// ```
    pub fn dropped_parse_errors(&self) -> DroppedErrors {
        self.dropped_parse_errors
    }

    /// The depth limit the document stopped at, if it did (the tree holds what came before).
    pub fn depth_error(&self) -> Option<DepthError> {
        self.depth_error
    }

    /// The entity expansion limit the document stopped expanding at, if it did (the tree holds
    /// the references after it as written).
    ///
    /// ```
    /// use tagstream::Options;
    /// use tagstream::xml5::tree::{Document, EntityLimit, TreeOptions};
    /// let input = b"<!DOCTYPE r [<!ENTITY a 'aaaa'><!ENTITY b '&a;&a;&a;'>]><r>&b;</r>";
    /// // `b` is 9 bytes of replacement text, the first `a` 4 more: the second would pass 13.
    /// let tree = TreeOptions::new().max_entity_bytes(13);
    /// let doc = Document::parse_with(input, Options::default(), tree);
    /// assert_eq!(doc.entity_error().map(|e| e.limit), Some(EntityLimit::Bytes));
    /// assert_eq!(doc.root_element().unwrap().text_content(), "aaaa&a;&a;");
    /// ```
    pub fn entity_error(&self) -> Option<EntityError> {
        self.entity_error
    }

    /// The tokenizer's memory limit the document stopped at, if it did (the open elements then
    /// end as at the end of the input).
    pub fn limit_error(&self) -> Option<LimitError> {
        self.limit_error
    }

    fn str(&self, s: Str) -> &str {
        &self.strings[s.0..s.1]
    }

    fn name(&self, n: NameData) -> QName<'_> {
        let written = self.str(n.written);
        let (prefix, local) = match n.prefix {
            0 => (None, written),
            colon => match (written.get(..colon), written.get(colon + 1..)) {
                (Some(prefix), Some(local)) => (Some(prefix), local),
                _ => (None, written),
            },
        };
        QName {
            namespace: n.namespace.map(|s| self.str(s)),
            prefix,
            local,
        }
    }
}

/// Builds a [`Document`] from the events of a [`Parser`], chunk after chunk.
///
/// ```
/// use tagstream::Options;
/// use tagstream::xml5::tree::{Parser, TreeBuilder, TreeOptions};
///
/// let mut parser = Parser::new(Options::default(), TreeOptions::new());
/// let mut builder = TreeBuilder::new();
/// for chunk in [&b"<a>one <b/"[..], b">two</a>"] {
///     parser.feed(chunk).for_each_event(|e| builder.push(&e));
/// }
/// parser.finish().for_each_event(|e| builder.push(&e));
/// let doc = builder.finish(&mut parser);
/// assert_eq!(doc.root_element().unwrap().text_content(), "one two");
/// ```
pub struct TreeBuilder {
    doc: Document,
    /// The node new nodes go into.
    current: usize,
    /// Namespace URIs already in the document's strings, by [`NsKey`] (direct-mapped).
    namespaces: [(NsKey, Str); NAMESPACE_CACHE],
}

/// How many namespaces [`TreeBuilder`] remembers: documents use a few.
const NAMESPACE_CACHE: usize = 8;

impl Default for TreeBuilder {
    fn default() -> TreeBuilder {
        TreeBuilder::new()
    }
}

impl TreeBuilder {
    /// A builder holding an empty document.
    pub fn new() -> TreeBuilder {
        TreeBuilder::with_capacity(0)
    }

    /// A builder with room for the tree of a document of about `bytes` bytes (its strings, and
    /// about as many nodes and attributes as XML of that size has), so that building it
    /// reallocates little. [`Document::parse`] makes its builder so.
    ///
    /// ```
    /// use tagstream::xml5::tree::{Parser, TreeBuilder};
    /// let input = b"<a>one <b/>two</a>";
    /// let mut parser = Parser::default();
    /// let mut builder = TreeBuilder::with_capacity(input.len());
    /// parser.parse(input).for_each_event(|e| builder.push(&e));
    /// let doc = builder.finish(&mut parser);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "one two");
    /// ```
    pub fn with_capacity(bytes: usize) -> TreeBuilder {
        let root = NodeData {
            data: Data::Document,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        };
        let mut nodes = Vec::with_capacity(1 + bytes / 24);
        nodes.push(root);
        TreeBuilder {
            doc: Document {
                nodes,
                attrs: Vec::with_capacity(bytes / 32),
                strings: String::with_capacity(bytes),
                errors: Vec::new(),
                dropped_errors: 0,
                parse_errors: Vec::new(),
                dropped_parse_errors: DroppedErrors::default(),
                depth_error: None,
                entity_error: None,
                limit_error: None,
            },
            current: 0,
            namespaces: [(0, Str(0, 0)); NAMESPACE_CACHE],
        }
    }

    /// Add what `event` says to the tree.
    pub fn push(&mut self, event: &Event<'_, '_>) {
        match event {
            Event::Start(start) => {
                let key = start.namespace_key();
                let name = self.name(start.name(), start.written_name(), key);
                let first = self.doc.attrs.len();
                for attribute in start.attributes() {
                    let key = attribute.namespace_key();
                    let name = self.name(attribute.name(), attribute.written_name(), key);
                    let value = self.string(attribute.value());
                    self.doc.attrs.push(AttrData { name, value });
                }
                let attrs = (first, self.doc.attrs.len());
                self.current = self.append(Data::Element { name, attrs });
            }
            Event::End(_) => {
                let parent = self.doc.nodes[self.current].parent;
                if parent != NONE {
                    self.current = parent;
                }
            }
            Event::Text(text) => self.append_text(text.text()),
            Event::Comment(comment) => {
                let data = self.string(comment.data());
                self.append(Data::Comment(data));
            }
            Event::ProcessingInstruction(pi) => {
                let target = self.string(pi.target());
                let data = self.string(pi.data());
                self.append(Data::Pi { target, data });
            }
            Event::Doctype(doctype) => {
                let name = doctype.name().map(|s| self.string(s));
                let public_id = doctype.public_id().map(|s| self.string(s));
                let system_id = doctype.system_id().map(|s| self.string(s));
                self.append(Data::Doctype {
                    name,
                    public_id,
                    system_id,
                });
            }
        }
    }

    /// The document, with the parser's parse errors (the tree stage's taken, the tokenizer's
    /// copied: those not taken from it with [`Events::drain_errors`](super::Events::drain_errors)),
    /// the counts of those dropped past [`Options::max_errors`], and the limits it stopped at.
    pub fn finish(mut self, parser: &mut Parser) -> Document {
        self.doc.errors = parser.take_errors();
        self.doc.dropped_errors = parser.dropped_errors();
        let tokenizer = parser.tokenizer();
        self.doc.parse_errors = tokenizer.errors().to_vec();
        self.doc.dropped_parse_errors = tokenizer.dropped_errors();
        self.doc.depth_error = parser.depth_error();
        self.doc.entity_error = parser.entity_error();
        self.doc.limit_error = parser.limit_error();
        self.doc
    }

    fn string(&mut self, s: &str) -> Str {
        let start = self.doc.strings.len();
        self.doc.strings.push_str(s);
        Str(start, self.doc.strings.len())
    }

    /// A name, copied as `written` (`prefix:local` in one piece, `name` split), its namespace
    /// (key `key`) shared with earlier names in it.
    fn name(&mut self, name: QName<'_>, written: &str, key: NsKey) -> NameData {
        let namespace = name.namespace.map(|uri| self.namespace(uri, key));
        NameData {
            namespace,
            written: self.string(written),
            prefix: name.prefix.map_or(0, str::len),
        }
    }

    /// The namespace `uri` (key `key`) in the document's strings: where it already is, if the
    /// cache remembers it, else copied there. A key only picks the cache's slot: what is found
    /// there is compared with `uri`, so that keys of another document (or parser) cannot mix
    /// namespaces up.
    fn namespace(&mut self, uri: &str, key: NsKey) -> Str {
        let slot = key % NAMESPACE_CACHE;
        match self.namespaces[slot] {
            (cached, s) if cached == key && self.doc.strings.get(s.0..s.1) == Some(uri) => s,
            _ => {
                let s = self.string(uri);
                self.namespaces[slot] = (key, s);
                s
            }
        }
    }

    /// Text joins the text node it follows ("insert one Text node whose data is the
    /// concatenation of all those characters").
    fn append_text(&mut self, text: &str) {
        let last = self.doc.nodes[self.current].last_child;
        if let Some(NodeData {
            data: Data::Text(s),
            ..
        }) = self.doc.nodes.get_mut(last)
            && s.1 == self.doc.strings.len()
        {
            self.doc.strings.push_str(text);
            s.1 = self.doc.strings.len();
            return;
        }
        let s = self.string(text);
        self.append(Data::Text(s));
    }

    /// Append a node to the current node's children.
    fn append(&mut self, data: Data) -> usize {
        let id = self.doc.nodes.len();
        let parent = self.current;
        self.doc.nodes.push(NodeData {
            data,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        });
        let previous = std::mem::replace(&mut self.doc.nodes[parent].last_child, id);
        match previous {
            NONE => self.doc.nodes[parent].first_child = id,
            previous => self.doc.nodes[previous].next_sibling = id,
        }
        id
    }
}

/// A node of a [`Document`].
#[derive(Clone, Copy)]
pub struct Node<'d> {
    doc: &'d Document,
    id: usize,
}

/// What a [`Node`] is.
#[derive(Clone, Copy, Debug)]
pub enum NodeKind<'d> {
    /// The document node.
    Document,
    /// An element.
    Element(Element<'d>),
    /// A text node.
    Text(&'d str),
    /// A comment's data.
    Comment(&'d str),
    /// A processing instruction.
    ProcessingInstruction {
        /// Its target.
        target: &'d str,
        /// Its data.
        data: &'d str,
    },
    /// The DOCTYPE.
    Doctype {
        /// Its name, if it has one.
        name: Option<&'d str>,
        /// Its public identifier.
        public_id: Option<&'d str>,
        /// Its system identifier.
        system_id: Option<&'d str>,
    },
}

impl<'d> Node<'d> {
    fn data(&self) -> &'d NodeData {
        &self.doc.nodes[self.id]
    }

    fn at(&self, id: usize) -> Option<Node<'d>> {
        (id != NONE).then_some(Node { doc: self.doc, id })
    }

    /// Its id in the document.
    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    /// What it is.
    pub fn kind(&self) -> NodeKind<'d> {
        let doc = self.doc;
        let opt = |s: Option<Str>| s.map(|s| doc.str(s));
        match self.data().data {
            Data::Document => NodeKind::Document,
            Data::Element { .. } => NodeKind::Element(Element { node: *self }),
            Data::Text(s) => NodeKind::Text(doc.str(s)),
            Data::Comment(s) => NodeKind::Comment(doc.str(s)),
            Data::Pi { target, data } => NodeKind::ProcessingInstruction {
                target: doc.str(target),
                data: doc.str(data),
            },
            Data::Doctype {
                name,
                public_id,
                system_id,
            } => NodeKind::Doctype {
                name: opt(name),
                public_id: opt(public_id),
                system_id: opt(system_id),
            },
        }
    }

    /// The element, if it is one.
    pub fn element(&self) -> Option<Element<'d>> {
        match self.data().data {
            Data::Element { .. } => Some(Element { node: *self }),
            _ => None,
        }
    }

    /// Its parent (`None` for the document node).
    pub fn parent(&self) -> Option<Node<'d>> {
        self.at(self.data().parent)
    }

    /// Its first child.
    pub fn first_child(&self) -> Option<Node<'d>> {
        self.at(self.data().first_child)
    }

    /// Its next sibling.
    pub fn next_sibling(&self) -> Option<Node<'d>> {
        self.at(self.data().next_sibling)
    }

    /// Its children, in order.
    pub fn children(&self) -> Children<'d> {
        Children {
            next: self.first_child(),
        }
    }

    /// The nodes below it, in document order (itself not included).
    pub fn descendants(&self) -> Descendants<'d> {
        Descendants {
            top: *self,
            next: self.first_child(),
        }
    }

    /// Its text (for a text node) or the text of all the text nodes below it, in order; the
    /// data of a comment or processing instruction.
    pub fn text_content(&self) -> String {
        match self.kind() {
            NodeKind::Text(s) | NodeKind::Comment(s) => s.to_owned(),
            NodeKind::ProcessingInstruction { data, .. } => data.to_owned(),
            _ => self
                .descendants()
                .filter_map(|n| match n.kind() {
                    NodeKind::Text(s) => Some(s),
                    _ => None,
                })
                .collect(),
        }
    }
}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Node").field(&self.kind()).finish()
    }
}

/// An element node: its name and attributes.
#[derive(Clone, Copy)]
pub struct Element<'d> {
    node: Node<'d>,
}

impl<'d> Element<'d> {
    fn attrs(&self) -> &'d [AttrData] {
        match self.node.data().data {
            Data::Element { attrs, .. } => &self.node.doc.attrs[attrs.0..attrs.1],
            _ => &[],
        }
    }

    /// Its name and namespace.
    pub fn name(&self) -> QName<'d> {
        match self.node.data().data {
            Data::Element { name, .. } => self.node.doc.name(name),
            _ => QName {
                namespace: None,
                prefix: None,
                local: "",
            },
        }
    }

    /// Its attributes (name, value), in source order, namespace declarations included.
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = (QName<'d>, &'d str)> + 'd {
        let doc = self.node.doc;
        self.attrs()
            .iter()
            .map(move |a| (doc.name(a.name), doc.str(a.value)))
    }

    /// The value of the attribute with this namespace and local name.
    pub fn attribute(&self, namespace: Option<&str>, local: &str) -> Option<&'d str> {
        self.attributes()
            .find(|(n, _)| n.namespace == namespace && n.local == local)
            .map(|(_, v)| v)
    }

    /// The node.
    pub fn node(&self) -> Node<'d> {
        self.node
    }
}

impl std::fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Element")
            .field("name", &self.name())
            .field("attributes", &self.attributes().collect::<Vec<_>>())
            .finish()
    }
}

/// The children of a node; see [`Node::children`].
pub struct Children<'d> {
    next: Option<Node<'d>>,
}

impl<'d> Iterator for Children<'d> {
    type Item = Node<'d>;

    fn next(&mut self) -> Option<Node<'d>> {
        let node = self.next?;
        self.next = node.next_sibling();
        Some(node)
    }
}

/// The nodes below a node, in document order; see [`Node::descendants`]. Walks the links, no
/// stack.
pub struct Descendants<'d> {
    top: Node<'d>,
    next: Option<Node<'d>>,
}

impl<'d> Iterator for Descendants<'d> {
    type Item = Node<'d>;

    fn next(&mut self) -> Option<Node<'d>> {
        let node = self.next?;
        self.next = node.first_child().or_else(|| {
            let mut up = node;
            loop {
                if up.id == self.top.id {
                    return None;
                }
                if let Some(sibling) = up.next_sibling() {
                    return Some(sibling);
                }
                up = up.parent()?;
            }
        });
        Some(node)
    }
}
