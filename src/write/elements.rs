//! What the serializer needs to know about element and attribute names (HTML Standard §13.1.2):
//! the void elements, the elements whose text the tokenizer reads as raw text or RCDATA, and the
//! boolean attributes that [`SerializerOptions::minimize_boolean_attributes`] writes in the empty
//! attribute syntax.
//!
//! [`SerializerOptions::minimize_boolean_attributes`]: super::SerializerOptions::minimize_boolean_attributes

use crate::TextKind;

/// §13.1.2: the void elements, which have a start tag and no end tag, by the length of their
/// names (the index).
const VOID: [&[&str]; 7] = [
    &[],
    &[],
    &["br", "hr"],
    &["col", "img", "wbr"],
    &["area", "base", "link", "meta"],
    &["embed", "input", "track"],
    &["source"],
];

/// Whether `name` is one of `by_length[name.len()]`, ASCII case-insensitively: a table of names
/// by their length, so that a name is compared with the few of its own length only.
fn is_one_of(name: &str, by_length: &[&[&str]]) -> bool {
    by_length
        .get(name.len())
        .is_some_and(|names| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
}

/// Whether `name` is a void element (ASCII case-insensitively).
pub(crate) fn is_void(name: &str) -> bool {
    is_one_of(name, &VOID)
}

/// The text state the tokenizer switches to after an HTML start tag named `name`, or `None` if
/// the element's content is markup (`noscript` is raw text only with scripting on): the
/// tree-builder simulator's rule.
pub(crate) fn text_state_after(name: &str, scripting: bool) -> Option<TextKind> {
    crate::html::simulator::text_state_after(name.as_bytes(), scripting)
}

/// Whether whitespace in an element named `name` is kept by
/// [`SerializerOptions::strip_whitespace`](super::SerializerOptions::strip_whitespace): `pre`,
/// `textarea` and the raw text elements (html5lib's list), by the length of their names.
pub(crate) fn preserves_whitespace(name: &str) -> bool {
    const PRESERVING: [&[&str]; 10] = [
        &[],
        &[],
        &[],
        &["pre", "xmp"],
        &[],
        &["style"],
        &["script", "iframe"],
        &["noembed", "listing"],
        &["textarea", "noframes", "noscript"],
        &["plaintext"],
    ];
    is_one_of(name, &PRESERVING)
}

/// Whether the tree builder drops a newline right after this start tag (§13.1.2.5: `pre`,
/// `textarea`, and `listing`, which parses as `pre`).
pub(crate) fn eats_leading_newline(name: &str) -> bool {
    ["pre", "textarea", "listing"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
}

/// The HTML Standard's boolean attributes (its attribute index), by element; `""` holds the
/// global ones.
const BOOLEAN: &[(&str, &[&str])] = &[
    ("", &["autofocus", "inert", "itemscope"]),
    ("audio", &["autoplay", "controls", "loop", "muted"]),
    ("button", &["disabled", "formnovalidate"]),
    ("details", &["open"]),
    ("dialog", &["open"]),
    ("fieldset", &["disabled"]),
    ("form", &["novalidate"]),
    ("iframe", &["allowfullscreen"]),
    ("img", &["ismap"]),
    (
        "input",
        &[
            "alpha",
            "checked",
            "disabled",
            "formnovalidate",
            "multiple",
            "readonly",
            "required",
            "switch",
        ],
    ),
    ("link", &["disabled"]),
    ("ol", &["reversed"]),
    ("optgroup", &["disabled"]),
    ("option", &["disabled", "selected"]),
    ("script", &["async", "defer", "nomodule"]),
    ("select", &["disabled", "multiple", "required"]),
    (
        "template",
        &[
            "shadowrootclonable",
            "shadowrootcustomelementregistry",
            "shadowrootdelegatesfocus",
            "shadowrootserializable",
        ],
    ),
    ("textarea", &["disabled", "readonly", "required"]),
    ("track", &["default"]),
    (
        "video",
        &["autoplay", "controls", "loop", "muted", "playsinline"],
    ),
];

/// html5lib's `booleanAttributes` (for [`SerializerOptions::html5lib_compat`]), which predate
/// today's list (`irrelevant` was renamed `hidden`, `datagrid` and `command` are gone).
///
/// [`SerializerOptions::html5lib_compat`]: super::SerializerOptions::html5lib_compat
const HTML5LIB_BOOLEAN: &[(&str, &[&str])] = &[
    ("", &["irrelevant", "itemscope"]),
    ("style", &["scoped"]),
    ("img", &["ismap"]),
    ("audio", &["autoplay", "controls"]),
    ("video", &["autoplay", "controls"]),
    ("script", &["defer", "async"]),
    ("details", &["open"]),
    ("datagrid", &["multiple", "disabled"]),
    ("command", &["hidden", "disabled", "checked", "default"]),
    ("hr", &["noshade"]),
    ("menu", &["autosubmit"]),
    ("fieldset", &["disabled", "readonly"]),
    ("option", &["disabled", "readonly", "selected"]),
    ("optgroup", &["disabled", "readonly"]),
    ("button", &["disabled", "autofocus"]),
    (
        "input",
        &[
            "disabled",
            "readonly",
            "required",
            "autofocus",
            "checked",
            "ismap",
        ],
    ),
    ("select", &["disabled", "readonly", "autofocus", "multiple"]),
    ("output", &["disabled", "readonly"]),
    ("iframe", &["seamless"]),
];

/// Whether `attribute` is a boolean attribute of `element` (ASCII case-insensitively), in today's
/// list or (`html5lib`) in html5lib's.
pub(crate) fn is_boolean_attribute(element: &str, attribute: &str, html5lib: bool) -> bool {
    let table = if html5lib { HTML5LIB_BOOLEAN } else { BOOLEAN };
    table.iter().any(|(e, names)| {
        (e.is_empty() || e.eq_ignore_ascii_case(element))
            && names.iter().any(|n| n.eq_ignore_ascii_case(attribute))
    })
}
