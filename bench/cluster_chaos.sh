#!/usr/bin/env bash
# The load generator's chaos mode (issue 20): starts a throw-away cluster (tools/cluster.sh: PostgreSQL,
# redis-server, N nodes), plays loadgen over every node (each game's Red, Black and spectators on
# three different nodes, --reconnect), SIGKILLs one node every K seconds (round robin) and starts it
# again with the same id D seconds later, then prints loadgen's verdict, each takeover's time from
# the nodes' logs and the Redis and PostgreSQL work per move, and exits non-zero on any loss.
# With --kills 0 it is the same run without kills (the cluster's moves/s and delivery latency).
#
# usage: bench/cluster_chaos.sh BUILD_DIR [--nodes N] [--games G] [--spectators S]
#          [--move-interval-ms I] [--seconds T] [--kills K] [--first-kill-s F] [--every-s E]
#          [--down-s D] [--stuck-after-s X] [--port FIRST] [--dir DIR] [--restart-early]
#
# A killed node is started again D seconds after its death and once a survivor has taken it for
# dead (logged "holds no lease"). --restart-early does not wait for that: a node back with its id
# before the others noticed its death (BENCHMARKS.md: its games got stuck, 2026-11-27).
set -euo pipefail

build="${1:?usage: cluster_chaos.sh BUILD_DIR [options]}"
build="$(cd "$build" && pwd)"  # absolute: PostgreSQL runs in its own folder
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=3 games=300 spectators=2 interval=1000 seconds=120 kills=5 first_kill=15 every=20 down=5
stuck_after=20 first_port=17777 dir="$build/cluster-chaos" restart_early=0
while (($#)); do
  case "$1" in
    --restart-early) restart_early=1; shift; continue ;;
    --nodes) nodes="$2" ;;
    --games) games="$2" ;;
    --spectators) spectators="$2" ;;
    --move-interval-ms) interval="$2" ;;
    --seconds) seconds="$2" ;;
    --kills) kills="$2" ;;
    --first-kill-s) first_kill="$2" ;;
    --every-s) every="$2" ;;
    --down-s) down="$2" ;;
    --stuck-after-s) stuck_after="$2" ;;
    --port) first_port="$2" ;;
    --dir) dir="$2" ;;
    *) echo "cluster_chaos: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
((kills == 0 || first_kill + (kills - 1) * every + down < seconds)) ||
  { echo "cluster_chaos: the last restart must fall inside the --seconds window" >&2; exit 2; }

log() { echo "chaos: $(date -u +%H:%M:%S) $*" >&2; }
cluster_pid="" loadgen_pid=""
cleanup() {
  [[ -n "$loadgen_pid" ]] && kill "$loadgen_pid" 2>/dev/null || true
  [[ -n "$cluster_pid" ]] && kill -TERM "$cluster_pid" 2>/dev/null && wait "$cluster_pid" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

"$root/tools/cluster.sh" "$build" "$nodes" --dir "$dir" --port "$first_port" --discovery 0 -- --plain \
  --max-connections-per-address 20000 --max-waiting-games-per-address 0 --rate-limit 0 2>"$dir.cluster.log" &
cluster_pid=$!

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_listening() {  # port, seconds
  for ((t = 0; t < $2 * 10; t++)); do listening "$1" && return 0; sleep 0.1; done
  return 1
}
servers=()
for ((n = 1; n <= nodes; n++)); do
  port=$((first_port + n - 1))
  wait_listening "$port" 60 || {
    echo "cluster_chaos: node-$n did not listen on $port:" >&2
    tail -n 5 "$dir.cluster.log" "$dir/logs/node-$n.log" >&2
    exit 1
  }
  servers+=("127.0.0.1:$port")
done
log "$nodes node(s) up"

# Work done by Redis and PostgreSQL, read before and after the run.
redis_stats() { redis-cli -s "$dir/redis.sock" INFO commandstats; redis-cli -s "$dir/redis.sock" INFO cpu; }
pg_stats() {
  psql -h "$dir/pg" -U postgres -d postgres -AtF' ' -c "SELECT xact_commit, xact_rollback, tup_inserted,
    tup_updated, tup_deleted, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint FROM pg_stat_database
    WHERE datname = 'postgres'"
}
redis_stats >"$dir/redis.before"
pg_stats >"$dir/pg.before"

list=$(IFS=,; echo "${servers[*]}")
"$build/bench/loadgen" --server "$list" --plain --games "$games" --spectators "$spectators" \
  --move-interval-ms "$interval" --seconds "$seconds" --reconnect --stuck-after-s "$stuck_after" \
  >"$dir/loadgen.json" 2>"$dir/loadgen.err" &
loadgen_pid=$!
log "loadgen pid $loadgen_pid: $games games, $spectators spectators each, a move every $interval ms, ${seconds}s"

# The kills, timed from loadgen's start (its setup takes a few seconds of the first wait).
: >"$dir/kills"
if ((kills > 0)); then
  sleep "$first_kill"
  for ((k = 0; k < kills; k++)); do
    kill -0 "$loadgen_pid" 2>/dev/null || { log "loadgen ended before kill $((k + 1))"; break; }
    n=$((k % nodes + 1))
    pid=$(cat "$dir/node-$n.pid")
    noticed() { cat "$dir"/logs/node-*.log | grep -c "node node-$n holds no lease" || true; }
    before=$(noticed)
    kill -9 "$pid"
    echo "node-$n $(date -u +%s.%N)" >>"$dir/kills"
    log "kill $((k + 1)): SIGKILL node-$n (pid $pid)"
    sleep "$down"
    if ((!restart_early)); then
      for ((t = 0; t < 300 && $(noticed) == before; t++)); do sleep 0.1; done
      (($(noticed) > before)) || log "no survivor took node-$n for dead within 30 s"
    fi
    # Started again once the old process is gone; a start that fails (its port not yet free) is
    # tried again a second later.
    for ((try = 0; try < 30; try++)); do
      while kill -0 "$pid" 2>/dev/null && [[ ! "$(ps -o stat= -p "$pid")" =~ Z ]]; do sleep 0.1; done
      kill -USR1 "$cluster_pid"
      for ((t = 0; t < 30; t++)); do [[ "$(cat "$dir/node-$n.pid")" != "$pid" ]] && break; sleep 0.1; done
      wait_listening $((first_port + n - 1)) 10 && sleep 1 && kill -0 "$(cat "$dir/node-$n.pid")" 2>/dev/null && break
      pid=$(cat "$dir/node-$n.pid")
      sleep 1
    done
    log "node-$n started again (pid $(cat "$dir/node-$n.pid"))"
    ((k + 1 < kills)) && sleep $((every - down))
  done
fi
rc=0
wait "$loadgen_pid" || rc=$?
loadgen_pid=""
redis_stats >"$dir/redis.after"
pg_stats >"$dir/pg.after"
cat "$dir/loadgen.err" >&2

python3 - "$dir" "$rc" <<'PY'
import glob, json, re, sys
d, rc = sys.argv[1], int(sys.argv[2])
try:
    r = json.loads(open(f"{d}/loadgen.json").read().strip().splitlines()[-1])
except (IndexError, ValueError):
    print("cluster_chaos: loadgen printed no verdict"); sys.exit(1)
ms = lambda us: f"{us / 1000:.1f}"
print(f"moves {r['moves']} in {r['seconds']} s ({r['moves_per_s']} /s), acknowledged in all {r['acks_total']}; "
      f"games started {r['games_started']}, completed {r['games_completed']}, live checked {r['live_games_checked']}")
print(f"ack p50/p99/p99.9 {ms(r['p50_us'])}/{ms(r['p99_us'])}/{ms(r['p999_us'])} ms; spectator delivery p50/p99 "
      f"{ms(r['desktop_delivery_p50_us'])}/{ms(r['desktop_delivery_p99_us'])} ms; per node p50 "
      f"{[ms(x) for x in r['node_delivery_p50_us']]} p99 {[ms(x) for x in r['node_delivery_p99_us']]} ms")
print(f"VERDICT errors {r['errors']} mismatches {r['mismatches']} acked_moves_lost {r['acked_moves_lost']} "
      f"games_stuck {r['games_stuck']} reconnects {r['reconnects']}")

# Takeovers: from each kill to the first "took over ... of node X" logged after it.
kills = [l.split() for l in open(f"{d}/kills")]
took = []
for f in glob.glob(f"{d}/logs/node-*.log"):
    for line in open(f):
        m = re.search(r"took over (\d+) game\(s\) of node (\S+)", line)
        t = re.match(r"(\d+\.\d+) ", line)
        if m and t:
            at = float(t.group(1))
            took.append((at, m.group(2), int(m.group(1)), f.rsplit('/', 1)[1]))
for node, at in kills:
    after = sorted(x for x in took if x[1] == node and x[0] >= float(at))
    if after:
        games = sum(x[2] for x in after if x[0] - after[0][0] < 5)
        print(f"takeover of {node}: first claim {after[0][0] - float(at):.1f} s after its kill, {games} game(s)")
    else:
        print(f"takeover of {node}: none logged (its games may have ended or it came back first)")

# Work per acknowledged move.
def redis(path):
    calls, cpu = {}, 0.0
    for line in open(path):
        m = re.match(r"cmdstat_(\S+):calls=(\d+),usec=(\d+)", line)
        if m: calls[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.match(r"used_cpu_(sys|user):([\d.]+)", line)
        if m: cpu += float(m.group(2))
    return calls, cpu
(b, bcpu), (a, acpu) = redis(f"{d}/redis.before"), redis(f"{d}/redis.after")
moves = max(1, r['acks_total'])
delta = {k: (v[0] - b.get(k, (0, 0))[0], v[1] - b.get(k, (0, 0))[1]) for k, v in a.items()}
total = sum(v[0] for v in delta.values())
top = sorted(delta.items(), key=lambda kv: -kv[1][0])[:6]
print(f"redis: {total / moves:.2f} commands per move ({', '.join(f'{k} {v[0] / moves:.2f}' for k, v in top)}); "
      f"{sum(v[1] for v in delta.values()) / moves:.1f} us of command time and {(acpu - bcpu) * 1e6 / moves:.1f} us of CPU per move")
pb = [int(x) for x in open(f"{d}/pg.before").read().split()]
pa = [int(x) for x in open(f"{d}/pg.after").read().split()]
names = ["commits", "rollbacks", "rows inserted", "rows updated", "rows deleted", "WAL bytes"]
print("postgres per move: " + ", ".join(f"{n} {(pa[i] - pb[i]) / moves:.2f}" for i, n in enumerate(names)))
bad = r['errors'] + r['mismatches'] + r['acked_moves_lost'] + r['games_stuck']
sys.exit(1 if bad or rc else 0)
PY
