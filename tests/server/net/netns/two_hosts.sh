#!/usr/bin/env bash
# LAN play across two hosts: two network namespaces joined by a veth pair. Host A runs
# xiangqi-server; host B runs lan_client, which finds A by broadcast discovery and plays a game
# to checkmate on it with two players and a spectator. Then B sends a discovery request from an
# address outside A's subnets (routed to B, as from beyond a router): A must not answer it, while
# the same request from B's LAN address is answered.
#
#   two_hosts.sh XIANGQI_SERVER LAN_CLIENT
#
# Needs root (CI runs as root); without root or `ip netns` it fails, it does not skip. The subnet
# exists only inside the two namespaces, which are deleted on exit whatever happens.
set -euo pipefail

fail() {
    echo "two_hosts.sh: FAIL: $*" >&2
    exit 1
}

[[ $# -eq 2 ]] || fail "usage: two_hosts.sh XIANGQI_SERVER LAN_CLIENT"
server_bin=$1
client_bin=$2
[[ -x $server_bin ]] || fail "no server executable at $server_bin"
[[ -x $client_bin ]] || fail "no client executable at $client_bin"
[[ $(id -u) -eq 0 ]] || fail "must run as root to create network namespaces (CI runs as root)"
command -v ip >/dev/null || fail "the ip command (iproute2) is not installed"

ns_a=xq-lan-a-$$
ns_b=xq-lan-b-$$
veth_a=xqa$$ # interface names hold at most 15 characters
veth_b=xqb$$
net=10.77.41
addr_a=$net.1
addr_b=$net.2
tmp=$(mktemp -d)
server_pid=

cleanup() {
    local rc=$?
    if [[ -n $server_pid ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    ip netns del "$ns_a" 2>/dev/null || true # deleting a namespace deletes its end of the veth pair
    ip netns del "$ns_b" 2>/dev/null || true
    ip link del "$veth_a" 2>/dev/null || true # only if the pair never left the root namespace
    if [[ $rc -ne 0 && -s $tmp/server.log ]]; then
        echo "--- server log (namespace $ns_a) ---" >&2
        cat "$tmp/server.log" >&2
    fi
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$ns_a" || fail "ip netns add failed: network namespaces are unavailable here"
ip netns add "$ns_b" || fail "ip netns add failed: network namespaces are unavailable here"
ip link add "$veth_a" type veth peer name "$veth_b" || fail "cannot create a veth pair"
ip link set "$veth_a" netns "$ns_a"
ip link set "$veth_b" netns "$ns_b"
ip -n "$ns_a" addr add "$addr_a/24" broadcast "$net.255" dev "$veth_a"
ip -n "$ns_b" addr add "$addr_b/24" broadcast "$net.255" dev "$veth_b"
for ns in "$ns_a" "$ns_b"; do ip -n "$ns" link set lo up; done
ip -n "$ns_a" link set "$veth_a" up
ip -n "$ns_b" link set "$veth_b" up

# `ip netns exec` execs the server, so $! is the server itself.
ip netns exec "$ns_a" "$server_bin" --listen 0.0.0.0:7777 --discovery-port 7778 --db "$tmp/lan.db" \
    --name "LAN host" >"$tmp/server.log" 2>&1 &
server_pid=$!

# lan_client repeats its broadcast until the server answers (up to 15 s).
ip netns exec "$ns_b" "$client_bin" "$net.255" "$addr_a" "LAN host" || fail "the client on host B failed (above)"
kill -0 "$server_pid" 2>/dev/null || fail "the server on host A died during the game"

# Off the LAN: B also holds 10.77.99.2/32, which A reaches only through a route via B.
off_lan=10.77.99.2
ip -n "$ns_b" addr add "$off_lan/32" dev "$veth_b"
ip -n "$ns_a" route add "$off_lan/32" via "$addr_b"
ip netns exec "$ns_b" "$client_bin" probe "$addr_b" "$addr_a" >/dev/null || fail "no reply to a unicast request from the LAN ($addr_b)"
status=0
ip netns exec "$ns_b" "$client_bin" probe "$off_lan" "$addr_a" >/dev/null || status=$?
[[ $status -eq 3 ]] || fail "the server answered a discovery request from $off_lan, which is not on its LAN (status $status)"
echo "two_hosts.sh: PASS: discovery and a full game from $ns_b ($addr_b) to $ns_a ($addr_a); no answer to $off_lan off the LAN"
