//! The DOCTYPE's internal subset, read for its general internal entities (XML 1.0 §2.8, §4.2):
//! a small declaration reader over the bytes the tokenizer kept
//! ([`Doctype::raw_internal_subset`](crate::Doctype::raw_internal_subset)), and the table of
//! entities it collects, each replacement text tokenized once as XML5 content.
//!
//! What is read and what is skipped:
//!
//! | declaration | what happens |
//! |---|---|
//! | `<!ENTITY name "value">` (or `'value'`) | collected; the first declaration of a name wins (§4.2) |
//! | the same for `lt`, `gt`, `amp`, `apos`, `quot` | read, not used: those always mean their character (§4.6) |
//! | `<!ENTITY name SYSTEM "…">`, `PUBLIC` | skipped, `external-entity-not-fetched`; never fetched |
//! | `<!ENTITY % name …>` | skipped, `parameter-entity-not-read` |
//! | a parameter-entity reference `%name;` | skipped (inside a value: kept as written), `parameter-entity-not-read` |
//! | `<!ELEMENT …>`, `<!ATTLIST …>`, `<!NOTATION …>`, `<![…]]>` | skipped, `declaration-skipped` |
//! | comments, processing instructions, whitespace | skipped silently |
//! | anything else | skipped up to the next `<`, `malformed-declaration` |
//!
//! A replacement text is the literal value with its character references replaced, at
//! declaration (§4.5; Appendix D): `&#60;` becomes `<`, which is markup when the entity is
//! used, and `&#38;#60;` becomes `&#60;`, a character reference when it is used. References
//! to general entities stay as written, for expansion at use. Line ends in the literal are
//! normalized (§2.11) before; a carriage return from a reference (`&#13;`) is kept as the
//! reference, so that using the entity gives that character and not a line feed. References
//! are decoded by the tokenizer's numeric rules (those of xml5lib-tests, as everywhere in
//! tagstream's XML5).
//!
//! Each replacement text is tokenized once, here, by the XML5 tokenizer as a complete input:
//! the stage walks those tokens at every use. So markup cannot start in one entity and end
//! outside it (a tag cut at the end of a replacement text is dropped, as at the end of input).

use crate::options::Options;
use crate::refs::charref::{CharRef, Replacement, character_reference};
use crate::span::{AttrRecord, Span, TextKind};
use crate::token::Token;
use crate::xml5::machine::MAX_DECLARED_NAME;

use super::super::Tokenizer;

/// The five predefined entities (XML 1.0 §4.6).
pub(crate) const PREDEFINED: [&[u8]; 5] = [b"lt", b"gt", b"amp", b"apos", b"quot"];

/// One token of a replacement text, as spans into [`Entities::text`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Piece {
    Text {
        span: Span,
        kind: TextKind,
    },
    Start {
        span: Span,
        name: Span,
        /// Its attributes in [`Entities::attrs`].
        attrs: (usize, usize),
        self_closing: bool,
    },
    End {
        span: Span,
        name: Span,
    },
    Comment {
        span: Span,
        data: Span,
    },
    Pi {
        span: Span,
        target: Span,
        data: Span,
    },
    /// A DOCTYPE inside a replacement text: misplaced.
    Doctype {
        span: Span,
    },
}

/// One declared general internal entity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entity {
    /// Its replacement text in [`Entities::text`].
    pub(crate) text: Span,
    /// Its tokens in [`Entities::pieces`].
    pub(crate) pieces: (usize, usize),
}

/// The general internal entities of one internal subset: every replacement text in one string,
/// their tokens in one vector, their names in one string, sorted for lookup. Cleared and
/// reused from document to document: a parser reused stops allocating.
#[derive(Default)]
pub(crate) struct Entities {
    pub(crate) text: String,
    pub(crate) pieces: Vec<Piece>,
    pub(crate) attrs: Vec<AttrRecord>,
    entities: Vec<Entity>,
    /// Every name declared, in [`Entities::names`]; then (after reading) sorted by name, one
    /// per name (the first declared), with its entity.
    sorted: Vec<(Span, usize)>,
    names: Vec<u8>,
    /// The declarations skipped, for the stage to report.
    pub(crate) skipped: Vec<Skipped>,
    /// Tokenizes the replacement texts.
    tokenizer: Option<Tokenizer>,
    /// Scratch: a replacement text being made.
    value: Vec<u8>,
}

/// What was skipped (the tree stage reports each with its error code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// A parameter entity declared or referenced: `parameter-entity-not-read`.
    ParameterEntity,
    /// An external entity: `external-entity-not-fetched`.
    ExternalEntity,
    /// `ELEMENT`, `ATTLIST`, `NOTATION`, a conditional section: `declaration-skipped`.
    Declaration,
    /// Bytes that start no declaration: `malformed-declaration`.
    Malformed,
}

/// A declaration skipped: what, and its offset in the subset.
pub(crate) type Skipped = (Skip, usize);

impl Entities {
    /// Read the internal subset `subset` (brackets included or not) into this table, emptied
    /// first; the declarations skipped go to [`Entities::skipped`], with their offsets in
    /// `subset`.
    pub(crate) fn read(&mut self, subset: &[u8]) {
        self.clear();
        let mut skipped = std::mem::take(&mut self.skipped);
        let mut value = std::mem::take(&mut self.value);
        let mut reader = Reader {
            s: subset,
            pos: 0,
            skipped: &mut skipped,
        };
        while let Some(name) = reader.next_entity(&mut value) {
            self.declare(name, &value);
        }
        self.skipped = skipped;
        self.value = value;
        // Stable: of two declarations of a name, the first stays first, and is kept.
        let mut sorted = std::mem::take(&mut self.sorted);
        sorted.sort_by(|a, b| self.name(a.0).cmp(self.name(b.0)));
        sorted.dedup_by(|later, first| self.name(later.0) == self.name(first.0));
        self.sorted = sorted;
    }

    /// Empty, keeping the allocations.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.pieces.clear();
        self.attrs.clear();
        self.entities.clear();
        self.sorted.clear();
        self.names.clear();
        self.skipped.clear();
    }

    /// Whether no general entity is declared.
    pub(crate) fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The declared names, sorted, each once.
    pub(crate) fn names(&self) -> impl Iterator<Item = &[u8]> {
        self.sorted.iter().map(|&(span, _)| self.name(span))
    }

    /// The entity named `name`, if declared.
    pub(crate) fn lookup(&self, name: &[u8]) -> Option<usize> {
        let at = self
            .sorted
            .binary_search_by(|probe| self.name(probe.0).cmp(name))
            .ok()?;
        Some(self.sorted[at].1)
    }

    fn name(&self, span: Span) -> &[u8] {
        &self.names[span.start..span.end]
    }

    pub(crate) fn entity(&self, id: usize) -> Entity {
        self.entities[id]
    }

    /// Add `name` with the replacement text `value` (bytes, made UTF-8 here), unless it is
    /// predefined. A name declared twice is added twice; the lookup keeps the first.
    fn declare(&mut self, name: &[u8], value: &[u8]) {
        if PREDEFINED.contains(&name) {
            return;
        }
        let start = self.text.len();
        match std::str::from_utf8(value) {
            Ok(value) => self.text.push_str(value),
            Err(_) => self.text.push_str(&String::from_utf8_lossy(value)),
        }
        let first = self.pieces.len();
        let mut tokenizer = self
            .tokenizer
            .take()
            .unwrap_or_else(|| Tokenizer::new(Options::default()));
        let text = Span {
            start,
            end: self.text.len(),
        };
        let mut pieces = std::mem::take(&mut self.pieces);
        for token in tokenizer.tokenize(&self.text.as_bytes()[start..]) {
            if let Some(piece) = piece(token, start, &mut self.attrs) {
                pieces.push(piece);
            }
        }
        self.pieces = pieces;
        self.tokenizer = Some(tokenizer);
        let named = Span {
            start: self.names.len(),
            end: self.names.len() + name.len(),
        };
        self.names.extend_from_slice(name);
        self.sorted.push((named, self.entities.len()));
        let pieces = (first, self.pieces.len());
        self.entities.push(Entity { text, pieces });
    }
}

/// A token of a replacement text at offset `base` of [`Entities::text`], as a piece (its
/// attributes appended to `attrs`).
fn piece(token: Token<'_>, base: usize, attrs: &mut Vec<AttrRecord>) -> Option<Piece> {
    let at = |s: Span| Span {
        start: s.start + base,
        end: s.end + base,
    };
    Some(match token {
        Token::Text(t) => Piece::Text {
            span: at(t.span()),
            kind: t.kind(),
        },
        Token::StartTag(t) => {
            let first = attrs.len();
            attrs.extend(t.attributes().map(|a| AttrRecord {
                name: at(a.name_span()),
                value: at(a.value_span()),
                quote: a.quote().map_or(0, |q| q as u8),
            }));
            Piece::Start {
                span: at(t.span()),
                name: at(t.name_span()),
                attrs: (first, attrs.len()),
                self_closing: t.self_closing(),
            }
        }
        Token::EndTag(t) => Piece::End {
            span: at(t.span()),
            name: at(t.name_span()),
        },
        Token::Comment(t) => Piece::Comment {
            span: at(t.span()),
            data: at(t.data_span()),
        },
        Token::ProcessingInstruction(t) => Piece::Pi {
            span: at(t.span()),
            target: at(t.target_span()),
            data: at(t.data_span()),
        },
        Token::Doctype(t) => Piece::Doctype { span: at(t.span()) },
        Token::Raw(_) => return None,
    })
}

/// The declaration reader: a cursor over the subset.
struct Reader<'a, 'e> {
    s: &'a [u8],
    pos: usize,
    skipped: &'e mut Vec<Skipped>,
}

impl<'a> Reader<'a, '_> {
    /// The next general internal entity declared: its name and replacement text; the other
    /// declarations on the way are skipped.
    fn next_entity(&mut self, value: &mut Vec<u8>) -> Option<&'a [u8]> {
        loop {
            self.skip_space();
            let rest = &self.s[self.pos..];
            let at = self.pos;
            if rest.is_empty() {
                return None;
            }
            if rest.starts_with(b"<!ENTITY") && rest.get(8).is_some_and(|&b| is_space(b)) {
                self.pos += 8;
                if let Some(name) = self.entity_declaration(at, value) {
                    return Some(name);
                }
            } else if rest.starts_with(b"<!--") {
                self.skip_past(b"-->");
            } else if rest.starts_with(b"<?") {
                self.skip_past(b"?>");
            } else if rest.starts_with(b"<![") {
                self.skip(Skip::Declaration, at);
                self.skip_past(b"]]>");
            } else if [&b"<!ELEMENT"[..], b"<!ATTLIST", b"<!NOTATION"]
                .iter()
                .any(|k| rest.starts_with(k))
            {
                self.skip(Skip::Declaration, at);
                self.skip_declaration();
            } else if rest[0] == b'%' {
                self.skip(Skip::ParameterEntity, at);
                self.pos += 1;
                self.skip_name();
                self.pos += usize::from(self.s.get(self.pos) == Some(&b';'));
            } else if rest[0] == b'[' || rest[0] == b']' {
                // The brackets around the subset.
                self.pos += 1;
            } else {
                self.skip(Skip::Malformed, at);
                let after = &self.s[self.pos + 1..];
                self.pos += 1 + memchr::memchr(b'<', after).unwrap_or(after.len());
            }
        }
    }

    /// After `<!ENTITY` and a space: the name of a general internal entity, its replacement
    /// text in `value`; `None` (with an error) for any other entity declaration.
    fn entity_declaration(&mut self, at: usize, value: &mut Vec<u8>) -> Option<&'a [u8]> {
        self.skip_space();
        if self.s.get(self.pos) == Some(&b'%') {
            self.skip(Skip::ParameterEntity, at);
            self.skip_declaration();
            return None;
        }
        let name = self.skip_name();
        if name.len() > MAX_DECLARED_NAME {
            // Longer than a reference is looked for at a chunk seam: references to it could
            // not resolve the same however the input is cut.
            self.skip(Skip::Declaration, at);
            self.skip_declaration();
            return None;
        }
        self.skip_space();
        let quote = match self.s.get(self.pos) {
            Some(&q) if !name.is_empty() && (q == b'"' || q == b'\'') => q,
            Some(b'S' | b'P') if !name.is_empty() => {
                self.skip(Skip::ExternalEntity, at);
                self.skip_declaration();
                return None;
            }
            _ => {
                self.skip(Skip::Malformed, at);
                self.skip_declaration();
                return None;
            }
        };
        let start = self.pos + 1;
        let len = memchr::memchr(quote, &self.s[start..]).unwrap_or(self.s.len() - start);
        let literal = &self.s[start..start + len];
        self.pos = (start + len + 1).min(self.s.len());
        self.replacement_text(literal, start, value);
        self.skip_declaration();
        Some(name)
    }

    /// The replacement text of the literal `literal` (at `at` in the subset): line ends
    /// normalized, character references replaced (a carriage return kept as `&#13;`),
    /// parameter-entity references kept as written with an error.
    fn replacement_text(&mut self, literal: &[u8], at: usize, out: &mut Vec<u8>) {
        out.clear();
        let mut i = 0;
        while i < literal.len() {
            match literal[i] {
                b'\r' => {
                    out.push(b'\n');
                    i += 1 + usize::from(literal.get(i + 1) == Some(&b'\n'));
                }
                b'&' if literal.get(i + 1) == Some(&b'#') => {
                    i += push_char_reference(&literal[i..], out);
                }
                b'%' => {
                    self.skip(Skip::ParameterEntity, at + i);
                    out.push(b'%');
                    i += 1;
                }
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
    }

    fn skip(&mut self, code: Skip, at: usize) {
        self.skipped.push((code, at));
    }

    fn skip_space(&mut self) {
        while self.s.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
    }

    /// A run of bytes that are not space, quotes, `>`, `<`, `;` or `%`.
    fn skip_name(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self
            .s
            .get(self.pos)
            .is_some_and(|&b| !is_space(b) && !b"\"'<>;%[]".contains(&b))
        {
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }

    /// Past the next `end` (or to the end of the subset).
    fn skip_past(&mut self, end: &[u8]) {
        let rest = &self.s[self.pos..];
        self.pos += memchr::memmem::find(rest, end).map_or(rest.len(), |i| i + end.len());
    }

    /// Past the `>` that ends the declaration, quotes respected.
    fn skip_declaration(&mut self) {
        let mut quote = None;
        while let Some(&b) = self.s.get(self.pos) {
            self.pos += 1;
            match quote {
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'"' || b == b'\'' => quote = Some(b),
                None if b == b'>' => return,
                None => {}
            }
        }
    }
}

/// The numeric character reference `s` starts with (`&#…`), appended to `out` (a carriage
/// return as `&#13;`); as written if it is none. The bytes it covers.
fn push_char_reference(s: &[u8], out: &mut Vec<u8>) -> usize {
    // At the end of input the answer is always `Done`.
    let CharRef::Done(outcome) = character_reference(s, false, true) else {
        out.push(b'&');
        return 1;
    };
    let len = outcome.len.max(1);
    match outcome.value {
        Some(Replacement::Char('\r')) => out.extend_from_slice(b"&#13;"),
        Some(Replacement::Char(c)) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        Some(Replacement::Named(text)) => out.extend_from_slice(text.as_bytes()),
        None => out.extend_from_slice(&s[..len]),
    }
    len
}

/// XML's white space (`S`).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(subset: &str) -> (Entities, Vec<Skipped>) {
        let mut entities = Entities::default();
        entities.read(subset.as_bytes());
        let skipped = entities.skipped.clone();
        (entities, skipped)
    }

    fn value(entities: &Entities, name: &str) -> Option<String> {
        let id = entities.lookup(name.as_bytes())?;
        let span = entities.entity(id).text;
        Some(entities.text[span.start..span.end].to_owned())
    }

    #[test]
    fn general_entities_first_declaration_wins() {
        let (e, skipped) = read("[<!ENTITY a \"one\"> <!ENTITY a 'two'><!ENTITY b 'x>\"y'>]");
        assert_eq!(value(&e, "a").as_deref(), Some("one"));
        assert_eq!(value(&e, "b").as_deref(), Some("x>\"y"));
        assert!(skipped.is_empty());
    }

    #[test]
    fn character_references_are_replaced_at_declaration() {
        let (e, _) = read("<!ENTITY a '&#60;b>&#38;#60;&#x41;&#13;&c;\r\nz'>");
        assert_eq!(value(&e, "a").as_deref(), Some("<b>&#60;A&#13;&c;\nz"));
    }

    #[test]
    fn other_declarations_are_skipped_and_reported() {
        let subset = "<!ENTITY % p 'x'> %p; <!ENTITY e SYSTEM 'e.xml'> <!NOTATION n SYSTEM 'n'>\
                      <!ATTLIST a b CDATA '>'><!ELEMENT a ANY><!-- <!ENTITY c 'no'> --><?pi x?>\
                      <!ENTITY lt '&#38;#60;'><!ENTITY ok 'yes'> junk <!ENTITY v '%p;'>";
        let (e, skipped) = read(subset);
        let codes: Vec<Skip> = skipped.iter().map(|&(c, _)| c).collect();
        assert_eq!(
            codes,
            [
                Skip::ParameterEntity,
                Skip::ParameterEntity,
                Skip::ExternalEntity,
                Skip::Declaration,
                Skip::Declaration,
                Skip::Declaration,
                Skip::Malformed,
                Skip::ParameterEntity,
            ]
        );
        assert_eq!(value(&e, "ok").as_deref(), Some("yes"));
        assert_eq!(value(&e, "v").as_deref(), Some("%p;"));
        assert_eq!(value(&e, "c"), None);
        assert_eq!(value(&e, "lt"), None);
        assert_eq!(value(&e, "e"), None);
        assert_eq!(&subset[skipped[0].1..][..10], "<!ENTITY %");
    }

    #[test]
    fn markup_in_a_value_is_tokenized() {
        let (e, _) = read("<!ENTITY k '<application a=\"1\">Konsole</application>'>");
        let id = e.lookup(b"k").unwrap();
        let (first, last) = e.entity(id).pieces;
        let kinds: Vec<&str> = e.pieces[first..last]
            .iter()
            .map(|p| match p {
                Piece::Start { .. } => "start",
                Piece::Text { .. } => "text",
                Piece::End { .. } => "end",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["start", "text", "end"]);
        assert_eq!(e.attrs.len(), 1);
    }

    #[test]
    fn unterminated_declarations_end_with_the_subset() {
        for subset in [
            "<!ENTITY",
            "<!ENTITY a",
            "<!--",
            "<!ATTLIST '",
            "%",
            "<!ENTITY % p",
        ] {
            let (e, skipped) = read(subset);
            assert!(e.is_empty() && skipped.len() <= 1, "{subset}");
        }
        let (e, _) = read("<!ENTITY a 'x");
        assert_eq!(value(&e, "a").as_deref(), Some("x"));
    }
}
