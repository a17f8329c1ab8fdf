#!/usr/bin/env bash
# A hot standby of the local PostgreSQL cluster `main` (port 5432), streaming
# from it, as cluster `replica` on port 5433: what the read-replica tests run
# against. Idempotent: a standby that is already streaming is left alone; one
# that is missing, stopped or broken is made again from a fresh base backup.
# Run as root (it edits the primary's pg_hba.conf and owns files to postgres); .ci/run runs it, and
# so can a developer: then MURAL_TEST_POSTGRES_REPLICA=postgres://postgres@127.0.0.1:5433/test.
set -euo pipefail

PRIMARY_PORT="${PRIMARY_PORT:-5432}"
STANDBY_PORT="${STANDBY_PORT:-5433}"
VERSION="${PG_VERSION:-$(ls /etc/postgresql | sort -n | tail -1)}"
CLUSTER=replica
HBA="/etc/postgresql/$VERSION/main/pg_hba.conf"
psql_primary() { psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -Atc "$1"; }
psql_standby() { psql -h 127.0.0.1 -p "$STANDBY_PORT" -U postgres -Atc "$1" 2>/dev/null; }

streaming() {
  [ "$(psql_standby 'SELECT pg_is_in_recovery()')" = t ] \
    && [ "$(psql_standby 'SELECT status FROM pg_stat_wal_receiver')" = streaming ]
}

# base backups and streaming connect as replication connections over TCP
if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$HBA"; then
  echo 'host replication all 127.0.0.1/32 trust' >> "$HBA"
  psql_primary 'SELECT pg_reload_conf()' >/dev/null
fi
# WAL the standby may still need after a short stop (the failover tests stop it) stays on the primary
if [ "$(psql_primary 'SHOW wal_keep_size')" = 0 ]; then
  psql_primary "ALTER SYSTEM SET wal_keep_size = '256MB'" >/dev/null
  psql_primary 'SELECT pg_reload_conf()' >/dev/null
fi

if pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$VERSION $CLUSTER"; then
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" start >/dev/null 2>&1 || true
  for _ in $(seq 1 20); do streaming && break; sleep 0.5; done
  if streaming; then echo "standby $VERSION/$CLUSTER streaming on port $STANDBY_PORT"; exit 0; fi
  echo "standby $VERSION/$CLUSTER is not streaming; making it again"
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" stop -m fast 2>/dev/null || true
else
  pg_createcluster "$VERSION" "$CLUSTER" -p "$STANDBY_PORT" >/dev/null
fi

DATA="$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c {print $6}')"
case "$DATA" in /*/"$CLUSTER") ;; *) echo "unexpected data directory '$DATA' for $VERSION/$CLUSTER" >&2; exit 1 ;; esac
rm -rf "$DATA"
# -R writes standby.signal and primary_conninfo: the copy starts as a hot standby streaming from the primary
pg_basebackup -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DATA" -R -X stream -c fast
chown -R postgres:postgres "$DATA"
chmod 700 "$DATA"
# Debian keeps pg_hba.conf beside the cluster's config, not in its data: the standby trusts whom the primary does
install -o postgres -g postgres -m 640 "$HBA" "/etc/postgresql/$VERSION/$CLUSTER/pg_hba.conf"
pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" start
for _ in $(seq 1 60); do streaming && break; sleep 0.5; done
streaming || { echo "standby $VERSION/$CLUSTER did not start streaming" >&2; exit 1; }
echo "standby $VERSION/$CLUSTER streaming on port $STANDBY_PORT"
