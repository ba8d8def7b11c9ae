#!/usr/bin/env bash
# The CookiesPostgres tests against a throw-away PostgreSQL cluster (start-postgres.sh), stopped at the
# end. With PGHOST already set, they run against that server instead, and no cluster is started.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${PGHOST:-}" ]; then
    eval "$(./start-postgres.sh)"
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    run=()
    [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
    trap '"${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" -m immediate stop >/dev/null || true; rm -rf "$(dirname "$PGDATA_DIR")"' EXIT
fi
swift test "$@"
