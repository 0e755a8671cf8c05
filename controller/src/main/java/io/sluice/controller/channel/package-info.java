/**
 * The controller's end of the control channel: {@link io.sluice.controller.channel.ForwarderSession} sends commands
 * to the forwarder in order, retries the unconfirmed ones and resynchronizes a restarted forwarder;
 * {@link io.sluice.controller.channel.ForwarderLink} is the thin adapter over common's {@code ControlClient}.
 * May use common's control channel and Agrona's {@code ErrorHandler} (for the agent's error log) only.
 */
package io.sluice.controller.channel;
