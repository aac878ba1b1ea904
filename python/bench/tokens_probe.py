#!/usr/bin/env python3
"""A probe of what `tagstream.tokens()` costs, for callgrind (whose instruction counts other work
on the machine does not move): tokenize the first 60 corpus pages and do one thing with the
tokens.

    valgrind --tool=callgrind python python/bench/tokens_probe.py MODE

MODE is `none` (start Python and read the pages: subtract this), `parse` (`len(tokens(html))`),
`walk` (iterate, reading every token's `kind`) or `name` (`walk`, and the name of each start
tag).
"""

import sys
from pathlib import Path

import tagstream

CORPUS = Path(__file__).resolve().parents[2] / "datasets" / "corpus"
PAGES = [path.read_bytes() for path in sorted(CORPUS.glob("*.html"))[:60]]


def probe(mode: str) -> int:
    count = 0
    for html in PAGES if mode != "none" else ():
        if mode == "parse":
            count += len(tagstream.tokens(html))
            continue
        for token in tagstream.tokens(html):
            if token.kind == "start_tag" and (mode == "walk" or token.name == "a"):
                count += 1
    return count


if __name__ == "__main__":
    print(probe(sys.argv[1]), sum(map(len, PAGES)))
