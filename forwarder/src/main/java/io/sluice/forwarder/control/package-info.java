/**
 * The control channel's server side: the forwarder's control thread reads commands from the ring, hands
 * them to a {@link io.sluice.forwarder.control.CommandHandler} and answers; the wire format and the client are in
 * {@code io.sluice.common.control}.
 */
package io.sluice.forwarder.control;
