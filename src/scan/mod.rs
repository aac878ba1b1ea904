//! Scanner: finds the next byte that matters in a run of bytes that do not.
//!
//! Every hot state of the machine loops over bytes it merely skips (text, attribute values, comment
//! bodies, raw text) until it meets a byte of a small set. This module answers "where is the next byte
//! of set X". Runs in HTML are mostly short (an attribute value, a few words between tags), so the
//! searches for one to three bytes first test one 16-byte block inline with SSE2 (the x86_64 baseline,
//! no detection needed) and only then call `memchr`, which carries the long runs with AVX2 or NEON
//! chosen at run time, once. Larger sets use a 256-entry membership table; the writer's sets (what
//! it must escape or quote, up to a dozen bytes, [`ByteList`]) compare each block with every member.
//!
//! This is the one module where `unsafe` may appear (in `simd`), each block with a `// SAFETY:`
//! comment; the `scalar` functions and `std` are the oracles the tests compare it with.

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) mod oracle;
mod simd;

pub(crate) use simd::{ascii_str, prefetch};

/// A set of bytes, as a 256-entry membership table, built at compile time.
#[derive(Clone, Copy)]
pub(crate) struct ByteSet([bool; 256]);

impl ByteSet {
    /// The set holding exactly `bytes`.
    pub(crate) const fn of(bytes: &[u8]) -> ByteSet {
        let mut table = [false; 256];
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        ByteSet(table)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub(crate) const fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

/// A set of at most `N` bytes, listed (for block tests that compare with each) and as a table (for
/// bytes one at a time): for the writer, which searches strings that stand alone, not windows of
/// the input, for the next byte it must escape.
#[derive(Clone, Copy)]
pub(crate) struct ByteList<const N: usize> {
    /// Each member in every lane of a block, built at compile time: the block tests compare with
    /// them in memory, with nothing to set up per search.
    #[cfg(target_arch = "x86_64")]
    splats: [simd::Lanes; N],
    set: ByteSet,
}

impl<const N: usize> ByteList<N> {
    /// The set of `members` (a member may repeat, to fill the list).
    pub(crate) const fn of(members: [u8; N]) -> ByteList<N> {
        ByteList {
            #[cfg(target_arch = "x86_64")]
            splats: simd::Lanes::each(members),
            set: ByteSet::of(&members),
        }
    }
}

/// Index of the first byte of `hay` that is in `list`. With SSE2 on x86_64 16 bytes at a time, each
/// block compared with every member, and the tail of a `hay` of at least 16 in the block that ends
/// it; a shorter `hay` byte by byte through the table.
#[inline(always)]
pub(crate) fn find_listed<const N: usize>(list: &ByteList<N>, hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if hay.len() >= 16 {
        let test = |v| simd::eq_any(v, &list.splats);
        return simd::first_marked(hay, 0, hay.len(), test, |c| list.set.contains(c));
    }
    find_in_set(&list.set, hay)
}

/// Index in `window` of the first byte of `window[start..]` that is in `list`: for a string just
/// appended to a buffer, which is tested in blocks of 16 even when it is shorter, in the block that
/// ends the buffer (the bytes before it shifted out). With SSE2 on x86_64; byte by byte through
/// the table elsewhere, and in a buffer shorter than a block.
#[inline(always)]
pub(crate) fn find_listed_from<const N: usize>(
    list: &ByteList<N>,
    window: &[u8],
    start: usize,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        let test = |v| simd::eq_any(v, &list.splats);
        simd::first_marked(window, start, window.len(), test, |c| list.set.contains(c))
    }
    #[cfg(not(target_arch = "x86_64"))]
    find_in_set(&list.set, &window[start..]).map(|i| start + i)
}

/// Index in `window` of the first byte of `window[start..end]` that is in `list` or below `below`
/// taken as a signed byte: with `below` 0 the bytes from 0x80 up (non-ASCII: UTF-8 to check),
/// with 0x21 the ASCII controls and the space too. For the input's raw bytes, which the writer
/// copies when none of them needs a change; a part shorter than a block is tested in one block of
/// the window around it, as [`unchanged_span`] tests it.
#[inline(always)]
pub(crate) fn find_listed_or_below_in<const N: usize>(
    list: &ByteList<N>,
    below: u8,
    window: &[u8],
    start: usize,
    end: usize,
) -> Option<usize> {
    let is_marked = |c: u8| list.set.contains(c) || (c as i8) < (below as i8);
    #[cfg(target_arch = "x86_64")]
    {
        let test = |v| simd::eq_any(v, &list.splats) | simd::below_signed(v, below);
        simd::first_marked(window, start, end, test, is_marked)
    }
    #[cfg(not(target_arch = "x86_64"))]
    window[start..end]
        .iter()
        .position(|&c| is_marked(c))
        .map(|i| start + i)
}

/// Calls `f` with the index in `window` of each byte of `window[start..end]` that
/// [`find_listed_or_below_in`] marks, in order; each block tested once.
#[inline(always)]
pub(crate) fn each_listed_or_below_in<const N: usize>(
    list: &ByteList<N>,
    below: u8,
    window: &[u8],
    start: usize,
    end: usize,
    f: impl FnMut(usize),
) {
    let is_marked = |c: u8| list.set.contains(c) || (c as i8) < (below as i8);
    #[cfg(target_arch = "x86_64")]
    {
        let test = |v| simd::eq_any(v, &list.splats) | simd::below_signed(v, below);
        simd::each_marked(window, start, end, test, is_marked, f);
    }
    #[cfg(not(target_arch = "x86_64"))]
    (start..end).filter(|&i| is_marked(window[i])).for_each(f);
}

/// Calls `f` with the index of each byte of `hay` that is in `list`, in order: with SSE2 on x86_64
/// each block of 16 tested once (the tail of a `hay` of at least 16 in the block that ends it) and
/// its members handed out from the mask; a shorter `hay` byte by byte through the table.
#[inline(always)]
pub(crate) fn each_listed<const N: usize>(
    list: &ByteList<N>,
    hay: &[u8],
    mut f: impl FnMut(usize),
) {
    #[cfg(target_arch = "x86_64")]
    if hay.len() >= 16 {
        let test = |v| simd::eq_any(v, &list.splats);
        return simd::each_marked(hay, 0, hay.len(), test, |c| list.set.contains(c), f);
    }
    for (i, &c) in hay.iter().enumerate() {
        if list.set.contains(c) {
            f(i);
        }
    }
}

/// Index of the first byte of `hay` that is in `set`.
#[inline]
pub(crate) fn find_in_set(set: &ByteSet, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| set.contains(b))
}

/// What decoding changes in a part, besides non-ASCII bytes (see [`unchanged_span`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Changes {
    /// Names: NUL, CR and capital letters.
    Name,
    /// Text and attribute values with character references: NUL, CR and `&`.
    References,
    /// Everything else: NUL and CR.
    Plain,
}

impl Changes {
    /// Whether decoding changes the ASCII byte `c`.
    fn changes(self, c: u8) -> bool {
        c == 0
            || c == b'\r'
            || match self {
                Changes::Name => c.is_ascii_uppercase(),
                Changes::References => c == b'&',
                Changes::Plain => false,
            }
    }
}

/// The lane masks of the bytes each kind of [`Changes`] changes in a block (the same as
/// [`Changes::changes`] byte by byte).
#[cfg(target_arch = "x86_64")]
impl Changes {
    #[inline(always)]
    fn plain_lanes(v: simd::Block) -> u32 {
        simd::eq(v, 0) | simd::eq(v, b'\r')
    }

    #[inline(always)]
    fn name_lanes(v: simd::Block) -> u32 {
        Changes::plain_lanes(v) | simd::upper(v)
    }

    #[inline(always)]
    fn references_lanes(v: simd::Block) -> u32 {
        Changes::plain_lanes(v) | simd::eq(v, b'&')
    }

    #[inline(always)]
    fn lanes(self, v: simd::Block) -> u32 {
        match self {
            Changes::Name => Changes::name_lanes(v),
            Changes::References => Changes::references_lanes(v),
            Changes::Plain => Changes::plain_lanes(v),
        }
    }
}

/// Calls `f` with the index in `window` of each byte of `window[start..end]` that decoding under
/// `changes` changes, in order. With SSE2 on x86_64 each block of 16 is tested once (the tail as
/// [`unchanged_span`] tests it) and the changes in it handed out from its mask.
#[inline(always)]
pub(crate) fn each_change(
    window: &[u8],
    start: usize,
    end: usize,
    changes: Changes,
    f: impl FnMut(usize),
) {
    // One loop, the kind of change looked up in each block (an instance per kind would leave `f`
    // out of line).
    #[cfg(target_arch = "x86_64")]
    simd::each_marked(
        window,
        start,
        end,
        |v| changes.lanes(v),
        |c| changes.changes(c),
        f,
    );
    #[cfg(not(target_arch = "x86_64"))]
    window[start..end]
        .iter()
        .enumerate()
        .filter(|&(_, &c)| changes.changes(c))
        .for_each(|(i, _)| f(start + i));
}

/// `window[start..end]` as a `&str` when decoding would leave it as it is: ASCII, and no byte that
/// `changes` names; otherwise the index in `window` of the first byte that is not ASCII or that
/// decoding changes. One pass, 16 bytes at a time with SSE2 on x86_64, the tail of a part (all of
/// a short one) tested in one block of the window around it.
#[inline(always)]
pub(crate) fn unchanged_span(
    window: &[u8],
    start: usize,
    end: usize,
    changes: Changes,
) -> Result<&str, usize> {
    #[cfg(target_arch = "x86_64")]
    {
        let byte = |c| changes.changes(c);
        match changes {
            Changes::Name => simd::ascii_span(window, start, end, Changes::name_lanes, byte),
            Changes::References => {
                simd::ascii_span(window, start, end, Changes::references_lanes, byte)
            }
            Changes::Plain => simd::ascii_span(window, start, end, Changes::plain_lanes, byte),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let part = &window[start..end];
        match part.iter().position(|&c| c >= 0x80 || changes.changes(c)) {
            Some(i) => Err(start + i),
            None => ascii_str(part).ok_or(start),
        }
    }
}

/// [`unchanged_span`]'s answer for a short part, when one block test gives it: `Some` when
/// `window[start..end]` is at most 16 bytes long, the window holds the 16 bytes from `start`, and
/// decoding under `changes` leaves the part as it is; `None` otherwise (then ask
/// [`unchanged_span`]). No loop and no call, so that a caller's fast path can be a leaf.
#[inline(always)]
pub(crate) fn short_unchanged_span(
    window: &[u8],
    start: usize,
    end: usize,
    changes: Changes,
) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    {
        simd::short_ascii_span(window, start, end, |v| changes.lanes(v))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (window, start, end, changes);
        None
    }
}

/// [`short_unchanged_span`], and where `byte` is in the part (bit `i` for its byte `i`), read
/// from the same block: an XML name and its colons in one test.
#[inline(always)]
pub(crate) fn short_unchanged_span_and_lanes(
    window: &[u8],
    start: usize,
    end: usize,
    changes: Changes,
    byte: u8,
) -> Option<(&str, u32)> {
    #[cfg(target_arch = "x86_64")]
    {
        simd::short_ascii_span_marked(
            window,
            start,
            end,
            |v| changes.lanes(v),
            |v| simd::eq(v, byte),
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (window, start, end, changes, byte);
        None
    }
}

/// Where `byte` is in `window[start..end]` (bit `i` for the part's byte `i`) when the part is
/// at most 16 bytes long and the window holds the 16 bytes from `start`: one block test, no
/// loop. `None` otherwise (the caller then looks byte by byte).
#[inline(always)]
pub(crate) fn short_byte_lanes(window: &[u8], start: usize, end: usize, byte: u8) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    {
        simd::short_lanes(window, start, end, |v| simd::eq(v, byte))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (window, start, end, byte);
        None
    }
}

/// The bytes of `block` (16 of them) that are ASCII letters, as a bit mask (bit i for byte i):
/// one test for a short name, where a loop over its bytes would end in a mispredicted branch.
#[inline(always)]
pub(crate) fn letter_lanes(block: &[u8; 16]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        simd::letters(simd::load(block))
    }
    #[cfg(not(target_arch = "x86_64"))]
    block
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Whether `b` is an ASCII letter, digit, `.` or `-`: the SGML note's name characters.
#[inline(always)]
pub(crate) const fn is_sgml_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// How many bytes at the start of `hay` are [SGML name characters](is_sgml_name_char). 16 bytes
/// at a time with SSE2 on x86_64: names and name tokens are short and of every length, and the
/// exit of a loop over their bytes is a branch the processor mispredicts.
#[inline(always)]
pub(crate) fn leading_sgml_name_chars(hay: &[u8]) -> usize {
    let mut at = 0;
    #[cfg(target_arch = "x86_64")]
    while let Some(block) = hay.get(at..at + 16) {
        let v = simd::load(block);
        // `-` `.` `/` and the digits are 0x2D..=0x39; `/` is not a name character.
        let punct_or_digit = simd::below_signed(v, b':') & !simd::below_signed(v, b'-');
        let name = simd::letters(v) | (punct_or_digit & !simd::eq(v, b'/'));
        let stop = !name & 0xFFFF;
        if stop != 0 {
            return at + stop.trailing_zeros() as usize;
        }
        at += 16;
    }
    let tail = &hay[at..];
    at + tail
        .iter()
        .position(|&b| !is_sgml_name_char(b))
        .unwrap_or(tail.len())
}

/// Position of the first byte of `hay` that is a space or control character (below `!`), not
/// ASCII, or one of `a`, `b`, `c`: a superset of the bytes that end a tag name or an attribute
/// name, for callers that check the byte found. 16 bytes at a time with SSE2 on x86_64 (one
/// signed compare takes both ends of the byte range): names are short, and the exit of a loop over
/// their bytes is a branch the processor mispredicts.
#[inline(always)]
pub(crate) fn find_name_end(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    let is_end = |x: u8| !(b'!'..0x80).contains(&x) || x == a || x == b || x == c;
    #[cfg(target_arch = "x86_64")]
    {
        let test =
            |v| simd::below_signed(v, b'!') | simd::eq(v, a) | simd::eq(v, b) | simd::eq(v, c);
        // Most names end within their first block: that one is looked at before any loop.
        let mut at = 0;
        if let Some(mask) = simd::first_block(hay, test) {
            if mask != 0 {
                return Some(mask.trailing_zeros() as usize);
            }
            at = 16;
        }
        while hay.len() - at >= 16 {
            let mask = test(simd::load(&hay[at..at + 16]));
            if mask != 0 {
                return Some(at + mask.trailing_zeros() as usize);
            }
            at += 16;
        }
        hay[at..].iter().position(|&x| is_end(x)).map(|i| at + i)
    }
    #[cfg(not(target_arch = "x86_64"))]
    hay.iter().position(|&x| is_end(x))
}

/// How many bytes at the start of `hay` are, in whole blocks of 16, ASCII whitespace (TAB, LF,
/// FF, CR, space) or NUL, and whether there was a NUL among them: the caller reads on from there
/// byte by byte. For the tree-builder simulator, which asks whether a text token in the head of a
/// document is whitespace only (a storm of NULs or CRs is one such token, megabytes long). On
/// targets without SSE2 blocks: none.
pub(crate) fn leading_space_or_nul(hay: &[u8]) -> (usize, bool) {
    let (mut at, mut nul) = (0, false);
    #[cfg(target_arch = "x86_64")]
    while let Some(block) = hay.get(at..at + 16) {
        let v = simd::load(block);
        let zero = simd::eq(v, 0);
        let space = simd::eq(v, b' ') | simd::eq(v, b'\t') | simd::eq(v, b'\n');
        if (zero | space | simd::eq(v, b'\x0C') | simd::eq(v, b'\r')) != 0xFFFF {
            break;
        }
        nul |= zero != 0;
        at += 16;
    }
    (at, nul)
}

/// Index of the first `a` in `hay`. The first 16 bytes are looked at inline (the text between
/// two tags is often that short), the next [`FIND1_BLOCKS`] blocks of 16 in a loop out of line;
/// past them, memchr takes over (whose setup costs more than a few blocks).
#[inline(always)]
pub(crate) fn find1(a: u8, hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(mask) = simd::first_block(hay, |v| simd::eq(v, a)) {
        if mask != 0 {
            return Some(mask.trailing_zeros() as usize);
        }
        return find1_after_first_block(a, hay);
    }
    short_or_rest(hay, |c| c == a, || memchr::memchr(a, hay))
}

/// Index in `window` of the first `a` at or after `from`. A short tail of a window of at least 16
/// bytes is tested in the block that ends the window, not byte by byte: for searches that start
/// near a window's end (a tag the window cuts off).
pub(crate) fn find1_from(a: u8, window: &[u8], from: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if window.len() - from < 16 && window.len() >= 16 {
        let mask = last_block(window, from, |v| simd::eq(v, a));
        return (mask != 0).then(|| from + mask.trailing_zeros() as usize);
    }
    find1(a, &window[from..]).map(|i| from + i)
}

/// How many 16-byte blocks [`find1`] tests itself after the first.
#[cfg(target_arch = "x86_64")]
const FIND1_BLOCKS: usize = 5;

/// [`find1`] past the first block of `hay` (which holds at least one). Fewer than 16 bytes left
/// (at the end of a window) are tested in the block that ends with `hay`, not by memchr, whose
/// byte loop for them costs a call and a branch a byte.
#[cfg(target_arch = "x86_64")]
fn find1_after_first_block(a: u8, hay: &[u8]) -> Option<usize> {
    let mut at = 16;
    for _ in 0..FIND1_BLOCKS {
        let Some(block) = hay.get(at..at + 16) else {
            let mask = last_block(hay, at, |v| simd::eq(v, a));
            return (mask != 0).then(|| at + mask.trailing_zeros() as usize);
        };
        let mask = simd::eq(simd::load(block), a);
        if mask != 0 {
            return Some(at + mask.trailing_zeros() as usize);
        }
        at += 16;
    }
    memchr::memchr(a, &hay[at..]).map(|i| at + i)
}

/// The mask `test` computes for `hay[at..]`, fewer than 16 bytes at the end of a `hay` of at least
/// 16 (bit 0 for `hay[at]`): tested in the one block that ends with `hay`, whose first bytes, before
/// `at`, are shifted out.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn last_block(hay: &[u8], at: usize, test: impl Fn(simd::Block) -> u32) -> u32 {
    let start = hay.len() - 16;
    test(simd::load(&hay[start..])) >> (at - start)
}

/// Index of the first `a` or `b` in `hay`.
#[inline(always)]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(mask) = simd::first_block(hay, |v| simd::eq(v, a) | simd::eq(v, b)) {
        return found_or_rest(mask, || memchr::memchr2(a, b, &hay[16..]));
    }
    short_or_rest(hay, |c| c == a || c == b, || memchr::memchr2(a, b, hay))
}

/// Index of the first `a`, `b` or `c` in `hay`.
#[inline(always)]
pub(crate) fn find3(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(mask) = simd::first_block(hay, |v| simd::eq(v, a) | simd::eq(v, b) | simd::eq(v, c))
    {
        return found_or_rest(mask, || memchr::memchr3(a, b, c, &hay[16..]));
    }
    short_or_rest(
        hay,
        |x| x == a || x == b || x == c,
        || memchr::memchr3(a, b, c, hay),
    )
}

/// The first block's match mask is `mask`: its lowest set bit, or the rest's search shifted by 16.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn found_or_rest(mask: u32, rest: impl FnOnce() -> Option<usize>) -> Option<usize> {
    if mask != 0 {
        Some(mask.trailing_zeros() as usize)
    } else {
        rest().map(|i| i + 16)
    }
}

/// Haystacks shorter than a block are scanned byte by byte; on other targets, longer ones go to
/// `long` (memchr) directly.
#[inline(always)]
fn short_or_rest(
    hay: &[u8],
    is_match: impl Fn(u8) -> bool,
    long: impl FnOnce() -> Option<usize>,
) -> Option<usize> {
    if hay.len() < 16 {
        hay.iter().position(|&c| is_match(c))
    } else {
        long()
    }
}

/// The obviously correct versions, for the tests.
#[cfg(test)]
mod scalar {
    pub(super) fn find(hay: &[u8], needles: &[u8]) -> Option<usize> {
        hay.iter().position(|c| needles.contains(c))
    }
}

/// Under Miri, which runs them about a thousand times slower, the tests below try every alignment
/// in a block and the lengths around block edges instead of every start and length, and fewer
/// random cases.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::cases;

    /// Where a haystack starts in its buffer: every place natively, each alignment in a block (and
    /// the next block's first) under Miri.
    fn starts() -> std::ops::Range<usize> {
        if cfg!(miri) { 0..17 } else { 0..40 }
    }

    /// The numbers below `end` (lengths, or offsets in a window): all of them natively; under Miri
    /// the first four and those one either side of a multiple of the block size.
    fn near_block_edges(end: usize) -> impl Iterator<Item = usize> {
        (0..end).filter(|len| !cfg!(miri) || *len < 4 || matches!(len % 16, 0 | 1 | 15))
    }

    /// A reproducible byte soup, mostly bytes that are not searched for.
    fn soup(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 64 {
                    0 => b'<',
                    1 => b'&',
                    2 => 0,
                    3 => 0xFF,
                    n => b'a' + (n % 26) as u8,
                }
            })
            .collect()
    }

    #[test]
    fn leading_sgml_name_chars_agree_with_the_byte_rule() {
        let every_byte: Vec<u8> = (0..=255).collect();
        for stop in every_byte
            .iter()
            .copied()
            .filter(|&b| !is_sgml_name_char(b))
        {
            for len in near_block_edges(40) {
                let mut hay: Vec<u8> = b"aZ09.-".iter().cycle().take(len).copied().collect();
                assert_eq!(leading_sgml_name_chars(&hay), len);
                hay.extend_from_slice(&[stop, b'a']);
                assert_eq!(leading_sgml_name_chars(&hay), len, "stop {stop:#x}");
            }
        }
        for start in starts() {
            let hay = soup(start as u64, 64);
            let expected = hay.iter().position(|&b| !is_sgml_name_char(b));
            let got = leading_sgml_name_chars(&hay);
            assert_eq!(got, expected.unwrap_or(hay.len()), "{hay:?}");
        }
    }

    #[test]
    fn listed_search_agrees_with_the_scalar_oracle_at_every_length_and_alignment() {
        let base = soup(11, 200);
        let list = ByteList::of([b'<', b'&', 0, 0xFF, b'q', b'q']);
        for start in starts() {
            for len in near_block_edges((base.len() - start).min(120)) {
                let hay = &base[start..start + len];
                let expected = scalar::find(hay, b"<&\0\xFFq");
                assert_eq!(find_listed(&list, hay), expected, "{start} {len}");
                let window = &base[..start + len];
                let from = find_listed_from(&list, window, start);
                assert_eq!(from, expected.map(|i| start + i), "{start} {len}");
                for below in [0u8, 0x21] {
                    let marked = |c: u8| b"<&\0\xFFq".contains(&c) || (c as i8) < (below as i8);
                    let all: Vec<usize> =
                        (start..start + len).filter(|&i| marked(base[i])).collect();
                    // A window reaching past the part, as the input's windows do.
                    let end = start + len;
                    let got = find_listed_or_below_in(&list, below, &base, start, end);
                    assert_eq!(got, all.first().copied(), "{start} {len} {below}");
                    let got = find_listed_or_below_in(&list, below, window, start, end);
                    assert_eq!(got, all.first().copied(), "{start} {len} {below}");
                    let mut each = Vec::new();
                    each_listed_or_below_in(&list, below, &base, start, end, |i| each.push(i));
                    assert_eq!(each, all, "{start} {len} {below}");
                }
                let mut each = Vec::new();
                each_listed(&list, hay, |i| each.push(i));
                let all: Vec<usize> = (0..len)
                    .filter(|&i| b"<&\0\xFFq".contains(&hay[i]))
                    .collect();
                assert_eq!(each, all, "{start} {len}");
            }
        }
    }

    #[test]
    fn searches_agree_with_the_scalar_oracle_at_every_length_and_alignment() {
        let base = soup(7, 200);
        for start in starts() {
            for len in near_block_edges((base.len() - start).min(120)) {
                let hay = &base[start..start + len];
                assert_eq!(find1(b'<', hay), scalar::find(hay, b"<"), "{start} {len}");
                assert_eq!(
                    find2(b'<', b'&', hay),
                    scalar::find(hay, b"<&"),
                    "{start} {len}"
                );
                assert_eq!(
                    find3(b'<', b'&', 0, hay),
                    scalar::find(hay, b"<&\0"),
                    "{start} {len}"
                );
                assert_eq!(find3(0xFF, b'z', b'q', hay), scalar::find(hay, b"\xFFzq"));
                let window = &base[..start + len];
                assert_eq!(
                    find1_from(b'<', window, start),
                    scalar::find(hay, b"<").map(|i| start + i),
                    "{start} {len}"
                );
            }
        }
    }

    #[test]
    fn letter_lanes_marks_exactly_the_ascii_letters() {
        // Every byte value, 16 at a time, in every lane.
        for first in (0..=255u8).step_by(16) {
            for shift in 0..16 {
                let block: [u8; 16] =
                    std::array::from_fn(|i| first.wrapping_add(((i + shift) % 16) as u8));
                let scalar = (0..16)
                    .filter(|&i| block[i].is_ascii_alphabetic())
                    .fold(0, |mask, i| mask | 1 << i);
                assert_eq!(letter_lanes(&block), scalar, "{block:?}");
            }
        }
    }

    #[test]
    fn leading_space_or_nul_agrees_with_the_scalar_oracle() {
        let bytes = [b' ', b'\t', b'\n', b'\x0C', b'\r', 0, b'x', b'&', 0x80];
        let mut x = 99u64;
        for len in near_block_edges(100) {
            for _ in 0..cases(50, 4) {
                // Mostly whitespace and NUL, so that runs of whole blocks occur.
                let hay: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let other = x.is_multiple_of(40);
                        bytes[if other {
                            6 + (x / 40 % 3) as usize
                        } else {
                            (x % 6) as usize
                        }]
                    })
                    .collect();
                oracle::check_leading_space_or_nul(&hay);
            }
        }
    }

    #[test]
    fn a_match_at_every_position_of_long_haystacks_is_found() {
        for len in [15, 16, 17, 31, 32, 33, 63, 64, 65, 200] {
            for at in 0..len {
                let mut hay = vec![b'x'; len];
                hay[at] = b'<';
                assert_eq!(find1(b'<', &hay), Some(at));
                assert_eq!(find2(b'>', b'<', &hay), Some(at));
                assert_eq!(find3(b'>', b'&', b'<', &hay), Some(at));
            }
            assert_eq!(find1(b'<', &vec![b'x'; len]), None);
        }
    }

    #[test]
    fn name_ends_agree_with_the_scalar_oracle_at_every_length_and_alignment() {
        let oracle = |hay: &[u8]| {
            hay.iter()
                .position(|&c| c <= b' ' || c >= 0x80 || b"/>=".contains(&c))
        };
        let mut base = soup(11, 300);
        for (i, c) in base.iter_mut().enumerate() {
            // Mostly name bytes, with every kind of end now and then.
            if !i.is_multiple_of(7) {
                *c = b'a' + (*c % 26);
            } else {
                *c = [
                    b' ', b'\t', 0, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xFF, b'/', b'>', b'=',
                ][i % 12];
            }
        }
        for start in starts() {
            for len in near_block_edges((base.len() - start).min(150)) {
                let hay = &base[start..start + len];
                assert_eq!(
                    find_name_end(b'/', b'>', b'=', hay),
                    oracle(hay),
                    "{start} {len}"
                );
            }
        }
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 100] {
            assert_eq!(find_name_end(b'/', b'>', b'=', &vec![b'x'; len]), None);
        }
    }

    #[test]
    fn random_haystacks_agree_with_the_oracle() {
        for seed in 1..cases(300, 40) {
            let hay = soup(seed, (seed as usize * 7) % 97);
            assert_eq!(find1(b'&', &hay), scalar::find(&hay, b"&"));
            assert_eq!(find2(0, 0xFF, &hay), scalar::find(&hay, b"\0\xFF"));
            assert_eq!(find3(b'<', b'&', 0, &hay), scalar::find(&hay, b"<&\0"));
        }
    }

    #[test]
    fn ascii_str_agrees_with_from_utf8_on_ascii_and_refuses_the_rest() {
        for seed in 1..cases(200, 40) {
            let hay = soup(seed, (seed as usize * 13) % 120);
            match ascii_str(&hay) {
                Some(s) => assert_eq!(Ok(s), std::str::from_utf8(&hay)),
                None => assert!(!hay.is_ascii()),
            }
        }
        assert_eq!(ascii_str("é".as_bytes()), None);
        assert_eq!(ascii_str(b""), Some(""));
    }

    #[test]
    fn unchanged_spans_and_changes_agree_with_a_scalar_check_at_every_alignment_and_window_size() {
        let first = |window: &[u8], start: usize, end: usize, marked: &dyn Fn(u8) -> bool| {
            window[start..end]
                .iter()
                .position(|&c| marked(c))
                .map(|i| start + i)
        };
        for seed in 1..cases(60, 2) {
            let mut window = soup(seed, 70);
            for (i, c) in window.iter_mut().enumerate() {
                if !(i + seed as usize).is_multiple_of(5) {
                    *c = b'a' + (*c % 26);
                } else if i % 3 == 0 {
                    *c = [b'A', b'Z', b'@', b'[', b'\r', b'&', 0, 0x80, b'z'][i % 9];
                }
            }
            for len in [0, 1, 5, 15, 16, 17, 31, 40, 70] {
                let window = &window[..len];
                for start in near_block_edges(len + 1) {
                    for end in near_block_edges(len.min(start + 40) + 1 - start).map(|n| start + n)
                    {
                        for changes in [Changes::Name, Changes::References, Changes::Plain] {
                            let part = &window[start..end];
                            let bad =
                                first(window, start, end, &|c| c >= 0x80 || changes.changes(c));
                            let want = bad.map_or(Ok(part), Err);
                            assert_eq!(
                                unchanged_span(window, start, end, changes).map(str::as_bytes),
                                want,
                                "{changes:?} {part:?}"
                            );
                            // The short test answers for a short part in a whole block (on
                            // x86_64), and then as the full one.
                            let short = short_unchanged_span(window, start, end, changes);
                            let answers = cfg!(target_arch = "x86_64")
                                && end - start <= 16
                                && start + 16 <= len
                                && want.is_ok();
                            assert_eq!(short.is_some(), answers, "{changes:?} {part:?}");
                            if let Some(short) = short {
                                assert_eq!(Ok(short.as_bytes()), want, "{changes:?} {part:?}");
                            }
                            // And with the lanes of a byte, from the same block or alone.
                            let b = part.first().copied().unwrap_or(b'a');
                            let lanes = part
                                .iter()
                                .enumerate()
                                .filter(|&(i, &c)| c == b && i < 32)
                                .fold(0u32, |mask, (i, _)| mask | 1 << i);
                            let marked =
                                short_unchanged_span_and_lanes(window, start, end, changes, b);
                            assert_eq!(marked, short.map(|s| (s, lanes)), "{changes:?} {part:?}");
                            let alone = short_byte_lanes(window, start, end, b);
                            let whole_block = end - start <= 16 && start + 16 <= len;
                            let answers = cfg!(target_arch = "x86_64") && whole_block;
                            assert_eq!(alone, answers.then_some(lanes), "{part:?}");
                            let all: Vec<usize> = (start..end)
                                .filter(|&i| changes.changes(window[i]))
                                .collect();
                            let mut each = Vec::new();
                            each_change(window, start, end, changes, |i| each.push(i));
                            assert_eq!(each, all, "{changes:?} {part:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn prefetch_takes_any_index() {
        let table = vec![7u64; 1000];
        for index in [0, 1, 999, 1000, usize::MAX] {
            prefetch(&table, index);
        }
        prefetch::<u64>(&[], 0);
        assert!(table.iter().all(|&x| x == 7));
    }

    #[test]
    fn sets_match_their_table() {
        let set = ByteSet::of(b"<>&\0\x08");
        let hay = b"abc def\x09ghi&<";
        assert_eq!(find_in_set(&set, hay), Some(11));
        assert_eq!(find_in_set(&set, b"plain"), None);
    }
}
