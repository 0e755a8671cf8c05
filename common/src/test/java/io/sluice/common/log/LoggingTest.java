package io.sluice.common.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoggingTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void restoreConsole()
    {
        Logging.configure(System.out, System.err);
    }

    @Test
    void sendsWarningsAndErrorsToStderrAndTheRestToStdout()
    {
        configure();
        final System.Logger logger = System.getLogger("io.sluice.test.Sample");
        logger.log(System.Logger.Level.INFO, "forwarder running");
        logger.log(System.Logger.Level.WARNING, "careful");
        logger.log(System.Logger.Level.ERROR, "failed");
        logger.log(System.Logger.Level.DEBUG, "not at INFO");
        assertTrue(text(out).matches("\\S+Z INFO  Sample: forwarder running\\R"), text(out));
        assertTrue(text(err).matches("\\S+Z WARN  Sample: careful\\R\\S+Z ERROR Sample: failed\\R"), text(err));
    }

    @Test
    void keepsLoggingAfterTheShutdownHooksReset()
    {
        configure();
        // What java.util.logging's shutdown hook does on SIGTERM, before a process logs its last lines.
        LogManager.getLogManager().reset();
        System.getLogger("io.sluice.test.Sample").log(System.Logger.Level.INFO, "forwarder: stopped cleanly");
        assertTrue(text(out).endsWith("INFO  Sample: forwarder: stopped cleanly" + System.lineSeparator()), text(out));
    }

    @Test
    void configuringAgainReplacesTheHandlers()
    {
        configure();
        configure();
        System.getLogger("io.sluice.test.Sample").log(System.Logger.Level.INFO, "once");
        assertEquals(1, text(out).lines().count(), text(out));
    }

    private void configure()
    {
        Logging.configure(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String text(final ByteArrayOutputStream stream)
    {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
