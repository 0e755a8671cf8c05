package io.sluice.tools.check;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.PortConfig;
import io.sluice.common.config.WorkerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * What a node's configuration asks of its host, as {@code key=value} lines for {@code scripts/sluice host-setup}:
 * {@code HostFacts [--cores N] FILE}. The config is read by {@link NodeConfig}, so a bad file is reported as
 * {@code FILE: FIELD: REASON} with exit status 2, as {@link ConfigCheck} does.
 * <p>
 * Memory: each port gets one mbuf pool of {@code mbufs_per_worker} x its receive queues (the forwarder's start-up),
 * each mbuf taking {@link #MBUF_BYTES} of DPDK memory (hugetlbfs pages); EAL itself takes {@link #EAL_OVERHEAD_BYTES}
 * more per NUMA node it uses. The connection tables are Java off-heap memory advised to transparent huge pages
 * ({@code HugePageMemory}), not hugetlbfs: they need THP set to {@code always} or {@code madvise}.
 */
@Command(name = "HostFacts", synopsisHeading = "", customSynopsis = "usage: HostFacts [--cores N] FILE",
    description = {"What the node config asks of this host (cores, PCI ports, pool and table sizes) as " +
        "key=value lines, for scripts/sluice host-setup."},
    footerHeading = "%n", footer = "exit status: 0, 2 a bad config (FILE: FIELD: REASON on stderr), 64 a usage error")
public final class HostFacts implements Callable<Integer>
{
    /**
     * DPDK memory per mbuf: the 2,176-byte data room (2,048 + 128 headroom), the 128-byte {@code rte_mbuf}, the
     * mempool object header and trailer, rounded up to whole cache lines with some margin.
     */
    public static final long MBUF_BYTES = 2_560;
    /** EAL's own memory (memzones, rings, per-lcore caches, the tailqs) per NUMA node, an upper estimate. */
    public static final long EAL_OVERHEAD_BYTES = 64L << 20;
    /** Bytes per connection-table entry. */
    public static final long CONNECTION_ENTRY_BYTES = 64;

    /** A PCI address as DPDK names a PCI port: domain optional. */
    private static final Pattern PCI_ADDRESS =
        Pattern.compile("([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    @Spec
    private CommandSpec spec;

    @Option(names = "--cores", paramLabel = "N",
        description = "check worker cores against N cores, the host's (default: the cores this JVM sees)")
    private Integer cores;

    @Parameters(index = "0", paramLabel = "FILE", description = "the node config")
    private Path file;

    private final PrintStream out;
    private final PrintStream err;

    private HostFacts(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * Prints the facts and exits with {@link ConfigCheck}'s statuses.
     *
     * @param args {@code [--cores N] FILE}.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Prints the facts.
     *
     * @param args {@code [--cores N] FILE}; {@code --cores} checks worker cores against N cores (the host's, which
     *             may not be this JVM's).
     * @param out  where the facts go.
     * @param err  where problems go.
     * @return {@link ConfigCheck#OK}, {@link ConfigCheck#INVALID} or {@link ConfigCheck#USAGE}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return CommandLines.execute(new HostFacts(out, err), args, out, err, ConfigCheck.USAGE);
    }

    @Override
    public Integer call()
    {
        final int cores = this.cores == null ? Runtime.getRuntime().availableProcessors() : this.cores;
        if (cores < 1)
        {
            throw CommandLines.usageError(spec, "--cores must be at least 1, got '" + cores + "'");
        }
        try
        {
            facts(NodeConfig.load(file, cores)).forEach((key, value) -> out.println(key + "=" + value));
            return ConfigCheck.OK;
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return ConfigCheck.INVALID;
        }
    }

    /**
     * Derives the facts.
     *
     * @param config the node's configuration.
     * @return keys in a fixed order; lists are blank-separated, sizes in bytes.
     */
    public static Map<String, String> facts(final NodeConfig config)
    {
        final ForwarderConfig forwarder = config.forwarder();
        final Map<String, String> facts = new LinkedHashMap<>();
        facts.put("node", config.node().name());
        final List<String> cores = new ArrayList<>();
        for (final WorkerConfig worker : forwarder.workers())
        {
            cores.add(Integer.toString(worker.core()));
        }
        facts.put("worker_cores", String.join(" ", cores));
        facts.put("idle_strategy", forwarder.idleStrategy().yamlName());
        final List<String> pciPorts = new ArrayList<>();
        final List<String> pools = new ArrayList<>();
        long poolBytes = 0;
        for (final PortConfig port : forwarder.ports())
        {
            if (isPciAddress(port.name()))
            {
                pciPorts.add(port.name());
            }
            final long bytes = (long)forwarder.mbufsPerWorker() * Math.max(1, forwarder.rxQueueCount(port.name())) *
                (MBUF_BYTES - PortConfig.STANDARD_FRAME_ROOM + port.frameRoom());
            pools.add(port.name() + ":" + bytes);
            poolBytes += bytes;
        }
        facts.put("pci_ports", String.join(" ", pciPorts));
        facts.put("pools", String.join(" ", pools));
        facts.put("pool_bytes", Long.toString(poolBytes));
        facts.put("eal_overhead_bytes", Long.toString(EAL_OVERHEAD_BYTES));
        final List<String> eal = forwarder.ealArgs();
        facts.put("no_huge", Boolean.toString(eal.contains("--no-huge")));
        facts.put("eal_memory_bytes", Long.toString(ealMemoryBytes(eal)));
        facts.put("main_lcore", Integer.toString(mainLcore(eal)));
        facts.put("connection_table_bytes", Long.toString(
            forwarder.workers().size() * (long)forwarder.connectionTable().capacity() * CONNECTION_ENTRY_BYTES));
        facts.put("counters_dir", forwarder.countersDir().toString());
        facts.put("state_dir", config.stateDirectory().toString());
        return facts;
    }

    /**
     * Tells whether a port name is a PCI address ({@code 0000:3b:00.0} or {@code 3b:00.0}), as DPDK names a PCI port.
     *
     * @param name a port name.
     * @return true for a PCI address.
     */
    public static boolean isPciAddress(final String name)
    {
        return PCI_ADDRESS.matcher(name).matches();
    }

    /** {@code -m MB} or {@code --socket-mem=A,B}: the memory EAL is told to take, 0 when it is not told. */
    static long ealMemoryBytes(final List<String> eal)
    {
        for (int i = 0; i < eal.size(); i++)
        {
            final String arg = eal.get(i);
            final String value;
            if (arg.equals("-m") || arg.equals("--socket-mem"))
            {
                value = i + 1 < eal.size() ? eal.get(i + 1) : "";
            }
            else if (arg.startsWith("--socket-mem="))
            {
                value = arg.substring("--socket-mem=".length());
            }
            else
            {
                continue;
            }
            long megabytes = 0;
            for (final String part : value.split(","))
            {
                try
                {
                    megabytes += Long.parseLong(part.strip());
                }
                catch (final NumberFormatException ex)
                {
                    return 0;
                }
            }
            return megabytes << 20;
        }
        return 0;
    }

    /** The first core of {@code -l}/{@code --lcores}, the core EAL's main thread runs on; 0 as the forwarder adds. */
    static int mainLcore(final List<String> eal)
    {
        for (int i = 0; i < eal.size(); i++)
        {
            final String arg = eal.get(i);
            String list = null;
            if ((arg.equals("-l") || arg.equals("--lcores")) && i + 1 < eal.size())
            {
                list = eal.get(i + 1);
            }
            else if (arg.startsWith("--lcores="))
            {
                list = arg.substring("--lcores=".length());
            }
            else if (arg.startsWith("-l") && arg.length() > 2 && !arg.startsWith("--"))
            {
                list = arg.substring(2);
            }
            if (list != null)
            {
                int end = 0;
                while (end < list.length() && Character.isDigit(list.charAt(end)))
                {
                    end++;
                }
                return end == 0 ? 0 : Integer.parseInt(list.substring(0, end));
            }
        }
        return 0;
    }
}
