/**
 * One worker's burst orchestration ({@link io.sluice.forwarder.pipeline.PacketPipeline}): parse (through
 * {@code parse}), match the VIP, choose the backend, GRE-encapsulate, answer ICMP echo and too-big, count every
 * verdict and reason. May use {@code parse}, {@code protocol}, {@code lb} and {@code state}; allocates nothing
 * per packet.
 */
package io.sluice.forwarder.pipeline;
