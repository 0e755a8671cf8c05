package io.sluice.forwarder.process;

import io.sluice.common.Vip;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlResponse;
import io.sluice.common.control.ForwarderServices;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevFingerprint;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.forwarder.process.CounterValues.ALL_WORKERS;
import static io.sluice.forwarder.process.NodeSpec.backend;
import static io.sluice.forwarder.process.NodeSpec.inet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Control commands through the shared-memory control channel change a running forwarder's forwarding while traffic
 * flows: net_pcap replays the same flows forever ({@code infinite_rx}) into the forwarder, which sends to net_null.
 * Since every replayed packet belongs to a flow the connection table already holds, the per-backend counters show
 * stickiness, removal, health and rejected commands exactly; the expected flow placement is computed in this JVM
 * from the same Maglev state.
 */
@NeedsDpdk
class ForwarderControlTest
{
    private static final int FLOWS = 64;
    private static final String VIP_ADDRESS = "10.100.0.1";
    private static final Vip VIP = new Vip(inet(VIP_ADDRESS), 80, Vip.TCP);
    private static final InetAddress A = inet("10.1.0.1");
    private static final InetAddress B = inet("10.1.0.2");
    private static final InetAddress C = inet("10.1.0.3");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    private NodeSpec spec;
    private ForwarderProcess forwarder;
    private LoadBalancerState model;
    private final List<byte[]> keys = new ArrayList<>();
    private int vipIndex;
    private int slotA;
    private int slotB;
    private int slotC;
    private int stateQueries;

    @Test
    void controlCommandsChangeForwardingWhileTrafficFlows() throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < FLOWS; i++)
        {
            final String client = "203.0.113." + (1 + i % 16);
            final int port = 40_000 + i;
            keys.add(FlowKeyBytes.flow(client, VIP_ADDRESS, port, 80, PacketBuilder.PROTO_TCP));
            frames.add(PacketBuilder.packet().ethernet(NodeSpec.mac(NodeSpec.DEFAULT_OWN_MAC), 0x02_5a_00_00_00_aaL)
                .ipv4(client, VIP_ADDRESS).tcp(port, 80).tcpFlags(PacketBuilder.TCP_ACK).payload(i).build());
        }
        final Path in = dir.resolve("flows.pcap");
        PcapWriter.write(in, frames);
        spec = NodeSpec.create(dir).vip(VIP_ADDRESS, 80, "tcp", backend("10.1.0.1", 1), backend("10.1.0.2", 1))
            .vdev("net_pcap0,rx_pcap=" + in + ",infinite_rx=1").vdev("net_null0")
            .port("net_pcap0").port("net_null0").worker(1, "net_pcap0", "net_null0");
        model = spec.newState();
        vipIndex = model.vipIndex(VIP);
        slotA = model.backendSlot(VIP, A);
        slotB = model.backendSlot(VIP, B);
        final Map<InetAddress, Integer> initial = placement();
        assertTrue(initial.get(A) > 0 && initial.get(B) > 0, "flows per backend at start: " + initial);

        forwarder = forwarders.start(spec, dir);
        forwarder.waitUntil("every flow has been seen twice and both backends count packets", () ->
        {
            final CounterValues values = forwarder.values();
            return values.sum(CounterType.RX_PACKETS) >= 2 * FLOWS && packets(values, slotA) > 0 &&
                packets(values, slotB) > 0;
        });
        assertStateSumsToTable(Map.of(A, 1, B, 1), Map.of());
        assertEquals(FLOWS, forwarder.values().sum(CounterType.CONN_MISSES), "each flow misses once");
        mbufPoolsAreSampled();

        addedBackendGetsNoPacketsOfEstablishedFlows();
        rejectedCommandsChangeNothing();
        removedBackendStopsAndOnlyItsFlowsMove(initial.get(A));
        backendMarkedDownStopsAndItsFlowsMove(initial.get(B));

        final long replayed = forwarder.rxPackets();
        final long stopMs = forwarder.stop();
        System.out.printf("controlCommands: %d flows replayed as %d packets; running after %d ms, stopped in %d ms%n",
            FLOWS, replayed, forwarder.runningAfterMs(), stopMs);
    }

    private void addedBackendGetsNoPacketsOfEstablishedFlows()
    {
        accept(new ControlCommand.AddBackend(VIP, C, 1, true, "c"));
        model.addBackend(VIP, C, 1, true);
        slotC = model.backendSlot(VIP, C);
        assertTrue(placement().getOrDefault(C, 0) > 0, "some flows would go to C if they were new");
        assertStateSumsToTable(Map.of(A, 1, B, 1, C, 1), Map.of());
        final Samples samples = sampleTwice(slotA, slotB, slotC);
        samples.assertGrowing(slotA, slotB);
        samples.assertFlat(slotC);
        assertEquals(0, samples.second.get(slotC), "the new backend received packets of established flows");
        assertEquals(FLOWS, samples.values.sum(CounterType.CONN_MISSES), "replayed flows are connection hits");
        assertEquals(0, samples.values.sum(CounterType.CONN_REBINDS), "connection rebinds");
    }

    private void rejectedCommandsChangeNothing()
    {
        final ControlResponse duplicate = forwarder.control().execute(
            new ControlCommand.AddBackend(VIP, B, 1, true, "b-again"), COMMAND_TIMEOUT);
        assertEquals(ControlResponse.Status.REJECTED, duplicate.status(), duplicate.toString());
        assertTrue(duplicate.reason().contains("already in VIP"), duplicate.reason());
        final Vip unknown = new Vip(inet("10.100.0.99"), 80, Vip.TCP);
        final ControlResponse noSuchVip = forwarder.control().execute(
            new ControlCommand.AddBackend(unknown, C, 1, true, "c"), COMMAND_TIMEOUT);
        assertEquals(ControlResponse.Status.REJECTED, noSuchVip.status(), noSuchVip.toString());
        assertTrue(noSuchVip.reason().contains("no such VIP"), noSuchVip.reason());
        final Samples samples = sampleTwice(slotA, slotB, slotC);
        samples.assertGrowing(slotA, slotB);
        samples.assertFlat(slotC);
        assertEquals(2, samples.values.process(CounterType.CONTROL_COMMANDS_REJECTED), "rejected commands");
        assertStateSumsToTable(Map.of(A, 1, B, 1, C, 1), Map.of());
    }

    /**
     * A removed backend's flows are re-picked from the new table (each rebinds once); the others keep theirs.
     */
    private void removedBackendStopsAndOnlyItsFlowsMove(final int flowsOnA)
    {
        final List<Integer> idsOfA = forwarder.values().backendPacketIds(vipIndex, slotA);
        assertEquals(1, idsOfA.size(), "packet counters of A");
        accept(new ControlCommand.RemoveBackend(VIP, A));
        model.removeBackend(VIP, A);
        final Samples samples = sampleTwice(slotB, slotC);
        samples.assertGrowing(slotB);
        if (countMoved(A, C) > 0)
        {
            samples.assertGrowing(slotC);
        }
        else
        {
            samples.assertFlat(slotC);
        }
        assertFalse(samples.values.hasBackend(vipIndex, slotA), "the removed backend's counters are freed");
        final long removedValue = forwarder.valueOf(idsOfA.get(0));
        final long rx = forwarder.rxPackets();
        forwarder.waitUntil("two more replays", () -> forwarder.rxPackets() >= rx + 2 * FLOWS);
        assertEquals(removedValue, forwarder.valueOf(idsOfA.get(0)), "the removed backend's counter grew");
        assertEquals(flowsOnA, samples.values.sum(CounterType.CONN_REBINDS), "each flow of A rebinds once");
        assertEquals(FLOWS, samples.values.sum(CounterType.CONN_MISSES), "connection misses");
        assertStateSumsToTable(Map.of(B, 1, C, 1), Map.of());
    }

    /**
     * A backend marked down takes no packets at all: its flows (its own and those it took over from A) move to the
     * only healthy backend.
     */
    private void backendMarkedDownStopsAndItsFlowsMove(final int initialFlowsOnB)
    {
        final int flowsOnB = initialFlowsOnB + countMoved(A, B);
        final long rebindsBefore = forwarder.values().sum(CounterType.CONN_REBINDS);
        accept(new ControlCommand.SetBackendHealth(VIP, B, false));
        model.setBackendHealthy(VIP, B, false);
        final Samples samples = sampleTwice(slotB, slotC);
        samples.assertFlat(slotB);
        samples.assertGrowing(slotC);
        assertEquals(flowsOnB, samples.values.sum(CounterType.CONN_REBINDS) - rebindsBefore, "rebinds after B down");
        assertEquals(FLOWS, samples.values.sum(CounterType.CONN_ENTRIES), "connection entries");
        assertEquals(2, samples.values.process(CounterType.CONTROL_COMMANDS_REJECTED), "rejected commands");
        assertEquals(3 + stateQueries, samples.values.process(CounterType.CONTROL_COMMANDS_APPLIED),
            "applied commands: add, remove, set-health, and the GET_STATE queries");
        assertStateSumsToTable(Map.of(B, 1, C, 1), Map.of(B, false));
    }

    private void accept(final ControlCommand command)
    {
        final ControlResponse response = forwarder.control().execute(command, COMMAND_TIMEOUT);
        assertEquals(ControlResponse.Status.ACCEPTED, response.status(), command + ": " + response);
    }

    /**
     * Each port's pool is sampled: net_pcap0's (one RX queue a worker polls) holds the default mbufs, net_null0's
     * (transmit only) its one receive ring and two caches, 2047 (ForwarderConfig.poolMbufs); some are free, and the
     * sampler keeps the count current.
     */
    private void mbufPoolsAreSampled()
    {
        forwarder.waitUntil("the control thread samples both pools",
            () -> forwarder.values().sum(CounterType.PORT_MBUFS_TOTAL) ==
                ForwarderConfig.DEFAULT_MBUFS_PER_WORKER + 2047L);
        final CounterValues values = forwarder.values();
        final long available = values.sum(CounterType.PORT_MBUFS_AVAILABLE);
        assertTrue(available > 0 && available <= values.sum(CounterType.PORT_MBUFS_TOTAL),
            "mbufs available " + available + " of " + values.sum(CounterType.PORT_MBUFS_TOTAL));
    }

    /**
     * Asks GET_STATE and checks each backend's weight and health, and that the healthy ones own every Maglev slot.
     */
    private void assertStateSumsToTable(final Map<InetAddress, Integer> weights, final Map<InetAddress, Boolean> down)
    {
        final ForwarderServices state = forwarder.control().getState(COMMAND_TIMEOUT);
        stateQueries++;
        final ForwarderServices.VipState vip = state.vip(VIP);
        assertNotNull(vip, "GET_STATE lacks " + VIP + ": " + state);
        assertEquals(weights.size(), vip.backends().size(), "backends in GET_STATE: " + vip);
        int slots = 0;
        for (final Map.Entry<InetAddress, Integer> expected : weights.entrySet())
        {
            final ForwarderServices.BackendState backend = vip.backend(expected.getKey());
            assertNotNull(backend, expected.getKey() + " missing from " + vip);
            assertEquals(expected.getValue(), backend.weight(), "weight of " + backend);
            final boolean healthy = !down.containsKey(expected.getKey());
            assertEquals(healthy, backend.healthy(), "health of " + backend);
            assertEquals(healthy, backend.maglevSlots() > 0, "slots of " + backend);
            slots += backend.maglevSlots();
        }
        assertEquals(65_537, slots, "Maglev slots of " + vip);
        // The fingerprint is written when the table is published, before the command is acknowledged.
        final List<MaglevBackend> modelBackends = new ArrayList<>();
        for (final LoadBalancerState.BackendView backend : model.backends(VIP))
        {
            modelBackends.add(new MaglevBackend(backend.address().getAddress(), backend.weight(), backend.slot()));
        }
        assertEquals(MaglevFingerprint.of(model.snapshot().maglev(vipIndex), modelBackends),
            forwarder.values().vip(CounterType.VIP_MAGLEV_FINGERPRINT, ALL_WORKERS, vipIndex),
            "Maglev fingerprint of " + vip);
        for (final InetAddress gone : List.of(A, B, C))
        {
            if (!weights.containsKey(gone))
            {
                assertNull(vip.backend(gone), gone + " should be gone: " + vip);
            }
        }
    }

    /**
     * Where each flow goes in the model's current Maglev table, as a count per backend.
     */
    private Map<InetAddress, Integer> placement()
    {
        final Map<InetAddress, Integer> counts = new LinkedHashMap<>();
        for (final byte[] key : keys)
        {
            counts.merge(backendOf(key), 1, Integer::sum);
        }
        return counts;
    }

    private InetAddress backendOf(final byte[] key)
    {
        final int slot = model.snapshot().maglev(vipIndex).lookup(FlowKeyBytes.hash(key, spec.hashSeed()));
        for (final LoadBalancerState.BackendView backend : model.backends(VIP))
        {
            if (backend.slot() == slot)
            {
                return backend.address();
            }
        }
        throw new AssertionError("slot " + slot + " is no backend of " + VIP);
    }

    /**
     * Counts the flows that were on {@code from} in the initial table and go to {@code to} in the current one.
     */
    private int countMoved(final InetAddress from, final InetAddress to)
    {
        final LoadBalancerState initial = spec.newState();
        int moved = 0;
        for (final byte[] key : keys)
        {
            final int slot = initial.snapshot().maglev(vipIndex).lookup(FlowKeyBytes.hash(key,
                spec.hashSeed()));
            if (slot == initial.backendSlot(VIP, from) && backendOf(key).equals(to))
            {
                moved++;
            }
        }
        return moved;
    }

    private long packets(final CounterValues values, final int slot)
    {
        return values.backend(CounterType.BACKEND_PACKETS, ALL_WORKERS, vipIndex, slot);
    }

    /**
     * Waits until the worker forwards with the latest published state and every flow has been replayed twice since,
     * then samples the backends, waits for two more replays and samples again.
     */
    private Samples sampleTwice(final int... slots)
    {
        final long version = forwarder.values().process(CounterType.FORWARDING_STATE_VERSION);
        forwarder.waitUntil("the worker uses forwarding state " + version,
            () -> forwarder.values().worker(CounterType.SNAPSHOT_VERSION, 0) >= version);
        final long rx = forwarder.rxPackets();
        forwarder.waitUntil("two replays with the new state", () -> forwarder.rxPackets() >= rx + 2 * FLOWS);
        forwarder.awaitCompleteFlush();
        final Map<Integer, Long> first = sample(slots);
        final long rx1 = forwarder.rxPackets();
        forwarder.waitUntil("two more replays", () -> forwarder.rxPackets() >= rx1 + 2 * FLOWS);
        forwarder.awaitCompleteFlush();
        final CounterValues values = forwarder.values();
        final Map<Integer, Long> second = sample(values, slots);
        return new Samples(first, second, values);
    }

    private Map<Integer, Long> sample(final int... slots)
    {
        return sample(forwarder.values(), slots);
    }

    private Map<Integer, Long> sample(final CounterValues values, final int... slots)
    {
        final Map<Integer, Long> sample = new LinkedHashMap<>();
        for (final int slot : slots)
        {
            sample.put(slot, packets(values, slot));
        }
        return sample;
    }

    /**
     * Two samples of backend packet counters, two replays apart, and the counters at the second.
     */
    private record Samples(Map<Integer, Long> first, Map<Integer, Long> second, CounterValues values)
    {
        void assertGrowing(final int... slots)
        {
            for (final int slot : slots)
            {
                assertTrue(second.get(slot) > first.get(slot), "backend slot " + slot + " stopped receiving: " +
                    first + " then " + second + "\n" + values);
            }
        }

        void assertFlat(final int... slots)
        {
            for (final int slot : slots)
            {
                assertEquals(first.get(slot), second.get(slot), "backend slot " + slot + " still receives: " +
                    first + " then " + second + "\n" + values);
            }
        }
    }
}
