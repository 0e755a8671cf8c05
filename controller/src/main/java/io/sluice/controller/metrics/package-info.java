/**
 * Prometheus metrics through the Prometheus Java client: {@link io.sluice.controller.metrics.ForwarderCountersCollector}
 * over the forwarder's counters file, {@link io.sluice.controller.metrics.ControllerStatusCollector} over the
 * controller's status and {@link io.sluice.controller.metrics.BuildInfoCollector}, rendered by
 * {@link io.sluice.controller.metrics.MetricsExposition}; {@code http} serves the text. May use common's config and
 * counters layout and the controller's {@code status}.
 */
package io.sluice.controller.metrics;
