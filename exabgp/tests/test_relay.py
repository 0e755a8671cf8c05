"""Unit tests of sluice-exabgp-relay.py's failure paths, on real Unix-domain sockets.

The controller-facing behaviour is tested from Java (controller's RelayScriptTest, the relay as a process). These
tests reach what a process test can only hit by chance: the controller going away between the relay's connect and
its greeting. usage: python3 -m unittest discover -s exabgp/tests
"""

import importlib.util
import os
import socket
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("relay", os.path.join(HERE, "..", "sluice-exabgp-relay.py"))
relay = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(relay)

UP = (b'{ "exabgp": "4.0.1", "type": "state", "neighbor": { "address": { "local": "10.10.1.2", '
      b'"peer": "10.10.1.1" }, "asn": { "local": 65001, "peer": 65000 } , "state": "up" } }')
ANNOUNCE = "announce route 10.100.0.1/32 next-hop self"


class GreetingTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "exabgp.sock")
        self.relay = relay.Relay(self.path, 30.0)
        self.relay.announced = {"10.100.0.1/32": ANNOUNCE}
        self.relay.neighbor_states = {"10.10.1.1": UP}
        self.listeners = []

    def tearDown(self):
        if self.relay.sock is not None:
            self.relay.sock.close()
        for listener in self.listeners:
            listener.close()
        self.directory.cleanup()

    def listen(self):
        if os.path.exists(self.path):
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.path)
        listener.listen(1)
        self.listeners.append(listener)
        return listener

    def test_greets_a_controller_with_what_it_announced_and_the_sessions(self):
        listener = self.listen()
        self.relay.connect()
        controller, _ = listener.accept()
        with controller:
            self.assertEqual(b"sluice-relay announced 10.100.0.1/32\n" + UP + b"\n", read_lines(controller, 2))

    def test_drops_a_controller_that_went_away_during_the_greeting_and_greets_the_next(self):
        # The controller closes its socket between the relay's connect and its first send, as a controller
        # that closes right after dropping the relay does (seen once in CI). The send meets a broken pipe.
        listener = self.listen()
        real_socket = socket.socket

        class ListenerClosesOnConnect(real_socket):
            def connect(self, address):
                super().connect(address)
                listener.close()

        with mock.patch.object(relay.socket, "socket", ListenerClosesOnConnect):
            self.relay.connect()
        self.assertIsNone(self.relay.sock, "the relay kept a connection whose peer is gone")

        second = self.listen()
        self.relay.connect()
        controller, _ = second.accept()
        with controller:
            self.assertEqual(b"sluice-relay announced 10.100.0.1/32\n" + UP + b"\n", read_lines(controller, 2))
        self.assertEqual({"10.100.0.1/32": ANNOUNCE}, self.relay.announced, "the relay forgot its routes")


def read_lines(connection, count):
    connection.settimeout(5)
    data = b""
    while data.count(b"\n") < count:
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


if __name__ == "__main__":
    unittest.main()
