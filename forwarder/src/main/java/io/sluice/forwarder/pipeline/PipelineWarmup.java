package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Protocols;
import io.sluice.forwarder.protocol.TcpHeader;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Runs a scratch pipeline over synthetic traffic before the workers start, so that the JIT compiles the packet path
 * from a profile of steady traffic rather than of the forwarder's first moments.
 * <p>
 * Why: HotSpot compiles the small per-packet methods on their own after a few thousand calls, and their profile
 * freezes then. A forwarder that starts under load sees only new flows at first (its connection table is empty), so
 * without this the profile says lookups almost never hit, and C2 later builds {@link PacketPipeline#processBurst}
 * with the hit path's calls left out of line ("low call site frequency"): measured in {@code
 * scripts/bench-forwarder.sh}, where the traffic is all hits after the first 10,000 packets (docs/benchmarks.md).
 * <p>
 * The traffic: minimum-size IPv4 TCP frames to one VIP with ten backends (of the family the node has a tunnel source
 * for), through the node's own {@link PipelineConfig} and {@link TunnelOptions}, so the same encapsulation runs as
 * in production; every burst carries {@link #ESTABLISHED_PER_BURST} frames of a fixed set of flows and the rest new
 * flows (about one lookup in eight misses: both paths hot, the hits mostly). Everything it uses is its own: its
 * snapshot, a small connection table (growing, as the workers' do), counters; nothing it does reaches the node's
 * state, counters or ports. The addresses are from the documentation and benchmarking ranges and never leave the
 * process.
 */
public final class PipelineWarmup
{
    /** Bursts the forwarder runs by default: enough for C2 to compile the burst loop (about 1 M frames). */
    public static final int DEFAULT_BURSTS = 30_000;
    /** Frames per burst from flows already in the table; the other frames of the burst are new flows. */
    public static final int ESTABLISHED_PER_BURST = 28;

    private static final int FLOWS = 2048;
    private static final int TABLE_CAPACITY = 8192;
    private static final int TABLE_START = 512;
    private static final int BACKENDS = 10;
    private static final int HEADROOM = 128;
    private static final int SLOT_LENGTH = 256;
    private static final int SLOTS = 2 * FrameBurst.MAX_BURST;
    private static final int FRAME_LENGTH = 60;
    private static final int VIP_ADDRESS = 0xC000_020A; // 192.0.2.10
    private static final int VIP_PORT = 80;
    private static final int CLIENT_BASE = 0xC612_0000; // 198.18.0.0/15, RFC 2544 benchmarking
    private static final long BURST_INTERVAL_NS = 2_000;

    private PipelineWarmup()
    {
    }

    /**
     * What a warm-up did.
     *
     * @param bursts    bursts processed.
     * @param frames    frames processed.
     * @param forwarded frames forwarded (all of them, unless the node's config stops synthetic frames).
     * @param hits      connection-table hits.
     * @param misses    connection-table misses.
     * @param nanos     wall time taken.
     * @param doublings how many times its connection table doubled its entries in use.
     */
    public record Result(long bursts, long frames, long forwarded, long hits, long misses, long nanos, int doublings)
    {
    }

    /**
     * Runs the warm-up on the calling thread.
     *
     * @param config a worker's pipeline config (MACs, tunnel sources, seed, Maglev size, timeouts, MTU).
     * @param tunnel that worker's tunnel options.
     * @param bursts how many bursts of {@link FrameBurst#MAX_BURST} frames; 0 does nothing.
     * @return what it did.
     */
    public static Result run(final PipelineConfig config, final TunnelOptions tunnel, final int bursts)
    {
        if (bursts < 0)
        {
            throw new IllegalArgumentException("bursts must be >= 0, got " + bursts);
        }
        final long start = System.nanoTime();
        final PipelineConfig scratch = config.withConnectionTableCapacity(TABLE_CAPACITY);
        final LoadBalancerState state = new LoadBalancerState(1, BACKENDS, scratch.maglevTableSize(),
            scratch.hashSeed());
        final Vip vip = new Vip(address(VIP_ADDRESS), VIP_PORT, Vip.TCP);
        state.addVip(vip);
        final boolean ipv4Backends = scratch.tunnelSourceV4() != null;
        for (int i = 0; i < BACKENDS; i++)
        {
            state.addBackend(vip, ipv4Backends ? address(0xC633_6400 + 1 + i) : ipv6Backend(i), 1, true);
        }
        // A growing table, as the workers' (Forwarder), that doubles from TABLE_START while the first bursts fill it:
        // the JIT then compiles the doubling's paths (moves on insert and a burst, the lookup under the old mask)
        // from a profile that has seen them, instead of leaving uncommon traps that the first doubling under
        // traffic would hit.
        final ConnectionTable table = new ConnectionTable(TABLE_CAPACITY, TABLE_START,
            scratch.connectionTableSeed(), scratch.tcpIdleTimeoutNs(),
            scratch.udpIdleTimeoutNs(), scratch.otherIdleTimeoutNs());
        final PipelineCounters counters = new PipelineCounters(1, BACKENDS);
        final PacketPipeline pipeline =
            new PacketPipeline(scratch, tunnel, new SnapshotPublisher(state.snapshot()), table, counters);

        final ByteBuffer memory = BufferUtil.allocateDirectAligned(SLOTS * SLOT_LENGTH, BitUtil.CACHE_LINE_LENGTH);
        final UnsafeBuffer frames = new UnsafeBuffer(memory);
        for (int slot = 0; slot < SLOTS; slot++)
        {
            writeFrame(frames, slot * SLOT_LENGTH + HEADROOM, scratch);
        }
        final long ethernet0 = frames.getLong(HEADROOM);
        final int ethernet1 = frames.getInt(HEADROOM + 8);
        final short ethernet2 = frames.getShort(HEADROOM + 12);
        final long base = BufferUtil.address(memory);

        final FrameBurst burst = new FrameBurst();
        long forwarded = 0;
        long nowNs = 1_000_000_000L;
        int established = 0;
        int fresh = 0;
        for (int b = 0; b < bursts; b++)
        {
            // Alternate halves of the slots: a burst never holds a frame the one before just encapsulated.
            final int firstSlot = (b & 1) * FrameBurst.MAX_BURST;
            for (int i = 0; i < FrameBurst.MAX_BURST; i++)
            {
                final long slotAddress = base + (long)(firstSlot + i) * SLOT_LENGTH;
                final UnsafeBuffer buffer = burst.buffer(i);
                buffer.wrap(slotAddress, SLOT_LENGTH);
                // encapsulation wrote over the Ethernet header: restore it, then name the flow
                buffer.putLong(HEADROOM, ethernet0);
                buffer.putInt(HEADROOM + 8, ethernet1);
                buffer.putShort(HEADROOM + 12, ethernet2);
                final int flow;
                if (i < ESTABLISHED_PER_BURST)
                {
                    flow = established;
                    established = established + 1 == FLOWS ? 0 : established + 1;
                }
                else
                {
                    // new flows: source addresses past the established ones, ports stepping through 32,768 to 65,535
                    flow = FLOWS + fresh;
                    fresh = fresh + 1 == 1 << 24 ? 0 : fresh + 1;
                }
                buffer.putInt(HEADROOM + EthernetHeader.LENGTH + Ipv4Header.SOURCE_FIELD_OFFSET, CLIENT_BASE + flow,
                    ByteOrder.BIG_ENDIAN);
                buffer.putShort(HEADROOM + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH,
                    (short)(0x8000 | flow & 0x7FFF), ByteOrder.BIG_ENDIAN);
                burst.frame(i, HEADROOM, FRAME_LENGTH);
            }
            burst.count(FrameBurst.MAX_BURST);
            nowNs += BURST_INTERVAL_NS;
            forwarded += pipeline.processBurst(burst, nowNs);
        }
        return new Result(bursts, (long)bursts * FrameBurst.MAX_BURST, forwarded, counters.connectionHits(),
            counters.connectionMisses(), System.nanoTime() - start,
            Integer.numberOfTrailingZeros(table.entriesInUse() / TABLE_START));
    }

    private static void writeFrame(final UnsafeBuffer b, final int at, final PipelineConfig config)
    {
        final EthernetHeader ethernet = new EthernetHeader();
        ethernet.wrap(b, at);
        // to this forwarder from its next hop, as a frame from the router arrives
        ethernet.macs(config.ownMac(), config.nextHopMac()).etherType(Protocols.ETHERTYPE_IPV4);
        final Ipv4Header ipv4 = new Ipv4Header();
        ipv4.wrap(b, at + EthernetHeader.LENGTH);
        ipv4.writeBasic(0, Ipv4Header.MIN_LENGTH + TcpHeader.MIN_LENGTH, Ipv4Header.FLAG_DONT_FRAGMENT, 64,
            Protocols.IPPROTO_TCP, CLIENT_BASE, VIP_ADDRESS);
        final int tcp = at + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;
        b.putShort(tcp, (short)0x8000, ByteOrder.BIG_ENDIAN);
        b.putShort(tcp + 2, (short)VIP_PORT, ByteOrder.BIG_ENDIAN);
        b.putByte(tcp + TcpHeader.DATA_OFFSET_FIELD_OFFSET, (byte)0x50);
        b.putByte(tcp + TcpHeader.FLAGS_FIELD_OFFSET, (byte)TcpHeader.FLAG_ACK);
    }

    private static InetAddress address(final int ipv4)
    {
        return byAddress(new byte[]{(byte)(ipv4 >>> 24), (byte)(ipv4 >>> 16), (byte)(ipv4 >>> 8), (byte)ipv4});
    }

    private static InetAddress ipv6Backend(final int i)
    {
        final byte[] octets = new byte[16];
        octets[0] = 0x20; // 2001:db8::/32, documentation
        octets[1] = 0x01;
        octets[2] = 0x0D;
        octets[3] = (byte)0xB8;
        octets[15] = (byte)(1 + i);
        return byAddress(octets);
    }

    // Octets of the right length never fail getByAddress.
    private static InetAddress byAddress(final byte[] octets)
    {
        try
        {
            return InetAddress.getByAddress(octets);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
