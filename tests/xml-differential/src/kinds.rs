//! The kinds of difference between tagstream's tree and the oracle's that a rule explains.
//! Each kind is a change made to one or both trees (or to tagstream's input) that undoes
//! exactly that rule's effect; a document is explained when applying the kinds that change
//! something makes the trees equal. A kind that changes nothing is not counted for it.

use crate::entities;
use crate::{Element, Item, tagstream_tree};

/// A kind of difference and the rule behind it.
pub struct Kind {
    /// A short name, for the report.
    pub name: &'static str,
    /// The XML or XML5 rule that explains it.
    pub rule: &'static str,
    /// What undoes the rule's effect.
    undo: Undo,
}

/// How a kind's effect is undone: by changing the input tagstream reads, or the oracle's tree;
/// `None` when the kind cannot apply to the document.
enum Undo {
    Input(fn(&str) -> Option<String>),
    Oracle(fn(&str, &Element) -> Option<Element>),
}

/// Every explained kind, in the order they are tried.
pub fn kinds() -> &'static [Kind] {
    &KINDS
}

static KINDS: [Kind; 3] = [
    Kind {
        name: "attribute value whitespace not normalized",
        rule: "XML 1.0 §3.3.3 (Attribute-Value Normalization): each tab, line feed and \
               carriage return written in an attribute value becomes a space (one written as \
               a character reference stays); the XML5 draft's tag attribute value states \
               (spec/002 §1.3.30-1.3.32, \"anything else: append the input character to the \
               current attribute's value\") keep them, and no xml5lib-tests case says \
               otherwise (line ends are normalized to LF, as in HTML's input stream). Undone \
               by writing them as spaces in the input's attribute values before tagstream \
               reads it",
        undo: Undo::Input(attribute_whitespace_as_spaces),
    },
    Kind {
        name: "attribute value whitespace from an entity not normalized",
        rule: "XML 1.0 §3.3.3 (Attribute-Value Normalization), step 3: \"for an entity \
               reference, recursively apply step 3 of this algorithm to the replacement text\": \
               each white space character of an internal entity's replacement text (a \
               character reference in the literal is one, expanded at declaration, §4.5) \
               becomes a space when the entity is used in an attribute value. tagstream \
               expands the entity and, as for white space written in the value (the kind \
               above), keeps it. Undone by substituting the entities used in attribute values \
               into the input, their white space written as spaces (src/entities.rs)",
        undo: Undo::Input(entities::expand_in_attributes),
    },
    Kind {
        name: "C1 character reference mapped as HTML",
        rule: "XML 1.0 §4.1: `&#128;`–`&#159;` are the characters U+0080–U+009F. The XML5 \
               draft leaves it open (spec/002 §1.3.35: \"Should we do HTML like \
               replacement?\"); xml5lib-tests answers it as HTML does (tokenizer/entities.test, \
               the \"Windows-1252 … numeric entity\" cases: `&#x080;` is €, with a parse \
               error), and tagstream follows the suite. Undone, for documents with such a \
               reference, by mapping the oracle's U+0080–U+009F through windows-1252",
        undo: Undo::Oracle(map_c1_references),
    },
];

/// What [`explain`] found.
pub struct Explanation {
    /// The kinds that changed something, in order.
    pub kinds: Vec<&'static Kind>,
    /// The trees still different after them, `None` when they made the trees equal.
    pub left: Option<(Element, Element)>,
}

/// Undo every kind in turn for the document `input`, whose trees `ours` and `theirs` differ,
/// keeping each change that changes a tree.
pub fn explain(input: &str, mut ours: Element, mut theirs: Element) -> Explanation {
    let mut used = Vec::new();
    let mut text = input.to_owned();
    for kind in kinds() {
        let changed = match kind.undo {
            Undo::Input(undo) => undo(&text).and_then(|new| {
                let tree = tagstream_tree(new.as_bytes())?;
                (tree != ours).then(|| {
                    text = new;
                    ours = tree;
                })
            }),
            Undo::Oracle(undo) => undo(input, &theirs)
                .filter(|tree| *tree != theirs)
                .map(|tree| theirs = tree),
        };
        if changed.is_some() {
            used.push(kind);
        }
        if ours == theirs {
            break;
        }
    }
    Explanation {
        kinds: used,
        left: (ours != theirs).then_some((ours, theirs)),
    }
}

/// `input` with every tab, line feed, carriage return and CR LF pair (one line end, XML 1.0
/// §2.11) inside a quoted attribute value of a tag written as one space; `None` if it has
/// none. Comments, CDATA sections, PIs and the DOCTYPE are copied as they are.
fn attribute_whitespace_as_spaces(input: &str) -> Option<String> {
    let mut out = String::with_capacity(input.len());
    let mut changed = false;
    let mut i = 0;
    while let Some(at) = input[i..].find('<') {
        out.push_str(&input[i..i + at]);
        i += at;
        let rest = &input[i..];
        let verbatim = entities::verbatim_len(rest)
            .or_else(|| rest.starts_with("<!").then(|| markup_len(rest)));
        let len = verbatim.unwrap_or_else(|| tag_len(rest));
        let tag = &input[i..i + len];
        i += len;
        if verbatim.is_some() {
            out.push_str(tag);
            continue;
        }
        let mut quote = None;
        let mut chars = tag.chars().peekable();
        while let Some(c) = chars.next() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) if matches!(c, '\t' | '\n' | '\r') => {
                    if c == '\r' && chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    out.push(' ');
                    changed = true;
                    continue;
                }
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None => {}
            }
            out.push(c);
        }
    }
    out.push_str(&input[i..]);
    changed.then_some(out)
}

/// The length of the tag `s` starts with: to its `>` outside quotes (or the end).
fn tag_len(s: &str) -> usize {
    let mut quote = None;
    for (i, b) in s.bytes().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return i + 1,
            None => {}
        }
    }
    s.len()
}

/// The length of a `<!…>` declaration (the DOCTYPE with its internal subset) `s` starts with.
fn markup_len(s: &str) -> usize {
    let mut depth = 0usize;
    let mut quote = None;
    for (i, b) in s.bytes().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'[' => depth += 1,
            None if b == b']' => depth = depth.saturating_sub(1),
            None if b == b'>' && depth == 0 => return i + 1,
            None => {}
        }
    }
    s.len()
}

fn map_c1_references(input: &str, theirs: &Element) -> Option<Element> {
    has_c1_reference(input).then(|| {
        let mut theirs = theirs.clone();
        let map = |s: &str| s.chars().map(windows_1252).collect::<String>();
        map_attributes(&mut theirs, &map);
        map_text(&mut theirs, &map);
        theirs
    })
}

/// Whether `input` has a decimal or hexadecimal reference to U+0080–U+009F.
fn has_c1_reference(input: &str) -> bool {
    input.match_indices("&#").any(|(at, _)| {
        let after = &input[at + 2..];
        let Some(end) = after.find(';') else {
            return false;
        };
        let digits = &after[..end];
        let code = match digits.strip_prefix('x') {
            Some(hex) => u32::from_str_radix(hex, 16),
            None => digits.parse(),
        };
        code.is_ok_and(|c| (0x80..=0x9F).contains(&c))
    })
}

/// The character windows-1252 has at a C1 code point's byte (the HTML Standard's table for
/// numeric character references); other characters, and the five bytes it leaves undefined,
/// unchanged.
fn windows_1252(c: char) -> char {
    const TABLE: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    match c as u32 {
        code @ 0x80..=0x9F => TABLE[(code - 0x80) as usize],
        _ => c,
    }
}

fn map_attributes(element: &mut Element, map: &dyn Fn(&str) -> String) {
    for (_, value) in &mut element.attributes {
        *value = map(value);
    }
    for child in &mut element.children {
        if let Item::Element(e) = child {
            map_attributes(e, map);
        }
    }
}

fn map_text(element: &mut Element, map: &dyn Fn(&str) -> String) {
    for child in &mut element.children {
        match child {
            Item::Element(e) => map_text(e, map),
            Item::Text(t) => *t = map(t),
            // References are not recognized in comments and PIs.
            Item::Comment(_) | Item::Pi(..) => {}
        }
    }
}
