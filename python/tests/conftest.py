"""Shared fixtures: the corpus pages and the CLI the bindings are compared with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "datasets" / "corpus"
SAMPLES = ROOT / "datasets" / "samples"
BASE_URL = "https://example.com/dir/page.html"


def corpus_pages():
    """The corpus's HTML files, in name order; skips the test when the corpus is absent."""
    pages = sorted(CORPUS.glob("*.html")) if CORPUS.is_dir() else []
    if not pages:
        pytest.skip(
            f"the corpus is absent ({CORPUS}): fetch it with datasets/fetch-corpus.sh",
            allow_module_level=False,
        )
    return pages


@pytest.fixture(scope="session")
def cli():
    """The release CLI (TAGSTREAM_CLI, else target/release/tagstream)."""
    path = Path(os.environ.get("TAGSTREAM_CLI", ROOT / "target" / "release" / "tagstream"))
    if not path.is_file():
        pytest.skip(f"the CLI is not built ({path}): cargo build --release -p tagstream-cli")
    return path


def run_cli(cli, *args):
    """The CLI's JSON lines for `args`, grouped by the file they come from (in order)."""
    out = subprocess.run(
        [str(cli), *args, "--quiet"], check=True, capture_output=True
    ).stdout
    by_input = {}
    for line in out.splitlines():
        record = json.loads(line)
        by_input.setdefault(Path(record.pop("input")).name, []).append(record)
    return by_input


@pytest.fixture(scope="session")
def pages():
    return corpus_pages()
