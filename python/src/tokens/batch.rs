//! The Rust side of the items of one call (`tokens`, a `feed`, a `finish`): a [`Batch`] holds
//! their records (tokens, parse errors, SGML events) and one copy of the strings and bytes they
//! share. A [`Builder`] fills it from the library's items with the GIL released; the Python
//! objects hold the batch and read a record's fields only when Python asks for them.
//!
//! The input is copied once, not token by token, into `bytes`: a token's raw bytes, and the
//! names and text the tokenizer borrowed from the input, are ranges there. Only what the
//! tokenizer decoded (a reference resolved, a name lowercased) goes to `decoded`, and the bytes
//! of a token an earlier chunk began (which the tokenizer held in its carry) after the input.

use std::borrow::Cow;
use std::ops::Range;

use tagstream::TextKind;
use tagstream::sgml::{Channel, Event, LexemeKind, Problem};

/// A token's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    StartTag,
    EndTag,
    Text,
    Comment,
    Doctype,
    ProcessingInstruction,
    Raw,
}

impl Kind {
    /// The kinds' names, as `Token.kind` gives them, by discriminant.
    pub(crate) const NAMES: [&'static str; 7] = [
        "start_tag",
        "end_tag",
        "text",
        "comment",
        "doctype",
        "processing_instruction",
        "raw",
    ];

    const ALL: [Kind; 7] = [
        Kind::StartTag,
        Kind::EndTag,
        Kind::Text,
        Kind::Comment,
        Kind::Doctype,
        Kind::ProcessingInstruction,
        Kind::Raw,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        Kind::NAMES[self as usize]
    }

    /// The kind `name` names.
    pub(crate) fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// The text kinds, as `Token.text_kind` names them, in declaration order.
pub(crate) const TEXT_KINDS: [&str; 6] = {
    let mut names = [""; 6];
    let mut i = 0;
    while i < names.len() {
        names[i] = ALL_TEXT_KINDS[i].as_str();
        i += 1;
    }
    names
};

/// The text kinds, in the order of [`TEXT_KINDS`].
const ALL_TEXT_KINDS: [TextKind; 6] = [
    TextKind::Data,
    TextKind::Rcdata,
    TextKind::Rawtext,
    TextKind::ScriptData,
    TextKind::Plaintext,
    TextKind::Cdata,
];

/// The text kind `name` names.
pub(crate) fn text_kind_named(name: &str) -> Option<TextKind> {
    ALL_TEXT_KINDS
        .into_iter()
        .find(|kind| kind.as_str() == name)
}

/// Where `kind` is in [`TEXT_KINDS`].
pub(crate) fn text_kind_index(kind: TextKind) -> usize {
    ALL_TEXT_KINDS
        .iter()
        .position(|k| *k == kind)
        .unwrap_or_default()
}

/// A token's parts: strings (see [`Batch::str`]), or ranges in [`Batch::attributes`].
#[derive(Clone, Debug)]
pub(crate) enum Parts {
    StartTag {
        name: Range<usize>,
        attributes: Range<usize>,
        self_closing: bool,
    },
    EndTag {
        name: Range<usize>,
    },
    Text {
        text: Range<usize>,
        kind: TextKind,
    },
    Comment {
        data: Range<usize>,
    },
    /// Boxed: DOCTYPEs are rare, and every other record stays small.
    Doctype(Box<DoctypeParts>),
    ProcessingInstruction {
        target: Range<usize>,
        data: Range<usize>,
    },
    Raw,
}

/// A DOCTYPE's parts.
#[derive(Clone, Debug, Default)]
pub(crate) struct DoctypeParts {
    pub(crate) name: Option<Range<usize>>,
    pub(crate) public_id: Option<Range<usize>>,
    pub(crate) system_id: Option<Range<usize>>,
    pub(crate) force_quirks: bool,
    /// XML5's internal subset, as written (brackets included).
    pub(crate) internal_subset: Option<Range<usize>>,
}

/// One token: its parts, its bytes as written, and its span in the stream.
#[derive(Clone, Debug)]
pub(crate) struct TokenRecord {
    pub(crate) parts: Parts,
    pub(crate) raw: Range<usize>,
    pub(crate) span: (usize, usize),
}

impl TokenRecord {
    pub(crate) fn kind(&self) -> Kind {
        match self.parts {
            Parts::StartTag { .. } => Kind::StartTag,
            Parts::EndTag { .. } => Kind::EndTag,
            Parts::Text { .. } => Kind::Text,
            Parts::Comment { .. } => Kind::Comment,
            Parts::Doctype(_) => Kind::Doctype,
            Parts::ProcessingInstruction { .. } => Kind::ProcessingInstruction,
            Parts::Raw => Kind::Raw,
        }
    }

    /// The tag name, DOCTYPE name or processing instruction target.
    pub(crate) fn name<'b>(&self, batch: &'b Batch) -> Option<Cow<'b, str>> {
        match &self.parts {
            Parts::StartTag { name, .. } | Parts::EndTag { name } => Some(batch.str(name)),
            Parts::Doctype(doctype) => doctype.name.as_ref().map(|name| batch.str(name)),
            Parts::ProcessingInstruction { target, .. } => Some(batch.str(target)),
            _ => None,
        }
    }

    /// A start tag's attributes, (name, value).
    pub(crate) fn attributes<'b>(&self, batch: &'b Batch) -> Vec<(Cow<'b, str>, Cow<'b, str>)> {
        let Parts::StartTag { attributes, .. } = &self.parts else {
            return Vec::new();
        };
        let pair =
            |(name, value): &(Range<usize>, Range<usize>)| (batch.str(name), batch.str(value));
        batch.attributes[attributes.clone()]
            .iter()
            .map(pair)
            .collect()
    }

    /// The decoded text, a comment's data, a processing instruction's data.
    pub(crate) fn text<'b>(&self, batch: &'b Batch) -> Option<Cow<'b, str>> {
        match &self.parts {
            Parts::Text { text, .. } => Some(batch.str(text)),
            Parts::Comment { data } | Parts::ProcessingInstruction { data, .. } => {
                Some(batch.str(data))
            }
            _ => None,
        }
    }

    pub(crate) fn text_kind(&self) -> Option<TextKind> {
        match self.parts {
            Parts::Text { kind, .. } => Some(kind),
            _ => None,
        }
    }

    pub(crate) fn self_closing(&self) -> bool {
        matches!(
            self.parts,
            Parts::StartTag {
                self_closing: true,
                ..
            }
        )
    }

    fn doctype(&self) -> Option<&DoctypeParts> {
        match &self.parts {
            Parts::Doctype(doctype) => Some(doctype),
            _ => None,
        }
    }

    pub(crate) fn public_id<'b>(&self, batch: &'b Batch) -> Option<Cow<'b, str>> {
        let id = self.doctype()?.public_id.as_ref()?;
        Some(batch.str(id))
    }

    pub(crate) fn system_id<'b>(&self, batch: &'b Batch) -> Option<Cow<'b, str>> {
        let id = self.doctype()?.system_id.as_ref()?;
        Some(batch.str(id))
    }

    pub(crate) fn internal_subset<'b>(&self, batch: &'b Batch) -> Option<Cow<'b, str>> {
        let subset = self.doctype()?.internal_subset.as_ref()?;
        Some(batch.str(subset))
    }

    pub(crate) fn force_quirks(&self) -> bool {
        self.doctype().is_some_and(|doctype| doctype.force_quirks)
    }
}

/// A parse error: code, offset, line and column.
#[derive(Clone, Debug)]
pub(crate) struct ErrorRecord {
    pub(crate) code: &'static str,
    pub(crate) offset: usize,
    pub(crate) line: u64,
    pub(crate) column: u64,
}

/// An SGML event: its channel, its lexemes (in [`Batch::lexemes`]), and for a problem, which
/// one and where its offending text starts.
#[derive(Clone, Debug)]
pub(crate) struct EventRecord {
    pub(crate) channel: Channel,
    pub(crate) lexemes: Range<usize>,
    pub(crate) problem: Option<Problem>,
    /// Line and column (1-based, columns in UTF-16 code units).
    pub(crate) position: Option<(u64, u64)>,
}

/// An SGML lexeme: kind, span, bytes as written and text.
#[derive(Clone, Debug)]
pub(crate) struct LexemeRecord {
    pub(crate) kind: LexemeKind,
    pub(crate) span: (usize, usize),
    pub(crate) raw: Range<usize>,
    pub(crate) text: Range<usize>,
}

/// One item of a call: which record, of which kind.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    /// In [`Batch::token`].
    Token(usize),
    /// In [`Batch::error`].
    Error(usize),
    /// In [`Batch::event`].
    Event(usize),
}

/// The items of one call and the strings and bytes they share (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// The items in order.
    items: Vec<Item>,
    tokens: Vec<TokenRecord>,
    errors: Vec<ErrorRecord>,
    events: Vec<EventRecord>,
    /// The input, then the raw bytes of tokens from the carry.
    bytes: Vec<u8>,
    /// How many of `bytes` are the input.
    input: usize,
    /// The strings the tokenizer decoded.
    decoded: String,
    /// The start tags' attributes: name and value.
    attributes: Vec<(Range<usize>, Range<usize>)>,
    /// The SGML events' lexemes.
    lexemes: Vec<LexemeRecord>,
}

impl Batch {
    pub(crate) fn items(&self) -> &[Item] {
        &self.items
    }

    pub(crate) fn token(&self, at: usize) -> &TokenRecord {
        &self.tokens[at]
    }

    pub(crate) fn error(&self, at: usize) -> &ErrorRecord {
        &self.errors[at]
    }

    pub(crate) fn event(&self, at: usize) -> &EventRecord {
        &self.events[at]
    }

    pub(crate) fn lexeme(&self, at: usize) -> &LexemeRecord {
        &self.lexemes[at]
    }

    /// A string: a range in the input followed by `decoded`, as if they were one. A string
    /// in the input is one the tokenizer borrowed from it, so UTF-8: it is borrowed (checked
    /// again here, as Python checks it again when it makes a `str` of it).
    pub(crate) fn str(&self, range: &Range<usize>) -> Cow<'_, str> {
        if range.end <= self.input {
            String::from_utf8_lossy(&self.bytes[range.clone()])
        } else {
            Cow::Borrowed(&self.decoded[range.start - self.input..range.end - self.input])
        }
    }

    pub(crate) fn bytes(&self, range: &Range<usize>) -> &[u8] {
        &self.bytes[range.clone()]
    }

    pub(crate) fn lexemes(&self, range: &Range<usize>) -> &[LexemeRecord] {
        &self.lexemes[range.clone()]
    }
}

/// Fills a [`Batch`] with the items of one call over `input` (see the module docs).
pub(crate) struct Builder<'i> {
    batch: Batch,
    input: &'i [u8],
}

impl<'i> Builder<'i> {
    /// A builder for the items of `input`: a document, a chunk, or nothing (`finish`, or the
    /// values a constructor was given).
    pub(crate) fn new(input: &'i [u8]) -> Builder<'i> {
        // About one token in 34 bytes and one attribute in 83 over the corpus: room for twice
        // that spares the copying as the records of most pages grow (capped: a large input may
        // be one long text, and past a few megabytes growing costs little).
        let tokens = (input.len() / 16).min(1 << 16);
        let batch = Batch {
            items: Vec::with_capacity(tokens),
            tokens: Vec::with_capacity(tokens),
            attributes: Vec::with_capacity(tokens / 2),
            bytes: input.to_vec(),
            input: input.len(),
            ..Batch::default()
        };
        Builder { batch, input }
    }

    pub(crate) fn finish(self) -> Batch {
        self.batch
    }

    /// Where `part` is in the input, if it is part of it.
    fn in_input(&self, part: &[u8]) -> Option<Range<usize>> {
        let offset = (part.as_ptr() as usize).wrapping_sub(self.input.as_ptr() as usize);
        let inside = offset <= self.input.len() && part.len() <= self.input.len() - offset;
        inside.then_some(offset..offset + part.len())
    }

    /// `s` as a string of the batch (see [`Batch::str`]): where the input has it, or appended
    /// to the decoded strings.
    pub(crate) fn string(&mut self, s: &str) -> Range<usize> {
        self.in_input(s.as_bytes()).unwrap_or_else(|| {
            let start = self.batch.input + self.batch.decoded.len();
            self.batch.decoded.push_str(s);
            start..start + s.len()
        })
    }

    /// `raw` in the batch's bytes: where the input has it, or appended.
    pub(crate) fn raw(&mut self, raw: &[u8]) -> Range<usize> {
        self.in_input(raw).unwrap_or_else(|| {
            let start = self.batch.bytes.len();
            self.batch.bytes.extend_from_slice(raw);
            start..self.batch.bytes.len()
        })
    }

    /// Attributes, (name, value): their range in the batch's attributes.
    pub(crate) fn attributes<'a>(
        &mut self,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Range<usize> {
        let start = self.batch.attributes.len();
        for (name, value) in attributes {
            let pair = (self.string(name), self.string(value));
            self.batch.attributes.push(pair);
        }
        start..self.batch.attributes.len()
    }

    /// A token, after the last item: its index in [`Batch::token`].
    pub(crate) fn push_token(&mut self, token: TokenRecord) -> usize {
        self.batch.items.push(Item::Token(self.batch.tokens.len()));
        self.batch.tokens.push(token);
        self.batch.tokens.len() - 1
    }

    /// An event, after the last item: its index in [`Batch::event`].
    pub(crate) fn push_event(&mut self, event: EventRecord) -> usize {
        self.batch.items.push(Item::Event(self.batch.events.len()));
        self.batch.events.push(event);
        self.batch.events.len() - 1
    }

    /// A token of the library, its strings and bytes in the batch.
    pub(crate) fn token(&mut self, token: &tagstream::Token<'_>) {
        use tagstream::Token as T;
        let parts = match token {
            T::StartTag(tag) => Parts::StartTag {
                name: self.string(tag.name()),
                attributes: self.attributes(tag.attributes().map(|a| (a.name(), a.value()))),
                self_closing: tag.self_closing(),
            },
            T::EndTag(tag) => Parts::EndTag {
                name: self.string(tag.name()),
            },
            T::Text(text) => Parts::Text {
                text: self.string(text.text()),
                kind: text.kind(),
            },
            T::Comment(comment) => Parts::Comment {
                data: self.string(comment.data()),
            },
            T::Doctype(doctype) => Parts::Doctype(Box::new(DoctypeParts {
                name: doctype.name().map(|name| self.string(name)),
                public_id: doctype.public_id().map(|id| self.string(id)),
                system_id: doctype.system_id().map(|id| self.string(id)),
                force_quirks: doctype.force_quirks(),
                internal_subset: doctype
                    .raw_internal_subset()
                    .map(|raw| self.string(&String::from_utf8_lossy(raw))),
            })),
            T::ProcessingInstruction(pi) => Parts::ProcessingInstruction {
                target: self.string(pi.target()),
                data: self.string(pi.data()),
            },
            T::Raw(_) => Parts::Raw,
        };
        let span = token.span();
        let raw = self.raw(token.raw());
        self.push_token(TokenRecord {
            parts,
            raw,
            span: (span.start, span.end),
        });
    }

    /// A parse error of the library.
    pub(crate) fn error(&mut self, error: &tagstream::ParseError) {
        self.batch.items.push(Item::Error(self.batch.errors.len()));
        self.batch.errors.push(ErrorRecord {
            code: error.code.as_str(),
            offset: error.offset,
            line: error.position.line,
            column: error.position.col,
        });
    }

    /// A lexeme, after the last one: its index in [`Batch::lexeme`].
    pub(crate) fn lexeme(
        &mut self,
        kind: LexemeKind,
        span: (usize, usize),
        raw: &[u8],
        text: &str,
    ) -> usize {
        let record = LexemeRecord {
            kind,
            span,
            raw: self.raw(raw),
            text: self.string(text),
        };
        self.batch.lexemes.push(record);
        self.batch.lexemes.len() - 1
    }

    /// Where the next lexeme will go.
    pub(crate) fn next_lexeme(&self) -> usize {
        self.batch.lexemes.len()
    }

    /// An SGML event of the library, and for a problem, the line and column of its start.
    pub(crate) fn event(&mut self, event: &Event<'_>, position: Option<(u64, u64)>) {
        let start = self.next_lexeme();
        for lexeme in event.lexemes() {
            let span = lexeme.span();
            self.lexeme(
                lexeme.kind(),
                (span.start, span.end),
                lexeme.raw(),
                &lexeme.text(),
            );
        }
        self.push_event(EventRecord {
            channel: event.channel(),
            lexemes: start..self.next_lexeme(),
            problem: event.problem(),
            position: event.problem().and(position),
        });
    }
}
