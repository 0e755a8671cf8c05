package io.sluice.common.control;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The start of every control message, command or response: the correlation id that ties a response to its command.
 * On its own it is the whole {@link ControlProtocol#ACK ACK}.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +                    Correlation ID (i64 LE)                    +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Offsets are from the start of the message, after the 8-byte record header that the Agrona ring or broadcast buffer
 * writes (length and type id). Like every flyweight here it allocates nothing for fixed fields and is reused by
 * wrapping each message in turn; {@link #validate(int)} checks a received message before any getter trusts it.
 */
public class CorrelatedFlyweight
{
    public static final int CORRELATION_ID_FIELD_OFFSET = 0;
    public static final int LENGTH = 8;

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    protected MutableDirectBuffer buffer;
    protected int offset;
    protected int length;

    /**
     * Wraps a received message, or a region to encode into.
     *
     * @param buffer holding the message.
     * @param offset where the message starts.
     * @param length the message length, or the room available when encoding.
     * @return this.
     */
    public CorrelatedFlyweight wrap(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /**
     * Returns the wrapped buffer.
     *
     * @return the buffer.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Returns where the message starts.
     *
     * @return the offset in {@link #buffer()}.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * Returns the wrapped length.
     *
     * @return the length given to {@link #wrap}.
     */
    public int length()
    {
        return length;
    }

    /**
     * Tells whether the message is long enough to hold a correlation id, so a malformed one can still be answered.
     *
     * @return true when at least {@link #LENGTH} bytes long.
     */
    public boolean hasCorrelationId()
    {
        return length >= LENGTH;
    }

    /**
     * Returns the correlation id.
     *
     * @return the id the client took from the command ring's counter.
     */
    public long correlationId()
    {
        return buffer.getLong(offset + CORRELATION_ID_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the correlation id.
     *
     * @param correlationId the id.
     * @return this.
     */
    public CorrelatedFlyweight correlationId(final long correlationId)
    {
        buffer.putLong(offset + CORRELATION_ID_FIELD_OFFSET, correlationId, ORDER);
        return this;
    }

    /**
     * Checks a received message of this layout.
     *
     * @param msgTypeId its type id, which selects the layout where one flyweight reads several.
     * @return null when it is well formed, else why not.
     */
    public String validate(final int msgTypeId)
    {
        return checkExactLength(msgTypeId, LENGTH);
    }

    final String checkExactLength(final int msgTypeId, final int expected)
    {
        return length == expected ? null :
            ControlProtocol.typeName(msgTypeId) + " must be " + expected + " bytes, got " + length;
    }

    final String checkMinLength(final int msgTypeId, final int minimum)
    {
        return length >= minimum ? null :
            ControlProtocol.typeName(msgTypeId) + " must be at least " + minimum + " bytes, got " + length;
    }

    final String checkBoolean(final int fieldOffset, final String what)
    {
        final int value = buffer.getByte(offset + fieldOffset) & 0xFF;
        return value <= 1 ? null : what + " must be 0 or 1, got " + value;
    }
}
