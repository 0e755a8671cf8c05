package io.sluice.controller.bgp;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controller's side of the conversation with ExaBGP through the relay, without the socket: which commands to
 * send, what ExaBGP answered, which BGP sessions are up; it logs each of these events itself.
 *
 * <p>Pure and single-threaded: {@link ExaBgpApi} feeds it connection events and received lines and writes what
 * {@link #drainOutput} returns. ExaBGP acknowledges each command in order with {@code done} or {@code error}
 * ({@code exabgp.api.ack}, on by default), which tells when the routes are really current.
 */
public final class ExaBgpSession
{
    private static final System.Logger LOGGER = System.getLogger(ExaBgpSession.class.getName());

    private final RouteAnnouncer announcer;
    private final Map<String, String> neighborStates = new LinkedHashMap<>();
    private final Deque<String> awaitingAck = new ArrayDeque<>();
    private final List<String> output = new ArrayList<>();
    private boolean connected;

    /**
     * Creates a session whose routes carry no attributes but next-hop self.
     */
    public ExaBgpSession()
    {
        this(RouteAttributes.NONE);
    }

    /**
     * Creates a session.
     *
     * @param attributes the path attributes of each address's route.
     */
    public ExaBgpSession(final RouteAttributes attributes)
    {
        announcer = new RouteAnnouncer(attributes);
    }

    /**
     * Sets the addresses to announce; the others are withdrawn.
     *
     * @param addresses the addresses.
     */
    public void setAnnounced(final Set<InetAddress> addresses)
    {
        announcer.setDesired(addresses);
    }

    /**
     * Notes a new relay connection, after any earlier one was closed.
     *
     * @param why what happened, for the log, e.g. {@code relay connected}.
     */
    public void onConnected(final String why)
    {
        connected = true;
        neighborStates.clear();
        awaitingAck.clear();
        output.clear();
        announcer.onConnected();
        LOGGER.log(System.Logger.Level.INFO, "BGP: " + why);
    }

    /**
     * Notes the loss of the relay connection.
     *
     * @param why      what happened, for the log.
     * @param expected true when the controller closed it (logged as information), false for a failure (a warning).
     */
    public void onDisconnected(final String why, final boolean expected)
    {
        if (!connected)
        {
            return;
        }
        connected = false;
        neighborStates.clear();
        awaitingAck.clear();
        output.clear();
        announcer.onDisconnected();
        LOGGER.log(expected ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
            "BGP: relay disconnected: " + why);
    }

    /**
     * Handles one line from the relay.
     *
     * @param line the line, without its newline.
     */
    public void onLine(final String line)
    {
        final ExaBgpMessage message = ExaBgpMessage.parse(line);
        if (message instanceof ExaBgpMessage.Ack ack)
        {
            final String command = awaitingAck.poll();
            if (!ack.done())
            {
                LOGGER.log(System.Logger.Level.WARNING,
                    "BGP: ExaBGP rejected " + (command == null ? "a command" : "'" + command + "'"));
            }
        }
        else if (message instanceof ExaBgpMessage.NeighborState state)
        {
            onNeighborState(state);
        }
        else if (message instanceof ExaBgpMessage.RelayAnnounced relay)
        {
            announcer.onRelayAnnounced(relay.addresses());
        }
        else if (message instanceof ExaBgpMessage.Shutdown)
        {
            LOGGER.log(System.Logger.Level.INFO, "BGP: ExaBGP is shutting down");
        }
    }

    /**
     * Returns the lines to write to the relay, and forgets them.
     *
     * @return ExaBGP commands, in order.
     */
    public List<String> drainOutput()
    {
        if (connected)
        {
            for (final String command : announcer.drainCommands())
            {
                output.add(command);
                awaitingAck.add(command);
            }
        }
        final List<String> drained = List.copyOf(output);
        output.clear();
        return drained;
    }

    /**
     * Tells whether a relay is connected.
     *
     * @return true while connected.
     */
    public boolean isConnected()
    {
        return connected;
    }

    /**
     * Returns what has been announced on the current connection.
     *
     * @return the addresses, empty while disconnected.
     */
    public Set<InetAddress> announced()
    {
        return announcer.announced();
    }

    /**
     * Tells whether ExaBGP has accepted the desired set: connected, every command for it sent and acknowledged.
     *
     * @return true when ExaBGP has the routes the controller wants.
     */
    public boolean isCurrent()
    {
        return announcer.isCurrent() && output.isEmpty() && awaitingAck.isEmpty();
    }

    /**
     * Returns how many commands ExaBGP has not answered yet.
     *
     * @return the count.
     */
    public int awaitingAck()
    {
        return awaitingAck.size();
    }

    /**
     * Returns the BGP sessions' last states seen on the current connection.
     *
     * @return neighbor address to {@code connected}, {@code up} or {@code down}; unmodifiable.
     */
    public Map<String, String> neighborStates()
    {
        return Collections.unmodifiableMap(new LinkedHashMap<>(neighborStates));
    }

    private void onNeighborState(final ExaBgpMessage.NeighborState state)
    {
        final String previous = neighborStates.put(state.peer(), state.state());
        // A session that cannot come up cycles connected/down every few seconds: log only the first state seen and
        // the moves into and out of "up", which are the ones that change where traffic goes.
        if (!state.state().equals(previous) && (previous == null || "up".equals(previous) ||
            "up".equals(state.state())))
        {
            // A session that was up and goes is a failure; coming up, or the first state seen, is news.
            LOGGER.log("up".equals(previous) ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                "BGP: neighbor " + state.peer() + " " + state.state() +
                (state.reason().isEmpty() ? "" : " (" + state.reason() + ")"));
        }
    }
}
