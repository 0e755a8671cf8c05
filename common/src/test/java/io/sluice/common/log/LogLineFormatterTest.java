package io.sluice.common.log;

import org.junit.jupiter.api.Test;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogLineFormatterTest
{
    private final LogLineFormatter formatter = new LogLineFormatter();

    @Test
    void formatsOneLineWithUtcTimeLevelAndShortLoggerName()
    {
        final LogRecord record = new LogRecord(Level.INFO, "VIP {0}: announce {1}");
        record.setParameters(new Object[] {"web", "10.100.0.1/32"});
        record.setLoggerName("io.sluice.controller.ControllerAgent");
        record.setMillis(1_796_186_401_123L);
        assertEquals("2026-12-02T04:40:01.123Z INFO  ControllerAgent: VIP web: announce 10.100.0.1/32" +
            System.lineSeparator(), formatter.format(record));
    }

    @Test
    void namesLevelsAsSystemLoggerDoes()
    {
        assertEquals("ERROR", LogLineFormatter.levelName(Level.SEVERE));
        assertEquals("WARN", LogLineFormatter.levelName(Level.WARNING));
        assertEquals("INFO", LogLineFormatter.levelName(Level.INFO));
        assertEquals("DEBUG", LogLineFormatter.levelName(Level.FINE));
        assertEquals("TRACE", LogLineFormatter.levelName(Level.FINEST));
    }

    @Test
    void appendsStackTraceOnlyWhenRecordCarriesOne()
    {
        final LogRecord plain = new LogRecord(Level.WARNING, "plain");
        plain.setLoggerName("x.Y");
        assertEquals(1, formatter.format(plain).lines().count());

        final LogRecord thrown = new LogRecord(Level.SEVERE, "failed");
        thrown.setLoggerName("x.Y");
        thrown.setThrown(new IllegalStateException("boom"));
        final String text = formatter.format(thrown);
        assertTrue(text.contains(" ERROR Y: failed" + System.lineSeparator() +
            "java.lang.IllegalStateException: boom" + System.lineSeparator() + "\tat "), text);
    }
}
