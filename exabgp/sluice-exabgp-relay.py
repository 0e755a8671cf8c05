#!/usr/bin/env python3
"""Relays between ExaBGP and the Sluice controller.

ExaBGP runs this as its API process: each line ExaBGP writes to our stdin (acks "done"/"error", JSON neighbor
changes) goes to the controller's Unix-domain socket, and each line the controller sends ("announce route
10.100.0.1/32 next-hop self", "withdraw route ...") goes to our stdout, which ExaBGP reads as a command.

The relay remembers what it announced. When the controller has been gone for longer than --orphan-timeout it
withdraws all of it, so a node whose controller died stops attracting traffic; a controller back within that time
finds its routes still up. On each connection it first tells the controller what it has announced,
"sluice-relay announced PREFIX ..." (possibly no prefix), then repeats ExaBGP's last state message for each neighbor.
It exits when stdin reaches EOF (ExaBGP stopping).

Python 3 standard library only. usage: sluice-exabgp-relay.py SOCKET [--orphan-timeout SECONDS]
"""

import argparse
import json
import os
import select
import signal
import socket
import sys
import time

RETRY_INTERVAL_S = 0.5
HELLO = "sluice-relay announced"
# ExaBGP blocks while it writes to our stdin, so we never block on the controller: past this much unsent data the
# controller is not reading, and we drop the connection instead of stalling ExaBGP's keepalives.
MAX_PENDING_BYTES = 1 << 20


def log(message):
    sys.stderr.write("sluice-exabgp-relay[%d]: %s\n" % (os.getpid(), message))
    sys.stderr.flush()


def route_of(command):
    """Returns (verb, prefix) for "announce route P ..." / "withdraw route P ...", else (None, None)."""
    words = command.split()
    if len(words) >= 3 and words[0] in ("announce", "withdraw") and words[1] == "route":
        return words[0], words[2]
    return None, None


class Relay:
    def __init__(self, socket_path, orphan_timeout_s):
        self.socket_path = socket_path
        self.orphan_timeout_s = orphan_timeout_s
        self.sock = None
        self.from_controller = b""
        self.from_exabgp = b""
        self.to_controller = b""
        self.announced = {}  # prefix -> the announce command, so a withdrawal can repeat its attributes
        self.neighbor_states = {}  # peer address -> ExaBGP's last JSON state message, replayed on each connection
        self.disconnected_since = time.monotonic()
        self.next_attempt = 0.0

    def run(self):
        stdin_fd = sys.stdin.fileno()
        while True:
            now = time.monotonic()
            if self.sock is None:
                if now >= self.next_attempt:
                    self.next_attempt = now + RETRY_INTERVAL_S
                    self.connect()
                if self.sock is None:
                    self.withdraw_orphans(now)
            readable = [stdin_fd] + ([self.sock] if self.sock is not None else [])
            writable = [self.sock] if self.sock is not None and self.to_controller else []
            ready, can_write, _ = select.select(readable, writable, [], RETRY_INTERVAL_S)
            if self.sock is not None and self.sock in can_write:
                self.flush_to_controller()
            if stdin_fd in ready:
                data = os.read(stdin_fd, 65536)
                if not data:
                    log("stdin closed, exiting")
                    return
                self.on_exabgp_data(data)
            if self.sock is not None and self.sock in ready:
                self.on_controller_data()

    def connect(self):
        candidate = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            candidate.connect(self.socket_path)
        except OSError:
            candidate.close()
            return
        candidate.setblocking(False)
        self.sock = candidate
        self.from_controller = b""
        self.to_controller = b""
        log("connected to %s" % self.socket_path)
        # One send: a controller gone by now (a broken pipe) drops the connection once, and the next attempt
        # greets the next controller in full.
        greeting = [(" ".join([HELLO] + sorted(self.announced))).encode()] + list(self.neighbor_states.values())
        self.send_to_controller(b"\n".join(greeting) + b"\n")

    def disconnect(self, why):
        if self.sock is not None:
            log("disconnected from %s: %s" % (self.socket_path, why))
            self.sock.close()
            self.sock = None
            self.to_controller = b""
            self.disconnected_since = time.monotonic()
            self.next_attempt = 0.0

    def withdraw_orphans(self, now):
        if self.announced and now - self.disconnected_since > self.orphan_timeout_s:
            log("controller gone for more than %gs, withdrawing %s" % (self.orphan_timeout_s,
                                                                         " ".join(sorted(self.announced))))
            for command in list(self.announced.values()):
                self.to_exabgp("withdraw" + command[len("announce"):])

    def on_exabgp_data(self, data):
        self.from_exabgp += data
        lines, _, self.from_exabgp = self.from_exabgp.rpartition(b"\n")
        if not lines:
            return
        for line in lines.split(b"\n"):
            self.remember_neighbor_state(line)
        if self.sock is not None:
            # While no controller listens, ExaBGP's acks and messages are dropped: the controller
            # learns the state it needs again when it reconnects.
            self.send_to_controller(lines + b"\n")

    def remember_neighbor_state(self, line):
        if not line.startswith(b"{") or b'"state"' not in line:
            return
        try:
            message = json.loads(line)
            if message.get("type") == "state":
                self.neighbor_states[message["neighbor"]["address"]["peer"]] = line
        except (ValueError, KeyError, TypeError, AttributeError):
            pass

    def on_controller_data(self):
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError as error:
            self.disconnect(str(error))
            return
        if not data:
            self.disconnect("closed by the controller")
            return
        self.from_controller += data
        lines, _, self.from_controller = self.from_controller.rpartition(b"\n")
        for line in lines.split(b"\n") if lines else []:
            command = line.decode("utf-8", "replace").strip()
            if command:
                self.to_exabgp(command)

    def to_exabgp(self, command):
        verb, prefix = route_of(command)
        if verb == "announce":
            self.announced[prefix] = command
        elif verb == "withdraw":
            self.announced.pop(prefix, None)
        sys.stdout.write(command + "\n")
        sys.stdout.flush()

    def send_to_controller(self, data):
        if self.sock is None:
            return
        self.to_controller += data
        if len(self.to_controller) > MAX_PENDING_BYTES:
            self.disconnect("the controller does not read")
            return
        self.flush_to_controller()

    def flush_to_controller(self):
        try:
            sent = self.sock.send(self.to_controller)
        except BlockingIOError:
            return
        except OSError as error:
            self.disconnect(str(error))
            return
        self.to_controller = self.to_controller[sent:]


def main():
    parser = argparse.ArgumentParser(description="Relays between ExaBGP and the Sluice controller.")
    parser.add_argument("socket", help="the controller's Unix-domain socket")
    parser.add_argument("--orphan-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="withdraw every route after the controller has been gone this long (default 30)")
    arguments = parser.parse_args()
    # ExaBGP stops us with SIGTERM after it closed its sessions; exit quietly then.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        Relay(arguments.socket, arguments.orphan_timeout).run()
    except (KeyboardInterrupt, BrokenPipeError):
        pass


if __name__ == "__main__":
    main()
