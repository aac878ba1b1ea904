#!/usr/bin/env bash
# Instructions per byte for each subject of the race, counted by valgrind's callgrind (event Ir).
#
# For every subject, runs `tagstream-perf --callgrind SUBJECT` (load the corpus, then exactly one
# pass of that subject) under callgrind, subtracts a run of `--callgrind none` (start-up and corpus
# loading only), and divides by the corpus bytes. Writes results/callgrind-<YYYY-MM-DD>.txt, which
# the race (`cargo run --release`) merges into its table.
#
# Usage: ./callgrind.sh [--corpus-limit N] [--subjects a,b,c] [--corpus DIR] [--out FILE]
#   --corpus-limit N   only the first N pages, sorted by name (the whole corpus by default;
#                      html5ever alone then takes a few minutes under valgrind)
#   --subjects a,b,c   subjects to count (default: all, see `--list`)
#   --corpus DIR       folder of *.html pages (default ../datasets/corpus)
#   --out FILE         where to write (default results/callgrind-<date>.txt)
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

limit="" subjects="" corpus="" out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --corpus-limit) limit="${2:?--corpus-limit needs a value}"; shift 2 ;;
        --corpus-limit=*) limit="${1#*=}"; shift ;;
        --subjects) subjects="${2:?--subjects needs a value}"; shift 2 ;;
        --subjects=*) subjects="${1#*=}"; shift ;;
        --corpus) corpus="${2:?--corpus needs a value}"; shift 2 ;;
        --corpus=*) corpus="${1#*=}"; shift ;;
        --out) out="${2:?--out needs a value}"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "callgrind.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

if ! command -v valgrind >/dev/null; then
    echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
    exit 2
fi

cargo build --release --quiet
bin="$PWD/target/release/tagstream-perf"

args=()
[ -n "$limit" ] && args+=(--corpus-limit "$limit")
[ -n "$corpus" ] && args+=(--corpus "$corpus")
[ -n "$subjects" ] || subjects="$("$bin" --list | paste -sd, -)"

date="$(date -u +%F)"
out="${out:-results/callgrind-$date.txt}"
mkdir -p "$(dirname "$out")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# measure SUBJECT: run it under callgrind; leaves $tmp/SUBJECT.log (the binary's output) and
# prints the total instruction count.
measure() {
    local s="$1"
    if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/$s.cg" \
        "$bin" --callgrind "$s" ${args[@]+"${args[@]}"} >"$tmp/$s.log" 2>"$tmp/$s.err"; then
        echo "callgrind.sh: '$s' failed:" >&2
        grep -v '^==' "$tmp/$s.err" >&2 || cat "$tmp/$s.err" >&2
        exit 1
    fi
    awk '/^(summary|totals):/ { print $2; exit }' "$tmp/$s.cg"
}
field() { awk -v k="$1:" '$1 == k { print $2; exit }' "$2"; }

echo "callgrind.sh: baseline (corpus loading only)..." >&2
base="$(measure none)"
bytes="$(field bytes "$tmp/none.log")"
files="$(field files "$tmp/none.log")"
available="$(field available "$tmp/none.log")"
dir="$(field dir "$tmp/none.log")"
tagstream="$(sed -n 's/^tagstream: //p' "$tmp/none.log")"
limit_note=""
[ -n "$limit" ] && [ "$files" -lt "$available" ] && limit_note=" (--corpus-limit $limit)"

{
    echo "# instructions per byte from valgrind --tool=callgrind (event Ir), start-up and corpus loading subtracted"
    echo "# date: $date"
    echo "# tool: $(valgrind --version)"
    echo "# tagstream: $tagstream"
    echo "# corpus: $dir, $files of $available files, $bytes bytes$limit_note"
    echo "# baseline: none = $base Ir (start-up and corpus loading)"
    echo "# subject instructions/byte instructions bytes checksum"
} >"$tmp/result.txt"

IFS=, read -r -a list <<<"$subjects"
for s in "${list[@]}"; do
    start=$SECONDS
    ir="$(measure "$s")"
    checksum="$(field checksum "$tmp/$s.log")"
    line="$(awk -v s="$s" -v ir="$ir" -v base="$base" -v b="$bytes" -v c="$checksum" \
        'BEGIN { printf "%s\t%.4f\t%.0f\t%.0f\t%s\n", s, (ir - base) / b, ir - base, b, c }')"
    echo "$line" >>"$tmp/result.txt"
    printf 'callgrind.sh: %-16s %8s instructions/byte  (%ds)\n' "$s" "$(cut -f2 <<<"$line")" \
        "$((SECONDS - start))" >&2
done

cp "$tmp/result.txt" "$out"
echo "callgrind.sh: wrote $out" >&2
cat "$out"
