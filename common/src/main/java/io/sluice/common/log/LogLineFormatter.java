package io.sluice.common.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Formats a record as one line: {@code 2026-12-02T04:20:01.123Z INFO  ControlAgent: message}. The time is UTC with
 * milliseconds, the level is the {@code System.Logger} name padded to five, the logger is its short name (the part
 * after the last dot). A stack trace follows only when the record carries a throwable.
 */
public final class LogLineFormatter extends Formatter
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(ZoneOffset.UTC);

    /**
     * {@inheritDoc}
     */
    public String format(final LogRecord record)
    {
        final StringBuilder line = new StringBuilder(128);
        TIME.formatTo(Instant.ofEpochMilli(record.getMillis()), line);
        line.append(' ');
        final String level = levelName(record.getLevel());
        line.append(level);
        for (int i = level.length(); i < 5; i++)
        {
            line.append(' ');
        }
        line.append(' ').append(shortName(record.getLoggerName())).append(": ").append(formatMessage(record));
        line.append(System.lineSeparator());
        if (record.getThrown() != null)
        {
            final StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append(trace);
        }
        return line.toString();
    }

    /**
     * The {@code System.Logger.Level} name of a java.util.logging level, as the code logged it.
     *
     * @param level a java.util.logging level.
     * @return ERROR, WARN, INFO, DEBUG or TRACE.
     */
    static String levelName(final Level level)
    {
        final int value = level.intValue();
        if (value >= Level.SEVERE.intValue())
        {
            return "ERROR";
        }
        if (value >= Level.WARNING.intValue())
        {
            return "WARN";
        }
        if (value >= Level.INFO.intValue())
        {
            return "INFO";
        }
        return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
    }

    private static String shortName(final String loggerName)
    {
        if (loggerName == null)
        {
            return "";
        }
        return loggerName.substring(loggerName.lastIndexOf('.') + 1);
    }
}
