//! The vocabulary the machine, the tokens and the iterator share, below all of them: byte spans
//! into the input stream, the window of the stream the machine reads, and the records it makes of
//! what it finds (spans and flags, never copied text), which tokens are built from.

use std::ops::Range;

/// A byte range `start..end` in the input stream, counted from the first byte ever fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The empty span at `at`.
    pub const fn empty(at: usize) -> Span {
        Span { start: at, end: at }
    }

    /// Number of bytes covered.
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The span as a `Range`.
    pub const fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// Which text state produced a [`Text`](crate::Text) token; it decides how the text decodes. Also used to choose
/// the tokenizer's text state (see [`crate::Options::initial_state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TextKind {
    /// The data state: character references are resolved, NUL stays U+0000.
    #[default]
    Data,
    /// RCDATA (`<title>`, `<textarea>`): character references are resolved, NUL becomes U+FFFD.
    Rcdata,
    /// RAWTEXT (`<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`): taken as written.
    Rawtext,
    /// Script data, including its escaped states: taken as written.
    ScriptData,
    /// PLAINTEXT: everything up to the end of input, taken as written.
    Plaintext,
    /// A CDATA section (in SVG or MathML): taken as written, NUL stays U+0000.
    Cdata,
}

impl TextKind {
    /// The kind's name in snake case, as the CLI's JSON lines and the Python bindings write it.
    ///
    /// ```
    /// assert_eq!(tagstream::TextKind::ScriptData.as_str(), "script_data");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            TextKind::Data => "data",
            TextKind::Rcdata => "rcdata",
            TextKind::Rawtext => "rawtext",
            TextKind::ScriptData => "script_data",
            TextKind::Plaintext => "plaintext",
            TextKind::Cdata => "cdata",
        }
    }
}

/// A window of the input stream: `bytes` are stream offsets `base..base + bytes.len()`.
#[derive(Clone, Copy)]
pub(crate) struct Window<'b> {
    pub(crate) bytes: &'b [u8],
    pub(crate) base: usize,
    /// The window ends where the input ends.
    pub(crate) eof: bool,
}

impl<'b> Window<'b> {
    /// Offset one past the last byte of the window.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.base + self.bytes.len()
    }

    /// The byte at stream offset `pos`, if the window holds it.
    #[inline]
    pub(crate) fn at(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos - self.base).copied()
    }

    /// The window's bytes from stream offset `pos` on.
    #[inline]
    pub(crate) fn rest(&self, pos: usize) -> &'b [u8] {
        &self.bytes[pos - self.base..]
    }

    /// How many bytes equal to `byte` the window has in a row from stream offset `pos`.
    #[inline]
    pub(crate) fn run_of(&self, byte: u8, pos: usize) -> usize {
        run_of(byte, self.rest(pos))
    }

    /// The window's bytes of `span`.
    #[inline]
    pub(crate) fn slice(&self, span: Span) -> &'b [u8] {
        &self.bytes[span.start - self.base..span.end - self.base]
    }
}

/// How many bytes equal to `byte` `bytes` starts with.
#[inline]
pub(crate) fn run_of(byte: u8, bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&c| c == byte).count()
}

/// What kind of token a [`Record`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Text(TextKind),
    StartTag {
        self_closing: bool,
    },
    EndTag,
    Comment,
    /// The DOCTYPE's parts are in `Machine::doctype` (kept out of the record to keep it small).
    Doctype,
    Pi,
}

/// A finished token, as spans into the stream. `StartTag` attributes are in `Machine::attrs`.
///
/// A plain struct of aligned words rather than an enum with byte-sized fields: moved around by
/// value on every token, the enum was copied in overlapping pieces that stalled store forwarding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) kind: Kind,
    /// The bytes the token covers.
    pub(crate) span: Span,
    /// The tag name, the comment data, or the PI target.
    pub(crate) part: Span,
    /// The PI data.
    pub(crate) data: Span,
    /// Where lexing resumes after this record: its end, except for text ended by something that
    /// emits no token (`]]>`, `</>`).
    pub(crate) resume: usize,
}

impl Record {
    fn new(kind: Kind, span: Span, part: Span, data: Span) -> Record {
        let resume = span.end;
        Record {
            kind,
            span,
            part,
            data,
            resume,
        }
    }

    pub(crate) fn text(span: Span, kind: TextKind, resume: usize) -> Record {
        let none = Span::default();
        Record {
            resume,
            ..Record::new(Kind::Text(kind), span, none, none)
        }
    }

    pub(crate) fn start_tag(span: Span, name: Span, self_closing: bool) -> Record {
        Record::new(Kind::StartTag { self_closing }, span, name, Span::default())
    }

    pub(crate) fn end_tag(span: Span, name: Span) -> Record {
        Record::new(Kind::EndTag, span, name, Span::default())
    }

    pub(crate) fn comment(span: Span, data: Span) -> Record {
        Record::new(Kind::Comment, span, data, Span::default())
    }

    pub(crate) fn doctype(span: Span) -> Record {
        Record::new(Kind::Doctype, span, Span::default(), Span::default())
    }

    pub(crate) fn pi(span: Span, target: Span, data: Span) -> Record {
        Record::new(Kind::Pi, span, target, data)
    }
}

/// A DOCTYPE token's parts; `None` is the standard's "missing".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct DoctypeRecord {
    pub(crate) name: Option<Span>,
    pub(crate) public_id: Option<Span>,
    pub(crate) system_id: Option<Span>,
    pub(crate) force_quirks: bool,
    /// XML5's internal subset, brackets included (`[<!ENTITY …>]`); HTML has none.
    pub(crate) internal_subset: Option<Span>,
}

/// An attribute as recorded by the machine: spans only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttrRecord {
    pub(crate) name: Span,
    /// The value without its quotes (empty at the name's end when there is no value).
    pub(crate) value: Span,
    /// `b'"'`, `b'\''`, or 0 when unquoted or absent.
    pub(crate) quote: u8,
}

impl AttrRecord {
    /// An attribute named at `name` with no value (yet).
    #[inline(always)]
    pub(crate) fn without_value(name: Span) -> AttrRecord {
        AttrRecord {
            name,
            value: Span::empty(name.end),
            quote: 0,
        }
    }
}

/// What a fast lane found: a token lexed straight from the window, without the machine's records.
/// The machine is left after it, in the data state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// Data-state text.
    Text(Span),
    /// A start tag; its attributes are in the lexer's attribute table.
    StartTag {
        span: Span,
        name: Span,
        self_closing: bool,
    },
    /// An end tag (attributes on it are dropped, as the standard does).
    EndTag { span: Span, name: Span },
    /// A comment.
    Comment { span: Span, data: Span },
    /// RCDATA, RAWTEXT or script data text up to its appropriate end tag (the raw lane).
    RawText(Span, TextKind),
    /// Not for the lane: the state functions continue from the machine's position.
    Elsewhere,
}
