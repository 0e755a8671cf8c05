package io.sluice.forwarder.process;

import io.sluice.common.Vip;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlResponse;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.forwarder.process.CounterValues.ALL_WORKERS;
import static io.sluice.forwarder.process.NodeSpec.backend;
import static io.sluice.forwarder.process.NodeSpec.inet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SYN flood against the real forwarder process: net_pcap replays ({@code infinite_rx}) a pcap of 204,800 new TCP
 * flows (one SYN each from its own source address, to one VIP) mixed with 16 established flows (to another VIP, one of
 * their packets every 16
 * frames) into one worker whose connection table holds 4,096 entries; the worker sends to net_null. Each replay
 * brings every SYN flow back long after the flood evicted it, so the forwarder sees millions of new flows.
 * <p>
 * Asserted, never speed: resident memory stays flat after warm-up; no garbage collection while the flood runs; every
 * SYN misses the table and every miss beyond the table's 4,096 entries evicts one, while the established flows hit
 * every time after their first packet; a backend added to the established flows' VIP during the flood receives none
 * of their packets (Maglev would give it some of them if they were new, so an evicted established flow would show);
 * and the forwarder exits cleanly.
 */
@NeedsDpdk
class SynFloodTest
{
    private static final int CAPACITY = 4096;
    // infinite_rx holds the whole pcap in mbufs of the port's pool: 204,800 SYNs + 1 established frame in 16 are
    // 218,454 frames, so the pools get that many mbufs (+8192) and EAL 2.5 GiB (two ports' pools, about 1 GiB).
    private static final int SYN_FLOWS = 204_800;
    private static final int ESTABLISHED_FLOWS = 16;
    private static final int ESTABLISHED_EVERY = 16;
    private static final String FLOOD_VIP = "10.100.0.1";
    private static final String SERVICE_VIP = "10.100.0.2";
    private static final Vip SERVICE = new Vip(inet(SERVICE_VIP), 443, Vip.TCP);
    private static final InetAddress SERVICE_BACKEND = inet("10.2.0.1");
    private static final InetAddress ADDED_BACKEND = inet("10.2.0.2");
    private static final Duration WARM_UP = Duration.ofSeconds(4);
    private static final Duration WINDOW = Duration.ofSeconds(8);
    private static final long SAMPLE_MS = 250;
    /**
     * Resident memory may grow by this much from the window's first quarter to its last: a leak of half a byte per
     * frame (the window carries tens of millions) is well above it.
     */
    private static final long RSS_TOLERANCE_KB = 8 * 1024;

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    @Test
    void floodEvictsOnlyNewFlowsWithFlatMemoryAndNoGc() throws IOException
    {
        final List<byte[]> established = new ArrayList<>();
        final List<byte[]> frames = flood(established);
        final Path in = dir.resolve("flood.pcap");
        PcapWriter.write(in, frames);
        final Path gcLog = dir.resolve("gc.log");
        // infinite_rx loads the whole pcap into mbufs of the worker's pool; every port gets a pool of that size.
        final NodeSpec spec = NodeSpec.create(dir)
            .vip(FLOOD_VIP, 80, "tcp", backend("10.1.0.1", 1), backend("10.1.0.2", 1))
            .vip(SERVICE_VIP, 443, "tcp", backend(SERVICE_BACKEND.getHostAddress(), 1))
            .vdev("net_pcap0,rx_pcap=" + in + ",infinite_rx=1").vdev("net_null0")
            .port("net_pcap0").port("net_null0").worker(1, "net_pcap0", "net_null0")
            .connectionTableCapacity(CAPACITY).mbufsPerWorker(frames.size() + 8192).ealMemoryMb(2560);
        final LoadBalancerState model = spec.newState();
        final int floodVip = model.vipIndex(new Vip(inet(FLOOD_VIP), 80, Vip.TCP));
        final int serviceVip = model.vipIndex(SERVICE);
        final int serviceSlot = model.backendSlot(SERVICE, SERVICE_BACKEND);
        model.addBackend(SERVICE, ADDED_BACKEND, 1, true);
        final int addedSlot = model.backendSlot(SERVICE, ADDED_BACKEND);
        final int wouldMove = wouldMove(model, spec, serviceVip, addedSlot, established);
        assertTrue(wouldMove > 0, "with the added backend some established flows would move if they were new");

        final ForwarderProcess forwarder = forwarders.launch(spec, spec.toYaml(), dir,
            "-Xlog:gc:file=" + gcLog).awaitRunning();
        final long pid = forwarder.process().pid();
        forwarder.waitUntil("two replays of the flood", () -> forwarder.rxPackets() >= 2L * frames.size(),
            Duration.ofSeconds(40));
        sleep(WARM_UP.toMillis());

        final ControlResponse added = forwarder.control().execute(
            new ControlCommand.AddBackend(SERVICE, ADDED_BACKEND, 1, true, "added"), Duration.ofSeconds(5));
        assertEquals(ControlResponse.Status.ACCEPTED, added.status(), added.toString());
        final long version = forwarder.values().process(CounterType.FORWARDING_STATE_VERSION);
        forwarder.waitUntil("the worker uses the state with the added backend",
            () -> forwarder.values().worker(CounterType.SNAPSHOT_VERSION, 0) >= version);

        // The window: memory sampled, collections counted, while the flood goes on.
        final long gcBefore = collections(gcLog);
        final long rxBefore = forwarder.rxPackets();
        final long[] rssSamples = new long[(int)(WINDOW.toMillis() / SAMPLE_MS) + 8];
        int samples = 0;
        final long end = System.nanoTime() + WINDOW.toNanos();
        while (System.nanoTime() < end && samples < rssSamples.length)
        {
            rssSamples[samples++] = residentKb(pid);
            sleep(SAMPLE_MS);
        }
        final long rxInWindow = forwarder.rxPackets() - rxBefore;
        // C2's compiler arenas malloc and free several MiB at a time (seen: one malloc arena 6-9 MiB up, then back
        // down, within the window): a leak is growth that stays, so compare the lowest sample of the first quarter
        // with the lowest of the last.
        final int quarter = Math.max(1, samples / 4);
        final long rssFirst = min(rssSamples, 0, quarter);
        final long rssLast = min(rssSamples, samples - quarter, samples);
        final long rssMin = min(rssSamples, 0, samples);
        final long rssMax = max(rssSamples, samples);
        final long gcInWindow = collections(gcLog) - gcBefore;
        forwarder.stop(); // asserts exit status 0
        final CounterValues values = forwarder.values(); // the workers' last flush, taken on the way out

        final long synPackets = values.vip(CounterType.VIP_PACKETS, ALL_WORKERS, floodVip);
        final long servicePackets = values.vip(CounterType.VIP_PACKETS, ALL_WORKERS, serviceVip);
        final long misses = values.sum(CounterType.CONN_MISSES);
        final long hits = values.sum(CounterType.CONN_HITS);
        final long evictions = values.sum(CounterType.CONN_EVICTIONS);
        final long entries = values.sum(CounterType.CONN_ENTRIES);
        System.out.printf("synFlood: %d SYN flows + %d established in a %d-frame pcap, %d frames in total (%d in the " +
            "%d s window), %d misses, %d hits, %d evictions, %d entries; RSS %d..%d kB over %d samples; %d GCs in " +
            "the " +
            "window; %d of the established flows would move to the added backend if new%n", SYN_FLOWS,
            ESTABLISHED_FLOWS, frames.size(), values.sum(CounterType.RX_PACKETS), rxInWindow, WINDOW.toSeconds(),
            misses, hits, evictions, entries, rssMin, rssMax, samples, gcInWindow, wouldMove);

        assertTrue(SYN_FLOWS >= 200_000, "hundreds of thousands of distinct new flows: " + SYN_FLOWS);
        assertEquals(SYN_FLOWS, distinctSynFlows(frames), "distinct SYN flows in the pcap");
        assertTrue(synPackets >= 2L * SYN_FLOWS, "SYN packets forwarded: " + synPackets);
        assertTrue(rxInWindow >= SYN_FLOWS, "the flood ran through the window: " + rxInWindow + " frames");
        assertEquals(0, gcInWindow, "collections during the flood (" + gcLog + ")\n" + read(gcLog));
        assertTrue(rssLast - rssFirst <= RSS_TOLERANCE_KB, "resident memory grew from " + rssFirst + " kB (lowest of " +
            "the window's first quarter) to " + rssLast + " kB (lowest of its last quarter); samples " +
            Arrays.toString(Arrays.copyOf(rssSamples, samples)));
        assertEquals(0, values.sum(CounterType.CONN_EXPIRATIONS), "expirations");
        assertEquals(0, values.sum(CounterType.CONN_REBINDS), "rebinds");
        assertEquals(synPackets + ESTABLISHED_FLOWS, misses, "every SYN misses, each established flow once");
        assertEquals(servicePackets - ESTABLISHED_FLOWS, hits, "established flows hit after their first packet");
        assertEquals(CAPACITY, entries, "the table is full");
        assertEquals(misses - CAPACITY, evictions, "every miss beyond the table's capacity evicts one entry");
        assertEquals(servicePackets, values.backend(CounterType.BACKEND_PACKETS, ALL_WORKERS, serviceVip, serviceSlot),
            "the established flows' packets all went to their backend");
        assertEquals(0, values.backend(CounterType.BACKEND_PACKETS, ALL_WORKERS, serviceVip, addedSlot),
            "packets of established flows on the backend added during the flood");
    }

    private static long min(final long[] values, final int from, final int to)
    {
        long min = Long.MAX_VALUE;
        for (int i = from; i < to; i++)
        {
            min = Math.min(min, values[i]);
        }
        return min;
    }

    private static long max(final long[] values, final int count)
    {
        long max = 0;
        for (int i = 0; i < count; i++)
        {
            max = Math.max(max, values[i]);
        }
        return max;
    }

    // SYN flows to the flood VIP; every 16th frame is one of the established flows, in turn, to the service VIP.
    private static List<byte[]> flood(final List<byte[]> establishedKeys)
    {
        final long ownMac = NodeSpec.mac(NodeSpec.DEFAULT_OWN_MAC);
        final long routerMac = PacketBuilder.mac("02:5a:00:00:00:aa");
        final List<byte[]> established = new ArrayList<>();
        for (int i = 0; i < ESTABLISHED_FLOWS; i++)
        {
            final String client = "203.0.113." + (10 + i);
            establishedKeys.add(FlowKeyBytes.flow(client, SERVICE_VIP, 50_000 + i, 443, PacketBuilder.PROTO_TCP));
            established.add(PacketBuilder.packet().ethernet(ownMac, routerMac).ipv4(client, SERVICE_VIP)
                .tcp(50_000 + i, 443).tcpFlags(PacketBuilder.TCP_ACK).payload(100).build());
        }
        final List<byte[]> frames = new ArrayList<>(SYN_FLOWS + SYN_FLOWS / (ESTABLISHED_EVERY - 1) + 1);
        int next = 0;
        for (int i = 0; i < SYN_FLOWS; i++)
        {
            if (frames.size() % ESTABLISHED_EVERY == 0)
            {
                frames.add(established.get(next++ % ESTABLISHED_FLOWS));
            }
            // 204,800 distinct sources (10.64.0.0 to 10.67.31.255), each a SYN from its own port.
            final String source = "10." + (64 + (i >>> 16)) + "." + (i >>> 8 & 0xFF) + "." + (i & 0xFF);
            frames.add(PacketBuilder.packet().ethernet(ownMac, routerMac).ipv4(source, FLOOD_VIP)
                .tcp(1024 + i % 60_000, 80).tcpFlags(PacketBuilder.TCP_SYN).build());
        }
        return frames;
    }

    // Distinct (source, source port) pairs among the SYN frames: IPv4 source at 26, TCP source port at 34.
    private static int distinctSynFlows(final List<byte[]> frames)
    {
        final java.util.Set<Long> flows = new java.util.HashSet<>();
        for (final byte[] frame : frames)
        {
            if ((frame[47] & PacketBuilder.TCP_SYN) != 0)
            {
                final long source = (frame[26] & 0xFFL) << 24 | (frame[27] & 0xFFL) << 16 | (frame[28] & 0xFFL) << 8 |
                    frame[29] & 0xFFL;
                flows.add(source << 16 | (frame[34] & 0xFFL) << 8 | frame[35] & 0xFFL);
            }
        }
        return flows.size();
    }

    private static int wouldMove(final LoadBalancerState model, final NodeSpec spec, final int vip, final int addedSlot,
        final List<byte[]> keys)
    {
        int moved = 0;
        for (final byte[] key : keys)
        {
            moved += model.snapshot().maglev(vip).lookup(FlowKeyBytes.hash(key, spec.hashSeed())) == addedSlot ? 1 : 0;
        }
        return moved;
    }

    // Unified logging writes one line per collection: "[...][info][gc] GC(3) Pause Young (Allocation Failure) ...".
    private static long collections(final Path gcLog)
    {
        return read(gcLog).lines().filter(line -> line.contains(" Pause ")).count();
    }

    private static long residentKb(final long pid)
    {
        for (final String line : read(Path.of("/proc/" + pid + "/status")).split("\n"))
        {
            if (line.startsWith("VmRSS:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmRSS in /proc/" + pid + "/status");
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
