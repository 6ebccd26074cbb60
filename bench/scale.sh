#!/usr/bin/env bash
# Ten million citations on one machine (issue 27, item 6). Builds the sweep_scale corpus at
# 100,000 documents of ~5 KB with 100 citations each (10,000,000 citations; the first 10% of
# the documents revised on disk) into a SQLite store, then times the whole `citestore`
# process, wall time and peak RSS from GNU time, for:
#   - the nightly job: `sweep --chunker paragraph:1200` (10% re-extracted, 90% re-chunked,
#     the revised documents' citations re-anchored), on a copy of the store;
#   - the same command again, nothing changed (three runs);
#   - `check` (every page read, as the first sweep on a store and then one a week do) and a
#     no-change `sweep --full-check`, when the binary has them (migration 0014);
#   - `health --json`, `export` (to a file), `report --since 0` (HTML to a file: every sweep
#     of the run, so the page covers the citations the first sweep changed);
# then copies the untouched store into a local PostgreSQL (a throwaway durable cluster:
# tests/pg-cluster.sh --durable) with `citestore migrate` and times the same job with N shard
# workers (`sweep --shard I/N` started at once; default 4), the no-change sweep, `health`,
# `export` and `report` there, and checks that PostgreSQL's export is byte-identical to
# SQLite's.
#
#   bash bench/scale.sh [WORKDIR]                            # default /tmp/citestore-bench-scale
#   CITESTORE_BENCH_REUSE=1 bash bench/scale.sh WORKDIR       # keep WORKDIR's corpus and bench.db
#   CITESTORE_BENCH_PG=0 bash bench/scale.sh WORKDIR          # SQLite only
#   CITESTORE_BENCH_SQLITE=0 bash bench/scale.sh WORKDIR      # PostgreSQL only
#   (the exports are compared whenever WORKDIR holds both backends' checksums, from this run
#   or an earlier one)
#   CITESTORE_BENCH_DOCS=10000 bash bench/scale.sh WORKDIR    # a smaller corpus (1M citations)
#
# Disk: at 10M citations the store is ~9 GB; the script keeps the untouched store and one
# working copy (SQLite copy, then the PostgreSQL database, ~10 GB, never both), and the
# exports' checksums rather than the exports. Budget ~30 GB free. Every figure is printed as a
# table at the end and kept in WORKDIR/results.tsv; each command's output is in WORKDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/citestore-bench-scale}
docs=${CITESTORE_BENCH_DOCS:-100000}
per_doc=${CITESTORE_BENCH_CITATIONS:-100}
workers=${CITESTORE_BENCH_PG_WORKERS:-4}
chunker=paragraph:1200
bin=$PWD/target/release/citestore
[ -x /usr/bin/time ] || { echo "scale.sh: GNU time missing (Debian: apt-get install time)" >&2; exit 2; }
cargo build --release --quiet
cargo bench --quiet --no-run --bench sweep_scale
export CITESTORE_BENCH_DOCS=$docs CITESTORE_BENCH_CITATIONS=$per_doc
results="$work/results.tsv"
if [ "${CITESTORE_BENCH_REUSE:-}" = 1 ] && [ -f "$work/bench.db" ]; then
    echo "== reusing $work/bench.db" >&2
    [ -f "$results" ] || printf "backend\trun\twall_s\tpeak_kb\tuser_s\tsys_s\tload\n" >"$results"
else
    [ ! -d "$work/pg/data" ] || bash tests/pg-cluster.sh stop "$work/pg"
    rm -rf "$work"
    mkdir -p "$work"
    printf "backend\trun\twall_s\tpeak_kb\tuser_s\tsys_s\tload\n" >"$results"
    echo "== setup: $docs documents × $per_doc citations (SQLite)" >&2
    /usr/bin/time -f "%e %M %U %S" -o "$work/time-setup.txt" \
        cargo bench --quiet --bench sweep_scale -- setup "$work" | tee "$work/setup.log" >&2
    printf "sqlite\tsetup (generate, ingest, cite, revise)\t%s\t%s\t%s\t%s\t%s\n" \
        $(cat "$work/time-setup.txt") "$(cut -d' ' -f1 /proc/loadavg)" >>"$results"
fi
echo "store: $(du -h "$work/bench.db" | cut -f1), corpus: $(du -sh "$work/corpus" | cut -f1)" >&2

# timed BACKEND LABEL CMD...: runs CMD under GNU time (exit 1, citations lost or degraded,
# is a sweep's normal answer here), appends a row to results.tsv.
timed() {
    local backend=$1 label=$2
    shift 2
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.txt" "$@" || [ $? -eq 1 ]
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$backend" "$label" $(tail -1 "$work/time.txt") "$load" >>"$results"
    echo "$backend $label: $(tail -1 "$work/time.txt") (wall s, peak KB, user s, sys s; load $load)" >&2
}
has_check=0
"$bin" help check >/dev/null 2>&1 && has_check=1

if [ "${CITESTORE_BENCH_SQLITE:-1}" = 1 ]; then
    echo "== SQLite: a copy of the store" >&2
    rm -f "$work"/run.db*
    cp "$work/bench.db" "$work/run.db"
    db="$work/run.db"
    timed sqlite "sweep: 10% revised + re-chunked (first sweep)" \
        sh -c '"$0" --db "$1" sweep --chunker "$2" --json >"$3"' "$bin" "$db" "$chunker" "$work/sweep-sqlite.json"
    # Since migration 0014 a sweep reads every page first (quick_check) only when the store's
    # last full check is [sweep] full_check_days old or was never made, as on this new store:
    # the first sweep's JSON says how long that took (full_check_seconds).
    grep -o '"full_check_seconds":[0-9.]*' "$work/sweep-sqlite.json" >&2 || echo "first sweep: no full check" >&2
    for i in 1 2 3; do
        timed sqlite "sweep: nothing changed ($i)" \
            sh -c '"$0" --db "$1" sweep --chunker "$2" --json >"$3"' "$bin" "$db" "$chunker" "$work/nochange-sqlite-$i.json"
    done
    if [ "$has_check" = 1 ]; then
        timed sqlite "check (every page read, quick_check)" "$bin" --db "$db" check
        timed sqlite "sweep --full-check: nothing changed (a check night)" \
            sh -c '"$0" --db "$1" sweep --full-check --chunker "$2" --json >"$3"' "$bin" "$db" "$chunker" "$work/fullcheck-sqlite.json"
    fi
    timed sqlite "health --json" sh -c '"$0" --db "$1" health --json >"$2"' "$bin" "$db" "$work/health-sqlite.json"
    timed sqlite "export (to a file)" sh -c '"$0" --db "$1" export >"$2"' "$bin" "$db" "$work/export-sqlite.jsonl"
    timed sqlite "report --since 0 --out (HTML)" "$bin" --db "$db" report --since 0 --out "$work/report-sqlite.html"
    echo "export: $(wc -l <"$work/export-sqlite.jsonl") lines, $(du -h "$work/export-sqlite.jsonl" | cut -f1); report: $(du -h "$work/report-sqlite.html" | cut -f1)" >&2
    sha256sum <"$work/export-sqlite.jsonl" | cut -d' ' -f1 >"$work/export-sqlite.sha256"
    rm -f "$work/export-sqlite.jsonl" "$work"/run.db*
fi

if [ "${CITESTORE_BENCH_PG:-1}" = 1 ]; then
    cluster="$work/pg"
    bash tests/pg-cluster.sh stop "$cluster"   # a cluster an interrupted run left behind
    url=$(bash tests/pg-cluster.sh start "$cluster" --durable)
    trap 'bash tests/pg-cluster.sh stop "$cluster"' EXIT
    echo "== PostgreSQL: copy the untouched store with migrate" >&2
    timed postgres "migrate (copy the SQLite store in)" "$bin" migrate --from "$work/bench.db" --to "$url"
    timed postgres "VACUUM ANALYZE" psql "$url" -qc "VACUUM ANALYZE"
    echo "PostgreSQL database: $(psql "$url" -qAtc "SELECT pg_size_pretty(pg_database_size('citestore'))")" >&2
    # shards LABEL PREFIX: N workers at once; wall from the first start to the last end, peak
    # RSS the largest worker's, CPU the workers' sum.
    shards() {
        local label=$1 prefix=$2 load start end pids=() i
        load=$(cut -d' ' -f1 /proc/loadavg)
        start=$(date +%s.%N)
        for i in $(seq 1 "$workers"); do
            /usr/bin/time -f "%e %M %U %S" -o "$work/time-$prefix-$i.txt" \
                "$bin" --db "$url" sweep --shard "$i/$workers" --chunker "$chunker" --json >"$work/$prefix-$i.json" &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid" || [ $? -eq 1 ]; done
        end=$(date +%s.%N)
        local wall peak cpu
        wall=$(echo "$end - $start" | bc -l | xargs printf "%.2f")
        peak=$(tail -qn1 "$work"/time-"$prefix"-*.txt | awk '{ if ($2 > m) m = $2 } END { print m }')
        cpu=$(tail -qn1 "$work"/time-"$prefix"-*.txt | awk '{ u += $3; s += $4 } END { printf "%.2f\t%.2f", u, s }')
        printf "postgres\t%s\t%s\t%s\t%s\t%s\n" "$label" "$wall" "$peak" "$cpu" "$load" >>"$results"
        echo "postgres $label: $wall s wall, $peak KB largest worker, $cpu CPU s (load $load)" >&2
    }
    shards "sweep: 10% revised + re-chunked, $workers shard workers" pg-sweep
    for i in 1 2 3; do
        shards "sweep: nothing changed, $workers shard workers ($i)" "pg-nochange$i"
    done
    timed postgres "health --json" sh -c '"$0" --db "$1" health --json >"$2"' "$bin" "$url" "$work/health-pg.json"
    timed postgres "export (to a file)" sh -c '"$0" --db "$1" export >"$2"' "$bin" "$url" "$work/export-pg.jsonl"
    timed postgres "report --since 0 --out (HTML)" "$bin" --db "$url" report --since 0 --out "$work/report-pg.html"
    sha256sum <"$work/export-pg.jsonl" | cut -d' ' -f1 >"$work/export-pg.sha256"
    rm -f "$work/export-pg.jsonl"
fi

# The two backends' exports (this run's, or an earlier run's in WORKDIR when one was skipped).
if [ -f "$work/export-sqlite.sha256" ] && [ -f "$work/export-pg.sha256" ]; then
    if cmp -s "$work/export-sqlite.sha256" "$work/export-pg.sha256"; then
        echo "export: PostgreSQL's is byte-identical to SQLite's (sha256 $(cat "$work/export-pg.sha256"))" >&2
    else
        echo "export: PostgreSQL's DIFFERS from SQLite's" >&2
        exit 1
    fi
fi

echo
echo "citations: $((docs * per_doc)) in $docs documents"
awk -F'\t' 'NR == 1 { print "| backend | run | wall s | peak RSS MiB | user s | sys s | load |"; print "|---|---|---:|---:|---:|---:|---:|"; next }
    { printf "| %s | %s | %.2f | %.1f | %.2f | %.2f | %s |\n", $1, $2, $3, $4 / 1024, $5, $6, $7 }' "$results"
