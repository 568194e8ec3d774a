#!/usr/bin/env bash
# The server benchmark behind "./xq bench server [--quick]". Runs a fixed matrix with bench/loadgen
# against xiangqi-server, and the saturation row also against bench/relay (a bare length-prefixed
# relay: no parsing, rules or storage) under the same load, alternating the two, then prints the
# ratio of each round and their median. Every server row gets a fresh server (temporary --db) so its idle memory is a clean base.
# Targets: "server" is xiangqi-server over TLS 1.3 (its default; loadgen speaks TLS), "plain" the same
# server with --plain (loadgen --plain), "relay" the bare relay. The saturation row runs all three
# in each round: TLS against plain is the cost of encryption (issue 18: target >= 0.85). The last
# row repeats the capacity row over TLS with bench/login_storm (50 password logins a second over
# TLS, as real clients log in) running beside it: its move p99 must stay under 20 ms (issue 18).
# "rated" is the TLS server playing rated games between accounts (loadgen --rated: each player
# registers first, at the minimal password cost, registrations unlimited, so setup stays short);
# its saturation row runs in each round right after the casual one, and its capacity row after the
# casual capacity row: rated against casual is the cost of ratings (issue 19: within 5%). Without
# --quick, issue 23's browser-watcher row follows (bench/web_watch_bench.sh).
#
# usage: server_bench.sh BUILD_DIR [--quick]
set -euo pipefail

build="${1:?usage: server_bench.sh BUILD_DIR [--quick]}"
quick=0
[[ "${2:-}" == "--quick" ]] && quick=1
server_bin="$build/server/xiangqi-server"
relay_bin="$build/bench/relay"
loadgen="$build/bench/loadgen"
storm_bin="$build/bench/login_storm"
storm_seconds=0  # > 0: the next row runs a login storm this long beside its load
tmp="$(mktemp -d)"
port=$((20000 + RANDOM % 12000))  # below the ephemeral range (32768+)
pid=""

cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# Waits until something accepts on 127.0.0.1:$port; fails at once if the process $pid has ended
# (the port was taken, say: the machine is shared with other runs).
wait_port() {
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.05
  done
  echo "server_bench: nothing listens on port $port" >&2
  return 1
}

start() {  # server|plain|rated|relay; a port found taken is skipped (three tries)
  for _ in 1 2 3; do
    port=$((port + 1))
    if [[ "$1" == server || "$1" == plain || "$1" == rated ]]; then
      local mode=()
      [[ "$1" == plain ]] && mode=(--plain)
      [[ "$1" == rated ]] && mode=(--password-cost minimal --registrations-per-hour 1000000)
      "$server_bin" --listen "127.0.0.1:$port" --db "$tmp/bench-$port.db" --discovery-port 0 --log-level warn \
        --max-connections-per-address 20000 --max-waiting-games-per-address 0 --rate-limit 0 "${mode[@]}" 2>>"$tmp/server.log" &
    else
      "$relay_bin" --listen "127.0.0.1:$port" >/dev/null &
    fi
    pid=$!
    wait_port && return 0
    stop
  done
  echo "server_bench: no $1 would listen (last port $port); its log:" >&2
  tail -3 "$tmp/server.log" >&2
  return 1
}

stop() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2 | tr -d '"'; }

printf '%-11s %-6s %6s %4s %6s %9s %8s %8s %8s %6s %6s %5s %10s\n' \
  row target games spec int_ms moves/s p50_us p99_us p999_us done errors mism KiB/game
# row NAME TARGET GAMES SPECTATORS INTERVAL SECONDS: one loadgen run, one line; the JSON goes to $tmp/NAME.
row() {
  local name="$1" target="$2" games="$3" spectators="$4" interval="$5" seconds="$6" json pidarg=() extra=()
  start "$target"
  local storm_pid=""
  if ((storm_seconds > 0)); then
    "$storm_bin" --server "127.0.0.1:$port" --rate 50 --seconds "$storm_seconds" >"$tmp/storm.json" 2>>"$tmp/loadgen.log" &
    storm_pid=$!
  fi
  case "$target" in
    server) pidarg=(--server-pid "$pid") ;;
    rated) pidarg=(--server-pid "$pid") extra=(--rated) ;;
    plain) pidarg=(--server-pid "$pid") extra=(--plain) ;;
    relay) extra=(--relay) ;;
  esac
  json=$("$loadgen" --server "127.0.0.1:$port" --games "$games" --spectators "$spectators" \
    --move-interval-ms "$interval" --seconds "$seconds" "${pidarg[@]}" "${extra[@]}" 2>>"$tmp/loadgen.log") || true
  [[ -n "$storm_pid" ]] && { wait "$storm_pid" || true; }
  stop
  if [[ -z "$json" ]]; then
    echo "server_bench: $name ($target) produced no result:" >&2
    tail -5 "$tmp/loadgen.log" >&2
    json='{}'
  fi
  echo "$json" >>"$tmp/$name.json"
  local per_game="-" idle rss
  idle=$(field server_rss_idle_kb "$json")
  rss=$(field server_rss_kb "$json")
  if [[ "$target" != relay && -n "$rss" && "$rss" != 0 ]]; then
    per_game=$(awk -v a="$rss" -v b="$idle" -v g="$games" 'BEGIN { printf "%.1f", (a - b) / g }')
  fi
  printf '%-11s %-6s %6s %4s %6s %9s %8s %8s %8s %6s %6s %5s %10s\n' "$name" "$target" "$games" "$spectators" \
    "$interval" "$(field moves_per_s "$json")" "$(field p50_us "$json")" "$(field p99_us "$json")" \
    "$(field p999_us "$json")" "$(field games_completed "$json")" "$(field errors "$json")" \
    "$(field mismatches "$json")" "$per_game"
  echo "$json" >>"$tmp/all.json"
  [[ -n "$storm_pid" ]] && echo "login storm beside $name: $(cat "$tmp/storm.json")"
  return 0
}

# The storm starts with the load generator and lasts its setup and its window.
if ((quick)); then
  sat_seconds=5 rounds=1 medium=(300 1 100 5) capacity=(1000 1 1000 10) storm=15
else
  sat_seconds=6 rounds=5 medium=(1000 1 100 10) capacity=(5000 1 1000 20) storm=30
fi

# Saturation: 100 games, no spectators, every move sent as soon as the last one is acknowledged.
for ((r = 0; r < rounds; r++)); do
  row saturation server 100 0 0 "$sat_seconds"
  row sat-rated rated 100 0 0 "$sat_seconds"
  row saturation plain 100 0 0 "$sat_seconds"
  row saturation relay 100 0 0 "$sat_seconds"
done
row medium server "${medium[@]}"
row capacity server "${capacity[@]}"
row cap-rated rated "${capacity[@]}"
storm_seconds=$storm
row cap+storm server "${capacity[@]}"
storm_seconds=0

# Each round's ratios pair rows run one after the other (TLS, plain, relay), so the machine's
# drift between rounds (here the relay's figure moves by a third from one minute to the next)
# cancels out; the median of the rounds' ratios is the figure.
rates() { grep -o '"moves_per_s":[0-9.]*' "$tmp/saturation.json" | cut -d: -f2; }
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR ? (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) : 0 }'; }
ratios=$(rates | paste - - - | awk '{ printf "%.3f\n", ($3 > 0 ? $2 / $3 : 0) }')
tls_ratios=$(rates | paste - - - | awk '{ printf "%.3f\n", ($2 > 0 ? $1 / $2 : 0) }')
tls_rate=$(rates | paste - - - | cut -f1 | median)
server_rate=$(rates | paste - - - | cut -f2 | median)
relay_rate=$(rates | paste - - - | cut -f3 | median)
ratio=$(median <<<"$ratios")
tls_ratio=$(median <<<"$tls_ratios")
echo "saturation rounds (plain server/relay): $(paste -sd' ' <<<"$ratios")"
echo "saturation rounds (TLS/plain server): $(paste -sd' ' <<<"$tls_ratios")"
echo "saturation: plain server $server_rate moves/s, bare relay $relay_rate moves/s (medians), ratio $ratio (median of the rounds; target >= 0.5)"
echo "saturation: TLS server $tls_rate moves/s against plain $server_rate moves/s, ratio $tls_ratio (median of the rounds; target >= 0.85)"
# Rated against casual: each round's rated saturation row over the TLS row just before it.
rated_rates() { grep -o '"moves_per_s":[0-9.]*' "$tmp/sat-rated.json" | cut -d: -f2; }
rated_ratios=$(paste <(rates | paste - - - | cut -f1) <(rated_rates) | awk '{ printf "%.3f\n", ($1 > 0 ? $2 / $1 : 0) }')
cap_casual=$(grep -o '"moves_per_s":[0-9.]*' "$tmp/capacity.json" | cut -d: -f2)
cap_rated=$(grep -o '"moves_per_s":[0-9.]*' "$tmp/cap-rated.json" | cut -d: -f2)
echo "saturation rounds (rated/casual TLS server): $(paste -sd' ' <<<"$rated_ratios")"
echo "saturation: rated $(rated_rates | median) moves/s against casual $tls_rate moves/s, ratio $(median <<<"$rated_ratios") (median of the rounds; target >= 0.95)"
echo "capacity: rated $cap_rated moves/s against casual $cap_casual moves/s, ratio $(awk -v a="$cap_rated" -v b="$cap_casual" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
echo "raw results:"
cat "$tmp/all.json"
if [[ -s "$tmp/server.log" ]]; then
  echo "server warnings (last 5):"
  tail -5 "$tmp/server.log"
fi
# Issue 23's browser-watcher row (1 game, 5,000 WebSocket watchers beside 1,000 desktop
# spectators, against the same run without the WebSocket watchers), after the matrix.
if ((quick == 0)); then
  echo "browser watchers:"
  "$(dirname "${BASH_SOURCE[0]}")/web_watch_bench.sh" "$build" 5000 1000 30 500
fi
