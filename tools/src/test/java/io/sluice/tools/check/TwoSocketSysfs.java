package io.sluice.tools.check;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.NodeConfig;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A fake two-socket machine for the layout checks, since this one has one node: a sysfs tree with NIC 0000:3b:00.0
 * on NUMA node 0 and 0000:af:00.0 on node 1, and a node config with one port on each NIC and the workers a test
 * gives. A JUnit extension ({@code @RegisterExtension}): a fresh tree per test, deleted after it.
 */
final class TwoSocketSysfs implements BeforeEachCallback, AfterEachCallback
{
    private static final String CONFIG = """
        node:
          name: lb1
        forwarder:
          eal_args: ["-a", "0000:3b:00.0", "-a", "0000:af:00.0"]
          ports:
            - name: 0000:3b:00.0
            - name: 0000:af:00.0
          workers:
        %s
          next_hop_mac: "02:00:00:00:00:fe"
          tunnel_source_v4: 10.0.0.1
        vips: []
        """;

    private Path root;

    @Override
    public void beforeEach(final ExtensionContext context) throws IOException
    {
        root = Files.createTempDirectory("sluice-sysfs");
    }

    @Override
    public void afterEach(final ExtensionContext context) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(file);
            }
        }
    }

    /**
     * The tree's root, where {@code /sys} would be.
     */
    Path root()
    {
        return root;
    }

    /**
     * Writes one sysfs file, with a trailing newline as the kernel writes it.
     */
    void write(final String path, final String text) throws IOException
    {
        final Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text + "\n");
    }

    /**
     * Writes both nodes' CPU lists and both NICs' nodes.
     */
    void twoSockets(final String node0Cpus, final String node1Cpus) throws IOException
    {
        write("devices/system/node/node0/cpulist", node0Cpus);
        write("devices/system/node/node1/cpulist", node1Cpus);
        write("bus/pci/devices/0000:3b:00.0/numa_node", "0");
        write("bus/pci/devices/0000:af:00.0/numa_node", "1");
    }

    /**
     * A node config with a port on each NIC.
     *
     * @param workers the {@code forwarder.workers} list, its items at the left margin.
     */
    static String config(final String workers)
    {
        return CONFIG.formatted(workers.stripTrailing().indent(4).stripTrailing());
    }

    static ForwarderConfig forwarder(final String config, final int cpus) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", config, cpus).forwarder();
    }
}
