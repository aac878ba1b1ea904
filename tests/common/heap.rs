//! Peak heap use around a piece of a test, from dhat's heap statistics. The test binary must make
//! `dhat::Alloc` its global allocator and hold one test only, so that no other test thread
//! allocates while it measures.

/// Run `f` under a heap profiler, returning its result and the most bytes it had live at once
/// beyond what was live before.
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let _profiler = dhat::Profiler::builder().testing().build();
    let r = f();
    (r, dhat::HeapStats::get().max_bytes)
}
