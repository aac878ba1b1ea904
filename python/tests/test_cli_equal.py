"""links() and text() give what the CLI's `links` and `text` print, for every corpus page."""

from pathlib import Path

import pytest

import tagstream
from conftest import BASE_URL, SAMPLES, run_cli


def link_record(link):
    """A Link as the CLI's JSON line has it."""
    return {
        "element": link.element,
        "attribute": link.attribute,
        "url": link.url,
        "resolved": link.resolved,
        "span": list(link.span) if link.span is not None else None,
        "in_template": link.in_template,
    }


def text_record(page):
    return {"title": page.title, "description": page.description, "text": page.text}


def assert_all_equal(expected, actual):
    """Every page's records equal; the first page that differs is named."""
    assert expected.keys() <= actual.keys()
    differing = [name for name in actual if actual[name] != expected.get(name, [])]
    assert not differing, f"{len(differing)} pages differ, first {differing[0]}"


def test_links_equal_the_cli_on_the_corpus(cli, pages):
    expected = run_cli(cli, "links", "--base", BASE_URL, *map(str, pages))
    actual = {
        page.name: [link_record(l) for l in tagstream.links(page.read_bytes(), BASE_URL)]
        for page in pages
    }
    assert sum(map(len, actual.values())) > 10_000
    assert_all_equal(expected, actual)


@pytest.mark.parametrize("blocks", [False, True])
def test_text_equals_the_cli_on_the_corpus(cli, pages, blocks):
    args = ["text", "--blocks"] if blocks else ["text"]
    expected = run_cli(cli, *args, *map(str, pages))
    actual = {
        page.name: [text_record(tagstream.text(page.read_bytes(), blocks=blocks))]
        for page in pages
    }
    assert_all_equal(expected, actual)


def test_scripting_and_samples_equal_the_cli(cli):
    samples = sorted(SAMPLES.glob("*.html"))
    for scripting in (False, True):
        flag = ["--scripting"] if scripting else []
        links = run_cli(cli, "links", *flag, *map(str, samples))
        texts = run_cli(cli, "text", *flag, *map(str, samples))
        for sample in samples:
            html = sample.read_bytes()
            found = tagstream.links(html, scripting=scripting)
            assert [link_record(l) for l in found] == links.get(sample.name, [])
            page = tagstream.text(html, scripting=scripting)
            assert [text_record(page)] == texts[sample.name]


# windows-1252 by <meta> (late: read again), by the transport label, and Shift_JIS by a label
# only; UTF-8 with a BOM against a label that loses to it.
ENCODED = {
    "late-meta.html": b"<p>caf\xe9 " + b"x" * 2000 + b"<meta charset=windows-1252><a href='?q=\xe9'>\xe9</a>",
    "label.html": b"<a href='/\xe9?q=\xe9'>caf\xe9</a>",
    "sjis.html": "<title>日本語</title><a href='?q=日本'>日本</a>".encode("shift_jis"),
    "bom.html": b"\xef\xbb\xbf<a href='?q=\xc3\xa9'>\xc3\xa9</a>",
}


@pytest.mark.parametrize("label", [None, "windows-1252", "shift_jis"])
def test_encodings_equal_the_cli(cli, tmp_path, label):
    for name, html in ENCODED.items():
        (tmp_path / name).write_bytes(html)
    flag = ["--encoding", label] if label else []
    files = [str(tmp_path / name) for name in ENCODED]
    links = run_cli(cli, "links", "--base", BASE_URL, *flag, *files)
    texts = run_cli(cli, "text", *flag, *files)
    for name, html in ENCODED.items():
        found = tagstream.links(html, BASE_URL, encoding=label)
        assert [link_record(l) for l in found] == links.get(name, []), name
        assert [text_record(tagstream.text(html, encoding=label))] == texts[name], name


def test_the_chosen_encoding_is_reported():
    assert tagstream.links(ENCODED["late-meta.html"]).encoding == "windows-1252"
    assert tagstream.text(ENCODED["bom.html"], encoding="shift_jis").encoding == "UTF-8"
    assert tagstream.text(ENCODED["sjis.html"], encoding="shift_jis").encoding == "Shift_JIS"
    assert tagstream.text(b"<p>plain ascii").encoding == "windows-1252"
    assert tagstream.text("<p>naïve").encoding == "UTF-8"
    assert tagstream.text(b"<p>x", encoding="no-such-label").encoding == "windows-1252"
    assert tagstream.text(b"<p>\xe9", default_encoding="koi8-r").text == "И"
    with pytest.raises(ValueError):
        tagstream.text(b"<p>", default_encoding="no-such-label")


def test_every_input_type_reads_the_same_bytes():
    html = "<title>T</title><a href=/é>é</a>"
    raw = html.encode()
    expected = tagstream.links(raw, BASE_URL).links
    for value in (html, raw, bytearray(raw), memoryview(raw), memoryview(bytearray(raw))):
        assert tagstream.links(value, BASE_URL).links == expected
        assert tagstream.text(value).text == "é"
    assert tagstream.text(memoryview(b"xx<p>a")[2:]).text == "a"
    with pytest.raises(TypeError):
        tagstream.links(42)
    with pytest.raises(BufferError):
        tagstream.text(memoryview(b"abcdef")[::2])


def test_links_are_typed_objects():
    found = tagstream.links(b'<a href="x?a=1&amp;b">y</a>', "https://example.com/d/")
    (link,) = found
    assert len(found) == 1 and found[0] == found[-1] == link
    assert (link.element, link.attribute, link.url) == ("a", "href", "x?a=1&b")
    assert link.resolved == "https://example.com/d/x?a=1&b"
    assert link.span == (9, 20) and link.in_template is False
    with pytest.raises(AttributeError):
        link.url = "changed"
    assert repr(link) == (
        "Link(element='a', attribute='href', url='x?a=1&b', "
        "resolved='https://example.com/d/x?a=1&b', span=(9, 20), in_template=False)"
    )
    assert repr(found) == "<Links: 1 links, encoding windows-1252>"
    assert repr(tagstream.text(b"<p>x")) == "Text(title=None, description=None, text='x', encoding='windows-1252')"


def test_a_document_the_cli_streams_equals_it_too(cli, pages, tmp_path):
    """The whole corpus as one 24 MB page: the CLI reads it in chunks (past 4 MiB), the
    bindings whole; links, spans and text still agree."""
    big = b"".join(page.read_bytes() for page in pages)
    path = tmp_path / "big.html"
    path.write_bytes(big)
    links = run_cli(cli, "links", "--base", BASE_URL, str(path))["big.html"]
    assert [link_record(l) for l in tagstream.links(big, BASE_URL)] == links
    assert [text_record(tagstream.text(big))] == run_cli(cli, "text", str(path))["big.html"]
