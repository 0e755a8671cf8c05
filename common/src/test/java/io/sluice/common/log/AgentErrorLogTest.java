package io.sluice.common.log;

import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentErrorLogTest
{
    private static final Logger LOGGER = Logger.getLogger(AgentErrorLog.class.getName());

    // Thrown at one place, as a duty cycle's repeated error is: DistinctErrorLog compares whole stack traces.
    private final IllegalStateException portGone = new IllegalStateException("port 0 gone");
    private final IllegalStateException first = new IllegalStateException("first");
    private final CachedEpochClock clock = new CachedEpochClock();
    private final List<String> lines = new ArrayList<>();
    private final LogLineFormatter formatter = new LogLineFormatter();
    private final Handler capture = new Handler()
    {
        public void publish(final LogRecord record)
        {
            lines.add(formatter.formatMessage(record));
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    };

    @BeforeEach
    void captureLog()
    {
        LOGGER.setUseParentHandlers(false);
        LOGGER.addHandler(capture);
        clock.update(1_000_000L);
    }

    @AfterEach
    void releaseLog()
    {
        LOGGER.removeHandler(capture);
        LOGGER.setUseParentHandlers(true);
    }

    @Test
    void logsARepeatedErrorOnceWithTraceThenCountsIt()
    {
        final AgentErrorLog errors = new AgentErrorLog("forwarder", clock, AgentErrorLog.DEFAULT_CAPACITY, 10_000);
        record(errors, 1000, portGone);
        assertEquals(1, errors.report());
        assertTrue(lines.get(0).startsWith("forwarder: agent error seen 1,000 time(s) since "), lines.get(0));
        assertTrue(lines.get(0).contains("java.lang.IllegalStateException: port 0 gone\n\tat "), lines.get(0));

        record(errors, 500, portGone);
        clock.advance(9_999);
        assertEquals(0, errors.report(), "no summary before the interval has passed");
        clock.advance(1);
        assertEquals(1, errors.report());
        assertTrue(lines.get(1).startsWith("forwarder: agent error seen 1,500 times since "), lines.get(1));
        assertTrue(lines.get(1).endsWith("java.lang.IllegalStateException: port 0 gone"), "one line, no trace");

        clock.advance(60_000);
        assertEquals(0, errors.report(), "nothing new, nothing logged");
        errors.close();
        assertEquals(2, lines.size());
    }

    @Test
    void logsEachDistinctErrorAndEveryRepeatLeftAtClose()
    {
        final AgentErrorLog errors = new AgentErrorLog("controller", clock, AgentErrorLog.DEFAULT_CAPACITY, 10_000);
        record(errors, 1, first);
        errors.onError(new IllegalArgumentException("second"));
        assertEquals(2, errors.report());
        record(errors, 1, first);
        errors.close();
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(2).startsWith("controller: agent error seen 2 times since "), lines.get(2));
    }

    @Test
    void countsErrorsThatDoNotFit()
    {
        final AgentErrorLog errors = new AgentErrorLog("forwarder", clock, 64, 10_000);
        record(errors, 1, new IllegalStateException("too long for 64 bytes"));
        assertEquals(1, errors.unrecorded());
        assertEquals(1, errors.report());
        assertTrue(lines.get(0).startsWith("forwarder: 1 agent errors did not fit"), lines.get(0));
        assertEquals(0, errors.report());
    }

    @Test
    void reporterThreadLogsWithoutBeingAsked() throws InterruptedException
    {
        final AgentErrorLog errors = new AgentErrorLog("forwarder", clock, AgentErrorLog.DEFAULT_CAPACITY, 10_000)
            .startReporter(10);
        record(errors, 1, new IllegalStateException("seen by the reporter"));
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (lines.isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        errors.close();
        assertEquals(1, lines.size(), lines.toString());
    }

    private static void record(final AgentErrorLog errors, final int times, final Throwable failure)
    {
        for (int i = 0; i < times; i++)
        {
            errors.onError(failure);
        }
    }
}
