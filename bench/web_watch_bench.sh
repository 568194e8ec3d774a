#!/usr/bin/env bash
# The browser-watcher row of issue 23: one game watched by D desktop spectators and W WebSocket
# watchers (bench/loadgen --web-watchers: RFC 6455 over a plain socket, as the watch page speaks
# it), against the reference: the same run with no WebSocket watcher. Each run gets a fresh
# --plain server (temporary --db), so the difference of their RSS is the watchers' memory. Prints
# memory per watcher, spectator delivery p50/p99 (a move sent by its player until a spectator
# read it) per kind, and the mover's acknowledgement p99 with and without the watchers, as a ratio.
#
# usage: web_watch_bench.sh BUILD_DIR [WEB_WATCHERS [DESKTOP_SPECTATORS [SECONDS [MOVE_INTERVAL_MS]]]]
set -euo pipefail

build="${1:?usage: web_watch_bench.sh BUILD_DIR [WEB_WATCHERS [DESKTOP_SPECTATORS [SECONDS [MOVE_INTERVAL_MS]]]]}"
web="${2:-5000}"
desktop="${3:-1000}"
seconds="${4:-30}"
interval="${5:-500}"  # at 100 ms the one-threaded load generator, not the server, is measured
server_bin="$build/server/xiangqi-server"
loadgen="$build/bench/loadgen"
tmp="$(mktemp -d)"
port=$((20000 + RANDOM % 12000))  # below the ephemeral range (32768+)
pid=""

cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

start() {  # a fresh plain server; a port found taken is skipped (three tries)
  for _ in 1 2 3; do
    port=$((port + 1))
    "$server_bin" --listen "127.0.0.1:$port" --db "$tmp/bench-$port.db" --discovery-port 0 --log-level warn \
      --web-root "$build/web/dist" --max-connections-per-address 20000 --max-waiting-games-per-address 0 \
      --rate-limit 0 --plain 2>>"$tmp/server.log" &
    pid=$!
    for _ in $(seq 200); do
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  echo "web_watch_bench: no server would listen; its log:" >&2
  tail -3 "$tmp/server.log" >&2
  return 1
}

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2 | tr -d '"'; }

run() {  # run WEB_WATCHERS: one loadgen run against a fresh server, its JSON on stdout
  start
  local json
  json=$("$loadgen" --server "127.0.0.1:$port" --plain --games 1 --spectators "$desktop" --web-watchers "$1" \
    --move-interval-ms "$interval" --seconds "$seconds" --max-plies 400 --server-pid "$pid" 2>>"$tmp/loadgen.log") || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  if [[ -z "$json" ]]; then
    echo "web_watch_bench: the run with $1 web watchers produced no result:" >&2
    tail -5 "$tmp/loadgen.log" >&2
    exit 1
  fi
  echo "$json"
}

reference=$(run 0)
measured=$(run "$web")
printf '%-9s %7s %7s %6s %11s %11s %11s %11s %8s %8s %6s\n' \
  run desktop web moves desk_p50_us desk_p99_us web_p50_us web_p99_us ack_p99 rss_MiB errors
for name in reference measured; do
  json="${!name}"
  printf '%-9s %7s %7s %6s %11s %11s %11s %11s %8s %8s %6s\n' "$name" "$desktop" "$(field web_watchers "$json")" \
    "$(field moves "$json")" "$(field desktop_delivery_p50_us "$json")" "$(field desktop_delivery_p99_us "$json")" \
    "$(field web_delivery_p50_us "$json")" "$(field web_delivery_p99_us "$json")" "$(field p99_us "$json")" \
    "$(awk -v k="$(field server_rss_kb "$json")" 'BEGIN { printf "%.1f", k / 1024 }')" "$(field errors "$json")"
done
rss_ref=$(field server_rss_kb "$reference")
rss_web=$(field server_rss_kb "$measured")
ack_ref=$(field p99_us "$reference")
ack_web=$(field p99_us "$measured")
echo "memory: $(awk -v a="$rss_web" -v b="$rss_ref" -v n="$web" 'BEGIN { printf "%.1f", (a - b) / n }') KiB per WebSocket watcher (server RSS $rss_web KiB with $web watchers, $rss_ref KiB without)"
echo "mover's acknowledgement p99: $ack_web us with $web WebSocket watchers, $ack_ref us without: ratio $(awk -v a="$ack_web" -v b="$ack_ref" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
echo "raw results:"
echo "$reference"
echo "$measured"
if [[ -s "$tmp/server.log" ]]; then
  echo "server warnings (last 5):"
  tail -5 "$tmp/server.log"
fi
