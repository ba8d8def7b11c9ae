#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster (Debian's postgresql-15 binaries) for the tests: a new data
# directory in a temporary folder, trust authentication, listening on its Unix socket in that folder and
# on 127.0.0.1:$PGPORT. Run as root, it runs the server as the `postgres` user. Prints the environment to
# use (`eval "$(Tests/EndToEnd/start-postgres.sh)"`); stop the server with `pg_ctl -D "$PGDATA_DIR" stop`.
set -euo pipefail
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
port="${PGPORT:-54329}"
dir="$(mktemp -d /tmp/cookiejar-pg.XXXXXX)"
run=()
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    run=(runuser -u postgres --)
fi
"${run[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log"
if ! "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200" start >/dev/null; then
    # The server's last words say why (another server on port $port: set PGPORT to a free one).
    echo "start-postgres.sh: the server did not start on port $port:" >&2
    tail -3 "$dir/server.log" >&2
    rm -rf "$dir"
    exit 1
fi
echo "export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres PGDATA_DIR=$dir/data"
