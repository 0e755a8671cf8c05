package io.sluice.common.control;

/**
 * The header of every command: correlation id and the sending process. On its own it is the whole
 * {@link ControlProtocol#GET_STATE GET_STATE}.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +                    Correlation ID (i64 LE)                    +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +                      Sender PID (i64 LE)                      +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The sender pid is for the forwarder's log: who asked for a change.
 */
public class CommandFlyweight extends CorrelatedFlyweight
{
    public static final int SENDER_PID_FIELD_OFFSET = 8;
    public static final int HEADER_LENGTH = 16;

    /**
     * Returns the sender's process id.
     *
     * @return the pid the client wrote.
     */
    public long senderPid()
    {
        return buffer.getLong(offset + SENDER_PID_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the sender's process id.
     *
     * @param pid the pid.
     * @return this.
     */
    public CommandFlyweight senderPid(final long pid)
    {
        buffer.putLong(offset + SENDER_PID_FIELD_OFFSET, pid, ORDER);
        return this;
    }

    /**
     * Tells whether the message is long enough to hold the header.
     *
     * @return true when at least {@link #HEADER_LENGTH} bytes long.
     */
    public boolean hasHeader()
    {
        return length >= HEADER_LENGTH;
    }

    @Override
    public String validate(final int msgTypeId)
    {
        return checkExactLength(msgTypeId, HEADER_LENGTH);
    }
}
