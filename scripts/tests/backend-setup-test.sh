#!/usr/bin/env bash
# Tests `sluice backend-setup`: its --dry-run output for the kernel GRE path (gre0/ip6gre0, named tunnels, MTU and
# advmss) in a fresh network namespace, and, for real, a backend namespace set up by it on this kernel (which has
# no ip_gre: the sluice_gredecap path) that receives GRE from a sender namespace and answers the client directly
# from the VIP. Creates and always removes its namespaces; sends only inside them.
# usage: scripts/tests/backend-setup-test.sh     (namespaces: run it under flock /tmp/sluice-heavy.lock)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SLUICE=${SLUICE_LAUNCHER:-$ROOT/scripts/sluice}
PYTHON=/usr/bin/python3 # Debian's, with scapy
PREFIX=bst$$
NS_SENDER=${PREFIX}s
NS_BACKEND=${PREFIX}b
NS_DRY=${PREFIX}d
CLIENT4=10.210.0.1
FWD4=10.210.0.10
BACKEND4=10.210.0.2
VIP4=10.110.0.1
PORT=7777
WORK=$(mktemp -d /tmp/sluice-backend-setup-test.XXXXXX)
PIDS=()
# shellcheck source=scripts/tests/lib.sh
source "$ROOT/scripts/tests/lib.sh"
cleanup() {
    local rc=$? pid
    for pid in "${PIDS[@]}" $(cat "$WORK/run/sluice-gredecap.pid" 2>/dev/null); do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    sleep 0.2
    ip netns del "$NS_SENDER" 2>/dev/null || true
    ip netns del "$NS_BACKEND" 2>/dev/null || true
    ip netns del "$NS_DRY" 2>/dev/null || true
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

make -s -C "$ROOT/native" gredecap

# setup NS ARGS...: backend-setup inside a namespace, never persisting (sysctl.d is the host's /etc).
setup() {
    local ns=$1
    shift
    RC=0
    ip netns exec "$ns" "$SLUICE" backend-setup --no-persist --run-dir "$WORK/run" "$@" >"$WORK/out" 2>&1 || RC=$?
}
expect() { expect_in "$WORK/out" 0 "$@"; } # expect DESCRIPTION STATUS TEXT...

echo "== backend-setup --dry-run, kernel path (fresh namespace: lo down, sysctls at their defaults)"
ip netns add "$NS_DRY"
ip netns exec "$NS_DRY" sysctl -qw net.ipv4.conf.all.rp_filter=2
ip -n "$NS_DRY" link add d0 type veth peer name d1
ip -n "$NS_DRY" link set d0 up
ip -n "$NS_DRY" addr add 192.0.2.2/24 dev d0
ip -n "$NS_DRY" route add default via 192.0.2.1
ip -n "$NS_DRY" addr add 2001:db8:2::2/64 dev d0 nodad
ip -n "$NS_DRY" -6 route add default via 2001:db8:2::1 dev d0
sum_before=$(ip netns exec "$NS_DRY" sh -c 'ip addr; ip route; sysctl -a 2>/dev/null | grep -E "rp_filter|arp_|accept_local"' |
    sha256sum)
setup "$NS_DRY" --dry-run --mode kernel --vip 10.110.0.1,2001:db8:110::1 --tunnel-source 10.0.0.1,fd00::1 \
    --tunnel-mtu 1500
expect "kernel path, fallback devices" 0 "(dry run: nothing is changed)" "would run: ip link set lo up" \
    "would run: ip addr add 10.110.0.1/32 dev lo" "would run: ip addr add 2001:db8:110::1/128 dev lo nodad" \
    "would run: sysctl -qw net.ipv4.conf.all.rp_filter=0" "would run: sysctl -qw net.ipv4.conf.all.arp_ignore=1" \
    "would run: sysctl -qw net.ipv4.conf.all.arp_announce=2" "would run: modprobe ip_gre" \
    "would run: modprobe ip6_gre" "would run: ip link set gre0 up" "would run: ip link set ip6gre0 up" \
    "would run: sysctl -qw net.ipv4.conf.gre0.rp_filter=0" "would run: ip link set gre0 mtu 1476" \
    "would run: ip link set ip6gre0 mtu 1456" \
    "would run: ip -4 route change default via 192.0.2.1 dev d0 advmss 1416" \
    "would run: ip -6 route change default via 2001:db8:2::1 dev d0 metric 1024 pref medium advmss 1396" \
    "gre0/ip6gre0 accept GRE from any source" "health checks through the tunnel: check the VIP" \
    "dry run done (kernel decapsulation)"
grep -q "sysctl.d" "$WORK/out" && fail "--no-persist still plans a sysctl.d file" || pass "--no-persist: no sysctl.d"
setup "$NS_DRY" --dry-run --mode kernel --named --accept-local --vip 10.110.0.1 \
    --tunnel-source 10.0.0.1,10.0.0.2 --local 192.0.2.2 --tunnel-mtu 9000
expect "kernel path, named tunnels, jumbo path" 0 \
    "would run: ip link add sluice-gre0 type gre remote 10.0.0.1 local 192.0.2.2 ttl 64" \
    "would run: ip link add sluice-gre1 type gre remote 10.0.0.2 local 192.0.2.2 ttl 64" \
    "would run: sysctl -qw net.ipv4.conf.sluice-gre1.accept_local=1" "would run: ip link set sluice-gre0 mtu 8976" \
    "fits tunnel_mtu 9000: no MSS change needed" "named tunnels accept GRE only from their forwarder's tunnel source"
# tunnel_entropy on the forwarders: keyed GRE (4 more bytes) from a source prefix reaches only gre0/ip6gre0.
setup "$NS_DRY" --dry-run --mode kernel --gre-key --vip 10.110.0.1,2001:db8:110::1 \
    --tunnel-source 10.0.0.1,10.200.0.0/16,fd00:e::/96 --tunnel-mtu 1500
expect "kernel path, keyed GRE from source prefixes" 0 "would run: ip link set gre0 up" \
    "would run: ip link set ip6gre0 up" "would run: ip link set gre0 mtu 1472" \
    "would run: ip link set ip6gre0 mtu 1452" "tunnel overhead 48 bytes" \
    "would run: ip -4 route change default via 192.0.2.1 dev d0 advmss 1412" \
    "would run: ip -6 route change default via 2001:db8:2::1 dev d0 metric 1024 pref medium advmss 1392" \
    "gre0/ip6gre0 receive it whatever the key" "ip saddr != { 10.0.0.1 10.200.0.0/16 } drop"
ip netns exec "$NS_DRY" sh -c 'ip addr; ip route; sysctl -a 2>/dev/null | grep -E "rp_filter|arp_|accept_local"' |
    sha256sum | grep -qF "${sum_before%% *}" && pass "the dry runs changed nothing in the namespace" ||
    fail "a dry run changed the namespace"
setup "$NS_DRY" --dry-run --named --gre-key --vip 10.110.0.1 --tunnel-source 10.0.0.1
expect "named tunnels with keyed GRE" 2 "--named with --gre-key: a named tunnel has one key (or none)"
setup "$NS_DRY" --dry-run --named --vip 10.110.0.1 --tunnel-source 10.200.0.0/16
expect "named tunnels with a source prefix" 2 "--named with a source prefix: a named tunnel has one remote address"
setup "$NS_DRY" --dry-run --vip 10.110.0.1 --tunnel-source 10.200.0.0/32
expect "source prefix too long" 2 "--tunnel-source: '10.200.0.0/32' is not an IP address or a source prefix"
setup "$NS_DRY" --dry-run --vip 10.110.0.300 --tunnel-source 10.0.0.1
expect "bad VIP" 2 "--vip: '10.110.0.300' is not an IP address"
setup "$NS_DRY" --dry-run --vip 10.110.0.1
expect "no tunnel source" 2 "--tunnel-source ADDR[,ADDR...] is required"

echo "== backend-setup for real in a backend namespace, GRE from a sender namespace"
ip netns add "$NS_SENDER"
ip netns add "$NS_BACKEND"
ip -n "$NS_SENDER" link add s0 type veth peer name b0 netns "$NS_BACKEND"
ip netns exec "$NS_SENDER" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
    net.ipv4.conf.s0.rp_filter=0
ip -n "$NS_SENDER" link set lo up
ip -n "$NS_SENDER" link set s0 up
ip -n "$NS_SENDER" addr add "$CLIENT4/24" dev s0
ip -n "$NS_SENDER" addr add "$FWD4/24" dev s0
ip -n "$NS_BACKEND" link set b0 up
ip -n "$NS_BACKEND" addr add "$BACKEND4/24" dev b0
ip -n "$NS_BACKEND" route add default via "$CLIENT4"
# The backend's sysctls start strict, as on a stock distribution: backend-setup must turn rp_filter off.
ip netns exec "$NS_BACKEND" sysctl -qw net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.default.rp_filter=1

setup "$NS_BACKEND" --vip "$VIP4" --tunnel-source "$FWD4" --local "$BACKEND4" --tunnel-mtu 1400
if [[ -d /sys/module/ip_gre ]] || modprobe -n -q ip_gre 2>/dev/null; then
    expect "backend set up (this kernel has ip_gre)" 0 "done (kernel decapsulation)"
else
    expect "backend set up: no ip_gre here, so sluice_gredecap, and it says so" 0 \
        "this kernel has no ip_gre/ip6_gre module: falling back to sluice_gredecap" \
        "run: ip addr add $VIP4/32 dev lo" "run: sysctl -qw net.ipv4.conf.all.rp_filter=0" \
        "sluice_gredecap runs (pid" "done (gredecap decapsulation)"
fi
in_backend() { ip netns exec "$NS_BACKEND" "$@"; }
[[ "$(in_backend sysctl -n net.ipv4.conf.all.rp_filter)" == 0 && "$(in_backend sysctl -n net.ipv4.conf.all.arp_ignore)" == 1 &&
    "$(in_backend sysctl -n net.ipv4.conf.all.arp_announce)" == 2 ]] &&
    pass "backend sysctls: rp_filter 0, arp_ignore 1, arp_announce 2" || fail "backend sysctls not set"
ip -n "$NS_BACKEND" route show default | grep -q "advmss 1336" &&
    pass "default route advmss 1336 (tunnel_mtu 1400 - 24 - 40)" ||
    fail "no advmss: $(ip -n "$NS_BACKEND" route show default)"
setup "$NS_BACKEND" --vip "$VIP4" --tunnel-source "$FWD4" --local "$BACKEND4" --tunnel-mtu 1400
expect "second run" 0 "$VIP4/32 on lo" "IPv4 default route has advmss 1336"
grep -q "ACTION" "$WORK/out" && fail "second run acts again: $(grep ACTION "$WORK/out")" ||
    pass "second run: nothing to do (idempotent)"

cat >"$WORK/echo.py" <<'PY'
"""UDP echo bound to the VIP: replies leave through the backend's default route with the VIP as source (DSR)."""
import select, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
open(sys.argv[3], "w").close()
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    if select.select([s], [], [], 0.5)[0]:
        data, peer = s.recvfrom(65535)
        s.sendto(data, peer)
PY
cat >"$WORK/send.py" <<'PY'
"""The forwarder's part: a client datagram to the VIP inside GRE (RFC 2784, no options) to the backend; the
answer must come back to the client from the VIP directly."""
import logging, socket, struct, sys
logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import IP, UDP, Raw  # noqa: E402
client, fwd, backend, vip, port, count = sys.argv[1:5] + [int(sys.argv[5]), int(sys.argv[6])]
key = int(sys.argv[7], 0) if len(sys.argv) > 7 else None  # RFC 2890 key, as tunnel_entropy.gre_key sends
c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
c.bind((client, 0))
c.settimeout(2.0)
out = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_GRE)
out.bind((fwd, 0))
answered = 0
for i in range(count):
    payload = b"sluice backend-setup %d" % i
    inner = bytes(IP(src=client, dst=vip) / UDP(sport=c.getsockname()[1], dport=port) / Raw(payload))
    gre = struct.pack("!HH", 0, 0x0800) if key is None else struct.pack("!HHI", 0x2000, 0x0800, (key + i) & 0xFFFFFFFF)
    out.sendto(gre + inner, (backend, 0))
    try:
        data, peer = c.recvfrom(65535)
        answered += data == payload and peer == (vip, port)
    except socket.timeout:
        pass
print("answered %d of %d" % (answered, count))
sys.exit(0 if answered == count else 1)
PY
ip netns exec "$NS_BACKEND" "$PYTHON" "$WORK/echo.py" "$VIP4" "$PORT" "$WORK/echo.ready" &
PIDS+=($!)
for _ in $(seq 50); do [[ -e "$WORK/echo.ready" ]] && break; sleep 0.1; done
RC=0
timeout 30 ip netns exec "$NS_SENDER" "$PYTHON" "$WORK/send.py" "$CLIENT4" "$FWD4" "$BACKEND4" "$VIP4" "$PORT" 20 \
    >"$WORK/out" 2>&1 || RC=$?
expect "GRE from the sender reaches the VIP and the backend answers the client from the VIP" 0 "answered 20 of 20"
RC=0
timeout 30 ip netns exec "$NS_SENDER" "$PYTHON" "$WORK/send.py" "$CLIENT4" "$FWD4" "$BACKEND4" "$VIP4" "$PORT" 20 \
    0x9e3779b9 >"$WORK/out" 2>&1 || RC=$?
expect "keyed GRE (a key per packet, as gre_key sends per flow) reaches the VIP too" 0 "answered 20 of 20"
sleep 1.5 # sluice_gredecap rewrites its stats file every second
if [[ -s "$WORK/run/sluice-gredecap.stats" ]]; then
    grep -qE '(^| )decapsulated=([2-9][0-9]|[0-9]{3,})' "$WORK/run/sluice-gredecap.stats" &&
        pass "sluice_gredecap counted the packets: $(tr ' ' '\n' <"$WORK/run/sluice-gredecap.stats" |
            grep -E '^(rx_packets|decapsulated)=' | tr '\n' ' ')" ||
        fail "gredecap stats: $(cat "$WORK/run/sluice-gredecap.stats")"
fi

summary backend-setup
