#!/usr/bin/python3
"""Sends malformed and odd frames into forwarders, and says what each forwarder must do with each of them.

Runs in the router namespace and writes raw Ethernet frames on the router's link to each forwarder (AF_PACKET),
addressed to the forwarder's MAC, so the forwarder's DPDK port reads them exactly as they were built. Every kind
of frame has one expected outcome in the forwarder's counters:
  drop REASON   dropped, counted under that DropReason (truncated and inconsistent headers, bogus IPv6
                extension chains, bad TCP/UDP/ICMP headers)
  forward       well-formed but odd, sent to a backend of the UDP VIP on port --udp-port: an ICMP error quoting
                a flow nobody has
  pass REASON   not for a VIP (another address, another port, ICMP echo, an ICMP error quoting a later fragment)
  defrag        IPv4 fragments of a datagram to the VIP (not first ones): DPDK's net_af_packet joins a
                PACKET_FANOUT group with PACKET_FANOUT_FLAG_DEFRAG, so the node's kernel holds fragments for
                reassembly and the forwarder never sees them; they show in the node's /proc/net/snmp ReasmReqds.
                (On a real NIC the forwarder would send them to the UDP VIP's backend.)
Frames go out in small bursts, about 1,000 per second per forwarder, for --rounds rounds (or until the stop file
or --max-seconds), so a leak of one buffer per frame would exhaust a forwarder's pool (8,191 mbufs) well before
the end.

usage: badframes.py --vip A --udp-port P --target IF,DST_MAC,SRC_MAC,NAME... [--rounds N] [--stop-file F]
                    [--max-seconds S] --out FILE
"""
import argparse
import json
import logging
import os
import socket
import struct
import sys
import time

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import ICMP, IP, IPv6, TCP, UDP, Ether, IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop, Raw  # noqa: E402

SOURCE = "10.10.0.99"   # a client address nobody uses: nothing answers it
OTHER = "10.100.0.99"   # an address no VIP covers
SOURCE6, DEST6 = "fd00:5d::99", "fd00:5d::1"


def kinds(vip, udp_port):
    """(name, expected verdict, reason or None, IP-level bytes, EtherType)."""
    tcp = bytes(IP(src=SOURCE, dst=vip) / TCP(sport=40000, dport=80, flags="S"))
    udp = bytes(IP(src=SOURCE, dst=vip) / UDP(sport=40000, dport=udp_port) / Raw(b"x" * 16))
    six = bytes(IPv6(src=SOURCE6, dst=DEST6) / TCP(sport=40000, dport=80, flags="S"))

    def patch(packet, offset, value, fmt="!B"):
        data = bytearray(packet)
        struct.pack_into(fmt, data, offset, value)
        return bytes(data)

    def ip4(proto, payload, **fields):
        return bytes(IP(src=SOURCE, dst=vip, proto=proto, **fields) / Raw(payload))

    quote = bytes(IP(src=vip, dst=SOURCE) / UDP(sport=udp_port, dport=5555))[:28]
    later_fragment_quote = bytes(IP(src=vip, dst=SOURCE, proto=17, frag=100) / Raw(b"\0" * 8))[:28]
    v4, v6 = 0x0800, 0x86DD
    return [
        ("ipv4 header cut at 10 bytes", "drop", "IPV4_TRUNCATED", tcp[:10], v4),
        ("ipv4 version 5", "drop", "IPV4_BAD_VERSION", patch(tcp, 0, 0x55), v4),
        ("ipv4 IHL 4", "drop", "IPV4_BAD_IHL", patch(tcp, 0, 0x44), v4),
        ("ipv4 IHL 15, 40-byte packet", "drop", "IPV4_OPTIONS_TRUNCATED", patch(tcp, 0, 0x4F), v4),
        ("ipv4 total length 1000 in 40 bytes", "drop", "IPV4_TOTAL_LENGTH_EXCEEDS_FRAME",
         patch(tcp, 2, 1000, "!H"), v4),
        ("ipv4 total length 12", "drop", "IPV4_TOTAL_LENGTH_TOO_SMALL", patch(tcp, 2, 12, "!H"), v4),
        ("ipv6 header cut at 30 bytes", "drop", "IPV6_TRUNCATED", six[:30], v6),
        ("ipv6 version 4", "drop", "IPV6_BAD_VERSION", patch(six, 0, 0x40), v6),
        ("ipv6 payload length 500 in 20 bytes", "drop", "IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME",
         patch(six, 4, 500, "!H"), v6),
        ("ipv6 hop-by-hop header longer than the packet", "drop", "IPV6_EXTENSION_TRUNCATED",
         patch(bytes(IPv6(src=SOURCE6, dst=DEST6) / IPv6ExtHdrHopByHop() / TCP(flags="S")), 41, 10), v6),
        ("ipv6 chain of 10 destination-options headers", "drop", "IPV6_EXTENSION_CHAIN_TOO_LONG",
         bytes(IPv6(src=SOURCE6, dst=DEST6) / (IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt()) / IPv6ExtHdrDestOpt()
               / IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt()
               / IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt() / IPv6ExtHdrDestOpt() / TCP(flags="S")), v6),
        ("tcp header cut at 10 bytes", "drop", "TCP_TRUNCATED", ip4(6, tcp[20:30]), v4),
        ("tcp data offset 3", "drop", "TCP_BAD_DATA_OFFSET", patch(tcp, 32, 0x30), v4),
        ("udp header cut at 4 bytes", "drop", "UDP_TRUNCATED", ip4(17, b"\0\x09\0\x09"), v4),
        ("udp length 200 in 24 bytes", "drop", "UDP_BAD_LENGTH", patch(udp, 24, 200, "!H"), v4),
        ("icmp header cut at 4 bytes", "drop", "ICMP_TRUNCATED", ip4(1, b"\x03\x03\0\0"), v4),
        ("icmp unreachable quoting 10 bytes", "drop", "ICMP_QUOTE_TRUNCATED",
         bytes(IP(src=SOURCE, dst=vip) / ICMP(type=3, code=3) / Raw(quote[:10])), v4),
        ("icmp unreachable quoting a version-6 header", "drop", "ICMP_QUOTE_MALFORMED",
         bytes(IP(src=SOURCE, dst=vip) / ICMP(type=3, code=3) / Raw(patch(quote, 0, 0x65))), v4),
        ("udp fragment (offset 1480, more follow) to the VIP", "defrag", None,
         bytes(IP(src=SOURCE, dst=vip, proto=17, flags="MF", frag=185) / Raw(b"f" * 64)), v4),
        ("udp last fragment (offset 2960) to the VIP", "defrag", None,
         bytes(IP(src=SOURCE, dst=vip, proto=17, frag=370) / Raw(b"f" * 64)), v4),
        ("icmp unreachable quoting an unknown flow of the UDP VIP", "forward", None,
         bytes(IP(src=SOURCE, dst=vip) / ICMP(type=3, code=3) / Raw(quote)), v4),
        ("tcp SYN to an address no VIP covers", "pass", "NO_VIP",
         bytes(IP(src=SOURCE, dst=OTHER) / TCP(sport=40000, dport=80, flags="S")), v4),
        ("tcp SYN to the VIP on port 81", "pass", "NO_VIP",
         bytes(IP(src=SOURCE, dst=vip) / TCP(sport=40000, dport=81, flags="S")), v4),
        ("icmp unreachable quoting a later fragment", "pass", "NOT_LOAD_BALANCED",
         bytes(IP(src=SOURCE, dst=vip) / ICMP(type=3, code=4) / Raw(later_fragment_quote)), v4),
        # An echo request to the VIP is answered by the forwarder (icmp_echo: reply); an echo reply is not.
        ("icmp echo reply to the VIP", "pass", "NOT_LOAD_BALANCED",
         bytes(IP(src=SOURCE, dst=vip) / ICMP(type=0) / Raw(b"ping")), v4),
    ]


def mac(text):
    return bytes(int(part, 16) for part in text.split(":"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vip", required=True)
    parser.add_argument("--udp-port", type=int, required=True)
    parser.add_argument("--target", action="append", required=True, help="IF,DST_MAC,SRC_MAC,NAME")
    parser.add_argument("--rounds", type=int, default=450)
    parser.add_argument("--stop-file", default="")
    parser.add_argument("--max-seconds", type=float, default=60)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    table = kinds(args.vip, args.udp_port)
    targets = []
    for spec in args.target:
        interface, dst, src, name = spec.split(",")
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        sock.bind((interface, 0))
        frames = [mac(dst) + mac(src) + struct.pack("!H", ethertype) + payload
                  for _, _, _, payload, ethertype in table]
        targets.append((name, sock, frames))
    sent = {name: [0] * len(table) for name, _, _ in targets}
    errors = {}
    deadline = time.monotonic() + args.max_seconds
    start = time.monotonic()
    rounds = 0
    # 25 frames per forwarder per round, 40 rounds a second: about 1,000 frames per second per forwarder.
    while rounds < args.rounds and time.monotonic() < deadline:
        if args.stop_file and os.path.exists(args.stop_file):
            break
        for name, sock, frames in targets:
            for i, frame in enumerate(frames):
                try:
                    sock.send(frame)
                    sent[name][i] += 1
                except OSError as error:
                    errors[str(error)] = errors.get(str(error), 0) + 1
        rounds += 1
        delay = start + rounds / 40.0 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    result = {
        "rounds": rounds,
        "seconds": round(time.monotonic() - start, 2),
        "send_errors": errors,
        "kinds": [{"name": k[0], "verdict": k[1], "reason": k[2], "bytes": len(k[3]) + 14} for k in table],
        "sent": sent,
    }
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.rename(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
