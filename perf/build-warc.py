#!/usr/bin/env python3
"""A .warc.gz built from the corpus, as a crawler writes one, for measuring the WARC path.

Writes, with warcio (from PyPI: `pip install warcio`), a warcinfo record and then, page after page
of datasets/corpus (in name order, over and over, up to the first page that takes the file
to SIZE_MB megabytes), a
`request` and a `response` record for each page, each record gzipped as its own member as Common
Crawl writes them. Every response has `Content-Type: text/html` and a target URI of its own
(https://corpus-N.example/<file name>), so `tagstream links` resolves against it.

Usage: perf/build-warc.py OUT.warc.gz SIZE_MB [CORPUS_DIR]
       e.g. perf/build-warc.py /tmp/corpus-100.warc.gz 100
"""

import io
import os
import sys

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def pages(corpus):
    """(name, bytes) of every HTML page in the corpus folder, in name order."""
    names = sorted(n for n in os.listdir(corpus) if n.endswith((".html", ".htm")))
    return [(n, open(os.path.join(corpus, n), "rb").read()) for n in names]


def write_page(writer, uri, body):
    request = StatusAndHeaders(
        "GET / HTTP/1.1", [("Host", uri.split("/")[2])], is_http_request=True
    )
    writer.write_record(
        writer.create_warc_record(uri, "request", http_headers=request)
    )
    headers = StatusAndHeaders(
        "200 OK",
        [("Content-Type", "text/html"), ("Content-Length", str(len(body)))],
        protocol="HTTP/1.1",
    )
    record = writer.create_warc_record(
        uri, "response", payload=io.BytesIO(body), http_headers=headers
    )
    writer.write_record(record)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    out, size_mb = sys.argv[1], float(sys.argv[2])
    corpus = sys.argv[3] if len(sys.argv) == 4 else "datasets/corpus"
    corpus_pages = pages(corpus)
    target = size_mb * 1e6
    with open(out, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        info = {"software": "tagstream perf/build-warc.py", "source": corpus}
        writer.write_record(writer.create_warcinfo_record(os.path.basename(out), info))
        records = 0
        while f.tell() < target:
            name, body = corpus_pages[records % len(corpus_pages)]
            round_ = records // len(corpus_pages)
            write_page(writer, f"https://corpus-{round_}.example/{name}", body)
            records += 1
    print(f"{out}: {os.path.getsize(out) / 1e6:.1f} MB, {records} responses", file=sys.stderr)


if __name__ == "__main__":
    main()
