//! What the SGML lexer hands out: events of lexemes, in three channels (see the
//! [module docs](super)).

use std::borrow::Cow;

use bumpalo::Bump;

use crate::span::Span;

/// Which of the note's three callbacks an [`Event`] goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Data, tags, references.
    Primary,
    /// Markup declarations, comment declarations, processing instructions.
    Auxiliary,
    /// One error or limitation.
    Problem,
}

impl Channel {
    /// Every channel, in the order above.
    pub const ALL: &'static [Channel] = &[Channel::Primary, Channel::Auxiliary, Channel::Problem];

    /// Its name in `tagstream tokens --dialect sgml`'s JSON lines and the Python bindings.
    ///
    /// ```
    /// assert_eq!(tagstream::sgml::Channel::Auxiliary.as_str(), "auxiliary");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Channel::Primary => "primary",
            Channel::Auxiliary => "auxiliary",
            Channel::Problem => "problem",
        }
    }
}

/// The type of a [`Lexeme`]: the note's `SGML_*` types, and three of ours (see the
/// [module docs](super)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LexemeKind {
    /// Data characters, or a problem's offending text.
    Data,
    /// `<name`.
    Start,
    /// `</name`.
    End,
    /// `>` ending a tag or a markup declaration.
    Tagc,
    /// An attribute name (empty when omitted).
    AttrName,
    /// A name.
    Name,
    /// Digits.
    Number,
    /// Name characters that are not a name.
    Nmtoken,
    /// A quoted literal, quotes included.
    Literal,
    /// `&name`.
    GeRef,
    /// `&#999`.
    NumCharRef,
    /// `;` or a record end ending a reference.
    Refc,
    /// `<?…>`.
    Pi,
    /// `<!name` or `<!`.
    MarkupDecl,
    /// `--…--`.
    Comment,
    /// `>` ending a comment declaration.
    Mdc,
    /// An error's message (empty span).
    Error,
    /// A limitation's message (empty span).
    Limitation,
    /// White space inside a tag or declaration.
    S,
    /// `=` in an attribute specification.
    Vi,
    /// `]` or `]]` closing a skipped subset or marked section.
    Dsc,
}

impl LexemeKind {
    /// Every kind, in the order above, each once.
    ///
    /// ```
    /// use tagstream::sgml::LexemeKind;
    /// let names: std::collections::HashSet<_> = LexemeKind::ALL.iter().map(|k| k.as_str()).collect();
    /// assert_eq!(names.len(), LexemeKind::ALL.len());
    /// assert!(names.contains("attrname") && names.contains("dsc"));
    /// ```
    pub const ALL: &'static [LexemeKind] = &[
        LexemeKind::Data,
        LexemeKind::Start,
        LexemeKind::End,
        LexemeKind::Tagc,
        LexemeKind::AttrName,
        LexemeKind::Name,
        LexemeKind::Number,
        LexemeKind::Nmtoken,
        LexemeKind::Literal,
        LexemeKind::GeRef,
        LexemeKind::NumCharRef,
        LexemeKind::Refc,
        LexemeKind::Pi,
        LexemeKind::MarkupDecl,
        LexemeKind::Comment,
        LexemeKind::Mdc,
        LexemeKind::Error,
        LexemeKind::Limitation,
        LexemeKind::S,
        LexemeKind::Vi,
        LexemeKind::Dsc,
    ];

    /// Its name in `tagstream tokens --dialect sgml`'s JSON lines and the Python bindings: the
    /// note's `SGML_*` type in lowercase, or ours (`s`, `vi`, `dsc`).
    ///
    /// ```
    /// use tagstream::sgml::LexemeKind;
    /// assert_eq!(LexemeKind::MarkupDecl.as_str(), "markup_decl");
    /// assert_eq!(LexemeKind::Vi.as_str(), "vi");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            LexemeKind::Data => "data",
            LexemeKind::Start => "start",
            LexemeKind::End => "end",
            LexemeKind::Tagc => "tagc",
            LexemeKind::AttrName => "attrname",
            LexemeKind::Name => "name",
            LexemeKind::Number => "number",
            LexemeKind::Nmtoken => "nmtoken",
            LexemeKind::Literal => "literal",
            LexemeKind::GeRef => "geref",
            LexemeKind::NumCharRef => "numcharref",
            LexemeKind::Refc => "refc",
            LexemeKind::Pi => "pi",
            LexemeKind::MarkupDecl => "markup_decl",
            LexemeKind::Comment => "comment",
            LexemeKind::Mdc => "mdc",
            LexemeKind::Error => "error",
            LexemeKind::Limitation => "limitation",
            LexemeKind::S => "s",
            LexemeKind::Vi => "vi",
            LexemeKind::Dsc => "dsc",
        }
    }

    /// The label the note's listings give the kind (`Start Tag`, `Attr Name`…), ours for the kinds
    /// the note has no listing for.
    pub const fn label(self) -> &'static str {
        match self {
            LexemeKind::Data => "Data",
            LexemeKind::Start => "Start Tag",
            LexemeKind::End => "End Tag",
            LexemeKind::Tagc => "Tag Close",
            LexemeKind::AttrName => "Attr Name",
            LexemeKind::Name => "Name",
            LexemeKind::Number => "Number",
            LexemeKind::Nmtoken => "Name Token",
            LexemeKind::Literal => "Literal",
            LexemeKind::GeRef => "Entity Ref",
            LexemeKind::NumCharRef => "Char Ref",
            LexemeKind::Refc => "Ref Close",
            LexemeKind::Pi => "Processing Instruction",
            LexemeKind::MarkupDecl => "Markup Decl",
            LexemeKind::Comment => "Comment",
            LexemeKind::Mdc => "Markup Decl Close",
            LexemeKind::Error => "!!Error!!",
            LexemeKind::Limitation => "!!Limitation!!",
            LexemeKind::S => "Space",
            LexemeKind::Vi => "Value Indicator",
            LexemeKind::Dsc => "Subset Close",
        }
    }

    /// Whether normalization lowercases lexemes of this kind: names other than entity names.
    pub(crate) const fn folds(self) -> bool {
        matches!(
            self,
            LexemeKind::Start
                | LexemeKind::End
                | LexemeKind::AttrName
                | LexemeKind::Name
                | LexemeKind::MarkupDecl
        )
    }
}

macro_rules! problems {
    ($($variant:ident, $limitation:literal, $kind:literal, $code:literal, $message:literal;)*) => {
        /// An error or a limitation, with its code and the message it is reported with.
        ///
        /// The note gives three messages (`bad character in tag`, `marked sections not supported`,
        /// `declaration subset: skipping`); the others are ours, in its style.
        ///
        /// | code | kind | message |
        /// |---|---|---|
        $(#[doc = concat!("| `", $code, "` | ", $kind, " | ", $message, " |")])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Problem {
            $(#[doc = $message] $variant,)*
        }

        impl Problem {
            /// Every problem, in the table's order.
            pub const ALL: &'static [Problem] = &[$(Problem::$variant,)*];

            /// The problem's code, kebab-case.
            pub const fn code(self) -> &'static str {
                match self { $(Problem::$variant => $code,)* }
            }

            /// The message it is reported with.
            pub const fn message(self) -> &'static str {
                match self { $(Problem::$variant => $message,)* }
            }

            /// Whether it is a limitation (valid SGML the note declines) rather than an error.
            pub const fn is_limitation(self) -> bool {
                match self { $(Problem::$variant => $limitation,)* }
            }
        }
    };
}

problems! {
    BadCharacterInTag, false, "error", "bad-character-in-tag", "bad character in tag";
    LiteralWithoutName, false, "error", "literal-without-attribute-name", "attribute value literal without attribute name";
    MissingAttributeValue, false, "error", "missing-attribute-value", "missing attribute value";
    BadCharacterInDeclaration, false, "error", "bad-character-in-markup-declaration", "bad character in markup declaration";
    BadCharacterInCommentDeclaration, false, "error", "bad-character-in-comment-declaration", "bad character in comment declaration";
    ShortReferenceDeclaration, false, "error", "short-reference-declaration", "short reference declarations not supported";
    BadCharacterInReference, false, "error", "bad-character-in-character-reference", "bad character in numeric character reference";
    CharacterNumberOutOfRange, false, "error", "character-number-out-of-range", "character number out of range";
    EofInTag, false, "error", "eof-in-tag", "unexpected end of input in tag";
    EofInDeclaration, false, "error", "eof-in-markup-declaration", "unexpected end of input in markup declaration";
    EofInComment, false, "error", "eof-in-comment", "unexpected end of input in comment";
    EofInLiteral, false, "error", "eof-in-literal", "unexpected end of input in literal";
    EofInPi, false, "error", "eof-in-processing-instruction", "unexpected end of input in processing instruction";
    MarkedSection, true, "limitation", "marked-section", "marked sections not supported";
    DeclarationSubset, true, "limitation", "declaration-subset", "declaration subset: skipping";
    ParameterEntityReference, true, "limitation", "parameter-entity-reference", "parameter entity references not supported";
    NamedCharacterReference, true, "limitation", "named-character-reference", "named character references not supported";
    UnclosedTag, true, "limitation", "unclosed-tag", "unclosed tags not supported";
    EmptyStartTag, true, "limitation", "empty-start-tag", "empty start tags not supported";
    EmptyEndTag, true, "limitation", "empty-end-tag", "empty end tags not supported";
}

/// A lexeme as the machine records it: kind and span, never bytes (see [`Lexeme`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LexRecord {
    pub(crate) kind: LexemeKind,
    pub(crate) span: Span,
    /// The error or limitation, for a message.
    pub(crate) problem: Option<Problem>,
}

impl LexRecord {
    pub(crate) fn new(kind: LexemeKind, span: Span) -> LexRecord {
        LexRecord {
            kind,
            span,
            problem: None,
        }
    }

    /// The message of `problem`, its span empty at `at`.
    pub(crate) fn problem(problem: Problem, at: usize) -> LexRecord {
        let kind = if problem.is_limitation() {
            LexemeKind::Limitation
        } else {
            LexemeKind::Error
        };
        LexRecord {
            kind,
            span: Span::empty(at),
            problem: Some(problem),
        }
    }
}

/// The events lexed and not handed out yet, their lexeme records in two flat lists: once warm,
/// no allocation per event, and no copy: a construct's lexemes are added where they stay.
///
/// The construct being lexed adds its lexemes to `lexemes` as it goes; a problem found inside it
/// goes out before it, as an event of its own, so its lexemes go to `problems` instead (the
/// construct's stay in one run).
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// The lexemes of constructs, each event's in one run.
    lexemes: Vec<LexRecord>,
    /// The lexemes of problems reported by [`Pending::push`].
    problems: Vec<LexRecord>,
    events: Vec<Slot>,
    /// The first event not handed out.
    next: usize,
    /// Where the construct being lexed starts in `lexemes`.
    construct: usize,
}

/// One pending event: its channel, its lexemes (in [`Pending::problems`] or
/// [`Pending::lexemes`]), the bytes they cover.
#[derive(Clone, Copy, Debug)]
struct Slot {
    channel: Channel,
    /// Whether the lexemes are in [`Pending::problems`].
    problem_list: bool,
    start: usize,
    end: usize,
    span: Span,
}

/// How far [`Pending`] was filled, to go back to.
#[derive(Clone, Copy)]
pub(crate) struct Mark(usize, usize, usize);

/// The bytes `lexemes` (in input order) cover, from the first one's start to the last one's end.
fn covered(lexemes: &[LexRecord]) -> Span {
    debug_assert!(
        lexemes.windows(2).all(|w| w[0].span.end <= w[1].span.start),
        "lexemes out of order: {lexemes:?}"
    );
    match (lexemes.first(), lexemes.last()) {
        (Some(first), Some(last)) => Span {
            start: first.span.start,
            end: last.span.end,
        },
        _ => Span::default(),
    }
}

impl Pending {
    /// Add an event of `channel` with `lexemes`, which are in input order (every state adds
    /// them so, a problem's message first at its offending text), before the construct being
    /// lexed.
    pub(crate) fn push(&mut self, channel: Channel, lexemes: &[LexRecord]) {
        let start = self.problems.len();
        self.problems.extend_from_slice(lexemes);
        self.events.push(Slot {
            channel,
            problem_list: true,
            start,
            end: self.problems.len(),
            span: covered(lexemes),
        });
    }

    /// Add a lexeme to the construct being lexed.
    #[inline]
    pub(crate) fn add(&mut self, lexeme: LexRecord) {
        self.lexemes.push(lexeme);
    }

    /// Add the construct's lexemes as an event of `channel`; the next construct starts.
    pub(crate) fn push_construct(&mut self, channel: Channel) {
        let (start, end) = (self.construct, self.lexemes.len());
        self.events.push(Slot {
            channel,
            problem_list: false,
            start,
            end,
            span: covered(&self.lexemes[start..end]),
        });
        self.construct = end;
    }

    /// Forget the lexemes the construct being lexed added so far.
    pub(crate) fn discard_construct(&mut self) {
        self.lexemes.truncate(self.construct);
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark(self.lexemes.len(), self.problems.len(), self.events.len())
    }

    /// Back to `mark`, taken where a construct starts: what a step added is dropped.
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.lexemes.truncate(mark.0);
        self.problems.truncate(mark.1);
        self.events.truncate(mark.2);
        self.construct = mark.0;
    }

    /// Whether every event was handed out.
    pub(crate) fn is_drained(&self) -> bool {
        self.next == self.events.len()
    }

    /// Forget the events handed out, once all are.
    pub(crate) fn clear_if_drained(&mut self) {
        if self.is_drained() {
            self.clear();
        }
    }

    pub(crate) fn clear(&mut self) {
        self.lexemes.clear();
        self.problems.clear();
        self.events.clear();
        self.next = 0;
        self.construct = 0;
    }

    /// Hand out the next event: its index, for [`Pending::event`], and the bytes it covers.
    pub(crate) fn pop(&mut self) -> Option<(usize, Span)> {
        let slot = self.events.get(self.next)?;
        self.next += 1;
        Some((self.next - 1, slot.span))
    }

    /// The channel and lexemes of event `index` (valid until the list is cleared).
    pub(crate) fn event(&self, index: usize) -> (Channel, &[LexRecord]) {
        let slot = self.events[index];
        let list = if slot.problem_list {
            &self.problems
        } else {
            &self.lexemes
        };
        (slot.channel, &list[slot.start..slot.end])
    }

    /// Where the first event not handed out starts, if one waits.
    pub(crate) fn first_waiting(&self) -> Option<usize> {
        self.events[self.next..].iter().map(|e| e.span.start).min()
    }
}

/// One lexeme: its kind, its bytes in the input, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lexeme<'t> {
    record: LexRecord,
    raw: &'t [u8],
    normalize: bool,
}

impl<'t> Lexeme<'t> {
    /// The kind.
    pub fn kind(&self) -> LexemeKind {
        self.record.kind
    }

    /// Where its bytes are in the input stream.
    pub fn span(&self) -> Span {
        self.record.span
    }

    /// Its bytes, verbatim (quotes included for literals; empty for a message or an omitted
    /// attribute name).
    pub fn raw(&self) -> &'t [u8] {
        self.raw
    }

    /// Its text: a problem's message; else the raw bytes (invalid UTF-8 replaced by U+FFFD),
    /// lowercased for names when normalization is on. Borrowed when unchanged.
    pub fn text(&self) -> Cow<'t, str> {
        if let Some(problem) = self.record.problem {
            return Cow::Borrowed(problem.message());
        }
        let text = String::from_utf8_lossy(self.raw);
        let fold = self.normalize && self.record.kind.folds();
        if fold && self.raw.iter().any(u8::is_ascii_uppercase) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            text
        }
    }

    /// The error or limitation, for a message lexeme.
    pub fn problem_kind(&self) -> Option<Problem> {
        self.record.problem
    }
}

/// One event: a channel and its lexemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event<'t> {
    channel: Channel,
    lexemes: &'t [Lexeme<'t>],
}

impl<'t> Event<'t> {
    /// The event of `channel` and `records` over `bytes`, which hold their stream offsets from
    /// `base` on; the lexemes go into `arena`.
    pub(crate) fn new(
        channel: Channel,
        records: &[LexRecord],
        bytes: &'t [u8],
        base: usize,
        normalize: bool,
        arena: &'t Bump,
    ) -> Self {
        let lexeme = |i: usize| {
            let record = records[i];
            Lexeme {
                record,
                raw: &bytes[record.span.start - base..record.span.end - base],
                normalize,
            }
        };
        Event {
            channel,
            lexemes: arena.alloc_slice_fill_with(records.len(), lexeme),
        }
    }

    /// Which callback the note would call with it.
    pub fn channel(&self) -> Channel {
        self.channel
    }

    /// Its lexemes, in order.
    pub fn lexemes(&self) -> &'t [Lexeme<'t>] {
        self.lexemes
    }

    /// For an event of [`Channel::Problem`]: the error or limitation.
    pub fn problem(&self) -> Option<Problem> {
        self.lexemes.first().and_then(Lexeme::problem_kind)
    }

    /// The bytes the event covers, from its first lexeme's start to its last one's end.
    pub fn span(&self) -> Span {
        match (self.lexemes.first(), self.lexemes.last()) {
            (Some(first), Some(last)) => Span {
                start: first.span().start,
                end: last.span().end,
            },
            _ => Span::default(),
        }
    }
}
