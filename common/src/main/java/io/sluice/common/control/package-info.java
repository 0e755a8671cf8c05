/**
 * The control channel between the controller (or {@code sluice control}) and a forwarder: the shared-memory file
 * ({@link io.sluice.common.control.ControlChannel}, a command ring and a response broadcast), the wire format
 * (command and state flyweights, {@link io.sluice.common.control.ControlProtocol}; docs/control-channel.md) and the
 * client side ({@link io.sluice.common.control.ControlClient}). The forwarder's server side is in
 * {@code io.sluice.forwarder.control}. May use Agrona, {@code io.sluice.common} and {@code common.config}.
 */
package io.sluice.common.control;
