//! §13.1.2.4 "Optional tags": which start and end tags may be left out, decided with one token of
//! lookahead. With [`SerializerOptions::html5lib_compat`](super::SerializerOptions::html5lib_compat)
//! the few rules html5lib's filter has differently (and html5lib-tests expects) apply instead.

/// What comes right after a held-back tag.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Next<'a> {
    /// A start tag with this name.
    Start(&'a str),
    /// An end tag with this name (the parent element ends: "no more content").
    End(&'a str),
    /// Text; `space`: it starts with ASCII whitespace.
    Text { space: bool },
    /// A comment.
    Comment,
    /// A DOCTYPE or processing instruction.
    Other,
    /// The end of the stream (the parent ends too).
    Eof,
}

/// The start tags that may be omitted (when they have no attributes).
pub(crate) const OPTIONAL_START: &[&str] = &["html", "head", "body", "colgroup", "tbody"];

/// The end tags that may be omitted.
pub(crate) const OPTIONAL_END: &[&str] = &[
    "html", "head", "body", "li", "dt", "dd", "p", "rt", "rp", "optgroup", "option", "colgroup",
    "caption", "thead", "tbody", "tfoot", "tr", "td", "th",
];

/// `name` as one of `table`'s static names (ASCII case-insensitively).
pub(crate) fn find(table: &[&'static str], name: &str) -> Option<&'static str> {
    table.iter().copied().find(|n| n.eq_ignore_ascii_case(name))
}

fn is_in(next: &str, names: &[&str]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(next))
}

/// Whether the start tag `name` (without attributes) may be omitted before `next`;
/// `after_omitted_end` names the end tag omitted right before it, if one was.
pub(crate) fn may_omit_start(
    name: &str,
    next: Next<'_>,
    after_omitted_end: Option<&str>,
    html5lib: bool,
) -> bool {
    match name {
        "html" if html5lib => !matches!(next, Next::Comment | Next::Text { space: true }),
        // "the first thing inside the html element is not a comment"
        "html" => !matches!(next, Next::Comment),
        // "the element is empty, or the first thing inside the head element is an element"
        "head" => match next {
            Next::Start(_) => true,
            Next::End(n) => n.eq_ignore_ascii_case("head"),
            _ => false,
        },
        // "empty, or the first thing inside is not ASCII whitespace or a comment, except if it is
        // a meta, noscript, link, script, style, or template element"
        "body" => match next {
            Next::Comment | Next::Text { space: true } => false,
            Next::Start(n) => !is_in(
                n,
                &["meta", "noscript", "link", "script", "style", "template"],
            ),
            _ => true,
        },
        // "the first thing inside is a col element, and … not immediately preceded by another
        // colgroup element whose end tag has been omitted"
        "colgroup" => {
            matches!(next, Next::Start(n) if n.eq_ignore_ascii_case("col"))
                && after_omitted_end != Some("colgroup")
        }
        // "the first thing inside is a tr element, and … not immediately preceded by a tbody,
        // thead, or tfoot element whose end tag has been omitted"
        "tbody" => {
            matches!(next, Next::Start(n) if n.eq_ignore_ascii_case("tr"))
                && !matches!(after_omitted_end, Some("tbody" | "thead" | "tfoot"))
        }
        _ => false,
    }
}

/// The elements a `p` end tag may be omitted before (§13.1.2.4).
const P_CLOSERS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "dialog",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "table",
    "ul",
];

/// html5lib's list for the same rule (an older standard's).
const HTML5LIB_P_CLOSERS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "datagrid",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

/// The parents a `p` end tag may not be omitted at the end of.
const P_KEEPING_PARENTS: &[&str] = &["a", "audio", "del", "ins", "map", "noscript", "video"];

/// Whether the end tag `name` may be omitted before `next`.
pub(crate) fn may_omit_end(name: &str, next: Next<'_>, html5lib: bool) -> bool {
    // "if there is no more content in the parent element"
    let parent_ends = matches!(next, Next::End(_) | Next::Eof);
    let next_is = |names: &[&str]| matches!(next, Next::Start(n) if is_in(n, names));
    let not_space_or_comment = !matches!(next, Next::Comment | Next::Text { space: true });
    match name {
        "html" | "body" if html5lib => not_space_or_comment,
        "html" | "body" => !matches!(next, Next::Comment),
        "head" | "colgroup" | "caption" => not_space_or_comment,
        "li" => next_is(&["li"]) || parent_ends,
        "dt" => next_is(&["dt", "dd"]),
        "dd" => next_is(&["dd", "dt"]) || parent_ends,
        "p" if html5lib => next_is(HTML5LIB_P_CLOSERS) || parent_ends,
        "p" => {
            next_is(P_CLOSERS)
                || matches!(next, Next::Eof)
                || matches!(next, Next::End(n) if !is_in(n, P_KEEPING_PARENTS) && !n.contains('-'))
        }
        "rt" | "rp" => next_is(&["rt", "rp"]) || parent_ends,
        "optgroup" => next_is(&["optgroup", "hr"]) || parent_ends,
        "option" => next_is(&["option", "optgroup", "hr"]) || parent_ends,
        "thead" => next_is(&["tbody", "tfoot"]),
        "tbody" => next_is(&["tbody", "tfoot"]) || parent_ends,
        "tfoot" if html5lib => next_is(&["tbody"]) || parent_ends,
        "tfoot" => parent_ends,
        "tr" => next_is(&["tr"]) || parent_ends,
        "td" | "th" => next_is(&["td", "th"]) || parent_ends,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_end_tag_follows_todays_list() {
        assert!(may_omit_end("p", Next::Start("main"), false));
        assert!(!may_omit_end("p", Next::Start("main"), true));
        assert!(!may_omit_end("p", Next::Start("dir"), false));
        assert!(may_omit_end("p", Next::Start("dir"), true));
        assert!(!may_omit_end("p", Next::End("a"), false));
        assert!(!may_omit_end("p", Next::End("my-element"), false));
        assert!(may_omit_end("p", Next::End("div"), false));
    }

    #[test]
    fn table_sections_look_behind() {
        assert!(may_omit_start("tbody", Next::Start("tr"), None, false));
        assert!(!may_omit_start(
            "tbody",
            Next::Start("tr"),
            Some("thead"),
            false
        ));
        assert!(!may_omit_start(
            "colgroup",
            Next::Start("col"),
            Some("colgroup"),
            false
        ));
        assert!(!may_omit_start(
            "colgroup",
            Next::End("colgroup"),
            None,
            false
        ));
    }

    #[test]
    fn body_start_tag_stays_before_head_content() {
        assert!(!may_omit_start("body", Next::Start("script"), None, false));
        assert!(!may_omit_start("body", Next::Start("meta"), None, false));
        assert!(may_omit_start("body", Next::Start("div"), None, false));
        assert!(!may_omit_start(
            "body",
            Next::Text { space: true },
            None,
            false
        ));
    }
}
