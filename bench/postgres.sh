#!/usr/bin/env bash
# PostgreSQL vs SQLite, one run, one machine (issue 13). Builds the sweep_scale corpus (10,000
# documents, 100 citations each, 10% revised on disk; CITESTORE_BENCH_DOCS and
# CITESTORE_BENCH_CITATIONS change the sizes) into a SQLite store, copies it into a local
# PostgreSQL server (a throwaway durable cluster: tests/pg-cluster.sh --durable) with
# `citestore migrate`, then times the same nightly job (`sweep --chunker paragraph:1200`):
#   - SQLite, one process;
#   - PostgreSQL with 1, 2 and 4 shard workers (`sweep --shard I/N` run at once), each on a
#     fresh clone of the copied database (CREATE DATABASE … TEMPLATE);
# and checks that every configuration ends with the same export. Then 4 concurrent cite
# writers × 10,000 claims each (benches/cite_writers.rs) while a sweep runs, on both backends:
# errors, lost and duplicated citations are counted.
#
#   bash bench/postgres.sh [WORKDIR]        # default /tmp/citestore-bench-pg
#   CITESTORE_BENCH_REUSE=1 bash bench/postgres.sh WORKDIR   # keep WORKDIR's corpus and store
#
# Prints a summary table; every wall time is /usr/bin/time's "Elapsed (wall clock)".
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/citestore-bench-pg}
docs=${CITESTORE_BENCH_DOCS:-10000}
per_doc=${CITESTORE_BENCH_CITATIONS:-100}
writer_answers=${CITESTORE_BENCH_WRITER_ANSWERS:-100}
bin=target/release/citestore
nice -n 10 cargo build --release --quiet
nice -n 10 cargo bench --quiet --no-run --bench cite_writers --bench sweep_scale
if [ "${CITESTORE_BENCH_REUSE:-}" = 1 ] && [ -f "$work/bench.db" ]; then
    # The store and the revised corpus of an earlier run: the sweeps below read, never change them.
    echo "== reusing $work/bench.db" >&2
    rm -rf "$work/pg" "$work"/*.log "$work"/*.json "$work"/*.jsonl "$work"/sqlite.db "$work"/writers.db
else
    rm -rf "$work"
    mkdir -p "$work"
    echo "== setup: $docs documents × $per_doc citations (SQLite)" >&2
    nice -n 10 cargo bench --quiet --bench sweep_scale -- setup "$work" >&2
fi
# The cluster may not read the work folder as its own user; the corpus is read by citestore.
cluster="$work/pg"
url=$(bash tests/pg-cluster.sh start "$cluster" --durable)
trap 'bash tests/pg-cluster.sh stop "$cluster"' EXIT
psql_admin() { psql "$url" -qAtc "$1"; }
db_url() { echo "$url" | sed "s|/citestore?|/$1?|"; }

echo "== copy into PostgreSQL" >&2
psql_admin "CREATE DATABASE template_bench"
/usr/bin/time -f "%e s wall, %M KB peak" "$bin" migrate --from "$work/bench.db" --to "$(db_url template_bench)" >&2
psql "$(db_url template_bench)" -qc "VACUUM ANALYZE" >&2
echo "sizes: SQLite $(du -h "$work/bench.db" | cut -f1), PostgreSQL $(psql_admin "SELECT pg_size_pretty(pg_database_size('template_bench'))")" >&2

seconds() { # wall seconds of a /usr/bin/time -v log
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"
}
results="$work/results.tsv"
printf "config\tseconds\tcitations_per_s\n" >"$results"
citations=$((docs * per_doc))

echo "== SQLite, one process" >&2
cp "$work/bench.db" "$work/sqlite.db"
/usr/bin/time -v -o "$work/time-sqlite.log" "$bin" --db "$work/sqlite.db" sweep --chunker paragraph:1200 --json >"$work/sweep-sqlite.json" || [ $? -eq 1 ]
s=$(seconds "$work/time-sqlite.log")
printf "sqlite x1\t%s\t%s\n" "$s" "$(echo "$citations / $s" | bc -l)" >>"$results"
"$bin" --db "$work/sqlite.db" export >"$work/export-sqlite.jsonl"

for n in 1 2 4; do
    echo "== PostgreSQL, $n shard worker(s)" >&2
    name="shards$n"
    psql_admin "CREATE DATABASE $name TEMPLATE template_bench"
    target=$(db_url "$name")
    start=$(date +%s.%N)
    pids=()
    for i in $(seq 1 "$n"); do
        /usr/bin/time -v -o "$work/time-pg$n-$i.log" "$bin" --db "$target" sweep --shard "$i/$n" --chunker paragraph:1200 --json >"$work/sweep-pg$n-$i.json" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || [ $? -eq 1 ]; done
    end=$(date +%s.%N)
    s=$(echo "$end - $start" | bc -l)
    printf "postgres x%s\t%s\t%s\n" "$n" "$s" "$(echo "$citations / $s" | bc -l)" >>"$results"
    "$bin" --db "$target" export >"$work/export-pg$n.jsonl"
    if cmp -s "$work/export-sqlite.jsonl" "$work/export-pg$n.jsonl"; then
        echo "export with $n worker(s): identical to SQLite's" >&2
    else
        echo "export with $n worker(s): DIFFERS from SQLite's" >&2
        exit 1
    fi
    "$bin" --db "$target" health | grep '^run ' >&2
done

echo "== 4 cite writers × $((writer_answers * 100)) claims while a sweep runs" >&2
psql_admin "CREATE DATABASE writers TEMPLATE template_bench"
cp "$work/bench.db" "$work/writers.db"
for db in "$work/writers.db" "$(db_url writers)"; do
    "$bin" --db "$db" sweep --chunker paragraph:1200 --json >"$work/writers-sweep.json" 2>"$work/writers-sweep.err" &
    sweep_pid=$!
    nice -n 10 cargo bench --quiet --bench cite_writers -- "$db" 4 "$writer_answers" 100 | tee -a "$work/writers.jsonl"
    wait "$sweep_pid" || [ $? -eq 1 ]
done

echo
echo "citations: $citations"
column -t -s $'\t' "$results"
base=$(awk -F'\t' '$1 == "sqlite x1" { print $2 }' "$results")
awk -F'\t' -v base="$base" 'NR > 1 { printf "%s: %.2f s, %.0f citations/s, %.2fx SQLite'"'"'s rate\n", $1, $2, $3, base / $2 }' "$results"
cat "$work/writers.jsonl"
