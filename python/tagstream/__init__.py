"""tagstream: a spec-exact, streaming HTML (and XML5) tokenizer in Rust, for Python.

Per document (what a Spark, Ray or datatrove job calls per record):

- ``links(html, base_url=None, encoding=None, scripting=False)``: every URL the page references,
  resolved; ``text(html, blocks=False, ...)``: its visible text, title and description. The same
  results as the ``tagstream links`` and ``text`` commands, encoding sniffed the same way.
- ``tokens(html, ...)`` and ``Tokenizer(...).feed(chunk)`` / ``.finish()``: the tokens (HTML,
  XML5), or the SGML lexer's events, as a ``Tokens`` sequence whose items are made when read.

WARC archives: ``tagstream.warc`` (``records``, and ``links`` and ``text`` of a whole archive).

``html`` may be bytes, bytearray, memoryview or str; the work runs with the GIL released.
"""

from collections.abc import Sequence

from . import warc

from ._native import (
    Event,
    Lexeme,
    LimitError,
    Link,
    Links,
    ParseError,
    Text,
    Token,
    Tokenizer,
    Tokens,
    __version__,
    links,
    text,
    tokens,
)

# A read-only sequence, as `isinstance(tokens, collections.abc.Sequence)` should say.
Sequence.register(Tokens)

__all__ = [
    "Event",
    "Lexeme",
    "LimitError",
    "Link",
    "Links",
    "ParseError",
    "Text",
    "Token",
    "Tokenizer",
    "Tokens",
    "__version__",
    "links",
    "text",
    "tokens",
    "warc",
]
