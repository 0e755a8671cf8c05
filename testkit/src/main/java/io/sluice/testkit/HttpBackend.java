package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A test backend: Python's static-file HTTP server inside a namespace, started so that it listens before
 * {@link #start} returns.
 *
 * <p>Not {@code python3 -m http.server --bind ADDRESS}: its {@code HTTPServer.server_bind} looks the address up in
 * DNS ({@code socket.getfqdn}) between {@code bind} and {@code listen}, and in a test namespace whose resolver is
 * unreachable that lookup waits out the resolver's timeout, 5 s for an IPv6 address here, while every connection
 * to the bound but not listening port is refused. A health check with {@code fall: 1} then takes the backend down
 * for those seconds, which a test reading its state at once sees (ControllerBgpIpv6Test failed so in CI). This
 * server binds and listens without the lookup, prints one line when it listens, and {@link #start} waits for it.
 */
public final class HttpBackend
{
    /** How long a backend may take to listen before {@link #start} gives up. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    static final String READY = "sluice-test-backend listening";

    private static final String PROGRAM = """
        import functools, http.server, socket, socketserver, sys
        address, port, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        class Server(http.server.ThreadingHTTPServer):
            address_family = socket.AF_INET6 if ':' in address else socket.AF_INET
            daemon_threads = True
            def server_bind(self):
                socketserver.TCPServer.server_bind(self)  # HTTPServer's would also call socket.getfqdn
                self.server_name, self.server_port = address, port
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
        with Server((address, port), handler) as server:
            print('%s on %s port %d' % (sys.argv[4], address, port), flush=True)
            server.serve_forever()
        """;

    private HttpBackend()
    {
    }

    /**
     * Starts a server for the files under {@code root} on {@code address:port} in a namespace and waits until it
     * listens. The namespace's run stops it when it closes.
     *
     * @param namespace where it runs.
     * @param log       its log file (the ready line and one line per request).
     * @param address   the IPv4 or IPv6 literal to listen on ({@code 0.0.0.0} or {@code ::} for all).
     * @param port      the TCP port.
     * @param root      the directory it serves.
     * @return the server's process.
     * @throws AssertionError when it exits or does not listen within {@link #START_TIMEOUT}, with its log.
     */
    public static Process start(
        final Namespace namespace, final Path log, final String address, final int port, final Path root)
    {
        Objects.requireNonNull(address, "address");
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port outside 1..65535: " + port);
        }
        final Process process = namespace.start(log, "/usr/bin/python3", "-u", "-c", PROGRAM, address,
            Integer.toString(port), root.toString(), READY);
        Eventually.await(START_TIMEOUT, () ->
        {
            if (logText(log).contains(READY))
            {
                return true;
            }
            if (!process.isAlive())
            {
                throw new AssertionError("the backend on " + address + " port " + port + " exited (" +
                    process.exitValue() + "): " + logText(log));
            }
            return false;
        }, "the backend on " + address + " port " + port + " listening (log " + log + ")");
        return process;
    }

    private static String logText(final Path log)
    {
        try
        {
            return Files.exists(log) ? Files.readString(log) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
