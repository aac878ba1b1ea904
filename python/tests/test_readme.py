"""The README's examples run and print what their comments say."""

import contextlib
import io
import re
from pathlib import Path

import tagstream

README = Path(__file__).resolve().parents[1] / "README.md"


def examples():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def run(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"tagstream": tagstream})
    return out.getvalue().splitlines()


def test_the_per_record_example():
    lines = run(examples()[0])
    assert lines == [
        "base href /menu/ https://example.com/menu/ (31, 37) False",
        "a href order?d=1 https://example.com/menu/order?d=1 (69, 78) False",
        "windows-1252",
        "Menu None Fish & chips: order",
    ]


def test_the_tokens_example_prints_its_comments():
    code = examples()[1].split("\ntokenizer =")[0]
    expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert run(code) == expected


def test_the_sgml_example_prints_its_comments():
    code = examples()[2]
    expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert run(code) == expected


def test_the_warc_example(tmp_path, monkeypatch):
    from test_warc import response

    page = b"<title>A</title><a href=/one>one</a>"
    (tmp_path / "crawl.warc.gz").write_bytes(
        response("https://a.example/", "text/html", {}, page)
    )
    monkeypatch.chdir(tmp_path)
    assert run(examples()[3]) == [
        "0 https://a.example/ ['https://a.example/one']",
        "[]",
        "https://a.example/ HTTP/1.1 200 OK A",
        "[]",
    ]
