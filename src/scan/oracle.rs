//! The scanner against its scalar oracle on any bytes, for the `scan` fuzz target (feature
//! `fuzzing`, as `tagstream::fuzzing`) and a unit test. Every search of this module's parent,
//! SIMD blocks and `memchr` included, must give what the obvious byte-by-byte loop gives, wherever
//! the haystack starts and ends in its buffer: so each is asked at every start in the first 64
//! bytes (every alignment of a block, and of a 64-byte line) and at every end in the last 64.

use std::fmt::{Arguments, Debug};

use super::{
    Changes, ascii_str, each_change, find_name_end, find1, find1_from, find2, find3,
    leading_space_or_nul, unchanged_span,
};

/// Panics, naming the search and the range, where a scanner search and its scalar oracle differ
/// on `bytes` with the needles `needles`.
pub fn check(bytes: &[u8], needles: [u8; 3]) {
    for (start, end) in ranges(bytes.len()) {
        check_searches(&bytes[start..end], needles);
        check_parts(bytes, start, end);
        let window = &bytes[..end];
        agree(
            format_args!("find1_from {start}"),
            window,
            find1_from(needles[0], window, start),
            window[start..]
                .iter()
                .position(|&x| x == needles[0])
                .map(|i| start + i),
        );
    }
}

/// The ranges checked: every start in the first 64 bytes with the whole rest, and every end in
/// the last 64 with the whole start.
fn ranges(len: usize) -> impl Iterator<Item = (usize, usize)> {
    let starts = (0..=len.min(64)).map(move |start| (start, len));
    let ends = (len.saturating_sub(64)..len).map(|end| (0, end));
    starts.chain(ends)
}

/// The searches over a haystack: one, two and three needles, name ends, leading whitespace.
fn check_searches(hay: &[u8], [a, b, c]: [u8; 3]) {
    let first = |is: &dyn Fn(u8) -> bool| hay.iter().position(|&x| is(x));
    agree(
        format_args!("find1"),
        hay,
        find1(a, hay),
        first(&|x| x == a),
    );
    agree(
        format_args!("find2"),
        hay,
        find2(a, b, hay),
        first(&|x| x == a || x == b),
    );
    let three = |x| x == a || x == b || x == c;
    agree(
        format_args!("find3"),
        hay,
        find3(a, b, c, hay),
        first(&three),
    );
    let name_end = |x| !(b'!'..0x80).contains(&x) || three(x);
    agree(
        format_args!("find_name_end"),
        hay,
        find_name_end(a, b, c, hay),
        first(&name_end),
    );
    check_leading_space_or_nul(hay);
    agree(
        format_args!("ascii_str"),
        hay,
        ascii_str(hay),
        std::str::from_utf8(hay).ok().filter(|s| s.is_ascii()),
    );
}

/// [`leading_space_or_nul`]: every whole block of the run of whitespace and NUL that `hay` starts
/// with (none where there are no SSE2 blocks), and whether there is a NUL among them.
pub(crate) fn check_leading_space_or_nul(hay: &[u8]) {
    let blank = |c: &&u8| matches!(c, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r' | 0);
    let run = hay.iter().take_while(blank).count();
    let blocks = if cfg!(target_arch = "x86_64") {
        run / 16 * 16
    } else {
        0
    };
    let expected = (blocks, hay[..blocks].contains(&0));
    agree(
        format_args!("leading_space_or_nul"),
        hay,
        leading_space_or_nul(hay),
        expected,
    );
}

/// The decoding checks over `window[start..end]`, for every kind of change.
fn check_parts(window: &[u8], start: usize, end: usize) {
    for changes in [Changes::Name, Changes::References, Changes::Plain] {
        let changed = |i: &usize| window[*i] >= 0x80 || changes.changes(window[*i]);
        let first = (start..end).find(changed);
        let expected = match first {
            Some(i) => Err(i),
            None => Ok(ascii_str(&window[start..end]).expect("ASCII")),
        };
        agree(
            format_args!("unchanged_span {changes:?} {start}..{end}"),
            window,
            unchanged_span(window, start, end, changes),
            expected,
        );
        let mut found = Vec::new();
        each_change(window, start, end, changes, |i| found.push(i));
        let ascii_changes = (start..end).filter(|&i| changes.changes(window[i]));
        agree(
            format_args!("each_change {changes:?} {start}..{end}"),
            window,
            found,
            ascii_changes.collect(),
        );
    }
}

/// Panics unless the scanner's answer `got` is the oracle's `expected` (`what` is formatted only
/// then).
fn agree<T: PartialEq + Debug>(what: Arguments<'_>, bytes: &[u8], got: T, expected: T) {
    assert!(
        got == expected,
        "{what} on {bytes:?}: the scanner says {got:?}, the scalar oracle {expected:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::check;

    /// The oracle holds on bytes built to sit around block edges: needles, whitespace runs, NULs
    /// and CRs, capitals and non-ASCII, at every length up to a few blocks.
    #[test]
    fn the_scanner_agrees_with_the_oracle_near_block_edges() {
        let pattern = b"  \t\n\0\r<a&>Z\x80-\"'=/ \r\n\x0C\0\0abc".repeat(5);
        let blank = [b" \t\n\r\x0C\0".repeat(8), b"x".to_vec()].concat();
        let lengths = if cfg!(miri) { 64..65 } else { 0..pattern.len() };
        for len in lengths {
            check(&pattern[..len], [b'<', b'&', b'>']);
            check(&blank[..len.min(blank.len())], [b'\0', b' ', b'x']);
        }
    }

    /// A mismatch panics, so that the checks above can fail.
    #[test]
    #[should_panic(expected = "the scanner says")]
    fn a_disagreement_panics() {
        super::agree(format_args!("identity"), b"x", 1, 2);
    }
}
