//! Names a document declares for itself: the internal subset's general entities, which the
//! tree stage (`xml5::tree`) resolves and the tokenizer alone does not know. Handed to the
//! machine at the DOCTYPE, they make `&name;` no character reference to it: no
//! `unknown-named-character-reference` for `&project;`, no HTML reading of `&notice;` as `&not`
//! with its error. Empty (the tokenizer used alone, or no subset), it is one test per reference,
//! and only with parse errors on (the only time the machine reads references).

use std::cmp::Ordering;

use crate::span::Window;

/// The longest entity name a document may declare for the tree stage (a longer declaration is
/// skipped there): a reference is read that far ahead, at a chunk seam too.
pub(crate) const MAX_DECLARED_NAME: usize = 256;

/// The declared names, sorted, in one buffer; reused from document to document.
#[derive(Debug, Default)]
pub(crate) struct Declared {
    bytes: Vec<u8>,
    /// Each name's end in `bytes` (a name starts where the one before ends).
    ends: Vec<usize>,
    longest: usize,
}

/// What the bytes at a `&` are, for the declared names.
pub(super) enum Reference {
    /// `&name;` with a declared name: this many bytes, `&` and `;` included.
    Declared(usize),
    /// Anything else: a character reference as HTML reads it.
    Other,
    /// The window ends before that can be told.
    NeedMore,
}

impl Declared {
    /// Forget the names (a new document).
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
        self.longest = 0;
    }

    /// Take `names`, sorted and without repeats, as the document's declared names: those of at
    /// most [`MAX_DECLARED_NAME`] bytes (a reference is read that far at each seam until it is
    /// decided: without a bound a document built for it would make 1-byte feeds quadratic).
    pub(crate) fn set<'a>(&mut self, names: impl IntoIterator<Item = &'a [u8]>) {
        self.clear();
        for name in names
            .into_iter()
            .filter(|name| name.len() <= MAX_DECLARED_NAME)
        {
            self.bytes.extend_from_slice(name);
            self.ends.push(self.bytes.len());
            self.longest = self.longest.max(name.len());
        }
    }

    /// Whether there are none.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The name at `index`.
    fn name(&self, index: usize) -> &[u8] {
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i]);
        &self.bytes[start..self.ends[index]]
    }

    /// Whether `name` is declared (a binary search of the sorted names).
    fn contains(&self, name: &[u8]) -> bool {
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match self.name(mid).cmp(name) {
                Ordering::Less => low = mid + 1,
                Ordering::Greater => high = mid,
                Ordering::Equal => return true,
            }
        }
        false
    }

    /// What the bytes from the `&` at `amp` in `b` are: a declared name is read up to its `;`
    /// (at most the longest name's length on), never past a byte no name holds.
    pub(super) fn reference_at(&self, b: &Window, amp: usize) -> Reference {
        let rest = b.rest(amp);
        let reach = rest.len().min(self.longest + 2);
        for (i, &c) in rest.iter().enumerate().take(reach).skip(1) {
            match c {
                b';' if i > 1 && self.contains(&rest[1..i]) => return Reference::Declared(i + 1),
                b';' | b'&' | b'<' | b'>' | b'"' | b'\'' | b'\t' | b'\n' | b'\r' | b' ' => {
                    return Reference::Other;
                }
                _ => {}
            }
        }
        if reach < self.longest + 2 && !b.eof {
            Reference::NeedMore
        } else {
            Reference::Other
        }
    }
}
