#!/usr/bin/env bash
# The nightly job on a generated store, each case as whole processes on a fresh copy:
#
#   bench/nightly.sh BIN STORE.db [RUNS]
#
# STORE.db is built by `CITESTORE_BENCH_DOCS=2000 cargo bench --bench sweep_scale -- setup DIR`
# (2,000 documents, 100 citations each, 10% revised on disk) and never written: it is copied,
# upgraded once (`init`), and given a full check (`check`, as the weekly check leaves a store),
# then copied again for every run, synced before the clock starts. Cases:
#   nightly        `chunk --chunker chars:900:200`, then `sweep` (the revised documents
#                  re-extracted, every citation of theirs re-anchored)
#   nightly-check  the same on a store whose last full check is unknown: the night a sweep
#                  reads every page first ([sweep] full_check_days)
#   rechunk-only   `sweep --no-extract --chunker chars:900:200`: every document re-chunked, no
#                  text changed
#   after-chunk    `sweep --no-extract` after an untimed `chunk --chunker chars:900:200`: only
#                  the chunking changed, the chunks already made (the nightly job's shape)
#   no-change      `sweep` again after a nightly sweep: nothing to do
# Prints each run's wall seconds, then the medians of wall, cpu (user + system) and peak RSS
# (GNU time), and citations/s from the wall medians.
set -euo pipefail
bin=$1 store=$2 runs=${3:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$store" "$work/unchecked.db"
"$bin" --db "$work/unchecked.db" init >/dev/null
sqlite3 "$work/unchecked.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$work/unchecked.db" "$work/checked.db"
"$bin" --db "$work/checked.db" check >/dev/null
sqlite3 "$work/checked.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
citations=$(sqlite3 "$work/checked.db" 'SELECT count(*) FROM citations')
echo "store: $store, $citations citations, $(du -m "$work/checked.db" | cut -f1) MB"

timed() { # label db args... -> appends "wall peak_kb" to $work/label
  local label=$1 db=$2
  shift 2
  /usr/bin/time -f '%e %M %U %S' -o "$work/t" "$bin" --db "$db" "$@" >/dev/null
  cat "$work/t" >>"$work/$label"
}
for i in $(seq 1 "$runs"); do
  for case in nightly nightly-check rechunk-only after-chunk no-change; do
    db=$work/run.db
    rm -f "$db" "$db-wal" "$db-shm"
    if [ "$case" = nightly-check ]; then cp "$work/unchecked.db" "$db"; else cp "$work/checked.db" "$db"; fi
    sync
    case $case in
      nightly | nightly-check)
        timed "$case.chunk" "$db" chunk --chunker chars:900:200
        timed "$case.sweep" "$db" sweep ;;
      rechunk-only)
        timed "$case" "$db" sweep --no-extract --chunker chars:900:200 ;;
      after-chunk)
        "$bin" --db "$db" chunk --chunker chars:900:200 >/dev/null
        sync
        timed "$case" "$db" sweep --no-extract ;;
      no-change)
        "$bin" --db "$db" sweep >/dev/null
        sync
        timed "$case" "$db" sweep ;;
    esac
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for f in nightly.chunk nightly.sweep nightly-check.chunk nightly-check.sweep rechunk-only after-chunk no-change; do
  printf '%-20s wall s: %s   median %s   cpu s median %s   peak MB: %s\n' "$f" \
    "$(cut -d' ' -f1 "$work/$f" | tr '\n' ' ')" "$(cut -d' ' -f1 "$work/$f" | median)" \
    "$(awk '{print $3+$4}' "$work/$f" | median)" \
    "$(cut -d' ' -f2 "$work/$f" | median | awk '{printf "%.1f", $1/1024}')"
done
for n in nightly nightly-check; do
  total=$(paste -d' ' "$work/$n.chunk" "$work/$n.sweep" | awk '{print $1+$5}' | median)
  echo "$n: chunk + sweep median $total s = $(awk -v c="$citations" -v t="$total" 'BEGIN{printf "%.0f", c/t}') citations/s"
done
for n in rechunk-only after-chunk; do
  t=$(cut -d' ' -f1 "$work/$n" | median)
  echo "$n: $(awk -v c="$citations" -v t="$t" 'BEGIN{printf "%.0f", c/t}') citations/s"
done
t=$(cut -d' ' -f1 "$work/no-change" | median)
echo "no-change: $(awk -v c="$citations" -v t="$t" 'BEGIN{printf "%.3f", t*1e6/c}') s per million citations"
