package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.HexDump;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a pipeline's counters must read after a sequence of fixtures, accumulated from the fixtures' expectations
 * rather than from the pipeline. The connection table is modelled as a set of keys: a key's first lookup misses
 * and inserts (when a backend was chosen), later lookups hit. This holds while no bucket overflows and nothing
 * expires, which the fixtures' few flows and single clock reading guarantee.
 */
final class ExpectedCounters
{
    private final long[] verdicts = new long[Verdict.COUNT];
    private final long[] drops = new long[DropReason.count()];
    private final long[] passes = new long[PassReason.values().length];
    private final long[] vipPackets;
    private final long[] vipBytes;
    private final long[] backendPackets;
    private final long[] backendBytes;
    private final Set<String> connections = new HashSet<>();
    private long connectionHits;
    private long connectionMisses;

    ExpectedCounters(final int maxVips, final int maxBackends)
    {
        vipPackets = new long[maxVips];
        vipBytes = new long[maxVips];
        backendPackets = new long[maxBackends];
        backendBytes = new long[maxBackends];
    }

    void forwarded(final int vip, final int backend, final int frameLength, final byte[] key)
    {
        lookedUp(key, true);
        verdicts[Verdict.FORWARD]++;
        vipPackets[vip]++;
        vipBytes[vip] += frameLength;
        backendPackets[backend]++;
        backendBytes[backend] += frameLength;
    }

    /**
     * Records a drop; {@code key} is null when the frame never reached backend selection.
     */
    void dropped(final DropReason reason, final byte[] key, final boolean backendChosen)
    {
        if (key != null)
        {
            lookedUp(key, backendChosen);
        }
        verdicts[Verdict.DROP]++;
        drops[reason.ordinal()]++;
    }

    void passed(final PassReason reason)
    {
        verdicts[Verdict.PASS]++;
        passes[reason.ordinal()]++;
    }

    private void lookedUp(final byte[] key, final boolean backendChosen)
    {
        final String id = HexDump.hex(key);
        if (connections.contains(id))
        {
            connectionHits++;
            return;
        }
        connectionMisses++;
        if (backendChosen)
        {
            connections.add(id);
        }
    }

    long total()
    {
        return verdicts[Verdict.FORWARD] + verdicts[Verdict.PASS] + verdicts[Verdict.DROP];
    }

    /**
     * Asserts every counter exactly, listing all differences at once.
     */
    void assertMatches(final String name, final PipelineCounters actual)
    {
        final List<String> differences = new ArrayList<>();
        for (int v = 0; v < Verdict.COUNT; v++)
        {
            compare(differences, "verdict " + Verdict.name(v), verdicts[v], actual.verdict(v));
        }
        for (final DropReason reason : DropReason.values())
        {
            compare(differences, "drop " + reason, drops[reason.ordinal()], actual.dropped(reason));
        }
        for (final PassReason reason : PassReason.values())
        {
            compare(differences, "pass " + reason, passes[reason.ordinal()], actual.passed(reason));
        }
        for (int vip = 0; vip < vipPackets.length; vip++)
        {
            compare(differences, "vip " + vip + " packets", vipPackets[vip], actual.vipPackets(vip));
            compare(differences, "vip " + vip + " bytes", vipBytes[vip], actual.vipBytes(vip));
        }
        for (int backend = 0; backend < backendPackets.length; backend++)
        {
            compare(differences, "backend " + backend + " packets", backendPackets[backend],
                actual.backendPackets(backend));
            compare(differences, "backend " + backend + " bytes", backendBytes[backend], actual.backendBytes(backend));
        }
        compare(differences, "connection hits", connectionHits, actual.connectionHits());
        compare(differences, "connection misses", connectionMisses, actual.connectionMisses());
        compare(differences, "connection rebinds", 0, actual.connectionRebinds());
        assertEquals(List.of(), differences, name + ": counters differ (expected/actual)");
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
