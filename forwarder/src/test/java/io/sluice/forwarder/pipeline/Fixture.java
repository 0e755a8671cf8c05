package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Katran-style packet fixture: a description, an input frame, the expected verdict and either the exact frame
 * the backend must receive or the drop or pass reason. {@link #run()} feeds it to its testbed's pipeline and
 * returns a failure report (description, input, expected and actual as hex, and a pcap under
 * {@code target/fixture-failures/}) or null.
 *
 * @param description       what the fixture shows, unique.
 * @param bed               the pipeline to run on.
 * @param headroom          bytes in front of the frame in its buffer.
 * @param input             the received frame.
 * @param verdict           expected {@link Verdict}.
 * @param expectedOutput    for FORWARD, the exact encapsulated frame.
 * @param expectedOutOffset for FORWARD, where it starts in the buffer (the inner packet never moves).
 * @param dropReason        for DROP, the reason.
 * @param passReason        for PASS, the reason.
 * @param vip               the VIP the flow matches, or null when none is reached.
 * @param backend           the backend slot chosen (FORWARD, or a drop after selection), else -1.
 * @param key               canonical flow key bytes when backend selection is reached, else null.
 */
record Fixture(
    String description,
    PipelineTestbed bed,
    int headroom,
    byte[] input,
    int verdict,
    byte[] expectedOutput,
    int expectedOutOffset,
    DropReason dropReason,
    PassReason passReason,
    Vip vip,
    int backend,
    byte[] key)
{
    static final Path FAILURE_DIRECTORY = Path.of("target", "fixture-failures");

    static Fixture forward(final String description, final PipelineTestbed bed, final int headroom,
        final PacketBuilder packet, final Vip vip, final byte[] key)
    {
        final byte[] input = packet.build();
        return forwardFrame(description, bed, headroom, input, packet.l3Offset(), packet.ipPacket(),
            packet.tosValue(), vip, key);
    }

    /**
     * A frame that must reach the backend of {@code key}, with its inner IP packet and DSCP/ECN given explicitly.
     */
    static Fixture forwardFrame(final String description, final PipelineTestbed bed, final int headroom,
        final byte[] input, final int l3Offset, final byte[] innerIp, final int tos, final Vip vip, final byte[] key)
    {
        final int slot = bed.expectedSlot(vip, key);
        if (slot == MaglevTable.NO_BACKEND)
        {
            throw new IllegalStateException(description + ": the VIP has no backend for this flow");
        }
        final byte[] expected = bed.expectedTunnelFrame(slot, key, innerIp, tos);
        return new Fixture(description, bed, headroom, input, Verdict.FORWARD, expected,
            headroom + l3Offset - bed.overhead(slot), null, null, vip, slot, key);
    }

    static Fixture forward(final String description, final PipelineTestbed bed, final PacketBuilder packet,
        final Vip vip, final byte[] key)
    {
        return forward(description, bed, PipelineTestbed.HEADROOM, packet, vip, key);
    }

    /**
     * A flow that reaches backend selection and is then dropped (no backend, or encapsulation impossible).
     */
    static Fixture dropAfterSelection(final String description, final PipelineTestbed bed, final int headroom,
        final byte[] input, final DropReason reason, final Vip vip, final byte[] key)
    {
        return new Fixture(description, bed, headroom, input, Verdict.DROP, null, -1, reason, null, vip,
            bed.expectedSlot(vip, key), key);
    }

    static Fixture drop(final String description, final PipelineTestbed bed, final byte[] input,
        final DropReason reason)
    {
        return new Fixture(description, bed, PipelineTestbed.HEADROOM, input, Verdict.DROP, null, -1, reason, null,
            null, -1, null);
    }

    static Fixture pass(final String description, final PipelineTestbed bed, final byte[] input,
        final PassReason reason)
    {
        return new Fixture(description, bed, PipelineTestbed.HEADROOM, input, Verdict.PASS, null, -1, null, reason,
            null, -1, null);
    }

    /**
     * Runs fixtures in order, printing and returning every failure report.
     *
     * @return the reports, empty when all passed.
     */
    static List<String> runAll(final List<Fixture> fixtures)
    {
        final List<String> failures = new ArrayList<>();
        for (final Fixture fixture : fixtures)
        {
            final String failure = fixture.run();
            if (failure != null)
            {
                failures.add(failure);
                System.out.println(failure);
            }
        }
        return failures;
    }

    /**
     * Runs the fixture, records what the counters should now hold, and reports a mismatch.
     *
     * @return null when the pipeline did exactly what the fixture expects, else a report.
     */
    String run()
    {
        recordExpectedCounters();
        final long passedBefore = passReason == null ? 0 : bed.counters.passed(passReason);
        final PipelineTestbed.Outcome outcome = bed.process(input, headroom);
        final List<String> problems = new ArrayList<>();
        if (outcome.thrown() != null)
        {
            problems.add("threw " + outcome.thrown());
        }
        else if (outcome.verdict() != verdict)
        {
            problems.add("verdict " + outcome.describe() + ", expected " + Verdict.name(verdict) + " " +
                (dropReason != null ? dropReason : passReason != null ? passReason : ""));
        }
        else if (verdict == Verdict.FORWARD)
        {
            checkForward(outcome, problems);
        }
        else
        {
            if (verdict == Verdict.DROP && outcome.dropReason() != dropReason.ordinal())
            {
                problems.add("drop reason " + DropReason.get(outcome.dropReason()) + ", expected " + dropReason);
            }
            if (verdict == Verdict.PASS && bed.counters.passed(passReason) != passedBefore + 1)
            {
                problems.add("pass reason counter " + passReason + " did not advance by one");
            }
            if (!Arrays.equals(bufferBefore(), outcome.memory()))
            {
                problems.add("buffer modified although the frame was not forwarded, first change at " +
                    HexDump.firstDifference(bufferBefore(), outcome.memory()));
            }
        }
        return problems.isEmpty() ? null : report(outcome, problems);
    }

    private void checkForward(final PipelineTestbed.Outcome outcome, final List<String> problems)
    {
        final byte[] actual = outcome.output();
        if (outcome.outOffset() != expectedOutOffset)
        {
            problems.add("out offset " + outcome.outOffset() + ", expected " + expectedOutOffset);
        }
        if (!Arrays.equals(expectedOutput, actual))
        {
            problems.add("output differs at byte " + HexDump.firstDifference(expectedOutput, actual) +
                " (expected " + expectedOutput.length + " bytes, got " + actual.length + ")");
        }
        if (outcome.backend() != backend)
        {
            problems.add("backend slot " + outcome.backend() + ", expected " + backend);
        }
        // Only the headroom in front of the inner packet may change: the rest (padding included) stays as received.
        final byte[] before = bufferBefore();
        final int end = expectedOutOffset + expectedOutput.length;
        if (!Arrays.equals(before, 0, expectedOutOffset, outcome.memory(), 0, expectedOutOffset) ||
            !Arrays.equals(before, end, before.length, outcome.memory(), end, before.length))
        {
            problems.add("bytes outside the encapsulated frame were modified");
        }
    }

    void recordExpectedCounters()
    {
        final ExpectedCounters expected = bed.expected;
        if (verdict == Verdict.FORWARD)
        {
            expected.forwarded(bed.vipIndex(vip), backend, input.length, key);
        }
        else if (verdict == Verdict.DROP)
        {
            expected.dropped(dropReason, key, backend >= 0);
        }
        else
        {
            expected.passed(passReason);
        }
    }

    private byte[] bufferBefore()
    {
        final byte[] memory = new byte[headroom + input.length];
        System.arraycopy(input, 0, memory, headroom, input.length);
        return memory;
    }

    private String report(final PipelineTestbed.Outcome outcome, final List<String> problems)
    {
        final byte[] actual = outcome.verdict() == Verdict.FORWARD ? outcome.output() : null;
        final StringBuilder out = new StringBuilder();
        out.append("FIXTURE FAILED: ").append(description).append('\n');
        for (final String problem : problems)
        {
            out.append("  ").append(problem).append('\n');
        }
        out.append("input:\n").append(HexDump.hex(input));
        out.append("expected: ").append(Verdict.name(verdict)).append(' ')
            .append(dropReason != null ? dropReason : passReason != null ? passReason : "").append('\n')
            .append(HexDump.hex(expectedOutput));
        out.append("actual: ").append(outcome.describe()).append('\n').append(HexDump.hex(actual));
        out.append("pcap: ").append(writePcap(actual).toAbsolutePath()).append('\n');
        return out.toString();
    }

    private Path writePcap(final byte[] actual)
    {
        final Path file = FAILURE_DIRECTORY.resolve(description.replaceAll("[^A-Za-z0-9._-]+", "_") + ".pcap");
        try
        {
            Files.createDirectories(FAILURE_DIRECTORY);
            final List<byte[]> frames = new ArrayList<>();
            frames.add(input);
            frames.add(expectedOutput);
            frames.add(actual);
            PcapWriter.write(file, frames);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return file;
    }

    @Override
    public String toString()
    {
        return description;
    }
}
