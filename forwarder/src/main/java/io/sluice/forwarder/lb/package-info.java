/**
 * The data-side structures a worker looks up per packet, allocation-free: the connection table
 * ({@link io.sluice.forwarder.lb.ConnectionTable}, off-heap), the VIP table, the flow key and its hash, and the
 * address words both sides use. May use Agrona, {@code memory} and {@code hash}; never {@code state} or the pipeline
 * (the control side builds these, not the other way round).
 */
package io.sluice.forwarder.lb;
