#!/usr/bin/env bash
# Several `swipe serve` processes over one PostgreSQL, behind HAProxy
# (Documentation/Serve.md, "Several servers behind a proxy").
#
#   scripts/serve-cluster.sh SWIPE_BINARY [PORT] [SERVERS]
#
# Starts a throwaway PostgreSQL cluster (scripts/pg-test-cluster.sh), loads
# seed/ into it, runs SERVERS (default 3) `swipe serve` processes on the
# ports after PORT (default 8080), and HAProxy on PORT in front of them,
# checking each server's /healthz every 500 ms. It prints one sign-in link
# (through the proxy) and the servers' process ids, then waits; Ctrl-C stops
# everything and removes the cluster. Kill one server (kill -9 PID) to watch
# its pages reconnect through the proxy to the others.
set -euo pipefail
cd "$(dirname "$0")/.."

swipe=${1:?usage: scripts/serve-cluster.sh SWIPE_BINARY [PORT] [SERVERS]}
port=${2:-8080}
servers=${3:-3}
viewer=${DEMO_VIEWER:-demo}

command -v haproxy >/dev/null || { echo "serve-cluster: haproxy is missing (make deps installs it)" >&2; exit 1; }

env_lines=$(scripts/pg-test-cluster.sh start)
eval "$env_lines"
work=$(mktemp -d /tmp/swipe-cluster.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    scripts/pg-test-cluster.sh stop "$SWIPE_TEST_PG_DIR"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "loading seed/ into $SWIPE_TEST_PG" >&2
scripts/load-seed.sh "$swipe" "$SWIPE_TEST_PG" >&2

backends=""
for n in $(seq 1 "$servers"); do
    server_port=$((port + n))
    "$swipe" serve --db "$SWIPE_TEST_PG" --port "$server_port" >"$work/serve$n.log" 2>&1 &
    pids+=($!)
    backends+="    server s$n 127.0.0.1:$server_port check"$'\n'
    echo "server s$n: pid $! on 127.0.0.1:$server_port (log $work/serve$n.log)" >&2
done

cat >"$work/haproxy.cfg" <<CONFIG
global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    option redispatch
    retries 3
frontend swipe
    bind 127.0.0.1:$port
    default_backend servers
backend servers
    balance roundrobin
    option httpchk GET /healthz
    default-server inter 500ms fall 1 rise 2
$backends
CONFIG

for n in $(seq 1 "$servers"); do
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$((port + n))/healthz" >/dev/null 2>&1 && break
        sleep 0.1
    done
done
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=($!)
echo "haproxy: pid $! on 127.0.0.1:$port (config $work/haproxy.cfg)" >&2
echo "Open this link to swipe as $viewer through the proxy:"
"$swipe" link --db "$SWIPE_TEST_PG" --as "$viewer" --base "http://127.0.0.1:$port"
wait
