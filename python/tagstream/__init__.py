"""tagstream: a spec-exact, streaming HTML (and XML5) tokenizer in Rust, for Python.

Per document (what a Spark, Ray or datatrove job calls per record):

- ``links(html, base_url=None, encoding=None, scripting=False)``: every URL the page references,
  resolved; ``text(html, blocks=False, ...)``: its visible text, title and description. The same
  results as the ``tagstream links`` and ``text`` commands, encoding sniffed the same way.
- ``tokens(html, ...)`` and ``Tokenizer(...).feed(chunk)`` / ``.finish()``: the tokens.

WARC archives: ``tagstream.warc`` (``records``, and ``links`` and ``text`` of a whole archive).

``html`` may be bytes, bytearray, memoryview or str; the work runs with the GIL released.
"""

from . import warc

from ._native import (
    LimitError,
    Link,
    Links,
    ParseError,
    Text,
    Token,
    Tokenizer,
    __version__,
    links,
    text,
    tokens,
)

__all__ = [
    "LimitError",
    "Link",
    "Links",
    "ParseError",
    "Text",
    "Token",
    "Tokenizer",
    "__version__",
    "links",
    "text",
    "tokens",
    "warc",
]
