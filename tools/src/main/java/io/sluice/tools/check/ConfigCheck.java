package io.sluice.tools.check;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ConnectionTableConfig;
import io.sluice.common.config.Durations;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.MachineCpus;
import io.sluice.common.config.NodeCheck;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.NodeResources;
import io.sluice.common.config.NumaLayout;
import io.sluice.common.config.PortConfig;
import io.sluice.common.config.TunnelEntropyConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.VipRouteConfig;
import io.sluice.common.config.WorkerConfig;
import io.sluice.common.config.WorkerCpuLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Checks a node configuration file and prints a one-screen summary: {@code ConfigCheck [--cores N] [--eal] FILE}.
 * Runs the validation the forwarder and the controller run ({@link NodeCheck}: the file, worker cores against this
 * machine's, the memory the forwarder needs against what this machine has). With {@code --cores N} the file is
 * meant for another machine: cores are checked against N cores and memory is not checked. With {@code --eal} (the
 * forwarder's build of this tool, {@code scripts/sluice check-config --eal}) EAL is started with the configured
 * arguments and every port checked against its device.
 * Exits 0 when the file is valid, 2 with the problem on stderr when it is not, 64 on a usage error.
 */
@Command(name = "ConfigCheck", synopsisHeading = "",
    customSynopsis = "usage: ConfigCheck [--cores N] [--eal] FILE",
    description = {"Validates a node config as the forwarder and the controller do (worker cores against this " +
        "machine's, the memory the forwarder needs against what it has) and prints a summary, or FILE: FIELD: " +
        "REASON."},
    footerHeading = "%n", footer = "exit status: 0 valid, 2 invalid (FILE: FIELD: REASON on stderr), 1 DPDK " +
        "cannot be loaded (--eal), 64 a usage error")
public final class ConfigCheck implements Callable<Integer>
{
    public static final int OK = 0;
    public static final int INVALID = 2;
    public static final int USAGE = 64;

    /** Keeps the summary on one screen; the file itself has the rest. */
    private static final int MAX_VIPS_SHOWN = 20;

    /**
     * The part of {@code --eal} that needs DPDK: the forwarder module provides it.
     */
    @FunctionalInterface
    public interface EalCheck
    {
        /**
         * Starts EAL with the config's arguments and checks every port; prints what it found.
         *
         * @param file   the config file, for messages.
         * @param config the valid config.
         * @param out    where the findings go.
         * @throws ConfigException naming the field when a port does not exist or cannot do what is asked.
         */
        void check(String file, NodeConfig config, PrintStream out) throws ConfigException;
    }

    @Spec
    private CommandSpec spec;

    @Option(names = "--cores", paramLabel = "N",
        description = "the file is meant for a machine of N cores: check worker cores against N cores, not this " +
            "machine's, and skip the memory check")
    private Integer cores;

    @Option(names = "--eal", description = "also start EAL with the configured arguments (no workers) and check " +
        "every port against its device (queues, MTU, RSS); the node's forwarder must not be running")
    private boolean eal;

    @Parameters(index = "0", paramLabel = "FILE", description = "the node config, e.g. /etc/sluice/node.yaml")
    private String file;

    private final PrintStream out;
    private final PrintStream err;
    private final EalCheck ealCheck;

    private ConfigCheck(final PrintStream out, final PrintStream err, final EalCheck ealCheck)
    {
        this.out = out;
        this.err = err;
        this.ealCheck = ealCheck;
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
     * Runs the check without EAL ({@code --eal} is refused with a hint).
     *
     * @param args {@code [--cores N] FILE}; {@code --cores} checks worker cores against N cores instead of this
     *             machine's, and skips the memory check.
     * @param out  where the summary goes.
     * @param err  where problems go.
     * @return {@link #OK}, {@link #INVALID} or {@link #USAGE}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return run(args, out, err, null);
    }

    /**
     * Runs the check.
     *
     * @param args     {@code [--cores N] [--eal] FILE}.
     * @param out      where the summary goes.
     * @param err      where problems go.
     * @param ealCheck what {@code --eal} runs; null where DPDK is not at hand.
     * @return {@link #OK}, {@link #INVALID} or {@link #USAGE}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err, final EalCheck ealCheck)
    {
        if (args.length == 0)
        {
            err.println(CommandLines.usageLine(CommandLines.of(new ConfigCheck(out, err, ealCheck), out, err, USAGE)));
            return USAGE;
        }
        return CommandLines.execute(new ConfigCheck(out, err, ealCheck), args, out, err, USAGE);
    }

    @Override
    public Integer call()
    {
        if (cores != null && cores < 1)
        {
            throw CommandLines.usageError(spec, "--cores must be at least 1, got '" + cores + "'");
        }
        final int cores = this.cores == null ? 0 : this.cores;
        if (eal && ealCheck == null)
        {
            err.println("ConfigCheck: --eal starts DPDK: run it as scripts/sluice check-config --eal FILE");
            return USAGE;
        }
        try
        {
            final MachineCpus cpus = cores > 0 ? MachineCpus.ofCores(cores) : MachineCpus.probe();
            final NodeConfig config = NodeCheck.load(Path.of(file), cpus, cores == 0);
            printSummary(config, out);
            printMachine(config, cpus, cores == 0, out);
            if (eal)
            {
                ealCheck.check(file, config, out);
            }
            return OK;
        }
        catch (final ConfigException ex)
        {
            out.flush();
            err.println(ex.getMessage());
            return INVALID;
        }
    }

    // What the checks compared with: the machine's cores and this process's, the memory the forwarder needs.
    private static void printMachine(final NodeConfig config, final MachineCpus cpus, final boolean thisMachine,
        final PrintStream out)
    {
        final String outside = outsideAffinity(config.forwarder(), cpus);
        out.printf("  cpus: %s online, cpuset %s, this process's affinity %s%s%n", cpus.online(), cpus.pinnable(),
            cpus.affinity(), outside.isEmpty() ? "" : "; worker core(s) " + outside + " outside the affinity " +
                "(workers pin there anyway, as with isolcpus)");
        final NodeResources resources = NodeResources.of(config.forwarder());
        final String unchecked = !thisMachine ? " (not checked: --cores)" :
            NodeCheck.forwarderRunning(config) ? " (not checked: the node's forwarder runs and holds its memory)" : "";
        out.printf("  %s%s%n", resources.describe(), unchecked);
        if (thisMachine)
        {
            printNuma(config.forwarder(), NumaLayout.probe(), WorkerCpuLayout.probe(), out);
        }
    }

    /**
     * Prints the NUMA layout the workers were checked against, and a warning per worker whose core is on another
     * node than one of its ports (a warning, not an error: the forwarder runs, only slower).
     *
     * @param forwarder the forwarder section.
     * @param numa      the machine's layout.
     * @param out       where it goes.
     */
    static void printNuma(final ForwarderConfig forwarder, final NumaLayout numa, final PrintStream out)
    {
        printNuma(forwarder, numa, WorkerCpuLayout.UNKNOWN, out);
    }

    /**
     * Prints the NUMA layout and the CPU layout the workers were checked against, a warning per pair of workers on
     * hyperthread siblings, and one per worker whose core is on another node (or socket) than one of its ports.
     *
     * @param forwarder the forwarder section.
     * @param numa      the machine's NUMA layout.
     * @param cpus      the machine's sockets, cores and threads.
     * @param out       where it goes.
     */
    static void printNuma(final ForwarderConfig forwarder, final NumaLayout numa, final WorkerCpuLayout cpus,
        final PrintStream out)
    {
        out.printf("  numa: %d node(s)%s%n", numa.nodeCount(), cpus == WorkerCpuLayout.UNKNOWN ? "" :
            ", " + cpus.describe());
        for (final String warning : cpus.siblingWorkers(forwarder))
        {
            out.println("  warning: " + warning);
        }
        for (final String warning : numa.remoteWorkers(forwarder, numa::nodeOfPort, cpus))
        {
            out.println("  warning: " + warning);
        }
    }

    /**
     * Lists the worker cores outside the CPU affinity a process started with.
     *
     * @param forwarder the forwarder section.
     * @param cpus      the process's CPUs.
     * @return the cores in list form, empty when there are none.
     */
    public static String outsideAffinity(final ForwarderConfig forwarder, final MachineCpus cpus)
    {
        final StringBuilder cores = new StringBuilder();
        for (final WorkerConfig worker : forwarder.workers())
        {
            if (!cpus.affinity().contains(worker.core()))
            {
                cores.append(cores.length() == 0 ? "" : ",").append(worker.core());
            }
        }
        return cores.toString();
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
            forwarder.ownMacAuto() ? "auto" : forwarder.ownMac().text(),
            forwarder.nextHopMac() == null ? "per port" : forwarder.nextHopMac().text(),
            address(forwarder.tunnelSourceV4()), address(forwarder.tunnelSourceV6()), forwarder.tunnelMtu());
        printTunnelOptions(forwarder, out);
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
            out.printf("  %-16s mtu %d, rx ring %d x %d queue(s), tx ring %d x %d queue(s), mbuf data room %d%n",
                port.name(), port.mtu(), port.rxRing(), forwarder.rxQueueCount(port.name()), port.txRing(),
                forwarder.txQueueCount(port.name()), port.frameRoom());
            if (port.nextHopMac() != null)
            {
                out.printf("  %-16s next hop %s%n", "", port.nextHopMac().text());
            }
            if (port.vlan() != 0)
            {
                out.printf("  %-16s encapsulated frames tagged 802.1Q VLAN %d PCP %d%n", "", port.vlan(),
                    port.vlanPcp());
            }
        }
        out.println("workers:");
        for (int w = 0; w < forwarder.workers().size(); w++)
        {
            final WorkerConfig worker = forwarder.workers().get(w);
            final StringBuilder rx = new StringBuilder();
            for (final WorkerConfig.RxQueue queue : worker.rx())
            {
                rx.append(rx.length() == 0 ? "" : ", ").append(queue.port()).append('/').append(queue.queue());
            }
            out.printf("  core %-3d rx %s -> tx %s/%d%n", worker.core(), rx, worker.txPort(), worker.txQueue());
            for (final String port : worker.rx().stream().map(WorkerConfig.RxQueue::port).distinct().toList())
            {
                final int queue = forwarder.returnQueue(w, port);
                if (!port.equals(worker.txPort()) && queue >= 0)
                {
                    out.printf("  %-8s ICMP replies%s -> tx %s/%d%n", "",
                        forwarder.kernelPortOf(port) == null ? "" : " and kernel frames", port, queue);
                }
            }
        }
        printVips(config.vips(), out);
        printBgp(config.controller().bgp(), out);
    }

    // GRE key, per-flow outer source prefixes and the ICMP modes: what the encapsulated frames and replies look like.
    private static void printTunnelOptions(final ForwarderConfig forwarder, final PrintStream out)
    {
        final TunnelEntropyConfig entropy = forwarder.tunnelEntropy();
        out.printf("  tunnel options: GRE key %s, outer source %s%s; icmp echo %s, icmp too big %s%n",
            entropy.greKey() ? "on (flow hash)" : "off",
            entropy.sourcePrefixV4() == null ? "fixed" :
                address(entropy.sourcePrefixV4()) + "/" + entropy.sourcePrefixV4Length(),
            entropy.sourcePrefixV6() == null ? "" :
                ", " + address(entropy.sourcePrefixV6()) + "/" + entropy.sourcePrefixV6Length(),
            forwarder.icmpEcho().reply() ? "reply" : "kernel", forwarder.icmpTooBig().send() ? "send" : "drop");
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
