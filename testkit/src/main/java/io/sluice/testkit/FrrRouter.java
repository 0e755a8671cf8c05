package io.sluice.testkit;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real FRR 8 router ({@code zebra} and {@code bgpd} from Debian's {@code frr}) in a network namespace, for tests:
 * a second router next to {@link BirdRouter}, so Sluice is not tuned to one router's behaviour. FRR refuses to run
 * its daemons as root outside its vty group, so they run as user {@code frr}, in the foreground, with their
 * configuration, pid files, zserv and vty sockets in a directory that user owns; with BFD, {@code bfdd} runs
 * between them the same way. {@link #stop()} ends them all.
 */
public final class FrrRouter implements BgpRouter
{
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final String FRR = "/usr/lib/frr/";

    private final Namespace namespace;
    private final Path directory;
    private final List<Process> processes;

    private FrrRouter(final Namespace namespace, final Path directory, final List<Process> processes)
    {
        this.namespace = namespace;
        this.directory = directory;
        this.processes = processes;
    }

    /**
     * Writes the configuration and starts zebra, then bgpd, in the namespace; returns once bgpd answers vtysh.
     *
     * @param namespace the router's namespace.
     * @param directory where the configuration, sockets, pid files and logs go (made readable to user frr).
     * @param routerId  the router ID, an IPv4 literal.
     * @param localAs   the router's AS number.
     * @param peers     its BGP peers (names unused by FRR; the addresses name the neighbors).
     * @return the running router.
     */
    public static FrrRouter start(
        final Namespace namespace, final Path directory, final String routerId, final long localAs,
        final List<BirdRouter.Peer> peers)
    {
        return start(namespace, directory, routerId, localAs, peers, false);
    }

    /**
     * Starts a router as {@link #start(Namespace, Path, String, long, List)}; with BFD, also {@code bfdd} (between
     * zebra and bgpd, with its own pid file, vty socket and {@code --bfdctl} socket in the directory), and each BGP
     * neighbor tied to a BFD session ({@code neighbor X bfd profile sluice}, 100 ms x 3), which bgpd registers with
     * bfdd through zebra (single hop, from the session's local address on its interface).
     *
     * @param namespace the router's namespace.
     * @param directory where the configuration, sockets, pid files and logs go.
     * @param routerId  the router ID, an IPv4 literal.
     * @param localAs   the router's AS number.
     * @param peers     its BGP peers.
     * @param bfd       whether the sessions use BFD.
     * @return the running router.
     */
    public static FrrRouter start(
        final Namespace namespace, final Path directory, final String routerId, final long localAs,
        final List<BirdRouter.Peer> peers, final boolean bfd)
    {
        final Path config = directory.resolve("frr.conf");
        try
        {
            Files.createDirectories(directory);
            Files.writeString(config, config(routerId, localAs, peers, bfd));
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
            Commands.run(List.of("chown", "-R", "frr:frr", directory.toString())).checked();
            // The test's temporary parent directories must let user frr through.
            for (Path parent = directory.getParent(); parent != null && !parent.equals(Path.of("/tmp"));
                parent = parent.getParent())
            {
                Commands.run(List.of("chmod", "o+x", parent.toString())).checked();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final List<Process> processes = new ArrayList<>();
        final FrrRouter router = new FrrRouter(namespace, directory, processes);
        try
        {
            processes.add(namespace.start(directory.resolve("zebra.out"), daemon("zebra", directory, config)));
            Eventually.await(START_TIMEOUT, () -> Files.exists(directory.resolve("zserv.api")),
                "zebra's zserv socket in " + directory);
            if (bfd)
            {
                final List<String> bfdd = new ArrayList<>(List.of(daemon("bfdd", directory, config)));
                bfdd.add("--bfdctl");
                bfdd.add(directory.resolve("bfdd.sock").toString());
                processes.add(namespace.start(directory.resolve("bfdd.out"), bfdd.toArray(new String[0])));
            }
            final List<String> bgpd = new ArrayList<>(List.of(daemon("bgpd", directory, config)));
            bgpd.add("-p");
            bgpd.add("179");
            processes.add(namespace.start(directory.resolve("bgpd.out"), bgpd.toArray(new String[0])));
            Eventually.await(START_TIMEOUT, () ->
            {
                for (final Process process : processes)
                {
                    if (!process.isAlive())
                    {
                        throw new IllegalStateException("an FRR daemon exited with " + process.exitValue() + ": " +
                            router.logText());
                    }
                }
                return Commands.run(router.vtyshCommand("show bgp summary")).exitCode() == 0;
            }, "bgpd answering vtysh in " + directory);
        }
        catch (final RuntimeException | Error ex)
        {
            router.stop();
            throw ex;
        }
        return router;
    }

    /**
     * Returns the FRR configuration: eBGP to each peer, ECMP over up to 16 paths, every route accepted (FRR 8 needs
     * {@code no bgp ebgp-requires-policy} or an inbound route-map before it accepts any), short timers.
     *
     * @param routerId the router ID.
     * @param localAs  the router's AS number.
     * @param peers    its BGP peers.
     * @return the configuration text.
     */
    public static String config(final String routerId, final long localAs, final List<BirdRouter.Peer> peers)
    {
        return config(routerId, localAs, peers, false);
    }

    /**
     * Returns the configuration of {@link #config(String, long, List)}; with BFD, every neighbor's session tied to
     * BFD profile {@code sluice} (receive and transmit interval 100 ms, detect multiplier 3). Every daemon reads the
     * whole file and skips the other daemons' lines, so the {@code bfd} block comes last and has no {@code exit}
     * lines: in bgpd, which does not know {@code bfd}, those exits would leave the configuration node and bgpd would
     * then refuse every line after them, {@code router bgp} included.
     *
     * @param routerId the router ID.
     * @param localAs  the router's AS number.
     * @param peers    its BGP peers.
     * @param bfd      whether the sessions use BFD.
     * @return the configuration text.
     */
    public static String config(final String routerId, final long localAs, final List<BirdRouter.Peer> peers,
        final boolean bfd)
    {
        final StringBuilder text = new StringBuilder()
            .append("frr defaults traditional\nhostname router\n")
            .append("router bgp ").append(localAs).append('\n')
            .append(" bgp router-id ").append(routerId).append('\n')
            .append(" no bgp ebgp-requires-policy\n")
            .append(" no bgp network import-check\n");
        for (final BirdRouter.Peer peer : peers)
        {
            text.append(" neighbor ").append(peer.address()).append(" remote-as ").append(peer.as()).append('\n')
                .append(" neighbor ").append(peer.address()).append(" timers 3 9\n")
                .append(" neighbor ").append(peer.address()).append(" timers connect 1\n");
            if (bfd)
            {
                text.append(" neighbor ").append(peer.address()).append(" bfd profile sluice\n");
            }
            if (peer.password() != null)
            {
                text.append(" neighbor ").append(peer.address()).append(" password ").append(peer.password())
                    .append('\n');
            }
        }
        for (final String family : List.of("ipv4", "ipv6"))
        {
            text.append(" address-family ").append(family).append(" unicast\n").append("  maximum-paths 16\n");
            for (final BirdRouter.Peer peer : peers)
            {
                final boolean same = peer.address().indexOf(':') >= 0 == family.equals("ipv6");
                text.append(same ? "  neighbor " : "  no neighbor ").append(peer.address()).append(" activate\n");
            }
            text.append(" exit-address-family\n");
        }
        if (bfd)
        {
            text.append("!\nbfd\n profile sluice\n  receive-interval 100\n  transmit-interval 100\n")
                .append("  detect-multiplier 3\n");
        }
        return text.toString();
    }

    /**
     * Returns the state of bfdd's session with a peer, from {@code show bfd peers json}.
     *
     * @param address the peer's address.
     * @return e.g. {@code up}, {@code down}, {@code init}; empty when bfdd has no session with that peer.
     */
    public String bfdState(final String address)
    {
        return parseBfdState(vtysh("show bfd peers json"), address);
    }

    /**
     * Parses {@code show bfd peers json}: a list of sessions, each with {@code peer} and {@code status}.
     *
     * @param json    the command's output.
     * @param address the peer's address.
     * @return that session's status, or empty when there is none.
     */
    static String parseBfdState(final String json, final String address)
    {
        final Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(json);
        if (root instanceof List<?> sessions)
        {
            for (final Object item : sessions)
            {
                if (item instanceof Map<?, ?> session && address.equals(String.valueOf(session.get("peer"))))
                {
                    return String.valueOf(session.get("status"));
                }
            }
        }
        return "";
    }

    /**
     * Runs a vtysh command against this router.
     *
     * @param command e.g. {@code show bgp summary}.
     * @return its output.
     */
    public String vtysh(final String command)
    {
        return Commands.run(vtyshCommand(command)).checked();
    }

    @Override
    public Kind kind()
    {
        return Kind.FRR;
    }

    /**
     * Tells whether the BGP session with a peer is Established.
     *
     * @param address the peer's address.
     * @return true when established.
     */
    @Override
    public boolean established(final String address)
    {
        final String neighbor = vtysh("show bgp neighbors " + address);
        return neighbor.contains("BGP state = Established");
    }

    @Override
    public Optional<PathAttributes> path(final String prefix, final String nextHop)
    {
        final String family = prefix.indexOf(':') >= 0 ? "ipv6" : "ipv4";
        return parsePath(vtysh("show bgp " + family + " unicast " + prefix + " json"), nextHop);
    }

    @Override
    public String state()
    {
        return vtysh("show bgp summary") + vtysh("show bgp ipv4 unicast") + vtysh("show bgp ipv6 unicast");
    }

    /**
     * Parses {@code show bgp ipv4 unicast PREFIX json} (JSON is YAML, so SnakeYAML reads it): {@code paths[]}, each
     * with {@code nexthops[0].ip}, {@code aspath.string}, {@code metric} (the MED, absent without one),
     * {@code community.string} and {@code largeCommunity.string}.
     *
     * @param json    the command's output ({@code {}} when the router has no route to the prefix).
     * @param nextHop the next hop of the path wanted.
     * @return that path's attributes, or empty when no path has that next hop.
     */
    static Optional<PathAttributes> parsePath(final String json, final String nextHop)
    {
        final Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(json);
        if (!(root instanceof Map<?, ?> entry) || !(entry.get("paths") instanceof List<?> paths))
        {
            return Optional.empty();
        }
        for (final Object item : paths)
        {
            final Map<?, ?> path = (Map<?, ?>)item;
            final Object hops = path.get("nexthops");
            final String hop = hops instanceof List<?> list && !list.isEmpty() ?
                String.valueOf(((Map<?, ?>)list.get(0)).get("ip")) : "";
            if (hop.equals(nextHop))
            {
                final Object med = path.containsKey("metric") ? path.get("metric") : path.get("med");
                return Optional.of(new PathAttributes(hop, string(path.get("aspath")),
                    med instanceof Number number ? number.longValue() : -1, words(string(path.get("community"))),
                    words(string(path.get("largeCommunity")))));
            }
        }
        return Optional.empty();
    }

    private static String string(final Object attribute)
    {
        return attribute instanceof Map<?, ?> map && map.get("string") != null ? map.get("string").toString() : "";
    }

    private static List<String> words(final String text)
    {
        return text.isBlank() ? List.of() : List.of(text.strip().split("\\s+"));
    }

    /**
     * Returns the daemons' logs, for failure reports.
     *
     * @return the text of zebra's and bgpd's output.
     */
    @Override
    public String logText()
    {
        final StringBuilder text = new StringBuilder();
        for (final String name : List.of("zebra.out", "bfdd.out", "bfdd.log", "bgpd.out"))
        {
            try
            {
                final Path file = directory.resolve(name);
                text.append("-- ").append(name).append('\n').append(Files.exists(file) ? Files.readString(file) : "");
            }
            catch (final IOException ex)
            {
                text.append("(cannot read ").append(name).append(": ").append(ex).append(")\n");
            }
        }
        return text.toString();
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
     * Stops bgpd, then zebra (SIGTERM, then SIGKILL after the grace time).
     */
    @Override
    public void stop()
    {
        for (int i = processes.size() - 1; i >= 0; i--)
        {
            Commands.stop(processes.get(i).toHandle(), Commands.STOP_GRACE);
        }
        processes.clear();
    }

    @Override
    public void close()
    {
        stop();
    }

    private List<String> vtyshCommand(final String command)
    {
        return namespace.command("vtysh", "--vty_socket", directory.toString(), "-c", command);
    }

    private static String[] daemon(final String name, final Path directory, final Path config)
    {
        return new String[]{FRR + name, "-u", "frr", "-g", "frr", "--vty_socket", directory.toString(),
            "-i", directory.resolve(name + ".pid").toString(), "-z", directory.resolve("zserv.api").toString(),
            "-f", config.toString(), "-A", "127.0.0.1", "-P", "0", "--log", "file:" + directory.resolve(name +
            ".log")};
    }
}
