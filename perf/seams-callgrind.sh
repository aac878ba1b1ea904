#!/usr/bin/env bash
# What a chunk seam costs in instructions, cache misses and mispredicted branches, by where it
# falls: the plans of `--seams`, counted by valgrind's callgrind with its cache and branch
# simulation instead of timed.
#
# Runs `tagstream-perf --seam-plan whole` (the set-up of `--seams`, then one pass of the whole
# pages) and `--seam-plan N` for each plan (the same set-up, then one pass of the pages cut as plan
# N) under `valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes`, and prints a markdown
# table: per plan its seams and, per seam, the plan run's counts less the baseline's. The counts
# are deterministic; nothing is written. About 10 s a run on the whole corpus.
#
# Usage: ./seams-callgrind.sh [--plans a,b,c] [--corpus DIR] [--corpus-limit N] [--chunk-size N]
#   --plans a,b,c      plan numbers (default: all; `target/release/tagstream-perf --list-plans`)
#   --corpus DIR       folder of *.html pages (default ../datasets/corpus)
#   --corpus-limit N   only the first N pages, sorted by name
#   --chunk-size N     cut about every N bytes, as for `--seams` (default 4096)
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

plans="" args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --plans) plans="${2:?--plans needs a value}"; shift 2 ;;
        --plans=*) plans="${1#*=}"; shift ;;
        --corpus|--corpus-limit|--chunk-size) args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
        --corpus=*|--corpus-limit=*|--chunk-size=*) args+=("$1"); shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "seams-callgrind.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
if [ -n "$plans" ] && ! [[ "$plans" =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "seams-callgrind.sh: --plans: expected plan numbers separated by commas, got '$plans'" >&2
    exit 2
fi

if ! command -v valgrind >/dev/null; then
    echo "seams-callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
    exit 2
fi

cargo build --release --quiet
bin="$PWD/target/release/tagstream-perf"

# The plans' names, by number.
mapfile -t names < <("$bin" --list-plans | cut -f2)
if [ -z "$plans" ]; then
    plans="$(seq -s, 0 $((${#names[@]} - 1)))"
fi
IFS=, read -r -a list <<<"$plans"
for p in "${list[@]}"; do
    if [ "$((10#$p))" -ge "${#names[@]}" ]; then
        echo "seams-callgrind.sh: no plan $p: the plans are 0 to $((${#names[@]} - 1)) (see --list-plans)" >&2
        exit 2
    fi
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# measure NAME PLAN: run `--seam-plan PLAN` under callgrind; leaves $tmp/NAME.log (the binary's
# output) and $tmp/NAME.cg (callgrind's).
measure() {
    if ! valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes \
        --callgrind-out-file="$tmp/$1.cg" \
        "$bin" --seam-plan "$2" ${args[@]+"${args[@]}"} >"$tmp/$1.log" 2>"$tmp/$1.err"; then
        echo "seams-callgrind.sh: --seam-plan $2 failed:" >&2
        grep -Ev '^(==|--)[0-9]+(==|--)' "$tmp/$1.err" >&2 || cat "$tmp/$1.err" >&2
        exit 1
    fi
}
field() { awk -v k="$1:" '$1 == k { print $2; exit }' "$2"; }
# counts NAME: the run's totals of the columns of the table (instructions, I1 misses, D1 misses,
# conditional and indirect mispredicts), by the event names of callgrind's file.
counts() {
    awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
        /^(summary|totals):/ {
            print $col["Ir"], $col["I1mr"], $col["D1mr"] + $col["D1mw"], $col["Bcm"], $col["Bim"]
            exit
        }' "$tmp/$1.cg"
}

start=$SECONDS
measure whole whole
base="$(counts whole)"
log="$tmp/whole.log"
echo "seams-callgrind.sh: tagstream $(sed -n 's/^tagstream: //p' "$log"), $(field files "$log")" \
    "pages, $(field bytes "$log") bytes; baseline (the whole pages): $((SECONDS - start))s" >&2

echo "| # | plan | seams | instructions a seam | I1 misses a seam | D1 misses a seam | cond. mispredicts a seam | ind. mispredicts a seam |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for p in "${list[@]}"; do
    p=$((10#$p))
    start=$SECONDS
    measure "$p" "$p"
    seams="$(field seams "$tmp/$p.log")"
    echo "seams-callgrind.sh: plan $p (${names[$p]}): $seams seams, $((SECONDS - start))s" >&2
    awk -v p="$p" -v name="${names[$p]}" -v seams="$seams" -v base="$base" -v run="$(counts "$p")" '
        BEGIN {
            split(base, b, " ")
            split(run, r, " ")
            line = sprintf("| %d | %s | %d", p, name, seams)
            for (i = 1; i <= 5; i++) {
                if (seams == 0) {
                    line = line " | –"
                } else {
                    line = line sprintf(i == 1 ? " | %.0f" : " | %.1f", (r[i] - b[i]) / seams)
                }
            }
            print line " |"
        }'
done
