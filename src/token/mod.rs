//! Tokens: byte spans into the input, decoded on demand.
//!
//! A token holds the spans of its parts and a reference to the bytes they index, plus the arena that
//! receives a decoded string when decoding changes something. Every part has a raw accessor (the exact
//! source bytes) and a decoded one (what the HTML Standard's tokenizer would have produced); decoded
//! strings are borrowed from the input whenever they equal it.

mod decode;

use std::fmt;

use bumpalo::Bump;

use crate::scan::{Changes, short_byte_lanes, short_unchanged_span_and_lanes};
use crate::span::{AttrRecord, DoctypeRecord, Window};
use crate::span::{Span, TextKind};

use decode::{ATTRIBUTE_VALUE, NAME, PLAIN, Rules, decode, decode_plain};

impl TextKind {
    /// How text of this kind decodes in HTML.
    const fn rules(self) -> Rules {
        match self {
            TextKind::Data => Rules {
                refs: Some(false),
                keep_nul: true,
                changes: Changes::References,
            },
            TextKind::Rcdata => Rules {
                refs: Some(false),
                keep_nul: false,
                changes: Changes::References,
            },
            TextKind::Cdata => Rules {
                refs: None,
                keep_nul: true,
                changes: Changes::Plain,
            },
            _ => PLAIN,
        }
    }

    /// How text of this kind decodes in XML5: as in HTML, but NUL becomes U+FFFD everywhere.
    const fn xml_rules(self) -> Rules {
        let html = self.rules();
        Rules {
            refs: html.refs,
            keep_nul: false,
            changes: html.changes,
        }
    }
}

/// Every [`TextKind`] in declaration order (its discriminant is its index).
const TEXT_KINDS: [TextKind; 6] = [
    TextKind::Data,
    TextKind::Rcdata,
    TextKind::Rawtext,
    TextKind::ScriptData,
    TextKind::Plaintext,
    TextKind::Cdata,
];

/// How each kind of text decodes in HTML, by discriminant.
const HTML_TEXT: [Rules; 6] = {
    let mut table = [PLAIN; 6];
    let mut i = 0;
    while i < 6 {
        table[i] = TEXT_KINDS[i].rules();
        i += 1;
    }
    table
};

/// [`HTML_TEXT`] for XML5.
const XML_TEXT: [Rules; 6] = {
    let mut table = [PLAIN; 6];
    let mut i = 0;
    while i < 6 {
        table[i] = TEXT_KINDS[i].xml_rules();
        i += 1;
    }
    table
};

/// The bytes spans index into, and the arena for decoded strings.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) base: usize,
    pub(crate) arena: &'a Bump,
    /// The bytes are XML5 ([`crate::xml5`]): tag and attribute names keep their case, and NUL in
    /// text becomes U+FFFD. (HTML lowercases names and keeps NUL in data and CDATA text.)
    xml: bool,
    /// How text decodes, by [`TextKind`] discriminant: the dialect's table.
    text_rules: [Rules; 6],
}

impl<'a> Source<'a> {
    /// `bytes` at stream offset `base`, decoding into `arena` by HTML's rules or (`xml`) XML5's.
    pub(crate) fn new(bytes: &'a [u8], base: usize, arena: &'a Bump, xml: bool) -> Source<'a> {
        Source {
            bytes,
            base,
            arena,
            xml,
            text_rules: if xml { XML_TEXT } else { HTML_TEXT },
        }
    }

    /// Whether the bytes are XML5's (names as written, repeated attributes kept).
    pub(crate) fn is_xml(&self) -> bool {
        self.xml
    }

    /// Where `span` is in [`bytes`](Self::bytes).
    pub(crate) fn range(&self, span: Span) -> std::ops::Range<usize> {
        span.start - self.base..span.end - self.base
    }

    pub(crate) fn raw(&self, span: Span) -> &'a [u8] {
        &self.bytes[span.start - self.base..span.end - self.base]
    }

    /// The buffer as the machine's window (not at the end of input).
    pub(crate) fn window(&self) -> Window<'a> {
        Window {
            bytes: self.bytes,
            base: self.base,
            eof: false,
        }
    }

    /// A tag or attribute name, decoded: lowercased in HTML, as written (NUL replaced) in XML5.
    /// The branch is taken before [`Source::decode`] is inlined, so that HTML's path keeps its constant
    /// rules (a rule chosen at run time cost the decoded race 2% more instructions).
    #[inline(always)]
    fn decode_name(&self, span: Span) -> &'a str {
        if self.xml {
            self.decode_xml(span)
        } else {
            self.decode(span, NAME)
        }
    }

    /// Text of `kind`, decoded by the dialect's table (in XML5, NUL becomes U+FFFD in every
    /// kind): a load, where a branch on the dialect cost the decoded race 1% more instructions.
    #[inline(always)]
    fn decode_text(&self, span: Span, kind: TextKind) -> &'a str {
        self.decode(span, self.text_rules[kind as usize])
    }

    /// XML5's names decoded ([`decode_plain`]), out of line and marked cold: HTML's inlined path
    /// stays as small as it was, laid out straight (the branch predictor learns XML5's way). A
    /// name that decoding leaves as it is (most) costs a leaf call.
    #[cold]
    #[inline(never)]
    fn decode_xml(&self, span: Span) -> &'a str {
        let (start, end) = (span.start - self.base, span.end - self.base);
        decode_plain(self.bytes, start, end, self.arena)
    }

    /// An XML5 name decoded for the XML5 tree stage, which names and splits every element and
    /// attribute: a short name that decoding leaves as it is (most) inline, with no call, and
    /// its colons from the same block test (bit `i` for byte `i`); else [`Source::decode_xml`]
    /// and no colons (the caller looks for them).
    #[inline(always)]
    pub(crate) fn decode_xml_name(&self, span: Span) -> (&'a str, Option<u32>) {
        let (start, end) = (span.start - self.base, span.end - self.base);
        match short_unchanged_span_and_lanes(self.bytes, start, end, PLAIN.changes, b':') {
            Some((unchanged, colons)) => (unchanged, Some(colons)),
            None => (self.decode_xml(span), None),
        }
    }

    /// The colons of the raw bytes at `span` (bit `i` for byte `i`) when it is short: one block
    /// test (see [`short_byte_lanes`]).
    #[inline(always)]
    fn raw_colons(&self, span: Span) -> Option<u32> {
        short_byte_lanes(
            self.bytes,
            span.start - self.base,
            span.end - self.base,
            b':',
        )
    }

    /// An attribute value's bytes at `span`, decoded by the attribute value rules (for the XML5
    /// tree stage, which expands entities between such pieces).
    pub(crate) fn decode_attribute_value(&self, span: Span) -> &'a str {
        self.decode(span, ATTRIBUTE_VALUE)
    }

    /// The byte at stream offset `at`, if the buffer holds it.
    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at - self.base).copied()
    }

    #[inline(always)]
    fn decode(&self, span: Span, rules: Rules) -> &'a str {
        let (start, end) = (span.start - self.base, span.end - self.base);
        decode(self.bytes, start, end, rules, self.arena)
    }
}

/// One token. Every variant knows its span and its raw bytes; see each type for its parts.
///
/// ```
/// use tagstream::{Token, Tokenizer};
///
/// let mut tokenizer = Tokenizer::default();
/// let names: Vec<String> = tokenizer
///     .tokenize(b"<P class=x>Hi &amp; bye</p>")
///     .map(|token| match token {
///         Token::StartTag(tag) => format!("<{}>", tag.name()),
///         Token::EndTag(tag) => format!("</{}>", tag.name()),
///         Token::Text(text) => text.text().to_string(),
///         other => format!("{:?}", other.span()),
///     })
///     .collect();
/// assert_eq!(names, ["<p>", "Hi & bye", "</p>"]);
/// ```
#[derive(Clone, Copy)]
pub enum Token<'a> {
    /// `<!DOCTYPE …>`
    Doctype(Doctype<'a>),
    /// `<name attr=value …>` or `<name … />`
    StartTag(StartTag<'a>),
    /// `</name>`
    EndTag(EndTag<'a>),
    /// `<!-- … -->`, or a bogus comment such as `<!…>` or `</3>`
    Comment(Comment<'a>),
    /// A run of text.
    Text(Text<'a>),
    /// `<?target data>` (HTML Standard since 2026)
    ProcessingInstruction(ProcessingInstruction<'a>),
    /// Bytes that belong to no other token, handed out only with
    /// [`Options::lossless`](crate::Options::lossless): a byte order mark, the `<![CDATA[` and `]]>` around CDATA
    /// text, `</>`, a tag cut off by the end of input.
    Raw(Raw<'a>),
}

impl<'a> Token<'a> {
    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        // Every token struct is `#[repr(C)]` with `src` and `span` first, so that this and
        // `Token::source` read the same place whatever the kind: one load, no `match`
        // (callgrind on the corpus: lossless tokenizing 9.18 → 8.53 instructions/byte, the
        // rewriter passing every token through 12.41 → 11.52, the default tokenizer unchanged).
        match self {
            Token::Doctype(t) => t.span,
            Token::StartTag(t) => t.span,
            Token::EndTag(t) => t.span,
            Token::Comment(t) => t.span,
            Token::Text(t) => t.span,
            Token::ProcessingInstruction(t) => t.span,
            Token::Raw(t) => t.span,
        }
    }

    /// The token's exact source bytes.
    pub fn raw(&self) -> &'a [u8] {
        self.source().raw(self.span())
    }

    /// The buffer the token's spans index into.
    pub(crate) fn source(&self) -> &'a Source<'a> {
        match self {
            Token::Doctype(t) => t.src,
            Token::StartTag(t) => t.src,
            Token::EndTag(t) => t.src,
            Token::Comment(t) => t.src,
            Token::Text(t) => t.src,
            Token::ProcessingInstruction(t) => t.src,
            Token::Raw(t) => t.src,
        }
    }
}

impl fmt::Debug for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Doctype(t) => t.fmt(f),
            Token::StartTag(t) => t.fmt(f),
            Token::EndTag(t) => t.fmt(f),
            Token::Comment(t) => t.fmt(f),
            Token::Text(t) => t.fmt(f),
            Token::ProcessingInstruction(t) => t.fmt(f),
            Token::Raw(t) => t.fmt(f),
        }
    }
}

/// A DOCTYPE token.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Doctype<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) parts: &'a DoctypeRecord,
}

impl<'a> Doctype<'a> {
    /// The name, lowercased; `None` when missing (`<!DOCTYPE>`).
    pub fn name(&self) -> Option<&'a str> {
        self.parts.name.map(|s| self.src.decode(s, NAME))
    }

    /// The name as written.
    ///
    /// ```
    /// use tagstream::{Token, Tokenizer};
    /// let mut tokenizer = Tokenizer::default();
    /// let Some(Token::Doctype(d)) = tokenizer.tokenize(b"<!DOCTYPE Html>").next() else { panic!() };
    /// assert_eq!((d.name(), d.raw_name()), (Some("html"), Some(&b"Html"[..])));
    /// ```
    pub fn raw_name(&self) -> Option<&'a [u8]> {
        self.parts.name.map(|s| self.src.raw(s))
    }

    /// The public identifier; `None` when missing, `Some("")` for `PUBLIC ""`.
    pub fn public_id(&self) -> Option<&'a str> {
        self.parts.public_id.map(|s| self.src.decode(s, PLAIN))
    }

    /// The public identifier as written, without its quotes.
    pub fn raw_public_id(&self) -> Option<&'a [u8]> {
        self.parts.public_id.map(|s| self.src.raw(s))
    }

    /// The system identifier; `None` when missing.
    pub fn system_id(&self) -> Option<&'a str> {
        self.parts.system_id.map(|s| self.src.decode(s, PLAIN))
    }

    /// The system identifier as written, without its quotes.
    pub fn raw_system_id(&self) -> Option<&'a [u8]> {
        self.parts.system_id.map(|s| self.src.raw(s))
    }

    /// The standard's force-quirks flag.
    pub fn force_quirks(&self) -> bool {
        self.parts.force_quirks
    }

    /// Spans of the name and identifiers in the source, when present.
    pub fn name_span(&self) -> Option<Span> {
        self.parts.name
    }

    /// Span of the public identifier (without quotes).
    pub fn public_id_span(&self) -> Option<Span> {
        self.parts.public_id
    }

    /// Span of the system identifier (without quotes).
    pub fn system_id_span(&self) -> Option<Span> {
        self.parts.system_id
    }

    /// XML5's internal subset as written, brackets included (`[<!ENTITY e "x">]`), for a tree
    /// stage to parse; `None` when there is none (always in HTML).
    ///
    /// ```
    /// use tagstream::{Token, xml5};
    /// let mut tokenizer = xml5::Tokenizer::default();
    /// let doc = b"<!DOCTYPE r [<!ENTITY e 'x'>]><r/>";
    /// let Some(Token::Doctype(d)) = tokenizer.tokenize(doc).next() else { panic!() };
    /// assert_eq!(d.raw_internal_subset(), Some(&b"[<!ENTITY e 'x'>]"[..]));
    /// ```
    pub fn raw_internal_subset(&self) -> Option<&'a [u8]> {
        self.parts.internal_subset.map(|s| self.src.raw(s))
    }

    /// Span of the internal subset, brackets included.
    pub fn internal_subset_span(&self) -> Option<Span> {
        self.parts.internal_subset
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole token as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for Doctype<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Doctype")
            .field("name", &self.name())
            .field("public_id", &self.public_id())
            .field("system_id", &self.system_id())
            .field("force_quirks", &self.parts.force_quirks)
            .field("span", &self.span)
            .finish()
    }
}

/// A start tag.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct StartTag<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) name: Span,
    pub(crate) attrs: &'a [AttrRecord],
    pub(crate) self_closing: bool,
}

impl<'a> StartTag<'a> {
    /// The tag name, ASCII-lowercased (in XML5, as written).
    #[inline]
    pub fn name(&self) -> &'a str {
        self.src.decode_name(self.name)
    }

    /// The tag name as written.
    pub fn raw_name(&self) -> &'a [u8] {
        self.src.raw(self.name)
    }

    /// [`StartTag::name`] of an XML5 tag, a short name inline, with its colons when they come
    /// from the same test ([`Source::decode_xml_name`]).
    #[inline(always)]
    pub(crate) fn xml_name(&self) -> (&'a str, Option<u32>) {
        self.src.decode_xml_name(self.name)
    }

    /// Span of the name.
    pub fn name_span(&self) -> Span {
        self.name
    }

    /// The attributes in source order, repeated names already dropped (the first one wins).
    pub fn attributes(&self) -> Attributes<'a> {
        Attributes {
            src: self.src,
            records: self.attrs.iter(),
        }
    }

    /// The attribute with this (lowercase) name, if any.
    pub fn attribute(&self, name: &str) -> Option<Attribute<'a>> {
        self.attributes().find(|a| a.name() == name)
    }

    /// Whether the tag ends with `/>`.
    pub fn self_closing(&self) -> bool {
        self.self_closing
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole token as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for StartTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StartTag")
            .field("name", &self.name())
            .field("attributes", &self.attributes().collect::<Vec<_>>())
            .field("self_closing", &self.self_closing)
            .field("span", &self.span)
            .finish()
    }
}

/// The attributes of a start tag, in source order.
#[derive(Clone)]
pub struct Attributes<'a> {
    src: &'a Source<'a>,
    records: std::slice::Iter<'a, AttrRecord>,
}

impl<'a> Iterator for Attributes<'a> {
    type Item = Attribute<'a>;

    fn next(&mut self) -> Option<Attribute<'a>> {
        self.records
            .next()
            .map(|&rec| Attribute { src: self.src, rec })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.records.size_hint()
    }

    /// The slice's own `nth`: no walk over the attributes skipped.
    fn nth(&mut self, n: usize) -> Option<Attribute<'a>> {
        self.records
            .nth(n)
            .map(|&rec| Attribute { src: self.src, rec })
    }
}

impl ExactSizeIterator for Attributes<'_> {}

/// One attribute of a start tag.
#[derive(Clone, Copy)]
pub struct Attribute<'a> {
    src: &'a Source<'a>,
    rec: AttrRecord,
}

impl<'a> Attribute<'a> {
    /// The name, ASCII-lowercased (in XML5, as written).
    #[inline]
    pub fn name(&self) -> &'a str {
        self.src.decode_name(self.rec.name)
    }

    /// The name as written.
    pub fn raw_name(&self) -> &'a [u8] {
        self.src.raw(self.rec.name)
    }

    /// [`Attribute::name`] of an XML5 attribute, a short name inline
    /// ([`Source::decode_xml_name`]).
    #[inline(always)]
    pub(crate) fn xml_name(&self) -> &'a str {
        self.src.decode_xml_name(self.rec.name).0
    }

    /// Where the colons of a short raw name are (bit `i` for byte `i`), from one block test;
    /// `None` for a name that takes a loop.
    #[inline(always)]
    pub(crate) fn raw_name_colons(&self) -> Option<u32> {
        self.src.raw_colons(self.rec.name)
    }

    /// The value with character references resolved (empty when the attribute has no value).
    #[inline]
    pub fn value(&self) -> &'a str {
        self.src.decode(self.rec.value, ATTRIBUTE_VALUE)
    }

    /// The value as written, without its quotes.
    pub fn raw_value(&self) -> &'a [u8] {
        self.src.raw(self.rec.value)
    }

    /// The quote around the value: `Some('"')`, `Some('\'')`, or `None` when unquoted or absent.
    pub fn quote(&self) -> Option<char> {
        (self.rec.quote != 0).then_some(char::from(self.rec.quote))
    }

    /// Span of the name.
    pub fn name_span(&self) -> Span {
        self.rec.name
    }

    /// Span of the value, without quotes.
    pub fn value_span(&self) -> Span {
        self.rec.value
    }

    /// Span of the whole attribute: name through value, including a closing quote (a quoted
    /// value that the end of input cuts off, which XML5 keeps, has none).
    pub fn span(&self) -> Span {
        let closed =
            self.rec.quote != 0 && self.src.byte(self.rec.value.end) == Some(self.rec.quote);
        let end = self.rec.value.end + usize::from(closed);
        Span {
            start: self.rec.name.start,
            end: end.max(self.rec.name.end),
        }
    }

    /// The whole attribute as written (`name="value"`).
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span())
    }
}

impl fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}={:?}", self.name(), self.value())
    }
}

/// An end tag. (Attributes on end tags are parsed, reported as an error, and dropped, as the standard
/// says.)
#[derive(Clone, Copy)]
#[repr(C)]
pub struct EndTag<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) name: Span,
}

impl<'a> EndTag<'a> {
    /// The tag name, ASCII-lowercased (in XML5, as written).
    #[inline]
    pub fn name(&self) -> &'a str {
        self.src.decode_name(self.name)
    }

    /// The tag name as written.
    pub fn raw_name(&self) -> &'a [u8] {
        self.src.raw(self.name)
    }

    /// Span of the name.
    pub fn name_span(&self) -> Span {
        self.name
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole token as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for EndTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EndTag")
            .field("name", &self.name())
            .field("span", &self.span)
            .finish()
    }
}

/// A comment (including bogus comments).
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Comment<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) data: Span,
}

impl<'a> Comment<'a> {
    /// The comment's data, NUL replaced and newlines normalized.
    pub fn data(&self) -> &'a str {
        self.src.decode(self.data, PLAIN)
    }

    /// The data as written.
    pub fn raw_data(&self) -> &'a [u8] {
        self.src.raw(self.data)
    }

    /// Span of the data.
    pub fn data_span(&self) -> Span {
        self.data
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole token as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for Comment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Comment")
            .field("data", &self.data())
            .field("span", &self.span)
            .finish()
    }
}

/// A run of text. Adjacent text tokens may follow each other (for example at chunk seams); concatenate
/// them for the standard's character tokens.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Text<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) kind: TextKind,
}

impl<'a> Text<'a> {
    /// The text as the standard's character tokens carry it (references resolved in data and RCDATA,
    /// NUL handled per state, newlines normalized).
    #[inline]
    pub fn text(&self) -> &'a str {
        self.src.decode_text(self.span, self.kind)
    }

    /// The text as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }

    /// The text state that produced this text.
    pub fn kind(&self) -> TextKind {
        self.kind
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }
}

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Text")
            .field("text", &self.text())
            .field("kind", &self.kind)
            .field("span", &self.span)
            .finish()
    }
}

/// A processing instruction, `<?target data>`.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct ProcessingInstruction<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
    pub(crate) target: Span,
    pub(crate) data: Span,
}

impl<'a> ProcessingInstruction<'a> {
    /// The target, as written (ASCII letters, digits, `-`, `_`).
    pub fn target(&self) -> &'a str {
        self.src.decode(self.target, PLAIN)
    }

    /// The target's bytes as written.
    pub fn raw_target(&self) -> &'a [u8] {
        self.src.raw(self.target)
    }

    /// The data after the target and its whitespace, without a final `?`.
    pub fn data(&self) -> &'a str {
        self.src.decode(self.data, PLAIN)
    }

    /// The data as written.
    pub fn raw_data(&self) -> &'a [u8] {
        self.src.raw(self.data)
    }

    /// Span of the target.
    pub fn target_span(&self) -> Span {
        self.target
    }

    /// Span of the data.
    pub fn data_span(&self) -> Span {
        self.data
    }

    /// The bytes the token covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The whole token as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for ProcessingInstruction<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessingInstruction")
            .field("target", &self.target())
            .field("data", &self.data())
            .field("span", &self.span)
            .finish()
    }
}

/// Bytes of the input that belong to no other token ([`Token::Raw`], with
/// [`Options::lossless`](crate::Options::lossless)): the standard drops them (`</>`, a tag the
/// end of input cuts off, the `<![CDATA[` and `]]>` around CDATA text) or the decoder strips them
/// (a byte order mark). They carry no meaning; a writer copies them to reproduce the input.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Raw<'a> {
    pub(crate) src: &'a Source<'a>,
    pub(crate) span: Span,
}

impl<'a> Raw<'a> {
    /// The bytes the item covers.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The bytes as written.
    pub fn raw(&self) -> &'a [u8] {
        self.src.raw(self.span)
    }
}

impl fmt::Debug for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Raw")
            .field("raw", &String::from_utf8_lossy(self.raw()))
            .field("span", &self.span)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// [`Token::span`] and [`Token::source`] read one place for every kind.
    #[test]
    fn every_token_has_its_source_and_span_first() {
        let src = [
            offset_of!(Doctype<'_>, src),
            offset_of!(StartTag<'_>, src),
            offset_of!(EndTag<'_>, src),
            offset_of!(Comment<'_>, src),
            offset_of!(Text<'_>, src),
            offset_of!(ProcessingInstruction<'_>, src),
            offset_of!(Raw<'_>, src),
        ];
        let span = [
            offset_of!(Doctype<'_>, span),
            offset_of!(StartTag<'_>, span),
            offset_of!(EndTag<'_>, span),
            offset_of!(Comment<'_>, span),
            offset_of!(Text<'_>, span),
            offset_of!(ProcessingInstruction<'_>, span),
            offset_of!(Raw<'_>, span),
        ];
        assert_eq!(src, [0; 7]);
        assert_eq!(span, [size_of::<&Source<'_>>(); 7]);
        // The kind lives in the start tag's `self_closing` (no word of its own).
        assert_eq!(size_of::<Token<'_>>(), size_of::<StartTag<'_>>());
    }
}
