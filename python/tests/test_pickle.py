"""Results pickle, as Spark, Ray and multiprocessing send them between processes."""

import pickle

import tagstream

HTML = b"<title>T</title><a href=/x>x</a><!-- c --><p>\0</p>"


def roundtrip(value):
    return pickle.loads(pickle.dumps(value))


def test_links_and_text_pickle():
    found = tagstream.links(HTML, "https://example.com/")
    copy = roundtrip(found)
    assert copy.links == found.links and copy.encoding == found.encoding
    assert roundtrip(found[0]) == found[0]
    page = tagstream.text(HTML)
    assert roundtrip(page) == page


def test_tokens_and_errors_pickle():
    items = tagstream.tokens(HTML, errors=True, lossless=True)
    assert any(isinstance(item, tagstream.ParseError) for item in items)
    assert roundtrip(items) == items
