#!/usr/bin/env bash
# ./xq cluster N: a cluster to try on this machine (docs/cluster.md): a throw-away PostgreSQL and
# redis-server in DIR (default build/cluster), then N xiangqi-server nodes on ports 7777, 7778, ...
# sharing them. Connect clients to any node (./xq client --connect 127.0.0.1:7778). Ctrl-C stops
# everything (or SIGTERM: a background shell ignores SIGINT); the data stay in DIR until the next
# start, which begins empty. NODE ARGS go to every node: with `-- --bots 2` every node stands for
# the bots' lease and one at a time runs them (another takes over if it is killed).
#
# Each node's pid is in DIR/node-I.pid. A node that ends (killed to see its games taken over, say)
# stays down until the script gets SIGUSR1, which starts every ended node again with its id and
# port (bench/cluster_chaos.sh kills and restarts nodes this way).
#
# usage: tools/cluster.sh BUILD_DIR N [--dir DIR] [--port FIRST] [--discovery UDP_PORT] [-- NODE ARGS...]
# (--discovery: the first node's LAN discovery port, 7778; 0: none, for scripts and tests)
set -euo pipefail

build="${1:?usage: cluster.sh BUILD_DIR N [--dir DIR] [--port FIRST] [-- NODE ARGS]}"
count="${2:?how many nodes?}"
shift 2
[[ "$count" =~ ^[1-9][0-9]?$ ]] || { echo "cluster: N is 1 to 99 nodes, got '$count'" >&2; exit 2; }
dir="$build/cluster" first_port=7777 discovery_port=7778 node_args=()
while (($#)); do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --port) first_port="$2"; shift 2 ;;
    --discovery) discovery_port="$2"; shift 2 ;;
    --) shift; node_args=("$@"); break ;;
    *) echo "cluster: unknown option '$1'" >&2; exit 2 ;;
  esac
done
# Absolute: PostgreSQL runs in its own folder (and as another user when we are root).
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)" build="$(cd "$build" && pwd)"

pg_bin=/usr/lib/postgresql/15/bin
# PostgreSQL refuses to run as root: as root, it runs as the postgres user the package made.
as_pg=()
((EUID == 0)) && as_pg=(setpriv --reuid=postgres --regid=postgres --clear-groups)

rm -rf "$dir"
mkdir -p "$dir/pg" "$dir/logs"
((EUID == 0)) && chown postgres:postgres "$dir/pg"
pids=()           # redis-server's
declare -A node_pid=()  # node number -> its process
stop_all() {
  trap - INT TERM EXIT USR1
  echo "cluster: stopping" >&2
  for pid in "${pids[@]}" "${node_pid[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast stop >/dev/null 2>&1 || true
}
# A signal's trap must also end the script: a trap that returns lets the loop below go on.
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap stop_all EXIT

"${as_pg[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
  --no-instructions >"$dir/logs/initdb.log" 2>&1 || { echo "cluster: initdb failed, see $dir/logs/initdb.log" >&2; exit 1; }
# Unix socket only (in DIR/pg): nothing of this throw-away database listens on the network.
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w \
  -o "-k $dir/pg -c listen_addresses='' -c max_connections=200 -c fsync=on" start >/dev/null ||
  { echo "cluster: postgres did not start, see $dir/pg/server.log" >&2; exit 1; }
conninfo="host=$dir/pg port=5432 user=postgres dbname=postgres"

redis-server --port 0 --unixsocket "$dir/redis.sock" --unixsocketperm 700 --save '' --appendonly no \
  --dir "$dir" >"$dir/logs/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -S "$dir/redis.sock" ]] && break; sleep 0.1; done
[[ -S "$dir/redis.sock" ]] || { echo "cluster: redis-server did not start, see $dir/logs/redis.log" >&2; exit 1; }

start_node() {
  local n=$1 port=$((first_port + $1 - 1))
  # LAN discovery (UDP 7778) answers on the first node only: one such port per machine.
  local discovery=0
  ((n == 1)) && discovery=$discovery_port
  "$build/server/xiangqi-server" --listen "0.0.0.0:$port" --postgres "$conninfo" --redis "unix:$dir/redis.sock" \
    --node-id "node-$n" --name "xiangqi node $n" --discovery-port "$discovery" "${node_args[@]}" \
    >>"$dir/logs/node-$n.log" 2>&1 &
  node_pid[$n]=$!
  echo "${node_pid[$n]}" >"$dir/node-$n.pid"
  echo "cluster: node-$n on port $port, pid ${node_pid[$n]} (log $dir/logs/node-$n.log)" >&2
}
for ((n = 1; n <= count; n++)); do start_node "$n"; done
echo "cluster: $count node(s), PostgreSQL in $dir/pg, Redis at $dir/redis.sock; Ctrl-C stops them" >&2
restart_ended() {
  for n in "${!node_pid[@]}"; do kill -0 "${node_pid[$n]}" 2>/dev/null || start_node "$n"; done
}
trap restart_ended USR1
# Runs until Ctrl-C. A process that ends is reported; the others go on.
declare -A reported=()
while sleep 1; do
  for pid in "${pids[@]}" "${node_pid[@]}"; do
    if [[ -z "${reported[$pid]:-}" ]] && ! kill -0 "$pid" 2>/dev/null; then
      reported[$pid]=1
      echo "cluster: process $pid ended; see $dir/logs" >&2
    fi
  done
done
