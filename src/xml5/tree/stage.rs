//! The streaming tree stage: the draft's tree construction (spec/002 §1.4, start, main and end
//! phases) over the XML5 tokens, reporting structure events without building a tree.
//!
//! Between tokens the stage keeps the stack of open elements (each element's name, its resolved
//! namespace and where the namespace scope stood before its declarations) and the namespace
//! scope ([`super::names`]). An element's name is borrowed from its token while the feed that
//! opened it lasts, and copied only if the element is still open when the feed's events are
//! dropped: a whole document copies no name. An [`Event`] borrows the stage (for names and namespaces) and the
//! token it comes from; an element that ends stays on the stack until the next event is asked
//! for, so that its [`End`] can still name it.
//!
//! For speed, what every token goes through (the loop, `process`, opening and closing an
//! element, naming it) is `#[inline(always)]` into the event loop, and what only errors and
//! rare input reach (reporting, dropped text, declarations, prefixed attributes) is `#[cold]`
//! and out of line: left to the compiler, the loop was split into calls that cost the events
//! race 2 instructions a byte (perf/README, "XML trees").

use std::cell::OnceCell;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::BuildHasher;

use bumpalo::Bump;

use crate::error::{LimitError, ParseError, Position};
use crate::lex::cut_character_len;
use crate::options::Options;
use crate::span::{Span, TextKind};
use crate::token::{
    Attribute, Attributes, Comment, Doctype, EndTag, ProcessingInstruction, Source, StartTag, Text,
    Token,
};
use crate::word::WordHash;

use super::super::{Tokenizer, Tokens};
use super::names::{
    Mark, Ns, NsKey, QName, Scope, Split, XML_NAMESPACE, XMLNS_NAMESPACE, declared, parts, split,
    split_colons, unprefixed,
};
use super::subset::Entities;

mod expand;
mod record;

use expand::{AttrFrame, Level};
use record::Pull;
pub use record::Pulled;

/// The options of the tree stage (the tokenizer's are [`Options`]).
///
/// ```
/// use tagstream::xml5::tree::TreeOptions;
/// let options = TreeOptions::new().max_depth(256);
/// # let _ = options;
/// ```
#[derive(Clone, Debug)]
pub struct TreeOptions {
    max_depth: usize,
    max_entity_depth: usize,
    max_entity_bytes: usize,
    html_entities: bool,
}

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions {
            max_depth: TreeOptions::DEFAULT_MAX_DEPTH,
            max_entity_depth: TreeOptions::DEFAULT_MAX_ENTITY_DEPTH,
            max_entity_bytes: TreeOptions::DEFAULT_MAX_ENTITY_BYTES,
            html_entities: true,
        }
    }
}

impl TreeOptions {
    /// The default [`TreeOptions::max_depth`].
    pub const DEFAULT_MAX_DEPTH: usize = 4096;
    /// The default [`TreeOptions::max_entity_depth`].
    pub const DEFAULT_MAX_ENTITY_DEPTH: usize = 16;
    /// The default [`TreeOptions::max_entity_bytes`]: 4 MiB.
    pub const DEFAULT_MAX_ENTITY_BYTES: usize = 4 << 20;

    /// The defaults: at most [`TreeOptions::DEFAULT_MAX_DEPTH`] open elements, entities
    /// expanded at most [`TreeOptions::DEFAULT_MAX_ENTITY_DEPTH`] deep and to
    /// [`TreeOptions::DEFAULT_MAX_ENTITY_BYTES`] in all, undeclared names looked up in HTML's
    /// table.
    pub fn new() -> TreeOptions {
        TreeOptions::default()
    }

    /// At most `depth` entity references expanded one inside another (a reference in a
    /// replacement text, in another's...): the reference that would go deeper stays as written
    /// and expansion stops ([`EntityError`], `entity-expansion-limit`).
    pub fn max_entity_depth(mut self, depth: usize) -> TreeOptions {
        self.max_entity_depth = depth;
        self
    }

    /// At most `bytes` of replacement text expanded in the whole document (each expansion
    /// counts its replacement text's bytes, at least 1, in text and attribute values alike):
    /// the reference that would pass it stays as written and expansion stops ([`EntityError`],
    /// `entity-expansion-limit`). This bounds a document built to explode (billion laughs,
    /// quadratic blowup).
    pub fn max_entity_bytes(mut self, bytes: usize) -> TreeOptions {
        self.max_entity_bytes = bytes;
        self
    }

    /// Whether a name the internal subset does not declare and that is not one of XML's five
    /// predefined entities is looked up in HTML's named character references (the default,
    /// as xml5lib-tests expects: `&copy;` is ©). With `false`, XML's names only: such a
    /// reference stays as written, with an `undeclared-entity` error.
    pub fn html_entities(mut self, on: bool) -> TreeOptions {
        self.html_entities = on;
        self
    }

    /// At most `depth` elements open at once: a start tag that would open one more stops the
    /// stream with a [`DepthError`] (every open element then ends with [`EndCause::Stopped`]).
    pub fn max_depth(mut self, depth: usize) -> TreeOptions {
        self.max_depth = depth;
        self
    }
}

macro_rules! tree_error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// A parse error of the tree stage: the draft's tree-construction errors (named here, the
        /// draft gives no names) and those of Namespaces in XML 1.0.
        ///
        /// ```
        /// use tagstream::xml5::tree::TreeErrorCode;
        /// assert_eq!(TreeErrorCode::UnboundPrefix.as_str(), "unbound-prefix");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum TreeErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl TreeErrorCode {
            /// Every code.
            pub const ALL: &'static [TreeErrorCode] = &[$(TreeErrorCode::$variant,)*];

            /// The code's kebab-case name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(TreeErrorCode::$variant => $name,)*
                }
            }
        }
    };
}

tree_error_codes! {
    /// Text other than whitespace, or an end tag, before the root element (start phase, "anything
    /// else"): dropped.
    ContentBeforeRootElement => "content-before-root-element",
    /// The input ended before any element (start phase, end-of-file).
    MissingRootElement => "missing-root-element",
    /// A DOCTYPE after the first one or after the root element started: dropped.
    MisplacedDoctype => "misplaced-doctype",
    /// An end tag that names an open element other than the current one: the elements above
    /// that one end too (main phase, end tag).
    MismatchedEndTag => "mismatched-end-tag",
    /// An end tag that names no open element: dropped (main phase, end tag).
    UnmatchedEndTag => "unmatched-end-tag",
    /// The input ended with elements open: they end there (main phase, end-of-file).
    EofWithOpenElements => "eof-with-open-elements",
    /// Text other than whitespace, a tag, after the root element ended (end phase, "anything
    /// else"): dropped.
    ContentAfterRootElement => "content-after-root-element",
    /// A prefix no declaration in scope binds: the name stays as written, in no namespace.
    UnboundPrefix => "unbound-prefix",
    /// A name with a colon first, last or twice: kept whole, in no namespace.
    InvalidQualifiedName => "invalid-qualified-name",
    /// An element named with the `xmlns` prefix: in no namespace.
    XmlnsPrefixOnElement => "xmlns-prefix-on-element",
    /// A declaration of `xmlns:xmlns`, of `xml` to another namespace, or of another prefix (or
    /// the default) to the `xml` or `xmlns` namespace: not applied, kept as an attribute in no
    /// namespace.
    ReservedNamespaceDeclaration => "reserved-namespace-declaration",
    /// An attribute whose namespace and local name repeat an earlier one's (`a:x` and `b:x`
    /// with `a` and `b` bound to one namespace): dropped.
    DuplicateExpandedAttribute => "duplicate-expanded-attribute",
    /// A reference (`&name;`) to an entity the internal subset does not declare, that is not
    /// predefined nor (with [`TreeOptions::html_entities`]) an HTML name: kept as written.
    UndeclaredEntity => "undeclared-entity",
    /// A reference to an entity inside its own expansion (`a` → `b` → `a`): kept as written.
    RecursiveEntityReference => "recursive-entity-reference",
    /// Expansion passed [`TreeOptions::max_entity_depth`] or
    /// [`TreeOptions::max_entity_bytes`] ([`EntityError`]): this reference and every later
    /// one stay as written.
    EntityExpansionLimit => "entity-expansion-limit",
    /// A `<` in the replacement text of an entity used in an attribute value (XML 1.0 §3.1,
    /// "No < in Attribute Values"): kept, as a character of the value.
    LessThanInAttributeEntity => "less-than-in-attribute-entity",
    /// An external entity declared in the internal subset: skipped, never fetched.
    ExternalEntityNotFetched => "external-entity-not-fetched",
    /// A parameter entity declared or referenced in the internal subset: skipped (a
    /// reference inside an entity value stays as written).
    ParameterEntityNotRead => "parameter-entity-not-read",
    /// An `ELEMENT`, `ATTLIST` or `NOTATION` declaration or a conditional section in the
    /// internal subset: skipped.
    DeclarationSkipped => "declaration-skipped",
    /// Bytes of the internal subset that start no declaration, or an entity declaration with
    /// neither a value nor an external identifier: skipped.
    MalformedDeclaration => "malformed-declaration",
}

impl fmt::Display for TreeErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parse error of the tree stage: its code and where it was found (the start of the token,
/// or of the attribute, that it is about; the end of the input for the end-of-file errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeError {
    /// What went wrong.
    pub code: TreeErrorCode,
    /// Byte offset in the whole input.
    pub offset: usize,
    /// Line and column of `offset`, from the tokenizer. `None` where it no longer holds the
    /// offset: only for an end-of-input error when the input ended in bytes that made no token
    /// (an unfinished CDATA section, say) carried over from an earlier chunk.
    pub position: Option<Position>,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{}:{}: {}", p.line, p.col, self.code),
            None => write!(f, "byte {}: {}", self.offset, self.code),
        }
    }
}

/// The stream stopped at [`TreeOptions::max_depth`]: the start tag at `offset` would have opened
/// one element more than `max`. It and everything after it produce no event; the open elements
/// end with [`EndCause::Stopped`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthError {
    /// The configured limit.
    pub max: usize,
    /// Stream offset of the start tag that did not open.
    pub offset: usize,
}

impl fmt::Display for DepthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth limit at byte {}: more than {} open elements",
            self.offset, self.max
        )
    }
}

impl std::error::Error for DepthError {}

/// Entity expansion stopped at a limit of [`TreeOptions`]: the reference at `offset` would
/// have passed it. It and every later reference stay as written; the document goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntityError {
    /// Which limit.
    pub limit: EntityLimit,
    /// The configured limit.
    pub max: usize,
    /// Stream offset of the reference in the document (of the outermost one, for a
    /// reference inside a replacement text).
    pub offset: usize,
}

/// The limits of entity expansion; see [`EntityError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityLimit {
    /// [`TreeOptions::max_entity_depth`].
    Depth,
    /// [`TreeOptions::max_entity_bytes`].
    Bytes,
}

impl fmt::Display for EntityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            EntityLimit::Depth => "entities nested",
            EntityLimit::Bytes => "bytes of replacement text",
        };
        write!(
            f,
            "entity expansion limit at byte {}: more than {} {what}",
            self.offset, self.max
        )
    }
}

impl std::error::Error for EntityError {}

/// Why an element ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCause {
    /// Its end tag.
    Written,
    /// An end tag of an element it is inside (a mismatched end tag pops up to its match).
    Implied,
    /// A short end tag `</>`.
    Short,
    /// It was an empty tag `<a/>`.
    Empty,
    /// The end of the input.
    EndOfInput,
    /// The stream stopped at the depth limit ([`DepthError`]).
    Stopped,
}

/// One structure event of the tree stage (see [`Events::next_event`]). `'s` borrows the stage
/// (names, namespaces), `'t` the input, as tokens do.
pub enum Event<'s, 't> {
    /// An element starts: a start tag, or an empty tag (whose [`Event::End`] follows at once).
    Start(Start<'s, 't>),
    /// An element ends.
    End(End<'s>),
    /// Text inside the root element (character data or a CDATA section's content, as written
    /// or from an entity's replacement text); adjacent text events belong to one text node.
    Text(CharData<'s, 't>),
    /// A comment, inside the root element or around it.
    Comment(Comment<'t>),
    /// A processing instruction (the XML declaration too, target `xml`).
    ProcessingInstruction(ProcessingInstruction<'t>),
    /// The DOCTYPE, if it came before the root element (at most one).
    Doctype(Doctype<'t>),
}

/// The text of an [`Event::Text`]: a text token, or a piece of one (a text token is cut at
/// each entity reference the stage expands), from the input or from an entity's replacement
/// text.
#[derive(Clone, Copy)]
pub struct CharData<'s, 't> {
    /// The text and whether it is a reference kept as written, in [`Events`]'s slot.
    piece: &'s (Text<'t>, bool),
    stage: &'s Stage,
}

impl<'s, 't> CharData<'s, 't> {
    /// The text: character references resolved, newlines normalized (as [`Text::text`]); for
    /// a reference kept as written (an undeclared name, a limit passed), those bytes.
    #[inline]
    pub fn text(&self) -> &'t str {
        let (token, verbatim) = self.piece;
        if *verbatim {
            // Only references with an ASCII name are kept this way.
            std::str::from_utf8(token.raw()).unwrap_or("\u{FFFD}")
        } else {
            token.text()
        }
    }

    /// The text as written (in the input, or in the replacement text).
    pub fn raw(&self) -> &'t [u8] {
        self.piece.0.raw()
    }

    /// The token (or piece of one) it is. From a replacement text, its spans are offsets in
    /// the internal subset's replacement texts, not in the input.
    pub fn token(&self) -> Text<'t> {
        self.piece.0
    }

    /// Where it is in the input: its span, or, from a replacement text, the span of the
    /// reference in the document that led to it.
    pub fn span(&self) -> Span {
        self.stage.origin.unwrap_or(self.piece.0.span())
    }

    /// Whether it comes from an entity's replacement text.
    pub fn from_entity(&self) -> bool {
        self.stage.origin.is_some()
    }
}

impl fmt::Debug for CharData<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CharData")
            .field("token", &self.piece.0)
            .field("verbatim", &self.piece.1)
            .field("origin", &self.stage.origin)
            .finish()
    }
}

/// An element's start: its name and attributes resolved, its depth, and its tag.
pub struct Start<'s, 't> {
    tag: &'s StartTag<'t>,
    stage: &'s Stage,
    /// The name as written.
    name: &'s str,
}

impl<'s, 't: 's> Start<'s, 't> {
    /// The element's name and namespace.
    #[inline]
    pub fn name(&self) -> QName<'s> {
        self.stage.top_name(self.name)
    }

    /// How many elements are open with this one: 1 for the root element.
    pub fn depth(&self) -> usize {
        self.stage.frames.len()
    }

    /// Whether it is an empty tag `<a/>` (its end comes next).
    pub fn is_empty(&self) -> bool {
        self.tag.self_closing()
    }

    /// The attributes with their namespaces, in source order, without those dropped (repeated
    /// names: the first wins). Namespace declarations are among them, in the XMLNS namespace.
    pub fn attributes(&self) -> NsAttributes<'s, 't> {
        NsAttributes {
            attributes: self.tag.attributes(),
            slots: self.stage.attrs.iter(),
            scope: &self.stage.scope,
            expanded: self.stage.expanded_values(),
        }
    }

    /// The start tag itself (its raw bytes, spans, and every attribute as written). For an
    /// element from an entity's replacement text, the tag as written there (its spans are
    /// offsets in the internal subset's replacement texts).
    pub fn tag(&self) -> StartTag<'t> {
        *self.tag
    }

    /// The element's name as written (`prefix:local` in one piece), for the tree to copy once.
    pub(super) fn written_name(&self) -> &'s str {
        self.name
    }

    /// The [`NsKey`] of the element's namespace.
    pub(super) fn namespace_key(&self) -> NsKey {
        let ns = self.stage.frames.last().map_or(Ns::None, |f| f.ns);
        self.stage.scope.key(ns)
    }
}

/// The attributes of a [`Start`], resolved; see [`Start::attributes`].
pub struct NsAttributes<'s, 't> {
    attributes: Attributes<'t>,
    slots: std::slice::Iter<'s, AttrSlot>,
    scope: &'s Scope,
    /// The values with entities expanded, by attribute; `None` when none was (most tags: then
    /// no attribute pays for looking).
    expanded: Option<expand::Values<'s>>,
}

impl<'s, 't: 's> Iterator for NsAttributes<'s, 't> {
    type Item = NsAttribute<'s, 't>;

    #[inline(always)]
    fn next(&mut self) -> Option<NsAttribute<'s, 't>> {
        loop {
            let attribute = self.attributes.next()?;
            let expanded = match &mut self.expanded {
                None => None,
                Some(values) => values.next(),
            };
            let Some(slot) = self.slots.next() else {
                let written = attribute.xml_name();
                return Some(NsAttribute {
                    name: QName {
                        namespace: None,
                        prefix: None,
                        local: written,
                    },
                    attribute,
                    written,
                    key: 0,
                    expanded,
                });
            };
            if slot.keep {
                let written = attribute.xml_name();
                let (prefix, local) = parts(written, slot.split);
                let name = QName {
                    namespace: self.scope.uri(slot.ns),
                    prefix,
                    local,
                };
                let key = self.scope.key(slot.ns);
                return Some(NsAttribute {
                    name,
                    attribute,
                    written,
                    key,
                    expanded,
                });
            }
        }
    }
}

/// One attribute with its namespace.
#[derive(Clone, Copy)]
pub struct NsAttribute<'s, 't> {
    name: QName<'s>,
    attribute: Attribute<'t>,
    /// The name as written, decoded (`prefix:local` in one piece).
    written: &'s str,
    key: NsKey,
    expanded: Option<&'s str>,
}

impl<'s, 't: 's> NsAttribute<'s, 't> {
    /// The name and namespace.
    pub fn name(&self) -> QName<'s> {
        self.name
    }

    /// The value, character references resolved and entities expanded.
    #[inline]
    pub fn value(&self) -> &'s str {
        self.expanded.unwrap_or_else(|| self.attribute.value())
    }

    /// The attribute as the tokenizer gives it (raw bytes, spans).
    pub fn attribute(&self) -> Attribute<'t> {
        self.attribute
    }

    /// The [`NsKey`] of its namespace.
    pub(super) fn namespace_key(&self) -> NsKey {
        self.key
    }

    /// Its name as written (`prefix:local` in one piece), for the tree to copy once.
    pub(super) fn written_name(&self) -> &'s str {
        self.written
    }
}

/// An element's end. It reads the element from the stage (still on its stack), so that an
/// event stays small to hand out.
#[derive(Clone, Copy)]
pub struct End<'s> {
    stage: &'s Stage,
    cause: EndCause,
    /// The name as written.
    name: &'s str,
}

impl<'s> End<'s> {
    /// The element's name and namespace (as at its start).
    #[inline]
    pub fn name(&self) -> QName<'s> {
        self.stage.top_name(self.name)
    }

    /// Its depth (as at its start).
    pub fn depth(&self) -> usize {
        self.stage.frames.len()
    }

    /// Why it ended.
    pub fn cause(&self) -> EndCause {
        self.cause
    }

    /// The token that ended it (the end tag, short end tag or empty tag; for an implied end,
    /// the end tag that implied it), or an empty span at the end of the input or at the start
    /// tag the depth limit stopped.
    pub fn span(&self) -> Span {
        self.stage.end_span
    }
}

impl fmt::Debug for End<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("End")
            .field("name", &self.name())
            .field("depth", &self.depth())
            .field("cause", &self.cause)
            .field("span", &self.span())
            .finish()
    }
}

/// The draft's phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the root element.
    Start,
    /// Inside the root element.
    Main,
    /// After the root element.
    End,
}

/// Open elements below this depth are found by walking them; those at it and above are also
/// counted in [`Stage::deep`] by the hash of their name, so that an end tag that names none of
/// them costs a hash probe, not a walk of a deep stack.
const SHALLOW: usize = 16;

/// One open element (its name is kept apart: [`Slots::names`], [`Stage::names`]).
struct Frame {
    split: Split,
    ns: Ns,
    /// The namespace scope before its declarations.
    mark: Mark,
}

/// What the stage decided about an attribute of the current start tag.
struct AttrSlot {
    ns: Ns,
    split: Split,
    /// A namespace declaration (resolved in the first pass).
    declaration: bool,
    /// Left for the second pass: a prefixed (or malformed) name that is not a declaration.
    pending: bool,
    /// False when dropped (a repeated expanded name).
    keep: bool,
}

impl AttrSlot {
    /// An attribute without a prefix that declares nothing: in no namespace, kept.
    fn plain() -> AttrSlot {
        AttrSlot::plain_split(Split::Unprefixed)
    }

    /// An attribute named as `split` in no namespace (so far), kept.
    fn plain_split(split: Split) -> AttrSlot {
        AttrSlot {
            ns: Ns::None,
            split,
            declaration: false,
            pending: false,
            keep: true,
        }
    }
}

/// The tokens an [`Event::Start`] or [`Event::Text`] borrows, put here by the stage as it
/// makes the event (moved once, not handed through [`Ready`]).
#[derive(Default)]
struct Slots<'t> {
    tag: Option<StartTag<'t>>,
    /// Text, and whether it is a reference kept as written.
    text: Option<(Text<'t>, bool)>,
    /// A comment, processing instruction or DOCTYPE.
    other: Option<Token<'t>>,
    /// The names of the open elements from [`Stage::owned`] on (those opened during this
    /// feed), borrowed from the tokens: copied into [`Stage::names`] only if the elements are
    /// still open when the feed's events are dropped ([`Stage::own_names`]), so that a whole
    /// document copies none.
    names: Vec<&'t str>,
}

/// What the next event is, before it borrows the stage: a byte or two, handed back in a
/// register (with the tokens in it, it was written to memory and read back at once in one
/// piece, which waits for the pieces to be stored: the clock, not callgrind, counts that).
#[derive(Clone, Copy)]
enum Ready {
    /// The start tag is in [`Slots::tag`].
    Start,
    End(EndCause),
    /// Text: it is in [`Slots::text`].
    Text,
    /// The token in [`Slots::other`].
    Other,
}

/// The tree stage's state between tokens (see the module docs); memory: the open elements'
/// names and frames, the namespace scope, the current tag's attribute slots, the errors not
/// taken.
pub(crate) struct Stage {
    phase: Phase,
    frames: Vec<Frame>,
    /// The names of the open elements below [`Stage::owned`], which outlive the feed that
    /// opened them; those above are borrowed ([`Slots::names`]).
    names: String,
    /// How many open elements, from the bottom, have their names in [`Stage::names`].
    owned: usize,
    /// Where each of those names is in [`Stage::names`].
    owned_names: Vec<(usize, usize)>,
    /// The hash of the name of each open element at [`SHALLOW`] and above.
    deep_hashes: Vec<u64>,
    /// The allocation of [`Slots::names`] between feeds (empty).
    spare_names: Vec<&'static str>,
    scope: Scope,
    /// The current tag's attribute slots, by index; empty when every attribute is plain
    /// ([`AttrSlot::plain`]: most tags), so that those cost no slot.
    attrs: Vec<AttrSlot>,
    /// Scratch: the attributes in a namespace, sorted to find repeated expanded names.
    order: Vec<usize>,
    /// Name hash → how many frames at [`SHALLOW`] and above have it.
    deep: HashMap<u64, usize>,
    hasher: WordHash,
    /// Ends still to report, the innermost open element first.
    ends: usize,
    /// The cause of each of them but the last.
    implied: EndCause,
    /// The cause of the last.
    last: EndCause,
    end_span: Span,
    /// The top frame ended (its event is out): pop it before the next event.
    popped: bool,
    doctype_seen: bool,
    /// The last token was text dropped with an error (the run's next pieces go silently).
    in_dropped_text: bool,
    /// `finish` was called: the stream is over once its events are out.
    finishing: bool,
    eof_done: bool,
    stopped: bool,
    /// Bytes fed so far: the end of the input, where the end-of-file steps report.
    fed: usize,
    /// The input's last bytes (at most 3, right-aligned; `end_len` of them are real): a
    /// character they begin and do not finish is carried by the tokenizer across the seam.
    end: [u8; 3],
    end_len: usize,
    errors_on: bool,
    max_errors: usize,
    errors: Vec<TreeError>,
    dropped: u64,
    max_depth: usize,
    depth_error: Option<DepthError>,
    /// How tokens are taken: plainly, or with entity expansion (the internal subset declared
    /// general entities, or [`TreeOptions::html_entities`] is off: text and attribute values
    /// are looked at) or the record ([`Events::recording`]).
    pull: Pull,
    /// The entity expansions in progress, the innermost last.
    levels: Vec<Level>,
    /// While an expansion is in progress: the reference in the document it started at, where
    /// its errors and ends are reported.
    origin: Option<Span>,
    /// Bytes of replacement text expanded so far.
    expanded: usize,
    entity_error: Option<EntityError>,
    max_entity_depth: usize,
    max_entity_bytes: usize,
    html_entities: bool,
    /// The current start tag's attribute values with entities expanded, and where each is.
    values: String,
    value_spans: Vec<Option<(usize, usize)>>,
    /// The bytes of a name begun at the end of a text token (a chunk seam may cut a
    /// reference), kept for the next, and their stream offset.
    tail: Vec<u8>,
    tail_start: usize,
    /// The bytes kept back are a whole text's rest (events dropped early), not a name a seam
    /// may continue.
    tail_complete: bool,
    /// The attribute value being expanded and the replacement texts included in it, outermost
    /// first.
    attr_frames: Vec<AttrFrame>,
}

impl Stage {
    fn new(options: &Options, tree: &TreeOptions) -> Stage {
        Stage {
            phase: Phase::Start,
            frames: Vec::new(),
            names: String::new(),
            owned: 0,
            owned_names: Vec::new(),
            deep_hashes: Vec::new(),
            spare_names: Vec::new(),
            scope: Scope::new(),
            attrs: Vec::new(),
            order: Vec::new(),
            deep: HashMap::new(),
            hasher: WordHash::new(),
            ends: 0,
            implied: EndCause::Implied,
            last: EndCause::Written,
            end_span: Span::empty(0),
            popped: false,
            doctype_seen: false,
            in_dropped_text: false,
            finishing: false,
            eof_done: false,
            stopped: false,
            fed: 0,
            errors_on: options.errors,
            max_errors: options.max_errors,
            errors: Vec::new(),
            dropped: 0,
            max_depth: tree.max_depth,
            depth_error: None,
            pull: Pull::new(!tree.html_entities),
            levels: Vec::new(),
            origin: None,
            expanded: 0,
            entity_error: None,
            max_entity_depth: tree.max_entity_depth,
            max_entity_bytes: tree.max_entity_bytes,
            html_entities: tree.html_entities,
            values: String::new(),
            value_spans: Vec::new(),
            attr_frames: Vec::new(),
            tail: Vec::new(),
            tail_start: 0,
            tail_complete: false,
            end: [0; 3],
            end_len: 0,
        }
    }

    /// Keep the last bytes of the input, `chunk` just fed (see [`Stage::end`]).
    fn note_end(&mut self, chunk: &[u8]) {
        let take = chunk.len().min(3);
        self.end.rotate_left(take);
        self.end[3 - take..].copy_from_slice(&chunk[chunk.len() - take..]);
        self.end_len = (self.end_len + take).min(3);
    }

    /// Where the tokenizer stopped reading the input fed so far: its end, less a character
    /// the last bytes begin and do not finish (which the tokenizer carries to the next feed),
    /// by the tokenizer's own rule ([`cut_character_len`]).
    fn read_to(&self) -> usize {
        self.fed - cut_character_len(&self.end[3 - self.end_len..])
    }

    /// Back to the start of a document, keeping the allocations.
    fn reset(&mut self) {
        self.phase = Phase::Start;
        self.frames.clear();
        self.names.clear();
        self.owned = 0;
        self.owned_names.clear();
        self.deep_hashes.clear();
        self.scope.clear();
        self.attrs.clear();
        self.deep.clear();
        self.ends = 0;
        self.popped = false;
        self.doctype_seen = false;
        self.in_dropped_text = false;
        self.finishing = false;
        self.eof_done = false;
        self.stopped = false;
        self.fed = 0;
        self.end_len = 0;
        self.errors.clear();
        self.dropped = 0;
        self.depth_error = None;
        self.reset_entities();
    }

    /// Open elements, not counting one whose end is already out.
    fn open_elements(&self) -> usize {
        self.frames.len() - usize::from(self.popped)
    }

    /// The current element's name and namespace, its name as written being `written`.
    #[inline(always)]
    fn top_name<'a>(&'a self, written: &'a str) -> QName<'a> {
        let (split, ns) = self
            .frames
            .last()
            .map_or((Split::Unprefixed, Ns::None), |frame| {
                (frame.split, frame.ns)
            });
        let (prefix, local) = parts(written, split);
        QName {
            namespace: self.scope.uri(ns),
            prefix,
            local,
        }
    }

    /// The name as written of the current element: the last of `borrowed` ([`Slots::names`],
    /// the top elements') if there is one, else the last in [`Stage::names`].
    #[inline(always)]
    fn current_name<'a>(&'a self, borrowed: &[&'a str]) -> &'a str {
        match borrowed.last() {
            Some(name) => name,
            None => self
                .owned_names
                .last()
                .map_or("", |&(start, end)| &self.names[start..end]),
        }
    }

    /// The name as written of the open element at `index`: in `borrowed` ([`Slots::names`]) or,
    /// below [`Stage::owned`], in [`Stage::names`].
    #[inline(always)]
    fn name_at<'a>(&'a self, borrowed: &[&'a str], index: usize) -> &'a str {
        match index.checked_sub(self.owned) {
            Some(above) => borrowed.get(above).copied().unwrap_or_default(),
            None => self
                .owned_names
                .get(index)
                .map_or("", |&(start, end)| &self.names[start..end]),
        }
    }

    /// The events of a feed are dropped: copy the names they borrow of the elements still open
    /// into [`Stage::names`].
    fn own_names(&mut self, borrowed: &mut Vec<&str>) {
        for name in borrowed.drain(..) {
            let start = self.names.len();
            self.names.push_str(name);
            self.owned_names.push((start, self.names.len()));
        }
        self.owned = self.owned_names.len();
    }

    #[cold]
    #[inline(never)]
    fn report(&mut self, code: TreeErrorCode, offset: usize, tokens: &mut Tokens<'_>) {
        if !self.errors_on {
            return;
        }
        if self.errors.len() >= self.max_errors {
            self.dropped += 1;
            return;
        }
        let offset = self.origin.map_or(offset, |origin| origin.start);
        let position = tokens.position(offset);
        self.errors.push(TreeError {
            code,
            offset,
            position,
        });
    }

    /// Pop the element whose end went out with the last event.
    #[inline(always)]
    fn settle(&mut self, borrowed: &mut Vec<&str>) {
        if !std::mem::take(&mut self.popped) {
            return;
        }
        if let Some(frame) = self.frames.pop() {
            if self.frames.len() >= SHALLOW {
                self.uncount_deep();
            }
            self.scope.pop_to(frame.mark);
            if self.frames.len() < self.owned {
                self.disown_name();
            } else {
                borrowed.pop();
            }
        }
        if self.frames.is_empty() && self.phase == Phase::Main {
            self.phase = Phase::End;
        }
    }

    /// The top element, opened in an earlier feed, ended: its name leaves [`Stage::names`].
    #[cold]
    #[inline(never)]
    fn disown_name(&mut self) {
        if let Some((start, _)) = self.owned_names.pop() {
            self.names.truncate(start);
        }
        self.owned = self.owned_names.len();
    }

    /// An element at [`SHALLOW`] or above ended: its name's hash is counted out of
    /// [`Stage::deep`].
    #[cold]
    #[inline(never)]
    fn uncount_deep(&mut self) {
        let Some(hash) = self.deep_hashes.pop() else {
            return;
        };
        if let Entry::Occupied(mut entry) = self.deep.entry(hash) {
            *entry.get_mut() -= 1;
            if *entry.get() == 0 {
                entry.remove();
            }
        }
    }

    /// The next pending end's cause; the element is popped before the next event.
    #[inline(always)]
    fn next_end(&mut self) -> EndCause {
        self.ends -= 1;
        self.popped = true;
        if self.ends == 0 {
            self.last
        } else {
            self.implied
        }
    }

    /// End the current element now, for `cause` (its end is this event: as [`Stage::next_end`]
    /// after ending one element, without going round the loop).
    #[inline(always)]
    fn end_current(&mut self, cause: EndCause, span: Span) -> Ready {
        self.end_span = self.origin.unwrap_or(span);
        self.popped = true;
        Ready::End(cause)
    }

    /// End `count` open elements, the last with `last`, the others with `implied`.
    #[inline(always)]
    fn schedule_ends(&mut self, count: usize, implied: EndCause, last: EndCause, span: Span) {
        self.ends = count;
        self.implied = implied;
        self.last = last;
        self.end_span = self.origin.unwrap_or(span);
    }

    /// One token, by the phase: the event it makes, if any (pending ends aside).
    #[inline(always)]
    fn process<'t>(
        &mut self,
        token: Token<'t>,
        slots: &mut Slots<'t>,
        tokens: &mut Tokens<'_>,
    ) -> Option<Ready> {
        let span = token.span();
        self.in_dropped_text &= matches!(token, Token::Text(_));
        match (self.phase, token) {
            (_, Token::Raw(_)) => None,
            (Phase::Start | Phase::Main, Token::StartTag(tag)) => {
                self.open(slots.tag.insert(tag), &mut slots.names, tokens)
            }
            (Phase::Main, Token::EndTag(tag)) => self.close(tag, &slots.names, tokens),
            (Phase::Main, Token::Text(text)) => {
                slots.text = Some((text, false));
                Some(Ready::Text)
            }
            (_, Token::Comment(comment)) => {
                slots.other = Some(Token::Comment(comment));
                Some(Ready::Other)
            }
            (_, Token::ProcessingInstruction(pi)) => {
                slots.other = Some(Token::ProcessingInstruction(pi));
                Some(Ready::Other)
            }
            (Phase::Start, Token::Doctype(doctype)) if !self.doctype_seen => {
                self.doctype_seen = true;
                slots.other = Some(Token::Doctype(doctype));
                Some(Ready::Other)
            }
            (_, Token::Doctype(_)) => {
                self.report(TreeErrorCode::MisplacedDoctype, span.start, tokens);
                None
            }
            (Phase::Start | Phase::End, Token::Text(text)) => {
                self.drop_text(&text, tokens);
                None
            }
            (Phase::Start, _) => {
                self.report(TreeErrorCode::ContentBeforeRootElement, span.start, tokens);
                None
            }
            (Phase::End, _) => {
                self.report(TreeErrorCode::ContentAfterRootElement, span.start, tokens);
                None
            }
        }
    }

    /// Text before or after the root element: whitespace goes silently; other text goes with one
    /// error per run of text, at its first byte that is not whitespace (a CDATA section's: at its
    /// start), wherever chunks cut it.
    #[cold]
    #[inline(never)]
    fn drop_text(&mut self, text: &Text<'_>, tokens: &mut Tokens<'_>) {
        if self.in_dropped_text || is_whitespace(text) {
            return;
        }
        self.in_dropped_text = true;
        let raw = text.raw();
        let skip = match text.kind() {
            TextKind::Cdata => 0,
            _ => raw.iter().take_while(|b| is_space(**b)).count(),
        };
        let at = text.span().start + skip.min(raw.len().saturating_sub(1));
        let code = match self.phase {
            Phase::Start => TreeErrorCode::ContentBeforeRootElement,
            _ => TreeErrorCode::ContentAfterRootElement,
        };
        self.report(code, at, tokens);
    }

    /// The end of the input, once: the start phase's and the main phase's end-of-file steps.
    /// Whether anything was done.
    #[cold]
    #[inline(never)]
    fn end_of_input(&mut self, tokens: &mut Tokens<'_>) -> bool {
        if std::mem::replace(&mut self.eof_done, true) {
            return false;
        }
        let at = self.fed;
        match self.phase {
            Phase::Start => {
                self.report(TreeErrorCode::MissingRootElement, at, tokens);
                self.phase = Phase::End;
            }
            Phase::Main => {
                self.report(TreeErrorCode::EofWithOpenElements, at, tokens);
                let open = self.frames.len();
                let cause = EndCause::EndOfInput;
                self.schedule_ends(open, cause, cause, Span::empty(at));
            }
            Phase::End => {}
        }
        true
    }

    /// A start or empty tag: "insert an element for the token" (or "create" one, for an empty
    /// tag, whose end is scheduled at once).
    #[inline(always)]
    fn open<'t>(
        &mut self,
        tag: &StartTag<'t>,
        names: &mut Vec<&'t str>,
        tokens: &mut Tokens<'_>,
    ) -> Option<Ready> {
        let at = tag.span().start;
        if self.frames.len() >= self.max_depth {
            self.depth_error = Some(DepthError {
                max: self.max_depth,
                offset: at,
            });
            self.stopped = true;
            let (open, cause) = (self.frames.len(), EndCause::Stopped);
            self.schedule_ends(open, cause, cause, Span::empty(at));
            return None;
        }
        let mark = self.scope.mark();
        let pending = self.declare_namespaces(tag, tokens);
        let (name, colons) = tag.xml_name();
        let split = colons.map_or_else(|| split(name), |colons| split_colons(colons, name.len()));
        let ns = self.resolve_element(name, split, at, tokens);
        if pending > 0 {
            self.resolve_attributes(tag, tokens);
            if pending > 1 {
                self.drop_repeated_attributes(tag, tokens);
            }
        }
        names.push(name);
        self.push_frame(name, split, ns, mark);
        self.phase = Phase::Main;
        if tag.self_closing() {
            let cause = EndCause::Empty;
            self.schedule_ends(1, cause, cause, tag.span());
        }
        Some(Ready::Start)
    }

    /// First pass over the attributes: apply the namespace declarations among them. How many
    /// are left for the second pass (prefixed names that are not declarations). Names are read
    /// raw where decoding would not change them.
    #[inline(always)]
    fn declare_namespaces(&mut self, tag: &StartTag<'_>, tokens: &mut Tokens<'_>) -> usize {
        self.attrs.clear();
        let mut pending = 0;
        for (index, attribute) in tag.attributes().enumerate() {
            let raw = attribute.raw_name();
            // Most names have no prefix: in no namespace, not decoded here (a raw `xmlns` is the
            // only one to decode to `xmlns`: a byte that decoding changes becomes U+FFFD). Such
            // attributes get no slot until one that does comes (most tags: none at all).
            let unprefixed = attribute
                .raw_name_colons()
                .map_or_else(|| unprefixed(raw), |colons| colons == 0);
            let (split, declares) = match unprefixed {
                true if raw != b"xmlns" && self.attrs.is_empty() => continue,
                true => (Split::Unprefixed, raw == b"xmlns"),
                false => {
                    let split = split(attribute.name());
                    (
                        split,
                        declared(attribute.name().as_bytes(), split).is_some(),
                    )
                }
            };
            self.attrs.resize_with(index, AttrSlot::plain);
            let slot = if declares {
                let prefix = match split {
                    Split::Prefixed(_) => Some(parts(attribute.name(), split).1),
                    _ => None,
                };
                self.declaration(prefix, split, &attribute, tokens)
            } else {
                let prefixed = split != Split::Unprefixed;
                pending += usize::from(prefixed);
                AttrSlot {
                    pending: prefixed,
                    ..AttrSlot::plain_split(split)
                }
            };
            self.attrs.push(slot);
        }
        if !self.attrs.is_empty() {
            self.attrs
                .resize_with(tag.attributes().len(), AttrSlot::plain);
        }
        pending
    }

    /// `xmlns="uri"` or `xmlns:prefix="uri"`: bind, unless it is one the namespaces
    /// recommendation forbids (then the attribute stays, in no namespace).
    #[cold]
    #[inline(never)]
    fn declaration(
        &mut self,
        prefix: Option<&str>,
        split: Split,
        attribute: &Attribute<'_>,
        tokens: &mut Tokens<'_>,
    ) -> AttrSlot {
        let uri = match self.value_spans.get(self.attrs.len()) {
            Some(&Some((start, end))) => &self.values[start..end],
            _ => attribute.value(),
        };
        let allowed = match prefix {
            Some("xml") => uri == XML_NAMESPACE,
            Some("xmlns") => false,
            _ => uri != XML_NAMESPACE && uri != XMLNS_NAMESPACE,
        };
        let ns = if allowed {
            if prefix != Some("xml") {
                self.scope.declare(prefix, uri);
            }
            Ns::Xmlns
        } else {
            let at = attribute.name_span().start;
            self.report(TreeErrorCode::ReservedNamespaceDeclaration, at, tokens);
            Ns::None
        };
        AttrSlot {
            ns,
            split,
            declaration: true,
            pending: false,
            keep: true,
        }
    }

    /// The element's namespace: its prefix's, or the default namespace when it has none.
    #[inline(always)]
    fn resolve_element(
        &mut self,
        name: &str,
        split: Split,
        at: usize,
        tokens: &mut Tokens<'_>,
    ) -> Ns {
        if split == Split::Unprefixed {
            return self.scope.default_ns();
        }
        let ns = match (split, parts(name, split)) {
            (Split::Malformed, _) => Err(TreeErrorCode::InvalidQualifiedName),
            (_, (Some("xmlns"), _)) => Err(TreeErrorCode::XmlnsPrefixOnElement),
            (_, (prefix, _)) => match self.scope.lookup(prefix) {
                Some(ns) => Ok(ns),
                None if prefix.is_some() => Err(TreeErrorCode::UnboundPrefix),
                None => Ok(Ns::None),
            },
        };
        ns.unwrap_or_else(|code| {
            self.report(code, at, tokens);
            Ns::None
        })
    }

    /// Second pass: the namespace of each prefixed attribute that is not a declaration (its
    /// prefix's; the first pass left the unprefixed ones in none).
    #[cold]
    #[inline(never)]
    fn resolve_attributes(&mut self, tag: &StartTag<'_>, tokens: &mut Tokens<'_>) {
        for (index, attribute) in tag.attributes().enumerate() {
            let slot = &self.attrs[index];
            if !slot.pending {
                continue;
            }
            let resolved = match (slot.split, parts(attribute.name(), slot.split)) {
                (Split::Unprefixed, _) => Ok(Ns::None),
                (Split::Malformed, _) => Err(TreeErrorCode::InvalidQualifiedName),
                (Split::Prefixed(_), (prefix, _)) => self
                    .scope
                    .lookup(prefix)
                    .ok_or(TreeErrorCode::UnboundPrefix),
            };
            self.attrs[index].ns = resolved.unwrap_or_else(|code| {
                self.report(code, attribute.name_span().start, tokens);
                Ns::None
            });
        }
    }

    /// Drop each attribute whose namespace and local name repeat an earlier attribute's (only
    /// attributes with a prefix bound to a namespace can: the tokenizer already dropped repeated
    /// written names). Sorting keeps a tag with many such attributes `n log n`.
    #[cold]
    #[inline(never)]
    fn drop_repeated_attributes(&mut self, tag: &StartTag<'_>, tokens: &mut Tokens<'_>) {
        self.order.clear();
        let in_namespace = |slot: &AttrSlot| !slot.declaration && slot.ns != Ns::None;
        let candidates = self
            .attrs
            .iter()
            .enumerate()
            .filter(|(_, s)| in_namespace(s));
        self.order.extend(candidates.map(|(i, _)| i));
        if self.order.len() < 2 {
            return;
        }
        let mut order = std::mem::take(&mut self.order);
        order.sort_unstable_by(|&a, &b| {
            let (ka, kb) = (self.expanded_name(tag, a), self.expanded_name(tag, b));
            ka.cmp(&kb).then(a.cmp(&b))
        });
        for pair in order.windows(2) {
            if self.expanded_name(tag, pair[0]) == self.expanded_name(tag, pair[1]) {
                self.attrs[pair[1]].keep = false;
                let at = tag
                    .attributes()
                    .nth(pair[1])
                    .map_or(0, |a| a.name_span().start);
                self.report(TreeErrorCode::DuplicateExpandedAttribute, at, tokens);
            }
        }
        self.order = order;
    }

    /// The namespace and local name of the current tag's attribute at `index`.
    fn expanded_name<'a>(&'a self, tag: &StartTag<'a>, index: usize) -> (Option<&'a str>, &'a str) {
        let name = tag.attributes().nth(index).map_or("", |a| a.name());
        let slot = &self.attrs[index];
        (self.scope.uri(slot.ns), parts(name, slot.split).1)
    }

    /// An element opens at [`SHALLOW`] or above: its name's hash is counted in [`Stage::deep`].
    #[cold]
    #[inline(never)]
    fn count_deep(&mut self, name: &str) {
        let hash = self.hasher.hash_one(name);
        *self.deep.entry(hash).or_insert(0) += 1;
        self.deep_hashes.push(hash);
    }

    /// Push the element's frame (its name is pushed on [`Slots::names`]).
    #[inline(always)]
    fn push_frame(&mut self, name: &str, split: Split, ns: Ns, mark: Mark) {
        if self.frames.len() >= SHALLOW {
            self.count_deep(name);
        }
        self.frames.push(Frame { split, ns, mark });
    }

    /// An end tag in the main phase; a short end tag pops the current element. The current
    /// element's name is compared with the raw bytes first: decoding changes no byte of a
    /// decoded name, so raw bytes equal to it decode to it (most end tags match so, undecoded).
    #[inline(always)]
    fn close<'t>(
        &mut self,
        tag: EndTag<'t>,
        names: &[&str],
        tokens: &mut Tokens<'_>,
    ) -> Option<Ready> {
        let raw = tag.raw_name();
        let span = tag.span();
        if self.frames.is_empty() {
            return None;
        }
        if raw.is_empty() {
            return Some(self.end_current(EndCause::Short, span));
        }
        if self.current_name(names).as_bytes() == raw {
            return Some(self.end_current(EndCause::Written, span));
        }
        let name = tag.name();
        if self.current_name(names) == name {
            self.schedule_ends(1, EndCause::Written, EndCause::Written, span);
        } else if let Some(index) = self.find_open(name, names) {
            self.report(TreeErrorCode::MismatchedEndTag, span.start, tokens);
            let count = self.frames.len() - index;
            self.schedule_ends(count, EndCause::Implied, EndCause::Written, span);
        } else {
            self.report(TreeErrorCode::UnmatchedEndTag, span.start, tokens);
        }
        None
    }

    /// The innermost open element named `name` ("an element in scope with the same tag name").
    #[cold]
    #[inline(never)]
    fn find_open(&self, name: &str, names: &[&str]) -> Option<usize> {
        let open = self.frames.len();
        let named = |&index: &usize| self.name_at(names, index) == name;
        if open > SHALLOW
            && self.deep.contains_key(&self.hasher.hash_one(name))
            && let Some(index) = (SHALLOW..open).rev().find(named)
        {
            return Some(index);
        }
        (0..open.min(SHALLOW)).rev().find(named)
    }
}

/// Text written as XML whitespace only (not a CDATA section's, nor a character reference to
/// whitespace: XML's `Misc` allows neither): allowed around the root element. Read from the raw
/// bytes, so that the verdict on a run of text does not depend on where chunks cut it.
fn is_whitespace(text: &Text<'_>) -> bool {
    text.kind() != TextKind::Cdata && text.raw().iter().all(|&b| is_space(b))
}

/// XML's white space (`S`).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The XML5 tokenizer and the tree stage together: feed bytes, read [`Event`]s.
///
/// ```
/// use tagstream::Options;
/// use tagstream::xml5::tree::{EndCause, Event, Parser, TreeOptions};
///
/// let mut parser = Parser::new(Options::new().errors(true), TreeOptions::new());
/// let mut seen = Vec::new();
/// for chunk in [&b"<r xmlns='urn:r' xmlns:p='urn:p'><p:a/><b>"[..], b"</r>"] {
///     let mut events = parser.feed(chunk);
///     while let Some(event) = events.next_event() {
///         match event {
///             Event::Start(start) => {
///                 let name = start.name();
///                 seen.push(format!("{}{} {:?}", start.depth(), name, name.namespace));
///             }
///             Event::End(end) => seen.push(format!("/{} {:?}", end.name(), end.cause())),
///             _ => {}
///         }
///     }
/// }
/// parser.finish().for_each_event(|_| {});
/// assert_eq!(seen, [
///     "1r Some(\"urn:r\")",
///     "2p:a Some(\"urn:p\")",
///     "/p:a Empty",
///     "2b Some(\"urn:r\")",
///     "/b Implied",
///     "/r Written",
/// ]);
/// assert_eq!(parser.errors()[0].code.as_str(), "mismatched-end-tag");
/// ```
pub struct Parser {
    tokenizer: Tokenizer,
    stage: Stage,
    /// The internal subset's entities, read at the DOCTYPE (once per document).
    entities: OnceCell<Entities>,
    /// The table of the last document, emptied, for the next to fill (keeping allocations).
    spare: Entities,
    /// For one feed: the source over the replacement texts, and what decoding them allocates.
    arena: Bump,
}

impl Default for Parser {
    fn default() -> Parser {
        Parser::new(Options::default(), TreeOptions::default())
    }
}

impl Parser {
    /// A parser at the start of a stream. Of `options`, the XML5 tokenizer's are read
    /// (see [`crate::xml5`]); `errors` and `max_errors` also govern the tree stage's errors.
    pub fn new(options: Options, tree: TreeOptions) -> Parser {
        Parser {
            stage: Stage::new(&options, &tree),
            tokenizer: Tokenizer::new(options),
            entities: OnceCell::new(),
            spare: Entities::default(),
            arena: Bump::new(),
        }
    }

    /// The document is over: its entity table becomes the spare.
    fn drop_entities(&mut self) {
        if let Some(mut entities) = self.entities.take() {
            entities.clear();
            self.spare = entities;
        }
    }

    /// Start over with a new stream, keeping the allocations.
    pub fn reset(&mut self) {
        self.tokenizer.reset();
        self.stage.reset();
        self.drop_entities();
    }

    /// The events of `input` as one complete document.
    pub fn parse<'t>(&'t mut self, input: &'t [u8]) -> Events<'t> {
        self.stage.reset();
        self.drop_entities();
        self.stage.finishing = true;
        self.stage.fed = input.len();
        self.events(|tokenizer| tokenizer.tokenize(input), true)
    }

    /// Feed the next chunk of a stream: its events (tokens cut by the chunk's end come with a
    /// later feed). A feed after [`Parser::finish`] starts a new document.
    pub fn feed<'t>(&'t mut self, chunk: &'t [u8]) -> Events<'t> {
        if self.stage.finishing {
            self.stage.reset();
            self.drop_entities();
        }
        self.stage.fed += chunk.len();
        self.stage.note_end(chunk);
        self.events(|tokenizer| tokenizer.feed(chunk), false)
            .resume(chunk.first().copied())
    }

    /// The stream is over: the events still pending, and the end-of-file steps.
    pub fn finish(&mut self) -> Events<'_> {
        self.stage.finishing = true;
        self.events(Tokenizer::finish, true)
    }

    /// The events of the tokens `tokens` makes of the tokenizer (`at_eof`: the last of the
    /// stream), over a fresh arena.
    fn events<'t>(
        &'t mut self,
        tokens: impl FnOnce(&'t mut Tokenizer) -> Tokens<'t>,
        at_eof: bool,
    ) -> Events<'t> {
        self.arena.reset();
        Events::new(
            tokens(&mut self.tokenizer),
            at_eof,
            &mut self.stage,
            &self.entities,
            &mut self.spare,
            &self.arena,
        )
    }

    /// The tokenizer, for its parse errors and limits.
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The tree stage's parse errors not taken yet, in stream order.
    pub fn errors(&self) -> &[TreeError] {
        &self.stage.errors
    }

    /// Take the tree stage's parse errors reported so far.
    pub fn take_errors(&mut self) -> Vec<TreeError> {
        std::mem::take(&mut self.stage.errors)
    }

    /// How many tree-stage errors came past [`Options::max_errors`] and were only counted.
    pub fn dropped_errors(&self) -> u64 {
        self.stage.dropped
    }

    /// The depth limit the stream stopped at, if it did.
    pub fn depth_error(&self) -> Option<DepthError> {
        self.stage.depth_error
    }

    /// The entity expansion limit the document stopped expanding at, if it did.
    pub fn entity_error(&self) -> Option<EntityError> {
        self.stage.entity_error
    }

    /// The tokenizer's memory limit the stream stopped at, if it did (the open elements then
    /// end as at the end of the input, when [`Parser::finish`] is called).
    pub fn limit_error(&self) -> Option<LimitError> {
        self.tokenizer.limit_error()
    }
}

/// The events of one document or one fed chunk; see [`Parser`]. Each event borrows this
/// iterator (names and namespaces live in the stage), so it is read with
/// [`Events::next_event`] rather than as an [`Iterator`].
pub struct Events<'t> {
    tokens: Tokens<'t>,
    stage: &'t mut Stage,
    at_eof: bool,
    /// The tokens the last event borrows.
    slots: Slots<'t>,
    /// The internal subset's entities, once the DOCTYPE is read.
    entities: &'t OnceCell<Entities>,
    /// An empty table for the DOCTYPE to fill.
    spare: &'t mut Entities,
    arena: &'t Bump,
    /// The source over the replacement texts, made at the first expansion of the feed.
    source: Option<&'t Source<'t>>,
    /// A text token of the document being cut at its references, and where it goes on.
    held: Option<(Text<'t>, usize)>,
    /// A token of the document that waits for the held text.
    stashed: Option<Token<'t>>,
    /// The document's tokens taken and not yet taken back by [`Events::take_pulled`].
    record: Vec<Pulled<'t>>,
}

impl Drop for Events<'_> {
    /// Events dropped early: the tokenizer pauses (see [`crate::Tokens`]), and the rest of a
    /// text being cut at its entity references is kept for the next feed.
    fn drop(&mut self) {
        self.keep_rest();
        self.stage.own_names(&mut self.slots.names);
        self.stage.spare_names = reuse(std::mem::take(&mut self.slots.names));
    }
}

impl<'t> Events<'t> {
    /// The events of `tokens` (`at_eof`: the last of the stream) over the parser's parts,
    /// nothing held yet.
    fn new(
        tokens: Tokens<'t>,
        at_eof: bool,
        stage: &'t mut Stage,
        entities: &'t OnceCell<Entities>,
        spare: &'t mut Entities,
        arena: &'t Bump,
    ) -> Events<'t> {
        stage.pull.set_recording(false);
        let names = reuse(std::mem::take(&mut stage.spare_names));
        Events {
            tokens,
            stage,
            at_eof,
            slots: Slots {
                names,
                ..Slots::default()
            },
            entities,
            spare,
            arena,
            source: None,
            held: None,
            stashed: None,
            record: Vec::new(),
        }
    }

    /// The next event, or `None` when the chunk (or, at the end, the document) has no more.
    pub fn next_event(&mut self) -> Option<Event<'_, 't>> {
        let ready = self.advance()?;
        self.event(ready)
    }

    #[inline(always)]
    fn event(&self, ready: Ready) -> Option<Event<'_, 't>> {
        let stage = &*self.stage;
        Some(match ready {
            // The slots are always filled for their events (`process`, `piece`).
            Ready::Start => Event::Start(Start {
                tag: self.slots.tag.as_ref()?,
                stage,
                name: self.top_name(),
            }),
            Ready::End(cause) => Event::End(End {
                stage,
                cause,
                name: self.top_name(),
            }),
            Ready::Text => Event::Text(CharData {
                piece: self.slots.text.as_ref()?,
                stage,
            }),
            Ready::Other => match self.slots.other? {
                Token::Comment(comment) => Event::Comment(comment),
                Token::ProcessingInstruction(pi) => Event::ProcessingInstruction(pi),
                Token::Doctype(doctype) => Event::Doctype(doctype),
                _ => return None,
            },
        })
    }

    /// The current element's name as written.
    #[inline(always)]
    fn top_name(&self) -> &str {
        self.stage.current_name(&self.slots.names)
    }

    /// Call `f` with every event left.
    pub fn for_each_event(mut self, mut f: impl FnMut(Event<'_, 't>)) {
        while let Some(ready) = self.advance() {
            if let Some(event) = self.event(ready) {
                f(event);
            }
        }
    }

    /// The stage's loop: inlined into [`Events::next_event`], which stays one call for the
    /// consumer (with the loop out of line and `next_event` inlined into the consumer's loop,
    /// the events race counted 26.61 instructions/byte instead of 26.12).
    #[inline(always)]
    fn advance(&mut self) -> Option<Ready> {
        self.stage.settle(&mut self.slots.names);
        loop {
            if self.stage.ends > 0 {
                return Some(Ready::End(self.stage.next_end()));
            }
            if self.stage.stopped {
                self.record_rest();
                return None;
            }
            // With entities, the expansion in progress gives the next token (or the document
            // does, through it): one call of `process` either way, which keeps it inlined.
            // Recording without entities comes the same way, so that a plain pull costs the
            // one test it did without the record.
            let token = if !self.stage.pull.plain() {
                match self.expansion_step() {
                    expand::Step::Ready(ready) => return Some(ready),
                    expand::Step::Again => continue,
                    expand::Step::Token(token) => Some(token),
                    expand::Step::Exhausted => None,
                }
            } else {
                self.tokens.next_inlined()
            };
            match token {
                Some(token) => {
                    if let Some(ready) =
                        self.stage.process(token, &mut self.slots, &mut self.tokens)
                    {
                        if let (Ready::Other, Some(Token::Doctype(doctype))) =
                            (ready, self.slots.other)
                        {
                            self.read_subset(doctype);
                        }
                        return Some(ready);
                    }
                }
                None if self.at_eof && self.stage.pull.entities() && self.end_tail() => {}
                None if self.at_eof && self.stage.end_of_input(&mut self.tokens) => {}
                None => return None,
            }
        }
    }

    /// How many elements are open (one whose end was the last event no longer counts).
    pub fn open_elements(&self) -> usize {
        self.stage.open_elements()
    }

    /// Take the tokenizer's parse errors reported so far, keeping the allocation.
    pub fn drain_errors(&mut self) -> std::vec::Drain<'_, ParseError> {
        self.tokens.drain_errors()
    }

    /// Take the tree stage's parse errors reported so far, keeping the allocation.
    pub fn drain_tree_errors(&mut self) -> std::vec::Drain<'_, TreeError> {
        self.stage.errors.drain(..)
    }

    /// Line and column of a stream offset the tokenizer still holds (see
    /// [`crate::Tokens::position`]).
    pub fn position(&mut self, offset: usize) -> Option<Position> {
        self.tokens.position(offset)
    }
}

/// The allocation of `names` (emptied) for names of another lifetime: collecting in place
/// keeps it, so that a parser reused stops allocating.
fn reuse<'a>(mut names: Vec<&str>) -> Vec<&'a str> {
    names.clear();
    names.into_iter().map(|_| "").collect()
}
