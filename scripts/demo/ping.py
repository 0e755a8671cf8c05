#!/usr/bin/env python3
"""Pings an address over a raw ICMP socket and checks each reply (source, type, identifier, sequence, data,
checksum). Prints one JSON object: sent, answered, ttl. Needs root; bounded by --count and --timeout."""
import argparse
import json
import os
import socket
import struct
import time


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args()
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    ident = os.getpid() & 0xFFFF
    answered, ttl = 0, None
    for seq in range(args.count):
        body = struct.pack("!HH", ident, seq) + b"sluice demo ping %d" % seq
        raw.sendto(struct.pack("!BBH", 8, 0, checksum(struct.pack("!BBH", 8, 0, 0) + body)) + body,
                   (args.address, 0))
        deadline = time.time() + args.timeout
        while time.time() < deadline:
            raw.settimeout(max(0.01, deadline - time.time()))
            try:
                data, peer = raw.recvfrom(2048)
            except socket.timeout:
                break
            icmp = data[(data[0] & 0x0F) * 4:]
            if peer[0] == args.address and icmp[0] == 0 and icmp[4:] == body and checksum(icmp) == 0:
                answered += 1
                ttl = data[8]
                break
        time.sleep(0.05)
    print(json.dumps({"sent": args.count, "answered": answered, "ttl": ttl}))


if __name__ == "__main__":
    main()
