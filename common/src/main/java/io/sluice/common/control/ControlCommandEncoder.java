package io.sluice.common.control;

import org.agrona.MutableDirectBuffer;

/**
 * Writes a {@link ControlCommand} in its wire layout. Reusable; one per client thread. The length is known before
 * writing ({@link #encodedLength}), so a client can claim exactly that much of the command ring and encode in place.
 */
public final class ControlCommandEncoder
{
    private static final byte[] NO_NAME = new byte[0];

    private final CommandFlyweight header = new CommandFlyweight();
    private final VipCommandFlyweight vipCommand = new VipCommandFlyweight();
    private final BackendCommandFlyweight backendCommand = new BackendCommandFlyweight();

    /**
     * Returns the message type id of a command.
     *
     * @param command the command.
     * @return one of the command ids of {@link ControlProtocol}.
     */
    public static int typeId(final ControlCommand command)
    {
        if (command instanceof ControlCommand.AddVip)
        {
            return ControlProtocol.ADD_VIP;
        }
        if (command instanceof ControlCommand.RemoveVip)
        {
            return ControlProtocol.REMOVE_VIP;
        }
        if (command instanceof ControlCommand.AddBackend)
        {
            return ControlProtocol.ADD_BACKEND;
        }
        if (command instanceof ControlCommand.RemoveBackend)
        {
            return ControlProtocol.REMOVE_BACKEND;
        }
        if (command instanceof ControlCommand.SetBackendWeight)
        {
            return ControlProtocol.SET_BACKEND_WEIGHT;
        }
        if (command instanceof ControlCommand.SetBackendHealth)
        {
            return ControlProtocol.SET_BACKEND_HEALTH;
        }
        if (command instanceof ControlCommand.DrainBackend)
        {
            return ControlProtocol.DRAIN_BACKEND;
        }
        return ControlProtocol.GET_STATE;
    }

    /**
     * Returns the length of a command on the wire, without the ring's record header.
     *
     * @param command the command.
     * @return bytes.
     */
    public static int encodedLength(final ControlCommand command)
    {
        if (command instanceof ControlCommand.AddVip addVip)
        {
            return VipCommandFlyweight.ADD_VIP_MIN_LENGTH + nameBytes(addVip.name()).length;
        }
        if (command instanceof ControlCommand.RemoveVip)
        {
            return VipCommandFlyweight.REMOVE_VIP_LENGTH;
        }
        if (command instanceof ControlCommand.AddBackend addBackend)
        {
            return BackendCommandFlyweight.ADD_BACKEND_MIN_LENGTH + nameBytes(addBackend.name()).length;
        }
        if (command instanceof ControlCommand.SetBackendWeight)
        {
            return BackendCommandFlyweight.SET_BACKEND_WEIGHT_LENGTH;
        }
        if (command instanceof ControlCommand.SetBackendHealth)
        {
            return BackendCommandFlyweight.SET_BACKEND_HEALTH_LENGTH;
        }
        if (command instanceof ControlCommand.RemoveBackend || command instanceof ControlCommand.DrainBackend)
        {
            return BackendCommandFlyweight.BACKEND_COMMAND_LENGTH;
        }
        return CommandFlyweight.HEADER_LENGTH;
    }

    /**
     * Writes a command.
     *
     * @param command       the command.
     * @param correlationId its correlation id.
     * @param senderPid     the sending process.
     * @param buffer        where to write.
     * @param offset        where the message starts.
     * @return the bytes written, {@link #encodedLength} of the command.
     */
    public int encode(final ControlCommand command, final long correlationId, final long senderPid,
        final MutableDirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset, buffer.capacity() - offset);
        header.correlationId(correlationId);
        header.senderPid(senderPid);
        if (command instanceof ControlCommand.AddVip addVip)
        {
            return vipCommand().vip(addVip.vip()).name(nameBytes(addVip.name()));
        }
        if (command instanceof ControlCommand.RemoveVip removeVip)
        {
            vipCommand().vip(removeVip.vip());
            return VipCommandFlyweight.REMOVE_VIP_LENGTH;
        }
        if (command instanceof ControlCommand.AddBackend add)
        {
            return backendCommand().vip(add.vip()).backend(add.backend()).weight(add.weight())
                .healthy(add.healthy()).name(nameBytes(add.name()));
        }
        if (command instanceof ControlCommand.RemoveBackend remove)
        {
            backendCommand().vip(remove.vip()).backend(remove.backend());
            return BackendCommandFlyweight.BACKEND_COMMAND_LENGTH;
        }
        if (command instanceof ControlCommand.SetBackendWeight set)
        {
            backendCommand().vip(set.vip()).backend(set.backend()).weight(set.weight());
            return BackendCommandFlyweight.SET_BACKEND_WEIGHT_LENGTH;
        }
        if (command instanceof ControlCommand.SetBackendHealth set)
        {
            backendCommand().vip(set.vip()).backend(set.backend()).up(set.up());
            return BackendCommandFlyweight.SET_BACKEND_HEALTH_LENGTH;
        }
        if (command instanceof ControlCommand.DrainBackend drain)
        {
            backendCommand().vip(drain.vip()).backend(drain.backend());
            return BackendCommandFlyweight.BACKEND_COMMAND_LENGTH;
        }
        return CommandFlyweight.HEADER_LENGTH;
    }

    private VipCommandFlyweight vipCommand()
    {
        vipCommand.wrap(header.buffer(), header.offset(), header.length());
        return vipCommand;
    }

    private BackendCommandFlyweight backendCommand()
    {
        backendCommand.wrap(header.buffer(), header.offset(), header.length());
        return backendCommand;
    }

    private static byte[] nameBytes(final String name)
    {
        return name == null ? NO_NAME : WireFields.utf8(name, "name");
    }
}
