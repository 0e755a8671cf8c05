package io.sluice.common.counters;

import io.sluice.common.config.ForwarderConfig;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Flyweight over the 128-byte header at the start of a counters file, and the file's layout.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Magic 0x534C4345 ("SLCE")                   |   0
 *  +---------------------------------------------------------------+
 *  |                        Layout Version                         |   4
 *  +---------------------------------------------------------------+
 *  |                     Owner PID (64 bits)                       |   8
 *  +---------------------------------------------------------------+
 *  |                 Start Time, epoch ms (64 bits)                |  16
 *  +---------------------------------------------------------------+
 *  |                         Max Counters                          |  24
 *  +---------------------------------------------------------------+
 *  |                  Metadata Length (max x 512)                  |  28
 *  +---------------------------------------------------------------+
 *  |                   Values Length (max x 128)                   |  32
 *  +---------------------------------------------------------------+
 *  |                  Reserved, zero, up to byte 128              ...  36
 *  +---------------------------------------------------------------+
 *  |            Agrona CountersManager metadata buffer            ... 128
 *  +---------------------------------------------------------------+
 *  |             Agrona CountersManager values buffer             ... 128 + metadata length
 *  +---------------------------------------------------------------+
 * </pre>
 * Header fields are little-endian; Agrona's buffers are in native order, which is little-endian on every platform
 * Sluice runs on. The values buffer starts on a 128-byte boundary of a page-aligned mapping, so every counter owns
 * its own two cache lines and Agrona's alignment check passes. The magic is written last, with a release fence, so
 * a reader that sees it also sees the rest of the header.
 */
public final class CountersFileHeader
{
    public static final int MAGIC = 0x534C4345;
    public static final int LAYOUT_VERSION = 1;
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET = 4;
    public static final int PID_OFFSET = 8;
    public static final int START_TIME_MS_OFFSET = 16;
    public static final int MAX_COUNTERS_OFFSET = 24;
    public static final int METADATA_LENGTH_OFFSET = 28;
    public static final int VALUES_LENGTH_OFFSET = 32;
    public static final int HEADER_LENGTH = 128;

    /**
     * Largest counter capacity: keeps the whole file (640 bytes a counter) within one mapping.
     */
    public static final int MAX_COUNTERS = 1 << 21;

    /**
     * File name inside a node's directory.
     */
    public static final String FILE_NAME = "counters.dat";

    /**
     * Where forwarders put their node directories unless configured otherwise.
     */
    public static final String DEFAULT_DIRECTORY = ForwarderConfig.DEFAULT_COUNTERS_DIR.toString();

    private final AtomicBuffer buffer;

    /**
     * Wraps the start of a mapped counters file.
     *
     * @param buffer the file's first {@link #HEADER_LENGTH} bytes (or more).
     */
    public CountersFileHeader(final AtomicBuffer buffer)
    {
        this.buffer = buffer;
    }

    /**
     * Returns the magic, with acquire semantics: if it is {@link #MAGIC}, the rest of the header is visible.
     *
     * @return the magic.
     */
    public int magic()
    {
        final int magic = buffer.getInt(MAGIC_OFFSET, BYTE_ORDER);
        VarHandle.acquireFence();
        return magic;
    }

    /**
     * Publishes the header: writes {@link #MAGIC} after a release fence, once every other field is written.
     *
     * @return this.
     */
    public CountersFileHeader publishMagic()
    {
        VarHandle.releaseFence();
        buffer.putInt(MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the layout version.
     *
     * @return the version.
     */
    public int layoutVersion()
    {
        return buffer.getInt(LAYOUT_VERSION_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the layout version.
     *
     * @param version the version.
     * @return this.
     */
    public CountersFileHeader layoutVersion(final int version)
    {
        buffer.putInt(LAYOUT_VERSION_OFFSET, version, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the process id of the forwarder that created the file.
     *
     * @return the pid.
     */
    public long pid()
    {
        return buffer.getLong(PID_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the owner's process id.
     *
     * @param pid the pid.
     * @return this.
     */
    public CountersFileHeader pid(final long pid)
    {
        buffer.putLong(PID_OFFSET, pid, BYTE_ORDER);
        return this;
    }

    /**
     * Returns when the file was created, in epoch milliseconds.
     *
     * @return the start time.
     */
    public long startTimeMs()
    {
        return buffer.getLong(START_TIME_MS_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the start time.
     *
     * @param startTimeMs epoch milliseconds.
     * @return this.
     */
    public CountersFileHeader startTimeMs(final long startTimeMs)
    {
        buffer.putLong(START_TIME_MS_OFFSET, startTimeMs, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the counter capacity.
     *
     * @return max counters.
     */
    public int maxCounters()
    {
        return buffer.getInt(MAX_COUNTERS_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the counter capacity.
     *
     * @param maxCounters max counters.
     * @return this.
     */
    public CountersFileHeader maxCounters(final int maxCounters)
    {
        buffer.putInt(MAX_COUNTERS_OFFSET, maxCounters, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the length of the metadata buffer.
     *
     * @return bytes.
     */
    public int metadataLength()
    {
        return buffer.getInt(METADATA_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the length of the metadata buffer.
     *
     * @param length bytes.
     * @return this.
     */
    public CountersFileHeader metadataLength(final int length)
    {
        buffer.putInt(METADATA_LENGTH_OFFSET, length, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the length of the values buffer.
     *
     * @return bytes.
     */
    public int valuesLength()
    {
        return buffer.getInt(VALUES_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * Sets the length of the values buffer.
     *
     * @param length bytes.
     * @return this.
     */
    public CountersFileHeader valuesLength(final int length)
    {
        buffer.putInt(VALUES_LENGTH_OFFSET, length, BYTE_ORDER);
        return this;
    }

    /**
     * Returns the metadata length Agrona needs for a capacity.
     *
     * @param maxCounters capacity.
     * @return bytes.
     */
    public static int metadataLengthFor(final int maxCounters)
    {
        return maxCounters * CountersReader.METADATA_LENGTH;
    }

    /**
     * Returns the values length for a capacity.
     *
     * @param maxCounters capacity.
     * @return bytes.
     */
    public static int valuesLengthFor(final int maxCounters)
    {
        return maxCounters * CountersReader.COUNTER_LENGTH;
    }

    /**
     * Returns where the values buffer starts.
     *
     * @param metadataLength the metadata length.
     * @return file offset.
     */
    public static int valuesOffset(final int metadataLength)
    {
        return HEADER_LENGTH + metadataLength;
    }

    /**
     * Returns the file length for a capacity.
     *
     * @param maxCounters capacity.
     * @return bytes.
     */
    public static long fileLength(final int maxCounters)
    {
        return (long)HEADER_LENGTH + metadataLengthFor(maxCounters) + valuesLengthFor(maxCounters);
    }

    /**
     * Returns the counters file of a node: {@code directory/node/counters.dat}.
     *
     * @param directory the counters directory, e.g. {@link #DEFAULT_DIRECTORY}.
     * @param node      the node name.
     * @return the path.
     */
    public static Path nodeFile(final Path directory, final String node)
    {
        return directory.resolve(node).resolve(FILE_NAME);
    }
}
