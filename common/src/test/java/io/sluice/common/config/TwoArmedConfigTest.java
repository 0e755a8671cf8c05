package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-port MACs, kernel relay queues and pool sizes of a two-armed node: clients and the router on one port (with a
 * kernel port for ARP and BGP), backends on the other.
 */
class TwoArmedConfigTest
{
    private static final String TWO_ARMED = """
        node:
          name: lb1
        forwarder:
          eal_args: ["--no-pci", "--vdev=net_af_packet0,iface=front", "--vdev=net_af_packet1,iface=back",
                     "--vdev=net_tap0,iface=sl0"]
          ports:
            - name: net_af_packet0
              kernel_port: net_tap0
              next_hop_mac: "02:00:00:00:0a:01"
            - name: net_af_packet1
              rx_ring: 512
              tx_ring: 512
              next_hop_mac: "02:00:00:00:0b:01"
            - name: net_tap0
          workers:
            - core: 0
              rx_port: net_af_packet0
              tx_port: net_af_packet1
            - core: 1
              rx_port: net_af_packet0
              tx_port: net_af_packet1
          tunnel_source_v4: 10.0.0.1
        vips:
          - name: web
            address: 10.100.0.1
            port: 80
            protocol: tcp
            backends:
              - address: 10.1.0.1
        """;

    // The second worker of TWO_ARMED, receiving on the router side and sending across, and the same worker sending
    // back out of the port it receives on.
    private static final String SECOND_WORKER_TX_ACROSS = """
            - core: 1
              rx_port: net_af_packet0
              tx_port: net_af_packet1
        """;
    private static final String SECOND_WORKER_TX_ON_RX = """
            - core: 1
              rx_port: net_af_packet0
              tx_port: net_af_packet0
        """;

    private static ForwarderConfig parse(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2).forwarder();
    }

    private static String with(final String original, final String replacement)
    {
        final int at = TWO_ARMED.indexOf(original);
        if (at < 0 || TWO_ARMED.indexOf(original, at + 1) >= 0)
        {
            throw new IllegalArgumentException("not exactly once: " + original);
        }
        return TWO_ARMED.substring(0, at) + replacement + TWO_ARMED.substring(at + original.length());
    }

    private static void fails(final String yaml, final String field, final String reasonPart)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> parse(yaml));
        assertEquals(field, ex.field(), ex.getMessage());
        assertTrue(ex.reason().contains(reasonPart), ex.getMessage());
        assertEquals("node.yaml", ex.file());
    }

    @Test
    void readsANextHopMacPerPortWithoutAForwarderDefault() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(TWO_ARMED);
        assertNull(forwarder.nextHopMac());
        assertEquals(0x020000000a01L, forwarder.nextHopMacOf("net_af_packet0").value());
        assertEquals(0x020000000b01L, forwarder.nextHopMacOf("net_af_packet1").value());
        assertNull(forwarder.nextHopMacOf("net_tap0"));
        assertEquals("02:00:00:00:0b:01", forwarder.port("net_af_packet1").nextHopMac().text());
    }

    @Test
    void theForwarderNextHopMacIsTheDefaultOfPortsWithoutOne() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(with("      next_hop_mac: \"02:00:00:00:0b:01\"\n", "")
            .replace("  tunnel_source_v4: 10.0.0.1\n",
                "  tunnel_source_v4: 10.0.0.1\n  next_hop_mac: 02:00:00:00:00:fe\n"));
        assertEquals(0x0200000000feL, forwarder.nextHopMac().value());
        assertEquals(0x0200000000feL, forwarder.nextHopMacOf("net_af_packet1").value());
        assertEquals(0x020000000a01L, forwarder.nextHopMacOf("net_af_packet0").value());
    }

    @Test
    void rejectsATransmittingPortWithoutAnyNextHop()
    {
        fails(with("      next_hop_mac: \"02:00:00:00:0b:01\"\n", ""), "forwarder.next_hop_mac",
            "port net_af_packet1 transmits and has no next_hop_mac of its own");
    }

    @Test
    void rejectsABadPortNextHopMacNamingThePort()
    {
        fails(with("\"02:00:00:00:0b:01\"", "\"03:00:00:00:0b:01\""), "forwarder.ports[1].next_hop_mac",
            "multicast");
        fails(with("\"02:00:00:00:0b:01\"", "\"02:00:00:00:0b\""), "forwarder.ports[1].next_hop_mac",
            "is not a MAC address");
    }

    @Test
    void givesEachWorkerARelayQueueOnTheKernelPortsDataPort() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(TWO_ARMED);
        // No worker transmits on the client side: each relays what the kernel sends on a queue of its own there.
        assertEquals(0, forwarder.kernelRelayQueue(0));
        assertEquals(1, forwarder.kernelRelayQueue(1));
        assertEquals(2, forwarder.txQueueCount("net_af_packet0"));
        assertEquals(2, forwarder.txQueueCount("net_af_packet1"));
        assertEquals(2, forwarder.rxQueueCount("net_tap0"));
        assertEquals(2, forwarder.txQueueCount("net_tap0"));
    }

    @Test
    void aWorkerSendingOnItsReceivePortRelaysOnItsOwnQueue() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(with(SECOND_WORKER_TX_ACROSS, SECOND_WORKER_TX_ON_RX));
        assertEquals(0, forwarder.kernelRelayQueue(1)); // its tx_queue on net_af_packet0
        assertEquals(1, forwarder.kernelRelayQueue(0)); // after the workers' queues there
        assertEquals(2, forwarder.txQueueCount("net_af_packet0"));
        assertEquals(1, forwarder.txQueueCount("net_af_packet1"));
    }

    @Test
    void noRelayQueueWithoutAKernelPort() throws ConfigException
    {
        // ICMP replies off as well: then nothing at all goes back out of the receive port
        final ForwarderConfig forwarder = parse(with("      kernel_port: net_tap0\n", "")
            .replace("    - name: net_tap0\n", "").replace(", \"--vdev=net_tap0,iface=sl0\"", "")
            .replace("  tunnel_source_v4: 10.0.0.1\n",
                "  tunnel_source_v4: 10.0.0.1\n  icmp_echo: {mode: kernel}\n  icmp_too_big: {mode: drop}\n"));
        assertEquals(-1, forwarder.kernelRelayQueue(0));
        assertEquals(-1, forwarder.returnQueue(0, "net_af_packet0"));
        assertEquals(0, forwarder.txQueueCount("net_af_packet0"));
    }

    @Test
    void givesEachWorkerAReturnQueueForIcmpRepliesWithoutAKernelPort() throws ConfigException
    {
        final String noKernelPort = with("      kernel_port: net_tap0\n", "")
            .replace("    - name: net_tap0\n", "").replace(", \"--vdev=net_tap0,iface=sl0\"", "");
        // The defaults answer echo requests and send too-big errors: each worker has a queue of its own on the port
        // it receives from, for the replies that leave there.
        final ForwarderConfig forwarder = parse(noKernelPort);
        assertEquals(-1, forwarder.kernelRelayQueue(0));
        assertEquals(0, forwarder.returnQueue(0, "net_af_packet0"));
        assertEquals(1, forwarder.returnQueue(1, "net_af_packet0"));
        assertEquals(2, forwarder.txQueueCount("net_af_packet0"));
        assertEquals(2, forwarder.txQueueCount("net_af_packet1"));
        // Either kind of reply alone needs them.
        for (final String only : List.of("  icmp_echo: {mode: kernel}\n", "  icmp_too_big: {mode: drop}\n"))
        {
            final ForwarderConfig one = parse(noKernelPort.replace("  tunnel_source_v4: 10.0.0.1\n",
                "  tunnel_source_v4: 10.0.0.1\n" + only));
            assertEquals(1, one.returnQueue(1, "net_af_packet0"), only);
            assertEquals(2, one.txQueueCount("net_af_packet0"), only);
        }
        // A worker that transmits on its receive port answers on its own transmit queue.
        final ForwarderConfig mixed = parse(noKernelPort.replace(SECOND_WORKER_TX_ACROSS, SECOND_WORKER_TX_ON_RX));
        assertEquals(0, mixed.returnQueue(1, "net_af_packet0"));
        assertEquals(1, mixed.returnQueue(0, "net_af_packet0"));
        assertEquals(2, mixed.txQueueCount("net_af_packet0"));
    }

    @Test
    void sizesATransmitOnlyPortsPoolForItsOneReceiveRing() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(
            TWO_ARMED.replace("  tunnel_source_v4: 10.0.0.1\n",
                "  tunnel_source_v4: 10.0.0.1\n  mbufs_per_worker: 262143\n"));
        assertEquals(2L * 262143, forwarder.poolMbufs("net_af_packet0"));
        assertEquals(2L * 262143, forwarder.poolMbufs("net_tap0"));
        // rx ring 512 plus two caches of 256: 1024, as 2^n - 1 above it.
        assertEquals(2047, forwarder.poolMbufs("net_af_packet1"));
        final NodeResources resources = NodeResources.of(forwarder);
        assertEquals((4L * 262143 + 2047) * NodeResources.MBUF_BYTES, resources.poolBytes());
    }

    @Test
    void readsAWorkerPollingQueuesOfSeveralPorts() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(with("""
                - core: 0
                  rx_port: net_af_packet0
                  tx_port: net_af_packet1
            """, """
                - core: 0
                  rx: [{port: net_af_packet0}, {port: net_af_packet1, queue: 0}]
                  tx_port: net_af_packet1
            """));
        final WorkerConfig worker = forwarder.workers().get(0);
        assertEquals(List.of(new WorkerConfig.RxQueue("net_af_packet0", 0), new WorkerConfig.RxQueue("net_af_packet1",
            0)), worker.rx());
        assertEquals("net_af_packet0", worker.rxPort());
        assertTrue(worker.receivesFrom("net_af_packet1"));
        // The second worker takes the next queue of net_af_packet0 by position.
        assertEquals(new WorkerConfig.RxQueue("net_af_packet0", 1), forwarder.workers().get(1).rx().get(0));
        assertEquals(2, forwarder.rxQueueCount("net_af_packet0"));
        assertEquals(1, forwarder.rxQueueCount("net_af_packet1"));
        assertEquals(0, forwarder.kernelRelayQueue(0, "net_af_packet0"));
        assertEquals(-1, forwarder.kernelRelayQueue(0, "net_af_packet1"));
    }

    @Test
    void rejectsBothRxFormsAndAQueuePolledTwice()
    {
        fails(with("      rx_port: net_af_packet0\n      tx_port: net_af_packet1\n    - core: 1",
            "      rx_port: net_af_packet0\n      rx: [{port: net_af_packet1}]\n      tx_port: net_af_packet1\n" +
            "    - core: 1"), "forwarder.workers[0].rx", "not both");
        fails(with("      rx_port: net_af_packet0\n      tx_port: net_af_packet1\n    - core: 1",
            "      rx: [{port: net_af_packet0, queue: 0}, {port: net_af_packet0, queue: 0}]\n" +
            "      tx_port: net_af_packet1\n    - core: 1"), "forwarder.workers[0].rx[1].queue",
            "receive queue 0 of port net_af_packet0 is already polled by forwarder.workers[0].rx[0]");
        fails(with("      rx_port: net_af_packet0\n      tx_port: net_af_packet1\n    - core: 1",
            "      rx: [{port: net_af_packet9}]\n      tx_port: net_af_packet1\n    - core: 1"),
            "forwarder.workers[0].rx[0].port", "no port named \"net_af_packet9\"");
        fails(with("      rx_port: net_af_packet0\n      tx_port: net_af_packet1\n    - core: 1",
            "      rx: []\n      tx_port: net_af_packet1\n    - core: 1"), "forwarder.workers[0].rx", "at least 1");
    }
}
