#!/usr/bin/env python3
"""Writes the pcap files the benchmarks replay: IPv4 TCP frames to a VIP over a number of flows.

usage: bench_frames.py OUT.pcap [--flows N] [--size BYTES|imix] [--flags syn|ack] [--syn-share S] [--options]
                       [--vip A.B.C.D] [--port P] [--max-frames N] [--dst-mac M]

Sizes count the 4-byte FCS, as RFC 2544 and pktgen do: --size 64 writes 60-byte frames (the FCS is the NIC's).
IMIX is the simple 7:4:1 mix of 64, 570 and 1518 bytes. Frame i belongs to flow i % flows (source address
10.200.x.y and a source port derived from i, destination VIP:port); the TCP payload is zeros, every checksum valid.

--options gives every established frame a 4-byte IPv4 option (four NOPs), so that its TCP header starts at
byte 38 instead of 34. pktgen's random bit fields (pktgen.rnd) write the same offset in every frame; with the
option, random bits at offset 34 hit the SYN frames' source port (a new flow each time) and only the option
bytes of the established frames (same flow), and random bits at offset 38 hit the established frames' source
port (more flows than frames) and only the SYN frames' sequence number. --syn-share S makes that share of the
frames SYNs from 10.64.x.y (spread evenly through the file). --max-frames caps the file (a flow count above it
is reached with random source-port bits, see bench-pktgen.sh).

Plain struct, no scapy: any python3 will do. Prints one line: frames, flows, mean size.
"""
import argparse
import struct
import sys

IMIX = (64,) * 7 + (570,) * 4 + (1518,)
SYN, ACK = 0x02, 0x10


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


DST_MAC = bytes.fromhex("020000000001")


def frame(i, size, src, sport, dst, dport, flags, options):
    """One Ethernet/IPv4/TCP frame of size bytes (FCS included), valid IPv4 and TCP checksums."""
    ip_header = 20 + len(options)
    # A minimal frame is a bare segment and Ethernet padding, as a real SYN or ACK; larger ones carry payload.
    payload = max(0, size - 4 - 14 - ip_header - 20) if size > 64 else 0
    tcp = bytearray(struct.pack("!HHIIBBHHH", sport, dport, i & 0xFFFFFFFF, 0, 5 << 4, flags, 65535, 0, 0))
    tcp += bytes(payload)
    pseudo = src + dst + struct.pack("!BBH", 0, 6, len(tcp))
    tcp[16:18] = struct.pack("!H", checksum(pseudo + bytes(tcp)))
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x40 | (ip_header // 4), 0, ip_header + len(tcp), i & 0xFFFF,
                               0x4000, 64, 6, 0, src, dst)) + options
    ip[10:12] = struct.pack("!H", checksum(bytes(ip)))
    return (DST_MAC + bytes.fromhex("020000000002" "0800") + ip + tcp).ljust(max(60, size - 4), b"\0")


def main(argv):
    parser = argparse.ArgumentParser(description="write a pcap of TCP frames to a VIP")
    parser.add_argument("out")
    parser.add_argument("--flows", type=int, default=10000)
    parser.add_argument("--size", default="64")
    parser.add_argument("--flags", choices=("syn", "ack"), default="ack")
    parser.add_argument("--syn-share", type=float, default=0.0)
    parser.add_argument("--options", action="store_true")
    parser.add_argument("--vip", default="10.100.0.1")
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument("--max-frames", type=int, default=0)
    parser.add_argument("--dst-mac", default="02:00:00:00:00:01")
    args = parser.parse_args(argv)
    global DST_MAC
    DST_MAC = bytes.fromhex(args.dst_mac.replace(":", ""))
    if args.flows < 1 or not 0.0 <= args.syn_share < 1.0:
        parser.error("--flows must be >= 1 and --syn-share in [0, 1)")
    sizes = IMIX if args.size == "imix" else (int(args.size),)
    if any(s < 64 or s > 1518 for s in sizes):
        parser.error("--size must be 64..1518 or imix")
    vip = bytes(int(o) for o in args.vip.split("."))
    options = b"\x01\x01\x01\x01" if args.options else b""
    flags = SYN if args.flags == "syn" else ACK

    frames = args.flows if args.max_frames <= 0 else min(args.flows, args.max_frames)
    frames = -(-frames // len(sizes)) * len(sizes)  # whole IMIX cycles
    # SYN frames at an even spacing: frame i is a SYN when the share's running total steps past an integer.
    syn_every = args.syn_share
    total_bytes = 0
    with open(args.out, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))  # pcap header, LINKTYPE_ETHERNET
        for i in range(frames):
            size = sizes[i % len(sizes)]
            if syn_every > 0 and int((i + 1) * syn_every) > int(i * syn_every):
                src = bytes([10, 64 + ((i >> 16) & 0x3F), (i >> 8) & 0xFF, i & 0xFF])
                data = frame(i, size, src, 1024 + i % 60000, vip, args.port, SYN, b"")
            else:
                f = i % args.flows
                src = bytes([10, 200 + (f >> 16), (f >> 8) & 0xFF, f & 0xFF])
                data = frame(i, size, src, 1024 + (f * 7919) % 64000, vip, args.port, flags, options)
            total_bytes += len(data) + 4
            out.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(data), len(data)) + data)
    print("%d frames, %d flows, mean %.1f bytes" % (frames, min(args.flows, frames), total_bytes / frames))


if __name__ == "__main__":
    main(sys.argv[1:])
