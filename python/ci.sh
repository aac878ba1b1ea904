#!/usr/bin/env bash
# The Python bindings' check, run by .ci/run: a venv with maturin and pytest from PyPI, the
# `tagstream` wheel built from source and installed (`pip install ./python`), the release CLI the
# tests compare with, then pytest on python/tests. The venv and the bindings' build stay in
# target/ (git-ignored), so a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="$PWD/target/python-venv"
if [ ! -x "$venv/bin/python" ]; then
    # Debian's python3 splits venv (and the pip it bootstraps) into python3-venv.
    python3 -m venv "$venv" 2>/dev/null || {
        rm -rf "$venv"
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv"
    }
fi
# The build backend runs `maturin` from PATH.
export PATH="$venv/bin:$PATH"
# warcio: python/tests/test_warc.py writes its archives with it, as a crawler would. pyspark and
# a Java runtime: python/tests/test_spark.py runs the Spark example in local[2] mode
# (TAGSTREAM_SPARK=required: a missing one fails the test instead of skipping it).
python -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2" pytest warcio \
    "pyspark>=3.5,<5"
command -v java >/dev/null || {
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
}
export TAGSTREAM_SPARK=required

# The bindings are a workspace of their own: the root's fmt and clippy steps do not see them.
cargo fmt --manifest-path python/Cargo.toml --check
CARGO_TARGET_DIR="$PWD/target/python" cargo clippy --manifest-path python/Cargo.toml \
    --all-targets --quiet -- -D warnings

cargo build --release -p tagstream-cli --quiet
started=$(date +%s)
# maturin from the venv (no isolated build environment to download it into again); the
# bindings' own target folder, kept between runs.
CARGO_TARGET_DIR="$PWD/target/python" python -m pip install --quiet \
    --disable-pip-version-check --no-build-isolation --force-reinstall ./python
echo "python: wheel built and installed in $(($(date +%s) - started)) s"

TAGSTREAM_CLI="$PWD/target/release/tagstream" python -m pytest -q python/tests
