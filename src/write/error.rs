//! Why a token was not written: [`WriteError`].

use std::fmt;

use crate::TextKind;

/// Where the refused token was: its offset in the input it was tokenized from (tokens written
/// through [`Serializer::write_token`](super::Serializer::write_token)), else its index among the
/// tokens given to the serializer (0 for the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The token's first byte in its input.
    Offset(usize),
    /// The token's index in the serializer's stream.
    Index(u64),
}

/// Where in the markup a character or string would land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Text in the given tokenizer state.
    Text(TextKind),
    /// An attribute value.
    AttributeValue,
    /// A comment.
    Comment,
    /// A DOCTYPE's name or identifier.
    Doctype,
    /// A processing instruction.
    ProcessingInstruction,
}

/// Why a token cannot be written so that it tokenizes back to itself.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// §13.1.6: comment text must not start with `>` or `->` nor contain `-->` or `--!>`. (Its
    /// rules against `<!--` inside and `<!-` at the end are not enforced: such text reads back
    /// as written.) `rule` is the string that breaks the rule.
    Comment { rule: &'static str },
    /// §13.1.2.6: raw text holding `</` + the element's name + a tab, line feed, form feed,
    /// carriage return, space, `>` or `/`, which would end the element (in a script: where the
    /// tokenizer would read it as the end tag, outside the double escaped states).
    EndTagInRawText { element: String },
    /// A script end tag after text that left the tokenizer in the script data double escaped
    /// state (`<!-- <script>` not closed by `</script>` or `-->`), where `</script>` does not
    /// end the element.
    ScriptNotClosable,
    /// §13.1.5: CDATA section text holding `]]>`.
    CdataEnd,
    /// A DOCTYPE identifier holding both `"` and `'`, or `>`; or a DOCTYPE name holding ASCII
    /// whitespace or `>`; or a DOCTYPE without a name but with identifiers or without the
    /// force-quirks flag (`<!DOCTYPE>` always sets it).
    Doctype { what: &'static str },
    /// U+0000 where the tokenizer reads U+FFFD.
    Nul(Place),
    /// A carriage return where no character reference can stand for it (the tokenizer reads it
    /// as a line feed).
    CarriageReturn(Place),
    /// A tag name that is empty, does not start with an ASCII letter, or holds ASCII whitespace,
    /// `/`, `>` or U+0000.
    TagName(String),
    /// An attribute name that is empty or holds ASCII whitespace, `/`, `>`, U+0000 or (after its
    /// first character) `=`.
    AttributeName(String),
    /// Two attributes of one start tag whose names match ASCII case-insensitively (§13.1.2.3);
    /// the tokenizer drops the second.
    DuplicateAttribute(String),
    /// A tag, comment, CDATA section, DOCTYPE or processing instruction inside the raw text,
    /// RCDATA or PLAINTEXT of `element`, where it would read back as text.
    MarkupInText { element: String },
    /// `/` before `>` asked of an HTML element, where it means nothing (only foreign, SVG or
    /// MathML, elements and XML5 close themselves).
    SelfClosing { element: String },
    /// Text inserted into a script holding `<!--` or `<script`, which move the tokenizer into
    /// the script data escape states, where the script's own `</script>` may no longer end it.
    ScriptEscape,
    /// An element edit or removal asked of a token that is not a start tag.
    NotAStartTag,
    /// A processing instruction whose target is not an ASCII letter or `_` followed by ASCII
    /// alphanumerics, `-` and `_`, or is `xml` or `xml-stylesheet`; or whose data holds `>`.
    ProcessingInstruction { what: &'static str },
}

/// An error from a [`Serializer`](super::Serializer) or a [`Rewriter`](super::Rewriter): the
/// output failed, or a token was refused (nothing of it was written, and the serializer can go
/// on with the next token), or a rewriter of decoded tokens cannot find the input's bytes.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// The output's `write` failed.
    Io(std::io::Error),
    /// A token that cannot be written so that it reads back as itself (see
    /// [`SerializerOptions::lossy`](super::SerializerOptions::lossy)).
    Refused { refusal: Refusal, at: Location },
    /// Decoded tokens were passed, but the input bytes they stand for are not known: the
    /// [`Transcoder`](crate::encoding::Transcoder) needs
    /// [`map_offsets`](crate::encoding::Transcoder::map_offsets) on for a rewriter to write the
    /// input back. `at`: the decoded offset.
    Unmapped { at: usize },
}

impl WriteError {
    /// Why the token was refused (`None` for an I/O error).
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            WriteError::Refused { refusal, .. } => Some(refusal),
            WriteError::Io(_) | WriteError::Unmapped { .. } => None,
        }
    }

    /// Where the refused token was, or the offset not mapped (`None` for an I/O error).
    pub fn location(&self) -> Option<Location> {
        match self {
            WriteError::Refused { at, .. } => Some(*at),
            WriteError::Unmapped { at } => Some(Location::Offset(*at)),
            WriteError::Io(_) => None,
        }
    }
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Comment { rule } => write!(f, "comment text breaks the rule on {rule:?}"),
            Refusal::EndTagInRawText { element } => {
                write!(f, "the text of <{element}> holds its end tag")
            }
            Refusal::ScriptNotClosable => write!(
                f,
                "the script's text leaves it double escaped, where </script> does not end it"
            ),
            Refusal::CdataEnd => write!(f, "CDATA section text holds \"]]>\""),
            Refusal::Doctype { what } => write!(f, "DOCTYPE {what}"),
            Refusal::Nul(place) => write!(f, "U+0000 in {place:?} reads back as U+FFFD"),
            Refusal::CarriageReturn(place) => {
                write!(
                    f,
                    "a carriage return in {place:?} reads back as a line feed"
                )
            }
            Refusal::TagName(name) => write!(f, "{name:?} cannot be written as a tag name"),
            Refusal::AttributeName(name) => {
                write!(f, "{name:?} cannot be written as an attribute name")
            }
            Refusal::DuplicateAttribute(name) => write!(f, "attribute {name:?} given twice"),
            Refusal::MarkupInText { element } => {
                write!(f, "markup inside <{element}> reads back as text")
            }
            Refusal::ProcessingInstruction { what } => write!(f, "processing instruction {what}"),
            Refusal::SelfClosing { element } => {
                write!(f, "\"/>\" means nothing on the HTML element <{element}>")
            }
            Refusal::ScriptEscape => write!(
                f,
                "text inserted into a script holds \"<!--\" or \"<script\", which can keep \
                 </script> from ending it"
            ),
            Refusal::NotAStartTag => write!(f, "an element edit needs a start tag"),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "writing failed: {e}"),
            WriteError::Refused { refusal, at } => match at {
                Location::Offset(o) => write!(f, "token at byte {o} refused: {refusal}"),
                Location::Index(i) => write!(f, "token #{i} refused: {refusal}"),
            },
            WriteError::Unmapped { at } => write!(
                f,
                "the input bytes at decoded offset {at} are not known: the transcoder needs \
                 map_offsets on"
            ),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            WriteError::Refused { .. } | WriteError::Unmapped { .. } => None,
        }
    }
}
