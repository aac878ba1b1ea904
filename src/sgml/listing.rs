//! The note's listing format: one lexeme a line, as its worked examples print events, so that
//! they can be compared as text.

use std::fmt::Write;

use super::event::{Channel, Event, LexemeKind};

/// Append `event` to `out` in the note's listing format: `[Aux Markup]` before an auxiliary
/// event, then one line a lexeme, `` Label: `text' ``, the lexemes after the first indented by
/// two spaces. White space between the parts of a tag or declaration (`S` lexemes) and the `=` of
/// attributes (`Vi`) are left out, as the note's listings leave them out.
///
/// ```
/// use tagstream::Options;
/// use tagstream::sgml::{SgmlOptions, Tokenizer, write_listing};
///
/// let mut listing = String::new();
/// let mut tokenizer = Tokenizer::new(Options::new(), SgmlOptions { normalize: true });
/// for event in tokenizer.tokenize(b"<!Doctype Foo System>") {
///     write_listing(&event, &mut listing);
/// }
/// assert_eq!(
///     listing,
///     "[Aux Markup]\nMarkup Decl: `<!doctype'\n  Name: `foo'\n  Name: `system'\n  Tag Close: `>'\n"
/// );
/// ```
pub fn write_listing(event: &Event<'_>, out: &mut String) {
    if event.channel() == Channel::Auxiliary {
        out.push_str("[Aux Markup]\n");
    }
    let shown =
        (event.lexemes().iter()).filter(|l| !matches!(l.kind(), LexemeKind::S | LexemeKind::Vi));
    for (i, lexeme) in shown.enumerate() {
        let indent = if i == 0 { "" } else { "  " };
        let _ = writeln!(
            out,
            "{indent}{}: `{}'",
            lexeme.kind().label(),
            lexeme.text()
        );
    }
}
