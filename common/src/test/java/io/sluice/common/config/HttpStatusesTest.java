package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpStatusesTest
{
    @Test
    void theDefaultIs200Through399()
    {
        final HttpStatuses statuses = HealthCheckConfig.DEFAULT_EXPECT_STATUS;
        assertTrue(statuses.contains(200));
        assertTrue(statuses.contains(302));
        assertTrue(statuses.contains(399));
        assertFalse(statuses.contains(199));
        assertFalse(statuses.contains(400));
        assertFalse(statuses.contains(-1));
        assertEquals("200-399", statuses.toString());
    }

    @Test
    void parsesStatusesAndRanges()
    {
        final HttpStatuses statuses = HttpStatuses.parse("200, 204,301-302");
        for (final int status : new int[]{200, 204, 301, 302})
        {
            assertTrue(statuses.contains(status), Integer.toString(status));
        }
        for (final int status : new int[]{201, 203, 300, 303, 404})
        {
            assertFalse(statuses.contains(status), Integer.toString(status));
        }
        assertEquals("200,204,301-302", statuses.toString());
        assertEquals(statuses, HttpStatuses.parse(statuses.toString()));
    }

    @Test
    void equalWhenTheyHoldTheSameStatuses()
    {
        assertEquals(HttpStatuses.range(200, 299), HttpStatuses.parse("200-250,251-299"));
        assertEquals(HttpStatuses.range(200, 299).hashCode(), HttpStatuses.parse("200-250,251-299").hashCode());
        assertNotEquals(HttpStatuses.range(200, 299), HttpStatuses.range(200, 300));
        assertEquals("204", HttpStatuses.range(204, 204).toString());
    }

    @Test
    void namesWhatIsWrong()
    {
        assertEquals("\"abc\" is not an HTTP status",
            assertThrows(IllegalArgumentException.class, () -> HttpStatuses.parse("200,abc")).getMessage());
        assertEquals("HTTP status 99 is outside 100..599",
            assertThrows(IllegalArgumentException.class, () -> HttpStatuses.parse("99")).getMessage());
        assertEquals("backwards range \"300-200\"",
            assertThrows(IllegalArgumentException.class, () -> HttpStatuses.parse("300-200")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> HttpStatuses.parse(""));
        assertThrows(IllegalArgumentException.class, () -> HttpStatuses.parse("200,"));
        assertThrows(IllegalArgumentException.class, () -> HttpStatuses.range(600, 601));
    }
}
