package io.sluice.forwarder.agent;

import io.sluice.common.Vip;
import io.sluice.forwarder.capture.CaptureFile;
import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.dpdk.MbufArray;
import io.sluice.forwarder.dpdk.ShimLayout;
import io.sluice.forwarder.dpdk.Dpdk;
import io.sluice.forwarder.dpdk.ShimLibrary;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.SharedEal;
import io.sluice.forwarder.testing.TunnelFrames;
import io.sluice.testkit.tags.NeedsDpdk;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The worker's outer fragmentation on real DPDK pools and net_ring ports: a burst of packets without DF, each
 * needing three outer fragments, meets a fragment pool that runs dry in the middle of a packet. Each packet whose
 * later fragments the pool cannot give is taken back whole (FRAGMENT_NO_BUFFER, its first fragment freed, none of
 * its fragments sent), the others leave complete and reassemble, and every mbuf of both pools comes back.
 */
@NeedsDpdk
class ForwarderWorkerFragmentPoolTest
{
    private static final int RX_MBUFS = 255;
    // 7 packets of 2 later fragments each, then 1 mbuf left: the 8th packet's allocation fails half-way
    private static final int FRAGMENT_MBUFS = 15;
    private static final int TUNNEL_MTU = 576;
    private static final long OWN_MAC = PacketBuilder.mac("02:5a:00:00:00:01");
    private static final long NEXT_HOP_MAC = PacketBuilder.mac("02:5a:00:00:00:fe");
    private static final String VIP = "10.0.0.1";
    private static final String BACKEND = "192.168.1.10";
    private static final String TUNNEL_SOURCE = "172.16.0.1";

    private static Dpdk dpdk;
    private static ShimLibrary shim;
    private static long rxPool;
    private static long fragmentPool;
    private static int rxPort;
    private static int txPort;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPorts()
    {
        dpdk = SharedEal.start();
        shim = dpdk.library();
        rxPool = dpdk.createMempool("fragment-test-rx", RX_MBUFS, 0, 2048 + ShimLayout.MBUF_HEADROOM);
        fragmentPool = dpdk.createMempool("fragment-test-tx", FRAGMENT_MBUFS, 0,
            2048 + ShimLayout.MBUF_HEADROOM);
        rxPort = dpdk.portByName(SharedEal.WORKER_RX_PORT);
        txPort = dpdk.portByName(SharedEal.WORKER_TX_PORT);
        for (final int port : new int[] {rxPort, txPort})
        {
            dpdk.check(shim.sluice_port_configure(port, rxPool, 1, 1, 0, 0, 0, 0), "configure");
            dpdk.check(shim.sluice_port_start(port), "start");
        }
    }

    @AfterAll
    static void stopPorts()
    {
        if (dpdk != null && dpdk.isEalInitialised())
        {
            for (final int port : new int[] {rxPort, txPort})
            {
                shim.sluice_port_stop(port);
                shim.sluice_port_close(port);
            }
            shim.sluice_mempool_free(rxPool);
            shim.sluice_mempool_free(fragmentPool);
        }
    }

    private static InetAddress inet(final String address)
    {
        try
        {
            return InetAddress.getByName(address);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(address, ex);
        }
    }

    private static PacketPipeline pipeline(final PipelineCounters counters)
    {
        final PipelineConfig defaults = PipelineConfig.withDefaults(OWN_MAC, NEXT_HOP_MAC,
            (Inet4Address)inet(TUNNEL_SOURCE), (Inet6Address)inet("fd00:5::1"), 0x5EED);
        final PipelineConfig config = new PipelineConfig(defaults.ownMac(), defaults.nextHopMac(),
            defaults.tunnelSourceV4(), defaults.tunnelSourceV6(), defaults.hashSeed(), 251, 1024,
            defaults.tcpIdleTimeoutNs(), defaults.udpIdleTimeoutNs(), defaults.otherIdleTimeoutNs(), TUNNEL_MTU,
            defaults.maxVips(), defaults.maxBackends());
        final LoadBalancerState state = new LoadBalancerState(config.maxVips(), config.maxBackends(),
            config.maglevTableSize(), config.hashSeed());
        final Vip vip = new Vip(inet(VIP), 80, Vip.TCP);
        state.addVip(vip);
        state.addBackend(vip, inet(BACKEND), 1, true);
        return new PacketPipeline(config, new SnapshotPublisher(state.snapshot()), new ConnectionTable(1024,
            config.tcpIdleTimeoutNs(), config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs()), counters);
    }

    private static byte[] frame(final int sourcePort, final int payload)
    {
        return packet().ethernet(OWN_MAC, PacketBuilder.mac("02:5a:00:00:00:aa")).ipv4("203.0.113.7", VIP)
            .id(sourcePort).tcp(sourcePort, 80).payload(payload).build();
    }

    @Test
    void takesBackWholeEveryPacketWhoseFragmentsThePoolCannotGiveAndLeaksNothing() throws Exception
    {
        // 12 packets of 1514 bytes (1504 bytes of GRE payload: 552 + 552 + 400 at a tunnel MTU of 576), one that fits
        final List<byte[]> input = new ArrayList<>();
        for (int i = 0; i < 12; i++)
        {
            input.add(frame(40_000 + i, 1460));
        }
        input.add(6, frame(41_000, 100));
        final MbufArray in = new MbufArray(ShimLayout.BURST_MAX);
        assertEquals(input.size(), shim.sluice_alloc_burst(rxPool, in.address(), input.size()));
        final UnsafeBuffer mbuf = new UnsafeBuffer(0, 0);
        for (int i = 0; i < input.size(); i++)
        {
            mbuf.wrap(in.bufAddr(i), in.bufLen(i));
            mbuf.putBytes(in.dataOff(i), input.get(i));
            in.frame(i, in.dataOff(i), input.get(i).length);
        }
        // net_ring: what is sent on a queue comes back on it, for the worker to receive
        assertEquals(input.size(), shim.sluice_tx_burst(rxPort, 0, in.address(), input.size()));

        final PipelineCounters counters = new PipelineCounters(PipelineConfig.DEFAULT_MAX_VIPS,
            PipelineConfig.DEFAULT_MAX_BACKENDS);
        final CachedNanoClock clock = new CachedNanoClock();
        clock.update(1_000_000_000L);
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16,
            List.of("in", "out"), new int[] {rxPort}, new int[] {txPort}))
        {
            final ForwarderWorker worker = new ForwarderWorker(0, -1, core ->
            {
                throw new AssertionError("an unpinned worker reserves no core");
            }, shim, rxPort, 0, txPort, 0, ForwarderWorker.NO_KERNEL_PORT, 0, -1, () -> pipeline(counters),
                new WorkerCounters((io, pipeline) -> { }), clock, new CaptureTap(file, 0, rxPort, txPort))
                .fragmentPool(fragmentPool);
            final Throwable[] failure = new Throwable[1];
            final Thread thread = new Thread(() ->
            {
                try
                {
                    worker.onStart();
                    worker.doWork();
                }
                catch (final Throwable ex)
                {
                    failure[0] = ex;
                }
                finally
                {
                    worker.onClose();
                }
            }, "fragmenting-worker");
            thread.start();
            thread.join(30_000);
            if (failure[0] != null)
            {
                throw new AssertionError("the worker failed", failure[0]);
            }
        }

        // 7 packets got both their later fragments; the 8th found one mbuf (all or nothing: none taken), the
        // 9th to 12th none
        assertEquals(8, counters.verdict(Verdict.FORWARD), "the small packet and 7 fragmented ones");
        assertEquals(5, counters.verdict(Verdict.DROP));
        assertEquals(5, counters.dropped(DropReason.FRAGMENT_NO_BUFFER));
        assertEquals(7, counters.outerFragmented());
        assertEquals(21, counters.outerFragments());

        final MbufArray out = new MbufArray(ShimLayout.BURST_MAX);
        final int sent = shim.sluice_rx_burst(txPort, 0, out.address(), ShimLayout.BURST_MAX);
        assertEquals(1 + 7 * 3, sent, "the small packet and 7 x 3 fragments");
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < sent; i++)
        {
            mbuf.wrap(out.bufAddr(i), out.bufLen(i));
            final byte[] bytes = new byte[out.dataLen(i)];
            mbuf.getBytes(out.dataOff(i), bytes);
            frames.add(bytes);
        }
        shim.sluice_free_burst(out.address(), sent);
        assertEquals(RX_MBUFS, shim.sluice_mempool_avail(rxPool), "every received mbuf back in its pool");
        assertEquals(FRAGMENT_MBUFS, shim.sluice_mempool_avail(fragmentPool), "every fragment mbuf back");

        // In burst order: the first 6 packets' fragments, the small one, the 7th packet's (the 8th to 12th dropped)
        final byte[] backend = inet(BACKEND).getAddress();
        final byte[] source = inet(TUNNEL_SOURCE).getAddress();
        int at = 0;
        for (int p = 0; p < 8; p++)
        {
            final byte[] packet = input.get(p);
            final byte[] whole = TunnelFrames.greIpv4(NEXT_HOP_MAC, OWN_MAC, source, backend, 0,
                Arrays.copyOfRange(packet, 14, packet.length));
            if (p == 6)
            {
                assertArrayEquals(whole, frames.get(at++), "the packet that fits, encapsulated whole");
                continue;
            }
            final byte[] payload = new byte[1504];
            for (int j = 0; j < 3; j++)
            {
                final byte[] fragment = frames.get(at++);
                final int flags = ((fragment[14 + 6] & 0xFF) << 8) | (fragment[14 + 7] & 0xFF);
                assertEquals((j < 2 ? 0x2000 : 0) | j * 552 / 8, flags, "packet " + p + " fragment " + j);
                System.arraycopy(fragment, 34, payload, j * 552, fragment.length - 34);
            }
            assertArrayEquals(Arrays.copyOfRange(whole, 34, whole.length), payload, "packet " + p + " reassembled");
        }
    }
}
