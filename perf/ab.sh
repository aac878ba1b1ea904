#!/usr/bin/env bash
# A/B test of the 4 KiB chunks target: tagstream-chunks / tagstream for two revisions, from runs of
# their two builds taken in turn.
#
# On this kind of shared VM one race moves the ratio by a point or two, as much as a change to the
# seams is worth. Taking the two builds in turn, many times, spreads the machine's slow and fast
# spells over both; the medians over the runs tell half a point apart (about 12 runs each) where
# one race cannot.
#
# Usage: ./ab.sh REV_A REV_B [--runs N] [--passes N] [--chunk-size N] [--corpus DIR]
#   REV          a git revision (built from a worktree under target/ab/), or `.` for the work tree
#                as it is
#   --runs N     runs of each build (default 12)
#   --passes N   timed passes a run (default 41)
#   --chunk-size N, --corpus DIR   as for the race
# Prints, per build, the median over the runs of the race's two figures for the target: the ratio
# of the medians and the median of the per-pass ratios, and every run's per-pass median.
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }

revs=() runs=12 passes=41 chunk=4096 corpus=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a value}"; shift 2 ;;
        --passes) passes="${2:?--passes needs a value}"; shift 2 ;;
        --chunk-size) chunk="${2:?--chunk-size needs a value}"; shift 2 ;;
        --corpus) corpus="${2:?--corpus needs a value}"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "ab.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
        *) revs+=("$1"); shift ;;
    esac
done
if [ ${#revs[@]} -ne 2 ]; then
    usage >&2
    exit 2
fi
corpus="${corpus:-$PWD/../datasets/corpus}"
corpus="$(cd "$corpus" && pwd)"

# Build one revision's tagstream-perf; print the binary's path.
build() {
    local rev="$1" dir
    if [ "$rev" = "." ]; then
        cargo build --release --quiet >&2
        dir="$PWD/target/ab/work-tree"
        mkdir -p "$dir"
        cp target/release/tagstream-perf "$dir/"
    else
        local sha
        sha="$(git rev-parse --short "$rev^{commit}")"
        dir="$PWD/target/ab/$sha"
        if [ ! -x "$dir/tagstream-perf" ]; then
            rm -rf "$dir/src"
            git worktree add --force --detach "$dir/src" "$sha" >&2
            (cd "$dir/src/perf" && CARGO_TARGET_DIR="$dir/target" cargo build --release --quiet) >&2
            cp "$dir/target/release/tagstream-perf" "$dir/"
            git worktree remove --force "$dir/src" >&2
        fi
    fi
    echo "$dir/tagstream-perf"
}

bins=("$(build "${revs[0]}")" "$(build "${revs[1]}")")
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for ((i = 1; i <= runs; i++)); do
    for k in 0 1; do
        line="$("${bins[$k]}" --corpus "$corpus" --subjects tagstream,tagstream-chunks \
            --passes "$passes" --chunk-size "$chunk" --no-write --no-ipb 2>/dev/null |
            grep '^| tagstream-chunks / tagstream')"
        # "| name | 93.9% | ≥ 95.0% | no | – | 94.1% (93.3%–94.8%) |": the two figures.
        figures="$(echo "$line" | grep -oE '[0-9]+\.[0-9]+%' | sed -n '1p;3p' | tr -d '%' | tr '\n' ' ')"
        echo "$k $figures" >>"$out"
        echo "run $i/$runs: ${revs[$k]} $figures" >&2
    done
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for k in 0 1; do
    ratio="$(awk -v k="$k" '$1 == k {print $2}' "$out" | median)"
    pass="$(awk -v k="$k" '$1 == k {print $3}' "$out" | median)"
    all="$(awk -v k="$k" '$1 == k {print $3}' "$out" | sort -n | tr '\n' ' ')"
    printf '%s: ratio of medians %.2f%%, median pass %.2f%% (median of %d runs; per-pass medians: %s)\n' \
        "${revs[$k]}" "$ratio" "$pass" "$runs" "$all"
done
