#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and the bench: `start DIR` runs initdb and
# pg_ctl (Debian's postgresql package) in DIR, listening only on a Unix socket in DIR, and
# prints the URL; `stop DIR` stops it and removes DIR. initdb refuses to run as root, so as
# root the cluster runs as the `postgres` user (else `nobody`). Pass `--durable` after DIR to
# keep fsync on (the bench); the tests run with fsync off.
set -euo pipefail
cmd=${1:?usage: pg-cluster.sh start|stop DIR [--durable]}
dir=${2:?usage: pg-cluster.sh start|stop DIR [--durable]}
bin=""
for candidate in $(command -v pg_ctl 2>/dev/null || true) /usr/lib/postgresql/*/bin/pg_ctl; do
    if [ -x "$candidate" ]; then bin=$(dirname "$candidate"); break; fi
done
if [ -z "$bin" ]; then
    echo "pg-cluster.sh: pg_ctl not found; install Debian's postgresql package" >&2
    exit 2
fi
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    id "$owner" >/dev/null 2>&1 || owner=nobody
    as_owner=(runuser -u "$owner" --)
fi
case "$cmd" in
start)
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ ${#as_owner[@]} -eq 0 ] || chown "$owner" "$dir"
    fsync=off
    [ "${3:-}" != "--durable" ] || fsync=on
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U citestore -A trust --locale=C.UTF-8 \
        -E UTF8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 2; }
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-k $dir -c listen_addresses='' -c fsync=$fsync -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 2; }
    chmod 755 "$dir"
    psql=$(command -v psql || echo "$bin/psql")
    "${as_owner[@]}" "$psql" -h "$dir" -U citestore -d postgres -qc "CREATE DATABASE citestore" >&2
    echo "postgresql:///citestore?user=citestore&host=$dir"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg-cluster.sh start|stop DIR [--durable]" >&2
    exit 2
    ;;
esac
