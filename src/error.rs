//! Parse errors: every tokenizer-stage parse-error code of the WHATWG HTML Standard (§13.2.2), plus
//! the four processing-instruction codes added in 2026 and the XML5 tokenizer's own, each reported
//! with where it happened.
//!
//! Error detection is opt-in ([`crate::Options::errors`]); with it off the tokenizer never builds one.

use std::fmt;

macro_rules! error_codes {
    ($($variant:ident => $name:literal,)*) => {
        /// A tokenizer parse-error code, named as in the HTML Standard's table of parse errors,
        /// then the codes only XML5 has (see [`crate::xml5`] for which codes it reports).
        ///
        /// ```
        /// use tagstream::ErrorCode;
        /// assert_eq!(ErrorCode::EofInTag.as_str(), "eof-in-tag");
        /// assert_eq!("eof-in-tag".parse::<ErrorCode>(), Ok(ErrorCode::EofInTag));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(#[doc = concat!("`", $name, "`")] $variant,)*
        }

        impl ErrorCode {
            /// Every code: HTML's in the standard's alphabetical order, then XML5's.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The kebab-case name the standard gives this error.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                }
            }
        }

        impl std::str::FromStr for ErrorCode {
            type Err = UnknownErrorCode;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($name => Ok(ErrorCode::$variant),)*
                    _ => Err(UnknownErrorCode),
                }
            }
        }
    };
}

error_codes! {
    AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
    AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
    AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
    AbsenceOfDigitsInNumericCharacterReference => "absence-of-digits-in-numeric-character-reference",
    CdataInHtmlContent => "cdata-in-html-content",
    CharacterReferenceOutsideUnicodeRange => "character-reference-outside-unicode-range",
    ControlCharacterInInputStream => "control-character-in-input-stream",
    ControlCharacterReference => "control-character-reference",
    DisallowedProcessingInstructionTarget => "disallowed-processing-instruction-target",
    DuplicateAttribute => "duplicate-attribute",
    EndTagWithAttributes => "end-tag-with-attributes",
    EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
    EofBeforeTagName => "eof-before-tag-name",
    EofInCdata => "eof-in-cdata",
    EofInComment => "eof-in-comment",
    EofInDoctype => "eof-in-doctype",
    EofInProcessingInstruction => "eof-in-processing-instruction",
    EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
    EofInTag => "eof-in-tag",
    IncorrectlyClosedComment => "incorrectly-closed-comment",
    IncorrectlyOpenedComment => "incorrectly-opened-comment",
    InvalidCharacterSequenceAfterDoctypeName => "invalid-character-sequence-after-doctype-name",
    InvalidFirstCharacterOfProcessingInstructionTarget => "invalid-first-character-of-processing-instruction-target",
    InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
    InvalidProcessingInstructionTarget => "invalid-processing-instruction-target",
    MissingAttributeValue => "missing-attribute-value",
    MissingDoctypeName => "missing-doctype-name",
    MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
    MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
    MissingEndTagName => "missing-end-tag-name",
    MissingQuoteBeforeDoctypePublicIdentifier => "missing-quote-before-doctype-public-identifier",
    MissingQuoteBeforeDoctypeSystemIdentifier => "missing-quote-before-doctype-system-identifier",
    MissingSemicolonAfterCharacterReference => "missing-semicolon-after-character-reference",
    MissingWhitespaceAfterDoctypePublicKeyword => "missing-whitespace-after-doctype-public-keyword",
    MissingWhitespaceAfterDoctypeSystemKeyword => "missing-whitespace-after-doctype-system-keyword",
    MissingWhitespaceBeforeDoctypeName => "missing-whitespace-before-doctype-name",
    MissingWhitespaceBetweenAttributes => "missing-whitespace-between-attributes",
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => "missing-whitespace-between-doctype-public-and-system-identifiers",
    NestedComment => "nested-comment",
    NoncharacterCharacterReference => "noncharacter-character-reference",
    NoncharacterInInputStream => "noncharacter-in-input-stream",
    NullCharacterReference => "null-character-reference",
    SurrogateCharacterReference => "surrogate-character-reference",
    SurrogateInInputStream => "surrogate-in-input-stream",
    UnexpectedCharacterAfterDoctypeSystemIdentifier => "unexpected-character-after-doctype-system-identifier",
    UnexpectedCharacterInAttributeName => "unexpected-character-in-attribute-name",
    UnexpectedCharacterInUnquotedAttributeValue => "unexpected-character-in-unquoted-attribute-value",
    UnexpectedEqualsSignBeforeAttributeName => "unexpected-equals-sign-before-attribute-name",
    UnexpectedNullCharacter => "unexpected-null-character",
    UnexpectedQuestionMarkInsteadOfTagName => "unexpected-question-mark-instead-of-tag-name",
    UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
    UnknownNamedCharacterReference => "unknown-named-character-reference",
    // XML5 only (the XML5 tokenizer reuses the codes above where it behaves as HTML does).
    ColonBeforeAttribute => "colon-before-attribute",
    UnexpectedCharacterAfterDoctypeInternalSubset => "unexpected-character-after-doctype-internal-subset",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The string given to [`ErrorCode::from_str`](std::str::FromStr) is not a tokenizer error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownErrorCode;

impl fmt::Display for UnknownErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a tokenizer parse-error code")
    }
}

impl std::error::Error for UnknownErrorCode {}

/// A line and column in the preprocessed input stream, both 1-based.
///
/// Lines end at LF, CR or CRLF (the LF sits at the end of the line it terminates). The column counts
/// UTF-16 code units, as html5lib-tests and browsers' consoles do: a character outside the Basic
/// Multilingual Plane takes two columns, and each invalid UTF-8 sequence (one U+FFFD) takes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column in UTF-16 code units.
    pub col: u64,
}

/// One parse error: its code, the byte offset in the input where it was detected, and that offset's
/// line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub code: ErrorCode,
    /// Byte offset in the whole input (counting from the first byte ever fed).
    pub offset: usize,
    /// Line and column of `offset`.
    pub position: Position,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.position.line, self.position.col, self.code
        )
    }
}

/// The parse errors a tokenizer found but did not store, counted by code: those past
/// [`Options::max_errors`](crate::Options::max_errors).
///
/// Stored and dropped errors together are every error of the stream: for each code, the errors
/// handed out plus [`DroppedErrors::count`] is what a tokenizer without a cap reports.
///
/// ```
/// use tagstream::{ErrorCode, Options, Tokenizer};
/// let mut tokenizer = Tokenizer::new(Options::new().errors(true).max_errors(2));
/// tokenizer.tokenize(b"a\0\0\0\0b").for_each(drop);
/// assert_eq!(tokenizer.errors().len(), 2);
/// let dropped = tokenizer.dropped_errors();
/// assert_eq!(dropped.total(), 2);
/// assert_eq!(dropped.count(ErrorCode::UnexpectedNullCharacter), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DroppedErrors {
    by_code: [u64; CODES],
}

/// How many error codes there are.
const CODES: usize = ErrorCode::ALL.len();

impl Default for DroppedErrors {
    fn default() -> DroppedErrors {
        DroppedErrors {
            by_code: [0; CODES],
        }
    }
}

impl DroppedErrors {
    /// How many errors were dropped, all codes together.
    pub fn total(&self) -> u64 {
        self.by_code.iter().sum()
    }

    /// How many errors of `code` were dropped.
    pub fn count(&self, code: ErrorCode) -> u64 {
        self.by_code[code as usize]
    }

    /// The codes with dropped errors and how many, in [`ErrorCode::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (ErrorCode, u64)> + '_ {
        ErrorCode::ALL
            .iter()
            .zip(self.by_code)
            .filter(|&(_, n)| n > 0)
            .map(|(&code, n)| (code, n))
    }

    /// Count `n` more errors of `code`.
    #[inline]
    pub(crate) fn add(&mut self, code: ErrorCode, n: u64) {
        self.by_code[code as usize] += n;
    }

    /// Count every error `other` counts too.
    pub(crate) fn add_all(&mut self, other: &DroppedErrors) {
        for (mine, theirs) in self.by_code.iter_mut().zip(other.by_code) {
            *mine += theirs;
        }
    }
}

impl fmt::Debug for DroppedErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The machine's errors since the driver last took them, `(stream offset, code)` in the order it
/// found them: at most `cap`, the others counted in `dropped` (they come after `cap` errors the
/// driver reports first, so past the tokenizer's own cap too).
#[derive(Debug)]
pub(crate) struct FoundErrors {
    pub(crate) list: Vec<(usize, ErrorCode)>,
    cap: usize,
    pub(crate) dropped: DroppedErrors,
}

impl FoundErrors {
    pub(crate) fn new(cap: usize) -> FoundErrors {
        FoundErrors {
            list: Vec::new(),
            cap,
            dropped: DroppedErrors::default(),
        }
    }

    /// Record `code` at `at`, or count it when the list is full. Out of line: the machine's many
    /// error sites stay a call each (errors are rare on real pages).
    #[inline(never)]
    pub(crate) fn push(&mut self, at: usize, code: ErrorCode) {
        if self.list.len() < self.cap {
            self.list.push((at, code));
        } else {
            self.dropped.add(code, 1);
        }
    }

    /// Record `code` at every offset of `at`: as many as there is room for, the rest counted at
    /// once.
    pub(crate) fn push_run(&mut self, code: ErrorCode, at: std::ops::Range<usize>) {
        let room = self.cap - self.list.len();
        let n = at.len();
        self.list.extend(at.take(room).map(|at| (at, code)));
        self.dropped.add(code, n.saturating_sub(room) as u64);
    }

    /// Count, instead of keeping, the errors past the cap (after errors were inserted).
    pub(crate) fn drop_past_cap(&mut self) {
        for &(_, code) in self.list.get(self.cap..).unwrap_or_default() {
            self.dropped.add(code, 1);
        }
        self.list.truncate(self.cap);
    }

    /// Whether nothing waits to be taken (stored or counted).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Forget everything, counts included (a new stream).
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.dropped = DroppedErrors::default();
    }
}

/// Which memory limit a stream ran into (see [`LimitError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Options::max_carry`](crate::Options::max_carry): the bytes of an unfinished token kept
    /// from one chunk for the next.
    Carry,
    /// [`Options::max_arena`](crate::Options::max_arena): the arena that holds attribute lists
    /// and decoded strings until the next feed.
    Arena,
}

/// A stream stopped at a memory limit: which one, its value, what was needed, and the stream
/// offset of the token that did not fit.
///
/// The tokens before `offset` were all handed out, and nothing was cut short: the token at
/// `offset` and everything after it are not produced. The rest of the stream yields nothing
/// (later feeds and [`finish`](crate::Tokenizer::finish)); a new document starts clean, after
/// [`Tokenizer::reset`](crate::Tokenizer::reset) or with a feed after `finish`.
///
/// ```
/// use tagstream::{Limit, Options, Tokenizer};
/// let mut tokenizer = Tokenizer::new(Options::new().max_carry(16));
/// let tokens: Vec<_> = tokenizer.feed(b"<p>hi</p><!-- a long comment ").map(|t| t.span()).collect();
/// assert_eq!(tokens.len(), 3);
/// let error = tokenizer.limit_error().unwrap();
/// assert_eq!((error.limit, error.max, error.offset), (Limit::Carry, 16, 9));
/// assert_eq!(tokenizer.feed(b"continues -->").count(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitError {
    /// The limit that was hit.
    pub limit: Limit,
    /// Its configured value, in bytes.
    pub max: usize,
    /// The bytes that would have been needed (at least).
    pub needed: usize,
    /// Stream offset of the first token not produced.
    pub offset: usize,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            Limit::Carry => "the unfinished token to carry over",
            Limit::Arena => "the token arena",
        };
        write!(
            f,
            "memory limit at byte {}: {what} needs {} bytes, more than the limit of {}",
            self.offset, self.needed, self.max
        )
    }
}

impl std::error::Error for LimitError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(ErrorCode::ALL.len(), 54);
        for &code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
        }
        assert_eq!("no-such-error".parse::<ErrorCode>(), Err(UnknownErrorCode));
    }
}
