#!/usr/bin/env bash
# Peak memory while streaming a large document: generates SIZE bytes of HTML (the committed sample
# pages, repeated as one endless document, with the text states, comments and scripts they hold),
# pipes them into `examples/count.rs` (64 KiB chunks, Options::max_carry 1 MiB, max_arena 4 MiB),
# and reports the peak resident set size that `/usr/bin/time -v` measured, and the throughput.
#
# Usage: perf/rss.sh [SIZE_IN_MIB]   (default 1024, i.e. 1 GiB)
set -euo pipefail
cd "$(dirname "$0")/.."

mib="${1:-1024}"
command -v /usr/bin/time >/dev/null || { echo "rss.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --quiet --example count
bin="target/release/examples/count"

generate() {
    python3 - "$mib" datasets/samples/*.html <<'PY'
import sys
total = int(sys.argv[1]) << 20
pages = b"".join(open(p, "rb").read() for p in sys.argv[2:])
block = pages * max(1, (1 << 20) // len(pages))
out = sys.stdout.buffer
written = 0
while written < total:
    part = block[: total - written]
    out.write(part)
    written += len(part)
PY
}

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s.%N)
generate | /usr/bin/time -v "$bin" 2>"$log"
end=$(date +%s.%N)
grep -E "count:" "$log" >&2 || true
rss_kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
awk -v kib="$rss_kib" -v mib="$mib" -v s="$start" -v e="$end" 'BEGIN {
    printf "streamed %d MiB in 64 KiB chunks: peak RSS %.1f MiB (%d KiB), %.0f MB/s including generation\n",
        mib, kib / 1024, kib, mib * 1048576 / 1e6 / (e - s)
}'
