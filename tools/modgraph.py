#!/usr/bin/env python3
"""The library's module graph, and its circles.

A node is a top-level module of src/ (`token`, `tokenizer`, ...), except in the dialect folders
(`html/`, `xml5/`, `sgml/`), whose direct children are nodes of their own (`html::machine`,
`html::simulator`, ...): the seam between the shared machinery and a dialect, and between a
dialect's parts, is what the graph is for. An edge A -> B is a path `crate::B...` (or `super::`
reaching B) written anywhere in A's files, tests included; a name the crate root re-exports
(`crate::Tokenizer`) counts as the module it comes from.

    tools/modgraph.py            print the edges and the circles; exit 1 if there is a circle
    tools/modgraph.py --dot      the graph in Graphviz's dot format
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
DIALECTS = {"html", "xml5", "sgml"}


def module_of(path):
    """The module path of a source file, as a list of names."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return parts


def node_of(parts):
    """The graph node a module path belongs to, or None for the crate root."""
    if not parts:
        return None
    if parts[0] in DIALECTS and len(parts) > 1:
        return "::".join(parts[:2])
    return parts[0]


def root_reexports():
    """Names the crate root re-exports, mapped to the module path they come from."""
    text = (SRC / "lib.rs").read_text()
    names = {}
    for m in re.finditer(r"pub use ([\w:]+)::\{([^}]*)\};|pub use ([\w:]+)::(\w+);", text, re.S):
        base, items = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        for item in re.split(r"[,\s]+", items):
            if item:
                names[item] = base.split("::")
    return names


def targets(text, here, reexports):
    """The module paths a file's `crate::`/`super::` paths reach."""
    text = re.sub(r"//[^\n]*", "", text)  # comments and doc comments: links are not uses
    for m in re.finditer(r"\b(crate|super)((?:::\w+)+|::\{)", text):
        if m.group(1) == "crate":
            path = m.group(2).strip(":").split("::")
            if path == ["{"] or path[0] == "{":
                # `crate::{A, B}`: each name through the root's re-exports.
                inner = text[m.end():text.index("}", m.end())]
                for name in re.findall(r"\w+", inner):
                    yield reexports.get(name, [name])
                continue
            yield reexports.get(path[0], path) if len(path) == 1 or path[0] in reexports else path
        else:
            parent = here[:-1] if here else []
            yield parent + m.group(2).strip(":").split("::")


def graph():
    reexports = root_reexports()
    modules = {tuple(module_of(p)) for p in SRC.rglob("*.rs")}
    edges = {}
    for path in sorted(SRC.rglob("*.rs")):
        here = module_of(path)
        source = node_of(here)
        if source is None:
            continue
        for target in targets(path.read_text(), here, reexports):
            # The longest prefix that is a module of the crate.
            while target and tuple(target) not in modules:
                target = target[:-1]
            node = node_of(target)
            if node and node != source:
                edges.setdefault(source, set()).add(node)
    return edges


def circles(edges):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    return out


def main():
    edges = graph()
    if "--dot" in sys.argv[1:]:
        print("digraph tagstream {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'  "{a}" -> "{b}";')
        print("}")
        return 0
    for a in sorted(edges):
        print(f"{a} -> {', '.join(sorted(edges[a]))}")
    found = circles(edges)
    for c in found:
        print(f"circle: {' <-> '.join(c)}")
    print(f"{len(edges)} modules with imports, {sum(map(len, edges.values()))} edges, "
          f"{len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
