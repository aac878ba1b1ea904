"""tokens(..., dialect="sgml") and Tokenizer(dialect="sgml"): the W3C note's lexical mode as the
CLI's `tokens --dialect sgml` prints it (the note's worked examples, the samples, corpus pages),
the same events however the input is cut, lossless spans, and the option checks. And the XML5
and HTML dialects' tokens as the CLI's `tokens` prints them."""

import json
import pickle
import random
import subprocess

import pytest

import tagstream
from conftest import SAMPLES

# The note's worked examples ("The API to the Lexical Analyzer", "Errors and Limitations").
WORKED = [
    b'<xX val1 val2 aTTr3=".76meters">',
    b'<!Doctype Foo --my document type-- System "abc">',
    b"<tag xxx=yyy ?>xxx <![IGNORE[ a<b>c]]> zzz",
]


def event_record(event):
    """An Event as the CLI's JSON line has it."""
    record = {"channel": event.channel}
    if event.code is not None:
        record["code"] = event.code
        if event.line is not None:
            record["line"], record["col"] = event.line, event.column
    lexemes = []
    for lexeme in event.lexemes:
        item = {"kind": lexeme.kind, "span": list(lexeme.span), "text": lexeme.text}
        try:
            raw = lexeme.raw.decode("utf-8")
        except UnicodeDecodeError:
            raw = None
        if raw is not None and raw != lexeme.text:
            item["raw"] = raw
        lexemes.append(item)
    record["lexemes"] = lexemes
    return record


def cli_lines(cli, path, *args):
    out = subprocess.run(
        [str(cli), "tokens", *args, str(path)], check=True, capture_output=True
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def cli_events(cli, path, normalize=False):
    """The CLI's events for the file, fed whole (so that data is not cut at a chunk seam)."""
    size = str(max(path.stat().st_size, 1) + 1)
    flags = ["--normalize"] if normalize else []
    return cli_lines(cli, path, "--dialect", "sgml", "--chunk-size", size, *flags)


@pytest.mark.parametrize("normalize", [False, True])
def test_the_worked_examples_equal_the_cli(cli, tmp_path, normalize):
    for i, doc in enumerate(WORKED):
        path = tmp_path / f"worked{i}.sgml"
        path.write_bytes(doc)
        events = tagstream.tokens(doc, dialect="sgml", normalize=normalize)
        assert [event_record(e) for e in events] == cli_events(cli, path, normalize), doc


def test_the_first_worked_example_lexeme_by_lexeme():
    (event,) = tagstream.tokens(WORKED[0], dialect="sgml", normalize=True)
    assert event.channel == "primary" and event.code is None and event.line is None
    shown = [(l.kind, l.text) for l in event.lexemes if l.kind != "s"]
    assert shown == [
        ("start", "<xx"),
        ("attrname", ""),
        ("name", "val1"),
        ("attrname", ""),
        ("name", "val2"),
        ("attrname", "attr3"),
        ("vi", "="),
        ("literal", '".76meters"'),
        ("tagc", ">"),
    ]
    assert event.lexemes[0].raw == b"<xX" and event.span == (0, len(WORKED[0]))


def test_problems_have_code_line_and_column():
    events = tagstream.tokens(b"<p>\n<x ?>", dialect="sgml")
    (problem,) = [e for e in events if e.channel == "problem"]
    assert (problem.code, problem.line, problem.column) == ("bad-character-in-tag", 2, 4)
    message, offending = problem.lexemes
    assert (message.kind, message.text, message.raw, message.span) == (
        "error", "bad character in tag", b"", (7, 7))
    assert (offending.kind, offending.raw) == ("data", b"?")
    assert repr(problem).startswith("Event(channel='problem', code='bad-character-in-tag', line=2")


def test_samples_and_corpus_pages_equal_the_cli(cli, pages):
    files = sorted(SAMPLES.iterdir()) + pages[::43]
    for path in files:
        doc = path.read_bytes()
        events = tagstream.tokens(doc, dialect="sgml")
        assert [event_record(e) for e in events] == cli_events(cli, path), path.name


def merged(items):
    """Events with adjacent data-only primary events joined (a seam may split data)."""
    out = []
    for event in items:
        record = event_record(event)
        data = record["channel"] == "primary" and [l["kind"] for l in record["lexemes"]] == ["data"]
        last = out[-1] if out else None
        if data and last and last[0] and last[1]["span"][1] == record["lexemes"][0]["span"][0]:
            lexeme, tail = last[1], record["lexemes"][0]
            joined = {"kind": "data", "span": [lexeme["span"][0], tail["span"][1]]}
            out[-1] = (True, joined, last[2] + event.lexemes[0].raw)
        elif data:
            out.append((True, record["lexemes"][0], event.lexemes[0].raw))
        else:
            out.append((False, record, None))
    # Data compared by its bytes: a seam inside a UTF-8 character changes no byte.
    return [(d, {k: v for k, v in r.items() if k != "text"} if d else r, raw) for d, r, raw in out]


def test_chunked_feeding_equals_the_whole_document(pages):
    rng = random.Random(28)
    docs = [path.read_bytes() for path in pages[::20]] + WORKED
    for doc in docs:
        whole = tagstream.tokens(doc, dialect="sgml", normalize=True)
        tokenizer = tagstream.Tokenizer(dialect="sgml", normalize=True)
        chunked, at = [], 0
        while at < len(doc):
            size = rng.choice([1, 3, 17, 500, 4096, 65536])
            chunked += tokenizer.feed(doc[at : at + size])
            at += size
        chunked += tokenizer.finish()
        assert merged(chunked) == merged(whole)


def test_the_lexemes_tile_the_input(pages):
    for doc in [pages[0].read_bytes(), b"\xef\xbb\xbf<!doctype x [ <!x> ]><a\xff b='\xc3'>&#1;", *WORKED]:
        lexemes = sorted(
            (l for e in tagstream.tokens(doc, dialect="sgml") for l in e.lexemes),
            key=lambda l: l.span,
        )
        assert b"".join(l.raw for l in lexemes) == doc
        held = [l for l in lexemes if l.span[0] != l.span[1]]
        assert all(a.span[1] == b.span[0] for a, b in zip(held, held[1:]))
        assert all(doc[l.span[0] : l.span[1]] == l.raw for l in lexemes)


def test_options_that_do_not_go_with_sgml_are_refused():
    for option in ({"errors": True}, {"lossless": True}, {"simulate": False}, {"scripting": True}):
        with pytest.raises(ValueError):
            tagstream.tokens(b"<a>", dialect="sgml", **option)
        with pytest.raises(ValueError):
            tagstream.Tokenizer(dialect="sgml", **option)
    for dialect in ("html", "xml5"):
        with pytest.raises(ValueError):
            tagstream.tokens(b"<a>", dialect=dialect, normalize=True)


def test_the_carry_limit_stops_sgml_too():
    tokenizer = tagstream.Tokenizer(dialect="sgml", max_carry=1024)
    tokenizer.feed(b"<p>ok</p><!--")
    with pytest.raises(tagstream.LimitError) as raised:
        for _ in range(10):
            tokenizer.feed(b"x" * 512)
    assert raised.value.limit == "carry"


def test_events_and_lexemes_pickle_and_compare():
    events = tagstream.tokens(WORKED[2], dialect="sgml")
    copy = pickle.loads(pickle.dumps(events))
    assert copy == events and list(events) == copy
    for event in events:
        again = pickle.loads(pickle.dumps(event))
        assert again == event and again.lexemes == event.lexemes
        assert (again.code, again.line, again.column) == (event.code, event.line, event.column)
    lexeme = tagstream.Lexeme("start", (0, 3), "<xx", b"<xX")
    assert lexeme == tagstream.tokens(b"<xX>", dialect="sgml", normalize=True)[0].lexemes[0]
    with pytest.raises(ValueError):
        tagstream.Lexeme("no-such-kind", (0, 0), "", b"")
    with pytest.raises(ValueError):
        tagstream.Event("problem", [lexeme])
    with pytest.raises(ValueError):
        tagstream.Event("primary", [lexeme], code="marked-section", line=1, column=1)


def token_record(token):
    """A Token as the CLI's `tokens` JSON line has it (attributes' names and values)."""
    record = {"type": token.kind}
    if token.kind in ("start_tag", "end_tag"):
        record["name"] = token.name
    if token.kind == "start_tag":
        record["attributes"] = [list(pair) for pair in token.attributes]
        record["self_closing"] = token.self_closing
    if token.kind == "text":
        record["kind"], record["text"] = token.text_kind, token.text
    if token.kind == "comment":
        record["data"] = token.text
    if token.kind == "doctype":
        record.update(name=token.name, public_id=token.public_id,
                      system_id=token.system_id, force_quirks=token.force_quirks)
        if token.internal_subset is not None:
            record["internal_subset"] = token.internal_subset
    if token.kind == "processing_instruction":
        record["target"], record["data"] = token.name, token.text
    record["span"] = list(token.span)
    return record


def cli_token_record(line):
    if "attributes" in line:
        line["attributes"] = [[a["name"], a["value"]] for a in line["attributes"]]
    return line


@pytest.mark.parametrize("dialect,pattern", [("xml5", "*.[xs][mv][lg]"), ("html", "*.html")])
def test_xml5_and_html_tokens_equal_the_cli(cli, dialect, pattern):
    samples = sorted(SAMPLES.glob(pattern))
    assert samples
    for path in samples:
        expected = [cli_token_record(l) for l in cli_lines(cli, path, "--dialect", dialect)]
        tokens = tagstream.tokens(path.read_bytes(), dialect=dialect)
        assert [token_record(t) for t in tokens] == expected, path.name
