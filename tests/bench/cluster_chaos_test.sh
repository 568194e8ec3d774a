#!/usr/bin/env bash
# The chaos mode end to end (bench/cluster_chaos.sh): a real PostgreSQL, redis-server and three
# nodes, loadgen over all of them with --reconnect, one node SIGKILLed and started again mid-play;
# the script's verdict must be no error, no mismatch, no acknowledged move lost and no game stuck.
# usage: cluster_chaos_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1" build="$2"
tmp="$(mktemp -d)"
chmod 755 "$tmp"  # the cluster's PostgreSQL runs as the postgres user, inside it
trap 'rm -rf "$tmp"' EXIT
port=$((21000 + RANDOM % 11000))  # below the ephemeral range (32768+); three ports from it
out=$("$src/bench/cluster_chaos.sh" "$build" --games 6 --spectators 1 --move-interval-ms 200 --seconds 20 \
  --kills 1 --first-kill-s 5 --down-s 3 --stuck-after-s 15 --port "$port" --dir "$tmp/cluster" 2>&1) || {
  echo "$out"
  echo "FAIL: cluster_chaos.sh exited non-zero"
  exit 1
}
echo "$out"
grep -q "VERDICT errors 0 mismatches 0 acked_moves_lost 0 games_stuck 0" <<<"$out" || { echo "FAIL: verdict"; exit 1; }
grep -q "SIGKILL node-1" <<<"$out" || { echo "FAIL: no node was killed"; exit 1; }
grep -Eq "reconnects [1-9]" <<<"$out" || { echo "FAIL: nobody reconnected after the kill"; exit 1; }
echo "PASS"
