#!/usr/bin/env bash
# The server's CPU per move at saturation: starts SERVER_BIN on a fresh database, runs loadgen
# (100 games, no spectators, no pause) for 10 s, and reads the server's user+system time (all its
# threads) from /proc before and after, and the load generator's (bash's time). Used to compare two
# server builds, or TLS and plain, in alternation.
#
# usage: cpu_per_move.sh BUILD_DIR SERVER_BIN PORT [tls|plain]   (SERVER_EXTRA: extra server
#        options, default "--rate-limit 0"; set it empty for builds older than the rate limiter;
#        LOADGEN: another build's load generator)
set -euo pipefail
build="$1" bin="$2" port="$3" mode="${4:-tls}"
plain=()
[[ "$mode" == plain ]] && plain=(--plain)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086  # SERVER_EXTRA is a list of options
"$bin" --listen "127.0.0.1:$port" --db "$tmp/x.db" --discovery-port 0 --log-level warn \
  --max-connections-per-address 20000 ${SERVER_EXTRA---max-waiting-games-per-address 0 --rate-limit 0} "${plain[@]}" &
pid=$!
sleep 0.5
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
before=$(cpu)
TIMEFORMAT='%U %S'  # bash's time: the load generator's user and system seconds
{ time "${LOADGEN:-$build/bench/loadgen}" --server "127.0.0.1:$port" --games 100 --spectators 0 \
  --move-interval-ms 0 --seconds 10 --server-pid "$pid" "${plain[@]}" >"$tmp/json" 2>"$tmp/loadgen.err"; } 2>"$tmp/loadgen.time"
json=$(cat "$tmp/json")
after=$(cpu)
kill "$pid"
wait "$pid" 2>/dev/null || true
moves=$(grep -o '"moves":[0-9]*' <<<"$json" | cut -d: -f2)
rate=$(grep -o '"moves_per_s":[0-9.]*' <<<"$json" | cut -d: -f2)
loadgen_cpu=$(tail -1 "$tmp/loadgen.time" | awk '{ print $1 + $2 }')
awk -v c=$((after - before)) -v t="$(getconf CLK_TCK)" -v m="$moves" -v r="$rate" -v l="$loadgen_cpu" -v mode="$mode" \
  'BEGIN { printf "%s: moves %d, %.0f moves/s, server CPU %.2f s, %.2f us per move; load generator %.2f us per move\n",
           mode, m, r, c / t, c / t * 1e6 / m, l * 1e6 / m }'
