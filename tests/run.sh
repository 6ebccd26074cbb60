#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the tools the tests drive when they are
# missing (Debian's poppler-utils for pdftotext, systemd for systemd-analyze, chromium for the
# report's browser tests, python3-venv; playwright-core from npm; maturin, pytest and
# langchain-text-splitters from PyPI into a venv under target/), then runs `cargo test`, builds
# the Python package (debug, `maturin develop`) and runs its pytest suite. Under CI=true a test
# whose tool is still missing fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v systemd-analyze >/dev/null || missing+=(systemd)
command -v chromium >/dev/null || missing+=(chromium)
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
npm ci --prefix tests/browser --no-audit --no-fund --silent
cargo test "$@"

# The Python package (python/), through the real built module and the binary `cargo test` built.
venv=target/pyenv
python_tests() {
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || return 1
    local need=()
    [ -x "$venv/bin/maturin" ] || need+=("maturin>=1.9.4,<2")
    "$venv/bin/python" -c 'import pytest' 2>/dev/null || need+=(pytest)
    "$venv/bin/python" -c 'import langchain_text_splitters' 2>/dev/null ||
        need+=(langchain-text-splitters)
    if ((${#need[@]})); then
        "$venv/bin/python" -m pip install -q --disable-pip-version-check "${need[@]}" || return 1
    fi
    (cd python && VIRTUAL_ENV="$PWD/../$venv" "../$venv/bin/maturin" develop -q) || return 1
}
if ! python_tests; then
    if [ "${CI:-}" = true ]; then
        echo "tests/run.sh: could not set up the Python package's tests (venv, PyPI or maturin)" >&2
        exit 1
    fi
    echo "tests/run.sh: skipped the Python tests: could not set up $venv (python3 -m venv, PyPI, maturin)" >&2
    exit 0
fi
status=0
CITESTORE_BIN="$PWD/target/debug/citestore" "$venv/bin/python" -m pytest -q python/tests || status=$?
if [ "$status" -eq 5 ]; then
    echo "tests/run.sh: pytest collected no tests in python/tests" >&2
    exit 1
fi
exit "$status"
