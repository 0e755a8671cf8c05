package io.sluice.common.config;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a node configuration file and prints a one-screen summary: {@code ConfigCheck [--cores N] FILE}.
 * Exits 0 when the file is valid, 2 with the problem on stderr when it is not, 64 on a usage error.
 */
public final class ConfigCheck
{
    public static final int OK = 0;
    public static final int INVALID = 2;
    public static final int USAGE = 64;

    private static final String USAGE_LINE = "usage: ConfigCheck [--cores N] FILE";
    /** Keeps the summary on one screen; the file itself has the rest. */
    private static final int MAX_VIPS_SHOWN = 20;

    private ConfigCheck()
    {
    }

    /**
     * Runs the check and exits with its status.
     *
     * @param args {@code [--cores N] FILE}.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the check.
     *
     * @param args {@code [--cores N] FILE}; {@code --cores} checks worker cores against N cores instead of this
     *             machine's.
     * @param out  where the summary goes.
     * @param err  where problems go.
     * @return {@link #OK}, {@link #INVALID} or {@link #USAGE}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        int cores = Runtime.getRuntime().availableProcessors();
        int next = 0;
        if (args.length == 3 && "--cores".equals(args[0]))
        {
            try
            {
                cores = Integer.parseInt(args[1]);
            }
            catch (final NumberFormatException ex)
            {
                cores = 0;
            }
            next = 2;
        }
        if (args.length != next + 1 || cores < 1 || args[next].startsWith("-"))
        {
            err.println(USAGE_LINE);
            return USAGE;
        }
        try
        {
            final NodeConfig config = NodeConfig.load(Path.of(args[next]), cores);
            printSummary(config, out);
            return OK;
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return INVALID;
        }
    }

    static void printSummary(final NodeConfig config, final PrintStream out)
    {
        final ForwarderConfig forwarder = config.forwarder();
        int backends = 0;
        for (final VipConfig vip : config.vips())
        {
            backends += vip.backends().size();
        }
        out.printf("node %s: %d port(s), %d worker(s), %d VIP(s) of %d, %d backend(s) of %d%n", config.node().name(),
            forwarder.ports().size(), forwarder.workers().size(), config.vips().size(), forwarder.maxVips(), backends,
            forwarder.maxBackends());
        final List<String> argv = config.ealArgv("sluice-forwarder");
        out.printf("  eal: %s%n", String.join(" ", argv.subList(1, argv.size())));
        out.printf("  own mac %s, next hop %s, tunnel source %s / %s, tunnel mtu %d%n",
            forwarder.ownMacAuto() ? "auto" : forwarder.ownMac().text(), forwarder.nextHopMac().text(),
            address(forwarder.tunnelSourceV4()), address(forwarder.tunnelSourceV6()), forwarder.tunnelMtu());
        final ConnectionTableConfig table = forwarder.connectionTable();
        out.printf("  maglev M=%d seed=0x%x; connections %d per worker, idle tcp %s udp %s other %s%n",
            forwarder.maglevTableSize(), forwarder.hashSeed(), table.capacity(),
            Durations.format(table.tcpIdleTimeoutNs()), Durations.format(table.udpIdleTimeoutNs()),
            Durations.format(table.otherIdleTimeoutNs()));
        out.printf("  %s idle, %d mbufs per worker, shared memory in %s, command ring %d bytes%n",
            forwarder.idleStrategy().yamlName(), forwarder.mbufsPerWorker(), config.nodeDirectory(),
            forwarder.control().ringCapacity());
        out.println("ports:");
        for (final PortConfig port : forwarder.ports())
        {
            out.printf("  %-16s mtu %d, rx ring %d x %d queue(s), tx ring %d x %d queue(s)%n", port.name(), port.mtu(),
                port.rxRing(), forwarder.rxQueueCount(port.name()), port.txRing(),
                forwarder.txQueueCount(port.name()));
        }
        out.println("workers:");
        for (final WorkerConfig worker : forwarder.workers())
        {
            out.printf("  core %-3d rx %s/%d -> tx %s/%d%n", worker.core(), worker.rxPort(), worker.rxQueue(),
                worker.txPort(), worker.txQueue());
        }
        printVips(config.vips(), out);
        printBgp(config.controller().bgp(), out);
    }

    private static void printBgp(final BgpConfig bgp, final PrintStream out)
    {
        if (bgp == null)
        {
            out.println("bgp: none");
            return;
        }
        out.printf("bgp: as %d -> %d, router id %s, med %s, as-path prepend %d%n", bgp.localAs(), bgp.peerAs(),
            IpLiterals.format(bgp.routerId()), bgp.med() == VipRouteConfig.NO_MED ? "-" : Long.toString(bgp.med()),
            bgp.asPathPrepend());
        for (final BgpNeighborConfig session : bgp.sessions())
        {
            out.printf("  neighbor %-39s %s%n", IpLiterals.format(session.address()), session.describe());
        }
    }

    private static void printVips(final List<VipConfig> vips, final PrintStream out)
    {
        out.println("vips:" + (vips.isEmpty() ? " none" : ""));
        for (int i = 0; i < vips.size() && i < MAX_VIPS_SHOWN; i++)
        {
            final VipConfig vip = vips.get(i);
            final String service = IpLiterals.formatForPort(vip.address()) + ":" +
                (vip.port() == VipConfig.ALL_PORTS ? "*" : Integer.toString(vip.port())) + "/" +
                vip.protocol().yamlName();
            out.printf("  %-20s %-28s %d backend(s), %d with weight > 0%n", vip.name(), service,
                vip.backends().size(), vip.activeBackendCount());
        }
        if (vips.size() > MAX_VIPS_SHOWN)
        {
            out.printf("  ... and %d more%n", vips.size() - MAX_VIPS_SHOWN);
        }
    }

    private static String address(final InetAddress address)
    {
        return address == null ? "-" : IpLiterals.format(address);
    }
}
