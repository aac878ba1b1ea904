"""The GIL is released while tagstream works, and memory stays flat over many documents."""

import itertools
import threading
import time

import tagstream
from conftest import BASE_URL


def rss_kib():
    """This process's resident set, in KiB (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def test_another_thread_runs_while_tagstream_works(pages):
    big = b"".join(page.read_bytes() for page in pages)  # the whole corpus as one document
    counts, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            counts[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.05)
        before = counts[0]
        started = time.perf_counter()
        found = tagstream.links(big, BASE_URL)
        page = tagstream.text(big)
        tokens = tagstream.tokens(big)
        events = tagstream.tokens(big[: len(big) // 4], dialect="sgml")
        elapsed = time.perf_counter() - started
        during = counts[0] - before
    finally:
        stop.set()
        counter.join()
    assert len(found) > 10_000 and len(page.text) > 1_000_000
    assert len(tokens) > 500_000 and len(events) > 100_000
    # With the GIL held the counter would stand still for the whole call (bar a switch or two);
    # released, it counts on at its usual pace (millions per second), even on a busy machine.
    assert during > 1000, f"the counter advanced {during} times in {elapsed:.2f} s"


def test_rss_stays_flat_over_10000_documents(pages):
    docs = [page.read_bytes() for page in pages]
    work = itertools.cycle(docs)

    def run(n):
        for i in range(n):
            doc = next(work)
            if i % 4 == 1:
                tagstream.links(memoryview(doc), BASE_URL)
            elif i % 4 == 3:
                tagstream.text(doc)
            elif i % 8 == 0:
                for token in tagstream.tokens(doc):
                    token.kind
            else:
                len(tagstream.tokens(doc, dialect="sgml"))

    run(1000)  # warm-up: allocator pools, interned strings
    before = rss_kib()
    run(9000)
    grown = rss_kib() - before
    assert grown < 16 * 1024, f"RSS grew by {grown} KiB over 9,000 documents"
