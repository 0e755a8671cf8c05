package io.sluice.testkit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Records what some classes log through {@code System.Logger} (java.util.logging underneath), so a test asserts the
 * events a class logs rather than a list the class hands out. Each record is kept as its level, logger and
 * formatted message (the text without the time and level a log line starts with).
 * <p>
 * As a JUnit extension ({@code @RegisterExtension final CapturedLog log = CapturedLog.of(Foo.class);}) it is
 * installed before each test and removed after it; otherwise {@link #install()} and {@link #close()}. While
 * installed, the captured loggers pass every level, debug included; their records still reach the console too,
 * unless the capture is {@link #quiet()} (a fuzz test's thousands of connections, say).
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback, AutoCloseable
{
    /**
     * One record.
     *
     * @param level   the {@code System.Logger} level it was logged at.
     * @param logger  the logger's name, the class's full name.
     * @param message the formatted message.
     */
    public record Entry(System.Logger.Level level, String logger, String message)
    {
    }

    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> previousLevels = new ArrayList<>();
    private boolean quiet;
    private final List<Entry> entries = new ArrayList<>();
    private int drained;
    private final Handler handler = new Handler()
    {
        public void publish(final LogRecord record)
        {
            final Entry entry = new Entry(level(record.getLevel()), record.getLoggerName(),
                getFormatter().formatMessage(record));
            synchronized (entries)
            {
                entries.add(entry);
            }
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    };
    private boolean installed;

    private CapturedLog(final List<String> names)
    {
        handler.setFormatter(new SimpleFormatter());
        handler.setLevel(Level.ALL);
        for (final String name : names)
        {
            loggers.add(Logger.getLogger(name));
        }
    }

    /**
     * Describes a capture of the loggers named after classes; nothing is captured until it is installed.
     *
     * @param sources the classes whose loggers ({@code System.getLogger(Foo.class.getName())}) to capture.
     * @return the capture.
     */
    public static CapturedLog of(final Class<?>... sources)
    {
        final List<String> names = new ArrayList<>(sources.length);
        for (final Class<?> source : sources)
        {
            names.add(source.getName());
        }
        return new CapturedLog(names);
    }

    /**
     * Keeps the captured records off the console (the loggers' parents' handlers) while installed.
     *
     * @return this.
     */
    public synchronized CapturedLog quiet()
    {
        quiet = true;
        return this;
    }

    /**
     * Starts recording, and forgets what was recorded before.
     *
     * @return this.
     */
    public synchronized CapturedLog install()
    {
        if (installed)
        {
            return this;
        }
        installed = true;
        clear();
        previousLevels.clear();
        for (final Logger logger : loggers)
        {
            previousLevels.add(logger.getLevel());
            logger.setLevel(Level.ALL);
            logger.setUseParentHandlers(!quiet);
            logger.addHandler(handler);
        }
        return this;
    }

    /**
     * Stops recording and puts the loggers' levels back. What was recorded stays readable.
     */
    @Override
    public synchronized void close()
    {
        if (!installed)
        {
            return;
        }
        installed = false;
        for (int i = 0; i < loggers.size(); i++)
        {
            loggers.get(i).removeHandler(handler);
            loggers.get(i).setLevel(previousLevels.get(i));
            loggers.get(i).setUseParentHandlers(true);
        }
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        install();
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        close();
    }

    /**
     * Returns every record since the capture was installed.
     *
     * @return the records, oldest first.
     */
    public List<Entry> entries()
    {
        synchronized (entries)
        {
            return List.copyOf(entries);
        }
    }

    /**
     * Returns every message since the capture was installed.
     *
     * @return the messages, oldest first.
     */
    public List<String> messages()
    {
        synchronized (entries)
        {
            return messagesFrom(0);
        }
    }

    /**
     * Returns the messages since the last call (or since the capture was installed), and moves past them; what
     * {@link #messages()} returns is not changed.
     *
     * @return the messages, oldest first.
     */
    public List<String> drain()
    {
        synchronized (entries)
        {
            final List<String> since = messagesFrom(drained);
            drained = entries.size();
            return since;
        }
    }

    /**
     * Tells whether a message contains a fragment.
     *
     * @param fragment the text looked for.
     * @return true when some message since the capture was installed contains it.
     */
    public boolean contains(final String fragment)
    {
        for (final String message : messages())
        {
            if (message.contains(fragment))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the level of the first message equal to the given one.
     *
     * @param message the whole message.
     * @return its level, or null when it was not logged.
     */
    public System.Logger.Level levelOf(final String message)
    {
        for (final Entry entry : entries())
        {
            if (entry.message().equals(message))
            {
                return entry.level();
            }
        }
        return null;
    }

    /**
     * Forgets everything recorded so far.
     */
    public void clear()
    {
        synchronized (entries)
        {
            entries.clear();
            drained = 0;
        }
    }

    /**
     * Returns the records as lines, for a failed assertion's message.
     *
     * @return one {@code LEVEL logger: message} line per record.
     */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (final Entry entry : entries())
        {
            text.append(entry.level()).append(' ').append(entry.logger()).append(": ").append(entry.message())
                .append('\n');
        }
        return text.toString();
    }

    private List<String> messagesFrom(final int start)
    {
        final List<String> messages = new ArrayList<>(entries.size() - start);
        for (int i = start; i < entries.size(); i++)
        {
            messages.add(entries.get(i).message());
        }
        return messages;
    }

    private static System.Logger.Level level(final Level level)
    {
        final int value = level.intValue();
        if (value >= Level.SEVERE.intValue())
        {
            return System.Logger.Level.ERROR;
        }
        if (value >= Level.WARNING.intValue())
        {
            return System.Logger.Level.WARNING;
        }
        if (value >= Level.INFO.intValue())
        {
            return System.Logger.Level.INFO;
        }
        return value >= Level.FINE.intValue() ? System.Logger.Level.DEBUG : System.Logger.Level.TRACE;
    }
}
