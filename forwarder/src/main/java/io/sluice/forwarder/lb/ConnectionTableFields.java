package io.sluice.forwarder.lb;

import io.sluice.forwarder.memory.HugePageMemory;
import org.agrona.BitUtil;

/** Padding before a connection table's fields: the object header's cache line is not theirs. */
abstract class ConnectionTableLhsPadding
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** A connection table's fields, between the two paddings (see {@link ConnectionTable}). */
abstract class ConnectionTableFields extends ConnectionTableLhsPadding
{
    final HugePageMemory memory;
    // Address of entry 0. The entries are always off-heap, so every access takes Unsafe's raw-address form: C2
    // compiles an access through UnsafeBuffer (whose base may be an array or null) with memory barriers around it,
    // which made it reload every field near it. Indexes are masked to the capacity and offsets are below
    // ENTRY_LENGTH (IPV6_WORDS_LENGTH), so every access stays inside the entries.
    final long address;
    // Address of the IPv6 address words of entry 0: the second array, right after the first.
    final long ipv6Address;
    final int capacity;
    // The entries in use: indexes are masked to them. Below capacity while the table is still growing (see
    // ConnectionTable#grow); the memory for all of capacity is mapped from the start.
    int indexMask;
    // Seed of the table hash (FlowKey#tableHash) every find and warm is given, so a growing table can place an
    // entry again from its key words.
    final long hashSeed;
    final long tcpTimeoutNs;
    final long udpTimeoutNs;
    final long otherTimeoutNs;

    int size;
    // The size past which an insert doubles the entries in use (Integer.MAX_VALUE: at capacity, or migrating).
    int growAt;
    // While the entries of the last doubling are being moved to their new windows: the mask of the entries in use
    // before it (0 when none are being moved), and the next old entry to move.
    int oldMask;
    int migrateCursor;
    long evictions;
    long expirations;
    boolean lastMissEvicts;
    boolean lastMissExpired;

    ConnectionTableFields(
        final int capacity,
        final int initialCapacity,
        final long hashSeed,
        final long tcpTimeoutNs,
        final long udpTimeoutNs,
        final long otherTimeoutNs)
    {
        if (capacity < ConnectionTable.BUCKET_SIZE || !BitUtil.isPowerOfTwo(capacity))
        {
            throw new IllegalArgumentException("connection table capacity must be a power of two >= " +
                ConnectionTable.BUCKET_SIZE + ", got " + capacity);
        }
        if (initialCapacity < ConnectionTable.BUCKET_SIZE || !BitUtil.isPowerOfTwo(initialCapacity) ||
            initialCapacity > capacity)
        {
            throw new IllegalArgumentException("connection table initial capacity must be a power of two from " +
                ConnectionTable.BUCKET_SIZE + " to the capacity " + capacity + ", got " + initialCapacity);
        }
        if (tcpTimeoutNs <= 0 || udpTimeoutNs <= 0 || otherTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("connection timeouts must be > 0");
        }
        this.capacity = capacity;
        this.indexMask = initialCapacity - 1;
        this.hashSeed = hashSeed;
        this.growAt = initialCapacity < capacity ? initialCapacity / ConnectionTable.GROWTH_LOAD : Integer.MAX_VALUE;
        this.tcpTimeoutNs = tcpTimeoutNs;
        this.udpTimeoutNs = udpTimeoutNs;
        this.otherTimeoutNs = otherTimeoutNs;
        memory = HugePageMemory.allocate(ConnectionTable.bytesFor(capacity));
        address = memory.address();
        ipv6Address = address + (long)capacity * ConnectionTable.ENTRY_LENGTH;
    }
}
