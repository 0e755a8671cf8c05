package io.sluice.controller.health.check;

import io.sluice.controller.health.BackendHealth;
import io.sluice.controller.health.FlapDamping;
import io.sluice.controller.health.Transition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@link TcpChecker} against real sockets on 127.0.0.1. */
class TcpCheckerTest
{
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void passesWhenSomethingListens() throws IOException
    {
        try (ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress()))
        {
            final CheckResult result = new TcpChecker("127.0.0.1", listener.getLocalPort(), TIMEOUT).check();
            assertTrue(result.passed(), result.toString());
            assertEquals("connected", result.detail());
            assertTrue(result.latencyNs() > 0);
        }
    }

    @Test
    void reportsRefusedOnClosedPort() throws IOException
    {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            closedPort = socket.getLocalPort();
        }
        final CheckResult result = new TcpChecker("127.0.0.1", closedPort, TIMEOUT).check();
        assertFalse(result.passed());
        assertEquals("connect refused", result.detail());
    }

    @Test
    void drivesBackendHealthDownWhenListenerCloses() throws IOException
    {
        // Damping as configured by default (4 changes in 60 s): this test's two changes stay below it.
        final BackendHealth b1 =
            new BackendHealth("b1", 1, 2, false, new FlapDamping(4, 60_000, 30_000, 600_000, 300_000));
        final ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        final TcpChecker checker = new TcpChecker("127.0.0.1", listener.getLocalPort(), TIMEOUT);
        assertTrue(b1.onResult(checker.check(), 1_000).up());
        listener.close();
        b1.onResult(checker.check(), 2_000);
        final Transition down = b1.onResult(checker.check(), 3_000);
        assertEquals("backend b1 down: 2 consecutive failed checks (last: connect refused)", down.reason());
    }

    @Test
    void acceptsIpv6LiteralsAndRejectsNames()
    {
        new TcpChecker("::1", 80, TIMEOUT);
        assertThrows(IllegalArgumentException.class, () -> new TcpChecker("example.com", 80, TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new TcpChecker("127.0.0.1", 70_000, TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new TcpChecker("127.0.0.1", 80, Duration.ZERO));
    }
}
