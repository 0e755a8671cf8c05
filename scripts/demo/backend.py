#!/usr/bin/python3
"""Demo backend: an HTTP/1.1 keep-alive server that answers every request with its own name.

Listens on IPv6 and IPv4 at once (one dual-stack socket on ::): the VIP, its IPv6 twin and the health checks.

GET /healthz answers 200, or 503 while the flag file exists (the backend-failure drill creates it). Every other
path answers "<name>\n" with the header X-Backend; a POST answers "<name> <bytes of body received>\n" (the
path MTU drill's upload). Runs until SIGTERM/SIGINT or --max-seconds, whichever first.

usage: backend.py --name NAME [--port 80] [--flag FILE] [--ready FILE] [--max-seconds 1800]
"""
import argparse
import os
import signal
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument("--flag", default="")
    parser.add_argument("--ready", default="")
    parser.add_argument("--max-seconds", type=float, default=1800)
    args = parser.parse_args()
    body = (args.name + "\n").encode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "sluice-demo-backend"
        timeout = 60  # an idle keep-alive connection ends after a minute

        def do_GET(self):
            if self.path.startswith("/healthz"):
                failing = bool(args.flag) and os.path.exists(args.flag)
                self.answer(503 if failing else 200, b"failing\n" if failing else b"ok\n")
            else:
                self.answer(200, body)

        def do_POST(self):
            remaining = int(self.headers.get("Content-Length", "0"))
            received = 0
            while remaining > 0:
                chunk = self.rfile.read(min(remaining, 65536))
                if not chunk:
                    break
                received += len(chunk)
                remaining -= len(chunk)
            self.answer(200, ("%s %d\n" % (args.name, received)).encode())

        def answer(self, status, payload):
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-Backend", args.name)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *_):
            pass

    class Server(ThreadingHTTPServer):
        address_family = socket.AF_INET6
        daemon_threads = True
        allow_reuse_address = True
        request_queue_size = 256

        def server_bind(self):
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            super().server_bind()

        def handle_error(self, request, client_address):
            # Clients of the drills close with RST on purpose, and moved flows get reset: not worth a traceback.
            pass

    server = Server(("::", args.port), Handler)
    server.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    if args.ready:
        open(args.ready, "w").close()
    stop.wait(args.max_seconds)
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
