//! SGML: the lexical mode of the W3C Note "A Lexical Analyzer for HTML and Basic SGML" (spec/004),
//! the third dialect after HTML and XML5.
//!
//! The note reads the SGML that HTML 2.0, DocBook, TEI and DTD files use, and reports every
//! construct as a list of *lexemes*, each with its exact source text. Errors, and "limitations"
//! (valid SGML the note declines), are reported with the offending text, and lexing goes on.
//! This module gives that lexical view: [`Tokenizer`] turns bytes, whole or in chunks, into
//! [`Event`]s.
//!
//! # Events, channels, lexemes
//!
//! The note's three callbacks are the three [`Channel`]s of an [`Event`]:
//!
//! | channel | the note's callback | events |
//! |---|---|---|
//! | [`Channel::Primary`] | primary | data, start tags with their attributes, end tags, character and entity references |
//! | [`Channel::Auxiliary`] | second | markup declarations, comment declarations, processing instructions |
//! | [`Channel::Problem`] | third | one error or limitation each |
//!
//! An event is a sequence of [`Lexeme`]s, the note's arrays of strings and types: each has a
//! [`LexemeKind`], a byte [`Span`](crate::Span), [`Lexeme::raw`] (its source bytes, quotes
//! included for literals) and [`Lexeme::text`] (normalized when [`SgmlOptions::normalize`] is
//! on, borrowed when unchanged). The kinds are the note's, plus three that make the view lossless:
//!
//! | kind | the note | source |
//! |---|---|---|
//! | `Data` | SGML_DATA | data characters (record ends included), or an error's offending text |
//! | `Start` | SGML_START | `<name` |
//! | `End` | SGML_END | `</name` |
//! | `Tagc` | TAGC | `>` ending a tag or a markup declaration |
//! | `AttrName` | SGML_ATTRNAME | an attribute's name; empty (span and text) when the name is omitted |
//! | `Name` | SGML_NAME | a name: a declaration parameter, or a value whose attribute name is omitted |
//! | `Number` | SGML_NUMBER | digits, a declaration parameter |
//! | `Nmtoken` | SGML_NMTOKEN | an unquoted attribute value (name characters) or a parameter that is neither |
//! | `Literal` | SGML_LITERAL | `"…"` or `'…'`, quotes included |
//! | `GeRef` | SGML_GEREF | `&name` |
//! | `NumCharRef` | SGML_NUMCHARREF | `&#999` |
//! | `Refc` | SGML_REFC | the `;` or record end that ends a reference |
//! | `Pi` | SGML_PI | `<?…>`, whole |
//! | `MarkupDecl` | SGML_MARKUP_DECL | `<!doctype` (a declaration), `<!` (a comment declaration) |
//! | `Comment` | SGML_COMMENT | `--…--` |
//! | `Mdc` | MDC | `>` ending a comment declaration (as the note says; other declarations end with `Tagc`, as its listing shows) |
//! | `Error` | SGML_ERROR | the message; its span is empty, at the offending text |
//! | `Limitation` | SGML_LIMITATION | the same, for a limitation |
//! | `S` (ours) | — | white space between the parts of a tag or declaration (SGML's `s` separator) |
//! | `Vi` (ours) | — | the `=` between an attribute's name and value (SGML's VI delimiter) |
//! | `Dsc` (ours) | — | the `]` or `]]` after a skipped declaration subset or marked section |
//!
//! **Lossless.** Every input byte is in exactly one lexeme: the spans of all lexemes of all events
//! tile the input (the lexemes that hold no byte are empty: the message of a problem, an omitted
//! attribute name, and the offending text of a problem that has none, such as an unclosed tag or
//! the end of input inside a construct). A byte order mark that [`Options::strip_bom`](crate::Options::strip_bom)
//! strips (it is on by default) is in no lexeme: [`Tokenizer::bom`] says where it was. Events come in input order, with one exception the note's own example shows: the
//! errors found inside a tag or declaration come before the event of the tag or declaration
//! (`<tag xxx=yyy ?>`: the error for `?` comes first). Sorted by span, the raw bytes concatenate
//! to the input.
//!
//! # The events are a new type, not [`Token`](crate::Token)
//!
//! HTML's and XML5's [`Token`](crate::Token) is a decoded view (names, attribute values with
//! references resolved, comment data) that hides the delimiters and the white space between
//! them. The note's view is the opposite: every piece of markup, verbatim, in order, with its
//! kind; an attribute's omitted name, a declaration's parameters and its comments are separate
//! lexemes. Fitting that into `Token` would mean a new variant whose accessors nothing else
//! shares, and the HTML hot path matching on one more variant. So SGML has its own item,
//! [`Event`], and its own iterator.
//!
//! The events still go through the shared streaming driver (`tokenizer::Stream`): feeding in
//! chunks, the carry of an unfinished construct, pausing, memory limits, positions, the byte order
//! mark. The driver builds `Token`s from the dialect's `Record`s, so each event travels as a
//! record of data text spanning the event's bytes, and the lexer keeps the event's lexemes for
//! [`Events`] to read right after the driver built the token (the `dialect` module says how). That
//! needs no change to the driver or the `Dialect` seam. The change that would make it direct, and
//! spare the lexeme table and the text token in between, is one associated item type on
//! `Dialect` (the item `Pull` builds from a record: `Token` for HTML and XML5, `Event` for SGML);
//! it touches every signature of the driver that returns `Option<Token>`, so it waits until the
//! HTML hot path can be measured before and after it.
//!
//! The machine (`machine`) reads a window of the stream (`span::Window`) and lexes one construct a
//! step; where the window ends before a construct is decided and more input may come, it stops
//! at the construct's start, and the driver carries the bytes from there into the next feed.
//! Data goes out up to such a point (and up to the last whole character), so a seam may split
//! data into two events; nothing else depends on the chunking. A construct cut off is lexed
//! again from its start with the next window while it is short, and once longer only from a
//! window twice as long, so that reading stays linear in the input (the `dialect` module).
//!
//! # The rules, and the note's ambiguities decided
//!
//! - **Names** are a letter then letters, digits, `.` or `-` (ASCII). Bytes from 0x80 up are data
//!   characters, never name characters: the note is about ASCII (its "Future Work" leaves other
//!   character sets open).
//! - **Delimiters in context.** `<` opens a start tag and `</` an end tag only before a letter; `<!`
//!   opens a declaration only before a letter, `--`, `>` or `[` (a marked section, a limitation);
//!   `<?` opens a processing instruction; `&` a reference only before a letter, `&#` only before a
//!   digit or a letter. Everything else is data (`< x >`, `<324`, `<!23>`, `<! doctype>`, `a & b`).
//! - **Record ends** are `\n`, `\r\n` or `\r` (the note says "newline"; SGML's RS and RE are LF and
//!   CR). They stay in the data; one ends a reference as its `Refc`.
//! - **References** end at `;` (`Refc`), a record end (`Refc`), or any other character that is not a
//!   name character, which is not part of the reference. A number followed by a name character
//!   (`&#20.7`, `&#20-35`) is an error; so is a number past U+10FFFF (`&#2000000;`: the note gives
//!   no character set; Unicode's range is the one a reader of UTF-8 has). `&#name` (`&#SPACE;`,
//!   `&#RS`) is a limitation.
//! - **The first worked example** says "six strings" and lists eight, and calls the quoted value
//!   `".76meters"` a Name Token: we follow the note's rules, so the value is a `Literal` with its
//!   quotes, and the event has the eight lexemes listed. A value whose name is omitted (`val1`) is
//!   a `Name` when it is a name (as the listing shows), a `Nmtoken` otherwise (`<x 12>`); a value
//!   after `=` is always a `Nmtoken` (`Name Token: yyy` in the last example).
//! - **Normalization** (the note's `SGML_lexNorm`) lowercases the names of `Start`, `End`,
//!   `AttrName`, `Name` and `MarkupDecl` (`<!Doctype` is `<!doctype`); entity names (`GeRef`) keep
//!   their case, as the note says; unquoted values (`Nmtoken`), literals and data are never changed.
//!   The note's "whitespace normalization" has nothing left to do: white space is in its own
//!   `S` lexemes, which a client skips. Off, every lexeme's text is its raw source (invalid UTF-8
//!   replaced by U+FFFD).
//! - **Bad characters in a tag** (`<xyz!>`, `<abc_def>`, `<a x=50%>`): an error `bad character in
//!   tag` whose offending text is the run of characters that cannot continue the tag (not white
//!   space, name characters, quotes, `>` or `<`); the tag goes on after it. `/` is such a character:
//!   the note lists `<abc/>` and `</xxx/>` as errors, so a NET-enabling start tag (`<b/text/`)
//!   shows as that error, not as a limitation of its own.
//! - **Unclosed tags** (`<xxx<yyy>`, `</yyy</xxx>`) are a limitation whose offending text is empty,
//!   at the `<` that starts the next tag; the unclosed tag is reported without `Tagc`. **Empty
//!   tags** `<>` and `</>` are limitations whose offending text is the tag.
//! - **A literal with no attribute name** (`<xx "abc">`) is an error; its offending text is the
//!   literal. A name and `=` with no value (`<xxx abc=>`) is an error with empty offending text.
//! - **Declarations.** Parameters are `Name`, `Number`, `Nmtoken` (digits then name characters),
//!   `Literal`, `Comment`, separated by `S`. `%name;` is a limitation (parameter entity
//!   references); other characters are an error `bad character in markup declaration` (`<!doctype
//!   xxx,yyy>`). `<!usemap` and `<!shortref` are errors (the note assumes no short references; its
//!   list of errors has `<!usemap map1>`), reported with empty offending text at the declaration's
//!   start, and the declaration is then lexed as any other. A `%` before anything but a letter
//!   (the `%` of `<!ENTITY % e …>`) and the groups of element declarations (`(a|b)*`) are bad
//!   characters too: the note has no DTD syntax (a DTD lexes as declarations full of errors and
//!   limitations, losslessly).
//! - **Declaration subsets and marked sections.** `[` in a declaration is the limitation
//!   `declaration subset: skipping`, whose offending text runs to the next `]` (not included);
//!   the `]` is a `Dsc` lexeme of the declaration, which goes on. `<![` is the limitation `marked
//!   sections not supported` with offending text `<![`, then the subset limitation as above, then
//!   `]]` (`Dsc`) and `>` (`Mdc`) are lexemes of that second event. The note's listing of that
//!   example shows neither `]]` nor `>`: they have to be somewhere for the view to be lossless.
//! - **Comment declarations** hold zero or more `--…--` comments separated by white space (`<!----
//!   ---- ---->` is three, `<!>` none). Anything else before the `>` is an error `bad character in
//!   comment declaration` (`<!-- comment-- xxx>`).
//! - **End of input** inside a construct is an error (`unexpected end of input in tag`, `… in
//!   markup declaration`, `… in comment`, `… in literal`, `… in processing instruction`) with an
//!   empty offending text at the end of input, reported before what was lexed of the construct,
//!   which is never dropped.
//!
//! The errors and limitations, their codes ([`Problem::code`]) and messages, are listed at
//! [`Problem`].

mod class;
mod dialect;
mod event;
mod listing;
mod machine;
#[cfg(test)]
mod tests;
mod tokenizer;

pub use event::{Channel, Event, Lexeme, LexemeKind, Problem};
pub use listing::write_listing;
pub use machine::SgmlOptions;
pub use tokenizer::{Events, Tokenizer};
