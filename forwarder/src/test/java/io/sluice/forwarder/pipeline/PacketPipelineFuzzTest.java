package io.sluice.forwarder.pipeline;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.TunnelFrames;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Any bytes as a frame, alone or in bursts of up to 32, through the real {@link PacketPipeline} of
 * {@link PipelineTestbed}: nothing throws, nothing is read outside the frame, the counters add up, and every
 * forwarded frame is a well-formed GRE frame (rebuilt here from RFC 2784 with {@link TunnelFrames}) around the inner
 * packet, which stays where it was, unchanged. A dropped or passed frame is left as received.
 * <p>
 * Each frame sits in off-heap memory in a buffer whose capacity ends exactly where the frame ends, and the tests run
 * with Agrona's bounds checks on, so a read past the frame throws and Jazzer reports it. The buffers are windows
 * ({@link UnsafeBuffer#wrap(long, int)}) onto one region allocated once, so fuzzing does not spend its time
 * allocating direct memory. One pipeline serves every input, as a worker serves every frame: its 1024-entry
 * connection table fills, evicts and expires (the clock moves one second per input).
 */
class PacketPipelineFuzzTest
{
    private static final int MAX_FRAME = 9216;
    private static final int MAX_HEADROOM = 128;
    private static final int STRIDE = MAX_HEADROOM + MAX_FRAME;
    private static final int BURST_RECORD_HEADER = 3;

    private static final PipelineTestbed BED = PipelineTestbed.standard();
    private static final UnsafeBuffer REGION = OffHeapFrames.allocate(FrameBurst.MAX_BURST * STRIDE);
    private static final FrameBurst BURST = new FrameBurst();
    private static final UnsafeBuffer SINGLE = new UnsafeBuffer(0, 0);
    private static long nowNs = PipelineTestbed.NOW_NS;

    /**
     * One frame: the whole input, behind the testbed's usual 128 bytes of headroom.
     *
     * @param frame the frame.
     */
    @FuzzTest(maxDuration = "30s")
    void processesAnyFrame(final byte[] frame)
    {
        final byte[] input = frame.length > MAX_FRAME ? Arrays.copyOf(frame, MAX_FRAME) : frame;
        final Counts before = Counts.of(BED.counters);
        place(SINGLE, 0, PipelineTestbed.HEADROOM, input);
        final PacketPipeline pipeline = BED.pipeline;
        pipeline.beginBurst(tick());
        final int verdict = pipeline.process(SINGLE, PipelineTestbed.HEADROOM, input.length);
        final int outOffset = verdict == Verdict.FORWARD ? pipeline.outOffset() : PipelineTestbed.HEADROOM;
        final int outLength = verdict == Verdict.FORWARD ? pipeline.outLength() : input.length;
        check("frame", SINGLE, PipelineTestbed.HEADROOM, input, verdict, outOffset, outLength, pipeline.backend());
        Counts.of(BED.counters).assertAddUp(before, 1, verdict == Verdict.FORWARD ? 1 : 0,
            verdict == Verdict.FORWARD ? input.length : 0);
    }

    /**
     * A burst: the input is cut into records {@code [headroom u8][length u16 BE][frame bytes]}, up to 32; a record
     * whose length runs past the input takes what is left. Headroom is the first byte modulo 129, so frames
     * without room for the tunnel headers come along too.
     *
     * @param records the burst.
     */
    @FuzzTest(maxDuration = "30s")
    void processesAnyBurst(final byte[] records)
    {
        final byte[][] frames = new byte[FrameBurst.MAX_BURST][];
        final int[] headrooms = new int[FrameBurst.MAX_BURST];
        int count = 0;
        for (int at = 0; count < FrameBurst.MAX_BURST && at + BURST_RECORD_HEADER <= records.length; count++)
        {
            headrooms[count] = (records[at] & 0xFF) % (MAX_HEADROOM + 1);
            final int declared = (records[at + 1] & 0xFF) << 8 | records[at + 2] & 0xFF;
            at += BURST_RECORD_HEADER;
            final int length = Math.min(Math.min(declared, records.length - at), MAX_FRAME);
            frames[count] = Arrays.copyOfRange(records, at, at + length);
            at += length;
        }
        final Counts before = Counts.of(BED.counters);
        for (int i = 0; i < count; i++)
        {
            place(BURST.buffer(i), i, headrooms[i], frames[i]);
            BURST.frame(i, headrooms[i], frames[i].length);
        }
        BURST.count(count);

        final int forwarded = BED.pipeline.processBurst(BURST, tick());

        int forwardedFrames = 0;
        long forwardedBytes = 0;
        for (int i = 0; i < count; i++)
        {
            final int verdict = BURST.verdict(i);
            // The burst does not say which backend each frame went to; the outer destination must still be one.
            check("burst frame " + i, BURST.buffer(i), headrooms[i], frames[i], verdict, BURST.offset(i),
                BURST.length(i), -1);
            if (verdict == Verdict.FORWARD)
            {
                forwardedFrames++;
                forwardedBytes += frames[i].length;
            }
        }
        assertEquals(forwardedFrames, forwarded, "forwarded count returned");
        Counts.of(BED.counters).assertAddUp(before, count, forwardedFrames, forwardedBytes);
    }

    private static long tick()
    {
        nowNs += 1_000_000_000L;
        return nowNs;
    }

    // Copies a frame into slot `slot` of the region behind `headroom` bytes and points `buffer` at exactly that.
    private static void place(final UnsafeBuffer buffer, final int slot, final int headroom, final byte[] frame)
    {
        final int start = slot * STRIDE + MAX_HEADROOM - headroom;
        REGION.setMemory(start, headroom, (byte)0);
        REGION.putBytes(start + headroom, frame);
        buffer.wrap(REGION.addressOffset() + start, headroom + frame.length);
    }

    private static void check(final String what, final UnsafeBuffer buffer, final int headroom, final byte[] frame,
        final int verdict, final int outOffset, final int outLength, final int backend)
    {
        final byte[] memory = OffHeapFrames.toArray(buffer);
        switch (verdict)
        {
            case Verdict.FORWARD -> checkTunnelFrame(what, memory, headroom, frame, outOffset, outLength, backend);
            case Verdict.DROP, Verdict.PASS ->
            {
                assertEquals(headroom, outOffset, what + ": offset of a frame not forwarded");
                assertEquals(frame.length, outLength, what + ": length of a frame not forwarded");
                assertArrayEquals(frame, Arrays.copyOfRange(memory, headroom, memory.length),
                    () -> what + ": a frame not forwarded must be left as received\n" + HexDump.hex(frame));
            }
            default -> fail(what + ": verdict " + verdict);
        }
    }

    // The output must be exactly the RFC 2784 frame around the inner packet, which must not have moved or changed.
    private static void checkTunnelFrame(final String what, final byte[] memory, final int headroom,
        final byte[] frame, final int outOffset, final int outLength, final int backend)
    {
        final String input = "\n" + HexDump.hex(frame);
        final int outEnd = outOffset + outLength;
        assertTrue(outOffset >= 0 && outLength > 0 && outEnd <= memory.length, () -> what + ": output " +
            outOffset + "+" + outLength + " outside a buffer of " + memory.length + input);
        final boolean ipv6Outer = (memory[outOffset + 12] & 0xFF) == 0x86 && (memory[outOffset + 13] & 0xFF) == 0xDD;
        final int innerStart = outOffset + (ipv6Outer ? TunnelFrames.IPV6_OVERHEAD : TunnelFrames.IPV4_OVERHEAD);
        final int l3 = innerStart - headroom;
        assertTrue(l3 == 14 || l3 == 18, () -> what + ": inner packet at frame offset " + l3 + input);
        final byte[] inner = Arrays.copyOfRange(memory, innerStart, outEnd);
        assertArrayEquals(Arrays.copyOfRange(frame, l3, l3 + inner.length), inner,
            () -> what + ": inner packet changed" + input);
        assertEquals(innerLength(inner), inner.length, () -> what + ": inner packet is not its IP length" + input);

        final byte[] destination = ipv6Outer ? Arrays.copyOfRange(memory, outOffset + 38, outOffset + 54) :
            Arrays.copyOfRange(memory, outOffset + 30, outOffset + 34);
        if (backend >= 0)
        {
            assertArrayEquals(BED.backend(backend).getAddress(), destination,
                () -> what + ": outer destination is not the chosen backend" + input);
        }
        else
        {
            assertTrue(isBackend(destination), () -> what + ": outer destination is no backend" + input);
        }
        final int tos = (inner[0] & 0xF0) == 0x40 ? inner[1] & 0xFF : (inner[0] & 0x0F) << 4 | (inner[1] & 0xF0) >>> 4;
        final byte[] expected = ipv6Outer ?
            TunnelFrames.greIpv6(PipelineTestbed.NEXT_HOP_MAC, PipelineTestbed.OWN_MAC,
                BED.config.tunnelSourceV6().getAddress(), destination, tos, flowLabel(memory, outOffset), inner) :
            TunnelFrames.greIpv4(PipelineTestbed.NEXT_HOP_MAC, PipelineTestbed.OWN_MAC,
                BED.config.tunnelSourceV4().getAddress(), destination, tos, inner);
        final byte[] actual = Arrays.copyOfRange(memory, outOffset, outEnd);
        assertArrayEquals(expected, actual, () -> what + ": not the GRE frame expected\nexpected:\n" +
            HexDump.hex(expected) + "actual:\n" + HexDump.hex(actual) + "input:" + input);
    }

    private static int innerLength(final byte[] inner)
    {
        final int version = (inner[0] & 0xF0) >>> 4;
        if (version == 4)
        {
            return (inner[2] & 0xFF) << 8 | inner[3] & 0xFF;
        }
        assertEquals(6, version, "inner IP version");
        return 40 + ((inner[4] & 0xFF) << 8 | inner[5] & 0xFF);
    }

    // The flow label is 20 bits of the flow hash; its value is the pipeline's, the rest of the header is checked.
    private static int flowLabel(final byte[] memory, final int outOffset)
    {
        final int at = outOffset + 14;
        return (memory[at + 1] & 0x0F) << 16 | (memory[at + 2] & 0xFF) << 8 | memory[at + 3] & 0xFF;
    }

    private static boolean isBackend(final byte[] address)
    {
        for (int slot = 0; slot < BED.config.maxBackends(); slot++)
        {
            if (BED.backend(slot) != null && Arrays.equals(BED.backend(slot).getAddress(), address))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The counters at one moment, to compare with the frames of one input.
     */
    private record Counts(long[] verdicts, long drops, long passes, long vipPackets, long vipBytes,
        long backendPackets, long backendBytes, long lookups)
    {
        static Counts of(final PipelineCounters counters)
        {
            return new Counts(counters.verdicts.clone(), Arrays.stream(counters.drops).sum(),
                Arrays.stream(counters.passes).sum(), Arrays.stream(counters.vipPackets).sum(),
                Arrays.stream(counters.vipBytes).sum(), Arrays.stream(counters.backendPackets).sum(),
                Arrays.stream(counters.backendBytes).sum(),
                counters.connectionHits + counters.connectionMisses + counters.connectionRebinds);
        }

        void assertAddUp(final Counts before, final int frames, final int forwarded, final long forwardedBytes)
        {
            final long drop = verdicts[Verdict.DROP] - before.verdicts[Verdict.DROP];
            final long pass = verdicts[Verdict.PASS] - before.verdicts[Verdict.PASS];
            assertEquals(forwarded, verdicts[Verdict.FORWARD] - before.verdicts[Verdict.FORWARD], "FORWARD count");
            assertEquals(frames, forwarded + drop + pass, "every frame has one verdict");
            assertEquals(drop, drops - before.drops, "drop reasons add up to DROP");
            assertEquals(pass, passes - before.passes, "pass reasons add up to PASS");
            assertEquals(forwarded, vipPackets - before.vipPackets, "per-VIP packets add up to FORWARD");
            assertEquals(forwarded, backendPackets - before.backendPackets, "per-backend packets add up to FORWARD");
            assertEquals(forwardedBytes, vipBytes - before.vipBytes, "per-VIP bytes");
            assertEquals(forwardedBytes, backendBytes - before.backendBytes, "per-backend bytes");
            final long lookups = this.lookups - before.lookups;
            assertTrue(lookups >= forwarded && lookups <= frames, () -> lookups + " connection-table outcomes for " +
                forwarded + " forwarded of " + frames);
        }
    }
}
