"""tagstream.warc gives what the CLI gives, on a .warc.gz written with warcio as a crawler writes
one: records with and without WARC-Identified-Payload-Type, non-HTML responses, request,
metadata and revisit records, a charset in the HTTP header, a gzip body kept as on the wire, and
a truncated last member. What is skipped is listed as the CLI reports it on stderr."""

import gzip
import io
import json
import pickle
import re
import subprocess
import zlib
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import tagstream
from conftest import CORPUS
from test_cli_equal import link_record, text_record

PAGES = [
    ("https://a.example/", "text/html", {"WARC-Identified-Payload-Type": "text/html"},
     b"<title>A</title><a href=/one>one</a> <img src='i.png' srcset='j.png 2x'>"),
    ("https://b.example/dir/", "text/html; charset=windows-1252", {},
     b"<title>caf\xe9</title><a href='?q=\xe9'>\xe9t\xe9</a>"),
    ("https://c.example/x.png", "image/png", {"WARC-Identified-Payload-Type": "image/png"},
     b"\x89PNG\r\n\x1a\n not html <a href=/no>"),
    ("https://d.example/", "application/xhtml+xml", {},
     b"<html xmlns='http://www.w3.org/1999/xhtml'><body><a href='x'>x</a></body></html>"),
    ("https://e.example/pdf", "text/html", {"WARC-Identified-Payload-Type": "application/pdf"},
     b"<p>the HTTP header says HTML: read as HTML <a href=/e>"),
]


def member(write):
    """One record written by warcio as its own gzip member."""
    out = io.BytesIO()
    write(WARCWriter(out, gzip=True))
    return out.getvalue()


def response(uri, content_type, warc_headers, body, extra=()):
    def write(writer):
        headers = StatusAndHeaders(
            "200 OK", [("Content-Type", content_type), *extra], protocol="HTTP/1.1"
        )
        record = writer.create_warc_record(
            uri, "response", payload=io.BytesIO(body), http_headers=headers,
            warc_headers_dict=warc_headers,
        )
        writer.write_record(record)

    return member(write)


def request(uri):
    def write(writer):
        headers = StatusAndHeaders("GET / HTTP/1.1", [("Host", uri.split("/")[2])],
                                   is_http_request=True)
        writer.write_record(writer.create_warc_record(uri, "request", http_headers=headers))

    return member(write)


def metadata(uri):
    def write(writer):
        writer.write_record(writer.create_warc_record(
            uri, "metadata", payload=io.BytesIO(b"via: tagstream test\n"),
            warc_content_type="application/warc-fields",
        ))

    return member(write)


def revisit(uri):
    def write(writer):
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_revisit_record(
            uri, "sha1:AAAA", uri, "2026-01-01T00:00:00Z", http_headers=headers,
        ))

    return member(write)


def corpus_responses():
    """A few real pages, when the corpus is there."""
    pages = sorted(CORPUS.glob("*.html"))[:5] if CORPUS.is_dir() else []
    return [response(f"https://corpus.example/{p.name}", "text/html", {}, p.read_bytes())
            for p in pages]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """The archive's path; its last member (an HTML response) cut short."""
    def write(writer):
        writer.write_record(writer.create_warcinfo_record("crawl.warc.gz", {"software": "test"}))

    members = [member(write)]
    for uri, content_type, warc_headers, body in PAGES:
        members += [request(uri), response(uri, content_type, warc_headers, body)]
    members += [metadata("https://a.example/"), revisit("https://a.example/")]
    zipped = gzip.compress(b"<a href=/zipped>zipped</a>")
    members.append(response("https://f.example/", "text/html", {}, zipped,
                            [("Content-Encoding", "gzip")]))
    members += corpus_responses()
    last = response("https://g.example/", "text/html", {}, b"<a href=/lost>lost</a>" * 50)
    members.append(last[: len(last) // 2])
    path = tmp_path_factory.mktemp("warc") / "crawl.warc.gz"
    path.write_bytes(b"".join(members))
    return path


def cli_run(cli, *args):
    """The CLI's JSON lines, and the (offset, reason) of each thing it skipped."""
    done = subprocess.run([str(cli), *args, "--quiet"], capture_output=True)
    assert done.returncode in (0, 3), done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    skipped = []
    for line in done.stderr.decode().splitlines():
        found = re.match(r"tagstream: skipped .*? at offset (\d+): (.*)", line)
        assert found, line
        skipped.append((int(found.group(1)), found.group(2)))
    for line in lines:
        line.pop("input")
    return lines, skipped


def link_lines(pages):
    return [
        {"offset": offset, "page": uri, **link_record(link)}
        for offset, uri, links in pages
        for link in links
    ]


def text_lines(pages):
    return [{"offset": offset, "page": uri, **text_record(page)} for offset, uri, page in pages]


def test_links_and_text_equal_the_cli(cli, archive):
    lines, skipped = cli_run(cli, "links", str(archive))
    found = tagstream.warc.links(archive)
    assert link_lines(found) == lines
    assert found.skipped == skipped
    assert len(skipped) == 1 and "gzip member" in skipped[0][1]
    assert {uri for _, uri, _ in found} >= {"https://a.example/", "https://b.example/dir/",
                                            "https://d.example/", "https://f.example/"}
    assert "https://c.example/x.png" not in {uri for _, uri, _ in found}
    for blocks in (False, True):
        lines, skipped = cli_run(cli, "text", *(["--blocks"] if blocks else []), str(archive))
        found = tagstream.warc.text(str(archive), blocks=blocks)
        assert text_lines(found) == lines
        assert found.skipped == skipped


def test_records_read_one_at_a_time_give_the_same(archive):
    whole = tagstream.warc.links(archive)
    records = tagstream.warc.records(archive)
    per_record = [
        (record.offset, record.uri,
         tagstream.links(record.payload, record.uri, encoding=record.charset))
        for record in records
    ]
    assert link_lines(per_record) == link_lines(whole)
    assert records.skipped == whole.skipped
    b = next(r for r in tagstream.warc.records(archive) if r.uri == "https://b.example/dir/")
    assert b.charset == "windows-1252" and b.status == "HTTP/1.1 200 OK"
    assert ("Content-Type", "text/html; charset=windows-1252") in b.headers
    assert tagstream.text(b.payload, encoding=b.charset).title == "café"
    f = next(r for r in tagstream.warc.records(archive) if r.uri == "https://f.example/")
    assert f.payload == b"<a href=/zipped>zipped</a>"


def test_records_pickle(archive):
    """Spark and Ray ship records between workers: a record comes back equal, field by field."""
    records = list(tagstream.warc.records(archive))
    assert len(records) > 3
    for record in records:
        copy = pickle.loads(pickle.dumps(record))
        assert copy == record and copy is not record
        fields = ("offset", "uri", "status", "headers", "charset", "payload")
        assert [getattr(copy, f) for f in fields] == [getattr(record, f) for f in fields]
        assert type(copy.payload) is bytes
    assert records[0] != records[1]
    assert records[0] != "not a record"


def whole_members(data):
    """The records of the gzip members of `data` that are whole."""
    records = []
    while data:
        member = zlib.decompressobj(31)
        record = member.decompress(data)
        if not member.eof:
            break
        records.append(record)
        data = member.unused_data
    return b"".join(records)


def test_a_file_object_reads_as_its_path(archive):
    expected = link_lines(tagstream.warc.links(archive))
    with open(archive, "rb") as file:
        assert link_lines(tagstream.warc.links(file)) == expected
    # Not gzip-compressed, in memory: the same records, at their own offsets.
    plain = io.BytesIO(whole_members(archive.read_bytes()))
    found = tagstream.warc.links(plain)
    assert [line["url"] for line in link_lines(found)] == [line["url"] for line in expected]


def test_what_cannot_be_opened_raises_and_nothing_else_does(tmp_path):
    with pytest.raises(FileNotFoundError):
        tagstream.warc.records(tmp_path / "missing.warc.gz")
    with pytest.raises(TypeError):
        tagstream.warc.links(42)
    garbage = tmp_path / "garbage.warc.gz"
    garbage.write_bytes(b"\x1f\x8b\x08 not really gzip" * 3)
    found = tagstream.warc.links(garbage)
    assert len(found) == 0 and found.skipped and found.skipped[0][0] == 0


def test_another_thread_runs_while_a_whole_archive_is_read(pages, tmp_path):
    import threading
    import time

    path = tmp_path / "corpus.warc.gz"
    path.write_bytes(b"".join(
        response(f"https://corpus.example/{page.name}", "text/html", {}, page.read_bytes())
        for page in pages
    ))
    counts, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            counts[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.05)
        before = counts[0]
        found = tagstream.warc.links(path)
        during = counts[0] - before
    finally:
        stop.set()
        counter.join()
    assert len(found) == len(pages) and not found.skipped
    # With the GIL held through the call the counter would stand still (see test_resources.py).
    assert during > 1000, f"the counter advanced {during} times"
