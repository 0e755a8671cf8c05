package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.lb.FlowKey;
import io.sluice.forwarder.lb.VipTable;
import io.sluice.forwarder.parse.FrameParser;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import io.sluice.forwarder.state.ForwardingSnapshot;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One worker's packet pipeline: parse, match a VIP, hash the flow, look up the connection table or else the VIP's
 * Maglev table, GRE-encapsulate in place. Owned by one thread; allocates nothing per packet and never throws on
 * frame content: every malformed frame becomes a DROP with its own reason.
 * <p>
 * Each frame's headers are parsed by a {@link FrameParser} into a flow key (5-tuple, fragment 3-tuple, or the
 * reversed flow an ICMP error quotes); the pipeline matches its VIP, chooses the backend and encapsulates.
 * A packet too big for the tunnel may be answered with ICMP ({@link IcmpTooBigResponder}), off the common path.
 */
public final class PacketPipeline
{
    /**
     * The most outer fragments one packet is split into ({@link #fragmentOuter}): a 9000-byte packet in a 1280-byte
     * tunnel needs 8 (8 x 1232 bytes with an IPv6 outer header and its Fragment header, 8 x 1256 with IPv4). A packet
     * that would need more is dropped as {@link DropReason#ENCAPSULATED_TOO_BIG}.
     */
    public static final int MAX_OUTER_FRAGMENTS = 8;

    // classify() returns a FrameParser code: FLOW becomes MATCHED (the frame is for a VIP and its flow is hashed,
    // ready for backend selection); an ECHO_REQUEST is kept only when its address is a VIP's that has an eligible
    // backend (announced), else it is passed to the kernel as before; passes and drops are kept as they are.
    private static final int MATCHED = FrameParser.FLOW;
    private static final int ECHO_REQUEST = FrameParser.ECHO_REQUEST;
    private static final int PASS_BASE = FrameParser.PASS_BASE;
    // slotVipTos: the VIP index in the low 16 bits (max_vips <= 65,536), DSCP + ECN in the next 8, then a bit set
    // for an IPv6 inner packet.
    private static final int TOS_SHIFT = 16;
    private static final int VIP_MASK = 0xFFFF;
    private static final int IPV6_PACKET = 0x100;
    private static final long NO_VIP_MEMO = -1;
    private static final int TOO_BIG = -1 - DropReason.ENCAPSULATED_TOO_BIG.ordinal();

    private final FlowKey[] keys = new FlowKey[FrameBurst.MAX_BURST];
    private final FrameParser parser = new FrameParser();
    private final GreEncapsulator encapsulator;
    private final ConnectionTable connections;
    private final PipelineCounters counters;
    private final SnapshotPublisher snapshots;
    private final long hashSeed;
    private final long tableSeed;

    private ForwardingSnapshot snapshot;
    // The last flow's destination and what the VIP table answered for it (flowVip), valid for this snapshot only:
    // destination words, then port, protocol and the IPv6 bit in one word (NO_VIP_MEMO: nothing kept).
    private long lastVipWord0;
    private long lastVipWord1;
    private long lastVipPortProtocol = NO_VIP_MEMO;
    private int lastVip;
    private long nowNs;
    // answers echo requests to VIPs; null: they are passed to the kernel
    private IcmpEchoResponder echoResponder;
    // answers packets too big for the tunnel with ICMP; null: they are dropped as ENCAPSULATED_TOO_BIG
    private IcmpTooBigResponder tooBigResponder;
    // splits IPv4 packets without DF whose encapsulation exceeds the tunnel MTU into outer fragments
    private boolean fragmentOuter;
    // one identification per fragmented packet: 16 bits in the outer IPv4 header, 32 in the IPv6 Fragment header
    private int outerIdentification;
    private int outerIdentificationV6;

    // The frames forwarded as outer fragments in this burst: their burst slot; the first fragment's start and the
    // length of its Ethernet, outer IP and (IPv6) Fragment headers, which every later fragment repeats, patched;
    // where the fragmentable part (GRE and the inner packet) starts in the same buffer and its length (the first
    // fragment's end is never written past, so the later fragments' bytes stay where they were received); the
    // fragmentable bytes per fragment (a multiple of 8) and how many fragments.
    private final int[] fragmentSlots = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentHeaderAt = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentHeaderLength = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentPayloadAt = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentPayloadLength = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentUnit = new int[FrameBurst.MAX_BURST];
    private final int[] fragmentTotal = new int[FrameBurst.MAX_BURST];
    private int fragmentCount;
    private int fragmentL2;

    // What classifying each frame of the burst found (indexed by burst slot), for the forwarding pass.
    // Two words per frame, so the passes store and load little: the VIP and TOS, and the inner packet's span (first
    // byte in the low half, end in the high half).
    private final int[] slotVipTos = new int[FrameBurst.MAX_BURST];
    private final long[] slotHash = new long[FrameBurst.MAX_BURST];
    // The flow hash (XXH64), computed after classify only while eagerFlowHash holds (below).
    private final long[] slotFlowHash = new long[FrameBurst.MAX_BURST];
    private final long[] slotSpan = new long[FrameBurst.MAX_BURST];
    private final int[] slotClass = new int[FrameBurst.MAX_BURST];
    // Sum of the connection-table words loaded ahead of the lookups; kept so the loads are not optimised away.
    private int warmSink;
    // Whether a burst computes every matched frame's flow hash (slotFlowHash) in a loop of its own after classify,
    // rather than the forward pass only the hashes a miss, a rebind or the outer header needs. A hit needs none, so
    // computing them all costs a mostly-hit burst the hash's multiplies for nothing; but a miss that computes its
    // hash late waits for the hash's chain of dependent multiplies between the window's scan and the Maglev lookup,
    // where in the loop the frames' chains overlap. So: early for a burst after one of mostly misses (a flood of new
    // flows, flows the router just moved here), late otherwise. Either way the same hash, so the same backend and
    // the same frames.
    private boolean eagerFlowHash;
    // Whether a burst loads every cache line of each matched frame's connection-table window ahead of the lookups
    // (ConnectionTable.warmWindow) rather than the first line only: set after a burst whose inserts mostly evicted
    // (a flood of new flows into a full table), where every miss scans its whole window. The same lookups either
    // way, so the same frames.
    private boolean warmWindows;

    // the burst slot of the last frame classified, whose key lastKey() returns (an index, not a reference, so the
    // per-frame store needs no GC write barrier)
    private int lastKeySlot;

    // results
    private int outOffset;
    private int outLength;
    private int dropReason;
    private int backend = -1;

    /**
     * Creates a pipeline for one worker.
     *
     * @param config      node settings.
     * @param snapshots   where the control thread publishes forwarding state.
     * @param connections this worker's connection table.
     * @param counters    this worker's counters.
     */
    public PacketPipeline(
        final PipelineConfig config,
        final SnapshotPublisher snapshots,
        final ConnectionTable connections,
        final PipelineCounters counters)
    {
        this(config, TunnelOptions.NONE, snapshots, connections, counters);
    }

    /**
     * Creates a pipeline for one worker whose encapsulated frames carry tunnel options (GRE key, per-flow outer
     * source, the transmit port's VLAN tag).
     *
     * @param config      node settings.
     * @param tunnel      this worker's tunnel options, or {@link TunnelOptions#NONE}.
     * @param snapshots   where the control thread publishes forwarding state.
     * @param connections this worker's connection table.
     * @param counters    this worker's counters.
     */
    public PacketPipeline(
        final PipelineConfig config,
        final TunnelOptions tunnel,
        final SnapshotPublisher snapshots,
        final ConnectionTable connections,
        final PipelineCounters counters)
    {
        if (config.maxVips() > VIP_MASK + 1)
        {
            throw new IllegalArgumentException("maxVips must be <= " + (VIP_MASK + 1) + ", got " + config.maxVips());
        }
        this.encapsulator = new GreEncapsulator(config, tunnel);
        this.snapshots = snapshots;
        this.connections = connections;
        this.counters = counters;
        this.hashSeed = config.hashSeed();
        this.tableSeed = connections.hashSeed();
        this.snapshot = snapshots.current();
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = new FlowKey();
        }
    }

    /**
     * Makes the pipeline answer ICMP echo requests to its VIPs itself (verdict {@link Verdict#REPLY}) instead of
     * passing them to the kernel. Set before the first frame; the worker sends replies out of the receive port.
     *
     * @param responder the worker's responder (with its rate limit), or null to pass echo requests to the kernel.
     * @return this.
     */
    public PacketPipeline echoResponder(final IcmpEchoResponder responder)
    {
        this.echoResponder = responder;
        parser.echoRequests(responder != null);
        return this;
    }

    /**
     * Makes the pipeline answer packets to a VIP that would exceed the tunnel MTU once encapsulated with ICMP
     * fragmentation-needed or packet-too-big (verdict {@link Verdict#REPLY}) instead of only dropping them. Set
     * before the first frame; the worker sends the errors out of the receive port.
     *
     * @param responder the worker's responder (with its rate limit), or null to drop such packets.
     * @return this.
     */
    public PacketPipeline tooBigResponder(final IcmpTooBigResponder responder)
    {
        this.tooBigResponder = responder;
        return this;
    }

    /**
     * Makes the pipeline forward an IPv4 packet without DF that is too big for the tunnel as outer fragments (RFC
     * 4459 §3.1, as IPVS does) instead of dropping it: outer IPv4 fragments to an IPv4 backend, outer IPv6 packets
     * with a Fragment header (RFC 8200 §4.5) to an IPv6 backend, each within {@code tunnel_mtu}. The first fragment
     * is written in the frame's own buffer (verdict {@link Verdict#FORWARD}); the caller copies each later one into
     * a buffer of its own with {@link #writeFragment} (see {@link #fragmentCount}). A packet that would need more
     * than {@link #MAX_OUTER_FRAGMENTS} is still dropped as {@link DropReason#ENCAPSULATED_TOO_BIG}. Set before the
     * first frame.
     *
     * @param enabled whether to fragment; the caller must then transmit the later fragments.
     * @return this.
     */
    public PacketPipeline fragmentOuter(final boolean enabled)
    {
        this.fragmentOuter = enabled;
        return this;
    }

    /**
     * Returns how many frames of the last burst (or the last {@link #process} call) were forwarded as outer
     * fragments: each needs its later fragments written with {@link #writeFragment}.
     *
     * @return count, 0 on the common path.
     */
    public int fragmentCount()
    {
        return fragmentCount;
    }

    /**
     * Returns the burst slot of the k-th fragmented frame.
     *
     * @param k index below {@link #fragmentCount}.
     * @return burst slot (0 after {@link #process}).
     */
    public int fragmentSlot(final int k)
    {
        return fragmentSlots[k];
    }

    /**
     * Returns how many outer fragments the k-th fragmented frame was split into: the first, in the frame's buffer,
     * and the later ones 1 to n - 1 for {@link #writeFragment}.
     *
     * @param k index below {@link #fragmentCount}.
     * @return fragments, from 2 to {@link #MAX_OUTER_FRAGMENTS}.
     */
    public int fragmentsOf(final int k)
    {
        return fragmentTotal[k];
    }

    /**
     * Writes the j-th outer fragment of the k-th fragmented frame: the first fragment's Ethernet header, outer IP
     * header (and IPv6 Fragment header) with the length, offset, more-fragments flag (and IPv4 checksum) of the j-th,
     * then its part of the outer payload.
     *
     * @param k           index below {@link #fragmentCount}.
     * @param j           fragment number, from 1 to {@code fragmentsOf(k) - 1}.
     * @param source      the buffer of the frame (the burst's buffer of {@link #fragmentSlot}).
     * @param destination where to write it, with room for {@code tunnel_mtu} plus the Ethernet header.
     * @param at          first byte to write.
     * @return the frame length written.
     */
    public int writeFragment(final int k, final int j, final MutableDirectBuffer source,
        final MutableDirectBuffer destination, final int at)
    {
        final int headerLength = fragmentHeaderLength[k];
        final int unit = fragmentUnit[k];
        final int from = j * unit;
        final int size = Math.min(unit, fragmentPayloadLength[k] - from);
        final boolean more = j < fragmentTotal[k] - 1;
        destination.putBytes(at, source, fragmentHeaderAt[k], headerLength);
        destination.putBytes(at + headerLength, source, fragmentPayloadAt[k] + from, size);
        final int ip = at + fragmentL2;
        if (headerLength - fragmentL2 == Ipv4Header.MIN_LENGTH)
        {
            destination.putShort(ip + Ipv4Header.TOTAL_LENGTH_FIELD_OFFSET, (short)(Ipv4Header.MIN_LENGTH + size),
                ByteOrder.BIG_ENDIAN);
            destination.putShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET,
                (short)((more ? Ipv4Header.FLAG_MORE_FRAGMENTS : 0) | from >>> 3), ByteOrder.BIG_ENDIAN);
            IcmpTooBigResponder.putIpv4HeaderChecksum(destination, ip);
        }
        else
        {
            destination.putShort(ip + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET,
                (short)(Ipv6Header.FRAGMENT_HEADER_LENGTH + size), ByteOrder.BIG_ENDIAN);
            // the offset in 8-byte units sits in the top 13 bits: from itself, a multiple of 8
            destination.putShort(ip + Ipv6Header.LENGTH + Ipv6Header.FRAGMENT_OFFSET_FLAGS_FIELD_OFFSET,
                (short)(more ? from | Ipv6Header.FRAGMENT_MORE_FLAG : from), ByteOrder.BIG_ENDIAN);
        }
        return headerLength + size;
    }

    /**
     * Takes back the k-th fragmented frame when its later fragments cannot be sent (no buffers for them): its
     * counts move from forwarded to dropped as {@link DropReason#FRAGMENT_NO_BUFFER}; the caller frees the frame
     * and sends none of its fragments.
     *
     * @param k index below {@link #fragmentCount}.
     */
    public void fragmentUnsent(final int k)
    {
        counters.verdicts[Verdict.FORWARD]--;
        counters.outerFragmented--;
        counters.outerFragments -= fragmentTotal[k];
        counters.verdicts[Verdict.DROP]++;
        counters.drops[DropReason.FRAGMENT_NO_BUFFER.ordinal()]++;
    }

    /**
     * Starts a burst: takes the clock reading for the burst and picks up a newly published snapshot.
     *
     * @param nowNs the time for every frame of the burst.
     */
    public void beginBurst(final long nowNs)
    {
        this.nowNs = nowNs;
        fragmentCount = 0;
        final ForwardingSnapshot next = snapshots.current();
        if (next != snapshot)
        {
            counters.onSnapshotChange(snapshot, next);
            snapshot = next;
            lastVipPortProtocol = NO_VIP_MEMO;
        }
    }

    /**
     * Returns the snapshot the pipeline uses now.
     *
     * @return the snapshot of the current burst.
     */
    public ForwardingSnapshot snapshot()
    {
        return snapshot;
    }

    /**
     * Processes every frame of a burst in place and records each verdict in the burst.
     * <p>
     * Three passes, each frame in order: classify every frame (parse, match a VIP, hash the key for the connection
     * table); load the first connection-table entry of every matched flow (after a burst whose inserts mostly evicted,
     * every line of its window, which each miss will scan), so that the cache misses of the burst overlap instead of
     * following one another; then choose each flow's backend and encapsulate. After a burst of
     * mostly misses, the flow hashes are computed in a loop of their own before the second pass. Frames are looked up
     * and inserted in burst order, so a flow that appears twice in a burst is treated exactly as in {@link #process}.
     * Every frame's buffer must be off-heap, as for {@link #process}.
     *
     * @param burst the frames.
     * @param nowNs the time for the burst.
     * @return frames forwarded.
     */
    public int processBurst(final FrameBurst burst, final long nowNs)
    {
        beginBurst(nowNs);
        final int n = burst.count;
        final UnsafeBuffer[] buffers = burst.buffers;
        final int[] offsets = burst.offsets;
        final int[] lengths = burst.lengths;
        final int[] slotClass = this.slotClass;
        for (int i = 0; i < n; i++)
        {
            slotClass[i] = classify(i, buffers[i], offsets[i], lengths[i]);
        }
        if (eagerFlowHash)
        {
            hashFlows(n);
        }

        final ConnectionTable connections = this.connections;
        final int matched = warmWindows ? warmWindows(n) : warmFirstEntries(n);
        final long missesBefore = counters.connectionMisses;
        final long evictionsBefore = connections.evictions();

        final int[] verdicts = burst.verdicts;
        int forwarded = 0;
        for (int i = 0; i < n; i++)
        {
            final int classified = slotClass[i];
            final int verdict = classified == MATCHED ? forward(i, buffers[i], offsets[i], lengths[i]) :
                classified == ECHO_REQUEST ? echo(i, buffers[i], offsets[i]) : unmatched(classified);
            verdicts[i] = verdict;
            if (verdict == Verdict.FORWARD)
            {
                offsets[i] = outOffset;
                lengths[i] = outLength;
                forwarded++;
            }
            else if (verdict == Verdict.DROP)
            {
                burst.dropReasons[i] = dropReason;
            }
            else if (verdict == Verdict.REPLY)
            {
                offsets[i] = outOffset;
                lengths[i] = outLength;
            }
        }
        counters.verdicts[Verdict.FORWARD] += forwarded;
        if (connections.migrating())
        {
            connections.migrate(nowNs);
        }
        // More than 3 misses in 8 matched frames: then early hashing costs less than late (docs/benchmarks.md).
        eagerFlowHash = (counters.connectionMisses - missesBefore) * 8 > matched * 3L;
        warmWindows = (connections.evictions() - evictionsBefore) * 8 > matched * 3L;
        return forwarded;
    }

    // Loads the first connection-table entry of every matched frame, so that the burst's cache misses overlap;
    // returns how many frames matched.
    private int warmFirstEntries(final int n)
    {
        final int[] slotClass = this.slotClass;
        final long[] slotHash = this.slotHash;
        final ConnectionTable connections = this.connections;
        int sink = 0;
        int matched = 0;
        for (int i = 0; i < n; i++)
        {
            if (slotClass[i] == MATCHED)
            {
                sink += connections.warm(slotHash[i]);
                matched++;
            }
        }
        warmSink += sink;
        return matched;
    }

    // As warmFirstEntries, but every line of each matched frame's window (ConnectionTable.warmWindow).
    private int warmWindows(final int n)
    {
        final int[] slotClass = this.slotClass;
        final long[] slotHash = this.slotHash;
        final ConnectionTable connections = this.connections;
        int sink = 0;
        int matched = 0;
        for (int i = 0; i < n; i++)
        {
            if (slotClass[i] == MATCHED)
            {
                sink += connections.warmWindow(slotHash[i]);
                matched++;
            }
        }
        warmSink += sink;
        return matched;
    }

    /**
     * Tells whether the next burst loads whole connection-table windows ahead of its lookups (after a burst whose
     * inserts mostly evicted) rather than each window's first entry. For tests.
     *
     * @return true when the next burst warms whole windows.
     */
    boolean warmsWholeWindows()
    {
        return warmWindows;
    }

    // Every matched frame's flow hash, in a loop of its own: the frames' chains of multiplies are independent, so
    // they overlap.
    private void hashFlows(final int n)
    {
        final int[] slotClass = this.slotClass;
        final long[] slotFlowHash = this.slotFlowHash;
        final FlowKey[] keys = this.keys;
        for (int i = 0; i < n; i++)
        {
            if (slotClass[i] == MATCHED)
            {
                slotFlowHash[i] = keys[i].hash(hashSeed);
            }
        }
    }

    /**
     * Processes one frame in place, with the time and snapshot of the last {@link #beginBurst}.
     *
     * @param buffer buffer holding the frame, with headroom before {@code offset}; off-heap, as DPDK mbufs are
     *               (frames are read and written by address, {@link io.sluice.forwarder.protocol.FrameBytes}).
     * @param offset first byte of the Ethernet header.
     * @param length frame length.
     * @return a {@link Verdict}; after FORWARD and REPLY see {@link #outOffset()} and {@link #outLength()}, after DROP
     *         {@link #dropReason()}.
     * @throws IllegalArgumentException if the buffer wraps a byte array.
     */
    public int process(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        fragmentCount = 0;
        final int classified = classify(0, buffer, offset, length);
        if (classified != MATCHED)
        {
            return classified == ECHO_REQUEST ? echo(0, buffer, offset) : unmatched(classified);
        }
        if (eagerFlowHash)
        {
            // while hashing early, forward reads slotFlowHash, which hashFlows fills only for a burst
            slotFlowHash[0] = keys[0].hash(hashSeed);
        }
        final int verdict = forward(0, buffer, offset, length);
        if (verdict == Verdict.FORWARD)
        {
            counters.verdicts[Verdict.FORWARD]++;
        }
        if (connections.migrating())
        {
            connections.migrate(nowNs);
        }
        return verdict;
    }

    // Parses a frame, matches its VIP and hashes its flow into burst slot {@code slot}: MATCHED, else the parse
    // result (a pass or a drop code) to hand to unmatched().
    private int classify(final int slot, final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final FlowKey key = keys[slot];
        lastKeySlot = slot;
        final FrameParser parser = this.parser;
        final int parsed = parser.parse(key, buffer, offset, length);
        if (parsed < 0 || parsed >= PASS_BASE)
        {
            return parsed == ECHO_REQUEST ? classifyEcho(slot, key) : parsed;
        }
        final int vip = parsed == FrameParser.FLOW ? flowVip(key) : snapshot.vips().findFragmentVip(key);
        if (vip == VipTable.NOT_FOUND)
        {
            return FrameParser.passCode(PassReason.NO_VIP);
        }
        final int tos = parser.tos();
        slotVipTos[slot] = vip | (parser.ipv6() ? tos | IPV6_PACKET : tos) << TOS_SHIFT;
        slotHash[slot] = key.tableHash(tableSeed);
        slotSpan[slot] = (parser.ipOffset() & 0xFFFF_FFFFL) | (long)parser.ipEnd() << 32;
        return MATCHED;
    }

    // The VIP of a flow: the last flow's answer when it went to the same address, port and protocol (a burst's
    // frames mostly go to few VIPs), else the VIP table's.
    private int flowVip(final FlowKey key)
    {
        final long word0 = key.destinationWord0();
        final long word1 = key.destinationWord1();
        final long portProtocol = key.destinationPort() | (long)key.protocol() << 16 | (key.isIpv6() ? 1L << 32 : 0);
        if (portProtocol == lastVipPortProtocol && word0 == lastVipWord0 && word1 == lastVipWord1)
        {
            return lastVip;
        }
        final int vip = snapshot.vips().find(key);
        lastVipWord0 = word0;
        lastVipWord1 = word1;
        lastVipPortProtocol = portProtocol;
        lastVip = vip;
        return vip;
    }

    private int classifyEcho(final int slot, final FlowKey key)
    {
        if (snapshot.vips().findEchoVip(key) == VipTable.NOT_FOUND)
        {
            return FrameParser.passCode(PassReason.NOT_LOAD_BALANCED);
        }
        final FrameParser parser = this.parser;
        slotVipTos[slot] = parser.ipv6() ? IPV6_PACKET << TOS_SHIFT : 0;
        slotHash[slot] = parser.echoIcmpOffset();
        slotSpan[slot] = (parser.ipOffset() & 0xFFFF_FFFFL) | (long)parser.ipEnd() << 32;
        return ECHO_REQUEST;
    }

    // Answers the echo request classified into burst slot {@code slot} (IcmpEchoResponder), or drops it.
    private int echo(final int slot, final MutableDirectBuffer buffer, final int frameOffset)
    {
        final long span = slotSpan[slot];
        final int end = (int)(span >>> 32);
        final boolean ipv6 = (slotVipTos[slot] & IPV6_PACKET << TOS_SHIFT) != 0;
        final int start = echoResponder.reply(buffer, frameOffset, (int)span, (int)slotHash[slot], end, ipv6, nowNs);
        if (start < 0)
        {
            return drop(-1 - start);
        }
        outOffset = start;
        outLength = end - start;
        counters.verdicts[Verdict.REPLY]++;
        if (ipv6)
        {
            counters.icmpEchoRepliesV6++;
        }
        else
        {
            counters.icmpEchoRepliesV4++;
        }
        return Verdict.REPLY;
    }

    private int unmatched(final int classified)
    {
        return classified < 0 ? drop(-1 - classified) : pass(classified - PASS_BASE);
    }

    // Chooses the backend of the frame classified into burst slot {@code slot} and encapsulates it.
    private int forward(final int slot, final MutableDirectBuffer buffer, final int frameOffset, final int length)
    {
        final int vipTos = slotVipTos[slot];
        final int vip = vipTos & VIP_MASK;
        final FlowKey key = keys[slot];
        final int chosen = selectBackend(slot, key, vip);
        if (chosen < 0)
        {
            return drop(DropReason.NO_BACKEND.ordinal());
        }
        final ForwardingSnapshot snapshot = this.snapshot;
        final long span = slotSpan[slot];
        final int innerOffset = (int)span;
        final int innerEnd = (int)(span >>> 32);
        final int tos = vipTos >>> TOS_SHIFT;
        final boolean backendIpv6 = snapshot.isBackendIpv6(chosen);
        // The flow hash only where the outer header carries it (IPv6 flow label, tunnel options' entropy): a plain
        // IPv4 tunnel to a flow the table knows needs no XXH64 at all.
        final long hash = backendIpv6 || encapsulator.usesFlowHash() ? flowHash(slot, key) : 0;
        final int start = encapsulator.encapsulate(buffer, innerOffset, innerEnd - innerOffset,
            (tos & IPV6_PACKET) != 0, tos & 0xFF, hash, backendIpv6,
            snapshot.backendAddressHigh(chosen), snapshot.backendAddressLow(chosen));
        if (start < 0)
        {
            // Out of line: the branch of packets that fit stays as small as before, so the JIT inlines it as before.
            return start == TOO_BIG ?
                tooBigPacket(slot, buffer, frameOffset, innerOffset, innerEnd, tos, flowHash(slot, key), snapshot,
                    chosen, vip, length, backendIpv6) :
                drop(-1 - start);
        }
        outOffset = start;
        outLength = innerEnd - start;
        backend = chosen;
        // The FORWARD verdict is counted by the caller: once per burst in processBurst.
        final PipelineCounters counters = this.counters;
        counters.vipPackets[vip]++;
        counters.vipBytes[vip] += length;
        counters.backendPackets[chosen]++;
        counters.backendBytes[chosen] += length;
        return Verdict.FORWARD;
    }

    // A packet too big for the tunnel: outer fragments (IPv4 without DF, when enabled), else the ICMP error for
    // its sender (when enabled), else dropped.
    private int tooBigPacket(final int slot, final MutableDirectBuffer buffer, final int frameOffset,
        final int innerOffset, final int innerEnd, final int tos, final long hash, final ForwardingSnapshot snapshot,
        final int chosen, final int vip, final int length, final boolean backendIpv6)
    {
        if (fragmentOuter && (tos & IPV6_PACKET) == 0 &&
            (buffer.getShort(innerOffset + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Header.FLAG_DONT_FRAGMENT) == 0)
        {
            return fragment(slot, buffer, innerOffset, innerEnd, tos & 0xFF, hash, snapshot, chosen, vip, length,
                backendIpv6);
        }
        return tooBigResponder != null ?
            tooBig(buffer, frameOffset, innerOffset, innerEnd, (tos & IPV6_PACKET) != 0, backendIpv6) :
            drop(DropReason.ENCAPSULATED_TOO_BIG.ordinal());
    }

    // Encapsulates an IPv4 packet without DF as n outer fragments of at most tunnel_mtu: the first written in place
    // (encapsulating only the inner bytes it carries, then patched: identification, MF, checksum; for IPv6 the
    // Fragment header inserted), the later ones left for writeFragment. Each carries the same number of
    // fragmentable bytes, the largest multiple of 8 that fits (RFC 791, RFC 8200 §4.5), but the last. Drops the
    // packet as too big when it would need more than MAX_OUTER_FRAGMENTS.
    private int fragment(final int slot, final MutableDirectBuffer buffer, final int innerOffset, final int innerEnd,
        final int tos, final long hash, final ForwardingSnapshot snapshot, final int chosen, final int vip,
        final int length, final boolean backendIpv6)
    {
        final GreEncapsulator encapsulator = this.encapsulator;
        final int overhead = encapsulator.tunnelOverhead(backendIpv6);
        final int ipHeader = backendIpv6 ? Ipv6Header.LENGTH : Ipv4Header.MIN_LENGTH;
        final int fragmentHeader = backendIpv6 ? Ipv6Header.FRAGMENT_HEADER_LENGTH : 0;
        final int greLength = overhead - ipHeader;
        final int unit = (encapsulator.innerMtu(backendIpv6) + overhead - ipHeader - fragmentHeader) & ~7;
        final int payloadLength = greLength + innerEnd - innerOffset;
        final int firstInner = unit - greLength;
        if (firstInner <= 0 || payloadLength > MAX_OUTER_FRAGMENTS * unit)
        {
            return drop(DropReason.ENCAPSULATED_TOO_BIG.ordinal());
        }
        final int start = encapsulator.encapsulate(buffer, innerOffset, firstInner, false, tos, hash, backendIpv6,
            snapshot.backendAddressHigh(chosen), snapshot.backendAddressLow(chosen));
        if (start < 0)
        {
            return drop(-1 - start);
        }
        final int l2 = encapsulator.outerHeaderLength(backendIpv6) - overhead;
        final int headerAt = backendIpv6 ? insertFragmentHeader(buffer, start, l2) :
            firstIpv4Fragment(buffer, start, l2);
        if (headerAt < 0)
        {
            return drop(DropReason.NO_HEADROOM.ordinal());
        }
        final int k = fragmentCount++;
        final int fragments = (payloadLength + unit - 1) / unit;
        fragmentSlots[k] = slot;
        fragmentHeaderAt[k] = headerAt;
        fragmentHeaderLength[k] = l2 + ipHeader + fragmentHeader;
        fragmentPayloadAt[k] = innerOffset - greLength;
        fragmentPayloadLength[k] = payloadLength;
        fragmentUnit[k] = unit;
        fragmentTotal[k] = fragments;
        fragmentL2 = l2;
        outOffset = headerAt;
        outLength = innerOffset + firstInner - headerAt;
        backend = chosen;
        final PipelineCounters counters = this.counters;
        counters.outerFragmented++;
        counters.outerFragments += fragments;
        counters.vipPackets[vip]++;
        counters.vipBytes[vip] += length;
        counters.backendPackets[chosen]++;
        counters.backendBytes[chosen] += length;
        return Verdict.FORWARD;
    }

    // The first outer IPv4 fragment: the packet's identification, MF at offset 0 (DF cleared), the checksum again
    // (the total length is already the fragment's). Returns where the frame starts, as it was.
    private int firstIpv4Fragment(final MutableDirectBuffer buffer, final int start, final int l2)
    {
        final int ip = start + l2;
        final int id = outerIdentification = (outerIdentification + 1) & 0xFFFF;
        buffer.putShort(ip + Ipv4Header.IDENTIFICATION_FIELD_OFFSET, (short)id, ByteOrder.BIG_ENDIAN);
        buffer.putShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, (short)Ipv4Header.FLAG_MORE_FRAGMENTS,
            ByteOrder.BIG_ENDIAN);
        IcmpTooBigResponder.putIpv4HeaderChecksum(buffer, ip);
        return start;
    }

    // The first outer IPv6 fragment: the Ethernet and IPv6 headers move 8 bytes into the headroom to make room for
    // the Fragment header in front of GRE (next header 44, then 47; offset 0, M set; the packet's identification);
    // the payload length grows by 8. Returns where the frame now starts, or -1 without the headroom.
    private int insertFragmentHeader(final MutableDirectBuffer buffer, final int start, final int l2)
    {
        final int headerAt = start - Ipv6Header.FRAGMENT_HEADER_LENGTH;
        if (headerAt < 0)
        {
            return -1;
        }
        // an overlapping copy towards lower addresses (Unsafe.copyMemory allows overlap)
        buffer.putBytes(headerAt, buffer, start, l2 + Ipv6Header.LENGTH);
        final int ip = headerAt + l2;
        final int payloadAt = ip + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET;
        buffer.putShort(payloadAt, (short)(buffer.getShort(payloadAt, ByteOrder.BIG_ENDIAN) +
            Ipv6Header.FRAGMENT_HEADER_LENGTH), ByteOrder.BIG_ENDIAN);
        buffer.putByte(ip + Ipv6Header.NEXT_HEADER_FIELD_OFFSET, (byte)Protocols.IPPROTO_FRAGMENT);
        final int fragment = ip + Ipv6Header.LENGTH;
        buffer.putByte(fragment, (byte)Protocols.IPPROTO_GRE);
        buffer.putByte(fragment + 1, (byte)0);
        buffer.putShort(fragment + Ipv6Header.FRAGMENT_OFFSET_FLAGS_FIELD_OFFSET,
            (short)Ipv6Header.FRAGMENT_MORE_FLAG, ByteOrder.BIG_ENDIAN);
        buffer.putInt(fragment + Ipv6Header.FRAGMENT_IDENTIFICATION_FIELD_OFFSET, ++outerIdentificationV6,
            ByteOrder.BIG_ENDIAN);
        return headerAt;
    }

    // Turns a packet the tunnel cannot carry into the ICMP error for its sender (IcmpTooBigResponder), or drops it.
    private int tooBig(final MutableDirectBuffer buffer, final int frameOffset, final int ip, final int ipEnd,
        final boolean ipv6, final boolean backendIpv6)
    {
        final IcmpTooBigResponder responder = tooBigResponder;
        final int start = responder.reply(buffer, frameOffset, ip, ipEnd, ipv6, encapsulator.innerMtu(backendIpv6),
            nowNs);
        if (start < 0)
        {
            if (start == IcmpTooBigResponder.RATE_LIMITED)
            {
                counters.icmpTooBigSuppressed++;
            }
            return drop(DropReason.ENCAPSULATED_TOO_BIG.ordinal());
        }
        outOffset = start;
        outLength = responder.replyEnd() - start;
        counters.verdicts[Verdict.REPLY]++;
        if (ipv6)
        {
            counters.icmpTooBigSentV6++;
        }
        else
        {
            counters.icmpTooBigSentV4++;
        }
        return Verdict.REPLY;
    }

    // The flow hash of the frame classified into burst slot {@code slot}: hashFlows's while hashing early.
    private long flowHash(final int slot, final FlowKey key)
    {
        return eagerFlowHash ? slotFlowHash[slot] : key.hash(hashSeed);
    }

    private int selectBackend(final int slot, final FlowKey key, final int vip)
    {
        final ForwardingSnapshot snapshot = this.snapshot;
        final ConnectionTable connections = this.connections;
        final int found = connections.find(key, slotHash[slot], nowNs);
        if (found >= 0)
        {
            final int existing = connections.backend(found);
            if (snapshot.isUsable(existing, connections.generation(found)))
            {
                connections.touch(found, nowNs);
                counters.connectionHits++;
                return existing;
            }
            final int chosen = snapshot.maglev(vip).lookup(flowHash(slot, key));
            if (chosen != MaglevTable.NO_BACKEND)
            {
                connections.rebind(found, chosen, snapshot.generation(chosen), nowNs);
                counters.connectionRebinds++;
            }
            return chosen;
        }
        counters.connectionMisses++;
        final int chosen = snapshot.maglev(vip).lookup(flowHash(slot, key));
        if (chosen != MaglevTable.NO_BACKEND)
        {
            connections.insert(-1 - found, key, chosen, snapshot.generation(chosen), nowNs);
        }
        return chosen;
    }

    private int drop(final int reason)
    {
        dropReason = reason;
        counters.verdicts[Verdict.DROP]++;
        counters.drops[reason]++;
        return Verdict.DROP;
    }

    private int pass(final int reason)
    {
        counters.verdicts[Verdict.PASS]++;
        counters.passes[reason]++;
        return Verdict.PASS;
    }

    // Whether the next burst computes its flow hashes before forwarding (eagerFlowHash), for tests.
    boolean hashesFlowsEarly()
    {
        return eagerFlowHash;
    }

    /**
     * Returns where the encapsulated frame starts, after FORWARD.
     *
     * @return offset in the buffer.
     */
    public int outOffset()
    {
        return outOffset;
    }

    /**
     * Returns the encapsulated frame's length, after FORWARD.
     *
     * @return length.
     */
    public int outLength()
    {
        return outLength;
    }

    /**
     * Returns the drop reason ordinal, after DROP.
     *
     * @return {@link DropReason} ordinal.
     */
    public int dropReason()
    {
        return dropReason;
    }

    /**
     * Returns the backend slot chosen, after FORWARD.
     *
     * @return backend slot.
     */
    public int backend()
    {
        return backend;
    }

    /**
     * Returns the flow key of the last frame that reached VIP matching.
     *
     * @return the key holder (overwritten by the next frame).
     */
    public FlowKey lastKey()
    {
        return keys[lastKeySlot];
    }

    /**
     * Returns this worker's counters.
     *
     * @return counters.
     */
    public PipelineCounters counters()
    {
        return counters;
    }

    /**
     * Returns this worker's connection table.
     *
     * @return the table.
     */
    public ConnectionTable connections()
    {
        return connections;
    }
}
