package io.sluice.bench;

import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Protocols;
import io.sluice.forwarder.protocol.TcpHeader;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Stands in for the NIC's receive ring: one minimum-size (60-byte) IPv4 TCP frame to the VIP per flow (10,000
 * flows), each in its own off-heap slot with {@link #HEADROOM} bytes in front as a DPDK mbuf has
 * (RTE_PKTMBUF_HEADROOM). {@link #nextBurst()} hands out the next 32 frames, round robin over the flows.
 * <p>
 * Slots are {@link #SLOT_LENGTH} bytes apart, not the 2 KiB of an mbuf data room: DPDK keeps mbufs in huge pages,
 * so it pays no TLB misses for them, and a compact slot array keeps that true here with 4 KiB pages (2.5 MB for
 * the frames).
 * <p>
 * Encapsulation writes its 38 bytes of headers in front of the inner IP header, over the headroom and the
 * original 14-byte Ethernet header; the IP packet itself is untouched. So restoring a frame is re-pointing the
 * burst entry at it (buffer address, offset, length, as the I/O layer does per burst) and rewriting those 14
 * bytes with three stores. That cost is inside the pipeline figure; {@link PipelineBenchmark#restoreOnly}
 * measures it alone, so it can be subtracted.
 */
@State(Scope.Thread)
public class BurstSource
{
    static final int HEADROOM = 128;
    static final int FRAME_LENGTH = 60;
    static final int SLOT_LENGTH = 256;

    static final long FORWARDER_MAC = 0x02_00_00_00_00_01L;
    static final long ROUTER_MAC = 0x02_00_00_00_00_FEL;
    static final int VIP_ADDRESS = 0xC000_020A; // 192.0.2.10
    static final int VIP_PORT = 80;
    private static final int CLIENT_BASE_ADDRESS = 0xC612_0001; // 198.18.0.1, RFC 2544 benchmarking range
    private static final int IP_TOTAL_LENGTH = Ipv4Header.MIN_LENGTH + TcpHeader.MIN_LENGTH;
    private static final int SOURCE_PORT_OFFSET = EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH;

    /**
     * Distinct flows, one frame each: 10,000 by default; other values, at least 32 so no flow appears twice in a
     * burst, are for experiments (-p flows=64 keeps everything in cache).
     */
    @Param({"10000"})
    int flows;

    /**
     * Frame slots: 0 (the default) gives every flow its own slot; a smaller count (at least 32, dividing flows, so
     * that no burst holds two frames of one slot) puts flow f's frame in slot f mod frameSlots and writes its source
     * address there as the burst is filled (one more store per frame), so the frames stay in cache whatever the
     * flows: with -p frameSlots=80 at 10,000 flows, what is left of the cost over 64 flows is the connection
     * table's. For hit and miss modes.
     */
    @Param({"0"})
    int frameSlots;
    private int slots;

    final FrameBurst burst = new FrameBurst();
    private final UnsafeBuffer frames = new UnsafeBuffer(0, 0);
    private ByteBuffer memory;
    private long baseAddress;
    private long ethernetWord0;
    private int ethernetWord1;
    private short ethernetWord2;
    private int cursor;

    /**
     * Allocates the slots and writes every flow's frame.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        if (flows < FrameBurst.MAX_BURST)
        {
            throw new IllegalArgumentException("flows must be >= " + FrameBurst.MAX_BURST + ", got " + flows);
        }
        if (frameSlots != 0 && (frameSlots < FrameBurst.MAX_BURST || flows % frameSlots != 0))
        {
            throw new IllegalArgumentException("frameSlots must be 0, or at least " + FrameBurst.MAX_BURST +
                " and a divisor of flows (" + flows + "), got " + frameSlots);
        }
        slots = frameSlots == 0 ? flows : frameSlots;
        memory = BufferUtil.allocateDirectAligned(slots * SLOT_LENGTH, BitUtil.CACHE_LINE_LENGTH);
        baseAddress = BufferUtil.address(memory);
        frames.wrap(memory);
        for (int flow = 0; flow < slots; flow++)
        {
            writeFrame(flow * SLOT_LENGTH + HEADROOM, flow);
        }
        // The Ethernet header is the same in every frame: keep it as raw words to restore byte for byte.
        ethernetWord0 = frames.getLong(HEADROOM);
        ethernetWord1 = frames.getInt(HEADROOM + 8);
        ethernetWord2 = frames.getShort(HEADROOM + 12);
        cursor = 0;
    }

    private void writeFrame(final int at, final int flow)
    {
        final UnsafeBuffer b = frames;
        b.setMemory(at - HEADROOM, SLOT_LENGTH, (byte)0);
        b.putInt(at, (int)(FORWARDER_MAC >>> 16), ByteOrder.BIG_ENDIAN);
        b.putShort(at + 4, (short)FORWARDER_MAC, ByteOrder.BIG_ENDIAN);
        b.putShort(at + 6, (short)(ROUTER_MAC >>> 32), ByteOrder.BIG_ENDIAN);
        b.putInt(at + 8, (int)ROUTER_MAC, ByteOrder.BIG_ENDIAN);
        b.putShort(at + EthernetHeader.ETHERTYPE_FIELD_OFFSET, (short)Protocols.ETHERTYPE_IPV4, ByteOrder.BIG_ENDIAN);

        final int ip = at + EthernetHeader.LENGTH;
        b.putByte(ip, (byte)0x45);
        b.putShort(ip + Ipv4Header.TOTAL_LENGTH_FIELD_OFFSET, (short)IP_TOTAL_LENGTH, ByteOrder.BIG_ENDIAN);
        b.putShort(ip + Ipv4Header.IDENTIFICATION_FIELD_OFFSET, (short)flow, ByteOrder.BIG_ENDIAN);
        b.putShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, (short)Ipv4Header.FLAG_DONT_FRAGMENT,
            ByteOrder.BIG_ENDIAN);
        b.putByte(ip + Ipv4Header.TTL_FIELD_OFFSET, (byte)64);
        b.putByte(ip + Ipv4Header.PROTOCOL_FIELD_OFFSET, (byte)Protocols.IPPROTO_TCP);
        b.putInt(ip + Ipv4Header.SOURCE_FIELD_OFFSET, CLIENT_BASE_ADDRESS + flow, ByteOrder.BIG_ENDIAN);
        b.putInt(ip + Ipv4Header.DESTINATION_FIELD_OFFSET, VIP_ADDRESS, ByteOrder.BIG_ENDIAN);
        b.putShort(ip + Ipv4Header.CHECKSUM_FIELD_OFFSET, (short)ipv4Checksum(b, ip), ByteOrder.BIG_ENDIAN);

        final int tcp = ip + Ipv4Header.MIN_LENGTH;
        b.putShort(tcp, (short)(32_768 + flow % 28_000), ByteOrder.BIG_ENDIAN);
        b.putShort(tcp + 2, (short)VIP_PORT, ByteOrder.BIG_ENDIAN);
        b.putInt(tcp + 4, 0x1000_0000 + flow, ByteOrder.BIG_ENDIAN);
        b.putInt(tcp + 8, 0x2000_0000 + flow, ByteOrder.BIG_ENDIAN);
        b.putByte(tcp + TcpHeader.DATA_OFFSET_FIELD_OFFSET, (byte)0x50);
        b.putByte(tcp + TcpHeader.FLAGS_FIELD_OFFSET, (byte)TcpHeader.FLAG_ACK);
        b.putShort(tcp + 14, (short)0xFFFF, ByteOrder.BIG_ENDIAN);
        // TCP checksum left 0: the pipeline never reads it, and the 6 padding bytes up to 60 stay 0.
    }

    private static int ipv4Checksum(final UnsafeBuffer b, final int ip)
    {
        int sum = 0;
        for (int i = 0; i < Ipv4Header.MIN_LENGTH; i += 2)
        {
            sum += b.getShort(ip + i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }

    /**
     * Fills the burst with the next {@link FrameBurst#MAX_BURST} frames, restored to their received state.
     *
     * @return the burst.
     */
    FrameBurst nextBurst()
    {
        final FrameBurst burst = this.burst;
        int flow = cursor;
        final boolean shared = slots != flows;
        int slot = shared ? flow % slots : flow;
        for (int i = 0; i < FrameBurst.MAX_BURST; i++)
        {
            final UnsafeBuffer buffer = burst.buffer(i);
            buffer.wrap(baseAddress + (long)slot * SLOT_LENGTH, SLOT_LENGTH);
            buffer.putLong(HEADROOM, ethernetWord0);
            buffer.putInt(HEADROOM + 8, ethernetWord1);
            buffer.putShort(HEADROOM + 12, ethernetWord2);
            if (shared)
            {
                buffer.putInt(HEADROOM + EthernetHeader.LENGTH + Ipv4Header.SOURCE_FIELD_OFFSET,
                    CLIENT_BASE_ADDRESS + flow, ByteOrder.BIG_ENDIAN);
            }
            burst.frame(i, HEADROOM, FRAME_LENGTH);
            flow = flow + 1 == flows ? 0 : flow + 1;
            // flow f's frame is always in slot f mod slots (slots divides flows), so its key stays the same
            slot = slot + 1 == slots ? 0 : slot + 1;
        }
        cursor = flow;
        burst.count(FrameBurst.MAX_BURST);
        return burst;
    }

    /**
     * Makes every frame of a burst {@link #nextBurst()} handed out a flow not seen before, as in a flood of new
     * connections: its source port moves one step (within 1,024-65,535, wrapping). A frame's port is not restored,
     * so each round over the flows gives each flow a new port. Stepping down in one source and up in another keeps
     * their flows apart for 32,000 rounds, 320 million frames at 10,000 flows.
     *
     * @param burst a burst from {@link #nextBurst()}.
     * @param step  +1 or -1.
     */
    static void renewFlows(final FrameBurst burst, final int step)
    {
        for (int i = 0; i < burst.count(); i++)
        {
            final UnsafeBuffer buffer = burst.buffer(i);
            final int port = (buffer.getShort(HEADROOM + SOURCE_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF) + step;
            buffer.putShort(HEADROOM + SOURCE_PORT_OFFSET, (short)(port > 0xFFFF ? 1024 : port < 1024 ? 0xFFFF : port),
                ByteOrder.BIG_ENDIAN);
        }
    }

    /**
     * Returns the next flow to be handed out.
     *
     * @return flow index.
     */
    int cursor()
    {
        return cursor;
    }

    /**
     * Returns the number of distinct flows.
     *
     * @return flows.
     */
    int flows()
    {
        return flows;
    }
}
