#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the tools the tests drive when they are
# missing (Debian's poppler-utils for pdftotext, systemd for systemd-analyze, chromium for the
# report's browser tests, postgresql for the shared store, python3-venv; playwright-core from
# npm; maturin, pytest and langchain-text-splitters from PyPI into a venv under target/), starts
# a throwaway PostgreSQL cluster (tests/pg-cluster.sh: initdb + pg_ctl on a Unix socket in a temp
# folder, stopped and removed on exit), then:
#   1. `cargo test` — the unit tests and the one integration-test binary (tests/tests.rs), SQLite
#      stores; the PostgreSQL-only tests (postgres_cli, shard_cli) use the cluster too;
#   2. that binary again with CITESTORE_TEST_BACKEND=postgres: every Scratch store is a fresh
#      database on the cluster. Left out of this pass: the `storeless` modules (no store), and
#      tests about SQLite files themselves (a 0-byte or foreign file, file modes, SQLite
#      fixtures, VACUUM INTO copies, a deleted database file), which say so with
#      common::sqlite_only; their PostgreSQL twins are in postgres_cli and shard_cli;
#   3. builds the Python package (debug, `maturin develop`) and runs its pytest suite.
# Under CI=true a test whose tool is still missing fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
have_pg_ctl() {
    command -v pg_ctl >/dev/null || compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}
missing=()
command -v pdftotext >/dev/null || missing+=(poppler-utils)
[ -x /usr/bin/time ] || missing+=(time)
command -v systemd-analyze >/dev/null || missing+=(systemd)
command -v chromium >/dev/null || missing+=(chromium)
have_pg_ctl || missing+=(postgresql)
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
npm ci --prefix tests/browser --no-audit --no-fund --silent

cluster=$(mktemp -d "${TMPDIR:-/tmp}/citestore-pg.XXXXXX")
trap 'bash tests/pg-cluster.sh stop "$cluster"' EXIT
if url=$(bash tests/pg-cluster.sh start "$cluster"); then
    export CITESTORE_TEST_PG="$url"
elif [ "${CI:-}" = "true" ]; then
    echo "tests/run.sh: could not start PostgreSQL (see above); it is required under CI=true" >&2
    exit 1
else
    echo "tests/run.sh: note: no PostgreSQL cluster; its tests will say they did not run" >&2
fi

cargo test "$@"

# The PostgreSQL pass: the same test binary with every Scratch store a fresh database on the
# cluster. The `storeless` modules open no store and ran above; a test about SQLite files
# themselves says so in the test (common::sqlite_only) and does not run here.
if [ -n "${CITESTORE_TEST_PG:-}" ]; then
    echo "tests/run.sh: the store tests again, on PostgreSQL" >&2
    CITESTORE_TEST_BACKEND=postgres cargo test --test tests -- --skip storeless::
fi

# The Python package (python/), through the real built module and the binary `cargo test` built;
# then its checkers, each run whatever the others said: ruff (lint and format), mypy --strict and
# pyright over the package and its tests (python/pyproject.toml's [tool.mypy], [tool.pyright]),
# stubtest of the native module against citestore/_native.pyi, and mypy --strict and pyright over
# the README's and docs/python.md's Python examples (python/tests/typecheck_readme.py).
venv=target/pyenv
python_tests() {
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || return 1
    # What the build needs (pyproject's build-system) and its `test` extra (pytest, the SDKs and
    # frameworks the tests drive, typeguard, the checkers), each installed when missing.
    local need
    need=$(
        "$venv/bin/python" - <<'EOF'
import importlib.metadata
import re

try:
    import tomllib

    with open("python/pyproject.toml", "rb") as file:
        project = tomllib.load(file)
    wanted = project["build-system"]["requires"] + project["project"]["optional-dependencies"]["test"]
except ModuleNotFoundError:  # Python < 3.11: the same lists, by hand
    wanted = ["maturin>=1.10,<2", "pytest", "langchain-text-splitters", "llama-index-core",
              "haystack-ai", "anthropic", "openai", "typeguard>=4", "mypy", "pyright", "ruff"]
for requirement in wanted:
    try:
        importlib.metadata.version(re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0])
    except importlib.metadata.PackageNotFoundError:
        print(requirement)
EOF
    ) || return 1
    if [ -n "$need" ]; then
        local -a missing
        mapfile -t missing <<<"$need"
        "$venv/bin/python" -m pip install -q --disable-pip-version-check "${missing[@]}" || return 1
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

# The checkers. pyright (from PyPI) fetches Node.js and its npm package on first use.
pyright=("$PWD/$venv/bin/pyright" --pythonpath "$PWD/$venv/bin/python")
if ! "${pyright[@]}" --version >/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "tests/run.sh: pyright could not start (it fetches Node.js from npm); it is required under CI=true" >&2
        exit 1
    fi
    echo "tests/run.sh: note: pyright could not start (it fetches Node.js from npm); not run" >&2
    pyright=()
fi
# Runs a checker in a folder; a failure fails the script at the end, after the other checkers.
check() {
    local dir=$1
    shift
    echo "tests/run.sh: ($dir) $*" >&2
    (cd "$dir" && "$@") || status=1
}
check python "$PWD/$venv/bin/ruff" check .
check python "$PWD/$venv/bin/ruff" format --check .
check python "$PWD/$venv/bin/mypy"
((${#pyright[@]})) && check python "${pyright[@]}"
stubtest=("$PWD/$venv/bin/python" -m mypy.stubtest citestore._native --mypy-config-file pyproject.toml)
[ -f python/stubtest-allowlist.txt ] && stubtest+=(--allowlist stubtest-allowlist.txt)
check python "${stubtest[@]}"
examples="$PWD/target/readme-typecheck"
if "$venv/bin/python" python/tests/typecheck_readme.py "$examples" >/dev/null; then
    check . "$PWD/$venv/bin/mypy" --config-file python/pyproject.toml "$examples"
    ((${#pyright[@]})) && check . "${pyright[@]}" --pythonversion 3.9 "$examples"
else
    status=1
fi

# The Node package (node/), as a user gets it: `npm install node/` into a new project (the install
# script builds the addon with cargo, a debug build), its node:test suite (on PostgreSQL too, the
# cluster above) and tsc --strict over its type tests and README. Under CI=true a missing tool
# fails.
echo "tests/run.sh: the Node package" >&2
bash node/test/run.sh || status=1
exit "$status"
