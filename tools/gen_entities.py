#!/usr/bin/env python3
"""Generate src/refs/entities_table.rs, the named character reference table, from entities.json.

The input is the WHATWG table (https://html.spec.whatwg.org/entities.json): 2,231 names such as
"&AElig" and "&AElig;", each with one or two code points. The output is a radix trie as a double array of
node records (read by src/refs/entities.rs), the edge labels in one byte string and every
replacement text in one UTF-8 string.

Usage:
    python3 tools/gen_entities.py [ENTITIES_JSON] [--check]

ENTITIES_JSON defaults to the environment variable of that name, else to the vendored copy
tests/data/entities/entities.json; a relative path is taken from the repository root (the parent of
tools/). With --check nothing is written: the exit status is 1 when the committed table differs
from what this script would generate (CI runs this).

Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import sys
from collections import deque
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = os.environ.get("ENTITIES_JSON", "tests/data/entities/entities.json")
OUTPUT = REPO_ROOT / "src" / "refs" / "entities_table.rs"

# A node's value is packed into a u16 as (offset << VALUE_LEN_BITS) | len; len 0 means "no value".
VALUE_LEN_BITS = 3
# rustfmt's max_width: the generated file must already be formatted (CI runs `cargo fmt --check`).
MAX_WIDTH = 100
NAME_RE = re.compile(r"[A-Za-z0-9]+;?")
# The 63 bytes a name can hold: a node's child for byte b sits in slot `base + class(b)`, class(b)
# being b's position here. Every other byte is NO_CLASS, which no child has.
NAME_BYTES = b"0123456789;ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
NO_CLASS = len(NAME_BYTES)
# The parent of the root and of every empty slot: no slot has this index.
NO_PARENT = 0xFFFF
# The fast path's names, without their `;`: the most frequent name of the corpus (datasets/corpus,
# 258 pages, 2026-11) for each first letter that has one, with common web names for a few letters
# the corpus lacks. At most one per first byte, 1 to 7 bytes long (the name and the byte after it
# fit in 8), each a name with a `;`.
FREQUENT = ["amp", "bull", "copy", "deg", "eacute", "gt", "hellip", "lt", "mdash", "nbsp", "ouml",
            "pound", "quot", "raquo", "szlig", "trade", "uuml", "yen", "zwnj"]


class Node:
    """A radix trie node: the label of the edge into it, its replacement text, its children."""

    def __init__(self, label=b""):
        self.label = label
        self.value = None
        self.children = {}


def load_entities(path):
    """Read entities.json and return {name bytes without '&': replacement str}, checked."""
    try:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"gen_entities: cannot read {path}: {e}")
    entities = {}
    for key, entry in table.items():
        name = key[1:]
        if not key.startswith("&") or not NAME_RE.fullmatch(name):
            sys.exit(f"gen_entities: unexpected entity name {key!r}")
        chars = entry["characters"]
        if chars != "".join(map(chr, entry["codepoints"])) or not 1 <= len(chars) <= 2:
            sys.exit(f"gen_entities: {key!r}: characters do not match codepoints")
        entities[name.encode("ascii")] = chars
    return entities


def build_trie(entities):
    """A plain trie: one node per byte of every name."""
    root = Node()
    for name, value in entities.items():
        node = root
        for byte in name:
            node = node.children.setdefault(byte, Node(bytes([byte])))
        node.value = value
    return root


def compress(node):
    """Merge every chain of valueless single-child nodes into one edge (in place); return node."""
    for byte, child in node.children.items():
        while child.value is None and len(child.children) == 1:
            (grandchild,) = child.children.values()
            grandchild.label = child.label + grandchild.label
            child = grandchild
        node.children[byte] = compress(child)
    return node


def breadth_first(root):
    """Nodes in breadth-first order, children sorted by first byte: siblings are contiguous."""
    order, queue = [], deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        queue.extend(node.children[b] for b in sorted(node.children))
    return order


def pack(pieces):
    """Concatenate byte strings into one blob, reusing any piece already contained in it or
    overlapping its end. Returns (blob, {piece: offset})."""
    blob, offsets = b"", {}
    for piece in sorted(set(pieces), key=lambda p: (-len(p), p)):
        at = blob.find(piece)
        if at < 0:
            overlap = next(k for k in range(len(piece), -1, -1) if blob.endswith(piece[:k]))
            at = len(blob) - overlap
            blob += piece[overlap:]
        offsets[piece] = at
    return blob, offsets


def place(nodes_root):
    """Double-array layout: the root in slot 0, each node's children in the slots `base + class`
    of their first bytes, with `base` the lowest (from 1) that finds them all free. Returns
    ({id(node): slot}, {id(node): base}); a node without children has base 0."""
    slot_of, base_of, used = {id(nodes_root): 0}, {}, {0}
    lowest_free = 1
    for node in breadth_first(nodes_root):
        classes = [NAME_BYTES.index(byte) for byte in sorted(node.children)]
        if not classes:
            base_of[id(node)] = 0
            continue
        while lowest_free in used:
            lowest_free += 1
        base = max(1, lowest_free - classes[0])
        while any(base + c in used for c in classes):
            base += 1
        base_of[id(node)] = base
        for byte, c in zip(sorted(node.children), classes):
            slot_of[id(node.children[byte])] = base + c
            used.add(base + c)
    return slot_of, base_of


def build_tables(entities):
    """The node records by slot (None for an empty one), the byte class table and the blobs."""
    root = compress(build_trie(entities))
    nodes = breadth_first(root)
    slot_of, base_of = place(root)
    labels, label_at = pack(node.label[1:] for node in nodes)
    values, value_at = pack(n.value.encode("utf-8") for n in nodes if n.value is not None)
    records = [None] * (max(slot_of.values()) + 1)
    parent_of = {id(c): slot_of[id(n)] for n in nodes for c in n.children.values()}
    for node in nodes:
        text = b"" if node.value is None else node.value.encode("utf-8")
        if len(text) >= 1 << VALUE_LEN_BITS:
            sys.exit("gen_entities: a replacement text too long for the packed value length")
        value = (value_at[text] << VALUE_LEN_BITS | len(text)) if text else 0
        rest = node.label[1:]
        parent = parent_of.get(id(node), NO_PARENT)
        records[slot_of[id(node)]] = (parent, base_of[id(node)], label_at[rest], len(rest), value)
    check_limits(records, values)
    classes = [NAME_BYTES.index(b) if b in NAME_BYTES else NO_CLASS for b in range(256)]
    return {"NODES": records, "CLASS": classes, "LABELS": labels, "VALUES": values,
            "FREQUENT": frequent_entries(entities), "node_count": len(nodes)}


def frequent_entries(entities):
    """The fast path's records, by first byte: (name, whether the name without `;` is one too,
    replacement text)."""
    entries, firsts = [], set()
    for name in (n.encode("ascii") for n in FREQUENT):
        value = entities.get(name + b";")
        if value is None or not 1 <= len(name) <= 7 or name[0] in firsts:
            sys.exit(f"gen_entities: {name!r} cannot be a FREQUENT name")
        legacy = name in entities
        if legacy and entities[name] != value:
            sys.exit(f"gen_entities: {name!r} differs from its `;` form")
        firsts.add(name[0])
        entries.append((name, legacy, value))
    return entries


def check_limits(records, values):
    """Every number must fit the Rust type it is written as."""
    if len(records) >= NO_PARENT:
        sys.exit("gen_entities: too many slots for u16 indexes")
    limits = {"base": 0xFFFF, "label_start": 0xFFFF, "label_len": 0xFF, "value": 0xFFFF}
    for i, (name, limit) in enumerate(limits.items(), start=1):
        if max(record[i] for record in records if record) > limit:
            sys.exit(f"gen_entities: {name} does not fit its type")
    if len(values) >= 1 << (16 - VALUE_LEN_BITS):
        sys.exit("gen_entities: VALUES too long for the packed value offsets")


def number_lines(items, indent="    "):
    """Lay out short array items as rustfmt does: as many per line as fit, lines shorter than
    MAX_WIDTH (rustfmt keeps one column spare in this layout)."""
    lines, line = [], ""
    for item in items:
        piece = f"{item},"
        if line and len(indent) + len(line) + 1 + len(piece) >= MAX_WIDTH:
            lines.append(indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(indent + line)
    return "\n".join(lines)


def escape_char(c):
    """One character of a Rust string literal: printable ASCII as is, everything else escaped."""
    if c in "\"\\":
        return "\\" + c
    if "!" <= c <= "~":
        return c
    return f"\\u{{{ord(c):x}}}"


def string_lines(pieces, indent="    "):
    """Rust string literal content split with `\\` line continuations (no piece is whitespace)."""
    lines, line = [], ""
    for piece in pieces:
        if line and len(indent) + len(line) + len(piece) + 1 > MAX_WIDTH:
            lines.append(indent + line + "\\")
            line = ""
        line += piece
    lines.append(indent + line)
    return "\n".join(lines)


HEADER = """\
//! Generated by `tools/gen_entities.py` from `entities.json`; do not edit.
//!
//! The {count:,} WHATWG named character references as a radix trie in a double array, read by
//! [`super::entities::match_named`]: a step down the trie is one load and one compare. The root
//! is slot 0. The child of a node for the byte `b` is slot `base + CLASS[b]`, when that slot's
//! `parent` is the node's slot (`CLASS` numbers the 63 bytes a name can hold; every other byte
//! gets {no_class}, which no child has). A node without children has `base` 0; empty slots have
//! `parent` {no_parent}. The edge into a node is its byte followed by
//! `LABELS[label_start..label_start + label_len]`. A node where a name ends has a nonzero
//! `value`: `value >> VALUE_LEN_BITS` is the byte offset of its replacement text in `VALUES` and
//! the low bits its length in bytes. `FREQUENT` holds a few frequent names for the lookup's fast
//! path, found through `FREQUENT_BY_FIRST`.
//!
//! {n} nodes in {slots} slots; {size:,} bytes of tables. Source: {name},
//! sha256 {sha256}.

/// Number of slots.
pub(super) const SLOT_COUNT: usize = {slots};

/// How many low bits of a node's `value` hold the replacement text's length.
pub(super) const VALUE_LEN_BITS: u32 = {VALUE_LEN_BITS};

/// One slot of the double array: a trie node, or empty.
pub(super) struct Node {{
    /// The slot of the node's parent; {no_parent} for the root and empty slots.
    pub(super) parent: u16,
    /// The children's slots are `base + CLASS[b]`; 0 when the node has none.
    pub(super) base: u16,
    /// Offset in `LABELS` of the edge's bytes after its first.
    pub(super) label_start: u16,
    /// Number of the edge's bytes after its first.
    pub(super) label_len: u8,
    /// The packed replacement text when a name ends here, else 0.
    pub(super) value: u16,
}}

/// The byte class no name holds.
pub(super) const NO_CLASS: u8 = {no_class};

/// A frequent name, for the fast path of [`super::entities::match_named`].
pub(super) struct Frequent {{
    /// The name's bytes (without `;`) as a little-endian word, zero above them.
    pub(super) word: u64,
    /// Ones over the name's bytes in `word`.
    pub(super) mask: u64,
    /// Number of bytes in the name (without `;`), 1 to 7.
    pub(super) len: u8,
    /// The name is also a name without its `;`.
    pub(super) legacy: bool,
    /// The replacement text.
    pub(super) value: &'static str,
}}

/// A node record, so that each takes one short line below.
const fn node(parent: u16, base: u16, label_start: u16, label_len: u8, value: u16) -> Node {{
    Node {{
        parent,
        base,
        label_start,
        label_len,
        value,
    }}
}}"""


def frequent_line(name, legacy, value):
    """One `FREQUENT` record."""
    word = int.from_bytes(name, "little")
    mask = (1 << 8 * len(name)) - 1
    text = "".join(escape_char(c) for c in value)
    return (f"    Frequent {{ word: {word:#x}, mask: {mask:#x}, len: {len(name)}, "
            f"legacy: {str(legacy).lower()}, value: \"{text}\" }}, // {name.decode()}")


def render(tables, source_name, source_sha256, count):
    """The whole generated Rust file."""
    records, labels = tables["NODES"], tables["LABELS"]
    values = tables["VALUES"].decode("utf-8")
    slots = len(records)
    size = slots * 10 + 256 + len(labels) + len(tables["VALUES"])
    out = [HEADER.format(count=count, n=tables["node_count"], slots=slots, size=size,
                         name=source_name, sha256=source_sha256, VALUE_LEN_BITS=VALUE_LEN_BITS,
                         no_class=NO_CLASS, no_parent=NO_PARENT)]
    empty = (NO_PARENT, 0, 0, 0, 0)
    frequent = tables["FREQUENT"]
    by_first = [0] * 256
    for i, (name, _, _) in enumerate(frequent):
        by_first[name[0]] = i + 1
    out += [
        "",
        "/// The trie, root first.",
        "#[rustfmt::skip]",
        "pub(super) static NODES: [Node; SLOT_COUNT] = [",
        *(f"    node({parent}, {base}, {start}, {length}, {value}),"
          for parent, base, start, length, value in (r or empty for r in records)),
        "];",
        "",
        "/// The frequent names, each with its replacement text.",
        "#[rustfmt::skip]",
        f"pub(super) static FREQUENT: [Frequent; {len(frequent)}] = [",
        *(frequent_line(name, legacy, value) for name, legacy, value in frequent),
        "];",
        "",
        "/// For each byte, 1 + the index in `FREQUENT` of the name starting with it; 0 for none.",
        "pub(super) static FREQUENT_BY_FIRST: [u8; 256] = [",
        number_lines(by_first),
        "];",
        "",
        "/// Each byte's offset from a node's `base` to its child for that byte.",
        "pub(super) static CLASS: [u8; 256] = [",
        number_lines(tables["CLASS"]),
        "];",
        "",
        "/// The edge labels after their first byte, concatenated (shared where they overlap).",
        "pub(super) static LABELS: &[u8] = b\"\\",
        string_lines([chr(b) for b in labels]) + "\";",
        "",
        "/// The replacement texts, concatenated (shared where they overlap).",
        "pub(super) static VALUES: &str = \"\\",
        string_lines([escape_char(c) for c in values]) + "\";",
    ]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="?", default=DEFAULT_JSON,
                        help="entities.json (relative paths are taken from the repository root)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the committed table is not what would be generated")
    args = parser.parse_args()
    path = REPO_ROOT / args.json
    entities = load_entities(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    text = render(build_tables(entities), path.name, digest, len(entities))
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
        if current != text:
            print(f"{OUTPUT.relative_to(REPO_ROOT)} is stale: run python3 tools/gen_entities.py",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
