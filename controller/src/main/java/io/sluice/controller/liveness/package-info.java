/**
 * Decides whether the forwarder lives: {@link io.sluice.controller.liveness.ForwarderLiveness} is the pure,
 * clock-driven core; {@link io.sluice.controller.liveness.CountersObserver} is the thin adapter that reads the
 * forwarder's counters file. May use common's config and counters layout only.
 */
package io.sluice.controller.liveness;
