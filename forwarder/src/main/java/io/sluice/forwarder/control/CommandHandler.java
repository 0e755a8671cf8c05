package io.sluice.forwarder.control;

import io.sluice.common.control.ControlCommand;

/**
 * Applies commands on the forwarder's control thread; {@link ControlServer#poll} calls it.
 */
@FunctionalInterface
public interface CommandHandler
{
    /**
     * Applies one command. An {@link IllegalArgumentException} (what {@code LoadBalancerState} throws for a bad
     * request) is turned into a refusal with its message; any other exception too, reported as an internal error.
     *
     * @param command   the decoded command.
     * @param responder the command's correlation id and sender, and the way to answer GET_STATE.
     * @return null to accept, or the reason to refuse.
     */
    String onCommand(ControlCommand command, StateResponder responder);

    /**
     * Called after one or more commands were accepted and before their acknowledgements are sent: rebuild and
     * publish the forwarding snapshot here, so an accepted command is one the workers already use. Called at most
     * once per {@link ControlServer#poll} in the usual case, more often when many answers wait.
     */
    default void onCommandsApplied()
    {
    }
}
