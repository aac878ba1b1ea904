#!/usr/bin/env bash
# Fetch Debian's w3c-sgml-lib (the W3C's SGML DTDs, entity sets, catalogs and SGML declarations:
# HTML 2.0, 3.2, 4.0 and 4.01, MathML, SMIL, XHTML...) into the git-ignored folder the SGML
# dialect's test reads (tests/sgml.rs, `real_sgml_files_are_lossless_and_chunk_invariant`).
#
# Usage: datasets/fetch-sgml-lib.sh
# Destination: $TAGSTREAM_SGML_LIB if set (a relative path is taken from the repo root), else
# datasets/sgml-lib next to this script; the package's files are laid out below it as dpkg-deb
# unpacks them (usr/share/xml/w3c-sgml-lib/...). Needs apt-get (with its package lists updated)
# and dpkg-deb. The package is pinned by version and SHA-256.
set -Eeuo pipefail

PACKAGE="w3c-sgml-lib"
VERSION="1.3-3"
DIGEST="c5d0c0cd3e8dbfb44b9ca31cb3f2d7b66adbc4cb649ad2badad93d6b4eab4c05"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
dest="${TAGSTREAM_SGML_LIB:-$here/sgml-lib}"
[[ "$dest" = /* ]] || dest="$root/$dest"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q "$PACKAGE=$VERSION" >/dev/null)
deb="$work/${PACKAGE}_${VERSION}_all.deb"
echo "$DIGEST  $deb" | sha256sum -c --quiet -
rm -rf "$dest"
mkdir -p "$dest"
dpkg-deb -x "$deb" "$dest"
echo "$dest"
