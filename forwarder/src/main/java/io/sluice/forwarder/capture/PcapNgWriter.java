package io.sluice.forwarder.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes pcapng (draft-ietf-opsawg-pcapng): a Section Header Block, one Interface Description Block per port
 * (link type Ethernet, the port's name, nanosecond timestamps), then one Enhanced Packet Block per frame with
 * its interface, original length and direction ({@code epb_flags}: inbound for RX, outbound for TX).
 * Little-endian; Wireshark and tcpdump read it. Reuses one buffer: a block is built, then written.
 */
public final class PcapNgWriter implements AutoCloseable
{
    static final int SECTION_HEADER_BLOCK = 0x0A0D_0D0A;
    static final int INTERFACE_DESCRIPTION_BLOCK = 1;
    static final int ENHANCED_PACKET_BLOCK = 6;
    static final int BYTE_ORDER_MAGIC = 0x1A2B_3C4D;
    static final int LINKTYPE_ETHERNET = 1;
    static final int OPT_END = 0;
    static final int OPT_SHB_USERAPPL = 4;
    static final int OPT_IF_NAME = 2;
    static final int OPT_IF_TSRESOL = 9;
    static final int OPT_EPB_FLAGS = 2;
    static final int FLAG_INBOUND = 1;
    static final int FLAG_OUTBOUND = 2;

    private final OutputStream out;
    private final ByteBuffer block = ByteBuffer.allocate(128 + 65_536).order(ByteOrder.LITTLE_ENDIAN);
    private long packets;

    /**
     * Starts a file: writes the section header.
     *
     * @param out         where the file goes (the writer does not buffer).
     * @param application the shb_userappl option, e.g. {@code sluice capture}.
     * @throws IOException when writing fails.
     */
    public PcapNgWriter(final OutputStream out, final String application) throws IOException
    {
        this.out = out;
        block.clear();
        block.putInt(SECTION_HEADER_BLOCK).putInt(0).putInt(BYTE_ORDER_MAGIC).putShort((short)1).putShort((short)0)
            .putLong(-1L);
        putStringOption(OPT_SHB_USERAPPL, application);
        block.putShort((short)OPT_END).putShort((short)0);
        finishBlock();
    }

    /**
     * Describes the next interface; interfaces are numbered from 0 in the order they are added.
     *
     * @param name       the port's name.
     * @param snapLength the most bytes captured of a frame.
     * @throws IOException when writing fails.
     */
    public void addInterface(final String name, final int snapLength) throws IOException
    {
        block.clear();
        block.putInt(INTERFACE_DESCRIPTION_BLOCK).putInt(0).putShort((short)LINKTYPE_ETHERNET).putShort((short)0)
            .putInt(snapLength);
        putStringOption(OPT_IF_NAME, name);
        // if_tsresol 9: timestamps in nanoseconds
        block.putShort((short)OPT_IF_TSRESOL).putShort((short)1).put((byte)9).put(new byte[3]);
        block.putShort((short)OPT_END).putShort((short)0);
        finishBlock();
    }

    /**
     * Writes one frame.
     *
     * @param interfaceId    which interface (port) it was seen on.
     * @param timestampNs    epoch nanoseconds.
     * @param originalLength the frame's length on the wire.
     * @param inbound        true for a received frame, false for a transmitted one.
     * @param data           the captured bytes.
     * @param offset         their first byte.
     * @param length         how many.
     * @throws IOException when writing fails.
     */
    public void writePacket(final int interfaceId, final long timestampNs, final int originalLength,
        final boolean inbound, final byte[] data, final int offset, final int length) throws IOException
    {
        block.clear();
        block.putInt(ENHANCED_PACKET_BLOCK).putInt(0).putInt(interfaceId).putInt((int)(timestampNs >>> 32))
            .putInt((int)timestampNs).putInt(length).putInt(originalLength);
        block.put(data, offset, length);
        pad();
        block.putShort((short)OPT_EPB_FLAGS).putShort((short)4).putInt(inbound ? FLAG_INBOUND : FLAG_OUTBOUND);
        block.putShort((short)OPT_END).putShort((short)0);
        finishBlock();
        packets++;
    }

    /**
     * Returns the frames written.
     *
     * @return packets.
     */
    public long packets()
    {
        return packets;
    }

    private void putStringOption(final int code, final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        block.putShort((short)code).putShort((short)bytes.length).put(bytes);
        pad();
    }

    private void pad()
    {
        while ((block.position() & 3) != 0)
        {
            block.put((byte)0);
        }
    }

    // Block total length at offset 4 and at the end.
    private void finishBlock() throws IOException
    {
        final int total = block.position() + 4;
        block.putInt(total);
        block.putInt(4, total);
        out.write(block.array(), 0, total);
    }

    @Override
    public void close() throws IOException
    {
        out.close();
    }
}
