#!/usr/bin/env bash
# Smoke test for bench/loadgen: a real xiangqi-server on a loopback port, 4 games with 1 spectator
# for 3 seconds; the JSON must report completed games, no errors and no mismatches.
# usage: loadgen_smoke.sh SERVER_BINARY LOADGEN_BINARY
set -euo pipefail
server="$1" loadgen="$2"
tmp="$(mktemp -d)"
port=$((21000 + RANDOM % 11000))  # below the ephemeral range (32768+)
"$server" --listen "127.0.0.1:$port" --db "$tmp/smoke.db" --discovery-port 0 --log-level warn --rate-limit 0 --max-waiting-games-per-address 0 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.05
done
json=$("$loadgen" --server "127.0.0.1:$port" --games 4 --spectators 1 --move-interval-ms 0 --seconds 3 --server-pid "$pid")
echo "$json"
field() { grep -o "\"$1\":[^,}]*" <<<"$json" | cut -d: -f2; }
[[ "$(field errors)" == 0 ]] || { echo "FAIL: errors"; exit 1; }
[[ "$(field mismatches)" == 0 ]] || { echo "FAIL: mismatches"; exit 1; }
(($(field games_completed) > 0)) || { echo "FAIL: no game completed"; exit 1; }
(($(field moves) > 0)) || { echo "FAIL: no moves"; exit 1; }
echo "PASS"
