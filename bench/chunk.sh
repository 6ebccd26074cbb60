#!/usr/bin/env bash
# `citestore chunk` as a whole process, before against after, on fresh copies of one store,
# and proof that both store the same bytes.
#
#   bench/chunk.sh BEFORE_BIN AFTER_BIN STORE.db [RUNS] [SPEC]
#
# STORE.db is never written: it is copied, upgraded once with BEFORE_BIN (`init`, so neither
# side times a migration), then copied again for every run (the copies are synced to disk
# before timing, so no run pays for writing back another's copy). The runs alternate
# before/after; each prints `/usr/bin/time` figures (wall, user, sys, peak RSS). Then one
# fresh copy per binary runs `chunk SPEC`, `chunk SPEC --json` (nothing new) and
# `chunk paragraph:1500 --json` with CITESTORE_NOW fixed, and the outputs and the whole
# `sqlite3 .dump` of both stores are compared: identical, or the script fails.
set -euo pipefail
before=$1 after=$2 store=$3 runs=${4:-7} spec=${5:-chars:900:200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CITESTORE_NOW=2026-01-02T03:04:05Z
cp "$store" "$work/base.db"
"$before" --db "$work/base.db" init >/dev/null
sqlite3 "$work/base.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null

for i in $(seq 1 "$runs"); do
  cp "$work/base.db" "$work/before-$i.db"
  cp "$work/base.db" "$work/after-$i.db"
done
sync
fmt='%e s wall  %U s user  %S s sys  %M KB peak'
for i in $(seq 1 "$runs"); do
  for side in before after; do
    bin=$before
    [ "$side" = after ] && bin=$after
    printf '%-6s run %2d: ' "$side" "$i"
    /usr/bin/time -f "$fmt" "$bin" --db "$work/$side-$i.db" chunk --chunker "$spec" 2>&1 >/dev/null
    rm -f "$work/$side-$i.db"*
  done
done

for side in before after; do
  bin=$before
  [ "$side" = after ] && bin=$after
  db=$work/$side-same.db
  cp "$work/base.db" "$db"
  "$bin" --db "$db" chunk --chunker "$spec" >"$work/$side.1"
  "$bin" --db "$db" chunk --chunker "$spec" --json >"$work/$side.2"
  "$bin" --db "$db" chunk --chunker paragraph:1500 --json >"$work/$side.3"
  sqlite3 "$db" .dump >"$work/$side.dump"
  sqlite3 "$db" 'SELECT * FROM chunkings ORDER BY id' | sha256sum | sed 's/-$/chunkings/' >"$work/$side.tables"
  sqlite3 "$db" 'SELECT * FROM chunks ORDER BY id' | sha256sum | sed 's/-$/chunks/' >>"$work/$side.tables"
done
for f in 1 2 3 dump tables; do
  cmp "$work/before.$f" "$work/after.$f"
done
echo "identical: chunk output (text, --json, a second spec), chunkings and chunks tables, whole dump"
cat "$work/after.tables"
sha256sum <"$work/after.dump" | sed 's/-$/whole dump/'
