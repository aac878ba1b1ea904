//! The only `unsafe` in the crate: SSE2 block tests for x86_64 (SSE2 is part of the x86_64 baseline,
//! so no run-time detection is needed), and turning bytes checked to be ASCII into `&str`.

use super::ByteSet;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
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

/// `bytes` as a `&str` when every byte is ASCII and none is in `set`; `None` otherwise. One pass
/// (a table lookup per byte), for short strings such as names.
#[inline]
pub(crate) fn ascii_str_outside<'a>(bytes: &'a [u8], set: &ByteSet) -> Option<&'a str> {
    if bytes.iter().any(|&c| c >= 0x80 || set.contains(c)) {
        return None;
    }
    // SAFETY: every byte is below 0x80 (checked just above), so the bytes are ASCII, which is
    // valid UTF-8. The tests compare this with `std::str::from_utf8`.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// `bytes` as a `&str` when every byte is ASCII and none is `a`, `b` or `c`; `None` otherwise. One
/// pass, 16 bytes at a time with SSE2 on x86_64 (the high bit of each byte comes with the compare
/// masks for free).
#[inline]
pub(crate) fn ascii_str_without(bytes: &[u8], a: u8, b: u8, c: u8) -> Option<&str> {
    let bad = |x: u8| x >= 0x80 || x == a || x == b || x == c;
    #[cfg(target_arch = "x86_64")]
    {
        let mut blocks = bytes.chunks_exact(16);
        for block in &mut blocks {
            let v = load(block);
            if high_bits(v) | eq(v, a) | eq(v, b) | eq(v, c) != 0 {
                return None;
            }
        }
        if blocks.remainder().iter().any(|&x| bad(x)) {
            return None;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    if bytes.iter().any(|&x| bad(x)) {
        return None;
    }
    // SAFETY: every byte was checked to be below 0x80 (the SSE2 high-bit mask, or `bad`), so the
    // bytes are ASCII, which is valid UTF-8. The tests compare this with a scalar check and
    // `std::str::from_utf8`.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The 16 bytes of `block` as a vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn load(block: &[u8]) -> Block {
    assert_eq!(block.len(), 16);
    // SAFETY: `block` holds exactly 16 bytes (asserted above; callers pass `chunks_exact(16)`
    // items, so the check folds away), and `_mm_loadu_si128` has no alignment requirement; SSE2 is
    // part of the x86_64 baseline.
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
pub(super) struct Block(__m128i);

/// Lanes of `v` equal to `needle`, as a bit mask (bit i for byte i).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn eq(v: Block, needle: u8) -> u32 {
    // SAFETY: SSE2 is enabled for every x86_64 target, so these intrinsics are available on any CPU
    // this code runs on; they only read and write registers.
    unsafe {
        let lanes = _mm_cmpeq_epi8(v.0, _mm_set1_epi8(needle as i8));
        _mm_movemask_epi8(lanes) as u32
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
