//! The hostile inputs of issues 5 and 25 (HTML, [`CASES`]) and issue 26 (XML5, [`XML_CASES`]), and
//! a few of our own, as benchmark cases, defined once
//! for the criterion bench (`benches/throughput.rs`, group `hostile`, at a tenth of full size) and
//! for `perf/` (`tagstream-perf --hostile`, at full size), which includes this file with `#[path]`.
//!
//! Each case is a whole document that a generator builds from a size in the case's own unit
//! (bytes, attributes or tag pairs), so that full size is exactly what the issue names. Every
//! document gets itself into the state it attacks: the script-data case opens with `<script>`, and
//! tagstream's tree-builder simulator (on by default) switches to script data. `tests/hostile.rs`
//! checks the tokens of the same shapes at smaller sizes.
//!
//! The byte-at-a-time case is not here: it is a way of feeding an ordinary document (`perf/` feeds
//! corpus pages one byte at a time), not an input.

/// One hostile input.
pub struct Case {
    /// Short id, used as bench id and table row.
    pub name: &'static str,
    /// What the document is.
    pub what: &'static str,
    /// The tokenizer state that most of the input is tokenized in.
    pub state: &'static str,
    /// The unit of `full` (and of the generator's argument).
    pub unit: &'static str,
    /// Full size, in `unit`s (for the issue's cases, as issue 5 names it).
    pub full: usize,
    /// Whether issue 5 (or, for the error storms `nul-tag-name` and `unterminated-tags`, issue
    /// 25) names this input. The others are ours: stress cases for the tree-builder simulator,
    /// and a plain token-dense reference.
    pub from_issue: bool,
    make: fn(usize) -> Vec<u8>,
}

impl Case {
    /// The document at full size divided by `divisor` (1: full size).
    pub fn input(&self, divisor: usize) -> Vec<u8> {
        (self.make)(self.full / divisor)
    }
}

const MB: usize = 1_000_000;

/// Every case: the issue's in its order, ours after the one each stresses further.
pub const CASES: &[Case] = &[
    Case {
        name: "attrs-distinct",
        what: "one start tag with 100,000 attributes, all names distinct (` a0=v a1=v …`)",
        state: "attribute name / value",
        unit: "attributes",
        full: 100_000,
        from_issue: true,
        make: attributes_distinct,
    },
    Case {
        name: "attrs-same",
        what: "one start tag with 100,000 attributes, all named `a` (duplicates dropped)",
        state: "attribute name / value",
        unit: "attributes",
        full: 100_000,
        from_issue: true,
        make: attributes_same,
    },
    Case {
        name: "attr-value",
        what: "`<a b=\"` + a 50 MB attribute value + `\">`",
        state: "attribute value (double-quoted)",
        unit: "bytes",
        full: 50 * MB,
        from_issue: true,
        make: attribute_value,
    },
    Case {
        name: "comment",
        what: "`<!--` + 50 MB of `-` + `->`: a comment made of dashes",
        state: "comment, comment end dash / end",
        unit: "bytes",
        full: 50 * MB,
        from_issue: true,
        make: comment,
    },
    Case {
        name: "doctype",
        what: "`<!DOCTYPE ` + a 50 MB name + `>`",
        state: "DOCTYPE name",
        unit: "bytes",
        full: 50 * MB,
        from_issue: true,
        make: doctype,
    },
    Case {
        name: "amp-alnum",
        what: "1 MB of `&` + 46 alphanumerics + `;` (no such named reference)",
        state: "data, named character reference",
        unit: "bytes",
        full: MB,
        from_issue: true,
        make: ampersand_alphanumeric,
    },
    Case {
        name: "amp-no-semicolon",
        what: "10 MB of `&amp` without semicolons",
        state: "data, named character reference",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: ampersand_amp,
    },
    Case {
        name: "svg-math",
        what: "100,000 nested `<svg><math>` pairs, never closed",
        state: "tag open / tag name (foreign content)",
        unit: "pairs",
        full: 100_000,
        from_issue: true,
        make: svg_math,
    },
    Case {
        name: "foreign-end-tags",
        what: "50,000 nested `<svg>`, then 50,000 `</x>` (an end tag no open element has)",
        state: "tag name (foreign content; the simulator's end tag walk)",
        unit: "pairs",
        full: 50_000,
        from_issue: false,
        make: foreign_end_tags,
    },
    Case {
        name: "integration-point-divs",
        what: "`<svg><foreignObject>` and 100,000 nested `<div>`",
        state: "tag name (HTML inside an integration point)",
        unit: "tags",
        full: 100_000,
        from_issue: false,
        make: integration_point_divs,
    },
    Case {
        name: "foreign-end-tag-names",
        what: "`<svg>`, 600 nested foreign elements of distinct names (`<x0><x1>…`), then 100,000 \
               `</y>` (an end tag of another name)",
        state: "tag name (foreign content; the simulator's search for an open element by name)",
        unit: "end tags",
        full: 100_000,
        from_issue: false,
        make: foreign_end_tag_names,
    },
    Case {
        name: "integration-point-steps",
        what: "200 nested `<template>`, `<svg><foreignObject>`, 400 nested `<span>`, then 20,000 \
               `<li></p><a><tr></x>`",
        state: "tag name (HTML inside an integration point; the simulator's scope and list steps)",
        unit: "repeats",
        full: 20_000,
        from_issue: false,
        make: integration_point_steps,
    },
    Case {
        name: "end-tags",
        what: "100,000 `</y>` in the data state, nothing open: plain 4-byte tokens, a reference \
               for the simulator's cases above, which are as dense",
        state: "tag name (end tag)",
        unit: "end tags",
        full: 100_000,
        from_issue: false,
        make: end_tags,
    },
    Case {
        name: "end-tag-openers",
        what: "1 MB of `</`",
        state: "bogus comment (from the second `<` on)",
        unit: "bytes",
        full: MB,
        from_issue: true,
        make: end_tag_openers,
    },
    Case {
        name: "comment-openers",
        what: "1 MB of `<!--`",
        state: "comment start / comment less-than sign",
        unit: "bytes",
        full: MB,
        from_issue: true,
        make: comment_openers,
    },
    Case {
        name: "script-escapes",
        what: "`<script>` + 10 MB of `<!--<script>x</script>-->` + `</script>`",
        state: "script data (double) escaped",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: script_escapes,
    },
    Case {
        name: "nul-storm",
        what: "10 MB of U+0000 NULL in text",
        state: "data",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: nul_storm,
    },
    Case {
        name: "nul-tag-name",
        what: "`<a` + 10 MB of U+0000 NULL + `>`: NUL in a tag name",
        state: "tag name",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: nul_tag_name,
    },
    Case {
        name: "unterminated-tags",
        what: "200,000 unterminated `<a b=1 `: one tag whose attributes `<a` and `b` repeat",
        state: "attribute name / value",
        unit: "tags",
        full: 200_000,
        from_issue: true,
        make: unterminated_tags,
    },
    Case {
        name: "cr-storm",
        what: "10 MB of `\\r\\r\\n` in text",
        state: "data",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: cr_storm,
    },
    Case {
        name: "invalid-utf8",
        what: "10 MB of every kind of invalid UTF-8 (stray continuation, overlong lead, truncated \
               sequences, surrogate, above U+10FFFF, 0xFF) in text",
        state: "data",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: invalid_utf8,
    },
];

/// The XML5 tokenizer's hostile inputs (issue 26), each read in linear time.
pub const XML_CASES: &[Case] = &[
    Case {
        name: "xml-name",
        what: "`<` + a 10 MB element name + `/>`",
        state: "tag name",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_name,
    },
    Case {
        name: "xml-attrs-distinct",
        what: "one empty tag with 100,000 attributes, all names distinct (` a0='v' a1='v' …`)",
        state: "tag attribute name / value",
        unit: "attributes",
        full: 100_000,
        from_issue: true,
        make: xml_attributes_distinct,
    },
    Case {
        name: "xml-attrs-same",
        what: "one empty tag with 100,000 attributes, all named `a` (duplicates dropped)",
        state: "tag attribute name / value",
        unit: "attributes",
        full: 100_000,
        from_issue: true,
        make: xml_attributes_same,
    },
    Case {
        name: "xml-nested",
        what: "100,000 nested `<e>`, then as many `</e>`",
        state: "tag / tag name / end tag",
        unit: "pairs",
        full: 100_000,
        from_issue: true,
        make: xml_nested,
    },
    Case {
        name: "xml-open-cdata",
        what: "`<![CDATA[` + 10 MB of `]x`, never closed",
        state: "CDATA, CDATA bracket",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_open_cdata,
    },
    Case {
        name: "xml-open-pi",
        what: "`<?pi ` + 10 MB of `?x`, never closed",
        state: "PI data, PI after",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_open_pi,
    },
    Case {
        name: "xml-open-comment",
        what: "`<!--` + 10 MB of `-x<!`, never closed",
        state: "comment, comment end dash, comment less-than sign",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_open_comment,
    },
    Case {
        name: "xml-open-doctype",
        what: "`<!DOCTYPE d [` + 10 MB of `'x'<!--` (literals and comments), never closed",
        state: "DOCTYPE internal subset",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_open_doctype,
    },
    Case {
        name: "xml-amp",
        what: "10 MB of `&amp;`, then 10 MB of `&` alone",
        state: "data, character reference",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_ampersands,
    },
    Case {
        name: "xml-short-end-tags",
        what: "`<a>` + 10 MB of `</>` (short end tags)",
        state: "end tag",
        unit: "bytes",
        full: 10 * MB,
        from_issue: true,
        make: xml_short_end_tags,
    },
];

/// `unit` repeated and cut to exactly `size` bytes.
fn repeated(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

/// `before` + `size` bytes of `fill` + `after`.
fn wrapped(before: &[u8], fill: &[u8], size: usize, after: &[u8]) -> Vec<u8> {
    let mut v = before.to_vec();
    v.extend(repeated(fill, size));
    v.extend_from_slice(after);
    v
}

/// `<a` + one attribute per `name(i)` + `>`.
fn tag_with_attributes(count: usize, name: impl Fn(usize) -> String) -> Vec<u8> {
    let mut v = b"<a".to_vec();
    for i in 0..count {
        v.extend_from_slice(format!(" {}=v", name(i)).as_bytes());
    }
    v.push(b'>');
    v
}

fn attributes_distinct(count: usize) -> Vec<u8> {
    tag_with_attributes(count, |i| format!("a{i}"))
}

fn attributes_same(count: usize) -> Vec<u8> {
    tag_with_attributes(count, |_| "a".to_owned())
}

fn attribute_value(size: usize) -> Vec<u8> {
    wrapped(b"<a b=\"", b"x", size, b"\">")
}

fn comment(size: usize) -> Vec<u8> {
    wrapped(b"<!--", b"-", size, b"->")
}

fn doctype(size: usize) -> Vec<u8> {
    wrapped(b"<!DOCTYPE ", b"x", size, b">")
}

fn ampersand_alphanumeric(size: usize) -> Vec<u8> {
    repeated(b"&abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ;", size)
}

fn ampersand_amp(size: usize) -> Vec<u8> {
    repeated(b"&amp", size)
}

fn svg_math(pairs: usize) -> Vec<u8> {
    b"<svg><math>".repeat(pairs)
}

fn foreign_end_tags(pairs: usize) -> Vec<u8> {
    [b"<svg>".repeat(pairs), b"</x>".repeat(pairs)].concat()
}

fn integration_point_divs(tags: usize) -> Vec<u8> {
    [&b"<svg><foreignObject>"[..], &b"<div>".repeat(tags)].concat()
}

fn foreign_end_tag_names(end_tags: usize) -> Vec<u8> {
    let names: String = (0..600).map(|i| format!("<x{i}>")).collect();
    [
        format!("<svg>{names}").into_bytes(),
        b"</y>".repeat(end_tags),
    ]
    .concat()
}

/// Each repeat is a list item, a `</p>` and a link that look for their element in scope or on
/// the stack, a table tag that looks for a table in the templates and the integration point,
/// and an end tag that stops at the first special element.
fn integration_point_steps(repeats: usize) -> Vec<u8> {
    [
        b"<template>".repeat(200),
        b"<svg><foreignObject>".to_vec(),
        b"<span>".repeat(400),
        b"<li></p><a><tr></x>".repeat(repeats),
    ]
    .concat()
}

fn end_tags(end_tags: usize) -> Vec<u8> {
    b"</y>".repeat(end_tags)
}

fn end_tag_openers(size: usize) -> Vec<u8> {
    repeated(b"</", size)
}

fn comment_openers(size: usize) -> Vec<u8> {
    repeated(b"<!--", size)
}

/// Each unit goes escaped (`<!--`), double escaped (`<script>`), escaped again (`</script>`) and
/// back to script data (`-->`).
fn script_escapes(size: usize) -> Vec<u8> {
    let unit = b"<!--<script>x</script>-->";
    wrapped(
        b"<script>",
        unit,
        size / unit.len() * unit.len(),
        b"</script>",
    )
}

fn nul_storm(size: usize) -> Vec<u8> {
    repeated(b"\0", size)
}

fn nul_tag_name(size: usize) -> Vec<u8> {
    wrapped(b"<a", b"\0", size, b">")
}

fn unterminated_tags(tags: usize) -> Vec<u8> {
    b"<a b=1 ".repeat(tags)
}

fn cr_storm(size: usize) -> Vec<u8> {
    repeated(b"\r\r\n", size)
}

fn invalid_utf8(size: usize) -> Vec<u8> {
    repeated(
        b"\x80\xC0\xE0\x80\xF0\x80\x80\xED\xA0\x80\xF4\x90\xFF",
        size,
    )
}

fn xml_name(size: usize) -> Vec<u8> {
    wrapped(b"<", b"n", size, b"/>")
}

/// `<e` + one attribute per `name(i)` + `/>`.
fn xml_empty_tag(count: usize, name: impl Fn(usize) -> String) -> Vec<u8> {
    let mut v = b"<e".to_vec();
    for i in 0..count {
        v.extend_from_slice(format!(" {}='v'", name(i)).as_bytes());
    }
    v.extend_from_slice(b"/>");
    v
}

fn xml_attributes_distinct(count: usize) -> Vec<u8> {
    xml_empty_tag(count, |i| format!("a{i}"))
}

fn xml_attributes_same(count: usize) -> Vec<u8> {
    xml_empty_tag(count, |_| "a".to_owned())
}

fn xml_nested(pairs: usize) -> Vec<u8> {
    let mut v = repeated(b"<e>", 3 * pairs);
    v.extend(repeated(b"</e>", 4 * pairs));
    v
}

fn xml_open_cdata(size: usize) -> Vec<u8> {
    wrapped(b"<![CDATA[", b"]x", size, b"")
}

fn xml_open_pi(size: usize) -> Vec<u8> {
    wrapped(b"<?pi ", b"?x", size, b"")
}

fn xml_open_comment(size: usize) -> Vec<u8> {
    wrapped(b"<!--", b"-x<!", size, b"")
}

fn xml_open_doctype(size: usize) -> Vec<u8> {
    wrapped(b"<!DOCTYPE d [", b"'x'<!--", size, b"")
}

fn xml_ampersands(size: usize) -> Vec<u8> {
    let mut v = repeated(b"&amp;", size / 2);
    v.extend(repeated(b"&", size - size / 2));
    v
}

fn xml_short_end_tags(size: usize) -> Vec<u8> {
    wrapped(b"<a>", b"</>", size, b"")
}
