#!/usr/bin/env bash
# The crash test (issue 5): loadgen --reconnect plays against a real xiangqi-server while the
# server is killed with SIGKILL at random moments KILLS times and restarted each time on the same
# port and database (every fourth time frozen first, right after its restart, with the bots'
# reconnections waiting in its accept backlog). At the end no acknowledged move may be missing
# (acked_moves_lost 0), every game's moves must have been legal (loadgen checks each against the
# rules) and the same for every client (mismatches 0).
# usage: kill_restart.sh SERVER_BINARY LOADGEN_BINARY [KILLS]
set -euo pipefail
server="$1" loadgen="$2" kills="${3:-20}"
tmp="$(mktemp -d)"
port=$((21000 + RANDOM % 11000))  # below the ephemeral range (32768+)
pid="" lg=""
extra=()
# The help text is read whole first: `--help | grep -q` under pipefail fails whenever grep quits
# before the server has written all of it (SIGPIPE), and the option was then silently left out.
help="$("$server" --help 2>&1 || true)"
grep -q -- --rate-limit <<<"$help" && extra=(--rate-limit 0)
# loadgen's 12 hosts wait on one address.
grep -q -- --max-waiting-games <<<"$help" && extra+=(--max-waiting-games-per-address 0)

cleanup() {
  [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null
  [[ -n "$lg" ]] && kill "$lg" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

start() {
  "$server" --listen "127.0.0.1:$port" --db "$tmp/crash.db" --discovery-port 0 --log-level warn \
    "${extra[@]}" 2>>"$tmp/server.log" &
  pid=$!
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.025
  done
  echo "FAIL: the server did not come back"; tail -5 "$tmp/server.log"; exit 1
}

start
seconds=$((kills + 8))
"$loadgen" --server "127.0.0.1:$port" --games 12 --spectators 1 --move-interval-ms 10 --max-plies 60 \
  --seconds "$seconds" --reconnect --seed "$RANDOM" >"$tmp/result.json" 2>"$tmp/loadgen.log" &
lg=$!
sleep 1.5
for ((k = 1; k <= kills; k++)); do
  if ((k % 4 == 0)); then
    # Killed before it served anyone: the reconnections wait unanswered in its accept backlog,
    # as they do behind a server slow to restore its games, and are reset with it.
    kill -STOP "$pid"
    sleep 0.3
  else
    sleep "0.$((2 + RANDOM % 7))$((RANDOM % 10))"
  fi
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  start
done
echo "killed and restarted the server $kills times"
status=0
wait "$lg" || status=$?
lg=""
json="$(cat "$tmp/result.json")"
echo "$json"
cat "$tmp/loadgen.log" >&2
field() { grep -o "\"$1\":[^,}]*" <<<"$json" | cut -d: -f2; }
# A failure shows the server's own complaints (recovery, journal) beside the load generator's.
fail() {
  echo "FAIL: $*"
  grep -E "error|recovery|journal|restored" "$tmp/server.log" | tail -8
  exit 1
}
[[ -n "$json" ]] || { echo "FAIL: loadgen printed nothing (exit $status)"; exit 1; }
[[ "$(field acked_moves_lost)" == 0 ]] || fail "acknowledged moves lost"
[[ "$(field mismatches)" == 0 ]] || fail "clients disagree on a game"
[[ "$(field errors)" == 0 ]] || fail "errors"
(($(field reconnects) >= kills)) || fail "the bots did not reconnect"
(($(field moves) > 0)) || fail "no moves"
echo "PASS"
