#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (README "Tests").
#
#   eval "$(scripts/pg-test-cluster.sh start)"   # prints export lines; ~1 s
#   swift test --skip-build                      # the PostgreSQL tests read $SWIPE_TEST_PG
#   scripts/pg-test-cluster.sh stop              # stops it and removes its folder
#   scripts/pg-test-cluster.sh env [DIR]         # the export lines of a running cluster again
#   scripts/pg-test-cluster.sh start --durable   # as deployed: fsync, synchronous_commit, full pages on
#   scripts/pg-test-cluster.sh start --standby   # --durable, plus a synchronous streaming standby
#   scripts/pg-test-cluster.sh crash [DIR]       # pg_ctl stop -m immediate: the postmaster and its backends die
#   scripts/pg-test-cluster.sh restart [DIR]     # starts it again on its port, after crash recovery
#
# `start` installs postgresql and libpq-dev with apt-get when missing, runs
# initdb into a fresh temporary folder (as the `postgres` user when run as
# root, since initdb refuses root), with trust authentication, the unix socket
# in that same short folder, TCP on 127.0.0.1 at a free port and fsync off:
# nothing in it is meant to survive. It prints (on stdout, nothing else there)
#
#   export SWIPE_TEST_PG='postgres://postgres@127.0.0.1:PORT/postgres'
#   export SWIPE_TEST_PG_DIR='/tmp/swipe-pg.XXXXXX'
#
# One role, `swipe_password_test`, must log in over TCP with a password
# (scram-sha-256), so tests can check password handling; every other role is
# trusted. `stop [DIR]` (default $SWIPE_TEST_PG_DIR) runs `pg_ctl stop -m fast`
# and deletes the folder; it is safe to call twice. The Makefile calls it from
# a trap so the cluster goes away when the tests fail too.
#
# `start --durable` keeps PostgreSQL's own durability settings (fsync,
# synchronous_commit and full_page_writes on), for the crash tests, which
# kill the server (`crash`: an immediate shutdown, no checkpoint, as a power
# cut leaves it) and start it again (`restart`: the same folder and port;
# PostgreSQL replays its WAL before it accepts connections).
#
# `start --standby` is `--durable` with PostgreSQL's own replication: the
# primary streams its WAL (wal_level replica) to a hot standby made with
# `pg_basebackup -R` in DIR/standby, on a port of its own, which it names in
# synchronous_standby_names (as `swipe_standby`, the standby's
# application_name), so a commit under `synchronous_commit = remote_apply`
# (swipe's `--sync full`) is acknowledged only once the standby has applied
# it. `start` returns once the standby streams and is synchronous
# (pg_stat_replication.sync_state = 'sync'), and also prints
#
#   export SWIPE_TEST_PG_STANDBY='postgres://postgres@127.0.0.1:PORT/postgres'
#
# `crash` and `restart` act on the primary alone; the standby stays up,
# read-only, and streams again once the primary is back. `stop` stops both.
set -euo pipefail

say() { echo "pg-test-cluster: $*" >&2; }
die() { say "$*"; exit 1; }

# The newest installed server's binaries (Debian keeps them off PATH).
find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
    return 1
}

install_missing() {
    local missing=""
    find_bin >/dev/null || missing="$missing postgresql"
    [ -f /usr/include/postgresql/libpq-fe.h ] || missing="$missing libpq-dev"
    [ -z "$missing" ] && return 0
    say "installing:$missing"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    # Debian's postgresql package starts a cluster of its own on 5432 where it
    # can; this script never uses it (its own cluster is on a free port).
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing; } >&2 \
        || die "could not install$missing with apt-get"
}

# A TCP port nobody listens on now, chosen by the kernel.
free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    else
        local port
        while :; do
            port=$(( 20000 + RANDOM % 30000 ))
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
        done
    fi
}

# Runs a command as the cluster's owner: `postgres` when we are root.
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

print_env() {
    local dir=$1 port
    [ -f "$dir/port" ] || die "no cluster in $dir (no $dir/port)"
    port=$(cat "$dir/port")
    echo "export SWIPE_TEST_PG='postgres://postgres@127.0.0.1:$port/postgres'"
    echo "export SWIPE_TEST_PG_DIR='$dir'"
    if [ -f "$dir/standby-port" ]; then
        echo "export SWIPE_TEST_PG_STANDBY='postgres://postgres@127.0.0.1:$(cat "$dir/standby-port")/postgres'"
    fi
}

# The server outlives this script, so it must not keep the caller's open
# descriptors beyond the three standard ones: a caller that waits for one of
# them to close (Foundation's Process watches a socket it hands each child)
# would wait as long as the server runs. Bash's own script descriptor (255)
# is close-on-exec and stays.
close_inherited() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        case "$fd" in 0|1|2|255|*[!0-9]*) continue ;; esac
        eval "exec $fd>&-" 2>/dev/null || true
    done
}

# The standby's application_name, which the primary waits for.
STANDBY_NAME=swipe_standby

# The server's settings: the speed settings unless --durable; a primary
# streaming to its synchronous standby with --standby.
server_options() {
    local port=$1 dir=$2 durable=$3 standby=${4:-0}
    local options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200"
    [ "$durable" = 1 ] || options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [ "$standby" = 1 ] && options="$options -c wal_level=replica -c max_wal_senders=4 -c synchronous_standby_names=$STANDBY_NAME"
    echo "$options"
}

# The standby's settings: durable, read-only queries while it replays
# (hot_standby), and back to the primary within 0.1 s once it can reach it
# again (the default retry, 5 s, would hold every commit that long).
standby_options() {
    local port=$1 dir=$2
    echo "$(server_options "$port" "$dir" 1) -c hot_standby=on -c wal_retrieve_retry_interval=100ms"
}

# Makes the standby of the primary in DIR (a base backup with -R, so it
# starts as a standby streaming from the primary over TCP), starts it on a
# port of its own and waits until the primary calls it synchronous.
start_standby() {
    local dir=$1 bin=$2 port=$3 sport attempt
    (cd "$dir" && as_owner "$bin/pg_basebackup" -D "$dir/standby" -R -X stream -c fast --no-sync \
        -d "host=127.0.0.1 port=$port user=postgres application_name=$STANDBY_NAME") \
        >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log" >&2; return 1; }
    grep -q "application_name=$STANDBY_NAME" "$dir/standby/postgresql.auto.conf" \
        || { say "pg_basebackup -R left out application_name"; return 1; }
    for attempt in 1 2 3 4 5; do
        sport=$(free_port)
        if (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w -t 60 start -o \
            "$(standby_options "$sport" "$dir")") >/dev/null 2>&1; then
            echo "$sport" >"$dir/standby-port"
            break
        fi
        say "standby attempt $attempt on port $sport failed:"; tail -n 5 "$dir/standby.log" >&2 || true
    done
    [ -f "$dir/standby-port" ] || return 1
    wait_for_sync "$dir" "$bin" "$port"
}

# Polls the primary (with a deadline) until it streams to the standby and
# counts it synchronous. After a restart the standby reconnects within
# wal_retrieve_retry_interval, and its walsender is listed as `async` for a
# moment before it is `sync`.
wait_for_sync() {
    local dir=$1 bin=$2 port=$3 state="" deadline=$(( SECONDS + 30 ))
    while [ "$SECONDS" -lt "$deadline" ]; do
        state=$(as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -Atc \
            "SELECT state || ' ' || sync_state FROM pg_stat_replication WHERE application_name = '$STANDBY_NAME'" \
            2>/dev/null || true)
        [ "$state" = "streaming sync" ] && return 0
        sleep 0.05
    done
    say "the standby is not a streaming synchronous standby after 30 s (pg_stat_replication: '${state}')"
    tail -n 5 "$dir/standby.log" >&2 || true
    return 1
}

start() {
    install_missing
    local durable=0 standby=0
    case "${1:-}" in
        --durable) durable=1 ;;
        --standby) durable=1 standby=1 ;;
        "") ;;
        *) die "start: unknown option $1" ;;
    esac
    local bin dir port attempt
    bin=$(find_bin) || die "initdb not found under /usr/lib/postgresql/*/bin"
    # Short on purpose: a unix socket path must fit in 107 bytes.
    dir=$(mktemp -d /tmp/swipe-pg.XXXXXX)
    trap 'rm -rf "$dir"' ERR
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    # initdb and pg_ctl complain about a working folder the owner cannot read.
    cd "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed in $dir"; }
    cat >"$dir/data/pg_hba.conf" <<'EOF'
# swipe's throwaway test cluster: trust everyone but the password-test role.
local all all                          trust
host  all swipe_password_test 127.0.0.1/32 scram-sha-256
host  all all                 127.0.0.1/32 trust
host  all all                 ::1/128      trust
# A standby's WAL stream (start --standby).
local replication all                  trust
host  replication all         127.0.0.1/32 trust
EOF
    # A port can be taken between choosing it and binding it: try a few.
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
            "$(server_options "$port" "$dir" "$durable" "$standby")" >/dev/null 2>&1; then
            echo "$port" >"$dir/port"
            echo "$durable" >"$dir/durable"
            echo "$standby" >"$dir/standby-mode"
            if [ "$standby" = 1 ] && ! start_standby "$dir" "$bin" "$port"; then
                stop "$dir"
                die "could not start a synchronous standby"
            fi
            trap - ERR
            print_env "$dir"
            say "started PostgreSQL ($("$bin/postgres" --version | awk '{print $3}')) in $dir on 127.0.0.1:$port"
            return 0
        fi
        say "attempt $attempt on port $port failed:"; tail -n 5 "$dir/server.log" >&2 || true
    done
    rm -rf "$dir"
    die "could not start PostgreSQL"
}

stop() {
    local dir=${1:-${SWIPE_TEST_PG_DIR:-}}
    [ -n "$dir" ] || die "stop: no folder given and SWIPE_TEST_PG_DIR is not set"
    case "$dir" in /tmp/swipe-pg.*) ;; *) die "stop: $dir is not a folder this script made";; esac
    [ -d "$dir" ] || return 0
    local bin
    bin=$(find_bin) || die "pg_ctl not found"
    if [ -f "$dir/standby/postmaster.pid" ]; then
        (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/standby" -m fast -w stop >/dev/null 2>&1) \
            || say "pg_ctl stop failed for the standby in $dir (already stopped?)"
    fi
    if [ -f "$dir/data/postmaster.pid" ]; then
        (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1) \
            || say "pg_ctl stop failed in $dir (already stopped?)"
    fi
    rm -rf "$dir"
}

# The folder of a running (or crashed) cluster this script made.
cluster_dir() {
    local dir=${1:-${SWIPE_TEST_PG_DIR:-}}
    [ -n "$dir" ] || die "no folder given and SWIPE_TEST_PG_DIR is not set"
    case "$dir" in /tmp/swipe-pg.*) ;; *) die "$dir is not a folder this script made";; esac
    [ -f "$dir/port" ] || die "no cluster in $dir (no $dir/port)"
    echo "$dir"
}

# An immediate shutdown: every server process quits at once, nothing is
# flushed or checkpointed; only what reached the WAL on disk survives.
crash() {
    local dir bin
    dir=$(cluster_dir "${1:-}") || exit 1
    bin=$(find_bin) || die "pg_ctl not found"
    (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null) \
        || die "pg_ctl stop -m immediate failed in $dir"
}

# Starts a stopped (or crashed) cluster again on its own port with its own
# settings; returns once it accepts connections (after crash recovery) and,
# with a standby, once that streams from it again as its synchronous standby.
restart() {
    local dir bin
    dir=$(cluster_dir "${1:-}") || exit 1
    bin=$(find_bin) || die "pg_ctl not found"
    (cd "$dir" && as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
        "$(server_options "$(cat "$dir/port")" "$dir" "$(cat "$dir/durable" 2>/dev/null || echo 0)" \
            "$(cat "$dir/standby-mode" 2>/dev/null || echo 0)")" >/dev/null) \
        || { tail -n 5 "$dir/server.log" >&2; die "could not start PostgreSQL again in $dir"; }
    if [ -f "$dir/standby-port" ]; then
        wait_for_sync "$dir" "$bin" "$(cat "$dir/port")" || die "the standby did not come back in $dir"
    fi
}

case "${1:-}" in
    start|restart) close_inherited ;;
esac
case "${1:-}" in
    start) start "${2:-}" ;;
    crash) crash "${2:-}" ;;
    restart) restart "${2:-}" ;;
    stop) stop "${2:-}" ;;
    env) print_env "${2:-${SWIPE_TEST_PG_DIR:?env: no folder given and SWIPE_TEST_PG_DIR is not set}}" ;;
    *) echo "usage: $0 start [--durable|--standby]|stop [DIR]|env [DIR]|crash [DIR]|restart [DIR]" >&2; exit 64 ;;
esac
