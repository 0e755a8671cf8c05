#!/usr/bin/python3
"""Passive witness in the router namespace: counts, per router interface and direction, the packets that prove
Direct Server Return, and remembers which forwarder carried each client flow (from the GRE packets it sends).

usage: sniff.py --vip A [--vip6 A6] --client-if IF --lb-if IF=NAME... --be-if IF=NAME... --out FILE [--max-seconds S]
SIGUSR1 writes the counters and flows to FILE (atomically); SIGUSR2 forgets the flows seen so far.

counters:
  client_to_vip           client -> VIP packets arriving from the client link
  vip_to_client           VIP -> client packets leaving on the client link (the replies)
  to_fwd.NAME             packets to the VIP the router sends to forwarder NAME
  gre_from_fwd.NAME       GRE packets arriving from forwarder NAME (its encapsulated client packets)
  syn_from_fwd.NAME       of those, inner TCP SYNs (new connections)
  gre_to_be.NAME          GRE packets the router sends to backend NAME
  replies_from_be.NAME    packets with the VIP as source arriving from backend NAME (DSR replies)
  vip_source_on_fwd_links packets with the VIP as source (outer or inside GRE) on a forwarder link, either
                          direction: a reply passing a forwarder. Must stay 0.
flows: client source port -> forwarders that carried it, in order of first appearance.
syn_via: client source port -> the forwarder that carried its last SYN (which forwarder opened the connection).
v6: the same counters, flows and syn_via for the IPv6 VIP (--vip6), its IPv6 packets and GRE over IPv6.
"""
import argparse
import json
import os
import signal
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


class Ipv6Witness:
    """The same counters and flows for the IPv6 VIP: IPv6 packets without extension headers, GRE over IPv6."""

    def __init__(self, vip, client_if, lbs, bes):
        self.vip, self.client_if, self.lbs, self.bes = vip, client_if, lbs, bes
        self.counters = {"client_to_vip": 0, "vip_to_client": 0, "vip_source_on_fwd_links": 0}
        for name in lbs.values():
            self.counters["to_fwd." + name] = self.counters["gre_from_fwd." + name] = 0
            self.counters["syn_from_fwd." + name] = 0
        for name in bes.values():
            self.counters["gre_to_be." + name] = self.counters["replies_from_be." + name] = 0
        self.flows = {}
        self.syn_via = {}

    def dump(self):
        return {"counters": self.counters, "flows": self.flows, "syn_via": self.syn_via}

    def see(self, frame, ifname, outgoing):
        if self.vip is None or len(frame) < 54:
            return
        counters = self.counters
        proto, src, dst = frame[20], frame[22:38], frame[38:54]
        if ifname == self.client_if:
            if not outgoing and dst == self.vip:
                counters["client_to_vip"] += 1
            elif outgoing and src == self.vip:
                counters["vip_to_client"] += 1
        elif ifname in self.lbs:
            name = self.lbs[ifname]
            if src == self.vip:
                counters["vip_source_on_fwd_links"] += 1
            if outgoing and dst == self.vip:
                counters["to_fwd." + name] += 1
            elif not outgoing and proto == 47:
                counters["gre_from_fwd." + name] += 1
                inner = 54 + 4
                if len(frame) >= inner + 40 and frame[56:58] == b"\x86\xdd":
                    if frame[inner + 8:inner + 24] == self.vip:
                        counters["vip_source_on_fwd_links"] += 1
                    if frame[inner + 6] == 6 and len(frame) >= inner + 40 + 14:
                        tcp = inner + 40
                        sport = str(int.from_bytes(frame[tcp:tcp + 2], "big"))
                        if frame[tcp + 13] & 0x12 == 0x02:
                            counters["syn_from_fwd." + name] += 1
                            self.syn_via[sport] = name
                        carried = self.flows.setdefault(sport, [])
                        if name not in carried:
                            carried.append(name)
        elif ifname in self.bes:
            name = self.bes[ifname]
            if outgoing and proto == 47:
                counters["gre_to_be." + name] += 1
            elif not outgoing and src == self.vip:
                counters["replies_from_be." + name] += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vip", required=True)
    parser.add_argument("--client-if", required=True)
    parser.add_argument("--lb-if", action="append", default=[])
    parser.add_argument("--be-if", action="append", default=[])
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-seconds", type=float, default=1800)
    parser.add_argument("--vip6", default="")
    args = parser.parse_args()
    vip = socket.inet_aton(args.vip)
    lbs = dict(item.split("=", 1) for item in args.lb_if)
    bes = dict(item.split("=", 1) for item in args.be_if)
    counters = {"client_to_vip": 0, "vip_to_client": 0, "vip_source_on_fwd_links": 0}
    for name in lbs.values():
        counters["to_fwd." + name] = counters["gre_from_fwd." + name] = counters["syn_from_fwd." + name] = 0
    for name in bes.values():
        counters["gre_to_be." + name] = counters["replies_from_be." + name] = 0
    flows = {}
    syn_via = {}
    v6 = Ipv6Witness(socket.inet_pton(socket.AF_INET6, args.vip6) if args.vip6 else None, args.client_if, lbs, bes)
    requests = {"dump": False, "reset": False}
    signal.signal(signal.SIGUSR1, lambda *_: requests.__setitem__("dump", True))
    signal.signal(signal.SIGUSR2, lambda *_: requests.__setitem__("reset", True))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.settimeout(0.2)
    deadline = time.monotonic() + args.max_seconds
    seq = 0
    with open(args.out + ".pid", "w") as f:
        f.write("%d\n" % os.getpid())
    while time.monotonic() < deadline:
        if requests["reset"]:
            requests["reset"] = False
            flows.clear()
            syn_via.clear()
            v6.flows.clear()
            v6.syn_via.clear()
        if requests["dump"]:
            requests["dump"] = False
            seq += 1
            tmp = args.out + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"seq": seq, "time": time.time(), "counters": counters, "flows": flows,
                           "syn_via": syn_via, "v6": v6.dump()}, f)
            os.rename(tmp, args.out)
        try:
            frame, address = sock.recvfrom(65535)
        except (socket.timeout, InterruptedError):
            continue
        ifname, outgoing = address[0], address[2] == PACKET_OUTGOING
        if frame[12:14] == b"\x86\xdd":
            v6.see(frame, ifname, outgoing)
            continue
        if len(frame) < 34 or frame[12:14] != b"\x08\x00":
            continue
        ihl = (frame[14] & 0x0F) * 4
        proto, src, dst = frame[23], frame[26:30], frame[30:34]
        if ifname == args.client_if:
            if not outgoing and dst == vip:
                counters["client_to_vip"] += 1
            elif outgoing and src == vip:
                counters["vip_to_client"] += 1
        elif ifname in lbs:
            name = lbs[ifname]
            if src == vip:
                counters["vip_source_on_fwd_links"] += 1
            if outgoing and dst == vip:
                counters["to_fwd." + name] += 1
            elif not outgoing and proto == 47:
                counters["gre_from_fwd." + name] += 1
                inner = 14 + ihl + 4
                if len(frame) >= inner + 24 and frame[14 + ihl + 2:14 + ihl + 4] == b"\x08\x00":
                    inner_ihl = (frame[inner] & 0x0F) * 4
                    if frame[inner + 12:inner + 16] == vip:
                        counters["vip_source_on_fwd_links"] += 1
                    if frame[inner + 9] == 6 and len(frame) >= inner + inner_ihl + 14:
                        tcp = inner + inner_ihl
                        sport = str(int.from_bytes(frame[tcp:tcp + 2], "big"))
                        if frame[tcp + 13] & 0x12 == 0x02:
                            counters["syn_from_fwd." + name] += 1
                            syn_via[sport] = name
                        carried = flows.setdefault(sport, [])
                        if name not in carried:
                            carried.append(name)
        elif ifname in bes:
            name = bes[ifname]
            if outgoing and proto == 47:
                counters["gre_to_be." + name] += 1
            elif not outgoing and src == vip:
                counters["replies_from_be." + name] += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
