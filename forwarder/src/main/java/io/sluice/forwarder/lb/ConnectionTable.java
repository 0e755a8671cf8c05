package io.sluice.forwarder.lb;

import io.sluice.forwarder.memory.HugePageMemory;
import org.agrona.UnsafeApi;

/**
 * A worker's own connection table: flow key to backend, so a flow keeps its backend when the Maglev table
 * changes (Maglev §3.3). Owned by one worker thread, never shared.
 * <p>
 * A capacity (a power of two) mapped at creation, of which a table may use a power-of-two part at first and double
 * it as it fills ({@link #ConnectionTable(int, int, long, long, long, long)}); off-heap, 32 bytes per entry, two
 * entries per cache line:
 * <pre>
 *   0  key word A        8  key word B        16 last seen (ns)   24 backend slot     28 backend generation
 * </pre>
 * An IPv4 key (13 bytes) lies whole in words A and B: A = source and destination address, B = ports, protocol
 * (bits 32-55) and the key's kind in the top byte (1 = IPv4, 2 = IPv6; B = 0 marks an empty entry). An IPv6 key
 * (37 bytes) keeps its ports, protocol and kind in B and a fold of its four address words in A; the address words
 * themselves lie in a second array of 32-byte entries with the same index, after the first, which a lookup reads
 * only when A and B match. So an IPv4 lookup reads one cache line, an IPv6 hit two, and a probe over an entry
 * of another flow never leaves the first array. The table needs {@link #bytesFor} = 64 bytes per entry of memory
 * (both arrays, zeroed at creation), of which IPv4 flows touch only the first half.
 * <p>
 * Open addressing with a probe window of {@link #BUCKET_SIZE} entries: the key's hash (the pipeline gives
 * {@link FlowKey#tableHash}, which is this worker's business only, not the flow hash that picks backends) picks the
 * window's first entry, any entry of the table (the window wraps at the end), and the full key is compared (a hash
 * collision never returns another flow's backend). A window spans 256 bytes, four or five cache lines (it was eight or
 * nine with the 64-byte entries this table had before), so a miss in a full window, which reads the whole window to
 * choose an entry, touches half as many lines. Windows start anywhere rather than on 8-entry boundaries so that the
 * entries flows hit first spread over every cache set. Entries are never emptied, only overwritten, so every entry a
 * key passes over on its way to an empty one stays occupied (as in linear probing without deletion) and a lookup stops
 * at the first empty one. An insert takes the first empty entry, else the first expired one, else it evicts the entry
 * seen least recently: a flood of new flows replaces old entries instead of growing memory.
 * <p>
 * The bookkeeping fields (size, eviction and expiry counts, the last miss's outcome), which the worker writes on
 * every miss, sit between 64 bytes of padding on either side: no other worker's object shares their cache lines.
 */
public final class ConnectionTable extends ConnectionTableFields
{
    public static final int DEFAULT_CAPACITY = 1 << 20;
    /** Bytes of an entry in the first array (every flow's). */
    public static final int ENTRY_LENGTH = 32;
    /** Bytes of an entry in the second array (an IPv6 flow's four address words). */
    public static final int IPV6_WORDS_LENGTH = 32;
    public static final int BUCKET_SIZE = 8;

    private static final int KEY_WORD_A_OFFSET = 0;
    private static final int KEY_WORD_B_OFFSET = 8;
    private static final int LAST_SEEN_OFFSET = 16;
    private static final int BACKEND_OFFSET = 24;
    private static final int GENERATION_OFFSET = 28;
    /**
     * The entries a growing table starts with (see {@link #ConnectionTable(int, int, long, long, long, long)}): 1 MiB
     * of them, 256 pages of 4 KiB.
     */
    public static final int GROWTH_START = 1 << 15;
    /** The table hash's seed of a table made without one. */
    public static final long DEFAULT_HASH_SEED = 0x5851F42D4C957F2DL;
    /** Old entries {@link #migrate} moves a call (once a burst): a doubling ends even when no flow is new. */
    public static final int MIGRATE_STEP = 64;
    /**
     * Old entries each insert moves while migrating, besides {@link #MIGRATE_STEP} a burst: a flood of new flows
     * (every frame an insert) still ends a doubling within an eighth of the new entries' inserts, before the table is
     * a quarter full again, so the old entries a doubling has not moved yet do not crowd the new ones' windows.
     */
    public static final int MIGRATE_PER_INSERT = 8;
    /**
     * A growing table doubles when more than 1 / GROWTH_LOAD of its entries in use hold a key: at a quarter full, a
     * window of 8 is full about as rarely as in a table that does not grow (docs/benchmarks.md), where at half full
     * four times as many live flows were evicted.
     */
    public static final int GROWTH_LOAD = 4;

    private static final long KIND_IPV4 = 1L << 56;
    private static final long KIND_IPV6 = 2L << 56;
    // Word B of an entry whose key was moved to its window under a doubled mask (or dropped there): never a key's
    // word B, never empty, always expired (MOVED_SEEN), so a lookup passes it and an insert may take it.
    private static final long KIND_MOVED = 3L << 56;
    private static final long KIND_MASK = 0xFFL << 56;
    private static final long MOVED_SEEN = Long.MIN_VALUE / 2;
    private static final int PROTOCOL_SHIFT = 32;
    private static final int PROTOCOL_MASK = 0xFF_FFFF;

    byte p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079;
    byte p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095;
    byte p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111;
    byte p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
    // 16 more: fields of this class may fill gaps the superclass's fields leave.
    byte p128, p129, p130, p131, p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143;

    /**
     * Creates a table.
     *
     * @param capacity       number of entries, a power of two of at least {@link #BUCKET_SIZE}.
     * @param tcpTimeoutNs   idle time after which a TCP entry expires.
     * @param udpTimeoutNs   idle time after which a UDP entry expires.
     * @param otherTimeoutNs idle time for other protocols and fragments.
     */
    public ConnectionTable(
        final int capacity, final long tcpTimeoutNs, final long udpTimeoutNs, final long otherTimeoutNs)
    {
        this(capacity, capacity, DEFAULT_HASH_SEED, tcpTimeoutNs, udpTimeoutNs, otherTimeoutNs);
    }

    /**
     * Creates a table that uses {@code initialCapacity} of its entries at first and doubles them while it fills, up
     * to {@code capacity}: a table that holds few flows keeps them in few pages, so its lookups miss the TLB less
     * (on a virtual machine whose host maps the guest with small pages, each such miss is a two-dimensional page
     * walk). The memory for the whole capacity is mapped at once, as for a table that does not grow.
     * <p>
     * An insert that takes the table past a quarter of the entries in use ({@link #GROWTH_LOAD}) doubles them;
     * then each old entry whose window has changed is moved, {@link #MIGRATE_PER_INSERT} old entries an insert and
     * {@link #MIGRATE_STEP} a call of {@link #migrate} (once a burst while {@link #migrating()}), and until all are
     * moved a lookup that misses under the new mask looks again under the old one.
     * Every lookup and warm must be given {@link #hash}'s value: moving an entry hashes its key again.
     *
     * @param capacity        most entries, a power of two of at least {@link #BUCKET_SIZE}.
     * @param initialCapacity entries in use at first, a power of two from {@link #BUCKET_SIZE} to capacity.
     * @param hashSeed        the table hash's seed.
     * @param tcpTimeoutNs    idle time after which a TCP entry expires.
     * @param udpTimeoutNs    idle time after which a UDP entry expires.
     * @param otherTimeoutNs  idle time for other protocols and fragments.
     */
    public ConnectionTable(
        final int capacity,
        final int initialCapacity,
        final long hashSeed,
        final long tcpTimeoutNs,
        final long udpTimeoutNs,
        final long otherTimeoutNs)
    {
        super(capacity, initialCapacity, hashSeed, tcpTimeoutNs, udpTimeoutNs, otherTimeoutNs);
    }

    /**
     * Creates a worker's table as the forwarder does: growing from {@link #GROWTH_START} entries (or the capacity,
     * when smaller) to the capacity.
     *
     * @param capacity       most entries, a power of two of at least {@link #BUCKET_SIZE}.
     * @param hashSeed       the table hash's seed.
     * @param tcpTimeoutNs   idle time after which a TCP entry expires.
     * @param udpTimeoutNs   idle time after which a UDP entry expires.
     * @param otherTimeoutNs idle time for other protocols and fragments.
     * @return the table.
     */
    public static ConnectionTable growing(
        final int capacity,
        final long hashSeed,
        final long tcpTimeoutNs,
        final long udpTimeoutNs,
        final long otherTimeoutNs)
    {
        return new ConnectionTable(capacity, Math.min(capacity, GROWTH_START), hashSeed, tcpTimeoutNs, udpTimeoutNs,
            otherTimeoutNs);
    }

    /**
     * Returns the table hash of a key, the hash {@link #find} and {@link #warm} take.
     *
     * @param key the flow.
     * @return {@code key.tableHash(hashSeed())}.
     */
    public long hash(final FlowKey key)
    {
        return key.tableHash(hashSeed);
    }

    /**
     * Returns the table hash's seed.
     *
     * @return the seed given at creation, or {@link #DEFAULT_HASH_SEED}.
     */
    public long hashSeed()
    {
        return hashSeed;
    }

    /**
     * Returns the memory a table of a capacity takes.
     *
     * @param capacity number of entries.
     * @return bytes: {@code capacity x} ({@link #ENTRY_LENGTH} + {@link #IPV6_WORDS_LENGTH}), as a long (2^25
     *     entries are already 2 GiB).
     */
    public static long bytesFor(final int capacity)
    {
        return (long)capacity * (ENTRY_LENGTH + IPV6_WORDS_LENGTH);
    }

    /**
     * Finds a live entry for the key, or the entry a new one should take.
     * <p>
     * On a miss, {@link #lastMissEvicts()} tells whether inserting at the returned place replaces a live entry.
     *
     * @param key     the flow.
     * @param hash    the key's table hash, the same for every call about the key.
     * @param nowNs   the current time.
     * @return the entry index ({@code >= 0}) on a hit; {@code -(index + 1)} of the entry to insert into on a miss.
     */
    public int find(final FlowKey key, final long hash, final long nowNs)
    {
        final int found = lookup(key, hash, nowNs);
        return found >= 0 || oldMask == 0 ? found : findUnmoved(key, hash, nowNs, found);
    }

    // find under the mask in use.
    private int lookup(final FlowKey key, final long hash, final long nowNs)
    {
        final boolean ipv6 = key.length != FlowKey.IPV4_KEY_LENGTH;
        final long wordA = ipv6 ? fold(key) : key.w0;
        final long wordB = ipv6 ? key.w4 | KIND_IPV6 : key.w1 | KIND_IPV4;
        final int mask = indexMask;
        final int first = (int)hash & mask;
        int expired = -1;
        int oldest = first;
        long oldestSeen = Long.MAX_VALUE;
        for (int probe = 0; probe < BUCKET_SIZE; probe++)
        {
            final int i = (first + probe) & mask;
            final long at = entry(i);
            final long b = UnsafeApi.getLong(at + KEY_WORD_B_OFFSET);
            if (b == 0)
            {
                lastMissEvicts = false;
                lastMissExpired = false;
                return expired >= 0 ? markExpired(expired) : -(i + 1);
            }
            final long seen = UnsafeApi.getLong(at + LAST_SEEN_OFFSET);
            final boolean live = nowNs - seen <= timeoutNs((int)(b >>> PROTOCOL_SHIFT) & PROTOCOL_MASK);
            if (b == wordB && UnsafeApi.getLong(at + KEY_WORD_A_OFFSET) == wordA && (!ipv6 || holdsIpv6(i, key)))
            {
                if (live)
                {
                    return i;
                }
                return markExpired(i);
            }
            if (!live && expired < 0)
            {
                expired = i;
            }
            if (seen < oldestSeen)
            {
                oldestSeen = seen;
                oldest = i;
            }
        }
        return expired >= 0 ? markExpired(expired) : markEvicting(oldest);
    }

    // While old entries are being moved (migrating): a key that misses under the new mask may still lie in its
    // window under the old one. Returns its entry when live there, else the first lookup's miss, whose outcome
    // (lastMissEvicts, lastMissExpired) stands: a new or expired flow is inserted under the new mask, and an expired
    // copy left under the old one is never live again (time does not go back).
    private int findUnmoved(final FlowKey key, final long hash, final long nowNs, final int miss)
    {
        final boolean ipv6 = key.length != FlowKey.IPV4_KEY_LENGTH;
        final long wordA = ipv6 ? fold(key) : key.w0;
        final long wordB = ipv6 ? key.w4 | KIND_IPV6 : key.w1 | KIND_IPV4;
        final int mask = oldMask;
        final int first = (int)hash & mask;
        for (int probe = 0; probe < BUCKET_SIZE; probe++)
        {
            final int i = (first + probe) & mask;
            final long at = entry(i);
            final long b = UnsafeApi.getLong(at + KEY_WORD_B_OFFSET);
            if (b == 0)
            {
                return miss;
            }
            if (b == wordB && UnsafeApi.getLong(at + KEY_WORD_A_OFFSET) == wordA && (!ipv6 || holdsIpv6(i, key)))
            {
                return isLive(at, b, nowNs) ? i : miss;
            }
        }
        return miss;
    }

    private boolean isLive(final long at, final long b, final long nowNs)
    {
        final long seen = UnsafeApi.getLong(at + LAST_SEEN_OFFSET);
        return nowNs - seen <= timeoutNs((int)(b >>> PROTOCOL_SHIFT) & PROTOCOL_MASK);
    }

    // Word A of an IPv6 key: a fold of its four address words, so that a probe over another IPv6 flow with the
    // same ports rarely reads the second array. Only a filter: a hit always compares the four words themselves.
    private static long fold(final FlowKey key)
    {
        return key.w0 ^ Long.rotateLeft(key.w1, 16) ^ Long.rotateLeft(key.w2, 32) ^ Long.rotateLeft(key.w3, 48);
    }

    private boolean holdsIpv6(final int index, final FlowKey key)
    {
        final long at = ipv6Words(index);
        return UnsafeApi.getLong(at) == key.w0 &&
            UnsafeApi.getLong(at + 8) == key.w1 &&
            UnsafeApi.getLong(at + 16) == key.w2 &&
            UnsafeApi.getLong(at + 24) == key.w3;
    }

    private int markEvicting(final int index)
    {
        lastMissEvicts = true;
        lastMissExpired = false;
        return -(index + 1);
    }

    /**
     * Loads the first entry a lookup of this hash will read, and returns a word of it, so that a burst can start
     * all its cache misses before its first lookup. The value means nothing; callers keep it (e.g. summed into a
     * field) so the load is not optimised away.
     *
     * @param hash the key's table hash.
     * @return a word of the entry.
     */
    public int warm(final long hash)
    {
        return (int)UnsafeApi.getLong(entry((int)hash & indexMask) + KEY_WORD_B_OFFSET);
    }

    /**
     * Loads every cache line of the window a lookup of this hash may read: the entries at 0, 2, 4, 6 and 7 past the
     * first (two entries share a line, and a window that starts on an odd entry spans five lines). Used after a burst
     * whose inserts mostly evicted, where the next burst's misses will scan whole windows: {@link #warm} would start
     * only their first line's miss, and the scan would then wait for the other lines one after another.
     *
     * @param hash the key's table hash.
     * @return a sum of words of the entries, meaning nothing (see {@link #warm}).
     */
    public int warmWindow(final long hash)
    {
        final int mask = indexMask;
        final int first = (int)hash;
        return (int)(UnsafeApi.getLong(entry(first & mask) + KEY_WORD_B_OFFSET) +
            UnsafeApi.getLong(entry((first + 2) & mask) + KEY_WORD_B_OFFSET) +
            UnsafeApi.getLong(entry((first + 4) & mask) + KEY_WORD_B_OFFSET) +
            UnsafeApi.getLong(entry((first + 6) & mask) + KEY_WORD_B_OFFSET) +
            UnsafeApi.getLong(entry((first + BUCKET_SIZE - 1) & mask) + KEY_WORD_B_OFFSET));
    }

    private int markExpired(final int index)
    {
        lastMissEvicts = false;
        lastMissExpired = true;
        return -(index + 1);
    }

    /**
     * Tells whether the insert place returned by the last missed {@link #find} holds a live entry of another flow.
     *
     * @return true when inserting there evicts.
     */
    public boolean lastMissEvicts()
    {
        return lastMissEvicts;
    }

    /**
     * Writes an entry at the place a missed {@link #find} returned, replacing whatever was there; except that a
     * growing table that would evict a live flow there doubles (or moves the window's entries, while moving) and
     * writes the entry where a lookup under the new mask finds room, so it evicts only once at its capacity.
     *
     * @param index      entry index (decoded from {@code find}'s negative result).
     * @param key        the flow.
     * @param backend    backend slot.
     * @param generation backend slot generation.
     * @param nowNs      the current time.
     */
    public void insert(final int index, final FlowKey key, final int backend, final int generation, final long nowNs)
    {
        final int slot = lastMissEvicts && (oldMask != 0 || indexMask < capacity - 1) ?
            makeRoom(key, nowNs, index) : index;
        final long at = entry(slot);
        final long was = UnsafeApi.getLong(at + KEY_WORD_B_OFFSET);
        if (was == 0 || was == KIND_MOVED)
        {
            size++;
        }
        else if (lastMissEvicts)
        {
            evictions++;
        }
        else if (lastMissExpired)
        {
            expirations++;
        }
        lastMissEvicts = false;
        lastMissExpired = false;
        if (key.length == FlowKey.IPV4_KEY_LENGTH)
        {
            UnsafeApi.putLong(at + KEY_WORD_A_OFFSET, key.w0);
            UnsafeApi.putLong(at + KEY_WORD_B_OFFSET, key.w1 | KIND_IPV4);
        }
        else
        {
            final long words = ipv6Words(slot);
            UnsafeApi.putLong(words, key.w0);
            UnsafeApi.putLong(words + 8, key.w1);
            UnsafeApi.putLong(words + 16, key.w2);
            UnsafeApi.putLong(words + 24, key.w3);
            UnsafeApi.putLong(at + KEY_WORD_A_OFFSET, fold(key));
            UnsafeApi.putLong(at + KEY_WORD_B_OFFSET, key.w4 | KIND_IPV6);
        }
        UnsafeApi.putLong(at + LAST_SEEN_OFFSET, nowNs);
        UnsafeApi.putInt(at + BACKEND_OFFSET, backend);
        UnsafeApi.putInt(at + GENERATION_OFFSET, generation);
        if (oldMask != 0)
        {
            moveOldEntries(MIGRATE_PER_INSERT, nowNs);
        }
        else if (size > growAt)
        {
            grow();
        }
    }

    // The key's window is full of live flows while the table can still double, or is still moving entries: rather
    // than evict one, double now (unless moving already) and move the window's entries that belong elsewhere under
    // the new mask, then look again. The key is in neither layout (its find missed both), so the second lookup
    // misses too; it evicts only if every entry of the key's new window stays. Returns where to insert.
    private int makeRoom(final FlowKey key, final long nowNs, final int index)
    {
        final int lookupMask = indexMask;
        if (oldMask == 0)
        {
            grow();
        }
        final long hash = hash(key);
        for (int probe = 0; probe < BUCKET_SIZE; probe++)
        {
            moveToWindow(((int)hash + probe) & lookupMask, nowNs);
        }
        final int found = lookup(key, hash, nowNs);
        return found < 0 ? -1 - found : index;
    }

    // Doubles the entries in use. The new half is empty (never written), so a lookup under the new mask stops there
    // at once, and findUnmoved looks under the old one until migrate has moved every old entry.
    private void grow()
    {
        oldMask = indexMask;
        indexMask = indexMask << 1 | 1;
        migrateCursor = 0;
        growAt = Integer.MAX_VALUE;
    }

    /**
     * Tells whether the entries of the last doubling are still being moved: the worker then calls {@link #migrate}
     * once a burst.
     *
     * @return true while migrating.
     */
    public boolean migrating()
    {
        return oldMask != 0;
    }

    /**
     * Moves the next {@link #MIGRATE_STEP} old entries of the last doubling to their windows under the new mask:
     * an entry a lookup under the new mask would reach (in its window, no empty entry before it) stays; a live one
     * moves to its window's first empty or expired entry, and is dropped (an eviction) when there is none; an
     * expired one is dropped. The last step ends the migration and lets the table double again when more than a
     * quarter of its entries hold a key.
     *
     * @param nowNs the current time.
     */
    public void migrate(final long nowNs)
    {
        moveOldEntries(MIGRATE_STEP, nowNs);
    }

    private void moveOldEntries(final int count, final long nowNs)
    {
        final int oldEntries = oldMask + 1;
        final int end = Math.min(migrateCursor + count, oldEntries);
        for (int j = migrateCursor; j < end; j++)
        {
            moveToWindow(j, nowNs);
        }
        migrateCursor = end;
        if (end == oldEntries)
        {
            oldMask = 0;
            final int entries = indexMask + 1;
            growAt = entries < capacity ? entries / GROWTH_LOAD : Integer.MAX_VALUE;
        }
    }

    private void moveToWindow(final int j, final long nowNs)
    {
        final long from = entry(j);
        final long b = UnsafeApi.getLong(from + KEY_WORD_B_OFFSET);
        if (b == 0 || b == KIND_MOVED)
        {
            return;
        }
        final boolean ipv6 = (b & KIND_MASK) == KIND_IPV6;
        final long words = ipv6Words(j);
        final long hash = ipv6 ?
            FlowKey.tableHash(UnsafeApi.getLong(words), UnsafeApi.getLong(words + 8), UnsafeApi.getLong(words + 16),
                UnsafeApi.getLong(words + 24), b & ~KIND_MASK, true, hashSeed) :
            FlowKey.tableHash(UnsafeApi.getLong(from + KEY_WORD_A_OFFSET), b & ~KIND_MASK, 0, 0, 0, false, hashSeed);
        final int mask = indexMask;
        final int first = (int)hash & mask;
        int target = -1;
        for (int probe = 0; probe < BUCKET_SIZE; probe++)
        {
            final int i = (first + probe) & mask;
            if (i == j)
            {
                return; // a lookup reaches it where it is
            }
            final long at = entry(i);
            final long ib = UnsafeApi.getLong(at + KEY_WORD_B_OFFSET);
            if (ib == 0)
            {
                target = target < 0 ? i : target;
                break;
            }
            if (target < 0 && !isLive(at, ib, nowNs))
            {
                target = i;
            }
        }
        if (!isLive(from, b, nowNs))
        {
            size--; // expired, and no lookup would reach it: dropped
        }
        else if (target < 0)
        {
            size--; // its window is full of live flows
            evictions++;
        }
        else
        {
            moveEntry(from, j, target, ipv6);
        }
        UnsafeApi.putLong(from + KEY_WORD_B_OFFSET, KIND_MOVED);
        UnsafeApi.putLong(from + LAST_SEEN_OFFSET, MOVED_SEEN);
    }

    private void moveEntry(final long from, final int j, final int target, final boolean ipv6)
    {
        final long to = entry(target);
        final long was = UnsafeApi.getLong(to + KEY_WORD_B_OFFSET);
        if (was != 0 && was != KIND_MOVED)
        {
            size--; // an expired flow's entry reused
            expirations++;
        }
        UnsafeApi.putLong(to + KEY_WORD_A_OFFSET, UnsafeApi.getLong(from + KEY_WORD_A_OFFSET));
        UnsafeApi.putLong(to + KEY_WORD_B_OFFSET, UnsafeApi.getLong(from + KEY_WORD_B_OFFSET));
        UnsafeApi.putLong(to + LAST_SEEN_OFFSET, UnsafeApi.getLong(from + LAST_SEEN_OFFSET));
        UnsafeApi.putLong(to + BACKEND_OFFSET, UnsafeApi.getLong(from + BACKEND_OFFSET));
        if (ipv6)
        {
            UnsafeApi.copyMemory(ipv6Words(j), ipv6Words(target), IPV6_WORDS_LENGTH);
        }
    }

    /**
     * Re-points a live entry to another backend (its backend went away) and refreshes it.
     *
     * @param index      entry index from a hit.
     * @param backend    new backend slot.
     * @param generation its generation.
     * @param nowNs      the current time.
     */
    public void rebind(final int index, final int backend, final int generation, final long nowNs)
    {
        final long at = entry(index);
        UnsafeApi.putLong(at + LAST_SEEN_OFFSET, nowNs);
        UnsafeApi.putInt(at + BACKEND_OFFSET, backend);
        UnsafeApi.putInt(at + GENERATION_OFFSET, generation);
    }

    /**
     * Marks a hit entry as seen now.
     *
     * @param index entry index.
     * @param nowNs the current time.
     */
    public void touch(final int index, final long nowNs)
    {
        UnsafeApi.putLong(entry(index) + LAST_SEEN_OFFSET, nowNs);
    }

    /**
     * Returns the backend slot of an entry.
     *
     * @param index entry index.
     * @return backend slot.
     */
    public int backend(final int index)
    {
        return UnsafeApi.getInt(entry(index) + BACKEND_OFFSET);
    }

    /**
     * Returns the backend generation of an entry.
     *
     * @param index entry index.
     * @return generation.
     */
    public int generation(final int index)
    {
        return UnsafeApi.getInt(entry(index) + GENERATION_OFFSET);
    }

    // Address of entry index (0 <= index < capacity).
    private long entry(final int index)
    {
        return address + (long)index * ENTRY_LENGTH;
    }

    // Address of the IPv6 address words of entry index (0 <= index < capacity).
    private long ipv6Words(final int index)
    {
        return ipv6Address + (long)index * IPV6_WORDS_LENGTH;
    }

    private long timeoutNs(final int protocol)
    {
        return protocol == 6 ? tcpTimeoutNs : protocol == 17 ? udpTimeoutNs : otherTimeoutNs;
    }

    /**
     * Tells whether the entries live in transparent huge pages (fewer TLB misses on a large table).
     *
     * @return true when the memory was mapped with MADV_HUGEPAGE.
     */
    public boolean hugePages()
    {
        return memory.hugePages();
    }

    /**
     * Describes the table's memory for a start-up line: entries, size, and how much the kernel really put in huge
     * pages ({@link HugePageMemory#describe()}), with the reason when not all of it.
     *
     * @return e.g. {@code "1048576 entries of 32 + 32 bytes, 64 MiB, all in 2 MiB pages"}.
     */
    public String describeMemory()
    {
        return capacity + " entries of " + ENTRY_LENGTH + " + " + IPV6_WORDS_LENGTH + " bytes, " + memory.describe();
    }

    /**
     * Returns the capacity.
     *
     * @return number of entries.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Returns how many entries are in use now: {@link #capacity} for a table that does not grow, else the entries
     * indexes are masked to since the last doubling.
     *
     * @return entries in use.
     */
    public int entriesInUse()
    {
        return indexMask + 1;
    }

    /**
     * Returns how many entries hold a flow's key (live or expired, not yet overwritten).
     *
     * @return occupied entries.
     */
    public int size()
    {
        return size;
    }

    /**
     * Returns how many live entries were replaced because their bucket was full.
     *
     * @return evictions since creation.
     */
    public long evictions()
    {
        return evictions;
    }

    /**
     * Returns how many expired entries were reused.
     *
     * @return expirations since creation.
     */
    public long expirations()
    {
        return expirations;
    }
}
