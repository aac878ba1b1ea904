"""python/examples/spark_host_links.py in Spark's local[2] mode: its host-to-host link counts over
WARC files written with warcio equal those computed from the CLI's `tagstream links` over the
same files. Needs Java and pyspark: python/ci.sh installs them and sets TAGSTREAM_SPARK=required,
which turns a missing one into a failure rather than a skip."""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spark_host_links.py"


def spark_ready():
    """Why Spark cannot run here, or None."""
    if shutil.which("java") is None:
        return "no java on PATH"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed"
    return None


@pytest.fixture(scope="module")
def spark():
    why = spark_ready()
    if why is None:
        return
    if os.environ.get("TAGSTREAM_SPARK") == "required":
        pytest.fail(f"Spark is required here: {why}")
    pytest.skip(why)


def write_warc(path, pages, truncate=False):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    for uri, content_type, body in pages:
        headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
        record = writer.create_warc_record(
            uri, "response", payload=io.BytesIO(body), http_headers=headers
        )
        writer.write_record(record)
    data = out.getvalue()
    path.write_bytes(data[: len(data) - 20] if truncate else data)


def cli_host_counts(cli, paths):
    """(source host, target host) -> links, from the CLI's JSON lines."""
    out = subprocess.run(
        [cli, "links", "--quiet", *map(str, paths)], capture_output=True, check=False
    ).stdout
    counts = Counter()
    for line in out.decode().splitlines():
        link = json.loads(line)
        source = urlsplit(link["page"]).hostname if link.get("page") else None
        target = urlsplit(link["resolved"]).hostname if link.get("resolved") else None
        if source and target:
            counts[(source, target)] += 1
    return counts


def test_the_spark_example_counts_what_the_cli_finds(spark, cli, tmp_path):
    corpus = Path(__file__).resolve().parents[2] / "datasets" / "samples"
    samples = sorted(corpus.glob("*.html"))
    first = [
        ("https://a.example/dir/", "text/html", b"<a href=../up>u</a><a href=//b.example/x>b</a>"),
        ("https://b.example/", "text/html; charset=windows-1252",
         b"<base href=https://c.example/><a href='?q=\xe9'>q</a><img src=i.png>"),
        ("https://a.example/img.png", "image/png", b"\x89PNG not html <a href=//d.example/>"),
        ("https://e.example/", "text/html", b"<a href=mailto:x@e.example>m</a><a href=/s>s</a>"),
    ]
    second = [
        (f"https://s{i}.example/{page.name}", "text/html", page.read_bytes())
        for i, page in enumerate(samples)
    ]
    paths = [tmp_path / "one.warc.gz", tmp_path / "two.warc.gz", tmp_path / "cut.warc.gz"]
    write_warc(paths[0], first)
    write_warc(paths[1], second)
    write_warc(paths[2], first[:2], truncate=True)
    listing = tmp_path / "paths.txt"
    listing.write_text("".join(f"{p}\n" for p in paths))
    out = tmp_path / "counts"
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), str(listing), str(out), "--master", "local[2]"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert "records skipped (unreadable): " in run.stderr
    counts = Counter()
    for part in sorted(out.glob("part-*.csv")):
        with part.open(newline="") as f:
            for row in csv.DictReader(f):
                counts[(row["source_host"], row["target_host"])] += int(row["links"])
    expected = cli_host_counts(cli, paths)
    assert counts == expected
    # Once in one.warc.gz, once in cut.warc.gz, whose first member is whole.
    assert counts[("a.example", "b.example")] == 2
    assert counts[("b.example", "c.example")] >= 2
    assert sum(counts.values()) > 50
