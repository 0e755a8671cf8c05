package io.sluice.forwarder.agent;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlCommandEncoder;
import io.sluice.common.control.ControlFileDescriptor;
import io.sluice.common.control.ControlProtocol;
import io.sluice.forwarder.control.ControlServer;
import io.sluice.common.control.CorrelatedFlyweight;
import io.sluice.common.control.RejectFlyweight;
import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.IoUtil;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastReceiver;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any bytes in the control ring, as a broken or hostile client could write them (this test maps the control file
 * itself and writes raw records of any type and length, as {@code ControlClient} would but without its encoder):
 * the forwarder's real {@link ControlAgent} over a real {@link ControlServer} never throws, answers every message long
 * enough to carry a correlation id exactly once (ACK, a GET_STATE answer, or a REJECT with a reason), counts every
 * message as accepted, refused or malformed, and afterwards still answers a well-formed command.
 * <p>
 * The input is records {@code [type u8][length u16 BE][bytes]}, up to 64; the type byte's low nibble plus one is the
 * ring record's type id, so the eight commands and eight unknown types all come up. Each input gets a fresh
 * forwarding state (4 VIPs, 16 backends, Maglev tables of 251 slots), so an input means the same on every run.
 */
class ControlChannelFuzzTest
{
    private static final int MAX_RECORDS = 64;
    private static final int MAX_MESSAGE = 512;
    private static final int CAPACITY = 65536;
    private static final long CHECK_CORRELATION_ID = Long.MIN_VALUE;

    private static final Path DIRECTORY = temporaryDirectory();
    private static final ControlChannel CHANNEL = ControlChannel.create(DIRECTORY.resolve(ControlChannel.FILE_NAME),
        CAPACITY, CAPACITY);
    private static final MappedByteBuffer CLIENT_MAPPING = IoUtil.mapExistingFile(
        DIRECTORY.resolve(ControlChannel.FILE_NAME).toFile(), "fuzzing client");
    private static final ManyToOneRingBuffer RING = new ManyToOneRingBuffer(new UnsafeBuffer(CLIENT_MAPPING,
        ControlFileDescriptor.commandRingOffset(), ControlFileDescriptor.commandRingLength(CAPACITY)));
    private static final BroadcastReceiver RESPONSES = new BroadcastReceiver(new UnsafeBuffer(CLIENT_MAPPING,
        ControlFileDescriptor.responseBufferOffset(CAPACITY), ControlFileDescriptor.responseBufferLength(CAPACITY)));
    private static final UnsafeBuffer MESSAGE = new UnsafeBuffer(new byte[MAX_MESSAGE]);
    private static final UnsafeBuffer COUNTER_METADATA = new UnsafeBuffer(ByteBuffer.allocateDirect(512 * 1024));
    private static final UnsafeBuffer COUNTER_VALUES = new UnsafeBuffer(ByteBuffer.allocateDirect(128 * 1024));
    // The agent logs every applied and rejected command; thousands of fuzzed ones would drown the test output.
    private static final java.util.logging.Logger AGENT_LOG = quiet(ControlAgent.class.getName());

    private final CorrelatedFlyweight correlated = new CorrelatedFlyweight();
    private final RejectFlyweight reject = new RejectFlyweight();
    private final List<String> rejectsWithoutReason = new ArrayList<>();
    private int answers;
    private boolean checking;
    private boolean checkAnswered;

    @FuzzTest(maxDuration = "30s")
    void survivesAnyCommandBytes(final byte[] records)
    {
        checking = true;
        drainResponses();
        checking = false;
        final ControlServer server = new ControlServer(CHANNEL, SystemEpochClock.INSTANCE, error ->
        {
            throw new AssertionError("a command made the handler fail", error);
        });
        final ControlAgent agent = newAgent(server);

        int written = 0;
        int answerable = 0;
        for (int at = 0; written < MAX_RECORDS && at + 3 <= records.length; written++)
        {
            final int msgTypeId = (records[at] & 0x0F) + 1;
            final int declared = (records[at + 1] & 0xFF) << 8 | records[at + 2] & 0xFF;
            at += 3;
            final int length = Math.min(Math.min(declared, records.length - at), MAX_MESSAGE);
            MESSAGE.putBytes(0, records, at, length);
            at += length;
            assertTrue(RING.write(msgTypeId, MESSAGE, 0, length), "ring full");
            answerable += length >= CorrelatedFlyweight.LENGTH ? 1 : 0;
        }

        answers = 0;
        rejectsWithoutReason.clear();
        for (int cycles = 0; cycles <= MAX_RECORDS && RING.size() > 0; cycles++)
        {
            agent.doWork();
            drainResponses();
        }
        assertEquals(0, RING.size(), "ring not drained");
        assertEquals(written, server.acceptedCommands() + server.rejectedCommands() + server.malformedCommands(),
            "every message counted once");
        assertEquals(0, server.failedCommands(), "commands that made the handler fail");
        assertEquals(answerable, answers, "one answer per message with a correlation id");
        assertEquals(List.of(), rejectsWithoutReason, "rejections without a reason");

        // The forwarder side still runs: a well-formed GET_STATE after all that gets its answer.
        final ControlCommandEncoder encoder = new ControlCommandEncoder();
        final int length = encoder.encode(new ControlCommand.GetState(), CHECK_CORRELATION_ID, 1, MESSAGE, 0);
        assertTrue(RING.write(ControlProtocol.GET_STATE, MESSAGE, 0, length));
        checking = true;
        checkAnswered = false;
        // One ring read stops at the end of the buffer, so a record after the wrap waits for the next duty cycle.
        for (int cycles = 0; cycles < 2 && !checkAnswered; cycles++)
        {
            agent.doWork();
            drainResponses();
        }
        assertTrue(checkAnswered, "a well-formed GET_STATE after the input was not answered");
    }

    @AfterAll
    static void closeChannel() throws IOException
    {
        IoUtil.unmap(CLIENT_MAPPING);
        CHANNEL.close();
        Files.deleteIfExists(DIRECTORY);
    }

    private static java.util.logging.Logger quiet(final String name)
    {
        final java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.OFF);
        return logger;
    }

    private static ControlAgent newAgent(final ControlServer server)
    {
        final LoadBalancerState state = new LoadBalancerState(4, 16, 251, 0x5EEDL);
        COUNTER_METADATA.setMemory(0, COUNTER_METADATA.capacity(), (byte)0);
        COUNTER_VALUES.setMemory(0, COUNTER_VALUES.capacity(), (byte)0);
        final CountersManager manager = new CountersManager(COUNTER_METADATA, COUNTER_VALUES);
        final CounterAllocator allocator = new CounterAllocator(manager);
        return new ControlAgent(state, new SnapshotPublisher(state.snapshot()),
            new ForwarderCounters(allocator, 1, SystemEpochClock.INSTANCE), server, null,
            new ProcessCounters(allocator));
    }

    private void drainResponses()
    {
        while (RESPONSES.receiveNext())
        {
            assertTrue(RESPONSES.validate(), "response overwritten while read: the test reads too slowly");
            final int type = RESPONSES.typeId();
            if (type == ControlProtocol.STATE_VIP || type == ControlProtocol.STATE_BACKEND)
            {
                continue; // part of a GET_STATE answer, which STATE_END closes
            }
            correlated.wrap(RESPONSES.buffer(), RESPONSES.offset(), RESPONSES.length());
            if (checking)
            {
                checkAnswered |= type == ControlProtocol.STATE_END &&
                    correlated.correlationId() == CHECK_CORRELATION_ID;
                continue;
            }
            answers++;
            if (type == ControlProtocol.REJECT)
            {
                reject.wrap(RESPONSES.buffer(), RESPONSES.offset(), RESPONSES.length());
                final String reason = reject.reason();
                if (reason == null || reason.isBlank())
                {
                    rejectsWithoutReason.add("correlation id " + reject.correlationId());
                }
            }
            else
            {
                assertTrue(type == ControlProtocol.ACK || type == ControlProtocol.STATE_END,
                    () -> "unexpected response " + ControlProtocol.typeName(type));
            }
        }
    }

    private static Path temporaryDirectory()
    {
        try
        {
            final Path directory = Files.createTempDirectory("sluice-control-fuzz");
            return directory;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
