#!/usr/bin/env bash
# Instructions per byte for each subject of the race, counted by valgrind's callgrind (event Ir).
#
# For every subject, runs `tagstream-perf --callgrind SUBJECT` (load the corpus, then exactly one
# pass of that subject) under callgrind, subtracts a run of `--callgrind none` (start-up and corpus
# loading only), and divides by the corpus bytes. Writes results/callgrind-<YYYY-MM-DD>.txt, which
# the race (`cargo run --release`) merges into its table.
#
# Usage: ./callgrind.sh [--corpus-limit N] [--subjects a,b,c] [--corpus DIR] [--cases a,b,c]
#                       [--xml] [--out FILE]
#   --corpus-limit N   only the first N pages, sorted by name (the whole corpus by default;
#                      html5ever alone then takes a few minutes under valgrind)
#   --subjects a,b,c   subjects to count (default: all, see `--list`; with --cases: tagstream;
#                      with --xml: all of `--xml --list`)
#   --corpus DIR       folder of *.html pages (default ../datasets/corpus)
#   --cases a,b,c      hostile cases at full size instead of the corpus (`--list-cases`; `all`),
#                      each with its own baseline; rows are named CASE/SUBJECT
#   --xml              the XML race's subjects over its set (the XML corpus and the W3C suite's
#                      *.xml files that quick-xml reads whole; loading and sorting them out is
#                      the baseline)
#   --out FILE         where to write (default results/callgrind-<date>.txt; with --cases
#                      results/hostile-callgrind-<date>.txt, which the race does not read; with
#                      --xml results/xml-callgrind-<date>.txt, which the XML race reads)
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; }

limit="" subjects="" corpus="" cases="" out="" xml=""
while [ $# -gt 0 ]; do
    case "$1" in
        --corpus-limit) limit="${2:?--corpus-limit needs a value}"; shift 2 ;;
        --corpus-limit=*) limit="${1#*=}"; shift ;;
        --subjects) subjects="${2:?--subjects needs a value}"; shift 2 ;;
        --subjects=*) subjects="${1#*=}"; shift ;;
        --corpus) corpus="${2:?--corpus needs a value}"; shift 2 ;;
        --corpus=*) corpus="${1#*=}"; shift ;;
        --cases) cases="${2:?--cases needs a value}"; shift 2 ;;
        --cases=*) cases="${1#*=}"; shift ;;
        --out) out="${2:?--out needs a value}"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        --xml) xml=1; shift ;;
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
if [ -n "$xml" ]; then
    if [ -n "$cases" ]; then
        echo "callgrind.sh: --xml goes without --cases" >&2
        exit 2
    fi
    args+=(--xml)
fi
if [ -n "$cases" ]; then
    [ "$cases" = all ] && cases="$("$bin" --list-cases | paste -sd, -)"
    subjects="${subjects:-tagstream}"
fi
[ -n "$subjects" ] || subjects="$("$bin" ${xml:+--xml} --list | paste -sd, -)"

date="$(date -u +%F)"
if [ -n "$cases" ]; then
    out="${out:-results/hostile-callgrind-$date.txt}"
elif [ -n "$xml" ]; then
    out="${out:-results/xml-callgrind-$date.txt}"
else
    out="${out:-results/callgrind-$date.txt}"
fi
mkdir -p "$(dirname "$out")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# measure SUBJECT [ARGS...]: run it under callgrind with the common arguments and ARGS; leaves
# $tmp/SUBJECT.log (the binary's output) and prints the total instruction count.
measure() {
    local s="$1"
    shift
    if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/$s.cg" \
        "$bin" --callgrind "$s" ${args[@]+"${args[@]}"} "$@" >"$tmp/$s.log" 2>"$tmp/$s.err"; then
        echo "callgrind.sh: '$s' failed:" >&2
        grep -v '^==' "$tmp/$s.err" >&2 || cat "$tmp/$s.err" >&2
        exit 1
    fi
    awk '/^(summary|totals):/ { print $2; exit }' "$tmp/$s.cg"
}
field() { awk -v k="$1:" '$1 == k { print $2; exit }' "$2"; }

# count PREFIX [ARGS...]: a baseline run, then every subject, with ARGS; appends one line per
# subject (named PREFIX + subject) to $tmp/result.txt and leaves the baseline's output in
# $tmp/none.log and its count in $base.
count() {
    local prefix="$1"
    shift
    echo "callgrind.sh: ${prefix}baseline (loading only)..." >&2
    base="$(measure none "$@")"
    local bytes s start ir checksum line
    bytes="$(field bytes "$tmp/none.log")"
    IFS=, read -r -a list <<<"$subjects"
    for s in "${list[@]}"; do
        start=$SECONDS
        ir="$(measure "$s" "$@")"
        checksum="$(field checksum "$tmp/$s.log")"
        line="$(awk -v s="$prefix$s" -v ir="$ir" -v base="$base" -v b="$bytes" -v c="$checksum" \
            'BEGIN { printf "%s\t%.4f\t%.0f\t%.0f\t%s\n", s, (ir - base) / b, ir - base, b, c }')"
        echo "$line" >>"$tmp/result.txt"
        printf 'callgrind.sh: %-34s %8s instructions/byte  (%ds)\n' "$prefix$s" \
            "$(cut -f2 <<<"$line")" "$((SECONDS - start))" >&2
    done
}

header() {
    echo "# instructions per byte from valgrind --tool=callgrind (event Ir), start-up and $1 subtracted"
    echo "# date: $date"
    echo "# tool: $(valgrind --version)"
    echo "# tagstream: $(sed -n 's/^tagstream: //p' "$tmp/none.log")"
}

if [ -n "$cases" ]; then
    IFS=, read -r -a case_list <<<"$cases"
    for c in "${case_list[@]}"; do
        count "$c/" --case "$c"
    done
    {
        header "generating the input"
        echo "# inputs: hostile cases of benches/common/hostile.rs at full size, one document each"
        echo "# case/subject instructions/byte instructions bytes checksum"
        cat "$tmp/result.txt"
    } >"$tmp/report.txt"
else
    count ""
    files="$(field files "$tmp/none.log")"
    available="$(field available "$tmp/none.log")"
    limit_note=""
    [ -n "$limit" ] && [ "$files" -lt "$available" ] && limit_note=" (--corpus-limit $limit)"
    {
        header "corpus loading"
        echo "# corpus: $(sed -n 's/^dir: //p' "$tmp/none.log"), $files of $available files, $(field bytes "$tmp/none.log") bytes$limit_note"
        echo "# baseline: none = $base Ir (start-up and corpus loading)"
        echo "# subject instructions/byte instructions bytes checksum"
        cat "$tmp/result.txt"
    } >"$tmp/report.txt"
fi

cp "$tmp/report.txt" "$out"
echo "callgrind.sh: wrote $out" >&2
cat "$out"
