package io.sluice.forwarder.protocol;

import org.agrona.MutableDirectBuffer;

/**
 * Base of the header flyweights: a buffer and the offset of the header in it. Flyweights of one frame share the
 * buffer, so a stack of headers never copies. Multi-byte fields are written in network byte order. They write
 * the encapsulation templates off the hot path; the parser reads headers by address ({@link FrameBytes}) with
 * their offset constants and static decoders instead.
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
}
