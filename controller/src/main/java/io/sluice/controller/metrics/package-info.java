/**
 * Prometheus metrics through the Prometheus Java client: {@link io.sluice.controller.metrics.ForwarderCountersCollector}
 * over the forwarder's counters file, {@link io.sluice.controller.metrics.ControllerStatusCollector} over the
 * controller's status and {@link io.sluice.controller.metrics.BuildInfoCollector}, rendered by
 * {@link io.sluice.controller.metrics.MetricsExposition}; {@link io.sluice.controller.http.ControllerHttpServer} is the
 * thin HTTP adapter that serves them. May use common's counters layout and the controller's status.
 */
package io.sluice.controller.metrics;
