package io.sluice.forwarder.control;

import io.sluice.common.control.ControlCommand;
import io.sluice.common.Vip;

import java.net.InetAddress;

/**
 * What a {@link CommandHandler} knows about the command it handles, and how it answers GET_STATE: one
 * {@link #emitVip} per VIP and one {@link #emitBackend} per backend (a VIP's backends after it, by convention).
 * {@link ControlServer} sends STATE_END with the entry count once the handler returns null. Valid only during the
 * {@code onCommand} call it was passed to.
 */
public interface StateResponder
{
    /**
     * Returns the correlation id of the command being handled.
     *
     * @return the id.
     */
    long correlationId();

    /**
     * Returns the pid of the process that sent the command, for the log.
     *
     * @return the pid the client wrote.
     */
    long senderPid();

    /**
     * Reports one VIP; only while handling {@link ControlCommand.GetState}.
     *
     * @param vip  the service.
     * @param name its name, or null; cut to 255 bytes of UTF-8.
     * @throws IllegalStateException when the command is not GET_STATE.
     */
    void emitVip(Vip vip, String name);

    /**
     * Reports one backend; only while handling {@link ControlCommand.GetState}.
     *
     * @param vip         the service.
     * @param backend     the backend's address.
     * @param weight      its weight.
     * @param healthy     whether it may take flows.
     * @param name        its name, or null; cut to 255 bytes of UTF-8.
     * @param maglevSlots entries of the VIP's current Maglev table that point at it.
     * @throws IllegalStateException when the command is not GET_STATE.
     */
    void emitBackend(Vip vip, InetAddress backend, int weight, boolean healthy, String name, int maglevSlots);
}
