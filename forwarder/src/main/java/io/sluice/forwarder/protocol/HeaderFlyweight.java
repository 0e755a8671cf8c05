package io.sluice.forwarder.protocol;

import org.agrona.MutableDirectBuffer;

/**
 * Base of the header flyweights: a buffer and the offset of the header in it. Flyweights of one frame share the
 * buffer, so a stack of headers never copies. Multi-byte fields are read and written in network byte order.
 */
public abstract class HeaderFlyweight
{
    protected MutableDirectBuffer buffer;
    protected int offset;

    /**
     * Points the flyweight at a header.
     *
     * @param buffer holding the frame.
     * @param offset of the header's first byte.
     * @return this.
     */
    public HeaderFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
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
     * Returns the header's offset in the buffer.
     *
     * @return the offset.
     */
    public int offset()
    {
        return offset;
    }
}
