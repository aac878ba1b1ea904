//! The only `unsafe` in the crate: SSE2 block tests for x86_64 (SSE2 is part of the x86_64 baseline,
//! so no run-time detection is needed), and turning bytes checked to be ASCII into `&str`.

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
