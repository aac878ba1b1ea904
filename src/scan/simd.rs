//! The only `unsafe` in the crate: SSE2 block tests for x86_64 (SSE2 is part of the x86_64 baseline,
//! so no run-time detection is needed), turning bytes checked to be ASCII into `&str`, and a
//! prefetch hint.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _MM_HINT_T0, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_load_si128,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_prefetch, _mm_set1_epi8,
    _mm_setzero_si128,
};

/// `bytes` as a `&str` when they are all ASCII (which is always valid UTF-8), checked with the
/// word-at-a-time `is_ascii` and without the full UTF-8 validation; `None` otherwise.
#[inline]
pub(crate) fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if !bytes.is_ascii() {
        return None;
    }
    // SAFETY: every byte is ASCII (checked just above), and a sequence of ASCII bytes is valid
    // UTF-8. The tests compare this with `std::str::from_utf8`.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// `window[start..end]` as a `&str` when every byte of it is ASCII and none is marked by `bad_block`
/// (a lane mask for a 16-byte block) or `bad_byte`; otherwise the index in `window` of the first
/// byte that is not ASCII or is marked. Panics if `start..end` is not a range of `window`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn ascii_span(
    window: &[u8],
    start: usize,
    end: usize,
    bad_block: impl Fn(Block) -> u32,
    bad_byte: impl Fn(u8) -> bool,
) -> Result<&str, usize> {
    let part = &window[start..end];
    let block = |v| high_bits(v) | bad_block(v);
    if let Some(bad) = first_marked(window, start, end, block, |c| c >= 0x80 || bad_byte(c)) {
        return Err(bad);
    }
    // SAFETY: every byte of `part` was checked to be below 0x80 (the high-bit mask of a block whose
    // lanes cover it, or the scalar test), so the bytes are ASCII, which is valid UTF-8. The tests
    // compare this with a scalar check at every alignment and window size.
    Ok(unsafe { std::str::from_utf8_unchecked(part) })
}

/// `window[start..end]` as a `&str` when it is at most 16 bytes long, the window holds the 16
/// bytes from `start`, and every byte of it is ASCII and unmarked by `bad_block`; `None` otherwise
/// (the caller then asks [`ascii_span`]). One block test and no call: a leaf for short parts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn short_ascii_span(
    window: &[u8],
    start: usize,
    end: usize,
    bad_block: impl Fn(Block) -> u32,
) -> Option<&str> {
    short_ascii_span_marked(window, start, end, bad_block, |_| 0).map(|(part, _)| part)
}

/// [`short_ascii_span`], and the lanes of the part that `mark` marks in the same block (bit `i`
/// for the part's byte `i`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn short_ascii_span_marked(
    window: &[u8],
    start: usize,
    end: usize,
    bad_block: impl Fn(Block) -> u32,
    mark: impl Fn(Block) -> u32,
) -> Option<(&str, u32)> {
    // One compare each: a wrapped difference (an end before the start) is above 16 too.
    let len = end.wrapping_sub(start);
    if len > 16 {
        return None;
    }
    let block = window.get(start..)?.first_chunk::<16>()?;
    let v = load(block);
    let lanes = (1u32 << len) - 1;
    if (high_bits(v) | bad_block(v)) & lanes != 0 {
        return None;
    }
    let part = &block[..len];
    // SAFETY: every byte of `part` (the first `len` lanes of the block) was checked to be below
    // 0x80 by the high-bit mask, so the bytes are ASCII, which is valid UTF-8. The tests compare
    // this with a scalar check at every length and place in a window.
    let text = unsafe { std::str::from_utf8_unchecked(part) };
    Some((text, mark(v) & lanes))
}

/// The lanes of `window[start..end]` that `mark` marks (bit `i` for the part's byte `i`), when
/// the part is at most 16 bytes long and the window holds the 16 bytes from `start`: one block
/// test. `None` otherwise.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn short_lanes(
    window: &[u8],
    start: usize,
    end: usize,
    mark: impl Fn(Block) -> u32,
) -> Option<u32> {
    let len = end.wrapping_sub(start);
    if len > 16 {
        return None;
    }
    let block = window.get(start..)?.first_chunk::<16>()?;
    Some(mark(load(block)) & ((1u32 << len) - 1))
}

/// Index in `window` of the first byte of `window[start..end]` whose lane `test` marks in its block
/// (or that `is_marked` accepts, in a window shorter than a block). Panics if `start..end` is not a
/// range of `window`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn first_marked(
    window: &[u8],
    start: usize,
    end: usize,
    test: impl Fn(Block) -> u32,
    is_marked: impl Fn(u8) -> bool,
) -> Option<usize> {
    assert!(start <= end && end <= window.len());
    let mut at = start;
    while end - at >= 16 {
        let mask = test(load(&window[at..at + 16]));
        if mask != 0 {
            return Some(at + mask.trailing_zeros() as usize);
        }
        at += 16;
    }
    let mask = tail_lanes(window, at, end, test, is_marked);
    (mask != 0).then(|| at + mask.trailing_zeros() as usize)
}

/// The lanes `test` marks for the bytes of `window[at..end]`, fewer than 16: a part shorter than a
/// block, or the tail of a longer one, is tested in one block of the window around it, lanes outside
/// the part masked off (most parts are short, and the exit of a loop over their bytes is a branch the
/// processor mispredicts). A window shorter than a block is tested byte by byte with `is_marked`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn tail_lanes(
    window: &[u8],
    at: usize,
    end: usize,
    test: impl Fn(Block) -> u32,
    is_marked: impl Fn(u8) -> bool,
) -> u32 {
    let lanes = (1u32 << (end - at)) - 1;
    if let Some(block) = window.get(at..at + 16) {
        test(load(block)) & lanes
    } else if window.len() >= 16 {
        let from = window.len() - 16;
        test(load(&window[from..])) >> (at - from) & lanes
    } else {
        bytes_lanes(&window[at..end], is_marked)
    }
}

/// The lane mask `is_marked` gives `bytes`, fewer than 16, one by one: for windows shorter than a
/// block, which are rare (a tiny document), hence out of the way of the block tests.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn bytes_lanes(bytes: &[u8], is_marked: impl Fn(u8) -> bool) -> u32 {
    let marked = bytes.iter().map(|&c| is_marked(c));
    marked.rev().fold(0, |mask, m| mask << 1 | u32::from(m))
}

/// Calls `f` with the index in `window` of each byte of `window[start..end]` whose lane `test`
/// marks (or that `is_marked` accepts, in a window shorter than a block), in order. Each block is
/// tested once and its marks handed out from the mask, so that marks close together cost little.
/// Panics if `start..end` is not a range of `window`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn each_marked(
    window: &[u8],
    start: usize,
    end: usize,
    test: impl Fn(Block) -> u32,
    is_marked: impl Fn(u8) -> bool,
    mut f: impl FnMut(usize),
) {
    assert!(start <= end && end <= window.len());
    let mut at = start;
    loop {
        let mut mask = if end - at >= 16 {
            test(load(&window[at..at + 16]))
        } else {
            tail_lanes(window, at, end, &test, &is_marked)
        };
        while mask != 0 {
            f(at + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
        if end - at <= 16 {
            return;
        }
        at += 16;
    }
}

/// Lanes of `v` below `limit` as signed bytes (so every byte from 0x80 up is below), as a bit mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn below_signed(v: Block, limit: u8) -> u32 {
    // SAFETY: SSE2 is enabled for every x86_64 target; these intrinsics only read and write
    // registers.
    unsafe { _mm_movemask_epi8(_mm_cmplt_epi8(v.0, _mm_set1_epi8(limit as i8))) as u32 }
}

/// Lanes of `v` that hold an ASCII capital letter, as a bit mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn upper(v: Block) -> u32 {
    // SAFETY: SSE2 is enabled for every x86_64 target; these intrinsics only read and write
    // registers. Adding 0x3F maps `A..=Z` to 0x80..=0x99, the only bytes then below -102 signed.
    unsafe {
        let shifted = _mm_add_epi8(v.0, _mm_set1_epi8(0x3F));
        _mm_movemask_epi8(_mm_cmplt_epi8(shifted, _mm_set1_epi8(-102))) as u32
    }
}

/// Lanes of `v` that hold an ASCII letter, either case, as a bit mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn letters(v: Block) -> u32 {
    // SAFETY: SSE2 is enabled for every x86_64 target; these intrinsics only read and write
    // registers. Setting bit 5 maps `A..=Z` onto `a..=z` and no other byte into it; adding 0x1F
    // then maps `a..=z` to 0x80..=0x99, the only bytes then below -102 signed.
    unsafe {
        let folded = _mm_or_si128(v.0, _mm_set1_epi8(0x20));
        let shifted = _mm_add_epi8(folded, _mm_set1_epi8(0x1F));
        _mm_movemask_epi8(_mm_cmplt_epi8(shifted, _mm_set1_epi8(-102))) as u32
    }
}

/// The 16 bytes of `block` as a vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn load(block: &[u8]) -> Block {
    assert_eq!(block.len(), 16);
    // SAFETY: `block` holds exactly 16 bytes (asserted above; callers pass slices of 16 bytes, so
    // the check folds away), and `_mm_loadu_si128` has no alignment requirement; SSE2 is part of
    // the x86_64 baseline.
    Block(unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) })
}

/// The high bit of each byte of `v`, as a bit mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn high_bits(v: Block) -> u32 {
    // SAFETY: SSE2 is part of the x86_64 baseline; the intrinsic only reads a register.
    unsafe { _mm_movemask_epi8(v.0) as u32 }
}

/// A 16-byte vector with a lane mask per byte.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Block(__m128i);

/// Lanes of `v` equal to `needle`, as a bit mask (bit i for byte i).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn eq(v: Block, needle: u8) -> u32 {
    // SAFETY: SSE2 is enabled for every x86_64 target, so these intrinsics are available on any CPU
    // this code runs on; they only read and write registers.
    unsafe {
        let lanes = _mm_cmpeq_epi8(v.0, _mm_set1_epi8(needle as i8));
        _mm_movemask_epi8(lanes) as u32
    }
}

/// 16 bytes aligned as a vector, for constants that block tests read from memory.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Lanes([u8; 16]);

#[cfg(target_arch = "x86_64")]
impl Lanes {
    /// For each of `bytes`, that byte in every lane.
    pub(crate) const fn each<const N: usize>(bytes: [u8; N]) -> [Lanes; N] {
        let mut lanes = [Lanes([0; 16]); N];
        let mut i = 0;
        while i < N {
            lanes[i] = Lanes([bytes[i]; 16]);
            i += 1;
        }
        lanes
    }
}

/// Lanes of `v` equal to the same lane of one of `lanes`, as a bit mask: the compares OR-ed
/// together, one mask taken at the end.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn eq_any<const N: usize>(v: Block, lanes: &[Lanes; N]) -> u32 {
    // SAFETY: SSE2 is part of the x86_64 baseline; each `Lanes` is 16 bytes aligned to 16 (its
    // `repr`), which is what the aligned load reads; the other intrinsics only use registers.
    unsafe {
        let any = lanes.iter().fold(_mm_setzero_si128(), |any, l| {
            let l = _mm_load_si128(l.0.as_ptr().cast::<__m128i>());
            _mm_or_si128(any, _mm_cmpeq_epi8(v.0, l))
        });
        _mm_movemask_epi8(any) as u32
    }
}

/// When `hay` holds at least 16 bytes: the mask `test` computes for its first 16.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn first_block(hay: &[u8], test: impl Fn(Block) -> u32) -> Option<u32> {
    if hay.len() < 16 {
        return None;
    }
    // SAFETY: `hay` holds at least 16 bytes (checked above), so the unaligned 16-byte load reads
    // only bytes of `hay`; `_mm_loadu_si128` has no alignment requirement, and SSE2 is part of the
    // x86_64 baseline.
    let v = unsafe { _mm_loadu_si128(hay.as_ptr().cast::<__m128i>()) };
    Some(test(Block(v)))
}

/// Ask for the cache line that holds `slice[index]` (if there is one) ahead of its use. A hint
/// only: nothing is read into the program, and no index can fault.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(index) {
        // SAFETY: SSE is part of the x86_64 baseline; a prefetch of the address of an element of a
        // live slice touches no program-visible state (it cannot fault or change memory).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}
