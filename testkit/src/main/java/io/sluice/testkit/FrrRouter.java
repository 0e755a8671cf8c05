package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real FRR 8 router ({@code zebra} and {@code bgpd} from Debian's {@code frr}) in a network namespace, for tests:
 * a second router next to {@link BirdRouter}, so Sluice is not tuned to one router's behaviour. FRR refuses to run
 * its daemons as root outside its vty group, so both run as user {@code frr}, in the foreground, with their
 * configuration, pid files, zserv and vty sockets in a directory that user owns. {@link #stop()} ends both.
 */
public final class FrrRouter implements AutoCloseable
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
        final Path config = directory.resolve("frr.conf");
        try
        {
            Files.createDirectories(directory);
            Files.writeString(config, config(routerId, localAs, peers));
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
        return text.toString();
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

    /**
     * Tells whether the BGP session with a peer is Established.
     *
     * @param address the peer's address.
     * @return true when established.
     */
    public boolean established(final String address)
    {
        final String neighbor = vtysh("show bgp neighbors " + address);
        return neighbor.contains("BGP state = Established");
    }

    /**
     * Returns the daemons' logs, for failure reports.
     *
     * @return the text of zebra's and bgpd's output.
     */
    public String logText()
    {
        final StringBuilder text = new StringBuilder();
        for (final String name : List.of("zebra.out", "bgpd.out"))
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
    public Namespace namespace()
    {
        return namespace;
    }

    /**
     * Stops bgpd, then zebra (SIGTERM, then SIGKILL after the grace time).
     */
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
