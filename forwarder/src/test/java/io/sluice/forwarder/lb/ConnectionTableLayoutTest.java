package io.sluice.forwarder.lb;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static io.sluice.forwarder.lb.ConnectionTableFixture.TCP_TIMEOUT;
import static io.sluice.forwarder.lb.ConnectionTableFixture.newTable;
import static io.sluice.forwarder.lb.ConnectionTableFixture.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compact layout (32-byte entries, IPv6 address words in a second array): IPv6 keys whose first-array words
 * collide, mixed IPv4 and IPv6 windows, full windows, expiry and eviction of IPv6 entries, and a random workload
 * checked against a plain map.
 */
class ConnectionTableLayoutTest
{
    private final ConnectionTableFixture fixture = new ConnectionTableFixture(64);
    private final ConnectionTable table = fixture.table;

    private static FlowKey v6(final long source0, final long source1, final int port, final int protocol)
    {
        return new FlowKey().ipv6(source0, source1, 0x20010DB8L, 1, port, protocol);
    }

    @Test
    void entriesAreHalfACacheLineAndTheIpv6WordsLieBeside()
    {
        assertEquals(32, ConnectionTable.ENTRY_LENGTH);
        assertEquals(64L << 20, ConnectionTable.bytesFor(1 << 20), "both arrays: 64 bytes per entry");
    }

    @Test
    void ipv6KeysWhoseFoldedWordsCollideAreTold()
    {
        // Same ports, protocol and fold of the address words (w0 ^ rotl(w1, 16) ^ ...): only the second array
        // tells them apart.
        final long a = 0x1234_5678_9ABC_DEF0L;
        final FlowKey first = v6(a, 0, 443, 6);
        final FlowKey second = v6(0, Long.rotateRight(a, 16), 443, 6);
        fixture.insert(first, 7, 1, 1);
        final int found = table.find(second, 7, 1);
        assertTrue(found < 0, "a different IPv6 flow with the same first-array words misses");
        table.insert(-1 - found, second, 2, 1, 1);
        assertEquals(1, table.backend(table.find(first, 7, 2)));
        assertEquals(2, table.backend(table.find(second, 7, 2)));
        assertEquals(2, table.size());
    }

    @Test
    void ipv6KeysDifferingInAnyWordAreTold()
    {
        final FlowKey base = new FlowKey().ipv6(1, 2, 3, 4, 0x0050_1F90, 6);
        fixture.insert(base, 3, 9, 1);
        final FlowKey[] others = {
            new FlowKey().ipv6(5, 2, 3, 4, 0x0050_1F90, 6),
            new FlowKey().ipv6(1, 5, 3, 4, 0x0050_1F90, 6),
            new FlowKey().ipv6(1, 2, 5, 4, 0x0050_1F90, 6),
            new FlowKey().ipv6(1, 2, 3, 5, 0x0050_1F90, 6),
            new FlowKey().ipv6(1, 2, 3, 4, 0x0051_1F90, 6),
            new FlowKey().ipv6(1, 2, 3, 4, 0x0050_1F90, 17),
            new FlowKey().ipv4(1, 2, 0x0050_1F90, 6),
        };
        for (int i = 0; i < others.length; i++)
        {
            assertTrue(table.find(others[i], 3, 1) < 0, "key " + i);
        }
        assertEquals(9, table.backend(table.find(new FlowKey().ipv6(1, 2, 3, 4, 0x0050_1F90, 6), 3, 1)));
    }

    @Test
    void mixedWindowFindsEveryFlowAndEvictsTheOldestOfEitherKind()
    {
        final long hash = 60; // the window wraps: entries 60..63, then 0..3
        final FlowKey[] keys = new FlowKey[ConnectionTable.BUCKET_SIZE];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = i % 2 == 0 ? tcp(i, 80) : v6(i, i, 80, 6);
            final int index = fixture.insert(keys[i], hash, 10 + i, 100);
            assertEquals((60 + i) & 63, index);
            table.touch(index, 100 + (i == 3 ? 0 : 10 + i));
        }
        for (int i = 0; i < keys.length; i++)
        {
            assertEquals(10 + i, table.backend(table.find(keys[i], hash, 150)), "flow " + i);
        }
        final FlowKey newcomer = v6(99, 99, 80, 6);
        final int found = table.find(newcomer, hash, 150);
        assertTrue(found < 0);
        assertTrue(table.lastMissEvicts());
        assertEquals(63, -1 - found, "the least recently seen entry (flow 3, IPv6) is replaced");
        table.insert(-1 - found, newcomer, 77, 1, 150);
        assertEquals(1, table.evictions());
        assertTrue(table.find(keys[3], hash, 150) < 0, "the evicted IPv6 flow is gone");
        assertEquals(77, table.backend(table.find(newcomer, hash, 150)));

        final FlowKey v4newcomer = tcp(1234, 80);
        final int v4found = table.find(v4newcomer, hash, 151);
        assertTrue(v4found < 0);
        table.insert(-1 - v4found, v4newcomer, 78, 1, 151);
        assertEquals(78, table.backend(table.find(v4newcomer, hash, 151)));
        assertEquals(ConnectionTable.BUCKET_SIZE, table.size());
    }

    @Test
    void ipv4OverAnIpv6EntryLeavesNoIpv6Match()
    {
        final FlowKey six = v6(5, 6, 80, 6);
        final int index = fixture.insert(six, 0, 1, 0);
        final FlowKey four = tcp(5, 80);
        final int found = table.find(four, 0, TCP_TIMEOUT + 1);
        assertEquals(index, -1 - found, "the expired IPv6 entry is reused");
        table.insert(-1 - found, four, 2, 1, TCP_TIMEOUT + 1);
        assertEquals(1, table.expirations());
        assertTrue(table.find(six, 0, TCP_TIMEOUT + 1) < 0, "the overwritten IPv6 flow is gone");
        assertEquals(2, table.backend(table.find(four, 0, TCP_TIMEOUT + 1)));
    }

    @Test
    void ipv6EntriesExpirePerProtocol()
    {
        final FlowKey tcp = v6(1, 1, 80, 6);
        final FlowKey udp = v6(2, 2, 53, 17);
        final FlowKey other = v6(3, 3, 0, 58);
        fixture.assertExpiresPerProtocol(tcp, udp, other);
        assertFalse(table.lastMissEvicts());
    }

    @Test
    void ipv6EntryAtTheLastIndexKeepsItsWords()
    {
        final ConnectionTable small = newTable(8);
        final FlowKey last = v6(-1L, -1L, 0xFFFF_FFFF, 17);
        final int index = -1 - small.find(last, 7, 1);
        assertEquals(7, index);
        small.insert(index, last, 4, 2, 1);
        final FlowKey wrapped = v6(-1L, -2L, 0xFFFF_FFFF, 17);
        final int next = -1 - small.find(wrapped, 7, 1);
        assertEquals(0, next, "the window wraps to entry 0");
        small.insert(next, wrapped, 5, 3, 1);
        assertEquals(4, small.backend(small.find(last, 7, 2)));
        assertEquals(2, small.generation(small.find(last, 7, 2)));
        assertEquals(5, small.backend(small.find(wrapped, 7, 2)));
        assertEquals(3, small.generation(small.find(wrapped, 7, 2)));
    }

    /**
     * Random IPv4 and IPv6 flows, hashes drawn from few values so windows fill, collide and evict, checked against
     * a map: a hit always returns the backend last stored for that very flow, and every flow the table dropped
     * was counted as an eviction or expiry.
     */
    @Test
    void agreesWithAMapUnderRandomMixedLoad()
    {
        final SplittableRandom random = new SplittableRandom(19);
        final Map<String, Integer> model = new HashMap<>();
        final FlowKey[] pool = new FlowKey[200];
        final long[] hashes = new long[pool.length];
        for (int i = 0; i < pool.length; i++)
        {
            pool[i] = random.nextBoolean() ?
                tcp(random.nextInt(4), 80 + random.nextInt(3)) :
                v6(random.nextInt(4), random.nextInt(4), 80 + random.nextInt(3), random.nextBoolean() ? 6 : 17);
            // A function of the key, as a flow hash is (the pool may hold a flow twice); few values, so windows
            // overlap and fill.
            hashes[i] = Math.floorMod(java.util.Arrays.hashCode(pool[i].toBytes()), 24);
        }
        long now = 0;
        int hits = 0;
        for (int step = 0; step < 20_000; step++)
        {
            now += random.nextInt(3);
            final int k = random.nextInt(pool.length);
            final FlowKey key = pool[k];
            final String name = java.util.Arrays.toString(key.toBytes());
            final int found = table.find(key, hashes[k], now);
            if (found >= 0)
            {
                hits++;
                final Integer expected = model.get(name);
                assertTrue(expected != null, "hit for a flow never stored: " + name);
                assertEquals(expected.intValue(), table.backend(found), "backend of " + name);
                table.touch(found, now);
            }
            else
            {
                final int backend = random.nextInt(1000);
                table.insert(-1 - found, key, backend, 1, now);
                model.put(name, backend);
            }
        }
        assertTrue(hits > 1000, "the workload hits: " + hits);
        assertTrue(table.evictions() + table.expirations() > 0, "and evicts or expires");
        assertTrue(table.size() <= table.capacity());
    }
}
