#!/usr/bin/env bash
# Runs sluice_gredecap on real GRE traffic between two network namespaces that this script creates and always
# removes: a sender (client and forwarder in one) and a backend (VIPs on lo, the decapsulator on a TUN, a UDP
# echo server bound to the VIPs), joined by a veth pair. Checks that replies come back straight from the backend
# with the VIP as source (DSR), and that the decapsulator's counters account for every good and bad packet.
# usage: native/test/gredecap_test.sh [path/to/sluice_gredecap]
# Needs root, iproute2 and Debian's python3-scapy (for /usr/bin/python3). Sends only inside its namespaces.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/sluice_gredecap}
PYTHON=/usr/bin/python3 # Debian's, which has scapy; the python3 first on PATH may be another build

PREFIX=gdt$$
NS_SENDER=${PREFIX}s
NS_BACKEND=${PREFIX}b
VETH_SENDER=${PREFIX}s0 # interface names: at most 15 characters
VETH_BACKEND=${PREFIX}b0
TUN=${PREFIX}tun
TUN_PERSISTENT=${PREFIX}tun2

# Sender: client and forwarder tunnel addresses on one link. Backend: tunnel address, one more local address
# that --bind must exclude, VIPs on lo.
CLIENT4=10.200.0.1
FWD4=10.200.0.10
BACKEND4=10.200.0.2
BACKEND4_UNBOUND=10.200.0.3
VIP4=10.100.0.1
CLIENT6=fd53:1ce::1
FWD6=fd53:1ce::10
FWD4_PREFIXED=10.200.0.77
FWD6_PREFIXED=fd53:1ce::77
BACKEND6=fd53:1ce::2
BACKEND6_UNBOUND=fd53:1ce::3
VIP6=fd53:1ce:100::1
PORT=7777

WORK=$(mktemp -d /tmp/gredecap_test.XXXXXX)
PIDS=()
EXIT_STATUS=
PASSED=0
FAILED=0

pass() { printf '  PASS  %s\n' "$*"; PASSED=$((PASSED + 1)); }
fail() { printf '  FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }
in_sender() { ip netns exec "$NS_SENDER" "$@"; }
in_backend() { ip netns exec "$NS_BACKEND" "$@"; }

# Stops what this script started (by pid), removes its namespaces (with their veth and TUN devices) and files.
cleanup() {
    local rc=$? pid i
    for pid in "${PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for ((i = 0; i < 30; i++)); do
            running "$pid" || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    ip netns del "$NS_SENDER" 2>/dev/null || true
    ip netns del "$NS_BACKEND" 2>/dev/null || true
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails after SECONDS.
wait_for() {
    local tries=$(($1 * 10))
    shift
    until "$@"; do
        tries=$((tries - 1))
        ((tries > 0)) || return 1
        sleep 0.1
    done
}

# running PID: the process exists and is not a zombie (kill -0 succeeds on a zombie until it is waited for).
running() {
    local stat
    stat=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ ${stat%% *} != Z ]]
}

# wait_exit PID SECONDS: waits for a child to end and sets EXIT_STATUS; fails if it still runs after SECONDS.
wait_exit() {
    local pid=$1 tries=$(($2 * 10))
    while running "$pid"; do
        tries=$((tries - 1))
        ((tries > 0)) || return 1
        sleep 0.1
    done
    EXIT_STATUS=0
    wait "$pid" || EXIT_STATUS=$?
}

show_logs() {
    local f
    for f in "$WORK"/*.out "$WORK"/*.err; do
        [[ -s $f ]] && { echo "--- ${f##*/}"; cat "$f"; }
    done
    return 0
}

# expect_exit STATUS TEXT DESCRIPTION -- COMMAND...: COMMAND exits STATUS and prints TEXT.
expect_exit() {
    local want=$1 text=$2 what=$3 rc=0
    shift 4
    "$@" >"$WORK/cmd.log" 2>&1 || rc=$?
    if [[ $rc -eq $want ]] && grep -qF -- "$text" "$WORK/cmd.log"; then
        pass "$what: exit $rc, says '$text'"
    else
        fail "$what: exit $rc (want $want), said: $(head -c 300 "$WORK/cmd.log")"
    fi
}

preflight() {
    local problem=""
    [[ $(id -u) -eq 0 ]] || problem="needs root (network namespaces, TUN, raw sockets)"
    command -v ip >/dev/null || problem="needs iproute2 (ip)"
    "$PYTHON" -c 'import scapy' 2>/dev/null || problem="needs Debian's python3-scapy for $PYTHON"
    [[ -x $BIN ]] || problem="no binary at $BIN (make -C native gredecap)"
    if [[ -n $problem ]]; then
        echo "gredecap test: FAILED: $problem"
        exit 1
    fi
}

check_arguments() {
    echo "argument handling"
    expect_exit 2 "usage: sluice_gredecap" "unknown option" -- "$BIN" --bogus
    expect_exit 2 "not a valid interface name" "--tun name longer than 15" -- "$BIN" --tun abcdefghijklmnop
    expect_exit 2 "not an IPv4 or IPv6 address" "--bind garbage" -- "$BIN" --bind 10.0.0.300
    expect_exit 2 "nothing to receive" "--no-ipv4 --no-ipv6" -- "$BIN" --no-ipv4 --no-ipv6
    expect_exit 0 "usage: sluice_gredecap" "--help" -- "$BIN" --help
}

setup_topology() {
    ip netns add "$NS_SENDER"
    ip netns add "$NS_BACKEND"
    ip -n "$NS_SENDER" link add "$VETH_SENDER" type veth peer name "$VETH_BACKEND" netns "$NS_BACKEND"
    # The sender plays the client, so it takes replies from the VIP, which it has no route to.
    in_sender sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
        "net.ipv4.conf.$VETH_SENDER.rp_filter=0"
    ip -n "$NS_SENDER" link set lo up
    ip -n "$NS_SENDER" link set "$VETH_SENDER" up
    ip -n "$NS_SENDER" addr add "$CLIENT4/24" dev "$VETH_SENDER"
    ip -n "$NS_SENDER" addr add "$FWD4/24" dev "$VETH_SENDER"
    ip -n "$NS_SENDER" addr add "$CLIENT6/64" dev "$VETH_SENDER" nodad
    ip -n "$NS_SENDER" addr add "$FWD6/64" dev "$VETH_SENDER" nodad
    # A second forwarder source, as one address of a tunnel_entropy source prefix would be.
    ip -n "$NS_SENDER" addr add "$FWD4_PREFIXED/24" dev "$VETH_SENDER"
    ip -n "$NS_SENDER" addr add "$FWD6_PREFIXED/64" dev "$VETH_SENDER" nodad

    # What sluice_gredecap.c's header says a backend needs: rp_filter off (default too, so the TUN inherits it),
    # VIPs on lo, the usual DSR ARP settings. Replies go back over the veth: the clients' subnet is connected.
    in_backend sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
        net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
    ip -n "$NS_BACKEND" link set lo up
    ip -n "$NS_BACKEND" addr add "$VIP4/32" dev lo
    ip -n "$NS_BACKEND" addr add "$VIP6/128" dev lo nodad
    ip -n "$NS_BACKEND" link set "$VETH_BACKEND" up
    ip -n "$NS_BACKEND" addr add "$BACKEND4/24" dev "$VETH_BACKEND"
    ip -n "$NS_BACKEND" addr add "$BACKEND4_UNBOUND/24" dev "$VETH_BACKEND"
    ip -n "$NS_BACKEND" addr add "$BACKEND6/64" dev "$VETH_BACKEND" nodad
    ip -n "$NS_BACKEND" addr add "$BACKEND6_UNBOUND/64" dev "$VETH_BACKEND" nodad
}

write_echo_server() {
    cat >"$WORK/echo.py" <<'PY'
"""UDP echo server bound to the VIPs; the kernel sends its replies through the normal route. Ends by itself."""
import os, select, socket, sys, time

vip4, vip6, port, ready = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s4.bind((vip4, port))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
s6.bind((vip6, port))
open(ready, "w").close()
deadline = time.monotonic() + 180
while time.monotonic() < deadline:
    readable, _, _ = select.select([s4, s6], [], [], 1.0)
    for s in readable:
        data, peer = s.recvfrom(65535)
        s.sendto(data, peer)
PY
}

write_sender() {
    cat >"$WORK/sender.py" <<'PY'
"""
Sends GRE fixtures from the sender namespace, as Sluice's forwarder would (and worse), and checks for each one
the reply (from the VIP, straight from the backend) and exactly which of sluice_gredecap's counters moved.
"""
import logging, os, select, signal, socket, struct, subprocess, sys, time

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import IP, IPv6, UDP, Raw  # noqa: E402

E = os.environ
PORT = int(E["PORT"])
DECAP_PID = int(E["DECAP_PID"])
DECAP_OUT = E["DECAP_OUT"]
IGNORED = {"tun_rx_discarded"}  # IPv6 router solicitations and MLD reports from the TUN itself: not GRE

GRE_C, GRE_R, GRE_K, GRE_S = 0x8000, 0x4000, 0x2000, 0x1000
ETH_IPV4, ETH_IPV6 = 0x0800, 0x86DD
passed = failed = 0


def report(ok, text):
    global passed, failed
    print(("  PASS  " if ok else "  FAIL  ") + text, flush=True)
    if ok:
        passed += 1
    else:
        failed += 1


def inet_sum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def gre(proto, inner, flags=0, key=None, seq=None, checksum=None):
    """GRE header (RFC 2784, RFC 2890 options) + inner; checksum None (no C bit), "good" or "bad"."""
    options = b""
    if checksum:
        flags |= GRE_C
        options += b"\0\0\0\0"
    if key is not None:
        flags |= GRE_K
        options += struct.pack("!I", key)
    if seq is not None:
        flags |= GRE_S
        options += struct.pack("!I", seq)
    packet = bytearray(struct.pack("!HH", flags, proto) + options + inner)
    if checksum:
        value = 0xFFFF - inet_sum(bytes(packet))
        packet[4:6] = struct.pack("!H", value if checksum == "good" else value ^ 0x0101)
    return bytes(packet)


client4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
client4.bind((E["CLIENT4"], 0))
client6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
client6.bind((E["CLIENT6"], 0))
# The forwarder's side: the kernel adds the outer header. DF on, as the forwarder sets it.
out4 = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_GRE)
out4.bind((E["FWD4"], 0))
out4.setsockopt(socket.IPPROTO_IP, getattr(socket, "IP_MTU_DISCOVER", 10), getattr(socket, "IP_PMTUDISC_DO", 2))
out6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_GRE)
out6.bind((E["FWD6"], 0))
# What a forwarder with tunnel_entropy.source_prefix_v4/v6 sends from: another source per flow.
out4_prefixed = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_GRE)
out4_prefixed.bind((E["FWD4_PREFIXED"], 0))
out6_prefixed = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_GRE)
out6_prefixed.bind((E["FWD6_PREFIXED"], 0))
# What the forwarder sends for IPv4 without DF too big for the tunnel: the outer packet in two IPv4 fragments,
# whole headers written here (IP_HDRINCL), so the decapsulator's raw socket must get the reassembled datagram.
out4_whole = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
# For an IPv6 backend it sends outer IPv6 packets with a Fragment header (RFC 8200 §4.5): a raw socket of protocol
# 44 makes the kernel write the IPv6 header with next header 44; the Fragment header and its piece are written here.
out6_fragments = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 44)
out6_fragments.bind((E["FWD6"], 0))


def udp4(tag):
    return bytes(IP(src=E["CLIENT4"], dst=E["VIP4"]) / UDP(sport=client4.getsockname()[1], dport=PORT) / Raw(tag))


def udp6(tag):
    return bytes(IPv6(src=E["CLIENT6"], dst=E["VIP6"]) / UDP(sport=client6.getsockname()[1], dport=PORT) / Raw(tag))


def send(outer, destination, packet, prefixed=False):
    if prefixed in ("fragments", "fragments3"):
        # the forwarder's split (PacketPipeline.fragment): fragments of the same multiple of 8 payload bytes with
        # MF (1480 at a tunnel MTU of 1500, 552 at 576), the last with the rest
        unit = 1480 if prefixed == "fragments" else 552
        for at in range(0, len(packet), unit):
            more = at + unit < len(packet)
            piece = bytes(IP(src=E["FWD4"], dst=destination, proto=47, id=0x5A17, ttl=64,
                             flags="MF" if more else 0, frag=at // 8) / Raw(packet[at:at + unit]))
            out4_whole.sendto(piece, (destination, 0))
        return
    if prefixed == "fragments6":
        # the same for an IPv6 backend at a tunnel MTU of 576: 528 bytes (576 - 40 - 8) per fragment, each behind
        # a Fragment header (next header 47, offset, M, 32-bit identification)
        unit = 528
        for at in range(0, len(packet), unit):
            more = at + unit < len(packet)
            header = struct.pack("!BBHI", 47, 0, at | (1 if more else 0), 0x5A17F00D)
            out6_fragments.sendto(header + packet[at:at + unit], (destination, 0))
        return
    if prefixed:
        (out4_prefixed if outer == 4 else out6_prefixed).sendto(packet, (destination, 0))
    else:
        (out4 if outer == 4 else out6).sendto(packet, (destination, 0))


def snapshot():
    """Asks the decapsulator for its counters with SIGUSR1 and parses the line it prints."""
    with open(DECAP_OUT) as f:
        seen = len(f.readlines())
    os.kill(DECAP_PID, signal.SIGUSR1)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        with open(DECAP_OUT) as f:
            lines = f.readlines()
        if len(lines) > seen and lines[-1].endswith("\n"):
            return dict((k, int(v)) for k, v in (kv.split("=") for kv in lines[-1].split()))
        time.sleep(0.01)
    raise RuntimeError("no counters from sluice_gredecap within 3 s of SIGUSR1")


def counters_after(before, packets):
    """Snapshots until rx_packets has grown by packets (3 s at most)."""
    deadline = time.monotonic() + 3
    while True:
        now = snapshot()
        if now["rx_packets"] >= before["rx_packets"] + packets or time.monotonic() > deadline:
            return now
        time.sleep(0.02)


def await_reply(sock, tag, timeout=3.0):
    """Returns the (address, port) the datagram with this payload came from, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], max(0.0, deadline - time.monotonic()))
        if readable:
            data, peer = sock.recvfrom(65535)
            if data == tag:
                return peer[0], peer[1]
            report(False, "unexpected datagram %r from %s" % (data, peer))
    return None


def verdict(outer, counter):
    moved = {"rx_packets": 1, "rx_outer_ipv%d" % outer: 1}
    if counter in ("decap_inner_ipv4", "decap_inner_ipv6"):
        moved["decapsulated"] = 1
    moved[counter] = 1
    return moved


def set_tun(state):
    subprocess.run(["ip", "-n", E["NS_BACKEND"], "link", "set", "dev", E["TUN"], state], check=True)


B4, B6 = E["BACKEND4"], E["BACKEND6"]
# (description, [(outer family, destination, GRE packet)], counter that must move, payload the echo server must
# return to the inner packet's family socket, or None; hooks run before sending and after counting)
cases = []


def case(description, sends, counter, reply=None, before=None, after=None):
    cases.append((description, sends, counter, reply, before, after))


def good4(tag):
    return gre(ETH_IPV4, udp4(tag))


# What the forwarder sends (GreEncapsulator: 4-byte GRE, no options), both outer and inner families.
case("IPv4 in GRE/IPv4", [(4, B4, good4(b"v4-in-v4"))], "decap_inner_ipv4", b"v4-in-v4")
case("IPv6 in GRE/IPv6", [(6, B6, gre(ETH_IPV6, udp6(b"v6-in-v6")))], "decap_inner_ipv6", b"v6-in-v6")
case("IPv4 in GRE/IPv6", [(6, B6, good4(b"v4-in-v6"))], "decap_inner_ipv4", b"v4-in-v6")
case("IPv6 in GRE/IPv4", [(4, B4, gre(ETH_IPV6, udp6(b"v6-in-v4")))], "decap_inner_ipv6", b"v6-in-v4")
# IPv4 without DF too big for the tunnel: two outer fragments (1480 + 12 bytes of GRE packet), reassembled by the
# kernel before the raw socket sees them.
BIG_TAG = b"outer-fragments-" + b"x" * 1444
case("IPv4 in GRE/IPv4 as two outer IPv4 fragments", [(4, B4, good4(BIG_TAG), "fragments")], "decap_inner_ipv4",
     BIG_TAG)
# ... as three at a tunnel MTU of 576 (552 + 552 + 388), and to an IPv6 backend as three outer IPv6 fragments
# (528 + 528 + 436): the kernel's IPv6 reassembly also runs before the raw socket sees the GRE packet.
BIG_TAG3 = b"outer-fragment3-" + b"x" * 1444
BIG_TAG6 = b"outer-fragment6-" + b"x" * 1444
case("IPv4 in GRE/IPv4 as three outer IPv4 fragments", [(4, B4, good4(BIG_TAG3), "fragments3")],
     "decap_inner_ipv4", BIG_TAG3)
case("IPv4 in GRE/IPv6 as three outer IPv6 fragments", [(6, B6, good4(BIG_TAG6), "fragments6")],
     "decap_inner_ipv4", BIG_TAG6)
# RFC 2890 options are skipped; the checksum is verified, also over an odd length.
case("checksum + key + sequence (RFC 2890), odd length, GRE/IPv4",
     [(4, B4, gre(ETH_IPV4, udp4(b"rfc2890-odd"), key=0xDEADBEEF, seq=7, checksum="good"))],
     "decap_inner_ipv4", b"rfc2890-odd")
# What the forwarder sends with tunnel_entropy: the RFC 2890 key alone (flow-hash bits, checked for length and
# skipped), and another outer source per flow (any source is accepted).
case("key only (gre_key), IPv4 in GRE/IPv4", [(4, B4, gre(ETH_IPV4, udp4(b"key-v4"), key=0x9E3779B9))],
     "decap_inner_ipv4", b"key-v4")
case("key only (gre_key), IPv6 in GRE/IPv6", [(6, B6, gre(ETH_IPV6, udp6(b"key-v6"), key=0))],
     "decap_inner_ipv6", b"key-v6")
case("key + outer source from the prefix, GRE/IPv4",
     [(4, B4, gre(ETH_IPV4, udp4(b"prefix-v4"), key=0x12345678), True)], "decap_inner_ipv4", b"prefix-v4")
case("key + outer source from the prefix, GRE/IPv6",
     [(6, B6, gre(ETH_IPV4, udp4(b"prefix-v6"), key=0xFFFFFFFF), True)], "decap_inner_ipv4", b"prefix-v6")
case("checksum, IPv6 in GRE/IPv6", [(6, B6, gre(ETH_IPV6, udp6(b"v6-csum"), checksum="good"))],
     "decap_inner_ipv6", b"v6-csum")
case("reserved bits 6-12 set: ignored (RFC 2784 2.3)", [(4, B4, gre(ETH_IPV4, udp4(b"rsv6-12"), flags=0x03F8))],
     "decap_inner_ipv4", b"rsv6-12")
# --bind: GRE to another local address never reaches the decapsulator; a good packet right behind it does.
case("IPv4 GRE to an address not --bind is not received",
     [(4, E["BACKEND4_UNBOUND"], good4(b"unbound-4")), (4, B4, good4(b"bound-4"))], "decap_inner_ipv4", b"bound-4")
case("IPv6 GRE to an address not --bind is not received",
     [(6, E["BACKEND6_UNBOUND"], gre(ETH_IPV6, udp6(b"unbound-6"))), (6, B6, gre(ETH_IPV6, udp6(b"bound-6")))],
     "decap_inner_ipv6", b"bound-6")
# Malformed: each dropped for one reason, and counted under it.
inner4 = udp4(b"must-not-arrive")
inner6 = udp6(b"must-not-arrive")
bad_ihl = bytearray(inner4)
bad_ihl[0] = 0x44
case("GRE version 1", [(4, B4, gre(ETH_IPV4, inner4, flags=1))], "drop_bad_version")
case("routing bit (RFC 1701)", [(4, B4, gre(ETH_IPV4, inner4, flags=GRE_R))], "drop_routing")
case("strict source route bit", [(6, B6, gre(ETH_IPV4, inner4, flags=0x0800))], "drop_reserved_flags")
case("recursion bit 5", [(4, B4, gre(ETH_IPV4, inner4, flags=0x0400))], "drop_reserved_flags")
case("bad checksum, GRE/IPv4", [(4, B4, gre(ETH_IPV4, inner4, checksum="bad"))], "drop_bad_checksum")
case("bad checksum, GRE/IPv6", [(6, B6, gre(ETH_IPV6, inner6, key=1, checksum="bad"))], "drop_bad_checksum")
case("protocol 0x6558 (Ethernet)", [(4, B4, gre(0x6558, inner4))], "drop_unknown_protocol")
case("protocol 0x0806 (ARP), GRE/IPv6", [(6, B6, gre(0x0806, inner4))], "drop_unknown_protocol")
case("no GRE header at all", [(4, B4, b"")], "drop_truncated")
case("GRE header cut to 3 bytes", [(6, B6, b"\x00\x00\x08")], "drop_truncated")
case("key bit set, key cut short", [(4, B4, gre(ETH_IPV4, b"", key=1)[:6])], "drop_truncated")
case("inner IPv4 cut short of its total length", [(4, B4, gre(ETH_IPV4, inner4[:-5]))], "drop_inner_length")
case("inner IPv4 with 3 bytes past its total length", [(6, B6, gre(ETH_IPV4, inner4 + b"xyz"))], "drop_inner_length")
case("inner IPv6 shorter than its payload length", [(6, B6, gre(ETH_IPV6, inner6[:-4]))], "drop_inner_length")
case("protocol 0x0800 carrying IPv6", [(4, B4, gre(ETH_IPV4, inner6))], "drop_inner_header")
case("inner packet of 12 bytes", [(4, B4, gre(ETH_IPV4, inner4[:12]))], "drop_inner_header")
case("inner IPv4 with IHL 4", [(4, B4, gre(ETH_IPV4, bytes(bad_ihl)))], "drop_inner_header")
# The TUN down: write() fails (EIO), counted, and the next packet after it is up again goes through.
case("TUN down: write fails", [(4, B4, good4(b"tun-down"))], "drop_tun_write",
     before=lambda: set_tun("down"), after=lambda: set_tun("up"))
case("TUN up again", [(6, B6, gre(ETH_IPV4, udp4(b"tun-up")))], "decap_inner_ipv4", b"tun-up")

expected_rx = 0
previous = snapshot()
for description, sends, counter, reply, before_hook, after_hook in cases:
    if before_hook:
        before_hook()
    for outer, destination, packet, *prefixed in sends:
        send(outer, destination, packet, prefixed[0] if prefixed else False)
    outer = sends[-1][0]
    detail = []
    ok = True
    if reply is not None:
        sock, vip = (client4, E["VIP4"]) if counter == "decap_inner_ipv4" else (client6, E["VIP6"])
        peer = await_reply(sock, reply)
        if peer != (vip, PORT):
            ok = False
            detail.append("reply %s, want from %s:%d" % (peer, vip, PORT))
        else:
            detail.append("reply from %s:%d (DSR)" % peer)
    expected_rx += 1  # packets to the --bind address; the unbound ones are not counted
    now = counters_after(previous, 1)
    if after_hook:
        after_hook()
    moved = dict((k, now[k] - previous[k]) for k in now if k not in IGNORED and now[k] != previous[k])
    want = verdict(outer, counter)
    if moved != want:
        ok = False
        detail.append("counters moved %s, want %s" % (moved, want))
    else:
        detail.append("counted in %s" % counter)
    report(ok, "%s: %s" % (description, "; ".join(detail)))
    previous = now

# Nothing that was dropped may have reached the echo server.
stray = await_reply(client4, b"\0", 0.5) or await_reply(client6, b"\0", 0.5)
report(stray is None, "no reply to any dropped packet")

final = snapshot()
drops = sum(v for k, v in final.items() if k.startswith("drop_"))
report(final["rx_packets"] == expected_rx == final["decapsulated"] + drops
       and final["rx_packets"] == final["rx_outer_ipv4"] + final["rx_outer_ipv6"]
       and final["decapsulated"] == final["decap_inner_ipv4"] + final["decap_inner_ipv6"]
       and final["kernel_rx_drops"] == 0 and final["rx_errors"] == 0,
       "every packet accounted for: rx_packets %d = decapsulated %d + drops %d (sent %d to the bound addresses)"
       % (final["rx_packets"], final["decapsulated"], drops, expected_rx))

# --stats FILE: rewritten every second, so within ~2 s it shows the same counters.
deadline = time.monotonic() + 3
while True:
    with open(E["STATS_FILE"]) as f:
        text = f.read()
    from_file = dict((k, int(v)) for k, v in (kv.split("=") for kv in text.split()))
    same = all(from_file.get(k) == v for k, v in final.items() if k not in IGNORED)
    if same or time.monotonic() > deadline:
        break
    time.sleep(0.1)
report(same and text.endswith("\n") and text.count("\n") == 1, "--stats file shows the same counters, one line")

with open(E["RESULT"], "w") as f:
    f.write("%d %d\n" % (passed, failed))
PY
}

start_backend() {
    # ip netns exec directly, not through in_backend: $! must be the process itself (it execs), not a subshell.
    ip netns exec "$NS_BACKEND" "$PYTHON" "$WORK/echo.py" "$VIP4" "$VIP6" "$PORT" "$WORK/echo.ready" \
        >"$WORK/echo.out" 2>"$WORK/echo.err" &
    PIDS+=($!)
    ip netns exec "$NS_BACKEND" "$BIN" --tun "$TUN" --bind "$BACKEND4" --bind "$BACKEND6" --stats "$WORK/stats" \
        >"$WORK/decap.out" 2>"$WORK/decap.err" &
    DECAP_PID=$!
    PIDS+=("$DECAP_PID")
    wait_for 10 test -e "$WORK/echo.ready" || { fail "echo server did not start"; return 1; }
    wait_for 10 test -e "$WORK/stats" || { fail "sluice_gredecap did not start"; return 1; }
    in_backend sysctl -qw "net.ipv4.conf.$TUN.rp_filter=0"
    if ip -n "$NS_BACKEND" link show "$TUN" | grep -q '<.*UP.*>'; then
        pass "sluice_gredecap created $TUN and brought it up"
    else
        fail "$TUN is not up: $(ip -n "$NS_BACKEND" link show "$TUN" 2>&1)"
    fi
}

check_setup_failures() {
    echo "setup failures (exit 1 with the reason)"
    expect_exit 1 "bind 203.0.113.9" "--bind to an address the backend does not have" -- \
        in_backend "$BIN" --tun "${PREFIX}x" --bind 203.0.113.9
    expect_exit 1 "TUNSETIFF" "--tun already attached to another decapsulator" -- \
        in_backend "$BIN" --tun "$TUN" --no-ipv6
}

run_sender() {
    echo "traffic from $NS_SENDER through GRE to $NS_BACKEND"
    local rc=0 sender_passed sender_failed
    DECAP_PID=$DECAP_PID DECAP_OUT="$WORK/decap.out" STATS_FILE="$WORK/stats" RESULT="$WORK/sender.result" \
        NS_BACKEND=$NS_BACKEND TUN=$TUN PORT=$PORT VIP4=$VIP4 VIP6=$VIP6 CLIENT4=$CLIENT4 CLIENT6=$CLIENT6 \
        FWD4=$FWD4 FWD6=$FWD6 FWD4_PREFIXED=$FWD4_PREFIXED FWD6_PREFIXED=$FWD6_PREFIXED BACKEND4=$BACKEND4 BACKEND6=$BACKEND6 BACKEND4_UNBOUND=$BACKEND4_UNBOUND \
        BACKEND6_UNBOUND=$BACKEND6_UNBOUND timeout 120 ip netns exec "$NS_SENDER" "$PYTHON" "$WORK/sender.py" || rc=$?
    if [[ -s $WORK/sender.result ]]; then
        read -r sender_passed sender_failed <"$WORK/sender.result"
        PASSED=$((PASSED + sender_passed))
        FAILED=$((FAILED + sender_failed))
    fi
    [[ $rc -eq 0 && -s $WORK/sender.result ]] || fail "sender script ended with status $rc"
}

check_clean_exit() {
    echo "exit"
    kill -TERM "$DECAP_PID" 2>/dev/null || { fail "sluice_gredecap was no longer running"; return; }
    if ! wait_exit "$DECAP_PID" 5; then
        fail "sluice_gredecap still running 5 s after SIGTERM"
        return
    fi
    if [[ $EXIT_STATUS -eq 0 ]]; then pass "SIGTERM: exit 0"; else fail "SIGTERM: exit $EXIT_STATUS"; fi
    if [[ $(tail -n 1 "$WORK/decap.out") == "$(cat "$WORK/stats")" ]]; then
        pass "final counters on stdout equal the final --stats file"
    else
        fail "final stdout line '$(tail -n 1 "$WORK/decap.out")' != stats file '$(cat "$WORK/stats")'"
    fi
    if ip -n "$NS_BACKEND" link show "$TUN" >/dev/null 2>&1; then
        fail "$TUN still exists after exit (it was created non-persistent)"
    else
        pass "$TUN gone with the process"
    fi
}

check_tun_deleted() {
    ip netns exec "$NS_BACKEND" "$BIN" --tun "$TUN" --no-ipv6 --stats "$WORK/stats3" \
        >"$WORK/decap3.out" 2>"$WORK/decap3.err" &
    local pid=$!
    PIDS+=("$pid")
    if wait_for 10 test -e "$WORK/stats3"; then
        ip -n "$NS_BACKEND" link del "$TUN"
        wait_exit "$pid" 5 || EXIT_STATUS="none (still running after 5 s)"
        if [[ $EXIT_STATUS == 1 ]] && grep -qF "read from $TUN" "$WORK/decap3.err"; then
            pass "TUN deleted under it: exit 1, says 'read from $TUN'"
        else
            fail "TUN deleted under it: exit $EXIT_STATUS, stderr: $(cat "$WORK/decap3.err")"
        fi
    else
        fail "sluice_gredecap did not start on $TUN again"
    fi
}

check_persistent_tun() {
    ip -n "$NS_BACKEND" tuntap add dev "$TUN_PERSISTENT" mode tun
    ip netns exec "$NS_BACKEND" "$BIN" --tun "$TUN_PERSISTENT" --no-ipv6 --stats "$WORK/stats2" \
        >"$WORK/decap2.out" 2>"$WORK/decap2.err" &
    local pid=$!
    PIDS+=("$pid")
    if wait_for 10 test -e "$WORK/stats2"; then
        kill -INT "$pid" 2>/dev/null || true
        wait_exit "$pid" 5 || EXIT_STATUS="none (still running after 5 s)"
        if [[ $EXIT_STATUS == 0 ]] && ip -n "$NS_BACKEND" link show "$TUN_PERSISTENT" >/dev/null 2>&1; then
            pass "attached to persistent $TUN_PERSISTENT, SIGINT: exit 0, device kept"
        else
            fail "persistent TUN: exit $EXIT_STATUS"
        fi
    else
        fail "sluice_gredecap did not attach to $TUN_PERSISTENT"
    fi
    ip -n "$NS_BACKEND" tuntap del dev "$TUN_PERSISTENT" mode tun
}

preflight
echo "gredecap test: $BIN, namespaces $NS_SENDER and $NS_BACKEND"
check_arguments
setup_topology
write_echo_server
write_sender
if start_backend; then
    check_setup_failures
    run_sender
    check_clean_exit
    echo "TUN lifecycle"
    check_tun_deleted
    check_persistent_tun
fi
if [[ $FAILED -ne 0 ]]; then
    show_logs
    echo "gredecap test: FAILED ($PASSED passed, $FAILED failed)"
    exit 1
fi
echo "gredecap test: PASSED ($PASSED passed, $FAILED failed)"
