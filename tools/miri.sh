#!/usr/bin/env bash
# Run the library's tests under Miri, which interprets them and stops at undefined behaviour: a read
# outside an allocation or of uninitialised bytes, a misaligned access, a breach of Rust's aliasing
# rules (Stacked Borrows). That checks the SIMD scanner (src/scan/simd.rs, the only `unsafe` in the
# crate) and the `unsafe` code of the dependencies the tests reach: memchr, simdutf8 and bumpalo's
# arena. Miri runs a test about a thousand times slower than it runs natively, so under
# `cfg(miri)` the tests take smaller inputs and fewer cases (see each test file).
#
# Two runs, side by side, each in its own target directory:
#   sse2  the x86_64 baseline (all Miri enables by default, so memchr takes its SSE2 code and
#         simdutf8 falls back to std): the unit tests and tests/{limits,tokens}.rs
#   avx2  built with `-C target-feature=+avx2` (the code memchr and simdutf8 choose at run time on
#         the machines we run on): the unit tests of the scanner, token decoding and UTF-8
#         validation, and tests/{streaming,utf8}.rs
#
#   tools/miri.sh
#
# Needs the nightly toolchain with the miri and rust-src components, and installs them if missing.
# Exit status: 0 if every test passed under Miri; 3 if Miri could not be installed (no network to
# static.rust-lang.org), after one line saying it was SKIPPED and why; 1 if a test failed or Miri
# found undefined behaviour (the log's tail is printed).
set -euo pipefail
cd "$(dirname "$0")/.."

# Unit tests left out (safe code; the streaming tests run it under Miri too): the tag machine's
# three exhaustive hashing tests (40 to 90 seconds each under Miri), and the four that parse
# html5lib-tests' or the WHATWG's JSON of all entities first (minutes under Miri). Each is named by
# its full path: a test that moves must move here too, or Miri runs it.
skips=()
for test in html::machine::tag::tests::a_name_hashes_alike_read_whole_or_by_parts \
    html::machine::tag::tests::names_that_are_not_plain_are_compared_decoded_as_the_table_grows \
    html::machine::tag::tests::repeats_are_found_in_small_and_large_tags \
    refs::charref::tests::html5lib_character_reference_tests_in_the_data_state \
    refs::entities::tests::every_entity_is_found \
    refs::entities::tests::agrees_with_a_naive_search_on_every_prefix_and_one_more_byte \
    refs::entities::tests::the_fast_path_agrees_with_the_walk_on_every_name_prefix_and_extension; do
    skips+=(--skip "$test")
done

# A skipped test that was renamed or moved would run under Miri for minutes: each must exist.
listed="$(cargo test -p tagstream --features extract --lib --quiet -- --list 2>/dev/null)"
for ((i = 1; i < ${#skips[@]}; i += 2)); do
    grep -q "^${skips[i]}: test$" <<<"$listed" ||
        { echo "miri.sh: no unit test ${skips[i]} to skip (moved? update the list)" >&2; exit 1; }
done

skipped() {
    echo "miri: SKIPPED (environment): $*" >&2
    exit 3
}

# The toolchain and its components, from static.rust-lang.org when missing.
install() {
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        timeout 300 rustup toolchain install nightly --profile minimal --component miri,rust-src \
            --allow-downgrade
    else
        timeout 300 rustup component add --toolchain nightly miri rust-src
    fi
}
components=$(rustup component list --toolchain nightly --installed 2>/dev/null || true)
if ! grep -q '^miri' <<<"$components" || ! grep -q '^rust-src' <<<"$components"; then
    error=$(install 2>&1 >/dev/null) ||
        skipped "nightly's miri and rust-src are not installed and could not be fetched:" \
            "$( (grep -m 1 -i error <<<"$error" || tail -n 1 <<<"$error") | cut -c1-160)"
fi
cargo +nightly miri setup >/dev/null 2>&1 || { cargo +nightly miri setup; exit 1; }

# The streaming tests read datasets/samples: isolation off.
export MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-disable-isolation"

# `cargo miri test` of the library (with `extract`, as in `cargo test`; not the CLI, cli/) for the
# x86_64 baseline (in target/miri) or with AVX2 (in target/avx2/miri).
library=(-p tagstream --features extract)
sse2() { cargo +nightly miri test "${library[@]}" --no-fail-fast "$@"; }
avx2() {
    CARGO_TARGET_DIR=target/avx2 RUSTFLAGS="-C target-feature=+avx2" \
        cargo +nightly miri test "${library[@]}" --no-fail-fast "$@"
}

sse2_lane() { sse2 --lib --test limits --test tokens -- "${skips[@]}"; }
avx2_lane() {
    local status=0
    avx2 --lib -- scan:: token:: input::utf8 || status=1
    avx2 --test streaming --test utf8 || status=1
    return $status
}

# Each lane in the background, its output in $logs/<lane>, ending with the seconds since the start.
logs=target/miri-logs
mkdir -p $logs
start() {
    (
        status=0
        "$1_lane" || status=$?
        echo "done after $SECONDS s"
        exit $status
    ) >"$logs/$1" 2>&1 &
}
start sse2
sse2_pid=$!
start avx2
avx2_pid=$!

status=0
for lane in sse2:$sse2_pid avx2:$avx2_pid; do
    name=${lane%%:*}
    if wait "${lane#*:}"; then
        grep -E '^ +Running|^test result|^done after' "$logs/$name" | sed "s/^ */miri $name: /"
    else
        tail -n 80 "$logs/$name"
        echo "miri $name: FAILED (whole log: $logs/$name)"
        status=1
    fi
done
exit $status
