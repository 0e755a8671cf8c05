package io.sluice.forwarder.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads back what {@link PcapNgWriter} writes (little-endian pcapng with Section Header, Interface Description and
 * Enhanced Packet Blocks), for tests and checks; other block types are skipped.
 */
public final class PcapNgReader
{
    /**
     * One frame.
     *
     * @param interfaceId    the interface index.
     * @param interfaceName  its if_name.
     * @param timestampNs    epoch nanoseconds.
     * @param originalLength length on the wire.
     * @param inbound        true for received (epb_flags inbound), false for transmitted.
     * @param data           the captured bytes.
     */
    public record Packet(int interfaceId, String interfaceName, long timestampNs, int originalLength, boolean inbound,
        byte[] data)
    {
    }

    private PcapNgReader()
    {
    }

    /**
     * Reads every frame of a file.
     *
     * @param file the pcapng file.
     * @return the frames in file order.
     * @throws IOException when the file cannot be read or is not little-endian pcapng.
     */
    public static List<Packet> read(final Path file) throws IOException
    {
        final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final List<String> interfaces = new ArrayList<>();
        final List<Packet> packets = new ArrayList<>();
        while (in.remaining() >= 12)
        {
            final int start = in.position();
            final int type = in.getInt(start);
            final int length = in.getInt(start + 4);
            if (length < 12 || length > in.remaining() || in.getInt(start + length - 4) != length)
            {
                throw new IOException(file + ": bad block length " + length + " at " + start);
            }
            if (type == PcapNgWriter.SECTION_HEADER_BLOCK && in.getInt(start + 8) != PcapNgWriter.BYTE_ORDER_MAGIC)
            {
                throw new IOException(file + ": not little-endian pcapng");
            }
            if (type == PcapNgWriter.INTERFACE_DESCRIPTION_BLOCK)
            {
                interfaces.add(stringOption(in, start + 16, start + length - 4, PcapNgWriter.OPT_IF_NAME));
            }
            else if (type == PcapNgWriter.ENHANCED_PACKET_BLOCK)
            {
                final int id = in.getInt(start + 8);
                final long ts = (in.getInt(start + 12) & 0xFFFF_FFFFL) << 32 | (in.getInt(start + 16) & 0xFFFF_FFFFL);
                final int captured = in.getInt(start + 20);
                final int original = in.getInt(start + 24);
                final byte[] data = Arrays.copyOfRange(in.array(), start + 28, start + 28 + captured);
                final int options = start + 28 + ((captured + 3) & ~3);
                final int flags = intOption(in, options, start + length - 4, PcapNgWriter.OPT_EPB_FLAGS);
                packets.add(new Packet(id, id < interfaces.size() ? interfaces.get(id) : null, ts, original,
                    (flags & 3) == PcapNgWriter.FLAG_INBOUND, data));
            }
            in.position(start + length);
        }
        return packets;
    }

    private static String stringOption(final ByteBuffer in, final int from, final int to, final int code)
    {
        for (int at = from; at + 4 <= to; )
        {
            final int c = in.getShort(at) & 0xFFFF;
            final int n = in.getShort(at + 2) & 0xFFFF;
            if (c == PcapNgWriter.OPT_END)
            {
                break;
            }
            if (c == code)
            {
                return new String(in.array(), at + 4, n, StandardCharsets.UTF_8);
            }
            at += 4 + ((n + 3) & ~3);
        }
        return null;
    }

    private static int intOption(final ByteBuffer in, final int from, final int to, final int code)
    {
        for (int at = from; at + 4 <= to; )
        {
            final int c = in.getShort(at) & 0xFFFF;
            final int n = in.getShort(at + 2) & 0xFFFF;
            if (c == PcapNgWriter.OPT_END)
            {
                break;
            }
            if (c == code && n == 4)
            {
                return in.getInt(at + 4);
            }
            at += 4 + ((n + 3) & ~3);
        }
        return 0;
    }
}
