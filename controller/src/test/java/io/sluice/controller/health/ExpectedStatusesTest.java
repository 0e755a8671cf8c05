package io.sluice.controller.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExpectedStatusesTest {
    @Test
    void defaultAccepts200Through399() {
        ExpectedStatuses statuses = ExpectedStatuses.defaults();
        assertTrue(statuses.contains(200));
        assertTrue(statuses.contains(302));
        assertTrue(statuses.contains(399));
        assertFalse(statuses.contains(199));
        assertFalse(statuses.contains(400));
        assertFalse(statuses.contains(500));
    }

    @Test
    void parsesListsAndRanges() {
        ExpectedStatuses statuses = ExpectedStatuses.parse("200, 204,301-302");
        assertTrue(statuses.contains(200));
        assertTrue(statuses.contains(204));
        assertTrue(statuses.contains(301));
        assertTrue(statuses.contains(302));
        assertFalse(statuses.contains(201));
        assertFalse(statuses.contains(303));
        assertEquals("200, 204,301-302", statuses.toString());
    }

    @Test
    void rejectsBadStatuses() {
        assertThrows(IllegalArgumentException.class, () -> ExpectedStatuses.parse("abc"));
        assertThrows(IllegalArgumentException.class, () -> ExpectedStatuses.parse("99"));
        assertThrows(IllegalArgumentException.class, () -> ExpectedStatuses.parse("300-200"));
        assertThrows(IllegalArgumentException.class, () -> ExpectedStatuses.parse(""));
    }

    @Test
    void parsesStatusLines() {
        assertEquals(200, HttpChecker.parseStatus("HTTP/1.1 200 OK\r"));
        assertEquals(503, HttpChecker.parseStatus("HTTP/1.0 503"));
        assertEquals(-1, HttpChecker.parseStatus("SSH-2.0-OpenSSH_9.6"));
        assertEquals(-1, HttpChecker.parseStatus("HTTP/1.1 2x0 OK"));
    }
}
