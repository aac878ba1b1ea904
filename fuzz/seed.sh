#!/usr/bin/env bash
# Builds the seed corpora fuzz/corpus/<target>/ (git-ignored) for every fuzz target from:
#   - every html5lib-tests tokenizer test input (tokenizer/*.test), once per initial state, with
#     the test's last start tag and errors on;
#   - every tree-construction #data section (tree-construction/**/*.dat), with the tree-builder
#     simulator and the harness's feedback on;
#   - the committed samples, datasets/samples/*.html, likewise.
# Each seed is a case in the layout of fuzz/src/case.rs: a six-byte header (flags, initial state,
# last start tag, switch plan, pause and memory limits (none), number of chunk lengths), then the
# document. All targets share the layout, so they get the same seeds. Files are named by content
# hash; rerunning adds nothing twice, and what the fuzzer added to a corpus stays.
#
# Usage: fuzz/seed.sh [HTML5LIB_TESTS_DIR]
#   (default $HTML5LIB_TESTS_DIR, else the copy vendored in tests/data/html5lib-tests)
set -euo pipefail
cd "$(dirname "$0")/.."
tests="${1:-${HTML5LIB_TESTS_DIR:-tests/data/html5lib-tests}}"
if [ ! -d "$tests/tokenizer" ]; then
    echo "seed.sh: no html5lib-tests at $tests (pass the folder or set HTML5LIB_TESTS_DIR)" >&2
    exit 1
fi

python3 - "$tests" fuzz/corpus datasets/samples tokenize chunks html5ever scan lossless write <<'PY'
import glob, hashlib, json, os, re, sys

tests, out, samples, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

# Must match fuzz/src/case.rs: STATES and LAST_START_TAGS, and the flag bits.
STATES = ["Data state", "RCDATA state", "RAWTEXT state", "Script data state",
          "PLAINTEXT state", "CDATA section state"]
LAST_START_TAGS = [None, "script", "style", "title", "textarea", "xmp", "iframe", "noembed",
                   "noframes", "plaintext", "a", "svg"]
ERRORS, FEEDBACK, SIMULATE = 1, 8, 16

def header(flags, state=0, last=0):
    # flags, initial state, last start tag, switch plan (none), pause and limits (none), 0 chunk lengths
    return bytes([flags, state, last, 0, 0, 0])

seeds = set()

def unescape(s):
    # doubleEscaped tests write \uXXXX for characters JSON cannot carry (lone surrogates too);
    # those become the bytes Python's surrogatepass gives (invalid UTF-8, fine for a seed).
    return re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), s)

for path in sorted(glob.glob(os.path.join(tests, "tokenizer", "*.test"))):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for test in doc.get("tests", []) + doc.get("xmlViolationTests", []):
        text = test["input"]
        if test.get("doubleEscaped"):
            text = unescape(text)
        data = text.encode("utf-8", "surrogatepass")
        last = test.get("lastStartTag")
        last = LAST_START_TAGS.index(last) if last in LAST_START_TAGS else 0
        for state in test.get("initialStates", ["Data state"]):
            seeds.add(header(ERRORS, STATES.index(state), last) + data)

dat = glob.glob(os.path.join(tests, "tree-construction", "**", "*.dat"), recursive=True)
for path in sorted(dat):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    i = 0
    while i < len(lines):
        if lines[i] == b"#data":
            j = i + 1
            while j < len(lines) and not re.match(rb"#(errors|new-errors|document|script-)", lines[j]):
                j += 1
            seeds.add(header(ERRORS | FEEDBACK | SIMULATE) + b"\n".join(lines[i + 1:j]))
            i = j
        else:
            i += 1

for path in sorted(glob.glob(os.path.join(samples, "*.html"))):
    with open(path, "rb") as f:
        seeds.add(header(ERRORS | FEEDBACK | SIMULATE) + f.read())

for target in targets:
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        name = os.path.join(folder, hashlib.sha1(seed).hexdigest())
        if not os.path.exists(name):
            with open(name, "wb") as f:
                f.write(seed)
print(f"seed.sh: {len(seeds)} seeds in {out}/{{{','.join(targets)}}}")
PY

# The xml5 target: every xml5lib-tests input (tokenizer tests and tree-construction #data), with
# errors on and off, and the committed XML samples.
xml5="${XML5LIB_TESTS_DIR:-tests/data/xml5lib-tests}"
python3 - "$xml5" fuzz/corpus/xml5 datasets/samples <<'PY'
import glob, hashlib, json, os, sys

tests, folder, samples = sys.argv[1:]
ERRORS = 1
seeds = set()

def add(data):
    for flags in (0, ERRORS):
        seeds.add(bytes([flags, 0, 0, 0, 0, 0]) + data)

for path in sorted(glob.glob(os.path.join(tests, "tokenizer", "*.test"))):
    with open(path, encoding="utf-8") as f:
        for test in json.load(f)["tests"]:
            add(test["input"].encode("utf-8", "surrogatepass"))
for path in sorted(glob.glob(os.path.join(tests, "tree-construction", "*.dat"))):
    with open(path, "rb") as f:
        for part in f.read().split(b"#data\n")[1:]:
            add(part.split(b"\n#document")[0])
for path in sorted(glob.glob(os.path.join(samples, "*.xml")) + glob.glob(os.path.join(samples, "*.svg"))):
    with open(path, "rb") as f:
        add(f.read())

os.makedirs(folder, exist_ok=True)
for seed in seeds:
    name = os.path.join(folder, hashlib.sha1(seed).hexdigest())
    if not os.path.exists(name):
        with open(name, "wb") as f:
            f.write(seed)
print(f"seed.sh: {len(seeds)} seeds in {folder}")
PY
# The xml5_tree target reads the same inputs.
mkdir -p fuzz/corpus/xml5_tree
cp -n fuzz/corpus/xml5/* fuzz/corpus/xml5_tree/

# The sgml target: the SGML note's worked examples, the committed HTML samples, and, when
# datasets/fetch-sgml-lib.sh has fetched them, the W3C's DTDs, entity sets and catalogs up to 8 KiB
# (real SGML: parameter entities, marked sections, groups), normalization (the errors flag) on and off.
python3 - fuzz/corpus/sgml datasets/samples datasets/sgml-lib <<'PY'
import glob, hashlib, os, sys

folder, samples, sgml_lib = sys.argv[1:]
NORMALIZE = 1
NOTE = [
    b'<xX val1 val2 aTTr3=".76meters">',
    b'<!Doctype Foo --my document type-- System "abc">',
    b'<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz',
    b'another way to escape < and &: <<!>xxx &<!>abc;\n<!---- ---- ---->\n<! doctype> <!-> <!-!>',
    b'<x ATTR ="val" val> <xxx<yyy> </yyy</xxx> <> </> <xx "abc"> <xxx abc=> <a href=http://foo/>',
    b'&#38; &#200,xxx &amp\n&abc() &#SPACE; &#RS &#2000000; &#20.7 a &#-xx &100',
    b'<!doctype doc [ <!element doc - - ANY> ]> <!doctype doc %stuff > <!usemap map1>',
    b'<?style tt = font courier> <?experiment> ... <?/experiment>',
]
seeds = set()

def add(data):
    for flags in (0, NORMALIZE):
        seeds.add(bytes([flags, 0, 0, 0, 0, 0]) + data)

for example in NOTE:
    add(example)
for path in sorted(glob.glob(os.path.join(samples, "*.html"))):
    with open(path, "rb") as f:
        add(f.read())
for path in sorted(glob.glob(os.path.join(sgml_lib, "**", "*"), recursive=True)):
    if os.path.isfile(path) and not path.endswith(".gz") and os.path.getsize(path) <= 8192:
        with open(path, "rb") as f:
            add(f.read())

os.makedirs(folder, exist_ok=True)
for seed in seeds:
    name = os.path.join(folder, hashlib.sha1(seed).hexdigest())
    if not os.path.exists(name):
        with open(name, "wb") as f:
            f.write(seed)
print(f"seed.sh: {len(seeds)} seeds in {folder}")
PY
