#!/usr/bin/env bash
# The broadcast row of issue 20: one game watched by W people spread over a cluster's nodes. Starts
# a throw-away cluster (tools/cluster.sh), plays one game alone as the reference, then the same game
# with W watchers in P loadgen processes of watchers only (one process cannot hold more descriptors
# than its limit) spread round robin over the nodes; prints spectator delivery p50/p99 per node (the
# game's owner is the first node) and the mover's acknowledgement against the reference's.
#
# usage: bench/cluster_broadcast.sh BUILD_DIR [--nodes N] [--watchers W] [--processes P]
#          [--move-interval-ms I] [--seconds T] [--port FIRST] [--dir DIR]
set -euo pipefail

build="${1:?usage: cluster_broadcast.sh BUILD_DIR [options]}"
build="$(cd "$build" && pwd)"  # absolute: PostgreSQL runs in its own folder
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=3 watchers=20000 processes=2 interval=500 seconds=40 first_port=19777 dir="$build/cluster-broadcast"
while (($#)); do
  case "$1" in
    --nodes) nodes="$2" ;;
    --watchers) watchers="$2" ;;
    --processes) processes="$2" ;;
    --move-interval-ms) interval="$2" ;;
    --seconds) seconds="$2" ;;
    --port) first_port="$2" ;;
    --dir) dir="$2" ;;
    *) echo "cluster_broadcast: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
log() { echo "broadcast: $(date -u +%H:%M:%S) $*" >&2; }
cluster_pid="" children=()
cleanup() {
  for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -n "$cluster_pid" ]] && kill -TERM "$cluster_pid" 2>/dev/null && wait "$cluster_pid" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

"$root/tools/cluster.sh" "$build" "$nodes" --dir "$dir" --port "$first_port" --discovery 0 -- --plain \
  --max-connections-per-address 100000 --max-waiting-games-per-address 0 --rate-limit 0 2>"$dir.cluster.log" &
cluster_pid=$!
servers=()
for ((n = 1; n <= nodes; n++)); do
  port=$((first_port + n - 1))
  for ((t = 0; t < 600; t++)); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  servers+=("127.0.0.1:$port")
done
list=$(IFS=,; echo "${servers[*]}")
play=("$build/bench/loadgen" --server "$list" --plain --games 1 --spectators 0 --move-interval-ms "$interval"
      --seconds "$seconds" --max-plies 100000)

# CPU seconds (user + system) of every node so far, for each phase's share.
nodes_cpu() {
  local n
  for ((n = 1; n <= nodes; n++)); do
    awk -v tck="$(getconf CLK_TCK)" '{ printf "%.2f ", ($14 + $15) / tck }' "/proc/$(cat "$dir/node-$n.pid")/stat"
  done
  echo
}
log "reference: the game alone"
nodes_cpu >"$dir/cpu.start"
"${play[@]}" >"$dir/reference.json"
nodes_cpu >"$dir/cpu.reference"

game="$dir/game"
log "$watchers watchers in $processes process(es) over $nodes nodes"
for ((p = 0; p < processes; p++)); do
  "$build/bench/loadgen" --server "$list" --plain --watch "$game" --spectators $((watchers / processes)) \
    --seconds "$seconds" >"$dir/watchers-$p.json" 2>"$dir/watchers-$p.err" &
  children+=($!)
done
count() { compgen -G "$game.$1.*" | wc -l; }
until (($(count welcomed) == processes)); do
  for pid in "${children[@]}"; do kill -0 "$pid" 2>/dev/null || { cat "$dir"/watchers-*.err >&2; exit 1; }; done
  sleep 0.2
done
log "watchers connected; the game begins"
"${play[@]}" --game-file "$game" >"$dir/measured.json" 2>"$dir/measured.err" &
children+=($!)
until (($(count ready) == processes)); do sleep 0.1; done
log "every watcher has the game: play"
touch "$game.go"
rc=0
for pid in "${children[@]}"; do wait "$pid" || rc=1; done
children=()
nodes_cpu >"$dir/cpu.measured"
cat "$dir"/watchers-*.err "$dir/measured.err" >&2

python3 - "$dir" "$nodes" "$rc" <<'PY'
import glob, json, sys
d, nodes, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
last = lambda path: json.loads(open(path).read().strip().splitlines()[-1])
ref, meas = last(f"{d}/reference.json"), last(f"{d}/measured.json")
per = [[] for _ in range(nodes)]
for path in glob.glob(f"{d}/game.delivery.*"):
    for line in open(path):
        n, us = line.split()
        per[int(n)].append(int(us))
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))] / 1000 if xs else 0
every = sum(per, [])
bad = sum(last(p)["errors"] + last(p)["mismatches"] for p in glob.glob(f"{d}/watchers-*.json"))
print(f"moves: reference {ref['moves']}, measured {meas['moves']}; deliveries {len(every)}")
for n, xs in enumerate(per):
    print(f"node-{n + 1}{' (owner)' if n == 0 else ''}: delivery p50 {pct(xs, .5):.1f} ms, p99 {pct(xs, .99):.1f} ms ({len(xs)} deliveries)")
print(f"all watchers: delivery p50 {pct(every, .5):.1f} ms, p99 {pct(every, .99):.1f} ms")
r99, m99 = ref['p99_us'] / 1000, meas['p99_us'] / 1000
print(f"mover's ack p50/p99: alone {ref['p50_us'] / 1000:.2f}/{r99:.2f} ms, watched {meas['p50_us'] / 1000:.2f}/{m99:.2f} ms; "
      f"p99 watched / alone {m99 / r99 if r99 else 0:.2f}")
cpu = [[float(x) for x in open(f"{d}/cpu.{p}").read().split()] for p in ("start", "reference", "measured")]
node_ref = [b - a for a, b in zip(cpu[0], cpu[1])]
node_meas = [b - a for a, b in zip(cpu[1], cpu[2])]
watch_cpu = [last(p)["loadgen_cpu_s"] for p in sorted(glob.glob(f"{d}/watchers-*.json"))]
print(f"CPU seconds: nodes alone {' '.join(f'{x:.1f}' for x in node_ref)}, watched (incl. the watchers joining) "
      f"{' '.join(f'{x:.1f}' for x in node_meas)}; watcher loadgens {' '.join(f'{x:.1f}' for x in watch_cpu)}; "
      f"player loadgen {meas['loadgen_cpu_s']:.1f}")
print(f"errors and mismatches in the watcher processes: {bad}; player errors {meas['errors']}")
sys.exit(1 if rc or bad or meas['errors'] else 0)
PY
