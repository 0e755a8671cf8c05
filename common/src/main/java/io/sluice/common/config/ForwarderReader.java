package io.sluice.common.config;

import io.sluice.common.control.ControlFileDescriptor;
import io.sluice.common.counters.CountersFileHeader;


import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code forwarder} section.
 */
final class ForwarderReader
{
    static final String[] KEYS = {
        "eal_args", "ports", "workers", "mbufs_per_worker", "idle_strategy", "counters_dir", "own_mac",
        "next_hop_mac", "tunnel_source_v4", "tunnel_source_v6", "hash_seed", "maglev_table_size", "tunnel_mtu",
        "max_vips", "max_backends", "connection_table", "control", "icmp_echo", "icmp_too_big",
        TunnelEntropyReader.KEY};

    private static final String[] PORT_KEYS =
        {"name", "mtu", "rx_ring", "tx_ring", "kernel_port", "next_hop_mac", "vlan", "vlan_pcp"};

    /** What DPDK device names look like (net_pcap0, 0000:3b:00.0); RTE_ETH_NAME_MAX_LEN is 64 with the NUL. */
    private static final Pattern DEVICE_NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,63}");

    private ForwarderReader()
    {
    }

    static ForwarderConfig read(final MapReader forwarder, final MachineCpus cpus) throws ConfigException
    {
        final List<String> ealArgs = forwarder.requiredStringList("eal_args");
        final List<MapReader> portEntries = forwarder.mapList("ports", true, 1, PORT_KEYS);
        final List<PortConfig> ports = readPorts(portEntries, EalArguments.parse(ealArgs));
        final List<WorkerConfig> workers = WorkersReader.read(forwarder, ports, cpus);
        checkKernelPorts(portEntries, ports, workers);
        checkVlans(portEntries, ports, workers);
        final int mbufs = forwarder.optionalInt("mbufs_per_worker", ForwarderConfig.DEFAULT_MBUFS_PER_WORKER,
            ForwarderConfig.MIN_MBUFS_PER_WORKER, Integer.MAX_VALUE);
        checkMbufsCoverRings(forwarder, mbufs, ports, workers);
        final IdleStrategyKind idleStrategy = readIdleStrategy(forwarder);
        final Path countersDir = readCountersDir(forwarder);
        final String ownMacText = forwarder.optionalString("own_mac", "auto");
        final MacAddress ownMac =
            "auto".equals(ownMacText) ? null : ConfigValues.unicastMac(forwarder, "own_mac", ownMacText);
        final MacAddress nextHopMac = readNextHopMac(forwarder, ports, workers);
        final Inet4Address tunnelSourceV4 =
            forwarder.has("tunnel_source_v4") ? ConfigValues.ipv4(forwarder, "tunnel_source_v4") : null;
        final Inet6Address tunnelSourceV6 =
            forwarder.has("tunnel_source_v6") ? ConfigValues.ipv6(forwarder, "tunnel_source_v6") : null;
        if (tunnelSourceV4 == null && tunnelSourceV6 == null)
        {
            throw forwarder.error("tunnel_source_v4", "required key is missing: set tunnel_source_v4, " +
                "tunnel_source_v6 or both (the outer source address of GRE packets to backends of that family)");
        }
        final long hashSeed = readHashSeed(forwarder);
        final int maglevTableSize = readMaglevTableSize(forwarder);
        final int tunnelMtu = readTunnelMtu(forwarder, ports, workers);
        final int maxVips =
            forwarder.optionalInt("max_vips", ForwarderConfig.DEFAULT_MAX_VIPS, 1, ForwarderConfig.MAX_MAX_VIPS);
        final int maxBackends = forwarder.optionalInt(
            "max_backends", ForwarderConfig.DEFAULT_MAX_BACKENDS, 1, ForwarderConfig.MAX_MAX_BACKENDS);
        final ForwarderConfig config = new ForwarderConfig(ealArgs, ports, workers, mbufs, idleStrategy, countersDir,
            ownMac, nextHopMac, tunnelSourceV4, tunnelSourceV6, hashSeed, maglevTableSize, tunnelMtu, maxVips,
            maxBackends, readConnectionTable(forwarder), readControl(forwarder), readIcmpEcho(forwarder),
            readIcmpTooBig(forwarder), TunnelEntropyReader.read(forwarder, tunnelSourceV4, tunnelSourceV6));
        checkSharedFilesFit(forwarder, config);
        return config;
    }

    /**
     * The forwarder's {@code next_hop_mac} is the default of every port: it may be left out only when each port a
     * worker transmits on names its own.
     */
    private static MacAddress readNextHopMac(final MapReader forwarder, final List<PortConfig> ports,
        final List<WorkerConfig> workers) throws ConfigException
    {
        if (forwarder.has("next_hop_mac"))
        {
            return ConfigValues.unicastMac(forwarder, "next_hop_mac");
        }
        for (final WorkerConfig worker : workers)
        {
            if (find(ports, worker.txPort()).nextHopMac() == null)
            {
                throw forwarder.error("next_hop_mac", "required key is missing: port " + worker.txPort() +
                    " transmits and has no next_hop_mac of its own (set next_hop_mac here as the default of " +
                    "every port, or under each port that workers transmit on)");
            }
        }
        return null;
    }

    /**
     * The counters file and the control channel's response buffer are sized from the capacities; both have a
     * largest size (one mapping each), so the capacities the reader accepts must stay within them.
     */
    private static void checkSharedFilesFit(final MapReader forwarder, final ForwarderConfig config)
        throws ConfigException
    {
        final String key = forwarder.has("max_backends") || !forwarder.has("max_vips") ? "max_backends" : "max_vips";
        if (config.maxCounters() > CountersFileHeader.MAX_COUNTERS)
        {
            throw forwarder.error(key, config.workers().size() + " worker(s) with max_vips " + config.maxVips() +
                " and max_backends " + config.maxBackends() + " need " + config.maxCounters() + " counters, more " +
                "than the counters file holds (" + CountersFileHeader.MAX_COUNTERS + "; each worker counts 2 per VIP " +
                "and backend slot): lower max_backends or max_vips");
        }
        if (config.responseCapacity() > ControlFileDescriptor.MAX_CAPACITY)
        {
            throw forwarder.error("max_backends", config.maxBackends() + " backends need a control response buffer " +
                "of " + config.responseCapacity() + " bytes (512 a backend), more than its largest, " +
                ControlFileDescriptor.MAX_CAPACITY + ": use at most " + ControlFileDescriptor.MAX_CAPACITY / 512);
        }
    }

    private static List<PortConfig> readPorts(final List<MapReader> entries, final EalArguments eal)
        throws ConfigException
    {
        final List<PortConfig> ports = new ArrayList<>(entries.size());
        final Map<String, String> pathByName = new HashMap<>();
        for (final MapReader entry : entries)
        {
            final String name = entry.requiredString("name");
            if (!DEVICE_NAME.matcher(name).matches())
            {
                throw entry.error("name", "\"" + name + "\" is not a DPDK device name " +
                    "(1 to 63 of A-Z a-z 0-9 _ . : -, e.g. net_pcap0 or 0000:3b:00.0)");
            }
            checkDeviceCreated(entry, name, eal);
            final String other = pathByName.putIfAbsent(name, entry.path());
            if (other != null)
            {
                throw entry.error("name", "duplicate port name \"" + name + "\" (also " + other + ")");
            }
            final int mtu = entry.optionalInt("mtu", PortConfig.DEFAULT_MTU, PortConfig.MIN_MTU, PortConfig.MAX_MTU);
            final int rxRing = ConfigValues.powerOfTwo(entry, "rx_ring", PortConfig.DEFAULT_RING_SIZE,
                PortConfig.MIN_RING_SIZE, PortConfig.MAX_RING_SIZE);
            final int txRing = ConfigValues.powerOfTwo(entry, "tx_ring", PortConfig.DEFAULT_RING_SIZE,
                PortConfig.MIN_RING_SIZE, PortConfig.MAX_RING_SIZE);
            final String kernelPort = entry.has("kernel_port") ? entry.requiredString("kernel_port") : null;
            final MacAddress nextHopMac =
                entry.has("next_hop_mac") ? ConfigValues.unicastMac(entry, "next_hop_mac") : null;
            final int vlan = entry.optionalInt("vlan", 0, 1, PortConfig.MAX_VLAN);
            final int vlanPcp = entry.optionalInt("vlan_pcp", 0, 0, PortConfig.MAX_VLAN_PCP);
            if (vlanPcp != 0 && vlan == 0)
            {
                throw entry.error("vlan_pcp", "a priority travels in the 802.1Q tag, and " + name + " sends " +
                    "untagged frames: set vlan too");
            }
            ports.add(new PortConfig(name, mtu, rxRing, txRing, kernelPort, nextHopMac, vlan, vlanPcp));
        }
        return ports;
    }

    /**
     * What can be told without starting EAL: a virtual device's port exists only if a {@code --vdev} creates it, and
     * a PCI device's only if EAL probes it. Other names (other buses, representors) are left to EAL
     * ({@code check-config --eal}, or the forwarder at start).
     */
    private static void checkDeviceCreated(final MapReader entry, final String name, final EalArguments eal)
        throws ConfigException
    {
        if (eal.vdevs().contains(name))
        {
            return;
        }
        if (EalArguments.isVirtualDeviceName(name))
        {
            throw entry.error("name", "no --vdev in forwarder.eal_args creates \"" + name + "\" (" +
                (eal.vdevs().isEmpty() ? "it has none" : "it creates " + String.join(", ", eal.vdevs())) +
                "): add --vdev=" + name + ",... to eal_args or correct the name");
        }
        if (EalArguments.isShortPciAddress(name))
        {
            throw entry.error("name", "DPDK names PCI ports with the domain: write \"0000:" + name + "\"");
        }
        if (EalArguments.isPciAddress(name))
        {
            final String why = eal.whyNotProbed(name);
            if (why != null)
            {
                throw entry.error("name", "PCI device " + name + " would not be a port: " + why);
            }
        }
    }

    /**
     * A kernel port is another configured port that no worker polls or transmits on, serving one data port.
     */
    private static void checkKernelPorts(final List<MapReader> entries, final List<PortConfig> ports,
        final List<WorkerConfig> workers) throws ConfigException
    {
        final Map<String, String> servedBy = new HashMap<>();
        for (int i = 0; i < ports.size(); i++)
        {
            final PortConfig port = ports.get(i);
            if (!port.hasKernelPort())
            {
                continue;
            }
            final MapReader entry = entries.get(i);
            final String kernel = port.kernelPort();
            final PortConfig target = ports.stream().filter(p -> p.name().equals(kernel)).findFirst().orElse(null);
            if (target == null)
            {
                throw entry.error("kernel_port", "no port named \"" + kernel + "\" (list the kernel's port, e.g. " +
                    "net_tap0 with --vdev=net_tap0,iface=sl0 in eal_args, under ports too)");
            }
            if (kernel.equals(port.name()))
            {
                throw entry.error("kernel_port", "a port cannot be its own kernel port");
            }
            if (target.hasKernelPort())
            {
                throw entry.error("kernel_port", "\"" + kernel + "\" has a kernel port of its own");
            }
            final String other = servedBy.putIfAbsent(kernel, port.name());
            if (other != null)
            {
                throw entry.error("kernel_port", "\"" + kernel + "\" is already the kernel port of " + other);
            }
            if (!isPolled(workers, port.name()))
            {
                throw entry.error("kernel_port", "no worker receives on " + port.name() + ", so nothing would use " +
                    "its kernel port");
            }
            for (final WorkerConfig worker : workers)
            {
                if (worker.receivesFrom(kernel) || worker.txPort().equals(kernel))
                {
                    throw entry.error("kernel_port", "\"" + kernel + "\" is a worker's rx_port or tx_port; a " +
                        "kernel port is served by the workers of " + port.name() + " only");
                }
            }
        }
    }

    /**
     * A port's VLAN tag is written into the frames the workers encapsulate and send on it; a kernel port's frames
     * are the kernel's own, which it tags itself (a VLAN device on the tap).
     */
    private static void checkVlans(final List<MapReader> entries, final List<PortConfig> ports,
        final List<WorkerConfig> workers) throws ConfigException
    {
        for (int i = 0; i < ports.size(); i++)
        {
            final PortConfig port = ports.get(i);
            if (port.vlan() == 0)
            {
                continue;
            }
            final String name = port.name();
            if (ports.stream().anyMatch(p -> name.equals(p.kernelPort())))
            {
                throw entries.get(i).error("vlan", name + " is a kernel port: the kernel tags its own frames (a VLAN " +
                    "device on its side of the tap); set vlan on the data port");
            }
            if (workers.stream().noneMatch(w -> w.txPort().equals(name)))
            {
                throw entries.get(i).error("vlan", "no worker transmits on " + name + ", so its tag would never be " +
                    "written: set vlan on the workers' tx_port");
            }
        }
    }

    private static boolean isPolled(final List<WorkerConfig> workers, final String port)
    {
        for (final WorkerConfig worker : workers)
        {
            if (worker.receivesFrom(port))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A worker's pool fills its receive ring at start and holds its transmit ring's frames in flight; a smaller
     * pool fails queue setup or starves the receive ring under load.
     */
    private static void checkMbufsCoverRings(final MapReader forwarder, final int mbufs, final List<PortConfig> ports,
        final List<WorkerConfig> workers) throws ConfigException
    {
        for (int i = 0; i < workers.size(); i++)
        {
            final WorkerConfig worker = workers.get(i);
            for (final WorkerConfig.RxQueue rx : worker.rx())
            {
                final int rxRing = find(ports, rx.port()).rxRing();
                final int txRing = find(ports, worker.txPort()).txRing();
                if (mbufs < rxRing + txRing)
                {
                    throw forwarder.error("mbufs_per_worker", mbufs + " buffers cannot fill the receive ring (" +
                        rxRing + " on " + rx.port() + ") plus the transmit ring (" + txRing + " on " +
                        worker.txPort() + ") of " + forwarder.pathOf("workers") + "[" + i + "]: use at least " +
                        (rxRing + txRing) + " (DPDK pools are best sized 2^n - 1, e.g. " +
                        ((Integer.highestOneBit(rxRing + txRing) << 1) - 1) + ")");
                }
            }
        }
    }

    private static PortConfig find(final List<PortConfig> ports, final String name)
    {
        for (final PortConfig port : ports)
        {
            if (port.name().equals(name))
            {
                return port;
            }
        }
        throw new IllegalStateException("worker port " + name + " was checked against the ports");
    }

    private static IdleStrategyKind readIdleStrategy(final MapReader forwarder) throws ConfigException
    {
        final String name =
            forwarder.optionalString("idle_strategy", ForwarderConfig.DEFAULT_IDLE_STRATEGY.yamlName());
        final IdleStrategyKind kind = IdleStrategyKind.fromYamlName(name);
        if (kind == null)
        {
            throw forwarder.error("idle_strategy", "expected busy-spin, backoff or yield; got \"" + name + "\"");
        }
        return kind;
    }

    private static Path readCountersDir(final MapReader forwarder) throws ConfigException
    {
        if (!forwarder.has("counters_dir"))
        {
            return ForwarderConfig.DEFAULT_COUNTERS_DIR;
        }
        return absoluteDirectory(forwarder, "counters_dir", "the forwarder and the controller may start in different " +
            "directories");
    }

    /**
     * Reads a directory that must be an absolute path; {@code why} says why in the error.
     */
    static Path absoluteDirectory(final MapReader reader, final String key, final String why) throws ConfigException
    {
        final String text = reader.requiredString(key);
        final Path dir;
        try
        {
            dir = Path.of(text);
        }
        catch (final InvalidPathException ex)
        {
            throw reader.error(key, "\"" + text + "\" is not a path: " + ex.getReason());
        }
        if (!dir.isAbsolute())
        {
            throw reader.error(key, "\"" + text + "\" must be an absolute path (" + why + ")");
        }
        return dir.normalize();
    }

    /** Decimal numbers are signed; 0x numbers up to 0xffffffffffffffff are unsigned bit patterns. */
    private static long readHashSeed(final MapReader forwarder) throws ConfigException
    {
        final Object value = forwarder.get("hash_seed");
        if (value == null)
        {
            return ForwarderConfig.DEFAULT_HASH_SEED;
        }
        if (value instanceof BigInteger big && big.signum() > 0 && big.bitLength() <= 64)
        {
            return big.longValue();
        }
        if (value instanceof BigInteger)
        {
            throw forwarder.error("hash_seed", "must fit 64 bits (-2^63..2^63-1, or 0x0..0xffffffffffffffff), got " +
                value);
        }
        return forwarder.integer("hash_seed", value, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static int readMaglevTableSize(final MapReader forwarder) throws ConfigException
    {
        final int size = forwarder.optionalInt("maglev_table_size", ForwarderConfig.DEFAULT_MAGLEV_TABLE_SIZE,
            Integer.MIN_VALUE, Integer.MAX_VALUE);
        final String problem = MaglevTableSize.check(size);
        if (problem != null)
        {
            throw forwarder.error("maglev_table_size", problem);
        }
        return size;
    }

    private static ConnectionTableConfig readConnectionTable(final MapReader forwarder) throws ConfigException
    {
        final MapReader table = forwarder.optionalMap(
            "connection_table", "capacity", "tcp_idle_timeout", "udp_idle_timeout", "other_idle_timeout");
        return new ConnectionTableConfig(
            ConfigValues.powerOfTwo(table, "capacity", ConnectionTableConfig.DEFAULT_CAPACITY,
                ConnectionTableConfig.MIN_CAPACITY, 1 << 30),
            table.optionalDurationNanos("tcp_idle_timeout", ConnectionTableConfig.DEFAULT_TCP_IDLE_TIMEOUT_NS),
            table.optionalDurationNanos("udp_idle_timeout", ConnectionTableConfig.DEFAULT_UDP_IDLE_TIMEOUT_NS),
            table.optionalDurationNanos("other_idle_timeout", ConnectionTableConfig.DEFAULT_OTHER_IDLE_TIMEOUT_NS));
    }

    private static ControlChannelConfig readControl(final MapReader forwarder) throws ConfigException
    {
        final MapReader control = forwarder.optionalMap("control", "ring_capacity");
        return new ControlChannelConfig(ConfigValues.powerOfTwo(control, "ring_capacity",
            ControlChannelConfig.DEFAULT_RING_CAPACITY, ControlChannelConfig.MIN_RING_CAPACITY,
            ControlFileDescriptor.MAX_CAPACITY));
    }

    private static IcmpEchoConfig readIcmpEcho(final MapReader forwarder) throws ConfigException
    {
        final IcmpLimits echo = readIcmpLimits(forwarder, "icmp_echo", "reply", "kernel",
            IcmpEchoConfig.DEFAULT_RATE_PER_SECOND, IcmpEchoConfig.DEFAULT_BURST);
        return new IcmpEchoConfig(echo.firstMode(), echo.rate(), echo.burst());
    }

    private static IcmpTooBigConfig readIcmpTooBig(final MapReader forwarder) throws ConfigException
    {
        final IcmpLimits tooBig = readIcmpLimits(forwarder, "icmp_too_big", "send", "drop",
            IcmpTooBigConfig.DEFAULT_RATE_PER_SECOND, IcmpTooBigConfig.DEFAULT_BURST);
        return new IcmpTooBigConfig(tooBig.firstMode(), tooBig.rate(), tooBig.burst());
    }

    private record IcmpLimits(boolean firstMode, int rate, int burst)
    {
    }

    // icmp_echo and icmp_too_big alike: a mode of two values (the first the default), a rate and a burst.
    private static IcmpLimits readIcmpLimits(final MapReader forwarder, final String section, final String first,
        final String second, final int defaultRate, final int defaultBurst) throws ConfigException
    {
        final MapReader map = forwarder.optionalMap(section, "mode", "rate", "burst");
        final String mode = map.optionalString("mode", first);
        if (!first.equals(mode) && !second.equals(mode))
        {
            throw map.error("mode", "expected " + first + " or " + second + "; got \"" + mode + "\"");
        }
        return new IcmpLimits(first.equals(mode),
            map.optionalInt("rate", defaultRate, 1, IcmpEchoConfig.MAX_RATE_PER_SECOND),
            map.optionalInt("burst", defaultBurst, 1, IcmpEchoConfig.MAX_RATE_PER_SECOND));
    }

    /**
     * The tunnel MTU defaults to the smallest MTU of the ports the workers transmit on (every encapsulated packet
     * that fits it leaves the node; larger ones are answered with ICMP, so the sender adapts). Set explicitly, it may
     * not exceed any of them: a larger outer packet would leave through a port that cannot send it.
     */
    private static int readTunnelMtu(final MapReader forwarder, final List<PortConfig> ports,
        final List<WorkerConfig> workers) throws ConfigException
    {
        int smallest = Integer.MAX_VALUE;
        int smallestIndex = -1;
        for (final WorkerConfig worker : workers)
        {
            for (int i = 0; i < ports.size(); i++)
            {
                if (ports.get(i).name().equals(worker.txPort()) && ports.get(i).mtu() < smallest)
                {
                    smallest = ports.get(i).mtu();
                    smallestIndex = i;
                }
            }
        }
        final String portField = forwarder.pathOf("ports[" + smallestIndex + "].mtu");
        if (!forwarder.has("tunnel_mtu"))
        {
            if (smallest < ForwarderConfig.MIN_TUNNEL_MTU)
            {
                throw forwarder.error("tunnel_mtu", "the default tunnel_mtu is the smallest transmit port MTU, " +
                    portField + " = " + smallest + ", below the tunnel's minimum of " +
                    ForwarderConfig.MIN_TUNNEL_MTU + ": raise that port's mtu");
            }
            return smallest;
        }
        final int tunnelMtu = forwarder.optionalInt("tunnel_mtu", ForwarderConfig.DEFAULT_TUNNEL_MTU,
            ForwarderConfig.MIN_TUNNEL_MTU, ForwarderConfig.MAX_TUNNEL_MTU);
        if (tunnelMtu > smallest)
        {
            throw forwarder.error("tunnel_mtu", "tunnel_mtu " + tunnelMtu + " is larger than " + portField + " = " +
                smallest + ", the MTU of a port the workers transmit encapsulated packets on: lower tunnel_mtu to " +
                "at most " + smallest + " (too-big packets are answered with ICMP) or raise the port's mtu");
        }
        return tunnelMtu;
    }
}
