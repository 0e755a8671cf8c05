/**
 * The control side of load balancing: {@link io.sluice.forwarder.state.LoadBalancerState} (VIPs, backends, weights,
 * owned by the control thread) builds an immutable {@link io.sluice.forwarder.state.ForwardingSnapshot}, which
 * {@link io.sluice.forwarder.state.SnapshotPublisher} hands to the workers with one release store. May use
 * {@code lb} (the tables it builds), {@code maglev} and {@code common}'s config model; never the pipeline.
 */
package io.sluice.forwarder.state;
