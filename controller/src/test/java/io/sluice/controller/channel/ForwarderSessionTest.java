package io.sluice.controller.channel;

import io.sluice.common.control.ControlChannel;
import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the session logs about the control channel, on a real channel file that nobody serves.
 */
class ForwarderSessionTest
{
    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(ForwarderSession.class);

    @TempDir
    Path directory;

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Test
    void logsAChannelThatCannotBeOpenedOnceWhileTheReasonStaysTheSame()
    {
        final Path file = directory.resolve(ControlChannel.FILE_NAME);
        try (ForwarderSession session = new ForwarderSession(file, Duration.ofMillis(50), errors::add))
        {
            assertEquals(0, session.poll(0));
            assertEquals(0, session.poll(ForwarderSession.RETRY_INTERVAL_MS));
            assertEquals(0, session.poll(2 * ForwarderSession.RETRY_INTERVAL_MS));
            assertFalse(session.isLinked());
        }

        final List<CapturedLog.Entry> entries = captured.entries();
        assertEquals(1, entries.size(), captured.toString());
        assertEquals(System.Logger.Level.WARNING, entries.get(0).level());
        assertTrue(entries.get(0).message().endsWith("; retrying every 1000 ms"), captured.toString());
        assertEquals(List.of(), errors, "a channel that is not there yet is no agent error");
    }

    @Test
    void handsAStateQueryThatFailsToTheErrorHandlerInsteadOfLoggingEachOne()
    {
        final Path file = directory.resolve(ControlChannel.FILE_NAME);
        try (ControlChannel unserved = ControlChannel.create(file, 65536);
            ForwarderSession session = new ForwarderSession(file, Duration.ofMillis(50), errors::add))
        {
            assertNull(session.queryState(0, Duration.ofMillis(20)));
            assertNull(session.queryState(2_000, Duration.ofMillis(20)));
            assertTrue(session.isLinked());
        }

        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).getMessage().startsWith("forwarder state not read: "), errors.toString());
        assertEquals(List.of("opened forwarder control channel " + file), captured.messages(),
            "each failed query goes to the error log, which reports repeats once with a count");
    }
}
