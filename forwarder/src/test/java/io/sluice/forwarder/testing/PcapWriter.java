package io.sluice.forwarder.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes frames to a classic libpcap file (magic 0xa1b2c3d4, version 2.4, link type 1 = Ethernet), so a failed
 * fixture's input, expected and actual frames open in Wireshark or tcpdump.
 */
public final class PcapWriter
{
    public static final int LINKTYPE_ETHERNET = 1;
    private static final int MAGIC = 0xA1B2_C3D4;
    private static final int SNAPLEN = 65_535;
    private static final int GLOBAL_HEADER_LENGTH = 24;
    private static final int RECORD_HEADER_LENGTH = 16;

    private PcapWriter()
    {
    }

    /**
     * Writes the frames, one second apart, replacing the file.
     *
     * @param file   destination; parent directories are created.
     * @param frames Ethernet frames, in order; null entries are skipped.
     * @throws IOException if the file cannot be written.
     */
    public static void write(final Path file, final List<byte[]> frames) throws IOException
    {
        Files.write(file, toBytes(frames));
    }

    /**
     * Encodes the frames as a pcap file image.
     *
     * @param frames Ethernet frames; null entries are skipped.
     * @return the file content.
     */
    public static byte[] toBytes(final List<byte[]> frames)
    {
        int length = GLOBAL_HEADER_LENGTH;
        for (final byte[] frame : frames)
        {
            length += frame == null ? 0 : RECORD_HEADER_LENGTH + frame.length;
        }
        // Written in little-endian; readers detect the order from the magic number.
        final ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(SNAPLEN)
            .putInt(LINKTYPE_ETHERNET);
        int second = 0;
        for (final byte[] frame : frames)
        {
            if (frame == null)
            {
                continue;
            }
            out.putInt(++second).putInt(0).putInt(frame.length).putInt(frame.length).put(frame);
        }
        return out.array();
    }
}
