package io.sluice.forwarder.lb;

import org.junit.jupiter.api.Test;

import static io.sluice.forwarder.lb.ConnectionTableFixture.TCP_TIMEOUT;
import static io.sluice.forwarder.lb.ConnectionTableFixture.newTable;
import static io.sluice.forwarder.lb.ConnectionTableFixture.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionTableTest
{
    private final ConnectionTableFixture fixture = new ConnectionTableFixture(64);
    private final ConnectionTable table = fixture.table;

    @Test
    void findsWhatWasInserted()
    {
        final FlowKey key = tcp(1, 0x5000_1234);
        final int index = fixture.insert(key, 99, 7, 10);
        final int found = table.find(key, 99, 11);
        assertEquals(index, found);
        assertEquals(7, table.backend(found));
        assertEquals(1, table.generation(found));
        assertEquals(1, table.size());
    }

    @Test
    void neverConfusesFlowsWhoseHashesCollide()
    {
        final long sameHash = 12345;
        for (int i = 0; i < ConnectionTable.BUCKET_SIZE; i++)
        {
            fixture.insert(tcp(i, 1000), sameHash, 100 + i, 1);
        }
        for (int i = 0; i < ConnectionTable.BUCKET_SIZE; i++)
        {
            final int found = table.find(tcp(i, 1000), sameHash, 2);
            assertTrue(found >= 0, "flow " + i);
            assertEquals(100 + i, table.backend(found), "flow " + i);
        }
        assertTrue(table.find(tcp(99, 1000), sameHash, 2) < 0, "an unknown flow with the same hash misses");
    }

    @Test
    void distinguishesIpv4FromIpv6KeysWithTheSameWords()
    {
        final FlowKey v4 = new FlowKey().ipv4(0, 0, 0, 6);
        final FlowKey v6 = new FlowKey().ipv6(0, 0, 0, 0, 0, 6);
        fixture.insert(v4, 5, 1, 1);
        assertTrue(table.find(v6, 5, 1) < 0);
    }

    @Test
    void expiresIdleEntriesPerProtocol()
    {
        final FlowKey tcp = tcp(1, 80);
        final FlowKey udp = new FlowKey().ipv4(2, 0x0100_000A, 53, 17);
        final FlowKey fragment = new FlowKey().ipv4(3, 0x0100_000A, 0, 6 + 100);
        fixture.assertExpiresPerProtocol(tcp, udp, fragment);
    }

    @Test
    void touchingKeepsAnEntryAlive()
    {
        final FlowKey key = tcp(1, 80);
        final int index = fixture.insert(key, 1, 1, 0);
        table.touch(index, 200);
        assertTrue(table.find(key, 1, 200 + TCP_TIMEOUT) >= 0);
    }

    @Test
    void reusesExpiredEntriesBeforeEvicting()
    {
        for (int i = 0; i < ConnectionTable.BUCKET_SIZE; i++)
        {
            final int index = fixture.insert(tcp(i, 1), 0, i, 0);
            if (i != 3)
            {
                table.touch(index, 1000);
            }
        }
        final long now = 1000 + 1;
        final int found = table.find(tcp(50, 1), 0, now);
        assertTrue(found < 0);
        assertFalse(table.lastMissEvicts());
        assertEquals(3, -1 - found, "the expired entry is reused");
        table.insert(-1 - found, tcp(50, 1), 50, 1, now);
        assertEquals(1, table.expirations());
        assertEquals(0, table.evictions());
    }

    @Test
    void evictsTheOldestEntryWhenTheBucketIsFull()
    {
        for (int i = 0; i < ConnectionTable.BUCKET_SIZE; i++)
        {
            final int index = fixture.insert(tcp(i, 1), 0, i, 100);
            table.touch(index, 100 + (i == 5 ? 0 : 10 + i));
        }
        final int found = table.find(tcp(77, 1), 0, 150);
        assertTrue(found < 0);
        assertTrue(table.lastMissEvicts());
        assertEquals(5, -1 - found, "least recently seen entry is replaced");
        table.insert(-1 - found, tcp(77, 1), 77, 1, 150);
        assertEquals(1, table.evictions());
        assertTrue(table.find(tcp(5, 1), 0, 150) < 0, "the evicted flow is gone");
        assertEquals(77, table.backend(table.find(tcp(77, 1), 0, 150)));
    }

    @Test
    void floodOfNewFlowsNeverGrowsBeyondCapacity()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(9);
        for (int i = 0; i < 10_000; i++)
        {
            final FlowKey key = tcp(random.nextInt(), random.nextInt());
            final long hash = random.nextLong();
            final int found = table.find(key, hash, i);
            if (found < 0)
            {
                table.insert(-1 - found, key, 1, 1, i);
            }
        }
        assertEquals(64, table.size());
        assertEquals(10_000 - 64, table.evictions());
    }

    @Test
    void rebindChangesBackendAndGeneration()
    {
        final FlowKey key = tcp(1, 80);
        final int index = fixture.insert(key, 1, 1, 0);
        table.rebind(index, 9, 4, 10);
        final int found = table.find(key, 1, 10 + TCP_TIMEOUT);
        assertEquals(9, table.backend(found));
        assertEquals(4, table.generation(found));
    }

    @Test
    void rejectsCapacityThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new ConnectionTable(1000, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionTable(4, 1, 1, 1));
    }

    /**
     * 2^25 entries of 64 bytes are 2 GiB: every size and address is a long (an int overflowed here before).
     */
    @Test
    void holdsATableOfTwoGibibytes()
    {
        final int capacity = 1 << 25;
        final ConnectionTable large = newTable(capacity);
        assertEquals(capacity, large.capacity());
        final FlowKey last = tcp(7, 443);
        final long hash = capacity - 1; // the last entry: its address lies 2 GiB - 64 bytes past the first
        final int index = -1 - large.find(last, hash, 1);
        assertEquals(capacity - 1, index);
        large.insert(index, last, 5, 1, 1);
        final FlowKey wrapped = tcp(8, 443);
        final int next = -1 - large.find(wrapped, hash, 1);
        assertEquals(0, next, "the probe window wraps to entry 0");
        large.insert(next, wrapped, 6, 1, 1);
        assertEquals(5, large.backend(large.find(last, hash, 2)));
        assertEquals(6, large.backend(large.find(wrapped, hash, 2)));
        assertEquals(2, large.size());
    }
}
