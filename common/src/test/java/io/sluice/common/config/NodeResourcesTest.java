package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import static io.sluice.common.config.NodeConfigErrorsTest.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory a forwarder needs against a machine's: sizes in long, the field to change named.
 */
class NodeResourcesTest
{
    private static final long GIB = 1L << 30;
    private static final MachineMemory ROOMY = new MachineMemory(24 * GIB, 2 * GIB, 12 * GIB);
    private static final String NO_HUGE = "eal_args: [\"--no-pci\", \"--no-huge\", \"-m\", \"256\", " +
        "\"--vdev=net_pcap0\", \"--vdev=net_tap0,iface=sl0\"]";
    private static final String TWO_WORKERS = "    - core: 0\n      rx_port: net_pcap0\n" +
        "    - core: 1\n      rx_port: net_pcap0\n";

    private static ForwarderConfig forwarder(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2).forwarder();
    }

    private static String capacity(final long entries)
    {
        return with("    tcp_idle_timeout: 300s", "    tcp_idle_timeout: 300s\n    capacity: " + entries)
            .replace("eal_args: [\"--no-pci\", \"--vdev=net_pcap0\", \"--vdev=net_tap0,iface=sl0\"]", NO_HUGE)
            .replace("    - core: 0\n      rx_port: net_pcap0\n", TWO_WORKERS);
    }

    @Test
    void sizesTablesBeyondTwoGibibytesWithoutOverflow() throws ConfigException
    {
        final NodeResources resources = NodeResources.of(forwarder(capacity(1L << 25)));
        assertEquals(2 * 2 * GIB, resources.tableBytes());
        assertEquals(2 * 8191 * NodeResources.MBUF_BYTES, resources.poolBytes());
        assertEquals(256L << 20, resources.ealBytes());
        assertEquals(2 * 2 * GIB, NodeResources.check("node.yaml", forwarder(capacity(1L << 25)), ROOMY).tableBytes());
        final NodeResources largest = NodeResources.of(forwarder(capacity(1L << 30)));
        assertEquals(2 * 64 * GIB, largest.tableBytes());
    }

    @Test
    void refusesConnectionTablesTheMachineCannotHold() throws ConfigException
    {
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> NodeResources.check("node.yaml", forwarder(capacity(1L << 30)), ROOMY));
        assertEquals("forwarder.connection_table.capacity", ex.field());
        assertTrue(ex.reason().startsWith(
            "connection tables 128.0 GiB (2 worker(s) x 1073741824 entries x 64 bytes), " +
            "EAL memory 256 MiB (--no-huge), shared files "), ex.reason());
        assertTrue(ex.reason().contains("but this machine has 24.0 GiB available (MemAvailable): use a capacity of " +
            "at most 134217728"), ex.reason());
        assertEquals("node.yaml: forwarder.connection_table.capacity: " + ex.reason(), ex.getMessage());
    }

    @Test
    void refusesPoolsLargerThanEalMemory() throws ConfigException
    {
        final String small = capacity(1024).replace("\"-m\", \"256\"", "\"-m\", \"32\"");
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", forwarder(small), ROOMY));
        assertEquals("forwarder.mbufs_per_worker", ex.field());
        assertTrue(ex.reason().startsWith(
            "the mbuf pools need at least 36 MiB (mbufs_per_worker x receive queues, per port, 2304 bytes"),
            ex.reason());
        assertTrue(ex.reason().contains("more than EAL's 32 MiB"), ex.reason());
        // --no-huge without -m: EAL's 64 MiB
        final String noSize = capacity(1024).replace("\"-m\", \"256\", ", "").replace("    - core: 1\n" +
            "      rx_port: net_pcap0\n", "    - core: 1\n      rx_port: net_pcap0\n      tx_port: net_pcap0\n")
            .replace("idle_strategy: busy-spin", "idle_strategy: busy-spin\n  mbufs_per_worker: 16383");
        final ConfigException noM =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", forwarder(noSize), ROOMY));
        assertTrue(noM.reason().contains("more than EAL's 64 MiB (-m in eal_args, 64 MiB without it under " +
            "--no-huge)"), noM.reason());
    }

    @Test
    void refusesHugepagesThatAreNotThere() throws ConfigException
    {
        final ForwarderConfig hugepages = forwarder(NodeConfigErrorsTest.BASE);
        final MachineMemory none = new MachineMemory(24 * GIB, 0, 12 * GIB);
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", hugepages, none));
        assertEquals("forwarder.eal_args", ex.field());
        assertTrue(ex.reason().startsWith("EAL would use hugepages (no --no-huge) but this machine has no free " +
            "hugepages"), ex.reason());
        final ForwarderConfig tooMuch = forwarder(NodeConfigErrorsTest.BASE.replace("\"--no-pci\", ",
            "\"--no-pci\", \"-m\", \"4096\", "));
        final ConfigException m =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", tooMuch, ROOMY));
        assertEquals("-m/--socket-mem asks for 4096 MiB of hugepages but only 2048 MiB are free: lower it or " +
            "reserve more hugepages", m.reason());
        NodeResources.check("node.yaml", hugepages, ROOMY);
    }

    @Test
    void refusesSharedFilesLargerThanTheirFilesystem() throws ConfigException
    {
        final ForwarderConfig base = forwarder(capacity(1024));
        final MachineMemory tinyShm = new MachineMemory(24 * GIB, 2 * GIB, 1L << 20);
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", base, tinyShm));
        assertEquals("forwarder.counters_dir", ex.field());
        assertTrue(ex.reason().endsWith("but its filesystem has 1 MiB free (lower max_backends or max_vips, or " +
            "give /dev/shm more room)"), ex.reason());
    }

    @Test
    void unknownFiguresRefuseNothing() throws ConfigException
    {
        final MachineMemory unknown =
            new MachineMemory(MachineMemory.UNKNOWN, MachineMemory.UNKNOWN, MachineMemory.UNKNOWN);
        NodeResources.check("node.yaml", forwarder(capacity(1L << 30)), unknown);
        NodeResources.check("node.yaml", forwarder(NodeConfigErrorsTest.BASE), unknown);
    }

    @Test
    void sizesEachPortsMbufsFromItsMtu() throws ConfigException
    {
        assertEquals(2048, new PortConfig("p", 1500, 64, 64).frameRoom());
        assertEquals(2048, new PortConfig("p", 2026, 64, 64).frameRoom());
        assertEquals(2112, new PortConfig("p", 2027, 64, 64).frameRoom());
        assertEquals(9024, new PortConfig("p", 9000, 64, 64).frameRoom(), "9000 + 14 + 4 + 4, rounded up to 64");
        assertEquals(9664, new PortConfig("p", PortConfig.MAX_MTU, 64, 64).frameRoom());
        final NodeResources jumbo = NodeResources.of(forwarder(capacity(1L << 10).replace("      rx_ring: 1024\n",
            "      rx_ring: 1024\n      mtu: 9000\n")));
        assertEquals(2 * 8191 * (NodeResources.MBUF_BYTES - 2048 + 9024), jumbo.poolBytes());
    }

    private static final long MIB = 1L << 20;

    private static MachineMemory heap(final long bytes)
    {
        return new MachineMemory(24 * GIB, 2 * GIB, 12 * GIB, bytes);
    }

    private static String maglev(final int maxVips, final int tableSize)
    {
        return capacity(1024).replace("  maglev_table_size: 65537\n",
            "  maglev_table_size: " + tableSize + "\n  max_vips: " + maxVips + "\n");
    }

    @Test
    void sizesTheMaglevTablesOnTheHeapWithoutOverflow() throws ConfigException
    {
        // 256 VIPs (the default) x 65537 slots x 4 bytes, twice, one empty table, the margin.
        assertEquals((256 * 2 + 1) * 65537L * 4 + NodeResources.HEAP_MARGIN_BYTES,
            NodeResources.of(forwarder(capacity(1024))).heapBytes());
        // The largest the reader accepts: 65536 VIPs of 16777213 slots, 8 TiB, far beyond an int.
        final NodeResources largest = NodeResources.of(forwarder(maglev(65536, 16_777_213)));
        assertEquals((65536L * 2 + 1) * 16_777_213L * 4 + NodeResources.HEAP_MARGIN_BYTES, largest.heapBytes());
        assertTrue(largest.heapBytes() > 8L << 40, Long.toString(largest.heapBytes()));
    }

    @Test
    void refusesMaglevTablesTheHeapCannotHold() throws ConfigException
    {
        final ForwarderConfig defaults = forwarder(capacity(1024));
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", defaults, heap(128 * MIB)));
        assertEquals("forwarder.max_vips", ex.field());
        assertEquals("the Maglev tables need up to 129 MiB of Java heap (256 VIP(s) x 65537 slots x 4 bytes x 2 " +
            "copies while a snapshot is rebuilt), 161 MiB with the forwarder's 32 MiB beside them, but the JVM's " +
            "maximum heap is 128 MiB (-Xmx in SLUICE_JAVA_OPTS, else the JVM's default share of RAM): use max_vips " +
            "of at most 191, a smaller maglev_table_size or a larger -Xmx", ex.reason());
        assertEquals("node.yaml: forwarder.max_vips: " + ex.reason(), ex.getMessage());
        // The hint fits: 191 VIPs pass under the same heap, 192 do not.
        NodeResources.check("node.yaml", forwarder(maglev(191, 65537)), heap(128 * MIB));
        assertThrows(ConfigException.class,
            () -> NodeResources.check("node.yaml", forwarder(maglev(192, 65537)), heap(128 * MIB)));
        NodeResources.check("node.yaml", defaults, heap(256 * MIB));
    }

    @Test
    void namesTheTableSizeWhenNotOneVipFits() throws ConfigException
    {
        // One VIP of 16777213 slots: 64 MiB a copy, three of them with the empty table, beyond a 128 MiB heap.
        final ForwarderConfig huge = forwarder(maglev(1, 16_777_213));
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeResources.check("node.yaml", huge, heap(128 * MIB)));
        assertEquals("forwarder.maglev_table_size", ex.field());
        assertTrue(ex.reason().endsWith("not even one VIP fits, use a smaller maglev_table_size or a larger -Xmx"),
            ex.reason());
        NodeResources.check("node.yaml", huge, heap(GIB));
    }

    @Test
    void describesTheHeapItNeeds() throws ConfigException
    {
        assertTrue(NodeResources.of(forwarder(capacity(1024))).describe().endsWith(", java heap up to 161 MiB"),
            NodeResources.of(forwarder(capacity(1024))).describe());
    }
}
