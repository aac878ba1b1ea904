#!/usr/bin/env bash
# Run the library's tests under Valgrind's Memcheck: every read of the SIMD scanner (the only
# `unsafe` in the crate, src/scan/simd.rs), the arena and the streaming paths is checked for reads
# outside an allocation and for uses of uninitialised bytes. It checks the machine code the release
# build runs, at full test sizes, not Rust's aliasing rules; tools/miri.sh checks those (and more) on
# the interpreted program, with smaller tests.
#
#   tools/memcheck.sh                 # the default set below
#   tools/memcheck.sh streaming utf8  # test targets by name (`lib` is the unit tests)
#
# Needs valgrind (Debian: `apt-get install valgrind`); add `--track-origins=yes` to the valgrind line
# to see where an uninitialised byte came from. Exit status 0 only if every test passes and
# Memcheck reports no error.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    # The unit tests hold the SIMD-against-scalar oracle tests and the arena's; the rest feed
    # documents whole, in chunks of every size and one byte at a time, up to the memory limits.
    targets=(lib streaming tokens utf8 limits hostile html5lib processing_instructions simulator feedback)
fi

command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed" >&2; exit 2; }

# Build the library's test binaries once (with `extract`, which the CLI turns on in `cargo test`;
# not the CLI's, cli/) and learn their paths from cargo's JSON messages.
library=(-p tagstream --features extract)
executables=$(cargo test "${library[@]}" --release --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and message["profile"]["test"]:
        target = message["target"]
        name = "lib" if "lib" in target["kind"] else target["name"]
        print(name, message["executable"])
')

status=0
for target in "${targets[@]}"; do
    executable=$(awk -v t="$target" '$1 == t { print $2 }' <<<"$executables")
    if [ -z "$executable" ]; then
        echo "memcheck: no test target named $target" >&2
        exit 2
    fi
    log=$(mktemp)
    if valgrind --tool=memcheck --error-exitcode=99 --leak-check=no -q \
        "$executable" --test-threads=2 >"$log" 2>&1; then
        printf 'memcheck %-24s %s\n' "$target" "$(grep -E '^test result' "$log" | tail -n 1)"
    else
        tail -n 60 "$log"
        printf 'memcheck %-24s FAILED (see above)\n' "$target"
        status=1
    fi
    rm -f "$log"
done
exit $status
