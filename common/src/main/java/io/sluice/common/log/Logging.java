package io.sluice.common.log;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Installs the one logging set-up of a node process: every {@code System.Logger} goes to java.util.logging's root
 * logger, whose two handlers write {@link LogLineFormatter} lines, warnings and errors to stderr and the rest to
 * stdout (so the journal keeps its priorities, see {@code scripts/sluice}). Level INFO unless the system property
 * {@code sluice.log.level} names another java.util.logging level (e.g. FINE for the debug lines).
 */
public final class Logging
{
    /**
     * System property naming the root level, e.g. {@code -Dsluice.log.level=FINE}.
     */
    public static final String LEVEL_PROPERTY = "sluice.log.level";

    // Held so the root logger, and with it its level, is never collected.
    private static final Logger ROOT = Logger.getLogger("");

    private Logging()
    {
    }

    /**
     * Replaces the root logger's handlers with the two of this set-up, writing to {@code System.out} and
     * {@code System.err}.
     */
    public static void configure()
    {
        configure(System.out, System.err);
    }

    /**
     * Replaces the root logger's handlers with the two of this set-up.
     *
     * @param out where records below WARNING go.
     * @param err where warnings and errors go.
     */
    public static synchronized void configure(final PrintStream out, final PrintStream err)
    {
        for (final Handler handler : ROOT.getHandlers())
        {
            if (handler instanceof LineHandler line)
            {
                line.retired = true;
            }
        }
        LogManager.getLogManager().reset();
        ROOT.setLevel(Level.parse(System.getProperty(LEVEL_PROPERTY, "INFO")));
        ROOT.addHandler(new LineHandler(out, false));
        ROOT.addHandler(new LineHandler(err, true));
    }

    /**
     * Writes each record it takes as soon as it is published, so a line is out before the process can die.
     * <p>
     * java.util.logging's shutdown hook resets every logger, closing and removing its handlers, while the processes
     * still log their last lines after SIGTERM ("forwarder: stopped cleanly"): closed by that reset, a handler puts
     * itself back on the root logger unless {@link #configure} retired it.
     */
    private static final class LineHandler extends Handler
    {
        private final PrintStream stream;
        private final boolean warnings;
        private volatile boolean retired;

        LineHandler(final OutputStream stream, final boolean warnings)
        {
            this.stream = stream instanceof PrintStream print ? print : new PrintStream(stream, true);
            this.warnings = warnings;
            setFormatter(new LogLineFormatter());
            setLevel(Level.ALL);
        }

        public void publish(final LogRecord record)
        {
            if (!isLoggable(record) || (record.getLevel().intValue() >= Level.WARNING.intValue()) != warnings)
            {
                return;
            }
            final String line = getFormatter().format(record);
            synchronized (stream)
            {
                stream.print(line);
                stream.flush();
            }
        }

        public void flush()
        {
            stream.flush();
        }

        public void close()
        {
            stream.flush();
            if (!retired)
            {
                ROOT.addHandler(this);
            }
        }
    }
}
