//! The internal subset's general entities, expanded by text substitution in attribute values,
//! their white space written as spaces (XML 1.0 §3.3.3 applies to replacement texts too): used
//! only to show that a difference is that normalization, which XML5 does not do.
//!
//! XML 1.0 §4.5: an internal entity's replacement text is its literal value with character
//! references (and parameter-entity references, which these documents do not use inside
//! values) replaced; §4.4.2: a reference in content is replaced by that text, which is then
//! parsed as content. So substituting the replacement text for each `&name;` outside comments,
//! CDATA sections and PIs, and parsing the result, gives the tree an expanding parser gives,
//! for the documents where substitution cannot break markup (a replacement text with the
//! attribute's own quote character can; such a document stays unexplained and shows up).

use std::collections::HashMap;

/// The predefined entities (XML 1.0 §4.6), which a document may declare again only as
/// themselves: never substituted here.
const PREDEFINED: [&str; 5] = ["lt", "gt", "amp", "apos", "quot"];

/// How deep references inside replacement texts are followed.
const MAX_DEPTH: usize = 8;

/// `input` with the internal subset's general entities expanded in attribute values after the
/// DOCTYPE (references in content left as written), or `None` if it declares none.
pub fn expand_in_attributes(input: &str) -> Option<String> {
    let (subset, body_start) = internal_subset(input)?;
    let declared = declarations(subset);
    if declared.is_empty() {
        return None;
    }
    let mut out = input[..body_start].to_owned();
    substitute(
        &input[body_start..],
        &declared,
        0,
        Context::Content,
        &mut out,
    );
    Some(out)
}

/// The internal subset's text and where the DOCTYPE ends.
fn internal_subset(input: &str) -> Option<(&str, usize)> {
    let doctype = input.find("<!DOCTYPE")?;
    let bytes = input.as_bytes();
    let mut i = doctype;
    let mut quote = None;
    let mut open = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'[' && open.is_none() => open = Some(i + 1),
            None if input[i..].starts_with("<!--") => {
                i += input[i..].find("-->")? + 2;
            }
            None if b == b']' && open.is_some() => {
                let end = i + input[i..].find('>')? + 1;
                return Some((&input[open?..i], end));
            }
            None if b == b'>' && open.is_none() => return None,
            None => {}
        }
        i += 1;
    }
    None
}

/// The internal general entities declared in `subset`, name → replacement text (character
/// references expanded); the first declaration of a name binds (XML 1.0 §4.2).
fn declarations(subset: &str) -> HashMap<String, String> {
    let mut declared = HashMap::new();
    let mut rest = subset;
    while let Some(at) = rest.find("<!ENTITY") {
        rest = &rest[at + "<!ENTITY".len()..];
        let decl = rest.trim_start();
        if decl.starts_with('%') {
            continue;
        }
        let name_end = decl.find(|c: char| c.is_whitespace()).unwrap_or(decl.len());
        let (name, after) = decl.split_at(name_end);
        let after = after.trim_start();
        let Some(q) = after.chars().next().filter(|&c| c == '"' || c == '\'') else {
            continue; // SYSTEM or PUBLIC: external
        };
        let Some(len) = after[1..].find(q) else {
            continue;
        };
        if !PREDEFINED.contains(&name) {
            declared
                .entry(name.to_owned())
                .or_insert_with(|| replacement_text(&after[1..1 + len]));
        }
        rest = &after[1 + len..];
    }
    declared
}

/// An entity's replacement text from its literal value: line ends normalized (XML 1.0 §2.11,
/// done to the whole document before parsing), then character references expanded.
fn replacement_text(literal: &str) -> String {
    char_refs(&literal.replace("\r\n", "\n").replace('\r', "\n"))
}

/// `s` with its character references `&#N;` and `&#xN;` replaced by their characters.
fn char_refs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("&#") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let parsed = after.find(';').and_then(|end| {
            let digits = &after[..end];
            let code = match digits.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => digits.parse().ok()?,
            };
            Some((char::from_u32(code)?, end))
        });
        match parsed {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("&#");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a replacement text goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// Content: parsed as markup and text.
    Content,
    /// An attribute value (XML 1.0 §3.3.3: its whitespace characters become spaces; written
    /// back with its quotes as references, so that it cannot end the value).
    Attribute,
}

/// Append `text` (in `context`) to `out` with every reference to a declared entity in an
/// attribute value replaced by its text (expanded in turn), comments, CDATA sections and PIs
/// copied as they are.
fn substitute(
    text: &str,
    declared: &HashMap<String, String>,
    depth: usize,
    context: Context,
    out: &mut String,
) {
    let mut tag_quote: Option<Option<char>> = None; // inside a tag: its open quote, if any
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let rest = &text[at..];
        if context == Context::Content && tag_quote.is_none() && c == '<' {
            if let Some(len) = verbatim_len(rest) {
                out.push_str(&rest[..len]);
                while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                    chars.next();
                }
                continue;
            }
            tag_quote = Some(None);
        }
        let reference = rest
            .strip_prefix('&')
            .and_then(|r| r.find(';').map(|end| &r[..end]))
            .filter(|name| declared.contains_key(*name) && depth < MAX_DEPTH)
            .filter(|_| context == Context::Attribute || matches!(tag_quote, Some(Some(_))));
        if let Some(name) = reference {
            let inner = match tag_quote {
                Some(Some(_)) => Context::Attribute,
                _ => context,
            };
            substitute(&declared[name], declared, depth + 1, inner, out);
            while chars.peek().is_some_and(|&(i, _)| i < at + name.len() + 2) {
                chars.next();
            }
            continue;
        }
        if let Some(quote) = tag_quote {
            match (quote, c) {
                (Some(q), c) if c == q => tag_quote = Some(None),
                (None, '"' | '\'') => tag_quote = Some(Some(c)),
                (None, '>') => tag_quote = None,
                _ => {}
            }
        }
        match (context, c) {
            (Context::Attribute, '\t' | '\n' | '\r') if depth > 0 => out.push(' '),
            (Context::Attribute, '"') if depth > 0 => out.push_str("&#34;"),
            (Context::Attribute, '\'') if depth > 0 => out.push_str("&#39;"),
            // A carriage return from a character reference: kept as one (a literal one would
            // be a line end).
            (Context::Content, '\r') if depth > 0 => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
}

/// The length of the comment, CDATA section or PI `s` starts with, if it starts with one.
pub(crate) fn verbatim_len(s: &str) -> Option<usize> {
    let (open, close) = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")]
        .into_iter()
        .find(|(open, _)| s.starts_with(open))?;
    Some(
        s[open.len()..]
            .find(close)
            .map_or(s.len(), |end| open.len() + end + close.len()),
    )
}

#[cfg(test)]
mod tests {
    use super::expand_in_attributes as expand;

    #[test]
    fn expands_nested_entities_in_attribute_values_only() {
        let doc = "<!DOCTYPE r [<!ENTITY a \"x&#10;'\"><!ENTITY c 'y&a;'><!ENTITY % p 'z'>]>\
                   <r t='&c;'>&c;<!--&c;--><![CDATA[&c;]]>&amp;&unknown;</r>";
        assert_eq!(
            expand(doc).unwrap(),
            "<!DOCTYPE r [<!ENTITY a \"x&#10;'\"><!ENTITY c 'y&a;'><!ENTITY % p 'z'>]>\
             <r t='yx &#39;'>&c;<!--&c;--><![CDATA[&c;]]>&amp;&unknown;</r>"
        );
    }

    #[test]
    fn no_subset_or_no_general_entity_is_none() {
        assert_eq!(expand("<r>&amp;</r>"), None);
        assert_eq!(expand("<!DOCTYPE r SYSTEM 'r.dtd'><r/>"), None);
        assert_eq!(expand("<!DOCTYPE r [<!ENTITY % p 'z'>]><r/>"), None);
    }
}
