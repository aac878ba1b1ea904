//! Namespaces in XML 1.0 for the tree stage: qualified names split into prefix and local part,
//! and the scope of namespace declarations (a stack of bindings with, per prefix, the innermost
//! one), kept while streaming and unwound as elements end.

use std::collections::HashMap;
use std::fmt;

use crate::word::WordHash;

/// The namespace the `xml` prefix is bound to, always (Namespaces in XML 1.0 §3).
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of the `xmlns` and `xmlns:prefix` attributes that declare namespaces.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// An element's or an attribute's name: as written (`prefix:local`, or `local`) and its
/// namespace, resolved from the declarations in scope. A name whose prefix is bound to nothing
/// keeps its prefix with no namespace.
///
/// ```
/// use tagstream::xml5::tree::QName;
/// let name = QName { namespace: Some("urn:x"), prefix: Some("x"), local: "item" };
/// assert_eq!(name.to_string(), "x:item");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QName<'a> {
    /// The namespace name (a URI), `None` for no namespace.
    pub namespace: Option<&'a str>,
    /// The prefix as written, if the name has one.
    pub prefix: Option<&'a str>,
    /// The local part (the whole name when it has no prefix).
    pub local: &'a str,
}

/// The name as written: `prefix:local` or `local`.
impl fmt::Display for QName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix {
            Some(prefix) => write!(f, "{prefix}:{}", self.local),
            None => f.write_str(self.local),
        }
    }
}

/// How a written name divides (Namespaces in XML 1.0 §4, `QName`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// No colon: the whole name is the local part.
    Unprefixed,
    /// `prefix:local`, both parts non-empty: the colon's offset.
    Prefixed(usize),
    /// A colon first or last, or more than one: not a qualified name; kept whole, unprefixed.
    Malformed,
}

/// Split `name` at its colon (see [`Split`]). A plain loop, not memchr: names are short, and
/// memchr's setup cost more than the search (callgrind on the XML race's set).
#[inline]
pub(crate) fn split(name: &str) -> Split {
    split_bytes(name.as_bytes())
}

fn split_bytes(bytes: &[u8]) -> Split {
    let colon_in = |bytes: &[u8]| bytes.iter().position(|&b| b == b':');
    match colon_in(bytes) {
        None => Split::Unprefixed,
        Some(colon) => {
            let local = &bytes[colon + 1..];
            let ok = colon > 0 && !local.is_empty() && colon_in(local).is_none();
            if ok {
                Split::Prefixed(colon)
            } else {
                Split::Malformed
            }
        }
    }
}

/// [`split`] for a name of `len` bytes whose colons are the bits of `colons` (bit `i` for
/// byte `i`), as a block test finds them.
#[inline(always)]
pub(crate) fn split_colons(colons: u32, len: usize) -> Split {
    let colon = colons.trailing_zeros() as usize;
    match colons {
        0 => Split::Unprefixed,
        _ if colon > 0 && colon + 1 < len && colons.count_ones() == 1 => Split::Prefixed(colon),
        _ => Split::Malformed,
    }
}

/// Whether the name written as `raw` has no prefix: no colon (decoding neither adds nor removes
/// one, so the raw bytes tell), without decoding it. A plain loop, as [`split`]'s.
#[inline]
pub(crate) fn unprefixed(raw: &[u8]) -> bool {
    raw.iter().all(|&b| b != b':')
}

/// Whether the name `bytes`, split as `split`, declares a namespace: `Some(None)` for `xmlns`
/// (the default namespace), `Some(Some(prefix))` for `xmlns:prefix`.
pub(crate) fn declared(bytes: &[u8], split: Split) -> Option<Option<&[u8]>> {
    match split {
        Split::Unprefixed if bytes == b"xmlns" => Some(None),
        Split::Prefixed(colon) if &bytes[..colon] == b"xmlns" => Some(Some(&bytes[colon + 1..])),
        _ => None,
    }
}

/// `name`'s prefix and local part by its [`Split`]. One character-boundary check, at the colon:
/// the local part is what follows the colon, stripped as a character (two checked slices cost
/// the events race 0.05 instructions a byte).
#[inline]
pub(crate) fn parts(name: &str, split: Split) -> (Option<&str>, &str) {
    if let Split::Prefixed(colon) = split
        && let Some((prefix, rest)) = name.split_at_checked(colon)
        && let Some(local) = rest.strip_prefix(':')
    {
        return (Some(prefix), local);
    }
    (None, name)
}

/// A resolved namespace, cheap to copy: valid while the binding it names is in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ns {
    /// No namespace.
    None,
    /// [`XML_NAMESPACE`].
    Xml,
    /// [`XMLNS_NAMESPACE`].
    Xmlns,
    /// The URI of the binding at this index of [`Scope`]'s stack (never empty).
    Bound(usize),
}

/// A namespace's identity within one document, for a consumer that keeps each namespace URI
/// once (the tree builder): equal keys of one document are equal URIs (those of two documents
/// need not be). `0` no namespace, `1` [`XML_NAMESPACE`], `2` [`XMLNS_NAMESPACE`], then one per
/// declaration, in document order.
pub(crate) type NsKey = usize;

/// No binding (an index of none).
const NONE: usize = usize::MAX;

/// One namespace declaration in scope. Its strings keep their capacity when the binding goes out
/// of scope, for the next binding at its place on the stack.
struct Binding {
    /// The declared prefix (empty for the default namespace). A string even then, so that a
    /// place on the stack that holds a prefixed binding and then a default one keeps its
    /// capacity (an `Option` dropped it, and allocated again for the next prefix).
    prefix: String,
    /// Whether it declares the default namespace (`xmlns`), not a prefix.
    default: bool,
    /// The URI; empty for an undeclaration (`xmlns=""`, `xmlns:p=""`).
    uri: String,
    /// The binding of the same prefix this one hides, or [`NONE`].
    shadowed: usize,
    /// Its [`NsKey`].
    key: NsKey,
}

/// Where the scope stood before an element's declarations: what [`Scope::pop_to`] goes back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    bindings: usize,
}

/// The namespace declarations in scope: a stack of bindings (each element's pushed at its start,
/// popped at its end) and, per prefix, the innermost binding. Memory: the bindings in scope (and
/// the strings of as many as were ever in scope at once, kept for reuse, up to 64 across
/// documents), plus the prefixes recently bound (the map is pruned when those outnumber the ones
/// in scope), nothing proportional to the document. Lookups are a hash probe, whatever the
/// number of declarations in scope; a URI is a load.
pub(crate) struct Scope {
    /// The bindings; those from [`Scope::len`] on are out of scope, kept for their strings.
    bindings: Vec<Binding>,
    /// How many bindings are in scope.
    len: usize,
    /// Prefix → its innermost binding, or [`NONE`] once it went out of scope.
    innermost: HashMap<Box<str>, usize, WordHash>,
    /// How many entries of `innermost` are not [`NONE`].
    live: usize,
    /// The innermost default-namespace binding, or [`NONE`].
    default: usize,
    /// [`Scope::default_ns`], kept as default bindings come and go (every unprefixed element
    /// reads it).
    default_ns: Ns,
    /// Declarations made in this document: the next binding's key is this plus 3.
    declared: usize,
    /// The prefix last looked up and its innermost binding (or [`NONE`]), while `cached`: most
    /// prefixed names repeat the one before (`xsl:` on every element of a stylesheet). Forgotten
    /// whenever a prefixed binding comes or goes.
    last_prefix: String,
    last_index: usize,
    cached: bool,
}

impl Scope {
    pub(crate) fn new() -> Scope {
        Scope {
            bindings: Vec::new(),
            len: 0,
            innermost: HashMap::with_hasher(WordHash::new()),
            live: 0,
            default: NONE,
            default_ns: Ns::None,
            declared: 0,
            last_prefix: String::new(),
            last_index: NONE,
            cached: false,
        }
    }

    /// Nothing in scope (a new document), keeping the allocations (up to 64 bindings' strings,
    /// and up to 64 prefixes, so that documents declaring the same ones allocate nothing for
    /// them). The bindings still in scope are undone one by one (at the end of a document
    /// whose elements all ended, none), not every prefix kept.
    pub(crate) fn clear(&mut self) {
        self.pop_to(Mark { bindings: 0 });
        self.bindings.truncate(64);
        if self.innermost.len() > 64 {
            self.innermost.clear();
        }
        self.declared = 0;
        self.cached = false;
    }

    /// The current state, to [`Scope::pop_to`] when the element about to declare ends.
    pub(crate) fn mark(&self) -> Mark {
        Mark { bindings: self.len }
    }

    /// Bind `prefix` (`None`: the default namespace) to `uri` until the current element ends;
    /// an empty `uri` undeclares it.
    pub(crate) fn declare(&mut self, prefix: Option<&str>, uri: &str) {
        let index = self.len;
        let shadowed = match prefix {
            None => std::mem::replace(&mut self.default, index),
            Some(p) => self.set_innermost(p, index),
        };
        let key = self.declared + 3;
        self.declared += 1;
        if let Some(binding) = self.bindings.get_mut(index) {
            binding.uri.clear();
            binding.uri.push_str(uri);
            binding.prefix.clear();
            binding.prefix.push_str(prefix.unwrap_or_default());
            binding.default = prefix.is_none();
            binding.shadowed = shadowed;
            binding.key = key;
        } else {
            self.bindings.push(Binding {
                prefix: prefix.unwrap_or_default().to_owned(),
                default: prefix.is_none(),
                uri: uri.to_owned(),
                shadowed,
                key,
            });
        }
        self.len += 1;
        if prefix.is_none() {
            self.default_ns = self.resolve_default();
        }
    }

    /// Make `index` the innermost binding of `prefix`; the one it hides, or [`NONE`].
    fn set_innermost(&mut self, prefix: &str, index: usize) -> usize {
        self.cached = false;
        let shadowed = match self.innermost.get_mut(prefix) {
            Some(slot) => std::mem::replace(slot, index),
            None => {
                self.innermost.insert(prefix.into(), index);
                NONE
            }
        };
        if shadowed == NONE {
            self.live += 1;
        }
        shadowed
    }

    /// Unbind every declaration made since `mark`, innermost first.
    #[inline]
    pub(crate) fn pop_to(&mut self, mark: Mark) {
        if self.len > mark.bindings {
            self.unbind_to(mark);
        }
    }

    /// [`Scope::pop_to`] with bindings to undo.
    fn unbind_to(&mut self, mark: Mark) {
        while self.len > mark.bindings {
            self.len -= 1;
            let Some(binding) = self.bindings.get(self.len) else {
                break;
            };
            match binding.default {
                true => self.default = binding.shadowed,
                false => {
                    self.cached = false;
                    if let Some(slot) = self.innermost.get_mut(binding.prefix.as_str()) {
                        *slot = binding.shadowed;
                    }
                    if binding.shadowed == NONE {
                        self.live -= 1;
                    }
                }
            }
        }
        self.default_ns = self.resolve_default();
        if self.innermost.len() > 2 * self.live + 64 {
            self.innermost.retain(|_, index| *index != NONE);
        }
    }

    /// The namespace `prefix` stands for (`None`: the default namespace), or `None` when it is
    /// bound to nothing (never declared, or undeclared). `xml` is always bound; `xmlns` is the
    /// caller's to handle (it declares, it names no namespace of elements).
    #[inline]
    pub(crate) fn lookup(&mut self, prefix: Option<&str>) -> Option<Ns> {
        let index = match prefix {
            None => self.default,
            Some("xml") => return Some(Ns::Xml),
            Some(p) => self.innermost_of(p),
        };
        let binding = self.bindings[..self.len].get(index)?;
        (!binding.uri.is_empty()).then_some(Ns::Bound(index))
    }

    /// The innermost binding of `prefix`, or [`NONE`]: the last answer again, or a hash probe.
    #[inline]
    fn innermost_of(&mut self, prefix: &str) -> usize {
        if self.cached && self.last_prefix == prefix {
            return self.last_index;
        }
        self.look_up_innermost(prefix)
    }

    /// [`Scope::innermost_of`] when the last answer is not for `prefix`: a hash probe, cached.
    fn look_up_innermost(&mut self, prefix: &str) -> usize {
        let index = self.innermost.get(prefix).copied().unwrap_or(NONE);
        self.last_prefix.clear();
        self.last_prefix.push_str(prefix);
        self.last_index = index;
        self.cached = true;
        index
    }

    /// The default namespace: [`Scope::lookup`] of no prefix, without the hash map.
    #[inline]
    pub(crate) fn default_ns(&self) -> Ns {
        self.default_ns
    }

    /// [`Scope::default_ns`] from the bindings in scope.
    fn resolve_default(&self) -> Ns {
        match self.bindings[..self.len].get(self.default) {
            Some(binding) if !binding.uri.is_empty() => Ns::Bound(self.default),
            _ => Ns::None,
        }
    }

    /// The URI of a resolved namespace (`None` for no namespace).
    #[inline]
    pub(crate) fn uri(&self, ns: Ns) -> Option<&str> {
        match ns {
            Ns::None => None,
            Ns::Xml => Some(XML_NAMESPACE),
            Ns::Xmlns => Some(XMLNS_NAMESPACE),
            Ns::Bound(index) => self.bindings.get(index).map(|b| b.uri.as_str()),
        }
    }

    /// The [`NsKey`] of a resolved namespace.
    #[inline]
    pub(crate) fn key(&self, ns: Ns) -> NsKey {
        match ns {
            Ns::None => 0,
            Ns::Xml => 1,
            Ns::Xmlns => 2,
            Ns::Bound(index) => self.bindings.get(index).map_or(0, |b| b.key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_one_inner_colon() {
        assert_eq!(split("a"), Split::Unprefixed);
        assert_eq!(split("p:a"), Split::Prefixed(1));
        for bad in [":a", "a:", "a:b:c", ":"] {
            assert_eq!(split(bad), Split::Malformed, "{bad}");
        }
        assert_eq!(parts("svg:rect", split("svg:rect")), (Some("svg"), "rect"));
        assert_eq!(parts("a:b:c", split("a:b:c")), (None, "a:b:c"));
        for name in [
            "a", "p:a", ":a", "a:", "a:b:c", ":", "xmlns:p", "", "abc:d::",
        ] {
            let colons = (name.bytes().enumerate())
                .filter(|&(_, c)| c == b':')
                .fold(0, |mask, (i, _)| mask | 1 << i);
            assert_eq!(split_colons(colons, name.len()), split(name), "{name}");
            assert_eq!(
                unprefixed(name.as_bytes()),
                split(name) == Split::Unprefixed
            );
        }
        assert_eq!(declared(b"xmlns", Split::Unprefixed), Some(None));
        assert_eq!(
            declared(b"xmlns:p", Split::Prefixed(5)),
            Some(Some(&b"p"[..]))
        );
        assert_eq!(declared(b"xmlnsx", Split::Unprefixed), None);
        assert_eq!(declared(b"xml:p", Split::Prefixed(3)), None);
    }

    #[test]
    fn inner_bindings_hide_outer_ones_until_popped() {
        let mut scope = Scope::new();
        let outer = scope.mark();
        scope.declare(Some("p"), "urn:1");
        scope.declare(None, "urn:d");
        let inner = scope.mark();
        scope.declare(Some("p"), "urn:2");
        scope.declare(None, "");
        let uri = |scope: &mut Scope, p| {
            scope
                .lookup(p)
                .and_then(|ns| scope.uri(ns).map(str::to_owned))
        };
        assert_eq!(uri(&mut scope, Some("p")).as_deref(), Some("urn:2"));
        assert_eq!(uri(&mut scope, None), None);
        assert_eq!(uri(&mut scope, Some("xml")).as_deref(), Some(XML_NAMESPACE));
        scope.pop_to(inner);
        assert_eq!(uri(&mut scope, Some("p")).as_deref(), Some("urn:1"));
        assert_eq!(uri(&mut scope, None).as_deref(), Some("urn:d"));
        scope.pop_to(outer);
        assert_eq!(uri(&mut scope, Some("p")), None);
        assert_eq!(uri(&mut scope, None), None);
    }

    #[test]
    fn clearing_leaves_nothing_in_scope_whatever_was_open() {
        let mut scope = Scope::new();
        for open in [0, 1, 3] {
            scope.declare(Some("p"), "urn:1");
            scope.declare(None, "urn:d");
            let marks: Vec<Mark> = (0..open)
                .map(|i| {
                    let mark = scope.mark();
                    scope.declare(Some("p"), &format!("urn:{i}"));
                    scope.declare(Some(&format!("q{i}")), "urn:q");
                    mark
                })
                .collect();
            if let Some(&first) = marks.first() {
                scope.pop_to(first);
            }
            scope.clear();
            for prefix in ["p", "q0", "q1", "q2"] {
                assert_eq!(scope.lookup(Some(prefix)), None, "{open} {prefix}");
            }
            assert_eq!(scope.lookup(None), None);
            assert_eq!(scope.default_ns(), Ns::None);
            assert_eq!(scope.live, 0);
        }
    }

    #[test]
    fn prefixes_out_of_scope_are_pruned() {
        let mut scope = Scope::new();
        for i in 0..10_000 {
            let mark = scope.mark();
            scope.declare(Some(&format!("p{i}")), "urn:x");
            scope.pop_to(mark);
        }
        assert!(scope.innermost.len() <= 65, "{}", scope.innermost.len());
        assert_eq!(scope.live, 0);
    }
}
