package io.sluice.forwarder.process;

import io.sluice.common.Vip;
import io.sluice.common.config.PortConfig;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.TunnelOptions;
import io.sluice.forwarder.state.LoadBalancerState;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One forwarder node as a test describes it: written out as the node YAML the process reads, and turned into the
 * same {@link PipelineConfig} and {@link LoadBalancerState} (VIPs and backends added in file order) for an
 * in-process reference pipeline. The reference is built from these values, not from the forwarder's config reader,
 * so a value the forwarder ignores or misreads shows up as a difference.
 * <p>
 * Defaults suit a shared two-core machine: no hugepages, 256 MiB of EAL memory, a yielding idle strategy, small
 * tables, and a node name {@code it-<random>} so parallel runs never share files.
 */
public final class NodeSpec
{
    public static final String DEFAULT_OWN_MAC = "02:5a:00:00:00:01";
    static final String DEFAULT_NEXT_HOP_MAC = "02:5a:00:00:00:fe";

    /**
     * A VIP and its backends, in the order the forwarder adds them.
     */
    record VipSpec(String address, int port, String protocol, List<BackendSpec> backends)
    {
        public Vip vip()
        {
            return new Vip(inet(address), port, protocol.equals("tcp") ? Vip.TCP : Vip.UDP);
        }
    }

    public record BackendSpec(String address, int weight)
    {
    }

    record WorkerSpec(int core, String rxPort, String txPort, List<String> moreRxPorts)
    {
        WorkerSpec(final int core, final String rxPort, final String txPort)
        {
            this(core, rxPort, txPort, List.of());
        }
    }

    private final String name;
    private final Path countersDir;
    private int mbufsPerWorker;
    private final List<String> ealArgs = new ArrayList<>(
        List.of("--no-pci", "--no-huge", "-m", "256", "--no-telemetry", "--log-level=warning"));
    private final List<String> ports = new ArrayList<>();
    private final List<WorkerSpec> workers = new ArrayList<>();
    private final List<VipSpec> vips = new ArrayList<>();
    private String idleStrategy = "yield";
    private boolean echoToKernel;
    private String nextHopMac = DEFAULT_NEXT_HOP_MAC;
    private String tunnelSourceV4 = "172.16.0.1";
    private String tunnelSourceV6 = "fd00:5::1";
    private long hashSeed = 0x5EED_F00DL;
    private int maglevTableSize = 65_537;
    private int tunnelMtu = 1500;
    // 0: the ports' mtu is not written (1500)
    private int portMtu;
    private int maxVips = 16;
    private int maxBackends = 64;
    private long connectionTableCapacity = 1 << 16;
    private TunnelOptions tunnel = TunnelOptions.NONE;

    private NodeSpec(final String name, final Path countersDir)
    {
        this.name = name;
        this.countersDir = countersDir.toAbsolutePath();
    }

    /**
     * Starts a node with a fresh random name whose shared-memory files go under {@code dir/shm}.
     */
    public static NodeSpec create(final Path dir)
    {
        final String name = "it-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFFFFL);
        return new NodeSpec(name, dir.resolve("shm"));
    }

    public NodeSpec vdev(final String vdev)
    {
        ealArgs.add("--vdev=" + vdev);
        return this;
    }

    public NodeSpec ealArg(final String arg)
    {
        ealArgs.add(arg);
        return this;
    }

    /**
     * Sets every port's mtu and the tunnel MTU to it (jumbo frames: the mbufs' data room follows the mtu).
     */
    NodeSpec jumbo(final int mtu)
    {
        portMtu = mtu;
        tunnelMtu = mtu;
        return this;
    }

    /**
     * Returns the mbuf data room of the ports, as the forwarder sizes it from their mtu.
     */
    int frameRoom()
    {
        return new PortConfig("p", portMtu == 0 ? PortConfig.DEFAULT_MTU : portMtu, 64, 64).frameRoom();
    }

    public NodeSpec port(final String portName)
    {
        ports.add(portName);
        return this;
    }

    /**
     * Tells whether the forwarder answers echo requests to VIPs itself: by default it does, on workers that send
     * on their receive port (every worker here, or the reference would not match).
     */
    boolean echoReplies()
    {
        return !echoToKernel && workers.stream().allMatch(worker -> worker.rxPort().equals(worker.txPort()) &&
            worker.moreRxPorts().stream().allMatch(worker.txPort()::equals));
    }

    /**
     * Writes {@code icmp_echo: {mode: kernel}}: echo requests to VIPs are passed, as before the forwarder answered
     * them.
     */
    NodeSpec echoToKernel()
    {
        echoToKernel = true;
        return this;
    }

    public NodeSpec worker(final int core, final String rxPort, final String txPort)
    {
        workers.add(new WorkerSpec(core, rxPort, txPort));
        return this;
    }

    /** A worker polling queue 0 of each of several ports in turn ({@code rx: [{port}, ...]}). */
    NodeSpec workerPolling(final int core, final String txPort, final String... rxPorts)
    {
        workers.add(new WorkerSpec(core, rxPorts[0], txPort, List.of(rxPorts).subList(1, rxPorts.length)));
        return this;
    }

    public NodeSpec vip(final String address, final int port, final String protocol, final BackendSpec... backends)
    {
        vips.add(new VipSpec(address, port, protocol, List.of(backends)));
        return this;
    }

    public static BackendSpec backend(final String address, final int weight)
    {
        return new BackendSpec(address, weight);
    }

    NodeSpec hashSeed(final long seed)
    {
        hashSeed = seed;
        return this;
    }

    NodeSpec maglevTableSize(final int size)
    {
        maglevTableSize = size;
        return this;
    }

    /**
     * Sets the tunnel entropy and, on every port, the VLAN tag (written as forwarder.tunnel_entropy and ports[].vlan).
     */
    NodeSpec tunnelOptions(final TunnelOptions options)
    {
        tunnel = options;
        return this;
    }

    TunnelOptions tunnelOptions()
    {
        return tunnel;
    }

    NodeSpec tunnelMtu(final int mtu)
    {
        tunnelMtu = mtu;
        return this;
    }

    NodeSpec connectionTableCapacity(final long capacity)
    {
        connectionTableCapacity = capacity;
        return this;
    }

    NodeSpec idleStrategy(final String strategy)
    {
        idleStrategy = strategy;
        return this;
    }

    NodeSpec nextHopMac(final String mac)
    {
        nextHopMac = mac;
        return this;
    }

    /**
     * Sets {@code mbufs_per_worker} (left to the forwarder's default otherwise), e.g. for a pcap that net_pcap's
     * {@code infinite_rx} loads into mbufs whole.
     */
    NodeSpec mbufsPerWorker(final int mbufs)
    {
        mbufsPerWorker = mbufs;
        return this;
    }

    /**
     * Replaces the EAL memory size ({@code -m}, 256 MB by default).
     */
    NodeSpec ealMemoryMb(final int megabytes)
    {
        ealArgs.set(ealArgs.indexOf("-m") + 1, Integer.toString(megabytes));
        return this;
    }

    public String name()
    {
        return name;
    }

    /**
     * Returns the DPDK file prefix the forwarder derives from the node name.
     */
    public String filePrefix()
    {
        return "sluice-" + name;
    }

    public Path countersDir()
    {
        return countersDir;
    }

    Path nodeDirectory()
    {
        return countersDir.resolve(name);
    }

    List<VipSpec> vips()
    {
        return vips;
    }

    int workerCount()
    {
        return workers.size();
    }

    long hashSeed()
    {
        return hashSeed;
    }

    /**
     * Returns the node YAML; {@code extraForwarderLines} are appended to the forwarder section as they are
     * (for deliberately bad configs).
     */
    public String toYaml(final String... extraForwarderLines)
    {
        final StringBuilder yaml = new StringBuilder();
        yaml.append("node:\n  name: ").append(name).append('\n');
        yaml.append("forwarder:\n  eal_args: [");
        for (int i = 0; i < ealArgs.size(); i++)
        {
            yaml.append(i == 0 ? "" : ", ").append(quote(ealArgs.get(i)));
        }
        yaml.append("]\n  ports:\n");
        ports.forEach(port -> yaml.append("    - name: ").append(port).append('\n')
            .append(portMtu == 0 ? "" : "      mtu: " + portMtu + "\n")
            .append(tunnel.vlan() == 0 ? "" : "      vlan: " + tunnel.vlan() + "\n"));
        yaml.append("  workers:\n");
        for (final WorkerSpec worker : workers)
        {
            yaml.append("    - core: ").append(worker.core()).append('\n');
            if (worker.moreRxPorts().isEmpty())
            {
                yaml.append("      rx_port: ").append(worker.rxPort()).append('\n');
            }
            else
            {
                yaml.append("      rx: [{port: ").append(worker.rxPort()).append('}');
                worker.moreRxPorts().forEach(port -> yaml.append(", {port: ").append(port).append('}'));
                yaml.append("]\n");
            }
            yaml.append("      tx_port: ").append(worker.txPort()).append('\n');
        }
        yaml.append("  idle_strategy: ").append(idleStrategy).append('\n')
            .append("  counters_dir: ").append(quote(countersDir.toString())).append('\n')
            .append("  own_mac: ").append(quote(DEFAULT_OWN_MAC)).append('\n')
            .append("  next_hop_mac: ").append(quote(nextHopMac)).append('\n')
            .append("  tunnel_source_v4: ").append(tunnelSourceV4).append('\n')
            .append("  tunnel_source_v6: ").append(quote(tunnelSourceV6)).append('\n')
            .append("  hash_seed: ").append(hashSeed).append('\n')
            .append("  maglev_table_size: ").append(maglevTableSize).append('\n')
            .append("  tunnel_mtu: ").append(tunnelMtu).append('\n')
            .append("  max_vips: ").append(maxVips).append('\n')
            .append("  max_backends: ").append(maxBackends).append('\n')
            .append("  connection_table:\n    capacity: ").append(connectionTableCapacity).append('\n');
        if (mbufsPerWorker > 0)
        {
            yaml.append("  mbufs_per_worker: ").append(mbufsPerWorker).append('\n');
        }
        if (tunnel.greKey() || tunnel.sourcePrefixV4() != null || tunnel.sourcePrefixV6() != null)
        {
            yaml.append("  tunnel_entropy:\n    gre_key: ").append(tunnel.greKey()).append('\n');
            if (tunnel.sourcePrefixV4() != null)
            {
                yaml.append("    source_prefix_v4: ").append(tunnel.sourcePrefixV4().getHostAddress()).append('/')
                    .append(tunnel.sourcePrefixV4Length()).append('\n');
            }
            if (tunnel.sourcePrefixV6() != null)
            {
                yaml.append("    source_prefix_v6: \"").append(tunnel.sourcePrefixV6().getHostAddress()).append('/')
                    .append(tunnel.sourcePrefixV6Length()).append("\"\n");
            }
        }
        if (echoToKernel)
        {
            yaml.append("  icmp_echo: {mode: kernel}\n");
        }
        for (final String line : extraForwarderLines)
        {
            yaml.append("  ").append(line).append('\n');
        }
        yaml.append("vips:\n");
        for (final VipSpec vip : vips)
        {
            yaml.append("  - address: ").append(quote(vip.address())).append('\n')
                .append("    port: ").append(vip.port()).append('\n')
                .append("    protocol: ").append(vip.protocol()).append('\n')
                .append("    backends:").append(vip.backends().isEmpty() ? " []\n" : "\n");
            for (final BackendSpec backend : vip.backends())
            {
                yaml.append("      - address: ").append(quote(backend.address())).append('\n')
                    .append("        weight: ").append(backend.weight()).append('\n');
            }
        }
        return yaml.toString();
    }

    /**
     * Returns the pipeline settings the forwarder should derive from this node.
     */
    PipelineConfig pipelineConfig()
    {
        return new PipelineConfig(mac(DEFAULT_OWN_MAC), mac(nextHopMac), (Inet4Address)inet(tunnelSourceV4),
            (Inet6Address)inet(tunnelSourceV6), hashSeed, maglevTableSize, Math.toIntExact(connectionTableCapacity),
            TimeUnit.SECONDS.toNanos(300), TimeUnit.SECONDS.toNanos(60), TimeUnit.SECONDS.toNanos(30), tunnelMtu,
            maxVips, maxBackends);
    }

    /**
     * Returns the forwarding state the forwarder starts with: every VIP, then its backends (healthy, configured
     * weight), in file order, so VIP indexes and backend slots match the forwarder's.
     */
    LoadBalancerState newState()
    {
        final LoadBalancerState state = new LoadBalancerState(maxVips, maxBackends, maglevTableSize, hashSeed);
        for (final VipSpec vip : vips)
        {
            state.addVip(vip.vip());
            for (final BackendSpec backend : vip.backends())
            {
                state.addBackend(vip.vip(), inet(backend.address()), backend.weight(), true);
            }
        }
        return state;
    }

    static InetAddress inet(final String literal)
    {
        try
        {
            return InetAddress.getByName(literal);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(literal, ex);
        }
    }

    public static long mac(final String text)
    {
        long value = 0;
        for (final String part : text.split(":"))
        {
            value = (value << 8) | Integer.parseInt(part, 16);
        }
        return value;
    }

    private static String quote(final String text)
    {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    @Override
    public String toString()
    {
        return String.format(Locale.ROOT, "node %s (%d workers, %d VIPs)", name, workers.size(), vips.size());
    }
}
