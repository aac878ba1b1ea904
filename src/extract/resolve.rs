//! Resolving a URL against a base URL, as the [`url`] crate does, for the links extractor and
//! for the rewriter that writes links absolute.
//!
//! [`resolve`] parses with the [`url`] crate. [`resolve_into`], for the rewriter, writes the
//! resolved URL into a buffer and leaves the parser out when the result is known without it: an
//! `http:`/`https:` URL (or a `//host/…` one) already in the form the parser writes, or a path,
//! query or fragment made only of characters the parser keeps as they are, joined to the parts
//! of the base URL ([`Base`], split once per base). Only where the parser would give exactly the
//! same string: anything else (a port, an uppercase or international host, a dot segment, a
//! character the parser percent-encodes, another scheme, …) goes through the parser.

use std::borrow::Cow;

use url::{Position, Url};

/// A base URL, with where its parts end in its serialization.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Base {
    url: Url,
    /// Whether relative URLs may be joined to it by hand: an `http:` or `https:` URL.
    joinable: bool,
    /// The end of `scheme:` (what a `//host/…` URL keeps).
    after_scheme: usize,
    /// The end of `scheme://host[:port]` (what a `/path` keeps).
    before_path: usize,
    /// The end of the path's last `/` (what a relative path keeps).
    directory: usize,
    /// The end of the path (what a `?query` keeps).
    after_path: usize,
    /// The end of the query (what a `#fragment` keeps).
    after_query: usize,
}

impl Base {
    /// `url`, split into its parts.
    pub(crate) fn new(url: Url) -> Base {
        let before_path = url[..Position::BeforePath].len();
        let directory = before_path + url.path().rfind('/').map_or(0, |slash| slash + 1);
        Base {
            joinable: matches!(url.scheme(), "http" | "https") && url.path().starts_with('/'),
            after_scheme: url[..Position::AfterScheme].len() + 1,
            before_path,
            directory,
            after_path: url[..Position::AfterPath].len(),
            after_query: url[..Position::AfterQuery].len(),
            url,
        }
    }

    /// The URL itself.
    pub(crate) fn url(&self) -> &Url {
        &self.url
    }
}

/// The encoding of the document whose links are resolved, for their queries (see
/// [`LinkExtractor::set_encoding`](super::LinkExtractor::set_encoding)); `None`: UTF-8.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct QueryEncoding(
    #[cfg(feature = "encoding")] pub(crate) Option<&'static encoding_rs::Encoding>,
);

impl QueryEncoding {
    #[cfg(feature = "encoding")]
    fn is_utf8(self) -> bool {
        self.0.is_none()
    }

    #[cfg(not(feature = "encoding"))]
    fn is_utf8(self) -> bool {
        true
    }

    /// `query` in the encoding (the URL Standard's "encode": unmappable characters as HTML
    /// character references; UTF-16 and replacement give UTF-8).
    #[cfg(feature = "encoding")]
    fn encode(self, query: &str) -> Cow<'_, [u8]> {
        match self.0 {
            Some(encoding) => encoding.encode(query).0,
            None => Cow::Borrowed(query.as_bytes()),
        }
    }

    #[cfg(not(feature = "encoding"))]
    fn encode(self, query: &str) -> Cow<'_, [u8]> {
        Cow::Borrowed(query.as_bytes())
    }
}

/// `url` parsed relative to `base` (or alone, when there is no base), its query encoded in
/// `query_encoding`.
pub(crate) fn resolve(url: &str, base: Option<&Url>, query_encoding: QueryEncoding) -> Option<Url> {
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|query| query_encoding.encode(query);
    let options = Url::options().base_url(base);
    if query_encoding.is_utf8() {
        options.parse(url).ok()
    } else {
        options.encoding_override(Some(encode)).parse(url).ok()
    }
}

/// What [`resolve_into`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// The URL resolves to itself (nothing appended).
    AsWritten,
    /// The resolved URL is appended (it may still be the URL itself).
    Appended,
    /// The URL does not resolve (nothing appended).
    Unresolved,
}

/// Append `url` resolved against `base` to `out`, exactly as [`resolve`] serializes it, unless it
/// is known to resolve to itself or does not resolve. No parsing where none is needed (see the
/// module docs).
pub(crate) fn resolve_into(
    url: &str,
    base: Option<&Base>,
    query_encoding: QueryEncoding,
    out: &mut String,
) -> Resolution {
    match joined_by_hand(url, base) {
        Some("") => return Resolution::AsWritten,
        Some(prefix) => {
            out.push_str(prefix);
            out.push_str(url);
            return Resolution::Appended;
        }
        None => {}
    }
    match resolve(url, base.map(Base::url), query_encoding) {
        Some(resolved) => {
            out.push_str(resolved.as_str());
            Resolution::Appended
        }
        None => Resolution::Unresolved,
    }
}

/// What goes before `url` to resolve it, when the URL parser would give `url` itself
/// (absolute) or that prefix of the base URL and `url` unchanged (relative); `None` when it
/// might give anything else.
fn joined_by_hand<'b>(url: &str, base: Option<&'b Base>) -> Option<&'b str> {
    let bytes = url.as_bytes();
    if let Some(rest) = bytes
        .strip_prefix(b"https://")
        .or_else(|| bytes.strip_prefix(b"http://"))
    {
        return is_plain_authority_and_path(rest).then_some("");
    }
    let base = base.filter(|b| b.joinable)?;
    let end = match (bytes.first()?, bytes.get(1)) {
        (b'/', Some(b'/')) => is_plain_authority_and_path(&bytes[2..]).then_some(base.after_scheme),
        (b'/', _) => plain_tail(bytes, Part::Path).map(|_| base.before_path),
        (b'?', _) => plain_tail(&bytes[1..], Part::Query).map(|_| base.after_path),
        (b'#', _) => plain_tail(&bytes[1..], Part::Fragment).map(|_| base.after_query),
        // A relative path; a `:` in it might make it a scheme.
        _ => match plain_tail(bytes, Part::Path)? {
            Tail {
                colon_in_path: false,
            } => Some(base.directory),
            Tail {
                colon_in_path: true,
            } => None,
        },
    }?;
    Some(&base.url.as_str()[..end])
}

/// `host/path?query#fragment` that the parser keeps as it is: a plain domain
/// ([`plain_domain_end`]; no port, no user), then a path that starts with `/`.
fn is_plain_authority_and_path(rest: &[u8]) -> bool {
    plain_domain_end(rest)
        .is_some_and(|end| rest[end] == b'/' && plain_tail(&rest[end..], Part::Path).is_some())
}

/// Where the domain that starts `rest` ends, if the host parser gives it back unchanged and
/// something follows it: lowercase ASCII letters, digits and `-` in labels split by `.`, no
/// empty label, no `xn--` label (Punycode, which it checks), and a last label that does not
/// start with a digit (which might be a number: the IPv4 parser's). In one pass.
fn plain_domain_end(rest: &[u8]) -> Option<usize> {
    let plain_label = |label: &[u8]| !label.is_empty() && !label.starts_with(b"xn--");
    let mut label = 0;
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' => {}
            b'.' if plain_label(&rest[label..i]) => label = i + 1,
            b'.' => return None,
            _ => {
                let last = &rest[label..i];
                let not_a_number = last.first().is_some_and(|b| !b.is_ascii_digit());
                return (plain_label(last) && not_a_number).then_some(i);
            }
        }
    }
    None
}

/// The part of a URL a byte is in, for [`plain_tail`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Path = 1,
    Query = 2,
    Fragment = 4,
}

impl Part {
    /// The bit of [`PLAIN`] that lets a byte of this part pass without a look.
    fn quiet(self) -> u8 {
        self as u8
    }
}

/// What [`plain_tail`] learnt of a plain tail.
struct Tail {
    /// Whether the path has a `:` (which, in a relative URL, might end a scheme).
    colon_in_path: bool,
}

/// `bytes`, starting in `part` (a path, a query after its `?`, a fragment after its `#`) and
/// going on to the parts after it, if the parser keeps it as it is in a special URL: no byte the
/// part's percent-encode set holds, no control, space or non-ASCII byte, no `\` in the path (a
/// separator there), no dot segment (`.`, `..`, or one spelled with `%2e`). In one pass.
fn plain_tail(bytes: &[u8], mut part: Part) -> Option<Tail> {
    let mut colon_in_path = false;
    // Where the path's current segment starts.
    let mut segment = 0;
    // The bytes that need no more than their class: most of them.
    let mut quiet = part.quiet();
    for (i, &b) in bytes.iter().enumerate() {
        if PLAIN[usize::from(b)] & quiet != 0 {
            continue;
        }
        match (part, b) {
            (Part::Path, b'/' | b'?' | b'#') if is_dot_segment(&bytes[segment..i]) => return None,
            (Part::Path, b'/') => segment = i + 1,
            (Part::Path, b'%') if matches!(bytes.get(i + 1..i + 3), Some(&[b'2', b'e' | b'E'])) => {
                return None;
            }
            (Part::Path, b'%') => {}
            (Part::Path, b':') => colon_in_path = true,
            (Part::Path, b'?') => part = Part::Query,
            (Part::Path | Part::Query, b'#') => part = Part::Fragment,
            _ => return None,
        }
        quiet = part.quiet();
    }
    if part == Part::Path && is_dot_segment(&bytes[segment..]) {
        return None;
    }
    Some(Tail { colon_in_path })
}

/// `.` or `..`.
fn is_dot_segment(segment: &[u8]) -> bool {
    matches!(segment, b"." | b"..")
}

/// For each byte, the parts ([`Part`] as bits: path 1, query 2, fragment 4) in which the parser
/// keeps it as it is and [`plain_tail`] need not look at it: visible ASCII but for each part's percent-encode set (path: `"` `<` `>`
/// `` ` `` `{` `}`, and `\` a separator, `?` and `#` ending it; special query: `"` `<` `>` `'`,
/// `#` ending it; fragment: `"` `<` `>` `` ` ``).
static PLAIN: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b: u8 = 0x21;
    while b < 0x7F {
        // `/`, `%` and `:` are kept as they are too, but followed by `plain_tail`.
        let path = !matches!(
            b,
            b'"' | b'<' | b'>' | b'`' | b'{' | b'}' | b'\\' | b'?' | b'#' | b'/' | b'%' | b':'
        );
        let query = !matches!(b, b'"' | b'<' | b'>' | b'\'' | b'#');
        let fragment = !matches!(b, b'"' | b'<' | b'>' | b'`');
        table[b as usize] = path as u8 | (query as u8) << 1 | (fragment as u8) << 2;
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// `url` against `base` by [`resolve_into`] and by the parser: the same string, or both
    /// failing.
    fn agree(url: &str, base: &Base) -> Result<(), String> {
        let mut out = String::new();
        let by_hand = resolve_into(url, Some(base), QueryEncoding::default(), &mut out);
        let parsed = resolve(url, Some(base.url()), QueryEncoding::default());
        match (by_hand, parsed) {
            (Resolution::Appended, Some(p)) if p.as_str() == out => Ok(()),
            (Resolution::AsWritten, Some(p)) if p.as_str() == url && out.is_empty() => Ok(()),
            (Resolution::Unresolved, None) if out.is_empty() => Ok(()),
            (_, p) => Err(format!(
                "{url:?} against {}: {out:?} by hand, {:?} parsed",
                base.url(),
                p.map(String::from)
            )),
        }
    }

    fn bases() -> Vec<Base> {
        [
            "https://example.com/dir/page.html",
            "http://user:pw@example.com:8080/a/b/?q=1#f",
            "https://example.com/",
            "https://example.com",
            "https://example.com/dir/?#",
            "http://ex.com/%2e/x",
            "file:///tmp/x.html",
            "data:text/html,x",
            "mailto:a@b.c",
        ]
        .iter()
        .map(|u| Base::new(Url::parse(u).unwrap()))
        .collect()
    }

    #[test]
    fn plain_urls_are_joined_without_the_parser_and_agree_with_it() {
        let urls = [
            "https://cdn.example.com/a/b.js?v=1&x=2#top",
            "http://a-b.c0.example/",
            "//cdn.example.com/x.png",
            "/abs/path.png?q=a,b;c",
            "rel/path.png",
            "page.html#frag",
            "?only=query",
            "#only-fragment",
            "a//b;c=d/e|f^g~h!$&'()*+,;=@",
        ];
        for base in bases() {
            for url in urls {
                agree(url, &base).unwrap();
            }
        }
        let base = &bases()[0];
        for url in urls {
            assert!(joined_by_hand(url, Some(base)).is_some(), "{url}");
        }
    }

    #[test]
    fn urls_the_parser_changes_go_through_it() {
        let urls = [
            "HTTPS://example.com/",
            "https://Example.com/",
            "https://example.com",
            "https://example.com:443/",
            "https://example.com:8080/",
            "https://u@example.com/",
            "https://1.2.3.4/",
            "https://example.0x1/",
            "https://xn--nxasmq6b.com/",
            "https://ex..com/",
            "https://.ex.com/",
            "https://ex.com./",
            "https://ex.com/a/../b",
            "https://ex.com/a/%2E%2e/b",
            "https://ex.com/a b",
            "https://ex.com/a\\b",
            "https://ex.com/é",
            "https://ex.com/{x}",
            "https://ex.com/?a'b",
            "https://ex.com/#a`b",
            "//ex.com:80/",
            "/a/./b",
            "/a/%2e",
            "..",
            ".",
            "./x",
            "x/../y",
            "javascript:void(0)",
            "mailto:x@y.z",
            "data:,x",
            "c:/x",
            "",
            "/\\x",
            "?a\"b",
            "?a b",
            "#a<b",
            "a\tb",
        ];
        let base = &bases()[0];
        for url in urls {
            assert!(joined_by_hand(url, Some(base)).is_none(), "{url}");
        }
        for base in bases() {
            for url in urls {
                agree(url, &base).unwrap();
            }
        }
    }

    /// Random URLs made of the characters that matter to the parser, against every base: the
    /// written URL is the parser's whenever the parser is left out.
    #[test]
    fn random_urls_agree_with_the_parser() {
        const PREFIXES: &[&str] = &[
            "",
            "",
            "/",
            "//",
            "?",
            "#",
            "http://",
            "https://",
            "https://a.b/",
            "HTTP://",
            "x:",
        ];
        const PIECES: &[&str] = &[
            "a", "b", "z", "-", ".", "..", "/", "//", "%", "%2e", "%2E", "%41", "0", "1", "9",
            "0x", ":", "?", "#", "@", "\\", " ", "\t", "\n", "\"", "<", ">", "'", "`", "{", "}",
            "|", "^", "~", "é", "\u{0}", "\u{7f}", "A", "xn--", "=", "&", ";", "[", "]", "com",
            "example",
        ];
        let bases = bases();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: usize| (crate::testutil::xorshift(&mut state) % n as u64) as usize;
        // Miri interprets a thousand times slower: a few hundred there.
        let cases = if cfg!(miri) { 300 } else { 200_000 };
        let mut joined = 0;
        for _ in 0..cases {
            let mut url = PREFIXES[next(PREFIXES.len())].to_owned();
            for _ in 0..next(10) {
                url.push_str(PIECES[next(PIECES.len())]);
            }
            let base = &bases[next(bases.len())];
            joined += usize::from(joined_by_hand(&url, Some(base)).is_some());
            agree(&url, base).unwrap();
        }
        // The generator reaches the hand-joined paths, not only the parser.
        assert!(joined > cases / 20, "{joined} of {cases}");
    }
}
