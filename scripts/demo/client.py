#!/usr/bin/python3
"""Demo clients: HTTP requests to the VIP, recording which backend answered each one and every error.

  client.py requests --vip V [--count N] [--rate R] [--concurrency C] [--stop-file F] [--max-seconds S] --out FILE
      new connection per request (Connection: close); paced at R per second (0: as fast as C threads go)
  client.py hold --vip V --connections K [--interval-ms 300] [--require-backend NAME] --ready FILE
                 --stop-file F [--max-seconds S] --out FILE
      K long-lived keep-alive connections, one request on each every interval; a connection that fails once is
      broken and stays closed. FILE is written at the end; READY once every connection has its first answer.
  client.py probe --vip V --ports A-B [--concurrency C] --out FILE
      one request from each source port A..B (same 5-tuples every run: for measuring Maglev remapping)

V is an IPv4 or an IPv6 address (the VIP or its IPv6 twin).
Output: one JSON object. Bounded: every loop ends by count, stop file or --max-seconds.
"""
import argparse
import json
import os
import random
import socket
import struct
import sys
import threading
import time

CONNECT_TIMEOUT_S = 5.0
# A request may wait out a forwarder failover: TCP retransmits (RTO 0.2 s doubling) must not hit this.
REQUEST_TIMEOUT_S = 20.0


class HttpError(Exception):
    pass


def http_get(sock, vip, close):
    """Sends GET / on an open socket and returns the body's first line (the backend's name)."""
    request = "GET / HTTP/1.1\r\nHost: %s\r\nUser-Agent: sluice-demo\r\n%s\r\n" % (
        "[%s]" % vip if ":" in vip else vip, "Connection: close\r\n" if close else "")
    sock.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise HttpError("connection closed before the response headers")
        data += chunk
        if len(data) > 65536:
            raise HttpError("response headers too long")
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 2 or parts[1] != "200":
        raise HttpError("status line %r" % lines[0])
    length = None
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise HttpError("no Content-Length")
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            raise HttpError("connection closed inside the body")
        body += chunk
    return body[:length].decode("utf-8", "replace").strip()


def connect(vip, port, source_port=0):
    ipv6 = ":" in vip
    sock = socket.socket(socket.AF_INET6 if ipv6 else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if source_port:
        sock.bind(("::" if ipv6 else "0.0.0.0", source_port))
    sock.settimeout(CONNECT_TIMEOUT_S)
    sock.connect((vip, port))
    sock.settimeout(REQUEST_TIMEOUT_S)
    return sock


def close_with_reset(sock):
    """Closes with RST (SO_LINGER 0): neither side keeps a TIME_WAIT, so the 5-tuple can be used again."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def one_request(vip, port, source_port=0, reset=False):
    """One request on a new connection: (start epoch, source port, backend or None, error or None, seconds)."""
    start = time.time()
    sport = source_port
    sock = None
    try:
        sock = connect(vip, port, source_port)
        sport = sock.getsockname()[1]
        backend = http_get(sock, vip, close=True)
        return start, sport, backend, None, time.time() - start
    except (OSError, HttpError, ValueError) as error:
        return start, sport, None, "%s: %s" % (type(error).__name__, error), time.time() - start
    finally:
        if sock is not None:
            close_with_reset(sock) if reset else sock.close()


def summarize(records):
    per_backend = {}
    errors = {}
    for _, _, backend, error, _ in records:
        if backend is not None:
            per_backend[backend] = per_backend.get(backend, 0) + 1
        else:
            errors[error] = errors.get(error, 0) + 1
    return {
        "requests": len(records),
        "failed": sum(1 for r in records if r[2] is None),
        "per_backend": dict(sorted(per_backend.items())),
        "errors": errors,
        "records": [[round(r[0], 3), r[1], r[2], r[3], round(r[4], 3)] for r in records],
    }


def should_stop(args, deadline):
    return time.monotonic() >= deadline or (args.stop_file and os.path.exists(args.stop_file))


def cmd_requests(args):
    records = []
    lock = threading.Lock()
    deadline = time.monotonic() + args.max_seconds
    issued = [0]
    start = time.monotonic()

    def worker():
        while True:
            with lock:
                if issued[0] >= args.count or should_stop(args, deadline):
                    return
                n = issued[0]
                issued[0] += 1
            if args.rate > 0:
                delay = start + n / args.rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            record = one_request(args.vip, args.port)
            with lock:
                records.append(record)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.max_seconds + REQUEST_TIMEOUT_S + CONNECT_TIMEOUT_S)
    records.sort(key=lambda r: r[0])
    return summarize(records)


class HeldConnection:
    def __init__(self, sock):
        self.sock = sock
        self.sport = sock.getsockname()[1]
        self.backends = []
        self.requests = 0
        self.error = None
        self.error_time = None
        self.max_latency = 0.0

    def request(self, vip):
        start = time.monotonic()
        try:
            backend = http_get(self.sock, vip, close=False)
        except (OSError, HttpError, ValueError) as error:
            self.error = "%s: %s" % (type(error).__name__, error)
            self.error_time = time.time()
            self.sock.close()
            return False
        self.max_latency = max(self.max_latency, time.monotonic() - start)
        self.requests += 1
        if not self.backends or self.backends[-1] != backend:
            self.backends.append(backend)
        return True

    def result(self):
        return {"sport": self.sport, "backend": self.backends[0] if self.backends else None,
                "backends": self.backends, "requests": self.requests, "error": self.error,
                "error_time": self.error_time, "max_latency_s": round(self.max_latency, 3)}


def cmd_hold(args):
    deadline = time.monotonic() + args.max_seconds
    held = []
    failed_to_open = []

    def open_one():
        try:
            connection = HeldConnection(connect(args.vip, args.port))
        except OSError as error:
            failed_to_open.append("%s: %s" % (type(error).__name__, error))
            return None
        return connection if connection.request(args.vip) else None

    attempts = 0
    while len(held) < args.connections and attempts < args.connections + 20:
        attempts += 1
        connection = open_one()
        if connection is not None:
            held.append(connection)
    if args.require_backend:
        extra = 0
        while not any(c.backends[0] == args.require_backend for c in held) and extra < 60:
            extra += 1
            connection = open_one()
            if connection is None:
                continue
            if connection.backends[0] == args.require_backend:
                held.append(connection)
            else:
                connection.sock.close()
    opened_at = time.time()
    if args.ready:
        with open(args.ready, "w") as f:
            json.dump({"connections": [c.result() for c in held]}, f)

    def loop(connection):
        # A random phase per connection: requests spread evenly over the interval, so whatever moment a drill
        # picks, some of them are in flight.
        time.sleep(random.uniform(0, args.interval_ms / 1000.0))
        while not should_stop(args, deadline):
            time.sleep(args.interval_ms / 1000.0)
            if should_stop(args, deadline) or not connection.request(args.vip):
                return

    threads = [threading.Thread(target=loop, args=(c,), daemon=True) for c in held]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.max_seconds + REQUEST_TIMEOUT_S)
    for c in held:
        if c.error is None:
            c.sock.close()
    connections = [c.result() for c in held]
    return {
        "connections": len(held),
        "opened_at": opened_at,
        "failed_to_open": failed_to_open,
        "broken": sum(1 for c in connections if c["error"]),
        "changed_backend": sum(1 for c in connections if len(c["backends"]) > 1),
        "requests": sum(c["requests"] for c in connections),
        "max_latency_s": max([c["max_latency_s"] for c in connections] or [0]),
        "per_backend": count_by(connections, "backend"),
        "details": connections,
    }


def count_by(items, key):
    counts = {}
    for item in items:
        counts[str(item[key])] = counts.get(str(item[key]), 0) + 1
    return dict(sorted(counts.items()))


def cmd_probe(args):
    first, _, last = args.ports.partition("-")
    ports = list(range(int(first), int(last) + 1))
    results = {}
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not ports:
                    return
                port = ports.pop()
            record = one_request(args.vip, args.port, source_port=port, reset=True)
            if record[2] is None:  # the port may still be in use: one retry
                time.sleep(0.2)
                record = one_request(args.vip, args.port, source_port=port, reset=True)
            with lock:
                results[port] = record[2] if record[2] is not None else "error: " + record[3]

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return {"flows": {str(p): results[p] for p in sorted(results)},
            "failed": sum(1 for v in results.values() if v.startswith("error"))}


def main():
    parser = argparse.ArgumentParser(description="demo clients")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("requests", "hold", "probe"):
        p = sub.add_parser(name)
        p.add_argument("--vip", required=True)
        p.add_argument("--port", type=int, default=80)
        p.add_argument("--out", required=True)
        p.add_argument("--max-seconds", type=float, default=120)
        p.add_argument("--stop-file", default="")
        p.add_argument("--concurrency", type=int, default=8)
    r = sub.choices["requests"]
    r.add_argument("--count", type=int, default=1000000)
    r.add_argument("--rate", type=float, default=0)
    h = sub.choices["hold"]
    h.add_argument("--connections", type=int, required=True)
    h.add_argument("--interval-ms", type=int, default=300)
    h.add_argument("--require-backend", default="")
    h.add_argument("--ready", default="")
    sub.choices["probe"].add_argument("--ports", required=True)
    args = parser.parse_args()
    result = {"requests": cmd_requests, "hold": cmd_hold, "probe": cmd_probe}[args.command](args)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.rename(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
