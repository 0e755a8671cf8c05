package io.sluice.forwarder.process;

import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PassReason;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.PcapReader;
import io.sluice.forwarder.testing.PcapWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Compares what a forwarder process did (its output pcap, its counters file) with a {@link ReferenceWorker}, listing
 * every difference at once. On an output mismatch the input, expected and actual frames are written as pcaps under
 * {@code target/process-failures/<name>/} and the first differing frame is printed as hex.
 */
final class ReferenceComparison
{
    static final Path FAILURE_DIRECTORY = Path.of("target", "process-failures");

    private ReferenceComparison()
    {
    }

    /**
     * Asserts that the pcap holds exactly the reference's forwarded frames, in input order, byte for byte.
     */
    static void assertOutputMatches(final String name, final Path outPcap, final List<byte[]> input,
        final ReferenceWorker reference) throws IOException
    {
        final List<byte[]> actual = PcapReader.read(outPcap);
        final List<ReferenceWorker.Output> expected = reference.output();
        final int common = Math.min(actual.size(), expected.size());
        for (int i = 0; i < common; i++)
        {
            final ReferenceWorker.Output want = expected.get(i);
            if (!Arrays.equals(want.bytes(), actual.get(i)))
            {
                final Path dir = saveFailure(name, input, expected, actual);
                fail(name + ": output frame " + i + " (input frame " + want.inputIndex() + ") differs at byte " +
                    HexDump.firstDifference(want.bytes(), actual.get(i)) + "; pcaps in " + dir + "\ninput:\n" +
                    HexDump.hex(input.get(want.inputIndex())) + "\nexpected:\n" + HexDump.hex(want.bytes()) +
                    "\nactual:\n" + HexDump.hex(actual.get(i)));
            }
        }
        if (actual.size() != expected.size())
        {
            final Path dir = saveFailure(name, input, expected, actual);
            fail(name + ": expected " + expected.size() + " output frames, the forwarder sent " + actual.size() +
                " (the first " + common + " agree); pcaps in " + dir);
        }
    }

    /**
     * A single-port run checked whole: {@link #assertOutputMatches} on its pcap, then
     * {@link #assertCountersMatch} on all workers' counters summed.
     */
    static void assertRunMatches(final String name, final Path outPcap, final List<byte[]> input,
        final ReferenceWorker reference, final CounterValues values, final NodeSpec spec) throws IOException
    {
        assertOutputMatches(name, outPcap, input, reference);
        assertCountersMatch(name, values, CounterValues.ALL_WORKERS, reference, spec);
    }

    private static Path saveFailure(final String name, final List<byte[]> input,
        final List<ReferenceWorker.Output> expected, final List<byte[]> actual) throws IOException
    {
        final Path dir = Files.createDirectories(FAILURE_DIRECTORY.resolve(name));
        PcapWriter.write(dir.resolve("input.pcap"), input);
        final List<byte[]> expectedFrames = new ArrayList<>();
        expected.forEach(output -> expectedFrames.add(output.bytes()));
        PcapWriter.write(dir.resolve("expected.pcap"), expectedFrames);
        PcapWriter.write(dir.resolve("actual.pcap"), actual);
        return dir.toAbsolutePath();
    }

    /**
     * Asserts that one worker's counters in the file (or all workers' summed, for
     * {@link CounterValues#ALL_WORKERS}) equal the reference's: I/O, verdicts, every drop and pass reason, the
     * connection table, every VIP and backend.
     */
    static void assertCountersMatch(final String name, final CounterValues values, final int worker,
        final ReferenceWorker reference, final NodeSpec spec)
    {
        assertCountersMatch(name, values, worker, reference, spec, Set.of());
    }

    /**
     * As {@link #assertCountersMatch(String, CounterValues, int, ReferenceWorker, NodeSpec)}, leaving out
     * per-worker types that a separate test covers.
     */
    static void assertCountersMatch(final String name, final CounterValues values, final int worker,
        final ReferenceWorker reference, final NodeSpec spec, final Set<CounterType> notCompared)
    {
        final List<String> differences = new ArrayList<>();
        final PipelineCounters counters = reference.counters();
        compare(differences, "rx packets", reference.rxPackets(), workerValue(values, CounterType.RX_PACKETS, worker));
        if (!notCompared.contains(CounterType.RX_BYTES))
        {
            compare(differences, "rx bytes", reference.rxBytes(), workerValue(values, CounterType.RX_BYTES, worker));
        }
        compare(differences, "tx packets", reference.output().size(),
            workerValue(values, CounterType.TX_PACKETS, worker));
        compare(differences, "tx bytes", reference.txBytes(), workerValue(values, CounterType.TX_BYTES, worker));
        compare(differences, "tx full drops", 0, workerValue(values, CounterType.TX_FULL_DROPS, worker));
        compare(differences, "tx rejected", 0, workerValue(values, CounterType.TX_REJECTED, worker));
        compare(differences, "forwarded", counters.verdict(Verdict.FORWARD),
            workerValue(values, CounterType.FORWARDED, worker));
        compare(differences, "passed", counters.verdict(Verdict.PASS), workerValue(values, CounterType.PASSED, worker));
        compare(differences, "dropped", counters.verdict(Verdict.DROP),
            workerValue(values, CounterType.DROPPED, worker));
        compare(differences, "icmp echo replies v4", counters.icmpEchoRepliesV4(),
            workerValue(values, CounterType.ICMP_ECHO_REPLIES_V4, worker));
        compare(differences, "icmp echo replies v6", counters.icmpEchoRepliesV6(),
            workerValue(values, CounterType.ICMP_ECHO_REPLIES_V6, worker));
        compare(differences, "icmp rate limited", counters.dropped(DropReason.ICMP_RATE_LIMITED),
            workerValue(values, CounterType.ICMP_RATE_LIMITED, worker));
        compare(differences, "icmp too big sent v4", counters.icmpTooBigSentV4(),
            workerValue(values, CounterType.ICMP_TOO_BIG_SENT_V4, worker));
        compare(differences, "icmp too big sent v6", counters.icmpTooBigSentV6(),
            workerValue(values, CounterType.ICMP_TOO_BIG_SENT_V6, worker));
        compare(differences, "icmp too big suppressed", counters.icmpTooBigSuppressed(),
            workerValue(values, CounterType.ICMP_TOO_BIG_SUPPRESSED, worker));
        compare(differences, "outer fragmented", counters.outerFragmented(),
            workerValue(values, CounterType.OUTER_FRAGMENTED, worker));
        compare(differences, "outer fragments", counters.outerFragments(),
            workerValue(values, CounterType.OUTER_FRAGMENTS, worker));
        for (final DropReason reason : DropReason.values())
        {
            compare(differences, "drop " + reason, counters.dropped(reason),
                reasonValue(values, CounterType.DROP_REASON, worker, reason.ordinal()));
        }
        for (final PassReason reason : PassReason.values())
        {
            compare(differences, "pass " + reason, counters.passed(reason),
                reasonValue(values, CounterType.PASS_REASON, worker, reason.ordinal()));
        }
        compare(differences, "connection hits", counters.connectionHits(),
            workerValue(values, CounterType.CONN_HITS, worker));
        compare(differences, "connection misses", counters.connectionMisses(),
            workerValue(values, CounterType.CONN_MISSES, worker));
        compare(differences, "connection rebinds", counters.connectionRebinds(),
            workerValue(values, CounterType.CONN_REBINDS, worker));
        compare(differences, "connection entries", reference.connections().size(),
            workerValue(values, CounterType.CONN_ENTRIES, worker));
        final LoadBalancerState state = spec.newState();
        for (final NodeSpec.VipSpec vip : spec.vips())
        {
            final int index = state.vipIndex(vip.vip());
            compare(differences, "vip " + vip.vip() + " packets", counters.vipPackets(index),
                values.vip(CounterType.VIP_PACKETS, worker, index));
            compare(differences, "vip " + vip.vip() + " bytes", counters.vipBytes(index),
                values.vip(CounterType.VIP_BYTES, worker, index));
            for (final NodeSpec.BackendSpec backend : vip.backends())
            {
                final int slot = state.backendSlot(vip.vip(), NodeSpec.inet(backend.address()));
                compare(differences, "backend " + backend.address() + " packets", counters.backendPackets(slot),
                    values.backend(CounterType.BACKEND_PACKETS, worker, index, slot));
                compare(differences, "backend " + backend.address() + " bytes", counters.backendBytes(slot),
                    values.backend(CounterType.BACKEND_BYTES, worker, index, slot));
            }
        }
        assertEquals(List.of(), differences, name + (worker < 0 ? "" : " worker " + worker) +
            ": counters file differs from the in-process pipeline (expected/actual)\n" + values);
    }

    private static long workerValue(final CounterValues values, final CounterType type, final int worker)
    {
        return worker < 0 ? values.sum(type) : values.worker(type, worker);
    }

    private static long reasonValue(final CounterValues values, final CounterType type, final int worker,
        final int ordinal)
    {
        return worker < 0 ? values.reason(type, ordinal) : values.reason(type, worker, ordinal);
    }

    private static void compare(final List<String> differences, final String what, final long expected,
        final long actual)
    {
        if (expected != actual)
        {
            differences.add(what + ": " + expected + "/" + actual);
        }
    }
}
