"""tokens() and Tokenizer: typed tokens, the same whole or chunked, errors, lossless raw items,
memory limits as LimitError, and no crash on random bytes."""

import collections.abc
import random

import pytest

import tagstream

DOC = (
    b"<!DOCTYPE html><html lang=en><title>T &amp; t</title><p class='a b' id=x>caf\xc3\xa9 &lt;"
    b"<!-- note --><svg><![CDATA[x<y]]></svg><script>if (a<b) {}</script><br/></p>"
)


def test_tokens_are_typed():
    tokens = tagstream.tokens(DOC)
    kinds = [t.kind for t in tokens]
    assert kinds[:4] == ["doctype", "start_tag", "start_tag", "text"]
    doctype, html = tokens[0], tokens[1]
    assert (doctype.name, doctype.public_id, doctype.force_quirks) == ("html", None, False)
    assert html.attributes == [("lang", "en")]
    p = next(t for t in tokens if t.name == "p" and t.kind == "start_tag")
    assert p.attributes == [("class", "a b"), ("id", "x")]
    assert DOC[p.span[0] : p.span[1]] == p.raw == b"<p class='a b' id=x>"
    title = tokens[3]
    assert (title.text, title.text_kind, title.raw) == ("T & t", "rcdata", b"T &amp; t")
    script = next(t for t in tokens if t.text_kind == "script_data")
    assert script.text == "if (a<b) {}"
    cdata = next(t for t in tokens if t.text_kind == "cdata")
    assert cdata.text == "x<y"
    br = tokens[-2]
    assert (br.kind, br.name, br.self_closing) == ("start_tag", "br", True)
    comment = next(t for t in tokens if t.kind == "comment")
    assert comment.text == " note "


def test_without_the_simulator_script_is_markup():
    tokens = tagstream.tokens(b"<script>a<b>c</script>", simulate=False)
    assert [t.kind for t in tokens] == ["start_tag", "text", "start_tag", "text", "end_tag"]


def test_errors_come_after_their_token():
    items = tagstream.tokens(b"<p>\n<a b=1 b=2>\0", errors=True)
    errors = [i for i in items if isinstance(i, tagstream.ParseError)]
    assert [e.code for e in errors] == ["duplicate-attribute", "unexpected-null-character"]
    assert (errors[0].line, errors[0].column) == (2, 9)
    after = items[items.index(errors[0]) - 1]
    assert (after.kind, after.name) == ("start_tag", "a")
    assert not [i for i in tagstream.tokens(b"<p>\0") if isinstance(i, tagstream.ParseError)]


def test_xml5_keeps_case_and_processing_instructions():
    tokens = tagstream.tokens(b"<?xml version='1.0'?><svg viewBox='0 0 1 1'><linearGradient/></svg>", dialect="xml5")
    assert [(t.kind, t.name) for t in tokens] == [
        ("processing_instruction", "xml"),
        ("start_tag", "svg"),
        ("start_tag", "linearGradient"),
        ("end_tag", "svg"),
    ]
    assert tokens[1].attributes == [("viewBox", "0 0 1 1")]
    with pytest.raises(ValueError):
        tagstream.tokens(b"<a/>", dialect="xml5", simulate=False)
    with pytest.raises(ValueError):
        tagstream.tokens(b"<a/>", dialect="xml")


@pytest.mark.parametrize("dialect", ["html", "xml5"])
def test_lossless_raw_items_cover_the_input(dialect):
    doc = b"\xef\xbb\xbf<a><![CDATA[x]]></><b" if dialect == "xml5" else b"\xef\xbb\xbf<p></><svg><![CDATA[x]]></svg><a hre"
    tokens = tagstream.tokens(doc, dialect=dialect, lossless=True)
    assert "raw" in {t.kind for t in tokens}
    assert b"".join(t.raw for t in tokens) == doc
    assert all(a.span[1] == b.span[0] for a, b in zip(tokens, tokens[1:]))
    plain = tagstream.tokens(doc, dialect=dialect)
    assert [t for t in tokens if t.kind != "raw"] == plain


def feed_in_chunks(doc, sizes, **options):
    tokenizer = tagstream.Tokenizer(**options)
    items, at = [], 0
    for size in sizes:
        items += tokenizer.feed(doc[at : at + size])
        at += size
    items += tokenizer.feed(doc[at:])
    return items + tokenizer.finish()


def normalized(items):
    """The tokens with adjacent text of one kind joined (where a text run is cut is not the
    tokens'), and the errors apart (a cut text run may have an error between its pieces)."""
    tokens, errors = [], []
    for item in items:
        if isinstance(item, tagstream.ParseError):
            errors.append(item)
            continue
        last = tokens[-1] if tokens else None
        if item.kind == "text" and isinstance(last, tuple) and last[:2] == (item.text_kind, item.span[0]):
            tokens[-1] = (item.text_kind, item.span[1], last[2] + item.text, last[3] + item.raw)
        elif item.kind == "text":
            tokens.append((item.text_kind, item.span[1], item.text, item.raw))
        else:
            tokens.append(item)
    return tokens, errors


@pytest.mark.parametrize("dialect", ["html", "xml5"])
def test_chunked_feeding_equals_the_whole_document(pages, dialect):
    rng = random.Random(30)
    for page in pages[::8]:
        doc = page.read_bytes()
        whole = tagstream.tokens(doc, errors=True, dialect=dialect, lossless=True)
        sizes = [rng.choice([1, 7, 64, 1000, 65536]) for _ in range(len(doc) // 500)]
        chunked = feed_in_chunks(doc, sizes, errors=True, dialect=dialect, lossless=True)
        assert normalized(chunked) == normalized(whole), page.name


def test_a_tokenizer_starts_over_after_finish():
    tokenizer = tagstream.Tokenizer()
    first = tokenizer.feed(b"<a href=x>") + tokenizer.finish()
    assert tokenizer.feed(b"<a href=x>") + tokenizer.finish() == first
    assert first[0].span == (0, 10)


def test_the_carry_limit_raises_limit_error():
    tokenizer = tagstream.Tokenizer(max_carry=1024)
    tokenizer.feed(b"<p>ok</p><!--")
    with pytest.raises(tagstream.LimitError) as raised:
        for _ in range(10):
            tokenizer.feed(b"x" * 512)
    error = raised.value
    assert (error.limit, error.max, error.offset) == ("carry", 1024, 9)
    assert error.needed > 1024
    assert "memory limit" in str(error)


def test_the_arena_limit_raises_limit_error():
    doc = b"<p title='" + b"&amp;" * 10_000 + b"'>"
    with pytest.raises(tagstream.LimitError) as raised:
        tagstream.tokens(doc, max_arena=4096)
    assert raised.value.limit == "arena"
    assert len(tagstream.tokens(doc)) == 1
    assert issubclass(tagstream.LimitError, Exception)


def test_random_bytes_never_crash():
    rng = random.Random(3030)
    alphabet = b"<>/!?-=&;#'\" \n\0abxyzAB[]CDATA\xc3\xa9\xff\xfe\xef\xbb\xbfscriptmetacharset"
    for i in range(3000):
        n = rng.choice([0, 1, 5, 40, 300, 2000])
        if i % 2:
            doc = bytes(rng.getrandbits(8) for _ in range(n))
        else:
            doc = bytes(rng.choice(alphabet) for _ in range(n))
        tagstream.tokens(doc, errors=True, lossless=True)
        tagstream.tokens(doc, dialect="xml5", errors=True)
        tagstream.tokens(doc, dialect="sgml", normalize=bool(i % 3))
        tagstream.links(doc, "https://example.com/")
        tagstream.text(doc, blocks=True)
        if i % 10 == 0:
            cut = rng.randrange(n + 1)
            chunked = feed_in_chunks(doc, [cut], lossless=True)
            assert b"".join(t.raw for t in chunked) == doc


def test_tokens_is_a_lazy_read_only_sequence_that_behaves_as_the_list():
    items = tagstream.tokens(DOC + b"<p a=1 a=2>\0", errors=True, lossless=True)
    listed = list(items)
    assert isinstance(items, tagstream.Tokens) and isinstance(items, collections.abc.Sequence)
    assert len(items) == len(listed) > 10 and bool(items) and not tagstream.tokens(b"")
    assert items == listed and listed == items and items == items[:]
    assert not (items != listed) and items != listed[:-1] and items != tuple(listed)
    assert repr(items) == repr(listed)
    assert items[-1] == listed[-1] and items[3] == listed[3]
    with pytest.raises(IndexError):
        items[len(items)]
    with pytest.raises(TypeError):
        items["0"]
    for cut in (slice(2, 9), slice(None, None, 3), slice(-2, 1, -2), slice(5, 5), slice(None, None, -1)):
        view = items[cut]
        assert isinstance(view, tagstream.Tokens) and view == listed[cut], cut
        assert view[::2] == listed[cut][::2] and view[1:][::-1] == listed[cut][1:][::-1]
    assert items + items == listed + listed and listed + items == listed * 2
    assert isinstance(items + listed, list)
    error = next(i for i in listed if isinstance(i, tagstream.ParseError))
    assert items.index(error) == listed.index(error) and items.count(error) == listed.count(error)
    assert error in items and "x" not in items
    with pytest.raises(ValueError):
        items.index("x")
    with pytest.raises(TypeError):
        hash(items)
    it = iter(items)
    assert it.__length_hint__() == len(items) and next(it) == listed[0]
    assert list(it) == listed[1:] and next(it, None) is None


def test_items_outlive_their_sequence_and_the_input():
    html = bytearray(b"<a href=x>caf\xc3\xa9 &amp;</a>")
    tokens = tagstream.tokens(html)
    a, text = tokens[0], tokens[1]
    del tokens
    html[:] = b"<b>changed</b>"
    assert (a.name, a.attributes, a.raw) == ("a", [("href", "x")], b"<a href=x>")
    assert (text.text, text.raw) == ("café &", b"caf\xc3\xa9 &amp;")
    assert a == tagstream.Token("start_tag", "a", [("href", "x")], None, None, False, None, None,
                                False, b"<a href=x>", (0, 10))


def test_token_constructor_refuses_fields_its_kind_has_not():
    with pytest.raises(ValueError):
        tagstream.Token("text", "p", [], "x", "data", False, None, None, False, b"x", (0, 1))
    with pytest.raises(ValueError):
        tagstream.Token("start_tag", None, [], None, None, False, None, None, False, b"<>", (0, 2))
    with pytest.raises(ValueError):
        tagstream.Token("text", None, [], "x", "nope", False, None, None, False, b"x", (0, 1))


def test_iterating_reads_the_same_as_indexing(pages):
    doc = pages[0].read_bytes()
    tokens = tagstream.tokens(doc, errors=True)
    for i, item in enumerate(tokens):
        assert item == tokens[i]
    kinds = [t.kind for t in tokens if isinstance(t, tagstream.Token)]
    assert kinds.count("start_tag") > 10 and set(kinds) <= {
        "start_tag", "end_tag", "text", "comment", "doctype", "processing_instruction"}
    assert b"".join(t.raw for t in tagstream.tokens(doc, lossless=True)) == doc
