/**
 * The frame parser ({@link io.sluice.forwarder.parse.FrameParser}): Ethernet/802.1Q, IPv4, IPv6 with its extension
 * headers, TCP, UDP and the ICMP errors' quotes, read in place into a flow key or a pass/drop code, allocation-free.
 * May use {@code protocol} (layouts, {@code FrameBytes}), {@code lb.FlowKey} and the pipeline's {@code DropReason}
 * and {@code PassReason} (the reasons its codes name); nothing else of the pipeline.
 */
package io.sluice.forwarder.parse;
