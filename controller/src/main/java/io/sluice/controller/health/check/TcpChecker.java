package io.sluice.controller.health.check;

import io.sluice.common.config.IpLiterals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** Checks a backend by opening a TCP connection to it within a timeout, then closing it. */
public final class TcpChecker implements BackendChecker
{
    private final InetSocketAddress target;
    private final int timeoutMs;

    /**
     * Creates the checker.
     *
     * @param ip      the backend's IP literal (names are rejected)
     * @param port    the port to connect to
     * @param timeout the connect timeout
     */
    public TcpChecker(final String ip, final int port, final Duration timeout)
    {
        final InetAddress address = IpLiterals.parse(ip);
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port outside 1..65535: " + port);
        }
        this.target = new InetSocketAddress(address, port);
        this.timeoutMs = Checks.timeoutMs(timeout);
    }

    /**
     * Connects once; passes with detail "connected" or fails with what went wrong. Never throws for I/O.
     *
     * @return the result.
     */
    @Override
    public CheckResult check()
    {
        final long start = System.nanoTime();
        try (Socket socket = new Socket())
        {
            socket.connect(target, timeoutMs);
            return CheckResult.pass("connected", System.nanoTime() - start);
        }
        catch (final IOException ex)
        {
            return CheckResult.fail(Failures.describe(ex, timeoutMs), System.nanoTime() - start);
        }
    }

    @Override
    public String toString()
    {
        return "tcp://" + target.getAddress().getHostAddress() + ":" + target.getPort();
    }
}
