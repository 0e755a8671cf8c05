package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;
import org.agrona.ErrorHandler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controller's end of the ExaBGP relay: a non-blocking Unix-domain socket server that the relay (run by
 * ExaBGP) connects to. Polled from the controller's duty cycle; it has no thread of its own and never blocks.
 *
 * <p>A newer relay connection replaces an older one (ExaBGP restarted, or respawned its relay); on each connection
 * the whole desired set is announced again. Decisions live in {@link ExaBgpSession}; this class only moves bytes.
 * I/O problems drop the connection and are logged, never thrown from {@link #poll}; a failing accept, which would
 * fail again at every poll, goes to the error handler, which reports a repeated error once with a count.
 */
public final class ExaBgpApi implements AutoCloseable
{
    /**
     * The longest line accepted from the relay; a longer one is not ExaBGP talking, and drops the connection.
     */
    public static final int MAX_LINE_BYTES = 1 << 20;

    private final Path socketPath;
    private final ServerSocketChannel server;
    private final ExaBgpSession session;
    private final ErrorHandler errors;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
    private final ByteArrayOutputStream partialLine = new ByteArrayOutputStream();
    private ByteBuffer pendingOutput = ByteBuffer.allocate(0);
    private SocketChannel relay;
    private int connections;

    private ExaBgpApi(final Path socketPath, final ServerSocketChannel server, final RouteAttributes attributes,
        final ErrorHandler errors)
    {
        this.socketPath = socketPath;
        this.server = server;
        this.session = new ExaBgpSession(attributes);
        this.errors = errors;
    }

    /**
     * Listens on a Unix-domain socket, creating its directory if needed and replacing a stale socket file left by
     * an earlier controller.
     *
     * @param socketPath the socket's path (at most 107 bytes); the relay's argument.
     * @return the listening API.
     * @throws IOException when the socket cannot be created.
     */
    public static ExaBgpApi open(final Path socketPath) throws IOException
    {
        return open(socketPath, RouteAttributes.NONE, ExaBgpApi::logError);
    }

    /**
     * Listens on a Unix-domain socket, as {@link #open(Path)}, announcing routes with path attributes.
     *
     * @param socketPath the socket's path (at most 107 bytes); the relay's argument.
     * @param attributes the path attributes of each address's route.
     * @return the listening API.
     * @throws IOException when the socket cannot be created.
     */
    public static ExaBgpApi open(final Path socketPath, final RouteAttributes attributes) throws IOException
    {
        return open(socketPath, attributes, ExaBgpApi::logError);
    }

    /**
     * Listens on a Unix-domain socket, as {@link #open(Path, RouteAttributes)}, reporting failed accepts to an error
     * handler.
     *
     * @param socketPath the socket's path (at most 107 bytes); the relay's argument.
     * @param attributes the path attributes of each address's route.
     * @param errors     where failed accepts go, e.g. the controller agent's {@code AgentErrorLog}.
     * @return the listening API.
     * @throws IOException when the socket cannot be created.
     */
    public static ExaBgpApi open(final Path socketPath, final RouteAttributes attributes, final ErrorHandler errors)
        throws IOException
    {
        final Path parent = socketPath.toAbsolutePath().getParent();
        if (parent != null)
        {
            CreatedDirectories.create(parent);
        }
        Files.deleteIfExists(socketPath);
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try
        {
            server.bind(UnixDomainSocketAddress.of(socketPath));
            server.configureBlocking(false);
        }
        catch (final IOException | RuntimeException ex)
        {
            server.close();
            throw ex;
        }
        return new ExaBgpApi(socketPath, server, attributes, errors);
    }

    /**
     * The error handler of an API opened without one: every error a warning.
     *
     * @param error what went wrong.
     */
    static void logError(final Throwable error)
    {
        System.getLogger(ExaBgpApi.class.getName()).log(System.Logger.Level.WARNING, error.getMessage(), error);
    }

    /**
     * Accepts a new relay connection, reads what ExaBGP sent and writes pending commands.
     *
     * @param nowMs the time (unused today; the duty cycle's clock).
     * @return work done: connections accepted, lines read, writes made.
     */
    public int poll(final long nowMs)
    {
        if (!server.isOpen())
        {
            return 0;
        }
        int work = accept();
        work += read();
        work += write();
        return work;
    }

    /**
     * Sets the addresses to announce. Only the differences go to ExaBGP, at the next {@link #poll}; until the first
     * call nothing is announced or withdrawn.
     *
     * @param addresses the VIP addresses to announce; the others are withdrawn.
     */
    public void setAnnounced(final Set<InetAddress> addresses)
    {
        session.setAnnounced(addresses);
    }

    /**
     * Tells whether a relay is connected.
     *
     * @return true while connected.
     */
    public boolean isConnected()
    {
        return relay != null;
    }

    /**
     * Tells whether ExaBGP has accepted the last {@link #setAnnounced}: connected, every command written and
     * acknowledged with {@code done} or {@code error}.
     *
     * @return true when nothing is in flight.
     */
    public boolean isCurrent()
    {
        return relay != null && !pendingOutput.hasRemaining() && session.isCurrent();
    }

    /**
     * Returns the set last sent on the current connection.
     *
     * @return the announced addresses, empty while disconnected.
     */
    public Set<InetAddress> announced()
    {
        return session.announced();
    }

    /**
     * Returns the BGP sessions' states as ExaBGP last reported them on the current connection (the relay repeats
     * them when a controller connects).
     *
     * @return neighbor address to {@code connected}, {@code up} or {@code down}; unmodifiable.
     */
    public Map<String, String> neighborStates()
    {
        return session.neighborStates();
    }

    /**
     * Returns how many relay connections arrived after the first.
     *
     * @return the count.
     */
    public int reconnects()
    {
        return Math.max(0, connections - 1);
    }

    /**
     * Returns the socket's path.
     *
     * @return the path the relay connects to.
     */
    public Path socketPath()
    {
        return socketPath;
    }

    /**
     * Closes the connection and the socket and removes the socket file; {@link #poll} does nothing afterwards. The
     * relay keeps ExaBGP's routes until its orphan timeout runs out.
     */
    @Override
    public void close()
    {
        // The socket goes first: a relay that sees its connection close and reconnects at once then finds no
        // listener (and retries), instead of a place in the backlog of one about to close.
        try
        {
            server.close();
            Files.deleteIfExists(socketPath);
        }
        catch (final IOException ex)
        {
            // Nothing useful to do while closing; a stale file is replaced at the next open.
        }
        disconnect("controller closing", true);
    }

    private int accept()
    {
        int accepted = 0;
        while (true)
        {
            final SocketChannel channel;
            try
            {
                channel = server.accept();
                if (channel == null)
                {
                    return accepted;
                }
                channel.configureBlocking(false);
            }
            catch (final IOException ex)
            {
                errors.onError(new IOException("BGP: cannot accept a relay connection: " + ex, ex));
                return accepted;
            }
            if (relay != null)
            {
                disconnect("replaced by a newer relay connection", true);
            }
            relay = channel;
            connections++;
            accepted++;
            session.onConnected(connections == 1 ? "relay connected" : "relay connected (reconnect " +
                (connections - 1) + ")");
        }
    }

    private int read()
    {
        int lines = 0;
        while (relay != null)
        {
            readBuffer.clear();
            final int n;
            try
            {
                n = relay.read(readBuffer);
            }
            catch (final IOException ex)
            {
                disconnect(ex.toString(), false);
                return lines;
            }
            if (n < 0)
            {
                disconnect("closed by the relay", false);
                return lines;
            }
            if (n == 0)
            {
                return lines;
            }
            lines += splitLines(n);
        }
        return lines;
    }

    private int splitLines(final int n)
    {
        int lines = 0;
        final byte[] bytes = readBuffer.array();
        int start = 0;
        for (int i = 0; i < n; i++)
        {
            if (bytes[i] == '\n')
            {
                partialLine.write(bytes, start, i - start);
                final String line = partialLine.toString(StandardCharsets.UTF_8);
                partialLine.reset();
                start = i + 1;
                lines++;
                session.onLine(line);
            }
        }
        partialLine.write(bytes, start, n - start);
        if (partialLine.size() > MAX_LINE_BYTES)
        {
            disconnect("line longer than " + MAX_LINE_BYTES + " bytes", false);
        }
        return lines;
    }

    private int write()
    {
        if (relay == null)
        {
            return 0;
        }
        final List<String> lines = session.drainOutput();
        if (!lines.isEmpty())
        {
            final StringBuilder text = new StringBuilder();
            for (final String line : lines)
            {
                text.append(line).append('\n');
            }
            final byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            final ByteBuffer joined = ByteBuffer.allocate(pendingOutput.remaining() + bytes.length);
            joined.put(pendingOutput).put(bytes).flip();
            pendingOutput = joined;
        }
        if (!pendingOutput.hasRemaining())
        {
            return 0;
        }
        try
        {
            return relay.write(pendingOutput) > 0 ? 1 : 0;
        }
        catch (final IOException ex)
        {
            disconnect(ex.toString(), false);
            return 0;
        }
    }

    private void disconnect(final String why, final boolean expected)
    {
        if (relay == null)
        {
            return;
        }
        try
        {
            relay.close();
        }
        catch (final IOException ex)
        {
            // Closing a broken connection; nothing to add.
        }
        relay = null;
        partialLine.reset();
        pendingOutput = ByteBuffer.allocate(0);
        session.onDisconnected(why, expected);
    }
}
