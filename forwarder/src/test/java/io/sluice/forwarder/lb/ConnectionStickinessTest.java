package io.sluice.forwarder.lb;

import io.sluice.common.Vip;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.forwarder.testing.OffHeapFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connection-table semantics seen through the pipeline: flows keep their backend across Maglev rebuilds, draining
 * keeps existing flows, unhealthy or removed backends lose theirs, idle entries expire.
 */
class ConnectionStickinessTest
{
    private static final int FLOWS = 2000;
    private static final int HEADROOM = 128;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final Vip vip = new Vip(address("10.100.0.1"), 80, Vip.TCP);
    private final UnsafeBuffer frame = OffHeapFrames.allocate(HEADROOM + 64);
    private LoadBalancerState state;
    private SnapshotPublisher publisher;
    private PacketPipeline pipeline;
    private PipelineCounters counters;
    private long now = SECOND;

    private static InetAddress address(final String text)
    {
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(ex);
        }
    }

    private static InetAddress backend(final int i)
    {
        return address("10.1.0." + (i + 1));
    }

    @BeforeEach
    void setUp()
    {
        final PipelineConfig config = PipelineConfig.withDefaults(0x0200_0000_0001L, 0x0200_0000_0002L,
            (Inet4Address)address("10.0.0.100"), null, 0).withConnectionTableCapacity(1 << 14);
        state = new LoadBalancerState(config.maxVips(), config.maxBackends(), config.maglevTableSize(), 0);
        state.addVip(vip);
        for (int i = 0; i < 10; i++)
        {
            state.addBackend(vip, backend(i), 1, true);
        }
        publisher = new SnapshotPublisher(state.snapshot());
        counters = new PipelineCounters(config.maxVips(), config.maxBackends());
        pipeline = new PacketPipeline(config, publisher,
            new ConnectionTable(config.connectionTableCapacity(), config.tcpIdleTimeoutNs(),
                config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs()), counters);
    }

    private void publish()
    {
        publisher.publish(state.snapshot());
    }

    /** Sends flow {@code flow}'s next packet and returns the backend slot it went to. */
    private int send(final int flow)
    {
        assertEquals(Verdict.FORWARD, process(flow), "flow " + flow);
        return pipeline.backend();
    }

    private int process(final int flow)
    {
        final int at = HEADROOM;
        frame.setMemory(0, frame.capacity(), (byte)0);
        frame.putShort(at + 12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        frame.putByte(at + 14, (byte)0x45);
        frame.putShort(at + 16, (short)40, ByteOrder.BIG_ENDIAN);
        frame.putByte(at + 22, (byte)64);
        frame.putByte(at + 23, (byte)6);
        frame.putInt(at + 26, 0xC000_0200 + (flow >>> 12), ByteOrder.BIG_ENDIAN);
        frame.putInt(at + 30, 0x0A64_0001, ByteOrder.BIG_ENDIAN);
        frame.putShort(at + 34, (short)(1024 + (flow & 0xFFF)), ByteOrder.BIG_ENDIAN);
        frame.putShort(at + 36, (short)80, ByteOrder.BIG_ENDIAN);
        frame.putByte(at + 46, (byte)0x50);
        pipeline.beginBurst(now);
        return pipeline.process(frame, at, 60);
    }

    private int[] sendAll()
    {
        final int[] chosen = new int[FLOWS];
        for (int flow = 0; flow < FLOWS; flow++)
        {
            chosen[flow] = send(flow);
        }
        return chosen;
    }

    private int maglevChoice(final int flow)
    {
        send(flow);
        return publisher.current().maglev(state.vipIndex(vip)).lookup(pipeline.lastKey().hash(0));
    }

    @Test
    void keepsEveryFlowOnItsBackendWhenABackendIsAdded()
    {
        final int[] before = sendAll();
        state.addBackend(vip, backend(10), 1, true);
        publish();

        int wouldMove = 0;
        for (int flow = 0; flow < FLOWS; flow++)
        {
            assertEquals(before[flow], send(flow), "flow " + flow + " kept its backend");
            if (maglevChoice(flow) != before[flow])
            {
                wouldMove++;
            }
        }
        assertTrue(wouldMove > FLOWS / 20, "the new table moves about 1/11 of flows; only " + wouldMove + " moved");
    }

    @Test
    void keepsEveryFlowOnItsBackendWhileTheTableGrows()
    {
        // the same flows through a table that starts with 8 entries: it doubles ten times while they arrive, its
        // entries moved a few an insert and a step a packet; then the Maglev table changes, and every flow must
        // still find its entry
        final PipelineConfig config = PipelineConfig.withDefaults(0x0200_0000_0001L, 0x0200_0000_0002L,
            (Inet4Address)address("10.0.0.100"), null, 0);
        final ConnectionTable table = new ConnectionTable(1 << 14, 8, 0x5EED, config.tcpIdleTimeoutNs(),
            config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs());
        counters = new PipelineCounters(config.maxVips(), config.maxBackends());
        pipeline = new PacketPipeline(config, publisher, table, counters);
        final int[] before = sendAll();
        assertEquals(1 << 13, table.entriesInUse(), "2000 flows: doubled from 8 to 8192 entries");
        state.addBackend(vip, backend(10), 1, true);
        publish();

        int wouldMove = 0;
        for (int flow = 0; flow < FLOWS; flow++)
        {
            assertEquals(before[flow], send(flow), "flow " + flow + " kept its backend (evictions " +
                table.evictions() + ")");
            wouldMove += maglevChoice(flow) != before[flow] ? 1 : 0;
        }
        assertFalse(table.migrating());
        assertEquals(0, table.evictions());
        assertEquals(FLOWS, counters.connectionMisses(), "one miss a flow: its first packet");
        assertTrue(wouldMove > FLOWS / 20, "the new table moves about 1/11 of flows; only " + wouldMove + " moved");
    }

    @Test
    void newFlowsFollowTheNewTable()
    {
        state.addBackend(vip, backend(10), 1, true);
        publish();
        final int added = state.backendSlot(vip, backend(10));
        int toAdded = 0;
        for (final int chosen : sendAll())
        {
            toAdded += chosen == added ? 1 : 0;
        }
        assertEquals(FLOWS / 11.0, toAdded, FLOWS / 11.0 * 0.35);
    }

    @Test
    void drainingBackendKeepsItsFlowsButGetsNoNewOnes()
    {
        final int[] before = sendAll();
        final int drained = before[0];
        final InetAddress drainedAddress = backend(drained);
        state.setBackendWeight(vip, drainedAddress, 0);
        publish();

        for (int flow = 0; flow < FLOWS; flow++)
        {
            assertEquals(before[flow], send(flow), "existing flow " + flow + " stays");
        }
        for (int flow = FLOWS; flow < 2 * FLOWS; flow++)
        {
            assertNotEquals(drained, send(flow), "new flow " + flow + " avoids the draining backend");
        }
    }

    @Test
    void unhealthyBackendLosesItsFlowsAndOthersKeepTheirs()
    {
        final int[] before = sendAll();
        final int failed = before[0];
        state.setBackendHealthy(vip, backend(failed), false);
        publish();

        int moved = 0;
        for (int flow = 0; flow < FLOWS; flow++)
        {
            final int now = send(flow);
            if (before[flow] == failed)
            {
                assertNotEquals(failed, now, "flow " + flow + " left the failed backend");
                moved++;
            }
            else
            {
                assertEquals(before[flow], now, "flow " + flow + " untouched");
            }
        }
        assertEquals(moved, counters.connectionRebinds());
        assertTrue(moved > 0);
    }

    @Test
    void removedBackendsSlotReusedByAnotherBackendDoesNotInheritFlows()
    {
        final int[] before = sendAll();
        final int removed = before[0];
        state.removeBackend(vip, backend(removed));
        final int reused = state.addBackend(vip, address("10.2.0.1"), 0, true);
        assertEquals(removed, reused, "the freed slot is reused");
        assertTrue(counters.backendPackets(removed) > 0);
        publish();

        for (int flow = 0; flow < FLOWS; flow++)
        {
            final int chosen = send(flow);
            if (before[flow] == removed)
            {
                assertNotEquals(reused, chosen, "flow " + flow + " must not reach the new backend in the old slot");
            }
        }
        assertEquals(0, counters.backendPackets(reused), "the new backend's counters start from zero");
        assertEquals(0, counters.backendBytes(reused));
    }

    @Test
    void expiredFlowsArePickedAgainFromTheCurrentTable()
    {
        final int[] before = sendAll();
        state.addBackend(vip, backend(10), 1, true);
        publish();
        now += PipelineConfig.DEFAULT_TCP_IDLE_TIMEOUT_NS + SECOND;

        int changed = 0;
        for (int flow = 0; flow < FLOWS; flow++)
        {
            final int chosen = send(flow);
            assertEquals(maglevChoice(flow), chosen);
            changed += chosen != before[flow] ? 1 : 0;
        }
        assertTrue(changed > 0, "some flows follow the new table after expiry");
    }

    @Test
    void vipWithoutEligibleBackendsDropsAndRecovers()
    {
        final int first = send(0);
        for (int i = 0; i < 10; i++)
        {
            state.setBackendHealthy(vip, backend(i), false);
        }
        publish();
        assertEquals(Verdict.DROP, process(0));
        assertEquals(DropReason.NO_BACKEND.ordinal(), pipeline.dropReason());
        assertEquals(1, counters.dropped(DropReason.NO_BACKEND));

        state.setBackendHealthy(vip, backend(first), true);
        publish();
        assertEquals(first, send(0));
        assertEquals(first, send(1));
    }
}
