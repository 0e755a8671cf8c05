package io.sluice.forwarder.control;

import io.sluice.common.control.BackendCommandFlyweight;
import io.sluice.common.control.CommandFlyweight;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.VipCommandFlyweight;
import org.agrona.MutableDirectBuffer;

/**
 * Reads commands off the command ring into {@link ControlCommand} values. Reusable, one per consumer thread: it
 * holds the flyweights and, after each {@link #decode}, the message's correlation id and sender (when they could be
 * read) and, for a malformed message, the reason. A malformed message never throws.
 */
public final class ControlCommandDecoder
{
    private final CommandFlyweight header = new CommandFlyweight();
    private final VipCommandFlyweight vipCommand = new VipCommandFlyweight();
    private final BackendCommandFlyweight backendCommand = new BackendCommandFlyweight();

    private boolean hasCorrelationId;
    private long correlationId;
    private long senderPid;
    private String problem;

    /**
     * Decodes one message.
     *
     * @param msgTypeId the ring record's type id.
     * @param buffer    holding the message.
     * @param offset    where the message starts.
     * @param length    its length.
     * @return the command, or null when the message is malformed ({@link #problem()} says why).
     */
    public ControlCommand decode(final int msgTypeId, final MutableDirectBuffer buffer, final int offset,
        final int length)
    {
        header.wrap(buffer, offset, length);
        hasCorrelationId = header.hasCorrelationId();
        correlationId = hasCorrelationId ? header.correlationId() : 0;
        senderPid = header.hasHeader() ? header.senderPid() : 0;
        problem = null;
        try
        {
            return decodeChecked(msgTypeId, buffer, offset, length);
        }
        catch (final IllegalArgumentException ex)
        {
            // A value the wire checks let through but the model refuses: still a malformed message, not a crash.
            problem = ex.getMessage();
            return null;
        }
    }

    private ControlCommand decodeChecked(final int msgTypeId, final MutableDirectBuffer buffer, final int offset,
        final int length)
    {
        switch (msgTypeId)
        {
            case ControlProtocol.ADD_VIP:
            case ControlProtocol.REMOVE_VIP:
                vipCommand.wrap(buffer, offset, length);
                problem = vipCommand.validate(msgTypeId);
                if (problem != null)
                {
                    return null;
                }
                return msgTypeId == ControlProtocol.ADD_VIP ?
                    new ControlCommand.AddVip(vipCommand.vip(), vipCommand.name()) :
                    new ControlCommand.RemoveVip(vipCommand.vip());

            case ControlProtocol.ADD_BACKEND:
            case ControlProtocol.REMOVE_BACKEND:
            case ControlProtocol.SET_BACKEND_WEIGHT:
            case ControlProtocol.SET_BACKEND_HEALTH:
            case ControlProtocol.DRAIN_BACKEND:
                backendCommand.wrap(buffer, offset, length);
                problem = backendCommand.validate(msgTypeId);
                return problem != null ? null : backendCommand(msgTypeId);

            case ControlProtocol.GET_STATE:
                problem = header.validate(msgTypeId);
                return problem != null ? null : new ControlCommand.GetState();

            default:
                problem = "unknown command type " + msgTypeId + " (" + length + " bytes)";
                return null;
        }
    }

    private ControlCommand backendCommand(final int msgTypeId)
    {
        final BackendCommandFlyweight command = backendCommand;
        return switch (msgTypeId)
        {
            case ControlProtocol.ADD_BACKEND -> new ControlCommand.AddBackend(command.vip(), command.backend(),
                command.weight(), command.healthy(), command.name());
            case ControlProtocol.REMOVE_BACKEND -> new ControlCommand.RemoveBackend(command.vip(), command.backend());
            case ControlProtocol.SET_BACKEND_WEIGHT ->
                new ControlCommand.SetBackendWeight(command.vip(), command.backend(), command.weight());
            case ControlProtocol.SET_BACKEND_HEALTH ->
                new ControlCommand.SetBackendHealth(command.vip(), command.backend(), command.up());
            default -> new ControlCommand.DrainBackend(command.vip(), command.backend());
        };
    }

    /**
     * Tells whether the last message was long enough to carry a correlation id, so it can be answered.
     *
     * @return true when {@link #correlationId()} is meaningful.
     */
    public boolean hasCorrelationId()
    {
        return hasCorrelationId;
    }

    /**
     * Returns the last message's correlation id.
     *
     * @return the id, or 0 when {@link #hasCorrelationId()} is false.
     */
    public long correlationId()
    {
        return correlationId;
    }

    /**
     * Returns the last message's sender.
     *
     * @return the pid, or 0 when the message was too short to carry one.
     */
    public long senderPid()
    {
        return senderPid;
    }

    /**
     * Returns why the last message could not be decoded.
     *
     * @return the reason, or null when it decoded.
     */
    public String problem()
    {
        return problem;
    }
}
