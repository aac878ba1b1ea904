#!/usr/bin/env bash
# Peak memory while streaming a large document: generates SIZE bytes of HTML (the committed sample
# pages, repeated as one endless document, with the text states, comments and scripts they hold),
# pipes them into `examples/count.rs` (64 KiB chunks, Options::max_carry 1 MiB, max_arena 4 MiB),
# and reports the peak resident set size that `/usr/bin/time -v` measured, and the throughput.
#
# With --errors: peak memory and speed of `tagstream stats` (parse errors on, the default
# Options::max_errors) on error storms. Writes into a temporary folder the four storms of issue 25
# (10 MB of NUL in text, 10 MB of NUL in a tag name, 200,000 unterminated `<a b=1 `, one tag with
# 100,000 attributes named `a`) and a WARC archive of SIZE MiB (the stream: HTML responses, in
# turn the sample pages joined, a 1 MiB NUL storm, 1 MiB of unterminated tags and 1 MiB of
# control characters) and a plain HTML file of SIZE MiB (the sample pages, repeated as one
# document, as above), then runs `tagstream stats --plain` on each storm, on the archive, on the
# plain file (streamed: it is longer than the 4 MiB read whole), on the same file piped into its
# standard input, and on the corpus, one after the other, and prints each one's peak RSS, errors
# and MB/s (the command's own figure: decoding and tokenizing time) and its MB/s over the
# corpus's.
#
# Usage: perf/rss.sh [SIZE_IN_MIB]            (default 1024, i.e. 1 GiB)
#        perf/rss.sh --errors [SIZE_IN_MIB]   (default 1024; corpus: datasets/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."

errors=false
if [ "${1:-}" = --errors ]; then
    errors=true
    shift
fi
mib="${1:-1024}"
command -v /usr/bin/time >/dev/null || { echo "rss.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

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

# The storm files and the archive, into folder $1.
generate_storms() {
    python3 - "$1" "$mib" datasets/samples/*.html <<'PY'
import os, sys
folder, total = sys.argv[1], int(sys.argv[2]) << 20
storms = {
    "nul-text.html": b"\0" * 10_000_000,
    "nul-tag-name.html": b"<a" + b"\0" * 10_000_000 + b">",
    "unterminated-tags.html": b"<a b=1 " * 200_000,
    "attrs-same.html": b"<a" + b" a=v" * 100_000 + b">",
}
for name, body in storms.items():
    with open(os.path.join(folder, name), "wb") as f:
        f.write(body)
pages = b"".join(open(p, "rb").read() for p in sys.argv[3:])
bodies = [
    pages * max(1, (1 << 20) // len(pages)),
    b"\0" * (1 << 20),
    b"<a b=1 " * ((1 << 20) // 7),
    b"\x01" * (1 << 20),
]
def record(i, body):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
    head = (
        "WARC/1.1\r\nWARC-Type: response\r\n"
        f"WARC-Target-URI: https://storm.example/{i}\r\n"
        "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"
written, i = 0, 0
with open(os.path.join(folder, "stream.warc"), "wb") as f:
    while written < total:
        part = record(i, bodies[i % len(bodies)])
        f.write(part)
        written += len(part)
        i += 1
PY
}

# Run `tagstream stats --plain` on $2 under /usr/bin/time, with the file $3 (if given) piped into
# its standard input; print a row named $1. Sets $speed.
stats_row() {
    local name="$1" input="$2" piped="${3:-/dev/null}" log out rss total
    log="$tmp/time.log"
    out="$(cat "$piped" | /usr/bin/time -v "$bin" stats --plain --jobs 1 "$input" 2>"$log" | tail -n 1)"
    rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")"
    total="$(awk -F'\t' '{print $5}' <<<"$out")"
    speed="$(awk -F'\t' '{sub(/ MB\/s/, "", $6); print $6}' <<<"$out")"
    printf '%-24s %14s bytes  peak RSS %7.1f MiB  %-20s %8s MB/s  %s\n' "$name" \
        "$(awk -F'\t' '{sub(/ bytes/, "", $3); print $3}' <<<"$out")" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" \
        "$total" "$speed" "${corpus_speed:+$(awk -v s="$speed" -v c="$corpus_speed" 'BEGIN {printf "%.0f%% of corpus", 100 * s / c}')}"
}

if $errors; then
    cargo build --release --quiet --bin tagstream
    bin="target/release/tagstream"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    generate_storms "$tmp"
    corpus_speed=""
    stats_row corpus datasets/corpus
    corpus_speed="$speed"
    for storm in nul-text nul-tag-name unterminated-tags attrs-same; do
        stats_row "$storm" "$tmp/$storm.html"
    done
    stats_row "stream ($mib MiB WARC)" "$tmp/stream.warc"
    rm "$tmp/stream.warc"
    generate >"$tmp/stream.html"
    stats_row "stream ($mib MiB file)" "$tmp/stream.html"
    stats_row "stream ($mib MiB stdin)" - "$tmp/stream.html"
    exit 0
fi

cargo build --release --quiet --example count
bin="target/release/examples/count"
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
