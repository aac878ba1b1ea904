//! Named character references: the longest entity name at the start of a byte slice, for the
//! named character reference state in [`super::charref`].
//!
//! The 2,231 names of the WHATWG table live in a radix trie laid out as a double array,
//! generated into [`super::entities_table`] by `tools/gen_entities.py` (see that file for the
//! layout). A lookup walks the trie one edge at a time, remembering the last node where a name
//! ended: O(bytes examined), no allocation. A step reads the record in the slot the node's base
//! and the next byte give, and checks that it is the node's child. When the slice runs out on the
//! way to a longer name the answer is [`NamedMatch::NeedMore`], so a streaming caller knows to
//! wait for the next chunk.
//!
//! Before the walk, a fast path answers for a few frequent names (`amp`, `lt`, `quot`, `nbsp`...)
//! when the byte after the name settles the match: one table look-up by the first byte and one
//! word compare.

use super::entities_table::{
    CLASS, FREQUENT, FREQUENT_BY_FIRST, LABELS, NO_CLASS, NODES, Node, VALUE_LEN_BITS, VALUES,
};

/// Outcome of looking for a named character reference at the start of `s` (the bytes after `&`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NamedMatch {
    /// `s` ended while a longer entity name could still follow (only returned when `at_eof` is
    /// false).
    NeedMore,
    /// No entity name is a prefix of `s`.
    NoMatch,
    /// The longest entity name that is a prefix of `s`: `len` bytes (counting a final `;` when
    /// that name has one), and its replacement text (one or two code points) as UTF-8.
    Found {
        /// Length of the name in bytes, without the `&`.
        len: usize,
        /// The replacement text.
        value: &'static str,
    },
}

/// The trie's root node.
const ROOT: usize = 0;

/// Finds the longest entity name (without its `&`) that is a prefix of `s`, as the named character
/// reference state's "consume the maximum number of characters possible" does.
///
/// With `at_eof` false, a slice that ends inside a possible longer name gives
/// [`NamedMatch::NeedMore`] even when a shorter name already matched (`not` could become `notin;`).
#[inline]
pub(crate) fn match_named(s: &[u8], at_eof: bool) -> NamedMatch {
    match match_frequent(s) {
        Some(answer) => answer,
        None => walk(s, at_eof),
    }
}

/// The answer for `s` when it starts with one of the `FREQUENT` names followed by a byte that
/// ends every longer name: `;`, or a byte no name holds (when the name is also one without its
/// `;`). Otherwise None, for the trie walk to decide. The name and the byte after it must be in
/// the first 8 bytes of `s`, so the answer never depends on input still to come.
#[inline]
fn match_frequent(s: &[u8]) -> Option<NamedMatch> {
    let window = *s.first_chunk::<8>()?;
    let index = usize::from(FREQUENT_BY_FIRST[usize::from(window[0])]);
    let frequent = FREQUENT.get(index.wrapping_sub(1))?;
    if u64::from_le_bytes(window) & frequent.mask != frequent.word {
        return None;
    }
    let len = usize::from(frequent.len);
    let next = window[len & 7];
    let value = frequent.value;
    if next == b';' {
        Some(NamedMatch::Found {
            len: len + 1,
            value,
        })
    } else if frequent.legacy && CLASS[usize::from(next)] == NO_CLASS {
        Some(NamedMatch::Found { len, value })
    } else {
        None
    }
}

/// The trie walk: [`match_named`] for any name.
fn walk(s: &[u8], at_eof: bool) -> NamedMatch {
    // The last name passed: its packed value and its length.
    let mut best = (0, 0);
    let (mut node, mut at) = (ROOT, 0);
    while NODES[node].base != 0 {
        let Some(&byte) = s.get(at) else {
            return out_of_input(best, at_eof);
        };
        let Some(child) = child(node, byte) else {
            return found(best);
        };
        at += 1;
        let record = &NODES[child];
        if record.label_len != 0 {
            match follow_label(label_rest(record), &s[at..]) {
                Edge::Followed(len) => at += len,
                Edge::Diverged => return found(best),
                Edge::OutOfInput => return out_of_input(best, at_eof),
            }
        }
        node = child;
        if record.value != 0 {
            best = (record.value, at);
        }
    }
    found(best)
}

/// The answer when `s` ends on the way to a longer name: wait, unless the input is over.
fn out_of_input(best: (u16, usize), at_eof: bool) -> NamedMatch {
    if at_eof {
        found(best)
    } else {
        NamedMatch::NeedMore
    }
}

/// The slot of the child of `node` whose edge starts with `byte`: the slot `byte` gives from the
/// node's base, if the node there is `node`'s child.
#[inline]
fn child(node: usize, byte: u8) -> Option<usize> {
    let slot = usize::from(NODES[node].base) + usize::from(CLASS[usize::from(byte)]);
    let candidate = NODES.get(slot)?;
    (usize::from(candidate.parent) == node).then_some(slot)
}

/// The bytes of the edge into `node` after its first byte.
fn label_rest(node: &Node) -> &'static [u8] {
    let start = usize::from(node.label_start);
    &LABELS[start..start + usize::from(node.label_len)]
}

/// The match for the last name passed, given as (packed value, length); a zero value means none.
fn found((packed, len): (u16, usize)) -> NamedMatch {
    if packed == 0 {
        return NamedMatch::NoMatch;
    }
    let packed = usize::from(packed);
    let start = packed >> VALUE_LEN_BITS;
    let value = &VALUES[start..start + (packed & ((1 << VALUE_LEN_BITS) - 1))];
    NamedMatch::Found { len, value }
}

/// How the input compares with the rest of an edge label.
enum Edge {
    /// The whole label matched: this many bytes.
    Followed(usize),
    /// A byte differs.
    Diverged,
    /// The input ended inside the label, every byte so far matching.
    OutOfInput,
}

/// Compares the rest of an edge label with the input that follows the edge's first byte (byte by
/// byte: labels are short, most of them empty, too short for a `memcmp` call to pay).
#[inline]
fn follow_label(label: &[u8], input: &[u8]) -> Edge {
    for (i, &l) in label.iter().enumerate() {
        match input.get(i) {
            None => return Edge::OutOfInput,
            Some(&c) if c != l => return Edge::Diverged,
            Some(_) => {}
        }
    }
    Edge::Followed(label.len())
}

#[cfg(test)]
mod tests {
    use super::NamedMatch::{Found, NeedMore, NoMatch};
    use super::*;
    use crate::refs::testdata::{data_path, read_data};
    use std::collections::{HashMap, HashSet};

    fn found(len: usize, value: &'static str) -> NamedMatch {
        Found { len, value }
    }

    /// entities.json as {name without `&`: replacement text}, from the vendored copy in
    /// `tests/data` or `$ENTITIES_JSON`.
    fn entities() -> HashMap<Vec<u8>, &'static str> {
        const VAR: &str = "ENTITIES_JSON";
        let text = read_data(&data_path(VAR, "entities/entities.json"), VAR);
        let json: serde_json::Value = serde_json::from_str(&text).expect("entities.json parses");
        let table = json.as_object().expect("entities.json is an object");
        let entry = |(name, v): (&String, &serde_json::Value)| {
            let chars = v["characters"].as_str().expect("characters is a string");
            let name = name.strip_prefix('&').expect("name starts with &");
            (name.as_bytes().to_vec(), &*chars.to_owned().leak())
        };
        table.iter().map(entry).collect()
    }

    #[test]
    fn every_entity_is_found() {
        let entities = entities();
        assert_eq!(entities.len(), 2231);
        for (name, value) in &entities {
            let (want, shown) = (found(name.len(), value), String::from_utf8_lossy(name));
            assert_eq!(match_named(name, true), want, "{shown}");
            let followed = [name.as_slice(), b" "].concat();
            assert_eq!(match_named(&followed, false), want, "{shown}");
            // A name ending in `;` ends every name it starts; one without `;` has a `;` form.
            let alone = if name.ends_with(b";") { want } else { NeedMore };
            assert_eq!(match_named(name, false), alone, "{shown}");
        }
    }

    #[test]
    fn examples_from_the_brief() {
        assert_eq!(match_named(b"no", false), NeedMore);
        assert_eq!(match_named(b"not", false), NeedMore);
        assert_eq!(match_named(b"not", true), found(3, "¬"));
        assert_eq!(match_named(b"notit;", false), found(3, "¬"));
        assert_eq!(match_named(b"notit;", true), found(3, "¬"));
        assert_eq!(match_named(b"notin;", false), found(6, "∉"));
        assert_eq!(match_named(b"amp;x", false), found(4, "&"));
        assert_eq!(match_named(b"amp;x", true), found(4, "&"));
        assert_eq!(match_named(b"zzz", false), NoMatch);
        assert_eq!(match_named(b"zzz", true), NoMatch);
    }

    #[test]
    fn edges_and_empty_input() {
        assert_eq!(match_named(b"", false), NeedMore);
        assert_eq!(match_named(b"", true), NoMatch);
        assert_eq!(match_named(b";", false), NoMatch);
        assert_eq!(match_named(b"AMP", true), found(3, "&"));
        assert_eq!(match_named(b"ampx", false), found(3, "&"));
        // Inside a long single-child edge: `CounterClockwiseContourIntegral;`.
        assert_eq!(match_named(b"CounterClockwiseContour", false), NeedMore);
        assert_eq!(match_named(b"CounterClockwiseContour", true), NoMatch);
        assert_eq!(match_named(b"CounterClockwiseContourX", false), NoMatch);
        // Two code points.
        let not_equal_tilde = found(14, "\u{2242}\u{338}");
        assert_eq!(match_named(b"NotEqualTilde;", true), not_equal_tilde);
        // `&amp` is a name, `&ampere;` is not: the walk falls back to the last name passed.
        assert_eq!(match_named(b"ampere;", true), found(3, "&"));
    }

    #[test]
    fn the_fast_path_agrees_with_the_walk_on_every_name_prefix_and_extension() {
        let entities = entities();
        let stems: HashSet<&[u8]> = entities
            .keys()
            .flat_map(|n| (0..=n.len()).map(move |k| &n[..k]))
            .collect();
        let (mut input, mut decided) = (Vec::new(), 0);
        for stem in stems {
            for extra in [
                &b""[..],
                b";",
                b"a",
                b"Z",
                b"1",
                b"=",
                b" ",
                b"&",
                b"\xFF",
                b";a",
            ] {
                for padding in [&b""[..], b"        ", b"xxxxxxxx", b";;;;;;;;", b"&&&&&&&&"] {
                    input.clear();
                    input.extend_from_slice(stem);
                    input.extend_from_slice(extra);
                    input.extend_from_slice(padding);
                    let shown = String::from_utf8_lossy(&input);
                    for eof in [false, true] {
                        let want = walk(&input, eof);
                        assert_eq!(match_named(&input, eof), want, "{shown:?}, eof: {eof}");
                        if let Some(fast) = match_frequent(&input) {
                            assert_eq!(fast, want, "{shown:?}, eof: {eof}");
                            decided += 1;
                        }
                    }
                }
            }
        }
        // Each frequent name decides with `;` and, when it is a legacy name, with a
        // non-name byte after it, both followed by every padding.
        assert!(
            decided > FREQUENT.len() * 2 * 2,
            "the fast path decided {decided}"
        );
    }

    #[test]
    fn the_fast_path_takes_the_frequent_names() {
        assert_eq!(match_frequent(b"amp&amp&"), Some(found(3, "&")));
        assert_eq!(match_frequent(b"amp;amp;"), Some(found(4, "&")));
        assert_eq!(match_frequent(b"nbsp; xx"), Some(found(5, "\u{a0}")));
        assert_eq!(match_frequent(b"lt;/p>xx"), Some(found(3, "<")));
        // Longer names may follow: the walk decides.
        assert_eq!(match_frequent(b"ltcc;xxx"), None);
        assert_eq!(match_frequent(b"ampere;x"), None);
        // `&hellip` without `;` is not a name.
        assert_eq!(match_frequent(b"hellip x"), None);
        // Too short to see the byte after the name.
        assert_eq!(match_frequent(b"amp;"), None);
        for frequent in &FREQUENT {
            let name = &frequent.word.to_le_bytes()[..usize::from(frequent.len)];
            let with_semicolon = [name, b";"].concat();
            assert_eq!(
                walk(&with_semicolon, true),
                found(name.len() + 1, frequent.value)
            );
        }
    }

    /// Naive longest match over the name set: the oracle for `match_named`.
    fn oracle(
        entities: &HashMap<Vec<u8>, &'static str>,
        prefixes: &HashSet<&[u8]>,
        s: &[u8],
        eof: bool,
    ) -> NamedMatch {
        if !eof && prefixes.contains(s) {
            return NeedMore;
        }
        let longest = (1..=s.len())
            .rev()
            .find_map(|len| Some((len, *entities.get(&s[..len])?)));
        longest.map_or(NoMatch, |(len, value)| Found { len, value })
    }

    #[test]
    fn agrees_with_a_naive_search_on_every_prefix_and_one_more_byte() {
        let entities = entities();
        // Proper prefixes of names, the empty one included: where a longer name may follow.
        let prefixes: HashSet<&[u8]> = entities
            .keys()
            .flat_map(|n| (0..n.len()).map(move |k| &n[..k]))
            .collect();
        let mut input = Vec::new();
        for prefix in prefixes
            .iter()
            .copied()
            .chain(entities.keys().map(Vec::as_slice))
        {
            for extra in [
                None,
                Some(b';'),
                Some(b'a'),
                Some(b'Z'),
                Some(b'1'),
                Some(b'='),
                Some(0xFF),
            ] {
                input.clear();
                input.extend_from_slice(prefix);
                input.extend(extra);
                for eof in [false, true] {
                    let want = oracle(&entities, &prefixes, &input, eof);
                    assert_eq!(
                        match_named(&input, eof),
                        want,
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
            }
        }
    }
}
