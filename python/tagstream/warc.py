"""WARC archives (.warc, .warc.gz), read by the same reader as the ``tagstream`` CLI.

- ``records(path_or_file)``: each HTML ``response`` record, one at a time, as a ``Record``
  (``offset``, ``uri``, ``status``, ``headers``, ``charset``, ``payload``: the HTTP body with its
  transfer and content codings undone, as ``bytes``). Pass ``record.payload`` with
  ``encoding=record.charset`` and ``base_url=record.uri`` to ``tagstream.links`` or
  ``tagstream.text`` for what the CLI gives.
- ``links(path_or_file, ...)`` and ``text(path_or_file, ...)``: the same for a whole archive, in
  Rust with the GIL released (the fastest shape for a partition function): a ``Pages`` of
  ``(offset, uri, Links or Text)``.

What cannot be read (a malformed record, a broken or truncated gzip member, a body that cannot be
decoded) is listed in ``skipped`` as ``(offset, reason)``, as the CLI reports it; it is never
raised. A path that cannot be opened raises ``OSError``.
"""

from ._native import Pages, Record, Records
from ._native import warc_links as links
from ._native import warc_records as records
from ._native import warc_text as text

__all__ = ["Pages", "Record", "Records", "links", "records", "text"]
