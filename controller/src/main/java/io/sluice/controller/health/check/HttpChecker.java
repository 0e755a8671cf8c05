package io.sluice.controller.health.check;

import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.HttpStatuses;
import io.sluice.common.config.IpLiterals;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Checks a backend with an HTTP/1.1 GET over a plain socket and compares the status with the expected set.
 *
 * <p>A plain socket rather than {@code java.net.http.HttpClient}: one timeout covers connect and read together,
 * nothing is pooled between checks (a check must open its own connection, as a client would), and only the status
 * line is read.
 */
public final class HttpChecker implements BackendChecker
{
    private static final int MAX_STATUS_LINE = 1024;

    private final InetSocketAddress target;
    private final byte[] request;
    private final int timeoutMs;
    private final HttpStatuses expected;
    private final String path;

    /**
     * Creates the checker.
     *
     * @param ip       the backend's IP literal (names are rejected)
     * @param port     the port to connect to
     * @param path     the path to GET, starting with '/'
     * @param timeout  the budget for connect and response together
     * @param expected the statuses that pass
     */
    public HttpChecker(final String ip, final int port, final String path, final Duration timeout,
        final HttpStatuses expected)
    {
        final InetAddress address = IpLiterals.parse(ip);
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port outside 1..65535: " + port);
        }
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ' || c >= 0x7f))
        {
            throw new IllegalArgumentException("path must start with '/' and hold no spaces or controls: " + path);
        }
        this.target = new InetSocketAddress(address, port);
        this.path = path;
        this.timeoutMs = Checks.timeoutMs(timeout);
        this.expected = Objects.requireNonNull(expected, "expected");
        final String host = address instanceof Inet6Address ?
            "[" + address.getHostAddress() + "]" : address.getHostAddress();
        this.request = ("GET " + path + " HTTP/1.1\r\n" +
            "Host: " + host + ":" + port + "\r\n" +
            "User-Agent: sluice-health-check\r\n" +
            "Connection: close\r\n" +
            "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Creates a checker that expects 200-399. */
    public HttpChecker(final String ip, final int port, final String path, final Duration timeout)
    {
        this(ip, port, path, timeout, HealthCheckConfig.DEFAULT_EXPECT_STATUS);
    }

    /**
     * Sends one GET; passes or fails with detail "HTTP 500" or what went wrong. Never throws for I/O.
     *
     * @return the result, with the status or the failure as its detail.
     */
    @Override
    public CheckResult check()
    {
        final long start = System.nanoTime();
        final long deadline = start + timeoutMs * 1_000_000L;
        try (Socket socket = new Socket())
        {
            socket.connect(target, timeoutMs);
            final OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            final int status = readStatus(socket, deadline);
            final long latency = System.nanoTime() - start;
            if (status < 0)
            {
                return CheckResult.fail("malformed response", latency);
            }
            final String detail = "HTTP " + status;
            return expected.contains(status) ? CheckResult.pass(detail, latency) : CheckResult.fail(detail, latency);
        }
        catch (final IOException ex)
        {
            return CheckResult.fail(Failures.describe(ex, timeoutMs), System.nanoTime() - start);
        }
    }

    /** Reads the status line before the deadline; returns the status or -1 if it is not HTTP. */
    private static int readStatus(final Socket socket, final long deadline) throws IOException
    {
        final InputStream in = new BufferedInputStream(socket.getInputStream(), 256);
        final byte[] line = new byte[MAX_STATUS_LINE];
        int length = 0;
        while (length < line.length)
        {
            final long remainingMs = (deadline - System.nanoTime()) / 1_000_000L;
            if (remainingMs < 1)
            {
                throw new SocketTimeoutException("deadline passed");
            }
            socket.setSoTimeout((int)Math.min(remainingMs, Integer.MAX_VALUE));
            final int b = in.read();
            if (b < 0 || b == '\n')
            {
                break;
            }
            line[length++] = (byte)b;
        }
        return parseStatus(new String(line, 0, length, StandardCharsets.US_ASCII));
    }

    // RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]
    static int parseStatus(final String statusLine)
    {
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ')
        {
            return -1;
        }
        int status = 0;
        for (int i = 9; i < 12; i++)
        {
            final char c = statusLine.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            status = status * 10 + (c - '0');
        }
        return status;
    }

    @Override
    public String toString()
    {
        return "http://" + target.getAddress().getHostAddress() + ":" + target.getPort() + path +
            " expect " + expected;
    }
}
