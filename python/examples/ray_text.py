"""The visible text of every HTML page in web archives, with Ray Data and tagstream.

Input: WARC files (paths every worker can open). Each file is one task: tagstream reads the
archive and extracts each HTML response's text in Rust with the GIL released. Output: one row
per page (archive, record offset, URI, title, text) as Parquet.

    python python/examples/ray_text.py out/ crawl-1.warc.gz crawl-2.warc.gz

Ray is optional for tagstream (`pip install "ray[data]"`); a cluster runs it unchanged
(`ray job submit -- python ray_text.py ...`).
"""

from __future__ import annotations

import argparse
import sys

import ray

import tagstream.warc


def pages(row: dict) -> list[dict]:
    """The text of every HTML record of the archive at `row["path"]`."""
    found = tagstream.warc.text(row["path"], blocks=True)
    for offset, reason in found.skipped:
        print(f"{row['path']}: skipped record at {offset}: {reason}", file=sys.stderr)
    return [
        {
            "archive": row["path"],
            "offset": offset,
            "uri": uri,
            "title": page.title,
            "text": page.text,
        }
        for offset, uri, page in found
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="the folder to write Parquet files into")
    parser.add_argument("warcs", nargs="+", help="WARC files (.warc or .warc.gz)")
    args = parser.parse_args(argv)
    ray.init(ignore_reinit_error=True)
    paths = ray.data.from_items([{"path": path} for path in args.warcs])
    paths.flat_map(pages).write_parquet(args.output)


if __name__ == "__main__":
    main()
