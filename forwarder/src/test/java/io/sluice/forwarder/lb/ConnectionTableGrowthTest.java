package io.sluice.forwarder.lb;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.sluice.forwarder.lb.ConnectionTableFixture.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table that starts with few entries in use and doubles them as it fills: every flow keeps its entry (and so its
 * backend) through every doubling, while its entry is moved and after, IPv6 flows with their address words; an
 * expired flow is never live again; the accounting (size, evictions) holds; growth stops at the capacity.
 */
class ConnectionTableGrowthTest
{
    private static final long SEED = 0x1234_5678_9ABC_DEF0L;
    private static final long LONG_TIMEOUT = 1L << 40;
    private static final long SHORT_TIMEOUT = 100;

    private static ConnectionTable growing(final int capacity, final int initial, final long timeout)
    {
        return new ConnectionTable(capacity, initial, SEED, timeout, timeout, timeout);
    }

    private static FlowKey key(final int i)
    {
        if (i % 3 == 0)
        {
            // IPv6: the address words in the second array move with the entry
            return new FlowKey().ipv6(0x20010DB8L | (long)i << 32, i * 0x9E37L, 0x20010DB8L, 1, 0x5000_0400 + i, 6);
        }
        return tcp(0x0A00_0000 + i, 0x5000_0000 | (i & 0xFFFF));
    }

    // A miss inserted, then one migration step if moving, as a worker does once a burst.
    private static void insert(final ConnectionTable table, final FlowKey key, final int backend, final long now)
    {
        final int found = table.find(key, table.hash(key), now);
        assertTrue(found < 0, "expected a miss");
        table.insert(-1 - found, key, backend, 7, now);
        if (table.migrating())
        {
            table.migrate(now);
        }
    }

    private static int backendOf(final ConnectionTable table, final FlowKey key, final long now)
    {
        final int found = table.find(key, table.hash(key), now);
        return found < 0 ? -1 : table.backend(found);
    }

    private static void finishMigration(final ConnectionTable table, final long now)
    {
        int calls = 0;
        while (table.migrating())
        {
            table.migrate(now);
            assertTrue(++calls <= table.capacity() / ConnectionTable.MIGRATE_STEP + 1, "migration ends");
        }
    }

    @Test
    void startsWithItsInitialEntriesAndDoublesPastAQuarter()
    {
        final ConnectionTable table = growing(1024, 16, LONG_TIMEOUT);
        assertEquals(16, table.entriesInUse());
        assertEquals(1024, table.capacity());
        for (int i = 0; i < 4; i++)
        {
            insert(table, key(i), i, 1);
        }
        assertEquals(16, table.entriesInUse(), "a quarter full: not yet");
        assertFalse(table.migrating());
        final FlowKey fifth = key(4);
        final int found = table.find(fifth, table.hash(fifth), 1);
        table.insert(-1 - found, fifth, 4, 7, 1);
        assertEquals(32, table.entriesInUse(), "past a quarter: doubled");
        assertTrue(table.migrating());
        for (int i = 0; i < 5; i++)
        {
            assertEquals(i, backendOf(table, key(i), 2), "flow " + i + " while its entry may not have moved yet");
        }
        finishMigration(table, 2);
        for (int i = 0; i < 5; i++)
        {
            assertEquals(i, backendOf(table, key(i), 3), "flow " + i + " after the migration");
        }
        assertEquals(5, table.size());
    }

    @Test
    void everyFlowKeepsItsEntryThroughEveryDoublingUpToTheCapacity()
    {
        final int capacity = 1 << 12;
        final int flows = 3000;
        final ConnectionTable table = growing(capacity, 8, LONG_TIMEOUT);
        final SplittableRandom random = new SplittableRandom(19);
        int doublings = 0;
        int lastEntries = table.entriesInUse();
        for (int i = 0; i < flows; i++)
        {
            insert(table, key(i), i, 1 + i);
            if (table.entriesInUse() != lastEntries)
            {
                assertEquals(2 * lastEntries, table.entriesInUse());
                lastEntries = table.entriesInUse();
                doublings++;
            }
            // an earlier flow, looked up while entries are being moved: its own backend or, if evicted, none
            final int earlier = random.nextInt(i + 1);
            final int backend = backendOf(table, key(earlier), 1 + i);
            assertTrue(backend == earlier || backend == -1, "flow " + earlier + " got backend " + backend);
        }
        finishMigration(table, flows + 1);
        assertEquals(9, doublings, "8 to 4096 entries");
        assertEquals(capacity, table.entriesInUse());

        int lost = 0;
        for (int i = 0; i < flows; i++)
        {
            final int backend = backendOf(table, key(i), flows + 2);
            if (backend == -1)
            {
                lost++;
            }
            else
            {
                assertEquals(i, backend, "flow " + i);
            }
        }
        assertEquals(table.evictions(), lost, "every flow missing was evicted, and only those");
        assertEquals(flows - lost, table.size());
        assertTrue(lost < flows / 20, lost + " of " + flows + " flows evicted at 73% load");
    }

    @Test
    void flowsWhoseOldEntriesExpiredBeforeTheyMovedAreLiveOnceWithTheirNewBackends()
    {
        // 33 flows in 128 entries: doubled to 256 by the last insert, and no entry moved yet (no migrate call);
        // each insert below moves a few (MIGRATE_PER_INSERT), so later flows come back after their entry moved
        final int flows = 33;
        final ConnectionTable table = growing(4096, 128, SHORT_TIMEOUT);
        for (int i = 0; i < flows; i++)
        {
            final FlowKey key = key(i);
            final int found = table.find(key, table.hash(key), 0);
            table.insert(-1 - found, key, i, 7, 0);
        }
        assertTrue(table.migrating());
        assertEquals(256, table.entriesInUse());
        // past the timeout every flow misses and comes back with another backend, before its old entry has moved:
        // into its old entry where a lookup under the new mask reaches it, else into its new window
        final long late = SHORT_TIMEOUT + 1;
        for (int i = 0; i < flows; i++)
        {
            final FlowKey key = key(i);
            final int found = table.find(key, table.hash(key), late);
            assertTrue(found < 0, "flow " + i + " expired");
            table.insert(-1 - found, key, 100 + i, 7, late);
            assertEquals(100 + i, backendOf(table, key, late), "flow " + i + " while moving");
        }
        finishMigration(table, late);
        for (int i = 0; i < flows; i++)
        {
            assertEquals(100 + i, backendOf(table, key(i), late), "flow " + i + " after moving");
        }
        assertEquals(flows, table.size(), "each flow's key held once: the expired copies left behind were dropped");
        assertEquals(0, table.evictions());
    }

    @Test
    void aFullWindowDoublesTheTableInsteadOfEvictingWhileItCanGrow()
    {
        // nine flows whose table hashes agree in the 6 index bits of 64 entries: one window cannot hold them, but
        // five and four of them differ in the seventh bit, which a doubling to 128 entries adds; nine flows are far
        // from a quarter of 64 entries, so only the full window makes the table double
        final ConnectionTable table = growing(1024, 64, LONG_TIMEOUT);
        final FlowKey[] crowd = new FlowKey[9];
        int low = 0;
        int high = 0;
        for (int client = 0; low + high < crowd.length; client++)
        {
            final FlowKey key = tcp(client, 0x5000_1000);
            final long hash = table.hash(key);
            if ((hash & 63) == 3 && (hash & 64) == 0 && low < 5)
            {
                crowd[low++] = key;
            }
            else if ((hash & 63) == 3 && (hash & 64) != 0 && high < 4)
            {
                crowd[5 + high++] = key;
            }
        }
        for (int i = 0; i < crowd.length; i++)
        {
            insert(table, crowd[i], i, 1);
        }
        assertEquals(0, table.evictions(), "no live flow evicted");
        assertEquals(128, table.entriesInUse(), "doubled for the ninth, not at a quarter full");
        finishMigration(table, 2);
        for (int i = 0; i < crowd.length; i++)
        {
            assertEquals(i, backendOf(table, crowd[i], 2), "flow " + i);
        }
    }

    @Test
    void tenThousandFlowsEvictNoneWhileTheTableCanGrow()
    {
        final ConnectionTable table = ConnectionTable.growing(1 << 20, SEED, LONG_TIMEOUT, LONG_TIMEOUT, LONG_TIMEOUT);
        for (int i = 0; i < 10_000; i++)
        {
            insert(table, key(i), i, 1 + i);
        }
        finishMigration(table, 10_001);
        assertEquals(0, table.evictions());
        assertEquals(10_000, table.size());
        assertTrue(table.entriesInUse() < table.capacity(), "still " + table.entriesInUse() + " entries in use");
    }

    @Test
    void aFloodIntoAFullGrowingTableEvictsButNeverGrowsPastTheCapacity()
    {
        final int capacity = 256;
        final ConnectionTable table = growing(capacity, 8, LONG_TIMEOUT);
        for (int i = 0; i < 4 * capacity; i++)
        {
            insert(table, key(i), i, 1 + i);
        }
        finishMigration(table, 5L * capacity);
        assertEquals(capacity, table.entriesInUse());
        assertFalse(table.migrating());
        assertTrue(table.size() <= capacity);
        assertTrue(table.evictions() >= 3L * capacity - (capacity - table.size()), "evictions " + table.evictions());
        // the newest flows are all there
        for (int i = 4 * capacity - 8; i < 4 * capacity; i++)
        {
            assertEquals(i, backendOf(table, key(i), 5L * capacity), "flow " + i);
        }
    }

    @Test
    void aTableMadeWithoutAnInitialCapacityNeverGrows()
    {
        final ConnectionTable table = ConnectionTableFixture.newTable(64);
        assertEquals(64, table.entriesInUse());
        assertEquals(ConnectionTable.DEFAULT_HASH_SEED, table.hashSeed());
        for (int i = 0; i < 60; i++)
        {
            final FlowKey key = key(i);
            final int found = table.find(key, table.hash(key), 1);
            if (found < 0)
            {
                table.insert(-1 - found, key, i, 1, 1);
            }
            assertFalse(table.migrating());
        }
        assertEquals(64, table.entriesInUse());
    }

    @Test
    void theForwardersTableStartsAtGrowthStartOrItsCapacity()
    {
        assertEquals(ConnectionTable.GROWTH_START,
            ConnectionTable.growing(1 << 20, SEED, 1, 1, 1).entriesInUse());
        assertEquals(1024, ConnectionTable.growing(1024, SEED, 1, 1, 1).entriesInUse());
    }

    @Test
    void rejectsAnInitialCapacityThatIsNotAPowerOfTwoWithinTheCapacity()
    {
        assertThrows(IllegalArgumentException.class, () -> growing(1024, 24, 1));
        assertThrows(IllegalArgumentException.class, () -> growing(1024, 4, 1));
        assertThrows(IllegalArgumentException.class, () -> growing(1024, 2048, 1));
    }
}
