#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the tools the tests drive when they are
# missing (Debian's poppler-utils for pdftotext, systemd for systemd-analyze, chromium for the
# report's browser tests, postgresql for the shared store, python3-venv; playwright-core from
# npm; maturin, pytest and langchain-text-splitters from PyPI into a venv under target/), starts
# a throwaway PostgreSQL cluster (tests/pg-cluster.sh: initdb + pg_ctl on a Unix socket in a temp
# folder, stopped and removed on exit), then:
#   1. `cargo test` — every test, SQLite stores; the PostgreSQL-only tests (tests/postgres_cli.rs)
#      use the cluster too;
#   2. the store-driving CLI tests again with CITESTORE_TEST_BACKEND=postgres: every Scratch store
#      is a fresh database on the cluster. Left out of this pass: tests with no store (text,
#      locate, vectors, properties, the browser page) and the tests listed in PG_SKIP, which are
#      about SQLite files themselves (a 0-byte or foreign file, file modes, SQLite fixtures,
#      VACUUM INTO copies, a deleted database file); their PostgreSQL twins are in
#      tests/postgres_cli.rs and tests/shard_cli.rs;
#   3. builds the Python package (debug, `maturin develop`) and runs its pytest suite.
# Under CI=true a test whose tool is still missing fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
have_pg_ctl() {
    command -v pg_ctl >/dev/null || compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}
missing=()
command -v pdftotext >/dev/null || missing+=(poppler-utils)
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

PG_TESTS=(anthropic_cli bad_input_cli caller_chunks_cli cite_cli color_cli contrib conventions_cli hints_cli json_cli
    nightly_cli openai_cli quiet_cli readme_shapes_cli report_cli shard_cli store_cli
    store_concurrency sweep_cli usage_cli verify_cli w3c_cli)
PG_SKIP=(
    an_older_store_is_read_after_a_write_command_upgrades_it # a SQLite fixture file
    a_read_only_store_is_read_and_left_as_it_was             # file modes
    bad_input_is_one_line_exit_2_and_changes_nothing         # 0-byte, foreign, non-SQLite files
    init_force_adds_citestore_tables_beside_another_programs # a foreign SQLite file
    service_command_sweeps_and_fails_when_citations_need_attention # deletes the database file
    cron_job_mails_only_when_the_sweep_needs_attention       # deletes the database file
    a_file_that_is_not_sqlite_is_refused_untouched           # a non-SQLite file
    a_newer_schema_is_refused_untouched                      # user_version (twin: postgres_cli)
    bad_input_is_one_line_and_writes_nothing                 # ends with a read-only file
    docs_needs_an_existing_database                          # a missing file (twin: postgres_cli)
    schema_v1_fixture_upgrades_and_keeps_its_data            # a SQLite fixture file
    walking_the_database_folder_skips_the_database           # the database file in the folder
    schema_v3_fixture_upgrades_and_sweeps                    # a SQLite fixture file
    a_killed_sweep_run_again_ends_where_an_uninterrupted_one_does # VACUUM INTO (twin: shard_cli)
    schema_v2_fixture_upgrades_and_its_citations_verify      # a SQLite fixture file
    schema_v5_fixture_upgrades_and_exports_annotations       # a SQLite fixture file
)
if [ -n "${CITESTORE_TEST_PG:-}" ]; then
    args=()
    for t in "${PG_TESTS[@]}"; do args+=(--test "$t"); done
    skips=()
    for t in "${PG_SKIP[@]}"; do skips+=(--skip "$t"); done
    echo "tests/run.sh: the store tests again, on PostgreSQL" >&2
    CITESTORE_TEST_BACKEND=postgres cargo test "${args[@]}" -- "${skips[@]}"
fi

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
