package io.sluice.forwarder.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the frames of a classic libpcap file, microsecond (0xa1b2c3d4) or nanosecond (0xa1b23c4d) flavour, in
 * either byte order: DPDK's net_pcap writes nanosecond files.
 */
public final class PcapReader
{
    private static final int MAGIC_MICROS = 0xA1B2_C3D4;
    private static final int MAGIC_NANOS = 0xA1B2_3C4D;

    private PcapReader()
    {
    }

    /**
     * Reads every frame.
     *
     * @param file the pcap file.
     * @return the frames in file order.
     * @throws IOException if the file cannot be read or is not a pcap file.
     */
    public static List<byte[]> read(final Path file) throws IOException
    {
        final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        if (in.remaining() < 24)
        {
            throw new IOException(file + ": shorter than a pcap header");
        }
        int magic = in.getInt(0);
        if (magic != MAGIC_MICROS && magic != MAGIC_NANOS)
        {
            in.order(ByteOrder.BIG_ENDIAN);
            magic = in.getInt(0);
            if (magic != MAGIC_MICROS && magic != MAGIC_NANOS)
            {
                throw new IOException(file + ": not a pcap file (magic " + Integer.toHexString(magic) + ")");
            }
        }
        in.position(24);
        final List<byte[]> frames = new ArrayList<>();
        while (in.remaining() >= 16)
        {
            in.getInt();
            in.getInt();
            final int captured = in.getInt();
            in.getInt();
            if (captured < 0 || captured > in.remaining())
            {
                throw new IOException(file + ": record " + frames.size() + " runs past the end of the file");
            }
            final byte[] frame = new byte[captured];
            in.get(frame);
            frames.add(frame);
        }
        return frames;
    }
}
