package io.sluice.forwarder.dpdk;

import io.sluice.forwarder.testing.SharedEal;
import io.sluice.testkit.tags.NeedsDpdk;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jnr-ffi binding against the real shim and a real EAL on a net_ring loopback port: what is sent on a
 * queue comes back on the same queue, so frames written through Agrona buffers over mbuf memory can be checked
 * byte for byte. EAL can start once per JVM: this class shares it ({@link SharedEal}) and owns its port and pool.
 */
@NeedsDpdk
class DpdkBindingTest
{
    private static final int MBUFS = 1023;
    private static Dpdk dpdk;
    private static ShimLibrary shim;
    private static long pool;
    private static int port;

    @BeforeAll
    static void startEal()
    {
        dpdk = SharedEal.start();
        shim = dpdk.library();
        pool = dpdk.createMempool("binding-test", MBUFS, 0, 2048 + ShimLayout.MBUF_HEADROOM);
        port = dpdk.portByName(SharedEal.BINDING_PORT);
        dpdk.check(shim.sluice_port_configure(port, pool, 1, 1, 0, 0, 0, 0), "configure");
        dpdk.check(shim.sluice_port_start(port), "start");
    }

    @AfterAll
    static void stopEal()
    {
        if (dpdk != null && dpdk.isEalInitialised())
        {
            shim.sluice_port_stop(port);
            shim.sluice_port_close(port);
            shim.sluice_mempool_free(pool);
        }
    }

    @Test
    void reportsItsVersionAndAgreesOnLayout()
    {
        assertTrue(dpdk.version().startsWith("DPDK "), dpdk.version());
        final int[] layout = new int[64];
        final int count = shim.sluice_layout(layout, layout.length);
        assertEquals(null, ShimLayout.mismatch(layout, count));
        layout[ShimLayout.EXPECTED.length - 1]++;
        assertTrue(ShimLayout.mismatch(layout, count).contains("STATS_RX_NOMBUF"));
    }

    @Test
    void sendsAndReceivesFramesThroughMbufMemoryWithoutCopies()
    {
        final MbufArray tx = new MbufArray(ShimLayout.BURST_MAX);
        final MbufArray rx = new MbufArray(ShimLayout.BURST_MAX);
        final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
        final int n = 8;
        assertEquals(n, shim.sluice_alloc_burst(pool, tx.address(), n));
        for (int i = 0; i < n; i++)
        {
            assertEquals(ShimLayout.MBUF_HEADROOM, tx.dataOff(i));
            frame.wrap(tx.bufAddr(i), tx.bufLen(i));
            final int length = 60 + i;
            for (int b = 0; b < length; b++)
            {
                frame.putByte(tx.dataOff(i) + b, (byte)(i * 31 + b));
            }
            // Prepend 24 bytes in the headroom, as GRE encapsulation does.
            final int start = tx.dataOff(i) - 24;
            frame.setMemory(start, 24, (byte)0xEE);
            tx.frame(i, start, length + 24);
        }
        assertEquals(n, shim.sluice_tx_burst(port, 0, tx.address(), n));

        assertEquals(n, shim.sluice_rx_burst(port, 0, rx.address(), ShimLayout.BURST_MAX));
        for (int i = 0; i < n; i++)
        {
            assertEquals(60 + i + 24, rx.dataLen(i));
            assertEquals(ShimLayout.MBUF_HEADROOM - 24, rx.dataOff(i));
            assertEquals(60 + i + 24, rx.pktLen(i), "pkt_len set from data_len on TX");
            assertFalse(rx.chained(i));
            assertEquals(0, rx.rssHash(i), "net_ring gives no RSS hash");
            frame.wrap(rx.bufAddr(i), rx.bufLen(i));
            final byte[] expected = new byte[60 + i + 24];
            final byte[] actual = new byte[expected.length];
            for (int b = 0; b < expected.length; b++)
            {
                expected[b] = b < 24 ? (byte)0xEE : (byte)(i * 31 + b - 24);
            }
            frame.getBytes(rx.dataOff(i), actual);
            assertArrayEquals(expected, actual, "frame " + i);
        }
        shim.sluice_free_burst(rx.address(), n);
        assertEquals(MBUFS, shim.sluice_mempool_avail(pool), "every mbuf back in the pool");
    }

    @Test
    void rejectsAFrameBeyondItsBufferAnEmptyFrameAndANullEntryAndFreesThem()
    {
        final MbufArray tx = new MbufArray(5);
        assertEquals(4, shim.sluice_alloc_burst(pool, tx.address(), 4));
        final long first = tx.mbuf(0);
        final long last = tx.mbuf(3);
        tx.frame(0, 0, 60);
        tx.frame(1, tx.bufLen(1) - 10, 60);
        tx.frame(2, ShimLayout.MBUF_HEADROOM, 0);
        tx.frame(3, ShimLayout.MBUF_HEADROOM, 61);
        tx.mbuf(4, 0);
        assertEquals(2, shim.sluice_tx_burst(port, 0, tx.address(), 5));
        assertEquals(first, tx.mbuf(0), "a sent frame's entry is left as it was");
        assertEquals(0, tx.mbuf(1), "beyond its buffer: refused, entry zeroed");
        assertEquals(0, tx.mbuf(2), "empty: refused, entry zeroed");
        assertEquals(last, tx.mbuf(3));
        assertEquals(0, tx.mbuf(4));

        final MbufArray rx = new MbufArray(ShimLayout.BURST_MAX);
        assertEquals(2, shim.sluice_rx_burst(port, 0, rx.address(), ShimLayout.BURST_MAX));
        assertEquals(60, rx.dataLen(0), "the sent frames in order, without the refused ones");
        assertEquals(61, rx.dataLen(1));
        shim.sluice_free_burst(rx.address(), 2);
        shim.sluice_free_burst(rx.address(), 1);
        assertEquals(MBUFS, shim.sluice_mempool_avail(pool));
    }

    @Test
    void namesTheCallAndReasonWhenAControlCallFails()
    {
        final DpdkException missing = assertThrows(DpdkException.class, () -> dpdk.portByName("net_nothing9"));
        assertTrue(missing.getMessage().contains("net_nothing9"), missing.getMessage());
        final DpdkException again = assertThrows(DpdkException.class, () -> dpdk.initEal(List.of("--no-pci")));
        assertTrue(again.getMessage().contains("already"), again.getMessage());
        final DpdkException duplicate = assertThrows(DpdkException.class,
            () -> dpdk.createMempool("binding-test", 63, 0, 2176));
        assertTrue(duplicate.getMessage().contains("binding-test"), duplicate.getMessage());
    }
}
