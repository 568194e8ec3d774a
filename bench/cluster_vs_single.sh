#!/usr/bin/env bash
# The cluster's cost per move (issue 20): the same loadgen load against one node on SQLite and then
# against a cluster of N nodes with no kills (bench/cluster_chaos.sh --kills 0), in one invocation.
# On a machine of few cores this measures what the cluster path costs a move, not scaling.
#
# usage: bench/cluster_vs_single.sh BUILD_DIR [--nodes N] [--games G] [--spectators S]
#          [--move-interval-ms I] [--seconds T]
set -euo pipefail

build="${1:?usage: cluster_vs_single.sh BUILD_DIR [options]}"
build="$(cd "$build" && pwd)"  # absolute: PostgreSQL runs in its own folder
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=3 games=300 spectators=2 interval=1000 seconds=60
while (($#)); do
  case "$1" in
    --nodes) nodes="$2" ;;
    --games) games="$2" ;;
    --spectators) spectators="$2" ;;
    --move-interval-ms) interval="$2" ;;
    --seconds) seconds="$2" ;;
    *) echo "cluster_vs_single: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
dir="$(mktemp -d)"
chmod 755 "$dir"  # the cluster's PostgreSQL runs as the postgres user, inside it
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

port=16777
"$build/server/xiangqi-server" --plain --listen "127.0.0.1:$port" --db "$dir/single.db" --discovery-port 0 \
  --max-connections-per-address 20000 --max-waiting-games-per-address 0 --rate-limit 0 2>"$dir/single.log" &
server_pid=$!
for ((t = 0; t < 600; t++)); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
echo "== one node on SQLite" >&2
"$build/bench/loadgen" --server "127.0.0.1:$port" --plain --games "$games" --spectators "$spectators" \
  --move-interval-ms "$interval" --seconds "$seconds" --server-pid "$server_pid" >"$dir/single.json"
python3 - "$dir/single.json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
ms = lambda us: f"{us / 1000:.2f}"
print(f"one node, SQLite: {r['moves_per_s']} moves/s; ack p50/p99 {ms(r['p50_us'])}/{ms(r['p99_us'])} ms; "
      f"spectator delivery p50/p99 {ms(r['desktop_delivery_p50_us'])}/{ms(r['desktop_delivery_p99_us'])} ms; "
      f"errors {r['errors']} mismatches {r['mismatches']}; server RSS {r['server_rss_kb'] // 1024} MiB")
PY
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
echo "== $nodes nodes on PostgreSQL and Redis" >&2
"$root/bench/cluster_chaos.sh" "$build" --nodes "$nodes" --games "$games" --spectators "$spectators" \
  --move-interval-ms "$interval" --seconds "$seconds" --kills 0 --dir "$dir/cluster"
