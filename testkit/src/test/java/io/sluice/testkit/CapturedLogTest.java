package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapturedLogTest
{
    /** A class that logs through System.Logger, as production classes do. */
    private static final class Source
    {
        private static final System.Logger LOGGER = System.getLogger(Source.class.getName());
    }

    /** Another class, not captured. */
    private static final class Other
    {
        private static final System.Logger LOGGER = System.getLogger(Other.class.getName());
    }

    @Test
    void recordsLevelsAndFormattedMessagesOfTheNamedClassesOnlyWhileInstalled()
    {
        final CapturedLog log = CapturedLog.of(Source.class);
        Source.LOGGER.log(System.Logger.Level.INFO, "before install");
        log.install();
        try
        {
            Source.LOGGER.log(System.Logger.Level.INFO, "VIP {0}: announce", "web");
            Source.LOGGER.log(System.Logger.Level.WARNING, "relay lost");
            Source.LOGGER.log(System.Logger.Level.DEBUG, "chatter");
            Other.LOGGER.log(System.Logger.Level.WARNING, "not captured");
        }
        finally
        {
            log.close();
        }
        Source.LOGGER.log(System.Logger.Level.INFO, "after close");

        assertEquals(List.of("VIP web: announce", "relay lost", "chatter"), log.messages());
        assertEquals(System.Logger.Level.WARNING, log.levelOf("relay lost"));
        assertEquals(System.Logger.Level.DEBUG, log.levelOf("chatter"), "debug passes while installed");
        assertNull(log.levelOf("not captured"));
        assertEquals(Source.class.getName(), log.entries().get(0).logger());
        assertTrue(log.contains("announce"));
        assertFalse(log.contains("after close"));
        assertFalse(System.getLogger(Source.class.getName()).isLoggable(System.Logger.Level.DEBUG),
            "the level is put back");
    }

    @Test
    void drainReturnsWhatCameSinceTheLastDrain()
    {
        try (CapturedLog log = CapturedLog.of(Source.class).quiet().install())
        {
            Source.LOGGER.log(System.Logger.Level.INFO, "one");
            assertEquals(List.of("one"), log.drain());
            Source.LOGGER.log(System.Logger.Level.INFO, "two");
            assertEquals(List.of("two"), log.drain());
            assertEquals(List.of(), log.drain());
            assertEquals(List.of("one", "two"), log.messages());
        }
    }
}
