package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A BIRD 2 router in a network namespace, the upstream that load-balancer nodes announce their VIPs to: it accepts
 * every route from its BGP peers, exports nothing to them, and installs the best routes into the namespace's kernel
 * table with {@code merge paths on}, so equal routes from several peers become one multipath route.
 *
 * <p>Timers are short so sessions come up and recover within seconds in tests.
 */
public final class BirdRouter implements BgpRouter
{
    /**
     * A BGP peer of the router.
     *
     * @param name    the BGP protocol's name in BIRD, e.g. {@code lb1}.
     * @param address the peer's address, an IPv4 or IPv6 literal.
     * @param as       the peer's AS number.
     * @param password the TCP MD5 password (RFC 2385) of the session, or null for none.
     */
    public record Peer(String name, String address, long as, String password)
    {
        private static final Pattern NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]*");

        /**
         * Checks the name, which BIRD's grammar restricts.
         */
        public Peer
        {
            if (!NAME.matcher(name).matches())
            {
                throw new IllegalArgumentException("BIRD protocol name must be a letter then letters, digits, _: " +
                    name);
            }
        }

        /**
         * Creates a peer without a TCP MD5 password.
         *
         * @param name    the BGP protocol's name in BIRD.
         * @param address the peer's address.
         * @param as      the peer's AS number.
         */
        public Peer(final String name, final String address, final long as)
        {
            this(name, address, as, null);
        }

        boolean ipv6()
        {
            return address.indexOf(':') >= 0;
        }
    }

    /**
     * One line of {@code birdc show protocols}.
     *
     * @param name  the protocol's name, e.g. {@code lb1}.
     * @param proto its type, e.g. {@code BGP}.
     * @param table its table, {@code ---} for BGP in BIRD 2.
     * @param state {@code up}, {@code start}, {@code down}, ...
     * @param since when it entered that state.
     * @param info  details, e.g. {@code Established} or {@code Active  Socket: Connection refused}.
     */
    public record Protocol(String name, String proto, String table, String state, String since, String info)
    {
        /**
         * Tells whether a BGP session is established.
         *
         * @return true when the protocol is up and its info starts with {@code Established}.
         */
        public boolean established()
        {
            return "up".equals(state) && info.startsWith("Established");
        }
    }

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern ROUTE_LINE = Pattern.compile("^\\S*\\s+unicast \\[");
    private static final Pattern TUPLE = Pattern.compile("\\(([^)]*)\\)");

    private final Namespace namespace;
    private final Path socket;
    private final Path log;
    private final Process process;
    private final List<Peer> peers;

    private BirdRouter(
        final Namespace namespace, final Path socket, final Path log, final Process process, final List<Peer> peers)
    {
        this.namespace = namespace;
        this.socket = socket;
        this.log = log;
        this.process = process;
        this.peers = List.copyOf(peers);
    }

    /**
     * Writes the configuration into a directory and starts {@code bird -f -c CONF -s SOCK -P PID} in a namespace,
     * returning once its control socket answers.
     *
     * @param namespace the router's namespace.
     * @param directory where the configuration, control socket, pid file and log go (keep the path short: a Unix
     *                  socket path has at most 107 bytes).
     * @param routerId  the router ID, an IPv4 literal.
     * @param localAs   the router's AS number.
     * @param peers     its BGP peers.
     * @return the running router.
     */
    public static BirdRouter start(
        final Namespace namespace, final Path directory, final String routerId, final long localAs,
        final List<Peer> peers)
    {
        return start(namespace, directory, routerId, localAs, peers, false);
    }

    /**
     * Starts a router as {@link #start(Namespace, Path, String, long, List)}, with its BGP sessions tied to BFD
     * when asked ({@code bfd on} and a {@code protocol bfd} with 100 ms timers): a peer whose BFD session fails is
     * dropped at once, not after the hold time.
     *
     * @param namespace the router's namespace.
     * @param directory where the configuration, control socket, pid file and log go.
     * @param routerId  the router ID, an IPv4 literal.
     * @param localAs   the router's AS number.
     * @param peers     its BGP peers.
     * @param bfd       whether the sessions use BFD.
     * @return the running router.
     */
    public static BirdRouter start(
        final Namespace namespace, final Path directory, final String routerId, final long localAs,
        final List<Peer> peers, final boolean bfd)
    {
        final Path config = directory.resolve("bird.conf");
        final Path socket = directory.resolve("bird.ctl");
        final Path log = directory.resolve("bird.log");
        try
        {
            Files.createDirectories(directory);
            Files.writeString(config, config(routerId, localAs, peers, bfd));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Process process = namespace.start(log, "bird", "-f", "-c", config.toString(), "-s", socket.toString(),
            "-P", directory.resolve("bird.pid").toString());
        final BirdRouter router = new BirdRouter(namespace, socket, log, process, peers);
        Eventually.await(START_TIMEOUT, () ->
        {
            if (!process.isAlive())
            {
                throw new IllegalStateException("bird exited with " + process.exitValue() + ": " + router.logText());
            }
            return Files.exists(socket) && Commands.run(router.birdcCommand("show", "status")).exitCode() == 0;
        }, "BIRD's control socket " + socket);
        return router;
    }

    /**
     * Returns the BIRD configuration of a router that imports every route from its peers and exports none.
     *
     * @param routerId the router ID, an IPv4 literal.
     * @param localAs  the router's AS number.
     * @param peers    its BGP peers.
     * @return the configuration text.
     */
    public static String config(final String routerId, final long localAs, final List<Peer> peers)
    {
        return config(routerId, localAs, peers, false);
    }

    /**
     * Returns the configuration of {@link #config(String, long, List)}, with BFD on every session when asked.
     *
     * @param routerId the router ID, an IPv4 literal.
     * @param localAs  the router's AS number.
     * @param peers    its BGP peers.
     * @param bfd      whether the sessions use BFD ({@code bfd on}, {@code protocol bfd}).
     * @return the configuration text.
     */
    public static String config(final String routerId, final long localAs, final List<Peer> peers,
        final boolean bfd)
    {
        final StringBuilder text = new StringBuilder()
            .append("router id ").append(routerId).append(";\n")
            .append("log stderr all;\n")
            .append("protocol device { scan time 1; }\n")
            .append("protocol kernel kernel4 { ipv4 { export all; }; merge paths on; scan time 1; }\n")
            .append("protocol kernel kernel6 { ipv6 { export all; }; merge paths on; scan time 1; }\n")
            // Short timers: a test sees a session come up, fail and recover within seconds.
            .append("template bgp peers {\n")
            .append("    local as ").append(localAs).append(";\n")
            .append("    connect delay time 1; connect retry time 1; error wait time 1, 2;\n")
            .append("    hold time 9; keepalive time 3;\n")
            .append(bfd ? "    bfd on;\n" : "")
            .append("}\n")
            .append(bfd ? "protocol bfd { interface \"*\" { min rx interval 100 ms; min tx interval 100 ms; " +
                "multiplier 3; }; }\n" : "");
        for (final Peer peer : peers)
        {
            text.append("protocol bgp ").append(peer.name()).append(" from peers {\n")
                .append("    neighbor ").append(peer.address()).append(" as ").append(peer.as()).append(";\n")
                .append("    ").append(peer.ipv6() ? "ipv6" : "ipv4").append(" { import all; export none; };\n");
            if (peer.password() != null)
            {
                text.append("    password \"").append(peer.password()).append("\";\n");
            }
            text.append("}\n");
        }
        return text.toString();
    }

    /**
     * Returns the router's protocols, as {@code birdc show protocols} lists them.
     *
     * @return protocol name to its line, in BIRD's order.
     */
    public Map<String, Protocol> protocols()
    {
        return parseProtocols(birdc("show", "protocols"));
    }

    /**
     * Returns the state of the router's BFD session to an address, from {@code birdc show bfd sessions}.
     *
     * @param address the peer's address, as BIRD prints it.
     * @return e.g. {@code Up}, {@code Down}, {@code Init}; empty when there is no such session.
     */
    public String bfdState(final String address)
    {
        for (final String line : birdc("show", "bfd", "sessions").split("\n"))
        {
            final String[] fields = line.strip().split("\\s+");
            if (fields.length >= 3 && fields[0].equals(address))
            {
                return fields[2];
            }
        }
        return "";
    }

    /**
     * Runs a {@code birdc} command against this router.
     *
     * @param command e.g. {@code show}, {@code route}, {@code all}.
     * @return its output.
     */
    public String birdc(final String... command)
    {
        return Commands.run(birdcCommand(command)).checked();
    }

    @Override
    public Kind kind()
    {
        return Kind.BIRD;
    }

    /**
     * Tells whether the BGP session with a peer is established, by the peer's address.
     *
     * @param peerAddress the address of one of the router's peers.
     * @return true when its protocol is up and Established.
     */
    @Override
    public boolean established(final String peerAddress)
    {
        for (final Peer peer : peers)
        {
            if (peer.address().equals(peerAddress))
            {
                final Protocol protocol = protocols().get(peer.name());
                return protocol != null && protocol.established();
            }
        }
        throw new IllegalArgumentException("no peer " + peerAddress + " in " + peers);
    }

    @Override
    public Optional<PathAttributes> path(final String prefix, final String nextHop)
    {
        // birdc exits 1 for a prefix it has no route to.
        final Commands.Result result = Commands.run(birdcCommand("show", "route", "all", prefix));
        return result.exitCode() == 0 ? parsePath(result.stdout(), nextHop) : Optional.empty();
    }

    @Override
    public String state()
    {
        return birdc("show", "protocols", "all") + birdc("show", "route", "all");
    }

    /**
     * Parses {@code birdc show route all PREFIX}: one block per route, from its {@code unicast [protocol ...]}
     * line to the next one, with {@code BGP.next_hop}, {@code BGP.as_path}, {@code BGP.med},
     * {@code BGP.community: (65000,80)} and {@code BGP.large_community: (65001, 0, 80)} lines.
     *
     * @param output  the command's output.
     * @param nextHop the next hop of the route wanted.
     * @return that route's attributes, or empty when no route has that next hop.
     */
    static Optional<PathAttributes> parsePath(final String output, final String nextHop)
    {
        final List<List<String>> blocks = new ArrayList<>();
        for (final String line : output.split("\n"))
        {
            if (ROUTE_LINE.matcher(line).find())
            {
                blocks.add(new ArrayList<>());
            }
            if (!blocks.isEmpty())
            {
                blocks.get(blocks.size() - 1).add(line.strip());
            }
        }
        for (final List<String> block : blocks)
        {
            final Map<String, String> attributes = new LinkedHashMap<>();
            for (final String line : block)
            {
                final int colon = line.indexOf(": ");
                if (line.startsWith("BGP.") && colon > 0)
                {
                    attributes.put(line.substring(4, colon), line.substring(colon + 2).strip());
                }
            }
            final String hop = attributes.getOrDefault("next_hop", "").split(" ")[0];
            if (hop.equals(nextHop))
            {
                return Optional.of(new PathAttributes(hop, attributes.getOrDefault("as_path", ""),
                    Long.parseLong(attributes.getOrDefault("med", "-1")),
                    tuples(attributes.getOrDefault("community", "")),
                    tuples(attributes.getOrDefault("large_community", ""))));
            }
        }
        return Optional.empty();
    }

    // "(65000,80) (65000,443)" -> [65000:80, 65000:443]; "(65001, 0, 80)" -> [65001:0:80]
    private static List<String> tuples(final String text)
    {
        final List<String> values = new ArrayList<>();
        final Matcher m = TUPLE.matcher(text);
        while (m.find())
        {
            values.add(m.group(1).replaceAll("\\s*,\\s*", ":"));
        }
        return values;
    }

    /**
     * Returns the router's namespace.
     *
     * @return the namespace.
     */
    @Override
    public Namespace namespace()
    {
        return namespace;
    }

    /**
     * Returns what BIRD logged so far (its standard output and error).
     *
     * @return the log's text, or a note when it cannot be read.
     */
    @Override
    public String logText()
    {
        try
        {
            return Files.readString(log);
        }
        catch (final IOException ex)
        {
            return "(cannot read " + log + ": " + ex + ")";
        }
    }

    /**
     * Stops BIRD: SIGTERM, then SIGKILL after {@link Commands#STOP_GRACE}.
     */
    @Override
    public void stop()
    {
        Commands.stop(process.toHandle(), Commands.STOP_GRACE);
    }

    /**
     * Stops BIRD.
     */
    @Override
    public void close()
    {
        stop();
    }

    /**
     * Parses {@code birdc show protocols}: the lines after the header, split on blanks into five words and the
     * rest (BIRD's default time format prints "since" as one word).
     *
     * @param output the command's output.
     * @return protocol name to its line.
     */
    static Map<String, Protocol> parseProtocols(final String output)
    {
        final Map<String, Protocol> protocols = new LinkedHashMap<>();
        boolean header = false;
        for (final String line : output.split("\n"))
        {
            if (!header)
            {
                header = line.startsWith("Name ");
                continue;
            }
            if (!line.isBlank())
            {
                final String[] fields = line.strip().split("\\s+", 6);
                protocols.put(fields[0], new Protocol(fields[0], field(fields, 1), field(fields, 2), field(fields, 3),
                    field(fields, 4), field(fields, 5)));
            }
        }
        return protocols;
    }

    private static String field(final String[] fields, final int index)
    {
        return index < fields.length ? fields[index] : "";
    }

    private List<String> birdcCommand(final String... command)
    {
        final List<String> line = new ArrayList<>(List.of("birdc", "-s", socket.toString()));
        line.addAll(List.of(command));
        return line;
    }
}
