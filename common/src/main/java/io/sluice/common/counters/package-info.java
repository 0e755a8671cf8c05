/**
 * The counters file's layout, which the forwarder writes and the controller and {@code sluice stats} read: the
 * file and its header ({@link io.sluice.common.counters.CountersFile},
 * {@link io.sluice.common.counters.CountersFileHeader}), every counter type with its key and label
 * ({@link io.sluice.common.counters.CounterType}; docs/counters.md) and the duty-cycle buckets. Allocating and
 * writing counters is the forwarder's ({@code io.sluice.forwarder.counters}). May use Agrona, {@code io.sluice.common}
 * and {@code common.config}.
 */
package io.sluice.common.counters;
