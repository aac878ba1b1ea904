#!/usr/bin/env bash
# `tagstream links` over the corpus with one thread and with two, alternating, RUNS times each;
# prints every run's MB/s (from the summary line) and the median per job count. Each run reads
# the corpus four times over (1,032 inputs, 98 MB) so that one run lasts long enough to measure.
# Usage: tools/bench-links.sh [RUNS] [CORPUS]   (defaults: 9, datasets/corpus; build --release first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-9}"
corpus="${2:-datasets/corpus}"
bin=target/release/tagstream
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
declare -A rates
for ((i = 0; i < runs; i++)); do
    for jobs in 1 2; do
        rate=$("$bin" links -j "$jobs" "$corpus" "$corpus" "$corpus" "$corpus" 2>&1 >/dev/null | sed -n 's/.*(\([0-9.]*\) MB\/s).*/\1/p')
        rates[$jobs]+="$rate "
    done
done
for jobs in 1 2; do
    median=$(printf '%s\n' ${rates[$jobs]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "-j $jobs: median $median MB/s of: ${rates[$jobs]}"
done
