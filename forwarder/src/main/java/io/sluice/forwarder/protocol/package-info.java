/**
 * One flyweight per header (Ethernet with an optional 802.1Q tag, IPv4, IPv6, TCP, UDP, ICMP, GRE), each with its
 * RFC's bit diagram and offset constants, network byte order explicit; {@link io.sluice.forwarder.protocol.Protocols}
 * holds the EtherTypes and IP protocol numbers. The pipeline reads fields at these offsets and the flyweights build
 * templates and test frames. Depends on Agrona only.
 */
package io.sluice.forwarder.protocol;
