/**
 * Wire layouts of the headers the forwarder reads and writes (Ethernet, IPv4, IPv6, GRE, ICMP, TCP, UDP): an RFC
 * bit diagram, {@code *_FIELD_OFFSET} constants and static decoders per header, flyweights that write the
 * encapsulation templates, and {@link io.sluice.forwarder.protocol.FrameBytes}, the by-address frame accessors of
 * the hot path. Depends on Agrona only.
 */
package io.sluice.forwarder.protocol;
