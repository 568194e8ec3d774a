#!/usr/bin/env bash
# xiangqi-server --parent-pid (what the client's local server is started with): when the process
# that started it is killed (SIGKILL, as a crashed client), the server stops by itself and its port
# is free again, so the next "./xq play" finds no stale server. And its children (computer
# opponents) inherit none of its sockets: a server killed outright leaves its port free although
# its bots still run.
#
# usage: ends_with_parent.sh SERVER_BINARY
set -euo pipefail
server="${1:?usage: ends_with_parent.sh SERVER_BINARY}"
tmp="$(mktemp -d)"
port=$((20000 + RANDOM % 12000))
parent=""
cleanup() {
  if [[ -n "$parent" ]]; then kill -9 "$parent" 2>/dev/null || true; fi
  if [[ -s "$tmp/pid" ]]; then kill -9 "$(cat "$tmp/pid")" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "ends_with_parent: $*" >&2; [[ -f "$tmp/log" ]] && tail -5 "$tmp/log" >&2; exit 1; }
open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
gone() { [[ ! -e "/proc/$1" ]] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
# The pid of a child of $1 named $2, from /proc (no procps on a minimal machine).
child_named() {
  local d
  for d in /proc/[0-9]*; do
    [[ "$(cut -d' ' -f4 "$d/stat" 2>/dev/null)" == "$1" && "$(cat "$d/comm" 2>/dev/null)" == "$2" ]] &&
      { echo "${d#/proc/}"; return 0; }
  done
  return 0
}

# The parent: a shell that starts the server as its child, says the server's pid, then becomes a
# sleep (same pid, so it stays the server's parent) until it is killed.
bash -c '"$0" --listen "127.0.0.1:$1" --db "$2/games.db" --discovery-port 0 --parent-pid $$ 2>"$2/log" &
         echo $! >"$2/pid.tmp" && mv "$2/pid.tmp" "$2/pid"; exec sleep 120' "$server" "$port" "$tmp" &
parent=$!
for _ in $(seq 100); do open && [[ -s "$tmp/pid" ]] && break; sleep 0.05; done
open || fail "the server did not start on port $port"
pid="$(cat "$tmp/pid")"
sleep 0.6
gone "$pid" && fail "the server stopped while its parent lived"

kill -9 "$parent"
wait "$parent" 2>/dev/null || true
parent=""
for _ in $(seq 60); do gone "$pid" && break; sleep 0.05; done
gone "$pid" || fail "the server (pid $pid) still runs 3 s after its parent was killed"
open && fail "port $port still accepts after the server ended"
grep -q "the parent process has ended" "$tmp/log" || fail "the server did not say why it stopped"
echo "ends_with_parent: the server stopped after its parent was killed, and freed port $port"

# A server with a bot: the bot's descriptors hold nothing of the server's but its own pipes: not the
# listening socket (a bot holding it would keep the port after the server ended), and not a file
# the server itself inherited open without close-on-exec (fd 7 here, as a desktop session's
# descriptors reach a client and its children).
port=$((port + 1))
exec 7>"$tmp/inherited"
"$server" --listen "127.0.0.1:$port" --db "$tmp/games2.db" --discovery-port 0 --bots 1 --bot-levels 1 \
  2>"$tmp/log" &
pid=$!
exec 7>&-
echo "$pid" >"$tmp/pid"
bot=""
for _ in $(seq 200); do bot="$(child_named "$pid" xiangqi-bot)"; [[ -n "$bot" ]] && break; sleep 0.05; done
[[ -n "$bot" ]] || fail "no xiangqi-bot child appeared (is xiangqi-bot built beside the server?)"
hex=$(printf '%04X' "$port")
listener=$(awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" { print $10 }' /proc/net/tcp)
[[ -n "$listener" ]] || fail "no listening socket on port $port in /proc/net/tcp"
for fd in "/proc/$bot/fd/"*; do
  target="$(readlink "$fd" 2>/dev/null || true)"
  [[ "$target" == "socket:[$listener]" ]] && fail "the bot holds the server's listening socket ($fd)"
  [[ "$target" == "$tmp/inherited" ]] && fail "the bot holds a descriptor the server inherited ($fd)"
done
echo "ends_with_parent: the server's bot holds none of its descriptors"
