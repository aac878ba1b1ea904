"""python/examples/ray_text.py with Ray Data (optional: skipped where Ray is not installed): one
row per HTML record of the WARC files, with the text tagstream.warc.text gives for it."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

import tagstream

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ray_text.py"


def test_the_ray_example_writes_each_pages_text(tmp_path):
    pytest.importorskip("ray")
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    paths = []
    for n in range(2):
        out = io.BytesIO()
        writer = WARCWriter(out, gzip=True)
        for i in range(3):
            body = f"<title>t{n}{i}</title><p>page {n} {i}<p>end".encode()
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            record = writer.create_warc_record(
                f"https://s{n}.example/{i}", "response", payload=io.BytesIO(body), http_headers=headers
            )
            writer.write_record(record)
        path = tmp_path / f"{n}.warc.gz"
        path.write_bytes(out.getvalue())
        paths.append(str(path))
    out = tmp_path / "text"
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), str(out), *paths], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-4000:]
    rows = pyarrow_parquet.read_table(out).to_pylist()
    expected = {
        (path, offset, uri, page.title, page.text)
        for path in paths
        for offset, uri, page in tagstream.warc.text(path, blocks=True)
    }
    assert {(r["archive"], r["offset"], r["uri"], r["title"], r["text"]) for r in rows} == expected
    assert len(rows) == 6
