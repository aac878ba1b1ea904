//! Test helpers shared by the unit tests of the input modules and the scanner: sample inputs
//! covering every kind of UTF-8 sequence and error, every way to split an input into chunks, a tiny
//! deterministic PRNG, and an independent reference decoding built on std's `utf8_chunks`.
//!
//! Under Miri, which runs the tests about a thousand times slower, the exhaustive helpers give a
//! smaller but still covering set ([`splits`], [`code_points`]) and randomized tests run fewer
//! [`cases`].

/// Strings (valid and not) that cover every kind of sequence and error, newlines and controls.
pub(crate) fn samples() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        &b""[..],
        b"a",
        b"hello, world",
        b"ab\ncd",
        b"\r\n",
        b"a\rb\r\nc\n\rd\n\ne\r\rf",
        b"\r\r\n\n\r",
        "é€😀\u{10FFFF}\u{FFFF}\u{80}".as_bytes(),
        "a<b>ü</b>😀x\r\n".as_bytes(),
        "\u{1}\u{8}\t\n\u{B}\u{C}\r\u{E}\u{1F} \u{7E}\u{7F}\u{80}\u{9F}\u{A0}\0".as_bytes(),
        "\u{FDCF}\u{FDD0}\u{FDEF}\u{FDF0}\u{FFFD}\u{FFFE}\u{FFFF}\u{1FFFE}\u{2FFFF}\u{10FFFE}"
            .as_bytes(),
        b"\x80",
        b"a\x80b",
        b"\xBF\xBF",
        b"\xC2",
        b"a\xC2",
        b"\xC2\r\n",
        b"\xC3\xA9\xC3",
        b"\xE2\x82",
        b"\xE2\x82a",
        b"\xE2\r\x82\n",
        b"\xF0\x9F\x98",
        b"\xF0\x9F\x98a",
        b"\xF0\x9F\x98\r\n",
        b"\xC0\x80",
        b"\xC1\xBF",
        b"\xE0\x80\x80",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xED\xBF\xBF",
        b"\xF0\x80\x80\x80",
        b"\xF0\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xF8\x88\x80\x80\x80",
        b"\xFE\xFF",
        b"\xFF",
        b"\xEF\xB7\x90\xEF\xB7",
        b"\xEF\xBF\xBE\xEF\xBF\xC2\x9F",
        b"\xF4\x8F\xBF\xBF\xF4\x8F\xBF",
        b"\xC2\x80\xC2\x9F\xC2\xA0\xC2",
        b"ok\xE2\x82\xACok\xF0\x9F\x98\x80ok",
    ]
    .iter()
    .map(|s| s.to_vec())
    .collect();
    // Longer runs with an error or newline late, so that the bulk paths are exercised too (under
    // Miri, a third as long: still several blocks).
    let mut long = "Grüße, 世界! 😀 ".repeat(cases(12, 4)).into_bytes();
    v.push(long.clone());
    long.push(0xE2);
    v.push(long.clone());
    long.extend_from_slice(b"\x82\xACmore\r\nline two\rthree\x7F");
    v.push(long.clone());
    long.insert(50, 0xFF);
    long.insert(20, b'\n');
    v.push(long);
    v.push(b"<p class=x>\n  text\t\x01\r\n</p>\n".repeat(cases(4, 2)));
    v
}

/// Every way of cutting `s` into two chunks, every way into three (for `s` of at most 40 bytes),
/// `s` whole, and `s` in one-byte chunks. Under Miri: three chunks only for `s` of at most 8
/// bytes, and two only at offsets next to a multiple of 16 in `s` longer than 40.
pub(crate) fn splits(s: &[u8]) -> Vec<Vec<&[u8]>> {
    let three_ways_up_to = if cfg!(miri) { 8 } else { 40 };
    let near_block_edge = |i: usize| matches!(i % 16, 0 | 1 | 15);
    let mut out = vec![vec![s], s.chunks(1).collect()];
    for i in 0..=s.len() {
        if cfg!(miri) && s.len() > 40 && !near_block_edge(i) {
            continue;
        }
        out.push(vec![&s[..i], &s[i..]]);
        if s.len() <= three_ways_up_to {
            for j in i..=s.len() {
                out.push(vec![&s[..i], &s[i..j], &s[j..]]);
            }
        }
    }
    out
}

/// xorshift64: a deterministic pseudo-random sequence for randomized tests.
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Bytes that make tricky UTF-8, newlines and controls when strung together at random.
pub(crate) const TRICKY: &[u8] =
    b"a \r\n\x01\x0B\x0C\x7F\x80\x8F\x90\x9F\xA0\xB7\xBE\xBF\xC0\xC2\xC3\xDF\xE0\xE2\xED\xEF\xF0\xF1\xF4\xF5\xFF";

/// A random string of `len` bytes drawn from `alphabet`.
pub(crate) fn random_bytes(rng: &mut u64, alphabet: &[u8], len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| alphabet[(xorshift(rng) % alphabet.len() as u64) as usize])
        .collect()
}

/// The units the WHATWG UTF-8 decoder makes of `bytes`, as `(start, end, char)` with U+FFFD for
/// each maximal invalid subpart; computed with std's `utf8_chunks`, independently of this crate.
pub(crate) fn reference_units(bytes: &[u8]) -> Vec<(usize, usize, char)> {
    let mut out = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            out.push((at + i, at + i + c.len_utf8(), c));
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            out.push((at, at + chunk.invalid().len(), '\u{FFFD}'));
            at += chunk.invalid().len();
        }
    }
    out
}

/// How many cases a randomized test runs (or how big an input is): `native`, or `miri` under
/// Miri. The scanner's tests use it too.
pub(crate) fn cases<T>(native: T, miri: T) -> T {
    if cfg!(miri) { miri } else { native }
}

/// Every scalar value natively. Under Miri: all below U+0100 (every control), U+FDC0 to U+FDFF
/// (the noncharacters U+FDD0 to U+FDEF), the last four code points of every plane (its two
/// noncharacters) and one in 4099 of the rest, so that each character a check reports is
/// still there, once.
pub(crate) fn code_points() -> Vec<char> {
    let mut all: Vec<u32> = if cfg!(miri) {
        let plane_ends =
            (0..=16u32).flat_map(|plane| (plane << 16 | 0xFFFC)..=(plane << 16 | 0xFFFF));
        (0..0x100)
            .chain(0xFDC0..0xFE00)
            .chain(plane_ends)
            .chain((0..=0x10FFFF).step_by(4099))
            .collect()
    } else {
        (0..=0x10FFFF).collect()
    };
    all.sort_unstable();
    all.dedup();
    all.into_iter().filter_map(char::from_u32).collect()
}
