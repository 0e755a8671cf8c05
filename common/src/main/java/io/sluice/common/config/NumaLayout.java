package io.sluice.common.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The machine's NUMA nodes as sysfs describes them: which CPUs each node has
 * ({@code devices/system/node/node<N>/cpulist}) and which node a PCI device sits on
 * ({@code bus/pci/devices/<address>/numa_node}, -1 when the firmware does not say). Read from a sysfs root
 * that tests point at a fake tree; a machine without NUMA has node0 only, or no node directory at all.
 * <p>
 * A worker should run on the node of the ports it polls and transmits on: its mbufs come from the port's pool on
 * that node, and every packet crossing the interconnect costs a remote memory access.
 */
public final class NumaLayout
{
    /** The node of a CPU or device sysfs says nothing about (a virtual device, a machine without NUMA). */
    public static final int UNKNOWN = -1;

    private static final Path SYS = Path.of("/sys");
    private static final Pattern NODE_DIR = Pattern.compile("node[0-9]+");
    private static final Pattern PCI_ADDRESS =
        Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    private final Path sysRoot;
    private final TreeMap<Integer, CpuList> cpusByNode;

    private NumaLayout(final Path sysRoot, final TreeMap<Integer, CpuList> cpusByNode)
    {
        this.sysRoot = sysRoot;
        this.cpusByNode = cpusByNode;
    }

    /**
     * Reads this machine's layout from {@code /sys}.
     *
     * @return the layout; empty when sysfs has no node directory.
     */
    public static NumaLayout probe()
    {
        return read(SYS);
    }

    /**
     * Reads the layout under a sysfs root.
     *
     * @param sysRoot the directory that stands for {@code /sys}.
     * @return the layout; unreadable node entries are left out.
     */
    public static NumaLayout read(final Path sysRoot)
    {
        final TreeMap<Integer, CpuList> nodes = new TreeMap<>();
        final Path nodeDir = sysRoot.resolve("devices/system/node");
        if (Files.isDirectory(nodeDir))
        {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(nodeDir))
            {
                for (final Path entry : entries)
                {
                    final String name = entry.getFileName().toString();
                    final Path cpulist = entry.resolve("cpulist");
                    if (NODE_DIR.matcher(name).matches() && Files.isReadable(cpulist))
                    {
                        final String text = Files.readString(cpulist).trim();
                        if (!text.isEmpty())
                        {
                            nodes.put(Integer.parseInt(name.substring(4)), CpuList.parse(text));
                        }
                    }
                }
            }
            catch (final IOException | IllegalArgumentException ex)
            {
                nodes.clear(); // a layout read half is worse than none: no warning rather than a wrong one
            }
        }
        return new NumaLayout(sysRoot, nodes);
    }

    /**
     * Returns how many NUMA nodes have CPUs.
     *
     * @return the count, 0 when sysfs did not say.
     */
    public int nodeCount()
    {
        return cpusByNode.size();
    }

    /**
     * Returns the node of a CPU.
     *
     * @param cpu a CPU number.
     * @return the node, or {@link #UNKNOWN}.
     */
    public int nodeOfCpu(final int cpu)
    {
        for (final var node : cpusByNode.entrySet())
        {
            if (node.getValue().contains(cpu))
            {
                return node.getKey();
            }
        }
        return UNKNOWN;
    }

    /**
     * Returns the node of a port from its PCI device's {@code numa_node}; virtual devices have none.
     *
     * @param portName the DPDK device name ({@code 0000:3b:00.0} for a PCI port).
     * @return the node, or {@link #UNKNOWN}.
     */
    public int nodeOfPort(final String portName)
    {
        if (!PCI_ADDRESS.matcher(portName).matches())
        {
            return UNKNOWN;
        }
        final Path file = sysRoot.resolve("bus/pci/devices").resolve(portName.toLowerCase()).resolve("numa_node");
        try
        {
            final int node = Integer.parseInt(Files.readString(file).trim());
            return node < 0 ? UNKNOWN : node;
        }
        catch (final IOException | NumberFormatException ex)
        {
            return UNKNOWN;
        }
    }

    /**
     * Lists the workers whose core is on another node than a port they poll or transmit on. Nothing when a node is
     * unknown, or on a machine of one node.
     *
     * @param forwarder the forwarder section.
     * @param nodeOfPort the node of each port by name (sysfs before EAL starts, {@code rte_eth_dev_socket_id} after).
     * @return one line per worker and port, naming the config field, e.g. {@code forwarder.workers[1].core: ...}.
     */
    public List<String> remoteWorkers(final ForwarderConfig forwarder,
        final ToIntFunction<String> nodeOfPort)
    {
        return remoteWorkers(forwarder, nodeOfPort, WorkerCpuLayout.UNKNOWN);
    }

    /**
     * Lists the workers whose core is on another node than a port they poll or transmit on, naming the core's
     * socket where the CPU layout knows it (another socket is always another node; one socket may hold several
     * nodes, as AMD's NPS2/NPS4 or Intel's sub-NUMA clustering make it). Nothing when a node is unknown, or on a
     * machine of one node.
     *
     * @param forwarder  the forwarder section.
     * @param nodeOfPort the node of each port by name (sysfs before EAL starts, {@code rte_eth_dev_socket_id} after).
     * @param cpus       the machine's sockets and cores.
     * @return one line per worker and port, naming the config field, e.g. {@code forwarder.workers[1].core: ...}.
     */
    public List<String> remoteWorkers(final ForwarderConfig forwarder,
        final ToIntFunction<String> nodeOfPort, final WorkerCpuLayout cpus)
    {
        final List<String> warnings = new ArrayList<>();
        if (cpusByNode.size() < 2)
        {
            return warnings;
        }
        for (int i = 0; i < forwarder.workers().size(); i++)
        {
            final WorkerConfig worker = forwarder.workers().get(i);
            final int cpuNode = nodeOfCpu(worker.core());
            final List<String> ports = new ArrayList<>();
            for (final WorkerConfig.RxQueue rx : worker.rx())
            {
                if (!ports.contains(rx.port()))
                {
                    ports.add(rx.port());
                }
            }
            if (!ports.contains(worker.txPort()))
            {
                ports.add(worker.txPort());
            }
            for (final String port : ports)
            {
                final int portNode = nodeOfPort.applyAsInt(port);
                if (cpuNode != UNKNOWN && portNode != UNKNOWN && cpuNode != portNode)
                {
                    final String socket = cpus.knows(worker.core()) ? " (socket " + cpus.socketOf(worker.core()) + ")" :
                        "";
                    warnings.add("forwarder.workers[" + i + "].core: core " + worker.core() + socket +
                        " is on NUMA node " + cpuNode + " but port " + port + " is on node " + portNode + " (CPUs " +
                        cpusByNode.get(portNode) + "): every packet crosses the interconnect; pick a core of node " +
                        portNode);
                }
            }
        }
        return warnings;
    }

    /**
     * Lists the workers on another node than their ports, the ports' nodes read from sysfs.
     *
     * @param forwarder the forwarder section.
     * @return one line per worker and port.
     */
    public List<String> remoteWorkers(final ForwarderConfig forwarder)
    {
        return remoteWorkers(forwarder, this::nodeOfPort);
    }
}
