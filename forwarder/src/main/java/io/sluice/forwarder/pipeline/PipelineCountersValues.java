package io.sluice.forwarder.pipeline;

/** Padding before a worker's pipeline counters: the object header's cache line is not theirs. */
abstract class PipelineCountersLhsPadding
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** The counters themselves, between the two paddings (see {@link PipelineCounters}). */
abstract class PipelineCountersValues extends PipelineCountersLhsPadding
{
    final long[] verdicts = new long[Verdict.COUNT];
    final long[] drops = new long[DropReason.count()];
    final long[] passes = new long[PassReason.values().length];
    final long[] vipPackets;
    final long[] vipBytes;
    final long[] backendPackets;
    final long[] backendBytes;
    long connectionHits;
    long connectionMisses;
    long connectionRebinds;
    long icmpEchoRepliesV4;
    long icmpEchoRepliesV6;
    long icmpTooBigSentV4;
    long icmpTooBigSentV6;
    long icmpTooBigSuppressed;
    long outerFragmented;
    long outerFragments;

    PipelineCountersValues(final int maxVips, final int maxBackends)
    {
        vipPackets = new long[maxVips];
        vipBytes = new long[maxVips];
        backendPackets = new long[maxBackends];
        backendBytes = new long[maxBackends];
    }
}
