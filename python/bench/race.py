#!/usr/bin/env python3
"""The Python race: tagstream's bindings against the HTML libraries people call per record.

One process, the 258-page corpus (datasets/corpus, fetched by datasets/fetch-corpus.sh), every
page its own document. Four tasks, each subject doing the same work and returning something
derived from every result (so nothing is skipped):

- parse: tokenize (tagstream: `tokens()`, whose items become Python objects only when read) or
  build the tree (selectolax/Lexbor, Resiliparse, lxml);
- walk: parse, then visit every token (tagstream) or node (selectolax `traverse`, lxml `iter`)
  from Python, reading its kind or tag, and the name of each start tag (counting `a`);
- hrefs: every `a[href]` value, as written;
- links: every `a[href]` resolved against the page URL (tagstream resolves every URL attribute it
  knows, `<base href>` included: more work than the peers' `urljoin` over `a[href]`);
- text: the visible text (tagstream `text`, Resiliparse `extract_plain_text`, selectolax
  `.text()` of the body, lxml `text_content()`).

Passes are round-robin: one warm-up pass, then every pass runs every subject once over the whole
corpus, in an order shuffled anew each pass; the table shows each subject's median MB/s. Then,
outside the race: tagstream `links` in two Python threads against one, and against the CLI's
`tagstream links -j 1 --plain` over the same pages.

    python python/bench/race.py [--passes N] [--corpus DIR] [--cli PATH] [--out FILE]

Peers missing from the environment are left out and named. Install them with
`pip install selectolax resiliparse lxml`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urljoin

import tagstream

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://example.com/dir/page.html"


def tagstream_subjects():
    def parse(html):
        return len(tagstream.tokens(html, simulate=True))

    def walk(html):
        count = 0
        for token in tagstream.tokens(html):
            if token.kind == "start_tag" and token.name == "a":
                count += 1
        return count

    def hrefs(html):
        return sum(
            len(link.url)
            for link in tagstream.links(html)
            if link.element == "a" and link.attribute == "href"
        )

    def links(html):
        return sum(len(link.resolved or "") for link in tagstream.links(html, base_url=BASE))

    def text(html):
        return len(tagstream.text(html).text)

    return {"parse": parse, "walk": walk, "hrefs": hrefs, "links": links, "text": text}


def selectolax_subjects(module):
    parser = module.lexbor.LexborHTMLParser

    def parse(html):
        return parser(html).root is not None

    def walk(html):
        root = parser(html).root
        count = 0
        for node in root.traverse(include_text=True) if root is not None else ():
            if node.tag == "a":
                count += 1
        return count

    def a_hrefs(tree):
        return [node.attributes.get("href") or "" for node in tree.css("a[href]")]

    def hrefs(html):
        return sum(len(h) for h in a_hrefs(parser(html)))

    def links(html):
        return sum(len(urljoin(BASE, h)) for h in a_hrefs(parser(html)))

    def text(html):
        body = parser(html).body
        return len(body.text(separator=" ")) if body is not None else 0

    return {"parse": parse, "walk": walk, "hrefs": hrefs, "links": links, "text": text}


def resiliparse_subjects(module):
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    def tree(html):
        return HTMLTree.parse_from_bytes(html)

    def parse(html):
        return tree(html).document is not None

    def text(html):
        return len(extract_plain_text(tree(html)))

    # No hrefs or links: reaching its DOM nodes from Python (Resiliparse 2.0.1) ran at about
    # 1 MB/s over the corpus, any way tried (query_selector_all, get_elements_by_tag_name, by
    # index); the number of matches alone comes at parse speed. Its text extraction is raced.
    return {"parse": parse, "text": text}


def lxml_subjects(module):
    import lxml.html

    def tree(html):
        return lxml.html.document_fromstring(html) if html.strip() else None

    def a_hrefs(t):
        return [] if t is None else t.xpath("//a/@href")

    def parse(html):
        return tree(html) is not None

    def walk(html):
        t = tree(html)
        count = 0
        for element in t.iter() if t is not None else ():
            if element.tag == "a":
                count += 1
        return count

    def hrefs(html):
        return sum(len(h) for h in a_hrefs(tree(html)))

    def links(html):
        return sum(len(urljoin(BASE, h)) for h in a_hrefs(tree(html)))

    def text(html):
        t = tree(html)
        return 0 if t is None else len(t.text_content())

    return {"parse": parse, "walk": walk, "hrefs": hrefs, "links": links, "text": text}


PEERS = {
    "selectolax": ("selectolax", "selectolax.lexbor", selectolax_subjects),
    "resiliparse": ("resiliparse", "resiliparse.parse.html", resiliparse_subjects),
    "lxml": ("lxml", "lxml.html", lxml_subjects),
}


def load_corpus(folder: Path) -> list[bytes]:
    pages = [path.read_bytes() for path in sorted(folder.glob("*.html"))]
    if not pages:
        sys.exit(f"race.py: no *.html in {folder} (run datasets/fetch-corpus.sh)")
    return pages


def subjects() -> tuple[dict, list[str], dict[str, str]]:
    """Every (library, task) -> function; libraries left out; versions."""
    table = {("tagstream", task): f for task, f in tagstream_subjects().items()}
    missing, versions = [], {"tagstream": importlib.metadata.version("tagstream")}
    for name, (dist, module_name, make) in PEERS.items():
        try:
            module = importlib.import_module(module_name)
            versions[name] = importlib.metadata.version(dist)
        except ImportError:
            missing.append(name)
            continue
        if name == "selectolax":
            module = importlib.import_module("selectolax")
            importlib.import_module("selectolax.lexbor")
        for task, f in make(module).items():
            table[(name, task)] = f
    return table, missing, versions


def one_pass(f, pages) -> tuple[float, int]:
    started = time.perf_counter()
    check = 0
    for html in pages:
        check += int(f(html))
    return time.perf_counter() - started, check


def race(table, pages, passes: int) -> dict:
    total = sum(len(p) for p in pages)
    times = {key: [] for key in table}
    checks = {}
    order = list(table)
    for n in range(passes + 1):
        random.Random(n).shuffle(order)
        for key in order:
            seconds, check = one_pass(table[key], pages)
            checks[key] = check
            if n > 0:
                times[key].append(seconds)
        print(f"pass {n}/{passes} done", file=sys.stderr)
    return {
        key: (total / statistics.median(t) / 1e6, total / max(t) / 1e6, total / min(t) / 1e6, checks[key])
        for key, t in times.items()
    }


def threads_ratio(pages, passes: int) -> tuple[float, float]:
    """tagstream links on one Python thread and on two: MB/s of each (median of passes)."""
    total = sum(len(p) for p in pages)

    def work(chunk):
        return sum(len(tagstream.links(html, base_url=BASE)) for html in chunk)

    def timed(threads: int) -> float:
        runs = []
        halves = [pages[0::2], pages[1::2]]
        for _ in range(passes):
            started = time.perf_counter()
            if threads == 1:
                work(pages)
            else:
                with concurrent.futures.ThreadPoolExecutor(threads) as pool:
                    list(pool.map(work, halves))
            runs.append(time.perf_counter() - started)
        return total / statistics.median(runs) / 1e6

    return timed(1), timed(2)


def cli_links(cli: Path, folder: Path, pages, passes: int) -> float | None:
    """The CLI's `links -j 1 --plain` over the corpus: MB/s (median of passes)."""
    if not cli.exists():
        return None
    files = [str(p) for p in sorted(folder.glob("*.html"))]
    total = sum(len(p) for p in pages)
    runs = []
    for _ in range(passes):
        started = time.perf_counter()
        run = subprocess.run(
            [str(cli), "links", "-j", "1", "--plain", "--quiet", "--base", BASE, *files],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if run.returncode != 0:
            print(f"race.py: the CLI failed: {run.stderr.decode()[-500:]}", file=sys.stderr)
            return None
        runs.append(time.perf_counter() - started)
    return total / statistics.median(runs) / 1e6


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def report(results, missing, versions, pages, passes, threads, cli, load) -> str:
    total = sum(len(p) for p in pages)
    lines = [
        f"# Python race: {datetime.date.today()} on {cpu_model()}",
        "",
        f"- Python {platform.python_version()} ({platform.machine()}, {os.cpu_count()} logical cores); "
        + ", ".join(f"{k} {v}" for k, v in versions.items()),
        f"- Corpus: {len(pages)} pages, {total:,} bytes; {passes} timed passes after a warm-up, "
        "order shuffled each pass; median MB/s (min–max)",
        f"- Load average (1 minute) at the start and the end of the race: {load[0]:.2f}, "
        f"{load[1]:.2f} (other work on the machine slows every subject alike)",
    ]
    if missing:
        lines.append(f"- Not installed, left out: {', '.join(missing)}")
    lines += ["", "| task | subject | MB/s | min–max | tagstream / subject |", "|---|---|---:|---:|---:|"]
    for task in ["parse", "walk", "hrefs", "links", "text"]:
        ours = results.get(("tagstream", task), (0,))[0]
        for (library, t), (median, low, high, _) in sorted(results.items(), key=lambda kv: -kv[1][0]):
            if t != task:
                continue
            ratio = ours / median if median else float("nan")
            lines.append(f"| {task} | {library} | {median:.0f} | {low:.0f}–{high:.0f} | {ratio:.2f}× |")
    one, two = threads
    lines += ["", f"- tagstream `links` (resolved): one Python thread {one:.0f} MB/s, two {two:.0f} MB/s ({two / one:.2f}×)"]
    if cli is not None:
        binding = results[("tagstream", "links")][0]
        lines.append(
            f"- CLI `tagstream links -j 1 --plain` over the same pages: {cli:.0f} MB/s "
            f"(bindings' `links` {binding / cli:.0%} of it; the CLI's time includes reading the files and writing JSON)"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=ROOT / "datasets" / "corpus")
    parser.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "tagstream")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args()
    pages = load_corpus(args.corpus)
    table, missing, versions = subjects()
    load = [os.getloadavg()[0]]
    results = race(table, pages, args.passes)
    load.append(os.getloadavg()[0])
    threads = threads_ratio(pages, args.passes)
    cli = cli_links(args.cli, args.corpus, pages, args.passes)
    text = report(results, missing, versions, pages, args.passes, threads, cli, load)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)


if __name__ == "__main__":
    main()
