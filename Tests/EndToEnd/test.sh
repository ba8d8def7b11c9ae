#!/usr/bin/env bash
# Every test of this package (`swift test --package-path Tests/EndToEnd`, extra arguments passed on): the
# end-to-end flows and CookiesPostgres, the latter against a throw-away PostgreSQL cluster (start-postgres.sh,
# run as the `postgres` user when this runs as root), stopped and removed at the end. With PGHOST already
# set, the tests use that server (PGHOST, PGPORT, PGUSER, PGDATABASE) and no cluster is started.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PGHOST:-}" ]; then
    # A cluster that does not start (its port taken by another) stops the tests here: `eval "$(…)"` alone
    # would go on without one.
    environment="$(Tests/EndToEnd/start-postgres.sh)" || { echo "test.sh: the PostgreSQL cluster did not start" >&2; exit 1; }
    eval "$environment"
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    run=()
    [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
    trap '"${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" -m immediate stop >/dev/null || true; rm -rf "$(dirname "$PGDATA_DIR")"' EXIT
fi
swift test --package-path Tests/EndToEnd "$@"
