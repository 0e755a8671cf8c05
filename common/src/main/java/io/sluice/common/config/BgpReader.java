package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code controller.bgp} and {@code vips[i].bgp}.
 */
final class BgpReader
{
    static final String[] KEYS = {"local_as", "peer_as", "router_id", "local_address", "neighbors", "med",
        "as_path_prepend", "exabgp", "bfd_speaker"};
    static final String[] NEIGHBOR_KEYS =
        {"address", "local_address", "hold_time", "keepalive", "md5_password_file", "graceful_restart", "bfd"};
    static final String[] BFD_KEYS = {"enabled", "min_rx", "min_tx", "multiplier"};
    static final String[] VIP_KEYS = {"communities", "large_communities", "med"};
    static final long MAX_MED = 4294967295L;

    private static final Pattern COMMUNITY = Pattern.compile("(\\d{1,5}):(\\d{1,5})");
    private static final Pattern LARGE_COMMUNITY = Pattern.compile("(\\d{1,10}):(\\d{1,10}):(\\d{1,10})");
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private BgpReader()
    {
    }

    static BgpConfig read(final MapReader reader) throws ConfigException
    {
        final long localAs = asNumber(reader, "local_as");
        final long peerAs = asNumber(reader, "peer_as");
        final Inet4Address routerId = ConfigValues.ipv4(reader, "router_id");
        final InetAddress localAddress = ConfigValues.ip(reader, "local_address");
        final List<?> entries = reader.list("neighbors", true);
        if (entries.isEmpty())
        {
            throw reader.error("neighbors", "needs at least 1 entry, got none");
        }
        final Map<InetAddress, String> pathByAddress = new HashMap<>();
        final List<BgpNeighborConfig> sessions = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++)
        {
            final String key = "neighbors[" + i + "]";
            final BgpNeighborConfig session = entries.get(i) instanceof String text ?
                plainNeighbor(reader, key, text, localAddress) :
                neighbor(MapReader.of(reader.file(), reader.pathOf(key), entries.get(i), NEIGHBOR_KEYS), localAddress);
            final String same = pathByAddress.putIfAbsent(session.address(), reader.pathOf(key));
            if (same != null)
            {
                throw reader.error(key, "duplicate neighbor " + IpLiterals.format(session.address()) + " (also " +
                    same + ")");
            }
            sessions.add(session);
        }
        final long med = reader.has("med") ? reader.integer("med", reader.get("med"), 0, MAX_MED) :
            VipRouteConfig.NO_MED;
        final int prepend = reader.optionalInt("as_path_prepend", 0, 0, BgpConfig.MAX_PREPEND);
        if (prepend > 0 && localAs == peerAs)
        {
            throw reader.error("as_path_prepend", "only for eBGP: on an iBGP session (local_as = peer_as = " +
                localAs + ") the local AS in the path makes the router drop the route as a loop");
        }
        final MapReader exabgp = reader.optionalMap("exabgp", "external", "command", "orphan_timeout");
        final ExaBgpConfig exaBgpConfig = new ExaBgpConfig(exabgp.optionalBoolean("external", false),
            exabgp.optionalString("command", ExaBgpConfig.DEFAULT_COMMAND),
            exabgp.optionalDurationNanos("orphan_timeout", ExaBgpConfig.DEFAULT_ORPHAN_TIMEOUT_NS));
        checkBfdTimers(reader, sessions);
        final MapReader bfdSpeaker = reader.optionalMap("bfd_speaker", "command");
        final String bfdCommand = bfdSpeaker.optionalString("command", BgpConfig.DEFAULT_BFD_COMMAND);
        if (bfdCommand.isBlank())
        {
            throw bfdSpeaker.error("command", "expected the command that starts BIRD, e.g. \"bird\", got nothing");
        }
        return new BgpConfig(localAs, peerAs, routerId, localAddress, sessions, med, prepend, exaBgpConfig,
            bfdCommand);
    }

    /**
     * BIRD 2.0's {@code protocol bfd} takes timers per interface, not per explicit neighbor: one set for all.
     */
    private static void checkBfdTimers(final MapReader reader, final List<BgpNeighborConfig> sessions)
        throws ConfigException
    {
        BfdConfig first = null;
        int firstIndex = -1;
        for (int i = 0; i < sessions.size(); i++)
        {
            final BfdConfig bfd = sessions.get(i).bfd();
            if (!bfd.enabled())
            {
                continue;
            }
            if (first == null)
            {
                first = bfd;
                firstIndex = i;
            }
            else if (!first.sameTimers(bfd))
            {
                throw reader.error("neighbors[" + i + "].bfd", "BFD timers differ from neighbors[" + firstIndex +
                    "].bfd (" + first.describe() + " vs " + bfd.describe() + "): the BFD speaker (BIRD 2.0) runs " +
                    "one set of timers for all its sessions; give every neighbor the same min_rx, min_tx and " +
                    "multiplier");
            }
        }
    }

    private static BfdConfig bfd(final MapReader neighbor) throws ConfigException
    {
        if (!neighbor.has("bfd"))
        {
            return BfdConfig.OFF;
        }
        final MapReader reader = MapReader.of(neighbor.file(), neighbor.pathOf("bfd"), neighbor.get("bfd"),
            BFD_KEYS);
        final boolean enabled = reader.optionalBoolean("enabled", true);
        final int minRx = bfdInterval(reader, "min_rx");
        final int minTx = bfdInterval(reader, "min_tx");
        final int multiplier = reader.optionalInt("multiplier", BfdConfig.DEFAULT_MULTIPLIER, 1,
            BfdConfig.MAX_MULTIPLIER);
        return new BfdConfig(enabled, minRx, minTx, multiplier);
    }

    private static int bfdInterval(final MapReader reader, final String key) throws ConfigException
    {
        final long nanos = reader.optionalDurationNanos(key, BfdConfig.DEFAULT_INTERVAL_MS * NANOS_PER_MILLI);
        if (nanos % NANOS_PER_MILLI != 0 || nanos / NANOS_PER_MILLI < BfdConfig.MIN_INTERVAL_MS ||
            nanos / NANOS_PER_MILLI > BfdConfig.MAX_INTERVAL_MS)
        {
            throw reader.error(key, "expected whole milliseconds from " + BfdConfig.MIN_INTERVAL_MS + "ms to " +
                BfdConfig.MAX_INTERVAL_MS + "ms, got " + Durations.format(nanos));
        }
        return (int)(nanos / NANOS_PER_MILLI);
    }

    /**
     * Reads {@code vips[i].bgp}.
     */
    static VipRouteConfig vipRoute(final MapReader reader) throws ConfigException
    {
        final List<String> communities = reader.has("communities") ? reader.requiredStringList("communities") :
            List.of();
        for (int i = 0; i < communities.size(); i++)
        {
            final Matcher m = COMMUNITY.matcher(communities.get(i));
            if (!m.matches() || Long.parseLong(m.group(1)) > 65535 || Long.parseLong(m.group(2)) > 65535)
            {
                throw reader.error("communities[" + i + "]", "expected a community ASN:VALUE with both parts " +
                    "0..65535 (RFC 1997), such as \"65000:100\"; got \"" + communities.get(i) + "\"");
            }
        }
        final List<String> large = reader.has("large_communities") ?
            reader.requiredStringList("large_communities") : List.of();
        for (int i = 0; i < large.size(); i++)
        {
            final Matcher m = LARGE_COMMUNITY.matcher(large.get(i));
            if (!m.matches() || Long.parseLong(m.group(1)) > MAX_MED || Long.parseLong(m.group(2)) > MAX_MED ||
                Long.parseLong(m.group(3)) > MAX_MED)
            {
                throw reader.error("large_communities[" + i + "]", "expected a large community GLOBAL:LOCAL1:LOCAL2 " +
                    "of 0..4294967295 each (RFC 8092), such as \"65000:1:2\"; got \"" + large.get(i) + "\"");
            }
        }
        final long med = reader.has("med") ? reader.integer("med", reader.get("med"), 0, MAX_MED) :
            VipRouteConfig.NO_MED;
        return new VipRouteConfig(communities, large, med);
    }

    private static BgpNeighborConfig plainNeighbor(
        final MapReader reader, final String key, final String text, final InetAddress localAddress)
        throws ConfigException
    {
        final InetAddress address = neighborAddress(reader, key, text);
        checkFamily(reader, key, address, localAddress, "local_address", "");
        return BgpNeighborConfig.defaults(address, localAddress);
    }

    private static BgpNeighborConfig neighbor(final MapReader reader, final InetAddress defaultLocal)
        throws ConfigException
    {
        final InetAddress address = neighborAddress(reader, "address", reader.requiredString("address"));
        final InetAddress localAddress = reader.has("local_address") ?
            ConfigValues.ip(reader, "local_address") : defaultLocal;
        if (reader.has("local_address"))
        {
            checkFamily(reader, "local_address", address, localAddress, "local_address", "");
        }
        else
        {
            checkFamily(reader, "address", address, localAddress, "controller.bgp.local_address",
                " (set this neighbor's own local_address)");
        }
        final long holdNs = reader.optionalDurationNanos("hold_time",
            BgpNeighborConfig.DEFAULT_HOLD_TIME_SECONDS * NANOS_PER_SECOND);
        if (holdNs % NANOS_PER_SECOND != 0 || holdNs / NANOS_PER_SECOND < BgpNeighborConfig.MIN_HOLD_TIME_SECONDS ||
            holdNs / NANOS_PER_SECOND > BgpNeighborConfig.MAX_HOLD_TIME_SECONDS)
        {
            throw reader.error("hold_time", "expected whole seconds from " +
                BgpNeighborConfig.MIN_HOLD_TIME_SECONDS + "s to " + BgpNeighborConfig.MAX_HOLD_TIME_SECONDS +
                "s (RFC 4271 §4.2), got " + Durations.format(holdNs));
        }
        final int hold = (int)(holdNs / NANOS_PER_SECOND);
        if (reader.has("keepalive"))
        {
            final long keepaliveNs = reader.optionalDurationNanos("keepalive", 0);
            if (keepaliveNs != (hold / 3) * NANOS_PER_SECOND)
            {
                throw reader.error("keepalive", "ExaBGP 4.2 sends keepalives every third of the hold time, " +
                    (hold / 3) + "s for hold_time " + hold + "s; got " + Durations.format(keepaliveNs) +
                    " (set hold_time to 3 x the keepalive you want)");
            }
        }
        Path md5 = null;
        if (reader.has("md5_password_file"))
        {
            final String text = reader.requiredString("md5_password_file");
            md5 = Path.of(text);
            if (!md5.isAbsolute())
            {
                throw reader.error("md5_password_file", "expected an absolute path, got \"" + text + "\"");
            }
            Md5PasswordFile.read(reader.file(), reader.pathOf("md5_password_file"), md5);
        }
        final boolean gracefulRestart = reader.optionalBoolean("graceful_restart", false);
        return new BgpNeighborConfig(address, localAddress, hold, md5, gracefulRestart, bfd(reader));
    }

    private static InetAddress neighborAddress(final MapReader reader, final String key, final String text)
        throws ConfigException
    {
        final InetAddress neighbor = ConfigValues.literal(reader, key, text, IpLiterals::parse);
        final String formatted = IpLiterals.format(neighbor);
        if (neighbor.isAnyLocalAddress() || neighbor.isMulticastAddress() || "255.255.255.255".equals(formatted))
        {
            throw reader.error(key, formatted + " is not a unicast address");
        }
        return neighbor;
    }

    private static void checkFamily(final MapReader reader, final String key, final InetAddress neighbor,
        final InetAddress localAddress, final String localName, final String hint) throws ConfigException
    {
        if ((neighbor instanceof Inet6Address) != (localAddress instanceof Inet6Address))
        {
            throw reader.error(key, "neighbor " + IpLiterals.format(neighbor) + " is not of the family of " +
                localName + " " + IpLiterals.format(localAddress) + hint);
        }
    }

    private static long asNumber(final MapReader reader, final String key) throws ConfigException
    {
        final Object value = reader.required(key);
        if (value instanceof Integer || value instanceof Long)
        {
            final long number = ((Number)value).longValue();
            if (number >= BgpConfig.MIN_AS && number <= BgpConfig.MAX_AS)
            {
                return number;
            }
        }
        throw reader.error(key, "bad AS number: expected an integer from " + BgpConfig.MIN_AS + " to " +
            BgpConfig.MAX_AS + ", got " + MapReader.describe(value));
    }
}
