/**
 * The forwarder's threads as Agrona agents: {@link io.sluice.forwarder.agent.ForwarderWorker} (one per core: RX,
 * the pipeline, TX, the counters flush; allocation-free) and {@link io.sluice.forwarder.agent.ControlAgent} (the
 * control thread: commands, Maglev rebuilds, snapshot publication, per-VIP and per-backend counters, port
 * statistics), with the counters each keeps. May use {@code dpdk}, {@code pipeline}, {@code lb}, {@code maglev},
 * {@code capture}, {@code control}, {@code counters}, {@code common} and HdrHistogram.
 */
package io.sluice.forwarder.agent;
