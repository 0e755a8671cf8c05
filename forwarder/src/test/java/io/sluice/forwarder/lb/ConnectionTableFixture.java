package io.sluice.forwarder.lb;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the connection-table tests share: the per-protocol idle timeouts, a table of theirs, an IPv4 TCP key to
 * the same VIP, an insert that first checks the key misses, and the check that entries expire per protocol.
 */
final class ConnectionTableFixture
{
    static final long TCP_TIMEOUT = 300;
    static final long UDP_TIMEOUT = 60;
    static final long OTHER_TIMEOUT = 30;

    final ConnectionTable table;

    ConnectionTableFixture(final int capacity)
    {
        table = newTable(capacity);
    }

    static ConnectionTable newTable(final int capacity)
    {
        return new ConnectionTable(capacity, TCP_TIMEOUT, UDP_TIMEOUT, OTHER_TIMEOUT);
    }

    /**
     * An IPv4 TCP key from {@code client} to 10.0.0.1.
     */
    static FlowKey tcp(final int client, final int port)
    {
        return new FlowKey().ipv4(client, 0x0100_000A, port, 6);
    }

    /**
     * Inserts a key that must miss, generation 1.
     *
     * @return the entry's index.
     */
    int insert(final FlowKey key, final long hash, final int backend, final long now)
    {
        final int found = table.find(key, hash, now);
        assertTrue(found < 0, "expected a miss");
        table.insert(-1 - found, key, backend, 1, now);
        return -1 - found;
    }

    /**
     * Inserts the three keys at time 0 and checks each expires after its protocol's timeout, not before.
     */
    void assertExpiresPerProtocol(final FlowKey tcp, final FlowKey udp, final FlowKey other)
    {
        insert(tcp, 1, 1, 0);
        insert(udp, 1, 2, 0);
        insert(other, 1, 3, 0);
        assertTrue(table.find(udp, 1, UDP_TIMEOUT) >= 0, "still live at exactly the timeout");
        assertTrue(table.find(udp, 1, UDP_TIMEOUT + 1) < 0, "udp expired");
        assertTrue(table.find(other, 1, OTHER_TIMEOUT + 1) < 0, "other protocol expired");
        assertTrue(table.find(tcp, 1, UDP_TIMEOUT + 1) >= 0, "tcp lives longer");
        assertTrue(table.find(tcp, 1, TCP_TIMEOUT + 1) < 0, "tcp expired");
    }
}
