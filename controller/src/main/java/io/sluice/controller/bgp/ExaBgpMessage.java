package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;
import io.sluice.common.json.Json;

import java.net.InetAddress;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One line the relay passes on from ExaBGP 4.2 (with {@code encoder json}), or the relay's own greeting.
 *
 * <p>The lines, as ExaBGP 4.2.21 writes them:
 * <pre>
 * done
 * error
 * { "exabgp": "4.0.1", "time": 1795969776.3804324, "host" : "vm", "pid" : 31156, "ppid" : 1, "counter": 2,
 *   "type": "state", "neighbor": { "address": { "local": "10.10.1.2", "peer": "10.10.1.1" },
 *   "asn": { "local": 65001, "peer": 65000 } , "state": "up" } }
 * { ... "type": "state", ... "state": "down", "reason": "peer reset, message (notification received (6,2))
 *   error(Cease / Administrative Shutdown)" } }
 * { ... "type": "notification", "notification": "shutdown"}
 * sluice-relay announced 10.100.0.1/32 fd00::1/128
 * </pre>
 * (each JSON message is one line; the "exabgp" field is the JSON format's version, not ExaBGP's). Neighbor states
 * are {@code connected} (TCP up), {@code up} (BGP established) and {@code down} (with a reason).
 */
public sealed interface ExaBgpMessage
{
    /**
     * The relay's greeting prefix, followed by the prefixes it has announced.
     */
    String RELAY_ANNOUNCED = "sluice-relay announced";

    /**
     * ExaBGP's answer to one command.
     *
     * @param done true for {@code done}, false for {@code error}.
     */
    record Ack(boolean done) implements ExaBgpMessage
    {
    }

    /**
     * A BGP session's new state.
     *
     * @param peer   the neighbor's address, normalised (e.g. {@code 10.10.1.1}).
     * @param state  {@code connected}, {@code up} or {@code down}.
     * @param reason why it went down; empty otherwise.
     */
    record NeighborState(String peer, String state, String reason) implements ExaBgpMessage
    {
    }

    /**
     * ExaBGP is shutting down.
     */
    record Shutdown() implements ExaBgpMessage
    {
    }

    /**
     * What the relay has announced so far, sent first on each connection.
     *
     * @param addresses the announced host routes' addresses.
     */
    record RelayAnnounced(Set<InetAddress> addresses) implements ExaBgpMessage
    {
        /**
         * Copies the set.
         */
        public RelayAnnounced
        {
            addresses = Set.copyOf(addresses);
        }
    }

    /**
     * Anything else: messages the controller does not use, or a line it cannot read.
     *
     * @param line the line.
     */
    record Other(String line) implements ExaBgpMessage
    {
    }

    /**
     * Reads one line.
     *
     * @param line the line, without its newline.
     * @return the message; {@link Other} for anything not understood, never an exception.
     */
    static ExaBgpMessage parse(final String line)
    {
        final String text = line.strip();
        if (text.equals("done"))
        {
            return new Ack(true);
        }
        if (text.equals("error"))
        {
            return new Ack(false);
        }
        if (text.startsWith(RELAY_ANNOUNCED))
        {
            return relayAnnounced(text);
        }
        if (text.startsWith("{"))
        {
            try
            {
                return json(Json.read(text), line);
            }
            catch (final IllegalArgumentException | ClassCastException ex)
            {
                return new Other(line);
            }
        }
        return new Other(line);
    }

    private static ExaBgpMessage json(final Object value, final String line)
    {
        if (!(value instanceof Map<?, ?> message))
        {
            return new Other(line);
        }
        final Object type = message.get("type");
        if ("notification".equals(type) && "shutdown".equals(message.get("notification")))
        {
            return new Shutdown();
        }
        if (!"state".equals(type) || !(message.get("neighbor") instanceof Map<?, ?> neighbor) ||
            !(neighbor.get("address") instanceof Map<?, ?> address) || !(address.get("peer") instanceof String peer) ||
            !(neighbor.get("state") instanceof String state))
        {
            return new Other(line);
        }
        final Object reason = neighbor.get("reason");
        return new NeighborState(normalise(peer), state, reason instanceof String text ? text : "");
    }

    private static ExaBgpMessage relayAnnounced(final String text)
    {
        final Set<InetAddress> addresses = new LinkedHashSet<>();
        for (final String prefix : text.substring(RELAY_ANNOUNCED.length()).strip().split("\\s+"))
        {
            final int slash = prefix.indexOf('/');
            if (slash < 0)
            {
                continue;
            }
            try
            {
                final InetAddress address = IpLiterals.parse(prefix.substring(0, slash));
                if (prefix.substring(slash + 1).equals(Integer.toString(address.getAddress().length * 8)))
                {
                    addresses.add(address);
                }
            }
            catch (final IllegalArgumentException ex)
            {
                // Not a host route of ours: the controller announces only /32 and /128.
            }
        }
        return new RelayAnnounced(addresses);
    }

    private static String normalise(final String address)
    {
        try
        {
            return IpLiterals.format(IpLiterals.parse(address));
        }
        catch (final IllegalArgumentException ex)
        {
            return address;
        }
    }
}
